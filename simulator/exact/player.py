"""The player's expected values by card removal, for one up card (rules 4.1, 8.2, 10, 11, 12.1).

`UpCard` holds the shoe with the up card out, a cache of dealer outcome vectors by the cards the
player has taken, and the hand trees of one *policy*: either a total-dependent strategy table
(``simulator.strategy.Strategy`` layout) or ``None`` for composition-dependent optimal play.

A hand's result is a stats vector (``EV``, ``EX2``, then ``G``: E[X; dealer outcome d] for the
7 outcomes of `simulator.exact.dealer`, then ``PBB``: P(hand busts and the dealer has blackjack)).
Every probability is exact for the cards removed (up card, the hand's cards, and for split hands
the other split card(s)); the approximations are in the split and variance formulas (docs/exact.md).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from simulator import layout as L
from simulator.exact.dealer import BJ, BUST, N_OUT, dealer_vector
from simulator.exact.shoe import full_shoe

EV, EX2, G0, PBB = 0, 1, 2, 2 + N_OUT
N_STATS = PBB + 1

# per-hand treatment of the dealer-blackjack branch (no-hole game), see docs/exact.md
MODE_ALL, MODE_ORIGINAL, MODE_OAB = 0, 1, 2

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


def _sign_tables():
    sign = np.zeros((32, N_OUT))
    for t in range(32):
        for d in range(5):
            sign[t, d] = np.sign(t - (17 + d))
        sign[t, BUST] = 1.0
    return sign, np.abs(sign)


SIGN, ABS_SIGN = _sign_tables()


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


class UpCard:
    """Hand values against one dealer up card under one policy (a `Tables` or None = optimal)."""

    def __init__(self, rules, up: int, policy: Tables | None, shoe=None):
        self.rules = rules
        self.up = up
        self.ui = up_index(up)
        self.policy = policy
        self.h17 = bool(rules.dealer_hits_soft_17)
        # The shoe before the up card: full, or a given composition (counts by value, A..T; may
        # be fractional, e.g. a shoe depleted to a true count, simulator.exact.indices).
        self.base = full_shoe(rules.decks) if shoe is None else np.array(shoe, dtype=np.float64)
        self.base[up - 1] -= 1
        self.base_total = self.base.sum()
        dbj = "original" if rules.hole_card == "peek" else rules.dealer_blackjack_takes
        self.mode = {"all": MODE_ALL, "original": MODE_ORIGINAL,
                     "original-and-busted": MODE_OAB}[dbj]
        self.bj_card = {1: 9, 10: 0}.get(up, -1)  # index of the card giving the dealer blackjack
        self._dealer: dict = {}
        self._memo: dict = {}
        self._opts: dict = {}  # two-card option values (after the hit/stand rows are final)
        self._stand: dict = {}
        self._bust: dict = {}
        self.base_dealer = self.dealer(())

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

    def draw_probs(self, removed):
        c = self.comp(removed)
        n = c.sum()
        return [(v, c[v - 1] / n) for v in range(1, 11) if c[v - 1] > 0]

    # -- dealer-blackjack payoffs of one hand (no-hole game) ----------------------------
    def bj_unbusted(self, w, split):
        if self.mode == MODE_ALL:
            return -w
        if self.mode == MODE_ORIGINAL:
            return 0.0
        return 0.0 if split else -1.0

    def bj_busted(self, w, split):
        return 0.0 if self.mode == MODE_ORIGINAL else -w

    # -- terminal values --------------------------------------------------------------------
    def stand(self, h, extra, w, split):
        key = (h, extra, w, split)
        s = self._stand.get(key)
        if s is None:
            s = self._stand[key] = self._stand_value(h, extra, w, split)
        return s

    def _stand_value(self, h, extra, w, split):
        removed = tuple(a + b for a, b in zip(h, extra, strict=True))
        p = self.dealer(removed)
        t, _ = hand_total(h)
        s = np.zeros(N_STATS)
        g = w * SIGN[t] * p
        bjp = self.bj_unbusted(w, split)
        g[BJ] = p[BJ] * bjp
        s[G0:G0 + N_OUT] = g
        s[EV] = g.sum()
        s[EX2] = w * w * (ABS_SIGN[t] * p).sum() + p[BJ] * bjp * bjp
        return s

    def bust(self, h, extra, w, split):
        """A busted hand: its value depends on the cards removed only through the dealer's
        chance of blackjack (the number of cards out, and of the card that makes it)."""
        j = self.bj_card
        key = (sum(h) + sum(extra), h[j] + extra[j] if j >= 0 else 0, w, split)
        s = self._bust.get(key)
        if s is None:  # (the chance from the key alone: the same whichever hand comes first)
            pbj = 0.0 if j < 0 else (self.base[j] - key[1]) / (self.base_total - key[0])
            s = self._bust[key] = self._bust_value(pbj, w, split)
        return s

    def _bust_value(self, pbj, w, split):
        s = np.zeros(N_STATS)
        bb = self.bj_busted(w, split)
        nobj = self.base_dealer[:BJ]
        tot = nobj.sum()
        s[G0:G0 + BJ] = -w * (1.0 - pbj) * nobj / tot
        s[G0 + BJ] = pbj * bb
        s[EV] = -w * (1.0 - pbj) + pbj * bb
        s[EX2] = w * w * (1.0 - pbj) + pbj * bb * bb
        s[PBB] = pbj
        return s

    # -- play after the first decision: hit or stand ------------------------------------------
    def after_card(self, h, extra, split):
        t, _ = hand_total(h)
        if t > 21:
            return self.bust(h, extra, 1.0, split)
        return self.cont(h, extra, split)

    def hit(self, h, extra, split):
        removed = tuple(a + b for a, b in zip(h, extra, strict=True))
        s = np.zeros(N_STATS)
        for v, pv in self.draw_probs(removed):
            s += pv * self.after_card(add_card(h, v), extra, split)
        return s

    def cont(self, h, extra, split):
        """Value of a live hand whose play goes on by hit/stand (one wager)."""
        key = (h, extra, split)
        s = self._memo.get(key)
        if s is not None:
            return s
        t, soft = hand_total(h)
        if t == 21:  # 12.1 (a)
            s = self.stand(h, extra, 1.0, split)
        elif t <= 11 and not soft:  # 12.1 (d): forced draw
            s = self.hit(h, extra, split)
        else:
            s = self.hit_or_stand(h, extra, split, t, soft)
        self._memo[key] = s
        return s

    def hit_or_stand(self, h, extra, split, t, soft):
        """A free hit/stand decision (total ``t``): the better of the two (optimal policy) or the
        strategy table's; `simulator.exact.splits` decides by the hand's own cards instead."""
        if self.policy is None:
            a = self.stand(h, extra, 1.0, split)
            b = self.hit(h, extra, split)
            return a if a[EV] >= b[EV] else b
        code = (self.policy.soft if soft else self.policy.hard)[t, self.ui]
        if code in _HIT_CODES:
            return self.hit(h, extra, split)
        return self.stand(h, extra, 1.0, split)

    def double(self, h, extra, split):
        removed = tuple(a + b for a, b in zip(h, extra, strict=True))
        s = np.zeros(N_STATS)
        for v, pv in self.draw_probs(removed):
            hh = add_card(h, v)
            t, _ = hand_total(hh)
            if t > 21:
                s += pv * self.bust(hh, extra, 2.0, split)
            else:
                s += pv * self.stand(hh, extra, 2.0, split)
        return s

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

    def memo_size(self):
        return len(self._memo), len(self._dealer)


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
