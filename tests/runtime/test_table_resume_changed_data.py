"""A kept game whose data set changed since it began is not resumed under the new data: the
table refuses (TABLE-GAME-5) with the game's own reason, which names both fingerprints, and
nothing changes. The game is named only by the test: the table stays generic."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

from test_table_kept_games import PLAYERS, close, dork_tower, open_table, state_of

from companion.games import get_game
from companion.i18n import Text

OTHER = "0123456789abcdef"


def test_a_game_kept_under_other_data_is_refused_naming_both_fingerprints(tmp_path):
    path = tmp_path / "data" / "companion.db"
    table = open_table(path)
    first = dork_tower(table, steps=10)
    current = table.history.state["options"]["data_fingerprint"]
    assert current == get_game("dorktower").datasets["example"]["fingerprint"]
    second = table.call(
        "new_game", "host", game="abracadawhat", players=PLAYERS, seed=2, confirm=True
    )["game_id"]
    close(table)
    with closing(sqlite3.connect(path)) as db:  # as if the data set had changed since
        [(options,)] = db.execute("SELECT options FROM games WHERE id = ?", (first,))
        kept = json.loads(options) | {"data_fingerprint": OTHER}
        db.execute("UPDATE games SET options = ? WHERE id = ?", (json.dumps(kept), first))
        db.commit()
    table = open_table(path)
    try:
        before = state_of(table)
        answer = table.call("resume_game", "host", game_id=first, confirm=True)
        assert answer["ok"] is False and answer["rule"] == "TABLE-GAME-5", answer
        reason = answer["reason"]
        assert isinstance(reason, Text)
        assert reason.startswith(f"Game {first} cannot be set up any more, so it cannot be resumed")
        assert OTHER in reason and current in reason and "DT-AMB-5" in reason
        assert table.record.id == second and state_of(table) == before
    finally:
        close(table)
