"""SEs by batch means over a counter's chunks (simulator.batches): the share of rounds played,
the average bet, the boxes per round played (overall and by count), the share of rounds
favourable to Super Sevens and the counter's Super Sevens units a round played and dealt,
against the spread of independent runs and in every format."""

from __future__ import annotations

import csv
import io
import json
import math
import re

import numpy as np
import pytest
from click.testing import CliRunner

from simulator import batches, counting, run
from simulator import counting_report as CR
from simulator import layout as L
from simulator.cli import cli
from simulator.plans import plan_from_dict
from simulator.rules import Rules
from simulator.strategy import load_strategy

# Hi-Lo in at +1 and out below -1, bets 1 to 8 and 1 to 3 boxes, a box step at +2.5 so that the
# boxes at +2 vary within the row: every figure with a batch-means SE varies between runs.
WONG = {
    "name": "wong-boxes",
    "count": "hi-lo",
    "deck_estimation": "half",
    "table_max": 12,
    "bet": {"base": 1, "steps": [[2, 2], [3, 4], [4.5, 8]]},
    "boxes": {"base": 1, "steps": [[2.5, 2], [4, 3]]},
    "wong": {"enter": 1, "leave": -1},
}
WONG_TOML = (
    'name = "wong-boxes"\ncount = "hi-lo"\ndeck_estimation = "half"\ntable_max = 12\n'
    "[bet]\nbase = 1\nsteps = [[2, 2], [3, 4], [4.5, 8]]\n[boxes]\nbase = 1\n"
    "steps = [[2.5, 2], [4, 3]]\n[wong]\nenter = 1\nleave = -1\n"
)


def played(plan, rounds: int, chunk_rounds: int, seed: int):
    """The figures of one seeded run of ``plan`` on the NZ rules with three boxes."""
    rules, s = Rules().replace(boxes=3), load_strategy("basic")
    res = run.simulate(
        run.Plan(
            rules,
            (s,) * 3,
            ("basic",) * 3,
            rounds=rounds,
            seed=seed,
            chunk_rounds=chunk_rounds,
            workers=2,
            counting=plan,
        ),
        quiet=True,
    )
    return CR.figures(res.counting, plan, rules, strategy=s, moments=res.moments)


def test_the_batch_mean_ses_match_the_spread_of_independent_runs():
    """40 runs of 20,000 rounds in 20 chunks, seeds 0-39: for each figure, the SD over the runs
    against the root mean square of the SEs the runs report. With 40 runs the SD's own relative
    error is 1 / sqrt(2 x 39) = 0.11, so the ratio is held to 0.62-1.38 (3.4 of those); 400
    seeds gave 0.92-1.04 (docs/counting.md). The rounds of a shoe are correlated: a binomial
    SE of the share played, rounds taken as independent, is less than a third of the spread.
    The plan stakes Super Sevens by the count too (1 unit, 2 from +2: it changes no card), so
    that its units staked per round played and dealt vary with the wonging, boxes and count."""
    plan = plan_from_dict({**WONG, "super_sevens": {"base": 1, "steps": [[2, 2]]}})
    figs = [played(plan, 20_000, 1_000, seed) for seed in range(40)]

    def at_plus_2(f):
        return next(b for b in f["by_count"] if b["label"] == "+2")

    got = {
        "played": [(f["played_share"], f["played_share_se"]) for f in figs],
        "average bet": [(f["average_bet"], f["average_bet_se"]) for f in figs],
        "boxes": [(f["boxes_per_round_played"], f["boxes_per_round_played_se"]) for f in figs],
        "favourable": [
            (f["super_sevens"]["favourable_share"], f["super_sevens"]["favourable_share_se"])
            for f in figs
        ],
        "SS units a round played": [
            (f["average_super_sevens_bet"], f["average_super_sevens_bet_se"]) for f in figs
        ],
        "SS units a round dealt": [
            (f["super_sevens"]["counter_bets_per_round"],
             f["super_sevens"]["counter_bets_per_round_se"]) for f in figs
        ],
        "boxes at +2": [
            (at_plus_2(f)["boxes_per_round_played"], at_plus_2(f)["boxes_per_round_played_se"])
            for f in figs
        ],
    }
    assert {f["chunks"] for f in figs} == {20} and not any(f["chunk_se_note"] for f in figs)
    for name, pairs in got.items():
        values, ses = zip(*pairs, strict=True)
        ratio = np.std(values, ddof=1) / math.sqrt(np.mean(np.square(ses)))
        assert 0.62 < ratio < 1.38, (name, ratio)
    share = np.array([f["played_share"] for f in figs])
    binomial = math.sqrt(share.mean() * (1 - share.mean()) / 20_000)
    assert np.std(share, ddof=1) > 3 * binomial


def chunk_tallies(k: int, seed: int = 5) -> list[np.ndarray]:
    """``k`` random counting tallies (rounds, played, boxes, bets, favourable rounds by count),
    as chunks give."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(k):
        t = np.zeros((L.N_TC, L.N_COUNT), dtype=np.int64)
        rows = rng.integers(20, 40, size=8)
        for i in rows:
            n = int(rng.integers(1, 50))
            p = int(rng.integers(0, n + 1))
            t[i, L.C_ROUNDS] += n
            t[i, L.C_PLAYED] += p
            t[i, L.C_BOXES] += p + int(rng.integers(0, p + 1))
            t[i, L.C_BET] += p * int(rng.integers(1, 9))
            t[i, L.C_SS_PLUS] += int(rng.integers(0, n + 1))
            ss = p * int(rng.integers(0, 3))  # (the counter's Super Sevens units, and net)
            t[i, L.C_SS_BET] += ss
            t[i, L.C_SS_NET] += int(rng.integers(-ss, 3 * ss + 1))
            t[i, L.C_SS_EXACT_BET] += ss * int(rng.integers(-400_000, 900_000))  # (x 1e6)
        out.append(t)
    return out


def direct_se(ys, xs) -> float:
    """The ratio's delta-method SE over chunks, from the chunks' own sums."""
    ys, xs = np.array(ys, float), np.array(xs, float)
    r = ys.sum() / xs.sum()
    return math.sqrt(((ys - r * xs) ** 2).sum() * len(xs) / (len(xs) - 1)) / xs.sum()


def test_the_summed_moments_give_the_ratio_se_of_the_chunks_own_sums():
    """The moments summed over chunks give what the chunks' sums give, for every ratio, and
    for the boxes of one count, of a low end merged, of a high end merged and of every count."""
    parts = chunk_tallies(12)
    total = sum(p.astype(object) for p in parts)
    moments = sum(np.array(batches.chunk_moments(p), dtype=object) for p in parts)
    assert batches.chunks_of(moments) == 12 and len(moments) == batches.N_MOMENTS
    for name, num, den in batches.RATIOS:
        want = direct_se([p[:, num].sum() for p in parts], [p[:, den].sum() for p in parts])
        assert batches.run_se(moments, total, name) == pytest.approx(want, rel=1e-12), name
    seen = [i for i in range(L.N_TC) if total[i, L.C_ROUNDS]]
    for group in ([seen[3]], seen[:4], seen[-5:], seen):
        want = direct_se(
            [p[group, L.C_BOXES].sum() for p in parts], [p[group, L.C_PLAYED].sum() for p in parts]
        )
        assert batches.boxes_se(moments, total, group) == pytest.approx(want, rel=1e-12), group
    few = sum(np.array(batches.chunk_moments(p), dtype=object) for p in parts[:9])
    assert batches.run_se(few, sum(p.astype(object) for p in parts[:9]), "average_bet") is None


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


TINY = ["--boxes", "3", "--rounds", "20000", "--seed", "3", "-q"]


@pytest.fixture
def wong_plan(tmp_path):
    path = tmp_path / "wong.toml"
    path.write_text(WONG_TOML)
    return path


def test_every_format_gives_the_batch_mean_ses(wong_plan):
    args = ["count", "--plan", wong_plan, *TINY, "--chunk-rounds", "1000"]
    out = invoke(*args, "-f", "json")
    assert out.exit_code == 0, out.output
    r = json.loads(out.stdout)["results"]
    assert r["chunks"] == 20 and r["chunk_se_note"] is None
    for key in ("played_share_se", "average_bet_se", "boxes_per_round_played_se"):
        assert r[key] > 0, key
    assert r["super_sevens"]["favourable_share_se"] > 0
    plus2 = next(b for b in r["by_count"] if b["label"] == "+2")
    assert plus2["boxes_per_round_played_se"] > 0
    rows = list(csv.DictReader(io.StringIO(invoke(*args, "-f", "csv").stdout)))

    def cell(section, item, label=None):
        return next(
            x
            for x in rows
            if (x["section"], x["item"]) == (section, item)
            and (label is None or x["count_label"] == label)
        )

    assert float(cell("counter", "played_share")["se"]) == pytest.approx(r["played_share_se"])
    assert float(cell("counter", "average_bet")["se"]) == pytest.approx(r["average_bet_se"])
    assert float(cell("super_sevens", "favourable_share")["se"]) == pytest.approx(
        r["super_sevens"]["favourable_share_se"]
    )
    assert float(cell("by_count", "boxes_per_round_played", "+2")["se"]) == pytest.approx(
        plus2["boxes_per_round_played_se"]
    )
    assert cell("counter", "chunks")["value"] == "20"
    for fmt in ("table", "markdown"):
        text = invoke(*args, "-f", fmt).stdout
        assert (
            f"Rounds played {100 * r['played_share']:.1f}% (SE "
            f"{100 * r['played_share_se']:.1f}%)" in text
        )
        assert f"(SE {r['average_bet_se']:.3f})" in text
        assert f"boxes, SE {CR.sig3(r['boxes_per_round_played_se'])})" in text
        assert f"(SE {100 * r['super_sevens']['favourable_share_se']:.2f}%) of rounds" in text
        assert "by batch means over the run's chunks" in text and "(20 chunks)" in text
        by_count = text.split("By true count")[1].split("Super Sevens by")[0]
        assert CR.sig3(plus2["boxes_per_round_played_se"]) in by_count
    sweep = args + ["--penetrations", "0.6,0.9"]
    rows = json.loads(invoke(*sweep, "-f", "json").stdout)["sweep"]
    for row in rows:
        assert row["chunks"] == 20 and row["chunk_se_note"] is None
        assert row["played_share_se"] > 0 and row["average_bet_se"] > 0
        assert row["super_sevens_favourable_share_se"] > 0
    swept = [x for x in csv.DictReader(io.StringIO(invoke(*sweep, "-f", "csv").stdout))
             if x["item"] == "played_share"]
    assert [float(x["se"]) for x in swept] == pytest.approx(
        [x["played_share_se"] for x in rows]
    )
    for fmt in ("table", "markdown"):
        text = invoke(*sweep, "-f", fmt).stdout
        head = next(ln for ln in text.splitlines() if "penetration" in ln and "played" in ln)
        assert head.count("SE") == 5, head  # the advantage, flat, played, avg bet, SS favourable
        for row in rows:
            assert f"{100 * row['played_share_se']:.2f}%" in text
            assert f"{row['average_bet_se']:.3f}" in text
            assert f"{100 * row['super_sevens_favourable_share_se']:.3f}%" in text
        assert (
            "SE of played, avg bet and SS favourable: by batch means over the run's chunks"
        ) in text and "(over 20 chunks a penetration)" in text


def test_fewer_than_ten_chunks_give_no_batch_mean_se_and_say_why(wong_plan):
    args = ["count", "--plan", wong_plan, *TINY, "--chunk-rounds", "5000"]
    r = json.loads(invoke(*args, "-f", "json").stdout)["results"]
    assert r["chunks"] == 4 and r["chunk_se_note"].startswith(
        "no SE from fewer than 10 chunks (the run has 4)"
    )
    assert r["played_share_se"] is r["average_bet_se"] is r["boxes_per_round_played_se"] is None
    assert r["super_sevens"]["favourable_share_se"] is None
    assert all(b["boxes_per_round_played_se"] is None for b in r["by_count"])
    rows = list(csv.DictReader(io.StringIO(invoke(*args, "-f", "csv").stdout)))
    note = next(x for x in rows if x["item"] == "chunk_se_note")
    assert note["value"] == r["chunk_se_note"]
    text = invoke(*args).stdout
    assert f"{r['chunk_se_note']}." in text and "(SE " not in text
    assert f"boxes SE ({r['chunk_se_note']})" in text
    sweep = invoke(*args, "--penetrations", "0.6,0.9").stdout
    # (the SS favourable share is given, so its SE is none for the same reason)
    assert f"played SE, avg bet SE and SS favourable SE ({r['chunk_se_note']})" in sweep


def test_a_checkpoint_without_the_chunk_moments_is_refused_in_one_line(tmp_path):
    """A checkpoint written before the chunks' moments were kept holds payloads without them:
    resumed, its SEs would be of some chunks only. It is refused, naming what is missing."""
    from simulator import checkpoint

    path = tmp_path / "run.ckpt"
    args = [
        "count",
        "--plan",
        "hi-lo-flat",
        "--rounds",
        "2000",
        "--chunk-rounds",
        "1000",
        "--seed",
        "1",
        "-q",
        "--checkpoint",
        path,
    ]
    assert invoke(*args).exit_code == 0
    doc = json.loads(path.read_text())
    del doc["identity"]["payload"]
    doc["sha256"] = checkpoint.checksum(doc)
    path.write_text(json.dumps(doc))
    out = invoke("count", "--resume", path, "-q")
    assert out.exit_code != 0 and out.output.count("\n") == 1, out.output
    assert "payload is not recorded there (a checkpoint of an earlier bjsim)" in out.output


def test_the_report_gives_the_favourable_shares_se_in_its_text_and_sweep():
    from simulator.assessment import render, sections

    f = played(plan_from_dict(WONG), 20_000, 1_000, 3)
    se = f["super_sevens"]["favourable_share_se"]
    sec = sections.counting({"strategy": "basic", "counting": {
        "plan": "wong-boxes", "figures": f, "sweep": CR.sweep_rows([(0.75, f)])}})  # fmt: skip
    md = render.to_markdown("t", [sec])
    assert (f"(SE {100 * se:.2f}%, by batch means over the run's 20 chunks: rounds of a shoe "
            "are correlated)") in md  # fmt: skip
    head = next(ln for ln in md.splitlines() if ln.startswith("| penetration"))
    assert "| Super Sevens favourable | Super Sevens favourable SE |" in head
    assert f"{100 * se:.3f}%" in md.split(head)[1]


def whole_tallies(k: int, seed: int = 7) -> list[np.ndarray]:
    """`chunk_tallies` with a main net, total wagered and round second moment in each row, as a
    counter's chunks give them (tenths)."""
    rng = np.random.default_rng(seed)
    parts = chunk_tallies(k, seed)
    for t in parts:
        for i in np.nonzero(t[:, L.C_ROUNDS])[0]:
            bet = int(t[i, L.C_BET])
            t[i, L.C_NET] = int(rng.integers(-L.UNIT * bet, L.UNIT * bet + 1))
            t[i, L.C_WAGERED] = L.UNIT * bet + int(rng.integers(0, L.UNIT * bet + 1))
            t[i, L.C_ROUND_SQ] = 400 * L.UNIT * L.UNIT * (bet + int(t[i, L.C_SS_BET]) + 1)
    return parts


def summed_moments(parts):
    return sum(np.array(batches.chunk_moments(p), dtype=object) for p in parts)


def test_the_figures_with_super_sevens_have_the_batch_mean_se_of_the_chunks_own_sums():
    """The whole-net moments give each figure with Super Sevens the delta-method SE of the
    chunks' own sums (the round's whole net, tenths, over the stakes it is a return on)."""
    parts = whole_tallies(12)
    total = sum(p.astype(object) for p in parts)
    moments = summed_moments(parts)
    assert len(moments) == batches.N_MOMENTS and batches.valid(moments)
    assert batches.whole_chunks(moments) == batches.chunks_of(moments) == 12

    def col(field):
        return [int(p[:, field].sum()) for p in parts]

    whole = [n + L.UNIT * s for n, s in zip(col(L.C_NET), col(L.C_SS_NET), strict=True)]
    u = L.UNIT
    stakes = {
        "initial_bet_with_super_sevens": [u * (b + s) for b, s in
                                          zip(col(L.C_BET), col(L.C_SS_BET), strict=True)],
        "total_bet_with_super_sevens": [w + u * s for w, s in
                                        zip(col(L.C_WAGERED), col(L.C_SS_BET), strict=True)],
        "per_round_played": [u * p for p in col(L.C_PLAYED)],
        "per_round_watched": [u * n for n in col(L.C_ROUNDS)],
    }
    for name, xs in stakes.items():
        want = direct_se(whole, xs)
        assert batches.whole_se(moments, total, name) == pytest.approx(want, rel=1e-12), name
    # the net with the Super Sevens bets by their shoes' exact return (x 1e6), a round played
    exact = [n * 10**6 + u * x for n, x in zip(col(L.C_NET), col(L.C_SS_EXACT_BET), strict=True)]
    want = direct_se(exact, [u * 10**6 * p for p in col(L.C_PLAYED)])
    assert batches.whole_se(moments, total, "per_round_played_exact") == pytest.approx(
        want, rel=1e-12)
    # whole-net moments of some chunks only: none; and no checkpoint may hold such (a last
    # read: a damaged one was taken, its SEs then silently none)
    short = moments.copy()
    short[batches.N_WHOLE] -= 1
    assert batches.whole_se(short, total, "per_round_played") is None
    assert batches.valid(moments) and not batches.valid(short)
    assert batches.whole_se(summed_moments(parts[:9]), sum(p.astype(object) for p in parts[:9]),
                            "per_round_played") is None


PAYS_3 = Rules().replace(super_sevens=True, super_sevens_pays=(3, 3, 3, 3, 3))  # (no rare line)


def test_a_plan_betting_super_sevens_by_the_count_gives_those_figures_batch_mean_ses():
    """The sevens plan: the advantages with Super Sevens and the net per round take the SE by
    batch means and a Student's t interval over chunks - 1 degrees of freedom, and the win per
    100 rounds, SCORE, N0 and the risk of ruin follow from it."""
    from simulator.plans import load_plan
    from simulator.tally import t95

    plan = load_plan("sevens-super-sevens")
    parts = whole_tallies(12)
    total = sum(p.astype(object) for p in parts)
    moments = summed_moments(parts)
    assert CR.ss_stake_varies(plan)
    f = CR.figures(total, plan, PAYS_3, bankroll=1000, moments=moments)
    q = t95(11)
    for name in ("initial_bet_with_super_sevens", "total_bet_with_super_sevens"):
        a = f["advantage"][name]
        assert a["se_kind"] == CR.BATCH_SE and a["interval_note"] is None
        assert a["se"] == pytest.approx(batches.whole_se(moments, total, name), rel=1e-12)
        assert (a["ci95_low"], a["ci95_high"]) == pytest.approx(
            (a["mean"] - q * a["se"], a["mean"] + q * a["se"]), rel=1e-12)
    for name in ("per_round_played", "per_round_watched"):
        p = f[name]
        se = batches.whole_se(moments, total, name)
        assert p["se_kind"] == CR.BATCH_SE and p["se"] == pytest.approx(se, rel=1e-12)
        assert p["se"] != pytest.approx(p["sd"] / math.sqrt(p["rounds"]), rel=1e-3)
        assert p["win_per_100_se"] == pytest.approx(100 * se, rel=1e-12)
        assert (p["win_per_100_ci95_low"], p["win_per_100_ci95_high"]) == pytest.approx(
            (100 * (p["mean"] - q * se), 100 * (p["mean"] + q * se)), rel=1e-12)
        low, high = p["mean"] - q * se, p["mean"] + q * se
        if p["score_ci95_high"] is not None:
            assert p["score_ci95_high"] == pytest.approx(counting.score(high, p["sd"]))
        if p["n0_ci95_low"] is not None:
            assert p["n0_ci95_low"] == pytest.approx(counting.n0(high, p["sd"]))
        assert low < p["mean"] < high
    # the report's counting section says so, as count's text does (it said nothing of it)
    from simulator.assessment import render, sections

    md = " ".join(render.to_markdown("t", [sections.counting(
        {"strategy": "basic-super-sevens", "counting": {"figures": f}})]).split())
    assert ("SE of the figures with Super Sevens (the advantages with Super Sevens and the net "
            "per round, and from it the win per 100 rounds, SCORE, N0 and the risk of ruin): by "
            "batch means over the run's chunks") in md
    assert "95% intervals Student's t over 12 chunks (2.20 SEs each way)." in md
    # from fewer than 10 chunks none, saying why
    few = CR.figures(sum(p.astype(object) for p in parts[:9]), plan, PAYS_3,
                     moments=summed_moments(parts[:9]))
    for fig in (few["advantage"]["initial_bet_with_super_sevens"], few["per_round_played"]):
        assert fig["se"] is None and fig["interval_note"] == few["chunk_se_note"]
    assert few["per_round_played"]["win_per_100_ci95_low"] is None
    # without moments (a tally alone) none either, saying why
    alone = CR.figures(total, plan, PAYS_3)
    assert alone["per_round_played"]["se"] is None
    assert alone["per_round_played"]["interval_note"] == "no chunk moments kept with this tally"


def test_a_sweep_says_its_figures_with_super_sevens_have_batch_mean_ses():
    """A sweep of the sevens plan: its table and markdown say, in the single run's words, that
    the figures with Super Sevens have SEs by batch means and t intervals (json said it by
    ``per_round_se_kind``; the text said nothing), as the report's sweep does; a plan with a
    fixed Super Sevens stake says nothing of it."""
    from simulator.assessment import render, sections
    from simulator.plans import load_plan

    plan = load_plan("sevens-super-sevens")
    parts = whole_tallies(12)
    total = sum(p.astype(object) for p in parts)
    f = CR.figures(total, plan, PAYS_3, bankroll=1000, moments=summed_moments(parts))
    line = CR.whole_se_line(f)
    assert line and "95% intervals Student's t over 12 chunks (2.20 SEs each way)." in line
    rows = CR.sweep_rows([(0.7, f), (0.8, f)])
    assert {r["per_round_se_kind"] for r in rows} == {CR.BATCH_SE}
    each = line.replace("12 chunks", "12 chunks a penetration")
    for fmt in ("table", "markdown"):
        out = " ".join(CR.render_sweep(rows, fmt, {"plan": {"name": "s"}}).split())
        assert each in out, fmt
    one = " ".join(CR.render_sweep(rows[:1], "table", {"plan": {"name": "s"}}).split())
    assert line in one
    md = " ".join(render.to_markdown("t", [sections.counting({
        "strategy": "basic-super-sevens", "counting": {"figures": f, "sweep": rows}})]).split())
    assert md.count(each) == 1
    fixed = plan_from_dict({**{k: v for k, v in WONG.items() if k not in ("wong", "boxes")},
                            "name": "hi-lo-ss", "super_sevens": {"base": 1}})
    g = CR.figures(total, fixed, PAYS_3, moments=summed_moments(parts))
    rows = CR.sweep_rows([(0.7, g), (0.8, g)])
    assert "by batch means over the run's chunks, the plan's Super Sevens stake" not in (
        CR.render_sweep(rows, "table", {"plan": {"name": "s"}}))


def test_a_plan_with_a_fixed_super_sevens_stake_keeps_its_ses_bit_for_bit():
    """Hi-Lo betting 1 to 8 with a fixed Super Sevens unit a round (and a plan betting none):
    the SEs from a round's whole net, the rounds taken as independent, and normal intervals,
    as before, with or without the chunk moments."""
    from simulator.tally import Z95, _mean_sd

    fixed = plan_from_dict({**{k: v for k, v in WONG.items() if k not in ("wong", "boxes")},
                            "name": "hi-lo-ss", "super_sevens": {"base": 1}})
    assert not CR.ss_stake_varies(fixed) and not CR.ss_stake_varies(plan_from_dict(WONG))
    assert CR.ss_stake_varies(plan_from_dict({**WONG, "super_sevens": {"base": 1}}))  # (wongs)
    parts = whole_tallies(12)
    total = sum(p.astype(object) for p in parts)
    tot = [int(x) for x in total.sum(axis=0)]
    f = CR.figures(total, fixed, PAYS_3, moments=summed_moments(parts))
    whole = tot[L.C_NET] + L.UNIT * tot[L.C_SS_NET]
    played = tot[L.C_PLAYED]
    mean, sd = _mean_sd(whole, tot[L.C_ROUND_SQ], played, float(L.UNIT))
    p = f["per_round_played"]
    assert p["se_kind"] == CR.ROUNDS_SE
    assert p["se"] == sd / math.sqrt(played)  # (bit for bit)
    assert p["win_per_100_ci95_low"] == 100 * (mean - Z95 * p["se"])
    a = f["advantage"]["initial_bet_with_super_sevens"]
    assert a["se_kind"] == CR.ROUNDS_SE
    assert a["se"] == sd * math.sqrt(played) / (tot[L.C_BET] + tot[L.C_SS_BET])
    assert a["ci95_high"] == a["mean"] + Z95 * a["se"]
    # the same figures without the moments: nothing of these depends on them
    alone = CR.figures(total, fixed, PAYS_3)
    assert alone["per_round_played"] == p
    assert alone["advantage"] == f["advantage"]


def test_a_checkpoint_with_the_moments_of_before_is_refused_in_one_line(tmp_path):
    """A checkpoint of a bjsim before the whole-net moments (its chunks' moments 16 fewer) is
    refused, naming the payload it holds: resumed, the figures with Super Sevens of a plan
    betting them by the count would have no SE (their moments of some chunks only), and its code
    is other code anyway (`checkpoint._code_differs`)."""
    from simulator import checkpoint

    path = tmp_path / "run.ckpt"
    args = ["count", "--plan", "hi-lo-flat", "--rounds", "2000", "--chunk-rounds", "1000",
            "--seed", "1", "-q", "--checkpoint", path]
    assert invoke(*args).exit_code == 0
    doc = json.loads(path.read_text())
    start = L.N_TALLY + L.N_TC * L.N_COUNT + batches.N_WHOLE
    old = batches.N_WHOLE  # (the moments before: all but the whole-net ones)

    def before(values):
        return values[:start] + values[start + batches.N_MOMENTS - old:]

    state = doc["state"]
    state["prefix"] = before(state["prefix"])
    state["extra"] = {k: before(v) for k, v in state["extra"].items()}
    ident = doc["identity"]
    assert f"{batches.N_MOMENTS} chunk moments" in ident["payload"]
    ident["payload"] = ident["payload"].replace(f"{batches.N_MOMENTS} chunk", f"{old} chunk")
    doc["sha256"] = checkpoint.checksum(doc)
    path.write_text(json.dumps(doc))
    out = invoke("count", "--resume", path, "-q")
    assert out.exit_code != 0 and out.output.count("\n") == 1, out.output
    assert f"{old} chunk moments" in out.output and f"{batches.N_MOMENTS} chunk" in out.output


def test_a_withheld_risk_of_ruin_with_a_batch_means_se_names_the_rounds_it_would_need():
    # A last read: with the mean's SE by batch means (1.18 x SD / sqrt(n), a t quantile) the
    # note said "(bankroll / SD)^2 = 640,000 rounds: the 1,000,000 played are too few", which
    # holds only for SD / sqrt(n) and 1.96; the rounds needed scale with the spread itself.
    n, sd = 10**6, 3.0
    net, sq = round(0.0005 * n * L.UNIT), round((sd**2 + 0.0005**2) * n * L.UNIT**2)
    p = CR._per_round(net, sq, n, 2400, batch=(1.18 * sd / 1000, 9, None))
    note = p["risk_of_ruin_interval_note"]
    assert note is not None and "(bankroll / SD)^2" not in note
    said = note.split("over about ")[1].split(" rounds: the 1,000,000 played are too few")
    assert len(said) == 2, note
    assert int(said[0].replace(",", "")) > n  # (the note's own claim holds: more than played)


def test_the_counters_super_sevens_units_a_round_have_a_batch_mean_se_in_count_and_report():
    """The sevens plan's Super Sevens units staked a round played and a round dealt: the SE of
    the chunks' own sums, in count's text (the run and the sweep) and the report's sweep (it
    had none: a single run's average stake is no more fixed than its average bet). A stake the
    plan fixes (a unit every round dealt) has an SE of 0, and the sweep says the plan fixes it."""
    from simulator.assessment import render, sections
    from simulator.plans import load_plan

    parts = whole_tallies(12)
    total = sum(p.astype(object) for p in parts)
    plan = load_plan("sevens-super-sevens")
    f = CR.figures(total, plan, PAYS_3, moments=summed_moments(parts))

    def col(field):
        return [int(p[:, field].sum()) for p in parts]

    played_se = direct_se(col(L.C_SS_BET), col(L.C_PLAYED))
    dealt_se = direct_se(col(L.C_SS_BET), col(L.C_ROUNDS))
    ss = f["super_sevens"]
    assert f["average_super_sevens_bet_se"] == pytest.approx(played_se, rel=1e-12)
    assert ss["counter_bets_per_round"] == sum(col(L.C_SS_BET)) / sum(col(L.C_ROUNDS))
    assert ss["counter_bets_per_round_se"] == pytest.approx(dealt_se, rel=1e-12)
    text = " ".join(CR.render(f, "table").split())
    assert f"{f['average_super_sevens_bet']:.3f} units (SE {played_se:.3f}) of Super Sevens" in text
    # the single run's csv, as its json and the sweep's csv (it had neither the units a round
    # dealt nor their SE)
    kept = {r["item"]: r for r in CR.tidy_rows(f) if r["section"] == "super_sevens"}
    assert (kept["counter_bets_per_round"]["value"], kept["counter_bets_per_round"]["se"]) == (
        ss["counter_bets_per_round"], ss["counter_bets_per_round_se"])
    rows = CR.sweep_rows([(0.7, f), (0.8, f)])
    assert rows[0]["super_sevens_counter_bets_per_round_se"] == ss["counter_bets_per_round_se"]
    sweep = CR.render_sweep(rows, "table", {"plan": {"name": "s"}})
    head = next(ln for ln in sweep.splitlines() if ln.startswith("penetration"))
    assert re.search(r"SS staked/round +SE +counter SS return", head), head
    assert f"{ss['counter_bets_per_round']:.3f}  {dealt_se:.4f}" in sweep.split(head)[1]
    assert "SE of SS staked/round: by batch means over the run's chunks" in sweep
    md = render.to_markdown("t", [sections.counting({
        "strategy": "basic-super-sevens", "counting": {"plan": "s", "figures": f,
                                                        "sweep": rows}})])
    mhead = next(ln for ln in md.splitlines() if ln.startswith("| penetration"))
    assert ("| counter's Super Sevens units a round dealt | counter's Super Sevens units a "
            "round dealt SE |") in mhead
    assert "the counter's Super Sevens units a round dealt:" in " ".join(md.split())
    # the report's sentence on the single run gives the units a round played their SE, as
    # count's text does, and both name them among the SEs by batch means (neither did)
    flat_md = " ".join(md.split())
    assert f"{f['average_super_sevens_bet']:.3f} units (SE {played_se:.3f}) of Super Sevens" \
        in flat_md
    assert ss["favourable_share"] is None  # (these tallies hold none)
    units = "boxes and the counter's Super Sevens units a round played"
    assert f"SE of the rounds played, average bet, {units}: by batch means" in text
    assert f"SE of the rounds played, average bet, {units}: by batch means" in flat_md
    few = whole_tallies(4)
    h = CR.figures(sum(p.astype(object) for p in few), plan, PAYS_3,
                   moments=summed_moments(few))
    assert h["average_super_sevens_bet"] and h["average_super_sevens_bet_se"] is None
    said = f"Rounds played, average bet, {units}: {h['chunk_se_note']}."
    assert said in " ".join(CR.render(h, "table").split())
    assert said in " ".join(render.to_markdown("t", [sections.counting({
        "strategy": "basic-super-sevens", "counting": {"plan": "s", "figures": h}})]).split())
    # a unit on every round dealt: fixed, so no SE, and the sweep says why
    for p in parts:
        p[:, L.C_SS_BET] = p[:, L.C_ROUNDS]
    fixed = sum(p.astype(object) for p in parts)
    g = CR.figures(fixed, plan, PAYS_3, moments=summed_moments(parts))
    assert g["super_sevens"]["counter_bets_per_round"] == 1
    assert g["super_sevens"]["counter_bets_per_round_se"] == 0
    sweep = " ".join(CR.render_sweep(CR.sweep_rows([(0.7, g), (0.8, g)]), "table",
                                     {"plan": {"name": "s"}}).split())
    assert "SS staked/round SE (the plan fixes it)" in sweep
