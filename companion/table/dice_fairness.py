"""Is a die fair? A chi-square goodness-of-fit test of its read rolls, in plain words.

Pure functions, standard library only (no I/O, no clock, no randomness): the die's counts per face
and its faces' weights (how many of its six faces carry each label: a label printed twice weighs
twice) in, the test and a verdict out. ``docs/dice-fairness.md`` tells why these numbers.

* :func:`chi2_sf`: the chi-square distribution's survival function, exact for any whole number of
  degrees of freedom: the regularised upper incomplete gamma function ``Q(df/2, x/2)`` summed in
  closed form (a finite sum for even df; ``erfc`` and a finite sum for odd df).
* :func:`chi_square`: the statistic, its degrees of freedom, its p-value and the rolls it rests on.
* :func:`rolls_needed`: how many rolls the test needs to flag, with probability ``POWER`` at
  significance ``ALPHA``, a die with one face ``LOAD`` times as heavy as each other face (the
  counts taken as normal with the loaded die's covariance; checked by simulation in the tests).
* :func:`verdict`: "looks fair", "suspicious" or "needs more rolls".
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

#: the significance level: a die is suspicious when a fair one would give counts at least this
#: uneven less often than this
ALPHA = 0.01
#: the power the verdict "looks fair" waits for: a loaded die (below) is caught this often
POWER = 0.9
#: the loaded die the power is worked out for: one face this many times as heavy as each other
LOAD = 2.0
#: the test's usual rule of thumb: every face's expected count at least this
MIN_EXPECTED = 5

LOOKS_FAIR = "looks fair"
SUSPICIOUS = "suspicious"
NEEDS_MORE = "needs more rolls"


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` (a positive whole number) degrees of freedom.

    It is Q(df/2, x/2), the regularised upper incomplete gamma function. For a whole a,
    Q(a, y) = e^-y * sum_{k<a} y^k / k!; for a half-whole a, Q(1/2, y) = erfc(sqrt(y)) and
    Q(a + 1, y) = Q(a, y) + y^a e^-y / Gamma(a + 1). Every term is positive, so the sums lose no
    precision; each term is made in logarithms, so a large x underflows to 0 and never
    overflows."""
    if isinstance(df, bool) or not isinstance(df, int) or df < 1:
        raise ValueError(f"degrees of freedom must be a positive whole number, not {df!r}")
    if math.isnan(x):
        raise ValueError("the statistic is not a number")
    if x <= 0:
        return 1.0
    y = x / 2
    log_y = math.log(y)
    if df % 2 == 0:
        total, start = 0.0, 0.0  # the terms y^k e^-y / k!, k = 0 .. df/2 - 1
    else:
        total, start = math.erfc(math.sqrt(y)), 0.5  # then y^a e^-y / Gamma(a + 1), a = 1/2 ..
    a = start
    while a < df / 2:
        total += math.exp(a * log_y - y - math.lgamma(a + 1))
        a += 1
    return min(1.0, total)


def chi2_isf(p: float, df: int) -> float:
    """The x with ``chi2_sf(x, df) == p`` (0 < p < 1), by bisection (to about 1e-10)."""
    if not 0 < p < 1:
        raise ValueError(f"a probability between 0 and 1 is needed, not {p!r}")
    low, high = 0.0, float(df) + 10.0
    while chi2_sf(high, df) > p:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if chi2_sf(middle, df) > p:
            low = middle
        else:
            high = middle
        if high - low < 1e-10 * max(1.0, high):
            break
    return (low + high) / 2


@dataclass(frozen=True)
class ChiSquare:
    """A die's goodness-of-fit test against its fair weights."""

    statistic: float
    df: int  #: degrees of freedom: the die's distinct faces, less one
    p: float  #: how often a fair die gives counts at least this uneven
    rolls: int  #: the read rolls it rests on
    expected: dict[str, float]  #: each face's expected count for a fair die


def fair_shares(weights: Mapping[str, int]) -> dict[str, float]:
    """Each face's chance on a fair die: its weight (how many of the die's faces carry its
    label) over the die's faces."""
    total = sum(weights.values())
    if total <= 0 or any(w <= 0 for w in weights.values()):
        raise ValueError("every face needs a positive weight")
    return {face: w / total for face, w in weights.items()}


def chi_square(counts: Mapping[str, int], weights: Mapping[str, int]) -> ChiSquare:
    """The chi-square goodness-of-fit test of ``counts`` (face -> read rolls) against a fair
    die with ``weights`` (face -> how many of its faces carry it). A counted face the die does
    not have is a ValueError; a face never rolled counts 0. With no rolls, or a die of one
    face, the statistic is 0 and p is 1."""
    unknown = set(counts) - set(weights)
    if unknown:
        raise ValueError(f"faces {sorted(unknown)} are not the die's")
    shares = fair_shares(weights)
    rolls = sum(counts.values())
    expected = {face: rolls * share for face, share in shares.items()}
    df = len(weights) - 1
    if rolls == 0 or df == 0:
        return ChiSquare(0.0, df, 1.0, rolls, expected)
    statistic = sum((counts.get(face, 0) - e) ** 2 / e for face, e in expected.items())
    return ChiSquare(statistic, df, chi2_sf(statistic, df), rolls, expected)


def min_rolls(weights: Mapping[str, int]) -> int:
    """The fewest rolls for which every face's expected count is at least ``MIN_EXPECTED``."""
    shares = fair_shares(weights)
    return math.ceil(MIN_EXPECTED / min(shares.values()) - 1e-9)


def loaded_shares(weights: Mapping[str, int], face: str, load: float = LOAD) -> dict[str, float]:
    """The chances of a die whose one physical face labelled ``face`` is ``load`` times as
    heavy as each of its other faces."""
    total = sum(weights.values()) - 1 + load
    return {f: (w - 1 + load if f == face else w) / total for f, w in weights.items()}


def power(
    weights: Mapping[str, int], rolls: int, face: str, alpha: float = ALPHA, load: float = LOAD
) -> float:
    """The chance that ``rolls`` rolls of a die loaded on ``face`` (:func:`loaded_shares`) are
    found suspicious at ``alpha``.

    The counts are taken as normal with the loaded die's own covariance (the usual non-central
    chi-square takes the fair die's, and promises about 13% too few rolls). Then the statistic is
    ``c * A + l2 * (Z + b)**2``: ``A`` chi-square with (faces - 2) degrees of freedom and ``c``
    the other faces' loaded-to-fair ratio, ``Z`` standard normal, ``l2`` the covariance's one
    other eigenvalue and ``b**2 * l2`` the non-centrality (``docs/dice-fairness.md`` derives
    it). The chance is an integral over ``Z``, by Simpson's rule."""
    fair = fair_shares(weights)
    loaded = loaded_shares(weights, face, load)
    faces = len(fair)
    if faces < 2:
        return 0.0
    critical = chi2_isf(alpha, faces - 1)
    shift = rolls * sum((loaded[f] - fair[f]) ** 2 / fair[f] for f in fair)
    ratio = next((loaded[f] / fair[f] for f in fair if f != face), 1.0)
    trace = sum(loaded[f] / fair[f] - loaded[f] ** 2 / fair[f] for f in fair)
    other = trace - ratio * (faces - 2)
    b = math.sqrt(shift / other)
    steps, low, high = 400, -9.0, 9.0
    width = (high - low) / steps
    total = 0.0
    for i in range(steps + 1):
        z = low + i * width
        rest = critical - other * (z + b) ** 2
        if rest <= 0:
            caught = 1.0
        elif faces > 2:
            caught = chi2_sf(rest / ratio, faces - 2)
        else:
            caught = 0.0
        simpson = 1 if i in (0, steps) else (4 if i % 2 else 2)
        total += simpson * caught * math.exp(-z * z / 2)
    return min(1.0, total * width / 3 / math.sqrt(2 * math.pi))


def rolls_needed(
    weights: Mapping[str, int], alpha: float = ALPHA, wanted: float = POWER, load: float = LOAD
) -> int:
    """The fewest rolls (and at least :func:`min_rolls`) with which a die loaded on any one
    face, ``load`` times as heavy as each other face, is found suspicious at ``alpha`` with
    probability ``wanted`` (the hardest face to catch decides)."""
    return _rolls_needed(tuple(sorted(weights.items())), alpha, wanted, load)


@lru_cache(maxsize=64)
def _rolls_needed(items: tuple[tuple[str, int], ...], alpha: float, wanted: float, load: float):
    weights = dict(items)
    if len(weights) < 2:
        return min_rolls(weights)
    worst = 0
    for face in weights:
        low, high = 1, 2
        while power(weights, high, face, alpha, load) < wanted:
            low, high = high, high * 2
        while high - low > 1:  # power grows with the rolls
            middle = (low + high) // 2
            if power(weights, middle, face, alpha, load) < wanted:
                low = middle
            else:
                high = middle
        worst = max(worst, high)
    return max(worst, min_rolls(weights))


@dataclass(frozen=True)
class Verdict:
    word: str  #: LOOKS_FAIR, SUSPICIOUS or NEEDS_MORE
    test: ChiSquare
    min_rolls: int  #: the fewest rolls the test may be used with at all
    rolls_needed: int  #: the rolls that catch a loaded die with probability POWER


def verdict(counts: Mapping[str, int], weights: Mapping[str, int]) -> Verdict:
    """What the read rolls say: ``needs more rolls`` below :func:`min_rolls`; ``suspicious``
    when the p-value is below ``ALPHA``; otherwise ``needs more rolls`` until
    :func:`rolls_needed` (nothing suspicious yet, but a loaded die could still hide), then
    ``looks fair``."""
    test = chi_square(counts, weights)
    least, needed = min_rolls(weights), rolls_needed(weights)
    if test.rolls < least:
        word = NEEDS_MORE
    elif test.p < ALPHA:
        word = SUSPICIOUS
    elif test.rolls < needed:
        word = NEEDS_MORE
    else:
        word = LOOKS_FAIR
    return Verdict(word, test, least, needed)
