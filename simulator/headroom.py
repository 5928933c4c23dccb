"""Whether a counter's chunk kept its counting tally exact: the engine adds it in 64-bit integers,
and a plan's bets (up to ``plans.MAX_UNITS``) times the Super Sevens pays (up to a million to 1)
can pass that limit. After each chunk, `counting_overflow` bounds every field's true sum from
what cannot have overflowed (rounds, bets, the lines' counts, the nets' bins); a chunk it cannot
clear is refused, never reported (docs/counting.md, "Exact sums")."""

from __future__ import annotations

import functools
import math

import numpy as np

from simulator import layout as L

INT64_MAX = 2**63 - 1
# The largest net a round may make (tenths): its nets bin's top (at most 1/128 above it, the
# bound of ``round_sq``, `_net_edges`) squared still within the limit
MAX_ROUND_NET = math.isqrt(INT64_MAX) * 128 // 129


@functools.cache
def _net_edges() -> tuple[int, ...]:
    """The largest |net| (tenths) each bin of ``layout``'s nets can hold (`layout.net_bin`:
    its own value below NET_EXACT, else the top of its octave's step; every int64 in a bin)."""
    width = L.NET_EXACT // L.NET_STEPS
    exact = [abs(x) for x in range(1 - L.NET_EXACT, L.NET_EXACT)]
    above = []
    for k in range(L.NET_STEPS * L.NET_OCTAVES):
        e, j = divmod(k, L.NET_STEPS)
        top = ((L.NET_EXACT + (j + 1) * width) << e) - 1
        above += [top, top]  # (each step's two bins: a win, then a loss)
    return tuple(exact + above)


def reachable_ev(ev, decks: int, cut: int, every_round: bool) -> tuple[int, int]:
    """The largest |exact return| and exact mean square (scaled as the engine adds them,
    ``layout.SS_EXACT_SCALE`` and ``SS_EXACT_SQ_SCALE``) of a shoe a round can start from:
    more than ``52 decks - cut`` cards left (every card where the shoe is shuffled every round).
    ``ev``: ``Counter.ev`` (empty: (0, 0))."""
    ev = np.asarray(ev, np.float64).reshape(2, -1)
    if ev.shape[1] == 0:
        return 0, 0
    n, per = 52 * decks, 4 * decks + 1
    fewest = n if every_round else max(n - cut + 1, 0)
    at = slice(fewest * per, None)
    return (int(np.rint(np.abs(ev[0, at]).max() * L.SS_EXACT_SCALE)),
            int(np.rint(ev[1, at].max() * L.SS_EXACT_SQ_SCALE)))


def round_too_large(rules, plan) -> str | None:
    """Why no chunk of ``plan`` under ``rules`` can be proved exact, or None: the most a round can
    net (its boxes' main game, insurance and Super Sevens at the plan's top bets and the top
    pay) has a square beyond the int64 limit, so the round's own square in ``round_sq`` could
    pass it (a run would be refused at the first such round, after any number of chunks)."""
    from simulator.tally import max_per_round

    boxes = max(plan.boxes.values())
    per_box = max_per_round(rules)["round_total_sum"] // rules.boxes  # tenths at one unit
    pay = max(rules.super_sevens_pays) if rules.super_sevens else 0
    bet, ss_bet = max(plan.bet.values()), max(plan.super_sevens.values())
    most = boxes * per_box * bet + L.UNIT * boxes * pay * ss_bet  # tenths
    if most <= MAX_ROUND_NET:
        return None
    return (f"a round of it can net up to {most / L.UNIT:,.0f} units ({boxes} box"
            f"{'es' * (boxes != 1)} of up to {bet:,}-unit main bets"
            + (f" and {ss_bet:,}-unit Super Sevens bets paying up to {pay:,} to 1"
               if pay and ss_bet else "")
            + "), whose square the counting tally's 64-bit sums cannot hold: " + NET_ALLOWED)


# What a plan's round may net at most, in words (`round_too_large`, `chunks.CountChunk`)
NET_ALLOWED = (f"allowed plans and pays that keep a round's net to {MAX_ROUND_NET // L.UNIT:,} "
               "units or less (lower the plan's top bets, its boxes or the Super Sevens pays)")


def counting_overflow(params, counter, tally, ct, nets) -> tuple[str, int] | None:
    """``(field, bound)``: the field of the counting tally ``ct`` (N_TC x N_COUNT, one chunk's)
    whose true sum may pass the int64 limit most (`counting_bounds`), and the most it could be;
    None where every field is bounded below the limit."""
    bounds = counting_bounds(params, counter, tally, ct, nets)
    field = max(bounds, key=bounds.get)
    return (field, bounds[field]) if bounds[field] > INT64_MAX else None


def counting_bounds(params, counter, tally, ct, nets) -> dict[str, int]:
    """The most each field of the counting tally ``ct`` (one chunk's) can hold in absolute value,
    by name, from what no overflow can have touched: the chunk's rounds and the most a round adds
    (the plan's top bets, the boxes, the pays, the exact Super Sevens figures of a shoe a round
    can start from); for sums of squares, the lines' counts in the main tally ``tally``, the
    rounds played by net (``nets``, layout N_NETS) and the flat rounds' squares (themselves
    bounded first). ``params``: the rules' (``Rules.to_params()``); ``counter``: the
    ``kernel.count.Counter`` played."""
    p = [int(x) for x in params]
    t = [int(x) for x in tally]
    n = t[L.T_ROUNDS]
    b = min(p[L.P_BOXES], max(int(v) for v in counter.ramps[2][1]))  # the boxes dealt, at most
    h, u = p[L.P_MAX_HANDS], L.UNIT
    m = max(p[L.P_BJ_WIN], 2 * u * h)  # a box's main net at one unit, at most
    i = max(p[L.P_INS_WIN], L.INSURANCE_STAKE)  # its insurance net
    pay = max(max(p[L.P_SS_PAY_A:L.P_SS_PAY_A + 5]), 1) if p[L.P_SS] else 0
    bet, ss_bet = (max(int(v) for v in counter.ramps[r][1]) for r in (0, 1))
    e0, e1 = reachable_ev(counter.ev, p[L.P_DECKS], p[L.P_CUT],
                          p[L.P_SHUFFLE] == L.SHUFFLE_EVERY_ROUND)
    col = [int(x) for x in np.asarray(ct).astype(object).sum(axis=0)]  # (each exact if bounded)
    flat_rsq = n * (b * (m + i)) ** 2  # every box at one unit: a round's flat net squared
    if flat_rsq <= INT64_MAX:  # (then its sum is exact, and bounds the counter's squares)
        flat_rsq = col[L.C_FLAT_RSQ]
    ins_rsq = n * (b * i) ** 2
    staked = n * b * ss_bet  # the counter's Super Sevens units (exact where this is below 2^63)
    if staked <= INT64_MAX:
        staked = col[L.C_SS_BET]
    e_bet = e0 * L.SS_EXACT_BET_SCALE // L.SS_EXACT_SCALE + 1  # (one rounding more at most)
    # a bet's mean square is at most the top pay times its mean |result|, itself at most its mean
    # result + 2 (a loss is -1); each table entry rounded by half a unit of its scale at most
    dealt = col[L.C_SS_FLAT_BETS]  # (a count: exact)
    e1_sum = n * b * e1
    if n * b * e0 <= INT64_MAX:  # (then the exact returns' sum is exact)
        means = (col[L.C_SS_EXACT] + dealt) // L.SS_EXACT_SCALE + 1  # their sum, at most
        e1_sum = min(e1_sum, L.SS_EXACT_SQ_SCALE * pay * (means + 2 * dealt) + dealt)
    bounds = {
        L.C_ROUNDS: n, L.C_PLAYED: n, L.C_BOXES: n * b, L.C_BET: n * b * bet,
        L.C_WAGERED: n * b * 2 * u * h * bet, L.C_NET: n * b * (m + i) * bet,
        L.C_SS_BET: n * b * ss_bet, L.C_SS_NET: n * b * pay * ss_bet,
        L.C_ROUND_SQ: sum(int(nets[k]) * _net_edges()[k] ** 2 for k in np.flatnonzero(nets)),
        L.C_FLAT_BOXES: n * b, L.C_FLAT_NET: n * b * (m + i), L.C_FLAT_SQ: n * b * (m + i) ** 2,
        L.C_SS_FLAT_BETS: n * b, L.C_SS_FLAT_NET: n * b * pay,
        L.C_SS_FLAT_SQ: sum(t[f] * _ss_net(p, k) ** 2 for k, f in enumerate(_SS_LINES)),
        L.C_SS_EXACT: n * b * e0, L.C_SS_PLUS: n, L.C_SS_EXACT_SQ: e1_sum,
        L.C_FLAT_RSQ: flat_rsq, L.C_MAIN_SQ: bet * bet * flat_rsq, L.C_CROSS: bet * flat_rsq,
        L.C_INS_NET: n * b * i * bet, L.C_MAIN_ALONE_SQ: 2 * bet * bet * (flat_rsq + ins_rsq),
        L.C_INS_SQ: bet * bet * ins_rsq, L.C_INS_WON: n * b, L.C_INS_LOST: n * b,
        L.C_SS_EXACT_BET: staked * e_bet,
    }
    assert sorted(bounds) == list(range(L.N_COUNT)), "a counting field without a bound"
    return {L.COUNT_NAMES[f]: v for f, v in bounds.items()}


_SS_LINES = (L.T_SS_A, L.T_SS_B, L.T_SS_C, L.T_SS_D, L.T_SS_E, L.T_SS_F)


def _ss_net(p, line: int) -> int:
    """A Super Sevens bet's net on ``line`` (0..5 for (a)..(f)) in stakes, in absolute value."""
    return 1 if line == 5 else p[L.P_SS_PAY_A + line]
