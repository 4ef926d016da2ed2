"""The ``companion`` command."""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    rp = sub.add_parser("replay", help="replay a JSON Lines game file and print the state as JSON")
    rp.add_argument("file", help="JSON Lines: a header line, then one action per line ('-' = stdin)")
    rp.add_argument("--view", metavar="PLAYER", help="print what PLAYER may see instead")

    args = parser.parse_args(argv)
    return _COMMANDS[args.command](args)


def _replay(args: argparse.Namespace) -> int:
    from .table.replay import ReplayError, replay

    try:
        if args.file == "-":
            result = replay(sys.stdin, view=args.view)
        else:
            with open(args.file, encoding="utf-8") as f:
                result = replay(f, view=args.view)
    except OSError as exc:
        print(f"companion replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except ReplayError as exc:
        print(f"companion replay: {args.file}: {exc}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


_COMMANDS = {"replay": _replay}
