"""The exact analyzer (simulator.exact) against published exact figures and its own invariants."""

import numpy as np
import pytest

from simulator import layout as L
from simulator.exact import analyze, basic_strategy, dealer_probabilities, full_shoe
from simulator.exact.analyze import _Box
from simulator.exact.player import UpCard, hand_of
from simulator.rules import Rules

US = dict(hole_card="peek", dealer_blackjack_takes="original", double_on="any",
          max_hands=4, resplit_aces=False, hit_split_aces=False, super_sevens=False)


# Wizard of Odds, Blackjack Appendix 2B "Dealer Probabilities" (before the peek), 1 deck, dealer
# stands on soft 17 (wizardofodds.com/games/blackjack/appendix/2b/), 6 decimals.
WIZ_2B_1D_S17 = {
    1: (0.126128, 0.131003, 0.129486, 0.131553, 0.0515646, 0.11654, 0.313726),
    2: (0.138976, 0.131762, 0.131815, 0.123948, 0.120526, 0.352973, 0.0),
    6: (0.166948, 0.106454, 0.107192, 0.100705, 0.0978785, 0.420823, 0.0),
    7: (0.372345, 0.138583, 0.0773344, 0.0788967, 0.072987, 0.259854, 0.0),
}
# Wizard of Odds, Blackjack Appendix 2 (after the peek, no dealer blackjack), 1 deck S17 and
# 2 decks S17 (wizardofodds.com/blackjack/appendix2.html), 6 decimals: 17..21, bust.
WIZ_2_1D_S17 = {
    1: (0.183786, 0.19089, 0.18868, 0.191692, 0.075137, 0.169815),
    10: (0.124156, 0.122486, 0.124421, 0.356869, 0.03957, 0.232499),
}
WIZ_2_2D_S17 = {
    1: (0.186367, 0.189883, 0.188851, 0.190272, 0.076531, 0.168096),
    10: (0.122412, 0.1216, 0.122524, 0.36387, 0.038449, 0.231144),
    5: (0.121005, 0.122831, 0.117318, 0.109022, 0.10732, 0.422505),
}


@pytest.mark.parametrize("up", sorted(WIZ_2B_1D_S17))
def test_dealer_probabilities_before_peek_one_deck(up):
    comp = full_shoe(1)
    comp[up - 1] -= 1
    got = dealer_probabilities(Rules(decks=1), comp, up)
    want = WIZ_2B_1D_S17[up]
    for key, w in zip(("17", "18", "19", "20", "21", "bust", "blackjack"), want, strict=True):
        assert got[key] == pytest.approx(w, abs=1.5e-6)


@pytest.mark.parametrize("decks,table", [(1, WIZ_2_1D_S17), (2, WIZ_2_2D_S17)])
def test_dealer_probabilities_no_blackjack(decks, table):
    for up, want in table.items():
        comp = full_shoe(decks)
        comp[up - 1] -= 1
        got = dealer_probabilities(Rules(decks=decks), comp, up, no_blackjack=True)
        assert got["blackjack"] == 0.0
        for key, w in zip(("17", "18", "19", "20", "21", "bust"), want, strict=True):
            assert got[key] == pytest.approx(w, abs=1.5e-6)


def test_dealer_probabilities_sum_to_one_h17():
    rules = Rules(decks=6, dealer_hits_soft_17=True)
    for up in range(1, 11):
        comp = full_shoe(6)
        comp[up - 1] -= 1
        assert sum(dealer_probabilities(rules, comp, up).values()) == pytest.approx(1, abs=1e-12)


def test_dealer_probabilities_bad_input():
    with pytest.raises(ValueError):
        dealer_probabilities(Rules(), [1, 2, 3], 5)
    with pytest.raises(ValueError):
        dealer_probabilities(Rules(), full_shoe(1), 11)


def _conditional(box, a, b, key):
    """Option value conditioned on no dealer blackjack (the tables of the peek game)."""
    pbj = box.pbj0(hand_of(a, b))
    return (box.options(a, b)[key][0] + pbj) / (1 - pbj)


# Wizard of Odds, Blackjack Appendix 9, 1 deck S17 (peek), table "Player can't split", dealer ace,
# values given no dealer blackjack (wizardofodds.com/games/blackjack/appendix/9/1ds17r4/).
WIZ_9_1D_S17_ACE = {
    (1, 2): (-0.661732, -0.067808, -0.593281),
    (2, 3): (None, -0.291565, -1.318751),
    (4, 6): (-0.636118, 0.081506, 0.048615),
    (5, 6): (-0.634013, 0.172946, 0.240259),
    (1, 7): (-0.101015, -0.108386, -0.357778),
    (2, 7): (-0.645559, -0.082785, -0.402057),
}
# Same appendix, 6 decks H17, no hole card, dealer blackjack takes all (euro-6dh17r4), dealer ace,
# unconditional values.
WIZ_9_6D_H17_ENHC_ACE = {
    (1, 2): (-0.722356, -0.379910, -1.024099),
    (2, 3): (-0.721887, -0.529734, -1.443774),
    (4, 6): (-0.720814, -0.286818, -0.639108),
    (5, 6): (-0.720879, -0.235772, -0.535879),
    (1, 7): (-0.466029, -0.421285, -0.909374),
}


def test_hand_values_one_deck_peek():
    rules = Rules(decks=1, **US)
    box = _Box(UpCard(rules, 1, None))
    for (a, b), want in WIZ_9_1D_S17_ACE.items():
        for key, w in zip(("stand", "hit", "double"), want, strict=True):
            if key == "stand" and a + b <= 11 and a != 1:
                # 12.1 (d): standing on 11 or less is not allowed here; the table's stand
                # value is plain arithmetic, checked through the dealer probabilities instead
                continue
            assert _conditional(box, a, b, key) == pytest.approx(w, abs=1.5e-6), (a, b, key)


def test_hand_values_six_decks_no_hole_card_all():
    rules = Rules(decks=6, dealer_hits_soft_17=True, hole_card="none",
                  dealer_blackjack_takes="all", double_on="any", max_hands=4,
                  super_sevens=False)
    box = _Box(UpCard(rules, 1, None))
    for (a, b), want in WIZ_9_6D_H17_ENHC_ACE.items():
        opts = box.options(a, b)
        for key, w in zip(("stand", "hit", "double"), want, strict=True):
            if key in opts:
                assert opts[key][0] == pytest.approx(w, abs=1.5e-6), (a, b, key)


# 6 decks, peek, double any two cards, DAS, split to four hands, no resplit or draw to split aces:
# stand / hit / double values given no dealer blackjack, 9 decimals, printed by Eric Farmer's
# combinatorial analyzer (github.com/possibly-wrong/blackjack, version 7.6, commit a1f7dbb) in
# github.com/0xRowdy/true-count, docs/research/blackjack-coaching-validation.md ("Actual
# action-value comparisons"), which reports all 60 agree within 1e-6 with Wizard of Odds,
# Blackjack Appendix 9, 6 decks S17 and H17 (wizardofodds.com/games/blackjack/appendix/9/6ds17r4/
# and .../6dh17r4/). Ours agree to the printed 9 decimals (largest difference 4.99e-10).
FARMER_6D = {  # (h17, a, b, up): (stand, hit, double)
    (False, 1, 7, 2): (0.124000760, 0.063289331, 0.120980036),
    (True, 1, 7, 2): (0.113110153, 0.060441376, 0.116261613),
    (False, 1, 7, 3): (0.151118882, 0.090730300, 0.179330198),
    (True, 1, 7, 3): (0.141583949, 0.088230248, 0.175215172),
    (False, 5, 6, 1): (-0.661882841, 0.147595674, 0.129709878),
    (True, 5, 6, 1): (-0.595077854, 0.108668478, 0.124006748),
    (False, 6, 10, 10): (-0.540954439, -0.534675562, -1.069351125),
    (True, 6, 10, 10): (-0.540954439, -0.534675562, -1.069351125),
    (False, 5, 10, 10): (-0.540055032, -0.503907420, -1.007814841),
    (True, 5, 10, 10): (-0.540055032, -0.503907420, -1.007814841),
    (False, 8, 8, 1): (-0.663258077, -0.513551218, -1.027102435),
    (True, 8, 8, 1): (-0.594826736, -0.538560945, -1.077121890),
    (False, 8, 8, 10): (-0.536853299, -0.535361038, -1.070722077),
    (True, 8, 8, 10): (-0.536853299, -0.535361038, -1.070722077),
    (False, 10, 10, 5): (0.670892297, -0.853069628, -1.706139256),
    (True, 10, 10, 5): (0.668926983, -0.853116704, -1.706233408),
    (False, 10, 10, 6): (0.702826041, -0.852262845, -1.704525690),
    (True, 10, 10, 6): (0.676589938, -0.852917723, -1.705835445),
    (False, 2, 10, 4): (-0.211115306, -0.210364258, -0.420728516),
    (True, 2, 10, 4): (-0.205906109, -0.210664313, -0.421328627),
}


def test_six_deck_peek_das_hand_values_published():
    zero = (0,) * 10
    for h17 in (False, True):
        rules = Rules(decks=6, dealer_hits_soft_17=h17, double_after_split=True, **US)
        boxes = {}
        for (hh, a, b, up), want in FARMER_6D.items():
            if hh != h17:
                continue
            box = boxes.setdefault(up, _Box(UpCard(rules, up, None)))
            pbj = box.pbj0(hand_of(a, b))
            opts = box.options(a, b)
            if "stand" not in opts:  # 12.1 (d): 5,6 may not stand here; its stand value still
                opts["stand"] = box.uc.stand(hand_of(a, b), zero, 1.0, False) - pbj
            for key, w in zip(("stand", "hit", "double"), want, strict=True):
                got = (opts[key][0] + pbj) / (1 - pbj)  # given no dealer blackjack
                assert got == pytest.approx(w, abs=5e-10), (h17, a, b, up, key)


# hundredpercentgambling.com, "Expected value tables" (hundredpercentgambling.com/
# expected-value-tables.htm): 6 decks, dealer stands on soft 17, double any two cards, double
# after split, split to four hands, full peek. Its worked example, hard 13 against an 8:
# stand -0.51353, hit -0.32965, double -0.7042 (5 decimals). Each cell of those tables is the
# plain (unweighted) mean over the distinct two-card hands of the total (here 10-3, 9-4, 8-5,
# 7-6), each valued exactly for its own cards: ours -0.5135232 / -0.3296519 / -0.7041998. Hit
# and double agree to the published 5 decimals; the published stand is 0.68 units of its last
# digit lower than ours (docs/exact.md: our stand values match Wizard of Odds' to 1e-6, so that
# residue is the page's), so stand is not held to it here.
def test_six_deck_s17_das_peek_thirteen_v_eight_published():
    rules = Rules(decks=6, double_after_split=True, **US)
    box = _Box(UpCard(rules, 8, None))
    hands = [(3, 10), (4, 9), (5, 8), (6, 7)]
    mean = {k: sum(box.options(a, b)[k][0] for a, b in hands) / len(hands)
            for k in ("stand", "hit", "double")}
    assert mean["hit"] == pytest.approx(-0.32965, abs=5e-6)
    assert mean["double"] == pytest.approx(-0.70420, abs=5e-6)
    assert mean["hit"] > mean["stand"] > mean["double"]  # basic strategy hits 13 v 8


# Wizard of Odds, Blackjack Appendix 9 "Expected return of game", composition-dependent play,
# resplit to four hands except aces, one card to split aces; split values count the pair cards
# of the hands already split but not the other hands' cards (the page's stated convention, which
# simulator.exact.player.UpCard.split follows):
#   1 deck S17 peek, double any two cards (wizardofodds.com/games/blackjack/appendix/9/1ds17r4/):
#     DAS +0.001839, no DAS +0.000423;
#   6 decks H17 no hole card, dealer blackjack takes all (.../appendix/9/euro-6dh17r4/):
#     DAS -0.0072705, no DAS -0.0086975.
def test_game_total_one_deck_das_published():
    one = analyze(Rules(decks=1, double_after_split=True, **US), optimal=True)["ev"]
    assert one == pytest.approx(0.001839, abs=5e-7)  # the published 6 decimals


ENHC = dict(hole_card="none", dealer_blackjack_takes="all", double_on="any", max_hands=4,
            resplit_aces=False, hit_split_aces=False, super_sevens=False)


@pytest.mark.slow
def test_game_total_one_deck_h17_das_published():
    # Wizard of Odds, Blackjack Appendix 9, 1 deck H17 peek, same rules, DAS
    # (wizardofodds.com/games/blackjack/appendix/9/1dh17r4/): -0.000072
    rules = Rules(decks=1, dealer_hits_soft_17=True, double_after_split=True, **US)
    assert analyze(rules, optimal=True)["ev"] == pytest.approx(-0.000072, abs=5e-7)


# The other Wizard of Odds Appendix 9 game totals (1 deck no DAS, 2 and 5 decks, the no-hole-card
# 'takes all' games) differ from ours by 0.6e-6 to 4.8e-6, more than the published precision; the
# residue is traced to the published split values in docs/exact.md ("Where ours and the published
# figures differ"). No test claims agreement for them.


def test_split_hand_counts():
    from simulator.exact.player import _hand_counts

    # every hand ends either with a non-pair card or capped: the counts add up to E[hands]
    for args in [(22, 309, 4), (2, 49, 4), (22, 309, 3), (3, 49, 2)]:
        e_np, e_cap, e_n, _ = _hand_counts(*args)
        assert sum(e_np) + sum(e_cap) == pytest.approx(e_n, abs=1e-12)
    # one deck, pair of eights split to at most 4 hands: 2 eights left among 49 cards
    e_np, e_cap, e_n, _ = _hand_counts(2, 49, 4)
    assert sum(e_cap) == 0
    p1 = 2 / 49 + 47 / 49 * 2 / 49  # first resplit (hand 1 or hand 2 draws an eight)
    assert e_n > 2 + p1 * 0.99


def test_standard_us_chart_reproduced():
    # The standard 4-8 deck S17 DAS peek chart (e.g. Wizard of Odds' basic strategy chart):
    # the cells that most often go wrong in a derivation.
    s = basic_strategy(Rules(decks=6, double_after_split=True, **US))
    u = {up: (9 if up == 1 else up - 2) for up in range(1, 11)}
    assert s.hard[12, u[2]] == L.H and s.hard[12, u[4]] == L.S
    assert s.hard[16, u[10]] == L.H and s.hard[16, u[7]] == L.H and s.hard[13, u[2]] == L.S
    assert s.hard[11, u[10]] == L.D and s.hard[11, u[1]] == L.H and s.hard[9, u[2]] == L.H
    assert s.hard[10, u[9]] == L.D and s.hard[10, u[10]] == L.H
    assert s.soft[18, u[2]] == L.S and s.soft[18, u[3]] == L.DS and s.soft[18, u[9]] == L.H
    assert s.soft[17, u[2]] == L.H and s.soft[17, u[3]] == L.D
    assert s.soft[13, u[5]] == L.D and s.soft[13, u[4]] == L.H
    assert s.pairs[8, u[7]] == L.N and s.pairs[8, u[8]] == L.P and s.pairs[8, u[10]] == L.N
    assert s.pairs[7, u[1]] == L.P and s.pairs[3, u[5]] == L.P and s.pairs[3, u[4]] == L.N
    assert s.pairs[1, u[2]] == L.P and s.pairs[5, u[2]] == L.P and s.pairs[4, u[9]] == L.N
    assert not s.insurance and not s.even_money


def test_strategy_evaluation_consistent_with_derivation():
    rules = Rules(decks=2, **(US | {"max_hands": 2}))  # no resplits: keeps the test fast
    res = analyze(rules)
    again = analyze(rules, res["strategy"])
    assert again["ev"] == pytest.approx(res["ev"], abs=1e-12)
    # the total-dependent strategy never beats composition-dependent play
    assert analyze(rules, optimal=True)["ev"] >= res["ev"] - 1e-9
    assert 1.05 < res["sd"] < 1.2
    # ... under 6:5 too, where the derived basic takes even money (optimal play declined it:
    # 1.7623% against the basic's 1.7058% for 6 decks, a review found)
    six_five = rules.replace(blackjack_pays=1.2)
    basic = analyze(six_five)
    assert basic["strategy"].even_money
    assert analyze(six_five, optimal=True)["ev"] >= basic["ev"] - 1e-9


def test_insurance_costs_its_exact_edge():
    from dataclasses import replace

    rules = Rules(decks=6, **(US | {"max_hands": 2}))
    base = analyze(rules)
    ins = replace(base["strategy"], insurance=True, even_money=True)
    res = analyze(rules, ins)
    # 6 decks: insurance pays 2 to 1 on 96 tens among 311 unseen less the player's cards;
    # its cost per round is small and negative.
    assert res["ev"] < base["ev"]
    assert -0.004 < res["ev"] - base["ev"] < 0
    assert res["insurance_ev"] < 0


def test_forced_draw_on_eleven_or_less():
    # 12.1 (d): a strategy that stands on everything still draws to 11 or less.
    rules = Rules(decks=6, super_sevens=False)
    s = basic_strategy(rules)
    from dataclasses import replace

    stand_all = replace(s, hard=np.full_like(s.hard, L.S), soft=np.full_like(s.soft, L.S),
                        pairs=np.full_like(s.pairs, L.N))
    res = analyze(rules, stand_all)
    hands = {(h["up"], h["hand"]): h for h in res["hands"]}
    assert hands[(6, (2, 3))]["choice"] == "hit"
    assert hands[(6, (2, 10))]["choice"] == "stand"


def test_nz_default_game_figures():
    # (its time is measured by benchmarks/exact.py, not here)
    res = analyze(Rules())
    assert 0.004 < res["house_edge"] < 0.009
    # the Super Sevens figure under basic's own 7-7 row is checked against an independent
    # card-removal calculation in tests/test_super_sevens_exact.py; hitting every 7-7 deals the
    # third card every time, which is the published convention
    hit = analyze(Rules(), replace_sevens(res["strategy"], L.H))["super_sevens"]
    assert hit["house_edge"] == pytest.approx(0.1140, abs=5e-5)  # the published 11.40%


def replace_sevens(strategy, code):
    from dataclasses import replace

    return replace(strategy, sevens=np.full_like(strategy.sevens, code))


# ---------------------------------------------------------------------------------------------
# The shipped strategies are the exact derivation's output (bjsim strategy generate)


@pytest.fixture(scope="module")
def nz_derived():
    from simulator.exact.analyze import derive
    from simulator.rules import load_rule_file

    rules, _ = load_rule_file("configs/nz1994.toml")
    return rules, derive(rules)[0], derive(rules, with_super_sevens=True)[0]


def test_shipped_basic_is_the_derived_basic_strategy(nz_derived):
    from simulator.exact.analyze import strategy_from_tables
    from simulator.strategy import load_strategy, strategies_equal

    rules, tables, _ = nz_derived
    assert strategies_equal(strategy_from_tables(rules, tables), load_strategy("basic"))
    # insurance-taker = basic + insurance and even money
    taker = strategy_from_tables(rules, tables, insurance=True)
    shipped = load_strategy("insurance-taker")
    assert strategies_equal(taker, shipped)
    assert shipped.insurance and shipped.even_money
    for t in ("hard", "soft", "pairs", "sevens"):
        assert np.array_equal(getattr(shipped, t), getattr(load_strategy("basic"), t))


@pytest.mark.parametrize("change, taken", [
    ({}, (False, False)),  # the Gazette's pays: neither
    ({"blackjack_pays": 1.2}, (False, True)),  # 6 to 5: +1 beats 1.2 x P(no dealer blackjack)
    ({"blackjack_pays": 1.0}, (False, True)),
    ({"blackjack_pays": 1.2, "decks": 1}, (False, True)),
    ({"insurance_pays": 2.2}, (False, False)),  # P(ten) about 0.309: it gains above 2.24 to 1
    ({"insurance_pays": 2.4}, (True, False)),  # (2.3 is no rule: steps of 0.2)
    ({"insurance_pays": 3.0, "blackjack_pays": 1.2}, (True, True)),
])
def test_the_derived_basic_strategy_takes_insurance_and_even_money_where_they_gain(
        nz_derived, change, taken):
    """Each of insurance and even money is taken exactly where the exact analyzer values the
    strategy with it above the same charts without it (and the other as derived)."""
    from dataclasses import replace

    from simulator.exact.analyze import strategy_from_tables, worth_taking

    rules = nz_derived[0].replace(**change)
    assert worth_taking(rules) == taken
    if change.get("decks", 6) != 6:
        return  # (the charts below are the 6-deck ones)
    strat = strategy_from_tables(rules, nz_derived[1])
    assert (strat.insurance, strat.even_money) == taken
    base = analyze(rules, strat)["house_edge"]
    for key in ("insurance", "even_money"):
        flipped = analyze(rules, replace(strat, **{key: not getattr(strat, key)}))["house_edge"]
        assert flipped > base, (key, flipped, base)  # the other choice costs the player


def test_shipped_basic_super_sevens(nz_derived):
    from simulator.exact.analyze import strategy_from_tables
    from simulator.strategy import load_strategy, strategies_equal

    rules, _, ss_tables = nz_derived
    shipped = load_strategy("basic-super-sevens")
    assert strategies_equal(strategy_from_tables(rules, ss_tables, with_super_sevens=True),
                            shipped)
    basic = load_strategy("basic")
    # the same as basic but for the sevens row: with the side bet up, hit every 7-7
    for t in ("hard", "soft", "pairs"):
        assert np.array_equal(getattr(shipped, t), getattr(basic, t))
    assert (shipped.sevens == L.H).all()
    # basic's sevens row is the pair table's 7,7 play
    u7 = basic.pairs[6]
    assert np.array_equal(basic.sevens, np.where(u7 == L.P, L.P, basic.hard[14]))


def test_sevens_question_nz():
    from simulator.exact.compare import sevens_question
    from simulator.strategy import load_strategy

    rules = Rules()
    q = sevens_question(rules, load_strategy("basic"))
    for bet in (0.5, 1.0, 2.0):
        assert set(q["best"][bet].values()) == {"hit"}
    for up in range(1, 11):
        v = q["by_up"][up]
        # split and stand settle the side bet on two cards (14.4): same side-bet value
        assert v["split"]["super_sevens"] == pytest.approx(v["stand"]["super_sevens"], abs=1e-12)
        assert v["hit"]["super_sevens"] == pytest.approx(v["double"]["super_sevens"], abs=1e-12)
        assert v["hit"]["super_sevens"] > v["stand"]["super_sevens"] + 30
    rows = {r["play"]: r for r in q["plays"]}
    assert rows["strategy"]["main_ev_change"] == 0
    assert rows["hit"]["super_sevens_house_edge"] == pytest.approx(0.1140, abs=5e-5)
    assert rows["split"]["super_sevens_house_edge"] == pytest.approx(0.3631, abs=5e-4)
    # hitting every 7-7 costs the main game a little and gains the side bet a lot
    assert -0.002 < rows["hit"]["main_ev_change"] < 0
    assert rows["hit"]["combined_change"][1.0] > 0.1


def _main_sevens(s):
    """The sevens row of the main game alone: the pair table's 7,7 play (P, Rp), else hard 14."""
    u7 = s.pairs[6]
    return np.where((u7 == L.P) | (u7 == L.RP), u7, s.hard[14])


@pytest.mark.parametrize("surrender", ["early", "late"])
def test_surrender_basic_main_game_is_the_same_with_the_side_bet_on_and_off(surrender):
    """`basic` is the main game's basic strategy whatever side bet is up: under surrender its
    sevens row keeps the pair table's 7,7 play, a surrender too (early: 7,7 v 10 and v A
    surrender, -0.5, where a hit is -0.515 and -0.620), so the chart's main game is the same
    with the Super Sevens bet on and off (early, it was 0.0079 pp lower with the bet on: its
    sevens row hit there). (Late, no hole card: hard 14 never surrenders.)"""
    on = analyze(Rules(surrender=surrender))
    off = analyze(Rules(surrender=surrender, super_sevens=False))
    assert on["house_edge"] == pytest.approx(off["house_edge"], abs=1e-12)
    s = on["strategy"]
    assert np.array_equal(s.sevens, _main_sevens(s))
    if surrender == "early":
        assert [L.ACTION_NAMES[c] for c in s.sevens] == ["P"] * 6 + ["H", "H", "Rh", "Rh"]
        assert on["house_edge"] == pytest.approx(-0.0011841, abs=5e-8)
        # the side bet under that row: no third card against 10 and A (a surrender: (b), (c))
        ss = on["super_sevens"]
        assert ss["plays"][10] == ss["plays"][1] == "surrender"
        from simulator.exact.sevens import super_sevens

        stood = super_sevens(Rules(surrender="early"), ss["plays"] | {10: "stand", 1: "stand"})
        assert ss["ev"] == pytest.approx(stood["ev"], abs=1e-15)


def test_a_chart_surrendering_7_7_late_is_valued_so_for_both_bets():
    """A chart whose hard 14 and sevens row surrender late against 10 and A: the main game the
    same with the side bet on and off, and the side bet settled on the two sevens there (no
    third card: as a stand), not as a hit."""
    from dataclasses import replace

    from simulator.exact.sevens import super_sevens

    rules = Rules(surrender="late")
    base = analyze(rules)["strategy"]
    hard = base.hard.copy()
    hard[14, 8:] = (L.RH, L.RS)
    strat = replace(base, hard=hard)
    strat = replace(strat, sevens=_main_sevens(strat).astype(np.int8))
    assert [L.ACTION_NAMES[c] for c in strat.sevens[8:]] == ["Rh", "Rs"]
    on = analyze(rules, strat)
    off = analyze(rules.replace(super_sevens=False), strat)
    assert on["house_edge"] == pytest.approx(off["house_edge"], abs=1e-12)
    hands = {(h["up"], h["hand"]): h for h in on["hands"]}
    assert hands[(10, (7, 7))]["choice"] == hands[(1, (7, 7))]["choice"] == "surrender"
    ss = on["super_sevens"]
    assert ss["plays"][10] == ss["plays"][1] == "surrender"
    stood = super_sevens(rules, ss["plays"] | {10: "stand", 1: "stand"})
    hit = super_sevens(rules, ss["plays"] | {10: "hit", 1: "hit"})
    assert ss["ev"] == pytest.approx(stood["ev"], abs=1e-15) and ss["ev"] < hit["ev"] - 0.05
    assert ss["lines"]["d"]["probability"] == pytest.approx(stood["lines"]["d"]["probability"])


def test_optimal_play_surrendering_7_7_says_surrender(tmp_path, monkeypatch):
    """--optimal under early surrender: the main wager's best 7-7 play against 10 and A is a
    surrender (-0.5); the 7-7 question says so (it said "stand") and values it so: the side
    bet as a stand's (no third card), the main wager -0.5, and every row's change against it."""
    from simulator.exact.compare import exact_figures

    monkeypatch.setenv("BJSIM_CACHE_DIR", str(tmp_path))
    rules = Rules(surrender="early")
    fig, strat = exact_figures(rules, optimal=True)
    assert strat is None
    q = fig["sevens_question"]
    assert q["strategy_plays"][10] == q["strategy_plays"][1] == "surrender"
    assert fig["super_sevens"]["plays"]["10"] == fig["super_sevens"]["plays"]["A"] == "surrender"
    for up in range(1, 11):
        v = q["by_up"][up]
        assert v["surrender"]["main"] == pytest.approx(-0.5, abs=1e-12)
        assert v["surrender"]["super_sevens"] == v["stand"]["super_sevens"]
    rows = {r["play"]: r for r in q["plays"]}
    assert rows["strategy"]["main_ev_change"] == 0
    p77 = q["p_sevens"]
    want = sum(p77[up] * (q["by_up"][up]["stand"]["main"] - q["by_up"][up][q["strategy_plays"][
        up]]["main"]) for up in range(1, 11))
    assert rows["stand"]["main_ev_change"] == pytest.approx(want, abs=1e-15)
    assert rows["surrender"]["super_sevens_house_edge"] == pytest.approx(
        rows["stand"]["super_sevens_house_edge"], abs=1e-12)


def test_an_analysis_is_computed_once_a_process_and_handed_out_as_copies(monkeypatch):
    import importlib

    A = importlib.import_module("simulator.exact.analyze")
    monkeypatch.setattr(A, "_ANALYSES", {})
    calls = []

    def compute():
        calls.append(1)
        return {"hands": [1]}

    first = A.remembered(("analyze", Rules()), compute)
    first["hands"].append(2)  # a caller's change stays its own
    assert A.remembered(("analyze", Rules()), compute) == {"hands": [1]} and len(calls) == 1
    A.remembered(("analyze", Rules(decks=1)), compute)  # another game: computed
    assert len(calls) == 2
    for i in range(A.ANALYSES_KEPT):  # the least recently used go
        A.remembered(i, compute)
    A.remembered(("analyze", Rules()), compute)
    assert len(calls) == 3 + A.ANALYSES_KEPT


def test_exact_figures_of_several_games_are_made_side_by_side_as_here_and_kept(monkeypatch,
                                                                             tmp_path):
    # `bjsim report` values the player's choices on several worker processes
    # (exact.compare.exact_figures_all): bit for bit what this process makes, then kept here
    # and on disk.
    import importlib

    from simulator.strategy import load_strategy

    monkeypatch.setenv("BJSIM_CACHE_DIR", str(tmp_path))  # (empty: they are made)
    A = importlib.import_module("simulator.exact.analyze")
    X = importlib.import_module("simulator.exact.compare")
    monkeypatch.setattr(A, "_ANALYSES", {})
    rules = Rules(decks=1)
    pairs = [(rules, load_strategy("basic")), (rules, load_strategy("never-bust"))]
    here = X._exact_figures(*pairs[1])
    assert X.exact_figures_all(pairs, workers=2) == 2
    assert X.exact_figures_all(pairs, workers=2) == 0  # kept: nothing to make
    assert len(list(tmp_path.glob("figures-*.pickle"))) == 2
    monkeypatch.setattr(A, "_ANALYSES", {})  # a new process: from the disk, nothing to make
    assert X.exact_figures_all(pairs, workers=2) == 0

    def no(*_):
        raise AssertionError("made again")

    monkeypatch.setattr(X, "_exact_figures", no)
    figures, strategy = X.exact_figures(*pairs[1])
    assert repr(figures) == repr(here[0]) and strategy.name == "never-bust"
    assert X.exact_figures(*pairs[0])[0]["house_edge"] != figures["house_edge"]


@pytest.mark.parametrize("surrender", ["late", "early"])
@pytest.mark.parametrize("hole_card", ["none", "peek"])
def test_rp_pair_surrenders_where_no_split_is_possible(surrender, hole_card):
    """max_hands = 1: a pair cell ``Rp`` surrenders where surrender is allowed (as the kernel
    and the reference game play it; the analyzer had read no pair cell, the hard or soft one
    deciding); without surrender it is played from the hard or soft chart, as ``N``."""
    from dataclasses import replace

    rules = Rules(decks=2, max_hands=1, surrender=surrender, hole_card=hole_card,
                  super_sevens=False)
    base = analyze(rules)["strategy"]
    hard, soft = base.hard.copy(), base.soft.copy()
    for t in (hard, soft):  # no surrender but the pair cells' (hard 16 v 10 is Rh)
        t[t == L.RH], t[t == L.RS] = L.H, L.S
    base = replace(base, hard=hard, soft=soft)
    pairs = base.pairs.copy()
    for pv, ups in ((8, (8, 9)), (1, (8,)), (10, (8,))):  # 8,8 v 10 and A; A,A and T,T v 10
        pairs[pv - 1, list(ups)] = L.RP
    rp = replace(base, pairs=pairs)
    res, plain = analyze(rules, rp), analyze(rules, base)
    hands = {(h["up"], h["hand"]): h for h in res["hands"]}
    old = {(h["up"], h["hand"]): h for h in plain["hands"]}
    changed = [(10, (8, 8)), (1, (8, 8)), (10, (1, 1)), (10, (10, 10))]
    assert all(hands[k]["choice"] == "surrender" != old[k]["choice"] for k in changed)
    assert all(hands[k]["choice"] == old[k]["choice"] for k in hands if k not in changed)
    moved = sum(old[k]["prob"] * (hands[k]["ev"] - old[k]["ev"]) for k in changed)
    assert res["ev"] - plain["ev"] == pytest.approx(moved, abs=1e-12) and moved != 0
    none = rules.replace(surrender="none")
    assert analyze(none, rp)["ev"] == pytest.approx(analyze(none, base)["ev"], abs=1e-15)


def test_doubling_on_9_to_11_is_the_nz_game_for_basic_strategy():
    """NZ basic strategy doubles hard 9, 10 and 11 only, so double_on = "9-11" is the same game:
    the same hard 9 row (doubling against 3-6) and the same house edge (a mutation audit: an
    analyzer taking 9-11 for 10-11 passed, the agreement test playing its own derived chart)."""
    nz, nine = basic_strategy(Rules()), basic_strategy(Rules(double_on="9-11"))
    assert np.array_equal(nine.hard[9], nz.hard[9]) and (nz.hard[9] == L.D).sum() == 4
    assert analyze(Rules(double_on="9-11"))["house_edge"] == pytest.approx(
        analyze(Rules())["house_edge"], abs=1e-12)
    assert analyze(Rules(double_on="10-11"))["house_edge"] > analyze(Rules())["house_edge"]
