"""The compiled hand tree (`simulator.exact.tree`) against a plain recursion written here: every
card drawn in turn, the player's and then the dealer's (memoised by the shoe and the cards held),
sharing no code with the analyzer."""

from functools import cache

import numpy as np
import pytest

from simulator.exact import tree
from simulator.exact.player import EV, UpCard, hand_of
from simulator.exact.shoe import full_shoe
from simulator.rules import Rules


def test_the_hands_are_every_multiset_of_hard_total_21_or_less():
    hard = tree.HANDS @ np.arange(1, 11)
    assert len(tree.HANDS) == 3083 and hard.max() == 21
    assert len({tuple(h) for h in tree.HANDS.tolist()}) == len(tree.HANDS)
    for i in (0, 17, 1500, 3082):
        for v in range(10):
            j = tree.CHILD[i, v]
            grown = tree.HANDS[i] + np.eye(10, dtype=np.int64)[v]
            assert (j < 0) == (hard[i] + v + 1 > 21)
            assert j < 0 or (tree.HANDS[j] == grown).all()


def _total(cards):
    hard = sum(cards)
    return (hard + 10, True) if 1 in cards and hard + 10 <= 21 else (hard, False)


class Oracle:
    """Expected values of one hand by drawing every card in turn (rules 12.1, 12.3; the
    dealer's second card after the player's play, a blackjack settled by ``mode``)."""

    def __init__(self, shoe, up, h17, mode, split):
        self.up, self.h17, self.mode, self.split = up, h17, mode, split
        self.shoe = tuple(float(x) for x in shoe)
        self._dealer, self.play = cache(self._dealer_of), cache(self._play)

    def dealer(self, comp, cards=()):
        """{final total (22: bust, 0: blackjack): probability}."""
        return self._dealer(comp, tuple(sorted(cards)))

    def _dealer_of(self, comp, cards):
        held = (self.up, *cards)
        t, soft = _total(held)
        if len(held) == 2 and t == 21:
            return {0: 1.0}
        if len(held) >= 2 and (t > 21 or t > 17 or t == 17 and not (soft and self.h17)):
            return {min(t, 22): 1.0}
        out: dict = {}
        n = sum(comp)
        for v in range(1, 11):
            if comp[v - 1] > 0:
                rest = comp[:v - 1] + (comp[v - 1] - 1,) + comp[v:]
                for k, p in self.dealer(rest, (*cards, v)).items():
                    out[k] = out.get(k, 0.0) + comp[v - 1] / n * p
        return out

    def stand(self, comp, cards, w):
        t, _ = _total(cards)
        ev = 0.0
        for d, p in self.dealer(comp).items():
            if d == 0:
                ev += p * {0: -w, 1: 0.0, 2: 0.0 if self.split else -1.0}[self.mode]
            else:
                ev += p * w * (1 if d == 22 or t > d else -1 if t < d else 0)
        return ev

    def bust(self, comp, w):
        bj = {1: 9, 10: 0}.get(self.up)
        pbj = 0.0 if bj is None else comp[bj] / sum(comp)
        return -w * (1 - pbj) + pbj * (0.0 if self.mode == 1 else -w)

    def draw(self, comp, cards, then):
        n = sum(comp)
        return sum(comp[v - 1] / n * then(comp[:v - 1] + (comp[v - 1] - 1,) + comp[v:],
                                          (*cards, v))
                   for v in range(1, 11) if comp[v - 1] > 0)

    def _play(self, comp, cards):
        """Played on at its best (12.1: stand on 21, draw to 11 or less)."""
        t, soft = _total(cards)
        if t > 21:
            return self.bust(comp, 1.0)
        if t == 21:
            return self.stand(comp, cards, 1.0)
        hit = self.draw(comp, cards, self.play)
        return hit if t <= 11 and not soft else max(hit, self.stand(comp, cards, 1.0))

    def values(self, cards, extra):
        comp = tuple(s - c - e for s, c, e in zip(self.shoe, hand_of(*cards), extra, strict=True))
        double = self.draw(comp, cards, lambda c, h: self.bust(c, 2.0) if _total(h)[0] > 21
                           else self.stand(c, h, 2.0))
        return (self.stand(comp, cards, 1.0), self.draw(comp, cards, self.play), double,
                self.play(comp, cards))


GAMES = [  # (rules, shoe (None: full), up, hand, extra, split)
    (Rules(), None, 10, (10, 6), (0,) * 10, False),
    (Rules(decks=1, dealer_blackjack_takes="all"), None, 1, (9, 2), (0,) * 10, False),
    (Rules(decks=2), None, 10, (8, 3), (0,) * 7 + (2, 0, 0), True),
    (Rules(decks=1, dealer_blackjack_takes="original", dealer_hits_soft_17=True), None, 6,
     (1, 6), (0,) * 10, False),
    (Rules(decks=3), np.array([10.5, 13, 13, 13, 13, 13, 12, 12, 12, 46.5]), 10, (10, 2),
     (0,) * 10, False),  # a fractional shoe, as the index plays value
]


@pytest.mark.parametrize("rules, shoe, up, hand, extra, split", GAMES)
def test_stand_hit_double_and_play_on_match_a_card_by_card_recursion(rules, shoe, up, hand,
                                                                     extra, split):
    uc = UpCard(rules, up, None, shoe=shoe)
    base = full_shoe(rules.decks) if shoe is None else shoe.copy()
    base[up - 1] -= 1
    mode = {"all": 0, "original": 1, "original-and-busted": 2}[rules.dealer_blackjack_takes]
    want = Oracle(base, up, rules.dealer_hits_soft_17, mode, split).values(hand, extra)
    h = hand_of(*hand)
    got = (uc.stand(h, extra, 1.0, split)[EV], uc.hit(h, extra, split)[EV],
           uc.double(h, extra, split)[EV], uc.cont(h, extra, split)[EV])
    assert got == pytest.approx(want, abs=1e-12)
