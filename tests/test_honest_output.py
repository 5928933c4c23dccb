"""Honest output: every report, in every format, names its rules (with the command line's
changes), strategy, seed and whether it is partial; a figure too thin for an interval says so; the
Super Sevens figure names the 7-7 play it depends on; and the failures listed in issue 13, each
with the test that caught it.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from simulator import engine, reference, report, tally
from simulator.cli import cli
from simulator.rules import Rules, rules_from_dict
from simulator.strategy import load_strategy
from tests.helpers import deal, make_strategy
from tests.test_hostile_input import is_one_line_error

ROOT = Path(__file__).resolve().parent.parent
TINY = ["--rounds", "20_000", "--chunk-rounds", "5000", "--seed", "7", "--quiet"]


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def user_error(result, *words):
    line = is_one_line_error(result)
    for w in words:
        assert w in line, (w, line)
    return line


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def run_section(rows):
    return {r["item"]: r["value"] for r in rows if r["section"] == "run"}


# ---------------------------------------------------------------------------------------------
# Every output names its rules, strategy, seed and whether it is partial


def test_simulate_names_rules_changes_strategy_seed_and_completeness_in_every_format():
    args = [*TINY, "--set", "decks=8", "--boxes", "2"]
    table = run("simulate", *args).stdout
    assert "nz1994 (modified: decks=8, boxes=2)" in table and "Changed:" in table
    assert "Strategy:  basic" in table and "seed 7" in table and "Result:    complete" in table
    doc = json.loads(run("simulate", *args, "-f", "json").stdout)
    assert doc["run"]["rules_name"] == "nz1994 (modified: decks=8, boxes=2)"
    assert doc["run"]["overrides"] == ["decks=8", "boxes=2"]
    assert doc["run"]["seed"] == 7 and doc["run"]["partial"] is False
    assert doc["strategy"] == ["basic", "basic"] and doc["rules"]["decks"] == 8
    meta = run_section(csv_rows(run("simulate", *args, "-f", "csv").stdout))
    assert meta["rules_name"] == "nz1994 (modified: decks=8, boxes=2)"
    assert meta["overrides"] == "decks=8; boxes=2"
    assert meta["strategy"] == "basic; basic" and meta["seed"] == "7"
    assert meta["partial"] == "false"
    rules_rows = {r["item"]: r["value"] for r in csv_rows(run("simulate", *args, "-f",
                                                              "csv").stdout)
                  if r["section"] == "rules"}
    assert rules_rows["decks"] == "8" and rules_rows["boxes"] == "2"


def _chart_file(path: Path, name: str, like: str = "never-bust") -> str:
    """A strategy file at ``path``: the shipped ``like``'s charts under the name ``name``."""
    text = (ROOT / "strategies" / f"{like}.toml").read_text()
    path.write_text(text.replace(f'name = "{like}"', f'name = "{name}"'))
    return str(path)


def test_a_strategy_file_is_shown_by_its_own_name_in_every_format(tmp_path):
    """A strategy file was shown by its path (Strategy: /tmp/x/mine.toml, json's strategy, the
    csv's run row, compare's tables), where a shipped one is shown by its name: now by the name
    in the file, as a shipped one, its path kept in the metadata (run.strategy_files) and under
    the table's Strategy line."""
    mine = _chart_file(tmp_path / "mine.toml", "my-chart")
    table = run("simulate", *TINY, "--strategy", mine).stdout
    assert f"Strategy:  my-chart\n           file my-chart: {mine}\n" in table
    doc = json.loads(run("simulate", *TINY, "--strategy", mine, "-f", "json").stdout)
    assert doc["strategy"] == ["my-chart"] and doc["run"]["strategy_files"] == {"my-chart": mine}
    meta = run_section(csv_rows(run("simulate", *TINY, "--strategy", mine, "-f", "csv").stdout))
    assert meta["strategy"] == "my-chart" and meta["strategy_files"] == f"my-chart: {mine}"
    # a shipped strategy, by name or by its file, has no file to say
    plain = json.loads(run("simulate", *TINY, "--strategy", str(ROOT / "strategies/basic.toml"),
                           "-f", "json").stdout)
    assert plain["strategy"] == ["basic"] and "strategy_files" not in plain["run"]
    # another chart under a name already shown (a shipped one's, another file's): by its path
    copy = _chart_file(tmp_path / "copy.toml", "basic", like="mimic-dealer")
    twin = _chart_file(tmp_path / "twin.toml", "my-chart", like="insurance-taker")
    doc = json.loads(run("simulate", *TINY, "--boxes", "3", "--strategy", mine, "--strategy",
                         copy, "--strategy", twin, "-f", "json").stdout)
    assert doc["strategy"] == ["my-chart", copy, twin]
    assert [e["strategy"] for e in doc["results"]["by_strategy"]] == ["my-chart", copy, twin]
    # exact, and compare's baseline and --vary-strategy, named as simulate names them
    exact = json.loads(run("exact", "-q", "--strategy", mine, "-f", "json").stdout)
    assert exact["run"]["strategy"] == "my-chart"
    assert exact["run"]["strategy_files"] == {"my-chart": mine}
    # the name alone in its json's strategy fields (docs/exact.md), the path in run only: they
    # said "my-chart; file my-chart: mine.toml"; its table names the file after the name
    assert exact["strategy"] == exact["exact"]["strategy"] == "my-chart"
    assert run("exact", "-q", "--strategy", mine).stdout.splitlines()[0] == (
        f"Exact (combinatorial) figures: nz1994, strategy my-chart; file my-chart: {mine}")
    cmp = ["compare", *TINY, "--strategy", mine, "--vary-strategy", twin, "--no-exact"]
    doc = json.loads(run(*cmp, "-f", "json").stdout)
    assert doc["baseline"]["strategy"] == ["my-chart"] and doc["variants"][0]["strategy"] == [twin]
    assert doc["run"]["strategy_files"] == {"my-chart": mine}
    assert f"strategy my-chart; file my-chart: {mine}" in run(*cmp).stdout.splitlines()[0]
    rows = [r for r in csv_rows(run(*cmp, "-f", "csv").stdout)
            if r["figures_of"] == "strategy_file"]
    assert [(r["variant"], r["figure"], r["value"]) for r in rows] == [
        ("nz1994", "my-chart", mine)]


def _interrupt_after_first_chunk(monkeypatch):
    real = engine.advance

    def advance(*args, **kwargs):
        chunks = real(*args, **kwargs)
        try:
            for count, item in enumerate(chunks):
                if count == 1:
                    raise KeyboardInterrupt
                yield item
        finally:
            chunks.close()

    monkeypatch.setattr(engine, "advance", advance)


def test_an_interrupted_csv_carries_the_partial_marker_seed_and_rules(monkeypatch, tmp_path):
    _interrupt_after_first_chunk(monkeypatch)
    out = tmp_path / "run.csv"
    result = run("simulate", *TINY, "--workers", "1", "--set", "decks=8", "-f", "csv", "-o",
                 str(out))
    assert result.exit_code == 130
    meta = run_section(csv_rows(out.read_text()))
    assert meta["partial"] == "true" and meta["seed"] == "7"
    assert meta["rules_name"] == "nz1994 (modified: decks=8)"
    assert int(meta["rounds_played"]) < int(meta["rounds"])
    table = run("simulate", *TINY, "--workers", "1").stdout
    assert "PARTIAL RESULT" in table


def test_a_partial_precision_run_names_max_rounds_as_a_cap_not_the_runs_length(monkeypatch):
    """Stopped before its target, a --precision run said "interrupted after 15,000 of 40,000
    rounds", as if 40,000 were its length: that is only --max-rounds, which the target would
    have stopped it short of. A run of fixed length names its rounds as before."""
    _interrupt_after_first_chunk(monkeypatch)
    args = ["simulate", "--chunk-rounds", "5000", "--workers", "1", "--seed", "7"]
    capped = run(*args, "--precision", "0.00001", "--max-rounds", "40000")
    assert capped.exit_code == 130, capped.output
    line = next(ln for ln in capped.stdout.splitlines() if ln.startswith("PARTIAL RESULT"))
    # (the chunks in play at the stop are kept too: how many finished varies)
    assert re.fullmatch(r"PARTIAL RESULT: interrupted after \d+,000 of at most 40,000 rounds "
                        r"\(--max-rounds\); not reproducible as it stands", line), line
    fixed = run(*args, "--rounds", "40000")
    assert fixed.exit_code == 130, fixed.output
    assert re.search(r"\nPARTIAL RESULT: interrupted after \d+,000 of 40,000 rounds; not "
                     r"reproducible as it stands\n", fixed.stdout), fixed.stdout


def test_exact_names_the_changed_rules_in_every_format():
    args = ["exact", "--set", "decks=8", "--no-super-sevens", "--strategy", "basic"]
    name = "nz1994 (modified: decks=8, super_sevens=false)"
    table = run(*args).stdout
    assert table.splitlines()[0].startswith(f"Exact (combinatorial) figures: {name}, strategy "
                                            "basic")  # (and whether it is the NZ chart's)
    doc = json.loads(run(*args, "-f", "json").stdout)
    assert doc["run"]["rules_name"] == name
    assert doc["run"]["overrides"] == ["decks=8", "super_sevens=false"]
    assert doc["run"]["partial"] is False and doc["run"]["seed"] is None
    meta = run_section(csv_rows(run(*args, "-f", "csv").stdout))
    assert meta["rules_name"] == name
    assert meta["strategy"] == "basic"
    assert "partial" not in meta and "seed" not in meta  # (nothing simulated: no such rows)


def test_simulate_table_names_every_key_unlike_the_nz_rules_from_a_file_or_set(tmp_path):
    # A rule file's rules were not in the table: its summary line picked decks, boxes, Super
    # Sevens, the hole card and the blackjack pay, and only --set's changes were listed.
    path = tmp_path / "h17.toml"
    path.write_text('decks = 2\npenetration = 0.5\ndealer_hits_soft_17 = true\n'
                    'double_on = "any"\nsurrender = "late"\n')
    head = run("simulate", *TINY, "--rules", str(path)).stdout.split("\nStrategy:")[0]
    assert ('\nUnlike nz1994: decks=2, penetration=0.5, double_on="any", dealer_hits_soft_17=true, '
            'surrender="late"\n') in head and "Changed:" not in head
    head = run("simulate", *TINY, "--rules", str(path), "--set", "decks=4", "--set",
               "max_hands=2").stdout.split("\nStrategy:")[0]
    assert "\nChanged:   decks=4, max_hands=2\n" in head
    assert ('\nUnlike nz1994: decks=4, penetration=0.5, double_on="any", max_hands=2, '
            'dealer_hits_soft_17=true, surrender="late"\n') in head
    eight = run("simulate", *TINY, "--rules", "nz1994-8deck").stdout  # a shipped file
    assert "\nUnlike nz1994: decks=8\n" in eight.split("\nStrategy:")[0]
    for args in ([], ["--set", "decks=8", "--boxes", "2"]):  # the NZ file: its changes, once
        head = run("simulate", *TINY, *args).stdout.split("\nStrategy:")[0]
        assert "Unlike nz1994:" not in head and ("Changed:" in head) == bool(args)


def test_rules_show_toml_with_changes_does_not_pass_for_the_original(tmp_path):
    text = run("rules", "show", "--set", "decks=8", "-f", "toml").stdout
    meta = tomllib.loads(text)["meta"]
    assert meta["name"] == "nz1994 (modified: decks=8)"
    assert meta["description"].startswith("nz1994 changed by decks=8")
    assert rules_from_dict(tomllib.loads(text))[0].decks == 8  # still a rule file that loads
    plain = tomllib.loads(run("rules", "show", "-f", "toml").stdout)["meta"]
    assert plain["name"] == "nz1994" and "6 decks" in plain["description"]
    assert "modified: decks=8" in run("rules", "show", "--set", "decks=8").stdout


def test_replay_names_its_rules_and_strategy(tmp_path):
    cards = tmp_path / "shoe.txt"
    cards.write_text("7h 9c Td 7s 5d\n")
    text = run("replay", "--cards", str(cards), "--set", "hole_card=peek", "--strategy",
               "basic").stdout
    assert text.startswith("bjsim ") and "nz1994 (modified: hole_card=\"peek\")" in text
    assert "strategy basic (basic is the NZ rules' chart" in text
    doc = json.loads(run("replay", "--cards", str(cards), "-f", "json").stdout)
    assert doc["run"]["rules_name"] == "nz1994" and doc["run"]["partial"] is False


def test_replay_does_not_name_another_rules_chart_basic(tmp_path):
    # A chart derived for other rules went by the name basic (strategy generate named every one
    # so, and bjsim's cache files are): replay's box line read "box 1 (basic)", the NZ chart's.
    changes = ["--set", "decks=2", "--set", "dealer_hits_soft_17=true", "--set", "double_on=any"]
    cards = tmp_path / "shoe.txt"
    cards.write_text("9h 6d 2c 5c Th Ts\n")
    made = tmp_path / "two-h17.toml"
    assert run("strategy", "generate", "-q", *changes, "-o", str(made)).exit_code == 0
    old = tmp_path / "old.toml"  # as the older command wrote it
    old.write_text(re.sub(r'(?m)^name = .*$', 'name = "basic"', made.read_text()))
    shipped = tmp_path / "basic.toml"  # the shipped chart in a file: basic it is
    shipped.write_text(run("strategy", "show", "basic").stdout)
    for strategy, box in [
            (made, "basic (2 decks, double any 2, H17)"),
            (old, f"{old}, not the shipped basic"), (shipped, "basic"), ("basic", "basic")]:
        args = ["replay", "--cards", str(cards), *changes, "--strategy", str(strategy)]
        text = run(*args).stdout
        assert f"box 1 ({box}): main" in text, text
        doc = json.loads(run(*args, "-f", "json").stdout)
        assert doc["rounds"][0]["boxes"][0]["strategy"] == box


# ---------------------------------------------------------------------------------------------
# Super Sevens: the 7-7 play, and an interval only where it means something


def test_the_super_sevens_figure_names_the_7_7_play_and_what_the_published_figure_assumes():
    table = run("simulate", *TINY).stdout
    lines = table.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("SUPER SEVENS house edge"))
    note = lines[i + 1]
    assert "split v 2-7, hit v 8-A" in note and "11.40%" in note
    assert "a third card always dealt" in note and "published for them: 11.40%" in note
    doc = json.loads(run("simulate", *TINY, "-f", "json").stdout)
    play = doc["results"]["super_sevens"]["seven_seven_play"]
    assert play["by_box"] == ["split v 2-7, hit v 8-A"] and "11.40%" in play["note"]
    ss = json.loads(run("simulate", *TINY, "-f", "json", "--strategy",
                        "basic-super-sevens").stdout)
    assert ss["results"]["super_sevens"]["seven_seven_play"]["by_box"] == ["hit every 7-7"]
    exact = run("exact").stdout
    assert "depends on the 7-7 play (14.4): split v 2-7, hit v 8-A" in exact


def test_a_figure_with_no_bet_says_why_it_has_no_interval_and_keeps_every_key():
    """basic takes no insurance: its insurance had se and interval null with interval_note null,
    against README's "null, or why there is no interval"; --no-super-sevens left out
    seven_seven_play, which README's table lists; count's counter_return_interval_note was null
    where the counter bets nothing on Super Sevens (a pipeline's review)."""
    doc = json.loads(run("simulate", *TINY, "-f", "json").stdout)["results"]
    ins = doc["insurance"]
    assert ins["bets"] == 0 and ins["mean"] is None and ins["ci95_low"] is None
    assert ins["interval_note"] == "no insurance taken: no bet to measure"
    row = next(ln for ln in run("simulate", *TINY).stdout.splitlines()
               if ln.strip().startswith("Insurance "))
    assert "too few to say" not in row  # (no bet: "-", as before)
    rows = csv_rows(run("simulate", *TINY, "-f", "csv").stdout)
    assert any(r["section"] == "note" and r["item"] == "insurance" for r in rows)
    off = json.loads(run("simulate", *TINY, "--no-super-sevens", "-f", "json").stdout)
    assert off["results"]["super_sevens"]["seven_seven_play"] is None
    count = json.loads(run("count", "--rounds", "20_000", "--chunk-rounds", "5000", "--seed",
                           "7", "--quiet", "-f", "json").stdout)["results"]["super_sevens"]
    assert count["counter_bets"] == 0 and count["counter_return"] is None
    assert count["counter_return_interval_note"] == (
        "no bet: the counter staked nothing on Super Sevens")


def test_the_super_sevens_interval_says_it_is_95_percent_and_of_which_sd():
    # A review: the headline's '± 1.869%' could be read as an SE (the house edge's has a line
    # below it saying 95%), and the report's interval, by the exact SD, differs from it
    table = run("simulate", "-n", "4M", "-q").stdout
    lines = table.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("SUPER SEVENS house edge"))
    ss = json.loads(run("simulate", "-n", "4M", "-q", "-f", "json").stdout)["results"][
        "super_sevens"]
    assert ss["interval_note"] is None
    low, high = (f"{100 * -ss[k]:.3f}%" for k in ("ci95_high", "ci95_low"))
    assert lines[i + 1] == (f"  95% confidence interval {low} to {high}; standard error "
                            f"{100 * ss['se']:.3f}%, from the simulated results' own spread ("
                            f"{report.SS_SD_WORDS})")


def test_a_run_too_short_says_so_instead_of_an_interval():
    doc = json.loads(run("simulate", *TINY, "-f", "json").stdout)
    ss = doc["results"]["super_sevens"]
    assert ss["lines"]["e"]["count"] < tally.MIN_WINS
    assert ss["ci95_low"] is None and ss["ci95_high"] is None
    assert "line (e)" in ss["interval_note"] and "fewer than 30" in ss["interval_note"]
    assert doc["results"]["house_edge"]["ci95_low"] is not None  # the main game's is fine
    table = run("simulate", *TINY).stdout
    head = next(ln for ln in table.splitlines() if ln.startswith("SUPER SEVENS house edge"))
    assert "±" not in head and "too few rounds for a meaningful interval" in head
    assert "too few to say" in table
    rows = csv_rows(run("simulate", *TINY, "-f", "csv").stdout)
    ret = next(r for r in rows if r["section"] == "return" and r["item"] == "super_sevens")
    assert ret["ci95_low"] == "" and ret["value"] != ""
    assert any(r["section"] == "note" and r["item"] == "super_sevens" for r in rows)
    # one round: the return per unit wagered had a bare "(95%)" beside no interval
    one = run("simulate", "-q", "--rounds", "1").stdout
    line = next(ln for ln in one.splitlines() if "Return per unit wagered" in ln)
    assert "(95%)" not in line and "(no interval: too few rounds)" in line


def test_simulate_from_2_rounds_gives_no_se_per_unit_wagered_beside_no_main_se():
    # simulate --rounds 2 withheld main.se and gave main.se_per_unit_wagered (the same SE scaled)
    main = json.loads(run("simulate", "-q", "--rounds", "2", "--seed", "3", "-f", "json").stdout)[
        "results"]["main"]
    assert main["se"] is None and main["mean_per_unit_wagered"] is not None
    assert main["se_per_unit_wagered"] is None
    assert main["interval_note"] == ("too few rounds for a meaningful interval: 2 rounds, fewer "
                                     "than 30")
    line = next(ln for ln in run("simulate", "-q", "--rounds", "2", "--seed", "3").stdout
                .splitlines() if "Return per unit wagered" in ln)
    assert "±" not in line and "(no interval: too few rounds)" in line
    enough = json.loads(run("simulate", "-q", "--rounds", "30", "--seed", "3", "-f", "json")
                        .stdout)["results"]["main"]
    assert enough["se"] is not None and enough["se_per_unit_wagered"] is not None


def test_enough_bets_to_expect_30_wins_of_every_line_give_an_interval():
    """The interval waits for the bets that expect 30 wins of the rarest line, (e) in six
    decks (bets x its exact chance), whatever wins this run happened to hold."""
    from tests.test_tally import build_tally

    rounds = [[(0, None, line)] for line in (1, 2, 3, 4) for _ in range(30)]
    rounds += [[(0, None, 5)]] * 1000  # 1,120 bets
    p_e = tally.line_chances(Rules(), None)[0]["e"]
    enough = math.ceil(30 / p_e / len(rounds))
    ss = tally.summarize(build_tally(rounds) * enough, Rules())["super_sevens"]
    assert ss["interval_note"] is None and ss["ci95_low"] is not None
    short = tally.summarize(build_tally(rounds) * (enough - 1), Rules())["super_sevens"]
    assert "line (e)" in short["interval_note"] and short["ci95_low"] is None


def test_insurance_with_too_few_wins_says_so_instead_of_an_interval():
    from tests.test_tally import build_tally

    lost = [[(0, -5, None)]] * 200
    enough = tally.summarize(build_tally([[(0, 10, None)]] * 30 + lost), Rules())["insurance"]
    assert enough["interval_note"] is None and enough["ci95_low"] is not None
    few = tally.summarize(build_tally([[(0, 10, None)]] * 29 + lost), Rules())["insurance"]
    assert few["ci95_low"] is None and few["se"] is None  # no SE: it would imply an interval
    assert "29 winning insurance bet(s), fewer than 30" in few["interval_note"]
    main = tally.summarize(build_tally([[(0, 10, None)]] * 29 + lost), Rules())["house_edge"]
    assert main["interval_note"] is None and main["ci95_low"] is not None


def test_lines_a_strategy_cannot_make_are_left_out_of_the_check():
    never_third = make_strategy(sevens={"*": "S"}, pairs={"7": "P"})
    assert tally.ss_lines_possible([never_third], Rules()) == ("a", "b", "c", "f")
    assert tally.ss_lines_possible([load_strategy("basic")], Rules()) == tally.SS_LINES
    split_only = make_strategy(sevens={"*": "P"})
    one_hand = Rules(max_hands=1)  # a split is played from the hard table: it may hit
    assert tally.ss_lines_possible([split_only], one_hand) == tally.SS_LINES


def test_lines_the_shoe_cannot_make_are_left_out_of_the_check():
    """(c) needs two sevens of one suit, (e) three: one deck makes neither, two decks not (e)."""
    from tests.test_tally import build_tally

    assert tally.ss_lines_dealable(Rules(decks=1)) == ("a", "b", "d", "f")
    assert tally.ss_lines_dealable(Rules(decks=2)) == ("a", "b", "c", "d", "f")
    for decks in range(3, 9):
        assert tally.ss_lines_dealable(Rules(decks=decks)) == tally.SS_LINES
    basic = load_strategy("basic")
    assert tally.ss_lines_possible([basic], Rules(decks=1)) == ("a", "b", "d", "f")
    never_third = make_strategy(sevens={"*": "S"}, pairs={"7": "P"})
    assert tally.ss_lines_possible([never_third], Rules(decks=2)) == ("a", "b", "c", "f")
    # the interval waits for the rarest line the shoe can deal: (d) in one or two decks
    rounds = [[(0, None, 5)]] * 1000
    for decks, line in ((1, "d"), (2, "d"), (3, "e"), (6, "e")):
        rules = Rules(decks=decks)
        ss = tally.summarize(build_tally(rounds), rules)["super_sevens"]
        assert f"line ({line})" in ss["interval_note"] and ss["ci95_low"] is None
        copies = math.ceil(30 / tally.line_chances(rules, None)[0][line] / len(rounds))
        ss = tally.summarize(build_tally(rounds) * copies, rules)["super_sevens"]
        assert ss["interval_note"] is None and ss["ci95_low"] is not None
    # the counter's rarest line too: (d) with one or two decks, not a line of chance 0
    from simulator.counting_report import rarest_line

    assert rarest_line(Rules(decks=1))[0] == ("d",) == rarest_line(Rules(decks=2))[0]
    assert rarest_line(Rules(decks=3))[0] == ("e",)


@pytest.mark.parametrize("decks, interval", [(1, True), (2, True), (3, False)])
def test_simulate_with_few_decks_gives_the_super_sevens_interval(decks, interval):
    args = ["--rounds", "500k", "--seed", "7", "--quiet", "--strategy", "basic-super-sevens",
            "--set", f"decks={decks}", "-f", "json"]
    ss = json.loads(run("simulate", *args).stdout)["results"]["super_sevens"]
    if interval:
        assert ss["interval_note"] is None and ss["ci95_low"] is not None
        assert ss["lines"]["e"]["count"] == 0 and ss["lines"]["d"]["count"] >= tally.MIN_WINS
    else:  # three decks can deal (e), rarely: 500,000 rounds are too few
        assert "line (e)" in ss["interval_note"] and ss["ci95_low"] is None
    if decks == 1:
        assert ss["lines"]["c"]["count"] == 0


# ---------------------------------------------------------------------------------------------
# exact's insurance per unit staked


def test_exact_insurance_per_unit_staked_is_over_the_chance_insurance_is_offered():
    # Simulation (insurance-taker, 6 decks): -7.40% per unit staked, 95% interval +-0.16%. The
    # old figure divided by P(ace up) including blackjacks (offered even money, not insurance):
    # -7.04%, outside that interval.
    doc = json.loads(run("exact", "--strategy", "insurance-taker", "--no-super-sevens", "-f",
                         "json").stdout)
    ins = doc["exact"]["insurance"]
    assert ins["per_unit_staked"] == pytest.approx(-0.0740, abs=0.0016)
    # the analyzer's insurance per initial wager over half a wager times P(ace up, box not a
    # blackjack) (6 decks: 24 aces, 96 tens) is the closed form's figure
    p_bet = 24 / 312 * (1 - 2 * 23 / 311 * 96 / 310)
    assert ins["per_initial_wager"] / (0.5 * p_bet) == pytest.approx(ins["per_unit_staked"],
                                                                     rel=1e-12)
    assert ins["per_initial_wager"] / (0.5 * 24 / 312) == pytest.approx(-0.0704, abs=0.0005)


def test_exact_gives_insurance_per_unit_staked_in_both_units_taken_or_not():
    # simulate reports insurance per unit staked; exact says it too, beside per initial wager,
    # and for a strategy that does not insure it is what insurance would return (if taken)
    text = run("exact", "--no-super-sevens").stdout
    line = next(x for x in text.splitlines() if "per unit staked on insurance" in x)
    assert line.split()[0] == "-7.3777%" and line.endswith("(if taken)"), line
    doc = json.loads(run("exact", "--no-super-sevens", "-f", "json").stdout)["exact"]
    assert doc["insurance"]["taken"] is False and doc["insurance"]["per_initial_wager"] == 0
    assert doc["insurance"]["per_unit_staked"] == pytest.approx(-0.073777, abs=1e-6)
    rows = run("exact", "--no-super-sevens", "-f", "csv").stdout.splitlines()
    assert any(r.startswith("return,insurance,unit staked,-0.0737766") for r in rows), rows


def test_simulate_exact_puts_insurance_beside_its_exact_return_when_a_box_insures():
    from simulator.exact.compare import insurance_per_unit_staked

    doc = json.loads(run("simulate", "--strategy", "insurance-taker", "--rounds", "200000",
                         "--exact", "-f", "json").stdout)
    ins, cmp = doc["results"]["insurance"], doc["results"]["exact"]["insurance_house_edge"]
    assert cmp["simulated"] == -ins["mean"] and cmp["se"] == ins["se"]  # a house edge
    assert cmp["exact"] == pytest.approx(-insurance_per_unit_staked(Rules()), rel=1e-12)
    assert cmp["z"] == pytest.approx((-cmp["exact"] - ins["mean"]) / ins["se"], rel=1e-9)
    assert abs(cmp["z"]) < 4
    basic = json.loads(run("simulate", "--rounds", "100000", "--exact", "-f", "json").stdout)
    assert "insurance_house_edge" not in basic["results"]["exact"]


def test_insurance_per_unit_staked_by_hand_for_a_single_deck():
    # 1 deck, dealer's ace out: 51 cards, 3 aces, 16 tens. Box hands that are not a blackjack,
    # by how many tens they hold: two tens 16*15, one ten and a non-ace 16*32*2, none 35*34
    # (ordered pairs; a ten with an ace is the blackjack, left out)
    from simulator.exact.compare import insurance_per_unit_staked

    hands = {2: 16 * 15, 1: 2 * 16 * 32, 0: 35 * 34}
    p_ten = sum(n * (16 - k) / 49 for k, n in hands.items()) / sum(hands.values())
    rules = dataclasses.replace(Rules(), decks=1)
    assert insurance_per_unit_staked(rules) == pytest.approx(2 * p_ten - (1 - p_ten), rel=1e-12)
    paid3 = dataclasses.replace(rules, insurance_pays=3.0)
    assert insurance_per_unit_staked(paid3) == pytest.approx(3 * p_ten - (1 - p_ten), rel=1e-12)


# ---------------------------------------------------------------------------------------------
# replay: too few cards, a round the cards run out in


@pytest.mark.parametrize("text", ["", "# nothing but a comment\n", "7h 9c"])
def test_replay_with_no_complete_round_exits_2(tmp_path, text):
    path = tmp_path / "cards.txt"
    path.write_text(text)
    user_error(run("replay", "--cards", str(path)), str(path), "no round is complete")
    user_error(run("replay", "--cards", "-", input=text), "<stdin>", "no round is complete")
    message = run("replay", "--cards", str(path)).stderr
    assert ("no cards," if "7h" not in text else
            "the cards ran out in round 1 (all 2: 7h 9c)") in message, message


def test_replay_says_what_does_not_apply_and_where_cut_stopped_play(tmp_path):
    path = tmp_path / "cards.txt"
    path.write_text("7h 9c Td 7s 5d   8h Ks 2c 9d 9h\n")
    result = run("replay", "--cards", str(path), "--set", "penetration=0.5", "--set",
                 "shuffle=every-round", "--cut", "5")
    assert result.exit_code == 0
    assert ("replay deals the cards as given, in order: penetration and shuffle do not apply "
            "here") in result.stderr
    assert result.stdout.rstrip().endswith(
        "1 complete round, 5 cards dealt of the 10 given; 5 cards left (--cut 5: no round "
        "starts once 5 cards have been dealt)")
    one = run("replay", "--cards", str(path), "--cut", "1")  # (a review: "--cut 1 cards")
    assert one.stdout.rstrip().endswith("(--cut 1: no round starts once 1 card has been dealt)")
    plain = run("replay", "--cards", str(path))
    assert "warning" not in plain.stderr and "--cut" not in plain.stdout


def test_replay_names_a_rule_file_without_a_name_once(tmp_path):
    rules = tmp_path / "r.toml"
    rules.write_text("decks = 6\n")
    path = tmp_path / "cards.txt"
    path.write_text("7h 9c Td 7s 5d\n")
    head = run("replay", "--cards", str(path), "--rules", str(rules), "--boxes", "1",
               "--set", "hole_card=peek").stdout
    assert f"rules {rules} (modified: hole_card=\"peek\"); strategy basic" in head.splitlines()[0]
    assert head.count(str(rules)) == 1


def test_replay_warns_of_a_round_the_cards_ran_out_in(tmp_path):
    path = tmp_path / "cards.txt"
    path.write_text("7h 9c Td 7s 5d   8h Ks\n")  # round 2 has its first two cards only
    result = run("replay", "--cards", str(path))
    assert result.exit_code == 0
    assert "the cards ran out in round 2" in result.stderr
    assert "WARNING: the cards ran out in round 2 (cards 5-6: 8h Ks)" in result.stdout
    doc = json.loads(run("replay", "--cards", str(path), "-f", "json").stdout)
    assert doc["incomplete_round"] == {"round": 2, "start": 5, "cards": ["8h", "Ks"]}
    assert doc["run"]["partial"] is True
    exact = tmp_path / "exact.txt"
    exact.write_text("7h 9c Td 7s 5d\n")
    result = run("replay", "--cards", str(exact))
    assert "ran out" not in result.stderr + result.stdout


# ---------------------------------------------------------------------------------------------
# The replay trace cites the right rule and says once what happens


def trace(cards, rules=None, strategy=None):
    rules = rules or Rules()
    results = reference.play_stacked(cards, rules, [strategy or load_strategy("basic")])
    assert len(results) == 1
    return results[0], reference.format_round(results[0])


def test_trace_cites_4_1_for_a_blackjack_against_2_to_9_and_8_2_against_ten_or_ace():
    _, text = trace(deal(["Ah Kc"], "5d"))
    assert "wins +1.5  (blackjack paid 3 to 2)  [4.1]" in text and "8.2" not in text
    _, text = trace(deal(["Ah Kc"], "Td", then="5s 3c"))
    assert "blackjack waits" in text and "(blackjack paid 3 to 2)  [8.2]" in text


def test_trace_cites_11_c_for_a_split_ace_21():
    _, text = trace(deal(["Ah Ac"], "9d", then="Ks Qd 9s"))
    wins = [ln for ln in text.splitlines() if "wins +1.0" in ln]
    assert len(wins) == 2 and all("11 (c)" in ln and "paid 1 to 1" in ln for ln in wins)
    splitter = make_strategy(pairs={"A": "P"})
    result, text = trace(deal(["Ah Ac"], "Td", then="Ks Qd As"), strategy=splitter)
    lost = [ln for ln in text.splitlines() if "hand 1  loses" in ln]
    assert len(lost) == 1 and "11 (c)" in lost[0] and "not a blackjack" in lost[0]
    assert result.boxes[0].main_net == -10  # original-and-busted: the initial wager taken once


def test_trace_under_original_says_once_what_happens_to_a_busted_hand():
    rules = Rules(dealer_blackjack_takes="original")
    splitter = make_strategy(pairs={"8": "P"}, hard={18: "S", 13: "H"})
    # dealer blackjack: hand 2's busted wager comes back, the box loses its initial wager only
    result, text = trace(deal(["8h 8c"], "Td", then="Ks 5s 9d As"), rules, splitter)
    hand2 = [ln for ln in text.splitlines() if "box 1 hand 2" in ln]
    assert not any("loses" in ln or "stands off" in ln for ln in hand2), hand2
    assert any("busted wager returned +0.0" in ln for ln in hand2)
    assert sum("busts" in ln for ln in hand2) == 1 and "waits" in hand2[-2]
    assert result.boxes[0].main_net == -10
    # no dealer blackjack: the bust is lost, said once at the settlement
    result, text = trace(deal(["8h 8c"], "Td", then="Ks 5s 9d 7s"), rules, splitter)
    hand2 = [ln for ln in text.splitlines() if "box 1 hand 2" in ln]
    assert sum("loses -1.0" in ln for ln in hand2) == 1 and not any("+0.0" in ln for ln in hand2)
    assert result.boxes[0].main_net == 0  # 18 beats 17 (+1), the bust lost (-1)
    # other rules: a bust loses at once (12.2), as before
    _, text = trace(deal(["8h 8c"], "Td", then="Ks 5s 9d As"), Rules(), splitter)
    assert "box 1 hand 2  busts, loses -1.0" in text


# ---------------------------------------------------------------------------------------------
# Messages, lint, README


def test_negative_rounds_say_must_be_at_least_1():
    for value in ("-5", "0", "-1e3", "-2k"):
        message = user_error(run("simulate", "--rounds", value, "-q"), "--rounds",
                             "must be at least 1")
        assert "not a whole number" not in message


def test_make_lint_has_ruff_and_passes():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    makefile = (ROOT / "Makefile").read_text()
    lint = makefile.split("\nlint:", 1)[1].split("\n\n", 1)[0]
    extra = "test" if ".installed-test" in lint else "dev"
    assert any(d.split(">")[0].split("=")[0].strip() == "ruff" for d in extras[extra])
    assert "ruff check simulator tests" in lint
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "simulator", "tests"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_readme_schema_documents_every_json_key_and_the_csv_sections():
    readme = (ROOT / "README.md").read_text()
    schema = readme.split("## JSON output", 1)[1].split("\n## ", 1)[0]
    for key in ("results.exact", "timing.scheduler", "timing.checkpoint", "timing.resumed_rounds",
                "seven_seven_play", "interval_note", "run.partial"):
        assert key in schema, key
    for section in ("`exact`", "`run`", "`rules`", "`note`"):
        assert section in schema, section


@pytest.mark.slow
def test_exact_insurance_per_unit_staked_agrees_with_a_simulation():
    # 10^8 rounds of the insurance-taker, every round from a full shoe (the exact analysis's
    # assumption): the exact figure within 4 standard errors, the old one (-7.04%) beyond 4.
    import dataclasses

    from simulator.exact.compare import exact_figures

    rules = dataclasses.replace(Rules(), shuffle="every-round", super_sevens=False)
    taker = load_strategy("insurance-taker")
    total = engine.run(rules, taker, 100_000_000, seed=94, chunk_rounds=2_000_000)
    ins = tally.summarize(total, rules)["insurance"]
    fig, _ = exact_figures(rules, taker)
    exact = fig["insurance"]["per_unit_staked"]
    assert abs(ins["mean"] - exact) < 4 * ins["se"], (ins["mean"], ins["se"], exact)
    old = fig["insurance"]["per_initial_wager"] / (0.5 * 24 / 312)
    assert abs(ins["mean"] - old) > 4 * ins["se"]


# ---------------------------------------------------------------------------------------------
# --precision: every format says the target, the half-width reached and whether it was met


@pytest.mark.parametrize("target, met", [("0.5", True), ("0.001", False)])
def test_precision_result_is_in_the_table_and_csv_as_in_json(target, met):
    args = ["simulate", "--precision", target, "--max-rounds", "20k", "--chunk-rounds", "10k",
            "--seed", "7", "--quiet"]
    p = json.loads(run(*args, "-f", "json").stdout)["run"]["precision"]
    assert p["met"] is met
    rows = run_section(csv_rows(run(*args, "-f", "csv").stdout))
    assert {k: rows[f"precision:{k}"] for k in p} == {
        k: ("true" if v else "false") if isinstance(v, bool) else "" if v is None else str(v)
        for k, v in p.items()}
    table = run(*args).stdout
    line = next(ln for ln in table.splitlines() if ln.startswith("Precision:"))
    assert f"±{100 * float(target):.4f}%" in line and f"±{100 * p['half_width']:.4f}%" in line
    if met:
        assert " met: " in line and "NOT" not in table.split("HOUSE EDGE")[0]
        assert "Result:    complete\n" in table
    else:
        assert "NOT met (stopped at --max-rounds 20,000)" in line
        assert "Result:    complete, precision target NOT met" in table
    # a run without a target has none of it
    plain = run("simulate", *TINY)
    assert "Precision:" not in plain.stdout
    assert not any(k.startswith("precision:") for k in run_section(csv_rows(
        run("simulate", *TINY, "-f", "csv").stdout)))


def test_replay_warns_of_cards_no_shoe_of_its_decks_holds(tmp_path):
    # Three aces of spades from one deck were played without a word.
    path = tmp_path / "cards.txt"
    path.write_text("As As As Ks Ks Ks Ks Ks 7h\n")
    one = run("replay", "--cards", str(path), "--set", "decks=1", "--strategy", "basic")
    assert one.exit_code == 0
    said = ("the cards hold more of a card than 1 deck does (As 3 times, Ks 5 times): played as "
            "given")
    assert f"bjsim: warning: {said}" in one.stderr
    four = run("replay", "--cards", str(path), "--set", "decks=4", "--strategy", "basic")
    assert "than 4 decks do (Ks 5 times)" in four.stderr
    assert "hold more" not in run("replay", "--cards", str(path)).stderr  # 6 decks hold them


def test_replay_output_carries_its_warnings(tmp_path):
    # The warning of cards no shoe holds was on stderr only: a saved text or json did not say
    # it, and it said "1 deck(s)".
    path = tmp_path / "cards.txt"
    path.write_text("As As As As As As As 5h Ks 9c 7d Td\n")
    said = "the cards hold more of a card than 6 decks do (As 7 times): played as given"
    out = tmp_path / "out.txt"
    result = run("replay", "--cards", str(path), "-o", str(out))
    assert result.exit_code == 0 and f"bjsim: warning: {said}" in result.stderr
    assert out.read_text().splitlines()[1] == f"WARNING: {said}"  # under the head line
    doc = json.loads(run("replay", "--cards", str(path), "-f", "json", "--set",
                         "penetration=0.5").stdout)
    assert doc["warnings"] == [said, "replay deals the cards as given, in order: penetration "
                                     "does not apply here (--cut stops play as a cut card would)"]
    good = tmp_path / "good.txt"
    good.write_text("7h 9c Td 7s 5d\n")
    assert json.loads(run("replay", "--cards", str(good), "-f", "json").stdout)["warnings"] == []
    assert "WARNING" not in run("replay", "--cards", str(good)).stdout


def test_super_sevens_contributions_are_percent_in_the_table_as_in_exact():
    # simulate printed 0.21417 where exact prints 21.3703% for the same figure.
    out = run("simulate", "--rounds", "20000", "--seed", "5", "-q").stdout
    line_a = next(ln for ln in out.splitlines() if ln.strip().startswith("(a)"))
    assert line_a.rstrip().endswith("%"), line_a


def test_simulate_says_beside_the_strategy_when_basic_is_the_nz_chart_under_other_rules():
    # the derived chart for H17 differs from the NZ one (it is cached by the report tests or
    # derived here): the header, json and csv say what basic is
    from simulator import derived
    from simulator.rules import apply_overrides

    derived.basic_for(apply_overrides(Rules(), ["dealer_hits_soft_17=true"]))
    args = ["simulate", "--set", "dealer_hits_soft_17=true", "--rounds", "20000", "--strategy",
            "basic"]
    note = ("basic is the NZ rules' chart; the one derived for these rules "
            "(dealer_hits_soft_17=true) differs")
    assert f"Strategy:  basic ({note})" in run(*args).stdout
    counted = json.loads(run("count", "--set", "dealer_hits_soft_17=true", "--rounds", "20000",
                             "--strategy", "basic", "--quiet", "-f", "json").stdout)
    assert counted["run"]["strategy_note"] == note  # count says it too
    assert json.loads(run(*args, "-f", "json").stdout)["run"]["strategy_note"] == note
    assert f"run,strategy_note,,{note}" in run(*args, "-f", "csv").stdout
    plain = json.loads(run("simulate", "--rounds", "20000", "-f", "json").stdout)
    assert plain["run"]["strategy_note"] is None


NEGATIVE_ZERO = re.compile(r"(?<![\w.])-0(\.0*)?(?![\d.])")  # -0, -0.0, -0.000 (and -0.000%)


def _negative_zeros(fmt: str, text: str) -> list:
    """The zeros printed with a minus sign in ``text``: json values, else words of the text."""
    if fmt == "json":
        found = []

        def walk(x):
            if isinstance(x, float) and x == 0 and math.copysign(1.0, x) < 0:
                found.append(x)
            elif isinstance(x, dict):
                for v in x.values():
                    walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)

        walk(json.loads(text))
        return found
    return [m.group(0) for m in NEGATIVE_ZERO.finditer(text)]


@pytest.mark.parametrize("args", [["-f", "table"], ["-f", "csv"], ["-f", "json"],
                                  ["-f", "table", "--exact"]])
def test_simulate_prints_an_even_house_edge_as_0_not_minus_0(args):
    """One round of seed 5 breaks even: the house edge (minus the return) is 0 in every format,
    not -0.0 (csv, json) nor -0.0000% (the --exact table)."""
    result = run("simulate", "-q", "--rounds", "1", "--seed", "5", *args)
    assert result.exit_code == 0, result.output
    fmt = args[1]
    if fmt == "json":
        assert json.loads(result.stdout)["results"]["house_edge"]["mean"] == 0
    assert _negative_zeros(fmt, result.stdout) == [], result.stdout


@pytest.mark.parametrize("fmt", ["table", "csv", "json", "markdown"])
def test_compare_prints_an_even_house_edge_as_0_not_minus_0(fmt):
    """The 8-deck game of 100 rounds breaks even: its house edge reads 0 in every format (it
    read -0.000 in the table and markdown, -0 in csv, -0.0 in json)."""
    result = run("compare", "-q", "--rounds", "100", "--vary", "decks=8", "--strategy", "basic",
                 "--same-strategy", "--no-exact", "-f", fmt)
    assert result.exit_code == 0, result.output
    if fmt == "json":
        assert json.loads(result.stdout)["variants"][0]["house_edge"]["mean"] == 0
    assert _negative_zeros(fmt, result.stdout) == [], result.stdout


@pytest.mark.parametrize("sets, name, said", [
    (["dealer_hits_soft_17=no"], "nz1994", []),
    (["blackjack_pays=3:2", "decks=6"], "nz1994", []),
    (["dealer_hits_soft_17=yes"], "nz1994 (modified: dealer_hits_soft_17=true)",
     ["dealer_hits_soft_17=yes"]),
    (["dealer_hits_soft_17=1"], "nz1994 (modified: dealer_hits_soft_17=true)",
     ["dealer_hits_soft_17=1"]),
    (["dealer_hits_soft_17=True"], "nz1994 (modified: dealer_hits_soft_17=true)",
     ["dealer_hits_soft_17=True"]),
    (["decks= 8", "blackjack_pays=6:5"], "nz1994 (modified: decks=8, blackjack_pays=1.2)",
     ["decks=8", "blackjack_pays=6:5"]),
    (["hole_card='peek'", "super_sevens_pays=3,50,100,500,1000"],
     'nz1994 (modified: hole_card="peek", super_sevens_pays=[3, 50, 100, 500, 1000])',
     ['hole_card="peek"', "super_sevens_pays=3,50,100,500,1000"]),
])
def test_set_names_only_real_changes_as_the_rule_file_writes_them(sets, name, said):
    """The rules' name heads a report: one game has one name however --set is spelt, and a
    --set of the file's own value is no modification (it read "nz1994 (modified:
    dealer_hits_soft_17=no)"). The changes themselves (run.overrides) are listed as written."""
    from simulator.rules import canonical_change

    args = [a for s in sets for a in ("--set", s)]
    doc = json.loads(run("simulate", "-q", "--rounds", "10", *args, "-f", "json").stdout)
    assert doc["run"]["rules_name"] == name
    assert doc["run"]["overrides"] == said
    shown = json.loads(run("rules", "show", *args, "-f", "json").stdout)
    assert shown["meta"]["name"] == name
    for change in said:  # the name's values as `rules show --format toml` writes them
        key, value = canonical_change(change).split("=", 1)
        assert f"{key}={value}" in name
        assert f"{key} = {value}\n" in run("rules", "show", *args, "-f", "toml").stdout
    table = run("compare", "-q", "--rounds", "100", *args, "--vary-strategy", "mimic-dealer",
                "--strategy", "basic", "--no-exact").stdout
    # (then, where the changes leave the Gazette, what it says of them: compare's Gazette word)
    assert re.search(re.escape("(configs/nz1994.toml" + "".join(f" --set {c}" for c in said))
                     + r"(; Gazette: [^)]*\)[^)]*)?\)", table), table


def test_changes_are_listed_as_the_user_wrote_them_in_every_command():
    """simulate's Changed: line, run.overrides (json, csv) and compare's baseline command line
    quoted --set super_sevens_bet=2 as super_sevens_bet=2.0 and blackjack_pays=6:5 as 1.2 (as a
    rule file writes them), where the no-effect warning quotes what was typed; the rules' name
    keeps the rule file's spelling and the rule set's key order (one game, one name)."""
    args = ["--set", "super_sevens_bet=2", "--set", "blackjack_pays=6:5", "--set",
            "dealer_hits_soft_17=yes", "--set", "hole_card=peek", "--boxes", "2"]
    said = ["super_sevens_bet=2", "blackjack_pays=6:5", "dealer_hits_soft_17=yes",
            'hole_card="peek"', "boxes=2"]
    name = ('nz1994 (modified: hole_card="peek", blackjack_pays=1.2, dealer_hits_soft_17=true, '
            'boxes=2, super_sevens_bet=2)')
    table = run("simulate", *TINY, *args).stdout
    assert f"\nRules:     {name} (configs/nz1994.toml)\nChanged:   {', '.join(said)}\n" in table
    assert "Unlike nz1994:" not in table  # (every change is named, in the name)
    doc = json.loads(run("simulate", *TINY, *args, "-f", "json").stdout)
    assert doc["run"]["overrides"] == said and doc["run"]["rules_name"] == name
    rows = run_section(csv_rows(run("simulate", *TINY, *args, "-f", "csv").stdout))
    assert rows["overrides"] == "; ".join(said) and rows["rules_name"] == name
    off = run("simulate", *TINY, "--set", "super_sevens_bet=2", "--no-super-sevens")
    assert "\nChanged:   super_sevens_bet=2 (no effect: " in off.stdout
    assert "--set super_sevens_bet=2 has no effect" in off.stderr
    head = run("compare", *TINY, *args, "--vary-strategy", "mimic-dealer", "--strategy",
               "basic", "--no-exact").stdout.splitlines()[0]
    assert f"against the baseline {name} (configs/nz1994.toml --set " in head
    assert re.search(re.escape("".join(f" --set {c}" for c in said))
                     + r"(; Gazette: [^)]*\)[^)]*)?\)", head), head
    count = json.loads(run("count", *TINY, *args[2:], "--plan", "hi-lo-flat", "-f",
                           "json").stdout)  # (count takes its Super Sevens stake from the plan)
    assert count["run"]["overrides"] == said[1:]
    assert count["run"]["rules_name"] == name.replace(", super_sevens_bet=2", "")


def test_simulate_exact_gives_an_even_return_as_a_house_edge_of_0_not_minus_0():
    """`simulate --exact` turns each simulated return (Super Sevens, insurance) into a house
    edge; an even return (a 3-to-1 win and three losses) read -0.0 there."""
    import math

    from simulator.exact.compare import _house_edge

    edge = _house_edge({"mean": 0.0, "se": 0.5, "interval_note": None})
    assert edge["mean"] == 0 and math.copysign(1.0, edge["mean"]) == 1.0
    assert _house_edge({"mean": 0.25, "se": None})["mean"] == -0.25
    assert _house_edge({"mean": None})["mean"] is None


def test_the_rules_line_counts_one_deck_and_one_box_in_the_singular():
    """simulate's and count's rules lines said "1 decks, 1 box(es)"."""
    out = run("simulate", "-n", "2000", "-q", "--set", "decks=1").output
    assert "1 deck, 1 box, Super Sevens on" in out and "1 decks" not in out
    assert "6 decks, 3 boxes," in run("simulate", "-n", "2000", "-q", "--boxes", "3").output
    counted = run("count", "-n", "20000", "--chunk-rounds", "10000", "-q", "--set", "decks=1",
                  "--set", "penetration=0.5").output
    assert "; 1 deck, penetration 0.5" in counted and "1 decks" not in counted, counted


def test_trace_says_a_declined_insurance_as_a_declined_even_money():
    # replay showed "declines even money" but nothing of an insurance not taken
    _, text = trace(deal(["7s As"], "Ah", then="2d Td"))
    assert "box 1         declines insurance  (strategy: dealer ace up)  [9.1]" in text
    _, text = trace(deal(["7s As"], "Ah", then="2d Td"), strategy=load_strategy("insurance-taker"))
    assert "insures (0.5)" in text and "declines insurance" not in text
    _, text = trace(deal(["7s As"], "9h", then="2d Td"))
    assert "insurance" not in text  # (offered only under an ace)


@pytest.mark.parametrize("command", [["simulate"], ["count"],
                                     ["compare", "--vary", "decks=8", "--no-exact"]])
def test_the_header_never_says_a_chunk_holds_more_than_the_run(command):
    # "1,000 rounds ...; chunks of 1,000,000 rounds": a chunk holds at most the run's rounds
    small = run(*command, "--rounds", "1000", "-q").stdout
    assert "one chunk of 1,000 rounds (--chunk-rounds " in small and "chunks of" not in small
    many = run(*command, "--rounds", "3000", "--chunk-rounds", "1000", "-q").stdout
    assert "chunks of 1,000 rounds" in many and "one chunk" not in many


def test_simulate_count_and_exact_say_what_the_gazette_says_of_the_rules():
    # a designer's review: only compare and the report said a pay table was outside the
    # Gazette; simulate said "Changed:", exact and count only the modified name
    args = ["--set", "super_sevens_pays=3,50,100,500,2000", "--set", "decks=8"]
    line = "\nGazette:   outside (14.3); within (3.1)\n"
    assert line in run("simulate", *TINY, *args).stdout
    assert line in run("count", "-n", "2000", "--chunk-rounds", "2000", "-q", *args).stdout
    assert line in run("exact", *args).stdout
    for plain in (["--boxes", "3"], [],  # a choice alone, or the NZ game: no line, nor for a
                  ["--no-super-sevens", "--set", "super_sevens_pays=3,50,100,500,1000"]):
        assert "Gazette:" not in run("simulate", *TINY, *plain).stdout  # key of no effect
    sweep = run("count", "-n", "2000", "--chunk-rounds", "2000", "-q", "--penetrations",
                "0.7,0.8", *args).stdout  # (a diff read: the sweep's head had none)
    assert "\nGazette: outside (14.3); within (3.1)\n" in sweep
