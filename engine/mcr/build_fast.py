"""Compile ``engine/mcr/fast.py`` with Cython into ``engine/mcr/_fast_c`` (a build step, run by ``make setup``).

    python -m engine.mcr.build_fast            # builds when missing or out of date, else says so
    python -m engine.mcr.build_fast --force    # builds again

The source is compiled as it is (no Cython types), with two directives that keep Python's semantics exactly:
``annotation_typing=False`` (``fast.py``'s annotations are documentation; a ``dict`` annotation made Cython reject the
package's ``_Cache``, a dict subclass) and ``infer_types=False`` (with Cython's default inference the compiled module
rejected honours-and-knitted and thirteen-orphans hands as not winning and looped on others; with no inference every
value stays a Python object). ``tests/mcr/test_compiled.py`` checks the compiled module against ``fast.py`` on
thousands of hands. Needs Cython (the ``compiled`` extra) and a C compiler; the engine never imports Cython, and
without the compiled module it scores with ``fast.py`` itself (``engine.mcr.compiled``).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

from .compiled import COMPILED_FILE, COMPILED_NAME, DIGEST_FILE, SOURCE, bytes_digest, source_digest

DIRECTIVES = ("language_level=3", "annotation_typing=False", "infer_types=False")


def build_key() -> str:
    """What else than the source decides the compiled module: this script (its directives) and Cython's version.
    Written as the digest file's second line, which ``up_to_date`` checks and the loader ignores (a module built
    by another Cython from the same source answers the same, as ``tests/mcr/test_compiled.py`` checks)."""
    import Cython

    recipe = Path(__file__).read_bytes() + f"\n{DIRECTIVES}\nCython {Cython.__version__}".encode()
    return "build " + hashlib.sha256(recipe).hexdigest()


def up_to_date(compiled: Path = COMPILED_FILE, digest_file: Path = DIGEST_FILE, source: Path = SOURCE) -> bool:
    """The extension for this interpreter is there, built from the ``fast.py`` beside it by this recipe."""
    try:
        lines = digest_file.read_text(encoding="ascii").split()
        return compiled.exists() and lines[:1] == [source_digest(source)] and " ".join(lines[1:]) == build_key()
    except (OSError, UnicodeError, ImportError):
        return False


@contextmanager
def _locked(path: Path):
    """One build at a time per checkout (POSIX ``flock``; elsewhere none): two builds in turn never pair one's
    extension with the other's digest."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    with open(path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _replace_atomically(data: bytes, target: Path) -> None:
    """Write ``data`` to a file of its own beside ``target`` and rename it into place: a reader sees the old file
    or the new one, never half of one, and a running process keeps the old extension it has mapped."""
    handle, staged = tempfile.mkstemp(dir=target.parent, prefix=target.name + ".", suffix=".new")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(staged, target)
    except BaseException:
        Path(staged).unlink(missing_ok=True)
        raise


def build() -> Path:
    """Compile ``fast.py`` as ``engine.mcr._fast_c`` in a scratch package (its relative imports need the package's
    name; the scratch directory keeps Cython's C file and setuptools' build tree out of the checkout), then put the
    extension beside ``fast.py`` and write the digest of the very bytes compiled. Raises RuntimeError with the
    compiler's output when the build fails, OSError when the files cannot be written."""
    source_bytes = SOURCE.read_bytes()  # (read once: the digest is of what was compiled, even if fast.py changes)
    digest = bytes_digest(source_bytes)
    with tempfile.TemporaryDirectory(prefix="build_fast_") as scratch:
        package = Path(scratch, "engine", "mcr")
        package.mkdir(parents=True)
        Path(scratch, "engine", "__init__.py").touch()
        (package / "__init__.py").touch()
        (package / f"{COMPILED_NAME}.py").write_bytes(source_bytes)
        command = [sys.executable, "-m", "Cython.Build.Cythonize", "-i"]
        for directive in DIRECTIVES:
            command += ["-X", directive]
        command.append(f"engine/mcr/{COMPILED_NAME}.py")
        run = subprocess.run(command, cwd=scratch, capture_output=True, text=True)
        built = package / COMPILED_FILE.name
        if run.returncode != 0 or not built.exists():
            raise RuntimeError(f"Cython build of {SOURCE} failed (exit {run.returncode}):\n{run.stdout}{run.stderr}")
        target = COMPILED_FILE
        with _locked(DIGEST_FILE.with_name(DIGEST_FILE.name + ".lock")):
            # (the digest goes last: a build interrupted before it leaves no digest, and so no compiled module in
            # use)
            DIGEST_FILE.unlink(missing_ok=True)
            _replace_atomically(built.read_bytes(), target)
            _replace_atomically(f"{digest}\n{build_key()}\n".encode("ascii"), DIGEST_FILE)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.mcr.build_fast", description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="build even when the compiled module is up to date")
    args = parser.parse_args(argv)
    if not args.force and up_to_date():
        print(f"{COMPILED_FILE.name}: up to date with fast.py")
        return 0
    try:
        import Cython  # noqa: F401 (only to say clearly what is missing)
    except ImportError:
        print("Cython is not installed (pip install -e '.[compiled]'); the engine scores with fast.py itself",
              file=sys.stderr)
        return 1
    print(f"compiling {SOURCE.name} with Cython (about a minute on 2 cores) ...", flush=True)
    try:
        target = build()
    except (RuntimeError, OSError) as error:
        print(error, file=sys.stderr)
        print("the engine scores with fast.py itself", file=sys.stderr)
        return 1
    print(f"built {target.relative_to(SOURCE.parents[2])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
