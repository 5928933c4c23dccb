"""The player's expected values by card removal, for one up card (rules 4.1, 8.2, 10, 11, 12.1).

`UpCard` holds the shoe with the up card out and the hand trees of one *policy*
(`simulator.exact.tree`, each hand valued once): either a total-dependent strategy table
(``simulator.strategy.Strategy`` layout) or ``None`` for composition-dependent optimal play.

A hand's result is a stats vector (``EV``, ``EX2``, then ``G``: E[X; dealer outcome d] for the
7 outcomes of `simulator.exact.dealer`, then ``PBB``: P(hand busts and the dealer has blackjack)).
Every probability is exact for the cards removed (up card, the hand's cards, and for split hands
the other split card(s)); the approximations are in the split and variance formulas (docs/exact.md).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from simulator import jit
from simulator import layout as L
from simulator.exact import tree
from simulator.exact.dealer import BJ, N_OUT, dealer_tree, dealer_vector
from simulator.exact.shoe import full_shoe
from simulator.exact.tree import (
    BEST,
    EV,
    EX2,
    G0,
    HIT,
    MODE_ALL,
    MODE_OAB,
    MODE_ORIGINAL,
    N_STATS,
    PBB,
    STAND,
)

_HIT_CODES = (L.H, L.D, L.RH)  # the hit/stand part of a hard/soft code


def up_index(up: int) -> int:
    """Strategy column of an up-card value (2..10 -> 0..8, ace -> 9)."""
    return 9 if up == 1 else up - 2


@cache
def hand_total(h) -> tuple[int, bool]:
    """(best total, soft) of a hand given as counts by value."""
    hard = sum((i + 1) * c for i, c in enumerate(h))
    if h[0] and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def double_allowed_by_rule(double_on: str, h) -> bool:
    """Rule 10 restriction of a two-card hand (counts by value)."""
    hard = sum((i + 1) * c for i, c in enumerate(h))
    if double_on == "any":
        return True
    if h[0]:
        return False  # hard, 9-11, 10-11 are hard totals only
    if double_on == "hard":
        return True
    if double_on == "9-11":
        return 9 <= hard <= 11
    return 10 <= hard <= 11


def add_card(h, v):
    h = list(h)
    h[v - 1] += 1
    return tuple(h)


def hand_of(*values):
    return tuple(sum(1 for x in values if x == v) for v in range(1, 11))


class Tables:
    """Mutable int8 copies of a strategy's tables (the policy of a table-driven analysis)."""

    def __init__(self, hard, soft, pairs, sevens, insurance=False, even_money=False):
        self.hard = np.array(hard, dtype=np.int8)
        self.soft = np.array(soft, dtype=np.int8)
        self.pairs = np.array(pairs, dtype=np.int8)
        self.sevens = np.array(sevens, dtype=np.int8)
        self.insurance = bool(insurance)
        self.even_money = bool(even_money)

    @classmethod
    def of(cls, strategy):
        return cls(strategy.hard, strategy.soft, strategy.pairs, strategy.sevens,
                   strategy.insurance, strategy.even_money)


def compile_here():
    """The analyzer's kernels compiled (or loaded) in this process, saying so on stderr while a
    first run compiles them: before processes that use them start, so that they load them from
    numba's cache instead of each compiling them unseen."""
    jit.warm("exact", tree.compile_kernels)


class UpCard:
    """Hand values against one dealer up card under one policy (a `Tables` or None = optimal)."""

    def __init__(self, rules, up: int, policy: Tables | None, shoe=None):
        compile_here()
        self.rules = rules
        self.up = up
        self.ui = up_index(up)
        self.policy = policy
        self.h17 = bool(rules.dealer_hits_soft_17)
        # The shoe before the up card: full, or a given composition (counts by value, A..T; may
        # be fractional, e.g. a shoe depleted to a true count, simulator.exact.indices).
        self.base = full_shoe(rules.decks) if shoe is None else np.array(shoe, dtype=np.float64)
        self.base[up - 1] -= 1
        dbj = "original" if rules.hole_card == "peek" else rules.dealer_blackjack_takes
        self.mode = {"all": MODE_ALL, "original": MODE_ORIGINAL,
                     "original-and-busted": MODE_OAB}[dbj]
        self.bj_card = {1: 9, 10: 0}.get(up, -1)  # index of the card giving the dealer blackjack
        self._dealer: dict = {}
        self._opts: dict = {}  # two-card option values (after the hit/stand rows are final)
        self._contexts: dict = {}  # (extra, split): `tree.context`
        self._decisions = (None, None)  # (the policy's rows, `decisions()` of them)
        self.base_dealer = self.dealer(())
        self._tree = (tree.HANDS, tree.TOTAL, tree.SOFT, tree.CHILD,
                      np.asarray(self.base, dtype=np.float64))
        self._dealer_tree = (*dealer_tree(up, self.h17), self.base_dealer)

    # -- shoe and dealer ------------------------------------------------------------------
    def comp(self, removed) -> np.ndarray:
        if not removed:
            return self.base.copy()
        return self.base - np.asarray(removed, dtype=np.int64)

    def dealer(self, removed) -> np.ndarray:
        key = tuple(removed)
        p = self._dealer.get(key)
        if p is None:
            p = dealer_vector(self.up, self.h17, self.comp(key) if key else self.base)
            self._dealer[key] = p
        return p

    def p_bj(self, comp) -> float:
        if self.bj_card < 0:
            return 0.0
        return comp[self.bj_card] / comp.sum()

    # -- hand values (simulator.exact.tree) ---------------------------------------------------
    def decisions(self) -> np.ndarray:
        """Each hand's hit/stand decision where the rules leave one (`tree.HANDS` order): the
        policy's table cell, or the better of the two (optimal play)."""
        if self.policy is None:
            return np.full(len(tree.HANDS), BEST, dtype=np.int8)
        rows = np.where(tree.SOFT[:, None], self.policy.soft[tree.TOTAL],
                        self.policy.hard[tree.TOTAL])[:, self.ui]
        return np.where(np.isin(rows, _HIT_CODES), HIT, STAND).astype(np.int8)

    def _ask(self, what, h, extra, split):
        rows = None if self.policy is None else (self.policy.hard.tobytes(),
                                                 self.policy.soft.tobytes())
        if self._decisions[0] != rows or self._decisions[1] is None:
            self._decisions = (rows, self.decisions())
        key = (tuple(extra), bool(split))
        c = self._contexts.get(key)
        if c is None:
            c = self._contexts[key] = tree.context(extra)
        par = np.array([self.mode, self.bj_card, int(split)], dtype=np.int64)
        out = np.zeros(N_STATS)
        tree.ask(what, tree.INDEX[tuple(h)], self._tree, self._dealer_tree, c, par,
                 self._decisions[1], out)
        return out

    def stand(self, h, extra, w, split):
        """A hand standing (``w`` = 1: one wager)."""
        assert w == 1.0, "a standing double is valued by `double`"
        return self._ask(0, h, extra, split)

    def hit(self, h, extra, split):
        """A hand taking a card and played on by the policy."""
        return self._ask(1, h, extra, split)

    def double(self, h, extra, split):
        return self._ask(2, h, extra, split)

    def cont(self, h, extra, split):
        """Value of a live hand whose play goes on by hit/stand (one wager)."""
        return self._ask(3, h, extra, split)

    # -- two-card hands ----------------------------------------------------------------------
    def two_card_options(self, h, extra=(0,) * 10, split=False, split_aces=False):
        """Hand-level stats of stand / hit / double on a two-card hand (as the rules allow)."""
        key = (h, extra, split, split_aces)
        cached = self._opts.get(key)
        if cached is not None:  # values depend on the hit/stand rows only, final by now
            return dict(cached)
        opts = self._two_card_options(h, extra, split, split_aces)
        self._opts[key] = opts
        return dict(opts)

    def _two_card_options(self, h, extra, split, split_aces):
        r = self.rules
        t, soft = hand_total(h)
        opts = {}
        if split_aces and not r.hit_split_aces:  # 11 (b): one card to each split ace
            opts["stand"] = self.stand(h, extra, 1.0, split)
            return opts
        if t == 21:
            opts["stand"] = self.stand(h, extra, 1.0, split)
            return opts
        if t >= 12 or soft:
            opts["stand"] = self.stand(h, extra, 1.0, split)
        opts["hit"] = self.hit(h, extra, split)
        if (not split or r.double_after_split) and double_allowed_by_rule(r.double_on, h):
            opts["double"] = self.double(h, extra, split)
        return opts

    def choose(self, opts, h, code=None):
        """The option a policy takes on a two-card hand (code: a hard/soft table code)."""
        if self.policy is None or code is None:
            return max(opts, key=lambda k: opts[k][EV])
        if code in (L.D, L.DS) and "double" in opts:
            return "double"
        if code in (L.S, L.DS, L.RS) and "stand" in opts:
            return "stand"
        return "hit" if "hit" in opts else "stand"

    def table_code(self, h):
        t, soft = hand_total(h)
        return int((self.policy.soft if soft else self.policy.hard)[t, self.ui])

    def split_hand(self, h, extra, aces=False):
        """Stats of a two-card hand after a split (of aces if ``aces``), played by the policy."""
        opts = self.two_card_options(h, extra, True, aces)
        code = self.table_code(h) if self.policy is not None else None
        return opts[self.choose(opts, h, code)]

    # -- splitting (11) ------------------------------------------------------------------------
    def split(self, p: int, resplit: bool):
        """Box stats of splitting a pair of value ``p`` (both wagers, the dealer-blackjack rule).

        Hands are completed one after the other (11: each split hand is finished before the
        next gets its second card). A hand is valued with the pair cards dealt so far removed
        (the two split cards and every pair card drawn before it was completed), but not the
        other hands' non-pair cards: the convention of the published tables (Wizard of Odds,
        Blackjack Appendix 9: "for splitting values the program only considered how many hands
        the player had already split, but not the other cards drawn in those hands").
        """
        r = self.rules
        pi = p - 1
        c0 = self.comp(hand_of(p, p))
        n_p, n_all = int(c0[pi]), int(c0.sum())
        hmax = r.max_hands if resplit else 2
        if p == 1 and not r.resplit_aces:
            hmax = 2
        e_np, e_cap, e_n, e_n2 = _hand_counts(n_p, n_all, hmax)
        hand = np.zeros(N_STATS)
        for k, w in enumerate(e_np):  # non-pair hands completed after k pair cards were drawn
            if w <= 0:
                continue
            extra = tuple((1 + k) if i == pi else 0 for i in range(10))
            s_np = np.zeros(N_STATS)
            for v in range(1, 11):
                if v == p or c0[v - 1] == 0:
                    continue
                s_np += c0[v - 1] / (n_all - n_p) * self.split_hand(add_card(hand_of(p), v),
                                                                      extra, p == 1)
            hand += w * s_np
        for k, w in enumerate(e_cap):  # capped pair hands; k counts the capping pair card
            if w <= 0:
                continue
            extra = tuple(k if i == pi else 0 for i in range(10))
            hand += w * self.split_hand(hand_of(p, p), extra, p == 1)
        hand = hand / e_n
        s = e_n * hand
        pd = self.dealer(hand_of(p, p))
        g = hand[G0:G0 + N_OUT]
        cross = sum(g[d] ** 2 / pd[d] for d in range(N_OUT) if pd[d] > 0)
        s[EX2] = e_n * hand[EX2] + e_n2 * cross
        if self.mode == MODE_OAB and self.bj_card >= 0:
            pbj0 = self.p_bj(self.comp(hand_of(p, p)))
            q = hand[PBB] / pbj0 if pbj0 > 0 else 0.0
            extra_loss = pbj0 * (1.0 - q ** e_n)
            s[EV] -= extra_loss
            s[G0 + BJ] -= extra_loss
            s[EX2] += extra_loss
        return s


@cache
def _hand_counts(n_p: int, n_all: int, hmax: int):
    """Expected hands after splitting, by the number of pair cards drawn before each completes.

    Returns (e_np, e_cap, E n, E n(n-1)): ``e_np[k]`` is the expected number of hands completed
    by a non-pair card after ``k`` pair cards were drawn as second cards; ``e_cap[k]`` the
    expected number of pair hands that could not be resplit (``max_hands`` reached, or aces
    without resplit), ``k`` counting the capping card. Second cards are drawn one hand at a
    time from ``n_all`` cards of which ``n_p`` are pair cards; the other hands' non-pair cards
    are not removed (the published convention). A pair card drawn while fewer than ``hmax``
    hands exist resplits: that hand becomes two hands, both waiting for a second card.
    """
    size = 2 * hmax + 2
    e_np = [0.0] * size
    e_cap = [0.0] * size
    e_n = e_n2 = 0.0
    states = {(2, 2, 0): 1.0}  # (hands, hands waiting for a second card, pair cards drawn)
    while states:
        nxt: dict = {}
        for (hands, pending, kp), pr in states.items():
            if pending == 0:
                e_n += pr * hands
                e_n2 += pr * hands * (hands - 1)
                continue
            left = n_all - kp
            pp = (n_p - kp) / left if left > 0 else 0.0
            if pp > 0:
                if hands < hmax:
                    key = (hands + 1, pending + 1, kp + 1)
                else:
                    e_cap[kp + 1] += pr * pp
                    key = (hands, pending - 1, kp + 1)
                nxt[key] = nxt.get(key, 0.0) + pr * pp
            if pp < 1:
                e_np[kp] += pr * (1 - pp)
                key = (hands, pending - 1, kp)
                nxt[key] = nxt.get(key, 0.0) + pr * (1 - pp)
        states = nxt
    return tuple(e_np), tuple(e_cap), e_n, e_n2
