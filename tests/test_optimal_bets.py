"""``bjsim count --optimal-bets``: the isotonic advantage, the Kelly bet, its rounding and
clamping from hand-made tallies; the refusals; the written plan; and the exact check: the
optimal plan played on the same seed wins what the section predicted, to the last tenth."""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import io
import json
import math
import os
from pathlib import Path

import numpy as np
import pytest

from simulator import counting
from simulator import counting_report as CR
from simulator import layout as L
from simulator.plans import Ramp, load_plan, plan_toml
from simulator.rules import Rules
from tests.test_count_cli import TINY, _json, install_fake_engine, invoke
from tests.test_counting_report import tally_of
from tests.test_hostile_input import is_one_line_error

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------------------------
# Isotonic regression (pool adjacent violators)


def brute_isotonic(x, w):
    """The non-decreasing fit by its other definition: at each i, max over a <= i of min over
    b >= i of the weighted mean of x[a..b]."""
    n = len(x)

    def mean(a, b):
        return sum(x[k] * w[k] for k in range(a, b + 1)) / sum(w[a:b + 1])

    return [max(min(mean(a, b) for b in range(i, n)) for a in range(i + 1)) for i in range(n)]


@pytest.mark.parametrize("x, w, want", [
    ([1.0, 2.0, 3.0], [1, 1, 1], [1.0, 2.0, 3.0]),  # already non-decreasing: kept
    ([3.0, 1.0], [1, 3], [1.5, 1.5]),  # pooled to the weighted mean (3 + 3) / 4
    ([0.0, 2.0, 2.0, 1.0], [1, 1, 1, 1], [0.0, 5 / 3, 5 / 3, 5 / 3]),  # a tie pooled with a fall
    ([2.0, 2.0, 2.0], [5, 1, 2], [2.0, 2.0, 2.0]),  # ties alone are no violation
    ([-0.4], [7], [-0.4]),  # a single row
    ([-0.01, -0.02, -0.05], [10, 20, 10], [-0.025] * 3),  # all negative, falling: one pool
    ([-0.03, -0.02, -0.01], [1, 1, 1], [-0.03, -0.02, -0.01]),  # all negative, rising: kept
])
def test_isotonic_pools_adjacent_violators_to_their_weighted_mean(x, w, want):
    got = counting.isotonic(x, w)
    assert got == pytest.approx(want, abs=1e-15)
    assert got == pytest.approx(brute_isotonic(x, w), abs=1e-15)
    assert (np.diff(got) >= 0).all()


def test_isotonic_agrees_with_its_definition_on_random_rows():
    rng = np.random.default_rng(5)
    for _ in range(200):
        n = int(rng.integers(1, 9))
        x = list(rng.normal(size=n).round(2))
        w = list(rng.integers(1, 50, size=n))
        assert counting.isotonic(x, w) == pytest.approx(brute_isotonic(x, w), abs=1e-12)


def test_isotonic_refuses_weights_not_above_zero():
    with pytest.raises(ValueError, match="weights above 0"):
        counting.isotonic([1.0, 2.0], [1, 0])


# ---------------------------------------------------------------------------------------------
# The Kelly bet, rounded and clamped, from a hand-made tally


@pytest.mark.parametrize("kelly, want", [(None, 2), (0.4, 2), (2.5, 3), (2.49, 2), (7.0, 7),
                                         (11.5, 12), (99.0, 12)])
def test_the_bet_is_the_kelly_bet_to_a_whole_unit_within_the_table(kelly, want):
    assert counting.bet_to_play(kelly, 2, 12) == want


def test_the_kelly_bet_needs_an_edge_and_a_variance():
    assert counting.kelly_bet(1000, 0.5, 0.01, 1.25) == pytest.approx(4.0)
    assert counting.kelly_bet(1000, 1, 0.0, 1.3) is None
    assert counting.kelly_bet(1000, 1, -0.01, 1.3) is None
    assert counting.kelly_bet(1000, 1, 0.01, 0.0) is None


def rounds_at(count: int, nets: list[int]) -> list[dict]:
    """One round a net (tenths), one box at one unit, the counter betting 1 unit."""
    return [{"count": count, "bet": 1, "net": x, "flat": [x]} for x in nets]


# -1: even (no edge); 0: 21 wins and 19 losses of 1 unit (+5%); +2: 20 wins of 2 units and 20
# losses of 1 (+50%); +3: even again, a fall the isotonic fit pools with +2 (+25% each).
HAND = (rounds_at(-1, [10] * 20 + [-10] * 20) + rounds_at(0, [10] * 21 + [-10] * 19)
        + rounds_at(2, [20] * 20 + [-10] * 20) + rounds_at(3, [10] * 20 + [-10] * 20))


def flat_plan(**changes):
    return dataclasses.replace(load_plan("hi-lo-flat"), **({"table_max": 12} | changes))


def optimal(tally, plan, **kw):
    """`optimal_bets` of a hand-made tally of a few rounds a count: its end rows pooled to 30
    rounds (the by-count table's), not to the 10,000 of a run (`END_ROUNDS`)."""
    return CR.optimal_bets(tally, plan, **({"end_rounds": 30} | kw))


def test_the_optimal_bets_of_a_hand_made_tally():
    o = optimal(tally_of(HAND), flat_plan(), bankroll=100)
    rows = {r["count"]: r for r in o["rows"]}
    assert [r["advantage"] for r in o["rows"]] == pytest.approx([0, 0.05, 0.5, 0])
    assert [r["advantage_smoothed"] for r in o["rows"]] == pytest.approx([0, 0.05, 0.25, 0.25])
    # the variance of a round's net at one unit (n - 1 in the denominator), in units^2
    assert rows[0]["variance"] == pytest.approx((40 * 40 - 2 ** 2) / (40 * 39))
    assert rows[2]["variance"] == pytest.approx((40 * 100 - 20 ** 2) / (40 * 39))
    assert rows[-1]["kelly_bet"] is None and rows[-1]["bet"] == 1  # no edge: table_min
    # each advantage with its SE, the table by count's (its flat advantage's) for the same rows
    by_count = CR.figures(tally_of(HAND), flat_plan(), Rules())["by_count"]
    assert [r["label"] for r in o["rows"]] == [b["label"] for b in by_count]
    for r, b in zip(o["rows"], by_count, strict=True):
        assert r["advantage"] == pytest.approx(b["flat_advantage"])
        assert r["advantage_se"] == pytest.approx(b["flat_se"]), r["label"]
    assert "advantage SE" in CR.optimal_text(o, "true count")[3]
    assert rows[0]["kelly_bet"] == pytest.approx(100 * 0.05 / rows[0]["variance"])  # 4.89
    assert rows[2]["kelly_bet"] == pytest.approx(100 * 0.25 / rows[2]["variance"])  # 10.8
    assert rows[3]["kelly_bet"] == pytest.approx(100 * 0.25 / rows[3]["variance"])  # 24.4
    assert [r["bet"] for r in o["rows"]] == [1, 5, 11, 12]  # 12: the table's most
    assert o["bet"] == {"base": 1, "steps": [[0, 5], [2, 11], [3, 12]]}
    # over the same rounds: each row's net at one unit times its new bet, exactly
    p = o["predicted"]
    assert o["exact"] is True and "exact: the same seed" in o["exact_note"]
    assert "one amount a box at each count the tally keeps" in o["exact_note"]
    assert (p["net"], p["bet"]) == (1 * 0 + 5 * 20 + 11 * 200 + 12 * 0, 40 * (1 + 5 + 11 + 12))
    assert p["main_sq"] == 1 * 4000 + 25 * 4000 + 121 * 10000 + 144 * 4000
    assert p["advantage"] == pytest.approx(2300 / 10 / 1160)
    assert p["per_round_played"]["mean"] == pytest.approx(2300 / 10 / 160)
    assert o["as_played"]["net"] == 220 and o["as_played"]["main_sq"] == 4000 * 3 + 10000
    assert o["held_note"] is None


def test_the_optimal_bets_advantage_se_of_two_boxes_is_per_box_round():
    # each round two boxes at one unit, both the same net: count 0's rounds' nets +2 (21) and -2
    # (19) units over 80 box-rounds (a statistics audit: an SE that left out the boxes, twice as
    # large, passed: the hand-made tally had one box a round)
    two = [r | {"flat": r["flat"] * 2, "boxes": 2} for r in HAND]
    o = optimal(tally_of(two), flat_plan(), bankroll=100)
    nets = np.array([2.0] * 21 + [-2.0] * 19)
    row = next(r for r in o["rows"] if r["count"] == 0)
    assert row["advantage_se"] == pytest.approx(nets.std(ddof=1) * math.sqrt(40) / 80)
    by_count = CR.figures(tally_of(two), flat_plan(), Rules(boxes=2))["by_count"]
    for r, b in zip(o["rows"], by_count, strict=True):
        assert r["advantage_se"] == pytest.approx(b["flat_se"]), r["label"]


def test_a_bet_below_the_row_before_is_held_at_its_bet_the_running_maximum():
    noisy = HAND + rounds_at(4, [30] * 17 + [-30] * 13)  # +40%, but a variance of 9.1: Kelly 4
    o = optimal(tally_of(noisy), flat_plan(), bankroll=100)
    assert o["rows"][-1]["kelly_bet"] == pytest.approx(100 * 0.4 / (30 * 27000 - 120 ** 2)
                                                       * 30 * 29 * 100)
    assert [r["bet"] for r in o["rows"]] == [1, 5, 11, 12, 12]  # 4 held at 12
    assert o["bet"]["steps"] == [[0, 5], [2, 11], [3, 12]]
    assert o["held_note"].startswith("the rounded Kelly bet is below the row before's at +4 (4 "
                                     "held at 12) units, where the row's variance is higher")
    text = "\n".join(CR.optimal_text(o, "true count"))
    assert "Note: the rounded Kelly bet is below the row before's at +4" in text
    assert "the bet to play is non-decreasing in the count" in text


def test_optimal_bets_scoring_below_the_plan_say_why():
    # A review: with a bankroll of 300 units the "optimal bets" scored 2.9 against the plan's
    # 6.7, where the docs called their SCORE the highest a ramp has: rounded to whole units for
    # a small bankroll they are not Schlesinger's optimal bets. Here the plan bet 8 at +2.
    ramped = [r | {"bet": 8, "net": 8 * r["net"]} if r["count"] == 2 else r for r in HAND]
    o = optimal(tally_of(ramped), flat_plan(), bankroll=10)
    assert [r["bet"] for r in o["rows"]] == [1, 1, 1, 2]
    scores = o["predicted"]["per_round_played"]["score"], o["as_played"]["per_round_played"][
        "score"]
    assert scores[0] < scores[1]
    assert o["score_note"] == (
        f"the optimal bets' SCORE ({scores[0]:.1f}) is below the plan's ({scores[1]:.1f}): they "
        "are Kelly bets on the smoothed advantages, rounded to whole units within the table "
        "limits for the bankroll and fraction given (bets of 1 unit at -1 to +2 and 2 at +3 for "
        "a bankroll of 10 units at fraction 1), not Schlesinger's optimal bets, in any amount "
        "and without limits, whose SCORE is the highest a ramp has; SCORE does not depend on the "
        "bankroll, but the rounded bets do, nearer those with a larger bankroll or fraction")
    assert f"Note: {o['score_note']}." in "\n".join(CR.optimal_text(o, "true count"))
    assert {"section": "optimal_bets", "item": "score_note", "count": None, "count_label": None,
            "value": o["score_note"], "se": None, "ci95_low": None,
            "ci95_high": None} in CR.optimal_rows(o)
    flat = optimal(tally_of(HAND), flat_plan(), bankroll=100)  # (flat bets: the ramp scores
    assert flat["score_note"] is None  # higher)


def test_a_zigzag_of_kelly_bets_from_noisy_variances_is_made_non_decreasing():
    # the Kelly bets 4, 2, 8, 4 (a row's variance up, then down): played as 4, 4, 8, 8
    t = tally_of(rounds_at(1, [10] * 55 + [-10] * 45) + rounds_at(2, [20] * 55 + [-20] * 45)
                 + rounds_at(3, [10] * 60 + [-10] * 40) + rounds_at(4, [20] * 60 + [-20] * 40))
    o = optimal(t, flat_plan(table_max=20), bankroll=40)
    assert [r["variance"] for r in o["rows"]] == pytest.approx([1, 4, 96 / 99, 384 / 99])
    assert [r["kelly_bet"] for r in o["rows"]] == pytest.approx([4, 2, 8.25, 4.125])
    assert [r["bet"] for r in o["rows"]] == [4, 4, 8, 8]
    assert o["bet"] == {"base": 4, "steps": [[3, 8]]}
    assert "+2 (2 held at 4) and +4 (4 held at 8) units" in o["held_note"]


def test_the_end_rows_are_pooled_inward_to_ten_thousand_rounds_before_the_fit():
    # an 18-round +3 reading +44% and a 5,000-round +2: pooled with +1 into ">=+1"
    t = (tally_of(rounds_at(-1, [10] * 50 + [-10] * 50)) * 200
         + tally_of(rounds_at(0, [10] * 51 + [-10] * 49)) * 200
         + tally_of(rounds_at(1, [10] * 52 + [-10] * 48)) * 200
         + tally_of(rounds_at(2, [10] * 53 + [-10] * 47)) * 50
         + tally_of(rounds_at(3, [10] * 13 + [-10] * 5)))
    assert CR.END_ROUNDS == 10_000
    o = CR.optimal_bets(t, flat_plan(table_max=40), bankroll=300)
    assert [r["label"] for r in o["rows"]] == ["-1", "0", ">=+1"]
    top = o["rows"][-1]
    assert top["counts"] == [1, 3] and top["rounds"] == 25_018
    assert top["advantage"] == pytest.approx((800 + 300 + 8) / 25_018)
    assert top["bet"] == round(300 * top["advantage"] / top["variance"]) == 13
    # unpooled, the 18 rounds at +3 alone (+44%) would bet the table's most
    assert optimal(t, flat_plan(table_max=40), bankroll=300, end_rounds=1)["bet"] == {
        "base": 1, "steps": [[0, 6], [1, 12], [2, 18], [3, 40]]}
    assert "pooled inward until each holds at least 10,000 rounds" in o["smoothing_note"]
    assert "10,000 rounds" in "\n".join(CR.optimal_text(o, "true count"))


def test_half_kelly_halves_the_kelly_bets():
    full = optimal(tally_of(HAND), flat_plan(), bankroll=100)
    half = optimal(tally_of(HAND), flat_plan(), bankroll=100, fraction=0.5)
    assert [r["bet"] for r in half["rows"]] == [1, 2, 5, 12]
    for a, b in zip(full["rows"][1:], half["rows"][1:], strict=True):
        assert b["kelly_bet"] == pytest.approx(a["kelly_bet"] / 2)


def test_the_table_limits_clamp_the_bets_and_a_flat_table_says_so():
    o = optimal(tally_of(HAND), flat_plan(table_min=2, table_max=8), bankroll=100)
    assert [r["bet"] for r in o["rows"]] == [2, 5, 8, 8] and o["limits_note"] is None
    flat = optimal(tally_of(HAND), load_plan("hi-lo-flat"), bankroll=100)
    assert [r["bet"] for r in flat["rows"]] == [1] * 4 and flat["bet"]["steps"] == []
    assert "table_max is its table_min, 1 unit" in flat["limits_note"]
    heads = [CR.optimal_text(x, "true count")[1] for x in (o, flat)]  # ("1 to 1 units")
    assert "table limits 2 to 8 units;" in heads[0] and "table limits 1 unit;" in heads[1]


def test_a_withheld_risk_of_ruin_interval_is_labelled_and_said_as_the_main_tables():
    # 160 rounds and a 100-unit bankroll: too few rounds for the risk of ruin's interval
    o = optimal(tally_of(HAND), flat_plan(), bankroll=100)
    for key in ("as_played", "predicted"):
        assert o[key]["per_round_played"]["risk_of_ruin_interval_note"] is not None
    lines = CR.optimal_text(o, "true count")
    head = next(x for x in lines if x.startswith("main bet"))
    assert head.rstrip().endswith("risk of ruin") and "risk of ruin (95%)" not in head
    text = "\n".join(lines)
    for label in ("the plan as played", "the optimal bets (exact)"):
        assert f"No SE or interval for the risk of ruin of {label}: across the mean's" in text
    assert "The risk of ruin is the diffusion formula's" in text
    assert "do not allow for the bets having been chosen from the same rounds" in text
    # a bankroll of 5 units: the interval given, the head labelled
    o = optimal(tally_of(HAND), flat_plan(), bankroll=5)
    head = next(x for x in CR.optimal_text(o, "true count") if x.startswith("main bet"))
    assert head.rstrip().endswith("risk of ruin (95%)")
    notes = {r["item"]: r["value"] for r in CR.optimal_rows(
        optimal(tally_of(HAND), flat_plan(), bankroll=100))}
    assert notes["predicted:risk_of_ruin_interval_note"].startswith("across the mean's")


# no count with an edge: every row even or losing
NO_EDGE = (rounds_at(-1, [10] * 15 + [-10] * 25) + rounds_at(0, [10] * 19 + [-10] * 21)
           + rounds_at(1, [10] * 20 + [-10] * 20))


def test_where_no_count_has_an_edge_the_section_says_kelly_bets_nothing(tmp_path):
    from simulator.cli import _optimal_plan

    o = optimal(tally_of(NO_EDGE), flat_plan(table_min=2), bankroll=100)
    assert [r["kelly_bet"] for r in o["rows"]] == [None] * 3
    assert o["bet"] == {"base": 2, "steps": []}
    assert o["no_edge_note"] == ("no count has an edge (the smoothed advantage is not above 0 "
                                 "at any count), so Kelly bets nothing and the ramp is the "
                                 "table minimum, 2 units, at every count")
    text = "\n".join(CR.optimal_text(o, "true count"))
    assert f"Note: {o['no_edge_note']}." in text
    assert "the table minimum, no edge (exact)" in text and "the optimal bets (" not in text
    assert optimal(tally_of(HAND), flat_plan(), bankroll=100)["no_edge_note"] is None
    path = tmp_path / "p.toml"
    replay = {"replay_words": "rules nz1994, seed 3", "replay_args": ["--seed", "3"]}
    assert _optimal_plan(str(path), flat_plan(table_min=2), o, {"run": {}}, replay) is None
    back = load_plan(str(path))
    assert back.name == "hi-lo-flat-table-min" and back.bet == Ramp(2, ())
    assert back.description.startswith("hi-lo-flat at the table minimum at every count: no "
                                       "count had an edge in the run (the smoothed advantage "
                                       "not above 0 at any), so Kelly bets nothing, derived by "
                                       "bjsim count --optimal-bets from its run: rules nz1994, "
                                       "seed 3, bankroll 100 units")


def test_a_sparse_end_row_is_merged_as_the_table_by_count_merges_it():
    few = HAND + rounds_at(9, [10] * 3)  # 3 rounds at +9: merged into +3's row
    o = optimal(tally_of(few), flat_plan(), bankroll=100)
    assert [r["label"] for r in o["rows"]] == ["-1", "0", "+2", ">=+3"]
    assert o["rows"][-1]["counts"] == [3, 9] and o["rows"][-1]["rounds"] == 43


def test_a_bucket_bet_is_known_only_where_the_ramp_is_one_amount_across_it():
    at = {c: c - L.TC_MIN for c in range(L.TC_MIN, L.TC_MAX + 1)}  # a count's bucket
    half = Ramp(1, ((2.5, 2),))
    assert [CR._bucket_bet(half, at[c], True) for c in (1, 2, 3)] == [1, None, 2]
    # a running count is a whole number: the step acts from +3
    assert [CR._bucket_bet(half, at[c], False) for c in (1, 2, 3)] == [1, 1, 2]
    assert CR._bucket_bet(Ramp(1, ((-40, 2),)), 0, True) is None  # within the clamped end
    assert CR._bucket_bet(Ramp(1, ((31, 2),)), L.N_TC - 1, True) is None
    assert CR._bucket_bet(Ramp(1, ((30, 2),)), L.N_TC - 1, True) == 2
    assert CR._bucket_bet(Ramp(1, ((-29, 2),)), 0, True) == 1


def test_a_ramp_stepping_between_whole_counts_gives_no_exact_prediction():
    plan = flat_plan(bet=Ramp(1, ((2.5, 2),)))
    o = optimal(tally_of(HAND), plan, bankroll=100)
    assert o["exact"] is False
    assert o["exact_note"].startswith("not exact: the plan's bet was not one amount a box at "
                                      "the count +2 (a step between whole counts")
    text = "\n".join(CR.optimal_text(o, "true count"))
    assert "the optimal bets (estimate)" in text and "(exact)" not in text


# ---------------------------------------------------------------------------------------------
# The written plan


def test_the_written_plan_loads_and_round_trips(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # (the plan names its count file by a relative path)
    source = tmp_path / "src.toml"
    count = ROOT / "strategies" / "counts" / "ko.toml"
    (tmp_path / "my-ko.toml").write_text(count.read_text().replace('name = "ko"', 'name = "my-ko"'))
    source.write_text('name = "wonger"\ncount = "my-ko.toml"\ntable_min = 2\ntable_max = 20\n'
                      'bankroll = 800\n[bet]\nbase = 2\nsteps = [[3, 4]]\n'
                      '[super_sevens]\nbase = 0\nsteps = [[6, 1]]\n'
                      '[wong]\nenter = 1\nleave = -1.5\n[boxes]\nbase = 1\nsteps = [[4, 2]]\n')
    plan = load_plan(str(source))
    bet = Ramp(2, ((1.0, 3), (5.0, 20)))
    out = tmp_path / "elsewhere" / "opt.toml"
    out.parent.mkdir()
    out.write_text(plan_toml(plan, bet, "wonger-optimal", "derived", bankroll=900))
    back = load_plan(str(out))
    assert (back.name, back.description, back.bet, back.bankroll) == (
        "wonger-optimal", "derived", bet, 900)
    keep = ("count", "resolution", "indices", "super_sevens", "boxes", "wong_enter",
            "wong_leave", "table_min", "table_max", "tuned_penetration")
    assert {k: getattr(back, k) for k in keep} == {k: getattr(plan, k) for k in keep}
    assert "deck_estimation" not in out.read_text()  # (a KO plan: it would warn of no effect)
    # --bankroll 1000 is 1000.0 as read: written as typed (a review: "bankroll = 1000.0")
    assert "\nbankroll = 1000\n" in plan_toml(plan, bet, "w", "d", bankroll=1000.0)
    assert "\nbankroll = 1000.5\n" in plan_toml(plan, bet, "w", "d", bankroll=1000.5)
    shipped = load_plan("hi-lo-1-12")  # shipped names stay names
    text = plan_toml(shipped, shipped.bet, "x", "y")
    assert 'count = "hi-lo"' in text and 'indices = "hi-lo-nz"' in text
    again = tmp_path / "again.toml"
    again.write_text(text)
    back = load_plan(str(again))
    assert (back.name, back.description) == ("x", "y")
    assert {k: getattr(back, k) for k in (*keep, "bet", "bankroll", "plays")} == {
        k: getattr(shipped, k) for k in (*keep, "bet", "bankroll", "plays")}


# ---------------------------------------------------------------------------------------------
# The command line


@pytest.fixture
def fake_engine(monkeypatch):
    return install_fake_engine(monkeypatch)


@pytest.mark.parametrize("args, words", [
    (["--plan", "hi-lo-flat", "--optimal-bets"],
     "--optimal-bets: needs a bankroll (the Kelly bet is bankroll x fraction x advantage x "
     "boxes a round / variance), and the plan hi-lo-flat has none: allowed with --bankroll "
     "UNITS"),
    (["--optimal-bets", "--kelly-fraction", "0"],
     "--kelly-fraction 0: allowed a number above 0, at most 1"),
    (["--optimal-bets", "--kelly-fraction", "1.5"], "--kelly-fraction 1.5: allowed"),
    (["--optimal-bets", "--kelly-fraction", "-0.5"], "--kelly-fraction -0.5: allowed"),
    (["--optimal-bets", "--kelly-fraction", "nan"], "--kelly-fraction nan: allowed"),
    (["--optimal-bets", "--kelly-fraction", "half"], "--kelly-fraction half: allowed"),
    (["--kelly-fraction", "0.5"], "--kelly-fraction: only with --optimal-bets"),
    (["--optimal-plan", "o.toml"], "--optimal-plan: only with --optimal-bets"),
    (["--optimal-bets", "--penetrations", "0.6,0.8"],
     "--optimal-bets: not with --penetrations"),
])
def test_optimal_bets_refusals_are_one_line(args, words, fake_engine):
    line = is_one_line_error(invoke("count", *args))
    assert words in line, line
    assert not fake_engine  # refused before any run


def test_an_optimal_plan_that_cannot_be_written_or_is_the_plan_played_is_refused(tmp_path,
                                                                                 fake_engine):
    line = is_one_line_error(invoke("count", "--optimal-bets", "--optimal-plan", tmp_path))
    assert line == f"Error: --optimal-plan {tmp_path}: cannot write: it is a folder"
    line = is_one_line_error(invoke("count", "--optimal-bets", "--optimal-plan", "/proc/x.toml"))
    assert line.startswith("Error: --optimal-plan /proc/x.toml: cannot write in /proc: ")
    plan = tmp_path / "p.toml"
    plan.write_text((ROOT / "strategies" / "plans" / "hi-lo-1-12.toml").read_text())
    line = is_one_line_error(invoke("count", "--plan", plan, "--optimal-bets",
                                    "--optimal-plan", plan))
    assert line == (f"Error: --optimal-plan {plan}: --plan reads it: allowed a file "
                    "that is not one of the command's inputs")
    line = is_one_line_error(invoke("count", "--optimal-bets", "--optimal-plan",
                                    tmp_path / "o.txt", "-o", tmp_path / "o.txt"))
    assert line == (f"Error: --optimal-plan and -o: both name {tmp_path / 'o.txt'}: "
                    "allowed a different file for each")
    assert not fake_engine


def test_an_optimal_plan_is_refused_where_o_is_refused(tmp_path, fake_engine):
    # the run's inputs and its checkpoint: written over, the run could not be repeated or resumed
    rules = tmp_path / "rules.toml"
    rules.write_text((ROOT / "configs" / "nz1994.toml").read_text())
    strategy = tmp_path / "chart.toml"
    strategy.write_text((ROOT / "strategies" / "basic.toml").read_text())
    (tmp_path / "myko.toml").write_text((ROOT / "strategies" / "counts" / "ko.toml").read_text()
                                        .replace('name = "ko"', 'name = "myko"'))
    plan = tmp_path / "kop.toml"
    plan.write_text(f'count = "{tmp_path / "myko.toml"}"\ntable_max = 8\nbankroll = 500\n'
                    "[bet]\nbase = 1\nsteps = [[3, 4]]\n")
    ckpt = tmp_path / "run.ckpt"
    for args, file, reader in [(("--rules", rules), rules, "--rules"),
                               (("--strategy", strategy), strategy, "--strategy"),
                               (("--plan", plan), tmp_path / "myko.toml", "--plan")]:
        line = is_one_line_error(invoke("count", *args, "--optimal-bets", "--optimal-plan", file))
        assert line == (f"Error: --optimal-plan {file}: {reader} reads it: allowed a "
                        "file that is not one of the command's inputs"), line
    line = is_one_line_error(invoke("count", "--checkpoint", ckpt, "--optimal-bets",
                                    "--optimal-plan", ckpt))
    assert line == (f"Error: --optimal-plan and --checkpoint: both name {ckpt}: allowed a "
                    "different file for each")
    line = is_one_line_error(invoke("count", "--optimal-bets", "--optimal-plan", "-"))
    assert line == ("Error: --optimal-plan -: the plan is written to a file, not stdout (the "
                    "report's): allowed a file name (./- for one called '-')")
    assert not fake_engine and not (tmp_path / "-").exists()


SS_WORDS = ("its stakes come from the same bankroll, and the optimal main bets here are of a "
            "counter betting the main wager only: allowed a plan whose [super_sevens] bets "
            "nothing at every count, or that has no [super_sevens] table")


def test_a_plan_betting_super_sevens_is_refused(tmp_path, fake_engine):
    line = is_one_line_error(invoke("count", "--plan", "sevens-super-sevens", "--strategy",
                                    "basic-super-sevens", "--optimal-bets", "--bankroll", "500"))
    assert line == ("Error: --optimal-bets: not with a plan that bets Super Sevens (the plan "
                    f"sevens-super-sevens does, by its [super_sevens]): {SS_WORDS}")
    ramp = tmp_path / "ramp.toml"  # a Hi-Lo plan betting Super Sevens from +4 only
    ramp.write_text('count = "hi-lo"\ntable_max = 8\nbankroll = 500\n[bet]\nbase = 1\n'
                    "[super_sevens]\nbase = 0\nsteps = [[4, 1]]\n")
    line = is_one_line_error(invoke("count", "--plan", ramp, "--optimal-bets"))
    assert line.startswith("Error: --optimal-bets: not with a plan that bets Super Sevens")
    assert not fake_engine


def test_a_plan_whose_super_sevens_table_bets_nothing_is_allowed(tmp_path):
    nothing = tmp_path / "nothing.toml"
    nothing.write_text('count = "hi-lo"\ntable_max = 8\nbankroll = 500\n[bet]\nbase = 1\n'
                       "steps = [[2, 4]]\n[super_sevens]\nbase = 0\n")
    out = invoke("count", "--plan", nothing, *TINY, "--optimal-bets")
    assert out.exit_code == 0, out.output
    assert "Optimal main bets" in out.stdout


def test_help_shows_an_optimal_bets_example():
    out = invoke("count", "--help").stdout
    assert "bjsim count --optimal-bets --bankroll 1000 --optimal-plan optimal.toml" in out
    assert "e.g. 0.5 for half Kelly" in " ".join(out.split())
    # the Kelly bet's formula as the docs give it (B x F x a_s x k / v), the boxes in
    words = "bankroll x fraction x advantage x boxes a round / variance of a round's net"
    assert words in " ".join(out.split())
    assert words in (ROOT / "README.md").read_text()


WONGER = ('count = "hi-lo"\ndeck_estimation = "half"\ntable_max = 8\n[bet]\nbase = 1\n'
          'steps = [[2, 2], [4, 4]]\n[wong]\nenter = 0\nleave = -1\n[boxes]\nbase = 1\n'
          'steps = [[3, 2]]\n')


@pytest.mark.parametrize("source, seed", [("flat", 11), ("hi-lo-1-12", 7), ("wonger", 7)])
def test_the_optimal_plan_played_on_the_same_seed_wins_exactly_what_was_predicted(tmp_path,
                                                                                 source, seed):
    # the same seed, rules and plan but the [bet]: the same rounds dealt and played, so the
    # counter's net and its second moment are the rows' nets at one unit times the new bets
    plan = "hi-lo-1-12"
    if source == "flat":  # hi-lo-flat with a table to spread on (its own table_max is 1)
        plan = tmp_path / "flat.toml"
        plan.write_text((ROOT / "strategies" / "plans" / "hi-lo-flat.toml").read_text()
                        .replace("table_max = 1", "table_max = 12")
                        .replace('name = "hi-lo-flat"', 'name = "flat"'))
    if source == "wonger":  # wonging and boxes by count, kept as they are
        plan = tmp_path / "wonger.toml"
        plan.write_text(WONGER)
    written = tmp_path / "optimal.toml"
    args = ("--rounds", "100_000", "--chunk-rounds", "5000", "--seed", seed, "--quiet",
            "--boxes", "2")
    first = _json("count", "--plan", plan, *args, "--optimal-bets", "--bankroll", "2000",
                  "--optimal-plan", written)["results"]
    o = first["optimal_bets"]
    assert o["exact"] is True and o["bet"]["steps"]  # (a ramp: not the plan's own flat bet)
    assert o["as_played"]["net"] == first["tally"]["net"]
    again = _json("count", "--plan", written, *args)["results"]
    t, p = again["tally"], o["predicted"]
    assert (t["net"], t["main_sq"], t["bet"]) == (p["net"], p["main_sq"], p["bet"])
    assert t["round_sq"] == p["main_sq"]  # (no Super Sevens bet: the round's net is the main's)
    assert t["flat_net"] == first["tally"]["flat_net"]  # the same rounds
    assert again["per_round_played"]["sd"] == p["per_round_played"]["sd"]
    assert again["advantage"]["initial_bet"]["mean"] == pytest.approx(p["advantage"], rel=1e-12)
    back = load_plan(str(written))
    assert back.bet == Ramp(o["bet"]["base"], tuple(tuple(s) for s in o["bet"]["steps"]))
    assert back.bankroll == 2000 and f"seed {seed}," in back.description


def test_the_written_plans_description_and_stderr_give_the_command_that_replays_the_run(
        tmp_path, monkeypatch):
    # a wonging plan, chunks not the default (a chunk starts from a fresh shoe, sitting out)
    # and rule overrides: the command in the description plays the very rounds again
    import shlex

    plan = tmp_path / "wonger.toml"
    plan.write_text(WONGER)
    written = tmp_path / "optimal.toml"
    run = invoke("count", "--plan", plan, "--set", "boxes=2", "--set", "penetration=0.7",
                 "--rounds", "100_000", "--chunk-rounds", "2500", "--seed", "5",
                 "--optimal-bets", "--bankroll", "2000", "--optimal-plan", written, "-f", "json")
    assert run.exit_code == 0, run.output
    o = json.loads(run.stdout)["results"]["optimal_bets"]
    description = load_plan(str(written)).description
    assert ("from its run: rules nz1994 with boxes=2, penetration=0.7, strategy the rules' basic "
            "strategy (the default), seed 5, chunks of 2,500 rounds, 100,000 rounds, bankroll "
            "2,000 units, Kelly fraction 1;") in description
    assert "modified" not in description
    command = description.split("To play it on the run's rounds: ", 1)[1]
    assert command == ("bjsim count --plan <this file> --rules configs/nz1994.toml --set boxes=2 "
                       "--set penetration=0.7 --seed 5 --chunk-rounds 2500 --rounds 100000")
    said = command.replace("<this file>", shlex.quote(str(written)))
    assert f"to play it on this run's rounds: {said}" in " ".join(run.stderr.split())
    monkeypatch.chdir(tmp_path.parent)  # (from another folder)
    args = shlex.split(said)[2:]
    again = _json("count", *args, "--quiet")["results"]
    t, p = again["tally"], o["predicted"]
    assert (t["net"], t["main_sq"], t["bet"]) == (p["net"], p["main_sq"], p["bet"])
    assert again["per_round_played"]["sd"] == p["per_round_played"]["sd"]
    strategy = tmp_path / "chart.toml"  # a --strategy file: named by its absolute path
    strategy.write_text((ROOT / "strategies" / "basic.toml").read_text())
    assert invoke("count", "--plan", plan, "--boxes", "2", "--strategy", strategy, *TINY,
                  "--optimal-bets", "--bankroll", "500", "--optimal-plan", written).exit_code == 0
    assert (f"rules nz1994 with boxes=2, strategy {strategy}, seed 7, chunks of 5,000 rounds"
            in load_plan(str(written)).description)
    assert f"--set boxes=2 --strategy {strategy} --seed 7" in load_plan(str(written)).description


def test_a_replay_of_a_run_stopped_short_says_it_plays_every_round_asked():
    from simulator.cli import _replay_partial

    assert _replay_partial({"partial": False, "rounds": 10, "rounds_played": 10}) == ""
    assert _replay_partial({"partial": True, "control_interrupted": True}) == ""
    assert _replay_partial({"partial": True, "rounds": 2_000_000, "rounds_played": 500_000}) == (
        " (this run was stopped after 500,000 of its 2,000,000 rounds: the replay plays them "
        "all, so its figures are not this run's)")


def test_a_source_ramp_off_whole_counts_says_its_prediction_is_not_exact(tmp_path):
    plan = tmp_path / "half.toml"
    plan.write_text('count = "hi-lo"\ndeck_estimation = "half"\ntable_max = 12\n'
                    "bankroll = 1000\n[bet]\nbase = 1\nsteps = [[1.5, 4]]\n")
    out = invoke("count", "--plan", plan, *TINY, "--optimal-bets")
    assert out.exit_code == 0, out.output
    assert "the table minimum, no edge (estimate)" in out.stdout  # (no edge over these rounds)
    assert "not exact: the plan's bet was not one amount a box at the count +1" in out.stdout


def test_every_format_has_the_section(tmp_path):
    args = ("count", *TINY, "--optimal-bets", "--kelly-fraction", "0.5")
    table = invoke(*args).stdout
    assert "Optimal main bets (Kelly, bankroll 1,000 units, fraction 0.5" in table
    assert "As a plan's [bet]: base = 1" in table and "isotonic regression" in table
    said = invoke("count", *TINY[:-1], "--optimal-bets", "--optimal-plan", tmp_path / "o.toml")
    assert (f"bjsim: the optimal plan is in {tmp_path / 'o.toml'}; to play it on this run's "
            f"rounds: bjsim count --plan {tmp_path / 'o.toml'} --rules configs/nz1994.toml "
            "--seed 7 --chunk-rounds 5000 --rounds 20000") in " ".join(said.stderr.split())
    markdown = invoke(*args, "-f", "markdown").stdout
    assert "| true count | rounds | frequency | advantage | advantage SE | smoothed |" in markdown
    rows = list(csv.DictReader(io.StringIO(invoke(*args, "-f", "csv").stdout)))
    mine = {(r["item"], r["count"]): r for r in rows if r["section"] == "optimal_bets"}
    assert mine[("kelly_fraction", "")]["value"] == "0.5"
    bets = [r for (item, _), r in mine.items() if item == "bet"]
    assert bets and all(r["count_label"] for r in bets)
    assert json.loads(mine[("bet_steps", "")]["value"]) is not None
    doc = json.loads(invoke(*args, "-f", "json").stdout)["results"]["optimal_bets"]
    assert doc["kelly_fraction"] == 0.5 and doc["bankroll"] == 1000


def test_every_optimal_bets_json_key_is_documented():
    doc = (ROOT / "docs" / "counting.md").read_text()
    schema = doc.split("## JSON output", 1)[1].split("\n## ", 1)[0]
    o = optimal(tally_of(HAND), flat_plan(), bankroll=100)
    keys = {"optimal_bets", *o, *o["rows"][0], *o["predicted"], *o["bet"]}
    for key in keys:
        assert f"`{key}`" in schema, key


def test_a_resumed_checkpoint_gives_the_optimal_bets_of_the_run(tmp_path):
    whole = _json("count", *TINY, "--optimal-bets")["results"]["optimal_bets"]
    ckpt = tmp_path / "count.ckpt"
    assert invoke("count", *TINY, "--checkpoint", ckpt).exit_code == 0
    resumed = _json("count", "--resume", ckpt, "--quiet", "--optimal-bets")["results"]
    assert resumed["optimal_bets"] == whole


def test_an_optimal_plan_the_disk_refuses_after_the_run_exits_1_with_the_report_kept(
        tmp_path, monkeypatch, fake_engine):
    from simulator import atomic

    written = atomic.write
    target = tmp_path / "opt.toml"

    def write(path, text, **kw):
        if str(path) == str(target.resolve()):
            raise OSError(28, "No space left on device")
        return written(path, text, **kw)

    monkeypatch.setattr(atomic, "write", write)
    result = invoke("count", "--optimal-bets", "--optimal-plan", target, "--quiet")
    assert result.exit_code == 1, result.output
    assert "Optimal main bets" in result.stdout
    assert f"--optimal-plan {target}: cannot write: No space left on device" in result.stderr
    assert "the optimal plan is in" not in result.stderr
    assert not target.exists()


def test_a_shipped_file_a_run_reads_by_default_is_never_written_over(fake_engine):
    # A review: --optimal-plan (and -o) named the shipped count file, the default rules or the
    # shipped basic, none given on the command line, and wrote over them: the next run failed.
    shipped = (ROOT / "strategies" / "counts" / "hi-lo.toml", ROOT / "strategies" / "indices" /
               "hi-lo-nz.toml", ROOT / "strategies" / "plans" / "hi-lo-1-12.toml",
               ROOT / "configs" / "nz1994.toml", ROOT / "strategies" / "basic.toml")
    with restored(*shipped):
        for path, reader in zip(shipped, ["--plan"] * 3 + ["--rules", "--strategy"],
                                strict=True):
            for option in ("--optimal-plan", "-o"):
                line = is_one_line_error(invoke("count", "--optimal-bets", option, path))
                assert line == (f"Error: {option} {path}: {reader} reads it (left out: "
                                "its default): allowed a file that is not one of the command's "
                                "inputs"), line
    assert not fake_engine


@contextlib.contextmanager
def restored(*paths):
    """The files ``paths`` as they were, whatever a test that should not write them did."""
    kept = {p: p.read_bytes() for p in paths}
    try:
        yield
    finally:
        for path, data in kept.items():
            if path.read_bytes() != data:
                path.write_bytes(data)


@pytest.mark.skipif(not Path("/dev/stdout").exists(),
                    reason="needs /dev/stdout, the path of a process's standard output, which "
                    "Linux and macOS have and Windows has not")
def test_a_file_written_that_is_standard_output_is_refused(tmp_path):
    # --optimal-plan /dev/stdout with stdout sent to a file: the plan was renamed over the report.
    import subprocess
    import sys

    out = tmp_path / "report.txt"
    with out.open("w") as stdout:
        r = subprocess.run([sys.executable, "-m", "simulator", "count", "--rounds", "10",
                            "--optimal-bets", "--optimal-plan", "/dev/stdout"], stdout=stdout,
                           stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip() == ("Error: --optimal-plan /dev/stdout: it is the command's standard "
                                "output: allowed a file (the report goes to stdout, or to -o's "
                                "file)"), r.stderr
    assert out.read_text() == ""


def test_the_written_plan_is_tuned_at_the_runs_penetration(tmp_path):
    # A review: a plan tuned at 0.75, its optimal bets derived at 0.9, was written with 0.75,
    # and played at 0.9 warned that its counts were not a counter's best there.
    plan = tmp_path / "tp.toml"
    plan.write_text('count = "hi-lo"\ntable_max = 12\nbankroll = 1000\n'
                    'tuned_penetration = 0.75\n[bet]\nbase = 1\nsteps = [[2, 4]]\n')
    for sets, tuned in ((("--set", "penetration=0.9"), 0.9),
                        (("--set", "shuffle=every-round"), None)):
        out = tmp_path / "opt.toml"
        r = invoke("count", "--plan", plan, *sets, *TINY, "--optimal-bets", "--optimal-plan",
                   out)
        assert r.exit_code == 0, r.output
        assert load_plan(str(out)).tuned_penetration == tuned


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/dev/null").exists(),
                    reason="needs a named pipe (os.mkfifo) and /dev/null, which Linux and "
                    "macOS have and Windows has not")
def test_an_optimal_plan_that_is_not_a_regular_file_is_refused(tmp_path, fake_engine):
    # A review: the plan, written to a temporary file renamed over its path, replaced a device
    # or a named pipe (/dev/stdout into a pipe too) with a regular file.
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    for path in (fifo, "/dev/null"):
        line = is_one_line_error(invoke("count", "--optimal-bets", "--optimal-plan", path))
        assert line == (f"Error: --optimal-plan {path}: not a regular file (a device, a pipe, "
                        "the terminal), which the plan would replace: allowed a file"), line
    assert fifo.exists() and not fifo.is_file() and not fake_engine


def test_a_file_read_by_a_shipped_name_or_an_argument_is_never_written_over(fake_engine):
    # A review: strategy indices -o the count file it reads (--count left out) and strategy
    # show basic -o strategies/basic.toml were not refused; count -o a file its default plan
    # reads said "which --plan reads" without saying --plan was left out.
    count = ROOT / "strategies" / "counts" / "hi-lo.toml"
    basic = ROOT / "strategies" / "basic.toml"
    with restored(count, basic):
        for args, path, reader in ((("strategy", "indices", "-q"), count, "--count"),
                                   (("strategy", "indices", "--count", "hi-lo", "-q"), count,
                                    "--count"),
                                   (("strategy", "show", "basic"), basic, "NAME|FILE"),
                                   (("count", "-q"), count, "--plan")):
            line = is_one_line_error(invoke(*args, "-o", path))
            left_out = " (left out: its default)" if "hi-lo" not in args and reader != (
                "NAME|FILE") else ""
            assert line == (f"Error: -o {path}: {reader} reads it{left_out}: "
                            "allowed a file that is not one of the command's inputs"), line
    assert not fake_engine
