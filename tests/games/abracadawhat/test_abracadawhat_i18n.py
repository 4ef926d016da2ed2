"""Abracada...What? in another language: every text the rules core gives a page (a view's prompt,
an event's text, a refusal's reason, a setup error, an option's description) is a translatable
:class:`~companion.i18n.Text` whose template the compiled Italian catalog translates, and a whole
view or event translated into Italian has every ``{placeholder}`` filled.

The games are random but seeded: legal moves, chance from the game's own ``sample``, and now and
then a wrong action (another player's, a wrong stone, a face the die does not have, a malformed
deal...) to provoke the refusals."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from abr_support import GAME, cast, names, seated
from abr_support import step as accepted
from babel.messages.pofile import read_po
from babel.support import Translations

from companion.games import plugin
from companion.games.abracadawhat.rules import SPELLS
from companion.i18n import TRANSLATIONS, Text, translate
from companion.rules import EVERYTHING, HOST, TABLE, Accepted, Refusal, SetupError

GAME_CATALOGS = plugin("abracadawhat").translations

PLACEHOLDER = re.compile(r"\{(\w*)\}")
#: The options a random game is played with: every switch that changes what is said.
OPTIONS = [
    {},
    {"order_violation": "require_objection"},
    {"removal": "tap"},
    {"easy": True},
    {"last_wizard_standing": True},
    {"resolve_last_effect": False},
    {"die_faces": [0, 1, 2, 6]},
    {"removal": "tap", "order_violation": "require_objection", "last_wizard_standing": True},
    {"start_life": 2, "life_cap": 3},
]
SEEDS = range(60)


@pytest.fixture(scope="module")
def italian() -> dict[str, str]:
    """The compiled Italian messages the server looks the rules' texts up in: the game's own
    catalog and the server's (``common.py``'s refusals are there)."""
    merged: dict[str, str] = {}
    for folder, domain in ((TRANSLATIONS, "messages"), (GAME_CATALOGS, "abracadawhat")):
        found = Translations.load(str(folder), ["it"], domain)
        assert isinstance(found, Translations), f"it/{domain}.mo is not compiled"
        merged.update({k: v for k, v in found._catalog.items() if isinstance(k, str) and k})
    return merged


def texts_in(value: Any) -> list[Text]:
    """Every :class:`Text` in ``value``, with the texts among their values."""
    if isinstance(value, Text):
        return [value, *(x for v in value.params.values() for x in texts_in(v))]
    if isinstance(value, dict):
        return [x for v in value.values() for x in texts_in(v)]
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in texts_in(v)]
    return []


def strings_in(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [x for v in value.values() for x in strings_in(v)]
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in strings_in(v)]
    return []


def assert_translated(text: Any, italian: dict[str, str], what: str) -> None:
    assert isinstance(text, Text), f"{what} is not translatable: {text!r}"
    for inner in texts_in(text):
        assert italian.get(inner.msgid), f"{what}: no Italian for {inner.msgid!r}"
        assert set(PLACEHOLDER.findall(italian[inner.msgid])) <= set(inner.params), inner.msgid


def assert_filled(value: Any, italian: dict[str, str], what: str) -> Any:
    """``value`` in Italian, with no ``{placeholder}`` left in any of its strings."""
    translated = translate(value, lambda msgid: italian.get(msgid) or msgid)
    for s in strings_in(translated):
        assert not PLACEHOLDER.search(s), f"{what}: {s!r}"
    return translated


TYPES = [
    "deal",
    "deal_stone",
    "cast",
    "remove",
    "roll",
    "take_secret",
    "decline_secret",
    "object",
    "allow",
    "end_turn",
    "refill",
]


def expected_action(rng: random.Random, s: dict, step: int) -> dict:
    """What the game waits for: chance from its own ``sample`` (a deal now and then stone by
    stone, a refill stone by stone, tagged) or a legal decision (a removal now and then tagged)."""
    if GAME.chance(s) is not None:
        action = GAME.sample(s)
        if action["type"] == "deal" and rng.random() < 0.4:
            return {"type": "deal_stone", "stone": rng.choice(s["reserve"]), "tag": f"d{step}"}
        if action["type"] == "refill" and rng.random() < 0.5:
            return {
                "type": "refill",
                "player": action["player"],
                "stone": action["stones"][0],
                "tag": f"r{step}",
            }
        return action
    legal = GAME.legal_actions(s)
    if not legal:  # the game is over
        return {"type": rng.choice(TYPES), "player": rng.choice(s["players"]), "spell": 8}
    action = rng.choice(legal)
    if action["type"] == "remove" and rng.random() < 0.5:
        tags = [uid for uid, (_, n) in s["tags"].items() if n == action["stone"]]
        if tags:
            action = dict(action, tag=rng.choice(tags))
    return action


def mutated(rng: random.Random, s: dict, action: dict) -> dict:
    """``action`` with one thing wrong: often refused, each time for its own reason."""
    a = dict(action)
    players, tags = s["players"], sorted(s["tags"])
    fixes = [
        lambda: a.update(
            player=rng.choice([*(p for p in players if p != a.get("player")), "Zed", None])
        ),
        lambda: a.update(
            type=rng.choice([t for t in TYPES if t != a["type"]]),
            player=rng.choice(players),
            spell=rng.randint(1, 8),
        ),
        lambda: a.update(
            tag=rng.choice(tags) if tags and rng.random() < 0.8 else rng.choice(["", 5])
        ),
        lambda: a.update(spell=rng.choice([0, 9, True, "x", rng.randint(1, 8)])),
        lambda: a.update(stone=rng.choice([0, 9, None, rng.randint(1, 8)])),
        lambda: a.update(value=rng.choice([-1, 0, 7, 2.0, True, "a", rng.randint(1, 6)])),
        lambda: a.update(slot=rng.choice([-1, 0, 1, 2, 3, 4, True, None])),
    ]
    if a["type"] == "refill":
        fixes.append(
            lambda: a.update(
                stones=rng.choice([[], "x", [9], [rng.randint(1, 8)] * rng.randint(1, 6)])
            )
        )
    if a["type"] == "remove" and "stone" in a:  # the right number, from somewhere else
        elsewhere = [
            uid
            for uid, (where, n) in sorted(s["tags"].items())
            if n == a["stone"] and where != f"rack:{s['active']}"
        ]
        if elsewhere:
            fixes.append(lambda: a.update(tag=rng.choice(elsewhere)))
    if a["type"] == "take_secret":
        fixes.append(
            lambda: (a.pop("slot", None), a.update(tag=rng.choice(tags) if tags else "none"))
        )
    if a["type"] == "deal" and "racks" in a:
        racks = {p: list(r) for p, r in a["racks"].items()}
        victim = rng.choice(players)
        fixes = [  # the deal's own mistakes
            lambda: a.update(racks=None),
            lambda: a.update(racks={p: r for p, r in racks.items() if p != victim}),
            lambda: a.update(racks=racks | {victim: racks[victim][:4]}),
            lambda: a.update(racks=racks | {victim: "x"}),
            lambda: a.update(racks=racks | {"Zed": racks[victim]}),
            lambda: a.update(secret=rng.choice([a["secret"][:3], "x", [1, 1, 1, 1]])),
            lambda: a.update(removed=rng.choice([[1], "x", a["removed"][:-1] or [2]])),
        ]
    rng.choice(fixes)()
    return a


def next_action(rng: random.Random, s: dict, step: int) -> dict:
    action = expected_action(rng, s, step)
    if rng.random() < 0.35:
        return mutated(rng, s, action)
    if rng.random() < 0.03:  # not an action at all
        return rng.choice([{"type": None}, {"type": "fly", "player": s["players"][0]}, {}])
    return action


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    """Seeded random games: every view, event and refusal they gave."""
    seen: dict[str, Any] = {"views": [], "events": [], "refusals": [], "finished": 0}
    for seed in SEEDS:
        rng = random.Random(seed)
        players = names(rng.randint(2, 5))
        s = GAME.new(players, rng.choice(OPTIONS), seed=seed)
        over = 0  # steps since the game ended: a few more wrong actions, then the next game
        for step in range(600):
            if step % 5 == 0 or s["phase"] in ("over", "objection", "secret"):
                viewer = rng.choice([*players, TABLE, HOST, EVERYTHING])
                seen["views"].append(GAME.view(s, viewer))
            if s["phase"] == "over":
                over += 1
                if over > 3:
                    seen["finished"] += 1
                    break
            action = next_action(rng, s, step)
            result = GAME.apply(s, action)
            if isinstance(result, Refusal):
                seen["refusals"].append(result)
            else:
                assert isinstance(result, Accepted)
                seen["events"] += list(result.events)
                s = result.state
    return seen


def test_the_random_games_say_a_lot(played):
    """The games reach their ends and provoke many different texts."""
    assert played["finished"] >= len(SEEDS) // 2
    assert len({v["prompt"].msgid for v in played["views"]}) >= 10
    assert len({e["text"].msgid for e in played["events"]}) >= 25
    assert len({r.reason.msgid for r in played["refusals"]}) >= 30


def test_every_prompt_is_translated(played, italian):
    for view in played["views"]:
        assert_translated(view["prompt"], italian, f"the prompt of phase {view['phase']}")


def test_every_event_text_is_translated(played, italian):
    for event in played["events"]:
        assert_translated(event["text"], italian, f"the text of a {event['type']} event")
        for text in texts_in(event):  # private parts and fields too
            assert_translated(text, italian, f"a text in a {event['type']} event")


def test_every_refusal_reason_is_translated(played, italian):
    for refusal in played["refusals"]:
        assert_translated(refusal.reason, italian, f"the reason of a {refusal.rule} refusal")


def test_whole_views_and_events_in_italian_have_no_placeholder_left(played, italian):
    for view in played["views"]:
        translated = assert_filled(view, italian, f"a view in phase {view['phase']}")
        assert translated["prompt"] != view["prompt"]  # it really is in Italian
    for event in played["events"]:
        assert_filled(event, italian, f"a {event['type']} event")
    for refusal in played["refusals"]:
        assert_filled(refusal.reason, italian, f"a {refusal.rule} refusal")


def test_the_english_is_made_from_the_templates(played):
    """A Text's English is its template filled with its values: nothing is added around it."""
    for text in (
        [v["prompt"] for v in played["views"]]
        + [e["text"] for e in played["events"]]
        + [r.reason for r in played["refusals"]]
    ):
        assert str(text) == text.msgid.format(**text.params)


def test_spell_names_translate_inside_sentences(italian):
    s = GAME.new(names(3), seed=3)
    while GAME.chance(s) is not None:
        s = GAME.apply(s, GAME.sample(s)).state
    result = GAME.apply(s, {"type": "cast", "player": s["players"][s["active"]], "spell": 3})
    declared = result.events[0]
    assert declared["text"] == f"{s['players'][s['active']]} declares 3 Sweet Dreams."
    it = translate(declared["text"], lambda m: italian.get(m) or m)
    assert it == f"{s['players'][s['active']]} dichiara 3 Sogni d’Oro."
    for spell in SPELLS.values():
        assert_translated(spell, italian, "a spell's name")


def test_a_shared_victory_is_said_in_italian(italian):
    """ABR-GAME-2: the winners' names are joined by the translated "and"."""
    state = seated(
        4,
        {"Cid": [3, 5, 6, 7, 8]},
        active="Cid",
        life={"Cid": 1, "Ann": 4, "Ben": 4},
        score={"Ann": 7, "Ben": 7, "Dee": 6},
    )
    result = accepted(state, cast("Cid", 2))
    over = [e for e in result.events if e["type"] == "game_over"][0]
    prompt = GAME.view(result.state, TABLE)["prompt"]
    why = (
        "Ann and Ben reached 8 points together with as many points gained in the last round and "
        "as much life left: they share the victory, ABR-GAME-2"
    )
    assert over["text"] == f"Ann and Ben win the game ({why})."
    assert over["rule"] == "ABR-GAME-2"
    assert prompt == f"The game is over: Ann and Ben won ({why})."
    in_italian = translate([over["text"], prompt], lambda m: italian.get(m) or m)
    perche = (
        "Ann e Ben hanno raggiunto 8 punti insieme con gli stessi punti guadagnati nell'ultimo "
        "round e gli stessi punti vita: condividono la vittoria, ABR-GAME-2"
    )
    assert in_italian == [
        f"Ann e Ben vincono la partita ({perche}).",
        f"La partita è finita: vittoria di Ann e Ben ({perche}).",
    ]


@pytest.mark.parametrize(
    "options", [{"start_life": 0}, {"life_cap": 0}, {"die_faces": [-1]}, {"die_faces": [True]}]
)
def test_setup_errors_are_translated(options, italian):
    with pytest.raises(SetupError) as error:
        GAME.new(names(3), options)
    assert_translated(error.value.args[0], italian, f"the setup error for {options}")


def test_option_descriptions_are_translated(italian):
    for option in GAME.options:
        assert_translated(option.doc, italian, f"the description of option {option.name}")


def test_the_italian_catalog_keeps_every_placeholder():
    """Each Italian message has exactly the English one's placeholders."""
    with open(GAME_CATALOGS / "it" / "LC_MESSAGES" / "abracadawhat.po", "rb") as f:
        catalog = read_po(f)
    for message in catalog:
        if message.id:
            assert message.string, f"untranslated: {message.id!r}"
            assert set(PLACEHOLDER.findall(message.string)) == set(
                PLACEHOLDER.findall(message.id)
            ), message.id
