"""Command line: ``python -m engine score`` (JSON Lines in on stdin, one JSON line out per input line)."""

from __future__ import annotations

import argparse
import sys

from . import strict_json
from .errors import HandError
from .json_lines import stop_writing, write_line
from .scoring import score_request


def _score_stream(lines, out) -> int:
    failures = 0
    for line in lines:
        try:
            if not line.strip():
                # A blank line is a line too: answered, so that answer n stays the answer to line n (interfaces.md).
                raise ValueError("the line is empty")
            data = strict_json.loads(line)
        except HandError as error:  # a key twice in one object (duplicate_key): JSON, but ambiguous
            result = {"ok": False, "error": error.to_json()}
        except (ValueError, RecursionError) as error:
            # JSONDecodeError is a ValueError, and so is UnicodeDecodeError (a line of bytes that is not UTF-8); json
            # also raises plain ValueError for an integer over Python's digit limit and RecursionError for deep
            # nesting: the line is still answered, and the run goes on.
            result = {"ok": False, "error": {"code": "invalid_json", "message": f"line is not JSON: {error}"}}
        else:
            result = score_request(data)
        failures += not result["ok"]
        write_line(result, out)
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Score mahjong hands (MCR or riichi).")
    commands = parser.add_subparsers(dest="command", required=True)
    score_parser = commands.add_parser("score", help="score JSON Lines hands from stdin (or files) to stdout")
    score_parser.add_argument("files", nargs="*", help="JSON Lines files (default: standard input)")
    args = parser.parse_args(argv)
    status = 0
    if args.command == "score":
        try:
            # Lines are read as bytes: json.loads decodes each, so a line that is not UTF-8 is answered as not JSON.
            if args.files:
                for name in args.files:
                    try:
                        handle = open(name, "rb")
                    except OSError as error:  # said on stderr; the other files are still scored
                        print(f"python -m engine score: cannot read {name!r}: {error.strerror or error}",
                              file=sys.stderr)
                        status = 2
                        continue
                    with handle:
                        _score_stream(handle, sys.stdout)
            else:
                _score_stream(sys.stdin.buffer, sys.stdout)
        except BrokenPipeError:
            return stop_writing()
    # Bad lines are answered on their own line; the exit status stays 0 so pipelines keep their output.
    return status


if __name__ == "__main__":
    sys.exit(main())
