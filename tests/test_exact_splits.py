"""Exact split values (simulator.exact.splits) against Eric Farmer's CDZ- split values."""

import pytest

from simulator.exact.shoe import full_shoe
from simulator.exact.splits import exact_split_value, second_card_sets
from simulator.rules import Rules

US = dict(hole_card="peek", dealer_blackjack_takes="original", double_on="any",
          max_hands=4, resplit_aces=False, hit_split_aces=False, super_sevens=False)

# 6 decks, peek, double any two cards, DAS, split to four hands, no resplit or draw to split aces:
# split values given no dealer blackjack, post-split strategy CDZ- (each post-split decision is
# the pre-split optimum for a hand of the same cards), printed by Eric Farmer's combinatorial
# analyzer (github.com/possibly-wrong/blackjack, version 7.6, commit a1f7dbb, BJPlayer::
# getValueSplit with BJStrategy(usePostSplit=false)) in github.com/0xRowdy/true-count,
# docs/research/blackjack-coaching-validation.md ("Unresolved split differences", "Executed split
# EV" column; its "Wizard split EV" column is Wizard of Odds Appendix 9 6ds17r4 / 6dh17r4, which
# follows another convention, docs/exact.md). Farmer's values are printed to 9 decimals and are
# held to half a unit of the 9th (ours differ by at most 4.8e-10).
FARMER_CDZ_SPLIT_6D = {  # (h17, pair, up): split EV given no dealer blackjack
    (False, 8, 1): -0.364251552,
    (True, 8, 1): -0.514034734,
    (False, 8, 10): -0.474893751,  # printed for S17 and H17 alike (a ten up: same dealer)
    (False, 10, 5): 0.371713893,
    (True, 10, 5): 0.371877572,
    (False, 10, 6): 0.449059879,
    (True, 10, 6): 0.450852018,
}


@pytest.mark.parametrize("h17, pair, up", sorted(FARMER_CDZ_SPLIT_6D))
def test_exact_split_reproduces_farmer_cdz(h17, pair, up):
    rules = Rules(decks=6, dealer_hits_soft_17=h17, double_after_split=True, **US)
    got = exact_split_value(rules, pair, up, strategy="cdz")
    assert got == pytest.approx(FARMER_CDZ_SPLIT_6D[(h17, pair, up)], abs=5e-10)


def test_second_card_sets_are_a_distribution():
    for decks, p, hmax in [(1, 8, 4), (6, 10, 4), (1, 1, 2), (2, 3, 3)]:
        comp = full_shoe(decks)
        comp[p - 1] -= 2
        comp[4] -= 1  # an up card 5
        sets = second_card_sets(comp, p, hmax)
        assert sum(sets.values()) == pytest.approx(1.0, abs=1e-12)
        for (hands, s), _ in sets.items():
            # every hand has one second card; each extra hand came from a pair card
            assert sum(s) == hands + (hands - 2)
            assert s[p - 1] >= hands - 2
            assert 2 <= hands <= hmax
    # one deck, eights, at most two hands: the only sets are two second cards
    comp = full_shoe(1)
    comp[7] -= 2
    comp[9] -= 1  # an up card ten: 49 cards left, 2 eights
    sets = second_card_sets(comp, 8, 2)
    both_eights = sets[(2, tuple(2 if i == 7 else 0 for i in range(10)))]
    assert both_eights == pytest.approx(2 / 49 * 1 / 48, rel=1e-12)
