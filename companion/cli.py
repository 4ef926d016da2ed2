"""The ``companion`` command."""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    rp = sub.add_parser("replay", help="replay a JSON Lines game file and print the state as JSON")
    rp.add_argument(
        "file", help="JSON Lines: a header line, then one action per line ('-' = stdin)"
    )
    rp.add_argument("--view", metavar="PLAYER", help="print what PLAYER may see instead")
    _data_set_arguments(rp, "play with")

    run = sub.add_parser("run", help="run the table: devices, rules, log and the web server")
    run.add_argument("--config", metavar="FILE", help="a TOML configuration file")
    run.add_argument(
        "--data",
        metavar="DIR",
        help="where the table keeps its database (default: $XDG_DATA_HOME/companion)",
    )
    run.add_argument("--host", help="address to serve on (default 0.0.0.0: every interface)")
    run.add_argument("--port", type=int, help="port to serve on (default 8080; 0 picks a free one)")
    run.add_argument(
        "--dice-speed",
        type=float,
        metavar="X",
        help="simulated dice: 1 throws in real time (default), 0 instantly",
    )
    run.add_argument(
        "--real",
        action="store_true",
        help="use the real devices of the configuration instead of simulated ones",
    )
    _data_set_arguments(run, "play with (also [games.GAME] data_set in the configuration)")

    doc = sub.add_parser(
        "doctor",
        help="check every configured device, show an LED test "
        "pattern, and wait for a tag, a button and a roll",
    )
    doc.add_argument("--config", metavar="FILE", help="a TOML configuration file")
    doc.add_argument("--data", metavar="DIR", help="the table's data directory")
    doc.add_argument(
        "--real",
        action="store_true",
        help="check the real devices of the configuration instead of simulated ones",
    )
    doc.add_argument(
        "--wait",
        type=float,
        default=30.0,
        metavar="S",
        help="seconds to wait for each of a tag, a button and a roll (0: do not wait)",
    )

    tags = sub.add_parser("tags", help="export or import the NFC tag registry")
    tags.add_argument("action", choices=("export", "import"))
    tags.add_argument("file", help="the JSON tag file ('-' = stdout/stdin)")
    tags.add_argument("--data", metavar="DIR", help="the table's data directory")
    tags.add_argument("--replace", action="store_true", help="import: forget every other tag")

    storage = sub.add_parser(
        "storage", help="check the table's storage, or accept entries that were lost"
    )
    storage.add_argument(
        "action",
        choices=("check", "accept-loss"),
        help="check: every check of the start, and every entry's checksum; "
        "accept-loss: continue from what the database holds when it holds less "
        "than was acknowledged",
    )
    storage.add_argument("--config", metavar="FILE", help="a TOML configuration file")
    storage.add_argument("--data", metavar="DIR", help="the table's data directory")
    storage.add_argument("--yes", action="store_true", help="accept-loss: accept without asking")

    args = parser.parse_args(argv)
    return _COMMANDS[args.command](args)


def _data_set_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """``--data-set GAME=DIR`` (repeatable), and each game's own ``--<game>-data DIR`` as before
    (hidden)."""
    from .games import ids

    parser.add_argument(
        "--data-set",
        metavar="GAME=DIR",
        action="append",
        default=[],
        help=f"a game's data set to {what}; default: the game's bundled one",
    )
    for game in ids():
        parser.add_argument(
            f"--{game}-data", metavar="DIR", dest=f"data_set_{game}", help=argparse.SUPPRESS
        )


def _data_sets(args: argparse.Namespace, command: str) -> dict[str, str] | None:
    """The data sets asked for on the command line, game -> folder (None: a malformed one)."""
    from .games import ids

    found = {game: folder for game in ids() if (folder := getattr(args, f"data_set_{game}", None))}
    for given in args.data_set:
        game, sep, folder = given.partition("=")
        if not sep or not folder or game not in ids():
            print(
                f"{command}: --data-set takes GAME=DIR, GAME one of {', '.join(ids())}; "
                f"not {given!r}",
                file=sys.stderr,
            )
            return None
        found[game] = folder
    return found


def _use_data_sets(folders: dict[str, str], command: str) -> bool:
    """Load each game's data set before anything starts: the folder asked for, or the game's
    bundled one (checked now, so a mistake in it stops the start too); a mistake is reported
    with its file, place and problem."""
    from .games import plugins

    for game in plugins():
        data_sets = game.data
        if data_sets is None:
            continue
        try:
            if game.id in folders:
                data_sets.use(folders[game.id])
            else:
                data_sets.check_default()
        except data_sets.error as exc:
            print(f"{command}: the {game.title} data set is refused: {exc}", file=sys.stderr)
            return False
    return True


def _replay(args: argparse.Namespace) -> int:
    from .table.replay import ReplayError, replay

    folders = _data_sets(args, "companion replay")
    if folders is None or (folders and not _use_data_sets(folders, "companion replay")):
        return 2
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


def _config(args: argparse.Namespace, **overrides):
    from pathlib import Path

    from .config import ConfigError, load

    try:
        return load(
            Path(args.config) if getattr(args, "config", None) else None,
            data_dir=Path(args.data) if args.data else None,
            **overrides,
        )
    except ConfigError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return None


def _run(args: argparse.Namespace) -> int:
    from .devices.factory import DeviceSetupError
    from .server import run

    folders = _data_sets(args, "companion")
    if folders is None:
        return 2
    config = _config(
        args,
        host=args.host,
        port=args.port,
        dice_speed=args.dice_speed,
        mode="real" if args.real else None,
    )
    if config is None:
        return 2
    if not _use_data_sets(dict(config.data_sets) | folders, "companion"):
        return 2
    try:
        return run(config)
    except DeviceSetupError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2


def _doctor(args: argparse.Namespace) -> int:
    from . import doctor
    from .lights import Layout

    config = _config(args, mode="real" if args.real else None, dice_speed=0.0)
    if config is None:
        return 2
    layout = Layout(seats=config.seats, tower_pixels=config.tower_pixels)
    return doctor.run(config, layout.strips(), wait=args.wait)


def _tags(args: argparse.Namespace) -> int:
    from .table.storage import EXIT_STORAGE, StorageError
    from .table.store import Store
    from .table.tags import TagError, TagRegistry

    config = _config(args)
    if config is None:
        return 2
    try:
        store = Store(config.database)
    except StorageError as exc:
        print(f"companion tags: {exc}", file=sys.stderr)
        return EXIT_STORAGE
    try:
        registry = TagRegistry(store)
        if args.action == "export":
            text = json.dumps(registry.export(), indent=2) + "\n"
            if args.file == "-":
                sys.stdout.write(text)
            else:
                with open(args.file, "w", encoding="utf-8") as f:
                    f.write(text)
            print(f"exported {len(registry)} tags", file=sys.stderr)
            return 0
        try:
            if args.file == "-":
                data = json.load(sys.stdin)
            else:
                with open(args.file, encoding="utf-8") as f:
                    data = json.load(f)
            count = registry.import_(data, replace=args.replace)
        except (OSError, json.JSONDecodeError, TagError) as exc:
            print(f"companion tags import: {args.file}: {exc}", file=sys.stderr)
            return 2
        print(f"imported {count} tags", file=sys.stderr)
        return 0
    finally:
        store.close()


def _storage(args: argparse.Namespace) -> int:
    """``companion storage check|accept-loss``: 0 when the storage is ok (or the loss was
    accepted), EXIT_STORAGE when it cannot be used, 1 when a loss was not accepted."""
    import textwrap

    from .table.storage import EXIT_STORAGE, StorageError
    from .table.storage_checks import accept_loss, check_storage

    def say(text: str, file=sys.stdout) -> None:
        print(
            textwrap.fill(text, 100, break_long_words=False, break_on_hyphens=False),
            file=file,
            flush=True,
        )

    def confirm(found: str) -> bool:
        say(found)
        if args.yes:
            return True
        if not sys.stdin.isatty():
            say("Nothing was changed: run again with --yes to accept.", sys.stderr)
            return False
        return input("Accept the loss? Type yes to accept: ").strip().lower() == "yes"

    config = _config(args)
    if config is None:
        return 2
    try:
        if args.action == "check":
            say("storage ok: " + check_storage(config.database).summary())
            return 0
        outcome = accept_loss(config.database, confirm)
    except StorageError as exc:
        say(str(exc), sys.stderr)
        return EXIT_STORAGE
    if not outcome.lost:
        say(outcome.found)
        return 0
    if not outcome.accepted:
        return 1
    say("Accepted: the mark now matches the database; `companion run` starts from what it holds.")
    return 0


_COMMANDS = {"doctor": _doctor, "replay": _replay, "run": _run, "storage": _storage, "tags": _tags}
