"""The host's resume API for a kept game whose data set changed since it began: a clear refusal
(409, TABLE-GAME-5) naming both fingerprints, in the host's language; never a 500, and the game
at the table stays."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

from support import get, post, request

OTHER = "0123456789abcdef"


def test_resuming_under_changed_data_is_refused_clearly(server):
    status, answer = post(
        f"{server.host}/api/new_game",
        {"game": "dorktower", "players": ["Ann", "Bo"], "seed": 1, "confirm": True},
    )
    assert status == 200, answer
    first = answer["game_id"]
    status, answer = post(
        f"{server.host}/api/new_game",
        {"game": "abracadawhat", "players": ["Ann", "Bo"], "seed": 1, "confirm": True},
    )
    second = answer["game_id"]
    with closing(sqlite3.connect(server.companion.config.database)) as db:
        [(options,)] = db.execute("SELECT options FROM games WHERE id = ?", (first,))
        options = json.loads(options)
        current = options["data_fingerprint"]
        options["data_fingerprint"] = OTHER
        db.execute("UPDATE games SET options = ? WHERE id = ?", (json.dumps(options), first))
        db.commit()
    status, answer = post(f"{server.host}/api/resume_game", {"game_id": first, "confirm": True})
    assert status == 409 and answer["rule"] == "TABLE-GAME-5", answer
    assert answer["reason"] == (
        f"Game {first} cannot be set up any more, so it cannot be resumed: the data set "
        f"'example' has changed since this game began (DT-AMB-5): the game was played with "
        f"fingerprint {OTHER}, the data set now has {current}."
    )
    status, answer, _ = request(
        f"{server.host}/api/resume_game",
        "POST",
        {"game_id": first, "confirm": True},
        headers={"X-CSRF-Token": get(f"{server.host}/api/state")["csrf"], "Accept-Language": "it"},
    )
    assert status == 409 and answer["reason"].startswith(
        f"La partita {first} non si può più preparare, quindi non si può riprendere: "
        "l'insieme di dati 'example' è cambiato"
    )
    assert OTHER in answer["reason"] and current in answer["reason"]
    assert get(f"{server.host}/api/state")["game"]["id"] == second
