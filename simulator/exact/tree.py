"""The player's hand tree of one up card, compiled (rules 12.1 and the dealer-blackjack rule).

A hand is a multiset of card values with a hard total of at most 21 (`HANDS`, 3,083 of them, the
empty hand included); ``CHILD[i, v - 1]`` is hand ``i`` with a card ``v`` added (-1: a bust).
A *context* is the cards removed besides the hand (``extra``) and whether the hand is a split
hand; it keeps the value of every hand played on from there and its dealer outcome vector, each
computed the first time it is asked for. Values are stats vectors (`simulator.exact.player`).
"""

from __future__ import annotations

import numpy as np

from simulator.exact.dealer import BJ, BUST, N_OUT, _dealer_probs, dealer_tree
from simulator.jit import njit

EV, EX2, G0, PBB = 0, 1, 2, 2 + N_OUT
N_STATS = PBB + 1
MODE_ALL, MODE_ORIGINAL, MODE_OAB = 0, 1, 2
STAND, HIT, BEST = 0, 1, 2  # a hand's hit/stand decision (the policy's, or the better one)


def _hands():
    out = []

    def grow(v, room, counts):
        if v > 10:
            out.append(tuple(counts))
            return
        for c in range(room // v + 1):
            grow(v + 1, room - c * v, counts + [c])

    grow(1, 21, [])
    hands = np.array(out, dtype=np.int64)
    hard = hands @ np.arange(1, 11)
    soft = (hands[:, 0] > 0) & (hard + 10 <= 21)
    total = np.where(soft, hard + 10, hard)
    index = {h: i for i, h in enumerate(out)}
    child = np.full((len(out), 10), -1, dtype=np.int64)
    for i, h in enumerate(out):
        for v in range(10):
            child[i, v] = index.get(h[:v] + (h[v] + 1,) + h[v + 1:], -1)
    return hands, total, soft, child, index


HANDS, TOTAL, SOFT, CHILD, INDEX = _hands()


def _signs():
    sign = np.zeros((32, N_OUT))
    for t in range(32):
        for d in range(5):
            sign[t, d] = np.sign(t - (17 + d))
        sign[t, BUST] = 1.0
    return sign, np.abs(sign)


SIGN, ABS_SIGN = _signs()


def context(extra):
    """The kept values of a context (the cards ``extra`` removed besides the hand): (extra,
    values, valued, dealer vectors, dealt)."""
    n = len(HANDS)
    return (np.array(extra, dtype=np.float64), np.zeros((n, N_STATS)), np.zeros(n, np.bool_),
            np.zeros((n, N_OUT)), np.zeros(n, np.bool_))


@njit
def _left(i, g, c):
    """The shoe less hand ``i`` and the context's cards."""
    hands, _, _, _, base = g
    return base - (hands[i] + c[0])


@njit
def _dealer(i, g, dl, c):
    """Hand ``i``'s dealer outcome vector in context ``c``."""
    _, _, _, vectors, dealt = c
    if not dealt[i]:
        parent, card, held, drawn, final, orders, outcome, _ = dl
        _dealer_probs(_left(i, g, c), parent, card, held, drawn, final, orders, outcome,
                      vectors[i])
        dealt[i] = True
    return vectors[i]


@njit
def _stand(i, w, g, dl, c, par, out):
    """Hand ``i`` stands with ``w`` wagers."""
    p = _dealer(i, g, dl, c)
    t = g[1][i]
    mode, _, split = par
    bjp = -w if mode == MODE_ALL else (0.0 if mode == MODE_ORIGINAL or split else -1.0)
    ev = 0.0
    ex2 = 0.0
    for d in range(N_OUT):
        x = p[BJ] * bjp if d == BJ else w * SIGN[t, d] * p[d]
        out[G0 + d] = x
        ev += x
        ex2 += ABS_SIGN[t, d] * p[d]
    out[EV] = ev
    out[EX2] = w * w * ex2 + p[BJ] * bjp * bjp
    out[PBB] = 0.0


@njit
def _bust(i, v, w, g, dl, c, par, out):
    """Hand ``i`` and a card ``v`` (index) bust with ``w`` wagers: the value depends on the cards
    out only through the dealer's chance of blackjack."""
    hands, _, _, _, base = g
    extra = c[0]
    mode, j, _ = par
    pbj = 0.0
    if j >= 0:
        held = extra[j] + hands[i, j] + (1 if v == j else 0)
        gone = extra.sum() + hands[i].sum() + 1
        pbj = (base[j] - held) / (base.sum() - gone)
    bb = 0.0 if mode == MODE_ORIGINAL else -w
    nobj = dl[7]
    tot = 0.0
    for d in range(BJ):
        tot += nobj[d]
    for d in range(BJ):
        out[G0 + d] = -w * (1.0 - pbj) * nobj[d] / tot
    out[G0 + BJ] = pbj * bb
    out[EV] = -w * (1.0 - pbj) + pbj * bb
    out[EX2] = w * w * (1.0 - pbj) + pbj * bb * bb
    out[PBB] = pbj


@njit
def _draw(i, w, g, dl, c, par, out):
    """Hand ``i`` takes one card with ``w`` wagers: the sum over the card of its chance times the
    hand played on (one wager, already valued) or standing (two: a double)."""
    child = g[3]
    value = c[1]
    comp = _left(i, g, c)
    n = comp.sum()
    s = np.empty(N_STATS)
    out[:] = 0.0
    for v in range(10):
        if comp[v] <= 0:
            continue
        pv = comp[v] / n
        j = child[i, v]
        if j < 0:
            _bust(i, v, w, g, dl, c, par, s)
        elif w == 1.0:
            s[:] = value[j]
        else:
            _stand(j, w, g, dl, c, par, s)
        for k in range(N_STATS):
            out[k] += pv * s[k]


@njit
def _play(i, g, dl, c, par, hs):
    """Value hand ``i`` played on (12.1: stand on 21, draw to 11 or less, else as ``hs``)."""
    _, value, done, _, _ = c
    if done[i]:
        return
    t = g[1][i]
    forced = t <= 11 and not g[2][i]
    out = value[i]
    if t == 21 or (hs[i] == STAND and not forced):
        _stand(i, 1.0, g, dl, c, par, out)
    else:
        comp = _left(i, g, c)
        for v in range(10):
            if comp[v] > 0 and g[3][i, v] >= 0:
                _play(g[3][i, v], g, dl, c, par, hs)
        _draw(i, 1.0, g, dl, c, par, out)
        if hs[i] == BEST and not forced:
            a = np.empty(N_STATS)
            _stand(i, 1.0, g, dl, c, par, a)
            if a[EV] >= out[EV]:
                out[:] = a
    done[i] = True


@njit(nogil=False)  # (it writes the context's kept values: a second thread waits its turn)
def ask(what, i, g, dl, c, par, hs, out):
    """``what`` of hand ``i`` into ``out``: 0 stand, 1 hit, 2 double, 3 play on. ``g``: (HANDS,
    TOTAL, SOFT, CHILD, the shoe less the up card as float64); ``dl``: `dealer_tree` of the up
    card and its outcome vector from that shoe; ``c``: a `context`; ``par``: (the dealer-blackjack
    mode ``MODE_*``, the index of the card that gives the dealer blackjack or -1, split or not);
    ``hs``: each hand's decision (``STAND``, ``HIT``, ``BEST``)."""
    if what == 0:
        _stand(i, 1.0, g, dl, c, par, out)
    elif what == 1:
        comp = _left(i, g, c)
        for v in range(10):
            if comp[v] > 0 and g[3][i, v] >= 0:
                _play(g[3][i, v], g, dl, c, par, hs)
        _draw(i, 1.0, g, dl, c, par, out)
    elif what == 2:
        _draw(i, 2.0, g, dl, c, par, out)
    else:
        _play(i, g, dl, c, par, hs)
        out[:] = c[1][i]


def compile_kernels():
    """Compile the kernels (or load them from numba's cache): one hand stands once."""
    base = np.full(10, 4.0)
    base[9] = 16.0
    ask(0, 1, (HANDS, TOTAL, SOFT, CHILD, base), (*dealer_tree(10, False), np.zeros(N_OUT)),
        context((0,) * 10), np.array([MODE_ALL, -1, 0]), np.zeros(len(HANDS), np.int8),
        np.zeros(N_STATS))
