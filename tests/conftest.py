"""Shared fixtures: paths to the shared specs and golden cases."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CASES = SHARED / "cases"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the repository; tests that need it skip when it is absent."""
    if not SHARED.is_dir():
        pytest.skip(f"shared folder not found at {SHARED}")
    return SHARED
