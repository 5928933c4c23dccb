"""The engine's state machine (simulator.kernel.tables) walked with hand-built cards, one rule a
test.

The round loop walks ``trans`` one card at a time; these tests walk it in Python with chosen
card values, so the rules the machine encodes for split hands and 7-7 under Super Sevens (11,
11 (b), 11 (c), 10 after a split, 14.4) are checked card by card. The box rules for a dealer
blackjack against split hands, which the loop settles in code, are checked on
``tally.settle_box`` with hands built the same way.
"""

from __future__ import annotations

import numpy as np
from helpers import make_strategy

from simulator import layout as L
from simulator.kernel import play
from simulator.kernel import tables as M
from simulator.kernel import tally as T
from simulator.rules import Rules
from simulator.strategy import stack_for

NZ = Rules()
TEN = L.UNIT  # the initial wager, in tenths
# Dealer outcomes (tally.outcome).
BJ, BUST, D17, D18, D20, D21 = 0, 1, 2, 3, 5, 6


def _machine(rules, strategy) -> M.Machine:
    p = rules.to_params()
    return M.build(p, stack_for(rules, [strategy]))


def _walk(m, s, values) -> int:
    for v in values:
        s = int(m.trans[s * 10 + v - 1])
    return s


def _deal(m, first, up, second) -> int:
    return _walk(m, int(m.start[0]), [first, up, second])


def _is(m, s, flag) -> bool:
    return bool(m.flags[s] & flag)


def _final(m, s) -> bool:
    return m.kind[s] != T.K_NONE


def _net(m, s, outcome) -> int:
    assert _final(m, s)
    return int(m.net[s * T.N_OUTCOMES + outcome])


SPLITTER = make_strategy(pairs={"A": "P", "8": "P"}, hard={11: "D"})


def test_split_aces_take_one_card_and_21_is_not_blackjack():
    # 11 (b): one card to each split ace; 11 (c): ace and ten after a split is 21, not blackjack.
    m = _machine(NZ, SPLITTER)
    x = _deal(m, 1, 6, 1)
    assert _is(m, x, M.EXIT)  # a pair to split: the loop plays it on from the link
    hand = int(m.link[x])
    assert _is(m, hand, M.SPLIT_HAND) and _is(m, hand, M.PLAYER)
    twenty_one = _walk(m, hand, [10])
    assert _is(m, twenty_one, M.STOOD) and not _is(m, twenty_one, M.PLAYER)
    assert _net(m, twenty_one, D21) == 0  # a push with a dealer 21, not a blackjack win
    assert _net(m, twenty_one, D20) == TEN
    assert _net(m, twenty_one, BJ) == -TEN
    soft_16 = _walk(m, hand, [5])  # the strategy hits soft 16, but a split ace takes one card
    assert _is(m, soft_16, M.STOOD) and not _is(m, soft_16, M.PLAYER)
    assert _net(m, soft_16, D17) == -TEN
    two_aces = _walk(m, hand, [1])  # no resplit of aces (resplit_aces = false): stands on 12
    assert _is(m, two_aces, M.STOOD) and not _is(m, two_aces, M.PAIR)


def test_resplit_aces_when_the_rules_allow():
    m = _machine(NZ.replace(resplit_aces=True), SPLITTER)
    hand = int(m.link[_deal(m, 1, 6, 1)])
    again = _walk(m, hand, [1])
    assert _is(m, again, M.PAIR)  # split again if the box has fewer than max_hands hands
    played_on = int(m.link[again])  # ... else the two aces stand as soft 12 (one card only)
    assert _is(m, played_on, M.STOOD) and _net(m, played_on, BUST) == TEN


def test_split_hand_doubles_only_with_double_after_split():
    # 10 and the double_after_split key: 8-8 split, then 8 + 3 = 11 (the strategy doubles 11).
    for das, wager in ((True, 2 * TEN), (False, TEN)):
        m = _machine(NZ.replace(double_after_split=das), SPLITTER)
        hand = int(m.link[_deal(m, 8, 6, 8)])
        eleven = _walk(m, hand, [3])
        assert _is(m, eleven, M.PLAYER)
        twenty_one = _walk(m, eleven, [10])
        assert _is(m, twenty_one, M.STOOD)
        assert _net(m, twenty_one, BUST) == wager
        # The box's first two cards double either way (double_after_split is for split hands).
        unsplit = _walk(m, _deal(m, 8, 6, 3), [10])
        assert _net(m, unsplit, BUST) == 2 * TEN


def test_split_hand_dealt_its_value_again_is_a_pair_state():
    m = _machine(NZ, SPLITTER)
    hand = int(m.link[_deal(m, 8, 6, 8)])
    pair = _walk(m, hand, [8])
    assert _is(m, pair, M.PAIR) and not _is(m, pair, M.PLAYER)
    # With max_hands hands already, 8-8 is played on as hard 16: this strategy hits it.
    sixteen = int(m.link[pair])
    assert _is(m, sixteen, M.PLAYER)
    bust = _walk(m, sixteen, [10])  # 26: lost at once (12.2)
    assert m.kind[bust] == T.K_BUST and _net(m, bust, D20) == -TEN


def test_sevens_row_decides_7_7_under_super_sevens():
    # 14.4: with a Super Sevens bet up, the sevens row (not the pair table) decides 7-7.
    strategy = make_strategy(sevens={"6": "P", "10": "S"})  # pairs: never split
    m = _machine(NZ, strategy)
    split = _deal(m, 7, 6, 7)
    assert _is(m, split, M.EXIT) and _is(m, int(m.link[split]), M.SPLIT_HAND)
    stand = _deal(m, 7, 10, 7)
    assert _is(m, stand, M.EXIT)
    fourteen = int(m.link[stand])
    assert _is(m, fourteen, M.STOOD) and _net(m, fourteen, D17) == -TEN
    hit = int(m.link[_deal(m, 7, 9, 7)])  # the row's default here: H
    assert _is(m, hit, M.PLAYER) and not _is(m, hit, M.SPLIT_HAND)
    # Without the bet 7-7 is an ordinary pair: this strategy's pair table never splits.
    m_off = _machine(NZ.replace(super_sevens=False), strategy)
    assert not _is(m_off, _deal(m_off, 7, 6, 7), M.EXIT)


def _split_box_net(rules, hands, outcome):
    """``tally.settle_box`` for one box of 8-8 split against a ten, its hands walked from the
    split hand by the card values in ``hands``: (box net, tally)."""
    m = _machine(rules, SPLITTER)
    split = int(m.link[_deal(m, 8, 10, 8)])
    sp = np.zeros(play.MAX_HANDS, np.int64)
    for h, values in enumerate(hands):
        sp[h] = _walk(m, split, values)
    tally = np.zeros(L.N_TALLY, np.int64)
    main, _ = T.settle_box(tally, sp, 0, len(hands), m.kind, m.total, m.wager, outcome, 0,
                           rules.to_params(), 0)  # fmt: skip
    return main, tally


def test_dealer_blackjack_against_split_hands_by_box_rule():
    # Two hands of 18 (8, 10) and one busted (8, 6, 10) against a dealer blackjack.
    stood = [[10], [10]]
    rules = NZ  # original-and-busted: the box loses 10 in all from its unbusted hands
    net, tally = _split_box_net(rules, stood, BJ)
    assert net == -TEN
    assert (tally[L.T_LOSSES], tally[L.T_PUSHES], tally[L.T_SPLITS]) == (1, 1, 1)
    net, _ = _split_box_net(rules, [[6, 10], [10]], BJ)
    assert net == -2 * TEN  # the busted hand's wager was lost at once (12.2), plus 10
    net, _ = _split_box_net(rules.replace(dealer_blackjack_takes="all"), stood, BJ)
    assert net == -2 * TEN
    original = rules.replace(dealer_blackjack_takes="original")
    net, tally = _split_box_net(original, [[6, 10], [10]], BJ)
    assert net == -TEN and tally[L.T_BUSTS] == 1  # exactly 10, the busted wager returned
    net, _ = _split_box_net(rules, stood, D17)
    assert net == 2 * TEN  # no blackjack: each 18 beats 17
