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
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .compiled import COMPILED_FILE, COMPILED_NAME, DIGEST_FILE, SOURCE, source_digest

DIRECTIVES = ("language_level=3", "annotation_typing=False", "infer_types=False")


def compiled_path() -> Path:
    """Where the extension module goes: beside ``fast.py``, named for this interpreter."""
    return COMPILED_FILE


def up_to_date() -> bool:
    """The extension for this interpreter is there and was built from the ``fast.py`` beside it."""
    try:
        return compiled_path().exists() and DIGEST_FILE.read_text(encoding="ascii").strip() == source_digest()
    except OSError:
        return False


def build() -> Path:
    """Compile a copy of ``fast.py`` as ``engine.mcr._fast_c`` in a scratch package (its relative imports need the
    package's name; the scratch directory keeps Cython's C file and setuptools' build tree out of the checkout), then
    move the extension beside ``fast.py`` and write the digest of the source it was built from. Raises
    RuntimeError with the compiler's output when the build fails."""
    digest = source_digest()
    with tempfile.TemporaryDirectory(prefix="build_fast_") as scratch:
        package = Path(scratch, "engine", "mcr")
        package.mkdir(parents=True)
        Path(scratch, "engine", "__init__.py").touch()
        (package / "__init__.py").touch()
        shutil.copyfile(SOURCE, package / f"{COMPILED_NAME}.py")
        command = [sys.executable, "-m", "Cython.Build.Cythonize", "-i"]
        for directive in DIRECTIVES:
            command += ["-X", directive]
        command.append(f"engine/mcr/{COMPILED_NAME}.py")
        run = subprocess.run(command, cwd=scratch, capture_output=True, text=True)
        built = package / compiled_path().name
        if run.returncode != 0 or not built.exists():
            raise RuntimeError(f"Cython build of {SOURCE} failed (exit {run.returncode}):\n{run.stdout}{run.stderr}")
        # (the digest goes last: a build interrupted before it leaves no digest, and so no compiled module in use;
        # the extension is renamed into place, never written over: this process, as any running one, may have the
        # old file mapped, since importing engine.mcr loads it)
        DIGEST_FILE.unlink(missing_ok=True)
        target = compiled_path()
        staged = target.with_name(target.name + ".new")
        shutil.copyfile(built, staged)
        os.replace(staged, target)
    DIGEST_FILE.write_text(digest + "\n", encoding="ascii")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.mcr.build_fast", description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="build even when the compiled module is up to date")
    args = parser.parse_args(argv)
    if not args.force and up_to_date():
        print(f"{compiled_path().name}: up to date with fast.py")
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
    except RuntimeError as error:
        print(error, file=sys.stderr)
        print("the engine scores with fast.py itself", file=sys.stderr)
        return 1
    print(f"built {target.relative_to(SOURCE.parents[2])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
