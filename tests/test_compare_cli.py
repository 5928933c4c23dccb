"""``bjsim compare`` through click's CliRunner: help, formats, --plot, and one-line errors."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import sys
import time
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

from simulator import __version__
from simulator.cli import cli

# the baseline's strategy for every game, no exact figures: no derivation, a second or two
ROOT = Path(__file__).resolve().parent.parent
TINY = ["--rounds", "4000", "--chunk-rounds", "2000", "--pair-rounds", "50", "--seed", "3",
        "--quiet", "--strategy", "basic", "--same-strategy", "--no-exact"]


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def assert_user_error(result, *words):
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:"), result.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


def test_help_has_an_example_and_every_option_help():
    result = run("compare", "--help")
    assert result.exit_code == 0 and "Example" in result.stdout
    for option in ("--vary", "--variant", "--vary-strategy", "--same-strategy", "--all-variants",
                   "--precision", "--plot", "--pair-rounds", "--checkpoint", "--scheduler"):
        assert option in result.stdout


@pytest.mark.parametrize("args, words", [
    ([], ["no variant", "--vary"]),
    (["--vary", "deks=8"], ["deks"]),
    (["--vary", "decks=9"], ["decks", "1-8"]),
    (["--variant", "nope.toml"], ["nope.toml", "no such variant file", "variants/NAME", "h17"]),
    (["--vary-strategy", "nope"], ["nope"]),
    (["--vary", "decks=8", "--pair-rounds", "5000"], ["--pair-rounds", "--chunk-rounds"]),
    (["--vary", "decks=8", "--resume"], ["--resume", "--checkpoint"]),
    (["--vary", "decks=8", "--precision", "0.01", "--rounds", "1000"], ["--rounds"]),
])
def test_mistakes_are_one_line_with_exit_code_2(args, words):
    assert_user_error(run("compare", *TINY, *args), *words)


def test_a_pair_size_larger_than_the_rounds_is_refused_as_one_larger_than_the_chunk():
    # --rounds 1000 --pair-rounds 5000 played one block of 1,000 rounds, the report saying
    # "in blocks of 5,000"; --pair-rounds larger than --chunk-rounds was refused already. The
    # smaller of the two is named; with --precision the rounds are --max-rounds
    args = ["compare", "--vary", "decks=8", "--no-exact", "-q"]
    assert_user_error(run(*args, "--rounds", "1000", "--pair-rounds", "5000"),
                      "--pair-rounds 5,000 is larger than --rounds 1,000: allowed at most the "
                      "rounds")
    assert_user_error(run(*args, "--rounds", "1000", "--chunk-rounds", "2000", "--pair-rounds",
                          "5000"), "larger than --rounds 1,000")
    assert_user_error(run(*args, "--rounds", "10000", "--chunk-rounds", "1000", "--pair-rounds",
                          "5000"), "larger than --chunk-rounds 1,000: allowed at most the chunk")
    assert_user_error(run(*args, "--precision", "0.01", "--max-rounds", "2000", "--pair-rounds",
                          "5000"), "--pair-rounds 5,000 is larger than --max-rounds 2,000")
    ok = run(*args, "--rounds", "1000", "--pair-rounds", "1000")  # (as many: one block)
    assert ok.exit_code == 0 and "in blocks of 1,000" in ok.stdout, ok.output


def test_a_run_shorter_than_the_default_block_names_the_one_block_it_plays():
    # --rounds 10 said "in blocks of 48" (json pair_rounds 48), its one block 10 rounds, as
    # a --chunk-rounds 10 already said "in blocks of 10"; the figures are the same (block 0)
    args = ["compare", "--vary", "dealer_hits_soft_17=true", "--no-exact", "-q", "-f", "json"]
    docs = [json.loads(run(*args, "--rounds", "10", *more).stdout)
            for more in ([], ["--pair-rounds", "10"])]
    assert [(d["run"]["pair_rounds"], d["run"]["blocks"]) for d in docs] == [(10, 1)] * 2
    assert [(d["baseline"], d["variants"]) for d in docs[:1]] == [
        (d["baseline"], d["variants"]) for d in docs[1:]]
    assert "in blocks of 10\n" in run(*args[:-2], "--rounds", "10").stdout
    assert json.loads(run(*args, "--rounds", "1000").stdout)["run"]["pair_rounds"] == 48


def test_precision_with_blocks_too_short_for_a_cut_card_is_refused_before_any_round():
    # --vary penetration=0.6 --pair-rounds 16 --precision 0.002 ran to --max-rounds 2e6 and
    # reported "NOT met": no block of 16 rounds reaches the cut card, so the penetration's
    # difference is 0 in every block; only a larger --pair-rounds can help.
    # (dealer_hits_soft_17 differs in every round: measured in any block, never named)
    args = ["--chunk-rounds", "2000", "--seed", "3", "--quiet", "--strategy", "basic",
            "--same-strategy", "--no-exact", "--vary", "penetration=0.6", "--vary",
            "dealer_hits_soft_17=true", "--precision", "0.002"]
    result = run("compare", *args, "--max-rounds", "2e6", "--pair-rounds", "16")
    assert_user_error(result, "--pair-rounds 16:", "from which penetration=0.6 differs",
                      "never met", "or more with --precision")
    assert "dealer_hits_soft_17" not in result.stderr
    least = int(re.search(r"allowed --pair-rounds (\d+) or more", result.stderr).group(1))
    assert 16 < least <= 48
    # the least it allows is the least: one round fewer is refused, that many is played
    assert_user_error(run("compare", *args, "--max-rounds", "2e6", "--pair-rounds",
                          str(least - 1)), f"allowed --pair-rounds {least} or more")
    ok = run("compare", *args, "--max-rounds", "4000", "--pair-rounds", str(least))
    assert ok.exit_code == 0, ok.stderr
    # without --precision it runs (the table's note says why no interval)
    ok = run("compare", *TINY, "--vary", "penetration=0.6", "--pair-rounds", "16")
    assert ok.exit_code == 0 and "more rounds do not change that" in ok.stdout


def test_precision_refused_for_short_blocks_names_only_the_variants_they_do_not_reach():
    # --vary penetration=0.6 --vary penetration=0.9 --pair-rounds 34 --precision 0.002 named
    # both, "from which penetration=0.6, penetration=0.9 differs", though 0.6's shortest shoe
    # (33 rounds) fits a block of 34: only 0.9's is longer
    args = ["--chunk-rounds", "2000", "--max-rounds", "4000", "--seed", "3", "--quiet",
            "--strategy", "basic", "--same-strategy", "--no-exact", "--vary", "penetration=0.6",
            "--vary", "penetration=0.9", "--precision", "0.002"]
    result = run("compare", *args, "--pair-rounds", "34")
    assert_user_error(result, "from which penetration=0.9 differs from the baseline, so its "
                      "difference is 0 in every block")
    assert "penetration=0.6" not in result.stderr
    # blocks shorter than both: both named, in the plural
    assert_user_error(run("compare", *args, "--pair-rounds", "16"),
                      "from which penetration=0.6, penetration=0.9 differ from the baseline, "
                      "so their differences are 0 in every block")


def test_the_cut_card_note_of_chunks_as_blocks_names_chunk_rounds():
    # compare --vary penetration=0.6 --chunk-rounds 16 --rounds 1e4 said "a larger
    # --pair-rounds: at least 33", and --pair-rounds 33 is refused as larger than the chunk:
    # without --pair-rounds the block is the chunk
    args = ["--rounds", "4000", "--seed", "3", "--quiet", "--strategy", "basic",
            "--same-strategy", "--no-exact", "--vary", "penetration=0.6"]
    text = run("compare", *args, "--chunk-rounds", "16").stdout
    assert "no block of 16 rounds reaches the cut card" in text
    assert "a larger --pair-rounds" not in text
    least = int(re.search(r"a larger --chunk-rounds: at least (\d+)", text).group(1))
    assert 16 < least <= 48
    # the advice is taken: chunks (so blocks) of that many rounds can reach the cut card
    ok = run("compare", *args, "--chunk-rounds", str(least))
    assert ok.exit_code == 0 and "more rounds do not change that" not in ok.stdout, ok.stderr


def test_a_fixed_chart_that_never_surrenders_says_surrender_is_worth_nothing_to_it():
    # compare --strategy basic-super-sevens --vary surrender=late: +0.000 [+0.000, +0.000],
    # described only as "plays identically to the baseline"
    args = ["--rounds", "2000", "--chunk-rounds", "1000", "--seed", "3", "--quiet", "--no-exact",
            "--strategy", "basic-super-sevens", "--vary", "surrender=late"]
    doc = json.loads(run("compare", *args, "-f", "json").stdout)
    note = doc["variants"][0]["note"]
    assert note.startswith('the chart played (basic-super-sevens) makes no play that '
                           'surrender="late" changes, so it is worth exactly nothing')
    assert doc["baseline"].get("note") is None
    rows = list(csv.DictReader(io.StringIO(run("compare", *args, "-f", "csv").stdout)))
    assert {r["note"] for r in rows if r["figures_of"] == "game"
            and r["variant"] == 'surrender="late"'} == {note}
    text = run("compare", *args).stdout
    assert note in text and "Worth nothing to the chart played" in text


@pytest.mark.parametrize("args, option", [
    (["--vary", "--rounds", "1e5"], "--rounds"), (["--vary", "--rounds"], "--rounds"),
    (["--vary", "decks=8", "--vary", "--seed", "3"], "--seed"),
    (["--vary", "-n", "1e5"], "-n"), (["--vary", "-o", "x.txt"], "-o"),
    (["--vary", "-f", "json"], "-f"), (["--vary", "decks=8", "--vary", "-q"], "-q"),
])
def test_a_vary_value_that_is_an_option_names_vary(args, option):
    # compare --vary --rounds 1e5, and --vary -n 1e5 (-o x.txt, -f json), gave click's "Got
    # unexpected extra argument (1e5)", naming neither --vary nor what it takes
    assert_user_error(run("compare", *args), f"'--vary': {option}: an option, not a change: "
                      "allowed KEY=VALUE[,KEY=VALUE...]")


def test_a_vary_value_starting_with_a_dash_and_no_key_is_not_a_change():
    assert_user_error(run("compare", "--vary", "-1", "0.5"),
                      "'--vary': -1: not a change: allowed KEY=VALUE[,KEY=VALUE...]")


def test_a_vary_change_with_a_negative_value_is_checked_as_a_change():
    # (a value after "=" starting with "-" is not an option: the rule set's check refuses it)
    assert_user_error(run("compare", *TINY, "--vary", "penetration=-1"),
                      "--vary penetration=-1", "'penetration' = -1 is out of range")


def test_variant_files_naming_different_baselines_need_rules(tmp_path):
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text('[variant]\nbaseline = "x.toml"\n[changes]\ndecks = 8\n')
    b.write_text('[variant]\nbaseline = "y.toml"\n[changes]\ndecks = 4\n')
    assert_user_error(run("compare", *TINY, "--variant", str(a), "--variant", str(b)),
                      "--rules")


def test_a_variant_files_bad_strategy_or_baseline_names_the_file_and_key(tmp_path):
    # They said "unknown strategy 'nosuch'" and "configs/x.toml: no such rule file" alone.
    v = tmp_path / "v.toml"
    v.write_text('[variant]\nstrategy = "nosuch"\n[changes]\ndecks = 8\n')
    assert_user_error(run("compare", *TINY, "--variant", str(v)),
                      f'{v}: key \'variant.strategy\' = "nosuch": unknown strategy \'nosuch\'')
    v.write_text('[variant]\nbaseline = "x.toml"\n[changes]\ndecks = 8\n')
    assert_user_error(run("compare", *TINY, "--variant", str(v)),
                      f"{v}: key 'variant.baseline' names {tmp_path / 'x.toml'}: no such rule "
                      "file")


def test_each_game_has_a_label_of_its_own(tmp_path, monkeypatch):
    # Two variants both labelled h17 (one of them 8 decks), or a variant labelled as the
    # baseline, printed rows a reader could not tell apart; csv and json rows go by label.
    fake = tmp_path / "fake.toml"
    fake.write_text('[variant]\nname = "h17"\n[changes]\ndecks = 8\n')
    assert_user_error(run("compare", *TINY, "--variant", str(fake), "--variant", "variants/h17"),
                      "'h17' has the label of", str(fake))
    fake.write_text('[variant]\nname = "nz1994"\n[changes]\ndecks = 4\n')
    assert_user_error(run("compare", *TINY, "--variant", str(fake)),
                      "'nz1994' has the label of the baseline")
    for name in ('""', '"  "', '"a\\nb"'):  # an empty row label, a row split in two
        fake.write_text(f'[variant]\nname = {name}\n[changes]\ndecks = 8\n')
        assert_user_error(run("compare", *TINY, "--variant", str(fake)), "variant.name")


@pytest.mark.parametrize("text, said", [
    ("[chnages]\ndecks = 8\n", "unknown key 'chnages': did you mean 'changes'?"),
    ('[varaint]\nbaseline = "x.toml"\n', "unknown key 'varaint': did you mean 'variant'?"),
])
def test_a_misspelt_variant_file_header_is_told_the_closest_one(text, said, tmp_path,
                                                                 monkeypatch):
    # with no [variant] or [changes] the file was read as a whole rule file: "unknown key
    # 'chnages': allowed decks, penetration, ..." with no did-you-mean, where '[change]' beside
    # a [variant] had "did you mean 'changes'?"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.toml").write_text(text)
    assert_user_error(run("compare", *TINY, "--variant", "v.toml"), f"Error: v.toml: {said}")


def test_a_variant_files_strategy_file_is_found_beside_it(tmp_path, monkeypatch):
    # It was read from the current folder (and the baseline from the file's own): the same
    # file worked from its folder and not from another.
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "mine.toml").write_text((ROOT / "strategies" / "mimic-dealer.toml").read_text())
    (sub / "v.toml").write_text('[variant]\nstrategy = "mine.toml"\n')
    monkeypatch.chdir(tmp_path)
    result = run("compare", *TINY, "--variant", "sub/v.toml", "-f", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["variants"][0]["label"] == "v"
    assert run("rules", "check", "sub/v.toml").exit_code == 0
    # a strategy file of any name, as --strategy takes one: beside the variant file too
    (sub / "mine.txt").write_text((ROOT / "strategies" / "mimic-dealer.toml").read_text())
    (sub / "v.toml").write_text('[variant]\nstrategy = "mine.txt"\n')
    result = run("rules", "check", "sub/v.toml")
    assert result.exit_code == 0 and "strategy=sub/mine.txt" in result.stdout, result.output


def test_table_names_the_pairing_and_each_variant():
    result = run("compare", *TINY, "--vary", "dealer_hits_soft_17=true",
                 "--vary-strategy", "mimic-dealer")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "4,000 rounds per game, seed 3" in out and "blocks of 50" in out
    assert "dealer_hits_soft_17=true" in out and "strategy=mimic-dealer" in out
    assert "Pairing (common random numbers)" in out and "80 paired blocks" in out
    assert "Super Sevens" in out  # a strategy variant touches it (the 7-7 play)


def test_the_super_sevens_table_shows_the_variants_that_change_the_7_7_play():
    # Only a strategy named in the changes counted: max_hands = 1 (7-7 not split: it stands
    # against 2-6, no third card) changes Super Sevens, exactly by -1.7 points, and was left
    # out; H17 and a strategy with the same 7-7 play cannot change it.
    args = ["compare", *TINY, "--no-exact", "--vary", "max_hands=1", "--vary",
            "dealer_hits_soft_17=true", "--vary-strategy", "basic-super-sevens", "-f", "json"]
    doc = json.loads(run(*args).stdout)
    touched = {v["label"]: v["super_sevens_touched"] for v in doc["variants"]}
    assert touched == {"max_hands=1": True, "dealer_hits_soft_17=true": False,
                       "strategy=basic-super-sevens": True}
    out = run("compare", *TINY, "--no-exact", "--same-strategy", "--vary", "max_hands=1",
              "--vary", "dealer_hits_soft_17=true").stdout
    table = out.split("Super Sevens (rule 14) house edge, per unit staked")[1].split("\n\n")[1]
    assert "max_hands=1" in table and "dealer_hits" not in table


def test_csv_json_and_markdown_agree():
    args = ["compare", *TINY, "--vary", "decks=8"]
    doc = json.loads(run(*args, "-f", "json").stdout)
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)))
    md = run(*args, "-f", "markdown").stdout
    v = doc["variants"][0]
    assert doc["baseline"]["rules"]["decks"] == 6 and v["rules"]["decks"] == 8
    assert v["changes"] == ["decks=8"] and doc["run"]["pair_rounds"] == 50
    he = next(r for r in rows if r["variant"] == "decks=8" and r["figure"] == "house_edge")
    assert float(he["difference"]) == pytest.approx(v["difference"]["house_edge"]["mean"])
    assert float(he["difference_se"]) == pytest.approx(v["difference"]["house_edge"]["se"])
    # at full precision, as every command's csv: it was rounded to 10 significant digits
    # (se 0.002528369232 against json's 0.0025283692319615554: a pipeline's review)
    for key, col in (("mean", "value"), ("se", "se"), ("ci95_low", "ci95_low")):
        assert float(he[col]) == v["house_edge"][key], key
    for key in ("se", "ci95_low", "ci95_high", "variance_reduction", "correlation"):
        assert float(he[f"difference_{key}" if key.startswith(("se", "ci")) else key]) == v[
            "difference"]["house_edge"][key], key
    assert "| decks=8 |" in md and f"{100 * v['difference']['house_edge']['mean']:+.3f}" in md
    assert {r["exact_value"] for r in rows} == {""}  # --no-exact
    no_exact = doc["variants"][0]["difference"]  # the documented keys, null (they were missing)
    for key in ("house_edge", "super_sevens"):
        assert {k: no_exact[key][k] for k in ("exact_scope", "exact", "z")} == dict.fromkeys(
            ("exact_scope", "exact", "z"))
    # each game's exact figure, as a house edge (json: its exact house edge and Super Sevens ev)
    args.remove("--no-exact")
    doc = json.loads(run(*args, "-f", "json").stdout)
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)))
    for game, name in ((doc["baseline"], doc["baseline"]["label"]), (doc["variants"][0],
                                                                      "decks=8")):
        got = {r["figure"]: r["exact_value"] for r in rows
               if r["variant"] == name and r["figures_of"] == "game"}
        assert float(got["house_edge"]) == pytest.approx(game["exact"]["house_edge"], rel=1e-9)
        assert float(got["super_sevens"]) == pytest.approx(
            game["exact"]["super_sevens_house_edge"], rel=1e-9)
    # json: every Super Sevens figure a house edge, as the main game's: each game's, its exact
    # one, and the differences of them (no "mean" that is a return beside them)
    base, v = doc["baseline"], doc["variants"][0]
    d = v["difference"]["super_sevens"]
    assert "mean" not in v["super_sevens"] and "super_sevens_ev" not in v["exact"]
    assert v["super_sevens"]["house_edge"] > 0.05 and v["exact"]["super_sevens_house_edge"] > 0.05
    assert d["mean"] == pytest.approx(v["super_sevens"]["house_edge"]
                                      - base["super_sevens"]["house_edge"])
    assert d["exact"] == pytest.approx(v["exact"]["super_sevens_house_edge"]
                                       - base["exact"]["super_sevens_house_edge"])
    ss = next(r for r in rows if r["variant"] == "decks=8" and r["figure"] == "super_sevens"
              and r["figures_of"] == "game")
    assert float(ss["value"]) == pytest.approx(v["super_sevens"]["house_edge"])
    assert float(ss["difference"]) == pytest.approx(d["mean"])
    # the run on every csv row, as json's run says it
    assert {(r["rounds"], r["seed"], r["partial"], r["precision_target"]) for r in rows} == {
        (str(doc["run"]["rounds_played"]), str(doc["run"]["seed"]), "false", "")}


def test_a_changed_baseline_is_named_and_its_rules_given_in_every_format():
    # --set decks=8 --set dealer_hits_soft_17=true labelled the baseline plain "nz1994" with no
    # changes in every format (csv: an empty changes column and no rules), where simulate and
    # report name it "nz1994 (modified: ...)": an 8-deck H17 game read as the NZ one.
    sets = ["--set", "decks=8", "--set", "dealer_hits_soft_17=true"]
    args = ["compare", *TINY, *sets, "--vary", "blackjack_pays=6:5"]
    label = "nz1994 (modified: decks=8, dealer_hits_soft_17=true)"
    simulated = list(csv.DictReader(io.StringIO(run(
        "simulate", "-q", "-n", "1000", *sets, "-f", "csv").stdout)))
    assert {r["item"]: r["value"] for r in simulated if r["section"] == "run"}[
        "rules_name"] == label  # (as simulate names it)
    doc = json.loads(run(*args, "-f", "json").stdout)
    assert doc["baseline"]["label"] == label
    assert doc["baseline"]["changes"] == ["decks=8", "dealer_hits_soft_17=true"]
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)))
    assert (rows[0]["variant"], rows[0]["changes"]) == (label, "decks=8; dealer_hits_soft_17=true")
    for game in (doc["baseline"], *doc["variants"]):  # each game's rules, as simulate's csv
        rules = {r["figure"]: r["value"] for r in rows
                 if r["variant"] == game["label"] and r["figures_of"] == "rules"}
        want = {f"rules.{r['item']}": r["value"] for r in simulated if r["section"] == "rules"}
        if game is not doc["baseline"]:
            want["rules.blackjack_pays"] = "1.2"
        assert rules == want, game["label"]
    figures = [r for r in rows if r["figures_of"] not in ("rules", "strategy_sha256")]  # (the
    # figures first)
    assert rows[:len(figures)] == figures and {r["figure"] for r in figures} == {
        "house_edge", "super_sevens"}
    assert float(rows[0]["value"]) == pytest.approx(doc["baseline"]["house_edge"]["mean"])
    table, md = run(*args).stdout, run(*args, "-f", "markdown").stdout
    assert f"\n{label}  " in table and f"| {label} |" in md
    assert f"against the baseline {label} (configs/nz1994.toml --set decks=8 --set " \
           "dealer_hits_soft_17=true; Gazette: outside (12.3); within (3.1))" in \
        table.splitlines()[0]


def test_differences_are_in_percentage_points_in_every_text_format():
    # The columns read "difference %" and "exact diff %", and the plot "% of the initial wager":
    # a difference of two house edges is in percentage points, and "+0.213%" reads as a relative
    # change. The report prints "+0.213 pp".
    args = ["compare", *TINY, "--vary", "dealer_hits_soft_17=true"]
    args.remove("--no-exact")
    for fmt in ("table", "markdown"):
        out = run(*args, "-f", fmt).stdout
        head = next(ln for ln in out.splitlines() if "variant" in ln and "exact" in ln)
        for column in ("difference (pp)", "95% interval (pp)", "exact diff (pp)",
                       "house edge %", "exact %"):
            assert column in head, (fmt, column, head)
        assert "diff %" not in out and "difference %" not in out, fmt
        assert "exact diff (pp) = a variant's less the baseline's, in percentage points" in out


def test_a_vary_label_is_written_one_way_in_every_format():
    # The label was the text as typed (" penetration = .8 , decks=08" in every format): one
    # variant had as many labels as spellings. Now its keys in order, the values as bjsim
    # writes them.
    args = ["compare", *TINY, "--vary", " penetration = .8 , decks=08"]
    label = "decks=8,penetration=0.8"
    table = run(*args).stdout
    doc = json.loads(run(*args, "-f", "json").stdout)
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)))
    md = run(*args, "-f", "markdown").stdout
    assert [v["label"] for v in doc["variants"]] == [label]
    assert {r["variant"] for r in rows} == {"nz1994", label}
    assert f"\n{label}  " in table and f"| {label} |" in md
    for out in (table, md, json.dumps(doc), str(rows)):
        assert "decks=08" not in out and "= .8" not in out


def test_csv_says_whether_a_precision_target_was_met():
    tiny = [a for a in TINY if a not in ("--rounds", "4000")]
    args = ["compare", *tiny, "--max-rounds", "4000", "--vary", "decks=8", "--precision", "0.5",
            "-f"]
    doc = json.loads(run(*args, "json").stdout)
    rows = list(csv.DictReader(io.StringIO(run(*args, "csv").stdout)))
    assert doc["run"]["precision"]["met"] is True
    assert {(r["precision_target"], r["precision_met"]) for r in rows} == {("0.5", "true")}


def test_csv_holds_what_reproduces_the_run_as_json_run_does():
    """A review: the csv had no bjsim version, nor chunk_rounds and pair_rounds, on which the
    results depend, so it could not reproduce its run. Each is on every row, as json's."""
    tiny = [a for a in TINY if a not in ("--rounds", "4000")]
    args = ["compare", *tiny, "--max-rounds", "6000", "--vary", "decks=8", "--precision", "0.5",
            "-f"]
    doc = json.loads(run(*args, "json").stdout)
    rows = list(csv.DictReader(io.StringIO(run(*args, "csv").stdout)))
    keys = ("bjsim", "rounds_asked", "seed", "chunk_rounds", "pair_rounds")
    assert {tuple(r[k] for k in keys) for r in rows} == {
        (doc["bjsim"], "6000", "3", "2000", "50")}
    assert doc["run"]["rounds"] == 6000 and doc["run"]["chunk_rounds"] == 2000
    assert doc["run"]["pair_rounds"] == 50 and doc["bjsim"] == __version__
    assert {r["rounds"] for r in rows} == {str(doc["run"]["rounds_played"])}


def test_json_gives_each_strategy_of_a_game_of_several():
    tiny = [a for a in TINY if a not in ("--strategy", "basic")]
    doc = json.loads(run("compare", *tiny, "--boxes", "2", "--strategy", "basic", "--strategy",
                         "mimic-dealer", "--vary", "decks=8", "-f", "json").stdout)
    for game in (doc["baseline"], doc["variants"][0]):
        by = game["by_strategy"]
        assert [(e["strategy"], e["box_numbers"]) for e in by] == [
            ("basic", [1]), ("mimic-dealer", [2])]
        mean = sum(e["house_edge"]["mean"] for e in by) / 2  # one box each
        assert mean == pytest.approx(game["house_edge"]["mean"])


def test_boxes_of_two_names_and_one_set_of_charts_are_reported_and_paired_by_strategy(
        tmp_path):
    """Two boxes, basic and its charts under another name: compare gave no figures by strategy
    (the engine keeps them as one). Their one entry names both, and its paired difference is
    the whole game's (every box is its)."""
    copy = tmp_path / "copy.toml"
    copy.write_text((ROOT / "strategies" / "basic.toml").read_text().replace(
        'name = "basic"', 'name = "copy"'))
    tiny = [a for a in TINY if a not in ("--strategy", "basic")]
    args = ["compare", *tiny, "--boxes", "2", "--strategy", "basic", "--strategy", str(copy),
            "--vary", "dealer_hits_soft_17=true", "-f"]
    doc = json.loads(run(*args, "json").stdout)
    for game in (doc["baseline"], doc["variants"][0]):
        (e,) = game["by_strategy"]
        assert (e["strategy"], e["box_numbers"]) == ("basic and copy", [1, 2])  # (its name)
        assert e["house_edge"]["mean"] == pytest.approx(game["house_edge"]["mean"])
    diff = doc["variants"][0]["difference"]
    (d,) = diff["by_strategy"]
    assert d["box_numbers"] == [1, 2]
    for key in ("mean", "se"):
        assert d["house_edge"][key] == pytest.approx(diff["house_edge"][key]), key
    assert "basic (box 1) and copy (box 2), the same charts" in run(*args, "table").stdout
    # A checkpoint written before kept none of that strategy's moments: refused on --resume.
    from simulator import checkpoint

    path = tmp_path / "run.ckpt"
    assert run(*args, "json", "--checkpoint", str(path)).exit_code == 0
    doc = json.loads(path.read_text())
    assert doc["identity"].pop("one_chart_several_names") == ["nz1994 (modified: boxes=2)",
                                                               "dealer_hits_soft_17=true"]
    doc["sha256"] = checkpoint.checksum(doc)
    path.write_text(json.dumps(doc))
    assert_user_error(run("compare", "--resume", str(path), "--no-exact", "-q"),
                      "a checkpoint of a different run: one_chart_several_names is not "
                      "recorded there (a checkpoint of an earlier bjsim)")


def test_every_format_gives_each_strategys_figures_and_paired_differences():
    tiny = [a for a in TINY if a not in ("--strategy", "basic")]
    args = ["compare", *tiny, "--boxes", "3", "--strategy", "basic", "--strategy",
            "mimic-dealer", "--strategy", "basic", "--vary", "dealer_hits_soft_17=true", "-f"]
    doc = json.loads(run(*args, "json").stdout)
    rows = list(csv.DictReader(io.StringIO(run(*args, "csv").stdout)))
    table, md = run(*args, "table").stdout, run(*args, "markdown").stdout
    by = doc["variants"][0]["difference"]["by_strategy"]
    assert [(d["strategy"], d["box_numbers"]) for d in by] == [("basic", [1, 3]),
                                                              ("mimic-dealer", [2])]
    for d in by:
        label = f"{d['strategy']} (box{'es' if len(d['box_numbers']) > 1 else ''} " \
                f"{', '.join(map(str, d['box_numbers']))})"
        row = next(r for r in rows if r["variant"] == "dealer_hits_soft_17=true"
                   and r["figures_of"] == label and r["figure"] == "house_edge")
        assert float(row["difference"]) == pytest.approx(d["house_edge"]["mean"])
        assert float(row["difference_se"]) == pytest.approx(d["house_edge"]["se"])
        line = next(ln for ln in table.splitlines()
                    if ln.startswith("dealer_hits_soft_17=true") and label in ln)
        assert f"{100 * d['house_edge']['mean']:+.3f}" in line
        assert f"| dealer_hits_soft_17=true | {label} |" in md
    assert "House edge by strategy" in table and "**House edge by strategy" in md
    assert {r["figures_of"] for r in rows} == {"game", "basic (boxes 1, 3)",
                                               "mimic-dealer (box 2)", "rules", "strategy_sha256"}


def test_plot_writes_a_png(tmp_path):
    path = tmp_path / "d.png"
    result = run("compare", *TINY, "--vary", "decks=8", "--plot", str(path))
    assert result.exit_code == 0, result.output
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("suffix", ["pdf", "svg", "eps", "svgz"])
def test_a_plot_is_the_same_bytes_each_time(tmp_path, monkeypatch, suffix):
    # Two runs alike gave the same PNG, but a PDF carried its /CreationDate and an SVG its date
    # and random element ids: a plot filed with a result could not be checked by its hash (an
    # .svgz its SVG date and its gzip header's time)
    from simulator import compare_report

    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    stats = {"rounds": 1000, "rows": [{"game": types.SimpleNamespace(label=x), "difference": {
        "house_edge": {"mean": 0.001, "se": 0.0002, "exact": None, "exact_scope": None}}}
        for x in ("nz", "h17")]}
    made = []
    for i in range(2):  # (the same name: PostScript writes it in its title)
        (tmp_path / str(i)).mkdir()
        compare_report.plot(stats, str(tmp_path / str(i) / f"p.{suffix}"))
        made.append((tmp_path / str(i) / f"p.{suffix}").read_bytes())
        time.sleep(1.1)  # (a date written to the second would differ)
    assert made[0] == made[1] and len(made[0]) > 1000
    assert "SOURCE_DATE_EPOCH" not in os.environ


@pytest.mark.parametrize("name", ["plotx", "plot.xyz"])
def test_plot_needs_a_suffix_matplotlib_writes(tmp_path, name):
    """A --plot FILE without a suffix is refused as an unknown one is: matplotlib would write
    FILE.png, a name never checked, and might overwrite it silently."""
    path = tmp_path / name
    result = run("compare", *TINY, "--vary", "decks=8", "--plot", str(path))
    assert_user_error(result, "--plot", str(path), ".png", ".pdf", ".svg")
    assert list(tmp_path.iterdir()) == []


def _output_error(result, words: str) -> None:
    """Exit code 1 (an output not written after the run: not the user's mistake), the report
    on stdout all the same, the last line of stderr ``Error: words``."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "house edge" in result.stdout
    assert result.stderr.strip().splitlines()[-1] == f"Error: {words}"


def test_a_plot_matplotlib_cannot_write_is_one_line(tmp_path, monkeypatch):
    # --plot x.pgf with no LaTeX installed ended in a traceback (RuntimeError: 'xelatex' not
    # found) after the whole run, then in one line after it: now refused before any round (a
    # review). Any error of matplotlib's writer is said as an OSError is; exit 1 (a scripter's
    # review; 2 had said the user's mistake), as -o's
    from matplotlib.figure import Figure

    path = tmp_path / "x.pgf"
    with monkeypatch.context() as m:
        m.setenv("PATH", str(tmp_path / "no-programs"))  # (no LaTeX found)
        result = run("compare", *TINY, "--vary", "decks=8", "--plot", str(path))
    assert_user_error(result, f"--plot {path}: matplotlib writes .pgf with xelatex, which is not "
                      "found here: install it, or give another format")
    assert "house edge" not in result.stdout and list(tmp_path.iterdir()) == []

    def fails(self, fname, **_k):
        with open(fname, "w") as f:
            f.write("<svg")  # (a part written, then the writer's error: not left behind)
        raise RuntimeError("the writer failed\nsecond line")

    monkeypatch.setattr(Figure, "savefig", fails)
    path = tmp_path / "y.svg"
    result = run("compare", *TINY, "--vary", "decks=8", "--plot", str(path))
    _output_error(result, f"--plot {path}: cannot write: the writer failed")
    assert "second line" not in result.stderr and not path.exists()
    out = tmp_path / "out.txt"  # -o written, the plot not: exit 1 all the same
    result = run("compare", *TINY, "--vary", "decks=8", "--plot", str(path), "-o", str(out))
    assert result.exit_code == 1 and "house edge" in out.read_text()
    assert result.stderr.strip().splitlines()[-1] == (
        f"Error: --plot {path}: cannot write: the writer failed")


def test_plot_without_matplotlib_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails as if not installed
    result = run("compare", *TINY, "--vary", "decks=8", "--plot", "x.png")
    assert_user_error(result, "--plot", "matplotlib", "bjsim[plot]")


def test_exact_differences_with_derived_strategies(tmp_path, monkeypatch):
    """Default strategies (derived for each game's rules, cached in BJSIM_CACHE_DIR) and the exact
    difference with its z-score."""
    monkeypatch.setenv("BJSIM_CACHE_DIR", str(tmp_path))
    args = ["compare", "--rounds", "4000", "--chunk-rounds", "2000", "--quiet", "-f", "json",
            "--vary-strategy", "never-bust"]
    doc = json.loads(run(*args).stdout)
    assert doc["baseline"]["strategy"] == ["basic"]  # the NZ rules: their chart, not derived
    assert list(tmp_path.glob("exact-*.json"))
    d = doc["variants"][0]["difference"]["house_edge"]
    assert d["exact_scope"] == "full" and d["exact"] > 0.03  # never-bust costs ~4%
    assert d["z"] == pytest.approx((d["mean"] - d["exact"]) / d["se"])
    assert doc["variants"][0]["exact"]["house_edge"] == pytest.approx(
        doc["baseline"]["exact"]["house_edge"] + d["exact"])


def test_strategies_are_named_as_every_command_names_them(tmp_path, monkeypatch):
    """The NZ chart, named basic, wherever the chart derived for a game's rules is the same (or
    no chart key differs: nothing derived); else ``basic (derived for these rules)``, with no
    machine's cache file in any format."""
    from simulator import derived
    from simulator.exact.cache import sealed
    from simulator.rules import load_rules
    from simulator.strategy import dumps_strategy, load_strategy

    monkeypatch.setenv("BJSIM_CACHE_DIR", str(tmp_path))
    nz = load_rules()
    tmp_path.mkdir(exist_ok=True)
    derived.basic_path(nz.replace(decks=8)).write_bytes(sealed(dumps_strategy(load_strategy(
        "basic"))))
    h17 = derived.basic_path(nz.replace(dealer_hits_soft_17=True))
    h17.write_bytes(sealed(dumps_strategy(load_strategy("mimic-dealer"))))  # (one that differs)
    args = ["compare", "--rounds", "2000", "--chunk-rounds", "1000", "--pair-rounds", "50",
            "--quiet", "--no-exact", "--vary", "decks=8", "--vary", "dealer_hits_soft_17=true",
            "--vary", "penetration=0.85"]
    doc = json.loads(run(*args, "-f", "json").stdout)
    named = {g["label"]: (g["strategy"], g["strategy_note"])
             for g in [doc["baseline"], *doc["variants"]]}
    assert named == {"nz1994": (["basic"], None), "decks=8": (["basic"], None),
                     "dealer_hits_soft_17=true": ([derived.DERIVED_BASIC], derived.derived_words(
                         nz.replace(dealer_hits_soft_17=True))),  # (simulate's note)
                     "penetration=0.85": (["basic"], None)}
    assert sorted(tmp_path.glob("basic-*.toml")) == sorted([derived.basic_path(
        nz.replace(decks=8)), h17])  # nothing derived for the NZ chart's rules
    # the cached chart is the one played: the same figures as mimic-dealer's under H17
    mimic = json.loads(run(*args[:9], "--vary", "dealer_hits_soft_17=true", "--strategy",
                           "mimic-dealer", "--same-strategy", "-f", "json").stdout)
    played = {v["label"]: v["house_edge"] for v in doc["variants"]}
    assert played["dealer_hits_soft_17=true"] == mimic["variants"][0]["house_edge"]
    for fmt in ("table", "csv", "json", "markdown"):
        out = run(*args, "-f", fmt).stdout
        assert str(tmp_path) not in out, fmt  # (no cache file's name: basic-HASH.toml; the
        # shipped basic-super-sevens is named where the Super Sevens note says whose play)
        assert "basic-" not in out.replace("basic-super-sevens", ""), fmt
        if fmt == "table":
            assert "strategy basic (derived for these rules);" in out


def test_no_exact_difference_or_z_where_the_exact_analyzer_cannot_see_the_change():
    """Penetration or the shuffle alone: the exact analyzer's difference is 0 whatever they do,
    so none is given (nor a z), in every format; decks keep theirs, marked ~."""
    args = ["compare", *TINY, "--vary", "penetration=0.85", "--vary", "shuffle=every-round",
            "--vary", "decks=8"]
    args.remove("--no-exact")
    doc = json.loads(run(*args, "-f", "json").stdout)
    by = {v["label"]: v["difference"] for v in doc["variants"]}
    for label in ("penetration=0.85", 'shuffle="every-round"'):
        for key in ("house_edge", "super_sevens"):
            d = by[label][key]
            assert (d["exact_scope"], d["exact"], d["z"]) == ("none", None, None), (label, key)
            assert d["mean"] is not None
    eight = by["decks=8"]["house_edge"]
    assert eight["exact_scope"] == "cut-card" and eight["exact"] is not None
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)))
    blind = [r for r in rows if r["variant"] in ("penetration=0.85", "shuffle=every-round")
             and r["figures_of"] not in ("rules", "strategy_sha256")]
    assert blind and {(r["exact_difference"], r["z"], r["exact_scope"]) for r in blind} == {
        ("", "", "none")}
    for fmt in ("table", "markdown"):
        out = run(*args, "-f", fmt).stdout
        line = next(ln for ln in out.splitlines() if ln.lstrip("| ").startswith("penetration"))
        cells = [c for c in line.replace("|", " ").split() if c]
        assert cells[-2:] == ["n/a", "-"] and "+0.000" not in line, (fmt, line)
        assert "n/a: no exact difference or z where only the penetration" in out
        assert "~+" in out or "~-" in out  # decks=8 keeps its exact difference


def test_the_table_says_which_sign_means_what_and_keeps_exact_edges_apart_from_differences():
    args = ["compare", *TINY, "--vary", "dealer_hits_soft_17=true"]
    args.remove("--no-exact")
    doc = json.loads(run(*args, "-f", "json").stdout)
    for fmt in ("table", "markdown"):
        out = run(*args, "-f", fmt).stdout
        assert ("difference = the variant's house edge less the baseline's, in percentage "
                "points (pp) of house edge: + the house edge rises (worse for the player), - it "
                "falls (better for the player)") in out
        head = next(ln for ln in out.splitlines() if "variant" in ln and "exact" in ln)
        assert "exact %" in head and "exact diff (pp)" in head, head
        row = next(ln for ln in out.splitlines() if ln.lstrip("| ").startswith("dealer_hits"))
        cells = row.replace("|", " ").split()
        v = doc["variants"][0]
        # the variant's exact house edge, then its exact difference: not one column for both
        assert cells[-3:-1] == [f"{100 * v['exact']['house_edge']:.3f}",
                                f"{100 * v['difference']['house_edge']['exact']:+.3f}"], row


def test_z_of_a_difference_says_it_holds_what_is_left_of_the_cut_card_effect():
    """Under a cut card z tests the simulated difference against the full-shoe exact one: the
    table, markdown and json say it holds what is left of the cut-card effect, as simulate
    --exact and the report say of theirs; with a shuffle every round they do not."""
    from simulator.compare_report import cut_card_difference_z

    CUT_CARD_DIFFERENCE_Z = cut_card_difference_z(6)  # (the NZ baseline's decks)

    args = ["compare", *TINY, "--vary", "dealer_hits_soft_17=true"]
    args.remove("--no-exact")
    for fmt in ("table", "markdown"):
        assert CUT_CARD_DIFFERENCE_Z + "." in run(*args, "-f", fmt).stdout, fmt
    assert json.loads(run(*args, "-f", "json").stdout)["z_note"] == CUT_CARD_DIFFERENCE_Z + "."
    every = [*args, "--set", "shuffle=every-round"]
    assert CUT_CARD_DIFFERENCE_Z not in run(*every).stdout
    assert json.loads(run(*every, "-f", "json").stdout)["z_note"] is None


def test_the_intervals_expected_to_miss_are_not_rounded_down(monkeypatch):
    from simulator import compare_report

    monkeypatch.setattr(compare_report, "_intervals", lambda stats, zero=False, again=False:
                        {"house_edge": 0 if zero or again else 3})
    note = compare_report.multiple_note({"rows": [{}] * 8})
    assert "so about 0.15 of them are expected to miss" in note  # (it said 0.1)
    # two tables: each one's count (the report's "23 variants, 27 differences" read as a fault)
    monkeypatch.setattr(compare_report, "_intervals", lambda stats, zero=False, again=False: {
        "house_edge": 0 if again else 1 if zero else 21,
        "super_sevens": 0 if again else 1 if zero else 6})
    note = compare_report.multiple_note({"rows": [{}] * 24})
    assert note.startswith("Many comparisons: 23 variants, 27 differences with a 95% interval "
                           "in the tables (21 of the house edge, 6 of Super Sevens), and 2 "
                           "differences of variants that play every round as the baseline does "
                           "(1 of the house edge, 1 of Super Sevens): exactly 0, they cannot "
                           "miss; each misses")


def test_many_variants_say_how_many_intervals_miss_by_chance():
    """Six variants or more: one 95% interval in 20 misses by chance, so the table, markdown
    and json say how many are expected to (not counted: a game that plays as the NZ game on
    every shoe, se 0, with the shipped basic double_on=9-11 and late surrender here; nor one
    that played alike in these rounds only, resplit_aces, whose interval is withheld); five or
    fewer say nothing of it."""
    many = ["--vary", "dealer_hits_soft_17=true", "--vary", "double_after_split=false",
            "--vary", "blackjack_pays=1.2", "--vary", "max_hands=2", "--vary",
            "surrender=late", "--vary", "resplit_aces=true", "--vary", "double_on=9-11"]
    said = ("Many comparisons: 7 variants, 4 differences with a 95% interval, and 2 differences "
            "of variants that play every round as the baseline does: exactly 0, they cannot "
            "miss; each misses its true value one time in 20 by chance, so about 0.2 of them are "
            "expected to miss with nothing wrong.")
    for fmt in ("table", "markdown"):
        assert said in run("compare", *TINY, *many, "-f", fmt).stdout, fmt
    doc = json.loads(run("compare", *TINY, *many, "-f", "json").stdout)
    assert doc["multiple_comparisons"] == said
    same = next(v for v in doc["variants"] if v["label"] == 'double_on="9-11"')
    assert same["difference"]["house_edge"]["se"] == 0  # (plays as the NZ game: not counted)
    exact = [a for a in TINY if a != "--no-exact"]
    assert ("and about as many exact differences to fall outside their interval (|z| above "
            "1.96).") in run("compare", *exact, *many).stdout
    few = json.loads(run("compare", *TINY, *many[:10], "-f", "json").stdout)
    assert few["multiple_comparisons"] is None
    assert "Many comparisons" not in run("compare", *TINY, *many[:10]).stdout


def test_the_many_comparisons_note_counts_each_variant_that_plays_as_the_baseline():
    """Variants of the baseline's own rules (decks=6, the NZ dealer-blackjack rule) were taken
    for a game given twice and counted nowhere: "7 variants, 4 differences with a 95% interval
    (a game given twice, once), and 1 of a game that plays every round as the baseline does".
    Each of the three (with double_on=9-11, which the NZ chart plays alike) is exactly 0."""
    many = ["--vary", "decks=6", "--vary", "double_on=9-11", "--vary",
            "dealer_blackjack_takes=original-and-busted", "--vary", "dealer_hits_soft_17=true",
            "--vary", "double_after_split=false", "--vary", "blackjack_pays=1.2", "--vary",
            "max_hands=2"]
    doc = json.loads(run("compare", *TINY, *many, "-f", "json").stdout)
    assert doc["multiple_comparisons"].startswith(
        "Many comparisons: 7 variants, 4 differences with a 95% interval, and 3 differences "
        "of variants that play every round as the baseline does: exactly 0, they cannot miss; "
        "each misses")
    zero = [v["label"] for v in doc["variants"] if v["difference"]["house_edge"]["se"] == 0]
    assert zero == ["decks=6", 'double_on="9-11"',
                    'dealer_blackjack_takes="original-and-busted"']
    # a game given twice (not the baseline's) is still counted once, and said
    twice = json.loads(run("compare", *TINY, *many, "--vary", "dealer_hits_soft_17=true,decks=6",
                           "-f", "json").stdout)["multiple_comparisons"]
    assert twice.startswith("Many comparisons: 8 variants, 4 differences with a 95% interval "
                            "(a game given twice counted once), and 3 differences of variants "
                            "that play")


def test_all_variants_runs_every_shipped_file_against_nz():
    from simulator import variants

    args = ["compare", "--all-variants", "--rounds", "640", "--chunk-rounds", "640",
            "--pair-rounds", "64", "--quiet", "--strategy", "basic", "--same-strategy",
            "--no-exact", "-f", "json"]
    result = run(*args)
    doc = json.loads(result.stdout)
    assert doc["baseline"]["label"] == "nz1994"
    assert [v["label"] for v in doc["variants"]] == [p.stem for p in variants.shipped()]
    same = next(v for v in doc["variants"] if v["label"] == "dbj-original-and-busted")
    assert same["difference"]["house_edge"] == {**same["difference"]["house_edge"],
                                                "mean": 0.0, "se": 0.0}
    # named as the shipped variant --all-variants asked for, not "--variant /.../configs/
    # variants/dbj-original-and-busted.toml", an option not given (--variant FILE: above)
    warned = [ln for ln in result.stderr.splitlines() if "warning" in ln]
    assert warned == [
        "bjsim: warning: --all-variants: the shipped variant variants/dbj-original-and-busted "
        "'dbj-original-and-busted' is the baseline's game (its rules and strategy are the "
        "baseline's): its difference is 0"], warned


def test_a_withheld_super_sevens_interval_is_withheld_in_every_format():
    """4,000 rounds: too few wins of (e) for a Super Sevens interval, in the table and markdown
    as in json and csv; the paired difference resting on it has no interval, x var or z, and
    the table and markdown show no bare difference either (json and csv keep it, with its
    note), as the report's table."""
    args = ["compare", *TINY, "--vary", "decks=8"]
    doc = json.loads(run(*args, "-f", "json").stdout)
    for game in (doc["baseline"], doc["variants"][0]):
        ss = game["super_sevens"]
        assert ss["ci95_low"] is None and "line (e)" in ss["interval_note"]
    d = doc["variants"][0]["difference"]["super_sevens"]
    assert d["ci95_low"] is None and d["ci95_high"] is None and d["variance_reduction"] is None
    assert "nz1994: too few rounds" in d["interval_note"] and d["se"] is None
    assert doc["variants"][0]["difference"]["house_edge"]["interval_note"] is None
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)))
    ss_rows = [r for r in rows if r["figure"] == "super_sevens"]
    assert all(r["ci95_low"] == "" and "line (e)" in r["interval_note"] for r in ss_rows)
    assert ss_rows[1]["difference_ci95_low"] == "" and ss_rows[1]["difference_interval_note"]
    assert float(ss_rows[1]["difference"]) == d["mean"]  # kept where its note is beside it
    bare = f"{100 * d['mean']:+.3f}"
    for fmt in ("table", "markdown"):
        out = run(*args, "-f", fmt).stdout
        ss_part = out.split("Super Sevens (rule 14)")[1].split("Variants:")[0]
        assert "±" not in ss_part and "[" not in ss_part and ss_part.count("†") == 4
        assert bare not in ss_part, (fmt, ss_part)
        corr = f"{d['correlation']:.3f}"  # nor the correlation of a difference not shown
        assert corr not in ss_part.split("(baseline)")[1], (fmt, ss_part)
        assert "† no 95% interval" in out and "nz1994: too few rounds for a meaningful " \
            "interval" in out
        assert "is not shown (†)" in out and "even opposite in sign" in out


def test_compare_gives_the_super_sevens_interval_simulate_gives():
    """A strategy that never hits 7-7 makes no 7-7-7 (`tally.ss_lines_possible`), as in
    simulate: 100,000 rounds give Super Sevens intervals and a difference with one."""
    args = ["compare", "--rounds", "100k", "--chunk-rounds", "50k", "--seed", "3", "--quiet",
            "--strategy", "never-bust", "--same-strategy", "--no-exact", "--vary", "decks=8"]
    doc = json.loads(run(*args, "-f", "json").stdout)
    assert doc["baseline"]["super_sevens"]["interval_note"] is None
    assert doc["baseline"]["super_sevens"]["ci95_low"] is not None
    d = doc["variants"][0]["difference"]["super_sevens"]
    assert d["interval_note"] is None and d["ci95_low"] is not None
    out = run(*args).stdout
    assert "†" not in out and "±" in out.split("Super Sevens (rule 14)")[1]


def test_same_strategy_names_a_derived_baseline_chart_as_the_baselines():
    # Under H17 the baseline plays its derived chart; with --same-strategy the 8-deck variant
    # plays it too: "derived for the baseline's rules", not "derived for these rules".
    args = ["compare", "--rounds", "4000", "--chunk-rounds", "2000", "--pair-rounds", "50",
            "--seed", "3", "--quiet", "--set", "dealer_hits_soft_17=true", "--same-strategy",
            "--no-exact", "--vary", "decks=8"]
    doc = json.loads(run(*args, "-f", "json").stdout)
    assert doc["baseline"]["strategy"] == ["basic (derived for these rules)"]
    assert doc["variants"][0]["strategy"] == ["basic (derived for the baseline's rules)"]
    assert "strategy basic (derived for the baseline's rules);" in run(*args).stdout


def test_a_variant_that_is_the_same_game_as_another_says_so():
    # Super Sevens at 8 decks where Super Sevens is on already: decks-8 again, said so.
    args = ["compare", "--rounds", "4000", "--chunk-rounds", "2000", "--seed", "3", "--quiet",
            "--no-exact", "--variant", "variants/decks-8", "--variant",
            "variants/super-sevens-8-decks", "--vary", "decks=4"]
    doc = json.loads(run(*args, "-f", "json").stdout)
    same = {v["label"]: v["same_game_as"] for v in doc["variants"]}
    assert same == {"decks-8": None, "super-sevens-8-decks": "decks-8", "decks=4": None}, same
    out = run(*args).stdout
    assert "super-sevens-8-decks: decks=8 (the same game as decks-8);" in out
    assert "decks-8: decks=8;" in out
    from simulator.assessment.figures import _variant_row  # the report's variant table

    rows = {v["label"]: _variant_row(v)["changes"] for v in doc["variants"]}
    assert rows["super-sevens-8-decks"] == "decks=8 (the same game as decks-8)"
    assert rows["decks-8"] == "decks=8"
    # a variant that changes nothing (the rule set's own value) is the baseline's game: json
    # said so, the table's "decks=6: (none);" did not (a strategy=basic beside it did)
    args = [*args[:9], "--vary", "decks=6", "--vary-strategy", "basic"]
    doc = json.loads(run(*args, "-f", "json").stdout)
    assert [v["same_game_as"] for v in doc["variants"]] == ["nz1994"] * 2
    out = run(*args).stdout
    assert "decks=6: (none) (the same game as nz1994);" in out
    assert "strategy=basic: strategy=basic (the same game as nz1994);" in out


def test_precision_result_is_in_the_table_head():
    args = ["compare", "--precision", "0.001", "--max-rounds", "4000", "--chunk-rounds", "2000",
            "--pair-rounds", "50", "--seed", "3", "--quiet", "--strategy", "basic",
            "--same-strategy", "--no-exact", "--vary", "decks=8"]
    p = json.loads(run(*args, "-f", "json").stdout)["run"]["precision"]
    head = run(*args).stdout.splitlines()[2]
    assert p["met"] is False and head.startswith("precision target ±0.1000 pp")
    assert f"NOT met (stopped at --max-rounds 4,000): ±{100 * p['half_width']:.4f} pp" in head
    md = run(*args, "-f", "markdown").stdout.splitlines()  # markdown's third line too
    assert md[1].endswith("  ") and md[2] == head + "  " and md[3].startswith("Code: ")
    assert md[4].startswith("difference = ")  # (after the code's line)
    assert md[5] == ""


def _last_bar(stderr: str, word: str) -> str:
    """The progress bar as it was last drawn (its redraws are separated by carriage returns)."""
    return [part for part in stderr.split("\r") if word in part][-1]


def test_the_bar_ends_on_the_final_difference(terminal_bar):
    args = [a for a in TINY if a != "--quiet"]
    result = run("compare", "--vary", "dealer_hits_soft_17=true", *args, "-f", "json")
    diff = json.loads(result.stdout)["variants"][0]["difference"]["house_edge"]
    assert f"dealer_hits_soft_17=true {100 * diff['mean']:+.3f} ± " in _last_bar(result.stderr,
                                                                                  "100%")


def test_with_a_precision_target_the_bar_ends_on_the_widest_half_width_met(terminal_bar):
    args = [a for a in TINY if a not in ("--quiet", "--rounds", "4000")]
    result = run("compare", "--vary", "dealer_hits_soft_17=true", *args, "--precision", "0.01",
                 "--max-rounds", "40000", "-f", "json")
    precision = json.loads(result.stdout)["run"]["precision"]
    assert precision["met"]
    assert f"widest ±{100 * precision['half_width']:.4f} pp" in _last_bar(result.stderr,
                                                                          "(target ±")


def test_too_few_blocks_are_said_in_the_table_and_markdown():
    # 20 blocks: the differences' † was explained on stderr only (or by Super Sevens alone).
    args = ["compare", "--rounds", "1000", "--chunk-rounds", "1000", "--pair-rounds", "50",
            "--quiet", "--strategy", "basic", "--same-strategy", "--no-exact",
            "--no-super-sevens", "--vary", "decks=8"]
    for fmt in ("table", "markdown"):
        out = run(*args, "-f", fmt).stdout
        assert "no 95% interval, x var, se ratio, corr or z for the differences: only 20 " \
               "paired blocks, fewer than 30" in out, fmt


def test_no_correlation_from_too_few_blocks_in_any_format():
    # 100 rounds, 2 paired blocks: the table showed corr -1.000 (two points always give -1 or
    # +1) where its footnote said no interval, x var, se ratio or z was given from 2 blocks
    args = ["compare", "--rounds", "100", "--quiet", "--vary", "decks=8"]
    out = run(*args).stdout
    row = next(ln for ln in out.splitlines() if ln.startswith("decks=8 "))
    head = next(ln for ln in out.splitlines() if ln.startswith("variant "))
    at = head.index("corr") + len("corr")  # (right-aligned under its header)
    assert row[:at].split()[-1] == "-", row
    assert "only 2 paired blocks" in out
    doc = json.loads(run(*args, "-f", "json").stdout)
    diff = doc["variants"][0]["difference"]
    assert diff["house_edge"]["correlation"] is None
    assert diff["super_sevens"]["correlation"] is None
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)))
    assert all(r["correlation"] == "" for r in rows
               if r["variant"] == "decks=8" and r["figures_of"] == "game")
    md = run(*args, "-f", "markdown").stdout
    assert "-1.000" not in md and "1.000" not in next(
        ln for ln in md.splitlines() if ln.startswith("| decks=8 "))


def test_one_paired_block_is_one_block_in_every_message():
    # -n 1 said "only 1 paired blocks: no interval", "only 1 paired block(s)" and "from the 1
    # paired blocks".
    args = ["compare", "--vary", "decks=8", "-n", "1", "--strategy", "basic", "--same-strategy",
            "--no-exact", "-q"]
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert ("bjsim: only 1 paired block: no interval for the differences (more rounds, or a "
            "smaller --pair-rounds)") in result.stderr.splitlines()
    assert "only 1 paired block, fewer than 30" in result.stdout
    assert "intervals come from the 1 paired block;" in result.stdout
    assert "blocks" not in result.stderr and "1 paired blocks" not in result.stdout
    doc = json.loads(run(*args, "-f", "json").stdout)
    assert "only 1 paired block, fewer than 30" in doc["variants"][0]["difference"][
        "house_edge"]["interval_note"]


def test_blocks_cut_below_a_shoe_by_the_chunk_size_are_said():
    # --chunk-rounds 10 made blocks of 10 rounds without a word (the default holds a shoe).
    args = ["compare", "--vary", "decks=8", "--rounds", "1000", "--no-exact", "--seed", "3"]
    short = run(*args, "--chunk-rounds", "10")
    assert short.exit_code == 0, short.output
    assert ("bjsim: blocks of 10 rounds (--chunk-rounds), shorter than the 64 that hold a shoe "
            "of every game") in short.stderr
    assert "shorter than" not in run(*args, "--chunk-rounds", "1000").stderr
    assert "shorter than" not in run(*args, "--chunk-rounds", "10", "-q").stderr


@pytest.mark.parametrize("extra, words", [
    ([], "--checkpoint {path}: cannot write: no folder"),
    (["--resume"], "--resume: checkpoint {path} does not exist"),
])
def test_compare_refuses_a_bad_checkpoint_before_deriving(tmp_path, monkeypatch, extra, words):
    # It derived the variants' strategies (11 s for decks=3 from an empty cache) first.
    from simulator import derived

    def derive(*args, **kwargs):
        raise AssertionError("derived before the checkpoint was checked")

    monkeypatch.setattr(derived, "basic_for_all", derive)
    path = tmp_path / "nodir" / "x.ckpt"
    result = run("compare", *TINY, "--vary", "decks=3", "--checkpoint", str(path), *extra)
    assert result.exit_code == 2, result.output
    assert words.format(path=path) in result.stderr


def test_rules_given_set_aside_a_baseline_a_variant_file_names_and_say_so(tmp_path):
    eight = Path("configs/nz1994-8deck.toml").resolve()
    v = tmp_path / "v.toml"
    v.write_text(f'[variant]\nname = "v8"\nbaseline = "{eight}"\n[changes]\n'
                 "dealer_hits_soft_17 = true\n")
    args = ["compare", *TINY[:-1], "--variant", str(v)]
    args.remove("--quiet")
    told = run(*args, "--rules", "nz1994")
    assert told.exit_code == 0, told.output
    assert (f"warning: --rules configs/nz1994.toml is the baseline, not "
            f"configs/nz1994-8deck.toml, which {v} names") in told.stderr
    w = tmp_path / "w.toml"
    w.write_text(v.read_text().replace('"v8"', '"w8"').replace("dealer_hits_soft_17",
                                                               "double_after_split")
                 .replace("true", "false"))
    both = run(*args, "--variant", str(w), "--rules", "nz1994").stderr
    assert both.count("warning") == 1 and "which 2 variant files name" in both
    assert "warning" not in run(*args).stderr  # its own baseline
    assert "warning" not in run(*args, "--rules", "nz1994-8deck").stderr
    # a review: a shipped variant given by name was named by its absolute path
    shipped = run("compare", *TINY[:-1], "--variant", "variants/h17", "--rules", "nz1994-8deck")
    assert ("warning: --rules configs/nz1994-8deck.toml is the baseline, not configs/nz1994.toml, "
            "which variants/h17 names\n") in shipped.stderr


def test_a_variant_files_baseline_set_aside_is_said_under_quiet_and_in_the_notes(tmp_path):
    # With -q nothing said that h17-on-8, whose file names 8 decks, played the 6-deck game.
    eight = Path("configs/nz1994-8deck.toml").resolve()
    v = tmp_path / "v8h17.toml"
    v.write_text(f'[variant]\nname = "h17-on-8"\nbaseline = "{eight}"\n[changes]\n'
                 "dealer_hits_soft_17 = true\n")
    said = (f"--rules configs/nz1994.toml is the baseline, not configs/nz1994-8deck.toml, which "
            f"{v} names")
    args = ["compare", *TINY, "--rules", "nz1994", "--variant", str(v)]
    result = run(*args, "-f", "json")
    assert result.exit_code == 0, result.output
    assert f"bjsim: warning: {said}\n" in result.stderr
    doc = json.loads(result.stdout)
    assert doc["notes"] == [said] and doc["variants"][0]["rules"]["decks"] == 6
    for fmt in ("table", "markdown"):
        assert said in run(*args, "-f", fmt).stdout, fmt
    assert json.loads(run("compare", *TINY, "--variant", str(v), "-f", "json").stdout)[
        "notes"] == []  # (its own baseline)


@pytest.mark.parametrize("rule, left, why", [
    ("max_hands=2", "resplit-aces", "key 'resplit_aces' = true needs at least 3 hands per box, "
                                    "but 'max_hands' = 2"),
    ("resplit_aces=true", "hands-2", "key 'resplit_aces' = true needs at least 3 hands per box, "
                                     "but 'max_hands' = 2"),
])
def test_all_variants_leaves_out_a_shipped_variant_that_cannot_apply_saying_so(rule, left, why):
    # The whole run stopped: "Error: .../variants/resplit-aces.toml [changes]: key
    # 'resplit_aces' = true needs at least 3 hands per box, but 'max_hands' = 2".
    from simulator import variants

    args = ["compare", "--all-variants", "--set", rule, "--rounds", "640", "--chunk-rounds",
            "640", "--pair-rounds", "64", "--quiet", "--strategy", "basic", "--same-strategy",
            "--no-exact"]
    result = run(*args, "-f", "json")
    assert result.exit_code == 0, result.output
    said = f"--all-variants: variants/{left} is left out: its changes cannot apply to this " \
           f"baseline: {why}"
    assert result.stderr.count("left out") == 1 and f"bjsim: warning: {said}\n" in result.stderr
    doc = json.loads(result.stdout)
    assert doc["notes"] == [said]
    assert [v["label"] for v in doc["variants"]] == [p.stem for p in variants.shipped()
                                                     if p.stem != left]
    assert said in run(*args).stdout
    # the shipped variant of the baseline's own rules is said to be, as where none is left out
    same = {"max_hands=2": "hands-2", "resplit_aces=true": "resplit-aces"}[rule]
    assert (f"bjsim: warning: --all-variants: the shipped variant variants/{same} '{same}' is "
            "the baseline's game (its rules and strategy are the baseline's): its difference "
            "is 0\n") in result.stderr


def test_a_variant_named_that_cannot_apply_is_refused_before_any_round(monkeypatch):
    from simulator import compare as cmp
    from simulator import derived

    def no_run(*args, **kwargs):
        raise AssertionError("a game was set up or played")

    monkeypatch.setattr(cmp, "compare", no_run)
    monkeypatch.setattr(derived, "basic_for_all", no_run)
    args = ["compare", *TINY, "--set", "max_hands=2"]
    assert_user_error(run(*args, "--variant", "variants/resplit-aces"),
                      "variants/resplit-aces [changes] and --set: key 'resplit_aces' = true "
                      "(variants/resplit-aces [changes]) needs at least 3 hands per box")
    assert_user_error(run(*args, "--all-variants", "--vary", "resplit_aces=true"),
                      "--vary resplit_aces=true", "needs at least 3 hands per box")


RSA_NEEDS = "needs at least 3 hands per box, but 'max_hands' = 2"
RSA_ALLOWED = ": allowed resplit_aces = false, or max_hands 3-4"


@pytest.mark.parametrize("args, said", [
    (["--rules", "rsa.toml", "--vary", "max_hands=2"],
     "rsa.toml and --vary max_hands=2: key 'resplit_aces' = true (rsa.toml) "
     f"{RSA_NEEDS} (--vary max_hands=2)"),
    (["--set", "resplit_aces=true", "--vary", "max_hands=2"],
     f"--set and --vary max_hands=2: key 'resplit_aces' = true (--set) {RSA_NEEDS} "
     "(--vary max_hands=2)"),
    (["--rules", "mh2.toml", "--vary", "resplit_aces=true"],
     "--vary resplit_aces=true and mh2.toml: key 'resplit_aces' = true (--vary "
     f"resplit_aces=true) {RSA_NEEDS} (mh2.toml)"),
    (["--set", "max_hands=2", "--variant", "rsa-v.toml"],
     "rsa-v.toml [changes] and --set: key 'resplit_aces' = true (rsa-v.toml [changes]) "
     f"{RSA_NEEDS} (--set)"),
    (["--rules", "rsa.toml", "--variant", "mh2-v.toml"],
     "rsa.toml and mh2-v.toml [changes]: key 'resplit_aces' = true (rsa.toml) "
     f"{RSA_NEEDS} (mh2-v.toml [changes])"),
    (["--variant", "v/rsa-mh2.toml"],  # (its own baseline, named from here)
     "v/rsa.toml and v/rsa-mh2.toml [changes]: key 'resplit_aces' = true (v/rsa.toml) "
     f"{RSA_NEEDS} (v/rsa-mh2.toml [changes])"),
    (["--rules", "mh2.toml", "--vary", "hit_split_aces=true,max_hands=1"],  # one place: as was
     "--vary hit_split_aces=true,max_hands=1: key 'hit_split_aces' = true but 'max_hands' = 1 "
     "forbids every split: allowed hit_split_aces = false, or max_hands 2-4"),
])
def test_a_clash_of_a_variant_and_the_baseline_names_where_each_key_came_from(
        tmp_path, monkeypatch, args, said):
    # Each named one place: "--vary max_hands=2: key 'resplit_aces' = true needs at least 3
    # hands per box, but 'max_hands' = 2" blamed --vary for the rule file's key.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rsa.toml").write_text("resplit_aces = true\nmax_hands = 4\n")
    (tmp_path / "mh2.toml").write_text("max_hands = 2\n")
    (tmp_path / "rsa-v.toml").write_text("[changes]\nresplit_aces = true\n")
    (tmp_path / "mh2-v.toml").write_text("[changes]\nmax_hands = 2\n")
    (tmp_path / "v").mkdir()
    (tmp_path / "v" / "rsa.toml").write_text("resplit_aces = true\n")
    (tmp_path / "v" / "rsa-mh2.toml").write_text('[variant]\nbaseline = "rsa.toml"\n'
                                                 "[changes]\nmax_hands = 2\n")
    end = "" if "forbids" in said else RSA_ALLOWED
    assert_user_error(run("compare", *TINY, *args), f"Error: {said}{end}")
    if "--variant" in args[2:]:  # the report's variant table, as compare's (over --rules, --set)
        assert_user_error(run("report", "--quiet", *args, "-o", str(tmp_path / "r")),
                          f"Error: {said}{end}")
        assert not (tmp_path / "r").exists()


def test_a_cut_card_question_in_short_blocks_says_what_the_blocks_do_to_it():
    args = ["compare", *TINY, "--vary", "penetration=0.6", "--vary", "decks=8"]
    text = run(*args).stdout
    assert ("penetration=0.6: a question of the cut card, played here in blocks of 50 rounds, "
            "each from a fresh shuffle: a block's last shoe is cut short") in text
    # by how much: the larger share of rounds in a block's cut-short shoe of the two games, as
    # much of the 6-deck cut-card effect (0.021%), beside the interval; and how to remove it
    from simulator import compare as cmp
    from simulator.rules import Rules
    from simulator.strategy import load_strategy

    basic = (load_strategy("basic"),)
    short = max(50 % n / 50 for n in (cmp.rounds_per_shoe(cmp.Game("g", r, basic, ("basic",)))
                                      for r in (Rules(), Rules().replace(penetration=0.6))))
    assert 0.05 < short < 0.5
    assert (f"(up to {100 * short:.0f}% of a game's rounds here), where the cut card plays no "
            f"part, so a difference holds up to {100 * short:.0f}% less of the change in the "
            "cut-card effect (an effect of about +0.021 pp with 6 decks on the house edge in all): "
            f"a shift of about {100 * short * 0.00021:.4f} pp, ") in text
    assert "blocks of many shoes (--pair-rounds 4096; docs/compare.md) remove it" in text
    assert "decks=8:" not in text.split("question of the cut card")[0].splitlines()[-1]
    doc = json.loads(run(*args, "-f", "json").stdout)
    assert doc["shoe_note"].startswith("penetration=0.6: a question of the cut card")
    long = [a for a in args if a not in ("--pair-rounds", "50")]
    long += ["--pair-rounds", "2000"]
    assert "question of the cut card" not in run(*long).stdout
    assert json.loads(run(*long, "-f", "json").stdout)["shoe_note"] is None
    # no cut card in either game: no question of one
    every = run(*args, "--set", "shuffle=every-round").stdout
    assert "question of the cut card" not in every


def test_blocks_that_never_reach_a_games_cut_card_say_so_with_its_decks_effect():
    # 8-deck shoes at 75% last 54 rounds or more from a fresh shuffle (the NZ 6-deck ones 41):
    # in blocks of 48 no 8-deck game reaches its cut card, so a penetration change does nothing
    # and no 8-deck figure holds the cut-card effect; the notes said the opposite, at 6 decks
    args = ["compare", "--rounds", "4000", "--chunk-rounds", "2000", "--pair-rounds", "48",
            "--seed", "3", "-q", "--vary", "decks=8", "--vary", "decks=8,penetration=0.8"]
    text = run(*args).stdout
    assert ("decks=8, decks=8,penetration=0.8: no block of 48 rounds, each from a fresh shuffle, "
            "reaches their cut card") in text
    assert "holds none of the cut-card effect (about +0.017 pp with 8 decks)" in text
    assert "a question of the cut card" not in text  # (not "well inside" for a total loss)
    assert "also holds the change of the cut-card effect" not in text
    assert "holds none of their own cut-card effect, only the baseline's" in text
    doc = json.loads(run(*args, "-f", "json").stdout)
    assert doc["shoe_note"] is None
    assert "+0.017 pp with 8 decks" in doc["unreached_cut_card_note"]
    # the baseline short of its cut card too (41): no cut-card effect in the difference, no ~
    short = run(*[a if a != "48" else "32" for a in args]).stdout
    assert "nz1994, decks=8, decks=8,penetration=0.8: no block of 32 rounds" in short
    assert "+0.021 pp with 6 decks, +0.017 pp with 8 decks" in short
    rows = [ln for ln in short.splitlines() if ln.startswith("decks=8 ")]
    assert rows and "~" not in rows[0]
    assert "~ marks" not in short
    # blocks that reach every cut card: no such note
    reach = run(*[a if a != "48" else "128" for a in args])
    assert "reaches their cut card" not in reach.stdout
    assert "also holds the change of the cut-card effect" in reach.stdout


def test_a_super_sevens_stake_change_shows_the_side_bet_and_the_house_take_a_round():
    # super_sevens_bet=2 changes no play and no house edge per unit staked, but doubles the
    # house's take on the side bet a round: it was "worth exactly nothing" with no Super Sevens
    # table and super_sevens_touched false
    args = ["compare", *TINY, "--vary", "super_sevens_bet=2"]
    text = run(*args).stdout
    assert "worth exactly nothing" not in text and "Worth nothing" not in text
    table = text.split("Super Sevens (rule 14) house edge, per unit staked")[1].split("\n\n")[1]
    assert "super_sevens_bet=2" in table
    doc = json.loads(run(*args, "-f", "json").stdout)
    base, v = doc["baseline"], doc["variants"][0]
    assert v["super_sevens_touched"] and v["note"] is None
    edge = base["super_sevens"]["house_edge"]
    assert v["super_sevens"]["house_edge"] == edge  # (the same cards: per unit, the same)
    assert (base["super_sevens"]["stake"], v["super_sevens"]["stake"]) == (1.0, 2.0)
    assert v["super_sevens"]["per_initial_wager"] == pytest.approx(2 * edge)
    said = (f"the house's take on the side bet a box-round goes from {edge:.3f} to "
            f"{2 * edge:.3f} initial wagers (simulated: ")  # (--no-exact: the simulated alone,
    assert said in text and said in doc["stake_note"]   # its interval withheld, said so)
    assert (f"({100 * edge:.3f}% simulated, with no 95% interval (†): too few rounds for one)"
            in text)
    assert doc["stake_note"] in text
    assert doc["stake_note"] in run(*args, "-f", "markdown").stdout
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)))
    ss = {r["variant"]: r for r in rows if r["figure"] == "super_sevens"
          and r["figures_of"] == "game"}
    assert float(ss["super_sevens_bet=2"]["per_initial_wager"]) == pytest.approx(2 * edge)
    assert float(ss["nz1994"]["per_initial_wager"]) == pytest.approx(edge)


def test_a_stake_only_row_shown_under_a_withheld_super_sevens_interval_is_exempted_by_the_note():
    # The row of super_sevens_bet=2 showed "+0.000 [+0.000, +0.000]" and corr 1.000 under a
    # footnote that said a difference resting on a withheld interval has none and is not shown:
    # it plays the baseline's Super Sevens exactly, so its difference is 0 by construction.
    for pair in ("50", "500"):  # (80 paired blocks, then 8: too few for any interval)
        args = ["compare", *[a if a != "50" else pair for a in TINY], "--vary",
                "super_sevens_bet=2"]
        out = run(*args).stdout
        table = out.split("Super Sevens (rule 14) house edge, per unit staked")[1]
        row = next(ln for ln in table.splitlines() if ln.startswith("super_sevens_bet=2"))
        assert "+0.000   [+0.000, +0.000]" in row
        exempt = ("super_sevens_bet=2, which plays the baseline's game {} on every round, "
                  "with the same cards, decisions and pays per unit staked: its difference "
                  "there is exactly 0 by construction, shown with its interval [+0.000, "
                  "+0.000] and corr")
        assert ("is not shown (†) (but for " + exempt.format("in Super Sevens") + ")") in out
        assert (pair == "500") == ("differences, and no Super Sevens difference shown (csv "
                                   "and json keep it), but for " + exempt.format("for a table")
                                   + ": only 8 paired blocks" in out)


def test_the_stake_note_leads_with_the_exact_take_and_the_simulated_only_where_not_withheld():
    # At 100,000 rounds the note led with the simulated take ("goes from 0.298 to 0.596 ...
    # (exact 0.228 to 0.455)", "the same house edge per unit staked (29.788%)") where the table
    # marks the simulated Super Sevens figure † (too few rounds for an interval).
    args = ["compare", *[a for a in TINY if a != "--no-exact"], "--vary", "super_sevens_bet=2"]
    doc = json.loads(run(*args, "-f", "json").stdout)
    ex = doc["baseline"]["exact"]["super_sevens_house_edge"]
    sim = doc["baseline"]["super_sevens"]
    assert sim["ci95_low"] is None  # (†)
    assert (f"at the same house edge per unit staked ({100 * ex:.3f}% exact): the house's take on "
            f"the side bet a box-round goes from {ex:.3f} to {2 * ex:.3f} initial wagers (exact: "
            "the house edge per unit staked times the stake)") in doc["stake_note"]
    assert f"{sim['house_edge']:.3f}" not in doc["stake_note"]
    # where the table gives the simulated figure an interval, it stands beside the exact one
    swap = {"basic": "never-bust", "4000": "100000", "2000": "50000"}  # (no 7-7-7: no (e))
    args = [swap.get(a, a) for a in args]
    doc = json.loads(run(*args, "-f", "json").stdout)
    ex = doc["baseline"]["exact"]["super_sevens_house_edge"]
    sim = doc["baseline"]["super_sevens"]
    assert sim["ci95_low"] is not None
    assert (f"({100 * ex:.3f}% exact, {100 * sim['house_edge']:.3f}% simulated): the house's "
            f"take on the side bet a box-round goes from {ex:.3f} to {2 * ex:.3f} initial wagers "
            "(exact: the house edge per unit staked times the stake; simulated "
            f"{sim['house_edge']:.3f} to {2 * sim['house_edge']:.3f})") in doc["stake_note"]


def test_a_variant_that_only_turns_super_sevens_on_says_whose_main_game_it_is():
    # Under rules without Super Sevens no table shows that bet, so super-sevens-8-decks printed
    # decks-8's row again with nothing said; now its changes name whose main game it plays
    args = ["compare", *TINY, "--set", "super_sevens=false", "--variant", "variants/decks-8",
            "--variant", "variants/super-sevens-8-decks"]
    said = "(the main game of decks-8: its Super Sevens bet has no difference, as the baseline "
    assert said in run(*args).stdout
    doc = json.loads(run(*args, "-f", "json").stdout)
    ss8 = next(v for v in doc["variants"] if v["label"] == "super-sevens-8-decks")
    assert ss8["same_main_game_as"] == "decks-8" and ss8["same_game_as"] is None
    nz = json.loads(run("compare", *TINY, "--variant", "variants/decks-8", "--variant",
                        "variants/super-sevens-8-decks", "-f", "json").stdout)
    ss8 = next(v for v in nz["variants"] if v["label"] == "super-sevens-8-decks")
    assert ss8["same_game_as"] == "decks-8" and ss8["same_main_game_as"] is None


def test_a_variant_whose_7_7_play_changes_with_the_side_bet_is_not_the_same_main_game():
    # A code review: basic-super-sevens hits 7-7 against 8-A with the bet up and splits it
    # without, so super_sevens=true plays another main game (exact +0.097 pp), but was labelled
    # "the main game of" the baseline, json same_main_game_as said so, and the intervals'
    # count took it for a game given twice
    args = ["compare", *TINY[:9], "--set", "super_sevens=false", "--strategy",
            "basic-super-sevens", "--vary", "super_sevens=true", "--vary",
            "dealer_hits_soft_17=true", "--vary", "decks=8", "--vary", "decks=4", "--vary",
            "max_hands=2", "--vary", "double_after_split=false", "--no-exact"]
    assert "(the main game of" not in run(*args).stdout
    doc = json.loads(run(*args, "-f", "json").stdout)
    ss = next(v for v in doc["variants"] if v["label"] == "super_sevens=true")
    assert ss["same_main_game_as"] is None and ss["same_game_as"] is None
    assert doc["multiple_comparisons"].startswith(
        "Many comparisons: 6 variants, 6 differences with a 95% interval;")
    # a variant the same main game as a later earlier one (the second): named as its (a last
    # read: only the first game of those rules was asked)
    again = json.loads(run("compare", *TINY[:9], "--set", "super_sevens=false", "--strategy",
                           "basic-super-sevens", "--vary", "super_sevens=true", "--vary",
                           "super_sevens=true,super_sevens_pays=3,50,100,500,4000",
                           "--no-exact", "-f", "json").stdout)
    assert [v["same_main_game_as"] for v in again["variants"]] == [None, "super_sevens=true"]
    basic = [a if a != "basic-super-sevens" else "basic" for a in args]  # (7-7 alike: the same)
    doc = json.loads(run(*basic, "-f", "json").stdout)
    ss = next(v for v in doc["variants"] if v["label"] == "super_sevens=true")
    assert ss["same_main_game_as"] == "nz1994 (modified: super_sevens=false)"


def test_the_shipped_basic_under_other_rules_is_said_to_be_the_nz_chart():
    # compare was the one command besides exact not to say it (json strategy_note '')
    args = ["compare", "--rules", "single-deck-h17", "--strategy", "basic", "--vary", "decks=2",
            *TINY[:8], "--no-exact"]
    doc = json.loads(run(*args, "-q", "-f", "json").stdout)
    note = doc["baseline"]["strategy_note"]  # (derived or not yet: "may call for another")
    assert note.startswith("basic is the NZ rules' chart; ") and "rules (decks=1, " in note
    assert "strategy basic (basic is the NZ rules' chart" in run(*args, "-q").stdout
    nz = json.loads(run("compare", "--strategy", "basic", "--vary", "decks=2", *TINY[:8],
                        "--no-exact", "-q", "-f", "json").stdout)
    # the NZ rules: their own chart, no note: null, as simulate's run.strategy_note (it was "")
    assert nz["baseline"]["strategy_note"] is None
    # its variant plays the chart derived for decks=2, noted as simulate notes it
    assert [v["strategy_note"] for v in nz["variants"]] == [
        "the exact analyzer's for decks=2; the shipped basic is the NZ rules' chart"]


def test_more_boxes_than_the_per_box_strategies_is_refused_in_words():
    # It said "boxes=3: 2 strategies for boxes = 3: --same-strategy needs the same boxes",
    # naming an option not given.
    result = run("compare", "--boxes", "2", "--strategy", "basic", "--strategy", "mimic-dealer",
                 "--vary", "boxes=3", "--rounds", "10k", "-q")
    assert result.exit_code == 2
    assert result.stderr == ("Error: --vary boxes=3: the baseline plays 2 strategies, one a box, "
                             "and this variant 3 boxes: allowed the baseline's boxes, or one "
                             "--strategy for every box\n")


def test_the_plot_marks_a_partial_run_and_a_cut_card_exact_point():
    # An interrupted run's plot said only "14,100,000 rounds per game", and a decks-1 exact
    # point, whose simulated difference holds the cut-card effect too (the table's ~), was
    # drawn like the others, far from its interval as if at fault.
    from types import SimpleNamespace

    from simulator import compare_report

    def row(label, exact, scope):
        return {"game": SimpleNamespace(label=label), "difference": {"house_edge": {
            "mean": 0.001, "se": 0.0002, "exact": exact, "exact_scope": scope}}}

    stats = {"rounds": 1000, "rows": [row("nz", None, None), row("h17", 0.002, "full"),
                                      row("decks-1", -0.004, "cut-card")]}
    plt = compare_report.require_matplotlib()
    fig = compare_report.figure(plt, stats, partial=True)
    ax = fig.axes[0]
    assert ax.get_title() == "nz: 1,000 rounds per game (partial: interrupted)"
    cut = "exact, full shoe (~: the simulated also holds the cut-card effect)"
    legend = {t.get_text() for t in fig.legends[0].get_texts()}
    assert legend == {"simulated, 95% interval", "exact", cut}
    marks = {ln.get_label(): (ln.get_marker(), list(ln.get_xdata())) for ln in ax.get_lines()
             if ln.get_label().startswith("exact")}
    assert marks["exact"] == ("x", [0.2]) and marks[cut] == ("1", [-0.4])
    plt.close(fig)
    fig = compare_report.figure(plt, stats)
    assert fig.axes[0].get_title() == "nz: 1,000 rounds per game"
    plt.close(fig)


@pytest.mark.parametrize("means", [[0.001], [-0.0006, 0.0027, 0.0005]])
def test_the_plots_legend_covers_no_point_or_interval(means):
    # The legend sat inside the axes ("best"): with --vary decks=8 --vary
    # dealer_hits_soft_17=true --vary penetration=0.6 it hid the left half of penetration's
    # interval and its point, with H17 alone its interval's upper end. Now it is below the axes,
    # clear of everything they draw (points, intervals, ticks, labels).
    from types import SimpleNamespace

    from simulator import compare_report

    def row(label, mean, scope="full"):
        return {"game": SimpleNamespace(label=label), "difference": {"house_edge": {
            "mean": mean, "se": 0.0012, "exact": None if mean is None else mean + 0.0004,
            "exact_scope": scope}}}

    scopes = ["cut-card", "full", "none"]
    stats = {"rounds": 200_000, "rows": [row("nz1994", None)] + [
        row(f"v{i}", m, scopes[i % 3]) for i, m in enumerate(means)]}
    plt = compare_report.require_matplotlib()
    fig = compare_report.figure(plt, stats)
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        ax = fig.axes[0]
        (box,) = fig.legends or [ax.get_legend()]
        legend = box.get_window_extent(renderer)
        drawn = [(a, a.get_window_extent(renderer)) for a in ax.get_children()
                 if a.get_visible() and a not in (ax.patch, box, *ax.spines.values())]
        data = [(a, b) for a, b in drawn if all(map(math.isfinite, b.bounds))
                and (b.width > 0 or b.height > 0)]  # (not an empty collection's)
        assert len(data) > 3 and not [a for a, b in data if legend.overlaps(b)], (legend, data)
        assert ax.get_legend() is None and len(fig.legends) == 1  # (outside the axes)
        whole = ax.get_tightbbox(renderer)  # with its tick labels, x label and title
        assert legend.y1 <= whole.y0 and legend.y0 >= 0, (legend, whole)
        assert legend.x0 >= 0 and legend.x1 <= fig.bbox.x1
    finally:
        plt.close(fig)


def test_a_variant_with_the_baselines_own_rules_and_strategy_is_run_with_a_warning():
    # `--vary decks=6` on a 6-deck baseline ran without a word, a row of +0.000 labelled as a
    # change. Not refused: a shipped variant may be the baseline's own rules (NZ's
    # dealer_blackjack_takes), and a whole folder of variants is compared at once.
    shipped = str(Path(__file__).resolve().parent.parent
                  / "configs/variants/dbj-original-and-busted.toml")
    result = run("compare", "--vary", "decks=6", "--vary", "decks=8", "--variant", shipped,
                 "--vary-strategy", "basic", "-n", "2000", "--no-exact", "-q")
    assert result.exit_code == 0
    warned = [ln for ln in result.stderr.splitlines() if "warning" in ln]
    assert warned == [
        "bjsim: warning: --vary 'decks=6' is the baseline's game (its rules and strategy are the "
        "baseline's): its difference is 0",
        f"bjsim: warning: --variant {shipped} 'dbj-original-and-busted' is the baseline's game "
        "(its rules and strategy are the baseline's): its difference is 0",
        "bjsim: warning: --vary-strategy 'strategy=basic' is the baseline's game (its rules and "
        "strategy are the baseline's): its difference is 0"], warned


def test_a_strategy_file_varied_is_labelled_by_its_name(tmp_path):
    # Two files a/s.toml and b/s.toml were both 'strategy=s' and refused as one label, with a
    # hint (variant.name, [meta] name) that a strategy file has no use for.
    basic = (Path(__file__).resolve().parent.parent / "strategies/basic.toml").read_text()
    for d, name in (("a", "mine-a"), ("b", "mine-b"), ("c", None)):
        (tmp_path / d).mkdir()
        text = "\n".join(ln for ln in basic.splitlines() if not ln.startswith("name ="))
        (tmp_path / d / "s.toml").write_text(text + (f'\nname = "{name}"\n' if name else "\n"))
    a, b, c = (str(tmp_path / d / "s.toml") for d in "abc")
    result = run("compare", "--vary-strategy", a, "--vary-strategy", b, "-n", "2000",
                 "--no-exact", "-q", "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert [g["label"] for g in json.loads(result.stdout)["variants"]] == [
        "strategy=mine-a", "strategy=mine-b"]
    # the same file by two paths: the same variant asked twice (variants.twice resolves a
    # strategy's file), where it had been refused later as two games of one label
    result = run("compare", "--vary-strategy", c, "--vary-strategy", c.replace("/c/", "/c/./"),
                 "-n", "2000", "--no-exact")
    assert_user_error(result, f"--vary-strategy '{c.replace('/c/', '/c/./')}' (the same as "
                      f"'{c}') is asked for twice: allowed each variant once")
    # a file named as a shipped strategy is labelled by its path: it may be another chart
    (tmp_path / "hog.toml").write_text(text + '\nname = "basic"\n')
    hog = str(tmp_path / "hog.toml")
    result = run("compare", "--vary-strategy", hog, "-n", "2000", "--no-exact", "-q", "-f", "json")
    assert [g["label"] for g in json.loads(result.stdout)["variants"]] == [f"strategy={hog}"]


def test_a_max_rounds_short_of_30_paired_blocks_is_refused_before_any_round(monkeypatch):
    # --precision 0.01 --max-rounds 1000 ran 16 blocks of 64 rounds, where no difference has an
    # interval, and ended "NOT met ... (widest half-width -)" with exit 0: a target never checked.
    from simulator import compare as cmp

    played = cmp.compare
    monkeypatch.setattr(cmp, "compare", lambda *a, **k: pytest.fail("a run was started"))
    args = ["compare", "--vary", "decks=8", "--precision", "0.01", "--no-exact"]
    assert_user_error(run(*args, "--max-rounds", "1000"),
                      "--max-rounds 1,000 makes 16 paired blocks of 64 rounds (the default: a "
                      "shoe of every game): a precision target is checked from 30 paired blocks "
                      "on, and 30 take 1,857 rounds: allowed at least 1,857 with --precision, or "
                      "a smaller --pair-rounds")
    assert_user_error(run(*args, "--max-rounds", "1856"), "makes 29 paired blocks",
                      "allowed at least 1,857")
    # blocks of the chunk's rounds, and of --pair-rounds: the chunks count, each cut anew
    assert_user_error(run(*args, "--max-rounds", "1000", "--chunk-rounds", "40"),
                      "--max-rounds 1,000 makes 25 paired blocks of 40 rounds (--chunk-rounds "
                      "40)", "allowed at least 1,161")
    assert_user_error(run(*args, "--max-rounds", "1400", "--chunk-rounds", "100",
                          "--pair-rounds", "64"),
                      "--max-rounds 1,400 makes 28 paired blocks of 64 rounds (--pair-rounds)",
                      "30 take 1,465 rounds")
    assert cmp.rounds_for_blocks(30, 100, 64) == 1465  # 14 chunks of 2 blocks, 65 rounds more
    assert cmp.too_few_blocks(1465, 100, 64, "") is None
    # the least allowed reaches 30 blocks: the target is checked at its last round
    monkeypatch.setattr(cmp, "compare", played)
    result = run(*args, "--max-rounds", "1857", "-q", "--strategy", "basic", "--same-strategy")
    assert result.exit_code == 0, result.output
    assert "(widest half-width ±" in result.stderr and "paired block" not in result.stderr


def test_a_chunk_of_too_many_blocks_is_refused_before_any_round():
    # --chunk-rounds 1e11 gave numpy's "Unable to allocate 62.1 GiB" traceback, and 1e9 grew
    # past 2 GB unstoppable: a chunk's blocks are held in memory while it plays.
    result = run("compare", "--vary", "dealer_hits_soft_17=true", "--rounds", "1e12",
                 "--chunk-rounds", "5e7", "--pair-rounds", "40", "--no-exact")
    assert_user_error(result, "--chunk-rounds 50,000,000 makes 1,250,000 blocks of 40 rounds "
                      "(--pair-rounds 40) a chunk: allowed at most 1,048,576", "give "
                      "--chunk-rounds 41,943,040 or fewer, or larger blocks")
    # a chunk holds at most the run's rounds: a short run of a large chunk size is fine
    ok = run("compare", "--vary", "dealer_hits_soft_17=true", "--rounds", "2000",
             "--chunk-rounds", "1e9", "--no-exact", "-q")
    assert ok.exit_code == 0, ok.stderr
    from simulator import compare as C

    assert C.too_many_blocks(41_943_040, 40, 10**12) is None
    assert "chunk_rounds = 41,943,041 makes 1,048,577 blocks" in C.too_many_blocks(
        41_943_041, 40, 10**12)


def test_a_table_of_several_strategies_is_named_box_by_box():
    # "strategy mimic-dealer/basic" named a mimic-dealer, basic, mimic-dealer table as if two
    # boxes; simulate names each box.
    args = ["compare", "-q", "--boxes", "3", "--strategy", "mimic-dealer", "--strategy", "basic",
            "--strategy", "mimic-dealer", "--vary", "dealer_hits_soft_17=true",
            "--same-strategy", "-n", "2000", "--no-exact"]
    named = "box 1: mimic-dealer, box 2: basic, box 3: mimic-dealer"
    assert f"strategy {named}" in run(*args).stdout.splitlines()[0]
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)))
    assert {r["strategy"] for r in rows if r.get("strategy")} == {named}


def test_a_key_of_no_effect_is_said_and_marked_in_each_game():
    # Under a peek, --set dealer_blackjack_takes=all (and its --vary) were taken silently.
    why = 'hole_card = "peek", a dealer blackjack ends the round before any double or split'
    args = [*TINY, "--set", "hole_card=peek", "--set", "dealer_blackjack_takes=all", "--vary",
            "dealer_blackjack_takes=original"]
    table = run("compare", *args)
    assert table.exit_code == 0, table.output
    assert table.stderr.splitlines() == [
        f"bjsim: warning: --set dealer_blackjack_takes=\"all\" has no effect under these "
        f"rules ({why}): every value of dealer_blackjack_takes gives the same figures"]
    assert f'  dealer_blackjack_takes="original": dealer_blackjack_takes="original" (no effect: ' \
           f"{why}); strategy" in table.stdout  # (a key of no effect: no Gazette word)
    doc = json.loads(run("compare", *args, "-f", "json").stdout)
    assert doc["baseline"]["no_effect"] == doc["variants"][0]["no_effect"] == {
        "dealer_blackjack_takes": why}
    plain = json.loads(run("compare", *TINY, "--vary", "decks=8", "-f", "json").stdout)
    assert plain["baseline"]["no_effect"] == plain["variants"][0]["no_effect"] == {}


def _kept_figure(monkeypatch) -> dict:
    """``kept["fig"]``: the figure the next ``--plot`` draws (`compare_report.figure`'s)."""
    from simulator import compare_report

    kept = {}
    real = compare_report.figure

    def keep(plt, stats, partial=False):
        kept["fig"] = fig = real(plt, stats, partial)
        return fig

    monkeypatch.setattr(compare_report, "figure", keep)
    return kept


def test_the_plot_says_why_a_super_sevens_difference_has_its_exact_mark_alone(monkeypatch,
                                                                            tmp_path):
    # A review: at 1M rounds decks=4's Super Sevens difference is withheld (the table's †),
    # drawn as its exact mark alone, and the axis gave only "no point: the variant leaves the
    # Super Sevens bet as it is", which is not why
    kept = _kept_figure(monkeypatch)
    args = ["compare", "--rounds", "1M", "--seed", "3", "--quiet", "--strategy", "basic",
            "--same-strategy", "--vary", "decks=4", "-f", "json"]
    result = run(*args, "--plot", str(tmp_path / "d.png"))
    assert result.exit_code == 0, result.output
    (v,) = json.loads(result.stdout)["variants"]
    assert v["difference"]["super_sevens"]["interval_note"]
    side = kept["fig"].axes[1]
    assert side.get_xlabel().endswith("\n(exact mark alone: the simulated difference withheld "
                                      "(the table's †))")
    assert "leaves the Super Sevens bet" not in side.get_xlabel()
    result = run(*args, "--vary", "dealer_hits_soft_17=true", "--plot", str(tmp_path / "e.png"))
    assert result.exit_code == 0, result.output
    assert kept["fig"].axes[1].get_xlabel().endswith(
        "\n(no point: the variant leaves the Super Sevens bet as it is)\n(exact mark alone: the "
        "simulated difference withheld (the table's †))")
    # (a last read: with no exact figure, --no-exact or a penetration's, nothing is drawn)
    result = run(*args, "--no-exact", "--plot", str(tmp_path / "f.png"))
    assert result.exit_code == 0, result.output
    assert kept["fig"].axes[1].get_xlabel().endswith(
        "\n(no point: the simulated difference withheld (†), and no exact one)")
    assert "exact mark alone" not in kept["fig"].axes[1].get_xlabel()


def test_the_plot_draws_the_super_sevens_differences_beside_the_main_games(monkeypatch,
                                                                            tmp_path):
    # The plot drew the house-edge differences alone, under "house edge difference from the
    # baseline": a cut of the Super Sevens pays (+2.17 pp, exact) showed as a point at 0. Where
    # the table shows Super Sevens, a second panel draws its differences as the table gives
    # them, and each panel's title names its wager; a variant that leaves the bet as it is has
    # no point there, as it has no row in the table.
    kept = _kept_figure(monkeypatch)
    pays = "super_sevens_pays=3,50,100,500,2500"
    result = run("compare", "--rounds", "4M", "--chunk-rounds", "1M", "--seed", "3", "--quiet",
                 "--strategy", "basic", "--same-strategy", "--vary", "dealer_hits_soft_17=true",
                 "--vary", pays, "-f", "json", "--plot", str(tmp_path / "d.png"))
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    h17, cut = doc["variants"]
    d = cut["difference"]["super_sevens"]
    assert d["interval_note"] is None and d["exact"] == pytest.approx(0.02169, abs=1e-4)
    main, side = kept["fig"].axes
    assert main.get_title() == "Main game + insurance (per initial wager)"
    assert side.get_title() == "Super Sevens, rule 14 (per unit staked)"
    assert kept["fig"]._suptitle.get_text() == "nz1994: 4,000,000 rounds per game"
    for ax in (main, side):
        assert ax.get_xlabel().startswith("house edge difference from the baseline, percentage "
                                          "points (pp)")
    assert "no point: the variant leaves the Super Sevens bet as it is" in side.get_xlabel()

    def drawn(ax, marker):
        return [(x, y) for ln in ax.get_lines() if ln.get_marker() == marker
                for x, y in zip(ln.get_xdata(), ln.get_ydata(), strict=True)]

    # rows from the top: h17 at y = 1, the pays' cut at y = 0
    assert drawn(side, "o") == [(pytest.approx(100 * d["mean"]), 0)]
    assert drawn(side, "x") == [(pytest.approx(100 * d["exact"]), 0)]
    he = h17["difference"]["house_edge"]
    assert (pytest.approx(100 * he["mean"]), 1) in drawn(main, "o")


def test_a_plot_of_the_main_game_alone_says_so_on_its_axis(tmp_path, monkeypatch):
    # Where no variant touches Super Sevens the plot has one panel: its axis names the wager.
    from simulator import compare_report

    kept = {}
    real = compare_report.figure
    monkeypatch.setattr(compare_report, "figure",
                        lambda plt, stats, partial=False: kept.setdefault(
                            "fig", real(plt, stats, partial)))
    result = run("compare", *TINY, "--vary", "dealer_hits_soft_17=true", "--plot",
                 str(tmp_path / "d.png"))
    assert result.exit_code == 0, result.output
    (ax,) = kept["fig"].axes
    assert ax.get_xlabel() == ("house edge difference from the baseline, percentage points "
                               "(pp)\nmain game + insurance, per initial wager")


def test_a_vary_label_is_the_change_as_simulate_names_the_rule_set():
    # One rule set had two names: simulate and compare --set named it "nz1994 (modified:
    # super_sevens_pays=[3, 50, 100, 500, 2500])", the --vary label read
    # "super_sevens_pays=3,50,100,500,2500". Now the label, and the variant's changes, are the
    # change as every command names the rule set.
    for change in ("super_sevens_pays=3,50,100,500,2500", "hole_card=peek"):
        sim = json.loads(run("simulate", "-n", "2000", "--chunk-rounds", "2000", "-q", "--strategy",
                             "basic", "--set", change, "-f", "json").stdout)
        name = sim["run"]["rules_name"]
        assert name.startswith("nz1994 (modified: ") and name.endswith(")")
        named = name[len("nz1994 (modified: "):-1]
        doc = json.loads(run("compare", *TINY, "--vary", change, "-f", "json").stdout)
        (v,) = doc["variants"]
        assert v["label"] == named and v["changes"] == [named], (v["label"], named)
        based = json.loads(run("compare", *TINY, "--set", change, "--vary", "decks=8", "-f",
                               "json").stdout)
        assert based["baseline"]["label"] == name
    assert named == 'hole_card="peek"'


def test_the_csv_holds_the_se_ratio_the_table_and_json_give():
    # The table printed a "se ratio" column and json difference.house_edge.se_ratio, but the
    # csv had no such column.
    args = ["compare", *TINY, "--vary", "dealer_hits_soft_17=true"]
    doc = json.loads(run(*args, "-f", "json").stdout)
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)))
    d = doc["variants"][0]["difference"]["house_edge"]
    row = next(r for r in rows if r["variant"] == "dealer_hits_soft_17=true"
               and r["figure"] == "house_edge" and r["figures_of"] == "game")
    assert d["se_ratio"] is not None
    assert float(row["se_ratio"]) == pytest.approx(d["se_ratio"], rel=1e-9)
    assert float(row["se_ratio"]) == pytest.approx(math.sqrt(float(row["variance_reduction"])),
                                                   rel=1e-6)
    assert f"{d['se_ratio']:.2f}" in run(*args).stdout  # (the table's column)
    base = next(r for r in rows if r["variant"] == "nz1994" and r["figure"] == "house_edge")
    assert base["se_ratio"] == ""  # (the baseline: no difference)


def test_csv_changes_split_back_into_the_changes_when_a_value_is_a_list():
    """A list value holds ", " (super_sevens_pays=[3, 50, ...]): the csv's ``changes`` joins the
    changes by "; ", so the cell splits back into json's ``changes`` (a space had joined them)."""
    args = ["compare", *TINY, "--vary", "super_sevens_pays=3,50,100,500,2500,decks=8"]
    doc = json.loads(run(*args, "-f", "json").stdout)
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)))
    want = doc["variants"][0]["changes"]
    assert len(want) == 2 and any(", " in c for c in want), want
    cells = {r["changes"] for r in rows if r["variant"] == doc["variants"][0]["label"]}
    assert cells and all(c.split("; ") == want for c in cells), (cells, want)


def test_a_shipped_variant_is_named_as_the_baselines_rule_file_is(tmp_path, monkeypatch):
    """A shipped variant given by name (variants/h17) was named by its absolute path in json's
    ``source``, where the baseline's is configs/nz1994.toml (a pipeline's review): it is named
    relative to bjsim's folder, as shipped rule sets are; a path the user typed stays as typed."""
    own = tmp_path / "mine.toml"
    own.write_text('[variant]\nname = "mine"\n\n[changes]\ndealer_hits_soft_17 = true\n')
    monkeypatch.chdir(tmp_path)
    doc = json.loads(run("compare", *TINY, "--variant", "variants/h17", "--variant",
                         "mine.toml", "-f", "json").stdout)
    assert doc["baseline"]["source"] == "configs/nz1994.toml"
    assert [v["source"] for v in doc["variants"]] == ["configs/variants/h17.toml", "mine.toml"]


def test_docs_compare_names_every_key_of_the_json_and_its_timing():
    # timing.game_rounds_per_second was in no doc (a pipeline's review)
    doc = json.loads(run("compare", *TINY, "--vary", "decks=8", "-f", "json").stdout)
    text = (Path(__file__).resolve().parent.parent / "docs" / "compare.md").read_text()
    for key in [*doc, *doc["run"], *doc["timing"]]:
        assert f"`{key}`" in text, key


def test_docs_compare_defines_the_csvs_z_as_the_csv_gives_it():
    # The csv's and json's `z` were listed with no word of what they are (the report's csv
    # defines its `z_house_edge`, the same kind of figure).
    text = " ".join((Path(__file__).resolve().parent.parent / "docs" / "compare.md").read_text()
                    .split())
    assert "`z` (`(difference - exact_difference) / difference_se`: a z of the difference" in text
    assert "`z` (`(mean - exact) / se`, the csv's `z`;" in text
    exact = [a for a in TINY if a != "--no-exact"]  # (z needs the exact figures)
    rows = [r for r in csv.DictReader(io.StringIO(run("compare", *exact, "--vary", "decks=8",
                                                      "-f", "csv").stdout)) if r.get("z")]
    assert rows
    for r in rows:
        assert float(r["z"]) == pytest.approx(
            (float(r["difference"]) - float(r["exact_difference"])) / float(r["difference_se"]))


def test_the_cut_card_note_of_chunks_as_blocks_advises_both_options():
    # A review: with --chunk-rounds 16 the note advised --pair-rounds 4096 alone, which is then
    # refused as larger than --chunk-rounds.
    text = run("compare", "--vary", "penetration=0.6", "--chunk-rounds", "16", "--rounds", "4000",
               "--no-exact", "-q").stdout
    assert ("blocks of many shoes (--pair-rounds 4096 with --chunk-rounds 4096 or more; "
            "docs/compare.md)") in text, text


@pytest.mark.parametrize("change, touched", [
    ({"penetration": 0.5}, True), ({"shuffle": "every-round"}, True), ({"decks": 8}, True),
    ({"dealer_hits_soft_17": True}, False), ({"boxes": 3}, True)])
def test_the_cut_card_touches_the_super_sevens_table(change, touched):
    # (boxes too, a rule-variant analyst's review: a table's boxes take cards a round and move
    # the cut-card effect as the penetration does; boxes=3 had moved it by -3.6 pp unshown)
    # A review (a casino analyst): penetration and shuffle variants had no Super Sevens row in
    # the table and markdown, though the cut-card effect moves the side bet's return too and
    # `simulate --exact`'s note sends the user to `compare --vary shuffle=every-round` for it
    from simulator.compare import Game
    from simulator.compare_report import _touches_ss
    from simulator.rules import Rules
    from simulator.strategy import load_strategy

    basic = load_strategy("basic")
    base = Game("nz", Rules(), (basic,), ("basic",))
    game = Rules().replace(**change)
    assert _touches_ss(base, Game("v", game, (basic,) * game.boxes, ("basic",) * game.boxes)) \
        == touched


def test_a_strategy_varied_twice_by_name_and_by_file_is_refused():
    # A last read: report --choice caught a shipped name and its file as the same; compare's
    # --vary-strategy, which shares the check (variants.twice), did not
    file = ROOT / "strategies" / "mimic-dealer.toml"
    assert_user_error(run("compare", *TINY, "--vary-strategy", "mimic-dealer", "--vary-strategy",
                          str(file)),
                      f"--vary-strategy '{file}' (the same as 'mimic-dealer') is asked for twice: "
                      "allowed each variant once")


def test_a_derived_strategy_has_simulates_strategy_note_in_the_json():
    """A scripting user's review: compare's json gave strategy_note null for a game playing the
    chart derived for its rules, where docs/compare.md says it is simulate's run.strategy_note
    (and simulate's names the derived chart's rules)."""
    small = ["--rounds", "4000", "--chunk-rounds", "2000", "--pair-rounds", "50", "--quiet"]
    doc = json.loads(run("compare", *small, "--set", "dealer_hits_soft_17=true", "--vary",
                         "decks=8", "--no-exact", "-f", "json").stdout)
    sim = json.loads(run("simulate", "--set", "dealer_hits_soft_17=true", "--rounds", "1000",
                         "-q", "-f", "json").stdout)
    note = sim["run"]["strategy_note"]
    assert note and doc["baseline"]["strategy_note"] == note
    assert doc["variants"][0]["strategy_note"].startswith(
        "the exact analyzer's for decks=8, dealer_hits_soft_17=true")
    plain = json.loads(run("compare", *TINY, "--vary", "decks=8", "-f", "json").stdout)
    assert plain["baseline"]["strategy_note"] is None  # (the shipped basic under its own rules)


def test_a_games_own_house_edge_without_an_interval_is_explained_under_the_table():
    # A statistics review: at 20 rounds each game's house edge showed † with only the paired
    # blocks' reason under the table; why the game's own interval is missing was in json alone.
    small = ["--rounds", "20", "--quiet", "--no-exact", "--strategy", "basic", "--same-strategy"]
    text = " ".join(run("compare", "--vary", "dealer_hits_soft_17=true", *small).stdout.split())
    assert ("† no 95% interval for the house edge of nz1994; dealer_hits_soft_17=true: too few "
            "rounds for a meaningful interval: 20 rounds, fewer than 30.") in text
    assert "for the house edge of" not in run("compare", "--vary", "dealer_hits_soft_17=true",
                                              *TINY).stdout


def test_compares_cut_card_notes_size_the_effect_for_the_tables_measured_only():
    # The cut-card effect was measured for one box: with a game of several boxes compare's z
    # note sized it by the baseline's one box, and the short-block note gave a shift and a "well
    # inside the interval" from one box's effect. Measured since for 2-7 boxes with 4, 6 and 8
    # decks: with 5 decks neither is sized
    z = json.loads(run("compare", "--set", "decks=5", "--vary", "boxes=3", "-n", "20000", "-q",
                       "-f", "json").stdout)["z_note"]
    assert "its size with 3 boxes is not measured: bjsim measured it for one box" in z
    z = json.loads(run("compare", "--vary", "boxes=3", "-n", "20000", "-q", "-f",
                       "json").stdout)["z_note"]
    assert "on the house edge of a table of 3 boxes with 6 decks, as bjsim measured it" in z
    for vary in (["--vary", "boxes=3,decks=5"], ["--boxes", "3", "--vary", "decks=5"]):
        # (a last read: the baseline's 6 decks with the 3 boxes of a 4-deck game, "measured")
        z = json.loads(run("compare", *vary, "-n", "20000", "-q", "-f", "json").stdout)["z_note"]
        assert "its size with 3 boxes is not measured" in z and "5 decks" in z, vary
    z = json.loads(run("compare", "--vary", "boxes=3,decks=8", "-n", "20000", "-q", "-f",
                       "json").stdout)["z_note"]
    assert "on the house edge of a table of 3 boxes with 8 decks, as bjsim measured it" in z
    one = json.loads(run("compare", "--vary", "decks=8", "-n", "20000", "-q", "-f",
                         "json").stdout)["z_note"]
    assert "as bjsim measured it" in one and "not measured" not in one
    shoe = json.loads(run("compare", "--boxes", "3", "--set", "decks=5", "--vary",
                          "penetration=0.85", "-n", "20000", "--no-exact", "-q", "-f",
                          "json").stdout)["shoe_note"]
    assert "which bjsim measured for one box, and for tables of 2-7 boxes with 4, 6 and 8 " \
        "decks only, not for these games' boxes: the shift is not sized here" in shoe
    assert "a shift of about" not in shoe and "well inside" not in shoe
    shoe = json.loads(run("compare", "--boxes", "3", "--vary", "penetration=0.85", "-n",
                          "20000", "--no-exact", "-q", "-f", "json").stdout)["shoe_note"]
    assert "a shift of about" in shoe and "with 6 decks and 3 boxes" in shoe
    sized = json.loads(run("compare", "--vary", "penetration=0.85", "-n", "20000", "--no-exact",
                           "-q", "-f", "json").stdout)["shoe_note"]
    assert "a shift of about" in sized


def test_csv_gives_the_bets_each_figure_is_of():
    # json gave super_sevens.bets; the csv gave no count behind any figure (a review)
    args = ("compare", "--vary", "decks=8", "--boxes", "2", "--strategy", "basic", "--strategy",
            "mimic-dealer", "-n", "3000", "--chunk-rounds", "3000", "-q")
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)))
    doc = json.loads(run(*args, "-f", "json").stdout)
    figures = [r for r in rows if r["figure"] in ("house_edge", "super_sevens")]
    assert figures and all(r["bets"] for r in figures)
    game = {(r["variant"], r["figure"]): int(r["bets"]) for r in figures
            if r["figures_of"] == "game"}
    assert game[(doc["baseline"]["label"], "super_sevens")] == doc["baseline"]["super_sevens"][
        "bets"] == 6000
    assert game[(doc["baseline"]["label"], "house_edge")] == 6000  # box-rounds
    assert {int(r["bets"]) for r in figures if r["figures_of"] != "game"} == {3000}
    assert all(r["bets"] == "" for r in rows if r["figures_of"] == "rules")


def test_a_moved_cut_card_points_a_casino_to_the_counters_figures():
    # A casino manager's review: compare --vary penetration=0.9 measured the cut card's place
    # for a player who does not count, and nothing said where a counter's is.
    said = "the cut card moved or taken away, for the strategy played, which does not count"
    moved = run("compare", "--vary", "penetration=0.6", "--vary", "decks=8", "--vary",
                "shuffle=every-round", "-n", "2000", "--no-exact", "-q")
    assert moved.exit_code == 0, moved.output
    (line,) = [ln for ln in moved.stdout.splitlines() if said in ln]
    assert line.startswith('penetration=0.6, shuffle="every-round": ')
    assert line.endswith("bjsim count --penetrations 0.6,0.75.")
    # a variant changing more than the cut card is pointed at its own rules (a rule-variant
    # analyst's review: the 1-deck variant had been pointed at the 6-deck baseline's sweep)
    both = run("compare", "--vary", "penetration=0.6", "--vary", "decks=1,penetration=0.8",
               "-n", "2000", "--no-exact", "-q").stdout
    (line,) = [ln for ln in both.splitlines() if said in ln]
    assert line.endswith("the baseline's rules): bjsim count --penetrations 0.6,0.75; "
                         "decks=1,penetration=0.8, at its own rules: bjsim count --penetrations "
                         "0.75,0.8 --set decks=1."), line
    # each command runs as printed (a diff read: one clashed with the baseline's --set, one
    # set super_sevens_bet, which count refuses)
    import shlex

    for args in (["--set", "decks=8", "--vary", "decks=1,penetration=0.8"],
                 ["--vary", "super_sevens_bet=2,penetration=0.6"],
                 ["--variant", "single-deck-h17"],
                 ["--rules", "us-6deck-s17-das-peek", "--vary", "penetration=0.8"]):
        text = run("compare", *args, "-n", "2000", "--no-exact", "-q").stdout
        (line,) = [ln for ln in text.splitlines() if said in ln]
        for cmd in line.rstrip(".").split("bjsim count ")[1:]:
            argv = shlex.split(cmd.split(";")[0])
            counted = run("count", *argv, "-n", "2000", "--chunk-rounds", "2000", "-q")
            assert counted.exit_code == 0, (cmd, counted.output)
            assert "has no effect" not in counted.stderr, (cmd, counted.stderr)
    for other in (["--vary", "decks=8"],  # (no cut card to move: a last read)
                  ["--set", "shuffle=every-round", "--vary", "penetration=0.6"]):
        result = run("compare", *other, "-n", "2000", "--no-exact", "-q")
        assert result.exit_code == 0 and said not in result.stdout, other


@pytest.mark.parametrize(("vary", "pairing"), [
    ("super_sevens_bet=2", "plays identically to the baseline: the same cards and decisions"),
    ("super_sevens_pays=3,50,100,500,1000", "plays the baseline's main game identically on "
     "every shoe")])
def test_a_variant_playing_the_baselines_main_game_is_exactly_0_from_one_block(vary, pairing):
    # A code review: from one paired block (no se) such a variant's house-edge difference was
    # withheld (its interval, †) and its pairing said "the deals drift apart", though it is
    # exactly 0 however few the blocks, as from two blocks on
    doc = json.loads(run("compare", "--workers", "1", "--vary", vary, "-n", "1", "-q",
                         "--no-exact", "-f", "json").stdout)
    v = doc["variants"][0]
    he = v["difference"]["house_edge"]
    assert (he["mean"], he["se"], he["ci95_low"], he["ci95_high"]) == (0, 0, 0, 0), he
    assert he["interval_note"] is None
    assert v["pairing"].startswith(pairing) and "drift apart" not in v["pairing"]


def test_a_pays_change_by_strategy_is_judged_by_the_lines_whose_pay_differs():
    """As the whole game's: where the variant pays only line (b) otherwise, each strategy's
    Super Sevens difference rests on its (b) wins, and has its interval where those are many
    (a review: every strategy's was withheld for 1.7 wins of line (e), whose pay is the same)."""
    result = run("compare", "--boxes", "2", "--strategy", "basic", "--strategy",
                 "basic-super-sevens", "--vary", "super_sevens_pays=3,60,100,500,5000",
                 "--same-strategy", "--rounds", "200000", "-q", "-f", "json")
    assert result.exit_code == 0, result.output
    variant = json.loads(result.stdout)["variants"][0]
    assert variant["difference"]["super_sevens"]["interval_note"] is None
    for entry in variant["difference"]["by_strategy"]:
        d = entry["super_sevens"]
        assert d["interval_note"] is None and d["ci95_low"] < d["mean"] < d["ci95_high"], entry
    # (each game's own figures keep their notes: line (e) still decides those)
    assert all("line (e) paying 5000 to 1" in e["super_sevens"]["interval_note"]
               for e in variant["by_strategy"])


def test_compares_timing_line_says_the_clusters_wait_as_simulates():
    # A scale review: with --scheduler local the line gave the rounds' seconds alone, its wait
    # for the cluster (left out of them) unsaid, where simulate's says it
    from simulator import compare

    plan = types.SimpleNamespace(checkpoint=None, games=[1, 2])
    meta = {"run": {"rounds_played": 2_000_000, "blocks": 100, "precision": None},
            "timing": {"seconds": 1.83, "game_rounds_per_second": 2_190_816,
                       "cluster_startup_seconds": 0.69}}
    (line, *_) = compare._messages(plan, meta, False, False, 0)
    assert line == ("bjsim: 2 games x 2,000,000 rounds in 1.83 s (2,190,816 game-rounds/s), "
                    "after 0.69 s for the Dask cluster to be ready")
    meta["timing"]["cluster_startup_seconds"] = None
    assert compare._messages(plan, meta, False, False, 0)[0].endswith("game-rounds/s)")


def test_compare_says_its_super_sevens_intervals_are_from_the_runs_own_spread():
    # A regulator's review: the report's Super Sevens intervals are by the bet's exact SD,
    # compare's by the run's own, and compare did not say so (simulate's line does)
    args = ["compare", "--rounds", "20000", "-q"]
    ss = run(*args, "--vary", "super_sevens_pays=3,60,100,500,5000").stdout
    assert ("The Super Sevens intervals are from the simulated results' own spread (bjsim "
            "report gives the interval by the bet's exact SD, so a little different)." in ss)
    main = run(*args, "--vary", "blackjack_pays=1.2").stdout  # (no Super Sevens table)
    assert "own spread" not in main and "Super Sevens (rule 14) house edge" not in main


def test_each_variant_says_what_the_gazette_says_of_its_values_in_every_format():
    # a casino manager's review: a pay table the Gazette does not allow was not marked (the
    # report's variants table marks it)
    args = ["compare", *TINY, "--vary", "super_sevens_pays=3,50,100,5,5", "--vary", "decks=8",
            "--vary-strategy", "mimic-dealer"]
    out = run(*args).stdout
    assert "super_sevens_pays=[3, 50, 100, 5, 5]; Gazette: outside (14.3); strategy" in out
    assert "decks=8; Gazette: within (3.1); strategy" in out
    assert "Gazette: what the Gazette says of the values a variant changes" in out
    doc = json.loads(run(*args, "-f", "json").stdout)
    assert [v["gazette"] for v in doc["variants"]] == ["outside (14.3)", "within (3.1)", ""]
    assert doc["baseline"]["gazette"] == ""
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)))
    word = {r["variant"]: r["gazette"] for r in rows if r["figures_of"] == "game"}
    assert word["decks=8"] == "within (3.1)" and word["nz1994"] == ""
    plain = run("compare", *TINY, "--vary-strategy", "mimic-dealer").stdout
    assert "Gazette" not in plain
    # the baseline's, of its departures from the NZ game, in every format (a diff read: json
    # and csv alone had it)
    based = [*TINY, "--set", "dealer_hits_soft_17=true", "--vary", "decks=8"]
    head = run("compare", *based).stdout.splitlines()[0]
    assert "--set dealer_hits_soft_17=true; Gazette: outside (12.3)), strategy" in head
    assert json.loads(run("compare", *based, "-f", "json").stdout)["baseline"]["gazette"] == \
        "outside (12.3)"
    md = run("compare", *based, "-f", "markdown").stdout
    assert "Gazette: outside (12.3)" in md and "The baseline's (the first line)" in md
    # a baseline changed only in the table's choices has no word, as simulate's line (a read)
    assert "Gazette" not in run("compare", *TINY, "--boxes", "2", "--vary",
                                "decks=8").stdout.splitlines()[0]


def test_the_tilde_note_sizes_the_change_of_the_measured_cut_card_effect():
    # a rule-variant analyst's review: README's 1-deck row read z +2.56 against an exact
    # difference the cut-card effect shifts by +0.10 pp (1 deck's +0.122 less 6 decks' +0.021),
    # and the note said it "mostly cancels in the difference"
    from simulator.exact.compare import CUT_CARD_MEASURED

    args = ["compare", "--vary", "decks=1", "--vary", "hole_card=peek", "-n", "40000",
            "--chunk-rounds", "20000", "-q"]
    out = run(*args).stdout
    (line,) = [ln for ln in out.splitlines() if ln.startswith("~ marks")]
    doc = json.loads(run(*args, "-f", "json").stdout)["variants"]
    d = doc[0]["difference"]["house_edge"]
    shift = CUT_CARD_MEASURED[1] - CUT_CARD_MEASURED[6]
    # each game's effect scaled by its rounds in whole shoes: a few percent off the whole
    assert d["cut_card_shift"] == pytest.approx(shift, rel=0.1)
    assert d["z_less_shift"] == pytest.approx(d["z"] - d["cut_card_shift"] / d["se"])
    said = f"decks=1 {100 * d['cut_card_shift']:+.3f} pp (z {d['z_less_shift']:+.2f})"
    assert line.endswith(f"and the house edge's z less it over its SE: {said}."), line
    assert "hole_card" not in line.split("over its SE:")[1]  # (no ~: the same shoe)
    assert doc[1]["difference"]["house_edge"]["cut_card_shift"] is None
    assert "same decks to the same cut card" in out  # (the z note no longer says it cancels)
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)))
    (row,) = [r for r in rows if r["variant"] == "decks=1" and r["figures_of"] == "game"
              and r["figure"] == "house_edge"]
    assert float(row["cut_card_shift"]) == pytest.approx(d["cut_card_shift"])
    # blocks too short for the baseline's cut card (a diff read: its whole effect had been
    # taken off): the baseline's effect scaled to none
    short = run("compare", "--vary", "decks=1", "-n", "20000", "--pair-rounds", "16", "-q",
                "-f", "json").stdout
    h = json.loads(short)["variants"][0]["difference"]["house_edge"]
    assert h["cut_card_shift"] > shift + 0.0001
    # a variant changing a rule beside the decks is not sized (measured on the NZ rules)
    h17 = run("compare", "--vary", "decks=1,dealer_hits_soft_17=true", "-n", "20000", "-q",
              "-f", "json").stdout
    assert json.loads(h17)["variants"][0]["difference"]["house_edge"]["cut_card_shift"] is None


def test_a_variant_adding_super_sevens_shows_its_own_figure():
    # a rule-variant analyst's review: --no-super-sevens --vary super_sevens=true printed the
    # main table alone, the added bet's house edge nowhere in the table
    out = run("compare", *TINY, "--no-super-sevens", "--vary", "super_sevens=true").stdout
    assert "Super Sevens (rule 14) house edge, per unit staked" in out
    table = out.split("Super Sevens (rule 14) house edge, per unit staked")[1].split("\n\n")[1]
    (row,) = [ln for ln in table.splitlines() if ln.startswith("super_sevens=true")]
    assert row.split()[3] == "-"  # (no difference: the baseline bets none)
    assert "its own figure is in the Super Sevens table" in out
    plain = run("compare", *TINY, "--no-super-sevens", "--vary", "decks=8").stdout
    assert "Super Sevens (rule 14)" not in plain


def test_a_strategy_files_comparison_is_rebuilt_from_its_json_alone(tmp_path):
    """A reproducibility audit: compare's json named a user's strategy file by its SHA-256
    alone, which tells a chart apart but cannot rebuild it. Each game has its charts as played
    as strategy files (``strategy_charts``, as simulate's): the file written back from the json,
    the original gone, gives the same figures."""
    from simulator.strategy import charts_sha256, dumps_strategy, load_strategy

    chart = tmp_path / "mine.toml"
    chart.write_text(dumps_strategy(load_strategy("basic")).replace('name = "basic"',
                                                                    'name = "mine"')
                     .replace("12     H   H   S", "12     S   S   S", 1))
    args = ["compare", *TINY, "--no-exact", "--vary-strategy", str(chart), "-f", "json"]
    first = json.loads(run(*args).stdout)
    (sha,) = first["variants"][0]["strategy_sha256"]
    assert sha == charts_sha256(load_strategy(str(chart)))
    assert list(first["variants"][0]["strategy_charts"]) == [sha]
    base = first["baseline"]
    assert base["strategy_charts"][base["strategy_sha256"][0]].startswith('name = "basic"')
    chart.unlink()
    chart.write_text(first["variants"][0]["strategy_charts"][sha])
    again = json.loads(run(*args).stdout)
    assert again["variants"][0]["strategy_sha256"] == [sha]
    for key in ("baseline", "variants", "run"):
        assert again[key] == first[key]
