"""The plug-in contract, over every registered game: each part the table, the simulation, the
pages and the CLI need exists and behaves (``companion/plugin.py``, ``docs/architecture.md``).

A random playout of each game (its players' legal actions and the chance steps it awaits)
checks at every step what the generic layers rely on: the view's common keys for every viewer,
the input mapping's split between phones and sensors, the LED drawing and its cues."""

from __future__ import annotations

import inspect
import json
import random
import re

import pytest
from secrets_play import choices, random_options

from companion.games import GAME_IDS, plugin, plugins
from companion.i18n import DEFAULT, LANGUAGES, Text
from companion.lights import LEGEND_KINDS, OFF, Cue, Layout, StatusLights, legend, render
from companion.plugin import CONTROLS, TABLE_VIEW_KEYS, OptionText, describe_option
from companion.rules import HOST, TABLE, Accepted, Game, Option
from companion.table.inputs import GameInputs, inputs_for
from companion.table.sim import GameHands

GAMES = [pytest.param(game_id, id=game_id) for game_id in GAME_IDS]
STEPS = 150
GENERIC_ACTS = {
    "tap",
    "tap_unknown",
    "tap_box",
    "press",
    "roll",
    "place",
    "throw",
    "crooked",
    "dice_noise",
}


def playout(game: Game, seed: int, steps: int = STEPS):
    """The states of a random game of ``game``, each with the action that led to it."""
    rng = random.Random(seed)
    players = [f"P{n}" for n in range(rng.randint(game.min_players, min(game.max_players, 5)))]
    state = game.new(players, random_options(game, rng), seed=seed)
    yield state, None, ()
    for _ in range(steps):
        if game.outcome(state).finished:
            return
        for action in choices(game, state, rng):
            result = game.apply(state, action)
            if isinstance(result, Accepted):
                state = result.state
                yield state, action, result.events
                break
        else:
            return


@pytest.mark.parametrize("game_id", GAMES)
def test_the_plugin_names_its_game(game_id):
    found = plugin(game_id)
    game = found.game
    assert found.id == game.id == game_id and found.title == game.title
    assert found.package == f"companion.games.{game_id}"
    assert isinstance(game, Game) and 1 <= game.min_players <= game.max_players
    assert plugin(game_id) is found and found.game is game  # loaded once
    assert all(isinstance(n, int) and n > 0 for n in game.components.values())


@pytest.mark.parametrize("game_id", GAMES)
def test_every_view_has_the_common_keys_and_the_lights_draw_it(game_id):
    found = plugin(game_id)
    game, mapping = found.game, inputs_for(found.game)
    drawer = found.drawer or StatusLights()
    layout = Layout(seats=8)
    colours = [(n, n, n) for n in range(0, 240, 30)]
    for seed in range(3):
        for state, action, events in playout(game, seed):
            players = game.players(state)
            for viewer in (TABLE, HOST, *players):
                view = game.view(state, viewer)
                missing = [key for key in TABLE_VIEW_KEYS if key not in view]
                assert not missing, (viewer, missing)
                assert view["game"] == game_id and view["order"] == players
                assert set(view["waiting_for"]) <= set(players)
                json.dumps(view)
            if action is not None:  # who may send what: a phone, or only the sensors
                kind = action["type"]
                assert kind in mapping.sensor_actions or mapping.from_phone(kind), kind
            public = game.view(state, TABLE)
            cues = drawer.cues(list(events), players, at=10.0)
            assert all(isinstance(cue, Cue) for cue in cues)
            frames = render(drawer, public, colours, cues, 10.2, layout, 0.5)
            assert {name: len(pixels) for name, pixels in frames.items()} == layout.strips()
            # only the strips its legend names are lit (the page draws no other)
            used = legend(found.drawer, layout)
            assert all(p == OFF for name in set(frames) - set(used) for p in frames[name]), used
            assert all(
                len(p) == 3 and all(0 <= c <= 255 for c in p)
                for pixels in frames.values()
                for p in pixels
            )
            assert drawer.animating(public, 10.2) in (True, False)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_input_mapping(game_id):
    found = plugin(game_id)
    mapping = inputs_for(found.game)
    assert isinstance(mapping, GameInputs) and mapping.game is found.game
    assert inputs_for(found.game) is mapping  # one per game
    assert not mapping.phone_actions & mapping.sensor_actions
    assert not mapping.from_phone("undo")  # the host's
    assert set(mapping.option_defaults) <= {option.name for option in found.game.options}
    found.game.resolve_options(dict(mapping.option_defaults))  # valid values


@pytest.mark.parametrize("game_id", GAMES)
def test_the_simulated_hands(game_id):
    found = plugin(game_id)
    hands = found.hands or GameHands
    assert issubclass(hands, GameHands)
    stickers = hands(None, found.game, 2014).stickers()  # the box needs no table
    assert set(stickers.values()) <= set(found.game.components)
    assert stickers == hands(None, found.game, 2014).stickers()  # fixed by the seed
    for act, arguments in hands.acts.items():
        assert callable(getattr(hands, act)), act
        assert all(isinstance(kind, type) and message for kind, message in arguments.values())
    for act, label, primary in hands.controls:
        assert act in hands.acts or act in GENERIC_ACTS, act
        assert label and primary in (True, False)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_blind_hands_of_a_host_who_plays(game_id):
    """What a host who plays a seat gets: its buttons name acts of the blind panel, each blind
    act takes the player as ``viewer``, and the world hook takes a viewer."""
    found = plugin(game_id)
    hands = found.hands or GameHands
    assert "viewer" in inspect.signature(hands.world).parameters
    for act, arguments in hands.blind_acts.items():
        assert "viewer" in inspect.signature(getattr(hands, act)).parameters, act
        assert "viewer" not in arguments
    blind = hands(None, found.game, 2014)
    acts = blind.acts_for("P0")
    assert set(hands.acts) | set(hands.blind_acts) == set(acts)
    assert set(blind.acts_for(None)) == set(hands.acts)  # the blind acts are the blind's only
    for act, label, primary in blind.controls_for("P0"):
        assert act in acts or act in GENERIC_ACTS, act
        assert label and primary in (True, False)
    assert blind.controls_for(None) == hands.controls


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("layout", [Layout(), Layout(seats=8, life_pixels=4, tower_pixels=24)])
def test_the_lights_legend(game_id, layout):
    """The drawer's legend: the strips the game uses, every part inside its strip (or its seat's
    segment), none overlapping, a kind the pages draw, a translatable label; the strip ``table``
    is a segment per seat whose first pixel is the status light."""
    found = plugin(game_id)
    strips = legend(found.drawer, layout)
    assert strips and set(strips) <= set(layout.strips())
    for name, strip in strips.items():
        size = strip["per_seat"] or layout.strips()[name]
        taken: set[int] = set()
        for part in strip["parts"]:
            lights = set(range(part["first"], part["first"] + part["count"]))
            assert part["count"] >= 1 and lights <= set(range(size)), (name, part)
            assert not lights & taken, (name, part)
            taken |= lights
            assert part["kind"] in LEGEND_KINDS
            assert isinstance(part["label"], Text) and len(part["label"]) > 10
        json.dumps(strip)
    table = strips["table"]
    assert table["per_seat"] == layout.seat_pixels
    assert table["parts"][0] == table["parts"][0] | {"first": 0, "count": 1, "kind": "status"}
    assert [p["kind"] for p in table["parts"]].count("status") == 1


@pytest.mark.parametrize("game_id", GAMES)
def test_data_sets_actuators_page_and_catalogs(game_id):
    found = plugin(game_id)
    if found.data is not None:
        assert found.data.default() in found.data.names()
        assert isinstance(found.data.get(found.data.default()), dict)
        assert found.data.get("no such set") is None
        assert issubclass(found.data.error, Exception)
    for name in found.actuators:
        assert callable(found.actuator(name).follow)
    assert found.actuator("no such device") is None
    if found.static is not None:
        assert (found.static_folder / "page.js").is_file()
    for domain in (*found.catalogs.server, *found.catalogs.pages):
        for lang in LANGUAGES:
            if lang != DEFAULT:
                po = found.translations / lang / "LC_MESSAGES" / f"{domain}.po"
                assert po.is_file() and po.with_suffix(".mo").is_file(), po


def italian(found, text: str) -> str:
    from babel.support import Translations

    domain = found.catalogs.server[0]
    return Translations.load(str(found.translations), ["it"], domain).gettext(text)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_option_is_told_in_words_with_its_rule_and_a_control(game_id):
    """The new-game wizard shows each option as a label and a sentence, with its rule as a small
    reference and a control: never a raw key, a rule ID as a label, or JSON to type."""
    found = plugin(game_id)
    own = found._load(found.option_texts)
    assert set(own) == {o.name for o in found.game.options}, "every option, and only those"
    for option in found.game.options:
        told = found.described_options[option.name]
        assert told is own[option.name]
        assert isinstance(told, OptionText) and told.control in CONTROLS, option.name
        assert re.fullmatch(r"[A-Z]+(-[A-Z]+)+-\d+", option.rule), option.name  # TW-RES-DUMB-2
        words = [told.label, told.sentence, *(w for _, w in told.values if not w.isdigit())]
        for text in words:
            assert isinstance(text, Text) and text.strip(), (option.name, text)
            assert "_" not in text and not re.search(r"[A-Z]+-[A-Z]+-\d", text), text
            assert italian(found, text.msgid) != text.msgid, f"no Italian for {text!r}"
        assert told.label.lower() != option.name.replace("_", " ")
        assert told.sentence.endswith("."), told.sentence
        values = [value for value, _ in told.values]
        if told.control == "switch":
            assert isinstance(option.default, bool)
        elif told.control == "choice":
            assert sorted(values) == sorted(option.choices) and option.default in values
        elif told.control == "several":
            assert isinstance(option.default, list) and set(option.default) <= set(values)
            for value in values:
                option.check([value])
        elif told.control == "number":
            assert told.low <= option.default <= told.high, option.name
            option.check(told.low), option.check(told.high)
        elif told.control == "data_set":
            assert found.data is not None and option.default in found.data.names()
        else:  # not offered: only a replay sets it, the wizard keeps the default
            assert told.control == "none" and not isinstance(option.default, (bool, int, str))


def test_an_option_a_game_does_not_tell_gets_words_and_never_json():
    assert describe_option(Option("fast_mode", False, "Play fast.", "X-Y-1")).control == "switch"
    told = describe_option(Option("pace", "slow", "How fast.", "X-Y-2", choices=("slow", "fast")))
    assert (told.label, told.control, told.values) == (
        "Pace",
        "choice",
        (("slow", "slow"), ("fast", "fast")),
    )
    assert describe_option(Option("faces", [1, 2], "Faces.", "X-Y-3")).control == "none"
    assert describe_option(Option("start", {}, "Arranged.", "X-Y-4")).control == "none"
    assert describe_option(Option("lives", 6, "Lives.", "X-Y-5")).high >= 6


def test_the_registry_lists_every_shipped_game_once():
    assert [found.id for found in plugins()][: len(GAME_IDS)] == list(GAME_IDS)
    assert len(set(GAME_IDS)) == len(GAME_IDS)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_game_says_where_it_stands(game_id):
    """``progress(state)``: a few public words ("turn 15", "round 2") that the host's list of
    kept games and the confirmation before a game is set aside show. A translatable text with a
    translation in every language, kept in the store as text data, and public: a state a viewer
    cannot tell apart says the same."""
    from babel.messages.pofile import read_po

    from companion.i18n import Text, from_text_data, text_data

    found = plugin(game_id)
    game = found.game
    translated = {}
    for domain in found.catalogs.server:
        for lang in LANGUAGES:
            if lang != DEFAULT:
                po = found.translations / lang / "LC_MESSAGES" / f"{domain}.po"
                with po.open("rb") as handle:
                    translated |= {m.id: m.string for m in read_po(handle) if m.id and m.string}
    seen = set()
    rng = random.Random(1)
    for seed in range(2):
        for n, (state, _action, _events) in enumerate(playout(game, seed)):
            progress = game.progress(state)
            assert isinstance(progress, Text) and str(progress).strip(), progress
            assert progress.msgid in translated, f"{progress.msgid!r} has no Italian"
            assert from_text_data(json.loads(json.dumps(text_data(progress)))) == progress
            seen.add(str(progress))
            if n % 10 == 0:
                for viewer in (TABLE, *game.players(state)):
                    other = game.indistinguishable(state, viewer, rng)
                    assert game.progress(other) == progress
    assert len(seen) > 1, seen  # it moves as the game goes on


@pytest.mark.parametrize("game_id", GAMES)
def test_a_deadline_is_well_formed_and_public(game_id):
    """``deadline(state)`` (optional): None, or a countdown the table runs (a text key, whole
    seconds, an action it applies when they are over); every page shows it alike, so a state a
    viewer cannot tell apart has the same one. The base class asks for none."""
    game = plugin(game_id).game
    rng = random.Random(3)
    seen = 0
    for seed in range(3):
        for n, (state, _action, _events) in enumerate(playout(game, seed)):
            wanted = game.deadline(state)
            if wanted is None:
                continue
            seen += 1
            assert set(wanted) == {"key", "seconds", "action"}, wanted
            assert isinstance(wanted["key"], str) and wanted["key"]
            assert isinstance(wanted["seconds"], int) and 0 < wanted["seconds"] <= 3600
            assert isinstance(wanted["action"], dict) and isinstance(wanted["action"]["type"], str)
            assert json.loads(json.dumps(wanted)) == wanted
            for viewer in (TABLE, HOST, *game.players(state)):
                assert game.deadline(game.indistinguishable(state, viewer, rng)) == wanted
    if game_id == "dorktower":
        assert seen, "no rivals' scroll window met in the playouts"
    assert Game.deadline(game, {}) is None
