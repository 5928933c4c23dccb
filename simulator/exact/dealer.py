"""Dealer final-total probabilities by exact card removal (rules 12.3 and the dealer's blackjack).

The multisets of cards the dealer can finish with are enumerated once per up card and hit rule,
each with its number of drawing orders; a composition's probabilities are a sum over them, in a
numba kernel (`dealer_tree`). Method: docs/exact.md, "Method", step 1.

Outcome index: 0..4 = final 17..21, 5 = bust, 6 = blackjack.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache

import numpy as np

from simulator.checks import whole
from simulator.exact.shoe import COMPOSITION_ALLOWED, as_composition, flag
from simulator.jit import njit
from simulator.rules import validate

OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")
N_OUT = 7
BUST, BJ = 5, 6
MOST_DRAWN = 12  # the most cards a dealer's hand draws after its up card (hole card included)


def _dealer_stops(hard: int, has_ace: bool, h17: bool) -> tuple[bool, int]:
    soft = has_ace and hard + 10 <= 21
    total = hard + 10 if soft else hard
    if total > 21:
        return True, BUST
    if total > 17 or (total == 17 and not (soft and h17)):
        return True, total - 17
    return False, -1


@cache
def dealer_multisets(up: int, h17: bool):
    """Every multiset of cards the dealer can draw after ``up`` (value 1..10) before stopping.

    Returns (counts[M, 10] int64, orders[M] float64, n_cards[M] int64, outcome[M] int64): the
    cards drawn by value (index value - 1), the number of drawing orders that reach it without
    stopping earlier, how many cards, and the outcome index.
    """
    live = {(0,) * 10: 1}
    final: dict = defaultdict(int)
    while live:
        nxt: dict = defaultdict(int)
        for m, ways in live.items():
            for v in range(1, 11):
                mm = list(m)
                mm[v - 1] += 1
                mm = tuple(mm)
                hard = up + sum((i + 1) * c for i, c in enumerate(mm))
                has_ace = up == 1 or mm[0] > 0
                if sum(mm) == 1 and hard + 10 == 21 and has_ace:
                    final[(mm, BJ)] += ways
                    continue
                stop, out = _dealer_stops(hard, has_ace, h17)
                if stop:
                    final[(mm, out)] += ways
                else:
                    nxt[mm] += ways
        live = nxt
    keys = sorted(final)
    counts = np.array([k[0] for k in keys], dtype=np.int64)
    orders = np.array([final[k] for k in keys], dtype=np.float64)
    outcome = np.array([k[1] for k in keys], dtype=np.int64)
    return counts, orders, counts.sum(axis=1), outcome


@cache
def dealer_tree(up: int, h17: bool):
    """`dealer_multisets` as a prefix tree, for `_dealer_probs`: node 0 is no card drawn, and
    node ``i`` is its parent with one more card of value index ``card[i]``, of which the parent
    holds ``held[i]`` among ``drawn[i]`` cards; a multiset's parent lacks one of its highest
    cards. Returns (parent, card, held, drawn, final node, orders, outcome) as int64 / float64
    arrays, the last three per multiset."""
    counts, orders, _, outcome = dealer_multisets(up, bool(h17))
    index = {(0,) * 10: 0}
    rows = [(0, 0, 0, 0)]

    def node(m):
        i = index.get(m)
        if i is None:
            v = max(j for j in range(10) if m[j])
            parent = node(m[:v] + (m[v] - 1,) + m[v + 1:])
            i = index[m] = len(rows)
            rows.append((parent, v, m[v] - 1, sum(m) - 1))
        return i

    final = np.array([node(tuple(int(x) for x in m)) for m in counts], dtype=np.int64)
    parent, card, held, drawn = (np.array(col, dtype=np.int64) for col in zip(*rows, strict=True))
    return parent, card, held, drawn, final, orders, outcome


@njit
def _dealer_probs(comp, parent, card, held, drawn, final, orders, outcome, out):
    """Unconditional outcome probabilities (blackjack included) for one composition: each
    node's chance of its cards in one given order, from its parent's."""
    n_total = comp.sum()
    inv = np.zeros(drawn.max() + 1)
    for d in range(inv.shape[0]):
        if n_total - d > 0:
            inv[d] = 1.0 / (n_total - d)
    p = np.empty(parent.shape[0])
    p[0] = 1.0
    for i in range(1, parent.shape[0]):
        c = comp[card[i]] - held[i]
        p[i] = p[parent[i]] * c * inv[drawn[i]] if c > 0 else 0.0
    out[:] = 0.0
    for f in range(final.shape[0]):
        out[outcome[f]] += orders[f] * p[final[f]]
    return out


def dealer_vector(up: int, h17: bool, comp: np.ndarray) -> np.ndarray:
    """Outcome probabilities (7, blackjack included, not conditioned) for ``comp`` (up card out)."""
    return _dealer_probs(np.asarray(comp, dtype=np.float64), *dealer_tree(up, bool(h17)),
                         np.zeros(N_OUT))


def dealer_probabilities(rules, composition, up: int, no_blackjack: bool = False) -> dict:
    """Dealer final-total probabilities for up card ``up`` (1 = ace .. 10).

    Parameters
    ----------
    rules : Rules
        Only ``dealer_hits_soft_17`` is read.
    composition : sequence of 10 ints
        Cards left in the shoe by value (index 0 = aces .. 9 = ten-valued), the up card already
        removed: whole counts >= 0, enough that no dealer hand runs out of them (else a
        ValueError; ``MOST_DRAWN`` cards always are).
    up : int
        The up card's value.
    no_blackjack : bool
        Condition on the dealer not having blackjack (the peek game after the peek); refused
        where the composition gives the up card a blackjack every time.

    Returns
    -------
    dict
        Keys ``"17"`` .. ``"21"``, ``"bust"``, ``"blackjack"`` (0 when conditioned).
    """
    rules, comp = validate(rules, "rules"), as_composition(composition)
    up, no_blackjack = whole("up", up, 1, 10), flag("no_blackjack", no_blackjack)
    p = dealer_vector(up, rules.dealer_hits_soft_17, comp)
    if abs(p.sum() - 1.0) > 1e-9:  # (an empty shoe's had been all 0)
        raise ValueError(f"composition {comp.tolist()}: a dealer's hand from up card {up} can "
                         f"run out of its {comp.sum()} cards: {COMPOSITION_ALLOWED}, enough to "
                         f"finish every dealer hand ({MOST_DRAWN} or more always are)")
    if no_blackjack:
        q = 1.0 - p[BJ]
        if q <= 0:
            raise ValueError(f"no_blackjack = True: composition {comp.tolist()} gives up card "
                             f"{up} a blackjack every time: allowed False, or cards that do not")
        p = p / q
        p[BJ] = 0.0
    return dict(zip(OUTCOMES, (float(x) for x in p), strict=True))
