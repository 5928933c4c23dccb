"""`bjsim exact --hands`: the value of each first play, hand by hand (simulator.exact.hands)."""

import csv
import io
import json

import pytest
from click.testing import CliRunner

from simulator.cli import cli
from simulator.exact.hands import _up_rows
from simulator.rules import Rules
from simulator.strategy import load_strategy
from tests.test_exact import FARMER_6D, US


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_values_are_the_published_ones_given_no_dealer_blackjack():
    # 6 decks S17 peek DAS: Farmer's CA values (tests/test_exact.py), which the peek game's
    # table gives as the player meets them: after the peek, given no dealer blackjack
    rules = Rules(decks=6, dealer_hits_soft_17=False, double_after_split=True, **US)
    rows = {r["hand"]: r for r in _up_rows((rules, 10, load_strategy("basic")))}
    for (h17, a, b, up), want in FARMER_6D.items():
        if h17 or up != 10:
            continue
        got = rows[(min(a, b), max(a, b))]["values"]
        for play, w in zip(("stand", "hit", "double"), want, strict=True):
            assert got[play] == pytest.approx(w, abs=5e-10), (a, b, play)
    assert rows[(8, 8)]["best"] == "split" and rows[(6, 10)]["best"] == "hit"


def test_nz_table_against_a_four_hand_by_hand(tmp_path, monkeypatch):
    monkeypatch.setenv("BJSIM_CACHE_DIR", str(tmp_path))
    result = run("exact", "--hands", "--up", "4", "--strategy", "basic", "-f", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    value = {"A": 1} | {str(v): v for v in range(2, 11)}  # (the json's cards: 2..10, A)
    rows = {tuple(value[c] for c in r["hand"]): r for r in doc["hands"]}
    assert len(rows) == 54 and {r["up"] for r in doc["hands"]} == {"4"}
    shoe = 24 * 13  # every hand's chance and a blackjack's make the chance of a 4 up: 1/13
    blackjack = (24 / (shoe - 1)) * (96 / (shoe - 2)) * 2 * 24 / shoe
    assert sum(r["probability"] for r in rows.values()) + blackjack == pytest.approx(1 / 13)
    for (a, b), r in rows.items():
        v = r["values"]
        hard = a + b if 1 not in (a, b) else None
        assert ("stand" in v) == (a == 1 or a + b > 11)  # 12.1 (d): 11 or less draws
        assert ("double" in v) == (hard is not None)  # double_on = "hard"
        assert ("split" in v) == (a == b) and "surrender" not in v
        ranked = sorted(v.values(), reverse=True)
        assert v[r["best"]] == ranked[0] and r["margin"] == pytest.approx(ranked[0] - ranked[1])
        assert r["chart_cost"] == pytest.approx(ranked[0] - v[r["chart"]]) and r["chart_cost"] >= 0
    # the NZ chart stands on every 12 against a 4; with 10,2 the cards left favour a hit
    # (the best-known composition-dependent play), and on no other two-card hand it differs
    assert [h for h, r in rows.items() if r["chart"] != r["best"]] == [(2, 10)]
    t2 = rows[(2, 10)]
    assert (t2["best"], t2["chart"]) == ("hit", "stand") and 0 < t2["chart_cost"] < 0.002
    assert rows[(5, 6)]["best"] == "double" and rows[(10, 10)]["best"] == "stand"
    # the table and csv hold the same figures; a second run reads them from the cache
    table = run("exact", "--hands", "--up", "4", "--strategy", "basic")
    assert table.stderr == ""  # (kept: nothing to compute)
    line = next(ln for ln in table.stdout.splitlines() if ln.startswith("2,10 "))
    assert f"{t2['values']['hit']:+.6f}" in line and line.split()[-2:] == [
        "stand", f"{t2['chart_cost']:.6f}"]
    frame = list(csv.DictReader(io.StringIO(run("exact", "--hands", "--up", "4", "--strategy",
                                                "basic", "-f", "csv").stdout)))
    first = next(r for r in frame if r["hand"] == "2,10")
    assert float(first["hit"]) == pytest.approx(t2["values"]["hit"], rel=1e-9)
    assert first["up"] == "4" and first["chart_reads"] == "hard 12" and first["split"] == ""


def test_json_spells_the_cards_as_the_rest_of_exacts_json():
    # The rest of `exact -f json` keys its up cards 2..10 then A (exact.compare.UP_LABELS); the
    # hands gave their up card and two cards as card values, the ace as 1.
    from simulator.exact.compare import UP_LABELS
    from simulator.exact.hands import UP_ORDER, hands_json

    row = {"values": {"stand": -0.5, "hit": -0.4}, "best": "hit", "margin": 0.1, "chart": "hit",
           "chart_cost": 0.0, "probability": 0.001, "chart_reads": "soft 18"}
    rows = [row | {"up": up, "hand": hand} for up in UP_ORDER for hand in ((1, 7), (2, 10))]
    doc = hands_json(rows, {}, Rules())
    ups = [UP_LABELS.get(up, str(up)) for up in UP_ORDER]
    assert [r["up"] for r in doc["hands"]] == [up for up in ups for _ in range(2)]
    assert ups[-2:] == ["10", "A"]
    assert [r["hand"] for r in doc["hands"][:2]] == [["A", "7"], ["2", "10"]]


def test_every_format_spells_a_ten_as_the_json_does():
    # The json's cards are 2..10 then A; the table's and csv's hands wrote a ten T ("2,T",
    # "T,T") and every format's chart_reads "pair Ts".
    from simulator.exact.hands import hands_frame, hands_json, hands_table, kind_label

    row = {"values": {"stand": -0.5, "hit": -0.4}, "best": "hit", "margin": 0.1, "chart": "hit",
           "chart_cost": 0.0, "probability": 0.001}
    rules = Rules()
    rows = [row | {"up": up, "hand": hand, "chart_reads": kind_label(*hand, rules)}
            for up in (10, 1) for hand in ((2, 10), (10, 10))]
    doc = hands_json(rows, {}, rules)
    frame = hands_frame(rows, {}, rules)
    table = hands_table(rows, "nz1994", "basic", rules)
    assert [r["hand"] for r in doc["hands"]] == [["2", "10"], ["10", "10"]] * 2
    assert [r["chart_reads"] for r in doc["hands"]] == ["hard 12", "pair 10s"] * 2
    assert list(frame["hand"]) == ["2,10", "10,10"] * 2 and list(frame["up"]) == ["10"] * 2 + [
        "A"] * 2
    assert list(frame["chart_reads"]) == ["hard 12", "pair 10s"] * 2
    lines = [ln.split()[:3] for ln in table.splitlines() if ln[:1].isdigit()]
    assert lines == [["2,10", "hard", "12"], ["10,10", "pair", "10s"]] * 2
    assert "dealer shows 10" in table and "dealer shows A" in table
    for out in (json.dumps(doc), frame.to_csv(), table):
        assert "T," not in out and ",T" not in out and "Ts" not in out


def test_the_default_chart_is_every_commands_basic(tmp_path, monkeypatch):
    # No --strategy: the chart is the rules' basic as every command plays it, under the NZ rules
    # the shipped basic (it had been the derived chart, named "derived for these rules").
    from simulator import derived
    from simulator.strategy import load_strategy

    monkeypatch.setenv("BJSIM_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(derived, "basic_for", lambda rules: (load_strategy("basic"), None))
    default = json.loads(run("exact", "--hands", "--up", "4", "-f", "json").stdout)
    named = json.loads(run("exact", "--hands", "--up", "4", "--strategy", "basic", "-f",
                           "json").stdout)
    assert default["run"]["strategy"] == named["run"]["strategy"] == "basic"
    assert default["hands"] == named["hands"]


def test_up_needs_hands_and_a_card():
    bad = run("exact", "--up", "4")
    assert bad.exit_code == 2 and "--up: only with --hands" in bad.stderr
    for card in ("11", "-", "1", "Z", "z"):
        bad = run("exact", "--hands", "--up", card)
        # the choices as the help writes them (click's case-free choice lowercased them: 'a')
        assert bad.exit_code == 2 and bad.stderr == (
            f"Error: Invalid value for '--up': '{card}' is not one of A, 2-10 or T.\n")
    assert "A, 2-10 or T" in " ".join(run("exact", "--help").stdout.split())  # (as the help)


def test_early_surrender_and_a_split_the_rules_forbid_are_shown_as_played():
    from simulator.exact.analyze import _Box
    from simulator.exact.player import Tables, UpCard

    # early surrender is chosen before the peek: the values are not given no dealer blackjack,
    # so surrender is -0.5 (it was shown conditioned, -0.27 against an ace)
    rules = Rules(decks=6, double_after_split=True, **(US | {"surrender": "early"}))
    rows = {r["hand"]: r for r in _up_rows((rules, 1, load_strategy("basic")))}
    assert rows[(8, 8)]["values"]["surrender"] == pytest.approx(-0.5)
    assert rows[(6, 10)]["best"] == "surrender"
    # with no split allowed, 7-7 under Super Sevens still reads the sevens row, as the kernel
    # does (the analyzer read the hard 14 cell: stand, where basic-super-sevens hits)
    one = Rules(max_hands=1)
    hit = Tables.of(load_strategy("basic-super-sevens"))
    box = _Box(UpCard(one, 2, hit))
    assert box.table_choice(7, 7, box.options(7, 7, False), hit) == "hit"
    row = {r["hand"]: r for r in _up_rows((one, 2, load_strategy("basic-super-sevens")))}
    assert row[(7, 7)]["chart"] == "hit" and "split" not in row[(7, 7)]["values"]


def test_the_table_says_what_a_dash_is():
    # hard 5 against a 10 showed "-" under stand with no word of why (12.1 (d): it must draw)
    from click.testing import CliRunner

    from simulator.cli import cli

    out = CliRunner().invoke(cli, ["exact", "--hands", "--up", "10", "-q"]).stdout
    assert "(-: a play the rules do not allow on that hand: a stand on 11 or less, which must " \
           "draw (12.1 (d))" in out
    line = next(ln for ln in out.splitlines() if ln.startswith("2,3 "))
    assert line.split()[3] == "-"  # (hand, chart reads "hard 5", then stand)


def test_an_rp_pair_that_surrenders_where_it_may_not_split_reads_its_pair_cell():
    # max_hands = 1 and late surrender: 8,8 v 10 with Rp in the pairs chart surrenders (the
    # pairs cell decides), but chart_reads said "hard 16" (a regulator's review)
    import dataclasses

    import numpy as np

    from simulator import layout as L
    from simulator.exact.hands import hand_values

    basic = load_strategy("basic")
    pairs = np.array(basic.pairs)
    pairs[7, 8] = L.RP  # 8,8 v 10
    rp = dataclasses.replace(basic, pairs=pairs)
    for surrender, reads, play in (("late", "pair 8s", "surrender"), ("none", "hard 16", None)):
        rules = Rules(max_hands=1, surrender=surrender)
        row = next(r for r in hand_values(rules, rp, ups=(10,), workers=1) if r["hand"] == (8, 8))
        assert row["chart_reads"] == reads
        assert play is None or row["chart"] == play
