"""Standard errors by batch means over a counter's chunks (``bjsim count``).

Rounds of one shoe are correlated, but chunks (fresh shoe sequences, each with its own seed) are
independent, so a ratio of sums ``r = sum Y / sum X`` has the delta-method SE over the ``k``
chunks, ``SE(r)^2 = k / (k - 1) * sum_i (Y_i - r X_i)^2 / (sum_i X_i)^2``. Each chunk adds the
products of its sums to its payload (`chunk_moments`). The ratios, the moments kept and their
checks: docs/counting.md, "The figures and how each is computed" (SEs by batch means).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from simulator import layout as L

MIN_CHUNKS = 10  # chunks below which no SE is given: fewer spreads say too little of it

# The run's ratios: (name, numerator field, denominator field) of the counting tally.
RATIOS = (
    ("played_share", L.C_PLAYED, L.C_ROUNDS),
    ("average_bet", L.C_BET, L.C_PLAYED),
    ("favourable_share", L.C_SS_PLUS, L.C_ROUNDS),
    ("counter_super_sevens_return", L.C_SS_NET, L.C_SS_BET),
    ("average_super_sevens_bet", L.C_SS_BET, L.C_PLAYED),
    ("super_sevens_staked_per_round", L.C_SS_BET, L.C_ROUNDS),
    # the counter's Super Sevens stakes by the exact return of their shoes (x SS_EXACT_BET_SCALE)
    ("counter_super_sevens_exact_return", L.C_SS_EXACT_BET, L.C_SS_BET),
    ("super_sevens_exact_per_round_played", L.C_SS_EXACT_BET, L.C_PLAYED),
)
_FIELDS = (L.C_ROUNDS, L.C_PLAYED, L.C_BET, L.C_SS_PLUS, L.C_SS_BET, L.C_SS_NET,
           L.C_SS_EXACT_BET)
# The products kept of those fields (i <= j, indices into _FIELDS), after the chunk count.
_PAIRS = tuple((i, j) for i in range(len(_FIELDS)) for j in range(i, len(_FIELDS)))
# By count, ratios (name, numerator, denominator): each count's (``row``), the counts from the
# low end up to it (``low``) and from it to the high end (``high``); three products each
# (denominator squared, the two multiplied, numerator squared).
COUNT_RATIOS = (("boxes", L.C_BOXES, L.C_PLAYED),
                ("counter_super_sevens_return", L.C_SS_NET, L.C_SS_BET))
BY_COUNT = ("row", "low", "high")
N_RUN = 1 + len(_PAIRS)
# The whole-net moments (after the by-count ones): the chunk count they hold, then the products
# of the run fields extended by the round's whole net and the total wagered (`_WHOLE_FIELDS`),
# each pair with one of those two in it.
_WHOLE_FIELDS = (*_FIELDS, "round_net", L.C_WAGERED, "round_net_exact")
_ROUND_NET, _WAGERED, _NET_EXACT = len(_FIELDS), len(_FIELDS) + 1, len(_FIELDS) + 2
_WHOLE_PAIRS = tuple((i, j) for j in (_ROUND_NET, _WAGERED, _NET_EXACT) for i in range(j + 1))
EXACT_NET_SCALE = L.UNIT * L.SS_EXACT_BET_SCALE  # "round_net_exact"'s units a unit
N_WHOLE = N_RUN + len(COUNT_RATIOS) * len(BY_COUNT) * 3 * L.N_TC  # (its chunk count's index)
N_MOMENTS = N_WHOLE + 1 + len(_WHOLE_PAIRS)
# The moments that are squares (never negative: a checkpoint's are checked), by index.
SQUARES = (0, *(1 + k for k, (i, j) in enumerate(_PAIRS) if i == j), *(
    N_RUN + 3 * k + n for k in range(len(COUNT_RATIOS) * len(BY_COUNT) * L.N_TC)
    for n in (0, 2)), N_WHOLE, *(N_WHOLE + 1 + k for k, (i, j) in enumerate(_WHOLE_PAIRS)
                                 if i == j))
# The ratios of the figures with Super Sevens (`whole_se`), in tenths over tenths: (name,
# numerator, denominator), each a linear combination {field index into _WHOLE_FIELDS: weight}.
_RN, _RND, _PLD, _BT, _SSB = (_ROUND_NET, _FIELDS.index(L.C_ROUNDS),
                              _FIELDS.index(L.C_PLAYED), _FIELDS.index(L.C_BET),
                              _FIELDS.index(L.C_SS_BET))
WHOLE = (
    ("initial_bet_with_super_sevens", {_RN: 1}, {_BT: L.UNIT, _SSB: L.UNIT}),
    ("total_bet_with_super_sevens", {_RN: 1}, {_WAGERED: 1, _SSB: L.UNIT}),
    ("per_round_played", {_RN: 1}, {_PLD: L.UNIT}),
    ("per_round_watched", {_RN: 1}, {_RND: L.UNIT}),
    # the net per round played with the Super Sevens result by its stakes' exact return
    ("per_round_played_exact", {_NET_EXACT: 1}, {_PLD: EXACT_NET_SCALE}),
)


def chunk_moments(ct) -> list[int]:
    """One chunk's moments from its counting tally ``ct`` (N_TC x N_COUNT): 1 (the chunk), the
    products of its sums of rounds, rounds played, bets, favourable rounds and the counter's
    Super Sevens units staked and net, and by count the products of each `COUNT_RATIOS`
    ratio's two sums (each count's, and summed from either end)."""
    t = np.asarray(ct).astype(object)
    tot = t.sum(axis=0)
    run = [int(tot[_FIELDS[i]]) * int(tot[_FIELDS[j]]) for i, j in _PAIRS]
    out = [1, *run]
    for _, num, den in COUNT_RATIOS:
        for p, x in _sums([int(v) for v in t[:, den]], [int(v) for v in t[:, num]]):
            out += [a * b for a, b in ((p, p), (p, x), (x, x))]
    whole = _whole_sums(tot)
    return out + [1, *(whole[i] * whole[j] for i, j in _WHOLE_PAIRS)]


def _whole_sums(tot) -> list[int]:
    """The run fields (`_WHOLE_FIELDS`) of a counting tally's column sums ``tot``: those of
    `_FIELDS`, the round's whole net (tenths), the total wagered (tenths) and the round's net
    with the Super Sevens result by its exact return (`EXACT_NET_SCALE` a unit)."""
    return [*(int(tot[f]) for f in _FIELDS), int(tot[L.C_NET]) + L.UNIT * int(tot[L.C_SS_NET]),
            int(tot[L.C_WAGERED]), int(tot[L.C_NET]) * L.SS_EXACT_BET_SCALE
            + L.UNIT * int(tot[L.C_SS_EXACT_BET])]


def valid(moments) -> bool:
    """Whether summed chunk moments can be (a checkpoint's): every square at least 0, and the
    whole-net moments of as many chunks as the rest (`whole_chunks`)."""
    return (len(moments) == N_MOMENTS and all(moments[i] >= 0 for i in SQUARES)
            and moments[N_WHOLE] == moments[0])


def _sums(den: list, num: list) -> list[tuple]:
    """(denominator, numerator) of each count, then summed from the low end, then from the
    high end."""
    both = np.array([den, num], dtype=object)
    low = np.cumsum(both, axis=1)
    high = np.cumsum(both[:, ::-1], axis=1)[:, ::-1]
    return (
        [*zip(den, num, strict=True)]
        + [*zip(low[0], low[1], strict=True)]
        + [*zip(high[0], high[1], strict=True)]
    )


def chunks_of(moments) -> int:
    """How many chunks ``moments`` (summed `chunk_moments`) hold."""
    return int(moments[0])


def whole_chunks(moments) -> int:
    """How many chunks the whole-net moments of ``moments`` hold (`WHOLE`)."""
    return int(moments[N_WHOLE])


def _whole_product(m: list[int], i: int, j: int) -> int:
    """The chunks' summed product of `_WHOLE_FIELDS` ``i`` and ``j``, from ``m`` (moments)."""
    i, j = min(i, j), max(i, j)
    if j < len(_FIELDS):
        return m[_pair(i, j)]
    return m[N_WHOLE + 1 + _WHOLE_PAIRS.index((i, j))]


def whole_se(moments, ctally, name: str) -> float | None:
    """The SE (units) of the figure with Super Sevens ``name`` (`WHOLE`) by batch means over
    the chunks, from the summed ``moments`` and the counting tally ``ctally``; None from fewer
    than `MIN_CHUNKS` chunks or where the whole-net moments hold fewer chunks than the run."""
    m = [int(v) for v in moments]
    k = chunks_of(m)
    if whole_chunks(m) != k:
        return None
    ys, xs = next((y, x) for key, y, x in WHOLE if key == name)
    tot = _whole_sums(np.asarray(ctally).astype(object).sum(axis=0))

    def total(c):
        return sum(w * tot[f] for f, w in c.items())

    def product(a, b):
        return sum(wa * wb * _whole_product(m, f, g) for f, wa in a.items()
                   for g, wb in b.items())

    return ratio_se(total(ys), total(xs), product(xs, xs), product(xs, ys), product(ys, ys), k)


def ratio_se(y: int, x: int, xx: int, xy: int, yy: int, k: int) -> float | None:
    """The SE of ``y / x`` (sums over ``k`` chunks) from the chunks' ``sum X^2``, ``sum X Y`` and
    ``sum Y^2`` by the delta method (the module docstring); None from fewer than `MIN_CHUNKS`
    chunks or without an ``x``."""
    if k < MIN_CHUNKS or not x:
        return None
    r = Fraction(y, x)
    spread = yy - 2 * r * xy + r * r * xx  # sum of (Y_i - r X_i)^2
    return math.sqrt(max(spread, 0) * k / (k - 1)) / x


def _pair(i: int, j: int) -> int:
    return 1 + _PAIRS.index((min(i, j), max(i, j)))


def run_se(moments, ctally, name: str) -> float | None:
    """The SE of the run's ratio ``name`` (`RATIOS`) from the summed ``moments`` and the
    counting tally ``ctally``."""
    num, den = next((n, d) for key, n, d in RATIOS if key == name)
    tot = np.asarray(ctally).astype(object).sum(axis=0)
    i, j = _FIELDS.index(den), _FIELDS.index(num)
    m = [int(v) for v in moments]
    return ratio_se(
        int(tot[num]), int(tot[den]), m[_pair(i, i)], m[_pair(i, j)], m[_pair(j, j)], chunks_of(m)
    )


def boxes_se(moments, ctally, group: list[int]) -> float | None:
    """The SE of the boxes per round played of the count rows ``group`` (consecutive, as
    `counting_report.tail_groups` makes them from the rounds: one row, or an end's rows, or
    every row seen)."""
    return count_se(moments, ctally, group, "boxes", L.C_ROUNDS)


def count_se(moments, ctally, group: list[int], name: str, seen_by: int) -> float | None:
    """The SE of the `COUNT_RATIOS` ratio ``name`` over the count rows ``group`` (consecutive:
    one row, or an end's rows, or every row seen, as `counting_report.tail_groups` makes them
    of the tally's field ``seen_by``)."""
    k, num, den = next((k, n, d) for k, (key, n, d) in enumerate(COUNT_RATIOS) if key == name)
    t = np.asarray(ctally).astype(object)
    y = int(sum(t[i, num] for i in group))
    x = int(sum(t[i, den] for i in group))
    seen = [i for i in range(L.N_TC) if t[i, seen_by]]
    if len(group) == 1:
        kind, at = "row", group[0]
    elif group[0] == seen[0]:  # the low end's rows (every row below them empty)
        kind, at = "low", group[-1]
    else:
        kind, at = "high", group[0]
    base = N_RUN + ((k * len(BY_COUNT) + BY_COUNT.index(kind)) * L.N_TC + at) * 3
    xx, xy, yy = (int(moments[base + n]) for n in range(3))
    return ratio_se(y, x, xx, xy, yy, chunks_of(moments))
