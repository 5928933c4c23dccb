"""bjsim report --count: the counting section is ``bjsim count``'s run and figures for the same
rules, strategy and seed, rendered in every format; end to end once the engine counts."""

from __future__ import annotations

import csv
import dataclasses
import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from simulator.assessment import figures, output, render, sections
from simulator.cli import cli
from simulator.plans import load_plan
from simulator.report import PER_UNIT_WAGERED
from simulator.rules import Rules
from tests.test_count_cli import BANKROLL_ALLOWED, install_fake_engine
from tests.test_hostile_input import is_one_line_error


@pytest.fixture
def fake_engine(monkeypatch):
    return install_fake_engine(monkeypatch)


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def _asked(p) -> tuple:
    """What a run was asked to play, as the fake engine recorded it."""
    rules, strategies, names = p.args
    return (rules, names, strategies[0].name, p.counting, p.rounds, p.seed, p.chunk_rounds,
            p.overrides, p.rules_file)


def test_the_section_plays_what_bjsim_count_plays(fake_engine):
    spec = figures.Spec(Rules(), seed=5, chunk_rounds=2000, count_plan="hi-lo-1-12",
                        count_rounds=8000, count_penetrations=(0.6, 0.9))
    said = []
    data = figures.counting_figures(spec, said.append, quiet=True)
    report_runs = [_asked(p) for p in fake_engine]
    fake_engine.clear()
    common = ["--plan", "hi-lo-1-12", "--seed", "5", "--chunk-rounds", "2000", "--rounds",
              "8000", "-q", "-f", "json"]
    single = json.loads(invoke("count", *common).stdout)
    sweep = json.loads(invoke("count", *common, "--penetrations", "0.6,0.9").stdout)
    assert [_asked(p) for p in fake_engine] == report_runs  # the same three runs
    assert data["figures"] == single["results"] and data["sweep"] == sweep["sweep"]
    assert any("card counting" in s for s in said)


def test_the_manifest_commands_are_those_runs():
    spec = figures.Spec(Rules(), seed=5, chunk_rounds=2000, count_plan="hi-lo-1-12",
                        count_rounds=8000, count_penetrations=(0.6, 0.9))
    c = figures._argv(spec, 10_000)
    words = shlex.split(c["count"])
    assert words[:4] == ["bjsim", "count", "--plan", "hi-lo-1-12"]
    for a, b in (("--seed", "5"), ("--chunk-rounds", "2000"), ("--rounds", "8000"),
                 ("--strategy", "basic")):
        assert words[words.index(a) + 1] == b
    assert shlex.split(c["count_sweep"])[-3:] == ["0.6,0.9", "-f", "json"]
    report = shlex.split(c["report"])
    assert report[report.index("--count") + 1] == "hi-lo-1-12"
    assert report[report.index("--count-penetrations") + 1] == "0.6,0.9"
    assert figures._argv(figures.Spec(Rules()), 10)["count"] is None


def test_the_section_renders_every_table(fake_engine):
    spec = figures.Spec(Rules(), count_plan="hi-lo-1-12", count_rounds=8000,
                        count_penetrations=(0.6, 0.9))
    data = {"strategy": "basic", "counting": figures.counting_figures(spec, print, True)}
    sec = sections.counting(data)
    names = [b.name for b in sec.blocks if isinstance(b, sections.Table)]
    assert names == ["counting_advantage", "counting_per_round", "counting_by_count",
                     "counting_super_sevens", "counting_super_sevens_counter",
                     "counting_penetration"]
    f = data["counting"]["figures"]
    md = render.to_markdown("t", [sec])
    assert "| per unit of initial main bet (main + insurance result) | +10.000% |" in md
    assert f"| {PER_UNIT_WAGERED} |" in md  # simulate's words: the same figure
    assert "total bet" not in md
    assert f"| round played | 4 | {f['per_round_played']['mean']:.4f} |" in md
    # the hand tally's counts 0 and +3, 6 rounds: one row (an end row holds 30 rounds)
    assert "| 0 to +3 | 6 | 100.000% |" in md
    assert "End rows with fewer than 30 rounds are merged into the next count inward" in md
    html = render.to_html("t", [sec])
    assert "Card counting" in html and "counting_penetration.csv" in html
    assert sections.counting({"counting": None}) is None


def test_score_n0_and_ruin_have_bjsim_counts_95_intervals(fake_engine, tmp_path):
    """SCORE, N0 and the risk of ruin with the 95% intervals ``bjsim count`` gives (an SE read
    as ± would leave their range), N0 rounded as count rounds it, the risk of ruin to three
    significant figures; in the penetration sweep too."""
    spec = figures.Spec(Rules(), count_plan="hi-lo-1-12", count_rounds=8000,
                        count_penetrations=(0.6, 0.9))
    data = {"strategy": "basic", "counting": figures.counting_figures(spec, print, True)}
    f = data["counting"]["figures"]
    for key in ("per_round_played", "per_round_watched"):  # bjsim report --seed 7's figures
        f[key] |= {"score": 17.04657424959525, "score_se": 15.08, "score_ci95_low": 0.30289,
                   "score_ci95_high": 59.39997, "n0": 58662.81314697256, "n0_se": 51881.6,
                   "n0_ci95_low": 16835.02, "n0_ci95_high": None,
                   "risk_of_ruin": 0.0660762200503793, "risk_of_ruin_se": 0.0794,
                   "risk_of_ruin_ci95_low": 0.006271596354547212,
                   "risk_of_ruin_ci95_high": 0.6961651562573122}
    sec = sections.counting(data)
    table = next(b for b in sec.blocks if getattr(b, "name", "") == "counting_per_round")
    keys = [k for k, _, _ in table.columns]
    assert "score_se" not in keys and "n0_se" not in keys and "risk_of_ruin_se" not in keys
    for k in ("score", "n0", "risk_of_ruin"):
        assert keys[keys.index(k) + 1: keys.index(k) + 3] == [k + "_ci95_low", k + "_ci95_high"]
    md = render.to_markdown("t", [sec])
    assert "| 17.0 | 0.3 | 59.4 | 58,663 | 16,835 | no bound | 6.61% | 0.627% | 69.6% |" in md
    # the CSV keeps numbers only: N0's missing high end is empty, as in bjsim count -f csv (it
    # held the words "no bound", so that pandas read the column as text: a pipeline's review)
    path = tmp_path / "per_round.csv"
    output._csv(table, path)
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["n0_ci95_high"] for r in rows] == ["", ""]
    assert float(rows[0]["n0_ci95_low"]) == 16835.02
    sweep = next(b for b in sec.blocks if getattr(b, "name", "") == "counting_penetration")
    assert "score_ci95_low" in [k for k, _, _ in sweep.columns]
    assert "n0_se" not in [k for k, _, _ in sweep.columns]
    # the advantage's own interval, as bjsim count --penetrations gives it (only the flat
    # advantage's and the one with Super Sevens were there: a regulator's review)
    keys = [k for k, _, _ in sweep.columns]
    assert keys[keys.index("advantage"):keys.index("advantage") + 4] == [
        "advantage", "se", "ci95_low", "ci95_high"]
    # the sweep says, as bjsim count --penetrations does, that each column plays one plan
    assert ("Every penetration plays the same plan unchanged: its thresholds, chosen at one "
            "penetration, are not re-tuned for the others. The Super Sevens bet's own exposure "
            "at each penetration is Super Sevens favourable") in " ".join(md.split()), md


@pytest.mark.parametrize("args, words", [
    (["--count", "nope"], "--count nope: unknown counting plan 'nope'"),  # (the option named)
    (["--count-rounds", "1000"], "only with --count PLAN"),
    (["--count-penetrations", "0.6"], "only with --count PLAN"),
    (["--bankroll", "500"], "only with --count PLAN"),
    (["--rounds-per-hour", "100"], "only with --count PLAN"),
    (["--count", "hi-lo-1-12", "--rounds-per-hour", "0"], "'--rounds-per-hour': 0 is not in"),
    (["--count", "hi-lo-1-12", "--bankroll", "0"], "--bankroll 0: " + BANKROLL_ALLOWED),
    (["--count", "hi-lo-1-12", "--bankroll", "1e-9"], "--bankroll 1e-9: " + BANKROLL_ALLOWED),
    (["--count", "hi-lo-1-12", "--bankroll", "nan"], "--bankroll nan: " + BANKROLL_ALLOWED),
    (["--count", "hi-lo-1-12", "--bankroll", "2e12"], "--bankroll 2e12: " + BANKROLL_ALLOWED),
    (["--count", "sevens-super-sevens", "--no-super-sevens"],
     "--count sevens-super-sevens: it bets Super Sevens"),
    (["--count", "hi-lo-1-12", "--count-penetrations", "0.6,2"], "--count-penetrations"),
    (["--count", "hi-lo-1-12", "--count-penetrations", "0.6", "--set", "shuffle=every-round"],
     "--count-penetrations: the rule set shuffles every round"),
])
def test_report_count_errors_are_one_line_before_any_run(args, words, tmp_path, fake_engine):
    line = is_one_line_error(invoke("report", *args, "-o", tmp_path / "r"))
    assert words in line and not fake_engine


def test_the_report_refuses_a_super_sevens_bet_its_counting_section_would_not_use(
        tmp_path, monkeypatch, fake_engine):
    """``--count`` with a rule file's ``super_sevens_bet = 2.0``, or ``--set
    super_sevens_bet``, played the counting section at the plan's [super_sevens] stake, and the
    manifest's ``bjsim count`` command with ``--set super_sevens_bet`` is refused by count: the
    report refuses them with --count, as count does, before any run."""
    from simulator import assessment

    def compute(spec, say, quiet=False):
        raise AssertionError("a run was started")

    monkeypatch.setattr(assessment, "compute", compute)
    rules = tmp_path / "ss2.toml"
    rules.write_text("super_sevens = true\nsuper_sevens_bet = 2.0\n")
    line = is_one_line_error(invoke("report", "--count", "hi-lo-flat", "--rules", rules, "-q",
                                    "-o", tmp_path / "r"))
    assert line == (f"Error: --rules {rules}: key 'super_sevens_bet' = 2.0: the counting "
                    "section (--count, bjsim count) does not use it: the plan's [super_sevens] "
                    "ramp sets the counter's Super Sevens stake by count (units): allowed a rule "
                    "file with super_sevens_bet = 1 (its default) or without it, or the side bet "
                    "off (super_sevens = false, --no-super-sevens), or the report "
                    "without --count (its other sections use it)"), line
    line = is_one_line_error(invoke("report", "--count", "hi-lo-flat", "--set",
                                    "super_sevens_bet=2", "-q", "-o", tmp_path / "r"))
    assert line.startswith("Error: --set super_sevens_bet: the counting section (--count, "
                           "bjsim count) does not use it: the plan's [super_sevens] ramp"), line
    assert not fake_engine and not (tmp_path / "r").exists()


def _spec_asked(monkeypatch, rounds, *args) -> figures.Spec:
    """The Spec `bjsim report --count hi-lo-flat ARGS` asks to compute (the fake engine's
    counting tallies of ``rounds``; stopped there, as Ctrl-C would)."""
    from simulator import assessment

    install_fake_engine(monkeypatch, rounds)
    asked = []

    def compute(spec, say, quiet=False):
        asked.append(spec)
        raise KeyboardInterrupt

    monkeypatch.setattr(assessment, "compute", compute)
    out = invoke("report", "--count", "hi-lo-flat", *args, "-q", "-o", "r")
    assert out.exit_code == 130, out.output
    return asked[0]


def _commands_give(spec, data: dict, option: str, value: str) -> None:
    """The manifest's commands of ``spec`` give ``option value`` (count's, and the one that
    rebuilds the report), and count's print the section's figures (``data``)."""
    commands = figures._argv(spec, 10_000)
    for key in ("count", "count_sweep", "report"):
        words = shlex.split(commands[key])
        assert words[words.index(option) + 1] == value, key
    single = json.loads(invoke(*shlex.split(commands["count"])[1:], "-q").stdout)
    sweep = json.loads(invoke(*shlex.split(commands["count_sweep"])[1:], "-q").stdout)
    assert single["results"] == data["figures"] and sweep["sweep"] == data["sweep"]


def test_the_report_takes_bjsim_counts_bankroll(monkeypatch, fake_engine):
    """--bankroll, as bjsim count's: without it a plan with no bankroll (hi-lo-flat) showed no
    risk of ruin in the report, whatever the user wanted. The section's figures are count's
    with the same --bankroll, for the single run and the sweep, and the manifest's commands
    give it (count's, and the one that rebuilds the report)."""
    from tests.test_counting_report import MAIN_ROUNDS

    # (no Super Sevens bets: a risk of ruin)
    assert _spec_asked(monkeypatch, MAIN_ROUNDS, "--bankroll", "250").count_bankroll == 250
    spec = figures.Spec(Rules(), seed=5, chunk_rounds=2000, count_plan="hi-lo-flat",
                        count_rounds=8000, count_penetrations=(0.6, 0.9), count_bankroll=250)
    data = figures.counting_figures(spec, print, True)
    f = data["figures"]
    assert f["bankroll"] == 250 and f["plan"]["bankroll"] is None
    assert f["per_round_played"]["risk_of_ruin"] is not None
    assert {r["bankroll"] for r in data["sweep"]} == {250}
    _commands_give(spec, data, "--bankroll", "250")
    assert "bankroll" not in figures._argv(figures.Spec(Rules(), count_plan="hi-lo-flat"),
                                           10)["count"]
    md = render.to_markdown("t", [sections.counting({"strategy": "basic", "counting": data})])
    assert "risk of ruin (250 units)" in md


def test_a_report_with_a_counting_section_has_bjsim_counts_figures(tmp_path):
    result = invoke("report", "--rounds", "20_000", "--chunk-rounds", "5000", "--sample-rounds",
                    "2000", "--choice", "basic", "--no-variants", "--seed", "3", "--count",
                    "hi-lo-1-12", "--count-rounds", "20_000", "--count-penetrations", "0.6,0.8",
                    "-q", "-o", tmp_path)
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "report.json").read_text())
    commands = data["manifest"]["commands"]

    def printed(line):
        out = invoke(*shlex.split(line)[1:], "-q")
        assert out.exit_code == 0, out.output
        return json.loads(out.stdout)

    assert data["counting"]["figures"] == printed(commands["count"])["results"]
    assert data["counting"]["sweep"] == printed(commands["count_sweep"])["sweep"]
    for name in ("counting_advantage", "counting_by_count", "counting_penetration"):
        assert (tmp_path / "csv" / f"{name}.csv").is_file()
        # each says what made it: the counting run's rounds (the table's own rounds at each
        # count beside them, as run_rounds), the seed, the code
        for row in csv.DictReader((tmp_path / "csv" / f"{name}.csv").open()):
            rounds = row["run_rounds"] if "run_rounds" in row else row["rounds"]
            assert (rounds, row["seed"], row["source_sha256"]) == (
                "20000", "3", data["manifest"]["source_sha256"]), name
    assert "Card counting" in (tmp_path / "report.md").read_text()


def test_the_super_sevens_paragraph_names_the_shuffle_not_a_penetration(fake_engine):
    # A shuffle every round has no penetration: the paragraph said "at penetration 0.75".
    texts = {}
    for shuffle in ("cut-card", "every-round"):
        spec = figures.Spec(Rules(shuffle=shuffle), count_plan="hi-lo-1-12", count_rounds=8000)
        data = {"strategy": "basic", "counting": figures.counting_figures(spec, print, True)}
        texts[shuffle] = render.to_markdown("t", [sections.counting(data)])
    assert "of rounds at penetration 0.75" in texts["cut-card"]
    assert "of rounds with a shuffle every round" in texts["every-round"]
    assert "at penetration" not in texts["every-round"]
    assert "derived for the NZ rules" not in texts["cut-card"]
    spec = figures.Spec(Rules(dealer_hits_soft_17=True), count_plan="hi-lo-1-12",
                        count_rounds=8000)  # (shipped index plays, another chart)
    data = {"strategy": "basic", "counting": figures.counting_figures(spec, print, True)}
    assert "Note: the index plays hi-lo-nz were derived for the NZ rules" in \
        render.to_markdown("t", [sections.counting(data)])


def test_the_section_withholds_the_super_sevens_intervals_bjsim_count_withholds():
    """Too few of the counter's Super Sevens bets to expect 30 wins of line (e): the section's
    advantages with Super Sevens and its SCORE, N0 and risk of ruin have no interval, and say
    why, as ``bjsim count``."""
    from simulator import counting_report as CR
    from simulator.plans import load_plan
    from tests.test_counting_report import FLAT_ROUNDS, tally_of

    f = CR.figures(tally_of(FLAT_ROUNDS) * 1000, load_plan("sevens-super-sevens"), Rules(),
                   bankroll=1000)
    note = f["per_round_played"]["interval_note"]
    assert "would hold 30: too few for a normal interval" in note
    data = {"strategy": "basic-super-sevens",
            "counting": {"plan": "sevens-super-sevens", "figures": f,
                         "sweep": CR.sweep_rows([(0.75, f)])}}
    sec = sections.counting(data)
    md = render.to_markdown("t", [sec])
    assert f"With Super Sevens the advantages have no SE or interval: {note}." in md
    # (the risk of ruin is not given here, a tally without the nets: no word of its interval)
    assert ("The net per round has no SE, and the win per 100 rounds, SCORE and N0 no "
            f"interval: {note}.") in md
    assert "SCORE and N0 would have 95% intervals" in md
    assert ("At penetration 0.75 the advantage with Super Sevens has no SE or interval, and the "
            f"win per 100 rounds, SCORE and N0 no interval: {note}.") in md
    table = next(b for b in sec.blocks if getattr(b, "name", "") == "counting_per_round")
    keys = [k for k, _, _ in table.columns]
    for row in table.rows:
        assert all(row[keys.index(k)] is None for k in keys if k.endswith(("_se", "_ci95_low",
                                                                           "_ci95_high")))
        assert row[keys.index("score")] is not None
    adv = next(b for b in sec.blocks if getattr(b, "name", "") == "counting_advantage")
    for row in adv.rows[1::2][:2]:  # the two rows with Super Sevens
        assert "Super Sevens" in row[0] and row[2:] == [None, None, None]


def test_the_section_says_score_n0_and_ruin_intervals_are_conservative_with_super_sevens():
    from simulator import counting_report as CR
    from simulator.plans import load_plan
    from tests.test_counting_report import FLAT_ROUNDS, in_chunks, tally_of

    total, moments = in_chunks(tally_of(FLAT_ROUNDS), 1_000_000)
    f = CR.figures(total, load_plan("sevens-super-sevens"), Rules(), bankroll=1000,
                   moments=moments)
    assert f["per_round_played"]["score_ci95_low"] is not None
    data = {"strategy": "basic-super-sevens",
            "counting": {"plan": "sevens-super-sevens", "figures": f,
                         "sweep": CR.sweep_rows([(0.75, f)])}}
    md = render.to_markdown("t", [sections.counting(data)])
    assert ("The intervals of SCORE and N0 are conservative (the Super Sevens pays move the mean "
            "and SD together).") in md
    assert f"The risk of ruin is {CR.RUIN_WITHHELD}." in md
    assert "SCORE and N0 intervals are conservative (the Super Sevens pays move the mean and SD " \
        "together) where given." in md


def test_count_and_the_report_give_the_super_sevens_z_of_the_house_edge_with_one_sign():
    """bjsim count printed z -0.61 (of the return, unlabelled) where the report gave the same
    run's z = +0.61 (of the house edge): both give the z of the house edge, (exact return -
    simulated return) / SE, labelled, in every format."""
    import csv
    import io
    import math
    import re

    from simulator import counting_report as CR
    from simulator.plans import load_plan
    from simulator.strategy import load_strategy
    from tests.test_counting_report import ss_tally

    bets = 2_000_000  # losing 12% a bet against an exact -11%: the house edge simulated higher
    f = CR.figures(ss_tally(bets, -bets * 12 // 100, 500 * bets, -0.11, exact_sq=525.0),
                   load_plan("hi-lo-flat"), Rules(), strategy=load_strategy("basic-super-sevens"))
    ss, (row,) = f["super_sevens"], f["super_sevens_by_count"]
    z = -(ss["flat"]["mean"] - ss["exact"]) / ss["exact_se"]
    assert z == pytest.approx(0.01 / math.sqrt((525 - 0.11**2) / bets)) and z > 0
    assert ss["z_house_edge"] == pytest.approx(z) and row["z_house_edge"] == pytest.approx(z)
    table = CR.render(f, "table", {})
    assert f"z (of the house edge) {z:+.2f};" in table
    by_count = table.splitlines()[table.splitlines().index(
        next(ln for ln in table.splitlines() if "z (of the house edge)" in ln
             and "favourable" in ln)) + 1]
    assert f"{z:+.2f}" in by_count.split()
    assert json.loads(CR.render(f, "json", {}))["results"]["super_sevens"]["z_house_edge"] == \
        pytest.approx(z)
    rows = {r["item"]: r for r in csv.DictReader(io.StringIO(CR.render(f, "csv", {})))
            if r["section"] == "super_sevens"}
    assert "z" not in rows and float(rows["z_house_edge"]["value"]) == pytest.approx(z)
    data = {"strategy": "basic-super-sevens",
            "counting": {"plan": "hi-lo-flat", "figures": f, "sweep": None}}
    md = render.to_markdown("t", [sections.counting(data)])
    said = re.search(r"z = ([+-]\d+\.\d\d) \(of the house edge", md).group(1)
    assert said == f"{z:+.2f}"
    assert f"| {z:+.2f} |" in md.replace("  ", " ")


def test_the_reports_super_sevens_return_has_counts_interval_and_se():
    """The report gave "overall simulated -12.326%, exact -11.338%, z = +0.61" with no SE or
    interval where count gives "± 3.160% (95%: ...; exact SE 1.612%)": the same words now."""
    from simulator import counting_report as CR
    from simulator.plans import load_plan
    from simulator.strategy import load_strategy
    from tests.test_counting_report import ss_tally

    bets = 2_000_000
    for bet_net in (-bets * 12 // 100, -bets // 4):
        f = CR.figures(ss_tally(bets, bet_net, 500 * bets, -0.11, exact_sq=525.0),
                       load_plan("hi-lo-flat"), Rules(),
                       strategy=load_strategy("basic-super-sevens"))
        spread = f" ± {100 * 1.959963984540054 * f['super_sevens']['exact_se']:.3f}% (95%: "
        assert spread in CR.render(f, "table")
        data = {"strategy": "basic-super-sevens",
                "counting": {"plan": "hi-lo-flat", "figures": f, "sweep": None}}
        md = render.to_markdown("t", [sections.counting(data)])
        assert f"simulated {100 * f['super_sevens']['flat']['mean']:+.3f}%{spread}" in md
        assert f"exact SE {100 * f['super_sevens']['exact_se']:.3f}%)" in md
    few = CR.figures(ss_tally(1000, -100, 500 * 1000, -0.11), load_plan("hi-lo-flat"), Rules())
    data = {"strategy": "basic", "counting": {"plan": "hi-lo-flat", "figures": few,
                                              "sweep": None}}
    md = render.to_markdown("t", [sections.counting(data)])
    assert "-10.000% (no interval: fewer than 30 wins of line (e)" in md
    text = CR.render(few, "table")  # no z: said so, not "z (of the house edge) -"
    assert "(published convention) -11.000%, no z; " in text and "house edge) -;" not in text


def test_sentences_begin_with_a_capital_and_keep_acronyms_and_names():
    """The counting section read "No se from fewer than 30 rounds" (str.capitalize lowers the
    rest), and the dealer note began "Dealer_*:" where the rows are named dealer_*."""
    from simulator import counting_report as CR
    from simulator.plans import load_plan
    from simulator.tally import dealer_note
    from tests.test_counting_report import FLAT_ROUNDS, tally_of

    assert sections.sentence(CR.NO_SE).startswith("No SE from fewer than 30 rounds")
    assert sections.sentence("SE: the sample's") == "SE: the sample's"
    note = dealer_note(Rules(), 5, 100)
    assert sections.sentence(note) == note and note.startswith("dealer_*:")
    f = CR.figures(tally_of(FLAT_ROUNDS), load_plan("hi-lo-1-12"), Rules())
    md = render.to_markdown("t", [sections.counting({"strategy": "basic", "counting": {
        "plan": "hi-lo-1-12", "figures": f, "sweep": None}})])
    assert "No SE from fewer than 30 rounds at a count" in md and "No se " not in md


def test_the_counting_tables_name_every_se_and_interval_column():
    """The per-round table read "SCORE | 95% CI low | 95% CI high | N0 | 95% CI low | ..." and
    a bare "SE" after "win per 100 rounds": each column names its figure, in every table of
    the section."""
    from simulator import counting_report as CR
    from simulator.plans import load_plan
    from tests.test_counting_report import FLAT_ROUNDS, tally_of

    f = CR.figures(tally_of(FLAT_ROUNDS) * 1000, load_plan("hi-lo-1-12"), Rules(), bankroll=100)
    sec = sections.counting({"strategy": "basic", "counting": {
        "plan": "hi-lo-1-12", "figures": f, "sweep": CR.sweep_rows([(0.75, f)])}})
    tables = {b.name: b for b in sec.blocks if isinstance(b, sections.Table)}
    per_round = [label for _, label, _ in tables["counting_per_round"].columns]
    for name in ("SCORE", "N0", "risk of ruin"):
        assert f"{name} 95% low" in per_round and f"{name} 95% high" in per_round
    assert "win per 100 rounds SE" in per_round
    for t in ("counting_per_round", "counting_by_count", "counting_penetration"):
        labels = [label for _, label, _ in tables[t].columns]
        assert len(set(labels)) == len(labels), t
        assert not any(label == "SE" or label.startswith("95%") for label in labels), t
    md = render.to_markdown("t", [sec])
    assert "| SCORE | SCORE 95% low | SCORE 95% high | N0 | N0 95% low |" in md


def test_the_advantage_table_gives_the_insurance_result_with_its_interval_as_bjsim_count():
    """The section left the counter's insurance result out; it is a row of the advantage table
    with the SE and 95% interval `bjsim count` gives, where the counter can insure, and no row
    where it cannot."""
    from simulator import counting_report as CR
    from simulator.plans import load_plan
    from simulator.strategy import load_strategy
    from tests.test_counting_report import tally_of

    rounds = [{"count": 0, "bet": 1, "net": 0, "ins": 10, "flat": [0]},
              {"count": 3, "bet": 4, "net": -60, "ins": -20, "flat": [-15]},
              {"count": -1, "bet": 1, "net": 10, "flat": [10]}] * 30  # 30 bets won, 30 lost
    label = "insurance result per unit of initial main bet (in the first row)"
    for plan, insures in (("hi-lo-1-12", True), ("hi-lo-flat", False)):
        f = CR.figures(tally_of(rounds), load_plan(plan), Rules(),
                       strategy=load_strategy("basic"))
        assert f["insures"] is insures
        data = {"strategy": "basic", "counting": {"plan": plan, "figures": f,
                                                  "sweep": CR.sweep_rows([(0.75, f)])}}
        sec = sections.counting(data)
        adv = next(b for b in sec.blocks if getattr(b, "name", "") == "counting_advantage")
        rows = [r for r in adv.rows if r[0] == label]
        if not insures:
            assert rows == []
            continue
        ins = "insurance_per_initial_bet"
        assert rows == [[label, f[ins], f[ins + "_se"], f[ins + "_ci95_low"],
                         f[ins + "_ci95_high"]]]
        assert f[ins + "_se"] is not None and f[ins + "_ci95_low"] < f[ins] < f[ins + "_ci95_high"]
        md = render.to_markdown("t", [sec])
        assert f"| {label} | {100 * f[ins]:+.3f}% | {100 * f[ins + '_se']:.3f}% |" in md
        assert "The insurance result has no SE or interval" not in md


def test_the_insurance_results_interval_is_withheld_in_the_report_as_bjsim_count_withholds_it():
    """From fewer than 30 insurance bets won or lost `bjsim count` gives the insurance result no
    SE or interval (simulate's rule); the section's row has none either, and its text says why
    in count's words."""
    from simulator import counting_report as CR
    from simulator.plans import load_plan
    from simulator.strategy import load_strategy
    from tests.test_counting_report import tally_of

    rounds = [{"count": 0, "bet": 1, "net": 0, "ins": 10, "flat": [0]},
              {"count": 3, "bet": 4, "net": -60, "ins": -20, "flat": [-15]},
              {"count": -1, "bet": 1, "net": 10, "flat": [10]}] * 10  # (30 rounds: the
    # other figures' SEs and intervals)
    f = CR.figures(tally_of(rounds), load_plan("hi-lo-1-12"), Rules(),
                   strategy=load_strategy("basic"))
    ins = "insurance_per_initial_bet"
    note = f[ins + "_interval_note"]
    assert note == ("too few rounds for a meaningful interval: 10 winning insurance bet(s), fewer "
                    "than 30") and f[ins + "_se"] is None
    sec = sections.counting({"strategy": "basic", "counting": {
        "plan": "hi-lo-1-12", "figures": f, "sweep": CR.sweep_rows([(0.75, f)])}})
    adv = next(b for b in sec.blocks if getattr(b, "name", "") == "counting_advantage")
    label = "insurance result per unit of initial main bet (in the first row)"
    assert [r for r in adv.rows if r[0] == label] == [[label, f[ins], None, None, None]]
    md = render.to_markdown("t", [sec])
    assert f"| {label} | {100 * f[ins]:+.3f}% | - |" in md
    assert f"The insurance result has no SE or interval: {note}." in md


def _ss_table(data: dict) -> tuple[str, sections.Table, list[str]]:
    """The counting section's Super Sevens-by-count paragraph, its table and the headers shown
    in Markdown, in the HTML and in the HTML report.pdf is printed from (each the same)."""
    sec = sections.counting(data)
    i, table = next((i, b) for i, b in enumerate(sec.blocks)
                    if getattr(b, "name", "") == "counting_super_sevens")
    md = render.to_markdown("t", [sec])
    heads = [md[md.index("**Super Sevens return to the player by"):].splitlines()[2]]
    for printed in (None, "2026-01-01"):
        page = render.to_html("t", [sec], printed)
        page = page[page.index('id="t-counting_super_sevens"'):]
        heads.append(page[page.index("<thead>"):page.index("</thead>")])
    return sec.blocks[i - 1], table, heads


def test_the_super_sevens_table_leaves_out_the_columns_that_cannot_hold_a_value(fake_engine):
    """hi-lo-1-12 places no Super Sevens bet: no column of the counter's stakes (it had one of
    zeros); 8,000 rounds are too few for a sample SE or z at any count, and basic's 7-7 play
    has an exact return overall but not at each Hi-Lo count, which tells of the up cards that
    decide it (they had columns of '-', or of the convention's return, another play's). Left
    out of the HTML, the PDF and the Markdown alike, with a sentence saying why; the CSV keeps
    every column."""
    spec = figures.Spec(Rules(), count_plan="hi-lo-1-12", count_rounds=8000)
    data = {"strategy": "basic", "counting": figures.counting_figures(spec, print, True)}
    text, table, heads = _ss_table(data)
    for head in heads:
        assert "simulated" in head
        # (said in the column too: a count's return from a few dozen bets had been quoted as a
        # finding, the caveat in the text above alone, a regulator's review)
        assert "(no SE at any count: too few bets, see above)" in head
        for gone in ("counter", "SE (sample)", "z (of the house edge)", "exact", "favourable"):
            assert gone not in head, (gone, head)
    assert ("Left out of the table, holding no value at any count: the counter's units staked "
            "(the plan places no Super Sevens bet); the sample SE (too few bets at any count: "
            "fewer than 30 wins of line (e) paying 5000 to 1 expected in all 2 together); z and "
            "the exact return "
            "and its SE and the rounds favourable (exact overall only, as said above). The CSV "
            "keeps every column.") in text
    assert "(simulator.exact.sevens)" not in text
    assert "the exact return of the strategy's 7-7 play (split v 2-7, hit v 8-A)" in text
    assert {"counter_bets", "se", "z_house_edge", "exact_return"} <= set(table.csv_header())


def test_the_super_sevens_table_keeps_every_column_that_can_hold_a_value():
    """A plan betting Super Sevens, a strategy hitting every 7-7 and bets enough for 30 wins of
    line (e): every column shown, and no sentence of columns left out."""
    from simulator import counting_report as CR
    from simulator.plans import load_plan
    from simulator.strategy import load_strategy
    from tests.test_counting_report import ROUNDS, tally_of

    f = CR.figures(tally_of(ROUNDS) * 2_000_000, load_plan("sevens-super-sevens"), Rules(),
                   strategy=load_strategy("basic-super-sevens"))
    data = {"strategy": "basic-super-sevens",
            "counting": {"plan": "sevens-super-sevens", "figures": f, "sweep": None}}
    text, table, heads = _ss_table(data)
    for head in heads:
        for label in ("SE (sample)", "z (of the house edge)", "units staked"):
            assert label in head, (label, head)
        assert "no SE at any count" not in head
    assert "Left out of the table, holding no value" not in text
    # (the hand-made tally keeps no exact second moments: that SE column has no value)
    assert "Left out of the table: SE (exact SD) (no value at any count)" in text
    assert [k for k, _, kind in table.columns if kind == sections.CSV_ONLY] == ["exact_se"]


def test_the_report_shows_score_and_n0_as_not_applicable_without_an_edge(tmp_path):
    """SCORE read 0.0 in the report for a losing counter: n/a now, N0 too, empty in the CSV,
    with a sentence saying why; in the penetration table too."""
    from simulator import counting_report as CR
    from simulator.assessment.output import _csv
    from simulator.plans import load_plan
    from tests.test_counting_report import MAIN_ROUNDS, tally_of

    losing = [r | {"net": -abs(r["net"])} if "net" in r else r for r in MAIN_ROUNDS]
    f = CR.figures(tally_of(losing * 20), load_plan("hi-lo-1-12"), Rules())
    data = {"strategy": "basic", "counting": {"plan": "hi-lo-1-12", "figures": f,
                                              "sweep": CR.sweep_rows([(0.75, f)])}}
    sec = sections.counting(data)
    md = render.to_markdown("t", [sec])
    assert md.count("SCORE and N0: n/a") == 2 and CR.NO_EDGE in md
    for name in ("counting_per_round", "counting_penetration"):
        table = next(b for b in sec.blocks if getattr(b, "name", "") == name)
        columns, rows = table.shown()
        keys = [k for k, _, _ in columns]
        shown = [sections.fmt(v, kind) for v, (_, _, kind) in zip(rows[0], columns, strict=True)]
        if "score" not in keys:  # (n/a in every row: left out, the CSV keeps it)
            assert "SCORE, SCORE 95% low, SCORE 95% high, N0, N0 95% low and N0 95% high" in md
            keys = [k for k, _, _ in table.columns]
            shown = [sections.fmt(v, "text" if kind == sections.CSV_ONLY else kind) for v, (
                _, _, kind) in zip(table.rows[0], table.columns, strict=True)]
        assert shown[keys.index("score")] == "n/a" and shown[keys.index("n0")] == "n/a", name
        _csv(table, tmp_path / f"{name}.csv")
        (row, *_) = csv.DictReader((tmp_path / f"{name}.csv").read_text().splitlines())
        assert row["score"] == "" and row["n0"] == "", name


def test_the_penetration_table_gives_the_risk_of_ruin_where_a_bankroll_is_given():
    """The report's penetration table had no risk of ruin (bjsim count's sweep has one): now
    its column with the 95% interval where a bankroll is given, a sentence where none is, and
    where it is withheld (Super Sevens in the nets) the sentence saying why."""
    from simulator import counting_report as CR
    from simulator.plans import load_plan
    from simulator.strategy import load_strategy
    from tests.test_counting_report import MAIN_ROUNDS, ROUNDS, tally_of

    def sweep_table(rounds, plan, bankroll, strategy=None):
        f = CR.figures(tally_of(rounds), load_plan(plan), Rules(), bankroll,
                       strategy and load_strategy(strategy))
        data = {"strategy": "basic", "counting": {"plan": plan, "figures": f, "sweep":
                                                  CR.sweep_rows([(0.6, f), (0.9, f)])}}
        sec = sections.counting(data)
        i, table = next((i, b) for i, b in enumerate(sec.blocks)
                        if getattr(b, "name", "") == "counting_penetration")
        return f, sec.blocks[i - 1], table, render.to_markdown("t", [sec])

    f, text, table, md = sweep_table(MAIN_ROUNDS, "hi-lo-1-12", 500)
    keys = [k for k, _, _ in table.columns]
    for k in ("risk_of_ruin", "risk_of_ruin_ci95_low", "risk_of_ruin_ci95_high"):
        assert table.rows[0][keys.index(k)] == f["per_round_played"][k], k
    assert "risk of ruin (500 units)" in md and "risk of ruin 95% low" in md
    assert "No risk of ruin" not in text
    assert md.count(f"The risk of ruin is {CR.RUIN_DIFFUSION}.") == 2  # (the run's, the sweep's)
    _, text, table, md = sweep_table(MAIN_ROUNDS, "hi-lo-flat", None)  # (no bankroll)
    assert CR.RUIN_DIFFUSION not in md
    assert "risk_of_ruin" not in [k for k, _, _ in table.columns]
    assert "No risk of ruin: no bankroll given (--bankroll, or the plan's bankroll)." in text
    f, text, _, _ = sweep_table(ROUNDS * 100_000, "sevens-super-sevens", 500,
                                "basic-super-sevens")
    assert f["per_round_played"]["risk_of_ruin_note"] == CR.RUIN_WITHHELD
    assert f"The risk of ruin is {CR.RUIN_WITHHELD}." in text


def sweep_section(plan="hi-lo-1-12", bankroll=500, strategy=None):
    """The counting section of a report with a penetration sweep (0.60 and 0.90, each the
    hand-made tally of tests/test_counting_report.py), and its penetration table."""
    from simulator import counting_report as CR
    from simulator.plans import load_plan
    from simulator.strategy import load_strategy
    from tests.test_counting_report import MAIN_ROUNDS, ROUNDS, tally_of

    rounds = MAIN_ROUNDS if strategy is None else ROUNDS * 100_000
    f = CR.figures(tally_of(rounds), load_plan(plan), Rules(), bankroll,
                   strategy and load_strategy(strategy))
    sec = sections.counting({"strategy": "basic", "counting": {
        "plan": plan, "figures": f, "sweep": CR.sweep_rows([(0.6, f), (0.9, f)])}})
    return sec, next(b for b in sec.blocks if getattr(b, "name", "") == "counting_penetration")


def test_the_penetration_table_is_shown_in_parts_each_narrow_enough_to_print():
    """The penetration table, 25 columns with a bankroll, was one HTML table wider than an A4
    page: Chromium printed every page of report.pdf at about 76% (its body type 7.0 pt, not
    9.2). The HTML shows it in parts of at most 12 columns, each led by the penetration, every
    column once, in order; the CSV and Markdown keep the one table."""
    sec, table = sweep_section("sevens-super-sevens", 500, "basic-super-sevens")
    columns, rows = table.shown()
    assert len(columns) > 16  # (the case: too wide for one printed table)
    parts = table.parts()
    assert len(parts) > 1 and all(len(c) <= 12 for c, _ in parts), [len(c) for c, _ in parts]
    assert all(c[0] == columns[0] and [r[0] for r in p] == [r[0] for r in rows]
               for c, p in parts)
    assert [c for cols, _ in parts for c in cols[1:]] == columns[1:]
    assert [v for _, p in parts for v in p[0][1:]] == rows[0][1:]
    page = render.to_html("t", [sec], printed="2026-12-07")
    ids = re.findall(r'<table id="t-(counting_penetration[-\d]*)"[^>]*><caption>([^<]*)',
                     page.replace("&#x27;", "'"))
    # (each part says which it is and where it starts: a reviewer read "(continued)" on paper
    # as more rows; and a part joined to the next where the columns left out made it small)
    assert ids == [(f"counting_penetration{f'-{n}' if n > 1 else ''}",
                    f"The counter's advantage by penetration (part {n} of {len(parts)}: from "
                    f"{parts[n - 1][0][1][1]}) ") for n in range(1, len(parts) + 1)]
    assert all(len(c) + len(d) - 1 > 12 for (c, _), (d, _) in zip(parts, parts[1:], strict=False))
    screen = render.to_html("t", [sec])  # (a screen scrolls a wide table: one)
    assert re.findall(r'<table id="t-(counting_penetration[-\d]*)"', screen) == [
        "counting_penetration"]
    md = render.to_markdown("t", [sec])
    head = next(ln for ln in md.splitlines() if ln.startswith("| penetration |"))
    assert head.count("|") == len(columns) + 1  # (one table)


def test_the_reports_super_sevens_table_merges_the_counts_of_few_bets_into_the_tails():
    """As bjsim count's: a count at either end with fewer than 30 bets merged into the next one
    inward, in the table and its CSV, the paragraph saying so."""
    from simulator import counting_report as CR
    from simulator.plans import load_plan
    from tests.test_counting_report import tally_of

    def bets(count, n):
        return [{"count": count, "bet": 1, "net": 0, "flat": [0], "ss_flat": [-1],
                 "ss_exact": [-0.1]} for _ in range(n)]

    f = CR.figures(tally_of(bets(-13, 1) + bets(-11, 30) + bets(0, 40) + bets(12, 2)
                            + bets(4, 30)), load_plan("hi-lo-1-12"), Rules())
    data = {"strategy": "basic", "counting": {"plan": "hi-lo-1-12", "figures": f,
                                              "sweep": None}}
    text, table, _ = _ss_table(data)
    assert [r[0] for r in table.rows] == ["<=-11", "0", ">=+4"]
    assert [r[1] for r in table.rows] == [31, 40, 32]
    assert f"{sections.sentence(CR.MERGED_TAILS)}." in text


def test_the_reports_counting_tables_leave_out_what_says_nothing_and_the_csv_keeps_it(
        tmp_path):
    """As bjsim count's tables: the columns of one value at every count, repeated columns and
    rows, and those of no value are left out of the HTML, PDF and Markdown, a sentence saying
    which; the CSV keeps them."""
    from simulator import counting_report as CR
    from simulator.assessment.output import _csv
    from simulator.plans import load_plan
    from tests.test_counting_report import _flat_rounds, tally_of

    f = CR.figures(tally_of(_flat_rounds()), load_plan("hi-lo-flat"), Rules())
    data = {"strategy": "basic", "counting": {"plan": "hi-lo-flat", "figures": f,
                                              "sweep": CR.sweep_rows([(0.6, f), (0.9, f)])}}
    sec = sections.counting(data)
    md = render.to_markdown("t", [sec])
    tables = {b.name: b for b in sec.blocks if isinstance(b, sections.Table)}
    by_count = tables["counting_by_count"]
    shown = [k for k, _, _ in by_count.shown()[0]]
    assert shown == ["label", "rounds", "frequency", "flat_advantage", "flat_se"]
    assert ("Left out of the table: played (100.0% at every count); counter's average bet "
            "(1.00 at every count); counter's advantage (the same as player's flat advantage at "
            "every count); counter's advantage SE (the same as flat advantage SE at every count); "
            "the CSV keeps them.") in md
    assert ("Left out of the table: round watched (the same as round played); risk of ruin (no "
            "bankroll given); risk of ruin 95% low") in md  # (its reason once)
    per_round = tables["counting_per_round"]
    assert [r[0] for r in per_round.shown()[1]] == ["round played"]
    assert "round watched (the same as round played)" in md
    advantage = tables["counting_advantage"]
    assert not any(r[0].startswith("flat 1 unit") for r in advantage.shown()[1])
    assert "| round watched |" not in md and "| played |" not in md
    ss = tables["counting_super_sevens"]
    assert "counter_bets" not in [k for k, _, _ in ss.shown()[0]]
    for name, table in tables.items():  # the CSV keeps every row and column
        _csv(table, tmp_path / f"{name}.csv")
        rows = list(csv.reader((tmp_path / f"{name}.csv").read_text().splitlines()))
        assert len(rows) == len(table.rows) + 1 and rows[0] == table.csv_header(), name
    assert "counter_advantage" in (tmp_path / "counting_by_count.csv").read_text()
    assert "round watched" in (tmp_path / "counting_per_round.csv").read_text()


def test_the_manifest_pins_the_counting_plan_and_the_files_it_names(tmp_path):
    # The manifest gave only "counting plan | hi-lo-1-12": the plan, count and index files
    # were not pinned as the rule, strategy and variant files are.
    import hashlib

    from simulator.assessment.sections import manifest

    got = figures._count_files(load_plan("hi-lo-1-12"))
    assert [(x["what"], x["file"]) for x in got] == [
        ("plan", "strategies/plans/hi-lo-1-12.toml"),
        ("count system", "strategies/counts/hi-lo.toml"),
        ("index plays", "strategies/indices/hi-lo-nz.toml")]
    root = Path(figures.DEFAULT_RULES_PATH).resolve().parent.parent
    for x in got:
        assert x["sha256"] == hashlib.sha256((root / x["file"]).read_bytes()).hexdigest()
    count = tmp_path / "my-count.toml"
    count.write_text((root / "strategies/counts/hi-lo.toml").read_text().replace(
        'name = "hi-lo"', 'name = "my-count"'))
    plan = tmp_path / "p.toml"
    plan.write_text(f'count = "{count}"\n[bet]\nbase = 1\n')
    got_own = figures._count_files(load_plan(str(plan)))
    assert [x["what"] for x in got_own] == ["plan", "count system"]
    assert figures._count_files(None) is None
    m = {"bjsim": "0", "rules_file": "r", "rules_sha256": "x", "overrides": [],
         "rules_name": "NZ", "strategies": [],
         "precision": None, "seed": 1, "rounds": 1, "rounds_played": 1, "chunk_rounds": 1,
         "sample_rounds": 1, "sample_rounds_asked": 1, "variant_files": [],
         "variant_rounds": None, "count_plan": "hi-lo-1-12", "count_rounds": 1,
         "count_penetrations": None, "platform": "p", "machine": "m", "python": "3",
         "numpy": "1", "numba": "1", "commands": {"report": "r", "simulate": "s", "exact": "e"},
         "count_files": got}
    rows = manifest({"manifest": m, "rules_label": "NZ"}).blocks[-1].rows
    assert ["counting index plays (strategies/indices/hi-lo-nz.toml) SHA-256",
            got[2]["sha256"]] in rows


def test_the_manifest_hashes_the_files_the_plan_was_read_from(tmp_path, monkeypatch):
    """From a working directory other than the plan's, the manifest names and hashes the count
    and index files the run read (a relative path read from the working directory, of any
    name), as the plan is loaded; with a folder, those of a run started there."""
    import hashlib

    from simulator.plans import files_named, load_plan, plan_files

    root = Path(figures.DEFAULT_RULES_PATH).resolve().parent.parent
    run, elsewhere = tmp_path / "run", tmp_path / "plans"
    (run / "sub").mkdir(parents=True), elsewhere.mkdir()
    (run / "hl.txt").write_text((root / "strategies/counts/hi-lo.toml").read_text())
    (run / "sub" / "i.toml").write_text((root / "strategies/indices/hi-lo-nz.toml").read_text())
    (elsewhere / "p.toml").write_text('count = "hl.txt"\nindices = "sub/i.toml"\n'
                                      '[bet]\nbase = 1\n')
    monkeypatch.chdir(run)
    plan = "../plans/p.toml"
    got = figures._count_files(load_plan(plan))
    assert [(x["what"], x["file"]) for x in got] == [
        ("plan", plan), ("count system", "hl.txt"), ("index plays", "sub/i.toml")]
    for x in got:
        assert x["sha256"] == hashlib.sha256(Path(x["file"]).read_bytes()).hexdigest()
    assert [p for _, p in load_plan(plan).files] == [Path(x["file"]) for x in got]
    monkeypatch.chdir(elsewhere)  # (a resume from another folder: read where the run began)
    assert plan_files("p.toml", str(run)) == [
        ("plan", Path("p.toml")), ("count system", run / "hl.txt"),
        ("index plays", run / "sub" / "i.toml")]
    assert files_named("p.toml", str(run)) == [run / "hl.txt", run / "sub" / "i.toml"]


WONG_BOXES = ('count = "hi-lo"\ndeck_estimation = "whole"\ntable_max = 4\n[bet]\nbase = 1\n'
              'steps = [[2, 4]]\n[wong]\nenter = 0\nleave = -1\n[boxes]\nbase = 1\n'
              'steps = [[2, 2]]\n')


def test_the_section_gives_the_boxes_played_share_and_average_bet_bjsim_count_gives(tmp_path):
    """bjsim count's table by count gives the boxes per round played beside the average bet
    for a plan with a [boxes] ramp, and its sweep the share played (a wonging plan) and the
    average bet (a bet or boxes ramp); the report's counting section had none of them. Its
    tables now show each where count's does, with count's figures (the CSV keeps them all)."""
    from simulator.assessment.output import _csv

    plan = tmp_path / "wong.toml"
    plan.write_text(WONG_BOXES)
    spec = figures.Spec(Rules(boxes=2), seed=7, chunk_rounds=5000, count_plan=str(plan),
                        count_rounds=20_000, count_penetrations=(0.6, 0.9))
    data = {"strategy": "basic", "counting": figures.counting_figures(spec, print, True)}
    sec = sections.counting(data)
    md = render.to_markdown("t", [sec])
    common = ["--plan", plan, "--boxes", "2", "--seed", "7", "--chunk-rounds", "5000",
              "--rounds", "20000", "-q"]
    text = invoke("count", *common).stdout
    sweep = invoke("count", *common, "--penetrations", "0.6,0.9").stdout
    tables = {b.name: b for b in sec.blocks if isinstance(b, sections.Table)}
    by_count, pen = tables["counting_by_count"], tables["counting_penetration"]
    head, rows = by_count.shown()
    keys = [k for k, _, _ in head]
    assert keys[keys.index("average_bet") + 1] == "boxes_per_round_played"
    f = data["counting"]["figures"]
    assert [r[keys.index("boxes_per_round_played")] for r in rows] == [
        b["boxes_per_round_played"] for b in f["by_count"]]
    for b in f["by_count"]:  # the same figures as count's table, row by row
        if b["played"]:
            cells = rf"\b{b['average_bet']:.2f} +{b['boxes_per_round_played']:.2f}\b"
            assert any(ln.startswith(b["label"] + " ") and re.search(cells, ln)
                       for ln in text.splitlines()), b
    assert "counter's boxes per round played" in md
    assert f"({f['boxes_per_round_played']:.2f} boxes)" in md
    assert f"average bet {f['average_bet']:.2f} units a round played" in text
    assert f"average bet {f['average_bet']:.2f} units a round played" in md
    head, rows = pen.shown()
    keys = [k for k, _, _ in head]
    assert {"played_share", "average_bet"} <= set(keys)
    for r, row in zip(data["counting"]["sweep"], rows, strict=True):
        assert row[keys.index("played_share")] == r["played_share"] < 1
        assert row[keys.index("average_bet")] == r["average_bet"] > 1
        assert f"{100 * r['played_share']:.1f}%" in sweep and f"{r['average_bet']:.2f}" in sweep
        assert f"| {100 * r['played_share']:.1f}% |" in md
    assert "Played: the share of rounds dealt the counter played (it wongs)." in md
    flat = figures.Spec(Rules(), seed=7, chunk_rounds=5000, count_plan="hi-lo-flat",
                        count_rounds=20_000, count_penetrations=(0.6, 0.9))
    data = {"strategy": "basic", "counting": figures.counting_figures(flat, print, True)}
    tables = {b.name: b for b in sections.counting(data).blocks
              if isinstance(b, sections.Table)}
    for name, key in (("counting_by_count", "boxes_per_round_played"),
                      ("counting_penetration", "played_share"),
                      ("counting_penetration", "average_bet")):
        assert key not in [k for k, _, _ in tables[name].shown()[0]], key  # (as count's)
        _csv(tables[name], tmp_path / f"{name}.csv")
        assert key in (tmp_path / f"{name}.csv").read_text().splitlines()[0], key


def test_the_sweeps_super_sevens_favourable_column_says_by_which_7_7_play():
    """The report's sweep gave the share of rounds the Super Sevens bet favoured the player at
    each penetration without saying by which 7-7 play's exact return, as bjsim count's did."""
    from simulator import counting_report as CR
    from simulator.plans import load_plan
    from simulator.strategy import load_strategy
    from tests.test_counting_report import ROUNDS, tally_of

    f = CR.figures(tally_of(ROUNDS), load_plan("hi-lo-1-12"), Rules(),
                   strategy=load_strategy("basic"))
    sec = sections.counting({"strategy": "basic", "counting": {
        "plan": "hi-lo-1-12", "figures": f, "sweep": CR.sweep_rows([(0.75, f)])}})
    md = render.to_markdown("t", [sec])
    assert ("Super Sevens favourable, the share of rounds where it favours the player by the "
            "strategy's 7-7 play (split v 2-7, hit v 8-A)") in md
    # said once (the sweep's note, as bjsim count's; the report had its own sentence beside it)
    (para,) = [p for p in md.split("\n\n") if p.startswith("The same plan and seed")]
    assert para.count("the strategy's 7-7 play (split v 2-7, hit v 8-A)") == 1, para


def test_the_sweeps_favourable_se_left_out_for_too_few_chunks_says_the_note_alone():
    """The sweep's Super Sevens favourable SE, left out where the runs have too few chunks,
    read "no SE: no SE from fewer than 10 chunks ...": the note already begins "no SE"."""
    from simulator import counting_report as CR
    from simulator.plans import load_plan
    from simulator.strategy import load_strategy
    from tests.test_counting_report import ROUNDS, tally_of

    f = CR.figures(tally_of(ROUNDS), load_plan("hi-lo-1-12"), Rules(),
                   strategy=load_strategy("basic"))
    note = "no SE from fewer than 10 chunks (the run has 4): more rounds give more"
    rows = [r | {"chunk_se_note": note} for r in CR.sweep_rows([(0.75, f)])]
    assert rows[0]["super_sevens_favourable_share"] is not None
    assert rows[0]["super_sevens_favourable_share_se"] is None
    md = render.to_markdown("t", [sections.counting({"strategy": "basic", "counting": {
        "plan": "hi-lo-1-12", "figures": f, "sweep": rows}})])
    assert re.search(r"Super Sevens favourable SE[^()]*\(" + re.escape(note) + r"\)", md)
    assert "no SE: no SE" not in md


def test_the_section_gives_the_batch_means_ses_bjsim_count_gives(tmp_path):
    """bjsim count gives the share played, the average bet and the boxes per round played
    their SEs by batch means (and the boxes by count theirs); the report's counting section
    gave the figures bare, in its text, its tables and its CSV. It now gives count's SEs in
    count's words, and where the run has too few chunks says why there are none, once."""
    from simulator import counting_report as CR
    from simulator.assessment.output import _csv

    plan = tmp_path / "wong.toml"
    plan.write_text(WONG_BOXES)
    spec = figures.Spec(Rules(boxes=2), seed=7, chunk_rounds=2000, count_plan=str(plan),
                        count_rounds=20_000, count_penetrations=(0.6, 0.9))
    data = {"strategy": "basic", "counting": figures.counting_figures(spec, print, True)}
    f, sweep = data["counting"]["figures"], data["counting"]["sweep"]
    assert f["chunk_se_note"] is None and f["average_bet_se"] and f["played_share_se"]
    sec = sections.counting(data)
    md = render.to_markdown("t", [sec])
    text = invoke("count", "--plan", plan, "--boxes", "2", "--seed", "7", "--chunk-rounds",
                  "2000", "--rounds", "20000", "-q").stdout
    bet = f"average bet {f['average_bet']:.2f} units (SE {f['average_bet_se']:.3f}) a round played"
    played = f"{100 * f['played_share']:.1f}% (SE {100 * f['played_share_se']:.1f}%)"
    boxes = (f"({f['boxes_per_round_played']:.2f} boxes, SE "
             f"{CR.sig3(f['boxes_per_round_played_se'])})")
    for words in (bet, played, boxes, "(10 chunks)"):
        assert words in text and words in md, words
    tables = {b.name: b for b in sec.blocks if isinstance(b, sections.Table)}
    head, rows = tables["counting_by_count"].shown()
    keys = [k for k, _, _ in head]
    ses = [b["boxes_per_round_played_se"] for b in f["by_count"]]
    if any(ses):  # (an SE of 0, a figure the plan fixes at that count, shown as none)
        assert keys[keys.index("boxes_per_round_played") + 1] == "boxes_per_round_played_se"
        assert [r[keys.index("boxes_per_round_played_se")] for r in rows] == ses
        assert "counter's boxes per round played SE" in md
    else:  # (none at any count: the column left out, as count's table leaves it)
        assert "boxes_per_round_played_se" not in keys and "| 0.000 |" not in md
    head, rows = tables["counting_penetration"].shown()
    keys = [k for k, _, _ in head]
    assert keys[keys.index("played_share") + 1] == "played_share_se"
    assert keys[keys.index("average_bet") + 1] == "average_bet_se"
    for r, row in zip(sweep, rows, strict=True):
        assert row[keys.index("played_share_se")] == r["played_share_se"] > 0
        assert row[keys.index("average_bet_se")] == r["average_bet_se"] > 0
    assert "| counter's average bet | counter's average bet SE |" in md
    _csv(tables["counting_penetration"], tmp_path / "pen.csv")
    header = (tmp_path / "pen.csv").read_text().splitlines()[0].split(",")
    assert {"played_share_se", "average_bet_se"} <= set(header)
    _csv(tables["counting_by_count"], tmp_path / "by.csv")
    assert "boxes_per_round_played_se" in (tmp_path / "by.csv").read_text().splitlines()[0]
    # 4 chunks: no SE, said once in the text (as count's line), the columns left out for it
    few = figures.Spec(Rules(boxes=2), seed=7, chunk_rounds=5000, count_plan=str(plan),
                       count_rounds=20_000, count_penetrations=(0.6, 0.9))
    data = {"strategy": "basic", "counting": figures.counting_figures(few, print, True)}
    note = data["counting"]["figures"]["chunk_se_note"]
    assert note.startswith("no SE from fewer than 10 chunks")
    md = render.to_markdown("t", [sections.counting(data)])
    assert (f"Rounds played, average bet, boxes and the Super Sevens favourable share: {note}."
            in md)
    assert "(SE " not in md.split("Advantage: the counter's")[0]
    assert "favoured the player in" in md and "(no SE, as said above) of rounds" in md
    assert "no SE: no SE" not in md
    # (the sweep's runs: its left-out sentence says it once for its columns)
    assert "played SE, counter's average bet SE and Super Sevens favourable SE " \
        f"({note})" in md
    assert md.count(note) == 2


def test_the_section_gives_the_counters_own_super_sevens_return_as_bjsim_count_does():
    # bjsim count says what the counter's own Super Sevens bets returned; the report's counting
    # section gave only its stakes by count
    from simulator.counting_report import counter_exact_text, counter_return_text
    from simulator.strategy import load_strategy

    spec = figures.Spec(Rules(), seed=3, chunk_rounds=2000, count_plan="sevens-super-sevens",
                        count_rounds=24000, strategy_given=False)  # (the plan's own played)
    data = {"strategy": "basic", "counting": figures.counting_figures(spec, print, True)}
    assert data["counting"]["strategy"] == "basic-super-sevens"
    assert "Strategy basic-super-sevens (the plan's own; the rest of this report: basic)" in \
        render.to_markdown("t", [sections.counting(data)])
    # bjsim count's warnings of the plan are in the document, not on stderr alone (a review),
    # for the main run's penetration and each of a sweep's
    assert data["counting"]["warnings"] == []  # (hitting every 7-7: +8 holds at 75%)
    said = figures.counting_warnings(Rules(), load_plan("sevens-super-sevens"), (0.6, 0.9),
                                     load_strategy("basic"))
    assert [("tuned" in w, "penetration 0.75," in w) for w in said] == [
        (True, False), (False, True), (False, False), (False, False)]
    assert all(w.startswith("strategies/plans/sevens-super-sevens.toml: ") for w in said)
    data["counting"]["warnings"] = said
    md = render.to_markdown("t", [sections.counting(data)])
    assert "SCORE (10^6 (m / s)^2," in md and "N0 ((s / m)^2:" in md  # (spelt out)
    assert all(f"Warning (as bjsim count gives it): {w}." in md for w in said)
    ss = data["counting"]["figures"]["super_sevens"]
    assert ss["counter_bets"] > 0
    said = (f"The counter bet it {ss['counter_bets']:,} units for a return of "
            f"{counter_return_text(ss)}{counter_exact_text(ss)}.")
    assert "; valued stake by stake at the exact return of the shoe each was made at, " in said
    assert said in render.to_markdown("t", [sections.counting(data)])
    assert said[0].lower() + said[1:] in invoke(
        "count", "--plan", "sevens-super-sevens", "--seed", 3, "--chunk-rounds", 2000,
        "--rounds", 24000, "-q").stdout


def test_a_plan_edited_while_the_report_runs_is_played_and_pinned_as_first_read(
        tmp_path, monkeypatch):
    # The manifest hashed the plan's files when it was written, after the runs, and the counting
    # section read the plan again then: a plan edited mid-run was played and pinned as edited,
    # where the report's start had checked the first one.
    import hashlib

    root = Path(figures.DEFAULT_RULES_PATH).resolve().parent.parent
    path = tmp_path / "p.toml"
    first = (root / "strategies/plans/hi-lo-flat.toml").read_text().replace(
        'name = "hi-lo-flat"', 'name = "p"')  # (a shipped plan's name: it must play as it)
    path.write_text(first)
    edited = first.replace("table_max = 1", "table_max = 2").replace(
        "base = 1", "base = 1\nsteps = [[1, 2]]")
    assert load_plan(str(path)).bet != load_plan_text(tmp_path, edited).bet
    simulate = figures.run.simulate

    def edit_then_simulate(*a, **k):  # (the first run of the report: the plan edited before it)
        path.write_text(edited)
        return simulate(*a, **k)

    monkeypatch.setattr(figures.run, "simulate", edit_then_simulate)
    spec = figures.Spec(Rules(), rounds=4000, chunk_rounds=2000, choices=(), variants=(),
                        sample_rounds=1000, count_plan=str(path), count_rounds=4000)
    data = figures.compute(spec)
    (pinned,) = [x for x in data["manifest"]["count_files"] if x["what"] == "plan"]
    assert pinned["sha256"] == hashlib.sha256(first.encode()).hexdigest()
    assert data["counting"]["figures"]["average_bet"] == 1  # the flat plan, as first read


def load_plan_text(tmp_path, text):
    other = tmp_path / "other.toml"
    other.write_text(text)
    return load_plan(str(other))


def test_a_plan_without_a_description_is_named_alone():
    # A plan file with no description was said "Plan r12w: ." in the report.
    from dataclasses import replace

    from simulator import counting_report as CR
    from tests.test_counting_report import ROUNDS, tally_of

    for about, said in (("", "Plan hi-lo-1-12. "), ("Two boxes at +3.", "Plan hi-lo-1-12: Two "
                                                    "boxes at +3. ")):
        plan = replace(load_plan("hi-lo-1-12"), description=about)
        f = CR.figures(tally_of(ROUNDS), plan, Rules())
        md = render.to_markdown("t", [sections.counting({"strategy": "basic", "counting": {
            "plan": plan.name, "figures": f, "sweep": CR.sweep_rows([(0.75, f)])}})])
        assert said in md and ": ." not in md


def test_a_small_boxes_se_is_shown_to_three_significant_figures_never_as_0_000():
    # An SE of 0.000411 boxes was printed "SE 0.000", which reads as a figure the plan fixes.
    from simulator import counting_report as CR
    from tests.test_counting_report import ROUNDS, tally_of

    f = CR.figures(tally_of(ROUNDS), load_plan("hi-lo-1-12"), Rules())
    f["plan"]["boxes"]["steps"] = [[3, 2]]  # (the boxes vary with the count)
    f["boxes_per_round_played_se"] = 0.000411
    for b in f["by_count"]:
        b["boxes_per_round_played_se"] = 0.000411
    md = render.to_markdown("t", [sections.counting({"strategy": "basic", "counting": {
        "plan": "hi-lo-1-12", "figures": f, "sweep": CR.sweep_rows([(0.75, f)])}})])
    for text in (CR.render(f, "table"), CR.render(f, "markdown"), md):
        assert "boxes, SE 0.000411)" in text and "0.000)" not in text
        assert text.count("0.000411") == 2  # (and the table by count)
        assert not re.search(r"(?<![\d.])[+-]?0\.000 ", text)  # (+40.000 is no 0)


def test_the_reports_se_columns_are_numbers_and_never_show_a_small_se_as_0():
    # "counter's average bet SE" (se:num3) was left-aligned in the markdown, as text, and an SE
    # its decimals round to 0 read "0.000", as a figure the plan fixes (a regulator's review)
    from simulator.assessment.render import _is_num

    assert _is_num("se:num3") and _is_num("se:pct2") and not _is_num("text")
    assert sections.fmt(0.000411, "se:num3") == "0.00041"
    assert sections.fmt(0.00001, "se:pct2") == "0.0010%"
    assert sections.fmt(0.0123, "se:num3") == "0.012" and sections.fmt(0, "se:num3") == "-"
    assert sections.fmt(0.000411, "se:prob3") == sections.fmt(0.000411, "prob3")


def test_the_report_takes_bjsim_counts_rounds_per_hour(monkeypatch, fake_engine):
    """--rounds-per-hour, as bjsim count's: the section's figures an hour are count's with it,
    for the single run and the sweep (its columns), and the manifest's commands give it."""
    from tests.test_counting_report import MAIN_MANY

    spec = _spec_asked(monkeypatch, MAIN_MANY, "--rounds-per-hour", "80")
    assert spec.count_rounds_per_hour == 80
    spec = figures.Spec(Rules(), seed=5, chunk_rounds=2000, count_plan="hi-lo-1-12",
                        count_rounds=8000, count_penetrations=(0.6, 0.9),
                        count_rounds_per_hour=80)
    data = figures.counting_figures(spec, print, True)
    f = data["figures"]
    assert f["per_hour"]["rounds_per_hour"] == 80
    assert {r["rounds_per_hour"] for r in data["sweep"]} == {80}
    _commands_give(spec, data, "--rounds-per-hour", "80")
    md = render.to_markdown("t", [sections.counting({"strategy": "basic", "counting": data})])
    assert "The counter an hour at 80 rounds an hour: the rounds dealt at the table" in md
    assert "**The counter's win an hour**" in md
    h = f["per_hour"]
    assert f"| 80 | {h['win']:,.2f} | {h['win_se']:,.2f} |" in md  # (its table, csv too)
    assert "| win an hour | win an hour SE | win an hour 95% low |" in md  # (SE, interval)
    assert "Win an hour, SD an hour and N0 in hours: in units and hours at 80 rounds an hour" in md
    plain = figures.counting_figures(dataclasses.replace(spec, count_rounds_per_hour=None),
                                     print, True)
    md = render.to_markdown("t", [sections.counting({"strategy": "basic", "counting": plain})])
    assert "an hour" not in md
