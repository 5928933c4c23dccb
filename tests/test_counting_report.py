"""The counter's figures (simulator.counting_report) from hand-made counting tallies, each
figure checked against its definition computed here from the rounds themselves."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import statistics

import numpy as np
import pytest

from simulator import batches, counting
from simulator import counting_report as CR
from simulator import layout as L
from simulator.plans import Ramp, load_plan
from simulator.report import PER_UNIT_WAGERED
from simulator.rules import Rules
from simulator.strategy import load_strategy
from simulator.tally import Z95, pay_words, summarize
from tests.helpers import make_strategy

U = L.UNIT


def in_chunks(tally, times: int, k: int = 10) -> tuple:
    """``tally`` times ``times`` as ``k`` chunks give it: the sum, and the chunks' summed moments
    (`batches.chunk_moments`; the chunks alike, so an SE by batch means of 0), for a plan whose
    Super Sevens stake goes with the count (its figures with Super Sevens have SEs only so)."""
    chunks = [tally * (times // k + (i < times % k)) for i in range(k)]
    return sum(chunks), sum(np.array(batches.chunk_moments(c), dtype=object) for c in chunks)


def tally_of(rounds: list[dict]) -> np.ndarray:
    """A counting tally from rounds: ``count`` (bucket), and the counter's ``bet`` (units),
    ``wagered``, ``net`` and ``ins`` (its insurance part, a bet a box) (tenths x units),
    ``ss_bet`` (units) and ``ss_net`` (stakes x units) when ``played``; ``flat`` the net of each
    box dealt at one unit (tenths); ``ss_flat`` the net of each Super Sevens bet at one stake,
    ``ss_exact`` the exact return of each (and of the counter's ``ss_bet``)."""
    t = np.zeros((L.N_TC, L.N_COUNT), dtype=np.int64)
    for r in rounds:
        row = t[min(max(r["count"], L.TC_MIN), L.TC_MAX) - L.TC_MIN]
        row[L.C_ROUNDS] += 1
        if r.get("played", True):
            row[L.C_PLAYED] += 1
            row[L.C_BOXES] += r.get("boxes", 1)
            row[L.C_BET] += r["bet"]
            row[L.C_WAGERED] += r.get("wagered", U * r["bet"])
            row[L.C_NET] += r["net"]
            row[L.C_SS_BET] += r.get("ss_bet", 0)
            row[L.C_SS_NET] += r.get("ss_net", 0)
            row[L.C_SS_EXACT_BET] += round(r.get("ss_bet", 0) * r.get("ss_exact", (0,))[0]
                                           * L.SS_EXACT_BET_SCALE)  # (its boxes' first shoe)
            row[L.C_ROUND_SQ] += (r["net"] + U * r.get("ss_net", 0)) ** 2
            row[L.C_MAIN_SQ] += r["net"] ** 2
            row[L.C_CROSS] += r["net"] * sum(r["flat"])
            row[L.C_INS_NET] += r.get("ins", 0)
            row[L.C_MAIN_ALONE_SQ] += (r["net"] - r.get("ins", 0)) ** 2
            row[L.C_INS_SQ] += r.get("ins", 0) ** 2
            if r.get("ins"):  # an insurance bet on each of the round's boxes, won or lost
                row[L.C_INS_WON if r["ins"] > 0 else L.C_INS_LOST] += r.get("boxes", 1)
        row[L.C_FLAT_RSQ] += sum(r["flat"]) ** 2
        row[L.C_FLAT_BOXES] += len(r["flat"])
        row[L.C_FLAT_NET] += sum(r["flat"])
        row[L.C_FLAT_SQ] += sum(x * x for x in r["flat"])
        row[L.C_SS_FLAT_BETS] += len(r.get("ss_flat", ()))
        row[L.C_SS_FLAT_NET] += sum(r.get("ss_flat", ()))
        row[L.C_SS_FLAT_SQ] += sum(x * x for x in r.get("ss_flat", ()))
        row[L.C_SS_EXACT] += round(sum(r.get("ss_exact", ())) * L.SS_EXACT_SCALE)
        row[L.C_SS_PLUS] += r.get("ss_plus", 0)
    return t


# Four rounds at count 0 (two of them watched), two at +3 with a 4-unit bet and a Super Sevens
# bet; the second round at 0 is a lost double.
ROUNDS = [
    {"count": 0, "bet": 1, "net": 10, "flat": [10]},
    {"count": 0, "bet": 1, "wagered": 20, "net": -20, "flat": [-20]},
    {"count": 0, "played": False, "flat": [10]},
    {"count": 0, "played": False, "flat": [-10]},
    {"count": 3, "bet": 4, "net": 60, "ss_bet": 1, "ss_net": -1, "flat": [15], "ss_flat": [-1],
     "ss_exact": [0.3], "ss_plus": 1},
    {"count": 3, "bet": 4, "net": -40, "ss_bet": 1, "ss_net": 3, "flat": [-10], "ss_flat": [3],
     "ss_exact": [0.3], "ss_plus": 1},
]


# The same rounds without their Super Sevens bets: a risk of ruin is given only without them.
MAIN_ROUNDS = [{k: v for k, v in r.items() if not k.startswith("ss")} for r in ROUNDS]

# Each of them 8 times over: 32 rounds played of 48 dealt, enough for the SEs and intervals
# (from fewer than 30 rounds `bjsim count` gives none, as simulate: `tally.MIN_ROUNDS`).
TIMES = 8
MANY = ROUNDS * TIMES
MAIN_MANY = MAIN_ROUNDS * TIMES


@pytest.fixture
def fig():
    return CR.figures(tally_of(ROUNDS), load_plan("hi-lo-1-12"), Rules())


@pytest.fixture
def many():
    return CR.figures(tally_of(MANY), load_plan("hi-lo-1-12"), Rules())


def played_nets(rounds: list[dict]) -> list[float]:
    """Each played round's net in units, Super Sevens included."""
    return [(r["net"] + U * r.get("ss_net", 0)) / U for r in rounds if r.get("played", True)]


def test_advantage_per_unit_of_initial_and_total_bet(many):
    a = many["advantage"]
    # main + insurance: (1 - 2 + 6 - 4) units on 10 units of initial bet, 11 units wagered
    assert a["initial_bet"]["mean"] == pytest.approx(1 / 10)
    assert a["total_bet"]["mean"] == pytest.approx(1 / 11)
    # Super Sevens: 2 units bet, 2 units won
    assert a["initial_bet_with_super_sevens"]["mean"] == pytest.approx(3 / 12)
    assert a["total_bet_with_super_sevens"]["mean"] == pytest.approx(3 / 13)
    # SE: the SD of the net per round played, over the mean bet per round played, / sqrt(n)
    n = 4 * TIMES  # rounds played
    sd = statistics.stdev(played_nets(MANY))
    assert a["initial_bet_with_super_sevens"]["se"] == pytest.approx(sd / math.sqrt(n) / 3)
    # the main game's own SE (main_sq: its SD per round without the Super Sevens results), and
    # per unit wagered the same scaled by the bets over the wagers
    main = statistics.stdev([r["net"] / U for r in MANY if r.get("played", True)])
    assert a["initial_bet"]["se"] == pytest.approx(main / math.sqrt(n) / (10 / 4))
    assert a["total_bet"]["se"] == pytest.approx(main / math.sqrt(n) / (11 / 4))
    lo, hi = a["initial_bet"]["ci95_low"], a["initial_bet"]["ci95_high"]
    assert (lo + hi) / 2 == pytest.approx(0.1) and hi - lo == pytest.approx(
        2 * 1.959963984540054 * a["initial_bet"]["se"])
    assert a["initial_bet"]["interval_note"] is None
    assert a["initial_bet_with_super_sevens"]["interval_note"] is None


def test_per_round_figures_score_n0_and_risk_of_ruin(fig):
    nets = played_nets(ROUNDS)
    watched = nets + [0.0, 0.0]
    p, w = fig["per_round_played"], fig["per_round_watched"]
    assert (p["rounds"], w["rounds"]) == (4, 6)
    assert p["mean"] == pytest.approx(statistics.mean(nets))  # (1 - 2 + 5 - 1) / 4 = 0.75
    assert p["mean"] == pytest.approx(0.75)
    assert p["sd"] == pytest.approx(statistics.stdev(nets))
    assert w["mean"] == pytest.approx(3 / 6) and w["sd"] == pytest.approx(
        statistics.stdev(watched))
    assert p["win_per_100"] == pytest.approx(75.0) and w["win_per_100"] == pytest.approx(50.0)
    m, s = p["mean"], p["sd"]
    assert p["score"] == pytest.approx(1e6 * (m / s) ** 2)
    assert p["n0"] == pytest.approx((s / m) ** 2)
    # With Super Sevens in the nets no risk of ruin (the diffusion formula counts the pays'
    # variance as risk: a reviewer's model put it 3 times too high for the sevens plan)
    assert p["risk_of_ruin"] is None and p["risk_of_ruin_note"] == CR.RUIN_WITHHELD
    main = CR.figures(tally_of(MAIN_ROUNDS), load_plan("hi-lo-1-12"), Rules())["per_round_played"]
    m, s = main["mean"], main["sd"]
    assert main["risk_of_ruin"] == pytest.approx(math.exp(-2 * m * 1000 / s**2))  # the plan's
    assert main["risk_of_ruin_note"] is None
    other = CR.figures(tally_of(MAIN_ROUNDS), load_plan("hi-lo-1-12"), Rules(), bankroll=10)
    assert other["per_round_played"]["risk_of_ruin"] == pytest.approx(
        counting.risk_of_ruin(m, s, 10))
    assert CR.figures(tally_of(ROUNDS), load_plan("hi-lo-flat"), Rules())[
        "per_round_played"]["risk_of_ruin"] is None  # no bankroll


@pytest.mark.parametrize("bankroll", [0, 0.5, -5, float("nan"), float("inf"), 2e12, "10", True])
def test_figures_refuse_a_bankroll_a_plan_or_the_cli_would(bankroll):
    # The Python API had taken any bankroll (0.5: a risk of ruin of a meaningless 100%), where a
    # plan file and --bankroll refuse it in one sentence.
    with pytest.raises(ValueError, match=r"^figures: bankroll .*: allowed a number 1 to 1e\+12 "
                       r"units, at least one table-minimum bet \(table_min = 1\)$"):
        CR.figures(tally_of(MAIN_ROUNDS), load_plan("hi-lo-1-12"), Rules(), bankroll=bankroll)


def test_win_score_n0_and_ruin_have_their_delta_method_se(many):
    p = many["per_round_played"]
    m, s = p["mean"], p["sd"]
    e = statistics.stdev(played_nets(MANY)) / math.sqrt(4 * TIMES)  # the mean's SE
    assert p["se"] == pytest.approx(e)
    assert p["win_per_100_se"] == pytest.approx(100 * e)
    # Each figure moved by the mean's SE, to first order: f(m + e) - f(m) ~ f'(m) e.
    h = 1e-7
    for key, f in (("score", lambda x: counting.score(x, s)), ("n0", lambda x: counting.n0(x, s))):
        slope = (f(m + h) - f(m - h)) / (2 * h)
        assert p[key + "_se"] == pytest.approx(abs(slope) * e, rel=1e-5), key
    # (a bankroll the 32 rounds' own spread reaches: `_few_for_ruin`)
    main = CR.figures(tally_of(MAIN_MANY), load_plan("hi-lo-1-12"), Rules(), bankroll=5)[
        "per_round_played"]
    mm, ms, me = main["mean"], main["sd"], main["se"]
    slope = (counting.risk_of_ruin(mm + h, ms, 5) - counting.risk_of_ruin(mm - h, ms, 5)) / (
        2 * h)
    assert main["risk_of_ruin_se"] == pytest.approx(abs(slope) * me, rel=1e-5)
    assert p["risk_of_ruin_se"] is None  # (Super Sevens in the nets: no risk of ruin)
    loss = CR._per_round(-3 * U, 9 * U * U + 1, 4, 2)  # no edge: no SE of SCORE, N0, ruin (2 units:
    # a bankroll the 4 rounds reach, `_few_for_ruin`)
    assert loss["win_per_100_se"] is not None
    assert (loss["score_se"], loss["n0_se"], loss["risk_of_ruin_se"]) == (None, None, None)
    # ... but the intervals, the mean's carried through each, whose upper end reaches an edge
    # (they were withheld whenever the mean was not above 0, however wide its own interval)
    high = loss["mean"] + 1.959963984540054 * loss["se"]
    assert loss["mean"] < 0 < high
    assert (loss["score"], loss["score_ci95_low"]) == (None, 0.0)  # (no edge: n/a)
    assert loss["score_ci95_high"] == pytest.approx(counting.score(high, loss["sd"]))
    assert loss["n0"] is None and loss["n0_ci95_high"] is None
    assert loss["n0_ci95_low"] == pytest.approx(counting.n0(high, loss["sd"]))
    assert (loss["risk_of_ruin"], loss["risk_of_ruin_ci95_high"]) == (1.0, 1.0)
    assert loss["risk_of_ruin_ci95_low"] == pytest.approx(
        counting.risk_of_ruin(high, loss["sd"], 2))
    assert CR._span(None, 12.0, None, 0, none="n/a") == "n/a (12 to no bound)"
    table = CR.render(many, "table")
    assert f"{p['win_per_100']:,.2f} ± {1.959963984540054 * p['win_per_100_se']:,.2f}" in table


def test_counter_bets_and_flat_play(many):
    fig = many
    n = 6 * TIMES  # rounds dealt
    assert (fig["rounds"], fig["rounds_played"], fig["played_share"]) == (n, 4 * TIMES, 4 / 6)
    assert fig["average_bet"] == pytest.approx(10 / 4)
    assert fig["average_super_sevens_bet"] == pytest.approx(2 / 4)
    assert fig["wagered_per_initial_bet"] == pytest.approx(11 / 10)
    flat = [x / U for r in MANY for x in r["flat"]]  # 1, -2, 1, -1, 1.5, -1, ...
    assert fig["flat"]["mean"] == pytest.approx(statistics.mean(flat))
    assert fig["flat"]["se"] == pytest.approx(statistics.stdev(flat) / math.sqrt(n))
    assert fig["gain_over_flat"] == pytest.approx(0.1 - statistics.mean(flat))
    # the same rounds paired: each round's counter's main net per unit of all bets less its
    # flat net per box dealt (a watched round bets 0), their SD times sqrt(rounds)
    bets, boxes = 10 * TIMES, 6 * TIMES
    d = [r.get("net", 0) / U / bets - sum(r["flat"]) / U / boxes for r in MANY]
    assert fig["gain_over_flat_se"] == pytest.approx(statistics.stdev(d) * math.sqrt(n))
    assert fig["gain_over_flat_se"] < math.hypot(fig["flat"]["se"],
                                                 fig["advantage"]["initial_bet"]["se"])


def test_the_table_by_count(fig):
    # the hand tally's 4 rounds at 0 and 2 at +3: too few for a row each, one row holds both,
    # and from so few rounds no SE is given (fewer than 30: `MIN_SAMPLE`)
    ((row),) = fig["by_count"]
    assert (row["label"], row["counts"], row["rounds"], row["frequency"]) == ("0 to +3", [0, 3],
                                                                              6, 1.0)
    assert (row["flat_se"], row["counter_se"]) == (None, None)
    # 15 times over (60 rounds at 0, 30 at +3): a row a count, with its SEs: the flat one per
    # box dealt, the counter's the SD of its round's main nets there (units, Super Sevens apart)
    # times sqrt(rounds played) over the units bet
    rows = {b["count"]: b for b in CR.figures(tally_of(ROUNDS * 15), load_plan("hi-lo-1-12"),
                                              Rules())["by_count"]}
    assert list(rows) == [0, 3]  # only counts that were seen
    zero, three = rows[0], rows[3]
    assert (zero["rounds"], zero["frequency"], zero["played_share"]) == (60, 4 / 6, 0.5)
    assert zero["flat_advantage"] == pytest.approx(statistics.mean([1, -2, 1, -1]))
    assert zero["average_bet"] == 1 and zero["counter_advantage"] == pytest.approx(-1 / 2)
    assert three["flat_advantage"] == pytest.approx(0.25)
    assert three["average_bet"] == 4 and three["counter_advantage"] == pytest.approx(2 / 8)
    assert three["label"] == "+3" and zero["label"] == "0"
    assert zero["flat_se"] == pytest.approx(statistics.stdev([1, -2, 1, -1] * 15) / math.sqrt(60))
    assert three["flat_se"] == pytest.approx(statistics.stdev([1.5, -1] * 15) / math.sqrt(30))
    assert zero["counter_se"] == pytest.approx(
        statistics.stdev([1, -2] * 15) * math.sqrt(30) / 30)
    assert three["counter_se"] == pytest.approx(
        statistics.stdev([6, -4] * 15) * math.sqrt(30) / (8 * 15))
    # a count of one round between them keeps its row (only the ends merge), without an SE
    one = tally_of(ROUNDS * 15) + tally_of([{"count": 1, "bet": 1, "net": 10, "flat": [10]}])
    rows = {b["label"]: b for b in CR.figures(one, load_plan("hi-lo-1-12"), Rules())["by_count"]}
    assert list(rows) == ["0", "+1", "+3"] and rows["+1"]["rounds"] == 1
    assert (rows["+1"]["flat_se"], rows["+1"]["counter_se"]) == (None, None)


def control_of(rounds: list[list[int]]) -> np.ndarray:
    """A simulate tally of the control run from each round's box nets (tenths): the per-box and
    the per-round sums and squares."""
    t = np.zeros(L.N_TALLY, np.int64)
    t[L.T_ROUNDS] = len(rounds)
    t[L.T_BOX_ROUNDS] = sum(len(r) for r in rounds)
    t[L.T_TOTAL_SUM] = t[L.T_RTOTAL_SUM] = sum(sum(r) for r in rounds)
    t[L.T_TOTAL_SQ] = sum(x * x for r in rounds for x in r)
    t[L.T_RTOTAL_SQ] = sum(sum(r) ** 2 for r in rounds)
    return t


def test_the_gain_over_the_control_run_has_an_se_of_independent_runs():
    nets = [10, -10, 0, -10, 15] * 6  # a box a round, tenths (30 rounds: an interval)
    f = CR.figures(tally_of(MANY), load_plan("hi-lo-1-12"), Rules(),
                   control=control_of([[x] for x in nets]))
    basic_se = statistics.stdev([x / U for x in nets]) / math.sqrt(len(nets))
    assert f["basic"]["mean"] == pytest.approx(statistics.mean(nets) / U)
    assert f["basic"]["se"] == pytest.approx(basic_se)
    assert f["gain_over_basic"] == pytest.approx(f["advantage"]["initial_bet"]["mean"]
                                                 - statistics.mean(nets) / U)
    assert f["gain_over_basic_se"] == pytest.approx(math.hypot(basic_se, f["advantage"][
        "initial_bet"]["se"]))
    # Two runs close to independent: their SEs in quadrature; over flat betting (the same
    # rounds) paired.
    assert f["gain_over_basic_se_kind"] == "the two runs taken as independent"
    assert f["gain_over_flat_se_kind"] == "paired: the same rounds at both bets"
    table = CR.render(f, "table")
    assert "(95%, the two runs taken as independent) of the initial bet" in table
    assert "flat betting with the counter's play: +" in table
    assert table.count("(95%, paired)") == 1
    rows = {r["item"]: r for r in csv.DictReader(io.StringIO(CR.render(f, "csv")))}
    assert rows["gain_over_basic_se_kind"]["value"] == "the two runs taken as independent"


def test_the_gains_csv_rows_and_json_carry_their_95_percent_intervals():
    # csv gave the gains' SE and no interval, where the text gives each ± its 95% half-width
    nets = [10, -10, 0, -10, 15] * 6
    f = CR.figures(tally_of(MANY), load_plan("hi-lo-1-12"), Rules(),
                   control=control_of([[x] for x in nets]))
    rows = {r["item"]: r for r in csv.DictReader(io.StringIO(CR.render(f, "csv")))}
    for over in ("flat", "basic"):
        gain, se = f[f"gain_over_{over}"], f[f"gain_over_{over}_se"]
        assert se > 0
        lo, hi = gain - 1.959963984540054 * se, gain + 1.959963984540054 * se
        assert (f[f"gain_over_{over}_ci95_low"], f[f"gain_over_{over}_ci95_high"]) == (
            pytest.approx(lo), pytest.approx(hi))
        row = rows[f"gain_over_{over}"]
        assert (float(row["ci95_low"]), float(row["ci95_high"])) == (pytest.approx(lo),
                                                                     pytest.approx(hi))
    sweep = [r for r in csv.DictReader(io.StringIO(CR.render_sweep(
        CR.sweep_rows([(0.75, f)]), "csv", META))) if r["item"] == "gain_over_flat"]
    assert float(sweep[0]["ci95_low"]) == pytest.approx(f["gain_over_flat_ci95_low"])


def test_the_sd_per_round_says_it_is_a_sample_sd_with_no_se():
    # per_round_*.sd had no SE and no word of why (its SE needs the fourth moment)
    f = CR.figures(tally_of(ROUNDS * 6), load_plan("hi-lo-1-12"), Rules())
    for key in ("per_round_played", "per_round_watched"):
        p = f[key]
        assert p["sd"] > 0 and "sd_se" not in p
        assert p["sd_note"] == CR.SD_NO_SE and "fourth moment" in p["sd_note"]
        assert "sample SD" in p["sd_note"] and "no SE" in p["sd_note"]
    rows = [r for r in csv.DictReader(io.StringIO(CR.render(f, "csv")))
            if r["section"] == "per_round_played" and r["item"] in ("sd", "sd_note")]
    assert [(r["item"], r["se"]) for r in rows] == [("sd", ""), ("sd_note", "")]
    assert rows[1]["value"] == CR.SD_NO_SE
    assert CR.sweep_rows([(0.75, f)])[0]["sd_round_note"] == CR.SD_NO_SE
    # no SD (one round): no note
    one = CR.figures(tally_of(ROUNDS[:1]), load_plan("hi-lo-1-12"), Rules())
    assert one["per_round_played"]["sd"] is None and one["per_round_played"]["sd_note"] is None


# A bet ramp without index plays on one box: the control plays the flat figure's very rounds.
RAMP_ROUNDS = [
    {"count": 0, "bet": 1, "net": 10, "flat": [10]},
    {"count": 0, "bet": 1, "wagered": 20, "net": -20, "flat": [-20]},
    {"count": 3, "bet": 4, "net": 60, "flat": [15]},
    {"count": 3, "bet": 4, "net": -40, "flat": [-10]},
    {"count": 1, "bet": 2, "net": 20, "flat": [10]},
]


def test_the_gain_over_a_control_of_the_flat_rounds_is_the_gain_over_flat_paired():
    # No index plays and fixed boxes: the control run deals and plays the flat figure's rounds
    # (the two rows were equal), so the gain over it is the gain over flat with its paired SE,
    # not the two SEs in quadrature (the review saw +-0.281 where the paired one was +-0.175).
    plan = dataclasses.replace(load_plan("hi-lo-flat"), bet=Ramp(1, ((1.0, 2), (3.0, 4))))
    assert plan.indices is None and not CR.flat_main(plan)
    control = control_of([r["flat"] for r in RAMP_ROUNDS * 6])  # (30 rounds: an interval)
    f = CR.figures(tally_of(RAMP_ROUNDS * 6), plan, Rules(), control=control)
    assert f["basic"]["mean"] == f["flat"]["mean"]
    assert f["basic"]["se"] == pytest.approx(f["flat"]["se"], rel=1e-12)
    assert f["gain_over_basic_se_kind"] == CR.AS_FLAT
    assert f["gain_over_basic"] == f["gain_over_flat"] != 0
    assert f["gain_over_basic_se"] == f["gain_over_flat_se"]
    independent = math.hypot(f["basic"]["se"], f["advantage"]["initial_bet"]["se"])
    assert f["gain_over_basic_se"] < independent / 2
    for fmt in ("table", "markdown"):
        text = CR.render(f, fmt)
        assert ("control run), the same as over flat betting with the counter's play (no index "
                "plays, fixed boxes: the same rounds): +") in text
        assert "independent" not in text and text.count("(95%, paired)") == 1
    rows = {r["item"]: r for r in csv.DictReader(io.StringIO(CR.render(f, "csv")))}
    assert rows["gain_over_basic_se_kind"]["value"] == CR.AS_FLAT
    assert float(rows["gain_over_basic"]["se"]) == f["gain_over_flat_se"]
    # with index plays the counter's rounds are not the control's: two runs, independent
    g = CR.figures(tally_of(RAMP_ROUNDS * 6), dataclasses.replace(plan, indices="hi-lo-nz"),
                   Rules(), control=control)
    assert g["gain_over_basic_se_kind"] == CR.GAIN_SE_KIND["gain_over_basic"]
    assert g["gain_over_basic_se"] == pytest.approx(independent)
    assert "(95%, the two runs taken as independent)" in CR.render(g, "table")
    # boxes by count, or a control of other rounds: independent too
    boxed = dataclasses.replace(plan, boxes=Ramp(1, ((3.0, 2),)))
    assert CR.figures(tally_of(RAMP_ROUNDS), boxed, Rules(), control=control)[
        "gain_over_basic_se_kind"] == CR.GAIN_SE_KIND["gain_over_basic"]
    other = control_of([[10], [-20], [15], [-10], [0]])
    assert CR.figures(tally_of(RAMP_ROUNDS), plan, Rules(), control=other)[
        "gain_over_basic_se_kind"] == CR.GAIN_SE_KIND["gain_over_basic"]


# A flat main bet with Super Sevens bets (the sevens plan): the counter's main bets are the flat
# figure's, and with no index plays the control's, round for round.
FLAT_ROUNDS = [
    {"count": 0, "bet": 1, "net": 10, "flat": [10]},
    {"count": 0, "bet": 1, "wagered": 20, "net": -20, "flat": [-20]},
    {"count": 9, "bet": 1, "net": 15, "ss_bet": 1, "ss_net": 50, "flat": [15], "ss_flat": [50]},
    {"count": 9, "bet": 1, "net": -10, "ss_bet": 1, "ss_net": -1, "flat": [-10], "ss_flat": [-1]},
]


def test_a_flat_main_bet_makes_the_flat_bets_and_with_no_index_plays_the_controls():
    plan = load_plan("sevens-super-sevens")
    assert CR.flat_main(plan) and plan.indices is None
    rounds = FLAT_ROUNDS * 8  # (32 rounds: SEs and intervals)
    main = [r["net"] for r in rounds]
    f = CR.figures(tally_of(rounds), plan, Rules(), control=control_of([[x] for x in main]))
    flat_se = statistics.stdev([x / U for x in main]) / math.sqrt(len(rounds))
    a = f["advantage"]["initial_bet"]
    assert a["mean"] == pytest.approx(-5 / 40) == f["flat"]["mean"]
    # the main game's own SE (the flat one), not the round's whole net's with Super Sevens
    assert a["se"] == pytest.approx(flat_se) and a["interval_note"] is None
    whole = statistics.stdev([(r["net"] + U * r.get("ss_net", 0)) / U for r in rounds]) / (
        math.sqrt(len(rounds)))
    assert whole > 10 * flat_se
    assert (f["gain_over_flat"], f["gain_over_flat_se"]) == (0.0, 0.0)
    assert (f["gain_over_basic"], f["gain_over_basic_se"]) == (0.0, 0.0)
    assert f["gain_over_flat_se_kind"] == CR.SAME_BETS
    assert f["gain_over_basic_se_kind"] == CR.SAME_ROUNDS
    assert all(b["counter_se"] == b["flat_se"] for b in f["by_count"])
    table = CR.render(f, "table")
    assert ("control run): none (no index plays and a flat main bet: the same rounds and bets); "
            "over flat betting with the counter's play: none (a flat main bet: the same bets)"
            ) in table
    assert "is conservative" not in table  # neither main-game advantage's interval
    assert "so conservative" not in table  # the by-count table's SE is the flat one's
    # index plays: the same bets as flat, but not the control's rounds
    indexed = dataclasses.replace(plan, indices="hi-lo-nz")
    g = CR.figures(tally_of(rounds), indexed, Rules(), control=control_of([[x] for x in main]))
    assert g["gain_over_flat_se_kind"] == CR.SAME_BETS
    assert g["gain_over_basic_se_kind"] == "the two runs taken as independent"
    # a ramp: not flat
    ramped = dataclasses.replace(plan, bet=Ramp(1, ((2.0, 4),)))
    assert not CR.flat_main(ramped)
    h = CR.figures(tally_of(rounds), ramped, Rules(), control=control_of([[x] for x in main]))
    assert h["gain_over_flat_se_kind"] == CR.GAIN_SE_KIND["gain_over_flat"]
    # (these rounds all bet 1 unit: paired, the same bets, so no gain and no SE)
    assert h["gain_over_flat"] == 0 and h["gain_over_flat_se"] == pytest.approx(0, abs=1e-12)
    assert not CR.flat_main(dataclasses.replace(plan, wong_enter=1.0, wong_leave=0.0))


def test_the_advantage_per_unit_wagered_has_the_main_games_se_not_the_super_sevens_pays():
    # The sevens plan at 4M rounds gave an SE of 0.565% per unit wagered on the main game against
    # 0.056% per unit of initial bet, the same net: the first was from the round's SD with the
    # Super Sevens pays in it (12.56 units against about 1.13). It is the initial bet's SE (here
    # the flat figure's, the main game's own) scaled by initial bets over all wagered.
    f = CR.figures(tally_of(FLAT_ROUNDS * 10), load_plan("sevens-super-sevens"), Rules())
    a, w = f["advantage"]["initial_bet"], f["advantage"]["total_bet"]
    bet, wagered = 40, 50  # units: a lost double in every fourth round
    assert w["mean"] == pytest.approx(a["mean"] * bet / wagered)
    assert w["se"] == pytest.approx(a["se"] * bet / wagered)
    main = [r["net"] / U for r in FLAT_ROUNDS * 10]
    assert a["se"] == pytest.approx(statistics.stdev(main) / math.sqrt(40))
    whole = f["per_round_played"]["sd"] * math.sqrt(40) / wagered  # what it was
    assert w["se"] < whole / 10
    assert w["interval_note"] is None and w["ci95_high"] == pytest.approx(
        w["mean"] + 1.959963984540054 * w["se"])
    # Without Super Sevens bets it is what it was: the round's SD over the mean wager.
    g = CR.figures(tally_of(ROUNDS[:4] * 16), load_plan("hi-lo-1-12"), Rules())  # (32 played)
    nets = [r["net"] / U for r in ROUNDS[:4] * 16 if r.get("played", True)]
    assert g["advantage"]["total_bet"]["se"] == pytest.approx(
        statistics.stdev(nets) * math.sqrt(32) / 48)  # (3 units wagered in every 2 played)


def test_figures_with_super_sevens_have_no_interval_from_too_few_expected_big_wins():
    # The sevens plan's 200,000 rounds (30,017 bets, 0.5 wins of line (e) expected) printed the
    # advantage with Super Sevens +4.67% (95%: -0.12% to +9.46%) and SCORE 18.3 (0 to 74.9);
    # that "95%" interval held the true value in 83% of 400 runs. As the flat Super Sevens
    # return (and bjsim simulate's): the figures stand, with no SE or interval, in every format.
    plan = load_plan("sevens-super-sevens")
    p_e = CR.rarest_line(Rules())[1]
    need = math.ceil(30 / p_e)  # bets; FLAT_ROUNDS bets Super Sevens twice
    few = CR.figures(tally_of(FLAT_ROUNDS) * ((need - 1) // 2), plan, Rules(), bankroll=1000)
    for k in ("initial_bet_with_super_sevens", "total_bet_with_super_sevens"):
        a = few["advantage"][k]
        assert a["mean"] is not None and (a["se"], a["ci95_low"], a["ci95_high"]) == (None,) * 3
        assert "would hold 30: too few for a normal interval" in a["interval_note"], k
    assert few["advantage"]["initial_bet"]["se"] is not None  # the main game's: not withheld
    for key in ("per_round_played", "per_round_watched"):
        p = few[key]
        assert None not in (p["mean"], p["sd"], p["win_per_100"], p["score"], p["n0"])
        assert p["risk_of_ruin"] is None and p["risk_of_ruin_note"] == CR.RUIN_WITHHELD
        assert all(p[k] is None for k in p if k.endswith(("se", "_ci95_low", "_ci95_high")))
        assert f"expected in the counter's {need - 1:,} Super Sevens bets" in p["interval_note"]
    note = few["per_round_played"]["interval_note"]
    for fmt in ("table", "markdown"):
        text = CR.render(few, fmt)
        assert "about 29.9 wins of line (e)" in text  # (not 30.0: fewer than 30)
        assert f"With Super Sevens: no SE or interval, {note}." in text, fmt
        assert ("No SE of the mean and no interval for the win per 100 rounds, SCORE or N0: "
                f"{note}.") in text, fmt  # (the risk of ruin not given at all: said apart)
        assert f"The risk of ruin is {CR.RUIN_WITHHELD}." in text, fmt
        assert "to no bound" not in text and "(0.0 to" not in text
    doc = json.loads(CR.render(few, "json"))["results"]
    assert doc["advantage"]["total_bet_with_super_sevens"]["interval_note"] == note
    rows = {(r["section"], r["item"]): r["value"] for r in csv.DictReader(io.StringIO(
        CR.render(few, "csv")))}  # (the csv gave the return's se and no word of why no interval)
    assert rows[("super_sevens", "interval_note")] == few["super_sevens"]["flat"]["interval_note"]
    assert rows[("super_sevens", "interval_note")]
    assert doc["per_round_played"]["score_ci95_low"] is None
    rows = {(r["section"], r["item"]): r for r in csv.DictReader(io.StringIO(
        CR.render(few, "csv")))}
    assert rows[("advantage", "initial_bet_with_super_sevens")]["ci95_low"] == ""
    assert rows[("advantage", "initial_bet_with_super_sevens_interval_note")]["value"] == note
    assert rows[("per_round_played", "score")]["ci95_low"] == ""
    assert rows[("per_round_played", "interval_note")]["value"] == note
    sweep = CR.sweep_rows([(0.75, few)])
    assert sweep[0]["per_round_interval_note"] == note and sweep[0]["score_ci95_low"] is None
    assert ("about 0.5 wins of line (e) paying 5000 to 1 expected in the counter's 30,017 "
            "Super Sevens bets at a "
            "full shoe's chance (more where the count leaves more sevens)") in CR.figures(
        tally_of(FLAT_ROUNDS) * 15_008 + tally_of(FLAT_ROUNDS[2:3]), plan, Rules())[
        "per_round_played"]["interval_note"]  # (0.48 to one decimal)
    assert (f"At penetration 0.75: no SE or interval for the advantage with SS or the counter's "
            "SS return, nor an interval for the win per 100 rounds, SCORE, N0 or the risk of "
            f"ruin, {note}.") in CR.render_sweep(sweep, "table")
    # Enough bets to expect 30 wins: every interval. (The plan's Super Sevens stake goes with
    # the count, so its SEs are by batch means: ten chunks' moments, alike, so an SE of 0.)
    total, moments = in_chunks(tally_of(FLAT_ROUNDS), -(-need // 2))
    enough = CR.figures(total, plan, Rules(), bankroll=1000, moments=moments)
    assert CR.figures(total, plan, Rules())["per_round_played"]["interval_note"] == (
        "no chunk moments kept with this tally")
    assert enough["advantage"]["initial_bet_with_super_sevens"]["ci95_low"] is not None
    assert enough["per_round_played"]["interval_note"] is None
    assert enough["per_round_played"]["score_ci95_low"] is not None
    assert "no SE or interval" not in CR.render(enough, "table")
    # A stake of 2 units: the bets are counted as the units over it, the fewest they can be.
    two = dataclasses.replace(plan, super_sevens=Ramp(0, ((8.0, 2),)))
    g = CR.figures(tally_of(FLAT_ROUNDS) * -(-need // 2), two, Rules())
    assert f"at least {-(-need // 2):,}: " in g["per_round_played"]["interval_note"]
    # A plan that never bets Super Sevens keeps its intervals whatever the tally.
    h = CR.figures(tally_of(FLAT_ROUNDS * 8), load_plan("hi-lo-flat"), Rules())
    assert h["per_round_played"]["interval_note"] is None and h["per_round_played"]["se"]


def test_score_n0_and_ruin_intervals_say_they_are_conservative_with_super_sevens_pays():
    # With enough bets for their intervals, SCORE's and N0's SEs (the SD held fixed) were 2.2
    # times the runs' spread, the risk of ruin's 1.4 times, unsaid (40 runs of 15 million
    # rounds of the sevens plan: the pays move the mean and SD together). Every format says so.
    plan = load_plan("sevens-super-sevens")
    need = math.ceil(30 / CR.rarest_line(Rules())[1])
    total, moments = in_chunks(tally_of(FLAT_ROUNDS), -(-need // 2))
    f = CR.figures(total, plan, Rules(), bankroll=1000, moments=moments)
    p = f["per_round_played"]
    assert p["score_ci95_low"] is not None and p["interval_note"] is None
    assert p["score_n0_ruin_note"] == f["per_round_watched"]["score_n0_ruin_note"] == (
        "conservative (the Super Sevens pays move the mean and SD together)")
    for fmt in ("table", "markdown"):
        text = CR.render(f, fmt)
        assert ("The intervals of SCORE and N0 are conservative (the Super Sevens pays move the "
                "mean and SD together)") in text, fmt
        assert f"The risk of ruin is {CR.RUIN_WITHHELD}." in text, fmt
    assert json.loads(CR.render(f, "json"))["results"]["per_round_played"][
        "score_n0_ruin_note"] == p["score_n0_ruin_note"]
    rows = {(r["section"], r["item"]): r for r in csv.DictReader(io.StringIO(
        CR.render(f, "csv")))}
    assert rows[("per_round_played", "score_n0_ruin_note")]["value"] == p["score_n0_ruin_note"]
    sweep = CR.sweep_rows([(0.75, f)])
    assert sweep[0]["score_n0_ruin_note"] == p["score_n0_ruin_note"]
    assert (f"SCORE and N0 intervals are {CR.MOVED_TOGETHER} where given."
            in CR.render_sweep(sweep, "table"))
    assert f"The risk of ruin is {CR.RUIN_WITHHELD}." in CR.render_sweep(sweep, "table")
    assert sweep[0]["risk_of_ruin"] is None and sweep[0]["risk_of_ruin_note"] == CR.RUIN_WITHHELD
    assert rows[("per_round_played", "risk_of_ruin_note")]["value"] == CR.RUIN_WITHHELD
    # With too few bets for any interval the risk of ruin's reason is still said below the
    # table (the left-out line's "below" pointed to nothing), and not as one without interval
    few = CR.figures(tally_of(FLAT_ROUNDS), plan, Rules(), bankroll=1000)
    assert few["per_round_played"]["interval_note"] is not None
    text = CR.render(few, "table")
    assert f"The risk of ruin is {CR.RUIN_WITHHELD}." in text
    assert "no interval for the win per 100 rounds, SCORE or N0: " in text
    # No Super Sevens results in the nets, or no intervals at all: nothing to say.
    main = CR.figures(tally_of(ROUNDS[:4] * 10), load_plan("hi-lo-1-12"), Rules())
    assert main["per_round_played"]["score_n0_ruin_note"] is None
    assert "conservative (the Super Sevens" not in CR.render(main, "table")
    few = CR.figures(tally_of(FLAT_ROUNDS) * 10, plan, Rules())
    assert few["per_round_played"]["score_n0_ruin_note"] is None


def test_a_flat_main_bet_on_two_boxes_keeps_the_exact_per_round_se():
    # No Super Sevens bets: the round's SE is the main game's own, exact with two boxes a round,
    # and the flat figure's the same (its rounds' sums: flat_rsq).
    rounds = [{"count": 0, "bet": 2, "boxes": 2, "net": a + b, "flat": [a, b]}
              for a, b in ((10, 10), (-10, -10), (15, -10), (-10, 0), (10, -20))] * 6
    plan = dataclasses.replace(load_plan("hi-lo-flat"), bet=Ramp(1, ((2.0, 1),)))
    assert CR.flat_main(plan)
    f = CR.figures(tally_of(rounds), plan, Rules(boxes=2))
    nets = [r["net"] / U for r in rounds]
    a = f["advantage"]["initial_bet"]
    n = len(rounds)
    assert a["se"] == pytest.approx(statistics.stdev(nets) * math.sqrt(n) / (2 * n))
    assert a["interval_note"] is None and f["flat"]["interval_note"] is None
    assert f["flat"]["se"] == pytest.approx(a["se"])
    assert f["gain_over_flat_se_kind"] == CR.SAME_BETS
    assert f["by_count"][0]["counter_se"] == pytest.approx(a["se"])


def test_the_control_runs_se_is_from_its_rounds_as_simulate_gives_it():
    """Three boxes a round share the dealer's cards: the control's SE is the per-round one of
    `tally.summarize` (as `bjsim simulate`), not the per-box SD over the boxes dealt."""
    from simulator.tally import summarize

    rounds = [[10, 10, 10], [-10, -10, 0], [15, 10, -10], [-10, -10, -10], [0, 10, 10]] * 6
    control = control_of(rounds)
    f = CR.figures(tally_of(ROUNDS), load_plan("hi-lo-1-12"), Rules(boxes=3), control=control)
    per_round = [sum(r) / U / 3 for r in rounds]  # the mean per box of each round
    se = statistics.stdev(per_round) / math.sqrt(len(rounds))
    assert f["basic"]["se"] == pytest.approx(se)
    assert f["basic"]["se"] == pytest.approx(summarize(control, Rules(boxes=3))["total"]["se"])
    per_box = statistics.stdev([x / U for r in rounds for x in r]) / math.sqrt(90)
    assert f["basic"]["se"] > 1.2 * per_box  # what it was
    assert (f["basic"]["n"], f["basic"]["mean"]) == (90, pytest.approx(90 / U / 90))


def test_the_flat_se_with_several_boxes_a_round_is_the_rounds_own():
    """A round's boxes share the dealer's cards: the flat SE is that of the rounds' sums
    (``flat_rsq``) over the boxes, not of independent boxes, and no note is needed; with one box
    a round it is the SE of independent boxes, as before."""
    rounds = [{"count": 0, "bet": 3, "net": sum(b), "flat": b, "boxes": 3}
              for b in ([10, 10, 10], [-10, -10, 0], [15, 10, -10], [-10, -10, -10])] * 8
    plan = dataclasses.replace(load_plan("hi-lo-flat"), boxes=Ramp(3))
    f = CR.figures(tally_of(rounds), plan, Rules(boxes=3))
    boxes = [x / U for r in rounds for x in r["flat"]]
    per_round = [statistics.mean(r["flat"]) / U for r in rounds]
    assert f["flat"]["se"] == pytest.approx(statistics.stdev(per_round) / math.sqrt(len(rounds)))
    assert f["flat"]["se"] > statistics.stdev(boxes) / math.sqrt(len(boxes))  # correlated boxes
    assert f["flat"]["interval_note"] is None
    assert f["by_count"][0]["flat_se"] == pytest.approx(f["flat"]["se"])
    table = CR.render(f, "table")
    assert "Flat: its SE" not in table and "from the rounds' sums" in table
    one = CR.figures(tally_of(MANY), load_plan("hi-lo-1-12"), Rules())
    flat = [x / U for r in MANY for x in r["flat"]]
    assert one["flat"]["se"] == pytest.approx(statistics.stdev(flat) / math.sqrt(len(flat)))


def test_the_super_sevens_table_by_count(fig):
    (row,) = fig["super_sevens_by_count"]
    assert (row["count"], row["bets"]) == (3, 2)
    assert row["return"] == pytest.approx(1.0) and row["se"] is None  # two bets: no SE
    lost = [{"count": 5, "played": False, "flat": [-10], "ss_flat": [-1]}] * 40
    (none,) = CR.figures(tally_of(lost), load_plan("hi-lo-1-12"), Rules())["super_sevens_by_count"]
    assert none["bets"] == 40 and none["se"] is None  # 40 losses: no spread, no SE
    (many,) = CR.figures(tally_of(ROUNDS * 15), load_plan("hi-lo-1-12"),
                         Rules())["super_sevens_by_count"]
    assert many["bets"] == 30 and many["se"] is None  # 30 bets: no 5000 to 1 pay seen yet
    # 3 to 1 on every line: 30 bets hold about 2.3 wins (a first seven 24 / 312 of bets), too
    # few; 400 bets about 31 (that table's skew is all its 3 to 1's: a big pay)
    flat_pays = Rules(super_sevens_pays=(3, 3, 3, 3, 3))
    (few,) = CR.figures(tally_of(ROUNDS * 15), load_plan("hi-lo-1-12"),
                        flat_pays)["super_sevens_by_count"]
    assert few["bets"] == 30 and few["se"] is None
    (many,) = CR.figures(tally_of(ROUNDS * 200), load_plan("hi-lo-1-12"),
                         flat_pays)["super_sevens_by_count"]
    assert many["se"] == pytest.approx(statistics.stdev([-1, 3] * 200) / math.sqrt(400))
    assert row["exact"] == pytest.approx(0.3)
    assert row["z_house_edge"] is None  # two bets say nothing of a 5000 to 1 pay
    assert "fewer than 30 wins of line (e) paying 5000 to 1 expected in 2 bets" in row["z_note"]
    assert row["favourable_share"] == 1.0 and row["counter_bets"] == 2
    ss = fig["super_sevens"]
    assert ss["favourable_share"] == pytest.approx(2 / 6) and ss["exact"] == pytest.approx(0.3)
    assert ss["counter_return"] == pytest.approx(1.0)


def test_a_super_sevens_z_needs_30_expected_wins_of_the_rarest_line():
    rules = Rules()
    splits = make_strategy(sevens={"*": "P"})  # every 7-7 split: no third card, so no (d) or (e)
    line, p, pay = CR.rarest_line(rules, splits)
    assert line == ("c",) and pay == 100
    assert p == pytest.approx(24 * 5 / 312 / 311, rel=1e-9)  # two suited sevens
    assert CR.rarest_line(rules)[0] == ("e",)  # hitting every 7-7
    # 3 to 1 on every line: the first seven, whichever line it makes, is the one big pay
    assert CR.rarest_line(dataclasses.replace(rules, super_sevens_pays=(3, 3, 3, 3, 3))) == (
        ("a", "b", "c", "d", "e"), pytest.approx(24 / 312), 3)
    # basic hits 7-7 against 8-A only: its (e) is rarer than the convention's, so it needs more
    # bets before a z (simulate's rule: the strategy's own chances)
    basic, hit_all = CR.rarest_line(rules, load_strategy("basic")), CR.rarest_line(rules)
    assert basic[0] == hit_all[0] == ("e",) and basic[1] < 0.6 * hit_all[1]
    from simulator.tally import line_chances

    assert basic[1] == line_chances(rules, [load_strategy("basic")])[0]["e"]
    need = math.ceil(30 / p)
    for n, has_z in ((need - 1, False), (need, True)):
        sim = {"n": n, "mean": -0.1, "se": 0.05}
        z, note = CR._ss_z(sim, -0.12, {"rare": (line, p, pay), "why_not": None,
                                        "pays": CR.line_pays(rules)})
        assert (z is not None, note is None) == (has_z, has_z)
    assert z == pytest.approx(-0.4)  # of the house edge: 10% simulated, 12% exact


def ss_tally(bets: int, net: int, sq: int, exact: float, exact_sq: float = 0.0) -> np.ndarray:
    """A counting tally of Super Sevens bets alone, at count 0 (``exact_sq``: each bet's exact
    mean square; 0: a tally without it)."""
    t = np.zeros((L.N_TC, L.N_COUNT), np.int64)
    row = t[-L.TC_MIN]
    row[L.C_ROUNDS] = row[L.C_SS_FLAT_BETS] = bets
    row[L.C_SS_FLAT_NET], row[L.C_SS_FLAT_SQ] = net, sq
    row[L.C_SS_EXACT] = round(exact * bets * L.SS_EXACT_SCALE)
    row[L.C_SS_EXACT_SQ] = round(exact_sq * bets * L.SS_EXACT_SQ_SCALE)
    return t


def _ss_csv_row(f: dict) -> dict:
    rows = csv.DictReader(io.StringIO(CR.render(f, "csv", {})))
    return {r["item"]: r for r in rows if r["section"] == "super_sevens"}


def test_the_super_sevens_interval_is_the_exact_ses_in_every_format():
    # 2,000,000 bets losing 25% a bet, sample mean square 74 (the big pays missed), exact mean
    # square 525: the exact SE is the one of the z and of the interval, in every format.
    bets = 2_000_000
    t = ss_tally(bets, -bets // 4, 74 * bets, -0.11, exact_sq=525.0)
    for strategy in ("basic-super-sevens",):
        f = CR.figures(t, load_plan("hi-lo-flat"), Rules(), strategy=load_strategy(strategy))
        ss, fl = f["super_sevens"], f["super_sevens"]["flat"]
        exact_se = math.sqrt((525 - 0.11**2) / bets)
        assert ss["exact_se"] == pytest.approx(exact_se) and fl["interval_se"] == "exact"
        assert fl["se"] == pytest.approx(math.sqrt((74 - 0.0625) * bets / (bets - 1) / bets))
        half = 1.959963984540054 * exact_se
        assert (fl["ci95_low"], fl["ci95_high"]) == (pytest.approx(-0.25 - half),
                                                     pytest.approx(-0.25 + half))
        doc = json.loads(CR.render(f, "json"))["results"]["super_sevens"]["flat"]
        assert (doc["ci95_low"], doc["ci95_high"]) == (fl["ci95_low"], fl["ci95_high"])
        row = _ss_csv_row(f)
        assert float(row["flat_return"]["se"]) == pytest.approx(exact_se)
        assert float(row["flat_return"]["ci95_low"]) == pytest.approx(fl["ci95_low"])
        assert row["interval_se"]["value"] == "exact"
        assert float(row["sample_se"]["value"]) == pytest.approx(fl["se"])
        for fmt in ("table", "markdown"):
            text = CR.render(f, fmt)
            assert f"-25.000% ± {100 * half:.3f}% (95%: " in text, fmt
            assert f"exact SE {100 * exact_se:.3f}%)" in text and "SE (exact SD)" in text


def test_a_strategy_off_the_convention_has_its_samples_interval_not_the_conventions_se():
    # basic stands or splits 7-7 against 2-7: the exact moments the tally keeps are those of
    # basic's own 7-7 play (counter.exact_plays), so its interval and z are from the exact SE
    # overall (they were the sample's, against the convention's return: no z); by the Hi-Lo
    # count, which tells of the cards that decide basic's 7-7 play, the exact return is not
    # exact at each count: the by-count table gives the sample's SE and no exact or z
    bets = 4_000_000
    t = ss_tally(bets, -bets // 4, 74 * bets, -0.11, exact_sq=525.0)
    f = CR.figures(t, load_plan("hi-lo-flat"), Rules(), strategy=load_strategy("basic"))
    ss, fl = f["super_sevens"], f["super_sevens"]["flat"]
    assert ss["why_not"] is None and ss["z_house_edge"] is not None
    assert ss["exact_play"] == "the strategy's 7-7 play (split v 2-7, hit v 8-A)"
    assert fl["interval_se"] == "exact" and fl["interval_note"] is None
    assert ss["by_count_exact"] is False and "exact overall, not at each count" in ss[
        "by_count_note"]
    (row,) = f["super_sevens_by_count"]
    assert row["exact"] is None and row["exact_se"] is None and row["z_house_edge"] is None
    # nor the share of rounds favourable at a count, judged by that same return (it stayed)
    assert row["favourable_share"] is None and ss["favourable_share"] is not None
    assert "nor the share of rounds it favours there" in ss["by_count_note"]
    text = CR.render(f, "table")  # the by-count table's SE column is the sample's
    assert "SE (sample)" in text and "SE (exact SD)" not in text
    assert f"{100 * f['super_sevens_by_count'][0]['se']:.2f}%" in text
    assert "(the strategy's 7-7 play) -11.000%" in text
    by = [r for r in csv.DictReader(io.StringIO(CR.render(f, "csv", {})))
          if r["section"] == "super_sevens_by_count" and r["item"] == "return"]
    assert [float(r["se"]) for r in by] == [pytest.approx(b["se"])
                                            for b in f["super_sevens_by_count"]]
    # basic's own line (e) chance sets how many bets an interval needs: 2,000,000 are too few
    few = CR.figures(ss_tally(2_000_000, -500_000, 74 * 2_000_000, -0.11, exact_sq=525.0),
                     load_plan("hi-lo-flat"), Rules(), strategy=load_strategy("basic"))
    assert few["super_sevens"]["flat"]["ci95_low"] is None
    assert "line (e)" in few["super_sevens"]["flat"]["interval_note"]


def test_with_the_exact_variance_too_few_bets_still_give_no_z_or_interval():
    # One 5000-to-1 win in 5,049 bets printed z = +10.5 at a count: the exact SE was taken as
    # enough by itself, though the mean of so few bets is far from normal. 200,000 bets expect
    # 3.2 wins of line (e): no z and no interval, in any format; the exact SE is still given.
    bets = 200_000
    t = ss_tally(bets, bets * 2, 74 * bets, -0.11, exact_sq=525.0)
    f = CR.figures(t, load_plan("hi-lo-flat"), Rules(),
                   strategy=load_strategy("basic-super-sevens"))
    ss, fl = f["super_sevens"], f["super_sevens"]["flat"]
    assert ss["exact_se"] == pytest.approx(math.sqrt((525 - 0.11**2) / bets))
    assert ss["z_house_edge"] is None and (fl["ci95_low"], fl["ci95_high"]) == (None, None)
    assert ("fewer than 30 wins of line (e) paying 5000 to 1 expected in 200,000 bets"
            in fl["interval_note"])
    (row,) = f["super_sevens_by_count"]
    assert row["z_house_edge"] is None and row["exact_se"] is not None
    assert "fewer than 30 wins of line (e)" in row["z_note"]
    for fmt in ("table", "markdown"):
        assert "simulated +200.000% (no interval: fewer than 30 wins" in CR.render(f, fmt), fmt


def test_without_the_exact_variance_no_format_shows_an_interval_too_few_bets_leave():
    # A tally without ss_exact_sq: the sample's SE, and no interval in any format until the
    # bets are enough to expect 30 wins of line (e) (one in 62,666), as no z.
    plan = load_plan("hi-lo-flat")
    few = CR.figures(ss_tally(200_000, -50_000, 74 * 200_000, -0.11), plan, Rules())
    fl = few["super_sevens"]["flat"]
    assert (fl["ci95_low"], fl["ci95_high"], fl["interval_se"]) == (None, None, None)
    assert ("fewer than 30 wins of line (e) paying 5000 to 1 expected in 200,000 bets"
            in fl["interval_note"])
    assert few["super_sevens"]["z_house_edge"] is None
    doc = json.loads(CR.render(few, "json"))["results"]["super_sevens"]["flat"]
    assert doc["ci95_low"] is None and doc["interval_note"] == fl["interval_note"]
    assert _ss_csv_row(few)["flat_return"]["ci95_low"] == ""
    for fmt in ("table", "markdown"):
        text = CR.render(few, fmt)
        assert "simulated -25.000% (no interval: fewer than 30 wins" in text, fmt
        assert "SE (sample)" in text
    bets = 2_000_000
    many = CR.figures(ss_tally(bets, -bets // 4, 74 * bets, -0.11), plan, Rules())
    fl = many["super_sevens"]["flat"]
    assert fl["interval_se"] == "sample" and fl["ci95_high"] == pytest.approx(
        -0.25 + 1.959963984540054 * fl["se"])
    assert "sample SE" in CR.render(many, "table")


def test_a_super_sevens_z_only_for_the_exact_returns_convention_and_enough_bets():
    # 2,000,000 bets losing 10% a bet, exact -12%: enough for line (e) (one in 62,666)
    bets = 2_000_000
    t = ss_tally(bets, -bets // 10, 30 * bets, -0.12)
    plan = load_plan("hi-lo-flat")
    hits = CR.figures(t, plan, Rules(), strategy=load_strategy("basic-super-sevens"))
    ss, (row,) = hits["super_sevens"], hits["super_sevens_by_count"]
    se = math.sqrt((30 - 0.01) * bets / (bets - 1)) / math.sqrt(bets)
    assert ss["flat"]["se"] == pytest.approx(se) and row["se"] == pytest.approx(se)
    # z of the house edge: 10% simulated against 12% exact
    assert ss["z_house_edge"] == pytest.approx(-0.02 / se)
    assert row["z_house_edge"] == pytest.approx(-0.02 / se)
    assert ss["why_not"] is None and ss["rarest_line"]["lines"] == ["e"]
    assert ss["rarest_line"]["pays"] == 5000
    # basic splits 7-7 against 2-7: its exact return is its own play's, so a z overall; by
    # the Hi-Lo count, which tells of the up cards that decide that play, none
    basic = CR.figures(t, plan, Rules(), strategy=load_strategy("basic"))
    assert basic["super_sevens"]["why_not"] is None
    assert basic["super_sevens_by_count"][0]["z_house_edge"] is None
    assert "No z" not in CR.render(basic, "table")
    peek = CR.figures(t, plan, Rules(hole_card="peek"),
                      strategy=load_strategy("basic-super-sevens"))
    assert peek["super_sevens"]["why_not"] is None  # (a peeked blackjack: in the exact table)
    assert peek["super_sevens"]["by_count_exact"] is False
    few = CR.figures(ss_tally(bets // 2, -bets // 20, 15 * bets, -0.12), plan, Rules())
    assert few["super_sevens"]["z_house_edge"] is None and "fewer than 30 wins of line (e)" in few[
        "super_sevens"]["z_note"]


def test_a_super_sevens_z_by_sevens_count_needs_30_wins_at_the_sevens_the_count_leaves():
    # 2,000,000 bets at sevens count -9 expect 31.9 wins of line (e) from a full shoe, but the
    # count leaves 4 - 9/13 = 3.31 sevens a deck or more: (3.31 / 4)^3 of that, 18.0 wins, and
    # with 78 cards left at the cut card 3.31 x 1.5 = 4.96 sevens among them, three in a row
    # 0.316 times a full shoe's chance: 10.1 wins. A z of -0.52 was printed there (and the
    # full-depth 18.0 alone let a z through at 30 wins from a full shoe's depth that the cut
    # card's held far fewer of). At 0, or with a count that does not tell the sevens left (or
    # estimates the decks), the full shoe's chance stays.
    bets = 2_000_000
    t = ss_tally(bets, -bets // 10, 30 * bets, -0.12, exact_sq=30.0)
    at = {}
    for count in (-9, 0):
        at[count] = np.zeros_like(t)
        at[count][count - L.TC_MIN] = t[-L.TC_MIN]
    strategy = load_strategy("basic-super-sevens")
    sevens = load_plan("sevens-super-sevens")
    (row,) = CR.figures(at[-9], sevens, Rules(), strategy=strategy)["super_sevens_by_count"]
    assert row["count"] == -9 and row["z_house_edge"] is None
    assert ("fewer than 30 wins of line (e) paying 5000 to 1 expected in 2,000,000 bets (about "
            "10.1, its chance "
            "at 3.31 sevens a deck among the 78 cards left at the cut card: the fewest this "
            "count leaves") in row["z_note"]
    check = CR.sevens_check(Rules(), strategy)
    sv = 4 * (1 - 9 / 52) * 78 / 52  # the sevens among the 78 cards left
    assert CR.sevens_factor(1 - 9 / 52, 3, check) == pytest.approx(
        (sv * (sv - 1) * (sv - 2) / (78 * 77 * 76)) / (24 * 23 * 22 / (312 * 311 * 310)))
    assert CR.sevens_factor(1.0, 3, check) == 1.0
    f0 = CR.figures(at[0], sevens, Rules(), strategy=strategy)
    assert f0["super_sevens_by_count"][0]["z_house_edge"] is not None
    assert f0["super_sevens"]["by_count_chance"] == "sevens left"
    # it read "By count each line's chance is scaled, below 0, by the sevens a deck the count
    # leaves at least, over 4, to the power of the sevens it needs."
    assert ("Below a count of 0, each line's chance is taken with s sevens a deck, the fewest "
            "the count allows, among the cards left at the cut card, where it is least: k "
            "sevens in a row, k the sevens the line needs.") in CR.render(f0, "table")
    from simulator.assessment import render, sections
    md = render.to_markdown("t", [sections.counting({"strategy": strategy.name, "counting": {
        "plan": sevens.name, "figures": f0, "sweep": None}})])
    assert ("By count a z needs 30 wins expected at that count; below a count of 0, each "
            "line's chance is taken with s sevens a deck, the fewest") in md
    # Above 0 the full shoe's chance stays: a shoe run down holds fewer sevens at the same
    # density (1,500,000 bets at +13: 23.9 wins from a full shoe, no z).
    high = np.zeros_like(t)
    high[13 - L.TC_MIN] = ss_tally(1_500_000, -150_000, 45_000_000, -0.12, exact_sq=30.0)[
        -L.TC_MIN]
    (row,) = CR.figures(high, sevens, Rules(), strategy=strategy)["super_sevens_by_count"]
    assert row["z_house_edge"] is None
    # (a card counter's review: it read "at 4.00 sevens a deck: the fewest this count leaves",
    # where +13 leaves 5 a deck or more)
    assert ("(about 23.9, its chance a full shoe's: this count leaves at least a full shoe's 4 "
            "sevens a deck; about 1,900,000 bets would hold 30 at this count)") in row["z_note"]
    # the overall return keeps the full shoe's chance (its bets are of every count)
    f9 = CR.figures(at[-9], sevens, Rules(), strategy=strategy)
    assert f9["super_sevens"]["z_house_edge"] is not None
    for plan in (load_plan("hi-lo-flat"), dataclasses.replace(sevens, resolution="half")):
        f = CR.figures(at[-9], plan, Rules(), strategy=strategy)
        assert f["super_sevens_by_count"][0]["z_house_edge"] is not None, plan.name
        assert f["super_sevens"]["by_count_chance"] == "full shoe"
        assert "the full shoe's chance is used: the count does not say" in CR.render(f, "table")
    # the bottom row holds every count below -30, down to no sevens at all: never a z
    bottom = np.zeros_like(t)
    bottom[0] = t[-L.TC_MIN] * 1000
    (row,) = CR.figures(bottom, sevens, Rules(), strategy=strategy)["super_sevens_by_count"]
    assert row["label"] == "<=-30" and row["z_house_edge"] is None


def test_the_end_buckets_hold_every_count_beyond_them():
    t = tally_of([{"count": -45, "bet": 1, "net": 0, "flat": [0]},
                  {"count": 99, "bet": 1, "net": 10, "flat": [10]}]) * CR.MIN_SAMPLE
    rows = CR.figures(t, load_plan("hi-lo-flat"), Rules())["by_count"]
    assert [(b["count"], b["label"]) for b in rows] == [(L.TC_MIN, "<=-30"), (L.TC_MAX, ">=+30")]
    assert [CR.bucket_label(i) for i in (1, -L.TC_MIN, L.N_TC - 2)] == ["-29", "0", "+29"]


def test_an_object_array_of_python_ints_gives_the_same_figures(fig):
    big = tally_of(ROUNDS).astype(object)
    assert CR.figures(big, load_plan("hi-lo-1-12"), Rules()) == fig
    with pytest.raises(ValueError, match="expected shape"):
        CR.figures(np.zeros((3, 3), np.int64), load_plan("hi-lo-flat"), Rules())
    with pytest.raises(ValueError, match="integer sums"):
        CR.figures(np.zeros((L.N_TC, L.N_COUNT)), load_plan("hi-lo-flat"), Rules())


def test_an_empty_tally_renders_in_every_format_without_nan():
    f = CR.figures(np.zeros((L.N_TC, L.N_COUNT), np.int64), load_plan("hi-lo-flat"), Rules())
    assert f["advantage"]["initial_bet"]["mean"] is None and f["by_count"] == []
    for fmt in CR.FORMATS:
        assert "nan" not in CR.render(f, fmt, {}).lower()


META = {"run": {"rules_name": "nz1994", "seed": 7, "chunk_rounds": 10, "partial": False},
        "strategy": ["basic"], "rules": {"decks": 6}, "timing": {"seconds": 1.0}}


def test_the_renderings_show_the_same_figures(many):
    fig = many  # (32 rounds played: SEs and intervals)
    text = CR.render(fig, "table", META)
    assert "plan hi-lo-1-12" in text and "seed 7" in text and "+10.000%" in text
    assert "+25.000%" in text  # with Super Sevens
    assert "By true count" in text and "Super Sevens by true count" in text
    md = CR.render(fig, "markdown", META)
    assert "| advantage | mean | SE | 95% interval |" in md and "+10.000%" in md
    # (markdown drops leading spaces; a review read "(bets and result)" as per unit of main bet)
    assert ("| ↳ with Super Sevens (per unit of initial main and Super Sevens bets; both results) "
            "|") in md
    # its exact Super Sevens figure is the published convention's, not the strategy's 7-7 play
    assert "starting shoes (published convention)" in text
    assert "|   " not in md
    doc = json.loads(CR.render(fig, "json", META))
    edge = {"super_sevens": fig["super_sevens"] | {"player_edge": None}}  # (as simulate's; the
    # meta names no edge)
    assert doc["results"] == json.loads(json.dumps(fig | edge)) and doc["run"]["seed"] == 7
    rows = list(csv.DictReader(io.StringIO(CR.render(fig, "csv", META))))
    first = rows[0]
    assert (first["section"], first["item"]) == ("advantage", "initial_bet")
    assert float(first["value"]) == pytest.approx(0.1)
    by = [r for r in rows if r["section"] == "by_count" and r["item"] == "flat_advantage"]
    assert [r["count_label"] for r in by] == ["0 to +3"]  # (32 and 16 rounds: one row)
    assert any(r["section"] == "run" and r["item"] == "seed" and r["value"] == "7" for r in rows)
    with pytest.raises(ValueError, match="allowed table, markdown, json, csv"):
        CR.render(fig, "xml", META)


def test_the_single_runs_csv_gives_the_rule_set_as_the_sweeps_does(fig):
    # The single run's csv had no section rules, where the sweep's and simulate's csv have it.
    meta = META | {"rules": {"decks": 6, "surrender": "none", "super_sevens": True}}
    single = [(r["item"], r["value"]) for r in csv.DictReader(io.StringIO(
        CR.render(fig, "csv", meta))) if r["section"] == "rules"]
    sweep = [(r["item"], r["value"]) for r in csv.DictReader(io.StringIO(CR.render_sweep(
        CR.sweep_rows([(0.75, fig)]), "csv", meta))) if r["section"] == "rules"]
    assert single == sweep == [("decks", "6"), ("surrender", "none"), ("super_sevens", "true")]


def test_the_penetration_sweep_puts_runs_side_by_side(fig):
    other = CR.figures(tally_of(ROUNDS[:2]), load_plan("hi-lo-1-12"), Rules())
    rows = CR.sweep_rows([(0.6, other), (0.9, fig)])
    assert [r["penetration"] for r in rows] == [0.6, 0.9]
    assert rows[1]["advantage"] == fig["advantage"]["initial_bet"]["mean"]
    assert rows[1]["score"] == fig["per_round_played"]["score"]
    assert rows[0]["advantage"] == pytest.approx(-1 / 2)
    meta = META | {"plan": {"name": "hi-lo-1-12"}}
    text = CR.render_sweep(rows, "table", meta)
    assert "0.60" in text and "0.90" in text and "+10.000%" in text and "SCORE" in text
    assert json.loads(CR.render_sweep(rows, "json", meta))["sweep"][1]["n0"] == rows[1]["n0"]
    assert len([r for r in csv.DictReader(io.StringIO(CR.render_sweep(rows, "csv", meta)))
                if r["item"] == "advantage"]) == 2
    assert "| penetration |" in CR.render_sweep(rows, "markdown", meta)


def test_the_sweep_gives_the_risk_of_ruin_of_the_bankroll_at_each_penetration():
    # It took --bankroll and showed no risk of ruin anywhere: now each penetration's, with the
    # single run's interval, in every format, for the bankroll the figures are of.
    plan = load_plan("hi-lo-1-12")
    f = CR.figures(tally_of(MAIN_MANY), plan, Rules(), bankroll=5)  # (the 32 rounds reach it)
    p = f["per_round_played"]
    assert p["risk_of_ruin_ci95_low"] is not None  # (an interval to carry)
    (row,) = CR.sweep_rows([(0.75, f)])
    assert row["bankroll"] == 5
    for k in ("risk_of_ruin", "risk_of_ruin_se", "risk_of_ruin_ci95_low",
              "risk_of_ruin_ci95_high"):
        assert row[k] == p[k], k
    meta = META | {"plan": CR.plan_dict(plan)}
    span = (f"{CR.ruin_pct(p['risk_of_ruin'])} ({CR.ruin_pct(p['risk_of_ruin_ci95_low'])} to "
            f"{CR.ruin_pct(p['risk_of_ruin_ci95_high'])})")
    for fmt in ("table", "markdown"):
        text = CR.render_sweep([row], fmt, meta)
        assert "risk of ruin (95%)" in text and span in text, fmt
        assert "bankroll for the risk of ruin: 5 units" in text, fmt
        assert span in CR.render(f, fmt, meta), fmt  # the single run's figure
        # the method named, as json's risk_of_ruin_method (it had been only for the nets')
        for out in (text, CR.render(f, fmt, meta)):
            assert f"The risk of ruin is {CR.RUIN_DIFFUSION}." in out, fmt
            assert CR.RUIN_FROM_NETS not in out, fmt
    doc = json.loads(CR.render_sweep([row], "json", meta))
    assert doc["sweep"][0]["risk_of_ruin"] == p["risk_of_ruin"]
    assert doc["sweep"][0]["bankroll"] == 5 and doc["plan"]["bankroll"] == 1000  # as written
    cells = {r["item"]: r for r in csv.DictReader(io.StringIO(CR.render_sweep([row], "csv",
                                                                               meta)))}
    assert float(cells["risk_of_ruin"]["value"]) == p["risk_of_ruin"]
    assert cells["bankroll"]["value"] == "5"
    assert float(cells["risk_of_ruin"]["ci95_high"]) == p["risk_of_ruin_ci95_high"]
    # No bankroll anywhere: said, and no figure.
    g = CR.figures(tally_of(MAIN_ROUNDS), dataclasses.replace(plan, bankroll=None), Rules())
    (none,) = CR.sweep_rows([(0.75, g)])
    assert none["bankroll"] is None and none["risk_of_ruin"] is None
    assert "no bankroll given for the risk of ruin" in CR.render_sweep([none], "table", meta)


def test_the_sweep_legend_calls_the_flat_column_the_counters_play_as_the_single_run(many):
    single = CR.render(many, "table", META)
    sweep = CR.render_sweep(CR.sweep_rows([(0.75, many)]), "table", META)
    assert "flat 1 unit on every box dealt (the counter's play)" in single
    assert ("flat: 1 unit on every box dealt (the counter's play), its SE and 95% interval;"
            in sweep)


@pytest.mark.parametrize("partial", [False, True])
def test_csv_booleans_are_lowercase_as_simulate_and_compare_write_them(fig, partial):
    meta = META | {"run": META["run"] | {"partial": partial}}
    text = CR.render(fig, "csv", meta)
    row = next(r for r in csv.DictReader(io.StringIO(text)) if r["item"] == "partial")
    assert row["section"] == "run" and row["value"] == str(partial).lower()
    sweep = CR.render_sweep(CR.sweep_rows([(0.75, fig)]), "csv", meta)
    for out in (text, sweep):  # no Python spelling of a boolean in any cell
        cells = {c for r in csv.reader(io.StringIO(out)) for c in r}
        assert not cells & {"True", "False"}


def test_every_json_key_is_documented(fig):
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "counting.md").read_text()
    schema = doc.split("## JSON output", 1)[1].split("\n## ", 1)[0]
    keys = set(fig) | {f"{k}.{sub}" for k in ("advantage",) for sub in fig[k]}
    for group in ("plan", "per_round_played", "flat", "super_sevens", "rules"):
        keys |= set(fig[group])
    keys |= set(fig["by_count"][0]) | set(fig["super_sevens_by_count"][0])
    keys |= set(CR.sweep_rows([(0.75, fig)])[0])
    for key in keys:
        assert f"`{key.split('.')[-1]}`" in schema or f"`{key}`" in schema, key


def test_every_plus_minus_is_labelled_and_no_interval_leaves_its_range():
    # The rounds' edge is under 2 SE: its interval reaches no edge, where SCORE is 0, the risk
    # of ruin 1 and N0 unbounded; a ± of one SE would have shown negative probabilities.
    # (32 rounds: a bankroll of 16 units, for a risk of ruin's SE above it and an interval)
    fig = CR.figures(tally_of(MAIN_MANY), load_plan("hi-lo-1-12"), Rules(), bankroll=16)
    p = fig["per_round_played"]
    assert p["score_ci95_low"] == 0 and p["risk_of_ruin_ci95_high"] == 1.0
    assert p["n0_ci95_high"] is None and p["n0_ci95_low"] == pytest.approx(
        counting.n0(p["mean"] + 1.959963984540054 * p["se"], p["sd"]))
    assert p["risk_of_ruin"] - p["risk_of_ruin_se"] < 0  # what used to be printed
    assert 0 < p["risk_of_ruin_ci95_low"] < p["risk_of_ruin"] < 1
    assert p["score_ci95_low"] < p["score"] < p["score_ci95_high"]
    for fmt in ("table", "markdown"):
        text = CR.render(fig, fmt)
        for head in ("win/100 (95%)", "SCORE (95%)", "N0 (95%)", "risk of ruin (95%)"):
            assert head in text, (fmt, head)
        assert (f"{CR.ruin_pct(p['risk_of_ruin'])} ({CR.ruin_pct(p['risk_of_ruin_ci95_low'])} to "
                "100%)") in text
        assert "to no bound)" in text and "(SE at most)" not in text
        for line in text.splitlines():  # a ± outside a table column says what it is
            if "±" in line and "|" not in line and not line.startswith("per round"):
                assert "(95%" in line, line
    rows = list(csv.DictReader(io.StringIO(CR.render(fig, "csv"))))
    ruin = next(r for r in rows if (r["section"], r["item"]) == ("per_round_played",
                                                                  "risk_of_ruin"))
    assert float(ruin["ci95_high"]) == 1.0 and float(ruin["se"]) == p["risk_of_ruin_se"]
    sweep = CR.render_sweep(CR.sweep_rows([(0.75, fig)]), "table", {"plan": {"name": "p"}})
    assert "gain (95%, paired)" in sweep and "SCORE (95%)" in sweep
    # (a gain, a difference of two advantages, in percentage points: a review had read "+1.1%
    # of the initial bet" as the counter's own edge)
    assert f"± {100 * 1.959963984540054 * fig['gain_over_flat_se']:.3f} pp" in sweep


def test_a_shuffle_every_round_is_said_in_the_header_not_a_penetration():
    f = CR.figures(tally_of(ROUNDS), load_plan("hi-lo-1-12"), Rules(shuffle="every-round"))
    assert f["rules"]["shuffle"] == "every-round"
    for fmt in ("table", "markdown"):
        head = CR.render(f, fmt).splitlines()[1]
        assert "shuffle every round" in head and "penetration" not in head, head
    cut = CR.figures(tally_of(ROUNDS), load_plan("hi-lo-1-12"), Rules())
    assert "6 decks, penetration 0.75," in CR.render(cut, "table")


def test_every_plus_minus_in_the_readmes_counting_section_is_labelled():
    """README "Card counting": each ± says what it is, a 95% half-width or an SE (the table's
    rows in their label, the prose beside the figure); the gain, the Super Sevens return, SCORE
    and N0 have their uncertainty."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme.split("## Card counting: `bjsim count`", 1)[1].split("\n## ", 1)[0]
    rows = [ln.split("|")[1:-1] for ln in section.splitlines() if ln.startswith("| ")]
    by_label = {r[0].strip(): r for r in rows}
    for label, row in by_label.items():
        if any("±" in cell or " to " in cell for cell in row[1:]):
            assert "(95%" in label or "(SE)" in label, label
    gain = next(r for k, r in by_label.items() if k.startswith("gain over the control"))
    assert all("±" in cell for cell in gain[1:])
    for name in ("SCORE", "N0"):
        row = next(r for k, r in by_label.items() if k.startswith(name))
        assert all(re.search(r"\(\S+ to \S+\)", cell) for cell in row[1:]), name
    prose = " ".join(ln for ln in section.splitlines() if not ln.startswith("|"))
    for m in re.finditer(r"± [\d.]+%", prose):
        assert re.match(r"\s*\((SE|95%)", prose[m.end():]), prose[m.start() - 40: m.end() + 20]


def test_the_csv_tells_the_clamped_end_rows_from_their_counts():
    # "<=-30" and ">=+30" were written as -30 and 30, as if of those counts alone.
    t = ss_tally(100, -25, 74 * 100, -0.11)
    t[0], t[-1] = t[-L.TC_MIN], t[-L.TC_MIN]
    f = CR.figures(t, load_plan("hi-lo-flat"), Rules())
    rows = list(csv.DictReader(io.StringIO(CR.render(f, "csv", {}))))
    got = {(r["count"], r["count_label"]) for r in rows if r["section"] == "by_count"}
    assert got == {(str(L.TC_MIN), f"<={L.TC_MIN}"), ("0", "0"), (str(L.TC_MAX), f">=+{L.TC_MAX}")}
    assert all(r["count_label"] == "" for r in rows if r["section"] == "advantage")


def test_a_super_sevens_counter_s_advantage_by_count_has_the_main_games_se():
    # The by-count counter's advantage is the main game's, and so is its SE (main_sq): the
    # round's 50-to-1 Super Sevens pay does not enter it (it had, said to be conservative).
    f = CR.figures(tally_of(FLAT_ROUNDS * 20), load_plan("sevens-super-sevens"), Rules())
    nine = next(b for b in f["by_count"] if b["count"] == 9)
    main = [FLAT_ROUNDS[2]["net"] / U, FLAT_ROUNDS[3]["net"] / U] * 20
    assert nine["counter_se"] == pytest.approx(statistics.stdev(main) * math.sqrt(40) / 40)
    assert "conservative" not in CR.render(f, "table").split("By true count")[1].split("\n")[0]




@pytest.mark.parametrize("x, text", [
    (0.14, "0.140"), (0.118, "0.118"), (0.1674, "0.167"), (1.0, "1.00"), (0.0660762, "0.0661"),
    (0.0000123, "0.0000123"), (0.09996, "0.100"), (0.5, "0.500"), (0.0, "0"), (123.4, "123"),
])
def test_sig3_keeps_three_significant_figures_trailing_zeros_too(x, text):
    # The risk of ruin read "0.14 (0.118 to 0.167)": the point had fewer figures than its bounds.
    assert CR.sig3(x) == text


def test_a_risk_of_ruin_and_its_interval_show_as_many_significant_figures():
    fig = CR.figures(tally_of(ROUNDS), load_plan("hi-lo-1-12"), Rules(), bankroll=10)
    p = fig["per_round_played"] | {"risk_of_ruin": 0.14, "risk_of_ruin_ci95_low": 0.1181,
                                   "risk_of_ruin_ci95_high": 0.1674}
    for fmt in ("table", "markdown"):
        assert "14.0% (11.8% to 16.7%)" in CR.render(fig | {"per_round_played": p}, fmt)


def test_a_gain_without_an_se_has_no_interval_label():
    # --rounds 1 printed "+0.000% (95%, paired)": a 95% label with no half-width to label.
    one = [{"count": 0, "bet": 1, "net": 10, "flat": [10]}]
    for plan in (load_plan("hi-lo-1-12"),  # index plays: the control's gain independent
                 dataclasses.replace(load_plan("hi-lo-flat"), bet=Ramp(1, ((1.0, 2),)))):
        f = CR.figures(tally_of(one), plan, Rules(), control=control_of([[10]]))
        assert f["gain_over_flat_se"] is None and f["gain_over_basic_se"] is None
        for fmt in ("table", "markdown"):
            text = CR.render(f, fmt)
            assert "+0.000 pp (no interval: too few rounds)" in text
            assert "(95%, paired)" not in text and "(95%, the two runs" not in text
            assert ("No SE of the mean and no interval for the win per 100 rounds, SCORE, N0 or "
                    "the risk of ruin: a standard error needs two rounds or more.") in text
        sweep = CR.render_sweep(CR.sweep_rows([(0.75, f)]), "table", {"plan": {"name": "p"}})
        assert "+0.000 pp (no interval: too few rounds)" in sweep
        assert f["per_round_played"]["interval_note"] == "a standard error needs two rounds or more"


def test_the_advantage_per_unit_wagered_is_the_main_games_result_without_insurance():
    # Two rounds of one unit: a won insurance bet (+1 unit) beside a lost main hand (-1), then a
    # lost double (-2 of 2 wagered) beside a lost insurance bet (-0.5). Main + insurance: -2.5
    # units on 2 initial units; the main game's result alone: -3 units on 3 units wagered, as
    # `bjsim simulate` gives ``main.mean_per_unit_wagered``; insurance apart: +0.5 units on 2.
    rounds = [{"count": 0, "bet": 1, "net": 0, "ins": 10, "flat": [0]},
              {"count": 0, "bet": 1, "wagered": 20, "net": -25, "ins": -5, "flat": [-25]}]
    f = CR.figures(tally_of(rounds * 15), load_plan("hi-lo-flat"), Rules())  # (30 rounds)
    a = f["advantage"]
    assert a["initial_bet"]["mean"] == pytest.approx(-2.5 / 2)
    assert a["total_bet"]["mean"] == pytest.approx(-3 / 3)
    assert f["insurance_per_initial_bet"] == pytest.approx(0.5 / 2)
    # its SE: the SD of the round's main result without insurance, over the mean wagered a round
    game = [-1, -2] * 15
    assert a["total_bet"]["se"] == pytest.approx(statistics.stdev(game) / math.sqrt(30) / 1.5)
    assert a["total_bet_with_super_sevens"]["mean"] is None  # no Super Sevens bet
    table = CR.render(f, "table")
    assert PER_UNIT_WAGERED in table and "Insurance result per unit of initial main bet: +25.000%" \
        in table


def test_the_advantages_with_super_sevens_say_none_was_bet_rather_than_repeat_a_row():
    """hi-lo-1-12 bets no Super Sevens: its fourth row (main + insurance + Super Sevens per
    unit wagered) read +0.511% against the third's +0.467%, the insurance alone apart, and
    the second repeated the first. Both say no Super Sevens was bet; the fourth row's label
    says it holds insurance, unlike the third."""
    rounds = [{"count": 0, "bet": 1, "net": 10, "flat": [10]},
              {"count": 1, "bet": 1, "wagered": 20, "net": -20, "ins": -5, "flat": [-20]}] * 20
    f = CR.figures(tally_of(rounds), load_plan("hi-lo-1-12"), Rules())
    assert f["super_sevens"]["counter_bets"] == 0
    for k in ("initial_bet_with_super_sevens", "total_bet_with_super_sevens"):
        a = f["advantage"][k]
        assert a["mean"] is None and a["interval_note"] == "the counter bet no Super Sevens"
    table = CR.render(f, "table")
    rows = [ln for ln in table.splitlines() if ln.startswith(("  with Super Sevens",
                                                              "per unit wagered on the main "
                                                              "game and Super Sevens"))]
    # (rows of no figures are left out of the table now: the line under it says why)
    assert rows == [] and "no Super Sevens bet" not in table
    assert "With Super Sevens: no figures, the counter bet no Super Sevens." in table
    assert "insurance in, unlike the row above" in CR.ADVANTAGE_LABELS[3][1]
    from simulator.assessment import render, sections
    data = {"strategy": "basic", "counting": {"plan": "hi-lo-1-12", "figures": f,
                                              "sweep": None}}
    md = render.to_markdown("t", [sections.counting(data)])
    assert "The advantages with Super Sevens have no figures: the counter bet no Super " \
        "Sevens." in md


def test_counts_super_sevens_line_names_each_figure_and_its_sign():
    """count printed "exact (published convention) -11.574%" (a return, averaged over the
    rounds' starting shoes) beside the note's "gives 11.400% for these rules" (a house edge,
    from a full shoe), neither named: each is named."""
    from simulator.report import sevens_note
    from simulator.rules import rules_dict

    bets = 2_000_000
    f = CR.figures(ss_tally(bets, -bets * 12 // 100, 500 * bets, -0.11, exact_sq=525.0),
                   load_plan("hi-lo-flat"), Rules(), strategy=load_strategy("basic-super-sevens"))
    note = sevens_note(["hit v 2-A"], rules_dict(Rules(super_sevens=True)))
    text = CR.render(f, "table", {"sevens_note": note})
    assert ("Super Sevens overall, return per unit staked: simulated -12.000% ±" in text)
    assert "exact: mean over the rounds' starting shoes (published convention) -11.000%" in text
    assert "11.400% house edge (full shoe) for these rules" in text


# Rounds at 1 and 4 units: an insurance bet won (+1 unit, +4) and lost (-0.5, -2), a round
# without one, a round watched.
INSURANCE_ROUNDS = [{"count": 0, "bet": 1, "net": 0, "ins": 10, "flat": [0]},
                    {"count": 0, "bet": 1, "net": -15, "ins": -5, "flat": [-15]},
                    {"count": 3, "bet": 4, "net": 40, "ins": 40, "flat": [10]},
                    {"count": 3, "bet": 4, "net": -60, "ins": -20, "flat": [-15]},
                    {"count": -1, "bet": 1, "net": 10, "flat": [10]},
                    {"count": -2, "played": False, "flat": [10]}]


def test_the_insurance_result_has_its_se_and_interval_in_every_format():
    """The insurance result per unit of initial main bet was a bare figure ("no SE: the counting
    tally keeps no squares of it"). Its SE is the advantage's: the SD of each round played's
    insurance result at the counter's bet (``ins_sq``), times the square root of the rounds
    played, over the initial bets; here from the rounds themselves. Rounds at 1 and 4 units: an
    insurance bet won (+1 unit, +4) and lost (-0.5, -2), a round without one, a round watched;
    15 times, for 30 insurance bets won and 30 lost (fewer, and there is no interval: below)."""
    rounds = INSURANCE_ROUNDS * 15
    played = [r for r in rounds if r.get("played", True)]
    ins = [r.get("ins", 0) / U for r in played]
    bet = sum(r["bet"] for r in played)
    mean, se = sum(ins) / bet, statistics.stdev(ins) * math.sqrt(len(played)) / bet
    f = CR.figures(tally_of(rounds), load_plan("hi-lo-1-12"), Rules(),
                   strategy=load_strategy("basic"))
    z = statistics.NormalDist().inv_cdf(0.975)
    low, high = mean - z * se, mean + z * se
    assert f["insurance_per_initial_bet"] == pytest.approx(mean, rel=1e-12)
    assert f["insurance_per_initial_bet_se"] == pytest.approx(se, rel=1e-12)
    assert f["insurance_per_initial_bet_ci95_low"] == pytest.approx(low, rel=1e-9)
    assert f["insurance_per_initial_bet_ci95_high"] == pytest.approx(high, rel=1e-9)
    # the main + insurance advantage's SE is the same rule on the round's whole main net
    main = [r["net"] / U for r in played]
    assert f["advantage"]["initial_bet"]["se"] == pytest.approx(
        statistics.stdev(main) * math.sqrt(len(played)) / bet, rel=1e-12)

    def pct(x, sign="+"):
        return f"{100 * x:{sign}.3f}%"

    text = CR.render(f, "table")
    assert (f"Insurance result per unit of initial main bet: {pct(mean)}, SE {pct(se, '')}, 95% "
            f"interval {pct(low)} to {pct(high)} (in the main + insurance rows") in text
    line = next(ln for ln in text.splitlines() if ln.startswith("Insurance result"))
    assert "no squares" not in line and "no SE" not in line
    doc = json.loads(CR.render(f, "json"))["results"]
    assert doc["insurance_per_initial_bet_se"] == pytest.approx(se, rel=1e-12)
    assert doc["tally"]["ins_sq"] == sum(r.get("ins", 0) ** 2 for r in played)
    row = next(r for r in csv.DictReader(io.StringIO(CR.render(f, "csv")))
               if r["item"] == "insurance_per_initial_bet")
    assert row["section"] == "counter" and float(row["se"]) == pytest.approx(se, rel=1e-9)
    assert float(row["ci95_low"]) == pytest.approx(low, rel=1e-9)
    assert float(row["ci95_high"]) == pytest.approx(high, rel=1e-9)
    # No insurance bet in the rounds played (a counter that can insure): no SE, saying why.
    none = CR.figures(tally_of(ROUNDS), load_plan("hi-lo-1-12"), Rules(),
                      strategy=load_strategy("basic"))
    assert none["insurance_per_initial_bet"] == 0 and none["insurance_per_initial_bet_se"] is None
    assert ("Insurance result per unit of initial main bet: +0.000%, no SE (no insurance bet in "
            "the rounds played)") in CR.render(none, "table")


def test_too_few_insurance_bets_won_or_lost_give_no_insurance_interval_as_in_simulate():
    """count gave the insurance result a normal interval however few insurance bets the counter
    made: from fewer than 30 bets won or lost (`tally.MIN_WINS`) simulate withholds it, and so
    does count now, saying why in simulate's words (`tally.few_insurance_bets`), in text, json
    (null, and ``insurance_per_initial_bet_interval_note``) and csv (the note's row). 28 won and
    28 lost: none; 30 and 30: an interval. Several boxes: rounds of them, at the least."""
    from simulator.tally import MIN_WINS, TOO_FEW, few_insurance_bets

    assert MIN_WINS == 30
    plan = load_plan("hi-lo-1-12")
    ins = "insurance_per_initial_bet"
    for times, few in ((14, True), (15, False)):
        f = CR.figures(tally_of(INSURANCE_ROUNDS * times), plan, Rules(),
                       strategy=load_strategy("basic"))
        assert f["tally"]["ins_won"] == f["tally"]["ins_lost"] == 2 * times
        note = f"{TOO_FEW}: {2 * times} winning insurance bet(s), fewer than 30"
        text = CR.render(f, "table")
        doc = json.loads(CR.render(f, "json"))["results"]
        rows = {r["item"]: r for r in csv.DictReader(io.StringIO(CR.render(f, "csv")))
                if r["section"] == "counter"}
        if not few:
            assert f[ins + "_se"] is not None and f[ins + "_interval_note"] is None
            assert doc[ins + "_interval_note"] is None and rows[ins]["se"] != ""
            assert rows[ins + "_interval_note"]["value"] == ""
            continue
        assert note == f"{TOO_FEW}: {few_insurance_bets(28, 28, 1)}"
        assert f[ins] is not None and f[ins + "_interval_note"] == note
        assert [f[ins + k] for k in ("_se", "_ci95_low", "_ci95_high")] == [None] * 3
        assert (f"Insurance result per unit of initial main bet: {100 * f[ins]:+.3f}%, no SE "
                f"({note}) (in the main + insurance rows") in text
        assert doc[ins] == pytest.approx(f[ins]) and doc[ins + "_interval_note"] == note
        assert doc[ins + "_se"] is doc[ins + "_ci95_low"] is doc[ins + "_ci95_high"] is None
        assert rows[ins]["se"] == rows[ins]["ci95_low"] == rows[ins]["ci95_high"] == ""
        assert rows[ins + "_interval_note"]["value"] == note
    # Insurance bets lost the rarer: its count. Three boxes a round at most (a plan's boxes): 60
    # bets won are at least 20 rounds, too few; 90 are enough.
    t = tally_of([{"count": 0, "bet": 1, "net": -15, "ins": -5, "flat": [-15]}] * 29
                 + [{"count": 0, "bet": 1, "net": 10, "ins": 10, "flat": [10]}] * 40)
    assert CR.figures(t, plan, Rules())[ins + "_interval_note"] == (
        f"{TOO_FEW}: 29 losing insurance bet(s), fewer than 30")
    three = dataclasses.replace(plan, boxes=Ramp(1, ((2.0, 3),)))
    for won, note in ((60, f"{TOO_FEW}: 60 winning insurance bet(s), in at least 20 round(s) (the "
                       "boxes of a round settle insurance together), fewer than 30 rounds"),
                      (90, None)):
        rounds = [{"count": 3, "bet": 3, "boxes": 3, "net": 0, "ins": 30, "flat": [0] * 3},
                  {"count": 3, "bet": 3, "boxes": 3, "net": -15, "ins": -15, "flat": [-5] * 3}]
        t = tally_of(rounds[:1] * (won // 3) + rounds[1:] * 40)
        assert CR.figures(t, three, Rules())[ins + "_interval_note"] == note


def test_count_says_no_insurance_was_taken_and_no_super_sevens_bet_rather_than_zeros():
    """It printed "Insurance result per unit of initial main bet: +0.000%" for a counter that
    never insures, and "the counter bet it 0 units for a return of -." for Super Sevens."""
    bets = 2_000_000
    t = ss_tally(bets, -bets // 10, 30 * bets, -0.12)
    t[-L.TC_MIN][L.C_PLAYED] = t[-L.TC_MIN][L.C_BET] = bets
    never = CR.render(CR.figures(t, load_plan("hi-lo-flat"), Rules(),
                                 strategy=load_strategy("basic-super-sevens")), "table")
    assert "Insurance: no insurance taken" in never and "+0.000%" not in never.split(
        "Insurance")[1].splitlines()[0]
    assert "the counter never bet it." in never and "0 units for a return of -" not in never
    # hi-lo-1-12's index plays insure at +3: the insurance result is given
    insures = CR.figures(t, load_plan("hi-lo-1-12"), Rules(), strategy=load_strategy("basic"))
    assert insures["insures"] is True
    assert "Insurance result per unit of initial main bet: +0.000%" in CR.render(insures,
                                                                                 "table")


def test_a_count_seen_shows_a_frequency_above_zero():
    """A count seen in 1 round of 10 million showed "0.000%": it shows "<0.001%" (here 30
    rounds of 100 million, the fewest an end row holds alone)."""
    rounds = [{"count": 0, "bet": 1, "net": 10, "flat": [10]}]
    t = tally_of(rounds) * 100_000_000
    t += tally_of([{"count": 9, "bet": 1, "net": 10, "flat": [10]}]) * CR.MIN_SAMPLE
    text = CR.render(CR.figures(t, load_plan("hi-lo-flat"), Rules()), "table")
    row = next(ln for ln in text.splitlines() if ln.startswith("+9 "))
    assert "<0.001%" in row.split() and "0.000%" not in row.split()
    assert "100.000%" in next(ln for ln in text.splitlines() if ln.startswith("0 ")).split()


def test_a_count_seen_once_is_never_printed_as_zero_in_the_report():
    # a count seen once in 10^6 rounds: 0.0001%, printed as bjsim count prints it
    from simulator.assessment.sections import fmt

    assert fmt(1e-6, "freq") == "<0.001%" and fmt(0.0, "freq") == "0.000%"
    assert fmt(0.0123456, "freq") == "1.235%" and fmt(5e-6, "freq") == "0.001%"


def test_one_round_says_why_the_advantage_has_no_interval_and_equal_bets_gain_exactly_none():
    plan = load_plan("hi-lo-1-12")
    one = CR.figures(tally_of([{"count": 0, "bet": 1, "net": -10, "flat": [-10]}]), plan, Rules())
    for key in ("initial_bet", "total_bet"):
        assert one["advantage"][key]["se"] is None
        assert one["advantage"][key]["interval_note"] == "a standard error needs two rounds or more"
    assert "interval per unit of initial main bet: none (a standard error needs two rounds" in (
        CR.render(one, "table", {}))
    # (a last session's list: flat betting's own figure had a null SE and a null note)
    assert one["flat"]["se"] is None
    assert one["flat"]["interval_note"] == "a standard error needs two rounds or more"
    # a ramp plan whose rounds all came at one unit: the gain over flat is 0 exactly, not a
    # rounding residue printed as -0.000% (the sums as fractions; 30 and 33 rounds, for an SE)
    for nets in ([-20, -40, -20] * 10, [-80, 10, -10, 0, 10, -10, 0, -10, 10, 0, -75] * 3):
        f = CR.figures(tally_of([{"count": 0, "bet": 1, "net": x, "flat": [x]} for x in nets]),
                       plan, Rules())
        assert f["gain_over_flat"] == 0.0 and f["gain_over_flat_se"] == 0.0


def test_score_and_n0_are_not_applicable_without_an_edge_in_every_format():
    """SCORE read 0.0 (0.0 to 0.0) for a losing counter, as if a figure: it does not apply
    without an edge. Now null in json, empty in csv, n/a with a line saying why in the table,
    markdown and the sweep, as N0 (null) is; an interval reaching an edge keeps its bounds."""
    losing = [r | {"net": -abs(r["net"])} if "net" in r else r for r in MAIN_ROUNDS]
    f = CR.figures(tally_of(losing * 20), load_plan("hi-lo-1-12"), Rules())
    p = f["per_round_played"]
    assert p["mean"] < 0 and p["se"] is not None
    assert (p["score"], p["n0"]) == (None, None)
    assert (p["score_ci95_low"], p["score_ci95_high"]) == (None, None)  # no edge in it either
    assert p["no_edge_note"] == CR.NO_EDGE and f["per_round_watched"]["no_edge_note"]
    doc = json.loads(CR.render(f, "json"))["results"]["per_round_played"]
    assert doc["score"] is None and doc["no_edge_note"] == CR.NO_EDGE
    rows = {(r["section"], r["item"]): r for r in csv.DictReader(io.StringIO(
        CR.render(f, "csv")))}
    assert rows[("per_round_played", "score")]["value"] == ""
    assert rows[("per_round_played", "no_edge_note")]["value"] == CR.NO_EDGE
    line = f"SCORE and N0: n/a, {CR.NO_EDGE}."
    for fmt in ("table", "markdown"):
        text = CR.render(f, fmt)
        assert line in text and "0.0 (0.0 to 0.0)" not in text
        # SCORE and N0 n/a in every row: left out of the table, saying so (defect 4's rule)
        assert "SCORE (95%) and N0 (95%) (n/a: no edge, below)" in text
    sweep = CR.sweep_rows([(0.75, f)])
    assert sweep[0]["score"] is None and sweep[0]["no_edge_note"] == CR.NO_EDGE
    text = CR.render_sweep(sweep, "table", {"plan": {"name": "p"}})
    assert line in text and "0.0 (0.0 to 0.0)" not in text
    assert next(r for r in csv.DictReader(io.StringIO(CR.render_sweep(sweep, "csv")))
                if r["item"] == "score")["value"] == ""
    # a mean below 0 whose interval reaches an edge: n/a, with the bounds the edge gives
    near = CR._per_round(-1, 9 * U * U, 4, None)
    assert near["score"] is None and near["score_ci95_low"] == 0.0 < near["score_ci95_high"]
    assert CR._span(near["score"], near["score_ci95_low"], near["score_ci95_high"], 1,
                    none=CR.NOT_APPLICABLE).startswith("n/a (0.0 to ")
    with_edge = CR.figures(tally_of(MAIN_ROUNDS), load_plan("hi-lo-1-12"), Rules())
    assert with_edge["per_round_played"]["no_edge_note"] is None
    assert "n/a" not in CR.render(with_edge, "table")


def test_super_sevens_counts_with_few_bets_are_merged_into_the_tails():
    """The Super Sevens-by-count rows of 1-5 bets printed -100% from one bet, as if a figure:
    at each end a count with fewer than 30 bets is merged into the next one inward until the
    end row holds 30 (labelled <=, >= as the clamped rows are), in every format; the middle
    rows stay one a count; the sums are kept (no bet dropped)."""
    def bets(count, n, net):
        return [{"count": count, "bet": 1, "net": 0, "flat": [0], "ss_flat": [net],
                 "ss_exact": [-0.1]} for _ in range(n)]

    rounds = (bets(-13, 1, -1) + bets(-12, 5, -1) + bets(-11, 30, 3) + bets(0, 40, -1)
              + bets(1, 40, -1) + bets(9, 27, -1) + bets(11, 2, 500) + bets(12, 1, -1))
    f = CR.figures(tally_of(rounds), load_plan("hi-lo-1-12"), Rules())
    rows = f["super_sevens_by_count"]
    assert [(r["label"], r["bets"], r["counts"]) for r in rows] == [
        ("<=-11", 36, [-13, -11]), ("0", 40, [0, 0]), ("+1", 40, [1, 1]),
        (">=+9", 30, [9, 12])]
    assert rows[0]["return"] == pytest.approx((-6 + 90) / 36)
    assert rows[-1]["return"] == pytest.approx((-27 + 1000 - 1) / 30)
    assert sum(r["bets"] for r in rows) == f["super_sevens"]["flat"]["n"]
    for fmt in ("table", "markdown"):
        text = CR.render(f, fmt)
        text = text[text.index("Super Sevens by true count"):]  # (its table)
        assert CR.MERGED_TAILS in text and "<=-11" in text and ">=+9" in text
        assert "\n-13 " not in text and "| -13 |" not in text
    out = [r for r in csv.DictReader(io.StringIO(CR.render(f, "csv")))
           if r["section"] == "super_sevens_by_count" and r["item"] == "bets"]
    assert [(r["count_label"], r["value"]) for r in out] == [
        ("<=-11", "36"), ("0", "40"), ("+1", "40"), (">=+9", "30")]
    assert CR.tail_groups([0, 3, 40, 0, 40, 2]) == [[1, 2], [4, 5]]
    assert CR.tail_groups([0, 3, 4]) == [[1, 2]]
    unmerged = CR.figures(tally_of(ROUNDS), load_plan("hi-lo-1-12"), Rules())
    assert CR.MERGED_TAILS not in CR.render(unmerged, "table")


def _flat_rounds():
    """A flat 1-unit counter that plays every round dealt, at three counts, and never bets
    Super Sevens (every box's is dealt): tables with columns and rows that say nothing."""
    out = []
    for count, nets in ((-1, (10, -10, -10)), (0, (10, 20, -10, 0)), (2, (-10, 10, 15))):
        out += [{"count": count, "bet": 1, "net": n, "wagered": 10 * max(1, abs(n) // 10),
                 "flat": [n], "ss_flat": [-1], "ss_exact": [-0.1]} for n in nets * 12]
    return out


def test_columns_and_rows_that_say_nothing_are_left_out_saying_so():
    """Columns of one value at every count because the plan has no such feature (played 100%
    without wonging, the average bet of a flat bet, the counter's Super Sevens stakes of 0), a
    column repeating another (the counter's advantage and SE, the flat ones for a flat bet),
    rows repeating another (per round watched where every round is played, the flat row of a
    flat bet) and rows or columns of no value (with Super Sevens where none was bet, the risk
    of ruin without a bankroll): left out of the table and the markdown, a line saying which."""
    f = CR.figures(tally_of(_flat_rounds()), load_plan("hi-lo-flat"), Rules())
    for fmt in ("table", "markdown"):
        text = CR.render(f, fmt)
        lines = text.splitlines()
        assert not any(ln.lstrip("| ").startswith("per round watched") for ln in lines)
        assert not any(ln.lstrip("| ").startswith("flat 1 unit") for ln in lines)
        head = next(ln for ln in lines if "frequency" in ln and "rounds" in ln)
        for gone in ("played", "avg bet", "counter adv."):
            assert gone not in head, (fmt, gone)
        ss_head = [ln for ln in lines if ln.lstrip("| ").startswith("true count")][-1]
        round_head = next(ln for ln in lines if ln.lstrip("| ").startswith("net per round"))
        assert "units staked" not in ss_head and "risk of ruin" not in round_head
        assert ("Left out of the table: played (100.0% at every count); avg bet (1.00 at every "
                "count); counter adv. (the same as flat adv. at every count); counter adv. SE "
                "(the same as flat adv. SE at every count).") in text
        assert ("Left out of the table: flat 1 unit on every box dealt (the counter's play) (the "
                "same as per unit of initial main bet (main + insurance result)).") in text
        assert "per round watched (the same as per round played)" in text
        assert "risk of ruin (95%) (no bankroll given)" in text
        assert "counter's units staked (0 at every count)" in text
    # the json and csv keep every figure
    rows = list(csv.DictReader(io.StringIO(CR.render(f, "csv"))))
    assert {r["item"] for r in rows if r["section"] == "by_count"} >= {"played", "average_bet"}
    assert "per_round_watched" in {r["section"] for r in rows}
    # a plan with those features keeps the columns
    ramp = CR.render(CR.figures(tally_of(ROUNDS), load_plan("hi-lo-1-12"), Rules()), "table")
    assert "avg bet" in ramp and "counter adv." in ramp and "per round watched" in ramp


def test_left_out_keeps_what_one_row_can_agree_on_by_chance():
    head = ["count", "a", "b", "c"]
    assert CR.left_out(head, [["0", "1", "1", "-"]], "at every count", constant=True) == (
        [0, 1, 2], [0], [("c", "no value at any count")])
    cols, rows, notes = CR.left_out(head, [["0", "1", "1", "2"], ["1", "1", "1", "3"]],
                                    "at every count", constant=True)
    assert cols == [0, 3] and notes == [("a", "1 at every count"), ("b", "1 at every count")]
    cols, rows, notes = CR.left_out(head, [["0", "1", "1", "2"], ["1", "2", "2", "3"]],
                                    "at every count", constant=True)
    assert cols == [0, 1, 3] and notes == [("b", "the same as a at every count")]


@pytest.mark.parametrize("x, text", [(0.330, "33.0%"), (0.133, "13.3%"), (1.0, "100%"),
                                     (0.0000123, "0.00123%"), (0.0, "0%"),
                                     (1.23e-8, "0.00000123%"), (6.31e-85, "6.31e-83%")])
def test_a_risk_of_ruin_is_printed_as_a_percentage(x, text):
    # "risk of ruin (500 units) 0.330 | 0.133 | 0.823" beside columns of percents read as 0.33%.
    assert CR.ruin_pct(x) == text


def test_the_plan_is_told_in_plain_words():
    # "deck estimation half, index plays hi-lo-nz" was the plan file's keys, not words.
    p = CR.plan_dict(load_plan("hi-lo-1-12"))
    assert CR.plan_words(p, "true count") == (
        "count hi-lo (true count), the decks left estimated to the nearest half deck; index "
        "plays: the NZ Illustrious 18 (hi-lo-nz)")
    # KO's running count is never divided: it said "the decks left counted exactly (cards
    # left / 52)", the plan's default deck estimation, which it does not use
    ko = p | {"count": "ko", "count_name": "ko", "count_kind": "running count",
              "deck_estimation": "exact"}
    assert CR.plan_words(ko, "running count") == (
        "count ko (running count), the running count decides (an unbalanced count: no deck "
        "estimate); index plays: the NZ Illustrious 18 (hi-lo-nz)")


def test_left_out_rows_whose_labels_hold_and_are_named_apart():
    # "per unit of initial main bet and Super Sevens bet, Super Sevens included and with Super
    # Sevens (...)": two labels run together by " and ".
    text = CR.left_out_text([("per unit of initial main bet and Super Sevens bet", "no figures"),
                             ("per unit wagered on the main game and Super Sevens bet",
                              "no figures")])
    assert text == ('"per unit of initial main bet and Super Sevens bet" and "per unit wagered '
                    'on the main game and Super Sevens bet" (no figures)')
    # columns too (the report's Super Sevens variant table: it said "the rows" of columns)
    assert CR.left_out_text([("95% ±", "none"), ("95% CI low, pp", "none"),
                             ("95% CI high, pp", "none")]) == (
        '"95% ±", "95% CI low, pp" and "95% CI high, pp" (none)')
    assert CR.left_out_text([("SCORE", "n/a"), ("N0", "n/a")]) == "SCORE and N0 (n/a)"


def test_the_csv_gives_both_super_sevens_returns_the_same_kind_of_se_and_names_it():
    # 200,000 bets, too few for an interval: the overall row's se was the sample's (0.5% here)
    # while the by-count rows under it gave the exact one (2.2%); now the exact one in both
    # where it is exact at each count, and rows saying which is which.
    bets = 200_000
    t = ss_tally(bets, -bets // 4, 74 * bets, -0.11, exact_sq=525.0)
    f = CR.figures(t, load_plan("hi-lo-flat"), Rules(),
                   strategy=load_strategy("basic-super-sevens"))
    exact_se = math.sqrt((525 - 0.11**2) / bets)
    assert f["super_sevens"]["flat"]["ci95_low"] is None  # (the interval withheld)
    rows = list(csv.DictReader(io.StringIO(CR.render(f, "csv", {}))))
    ss = {r["item"]: r for r in rows if r["section"] == "super_sevens"}
    (by,) = [r for r in rows if (r["section"], r["item"]) == ("super_sevens_by_count", "return")]
    assert float(ss["flat_return"]["se"]) == pytest.approx(exact_se)
    assert float(by["se"]) == pytest.approx(exact_se)
    assert ss["flat_return_se_kind"]["value"] == ss["by_count_return_se_kind"]["value"] == "exact"
    # Hi-Lo with basic's 7-7 play: exact overall, the sample's by count; each named.
    g = CR.figures(ss_tally(bets, -bets // 4, 74 * bets, -0.11, exact_sq=525.0),
                   load_plan("hi-lo-flat"), Rules(), strategy=load_strategy("basic"))
    ss = {r["item"]: r["value"] for r in csv.DictReader(io.StringIO(CR.render(g, "csv", {})))
          if r["section"] == "super_sevens"}
    assert (ss["flat_return_se_kind"], ss["by_count_return_se_kind"]) == ("exact", "sample")


def test_the_clamped_end_rows_say_they_hold_every_count_beyond():
    # The rows of -30 or less and +30 or more gave counts [-30, -30] and [30, 30], as if of one
    # count; the bottom row's z note named line (b), the first of lines that all have no chance
    # where the counts go down to no sevens left.
    def bets(count, n):
        return [{"count": count, "bet": 1, "net": 0, "flat": [0], "ss_flat": [-1],
                 "ss_exact": [-0.1]} for _ in range(n)]

    f = CR.figures(tally_of(bets(-41, 20) + bets(-30, 20) + bets(0, 40) + bets(35, 40)),
                   load_plan("sevens-super-sevens"), Rules())
    for key in ("by_count", "super_sevens_by_count"):
        rows = json.loads(CR.render(f, "json"))["results"][key]
        assert [(r["label"], r["counts"]) for r in rows] == [
            ("<=-30", [None, -30]), ("0", [0, 0]), (">=+30", [30, None])], key
        assert not CR.merged_tails(f[key])  # (each end row is one bucket)
    low = f["super_sevens_by_count"][0]
    assert "line (" not in low["z_note"] and "no sevens left" in low["z_note"]
    assert CR.MERGED_TAILS not in CR.render(f, "table")


def test_the_sweep_legend_describes_the_columns_shown_and_the_7_7_play_of_ss_favourable():
    # It described a "with SS" column left out of the table, and its SS favourable share did
    # not say by which 7-7 play; with the side bet off that share read 0.00%, not none.
    dealt = [r | {"ss_flat": [-1], "ss_exact": [0.3], "ss_plus": 1} for r in MAIN_ROUNDS]
    f = CR.figures(tally_of(dealt), load_plan("hi-lo-1-12"), Rules(),
                   strategy=load_strategy("basic"))
    (row,) = CR.sweep_rows([(0.75, f)])
    assert row["super_sevens_exact_play"] == "the strategy's 7-7 play (split v 2-7, hit v 8-A)"
    for fmt in ("table", "markdown"):
        text = CR.render_sweep([row], fmt, META)
        assert ("with SS, with SS SE, with SS 95% interval, SS staked/round, SS staked/round SE, "
                "counter SS return (95%) and win/100 SS exact (95%) (no Super Sevens bet)" in text
                and "with SS:" not in text), fmt
        assert ("positive return, by the strategy's 7-7 play (split v 2-7, hit v 8-A)."
                in text), fmt
    # a review (a casino analyst): the sevens counter's own Super Sevens stake and return at
    # each penetration, what the house loses on the side bet there, were left out of the sweep
    bets = [r | {"ss_flat": [-1], "ss_bet": 2, "ss_net": 6} for r in MAIN_ROUNDS]
    g = CR.figures(tally_of(bets), load_plan("sevens-super-sevens"), Rules(),
                   strategy=load_strategy("basic"))
    (row,) = CR.sweep_rows([(0.75, g)])
    assert row["super_sevens_counter_bets"] == g["super_sevens"]["counter_bets"] > 0
    assert row["super_sevens_counter_return"] == g["super_sevens"]["counter_return"] == 3.0
    text = CR.render_sweep([row], "table", META)
    assert "SS staked/round  counter SS return" in text and "+300.000%" in text
    assert "counter SS return: its Super Sevens net over those units" in text
    # (a last read: why its interval is missing was said in json and csv only)
    note = row["super_sevens_counter_return_interval_note"]
    assert note and ("counter's SS return" in text and note in text), text
    off = CR.figures(tally_of(MAIN_ROUNDS), load_plan("hi-lo-1-12"), Rules(super_sevens=False),
                     strategy=load_strategy("basic"))
    assert off["super_sevens"]["favourable_share"] is None
    text = CR.render_sweep(CR.sweep_rows([(0.75, off)]), "table", META)
    assert ("SS favourable and SS favourable SE (no exact Super Sevens return" in text
            and "SS favourable:" not in text)


def test_a_head_says_95_percent_only_over_intervals():
    # With too few Super Sevens bets the intervals are withheld: "win/100 (95%)", "SCORE (95%)"
    # and "N0 (95%)" stood over bare figures.
    f = CR.figures(tally_of(ROUNDS), load_plan("sevens-super-sevens"), Rules())
    assert f["per_round_played"]["interval_note"] is not None
    (row,) = CR.sweep_rows([(0.75, f)])
    for fmt in ("table", "markdown"):
        for text in (CR.render(f, fmt), CR.render_sweep([row], fmt, META)):
            head = next(ln for ln in text.splitlines() if "win/100" in ln)
            for name in ("win/100", "SCORE", "N0"):
                assert name in head and f"{name} (95%" not in head, head
    with_ci = CR.figures(tally_of(MAIN_MANY), load_plan("hi-lo-1-12"), Rules())
    assert "win/100 (95%)" in CR.render(with_ci, "table")


def test_the_average_super_sevens_stake_is_beside_the_average_bet_in_every_format(fig):
    # json and csv gave it, the table and markdown did not: 2 units over 4 rounds played.
    assert fig["average_super_sevens_bet"] == pytest.approx(0.5)
    for fmt in ("table", "markdown"):
        assert "(1.00 boxes), and 0.500 units of Super Sevens;" in CR.render(fig, fmt), fmt
    row = next(r for r in csv.DictReader(io.StringIO(CR.render(fig, "csv")))
               if r["item"] == "average_super_sevens_bet")
    assert float(row["value"]) == 0.5
    none = CR.figures(tally_of(MAIN_ROUNDS), load_plan("hi-lo-1-12"), Rules())
    assert "units of Super Sevens" not in CR.render(none, "table")


def test_a_small_se_is_never_shown_as_0():
    # The average bet's and the share played's SEs, to 3 and 1 decimals, read "(SE 0.000)" and
    # "(SE 0.0%)" in long runs, as a figure the plan fixes reads (no SE): two significant
    # figures there, in the sentences and the sweep's table.
    assert CR._se_text("1.66 units", 0.000411, 3) == "1.66 units (SE 0.00041)"
    assert CR._se_text("37.0%", 0.00001, 1) == "37.0% (SE 0.0010%)"
    assert CR._se_text("1.66 units", 0.0123, 3) == "1.66 units (SE 0.012)"
    assert CR._se_text("37.0%", 0.0023, 1) == "37.0% (SE 0.2%)"
    assert CR._se_text("1.00 units", 0, 3) == "1.00 units"  # (fixed by the plan: no SE)
    assert CR._se_figure(0.00004, 3) == "0.000040" and CR._se_figure(None, 2, pct=True) == "-"


def _doc_row(doc: str, start: str) -> str:
    return next(ln for ln in doc.splitlines() if ln.startswith(start))


def _documented(note: str, row: str) -> bool:
    """Whether ``note`` is one of ``row``'s quoted notes: word for word, or one with ``...``
    (the rest of it) and its numbers the run's own."""
    import re

    for quoted in re.findall(r"`([^`]+)`", row):
        parts = re.split(r"(\.\.\.|\d[\d,]*(?:\.\d+)?)", quoted)
        pattern = "".join(".*" if p == "..." else r"[\d,.]+" if p[:1].isdigit() else re.escape(p)
                          for p in parts)
        if re.fullmatch(pattern, note):
            return True
    return False


def test_docs_list_every_interval_note_the_advantages_and_net_per_round_can_give():
    """docs/counting.md's json rows of the advantages and the net per round list every
    ``interval_note`` the code gives them: each fixed note (`INTERVAL_NOTES`) and each the runs
    below give (the docs left out `no chunk moments kept with this tally` and the whole net's)."""
    from pathlib import Path

    doc = (Path(__file__).parents[1] / "docs" / "counting.md").read_text()
    rows = {"advantage": _doc_row(doc, "| `advantage.initial_bet`"),
            "per_round": _doc_row(doc, "| `per_round_played`")}
    sevens, hi_lo = load_plan("sevens-super-sevens"), load_plan("hi-lo-1-12")
    pays3 = Rules().replace(super_sevens=True, super_sevens_pays=(3, 3, 3, 3, 3))
    tally = tally_of(FLAT_ROUNDS)
    total, moments = in_chunks(tally, 400)  # (800 bets at 3 to 1 on every line: 62 wins)
    short = moments.copy()
    short[batches.N_WHOLE] -= 1  # (the whole net's moments short of a chunk)
    four, four_moments = in_chunks(tally, 400, k=4)
    runs = [CR.figures(tally, sevens, Rules()),  # too few Super Sevens bets
            CR.figures(total, sevens, pays3),  # no moments
            CR.figures(four, sevens, pays3, moments=four_moments),  # too few chunks
            CR.figures(total, sevens, pays3, moments=short),
            CR.figures(tally_of(FLAT_ROUNDS[:1]), hi_lo, Rules()),  # one round, no bet
            CR.figures(tally_of(FLAT_ROUNDS[:1] * 2), hi_lo, Rules())]  # no spread
    given = {(k, a["interval_note"]) for f in runs for k, a in f["advantage"].items()
             if a["interval_note"]}
    given |= {(k, f[k]["interval_note"]) for f in runs
              for k in ("per_round_played", "per_round_watched") if f[k]["interval_note"]}
    notes = {n for _, n in given}
    assert set(CR.INTERVAL_NOTES) <= notes  # (every fixed note given by a run here)
    assert any(n.startswith("about ") for n in notes)
    assert any(n.startswith("no SE from fewer than 10 chunks") for n in notes)
    for k, note in given:
        row = rows["per_round" if k.startswith("per_round") else "advantage"]
        assert _documented(note, row), (k, note)
    for note in CR.INTERVAL_NOTES:
        assert any(_documented(note, row) for row in rows.values()), note
    assert _documented(CR.NO_CHUNK_MOMENTS, _doc_row(doc, "| `chunk_se_note`"))


@pytest.mark.parametrize("n", [2, 29, 30])
def test_fewer_than_30_rounds_give_no_se_or_interval_as_simulate(n):
    # `bjsim count --rounds 2` gave SE 1.0 and ± 1.96 intervals (the advantages, flat, the win
    # per 100 rounds, SCORE, N0, the gain over flat) where simulate withholds its house edge's
    # below 30 rounds (`tally.MIN_ROUNDS`: a normal interval covers too seldom there).
    withheld = n < 30
    note = f"too few rounds for a meaningful interval: {n} rounds, fewer than 30"
    # the rounds played, one at +3 (with a Super Sevens bet) in every two
    played = [ROUNDS[0], ROUNDS[4], ROUNDS[1], ROUNDS[5]]
    control = control_of([[x] for x in [10, -10, 0, -10, 15] * 6])  # (30 rounds: its SE)
    ss = CR.figures(tally_of((played * 8)[:n]), load_plan("hi-lo-1-12"), Rules(), control=control)
    main = [MAIN_ROUNDS[i] for i in (0, 4, 1, 5)]
    plain = CR.figures(tally_of((main * 8)[:n]), load_plan("hi-lo-1-12"), Rules(), bankroll=5,
                       control=control)
    # a ramp without index plays: the control's rounds are the flat figure's (the gain over it
    # the gain over flat, paired)
    ramp = dataclasses.replace(load_plan("hi-lo-flat"), bet=Ramp(1, ((1.0, 2), (3.0, 4))))
    rounds = ([RAMP_ROUNDS[i] for i in (0, 2, 1, 3, 4)] * 6)[:n]  # (an edge from 2 rounds)
    as_flat = CR.figures(tally_of(rounds), ramp, Rules(),
                         control=control_of([r["flat"] for r in rounds]))
    assert as_flat["gain_over_basic_se_kind"] == CR.AS_FLAT
    for f in (ss, plain, as_flat):
        assert f["rounds"] == f["rounds_played"] == n
        figs = [f["flat"], *(a for a in f["advantage"].values() if a["mean"] is not None)]
        assert len(figs) == (5 if f is ss else 3)
        for fig in figs:
            assert fig["mean"] is not None
            assert [fig[k] is None for k in ("se", "ci95_low", "ci95_high")] == [withheld] * 3
            assert fig["interval_note"] == (note if withheld else None)
        for key in ("per_round_played", "per_round_watched"):
            p = f[key]
            assert None not in (p["mean"], p["sd"], p["win_per_100"], p["score"], p["n0"])
            assert p["interval_note"] == (note if withheld else None)
            given = {k for k in p if k.endswith(("se", "_ci95_low", "_ci95_high"))
                     and p[k] is not None}
            ruin = {"risk_of_ruin_se", "risk_of_ruin_ci95_low", "risk_of_ruin_ci95_high"}
            # (N0's high end none: the mean's interval reaches no edge)
            assert given == set() if withheld else given == {
                "se", "win_per_100_se", "score_se", "n0_se", "win_per_100_ci95_low",
                "win_per_100_ci95_high", "score_ci95_low", "score_ci95_high", "n0_ci95_low",
                *(ruin if f is plain else ())}, (key, given)
        for over in ("flat", "basic"):
            assert f[f"gain_over_{over}"] is not None
            assert [f[f"gain_over_{over}{k}"] is None for k in ("_se", "_ci95_low", "_ci95_high")
                    ] == [withheld] * 3, over
        for fmt in ("table", "markdown"):
            text = CR.render(f, fmt)
            assert ("(95%, paired)" not in text) == withheld
            assert ("+0.000 pp (no interval: too few rounds)" in text
                    or " pp (no interval: too few rounds) of the initial bet" in text) == withheld
            figures = "SCORE or N0" if f is ss else "SCORE, N0 or the risk of ruin"  # (where
            # the risk of ruin is withheld, said apart)
            assert (f"No SE of the mean and no interval for the win per 100 rounds, {figures}: "
                    f"{note}." in text) == withheld, fmt
    assert plain["per_round_played"]["risk_of_ruin"] is not None
    assert ss["per_round_played"]["risk_of_ruin_note"] == CR.RUIN_WITHHELD


@pytest.mark.parametrize("n", [29, 30])
def test_a_flat_main_bet_is_the_same_bets_at_any_rounds(n):
    # `bjsim count --plan hi-lo-flat --rounds 29` said "Gain ...: +0.000% (no interval: too few
    # rounds)" where 30 rounds said "none (... the same rounds and bets)": the flat figure's SE,
    # withheld below 30 rounds, decided whether the bets were the same. The same bets are the
    # same at any number of rounds: the gains are none, of one kind, at 29 rounds as at 30.
    rounds = ([{"count": c, "bet": 1, "net": x, "flat": [x]}
               for c, x in ((0, 10), (1, -10), (0, 0), (-1, -10), (2, 15))] * 6)[:n]
    f = CR.figures(tally_of(rounds), load_plan("hi-lo-flat"), Rules(),
                   control=control_of([r["flat"] for r in rounds]))
    assert (f["flat"]["se"] is None) == (n < 30)
    assert (f["gain_over_flat"], f["gain_over_flat_se"], f["gain_over_flat_se_kind"]) == (
        0.0, 0.0, CR.SAME_BETS)
    assert (f["gain_over_basic"], f["gain_over_basic_se"], f["gain_over_basic_se_kind"]) == (
        0.0, 0.0, CR.SAME_ROUNDS)
    text = CR.render(f, "table")
    assert ("none (no index plays and a flat main bet: the same rounds and bets); over flat "
            "betting with the counter's play: none (a flat main bet: the same bets)") in text
    assert "no interval: too few rounds" not in text


@pytest.mark.parametrize("n", [29, 40])
def test_no_super_sevens_bet_by_the_counter_is_not_too_few_of_them(n):
    # `bjsim count --plan sevens-super-sevens --rounds 29`, whose counter never reached its +8,
    # gave "about 0.0 wins of line (e) expected in the counter's 0 Super Sevens bets" as the
    # reason for no interval, not the too few rounds, and at 30 rounds or more withheld the net
    # per round's SE though no Super Sevens pay was in the nets.
    rounds = ([{**r, "ss_flat": [-1]} for r in FLAT_ROUNDS[:2]] * 20)[:n]
    plan = load_plan("sevens-super-sevens")
    assert CR._few_counter_wins(0, plan, Rules(), CR.sevens_check(Rules(), plan=plan)) is None
    f = CR.figures(tally_of(rounds), plan, Rules())
    assert f["super_sevens"]["counter_bets"] == 0
    note = f"too few rounds for a meaningful interval: {n} rounds, fewer than 30"
    for key in ("per_round_played", "per_round_watched"):
        p = f[key]
        assert p["interval_note"] == (note if n < 30 else None)
        assert (p["se"] is None) == (n < 30)
    assert "the counter's 0 Super Sevens bets" not in CR.render(f, "table")


def test_the_figures_an_hour_are_those_per_round_watched_at_the_rounds_an_hour():
    """--rounds-per-hour: the win (and its SE and interval) the mean per round watched times the
    rounds an hour, the SD a round's times their square root, N0 in hours its rounds over them;
    none asked, none given."""
    t = tally_of(MAIN_MANY)
    plan = load_plan("hi-lo-1-12")
    assert CR.figures(t, plan, Rules())["per_hour"] is None
    f = CR.figures(t, plan, Rules(), rounds_per_hour=80)
    w, h = f["per_round_watched"], f["per_hour"]
    assert w["rounds"] > f["per_round_played"]["rounds"]  # (some rounds sat out: watched's)
    assert h["rounds_per_hour"] == 80
    assert h["win"] == pytest.approx(80 * w["mean"])
    assert h["win_se"] == pytest.approx(80 * w["se"])
    assert (h["win_ci95_low"], h["win_ci95_high"]) == (
        pytest.approx(80 * w["mean"] - Z95 * 80 * w["se"]),
        pytest.approx(80 * w["mean"] + Z95 * 80 * w["se"]))
    assert h["sd"] == pytest.approx(w["sd"] * math.sqrt(80))
    assert h["sd_note"] == w["sd_note"] is not None  # (the SD an hour has no SE, as a round's)
    for s in ("", "_se", "_ci95_low", "_ci95_high"):
        assert h["n0_hours" + s] == (None if w["n0" + s] is None else
                                     pytest.approx(w["n0" + s] / 80))
    text = CR.render(f, "table")
    assert "Per hour at 80 rounds dealt an hour: win " in text
    assert f"SD {h['sd']:,.2f} units" in text
    rows = [r for r in csv.DictReader(io.StringIO(CR.render(f, "csv")))
            if r["section"] == "per_hour"]
    win = next(r for r in rows if r["item"] == "win")
    assert float(win["value"]) == pytest.approx(h["win"]) and float(win["se"]) == pytest.approx(
        h["win_se"])
    assert json.loads(CR.render(f, "json"))["results"]["per_hour"]["rounds_per_hour"] == 80
    assert "Per hour" not in CR.render(CR.figures(t, plan, Rules()), "table")
    # N0 without an edge: n/a, with the interval where the mean's reaches one
    none = h | {"n0_hours": None, "no_edge_note": "x", "n0_hours_ci95_low": 1234.5,
                "n0_hours_ci95_high": None}
    assert "N0 n/a (no edge; 95% interval 1,234.5 to no bound): " in CR.per_hour_lines(none)[1]
    assert "N0 n/a (no edge): " in CR.per_hour_lines(none | {"n0_hours_ci95_low": None})[1]


@pytest.mark.parametrize("pays", [(3, 4, 4, 4, 13), (3, 50, 100, 500, 5000), (13, 13, 13, 13, 14),
                                  (3, 50, 50, 500, 500), (5, 7, 9, 11, 13), (3, 3, 3, 3, 4)])
def test_count_takes_the_rarest_pay_simulate_takes(pays):
    """One rule in every command: count had weighed the big pays from the lines paying more
    than 3 alone, simulate from every line (a rise from line (a)'s 3, not from -1), and with
    pays 3,4,4,4,13 count gave an interval simulate withheld (a last read of the day)."""
    from tests.test_tally import build_tally

    rules = Rules(super_sevens_pays=pays)
    rare = CR.rarest_line(rules)
    bets = 1000 if rare is None else math.ceil(30 / rare[1]) - 1  # (one bet short of 30 wins)
    t = build_tally([[(0, None, 5)]])
    t[L.T_ROUNDS] = t[L.T_BOX_ROUNDS] = t[L.T_SS_BETS] = t[L.T_SS_F] = bets
    note = summarize(t, rules)["super_sevens"]["interval_note"]
    if rare is None:  # (no big pay: neither withholds)
        assert note is None
    else:
        lines, _, pay = rare
        assert f"of {pay_words(lines, pay, CR.line_pays(rules))} expected in {bets:,} bets" in note
