"""Dork Tower rules-core throughput on random playouts, with the table display's view each step.

A random player rarely reaches Z'Mindrik, so each playout stops after ``--steps`` actions (or at
the end of the game). At each step the core is asked for its chance step or its legal actions, one
is chosen, ``apply`` runs, and the public view is built, as the running table does for its
display and LEDs. No target is set by the issue; the number shows the headroom on a Pi.

    python bench/dorktower_throughput.py [--games 40] [--steps 1000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import common  # noqa: F401  (puts the project on the path)

from companion.games import get_game
from companion.rules import TABLE


def playouts(games: int, steps: int, seed: int) -> tuple[int, float]:
    game = get_game("dorktower")
    rng = random.Random(seed)
    actions = 0
    started = time.perf_counter()
    for g in range(games):
        players = [f"P{i}" for i in range(2 + g % 5)]
        state = game.new(players, {}, seed=seed * 100_000 + g)
        for _ in range(steps):
            if state["phase"] == "over":
                break
            legal = game.legal_actions(state)
            if game.chance(state) is not None and (not legal or rng.random() < 0.7):
                action = game.sample(state)
            else:
                action = rng.choice(legal)
            state = game.apply(state, action).state
            game.view(state, TABLE)
            actions += 1
    return actions, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rates = []
    for r in range(args.repeat):
        actions, seconds = playouts(args.games, args.steps, seed=r + 1)
        rates.append(actions / seconds)
        print(f"run {r + 1}: {actions} actions in {seconds:.2f} s = {actions / seconds:,.0f}/s")
    print(
        f"RESULT Dork Tower throughput: median {statistics.median(rates):,.0f} actions/s "
        f"(min {min(rates):,.0f}, max {max(rates):,.0f}) over {args.repeat} x {args.games} "
        f"games of up to {args.steps} actions, view included"
    )


if __name__ == "__main__":
    main()
