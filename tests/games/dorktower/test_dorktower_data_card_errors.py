"""Dork Tower data sets with one card wrong: a token's effect, a scroll's timing, effect or
borders, a character's abilities. Each error names the file, the place and the problem exactly."""

from __future__ import annotations

from dt_data_support import (  # noqa: F401 (mygame is a fixture)
    assert_error,
    edit,
    error,
    index,
    mygame,
)


def _scroll(ident, change):
    return lambda cards: change(cards["scrolls"][index(cards["scrolls"], ident)])


def test_a_token_effect_of_zero_cards(mygame):
    edit(
        mygame,
        "tokens.json",
        lambda tokens: tokens["tokens"][index(tokens["tokens"], "enchanter")].update(
            effect={"draw_scroll": 0}
        ),
    )
    err = error(mygame)
    assert (err.file, err.problem) == (
        "mygame/tokens.json",
        "'draw_scroll' must be at least 1, not 0",
    )
    assert err.place.startswith("tokens[") and err.place.endswith("(id 'enchanter').effect")


def test_an_old_window_that_is_not_text(mygame):
    def change(card):
        card.pop("when")
        card.pop("by")
        card["window"] = 3

    edit(mygame, "scrolls.json", _scroll("second-chance", change))
    assert_error(
        mygame,
        "mygame/scrolls.json",
        "scrolls[0] (id 'second-chance').window",
        "'window' must be one of 'own_pre_roll', 'opponent_pre_roll', 'post_roll', 'movement', "
        "'any', not the number 3",
    )


def test_a_when_that_is_not_text(mygame):
    edit(mygame, "scrolls.json", _scroll("second-chance", lambda card: card.update(when=3)))
    assert_error(
        mygame,
        "mygame/scrolls.json",
        "scrolls[0] (id 'second-chance').when",
        "'when' must be one of 'before_roll', 'after_roll', 'movement', 'any', not the number 3",
    )


def test_a_bonus_beyond_99(mygame):
    edit(
        mygame,
        "scrolls.json",
        _scroll("war-cry", lambda card: card.update(effect={"fighter": 100})),
    )
    assert_error(
        mygame,
        "mygame/scrolls.json",
        "scrolls[6] (id 'war-cry').effect",
        "'fighter' must be at most 99, not 100",
    )


def test_a_crossing_scroll_naming_an_unknown_border(mygame):
    edit(
        mygame,
        "scrolls.json",
        _scroll("levitation", lambda card: card.update(effect={"cross": ["swamp"]})),
    )
    assert_error(
        mygame,
        "mygame/scrolls.json",
        "scrolls[17] (id 'levitation').effect.cross[0]",
        "unknown border 'swamp' (crossable borders are: lake, mountain)",
    )


def test_an_ability_that_is_not_text(mygame):
    edit(
        mygame,
        "characters.json",
        lambda sheets: sheets["characters"][0]["low"].update(abilities=[3]),
    )
    assert_error(
        mygame,
        "mygame/characters.json",
        "characters[0] (id 'topdeck').low.abilities[0]",
        "each ability must be one of 'cross_lake', 'cross_mountain', 'avoid_monsters', "
        "not the number 3",
    )
