"""Shared fixtures: paths to the shared specs and golden cases; what a test opened, closed at its
teardown even when it fails (:class:`Closer`); the check that no test leaves a thread running.

Register what a test opens (card source, device, emulator process, journal, console...) with
the ``closer`` fixture, or with :func:`close_at_teardown` from a helper that has no fixtures::

    source = closer.add(open_source(url))        # closed at teardown, also when the test fails
    journal = close_at_teardown(Journal(path))   # the same, from a helper class or function

Both are the same per-test :class:`Closer`: it closes what it holds last-registered first after
the test and its function-scoped fixtures, and before the leaked-thread check.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, suppress
from pathlib import Path
from typing import Any, TypeVar

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CASES = SHARED / "cases"

T = TypeVar("T")
# How long a thread started by a test may take to end after the test's teardown.
THREAD_GRACE = 2.0


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the repository; tests that need it skip when it is absent."""
    if not SHARED.is_dir():
        pytest.skip(f"shared folder not found at {SHARED}")
    return SHARED


# -- unit, integration, gui -------------------------------------------------------------------

KINDS = ("unit", "integration", "gui")
#: modules of Qt widget tests (also any test using one of GUI_FIXTURES)
GUI_MODULES = frozenset(
    {
        "test_console_command",
        "test_console_gui",
        "test_console_manual",
        "test_console_text_fit",
        "test_manual_keypad",
        "test_qt_binding",
    }
)
GUI_FIXTURES = frozenset({"qtbot", "qapp", "console_app", "console_factory"})
#: modules on real ptys, emulator processes, subprocesses, device worker threads with their
#: timeouts, or camera pipelines (also any test marked ``postgres``)
INTEGRATION_MODULES = frozenset(
    {
        "test_audit",
        "test_camera_cli",
        "test_camera_live_calibration",
        "test_camera_photos",
        "test_camera_pipeline",
        "test_camera_shapes",
        "test_camera_source",
        "test_console_presenter",
        "test_console_sources",
        "test_emulator_process",
        "test_failover",
        "test_fuzz_tcrp",
        "test_import_contracts",
        "test_journal_crash",
        "test_legacy_journal",
        "test_misdeal",
        "test_reconnect",
        "test_recovery",
        "test_serial_transport",
        "test_soak",
        "test_table_runner",
        "test_tcrp_device",
        "test_usb_table",
        "test_usb_transport",
    }
)


def kind_of(item: pytest.Item) -> str:
    """``unit``, ``integration`` or ``gui`` for ``item``: its own marker of the three if it has
    one (a subprocess test in a module of unit tests), else by fixtures and module; unit is
    the rest."""
    own = {m.name for m in item.iter_markers() if m.name in KINDS}
    if len(own) > 1:
        raise pytest.UsageError(f"{item.nodeid} is marked {' and '.join(sorted(own))}")
    if own:
        return own.pop()
    module = item.path.stem
    if module in GUI_MODULES or GUI_FIXTURES & set(getattr(item, "fixturenames", ())):
        return "gui"
    if module in INTEGRATION_MODULES or item.get_closest_marker("postgres") is not None:
        return "integration"
    return "unit"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test gets exactly one of the markers unit, integration and gui (``-m unit`` runs
    the quick ones; the README's command runs all)."""
    for item in items:
        kind = kind_of(item)
        if item.get_closest_marker(kind) is None:
            item.add_marker(kind)


# -- what a test opened, closed at its teardown -------------------------------------------------


class Closer:
    """Closes what a test registered, last registered first, at the test's teardown (also when
    the test failed); every registered close runs even when an earlier one raises."""

    active: Closer | None = None  # the running test's (set by the autouse fixture)

    def __init__(self) -> None:
        self._stack = ExitStack()

    def add(self, obj: T) -> T:
        """Register ``obj`` (its ``close()``, ``stop()`` for an emulator process, kill-and-reap
        for a ``subprocess.Popen``) and return it. Registering before ``open()`` is right: the
        closes are safe on what never opened."""
        if isinstance(obj, subprocess.Popen):
            self._stack.callback(_reap, obj)
            return obj  # type: ignore[return-value]
        for name in ("close", "stop"):
            method = getattr(obj, name, None)
            if callable(method):
                self._stack.callback(method)
                return obj
        raise TypeError(f"{obj!r} has neither close() nor stop()")

    def callback(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        """Call ``fn(*args, **kwargs)`` at teardown (e.g. set a stop event, join a thread)."""
        self._stack.callback(fn, *args, **kwargs)

    def close(self) -> None:
        """Close everything now (idempotent)."""
        self._stack.close()


def _reap(proc: subprocess.Popen[Any]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        if pipe is not None:
            with suppress(OSError):  # a broken pipe to a killed child
                pipe.close()


def close_at_teardown(obj: T) -> T:
    """Register ``obj`` with the running test's :class:`Closer` (for helpers without fixtures)
    and return it."""
    if Closer.active is None:
        raise RuntimeError("close_at_teardown() called outside a test")
    return Closer.active.add(obj)


@pytest.fixture
def card_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where a test's emulator logs the cards it dealt (``emulator://?dealt_log=``): in a
    private data folder (``XDG_DATA_HOME``), with the development switch ``DEALER_ASSIST_DEV=1``
    on; card logs are refused otherwise (:mod:`dealer_assist.at_rest`)."""
    from dealer_assist.at_rest import DEV_ENV, data_folder

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv(DEV_ENV, "1")
    return data_folder() / "dealt.jsonl"


@pytest.fixture
def closer() -> Closer:
    """The running test's :class:`Closer`."""
    assert Closer.active is not None
    return Closer.active


# -- leaked threads ----------------------------------------------------------------------------


def _describe(thread: threading.Thread) -> str:
    target = getattr(thread, "_target", None)
    where = getattr(target, "__qualname__", None) or repr(target)
    module = getattr(target, "__module__", None)
    daemon = ", daemon" if thread.daemon else ""
    return f"{thread.name!r} (target {module + '.' if module else ''}{where}{daemon})"


def _ours(thread: threading.Thread) -> bool:
    """Threads the check judges: not Qt's or other foreign threads that called into Python
    (``_DummyThread``), not pytest-timeout's timer."""
    if isinstance(thread, threading._DummyThread):  # type: ignore[attr-defined]
        return False
    target = getattr(thread, "_target", None)
    return not (getattr(target, "__module__", None) or "").startswith("pytest_timeout")


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """A test that switched a console to Italian leaves no translator or number format to the
    next test (only when the UI kit was imported: core tests import no Qt)."""
    yield
    i18n = sys.modules.get("ui.kit.i18n")
    if i18n is not None:
        i18n.reset_language()


@pytest.fixture(autouse=True)
def _closed_and_no_leaked_threads() -> Iterator[None]:
    """Per test: a :class:`Closer` closed at teardown, then a check that every thread started
    during the test has ended (within ``THREAD_GRACE`` s); a thread still running fails this
    test's teardown, naming it. Threads alive when the test started (those of session- and
    module-scoped fixtures, set up before this function-scoped one) are not judged."""
    before = set(threading.enumerate())
    closer = Closer()
    previous, Closer.active = Closer.active, closer  # previous: an outer run's (pytester)
    try:
        yield
    finally:
        Closer.active = previous
        try:
            closer.close()
        finally:
            _fail_on_leaked_threads(before)


def _fail_on_leaked_threads(before: set[threading.Thread]) -> None:
    deadline = time.monotonic() + THREAD_GRACE
    leaked = []
    for thread in threading.enumerate():
        if thread in before or not _ours(thread):
            continue
        thread.join(max(0.0, deadline - time.monotonic()))
        if thread.is_alive():
            leaked.append(thread)
    if leaked:
        names = ", ".join(_describe(t) for t in leaked)
        pytest.fail(f"thread(s) still running after the test's teardown: {names}", pytrace=False)
