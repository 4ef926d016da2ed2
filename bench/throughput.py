"""A game's rules-core throughput on random playouts, the table display's view included
(goals: Abracada...What? at least 20,000 actions per second; Dork Tower's 7-10k should not fall).

Each playout is a game of every player count in turn and a mix of the game's options (each
option's choices in turn); at each step the core is asked for its chance step and its legal
actions, one is chosen (the chance step, when one is awaited, seven times in ten), ``apply`` runs,
and the public view is built, as the running table does for its display and LEDs (``--no-view``
leaves it out). A playout stops at the end of the game or after ``--steps`` actions.

    python bench/throughput.py --game abracadawhat [--games 400] [--steps 1000] [--repeat 5]
    python bench/throughput.py --game dorktower --games 40

It imports the ``companion`` of the tree it lives in (``common``); it also runs against a tree
from before the games were packages (``companion.rules.get_game``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import common  # noqa: F401  (puts the project on the path)

from companion.rules import TABLE

try:
    from companion.games import get_game
except ImportError:  # a tree from before the games were packages
    from companion.rules import get_game


def option_mix(game, number: int) -> dict:
    """The ``number``-th mix of options: each option with choices (or a yes/no) takes them in
    turn, at its own pace."""
    mix = {}
    for place, option in enumerate(game.options):
        values = list(option.choices) or ([False, True] if isinstance(option.default, bool) else [])
        if values:
            mix[option.name] = values[(number // (place + 1)) % len(values)]
    return mix


def playouts(game_id: str, games: int, steps: int, seed: int, view: bool) -> tuple[int, float]:
    game = get_game(game_id)
    rng = random.Random(seed)
    counts = range(game.min_players, min(game.max_players, 5) + 1)
    actions = 0
    started = time.perf_counter()
    for number in range(games):
        players = [f"P{i}" for i in range(counts[number % len(counts)])]
        state = game.new(players, option_mix(game, number), seed=seed * 100_000 + number)
        for _ in range(steps):
            if game.outcome(state).finished:
                break
            legal = game.legal_actions(state)
            if game.chance(state) is not None and (not legal or rng.random() < 0.7):
                action = game.sample(state)
            elif legal:
                action = rng.choice(legal)
            else:
                break
            result = game.apply(state, action)
            if not hasattr(result, "state"):  # refused: a legal move the rules then refuse
                raise AssertionError(f"{game_id}: {action} refused: {result}")
            state = result.state
            if view:
                game.view(state, TABLE)
            actions += 1
    return actions, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True, help="the game's id")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-view", action="store_true", help="leave the public view out")
    args = parser.parse_args()
    rates = []
    for r in range(args.repeat):
        actions, seconds = playouts(args.game, args.games, args.steps, r + 1, not args.no_view)
        rates.append(actions / seconds)
        print(f"run {r + 1}: {actions} actions in {seconds:.2f} s = {actions / seconds:,.0f}/s")
    print(
        f"RESULT {args.game} throughput: median {statistics.median(rates):,.0f} actions/s "
        f"(min {min(rates):,.0f}, max {max(rates):,.0f}) over {args.repeat} x {args.games} "
        f"games of up to {args.steps} actions, {'no view' if args.no_view else 'view included'}"
    )


if __name__ == "__main__":
    main()
