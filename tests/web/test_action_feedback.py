"""Feedback where the person looks: the answer to a phone's own move says what it caused, as that
player sees it (a penalty with its rule), in the phone's language; every phone's snapshot says
when the host paused the game; an undo says in words what it withdrew and what goes back."""

from __future__ import annotations

from support import csrf_for, get, post, request

ITALIAN = {"Cookie": "companion_lang=it"}


def rack(server, player):
    return server.table.referee_view()["players"][player]["rack"]


def act(url, action, headers):
    """A phone's move, with that phone's headers (its language)."""
    status, answer, _ = request(
        f"{url}/api/action", "POST", action, headers={"X-CSRF-Token": csrf_for(url), **headers}
    )
    return status, answer


def lower_spell_game(server, game):
    """Elena (to play) casts a spell she holds; the lower spell she may cast next."""
    held = max(rack(server, "Elena"))
    assert held >= 5  # no die to roll and no secret stone to take (seed 7)
    status, answer = post(f"{game['Elena']}/api/action", {"type": "cast", "spell": held})
    assert status == 200 and answer["ok"], answer
    status, answer = post(f"{server.host}/sim/remove")  # the right neighbour lays it down
    assert answer["ok"], answer
    view = server.table.referee_view()
    assert (view["active"], view["phase"]) == ("Elena", "declare")
    return held, held - 1


def test_a_penalty_is_told_to_the_phone_that_caused_it_with_its_rule(server, game):
    """ABR-CAST-8: a lower spell costs a life, and the caster's phone hears it in the answer to
    the cast itself (not only far down in "What happened"): the events, with the rule."""
    held, lower = lower_spell_game(server, game)
    status, answer = post(f"{game['Elena']}/api/action", {"type": "cast", "spell": lower})
    assert status == 200 and answer["ok"]
    kinds = [e["type"] for e in answer["seen"]]
    assert kinds[:3] == ["declared", "out_of_order", "life"]
    penalty = answer["seen"][1]
    assert penalty["rule"] == "ABR-CAST-8"
    assert penalty["text"].endswith("just cast: Elena loses 1 life and the turn ends.")
    assert f"{lower} " in penalty["text"] and f"than the {held} " in penalty["text"]
    assert answer["seen"][2]["text"] == "Elena loses 1 life (out-of-order cast)."
    # the table's journal keeps the answer without them
    assert "seen" not in server.table.journal[-1]


def test_the_answer_is_in_the_phones_language(server, game):
    held, lower = lower_spell_game(server, game)
    status, answer = act(game["Elena"], {"type": "cast", "spell": lower}, ITALIAN)
    assert status == 200 and answer["ok"]
    penalty = answer["seen"][1]
    assert penalty["rule"] == "ABR-CAST-8"
    assert "Elena perde 1 punto vita e il turno finisce" in penalty["text"], penalty["text"]


def test_the_answer_shows_a_player_only_what_that_player_may_see(server, game):
    """The events a move caused, as the mover sees them (``view_event``): never another
    audience's private part (ABR-HID-*)."""
    held, lower = lower_spell_game(server, game)
    status, answer = post(f"{game['Elena']}/api/action", {"type": "end_turn"})
    assert status == 200 and answer["ok"]
    assert answer["seen"], answer
    for event in answer["seen"]:
        assert "private" not in event or "Elena" in event.get("audience", ()), event
    status, answer = post(f"{game['Denise']}/api/action", {"type": "cast", "spell": 8})
    assert status == 409 and "seen" not in answer  # a refusal: its rule and reason only


def test_every_phone_hears_the_pause_and_the_resume(server, game):
    """A pause (TABLE-GAME-3) is in every viewer's snapshot, so every phone disables its inputs;
    a move while paused is refused with the pause's rule."""
    status, answer = post(f"{server.host}/api/pause")
    assert status == 200 and answer["ok"]
    for name in ("Elena", "Denise", "Marta"):
        assert get(f"{game[name]}/api/state")["game"]["paused"] is True
    status, answer = post(f"{game['Elena']}/api/action", {"type": "cast", "spell": 8})
    assert status == 409 and answer["rule"] == "TABLE-GAME-3"
    status, answer = post(f"{server.host}/api/resume")
    assert status == 200 and answer["ok"]
    assert get(f"{game['Marta']}/api/state")["game"]["paused"] is False


def test_an_undone_removal_says_what_goes_back(server):
    """Undo after a tapped removal (ABR-CAST-4): the stone is on the board, so the undo says in
    words what was undone and asks for the stone back on the caster's rack, before the prompt
    asks the neighbour to take it from the rack again."""
    links = server.new_game(["Elena", "Denise", "Marta"], {"removal": "tap"}, seed=7)
    status, answer = post(f"{server.host}/sim/draw_all")
    assert answer["ok"], answer
    held = max(rack(server, "Elena"))
    status, answer = post(f"{links['Elena']}/api/action", {"type": "cast", "spell": held})
    assert answer["ok"], answer
    status, answer = post(f"{server.host}/sim/remove")
    assert answer["ok"], answer
    status, answer = post(f"{server.host}/api/undo")
    assert status == 200 and answer["ok"], answer
    snap = get(f"{links['Denise']}/api/state")
    undone = snap["events"][-1]
    assert undone["type"] == "undone"
    assert undone["text"] == (
        f"Undone: Marta laying Elena's {held} on the board. "
        f"Put the {held} from the board back on Elena's rack."
    )
    assert undone["put_back"] == f"Put the {held} from the board back on Elena's rack."
    assert snap["view"]["prompt"].startswith(f"Marta: take a {held} from Elena's rack")
