"""Command line: ``python -m engine score`` (JSON Lines in on stdin, one JSON line out per input line)."""

from __future__ import annotations

import argparse
import json
import sys

from .scoring import score_request


def _score_stream(lines, out) -> int:
    failures = 0
    for line in lines:
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except (ValueError, RecursionError) as error:
            # JSONDecodeError is a ValueError; json also raises plain ValueError for an integer over Python's digit
            # limit and RecursionError for deep nesting: the line is still answered, and the run goes on.
            result = {"ok": False, "error": {"code": "invalid_json", "message": f"line is not JSON: {error}"}}
        else:
            result = score_request(data)
        failures += not result["ok"]
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
        out.flush()
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Score mahjong hands (MCR or riichi).")
    commands = parser.add_subparsers(dest="command", required=True)
    score_parser = commands.add_parser("score", help="score JSON Lines hands from stdin (or files) to stdout")
    score_parser.add_argument("files", nargs="*", help="JSON Lines files (default: standard input)")
    args = parser.parse_args(argv)
    if args.command == "score":
        if args.files:
            for name in args.files:
                with open(name, encoding="utf-8") as handle:
                    _score_stream(handle, sys.stdout)
        else:
            _score_stream(sys.stdin, sys.stdout)
    # Bad lines are answered on their own line; the exit status stays 0 so pipelines keep their output.
    return 0


if __name__ == "__main__":
    sys.exit(main())
