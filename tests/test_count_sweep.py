"""The penetration sweep's Super Sevens figures, its partial runs and its csv, the counter's own
Super Sevens return's SE, and the risk of ruin's interval over too few rounds (a casino
analyst's review of ``bjsim count``)."""

import csv
import io
import json
import math
import re

import numpy as np
import pytest

from simulator import batches, counting, tally
from simulator import counting_report as CR
from simulator import layout as L
from simulator import run as run_mod
from simulator.assessment import render, sections
from simulator.plans import load_plan
from simulator.rules import Rules
from tests.test_chunk_se import chunk_tallies, direct_se
from tests.test_count_cli import fake_result, invoke
from tests.test_counting_report import FLAT_ROUNDS, MAIN_MANY, MAIN_ROUNDS, in_chunks, tally_of

SEVENS = load_plan("sevens-super-sevens")
NEED = math.ceil(30 / CR.rarest_line(Rules())[1])  # bets to expect 30 wins of line (e)


def ss_chunks(scale: int) -> list:
    """`chunk_tallies` times ``scale``, a Super Sevens bet dealt in every round."""
    parts = [p * scale for p in chunk_tallies(12)]
    for p in parts:
        p[:, L.C_SS_FLAT_BETS] = p[:, L.C_ROUNDS]
    return parts


def csv_rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_sweep_gives_the_advantage_with_super_sevens_its_se_and_interval_as_a_single_run():
    # The sweep's "with SS" was a bare number in every format, where a single run at that
    # penetration gave its SE and interval: now the same figures, withheld by the same rule.
    total, moments = in_chunks(tally_of(FLAT_ROUNDS), -(-NEED // 2))  # (ten chunks' moments:
    enough = CR.figures(total, SEVENS, Rules(), moments=moments)  # the plan's SS stake varies)
    single = enough["advantage"]["initial_bet_with_super_sevens"]
    assert single["se"] is not None and single["interval_note"] is None
    (row,) = CR.sweep_rows([(0.9, enough)])
    for k in ("se", "ci95_low", "ci95_high", "interval_note"):
        assert row[f"advantage_with_super_sevens_{k}"] == single[k], k
    text = CR.render_sweep([row], "table", {"plan": CR.plan_dict(SEVENS)})
    assert (f"{CR._pct(single['mean'])}  {CR._pct(single['se'], sign=False)}  "
            f"{CR._pct(single['ci95_low'])} to {CR._pct(single['ci95_high'])}") in text
    assert json.loads(CR.render_sweep([row], "json"))["sweep"][0][
        "advantage_with_super_sevens_ci95_high"] == single["ci95_high"]
    cell = next(r for r in csv_rows(CR.render_sweep([row], "csv"))
                if r["item"] == "advantage_with_super_sevens")
    assert (float(cell["se"]), float(cell["ci95_low"])) == (single["se"], single["ci95_low"])
    # Too few bets for line (e): withheld, and said for that column and penetration.
    few = CR.figures(tally_of(FLAT_ROUNDS) * ((NEED - 1) // 2), SEVENS, Rules())
    note = few["advantage"]["initial_bet_with_super_sevens"]["interval_note"]
    (row,) = CR.sweep_rows([(0.6, few)])
    assert row["advantage_with_super_sevens_se"] is None
    assert row["advantage_with_super_sevens_interval_note"] == note
    text = CR.render_sweep([row], "table", {"plan": CR.plan_dict(SEVENS)})
    assert "At penetration 0.60: no SE or interval for the advantage with SS" in text
    assert note in text and "with SS SE and with SS 95% interval (withheld" in text


def test_the_counters_super_sevens_return_has_a_batch_means_se_withheld_over_few_bets():
    # "the counter bet it N units for a return of +42.773%", bare in every format: now its SE by
    # batch means over the chunks (its stakes go with the count, which carries over in a shoe).
    parts = ss_chunks(1_000_000)  # (enough bets for line (e), at a count too)
    total = sum(p.astype(object) for p in parts)
    moments = sum(np.array(batches.chunk_moments(p), dtype=object) for p in parts)
    f = CR.figures(total, SEVENS, Rules(), moments=moments)
    ss = f["super_sevens"]
    want = direct_se([p[:, L.C_SS_NET].sum() for p in parts],
                     [p[:, L.C_SS_BET].sum() for p in parts])
    assert ss["counter_return"] == total[:, L.C_SS_NET].sum() / total[:, L.C_SS_BET].sum()
    assert ss["counter_return_se"] == pytest.approx(want, rel=1e-12)
    # Its interval Student's t over the 12 chunks (2.201 SEs each way), not normal: a review's
    # 300 seeds of 10 chunks held 92% within 1.96 SEs, as t with 9 degrees of freedom predicts.
    assert len(parts) == 12
    for end, sign in (("low", -1), ("high", 1)):
        assert ss[f"counter_return_ci95_{end}"] == pytest.approx(
            ss["counter_return"] + sign * 2.200985 * want, rel=1e-6)
    assert ss["counter_return_interval_note"] is None
    row = f["super_sevens_by_count"][-1]  # (its count above 0: a full shoe's chance of (e))
    group = [i for i in range(L.N_TC) if L.TC_MIN + i == row["count"]]
    assert row["counter_return_se"] == pytest.approx(direct_se(
        [p[group, L.C_SS_NET].sum() for p in parts],
        [p[group, L.C_SS_BET].sum() for p in parts]), rel=1e-12)
    assert row["counter_return_ci95_high"] - row["counter_return"] == pytest.approx(
        2.200985 * row["counter_return_se"], rel=1e-6)
    text = CR.render(f, "table")
    assert (f"for a return of {CR._pct(ss['counter_return'])} (SE "
            f"{CR._pct(ss['counter_return_se'], sign=False)} by batch means") in text
    doc = json.loads(CR.render(f, "json"))["results"]["super_sevens"]
    assert doc["counter_return_se"] == ss["counter_return_se"]
    cell = next(r for r in csv_rows(CR.render(f, "csv"))
                if (r["section"], r["item"]) == ("super_sevens", "counter_return"))
    assert float(cell["se"]) == ss["counter_return_se"]
    # Too few of the counter's bets to expect 30 wins of line (e): the rule of the other
    # Super Sevens intervals, in its words.
    small = ss_chunks(10)
    few = CR.figures(sum(p.astype(object) for p in small), SEVENS, Rules(), moments=sum(
        np.array(batches.chunk_moments(p), dtype=object) for p in small))
    fs = few["super_sevens"]
    assert fs["counter_return_se"] is None and fs["counter_return_ci95_low"] is None
    assert fs["counter_return_interval_note"] == few["advantage"][
        "initial_bet_with_super_sevens"]["interval_note"]
    assert f"(no SE or interval: {fs['counter_return_interval_note']})" in CR.render(few, "table")
    assert all(b["counter_return_se"] is None for b in few["super_sevens_by_count"])


@pytest.mark.parametrize("df, quantile", [(1, 12.7062), (2, 4.3027), (4, 2.7764), (9, 2.2622),
                                           (11, 2.2010), (19, 2.0930), (29, 2.0452),
                                           (120, 1.9799), (10**6, 1.9600)])
def test_t95_is_students_two_sided_95_percent_quantile(df, quantile):
    # (the values of any table of Student's t, e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2)
    assert tally.t95(df) == pytest.approx(quantile, abs=6e-5)


def test_a_checkpoints_moments_may_hold_negative_products_but_no_negative_square():
    # The counter's Super Sevens net can be below 0, so its products with the stakes can too.
    moments = sum(np.array(batches.chunk_moments(p), dtype=object) for p in chunk_tallies(3))
    assert batches.valid(moments)
    bad = list(moments)
    bad[batches.SQUARES[3]] = -1
    assert not batches.valid(bad)


@pytest.fixture
def cut_in_second(monkeypatch):
    """A fake engine: a sweep's second run (penetration 0.7) cut short by Ctrl-C, after half
    of the first run's rounds."""
    from tests.test_count_cli import install_fake_engine

    install_fake_engine(monkeypatch)

    def simulate(p, quiet=False):
        if p.args[0].penetration == 0.7:
            return fake_result(p, MAIN_ROUNDS[:3], partial=True)
        return fake_result(p, MAIN_ROUNDS)

    monkeypatch.setattr(run_mod, "simulate", simulate)


def test_a_partial_sweep_names_the_penetration_cut_short_in_every_format(cut_in_second):
    # The csv had one row and no `partial` anywhere, nor any run metadata; the table said "the
    # last one may be cut short" and had no rounds column; the time lines named no penetration.
    args = ["count", "--penetrations", "0.6,0.7,0.8", "--rounds", "6", "--chunk-rounds", "5000",
            "--seed", "7", "-q"]
    table = invoke(*args)
    assert table.exit_code == 130, table.output
    assert ("PARTIAL RESULT: interrupted at penetration 0.70 after 3 of 6 rounds; 0.80 not "
            "played; not reproducible as it stands") in table.stdout
    assert "6 rounds a penetration" in table.stdout
    head = next(ln for ln in table.stdout.splitlines() if ln.startswith("penetration"))
    assert head.split()[:2] == ["penetration", "rounds"]
    assert next(ln for ln in table.stdout.splitlines() if ln.startswith("0.70")).split()[1] == "3"
    assert "bjsim: penetration 0.6: done" in table.stderr
    assert "bjsim: penetration 0.7: done" in table.stderr
    out = invoke(*args, "-f", "csv")
    assert out.exit_code == 130
    rows = {(r["section"], r["item"]): r["value"] for r in csv_rows(out.stdout)}
    assert rows[("run", "partial")] == "true" and rows[("run", "cut_short")] == "0.7"
    assert rows[("run", "seed")] == "7" and rows[("run", "plan")] == "hi-lo-1-12"
    assert rows[("run", "penetrations")] == "0.6; 0.7; 0.8" and ("rules", "decks") in rows
    assert "run,partial,,true" in out.stdout
    assert [r["value"] for r in csv_rows(out.stdout) if r["item"] == "rounds"][:2] == ["6", "3"]
    doc = json.loads(invoke(*args, "-f", "json").stdout)
    assert doc["run"]["cut_short"] == 0.7 and doc["run"]["partial"] is True


def test_a_whole_sweeps_table_leaves_the_rounds_column_out_and_its_csv_says_not_partial():
    rows = CR.sweep_rows([(0.6, CR.figures(tally_of(MAIN_ROUNDS), load_plan("hi-lo-1-12"),
                                           Rules()))])
    meta = {"run": {"rounds": 4 + 2, "seed": 7, "partial": False}, "plan": {"name": "p"}}
    head = next(ln for ln in CR.render_sweep(rows, "table", meta).splitlines()
                if ln.startswith("penetration"))
    assert "rounds" not in head
    assert "run,partial,,false" in CR.render_sweep(rows, "csv", meta)
    # Ctrl-C between two runs: none cut short, each row whole.
    text = CR.render_sweep(rows, "table", meta | {"run": meta["run"] | {
        "partial": True, "penetrations": [0.6, 0.9], "cut_short": None}})
    assert ("PARTIAL RESULT: interrupted after 1 of 2 penetrations, each of those whole; 0.90 "
            "not played") in text


def test_the_reports_sweep_says_none_for_the_gain_of_a_flat_main_bet_as_count_does():
    # It showed "+0.000" and an SE of "0.000" in every row where bjsim count says none.
    f = CR.figures(tally_of(FLAT_ROUNDS) * 100, SEVENS, Rules())
    assert f["gain_over_flat_se_kind"] == CR.SAME_BETS
    data = {"strategy": "basic-super-sevens",
            "counting": {"plan": "sevens-super-sevens", "figures": f,
                         "sweep": CR.sweep_rows([(0.6, f), (0.9, f)])}}
    md = render.to_markdown("t", [sections.counting(data)])
    table = md.split("The counter's advantage by penetration")[1]
    row = next(ln for ln in table.splitlines() if ln.startswith("| 0.60"))
    # (the gain and its SE; the counter's Super Sevens return, a later column, may end so)
    assert "| none |" in row and "0.000" not in row.split("| none |")[1].split("|")[1]
    assert "+0.000" not in row
    assert f"Gain over flat: {CR.GAIN_NONE_WORDS}" in md
    assert "gain SE (paired), pp (the gain is none, as said above)" in md
    assert "none where the main bet is flat" in CR.render_sweep(
        data["counting"]["sweep"], "table")


def test_the_risk_of_ruin_has_no_interval_where_its_exponent_spans_more_than_a_factor_of_50():
    # 1,000 rounds of the Hi-Lo plan with 1,000 units showed "100% (0.0000000000498% to 100%)":
    # the exponent 2 m B / s^2 moved by 28 across the mean's interval. It may move by 2 x 1.96
    # (a factor of 50), as an interval with an edge in it does over 4 (B / s)^2 rounds.
    sd, bankroll, z = 3.4, 1000, 1.959963984540054

    def per_round(n, mean):  # (units; the sums in tenths)
        return CR._per_round(round(mean * n * L.UNIT), round(
            (sd**2 * (n - 1) / n + mean**2) * n * L.UNIT**2), n, bankroll)

    named = []
    withheld = [(1000, -0.0246), (1000, 0.01), (80_000, 0.01), (200_000, 0.01), (100_000, 0.03)]
    for n, mean in withheld + [(400_000, 0.01), (2_000_000, 0.01), (80_000, -0.0246),
                               (1000, -0.5)]:
        p = per_round(n, mean)
        low, high = p["mean"] - z * p["se"], p["mean"] + z * p["se"]
        spread = 2 * bankroll * (high - max(low, 0)) / p["sd"] ** 2
        given = spread <= 2 * z
        assert p["se"] is not None and p["risk_of_ruin"] is not None
        assert (p["risk_of_ruin_ci95_low"] is not None) == given, (n, mean)
        assert (p["risk_of_ruin_interval_note"] is None) == given, (n, mean)
        if given:
            assert p["risk_of_ruin_ci95_low"] == pytest.approx(
                counting.risk_of_ruin(high, p["sd"], bankroll))
        assert given == ((n, mean) not in withheld), (n, mean)
        if not given and low > 0:  # its note's rounds needed: more than played (had said
            # (B / s)^2, 86,506 here, where 200,000 played were 'too few': 4 times too few)
            need = re.search(r"4 x \(bankroll / SD\)\^2 = ([\d,]+) rounds: the ([\d,]+) played",
                             p["risk_of_ruin_interval_note"])
            assert int(need[1].replace(",", "")) > int(need[2].replace(",", "")) == n, need
            named.append(n)
    assert named == [100_000]
    assert per_round(1000, -0.5)["risk_of_ruin_ci95_low"] == 1.0  # (no edge in it: 100% to 100%)
    assert per_round(80_000, -0.0246)["risk_of_ruin_ci95_low"] == 1.0
    p = per_round(2_000_000, 0.01)
    assert 0 < p["risk_of_ruin_ci95_low"] < p["risk_of_ruin"] < p["risk_of_ruin_ci95_high"] < 1
    note = per_round(1000, -0.0246)["risk_of_ruin_interval_note"]
    assert note.startswith("across the mean's 95% interval the formula's exponent 2 x mean x "
                           "bankroll / SD^2 moves by ") and "the 1,000 played are too few" in note
    fig = CR.figures(tally_of(MAIN_MANY), load_plan("hi-lo-1-12"), Rules(), bankroll=1000)
    p = fig["per_round_played"]
    assert p["risk_of_ruin"] is not None and p["risk_of_ruin_ci95_low"] is None
    assert p["risk_of_ruin_se"] is None
    text = CR.render(fig, "table")
    assert f"No SE or interval for the risk of ruin: {p['risk_of_ruin_interval_note']}." in text
    sweep = CR.render_sweep(CR.sweep_rows([(0.9, fig)]), "table", {"plan": {"name": "p"}})
    assert ("At penetration 0.90: no SE or interval for the risk of ruin: across the mean's"
            in sweep)
    assert f"{CR.ruin_pct(p['risk_of_ruin'])} (" not in sweep
    # the report's counting section says so, and no longer, before it, that the risk of ruin
    # has an interval (a review: "SCORE, N0 and the risk of ruin have 95% intervals")
    from simulator.assessment import render, sections

    md = " ".join(render.to_markdown("t", [sections.counting({"strategy": "basic", "counting": {
        "plan": "hi-lo-1-12", "figures": fig}})]).split())
    assert "The risk of ruin has no SE or interval: across the mean's" in md
    assert "SCORE and N0 have 95% intervals, the mean's carried through each" in md
    assert "the risk of ruin have 95% intervals" not in md


def test_the_sweeps_flat_column_has_its_se_and_interval_in_every_format_as_a_single_run():
    # The sweep's flat column (the control: basic strategy at a flat bet) was a bare number in
    # every format, where a single run gave its SE and interval: now the single run's figures.
    f = CR.figures(tally_of(MAIN_ROUNDS) * 20, load_plan("hi-lo-1-12"), Rules())
    flat = f["flat"]
    assert flat["se"] and flat["ci95_low"] is not None
    (row,) = CR.sweep_rows([(0.6, f)])
    for k in ("se", "ci95_low", "ci95_high"):
        assert row[f"flat_advantage_{k}"] == flat[k], k
    assert json.loads(CR.render_sweep([row], "json"))["sweep"][0][
        "flat_advantage_se"] == flat["se"]
    cell = next(r for r in csv_rows(CR.render_sweep([row], "csv"))
                if r["item"] == "flat_advantage")
    assert (float(cell["se"]), float(cell["ci95_low"]), float(cell["ci95_high"])) == (
        flat["se"], flat["ci95_low"], flat["ci95_high"])
    want = (f"{CR._pct(flat['mean'])}  {CR._pct(flat['se'], sign=False)}  "
            f"{CR._pct(flat['ci95_low'])} to {CR._pct(flat['ci95_high'])}")
    assert want in CR.render_sweep([row], "table", {"plan": {"name": "p"}})
    md = CR.render_sweep([row], "markdown", {"plan": {"name": "p"}})
    assert want.replace("  ", " | ") in md
    assert "flat: 1 unit on every box dealt (the counter's play), its SE and 95% interval" in md


def test_the_sweep_says_every_penetration_plays_the_same_plan_and_where_the_exposure_is():
    # The sevens plan's +8 is tuned for 75%: the sweep plays it unchanged at every penetration,
    # which no format said; the side bet's own exposure is the favourable share.
    fig = CR.figures(tally_of(FLAT_ROUNDS), SEVENS, Rules())
    rows = CR.sweep_rows([(0.6, fig), (0.9, fig)])
    assert rows[0]["super_sevens_favourable_share"] is not None
    same = "Every penetration plays the same plan unchanged"
    for fmt in ("table", "markdown"):
        text = CR.render_sweep(rows, fmt, {"plan": CR.plan_dict(SEVENS)})
        assert same in text and "exposure at each penetration is SS favourable" in text
    note = json.loads(CR.render_sweep(rows, "json"))["sweep_note"]
    assert same in note and "super_sevens_favourable_share" in note
    bare = [r | {"super_sevens_favourable_share": None} for r in rows]
    assert "exposure" not in CR.render_sweep(bare, "table", {"plan": {"name": "p"}})


def test_the_sweeps_super_sevens_exposure_is_said_to_be_by_the_strategys_seven_seven_play():
    # count --penetrations 0.60,0.70,0.80,0.90: "SS favourable" (12.8% at 0.75) was "the Super
    # Sevens bet's own exposure ... whatever the plan bets"; it is by the strategy's 7-7 play
    # (basic splits 7-7 against 2-7): a player hitting every 7-7 faces 26.4%.
    args = ["count", "--penetrations", "0.6,0.75", "--rounds", "20000", "--chunk-rounds",
            "10000", "-q"]
    text = invoke(*args).stdout
    assert ("own exposure at each penetration is SS favourable, the share of rounds where it "
            "favours the player by the strategy's 7-7 play (split v 2-7, hit v 8-A), whatever "
            "the plan bets: it depends on that 7-7 play") in " ".join(text.split())
    assert ("for the published convention (a third card always dealt), which a strategy "
            "hitting every 7-7 plays, run the sweep with --strategy basic-super-sevens.") in \
        " ".join(text.split())
    doc = json.loads(invoke(*args, "-f", "json").stdout)
    assert "(split v 2-7, hit v 8-A)" in doc["sweep_note"]
    hit = " ".join(invoke(*args, "--strategy", "basic-super-sevens").stdout.split())
    assert "favours the player by the published convention (a third card always dealt), " \
        "whatever the plan bets" in hit
    assert "run the sweep with --strategy basic-super-sevens" not in hit


def test_the_risk_of_ruin_from_the_nets_says_how_many_rounds_its_interval_needs():
    # The nets' version quoted (bankroll / SD)^2 rounds, the diffusion formula's: 562,237 rounds
    # "needed" where 1,843,646 had been played (a review). R's spread falls as one over the
    # square root of the rounds: the rounds it needs are the played ones times its spread over
    # 2 x 1.96, squared, more than those played whenever the interval is withheld.
    from tests.test_counting import _nets

    pairs = [(-10, 5200), (10, 4700), (500, 95), (5000, 5)]
    withheld = []
    for scale, bankroll in ((1, 200), (10, 200), (100, 50)):
        nets = _nets([(x, k * scale) for x, k in pairs])
        n = int(nets.sum())
        net = sum(x * k * scale for x, k in pairs)  # tenths
        sq = sum(x * x * k * scale for x, k in pairs)
        p = CR._per_round(net, sq, n, bankroll, None, True, nets)
        assert p["risk_of_ruin_method"] == "net distribution" and p["risk_of_ruin"] is not None
        note = p["risk_of_ruin_interval_note"]
        withheld.append(note is not None)
        if note is None:
            continue
        need = int(re.search(r"moves by over about ([\d,]+) rounds", note)[1].replace(",", ""))
        assert "R x bankroll" in note and need > n, note
    assert withheld == [True, True, False]  # (10,000 and 100,000 rounds too few, a million not)


def test_the_sweeps_super_sevens_favourable_se_of_0_is_shown_as_none_as_the_other_ses():
    # pays 3,3,3,3,3: no round's shoe favours the bet, so the share is 0.00% in every chunk and
    # its SE 0; the sweep printed "SS favourable 0.00%  SE 0.000%" where docs/counting.md says an
    # SE of 0 is shown as none in the table and markdown (`_se_figure`, as the other SE columns).
    from tests.test_counting_report import MANY

    f = CR.figures(tally_of(MANY), load_plan("hi-lo-1-12"), Rules())
    rows = CR.sweep_rows([(0.7, f), (0.8, f)])
    for r in rows:
        r |= {"super_sevens_favourable_share": 0.0, "super_sevens_favourable_share_se": 0.0,
              "chunk_se_note": None, "chunks": 10}
    for fmt in ("table", "markdown"):
        text = CR.render_sweep(rows, fmt, {"plan": {"name": "s"}})
        assert not re.search(r"(?<![\d.])0\.000%", text), fmt
        assert ("SS favourable SE (SE 0: the same share in every chunk, no round favoured the "
                "bet)") in text, fmt
    # a small SE to two significant figures, as the other SE columns (not 0.000%)
    rows[0]["super_sevens_favourable_share_se"] = 2.5e-6
    cells = CR._sweep_cells(rows[0])
    assert cells[CR.SWEEP_NAMES.index("SS favourable SE")] == "0.00025%"


def test_a_sweep_of_too_few_rounds_says_so_for_its_empty_se_and_interval_columns():
    # `bjsim count --rounds 29 --penetrations 0.6,0.9` left the advantage's and the flat
    # figure's SE and 95% interval out "(no value in any row)", not saying why: too few rounds.
    def figs(n):
        rounds = [{"count": c, "bet": 1 + (c > 0), "net": x, "flat": [x]}
                  for c, x in ((0, 10), (1, -10), (0, 0), (-1, -10), (2, 15))] * 6
        return CR.figures(tally_of(rounds[:n]), load_plan("hi-lo-1-12"), Rules())

    note = "too few rounds for a meaningful interval: 29 rounds, fewer than 30"
    rows = CR.sweep_rows([(0.6, figs(29)), (0.9, figs(29))])
    assert {(r["interval_note"], r["flat_advantage_interval_note"]) for r in rows} == {
        (note, note)}
    mixed = CR.sweep_rows([(0.6, figs(29)), (0.9, figs(20))])
    for fmt in ("table", "markdown"):
        text = " ".join(CR.render_sweep(rows, fmt, {"plan": {"name": "s"}}).split())
        assert f"SE, 95% interval, flat SE and flat 95% interval ({note})" in text, fmt
        assert "(no value in any row)" not in text, fmt
        # rows of different rounds: the reason's first words
        text = " ".join(CR.render_sweep(mixed, fmt, {"plan": {"name": "s"}}).split())
        assert ("SE, 95% interval, flat SE and flat 95% interval (too few rounds for a "
                "meaningful interval)") in text, fmt
    # one round: its own note (a last read: "(no value in any row)" there too)
    one = CR.sweep_rows([(0.6, figs(1)), (0.9, figs(1))])
    assert (f"SE, 95% interval, flat SE and flat 95% interval ({CR.ONE_ROUND})" in " ".join(
        CR.render_sweep(one, "table", {"plan": {"name": "s"}}).split()))
    # the report's sweep says it too (a last read: "(no value in any row)")
    from simulator.assessment import render, sections

    f = figs(29)
    md = " ".join(render.to_markdown("t", [sections.counting({"strategy": "basic", "counting": {
        "plan": "hi-lo-1-12", "figures": f, "sweep": rows}})]).split())
    assert ("advantage SE, advantage 95% low, advantage 95% high, flat SE, flat 95% low and "
            f"flat 95% high ({note})") in md


def test_the_sweep_gives_the_advantages_change_from_its_first_penetration():
    # a casino manager's review: no figure said what moving the cut card from 0.75 to 0.85 is
    # worth to the counter with an SE; the runs share a seed but their deals part after the
    # first shoe (40 seeds: correlation +0.03), so the SEs add in quadrature
    import json
    import math

    from click.testing import CliRunner

    from simulator.cli import cli

    args = ["count", "--plan", "hi-lo-1-12", "--rounds", "20000", "--chunk-rounds", "10000",
            "--penetrations", "0.75,0.85,0.9", "-q"]
    doc = json.loads(CliRunner().invoke(cli, [*args, "-f", "json"]).stdout)
    first, *rest = doc["sweep"]
    assert "advantage_change" not in first
    for r in rest:
        assert r["advantage_change"] == pytest.approx(r["advantage"] - first["advantage"])
        assert r["advantage_change_se"] == pytest.approx(math.hypot(r["se"], first["se"]))
        assert r["advantage_change_from"] == 0.75
    text = CliRunner().invoke(cli, args).stdout
    (line,) = [ln for ln in text.splitlines() if ln.startswith("Change of the advantage")]
    r = rest[0]
    assert (f"0.85 {100 * r['advantage_change']:+.3f} pp ± "
            f"{100 * 1.959964 * r['advantage_change_se']:.3f} pp") in line
    assert "the runs taken as independent" in line
    csv_text = CliRunner().invoke(cli, [*args, "-f", "csv"]).stdout
    assert "sweep,advantage_change,0.85," in csv_text


def test_the_change_is_from_the_first_penetration_the_counter_played(tmp_path):
    # a diff read: a wonging plan that never played at the first penetration had no change line
    # at all, though the later two had advantages and SEs
    import json

    from click.testing import CliRunner

    from simulator.cli import cli

    plan = tmp_path / "wong.toml"
    plan.write_text('name = "wong-high"\ncount = "hi-lo"\ndeck_estimation = "half"\n'
                    "table_min = 1\ntable_max = 12\n[bet]\nbase = 1\n[wong]\nenter = 9\n"
                    "leave = 8\n")
    args = ["count", "--plan", str(plan), "--penetrations", "0.5,0.9,0.95", "--rounds", "3000",
            "--chunk-rounds", "3000", "-q"]
    doc = json.loads(CliRunner().invoke(cli, [*args, "-f", "json"]).stdout)
    low, mid, high = doc["sweep"]
    assert low["advantage"] is None and mid["advantage"] is not None
    assert "advantage_change" not in mid and high["advantage_change_from"] == 0.9
    text = CliRunner().invoke(cli, args).stdout
    assert ("Change of the advantage (main + insurance, per unit of initial main bet) from "
            "penetration 0.90 (the first where the counter "
            "played): 0.95 ") in text
