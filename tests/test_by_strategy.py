"""Figures by strategy when the boxes play more than one: `tally.summarize`'s ``by_strategy``
from the kernel's ``strategyK_*`` sums, the report's three formats and ``simulate --exact``."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from simulator import engine
from simulator import kernel as K
from simulator import layout as L
from simulator.cli import cli
from simulator.report import by_strategy, render, strategy_label
from simulator.rules import Rules
from simulator.strategy import STRATEGY_DIR, load_strategy, stack_for
from simulator.tally import line_chances, summarize


def _by(t, k, **fields):
    for name, x in fields.items():
        t[L.T_BY + k * L.N_BY + L.BY_STRATEGY.index(name)] = x


def test_each_strategys_edge_and_se_from_its_sums():
    """Strategy 1 at two boxes, strategy 3 at one, 4 rounds 8 times (32: an interval from 30):
    strategy 1's boxes net -10 and -10, +10 and -10, 0 and -10, -10 and +10 (tenths); strategy
    3's box +10, +10, -10, 0."""
    t = np.zeros(L.N_TALLY, np.int64)
    t[L.T_ROUNDS], t[L.T_BOX_ROUNDS] = 32, 96
    _by(t, 0, box_rounds=64, total_sum=-240, total_sq=5600, round_total_sq=4000)
    _by(t, 2, box_rounds=32, total_sum=80, total_sq=2400, round_total_sq=2400)
    by = summarize(t, Rules(boxes=3, super_sevens=False))["by_strategy"]
    assert [(e["first_box"], e["boxes"], e["box_rounds"]) for e in by] == [(1, 2, 64), (3, 1, 32)]
    # strategy 1: box-rounds -1, -1, 1, -1, 0, -1, -1, 1 (units), rounds -2, 0, -1, 0
    sd1 = np.tile([-1, -1, 1, -1, 0, -1, -1, 1], 8).std(ddof=1)
    round_sd1 = np.tile([-2, 0, -1, 0], 8).std(ddof=1)
    sd3 = np.tile([1, 1, -1, 0], 8).std(ddof=1)
    root = math.sqrt(32)
    for e, edge, sd, se in ((by[0], 3 / 8, sd1, round_sd1 / root / 2),
                            (by[1], -1 / 4, sd3, sd3 / root)):
        he = e["house_edge"]
        assert he["mean"] == pytest.approx(edge) and he["sd_box_round"] == pytest.approx(sd)
        assert he["se"] == pytest.approx(se)  # sd of the round sum / sqrt(32) / its boxes
        assert he["ci95_low"] == pytest.approx(edge - 1.959963984540054 * se)
        assert e["super_sevens"] is None


def test_one_strategy_on_every_box_has_no_figures_by_strategy():
    rules = Rules(boxes=3)
    t = K.simulate_chunk(rules.to_params(), stack_for(rules, [load_strategy("basic")] * 3), 2000,
                         engine.chunk_state(3, 0))  # fmt: skip
    assert summarize(t, rules)["by_strategy"] == []


@pytest.fixture(scope="module")
def mixed():
    """20,000 rounds of three boxes: basic, mimic-dealer, basic."""
    rules = Rules(boxes=3)
    names = ["basic", "mimic-dealer", "basic"]
    t = K.simulate_chunk(rules.to_params(), stack_for(rules, [load_strategy(n) for n in names]),
                         20_000, engine.chunk_state(5, 0))  # fmt: skip
    return summarize(t, rules), {"strategy": names}


def test_the_three_formats_name_each_strategy_and_its_boxes(mixed):
    summary, meta = mixed
    text = render(summary, "table", meta)
    assert "By strategy" in text and "basic (boxes 1, 3)" in text and "mimic-dealer (box 2)" in text
    doc = json.loads(render(summary, "json", meta))["results"]["by_strategy"]
    assert [(e["strategy"], e["box_numbers"]) for e in doc] == [
        ("basic", [1, 3]), ("mimic-dealer", [2])]
    # basic's two boxes share the dealer's cards: its se is more than independent boxes' would be
    he = doc[0]["house_edge"]
    assert he["se"] > he["sd_box_round"] / math.sqrt(summary["box_rounds"] * 2 / 3)
    rows = list(csv.DictReader(io.StringIO(render(summary, "csv", meta))))
    edges = {r["item"]: float(r["value"]) for r in rows
             if r["section"] == "by_strategy_house_edge"}  # fmt: skip
    assert edges == {"basic (boxes 1, 3)": doc[0]["house_edge"]["mean"],
                     "mimic-dealer (box 2)": doc[1]["house_edge"]["mean"]}
    # the section says its sign: a house edge, as by_strategy_house_edge (it was named
    # by_strategy_super_sevens, beside return,super_sevens, a return)
    ss = [r for r in rows if r["section"] == "by_strategy_super_sevens_house_edge"]
    assert [float(r["value"]) for r in ss] == [e["super_sevens"]["house_edge"] for e in doc]
    assert [float(r["value"]) for r in ss] == [-e["super_sevens"]["mean"] for e in doc]
    assert not [r for r in rows if r["section"] == "by_strategy_super_sevens"]
    assert {r["per"] for r in ss} == {"unit staked"}
    # the box-rounds add up to the game's; the game's edge is their weighted mean
    assert sum(e["box_rounds"] for e in doc) == summary["box_rounds"]
    # the csv gives each strategy's box-rounds, as the table and json (the SE's basis)
    counts = {r["item"]: int(r["value"]) for r in rows if r["section"] == "by_strategy_count"}
    assert counts == {"basic (boxes 1, 3): box_rounds": doc[0]["box_rounds"],
                      "mimic-dealer (box 2): box_rounds": doc[1]["box_rounds"]}
    assert {r["per"] for r in rows if r["section"] == "by_strategy_count"} == {"run"}
    mean = sum(e["house_edge"]["mean"] * e["box_rounds"] for e in doc) / summary["box_rounds"]
    assert mean == pytest.approx(summary["house_edge"]["mean"])


def test_two_names_with_the_same_charts_are_one_strategy_named_with_each_ones_boxes():
    """Basic on box 1, mimic-dealer on 2, basic's charts under another name on 3: the engine
    keeps boxes 1 and 3 together (one set of charts). They were labelled "basic (box 1 and 1
    more with its charts)", json box_numbers null: now each name with its boxes."""
    rules = Rules(boxes=3)
    names = ["basic", "mimic-dealer", "my-copy-of-basic"]
    strategies = [load_strategy("basic"), load_strategy("mimic-dealer"),
                  dataclasses.replace(load_strategy("basic"), name="my-copy-of-basic")]
    t = K.simulate_chunk(rules.to_params(), stack_for(rules, strategies), 2000,
                         engine.chunk_state(5, 0))
    summary = summarize(t, rules, strategies=strategies, names=names)
    by = by_strategy(summary, names)
    assert [(e["strategy"], e["box_numbers"], e["strategies"]) for e in by] == [
        ("basic and my-copy-of-basic", [1, 3], [{"strategy": "basic", "box_numbers": [1]},
                                                {"strategy": "my-copy-of-basic",
                                                 "box_numbers": [3]}]),
        ("mimic-dealer", [2], [{"strategy": "mimic-dealer", "box_numbers": [2]}])]
    assert [strategy_label(e) for e in by] == [
        "basic (box 1) and my-copy-of-basic (box 3), the same charts", "mimic-dealer (box 2)"]
    meta = {"strategy": names}
    assert "basic (box 1) and my-copy-of-basic (box 3), the same charts" in render(
        summary, "table", meta)
    doc = json.loads(render(summary, "json", meta))["results"]["by_strategy"]
    assert [e["box_numbers"] for e in doc] == [[1, 3], [2]]


def test_boxes_of_two_names_and_one_set_of_charts_have_figures_by_strategy(tmp_path):
    """Two boxes, basic and a copy of its charts under another name: the by-strategy section
    was left out (the engine saw one strategy). Its one entry names both, with the game's
    figures (every box is its), its per-round SE the game's (the engine keeps no by-strategy
    per-round squares for one set of charts)."""
    copy = tmp_path / "copy.toml"
    copy.write_text((STRATEGY_DIR / "basic.toml").read_text().replace(
        'name = "basic"', 'name = "copy"'))
    args = ["simulate", "--boxes", "2", "--strategy", "basic", "--strategy", str(copy), "-n",
            "2000", "--chunk-rounds", "1000", "-q"]
    result = CliRunner().invoke(cli, [*args, "-f", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)["results"]
    (e,) = doc["by_strategy"]
    assert (e["strategy"], e["box_numbers"]) == ("basic and copy", [1, 2])  # (its own name)
    assert e["strategies"] == [{"strategy": "basic", "box_numbers": [1]},
                               {"strategy": "copy", "box_numbers": [2]}]
    for key in ("mean", "se", "ci95_low", "ci95_high", "sd_round"):
        assert e["house_edge"][key] == pytest.approx(
            (doc["total"] if key == "sd_round" else doc["house_edge"])[key]), key
    assert e["super_sevens"]["sd_round"] == pytest.approx(doc["super_sevens"]["sd_round"])
    text = CliRunner().invoke(cli, args).stdout
    assert "basic (box 1) and copy (box 2), the same charts" in text


def test_a_strategys_super_sevens_interval_is_withheld_by_the_wins_its_bets_expect(mixed):
    summary, _ = mixed
    p_e = line_chances(Rules(boxes=3), None)[0]["e"]
    for e in summary["by_strategy"]:
        expected = e["super_sevens"]["bets"] * p_e
        note = e["super_sevens"]["interval_note"]
        assert (note is not None) == (expected < 30 or summary["super_sevens"]["interval_note"]
                                      is not None)  # fmt: skip
        assert (e["super_sevens"]["ci95_low"] is None) == (note is not None)
        if note is not None:  # its own bets (it quoted the whole game's)
            assert f"expected in its {e['super_sevens']['bets']:,} bets" in note, note


def test_a_strategy_that_cannot_make_the_rare_line_keeps_its_super_sevens_interval():
    """never-bust stands on 7-7, so makes neither (d) nor (e), which need a third card: the
    few wins of (e) that withhold the game's interval, and mimic-dealer's (it hits 7-7), do not
    withhold never-bust's when the strategies are given."""
    rules = Rules(boxes=2)
    strategies = [load_strategy("never-bust"), load_strategy("mimic-dealer")]
    t = K.simulate_chunk(rules.to_params(), stack_for(rules, strategies), 100_000,
                         engine.chunk_state(6, 0))
    summary = summarize(t, rules, ("a", "b", "c", "d", "e"), strategies)
    assert summary["super_sevens"]["lines"]["e"]["count"] < 30
    assert summary["super_sevens"]["interval_note"] is not None
    stands, hits = summary["by_strategy"]
    assert stands["super_sevens"]["interval_note"] is None
    assert stands["super_sevens"]["ci95_low"] is not None
    assert "(e)" in hits["super_sevens"]["interval_note"]
    assert f"expected in its {hits['super_sevens']['bets']:,} bets" in hits["super_sevens"][
        "interval_note"]  # (not the game's 200,000)
    # without the strategies, every strategy is judged by the game's lines
    old = summarize(t, rules, ("a", "b", "c", "d", "e"))["by_strategy"]
    assert all(e["super_sevens"]["interval_note"] is not None for e in old)


def test_simulate_exact_sets_each_strategy_beside_its_own_exact_figures():
    """Every-round shuffle (the exact figures' full shoe): each strategy's simulated house edge
    within 4 of its standard errors of its one-box exact figure."""
    result = CliRunner().invoke(cli, [
        "simulate", "--boxes", "3", "--strategy", "basic", "--strategy", "mimic-dealer",
        "--strategy", "basic", "--set", "shuffle=every-round", "-n", "2M", "--seed", "11",
        "--exact", "-f", "json", "-q"])  # fmt: skip
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    cmp = doc["results"]["exact"]["by_strategy"]
    # named as results.by_strategy names them, so that the two join (it was "basic (boxes 1,
    # 3)" beside "basic": a pipeline's review); the table's name apart, as label
    assert [c["strategy"] for c in cmp] == [b["strategy"] for b in doc["results"][
        "by_strategy"]] == ["basic", "mimic-dealer"]
    assert [c["box_numbers"] for c in cmp] == [[1, 3], [2]]
    assert [c["label"] for c in cmp] == ["basic (boxes 1, 3)", "mimic-dealer (box 2)"]
    for c, by in zip(cmp, doc["results"]["by_strategy"], strict=True):
        he = c["house_edge"]
        assert he["simulated"] == by["house_edge"]["mean"] and he["se"] == by["house_edge"]["se"]
        assert abs(he["z"]) < 4, c
        assert he["difference"] == pytest.approx(he["simulated"] - he["exact"])
    basic, mimic = (c["house_edge"]["exact"] for c in cmp)
    assert basic < 0.01 < 0.04 < mimic  # (the published mimic-the-dealer edge is about 5-6%)


def test_the_tables_withheld_intervals_are_named_in_the_rows_order(mixed):
    # They came unnamed and sorted by their text, not in the rows' order.
    summary, _ = mixed
    names = ["basic", "mimic-dealer", "never-bust"]
    text = render(summary, "table", {"strategy": names})
    lines = [ln.strip() for ln in text.splitlines() if "Super Sevens interval withheld" in ln]
    labels = [strategy_label(e) for e in by_strategy(summary, names)
              if e["super_sevens"]["interval_note"]]
    assert lines and [ln.split(": Super Sevens")[0] for ln in lines] == labels
