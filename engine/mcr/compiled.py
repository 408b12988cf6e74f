"""Which module scores: ``fast.py`` compiled by Cython (``engine/mcr/_fast_c``), or ``fast.py`` itself.

``python -m engine.mcr.build_fast`` (run by ``make setup``) compiles this package's ``fast.py``, unchanged, into the
extension module ``_fast_c`` and writes the SHA-256 of the source it compiled beside it (``DIGEST_FILE``). The
engine stays pure Python with the standard library only: without the compiled module (no C compiler, no Cython, or
``MAHJONG_ENGINE_PURE=1``) it scores with ``fast.py`` itself, the same answers about 1.3 times slower. A compiled
module built from another ``fast.py`` than the one beside it is never used (a stale build would score by old code);
the digest is checked before the module is imported, so a stale one is not even loaded.
"""

from __future__ import annotations

import hashlib
import os
import sysconfig
import warnings
from collections.abc import Mapping
from importlib import import_module
from pathlib import Path
from types import ModuleType

SOURCE = Path(__file__).with_name("fast.py")
COMPILED_NAME = "_fast_c"
# The extension module for this interpreter, and beside it the digest of the source it was built from: one digest per
# extension, so that interpreters sharing a checkout never take each other's digest for their own build's.
COMPILED_FILE = SOURCE.with_name(COMPILED_NAME + sysconfig.get_config_var("EXT_SUFFIX"))
DIGEST_FILE = COMPILED_FILE.with_name(COMPILED_FILE.name + ".sha256")
PURE_ENV = "MAHJONG_ENGINE_PURE"

PURE_REQUESTED = f"fast.py ({PURE_ENV}=1)"
NOT_BUILT = "fast.py (no compiled module: python -m engine.mcr.build_fast makes it)"
STALE = "fast.py (the compiled module was built from another fast.py: python -m engine.mcr.build_fast rebuilds it)"
COMPILED = "fast.py compiled by Cython (engine/mcr/_fast_c)"


def bytes_digest(data: bytes) -> str:
    """The SHA-256 (hex) of a source's bytes: the one digest the build writes and the loader checks."""
    return hashlib.sha256(data).hexdigest()


def source_digest(source: Path = SOURCE) -> str:
    """The digest of ``source``'s bytes: what a compiled module must have been built from."""
    return bytes_digest(source.read_bytes())


def load(environ: Mapping[str, str] = os.environ, digest_file: Path = DIGEST_FILE,
         source: Path = SOURCE) -> tuple[ModuleType, str]:
    """(the module whose ``score`` and ``best_reading`` the engine uses, why it was chosen: one of the constants
    above). A stale compiled module also gives a RuntimeWarning, since it means a build step was missed."""
    if environ.get(PURE_ENV) == "1":
        return import_module(".fast", __package__), PURE_REQUESTED
    try:
        built_from = digest_file.read_text(encoding="ascii").split()[:1]  # (the first line: the source's digest)
    except (OSError, UnicodeError):
        return import_module(".fast", __package__), NOT_BUILT
    if built_from != [source_digest(source)]:
        warnings.warn(f"engine/mcr/{COMPILED_NAME} was not built from this fast.py; scoring with fast.py itself "
                      "(python -m engine.mcr.build_fast rebuilds it)", RuntimeWarning, stacklevel=2)
        return import_module(".fast", __package__), STALE
    try:
        return import_module("." + COMPILED_NAME, __package__), COMPILED
    except ImportError:  # the digest written, the extension gone or built for another interpreter
        return import_module(".fast", __package__), NOT_BUILT
