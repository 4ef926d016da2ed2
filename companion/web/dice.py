"""The host's dice pages: every die the table has seen, and one page per die with its counts per
face, a bar chart against a fair die's expected counts, the chi-square test of its read rolls and
a verdict in plain words (``docs/dice-fairness.md``).

They live behind the host's link (``/host/<token>/dice``): a die's identity (the reader's name,
its index on the reader) is device data, for whoever looks after the table, not for the players.
The fairness test's module is imported by these pages only, the first time one is asked for.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, url_for
from flask_babel import gettext

from . import numbers
from .common import table
from .host import check_host

bp = Blueprint("dice", __name__, url_prefix="/host/<token>/dice")
#: the largest id SQLite can hold: a larger number in the address is no die (not an error)
MAX_ID = 2**63 - 1


@bp.url_value_preprocessor
def _check_token(endpoint, values):
    check_host((values or {}).get("token", ""))


@bp.get("")
def dice_list(token: str):
    from ..table import dice_fairness
    from ..table.dice_store import READ

    dice = table().store.dice()
    rows = []
    for die in dice:
        row = _identity(die) | {"url": url_for("dice.die_page", token=token, die_id=die.id)}
        if not die.virtual:
            found = dice_fairness.verdict(die.counts.get(READ, {}), die.weights())
            row |= {"rolls": die.total(READ), "verdict": _word(found.word), "word": found.word}
        else:
            row |= {"rolls": die.total("virtual")}
        rows.append(row)
    return render_template(
        "dice.html",
        token=token,
        physical=[r for r in rows if not r["virtual"]],
        virtual=[r for r in rows if r["virtual"]],
        host=url_for("host.page", token=token),
        alpha=_percent(dice_fairness.ALPHA),
    )


@bp.get("/<int:die_id>")
def die_page(token: str, die_id: int):
    from ..table import dice_fairness
    from ..table.dice_store import KEEP_ROLLS, PLACED, READ, VIRTUAL

    die = table().store.die_record(die_id) if die_id <= MAX_ID else None
    if die is None:
        return render_template(
            "message.html",
            title=gettext("No such die"),
            text=gettext("The table has kept no rolls of a die with this number."),
        ), 404
    weights = die.weights()
    kind = VIRTUAL if die.virtual else READ
    counts = die.counts.get(kind, {})
    found = dice_fairness.verdict(counts, weights)
    test = found.test
    faces = list(weights)
    bars = [(face, counts.get(face, 0), test.expected[face]) for face in faces]
    from .dice_chart import bar_chart

    chart = bar_chart(
        bars,
        gettext("Rolls of each face against a fair die's expected count"),
        gettext(
            "Bars: how often each face came up in %(n)s rolls. Dashed lines: how often a fair "
            "die would show it.",
            n=test.rolls,
        ),
        f"die-{die.id}",
    )
    return render_template(
        "die.html",
        token=token,
        die=_identity(die),
        virtual=die.virtual,
        faces=", ".join(die.faces),
        first_at=_when(die.first_at),
        last_at=_when(die.last_at),
        chart=chart,
        rows=[
            {"face": face, "count": count, "expected": _decimal(expected, 1)}
            for face, count, expected in bars
        ],
        word=found.word,
        verdict=_word(found.word),
        rolls=test.rolls,
        statistic=_decimal(test.statistic, 2),
        df=test.df,
        p=_p_value(test.p),
        p_phrase=_p_value(test.p) if test.p < 0.0001 else "= " + _p_value(test.p),
        alpha=_percent(dice_fairness.ALPHA),
        power=_percent(dice_fairness.POWER),
        min_rolls=found.min_rolls,
        rolls_needed=found.rolls_needed,
        more=max(0, found.rolls_needed - test.rolls),
        placed=die.counts.get(PLACED, {}),
        placed_total=die.total(PLACED),
        twin=None if die.virtual else _twin(token, die),
        face_list=faces,
        keep=KEEP_ROLLS,
        back=url_for("dice.dice_list", token=token),
        host=url_for("host.page", token=token),
    )


def _twin(token: str, die: Any) -> dict[str, Any] | None:
    """The virtual die of the same index and profile, where the virtual rolls that stood in for
    this die are kept (None: there is none)."""
    from ..table.dice_store import VIRTUAL

    for other in table().store.dice():
        if other.virtual and (other.die, other.profile) == (die.die, die.profile):
            return {
                "url": url_for("dice.die_page", token=token, die_id=other.id),
                "rolls": other.total(VIRTUAL),
            }
    return None


def _identity(die: Any) -> dict[str, Any]:
    return {
        "id": die.id,
        "reader": die.reader,
        "index": die.die,
        "profile": die.profile,
        "virtual": die.virtual,
        "name": gettext("virtual die %(n)s", n=die.die)
        if die.virtual
        else gettext("die %(n)s of reader %(reader)s", n=die.die, reader=die.reader),
    }


def _word(word: str) -> str:
    from ..table import dice_fairness

    return {
        dice_fairness.LOOKS_FAIR: gettext("looks fair"),
        dice_fairness.SUSPICIOUS: gettext("suspicious"),
        dice_fairness.NEEDS_MORE: gettext("needs more rolls"),
    }[word]


def _decimal(value: float, places: int) -> str:
    return numbers.decimal(value, places)


def _percent(value: float) -> str:
    return numbers.number(value * 100) + " %"


def _p_value(p: float) -> str:
    """A p-value in the page's language: three decimals from 0.1, four below, "< 0.0001"
    below that."""
    if p < 0.0001:
        return "< " + _decimal(0.0001, 4)
    return _decimal(p, 3 if p >= 0.1 else 4)


def _when(at: str) -> str:
    """A stored moment (ISO 8601, UTC) as date and time to the minute, in UTC (the table's
    clock), the same in every language."""
    return at[:16].replace("T", " ") + " UTC" if len(at) >= 16 else at
