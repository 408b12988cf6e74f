"""Writing JSON Lines to a stdout that may refuse them: the two command lines' (``python -m engine score``,
``python -m vision recognize``) shared output, standard library only."""

from __future__ import annotations

import json
import os
import sys
from typing import Any, TextIO


def write_line(value: Any, out: TextIO | None = None) -> None:
    """``value`` as one JSON line on ``out`` (default: stdout), flushed; escaped to ASCII where its text cannot be
    written as it is: a stdout in cp1252 (a Windows console or file) cannot hold the fans' ``name_zh``, nor one in
    UTF-8 a file name's bytes that are not UTF-8 (a camera card's GBK names), and either stopped a run with a
    traceback."""
    out = sys.stdout if out is None else out
    text = json.dumps(value, ensure_ascii=False)
    try:
        # tried strictly, whatever the stream's own error handler: under a C.UTF-8 or POSIX locale Python's stdout
        # uses surrogateescape, which writes a file name's undecodable bytes back raw, and the line is no longer
        # UTF-8 (nor JSON to any reader) though nothing raised (session 56's audit)
        text.encode(getattr(out, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        text = json.dumps(value)
    try:
        out.write(text + "\n")
    except UnicodeEncodeError:  # a stream that names no encoding, or not the one it writes
        out.write(json.dumps(value) + "\n")
    out.flush()


def stop_writing() -> int:
    """After a BrokenPipeError (whoever read the lines went away: ``... | head -n 1``): stdout goes to devnull, so
    that the interpreter's flush at exit does not raise it again (Python docs, signal), and the exit status is 1, as
    cat's; no traceback."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 1
