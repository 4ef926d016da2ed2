"""Rules-core throughput on random legal playouts (goal: at least 20,000 actions per second).

Each playout is a whole game (every player count 2..5, a mix of options): at each step the core
is asked for its chance step or its legal actions, one is chosen, and ``apply`` runs. Time counts
all three, i.e. what a referee loop costs.

    python bench/rules_throughput.py [--games 400] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import common  # noqa: F401  (puts the project on the path)

from companion.games import get_game

OPTION_MIX = [
    {},
    {"easy": True},
    {"last_wizard_standing": True},
    {"removal": "tap"},
    {"order_violation": "require_objection"},
]


def playouts(games: int, seed: int) -> tuple[int, float]:
    game = get_game("abracadawhat")
    rng = random.Random(seed)
    actions = 0
    started = time.perf_counter()
    for g in range(games):
        players = [f"P{i}" for i in range(2 + g % 4)]
        state = game.new(players, OPTION_MIX[g % len(OPTION_MIX)], seed=seed * 100_000 + g)
        while state["phase"] != "over":
            if game.chance(state) is not None:
                action = game.sample(state)
            else:
                action = rng.choice(game.legal_actions(state))
            state = game.apply(state, action).state
            actions += 1
    return actions, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rates = []
    for r in range(args.repeat):
        actions, seconds = playouts(args.games, seed=r + 1)
        rates.append(actions / seconds)
        print(f"run {r + 1}: {actions} actions in {seconds:.2f} s = {actions / seconds:,.0f}/s")
    print(
        f"RESULT rules throughput: median {statistics.median(rates):,.0f} actions/s "
        f"(min {min(rates):,.0f}, max {max(rates):,.0f}) over {args.repeat} x {args.games} games"
    )


if __name__ == "__main__":
    main()
