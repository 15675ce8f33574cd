"""What every export of ours shares (tournament results, the pit boss's shift report): the error
it raises, text escaped for reportlab's paragraphs, and a file written whole or not at all."""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from dealer_assist.errors import DealerAssistError


class ExportError(DealerAssistError):
    """An export that could not be made or written (the message names the file and why)."""


def escape(text: str) -> str:
    """``text`` for a reportlab ``Paragraph`` (its markup: ``&``, ``<``, ``>``)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def replace_file(path: Path, write: Callable[[io.BufferedWriter], object]) -> Path:
    """Write through a temporary file in the same folder, fsync, rename over ``path``: a
    reader never sees half a file. Raises ExportError naming the file and why."""
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    except OSError as e:
        raise ExportError(f"{path}: cannot write there: {e.strerror}") from e
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise ExportError(f"{path}: cannot write: {e.strerror}") from e
    return path
