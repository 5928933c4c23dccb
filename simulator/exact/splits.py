"""Exact split values for a post-split strategy that depends only on each hand's own cards.

`UpCard.split` values split hands by the published tables' convention (docs/exact.md, A1). Here a
split is valued exactly: second cards are dealt first (a bijection of shoe orders), and given the
multiset ``S`` of them each hand and the dealer draw from the shoe less ``S``, so
``EV = sum_S P(S) sum_hands v(hand | C - S)``. Strategies ``"cdz"`` (Eric Farmer's CDZ-) and
``"cdz-pair"``. Peek game and ``dealer_blackjack_takes = "original"`` only (else ``ValueError``).
The argument in full: docs/exact.md, "Exact split values".
"""

from __future__ import annotations

import numpy as np

from simulator.exact import tree
from simulator.exact.player import (
    EV,
    HIT,
    STAND,
    UpCard,
    add_card,
    hand_of,
)

STRATEGIES = ("cdz", "cdz-pair")
ZERO = (0,) * 10


class _Decider:
    """Post-split decisions as functions of a hand's own cards (and the up card)."""

    def __init__(self, rules, up, strategy, pair_value):
        if strategy not in STRATEGIES:
            raise ValueError(f"strategy {strategy!r}: allowed {', '.join(STRATEGIES)}")
        self.uc = UpCard(rules, up, None)  # optimal play for the decision compositions
        self.extra = ZERO if strategy == "cdz" else hand_of(pair_value)
        self._hs: dict = {}
        self._two: dict = {}

    def hits(self, h) -> bool:
        """Hit (True) or stand on a live hand of total 12..20 (or soft)."""
        d = self._hs.get(h)
        if d is None:
            uc = self.uc
            d = bool(uc.hit(h, self.extra, False)[EV] > uc.stand(h, self.extra, 1.0, False)[EV])
            self._hs[h] = d
        return d

    def two_card(self, h, aces) -> str:
        """The option taken on a post-split two-card hand (stand / hit / double)."""
        key = (h, aces)
        d = self._two.get(key)
        if d is None:
            opts = self.uc.two_card_options(h, self.extra, True, aces)
            d = max(opts, key=lambda k: opts[k][EV])
            self._two[key] = d
        return d


class _OwnCardsUpCard(UpCard):
    """`UpCard` whose hit/stand decisions are read from a `_Decider` (the hand's cards only)."""

    def __init__(self, rules, up, decider):
        super().__init__(rules, up, None)
        self.decider = decider

    def decisions(self):
        hits = [self.decider.hits(tuple(h)) if 12 <= t <= 20 else False
                for h, t in zip(tree.HANDS.tolist(), tree.TOTAL.tolist(), strict=True)]
        return np.where(hits, HIT, STAND).astype(np.int8)

    def split_hand(self, h, extra, aces=False):
        """A post-split two-card hand played by the decider (for `UpCard.split`, the A1
        convention with this fixed strategy: `a1_split_value(..., strategy=...)`)."""
        opts = self.two_card_options(h, extra, True, aces)
        return opts[self.decider.two_card(h, aces)]

    def clear(self):
        self._contexts.clear()
        self._opts.clear()
        self._dealer.clear()


def second_card_sets(comp, p: int, hmax: int):
    """Multisets of the second-card phase of a split, with their exact probabilities.

    ``comp``: the shoe (10 counts) less the up card and the two pair cards; ``p``: the pair's
    value; ``hmax``: the most hands (2 = no resplit). Cards are drawn one at a time while a hand
    waits for its second card; a pair card drawn while fewer than ``hmax`` hands exist adds a
    hand (both waiting), otherwise it is that hand's second card.

    Returns {(hands, S): probability}, ``S`` the tuple of counts drawn (resplitting pair cards
    included).
    """
    comp = [int(c) for c in comp]
    n_all = sum(comp)
    pi = p - 1
    states = {(2, 2, ZERO): 1.0}
    final: dict = {}
    while states:
        nxt: dict = {}
        for (hands, pending, s), pr in states.items():
            if pending == 0:
                final[(hands, s)] = final.get((hands, s), 0.0) + pr
                continue
            left = n_all - sum(s)
            for v in range(10):
                c = comp[v] - s[v]
                if c <= 0:
                    continue
                q = pr * c / left
                ss = s[:v] + (s[v] + 1,) + s[v + 1:]
                if v == pi and hands < hmax:
                    key = (hands + 1, pending + 1, ss)
                else:
                    key = (hands, pending - 1, ss)
                nxt[key] = nxt.get(key, 0.0) + q
        states = nxt
    return final


def _check_rules(rules):
    if rules.hole_card != "peek" and rules.dealer_blackjack_takes != "original":
        raise ValueError("exact split values: only the peek game or dealer_blackjack_takes = "
                         "'original' (the box loses exactly its initial wager to a blackjack)")


def split_ev(rules, p: int, up: int, strategy: str = "cdz", resplit: bool = True,
             _cache=None) -> float:
    """Exact E[X; no dealer blackjack] of splitting a pair of value ``p`` against ``up``.

    Both wagers (and doubles) per initial wager, the dealer's blackjack not counted (the box
    adds ``-P(blackjack)`` as for every option, `simulator.exact.analyze._Box.options`): the
    same quantity as ``UpCard.split(p, resplit)[EV]`` in the peek game. ``resplit=False``
    splits to two hands only. See the module docstring for the method and ``strategy``.
    """
    _check_rules(rules)
    decider = _Decider(rules, up, strategy, p)
    valuer = _OwnCardsUpCard(rules, up, decider)
    c0 = valuer.comp(hand_of(p, p))
    hmax = rules.max_hands if resplit else 2
    if p == 1 and not rules.resplit_aces:
        hmax = 2
    aces = p == 1
    pi = p - 1
    total = 0.0
    for (hands, s), pr in second_card_sets(c0, p, hmax).items():
        seconds = list(s)
        seconds[pi] -= hands - 2  # the resplitting pair cards are not second cards
        value = 0.0
        for xi, m in enumerate(seconds):
            if m == 0:
                continue
            h = add_card(hand_of(p), xi + 1)
            extra = tuple(s[i] + (1 if i == pi else 0) - (1 if i == xi else 0)
                          for i in range(10))  # removed at the root: {p, p} + S
            choice = decider.two_card(h, aces)
            opts = valuer.two_card_options(h, extra, True, aces)
            value += m * opts[choice][EV]
        total += pr * value
        valuer.clear()  # no composition recurs across S
    return total


def exact_split_value(rules, pair_value: int, up: int, strategy: str = "cdz",
                      resplit: bool = True) -> float:
    """Exact value of splitting ``pair_value`` against ``up``, given no dealer blackjack.

    Parameters
    ----------
    rules : Rules
        Peek game (or ``dealer_blackjack_takes = "original"``); ``decks``, S17/H17,
        ``double_on``, ``double_after_split``, ``max_hands``, ``resplit_aces``,
        ``hit_split_aces`` are read.
    pair_value, up : int
        Card values 1 (ace) .. 10.
    strategy : {"cdz", "cdz-pair"}
        The post-split strategy (module docstring): ``"cdz"`` is Eric Farmer's CDZ-.
    resplit : bool
        Resplit to ``max_hands`` (True) or split to two hands only.

    Returns
    -------
    float
        Expected net return per initial wager of the split, conditioned on the dealer not
        having blackjack (the quantity published split tables print).
    """
    uc = UpCard(rules, up, None)
    pbj = uc.p_bj(uc.comp(hand_of(pair_value, pair_value)))
    ev = split_ev(rules, pair_value, up, strategy, resplit)
    return ev / (1.0 - pbj)


def a1_split_ev(rules, p: int, up: int, strategy: str | None = None,
                resplit: bool = True) -> float:
    """E[X; no dealer blackjack] of a split by the A1 convention (`UpCard.split`).

    ``strategy=None``: optimal post-split play for the A1 compositions (what `analyze` uses);
    ``"cdz"`` / ``"cdz-pair"``: the fixed post-split strategy of `split_ev`, so that
    ``a1_split_ev(..., s) - split_ev(..., s)`` is the convention's error alone.
    """
    _check_rules(rules)
    if strategy is None:
        uc = UpCard(rules, up, None)
    else:
        uc = _OwnCardsUpCard(rules, up, _Decider(rules, up, strategy, p))
    return float(uc.split(p, resplit)[EV])


def a1_split_value(rules, pair_value: int, up: int, strategy: str | None = None,
                   resplit: bool = True) -> float:
    """`a1_split_ev` given no dealer blackjack (the quantity of `exact_split_value`)."""
    uc = UpCard(rules, up, None)
    pbj = uc.p_bj(uc.comp(hand_of(pair_value, pair_value)))
    return a1_split_ev(rules, pair_value, up, strategy, resplit) / (1.0 - pbj)



class _SplitValueUpCard(UpCard):
    """Optimal play (policy None) with every split's EV replaced by ``value(rules, p, up,
    strategy, resplit)``.

    Only the ``EV`` entry of the split stats is replaced; the others (dealer-outcome breakdown,
    ``EX2``) are the A1 ones of `UpCard.split`, so a game's SD is not improved by this class.
    """

    def __init__(self, rules, up, strategy, value):
        super().__init__(rules, up, None)
        self.split_strategy = strategy
        self.split_value_fn = value
        self.split_values: dict = {}

    def split(self, p, resplit):
        s = super().split(p, resplit).copy()
        key = (p, resplit)
        if key not in self.split_values:
            self.split_values[key] = self.split_value_fn(self.rules, p, self.up,
                                                         self.split_strategy, resplit)
        s[EV] = self.split_values[key]
        return s


def evaluate_exact_splits(rules, strategy: str = "cdz", method: str = "exact"):
    """`simulator.exact.analyze.evaluate` in optimal mode with fixed-strategy split values.

    Composition-dependent optimal play of every first decision (as ``analyze(rules,
    optimal=True)``), except that a split is valued under the post-split ``strategy`` by
    `split_ev` (``method="exact"``) or by the A1 convention with that same strategy
    (``method="a1"``, `a1_split_ev`): the difference of the two is A1's effect on the game.
    Returns (result dict, {up: UpCard}); each UpCard's ``split_values`` holds the split EVs
    computed (E[X; no dealer blackjack]). Only ``ev`` is affected; ``sd`` keeps the A1 split
    variances.
    """
    from simulator.exact.analyze import evaluate

    _check_rules(rules)
    value = {"exact": split_ev, "a1": a1_split_ev}[method]
    ups = {up: _SplitValueUpCard(rules, up, strategy, value) for up in range(1, 11)}
    return evaluate(rules, None, ups)


__all__ = ["STRATEGIES", "a1_split_ev", "a1_split_value", "evaluate_exact_splits",
           "exact_split_value", "second_card_sets", "split_ev"]
