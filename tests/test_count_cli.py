"""``bjsim count``: options, one-line errors, the sweep, and (with the engine's count mode)
end-to-end runs against ``bjsim simulate`` on the same seed."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import re
import types
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator import __version__
from simulator import run as run_mod
from simulator.cli import cli
from simulator.plans import list_plans
from simulator.report import PER_UNIT_WAGERED
from tests.test_counting_report import MAIN_MANY, ROUNDS, tally_of
from tests.test_hostile_input import (
    SETTINGS,
    is_one_line_error,
    ok_or_one_line_error,
    scratch,
    toml_text,
)
from tests.test_plans import plan_tables

ROOT = Path(__file__).resolve().parents[1]
TINY = ["--rounds", "20_000", "--chunk-rounds", "5000", "--seed", "7", "--quiet"]


FAKE_TIMING = {"seconds": 1.0, "rounds_per_second": None, "workers": 2, "scheduler": None,
               "cluster_startup_seconds": None, "checkpoint": None, "resumed_rounds": 0}
FAKE_CONTROL = {"timing": FAKE_TIMING, "run": {"rounds_played": 0}}  # (a control run's meta)


def fake_result(plan, rounds, partial=False):
    """What run.simulate gives for ``plan`` (as recorded by `fake_engine`) if its counting
    tally were that of ``rounds`` (tests/test_counting_report.py's `tally_of`)."""
    from simulator import __version__
    from simulator.rules import rules_dict

    rules, _, names = plan.args
    source = run_mod.rules_source(plan.rules_file, plan.rules_name, plan.overrides)
    meta = {"version": __version__, "rules": rules_dict(rules), "strategy": list(names),
            "run": source | {"seed": plan.seed, "rounds": plan.rounds, "partial": partial,
                             "chunk_rounds": plan.chunk_rounds, "rounds_played": len(rounds)},
            "timing": dict(FAKE_TIMING)}
    return types.SimpleNamespace(counting=tally_of(rounds), partial=partial, meta=meta,
                                 messages=["bjsim: done"], tally=None, stopped_after=None,
                                 moments=None, nets=None)


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def install_fake_engine(monkeypatch, rounds=ROUNDS) -> list:
    """run.Plan and run.simulate replaced: every counter's run returns the hand-made tally of
    tests/test_counting_report.py (``rounds``; the control run nothing); the counters' plans
    asked for are recorded in the list returned."""
    asked = []

    def plan(*args, **kwargs):
        p = types.SimpleNamespace(args=args, **kwargs)
        if kwargs.get("counting") is not None:  # not the control run of the strategy alone
            asked.append(p)
        return p

    def simulate(p, quiet=False):
        if getattr(p, "counting", None) is None:
            return types.SimpleNamespace(partial=False, tally=None, stopped_after=None,
                                         meta=FAKE_CONTROL, messages=[])
        return fake_result(p, rounds)

    monkeypatch.setattr(run_mod, "Plan", plan)
    monkeypatch.setattr(run_mod, "simulate", simulate)
    return asked


@pytest.fixture
def fake_engine(monkeypatch):
    return install_fake_engine(monkeypatch)


def test_help_has_examples_and_every_option_has_help():
    result = invoke("count", "--help")
    assert result.exit_code == 0 and "Examples:" in result.stdout
    assert "bjsim count --penetrations 0.60,0.70,0.80,0.90" in result.stdout
    cmd = cli.commands["count"]
    assert all(p.help for p in cmd.params if p.param_type_name == "option")


def test_list_names_every_shipped_plan_and_count():
    result = invoke("count", "--list")
    assert result.exit_code == 0
    for name in list_plans() + ["hi-lo", "ko", "sevens", "zen", "omega-ii", "hi-opt-ii"]:
        assert f"  {name}  " in result.stdout, name
    assert "the control" in result.stdout  # hi-lo-flat's description


def test_list_names_every_shipped_index_set_as_it_names_the_plans_and_counts():
    # the index sets a plan's 'indices' names (strategies/indices/) were not listed
    from simulator.index_plays import list_indices, load_indices

    assert list_indices() == ["hi-lo-nz"]
    text = invoke("count", "--list").stdout
    assert "Index sets (strategies/indices/, a plan's 'indices'):" in text
    assert f"  hi-lo-nz  {load_indices('hi-lo-nz').description}" in text
    doc = json.loads(invoke("count", "--list", "-f", "json").stdout)
    assert doc["indices"] == [{"name": "hi-lo-nz", "description": load_indices(
        "hi-lo-nz").description, "error": None}]
    rows = list(csv.DictReader(io.StringIO(invoke("count", "--list", "-f", "csv").stdout)))
    assert ("indices", "hi-lo-nz") in {(r["kind"], r["name"]) for r in rows}
    assert {r["kind"] for r in rows} == {"plan", "count", "indices"}
    md = invoke("count", "--list", "-f", "markdown").stdout
    assert md.count("| name | description |") == 3 and "| `hi-lo-nz` | hi-lo index" in md


def test_list_follows_the_format():
    doc = json.loads(invoke("count", "--list", "-f", "json").stdout)
    assert [p["name"] for p in doc["plans"]] == list_plans()
    assert {"hi-lo", "ko", "sevens"} <= {c["name"] for c in doc["counts"]}
    assert all(e["error"] is None and e["description"] for e in doc["plans"] + doc["counts"])
    rows = list(csv.DictReader(io.StringIO(invoke("count", "--list", "-f", "csv").stdout)))
    assert {(r["kind"], r["name"]) for r in rows} >= {("plan", "hi-lo-flat"), ("count", "zen")}
    md = invoke("count", "--list", "-f", "markdown").stdout
    assert "| name | description |" in md and "| `hi-lo-1-12` | Hi-Lo" in md


def test_list_refuses_the_options_it_would_ignore():
    result = invoke("count", "--list", "--plan", "hi-lo-flat", "-n", "5", "--set", "decks=2")
    assert result.exit_code == 2
    assert "Error: --list: lists the shipped plans, counts and index sets and plays nothing, " \
        "so --plan, --set, -n would be ignored" in result.stderr  # (each as typed)
    assert invoke("count", "--list", "-q", "-f", "csv").exit_code == 0


@pytest.mark.parametrize("args, words", [
    # 60,70 was quoted as 60.0, not as typed
    (["--penetrations", "60,70"], "--penetrations: key 'penetration' = 60 is out of range: "
     "allowed a number 0.1-0.95 (a fraction: did you mean 0.6?)"),
    (["--penetrations", "0.6,6e1"], "key 'penetration' = 6e1 is out of range"),
    (["--penetrations", "0.6,0.60"], "0.60 is given twice"),
    # the rule values quoted as every message quotes them: shuffle = cut-card was bare
    (["--set", "shuffle=every-round", "--penetrations", "0.6,0.7"],
     "--penetrations: the rule set shuffles every round (key 'shuffle' = \"every-round\"), so "
     "there is no penetration: allowed with shuffle = \"cut-card\""),
])
def test_penetrations_mistakes_quote_the_values_as_typed(args, words):
    result = invoke("count", *args)
    assert result.exit_code == 2
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:") and words in lines[0], lines


# one sentence for every bankroll refused, by a plan and by --bankroll (`plans.check_bankroll`)
BANKROLL_ALLOWED = ("allowed a number 1 to 1e+12 units, at least one table-minimum bet "
                    "(table_min = 1)")


@pytest.mark.parametrize("args, words", [
    # (the option first, as --strategy's: a new user's review)
    (["--plan", "nope"], "Error: --plan nope: unknown counting plan 'nope': allowed hi-lo-1-12"),
    (["--penetrations", "0.6,x"], "'x' is not a number"),
    # a review: "0.6, 0.7" (the shell splits it) said only "'' is not a number"
    (["--penetrations", "0.6,", "0.7"], "'0.6,' has an empty value between or after its commas: "
     "write the penetrations with no spaces"),
    (["--penetrations", "0.6,0.6"], "0.6 is given twice"),
    (["--penetrations", "0.6,0.99"], "penetration"),
    (["--penetrations", "0.6", "--set", "shuffle=every-round"],
     "--penetrations: the rule set shuffles every round"),
    (["--penetrations", "0.7", "--set", "penetration=0.9"],
     "--penetrations: not with --set penetration=P"),
    (["--plan", "sevens-super-sevens", "--no-super-sevens"],
     "it bets Super Sevens, but the rule set's super_sevens is false"),
    # one sentence for every bankroll refused, as a plan's: 0 and text had had click's range
    # message, 0.5 "below one table-minimum bet" (the risk of ruin a meaningless 100%)
    (["--bankroll", "0"], "--bankroll 0: " + BANKROLL_ALLOWED),
    (["--bankroll", "-5"], "--bankroll -5: " + BANKROLL_ALLOWED),
    (["--bankroll", "1e-9"], "--bankroll 1e-9: " + BANKROLL_ALLOWED),
    (["--bankroll", "0.999"], "--bankroll 0.999: " + BANKROLL_ALLOWED),
    (["--bankroll", "nan"], "--bankroll nan: " + BANKROLL_ALLOWED),
    (["--bankroll", "inf"], "--bankroll inf: " + BANKROLL_ALLOWED),
    (["--bankroll", "abc"], '--bankroll "abc": ' + BANKROLL_ALLOWED),
    (["--workers", "abc"], "'--workers': 'abc' is not a whole number in the range x>=1."),
    (["--bankroll", "2e12"], "--bankroll 2e12: " + BANKROLL_ALLOWED),
    (["--rounds-per-hour", "0"], "'--rounds-per-hour': 0 is not in the range 1<=x<=1000"),
    (["--rounds-per-hour", "1.5"], "'--rounds-per-hour': '1.5' is not a whole number"),
    (["--strategy", "nope"], "Error: --strategy nope: unknown strategy 'nope': allowed"),
    (["--set", "decks=99"], "decks"),
    (["-f", "xml"], "'xml' is not one of"),
    (["--resume"], "--resume: needs --checkpoint FILE"),
    (["--penetrations", "0.6,0.7", "--checkpoint", "c.ckpt"],
     "--checkpoint: not with --penetrations"),
    (["--penetrations", "0.6", "--checkpoint", "c.ckpt"],
     "--checkpoint: not with --penetrations (even one)"),
])
def test_bad_input_is_one_line(args, words, fake_engine):
    line = is_one_line_error(invoke("count", *args))
    assert words in line, line
    assert not fake_engine  # refused before any run


def test_a_missing_plan_strategy_or_count_file_says_what_is_allowed(tmp_path, fake_engine):
    # `--plan my-plan.toml` with no such file said "my-plan.toml: no such plan file" alone;
    # now it names the shipped plans and the path form, as an unknown plan name does, after
    # the option (as `--plan nosuch` names it).
    plans = ", ".join(list_plans())
    line = is_one_line_error(invoke("count", "--plan", tmp_path / "my-plan.toml"))
    assert line == (f"Error: --plan {tmp_path / 'my-plan.toml'}: no such plan file: allowed a "
                    f"shipped plan by name ({plans}) or the path of a plan file")
    assert plans == "hi-lo-1-12, hi-lo-flat, sevens-super-sevens"
    line = is_one_line_error(invoke("count", "--strategy", tmp_path / "mine.toml"))
    assert "mine.toml: no such strategy file: allowed a shipped strategy by name (basic, " in line
    assert line.endswith(") or the path of a strategy file")  # (of any name)
    plan = scratch("plan.toml", f'count = "{tmp_path / "my-count.toml"}"\n[bet]\nbase = 1\n')
    line = is_one_line_error(invoke("count", "--plan", plan))
    assert f"key 'count' = \"{tmp_path / 'my-count.toml'}\": no such count file: allowed a " \
        "shipped count system by name (hi-lo, hi-opt-ii, ko, omega-ii, sevens, zen) or the " \
        "path of a count file" in line
    assert not fake_engine  # refused before any run


def test_a_bad_plan_file_is_one_line_naming_the_file_and_key():
    path = scratch("plan.toml", 'count = "hi-lo"\n[bet]\nbase = 1\nsteps = [[3, 2], [2, 4]]\n')
    line = is_one_line_error(invoke("count", "--plan", path))
    assert str(path) in line and "bet.steps[1]" in line
    boxes = scratch("boxes.toml", 'count = "hi-lo"\n[bet]\nbase = 1\n[boxes]\nbase = 3\n')
    assert "plays up to 3 boxes" in is_one_line_error(invoke("count", "--plan", boxes))


@SETTINGS
@given(plan_tables)
def test_a_hostile_plan_runs_as_written_or_is_refused_in_one_line(table):
    path = scratch("plan.toml", toml_text(table))
    with pytest.MonkeyPatch.context() as mp:
        asked = install_fake_engine(mp)
        result = invoke("count", "--plan", path, *TINY, "-f", "json")
    if ok_or_one_line_error(result):
        (p,) = asked  # the plan given, nothing else
        assert p.counting.source == str(path) and p.counting.bet.base == table["bet"]["base"]
        assert json.loads(result.stdout)["results"]["plan"]["source"] == str(path)
    else:
        assert not asked


@settings(max_examples=20, deadline=None)
@given(st.binary(max_size=200))
def test_binary_garbage_as_a_plan_is_refused_in_one_line(data):
    path = scratch("garbage.toml", data)
    with pytest.MonkeyPatch.context() as mp:
        asked = install_fake_engine(mp)
        ok_or_one_line_error(invoke("count", "--plan", path, *TINY))
    assert len(asked) <= 1


def test_the_run_is_asked_for_as_given_and_its_figures_printed(fake_engine):
    result = invoke("count", "--plan", "hi-lo-1-12", "--strategy", "basic-super-sevens",
                    "--bankroll", "250", *TINY, "-f", "json")
    assert result.exit_code == 0, result.output
    (p,) = fake_engine
    assert p.counting.name == "hi-lo-1-12" and p.args[2] == ("basic-super-sevens",)
    assert (p.rounds, p.seed, p.chunk_rounds) == (20_000, 7, 5000)
    doc = json.loads(result.stdout)
    assert doc["results"]["advantage"]["initial_bet"]["mean"] == pytest.approx(0.1)
    assert doc["results"]["bankroll"] == 250 and doc["results"]["plan"]["name"] == "hi-lo-1-12"
    table = invoke("count", *TINY)
    assert table.exit_code == 0 and "+10.000%" in table.stdout
    assert "| advantage |" in invoke("count", *TINY, "-f", "markdown").stdout
    assert invoke("count", *TINY, "-f", "csv").stdout.startswith(
        "section,item,count,count_label,value")


def test_a_sweep_plays_one_run_per_penetration_on_the_same_seed(fake_engine, tmp_path):
    out = tmp_path / "sweep.json"
    result = invoke("count", "--penetrations", "0.6,0.9", *TINY, "-f", "json", "-o", out)
    assert result.exit_code == 0, result.output
    assert [p.args[0].penetration for p in fake_engine] == [0.6, 0.9]
    assert {p.seed for p in fake_engine} == {7}
    assert [p.overrides for p in fake_engine] == [("penetration=0.6",), ("penetration=0.9",)]
    doc = json.loads(out.read_text())
    assert [r["penetration"] for r in doc["sweep"]] == [0.6, 0.9]
    assert doc["run"]["penetrations"] == [0.6, 0.9] and doc["run"]["partial"] is False
    assert doc["run"]["rules_name"] == "nz1994"
    text = invoke("count", "--penetrations", "0.6,0.9", *TINY).stdout
    assert "0.60" in text and "0.90" in text and "SCORE" in text


def test_a_sweep_gives_the_risk_of_ruin_of_the_bankroll_used(monkeypatch):
    # --bankroll with --penetrations was taken and shown nowhere: each penetration's risk of
    # ruin is now the single run's for that bankroll (--bankroll, else the plan's). (Rounds
    # without Super Sevens bets: with them no risk of ruin is given; a bankroll their own
    # spread reaches, for an interval: `counting_report._few_for_ruin`; 32 played, as fewer
    # than 30 give no interval.)
    install_fake_engine(monkeypatch, MAIN_MANY)
    pens = ["--penetrations", "0.6,0.9"]
    single = _json("count", *TINY, "--bankroll", "5")
    ruin = single["results"]["per_round_played"]
    assert single["results"]["bankroll"] == 5
    assert single["results"]["plan"]["bankroll"] == 1000  # the plan as written
    doc = _json("count", *pens, *TINY, "--bankroll", "5")
    assert doc["plan"]["bankroll"] == 1000
    for row in doc["sweep"]:
        assert row["bankroll"] == 5
        for k in ("risk_of_ruin", "risk_of_ruin_ci95_low", "risk_of_ruin_ci95_high"):
            assert row[k] == ruin[k], k
    assert doc["rules"]["penetration"] is None  # each run's own: run.penetrations, the rows
    assert single["rules"]["penetration"] == 0.75
    plans = _json("count", *pens, *TINY)
    assert {r["bankroll"] for r in plans["sweep"]} == {1000}
    assert plans["sweep"][0]["risk_of_ruin"] != ruin["risk_of_ruin"]
    table = invoke("count", *pens, *TINY, "--bankroll", "5").stdout
    assert "risk of ruin (95%)" in table and "bankroll for the risk of ruin: 5 units" in table
    rows = list(csv.DictReader(io.StringIO(
        invoke("count", *pens, *TINY, "--bankroll", "5", "-f", "csv").stdout)))
    assert [float(r["value"]) for r in rows if r["item"] == "risk_of_ruin"] == [
        ruin["risk_of_ruin"]] * 2


@pytest.mark.parametrize("partial, code", [(False, 0), (True, 130)])
def test_csv_writes_partial_lowercase_as_simulate_does(monkeypatch, fake_engine, partial, code):
    def simulate(p, quiet=False):  # (the control run whole)
        if getattr(p, "counting", None) is None:
            return types.SimpleNamespace(partial=False, tally=None, stopped_after=None,
                                         meta=FAKE_CONTROL, messages=[])
        return fake_result(p, ROUNDS, partial=partial)

    monkeypatch.setattr(run_mod, "simulate", simulate)
    result = invoke("count", *TINY, "-f", "csv")
    assert result.exit_code == code, result.output
    assert f"run,partial,,,{str(partial).lower()}," in result.stdout
    assert "True" not in result.stdout and "False" not in result.stdout


def test_ctrl_c_prints_the_partial_result_with_exit_130(monkeypatch, fake_engine):
    monkeypatch.setattr(run_mod, "simulate",
                        lambda p, quiet=False: fake_result(p, ROUNDS, partial=True))
    result = invoke("count", *TINY)
    assert result.exit_code == 130 and "PARTIAL RESULT" in result.stdout
    sweep = invoke("count", "--penetrations", "0.6,0.7,0.8", *TINY)
    assert sweep.exit_code == 130 and ("PARTIAL RESULT: interrupted at penetration 0.60 after 6 "
                                       "of 20,000 rounds; 0.70 and 0.80 not played") in sweep.stdout

    def interrupted(p, quiet=False):
        raise KeyboardInterrupt

    monkeypatch.setattr(run_mod, "simulate", interrupted)
    nothing = invoke("count", *TINY)
    assert nothing.exit_code == 130 and "nothing to report" in nothing.stderr


@pytest.mark.parametrize("how", ["partial", "raised"])
def test_ctrl_c_in_the_control_run_is_not_lost(monkeypatch, fake_engine, how):
    """Ctrl-C while the strategy alone plays (the control): exit 130, the counter's figures
    marked, no gain over the control; a sweep plays no control."""
    played = []

    def simulate(p, quiet=False):
        counter = getattr(p, "counting", None) is not None
        played.append(counter)
        if counter:
            return fake_result(p, ROUNDS)
        if how == "raised":
            raise KeyboardInterrupt
        return types.SimpleNamespace(partial=True, tally=None, stopped_after=None,
                                     meta={"run": {"rounds_played": 5000},
                                           "timing": FAKE_TIMING}, messages=[])

    monkeypatch.setattr(run_mod, "simulate", simulate)
    result = invoke("count", *TINY)
    assert result.exit_code == 130, result.output
    assert "PARTIAL RESULT: interrupted in the control run" in result.stdout
    assert "Gain over the strategy alone" not in result.stdout
    assert result.stderr.splitlines()[-1] == (  # (it said nothing: only the counter's lines)
        f"bjsim: interrupted in the control run (the strategy alone at a flat bet) after "
        f"{5000 if how == 'partial' else 0:,} of its 20,000 rounds: the report is the counter's "
        "whole run, without the gain over the strategy alone")
    doc = json.loads(invoke("count", *TINY, "-f", "json").stdout)
    assert doc["run"]["partial"] is True and doc["run"]["control_interrupted"] is True
    assert doc["results"]["gain_over_basic"] is None and doc["results"]["basic"] is None
    played.clear()
    sweep = invoke("count", "--penetrations", "0.6,0.7,0.8", *TINY)
    assert sweep.exit_code == 0 and played == [True] * 3
    assert "PARTIAL" not in sweep.stdout


# ---------------------------------------------------------------------------------------------
# End to end, with the engine's count mode


def _json(*args) -> dict:
    result = invoke(*args, "-f", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_flat_hi_lo_control_is_the_basic_strategy_result_for_the_same_seed():
    count = _json("count", "--plan", "hi-lo-flat", *TINY)["results"]
    basic = _json("simulate", *TINY)["results"]["tally"]
    t = count["tally"]
    assert (t["rounds"], t["played"], t["boxes"], t["bet"]) == (basic["rounds"],) * 2 + (
        basic["box_rounds"],) * 2
    assert t["net"] == basic["total_sum"] and t["wagered"] == basic["main_wagered"]
    assert t["flat_net"] == basic["total_sum"] and t["round_sq"] == basic["round_total_sq"]


def test_the_flat_control_gives_simulates_mean_to_the_last_digit():
    # simulate divided by the rounds, then by 10 (tenths), count by 10 then the bets: the json
    # said -0.0037427500000000004 against count's -0.00374275 for the same tally
    args = ("-n", "2M", "--seed", "9", "--set", "surrender=late", "--set", "shuffle=every-round",
            "--quiet")
    main = _json("simulate", *args)["results"]["main"]
    flat = _json("count", "--plan", "hi-lo-flat", *args)["results"]["advantage"]["initial_bet"]
    keys = ("mean", "se", "ci95_low", "ci95_high")
    assert [json.dumps(main[k]) for k in keys] == [json.dumps(flat[k]) for k in keys]


def test_per_unit_wagered_is_one_figure_with_one_label_in_simulate_and_count():
    # A flat plan without index plays is simulate's game for the same seed, round for round.
    # With a strategy that insures, the main game's result per unit wagered on it (insurance
    # apart) is one figure in both, json and text, under the same words; count's was the main +
    # insurance result over the same wagers (-0.740% against simulate's -0.637% here).
    args = (*TINY, "--strategy", "insurance-taker")
    count = _json("count", "--plan", "hi-lo-flat", *args)["results"]
    sim = _json("simulate", *args)["results"]
    t, m = count["tally"], sim["main"]
    assert sim["insurance"]["bets"] > 100 and t["ins_net"] == sim["tally"]["ins_sum"] != 0
    w = count["advantage"]["total_bet"]
    assert w["mean"] == pytest.approx(m["mean_per_unit_wagered"], rel=1e-12)
    assert w["se"] == pytest.approx(m["se_per_unit_wagered"], rel=1e-9)
    assert count["insurance_per_initial_bet"] == pytest.approx(
        sim["insurance"]["per_initial_wager"], rel=1e-12)
    assert w["mean"] != pytest.approx(count["advantage"]["initial_bet"]["mean"]
                                      / count["wagered_per_initial_bet"], rel=1e-3)
    sim_table = invoke("simulate", *args).stdout
    count_table = invoke("count", "--plan", "hi-lo-flat", *args).stdout
    pct = f"{100 * w['mean']:+.3f}%"
    assert f"per unit wagered on the main game (initial bets, doubles, splits; main game result, " \
           f"insurance apart): {pct}" in sim_table
    line = next(ln for ln in count_table.splitlines() if ln.startswith(PER_UNIT_WAGERED))
    assert line.split()[-5] == pct  # its mean, then SE and the interval
    rows = list(csv.DictReader(io.StringIO(invoke("simulate", *args, "-f", "csv").stdout)))
    row = next(r for r in rows if r["section"] == "return" and r["item"] == "main"
               and r["per"] == "unit wagered on the main game")
    assert float(row["value"]) == pytest.approx(w["mean"], rel=1e-12)


def test_the_insurance_results_se_is_the_one_simulates_rounds_give_for_a_flat_plan():
    """A flat plan without index plays is simulate's game for the same seed, round for round:
    count's square of each round's insurance result (``ins_sq``) is simulate's
    ``round_ins_sq``, and the insurance result's SE, computed here from simulate's per-round
    sums as the advantage's (the SD of a round's result times sqrt(rounds), over the bets), is
    count's, printed beside it (count printed the figure alone: "no SE"). Its insurance bets won
    and lost (``ins_won``, ``ins_lost``) are simulate's ``ins_won`` and ``ins_taken`` less it,
    enough for simulate's interval and so for count's."""
    import math

    args = (*TINY, "--strategy", "insurance-taker")
    count = _json("count", "--plan", "hi-lo-flat", *args)["results"]
    doc = _json("simulate", *args)["results"]
    sim = doc["tally"]
    t, n = count["tally"], count["rounds_played"]
    assert n == sim["rounds"] and t["ins_sq"] == sim["round_ins_sq"] > 0
    assert t["ins_won"] == sim["ins_won"] >= 30 and doc["insurance"]["interval_note"] is None
    assert t["ins_lost"] == sim["ins_taken"] - sim["ins_won"] >= 30
    assert count["insurance_per_initial_bet_interval_note"] is None
    s, sq = sim["round_ins_sum"], sim["round_ins_sq"]
    se = math.sqrt((n * sq - s * s) / (n * (n - 1))) / 10 * math.sqrt(n) / t["bet"]
    assert count["insurance_per_initial_bet_se"] == pytest.approx(se, rel=1e-9)
    ins = count["insurance_per_initial_bet"]
    assert count["insurance_per_initial_bet_ci95_low"] < ins < count[
        "insurance_per_initial_bet_ci95_high"]
    table = invoke("count", "--plan", "hi-lo-flat", *args).stdout
    assert (f"Insurance result per unit of initial main bet: {100 * ins:+.3f}%, SE "
            f"{100 * se:.3f}%, 95% interval ") in table


def test_a_short_count_run_gives_the_insurance_result_no_interval_as_simulate_does_not():
    """count gave the insurance result a normal interval however few insurance bets the counter
    made (600 rounds: 10 won of 38); simulate withholds its insurance interval from fewer than
    30 bets won or lost, and count now does too, in simulate's words, for the same seed and game
    (a flat plan: simulate's rounds); a long run gives it. Text, json and csv."""
    from simulator.tally import TOO_FEW

    ins = "insurance_per_initial_bet"
    for rounds, few in (("600", True), ("20_000", False)):
        args = ("--rounds", rounds, "--chunk-rounds", "5000", "--seed", "7", "--quiet",
                "--strategy", "insurance-taker")
        count = _json("count", "--plan", "hi-lo-flat", *args)["results"]
        sim = _json("simulate", *args)["results"]
        assert count["tally"]["ins_won"] == sim["tally"]["ins_won"]
        assert count[ins + "_interval_note"] == sim["insurance"]["interval_note"]
        if not few:
            assert count[ins + "_se"] is not None and count[ins + "_interval_note"] is None
            continue
        note = sim["insurance"]["interval_note"]
        assert note.startswith(f"{TOO_FEW}: ") and note.endswith("insurance bet(s), fewer than 30")
        assert count[ins] is not None
        assert count[ins + "_se"] is count[ins + "_ci95_low"] is count[ins + "_ci95_high"] is None
        table = invoke("count", "--plan", "hi-lo-flat", *args).stdout
        assert (f"Insurance result per unit of initial main bet: {100 * count[ins]:+.3f}%, no SE "
                f"({note})") in table
        rows = {r["item"]: r for r in csv.DictReader(io.StringIO(
            invoke("count", "--plan", "hi-lo-flat", *args, "-f", "csv").stdout))
            if r["section"] == "counter"}
        assert rows[ins]["se"] == rows[ins]["ci95_low"] == "" and rows[ins]["value"] != ""
        assert rows[ins + "_interval_note"]["value"] == note


def test_the_control_run_is_the_strategy_alone_for_the_same_seed():
    count = _json("count", *TINY)["results"]
    basic = _json("simulate", *TINY)["results"]["tally"]
    assert count["basic"]["mean"] == basic["total_sum"] / basic["box_rounds"] / 10
    assert count["gain_over_basic"] == (count["advantage"]["initial_bet"]["mean"]
                                        - count["basic"]["mean"])
    assert count["basic"]["mean"] != count["flat"]["mean"]  # the index plays change the game
    # two runs of other rounds: their SEs in quadrature
    assert count["gain_over_basic_se_kind"] == "the two runs taken as independent"


KO_RAMP = """name = "ko-ramp"
count = "ko"
deck_estimation = "exact"
table_min = 1
table_max = 8

[bet]
base = 1
steps = [[1, 2], [2, 4], [3, 8]]
"""


def test_a_ramp_without_index_plays_gains_over_the_control_what_it_gains_over_flat(tmp_path):
    # The review's KO plan: no index plays, one box, a bet ramp. The control run plays the very
    # rounds of the flat row, so the gain over it is paired (it printed +-0.281 "as
    # independent" beside +-0.175 paired over flat), in every format.
    plan = tmp_path / "ko.toml"
    plan.write_text(KO_RAMP)
    count = _json("count", "--plan", plan, *TINY)["results"]
    assert count["basic"]["mean"] == count["flat"]["mean"]
    assert count["gain_over_basic"] == count["gain_over_flat"] != 0
    assert count["gain_over_basic_se"] == count["gain_over_flat_se"] > 0
    assert count["gain_over_basic_se_kind"].startswith("paired: no index plays and fixed boxes")
    table = invoke("count", "--plan", plan, *TINY).stdout
    assert "the same as over flat betting with the counter's play" in table
    assert "independent" not in table
    rows = {r["item"]: r for r in csv.DictReader(io.StringIO(
        invoke("count", "--plan", plan, *TINY, "-f", "csv").stdout))}
    assert float(rows["gain_over_basic"]["se"]) == count["gain_over_flat_se"]


@pytest.mark.parametrize("plan", ["hi-lo-flat", "sevens-super-sevens"])
def test_a_plan_that_plays_and_bets_the_main_game_as_the_control_gains_nothing_over_it(plan):
    # no index plays and a flat main bet: the counter's main game is the control's, round for
    # round, so the gain over it is none (0, SE 0), not 0 +- the two runs' SEs in quadrature
    count = _json("count", "--plan", plan, *TINY)["results"]
    assert count["advantage"]["initial_bet"]["mean"] == pytest.approx(count["basic"]["mean"],
                                                                       rel=1e-12)
    assert (count["gain_over_basic"], count["gain_over_basic_se"]) == (0.0, 0.0)
    assert count["gain_over_basic_se_kind"].startswith("none: no index plays and a flat main")
    assert count["advantage"]["initial_bet"]["se"] == count["flat"]["se"]


def test_a_sweep_row_is_the_single_run_at_that_penetration():
    single = _json("count", "--set", "penetration=0.6", *TINY)["results"]
    sweep = _json("count", "--penetrations", "0.6,0.8", *TINY)["sweep"]
    assert sweep[0]["advantage"] == single["advantage"]["initial_bet"]["mean"]
    assert sweep[0]["score"] == single["per_round_played"]["score"]
    assert sweep[1]["advantage"] != sweep[0]["advantage"]


def test_a_checkpointed_count_interrupted_and_resumed_is_the_uninterrupted_run(tmp_path,
                                                                               monkeypatch):
    from simulator import engine
    from tests.helpers import interrupt_after_first_chunk

    whole = _json("count", *TINY, "--workers", "1")["results"]
    ckpt = tmp_path / "count.ckpt"
    with monkeypatch.context() as mp:
        interrupt_after_first_chunk(mp, engine, "iter_job_chunks")
        cut = invoke("count", *TINY, "--workers", "1", "--checkpoint", ckpt, "-f", "json")
    assert cut.exit_code == 130 and "carry on with --resume" in cut.stderr
    # the first chunk, and the one in play at the stop if any (waited for, and kept)
    assert json.loads(cut.stdout)["results"]["rounds"] in (5000, 10_000)
    again = _json("count", *TINY, "--workers", "1", "--checkpoint", ckpt, "--resume")
    assert again["results"] == whole
    assert "exists" in is_one_line_error(invoke("count", *TINY, "--checkpoint", ckpt))
    # a plan changed in one key: the refusal names it in the plan file's terms (it was the whole
    # plan's repr, cut off; then the ramp's repr)
    text = (ROOT / "strategies/plans/hi-lo-1-12.toml").read_text()
    # (as the shipped file edited between the runs: a copy of another name is refused on load,
    # as a plan named as a shipped one that does not play as it)
    from simulator import plans

    plan = scratch("ramp.toml", text.replace("steps = [[2, 2], [3, 4], [4, 8], [5, 12]]",
                                             "steps = [[1, 6], [2, 12]]"))
    with monkeypatch.context() as mp:
        mp.setattr(plans, "_not_passing_for_a_shipped_plan", lambda *args: None)
        line = is_one_line_error(invoke("count", *TINY, "--plan", plan, "--checkpoint", ckpt,
                                        "--resume"))
    assert ("different run: the counting plan's bet is base = 1, steps = [[2, 2], [3, 4], "
            "[4, 8], [5, 12]] there, base = 1, steps = [[1, 6], [2, 12]] here") in line, line
    # another plan: named as such (it named the first field in order, the bankroll)
    line = is_one_line_error(invoke("count", *TINY, "--plan", "hi-lo-flat", "--checkpoint", ckpt,
                                    "--resume"))
    assert "the counting plan's name is 'hi-lo-1-12' there, 'hi-lo-flat' here" in line, line
    # a checkpoint written before its exact Super Sevens sums were of the counter's own 7-7 play
    # (they were the published convention's) keeps no word of the play: refused, not mixed
    from simulator import checkpoint

    doc = json.loads(ckpt.read_text())
    assert doc["identity"].pop("super_sevens_exact") == (
        "by up card A, 2-10: hit, split, split, split, split, split, split, hit, hit, hit")
    doc["sha256"] = checkpoint.checksum(doc)
    ckpt.write_text(json.dumps(doc))
    line = is_one_line_error(invoke("count", *TINY, "--checkpoint", ckpt, "--resume"))
    assert ("the 7-7 play of the exact Super Sevens sums is not recorded there (a checkpoint of "
            "an earlier bjsim)") in line, line
    # a sweep asked on resume (the checkpoint keeps none): a traceback, as zip met None
    for args in (["--resume", ckpt], ["--checkpoint", ckpt, "--resume"]):
        line = is_one_line_error(invoke("count", *args, "--penetrations", "0.6"))
        assert "--checkpoint: not with --penetrations (even one)" in line, line


def test_the_control_run_is_checkpointed_and_resumed_to_the_uninterrupted_report(tmp_path,
                                                                                 monkeypatch):
    """The control run (the strategy alone, for the gain over it) was kept in no checkpoint: a
    Ctrl-C in it lost its chunks, saying nothing of what was kept, and every resume, even of a
    finished checkpoint, played the whole control again. Its chunks are kept in the same file
    (its section "control"), and a resume carries on whichever run was unfinished."""
    from simulator import engine
    from tests.helpers import interrupt_after_first_chunk

    args = ["count", *TINY, "--workers", "1", "-f", "json"]
    whole = _json(*args[:-2])
    full = whole.pop("timing")  # (both runs': it was the counter's alone)
    assert 0 < full["control_seconds"] < full["seconds"] and full["resumed_rounds"] == 0
    assert full["rounds_per_second"] == pytest.approx(40_000 / full["seconds"])
    ckpt = tmp_path / "count.ckpt"
    with monkeypatch.context() as mp:  # (iter_chunks plays the control only: the counter's is
        interrupt_after_first_chunk(mp, engine, "iter_chunks")  # iter_job_chunks)
        cut = invoke(*args, "--checkpoint", ckpt)
    assert cut.exit_code == 130, cut.output
    assert json.loads(cut.stdout)["run"]["control_interrupted"] is True
    said = cut.stderr.strip().splitlines()
    assert said[-2].startswith("bjsim: interrupted in the control run (the strategy alone at a "
                               "flat bet) after ") and " of its 20,000 rounds" in said[-2], said
    assert said[-1] == f"bjsim: finished chunks saved in {ckpt}: carry on with --resume", said
    doc = json.loads(ckpt.read_text())
    assert doc["finished"] is True and doc["rounds_done"] == 20_000
    assert doc["control"]["finished"] is False and doc["control"]["rounds_done"] in (5000, 10_000)
    again = invoke(*[a for a in args if a != "--quiet"], "--resume", ckpt)  # (its lines said)
    assert again.exit_code == 0, again.output
    doc = json.loads(again.stdout)
    kept = 20_000 - int(said[-2].split(" after ")[1].split(" of ")[0].replace(",", ""))
    timing = doc.pop("timing")  # (it was the counter's run's: 0 s, none played, no workers)
    assert timing["resumed_rounds"] == 40_000 - kept and doc == whole
    assert timing["workers"] == 1 and 0 < timing["control_seconds"] <= timing["seconds"]
    assert timing["rounds_per_second"] == pytest.approx(kept / timing["seconds"])
    assert json.loads(ckpt.read_text())["control"]["finished"] is True
    assert f"bjsim: control run (the strategy alone at a flat bet): {kept:,} rounds in " in \
        again.stderr and f"more from {ckpt}" in again.stderr, again.stderr  # (it said nothing)
    # finished: its report again, nothing played
    with monkeypatch.context() as mp:
        for name in ("iter_chunks", "iter_job_chunks"):
            mp.setattr(engine, name, lambda *a, **k: pytest.fail("a chunk played"))
        done = invoke(*args, "--resume", ckpt)
    assert done.exit_code == 0, done.output
    doc = json.loads(done.stdout)
    timing = doc.pop("timing")
    assert timing["resumed_rounds"] == 40_000 and doc == whole
    assert timing["rounds_per_second"] is None and timing["workers"] is None
    # a checkpoint written before the control was kept in it: resumed, the control played
    from simulator import checkpoint

    old = json.loads(ckpt.read_text())
    del old["control"]
    old["sha256"] = checkpoint.checksum(old)
    ckpt.write_text(json.dumps(old))
    played = []
    real = engine.iter_chunks
    with monkeypatch.context() as mp:
        mp.setattr(engine, "iter_chunks", lambda *a, **k: played.append(1) or real(*a, **k))
        doc = _json(*args[:-2], "--resume", ckpt)
    assert played and doc.pop("timing")["resumed_rounds"] == 20_000 and doc == whole
    assert json.loads(ckpt.read_text())["control"]["finished"] is True
    # a control run of another game (as another bjsim's control would be): refused, named
    old = json.loads(ckpt.read_text())
    old["control"]["identity"]["rules"]["boxes"] = 2
    old["sha256"] = checkpoint.checksum(old)
    ckpt.write_text(json.dumps(old))
    line = is_one_line_error(invoke(*args, "--resume", ckpt))
    assert f"--resume: {ckpt} holds a control run of a different game: rule 'boxes' is 2 " \
           "there, 1 here" in line, line


def test_a_stop_after_the_counters_run_keeps_it_for_the_control_to_play_on_resume(monkeypatch,
                                                                                  tmp_path):
    """A stop noted as the counter's run ended plays no control; stderr says so and that the
    checkpoint carries on, and the resume plays the control alone."""
    from simulator import engine, stops

    args = ["count", *TINY, "--workers", "1", "-f", "json"]
    ckpt = tmp_path / "count.ckpt"
    real = stops.deliver

    def deliver(noted):
        monkeypatch.setattr(stops, "deliver", real)
        raise KeyboardInterrupt

    monkeypatch.setattr(stops, "deliver", deliver)
    cut = invoke(*args, "--checkpoint", ckpt)
    assert cut.exit_code == 130, cut.output
    assert cut.stderr.strip().splitlines()[-2:] == [
        "bjsim: interrupted in the control run (the strategy alone at a flat bet) after 0 of "
        "its 20,000 rounds: the report is the counter's whole run, without the gain over the "
        "strategy alone", f"bjsim: finished chunks saved in {ckpt}: carry on with --resume"]
    assert "control" not in json.loads(ckpt.read_text())
    jobs, real_jobs = [], engine.iter_job_chunks
    with monkeypatch.context() as mp:
        mp.setattr(engine, "iter_job_chunks",
                   lambda job, *a, **k: jobs.append(type(job).__name__) or real_jobs(job, *a, **k))
        again = _json(*args[:-2], "--resume", ckpt)
    assert jobs == ["PlayChunk"]  # the control's, not the counter's (CountChunk)
    whole = _json(*args[:-2])
    assert again.pop("timing") and whole.pop("timing") and again == whole


INDEX_20_V_10 = ('name = "x"\ncount = "hi-lo"\n[[play]]\nchart = "hard"\nrow = "20"\nup = "10"\n'
                 'below = "S"\nat_or_above = "H"\nindex = {}\n')


def test_a_resume_refuses_index_plays_changed_and_reads_them_where_the_run_began(
        tmp_path, monkeypatch):
    """A plan's index file with another index (the same two actions, so the same strategy
    tables) was resumed without a word, mixing chunks of two sets of plays; and its relative
    path was read from the folder resumed in, so a resume from another folder failed or read
    another file of that name. Now the plays are part of the run's identity, and the path is
    read from the folder the run was started in (the working directory, as docs/counting.md
    says)."""
    from simulator import engine
    from tests.helpers import interrupt_after_first_chunk

    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    (a / "x.toml").write_text(INDEX_20_V_10.format(3))
    (a / "plan.toml").write_text('count = "hi-lo"\nindices = "x.toml"\n[bet]\nbase = 1\n')
    args = ["count", "--plan", "plan.toml", *TINY, "--workers", "1"]
    monkeypatch.chdir(a)
    whole = _json(*args)
    whole.pop("timing")
    with monkeypatch.context() as mp:
        interrupt_after_first_chunk(mp, engine, "iter_job_chunks")
        cut = invoke(*args, "--checkpoint", "run.ckpt")
    assert cut.exit_code == 130, cut.output
    (a / "x.toml").write_text(INDEX_20_V_10.format(-3))
    line = is_one_line_error(invoke("count", "--resume", "run.ckpt", "-q"))
    assert ("a checkpoint of a different run: the counting plan's index play hard 20 v 10 is "
            '"S below 3, H at or above" there, "S below -3, H at or above" here') in line, line
    (a / "x.toml").write_text(INDEX_20_V_10.format(3))
    (b / "x.toml").write_text(INDEX_20_V_10.format(-3))  # (the same name, elsewhere)
    monkeypatch.chdir(b)
    again = _json("count", "--resume", "../a/run.ckpt", "-q")
    assert again.pop("timing")["resumed_rounds"] > 0
    assert again == whole
    (a / "plan.toml").write_text('count = "hi-lo"\n[bet]\nbase = 1\n')  # plays on one side only
    line = is_one_line_error(invoke("count", "--resume", "../a/run.ckpt", "-q"))
    assert "the counting plan's number of index plays is 1 (for the count hi-lo) there, 0 here" \
        in line, line


def test_a_resume_from_another_folder_reads_the_plans_files_where_the_run_began(
        tmp_path, monkeypatch):
    """The note on the shipped index plays and the refusal of -o naming an input read a plan's
    relative paths from the folder resumed in, where the run reads them from the one it began
    in: resumed from another folder, the note was dropped from the report, and -o could
    overwrite the plan's count file."""
    from simulator import engine
    from tests.helpers import interrupt_after_first_chunk

    a, b = tmp_path / "a", tmp_path / "b" / "deeper"  # (the relative path names another file)
    a.mkdir(), b.mkdir(parents=True)
    hi_lo = (ROOT / "strategies" / "counts" / "hi-lo.toml").read_text()
    (a / "c.toml").write_text(hi_lo)
    (b / "c.toml").write_text("not the run's count file\n")
    shipped = os.path.relpath(ROOT / "strategies" / "indices" / "hi-lo-nz.toml", a)
    (a / "plan.toml").write_text(f'count = "c.toml"\nindices = "{shipped}"\n[bet]\nbase = 1\n')
    args = ["count", "--plan", "plan.toml", "--set", "dealer_hits_soft_17=true", *TINY,
            "--workers", "1"]
    monkeypatch.chdir(a)
    whole = _json(*args)
    whole.pop("timing")
    assert whole["run"]["indices_note"].startswith("the index plays hi-lo-nz were derived")
    with monkeypatch.context() as mp:
        interrupt_after_first_chunk(mp, engine, "iter_job_chunks")
        cut = invoke(*args, "--checkpoint", "run.ckpt")
    assert cut.exit_code == 130, cut.output
    monkeypatch.chdir(b)
    line = is_one_line_error(invoke("count", "--resume", "../../a/run.ckpt", "-o",
                                    "../../a/c.toml"))
    assert line == ("Error: -o ../../a/c.toml: --plan reads it: allowed a file that is not one "
                    "of the command's inputs (--plan: the checkpoint's)"), line  # (as typed; not
    # "left out: its default", which the plan kept in the checkpoint is not)
    assert (a / "c.toml").read_text() == hi_lo
    again = _json("count", "--resume", "../../a/run.ckpt", "-q")
    assert again.pop("timing")["resumed_rounds"] > 0
    assert again == whole
    said = invoke("count", "--resume", "../../a/run.ckpt", "-o", "c.toml")  # (not an input here)
    assert said.exit_code == 0, said.output
    assert "bjsim: the index plays hi-lo-nz were derived for the NZ rules" in said.stderr


def test_a_plan_count_or_index_file_of_any_suffix_loads(tmp_path, monkeypatch, fake_engine):
    """``--plan mine.txt`` said "unknown counting plan 'mine.txt': allowed ..., or the path of a
    .toml plan file" where ``./mine.txt`` played, and so did a plan's ``count`` and ``indices``:
    now a file of any name is read, as a strategy file is, and the messages say so."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hl.txt").write_text((ROOT / "strategies" / "counts" / "hi-lo.toml").read_text())
    (tmp_path / "nz.txt").write_text(
        (ROOT / "strategies" / "indices" / "hi-lo-nz.toml").read_text())
    (tmp_path / "mine.txt").write_text('count = "hl.txt"\nindices = "nz.txt"\n[bet]\nbase = 1\n')
    result = invoke("count", "--plan", "mine.txt", *TINY)
    assert result.exit_code == 0, result.output
    (plan,) = (p.counting for p in fake_engine)
    assert plan.count.name == "hi-lo" and plan.plays.name == "hi-lo-nz"
    assert plan.files == (("plan", Path("mine.txt")), ("count system", Path("hl.txt")),
                          ("index plays", Path("nz.txt")))
    line = is_one_line_error(invoke("count", "--plan", "nosuch.txt", *TINY))
    assert line.endswith("sevens-super-sevens, or the path of a plan file"), line
    for key, text in (("count", 'count = "nosuch.txt"\n'),
                      ("indices", 'count = "hi-lo"\nindices = "nosuch.txt"\n')):
        (tmp_path / "bad.txt").write_text(text + "[bet]\nbase = 1\n")
        line = is_one_line_error(invoke("count", "--plan", "bad.txt", *TINY))
        what = "a count" if key == "count" else "an index"
        assert f"key '{key}'" in line and line.endswith(f"or the path of {what} file"), line


def test_a_wonging_plan_with_boxes_by_count_adds_up():
    path = scratch("wong.toml", 'count = "hi-lo"\ndeck_estimation = "whole"\ntable_max = 4\n'
                   '[bet]\nbase = 1\nsteps = [[2, 4]]\n[wong]\nenter = 0\nleave = -1\n'
                   '[boxes]\nbase = 1\nsteps = [[2, 2]]\n')
    r = _json("count", "--plan", path, "--boxes", "2", *TINY)["results"]
    t, by = r["tally"], r["by_count"]
    assert 0 < r["rounds_played"] < r["rounds"] == sum(b["rounds"] for b in by) == 20_000
    assert r["per_round_watched"]["mean"] == pytest.approx(
        r["per_round_played"]["mean"] * r["played_share"])
    for b in by:  # the ramp at each count: 1 box of 1 unit below +2, 2 boxes of 4 from +2
        if b["played"]:
            assert b["average_bet"] == (8 if b["count"] >= 2 else 1), b
            assert b["boxes_per_round_played"] == (2 if b["count"] >= 2 else 1), b
        if b["count"] < -1:  # below wong.leave: never seated
            assert b["played"] == 0, b
    assert t["bet"] == sum(b["average_bet"] * b["played"] for b in by if b["played"])


def _plan_file(tmp_path, indices: str, count: str = "hi-lo"):
    path = tmp_path / "plan.toml"
    path.write_text(f'name = "p"\ncount = "{count}"\ndeck_estimation = "half"\n'
                    f'indices = "{indices}"\ntable_min = 1\ntable_max = 2\n[bet]\nbase = 1\n')
    return path


def test_a_bad_index_file_is_refused_before_the_run_in_one_line(tmp_path, fake_engine):
    idx = tmp_path / "idx.toml"
    idx.write_text('count = "hi-lo"\n'
                   '[[play]]\nchart = "hard"\nrow = "16"\nup = "10"\nbelow = "H"\n'
                   'at_or_above = "Q"\nindex = 0\n')
    line = is_one_line_error(invoke("count", "--plan", _plan_file(tmp_path, idx), *TINY))
    assert 'at_or_above = "Q"' in line and str(idx) in line
    assert not fake_engine  # no run was started
    idx.write_text('count = "hi-lo"\n'
                   '[[play]]\nchart = "insurance"\nrow = "insurance"\nup = "A"\nbelow = "Y"\n'
                   'at_or_above = "N"\nindex = 3\n')
    assert 'below = "N"' in is_one_line_error(
        invoke("count", "--plan", _plan_file(tmp_path, idx), *TINY))


def test_index_plays_made_for_another_count_are_refused(tmp_path, fake_engine):
    line = is_one_line_error(invoke("count", "--plan", _plan_file(tmp_path, "hi-lo-nz", "zen"),
                                    *TINY))
    assert line.startswith(f"Error: --plan {tmp_path / 'plan.toml'}: key 'indices' = "
                           '"hi-lo-nz": '), line
    assert ("hi-lo-nz.toml: key 'count' = \"hi-lo\": the index plays are for the count hi-lo, "
            "the plan counts zen: allowed index plays made for zen") in line and not fake_engine


def test_an_index_file_for_another_count_is_named_with_its_key_and_an_unknown_count_so(
        tmp_path, fake_engine, monkeypatch):
    """A count mismatch named the index set's ``name`` (i, from i.toml), not the file and its
    key, and a misspelt count (hilo) read as a mismatch. docs/counting.md: the plan's
    ``indices`` first, then the file and the key."""
    monkeypatch.chdir(tmp_path)
    idx = Path("i.toml")
    idx.write_text('name = "i"\ncount = "zen"\n[[play]]\nchart = "hard"\nrow = "16"\n'
                   'up = "10"\nbelow = "H"\nat_or_above = "S"\nindex = 1\n')
    plan = _plan_file(tmp_path, idx)
    line = is_one_line_error(invoke("count", "--plan", plan, *TINY))
    assert line == (f"Error: --plan {plan}: key 'indices' = \"{idx}\": {idx}: key 'count' = "
                    '"zen": the index plays are for the count zen, the plan counts hi-lo: '
                    "allowed index plays made for hi-lo"), line
    idx.write_text(idx.read_text().replace("zen", "hilo"))
    line = is_one_line_error(invoke("count", "--plan", plan, *TINY))
    assert line == (f"Error: --plan {plan}: key 'indices' = \"{idx}\": {idx}: key 'count' = "
                    '"hilo": neither a shipped count (hi-lo, hi-opt-ii, ko, omega-ii, sevens, '
                    "zen) nor the plan's count: allowed index plays made for hi-lo"), line
    assert not fake_engine


def test_a_count_file_passing_for_a_shipped_count_is_refused(tmp_path, fake_engine):
    # Zen's tags named hi-lo: the plan ran hi-lo-nz's plays on a Zen count (header: count
    # hi-lo), and `strategy indices` wrote count = "hi-lo" for it.
    fake = tmp_path / "fakehilo.toml"
    fake.write_text('name = "hi-lo"\ntags = [-1, 1, 1, 2, 2, 2, 1, 0, 0, -2]\n')
    line = is_one_line_error(invoke("count", "--plan", _plan_file(tmp_path, "hi-lo-nz", fake),
                                    *TINY))
    assert f"key 'count': {fake}: name = \"hi-lo\" names the shipped count hi-lo" in line
    assert not fake_engine
    line = is_one_line_error(invoke("strategy", "indices", "-q", "--count", fake))
    assert "names the shipped count hi-lo, but its tags" in line


def test_a_plan_odd_but_maybe_meant_is_played_with_a_warning_line_each(tmp_path, fake_engine):
    # A bet falling as the count rises, a step changing nothing, a step and wonging out of reach:
    # each was played without a word.
    path = tmp_path / "odd.toml"
    path.write_text('count = "hi-lo"\ntable_max = 8\n[bet]\nbase = 1\n'
                    'steps = [[2, 4], [3, 2], [4, 2], [1000, 8]]\n[wong]\nenter = 900\n'
                    'leave = 0\n')
    result = invoke("count", "--plan", path, *TINY)
    assert result.exit_code == 0 and len(fake_engine) == 1, result.output
    assert [ln for ln in result.stderr.splitlines() if "warning" in ln] == [
        f"bjsim: warning: {path}: key 'bet.steps[1]' = [3, 2]: the bet falls from 4 to 2 units "
        "as the count rises to 3: a counter bets more as the count rises",
        f"bjsim: warning: {path}: key 'bet.steps[2]' = [4, 2]: 2 units at this count and below "
        "it too: the step changes nothing",
        f"bjsim: warning: {path}: key 'bet.steps[3]' = [1000, 8]: no round of this game starts "
        "at a true count of 1000 or more (at most +52), so the step is never taken",
        f"bjsim: warning: {path}: key 'wong.enter' = 900: no round of this game starts at a true "
        "count of 900 or more (at most +52), so the counter, who begins sitting out (each "
        "chunk), never plays a round"]
    # a sweep warns of a step out of reach at every penetration only: +30 is out of reach with
    # 93 cards dealt at most (93 x 52 / 219 = +22.08), not with 192 (+52)
    path.write_text('count = "hi-lo"\ntable_max = 2\n[bet]\nbase = 1\nsteps = [[30, 2]]\n')
    swept = invoke("count", "--plan", path, "--penetrations", "0.3,0.9", *TINY)
    assert swept.exit_code == 0 and "warning" not in swept.stderr
    result = invoke("count", "--plan", path, "--set", "penetration=0.3", *TINY)
    assert "a true count of 30 or more (at most +22.08), so the step is never taken" in (
        result.stderr)


def test_a_plan_file_is_named_as_given_not_by_its_name_key(tmp_path, fake_engine):
    # A copy of the shipped plan (its name key still hi-lo-1-12) counting KO: the message names
    # the file the user gave.
    from simulator.plans import PLAN_DIR

    text = (PLAN_DIR / "hi-lo-1-12.toml").read_text()
    path = tmp_path / "ko.toml"
    path.write_text(text.replace('count = "hi-lo"', 'count = "ko"'))
    line = is_one_line_error(invoke("count", "--plan", path, *TINY))
    assert line.startswith(f"Error: {path}: name = \"hi-lo-1-12\" names the shipped plan "
                           "hi-lo-1-12, but its count differs"), line  # (it must play as it)
    text = text.replace('name = "hi-lo-1-12"', 'name = "mine"')
    path.write_text(text.replace('count = "hi-lo"', 'count = "ko"'))
    line = is_one_line_error(invoke("count", "--plan", path, *TINY))
    assert line.startswith(f"Error: --plan {path}: key 'indices' = \"hi-lo-nz\": "), line
    assert "the index plays are for the count hi-lo, the plan counts ko" in line, line
    assert "--plan hi-lo-1-12" not in line and not fake_engine
    line = is_one_line_error(invoke("count", "--plan", path, "--no-super-sevens", *TINY))
    assert f"--plan {path}:" in line
    boxes = tmp_path / "boxes.toml"
    boxes.write_text(text + "\n[boxes]\nbase = 1\nsteps = [[3, 3]]\n")
    assert f"--plan {boxes}: it plays up to 3 boxes" in is_one_line_error(
        invoke("count", "--plan", boxes, *TINY))
    report = is_one_line_error(invoke("report", "--count", boxes, "-o", tmp_path / "r"))
    assert f"--count {boxes}: it plays up to 3 boxes" in report


def test_a_running_count_step_off_its_whole_numbers_is_played_with_a_warning(tmp_path,
                                                                            fake_engine):
    # KO's running count is a whole number: a step at 2.5 is in effect from 3, silently
    path = tmp_path / "ko.toml"
    path.write_text('count = "ko"\ntable_max = 2\n[bet]\nbase = 1\nsteps = [[2.5, 2]]\n')
    result = invoke("count", "--plan", path, *TINY)
    assert result.exit_code == 0 and len(fake_engine) == 1, result.output
    assert [ln for ln in result.stderr.splitlines() if "warning" in ln] == [
        f"bjsim: warning: {path}: key 'bet.steps[0]' = [2.5, 2]: the running count (ko, "
        "unbalanced) is a whole number, never 2.5, so the step is taken from +3"]
    # and a deck estimation, which a running count does not use, as a rule key of no effect
    path.write_text('count = "ko"\ndeck_estimation = "whole"\n[bet]\nbase = 1\n')
    result = invoke("count", "--plan", path, *TINY)
    assert [ln for ln in result.stderr.splitlines() if "warning" in ln] == [
        f"bjsim: warning: {path}: key 'deck_estimation' = \"whole\" has no effect under this "
        "count (ko is unbalanced: the plan's counts are running counts, with no true count and no "
        "decks left to estimate): every value of deck_estimation gives the same figures"]


def test_a_surrender_play_is_played_with_a_warning_under_rules_without_surrender(tmp_path,
                                                                                fake_engine):
    # H below +3 and Rh from it: H at every count under the NZ rules, which have no surrender;
    # it ran without a word. Under rules with surrender it plays as written, without one.
    idx = tmp_path / "sur.toml"
    idx.write_text('count = "hi-lo"\n[[play]]\nchart = "hard"\nrow = "16"\nup = "T"\n'
                   'below = "H"\nat_or_above = "Rh"\nindex = 3\n')
    plan = tmp_path / "plan.toml"
    plan.write_text(f'count = "hi-lo"\nindices = "{idx.as_posix()}"\n[bet]\nbase = 1\n')
    result = invoke("count", "--plan", plan, *TINY)
    assert result.exit_code == 0 and len(fake_engine) == 1, result.output
    assert [ln for ln in result.stderr.splitlines() if "warning" in ln] == [
        f'bjsim: warning: {idx}: play 1 (16 v 10): below = "H", at_or_above = "Rh": the rules '
        'do not allow surrender (surrender = "none"), so it plays as H at every count']
    result = invoke("count", "--plan", plan, "--set", "surrender=late", *TINY)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stderr


def test_a_shuffle_every_round_is_played_with_a_warning_and_no_penetration(fake_engine):
    result = invoke("count", "--set", "shuffle=every-round", "--rounds", "20000",
                    "--chunk-rounds", "5000")
    assert result.exit_code == 0 and len(fake_engine) == 1  # not refused: a control
    assert "shuffles every round, so the count never builds" in result.stderr
    head = result.stdout.splitlines()[1]
    assert "shuffle every round" in head and "penetration" not in head, head
    quiet = invoke("count", "--set", "shuffle=every-round", *TINY)
    assert "never builds" not in quiet.stderr
    assert "never builds" not in invoke("count", *TINY[:-1]).stderr


def test_the_sevens_plan_played_deeper_than_it_was_tuned_for_says_so(fake_engine):
    sevens = ("--plan", "sevens-super-sevens", "--super-sevens", "--strategy",
              "basic-super-sevens", *TINY)
    assert "tuned_penetration" not in invoke("count", *sevens).stderr
    deep = invoke("count", *sevens, "--set", "penetration=0.9")
    assert deep.exit_code == 0
    assert ("key 'tuned_penetration' = 0.75: played at penetration 0.9: its counts were chosen "
            "at 0.75 and are played unchanged") in deep.stderr
    sweep = invoke("count", *sevens, "--penetrations", "0.6,0.75")
    assert "played at penetration 0.6: its counts" in sweep.stderr


def test_more_boxes_than_the_plan_plays_is_said_on_stderr(fake_engine):
    result = invoke("count", "--boxes", "3", "--rounds", "20000", "--chunk-rounds", "5000")
    assert result.exit_code == 0
    assert "the plan plays 1 box a round at most" in result.stderr


def test_the_bar_shows_the_counters_advantage_as_it_ends(terminal_bar):
    result = invoke("count", *[a for a in TINY if a != "--quiet"], "-f", "json")
    advantage = json.loads(result.stdout)["results"]["advantage"]["initial_bet"]["mean"]
    bar = [part for part in result.stderr.split("\r") if "counter's advantage" in part][-1]
    assert f"counter's advantage {100 * advantage:+.3f}%" in bar


def test_a_plan_without_a_bankroll_says_so():
    # hi-lo-flat has none: the table read "bankroll for the risk of ruin: - units".
    out = invoke("count", "--plan", "hi-lo-flat", *TINY).stdout
    assert "no bankroll given for the risk of ruin (--bankroll, or the plan's bankroll)." in out
    assert "bankroll for the risk of ruin: 250 units." in invoke(
        "count", "--plan", "hi-lo-flat", "--bankroll", "250", *TINY).stdout


def test_shipped_index_plays_under_other_rules_say_they_were_derived_for_nz(tmp_path):
    # hi-lo-nz under H17 (or a US game) was played without a word that its indices were
    # derived for the NZ rules; the report's counting section said nothing either
    from simulator import count_runs
    from simulator.plans import load_plan
    from simulator.rules import Rules

    args = ["count", "--rounds", "2000", "--chunk-rounds", "2000", "--strategy", "basic"]
    h17 = CliRunner().invoke(cli, [*args, "--set", "dealer_hits_soft_17=true"])
    assert h17.exit_code == 0, h17.output
    assert ("bjsim: the index plays hi-lo-nz were derived for the NZ rules; these rules differ "
            "(dealer_hits_soft_17=true)") in h17.stderr
    nz = CliRunner().invoke(cli, [*args, "--set", "penetration=0.8"])  # no chart key changed
    assert nz.exit_code == 0 and "index plays" not in nz.stderr
    # every format keeps it, -q or not (with -q nothing said it)
    quiet = [*args, "--set", "dealer_hits_soft_17=true", "-q"]
    said = h17.stderr.split("bjsim: ", 2)[1].splitlines()[0]
    assert f"\nNote:      {said}\n" in CliRunner().invoke(cli, quiet).stdout
    doc = json.loads(CliRunner().invoke(cli, [*quiet, "-f", "json"]).stdout)
    assert doc["run"]["indices_note"] == said
    rows = list(csv.DictReader(io.StringIO(CliRunner().invoke(cli, [*quiet, "-f", "csv"]).stdout)))
    assert [r["value"] for r in rows if r.get("item") == "indices_note"] == [said]
    sweep = CliRunner().invoke(cli, [*quiet, "--penetrations", "0.6,0.8"]).stdout
    assert f"\nNote: {said}\n" in sweep
    assert json.loads(CliRunner().invoke(cli, [*args, "-q", "-f", "json"]).stdout)["run"][
        "indices_note"] is None
    plan = load_plan("hi-lo-1-12")
    h17_rules = Rules(dealer_hits_soft_17=True)
    shipped = ROOT / "strategies" / "indices" / "hi-lo-nz.toml"
    own = tmp_path / "mine.toml"
    own.write_text(shipped.read_text())
    # (a copy elsewhere is a file of the user's own, said by its description to be the NZ
    # game's: said too, since its description names other rules than these)
    for indices, said in (("hi-lo-nz", True), (str(shipped), True), (str(own), True)):
        path = tmp_path / "p.toml"
        path.write_text(f'count = "hi-lo"\nindices = "{indices}"\n[bet]\nbase = 1\n')
        note = count_runs.indices_note(h17_rules, load_plan(path))
        assert (note is not None) == said, indices
    assert count_runs.indices_note(Rules(), plan) is None


def test_a_sweep_plays_no_control_run_its_rows_would_not_show(monkeypatch):
    # Each penetration of a sweep also played the strategy alone at a flat bet (a third more
    # CPU), whose figures no row gives.
    from simulator import count_runs

    calls = []
    real = count_runs._control
    monkeypatch.setattr(count_runs, "_control", lambda *a: calls.append(a) or real(*a))
    args = ["count", "--rounds", "2000", "--chunk-rounds", "2000", "-q", "-f", "json"]
    sweep = json.loads(invoke(*args, "--penetrations", "0.6,0.8").stdout)
    assert [r["penetration"] for r in sweep["sweep"]] == [0.6, 0.8] and calls == []
    single = json.loads(invoke(*args).stdout)
    assert len(calls) == 1 and single["results"]["gain_over_basic"] is not None


KO_BOXES = ('name = "ko-test"\ncount = "ko"\ntable_max = 10\nbankroll = 400\n[bet]\nbase = 1\n'
            'steps = [[-1, 2], [1, 5], [3, 10]]\n[wong]\nenter = -2\nleave = -6\n[boxes]\n'
            'base = 1\nsteps = [[1, 2], [3, 3]]\n')


def test_the_csv_by_count_keeps_every_figure_and_the_table_gives_the_boxes(tmp_path):
    """csv's by_count rows lacked played_share, boxes_per_round_played and flat_boxes, which
    json has ("json and csv keep every figure"); and with a [boxes] ramp the table's average bet
    by count (all boxes together: 30.00 units with table_max 10) stood without the boxes."""
    plan = tmp_path / "ko.toml"
    plan.write_text(KO_BOXES)
    args = ["count", "--plan", plan, "--boxes", "3", *TINY]
    by = _json(*args)["results"]["by_count"]
    rows = list(csv.reader(io.StringIO(invoke(*args, "-f", "csv").stdout)))
    kept = {r[1] for r in rows if r[0] == "by_count"}
    assert set(by[0]) - {"count", "label", "counts", "flat_se", "counter_se",
                         "boxes_per_round_played_se"} == kept
    top = next(b for b in by if b["count"] >= 3 and b["played"])
    assert top["average_bet"] == 30 and top["boxes_per_round_played"] == 3
    table = invoke(*args).stdout
    head = next(ln for ln in table.splitlines() if ln.startswith("running count"))
    assert head.split()[-5:] == ["bet", "boxes", "counter", "adv.", "SE"], head
    assert "avg bet: the initial bets of a round played, all its boxes together" in table
    # a plan whose boxes do not change: no boxes column (nor a note of one left out)
    assert "boxes" not in invoke("count", "--plan", "hi-lo-1-12", *TINY).stdout.split(
        "By true count")[1].split("\n\n")[1]


def test_the_sweep_table_gives_the_played_share_and_average_bet_of_a_wonging_ramp(tmp_path):
    """The sweep's table and markdown never showed the share of rounds played (json's
    played_share), which decides what a wonging plan's penetration is worth per round dealt,
    nor the average bet."""
    plan = tmp_path / "ko.toml"
    plan.write_text(KO_BOXES)
    args = ["count", "--plan", plan, "--boxes", "3", "--penetrations", "0.6,0.9", *TINY]
    sweep = _json(*args)["sweep"]
    for fmt in ("table", "markdown"):
        text = invoke(*args, "-f", fmt).stdout
        assert "played" in text.split("\n\n")[1] and "avg bet" in text.split("\n\n")[1], text
        for r in sweep:
            assert f"{100 * r['played_share']:.1f}%" in text and f"{r['average_bet']:.2f}" in text
        assert "played: the share of rounds dealt the counter played (it wongs)" in text
    flat = invoke("count", "--plan", "hi-lo-flat", "--penetrations", "0.6,0.9", *TINY).stdout
    head = flat.split("\n\n")[1].splitlines()[0]
    assert "played" not in head and "avg bet" not in head and "avg bet" not in flat, head


def test_super_sevens_bet_is_refused_by_count_saying_the_plan_sets_the_stake(fake_engine):
    """``--set super_sevens_bet=5`` was listed as a change and played at the plan's [super_sevens]
    stake all the same."""
    line = is_one_line_error(invoke("count", "--plan", "sevens-super-sevens", "--set",
                                    "super_sevens_bet=5", *TINY))
    assert line == ("Error: --set super_sevens_bet: bjsim count does not use it: the plan's "
                    "[super_sevens] ramp sets the counter's Super Sevens stake by count (units): "
                    "allowed the stake by count in the plan's [super_sevens], not by --set, or "
                    "the side bet off (--no-super-sevens)"), line
    assert not fake_engine
    # a review: refused with the side bet off too, where the key has no effect (as a rule
    # file's is taken: docs/rules-format.md), and it said "allowed a plan with its own
    # [super_sevens]", which the sevens plan, refused so, has
    for off in (["--no-super-sevens"], ["--set", "super_sevens=false"]):
        result = invoke("count", "--plan", "hi-lo-flat", "--set", "super_sevens_bet=2", *off,
                        *TINY)
        assert result.exit_code == 0 and len(fake_engine) == 1, result.output
        fake_engine.clear()


def test_a_rule_files_super_sevens_bet_is_refused_by_count_as_set_is(tmp_path, fake_engine):
    """A rule file's ``super_sevens_bet = 2.0`` was named in the table's head ("Unlike NZ:
    super_sevens_bet=2.0") and played at the plan's [super_sevens] stake all the same, where
    ``--set super_sevens_bet`` is refused."""
    rules = tmp_path / "ss2.toml"
    rules.write_text("super_sevens = true\nsuper_sevens_bet = 2.0\n")
    line = is_one_line_error(invoke("count", "--plan", "sevens-super-sevens", "--rules", rules,
                                    *TINY))
    assert line == (f"Error: --rules {rules}: key 'super_sevens_bet' = 2.0: bjsim count does "
                    "not use it: the plan's [super_sevens] ramp sets the counter's Super Sevens "
                    "stake by count (units): allowed a rule file with super_sevens_bet = 1 "
                    "(its default) or without it, or the side bet off (super_sevens = false, "
                    "--no-super-sevens)"), line
    # a review: its value was said as 2.0 where the file wrote 2 (values are quoted as written),
    # and refused with the side bet off, where the key has no effect (docs/rules-format.md)
    rules.write_text("super_sevens = true\nsuper_sevens_bet = 2\n")
    assert "'super_sevens_bet' = 2: bjsim count" in is_one_line_error(
        invoke("count", "--plan", "hi-lo-flat", "--rules", rules, *TINY))
    assert not fake_engine
    result = invoke("count", "--plan", "hi-lo-flat", "--rules", rules, "--no-super-sevens",
                    *TINY)
    assert result.exit_code == 0 and len(fake_engine) == 1, result.output
    fake_engine.clear()
    rules.write_text("super_sevens = true\nsuper_sevens_bet = 2.0\n")
    assert "'super_sevens_bet' = 2.0" in is_one_line_error(
        invoke("count", "--plan", "hi-lo-flat", "--rules", rules, *TINY))  # (whatever the plan)
    assert not fake_engine
    rules.write_text("super_sevens = true\nsuper_sevens_bet = 1.0\n")  # its default: played
    result = invoke("count", "--plan", "sevens-super-sevens", "--rules", rules, *TINY)
    assert result.exit_code == 0, result.output
    assert len(fake_engine) == 1


def test_the_table_names_every_rule_unlike_nz_from_a_rule_file(tmp_path):
    # A rule file's 6:5 blackjack was in no line of count's head ("Rules: f.toml; 2 decks, ..."),
    # where simulate's table lists every key unlike the NZ rules.
    rules = tmp_path / "h65.toml"
    rules.write_text("decks = 2\ndealer_hits_soft_17 = true\nblackjack_pays = 1.2\n")
    result = invoke("count", "--plan", "hi-lo-flat", "--rules", rules, *TINY)
    assert result.exit_code == 0, result.output
    assert "Unlike nz1994: decks=2, blackjack_pays=1.2, dealer_hits_soft_17=true" in result.stdout
    plain = invoke("count", "--plan", "hi-lo-flat", "--set", "decks=2", *TINY)
    assert plain.exit_code == 0 and "Unlike nz1994" not in plain.stdout  # (--set's: in the title)


def test_a_set_key_of_no_effect_is_said_and_kept():
    # --set penetration=0.5 under shuffle=every-round was taken silently.
    why = 'shuffle = "every-round", no cut card'
    result = invoke("count", *TINY, "--set", "shuffle=every-round", "--set", "penetration=0.5",
                    "-f", "json")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        f"bjsim: warning: --set penetration=0.5 has no effect under these rules ({why}): every "
        "value of penetration gives the same figures"]
    assert json.loads(result.stdout)["run"]["no_effect"] == {"penetration": why}


def test_counts_csv_has_the_overrides_and_no_effect_rows_simulates_has():
    # count's csv had no run,overrides row (but in a sweep) and no run,no_effect row, though
    # its json has run.no_effect and simulate's csv has both rows: now as simulate's writes them.
    rules = ["--set", "hole_card=peek", "--set", "dealer_blackjack_takes=all"]

    def run_rows(*args):
        result = invoke(*args, *TINY, *rules, "-f", "csv")
        assert result.exit_code == 0, result.output
        return {r["item"]: r["value"] for r in csv.DictReader(io.StringIO(result.stdout))
                if r["section"] == "run" and r["item"] in ("overrides", "no_effect")}

    simulate = run_rows("simulate")
    assert simulate == {
        "overrides": 'hole_card="peek"; dealer_blackjack_takes="all"',
        "no_effect": 'dealer_blackjack_takes: hole_card = "peek", a dealer blackjack ends the '
                     "round before any double or split"}
    assert run_rows("count") == simulate
    assert run_rows("count", "--penetrations", "0.6,0.7") == simulate


def test_counts_csv_has_the_version_row_simulates_has():
    # a review: count's csv had no run,bjsim row, where simulate's, exact's and the report's
    # csvs carry the version: now first of the run rows, as simulate's, in a sweep too
    def run_rows(*args):
        result = invoke(*args, *TINY, "-f", "csv")
        assert result.exit_code == 0, result.output
        return [r for r in csv.DictReader(io.StringIO(result.stdout)) if r["section"] == "run"]

    for args in (["simulate"], ["count"], ["count", "--penetrations", "0.6,0.7"]):
        rows = run_rows(*args)
        assert (rows[0]["item"], rows[0]["value"]) == ("bjsim", __version__), args
        assert [r["item"] for r in rows].count("bjsim") == 1


def test_an_se_the_plan_fixes_at_0_is_shown_as_none_in_the_tables(tmp_path):
    # The boxes' SE read 0.000 at every count where the plan fixes the boxes, though the note
    # under the table says none is shown where it is 0
    path = tmp_path / "plan.toml"
    path.write_text('name = "ko-rc"\ncount = "ko"\ntable_min = 5\ntable_max = 100\n[bet]\n'
                    'base = 5\nsteps = [[-4, 10], [-2, 25], [0, 50], [2, 100]]\n[wong]\n'
                    'enter = -6\nleave = -8\n[boxes]\nbase = 1\nsteps = [[0, 2], [2, 3]]\n')
    args = ["--plan", path, "--boxes", 3, "--rounds", 40_000, "--chunk-rounds", 4000, "-q"]
    for fmt in ("table", "markdown"):
        out = invoke("count", *args, "-f", fmt).stdout
        assert "none shown where it is 0" in out
        assert not re.search(r"(^|[ |])0\.000( |\||$)", out, re.M), out
    doc = json.loads(invoke("count", *args, "-f", "json").stdout)["results"]
    assert {b["boxes_per_round_played_se"] for b in doc["by_count"]} <= {0.0, None}
    from simulator.assessment.sections import fmt  # (the report's tables, likewise)

    assert fmt(0.0, "se:num3") == "-" and fmt(0.0123, "se:num3") == "0.012"
    assert fmt(0, "se:pct2") == "-" and fmt(None, "se:pct2") == "-"


def test_a_counter_that_plays_no_round_has_no_gain_and_no_kind_of_se(tmp_path):
    # wonging in at +30, never reached: the json said the gain over the control run (null) had
    # an SE of "the two runs taken as independent" and the gain over flat (null) a "paired"
    # one, where the same plan played reads "paired: no index plays and fixed boxes"
    path = tmp_path / "never.toml"
    path.write_text('count = "hi-lo"\ntable_max = 4\n[bet]\nbase = 1\nsteps = [[2, 2]]\n'
                    '[wong]\nenter = 30\nleave = -1\n')
    doc = json.loads(invoke("count", "--plan", path, "--rounds", 4000, "-q", "-f", "json").stdout)
    r = doc["results"]
    assert r["rounds_played"] == 0 and r["basic"] is not None
    said = "none: the counter played no round, so there is no gain and no SE"
    assert r["gain_over_flat_se_kind"] == r["gain_over_basic_se_kind"] == said
    assert r["gain_over_flat"] is r["gain_over_basic"] is r["gain_over_basic_se"] is None
    rows = {row["item"]: row for row in csv.DictReader(io.StringIO(invoke(
        "count", "--plan", path, "--rounds", 4000, "-q", "-f", "csv").stdout))}
    assert rows["gain_over_basic_se_kind"]["value"] == said
    assert ("control run): none (the counter played no round); over flat betting with the "
            "counter's play: none (the counter played no round)") in invoke(
        "count", "--plan", path, "--rounds", 4000, "-q").stdout


def test_the_table_by_count_says_its_true_count_rows_are_floored(tmp_path):
    # row +1 holds true counts from +1 up to +2: said only in docs/counting.md
    said = "each row the true count floored: +1 holds every count from +1 up to, not including, +2"
    for fmt in ("table", "markdown"):
        out = " ".join(invoke("count", "--plan", "hi-lo-flat", "--rounds", 4000, "-q", "-f",
                              fmt).stdout.split())
        assert said in out
    path = tmp_path / "ko.toml"  # (by the running count, a whole number: nothing to floor)
    path.write_text('count = "ko"\n[bet]\nbase = 1\n')
    assert "floored" not in invoke("count", "--plan", path, "--rounds", 4000, "-q").stdout
    from simulator.assessment import render, sections
    from simulator.assessment.figures import Spec, counting_figures
    from simulator.rules import Rules

    data = {"strategy": "basic", "counting": counting_figures(
        Spec(Rules(), count_plan="hi-lo-flat", count_rounds=4000), print, True)}
    assert said in " ".join(render.to_markdown("t", [sections.counting(data)]).split())


def test_a_counter_that_plays_no_round_says_why_its_figures_are_empty(tmp_path):
    # wonging in at +900: every figure of the counter's bets was null with no note saying why
    path = tmp_path / "never.toml"
    path.write_text('count = "hi-lo"\ntable_max = 8\n[bet]\nbase = 1\nsteps = [[2, 4]]\n'
                    '[wong]\nenter = 900\nleave = -1\n')
    said = ("the counter played no round (its wonging in at +900 was never reached): the "
            "figures of its bets are empty; the flat figures (every box dealt at one unit) stand")
    doc = json.loads(invoke("count", "--plan", path, "--rounds", 4000, "-q", "-f", "json").stdout)
    assert doc["results"]["rounds_played"] == 0 and doc["results"]["no_play_note"] == said
    assert f"Note: {said}." in invoke("count", "--plan", path, "--rounds", 4000, "-q").stdout
    played = json.loads(invoke("count", "--rounds", 4000, "-q", "-f", "json").stdout)
    assert played["results"]["no_play_note"] is None
    from simulator.assessment import render, sections
    from simulator.assessment.figures import Spec, counting_figures
    from simulator.rules import Rules

    data = {"strategy": "basic", "counting": counting_figures(
        Spec(Rules(), count_plan=str(path), count_rounds=4000), print, True)}
    assert f"Note: {said}." in " ".join(render.to_markdown("t", [sections.counting(data)]).split())


@pytest.mark.parametrize("sweep", [[], ["--penetrations", "0.6,0.8"]])
def test_csv_names_the_plan_and_strategy_files_read(tmp_path, monkeypatch, sweep):
    # A reviewer: count's csv said plan "mine" and strategy "mybasic" with their hashes, but not
    # the files they came from (json has plan.source and run.strategy_files; simulate's csv its
    # strategy_files row), so neither name could re-run it
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.toml").write_text((ROOT / "strategies/plans/hi-lo-1-12.toml").read_text()
                                        .replace('name = "hi-lo-1-12"', 'name = "mine"'))
    (tmp_path / "mys.toml").write_text((ROOT / "strategies/basic.toml").read_text()
                                       .replace('name = "basic"', 'name = "mybasic"'))
    args = ("count", "--plan", "mine.toml", "--strategy", "mys.toml", *TINY, *sweep)
    rows = list(csv.DictReader(io.StringIO(invoke(*args, "-f", "csv").stdout)))
    run = {r["item"]: r["value"] for r in rows if r["section"] == "run"}
    assert run["plan"] == "mine" and run["plan_source"] == "mine.toml"
    assert run["strategy"] == "mybasic" and run["strategy_files"] == "mybasic: mys.toml"
    assert json.loads(invoke(*args, "-f", "json").stdout)["run"]["strategy_files"] == {
        "mybasic": "mys.toml"}


def test_json_and_csv_name_each_file_the_plan_read_by_its_sha256(tmp_path):
    """The plan, its count system and its index plays: an index file edited in place (its name
    and path the same) gave the same json and csv but for the figures."""
    import hashlib

    idx = tmp_path / "mine.toml"
    idx.write_text((ROOT / "strategies/indices/hi-lo-nz.toml").read_text())
    plan = tmp_path / "plan.toml"
    plan.write_text((ROOT / "strategies/plans/hi-lo-1-12.toml").read_text().replace(
        'indices = "hi-lo-nz"', f'indices = "{idx}"'))

    def files():
        doc = json.loads(invoke("count", "--plan", plan, *TINY, "-f", "json").stdout)
        rows = list(csv.DictReader(io.StringIO(invoke("count", "--plan", plan, *TINY,
                                                      "-f", "csv").stdout)))
        got = {f["what"]: f["sha256"] for f in doc["results"]["plan"]["files"]}
        assert {r["item"]: r["value"] for r in rows if r["item"].startswith("plan_file_sha256:")
                } == {f"plan_file_sha256:{w}": h for w, h in got.items()}
        return got

    before = files()
    read = {"plan": plan, "count system": ROOT / "strategies/counts/hi-lo.toml",
            "index plays": idx}
    assert before == {w: hashlib.sha256(p.read_bytes()).hexdigest() for w, p in read.items()}
    idx.write_text(idx.read_text() + "\n# edited\n")
    after = files()
    assert after["index plays"] != before["index plays"]
    assert after["plan"] == before["plan"] and after["count system"] == before["count system"]


def test_a_super_sevens_bettors_risk_of_ruin_comes_from_the_distribution_of_its_nets():
    # It was withheld (the diffusion formula counts the big pays' variance as risk). The real
    # engine: the sevens plan's rounds by their net give exp(-R B) with its interval, and the
    # Hi-Lo plan's (no Super Sevens bets) keep the diffusion formula.
    from simulator import counting_report as CR

    args = ["--rounds", "3_000_000", "--chunk-rounds", "1_000_000", "--seed", "3", "--quiet"]
    doc = _json("count", "--plan", "sevens-super-sevens", "--strategy", "basic-super-sevens",
                *args, "--bankroll", "500")
    p = doc["results"]["per_round_played"]
    assert p["risk_of_ruin_method"] == "net distribution" and p["risk_of_ruin_note"] is None
    mean, sd = p["mean"], p["sd"]
    diffusion = math.exp(-2 * mean * 500 / sd**2)
    assert 0 < p["risk_of_ruin"] < diffusion / 2, (p["risk_of_ruin"], diffusion)
    text = invoke("count", "--plan", "sevens-super-sevens", "--strategy", "basic-super-sevens",
                  *args, "--bankroll", "500").stdout
    assert f"The risk of ruin is {CR.RUIN_FROM_NETS}." in text
    assert "not given where the counter bets Super Sevens" not in text
    assert CR.RUIN_DIFFUSION not in text
    hilo = _json("count", "--plan", "hi-lo-1-12", *args)["results"]["per_round_played"]
    assert hilo["risk_of_ruin_method"] == "diffusion"
    assert hilo["risk_of_ruin"] == math.exp(-2 * hilo["mean"] * 1000 / hilo["sd"] ** 2)


def test_a_shipped_plan_is_named_as_a_shipped_rule_set_is(monkeypatch):
    """count's json named a shipped plan by its absolute path (results.plan.source), where the
    rules are configs/nz1994.toml (a pipeline's review): relative to bjsim's folder."""
    install_fake_engine(monkeypatch)
    result = invoke("count", "--plan", "hi-lo-1-12", *TINY, "-f", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["results"]["plan"]["source"] == "strategies/plans/hi-lo-1-12.toml"
    assert doc["run"]["rules_file"] == "configs/nz1994.toml"


def test_a_table_with_more_boxes_than_the_plan_plays_says_so_in_every_format():
    # A casino analyst's review: count --boxes 3 with a one-box plan gave the one-box figures
    # under "modified: boxes=3", the plan's limit said on stderr alone (not with -q, not in json).
    words = ("the plan plays 1 box a round at most (its [boxes] table); the rule set's 3 is only "
             "the most it may")
    assert _json("count", *TINY, "--boxes", "3")["run"]["boxes_note"] == words
    assert _json("count", *TINY)["run"]["boxes_note"] is None
    text = invoke("count", *TINY, "--boxes", "3").stdout
    assert f"Note:      {words}" in text
    rows = list(csv.DictReader(io.StringIO(invoke("count", *TINY, "--boxes", "3", "-f",
                                                  "csv").stdout)))
    assert {r["item"]: r["value"] for r in rows}["boxes_note"] == words
    sweep = invoke("count", *TINY, "--boxes", "3", "--penetrations", "0.6,0.9").stdout
    assert f"Note: {words}" in sweep


def test_the_counters_run_and_its_control_each_have_a_named_bar_and_time(monkeypatch):
    # count drew a "bjsim" bar to 100% for the counter's run, then a second "bjsim" bar from 0%
    # for the control run, nothing saying which; the one time said was the counter's run's
    bars = []
    real = run_mod.compile_then_bar

    def named(*args, **options):
        bars.append(options["desc"])
        return real(*args, **options)

    monkeypatch.setattr(run_mod, "compile_then_bar", named)
    result = CliRunner().invoke(cli, ["count", "-n", "4000", "--chunk-rounds", "2000"])
    assert result.exit_code == 0, result.output
    assert bars == ["bjsim: counter's run", "bjsim: control run (the strategy alone at a flat "
                    "bet)"]  # (as stderr names them: a last read)
    said = [ln for ln in result.stderr.replace("\r", "\n").splitlines() if " rounds in " in ln]
    assert [ln.split(": 4,000 rounds in ")[0] for ln in said] == [
        "bjsim: counter's run", "bjsim: control run (the strategy alone at a flat bet)"], said


def test_a_shoe_that_runs_out_mid_round_is_said_by_count_its_sweep_and_json(tmp_path):
    """Seven boxes dealt to penetration 0.95: the shoe runs out in some rounds (as simulate's
    shoe line says); count said nothing of it. Its text, json (``shoe``), csv and the sweep's
    note at that penetration (not at 0.75) say how many."""
    path = tmp_path / "seven.toml"
    path.write_text('name = "seven"\ncount = "hi-lo"\ntable_max = 10\n[bet]\nbase = 1\n'
                    "[boxes]\nbase = 7\n")
    args = ("count", "--plan", path, "--boxes", "7", "--rounds", "20000", "--seed", "3", "-q")
    doc = json.loads(invoke(*args, "--set", "penetration=0.95", "-f", "json").stdout)
    shoe = doc["results"]["shoe"]
    assert 0 < shoe["refills"] < shoe["shuffles"], shoe
    text = invoke(*args, "--set", "penetration=0.95").stdout
    assert (f"Note: the shoe ran out in {shoe['refills']:,} rounds ({shoe['refills']:,} of its "
            f"{shoe['shuffles']:,} shuffles came mid-round): the discards were shuffled and "
            "dealt on, the count going on from the round's cards already dealt") in text
    rows = list(csv.DictReader(io.StringIO(invoke(*args, "--set", "penetration=0.95", "-f",
                                                  "csv").stdout)))
    assert {r["item"]: r["value"] for r in rows if r["section"] == "shoe"} == {
        "shuffles": str(shoe["shuffles"]), "refills": str(shoe["refills"])}
    assert "ran out" not in invoke(*args).stdout  # (0.75: none)
    sweep = invoke(*args, "--penetrations", "0.75,0.95")
    assert sweep.exit_code == 0, sweep.output
    notes = [ln for ln in sweep.stdout.splitlines() if "the shoe ran out in" in ln]
    assert len(notes) == 1 and notes[0].startswith("At penetration 0.95: the shoe ran out in")
    row = json.loads(invoke(*args, "--penetrations", "0.75,0.95", "-f", "json").stdout)
    assert [r["refills"] == 0 for r in row["sweep"]] == [True, False], row
    # the report's counting section says it too, of the run and of the sweep's row
    from simulator.assessment import render, sections

    md = " ".join(render.to_markdown("t", [sections.counting({"strategy": "basic", "counting": {
        "plan": "seven", "figures": doc["results"], "sweep": row["sweep"]}})]).split())
    assert f"Note: the shoe ran out in {shoe['refills']:,} rounds" in md
    assert md.count("At penetration 0.95 the shoe ran out in") == 1
    assert "At penetration 0.75 the shoe ran out" not in md


def test_count_from_fewer_than_30_rounds_gives_no_se_or_interval_as_simulate():
    # `count --rounds 2` gave SE 1.0 and ± 1.96 intervals (advantage, flat, win per 100 rounds,
    # SCORE, N0, the gain over flat) where simulate withholds its house edge's: now none, saying
    # why; from 30 rounds every one (seed 3: the 2 rounds' nets differ, so not for want of spread)
    args = ["count", "--rounds", "2", "--seed", "3", "--quiet"]
    note = "too few rounds for a meaningful interval: 2 rounds, fewer than 30"
    f = _json(*args)["results"]
    p = f["per_round_played"]
    assert p["sd"] > 0 and p["interval_note"] == note
    assert [k for k in p if k.endswith(("se", "_ci95_low", "_ci95_high")) and p[k] is not None
            ] == []
    for fig in (f["advantage"]["initial_bet"], f["advantage"]["total_bet"], f["flat"]):
        assert fig["mean"] is not None and (fig["se"], fig["ci95_low"]) == (None, None)
        assert fig["interval_note"] == note
    for over in ("flat", "basic"):
        assert f[f"gain_over_{over}"] is not None and f[f"gain_over_{over}_se"] is None
        assert f[f"gain_over_{over}_ci95_low"] is None
    text = invoke(*args).stdout
    assert "±" not in text and "(95%, paired)" not in text
    assert "(no interval: too few rounds)" in text
    assert f"the win per 100 rounds, SCORE, N0 or the risk of ruin: {note}." in text
    enough = _json("count", "--rounds", "30", "--seed", "3", "--quiet")["results"]
    assert enough["per_round_played"]["interval_note"] is None
    for fig in (enough["advantage"]["initial_bet"], enough["advantage"]["total_bet"],
                enough["flat"], enough["per_round_played"]):
        assert fig["se"] is not None
    assert enough["gain_over_flat_se"] is not None


def test_csv_gives_the_boxes_and_sd_of_the_flat_and_basic_figures():
    # json's flat.n, flat.sd, basic.n, basic.sd and super_sevens.flat.n had no csv row
    args = ("count", "--plan", "hi-lo-flat", "-n", "2000", "--chunk-rounds", "1000", "-q")
    doc = json.loads(invoke(*args, "-f", "json").stdout)["results"]
    rows = {(r["section"], r["item"]): r["value"] for r in csv.DictReader(io.StringIO(
        invoke(*args, "-f", "csv").stdout))}
    assert int(rows[("advantage", "flat_n")]) == doc["flat"]["n"] == 2000
    assert float(rows[("advantage", "flat_sd")]) == doc["flat"]["sd"]
    assert int(rows[("advantage", "basic_n")]) == doc["basic"]["n"]
    assert float(rows[("advantage", "basic_sd")]) == doc["basic"]["sd"]
    assert int(rows[("super_sevens", "flat_n")]) == doc["super_sevens"]["flat"]["n"]


def test_an_index_file_is_named_by_its_own_name_beside_its_file(tmp_path):
    # An index reviewer: the Plan line and json named a plan's index file by its path alone,
    # never by the set's own name (a count file is shown by its name, the file in brackets)
    from simulator.index_plays import INDEX_DIR

    mine = tmp_path / "mine.toml"
    mine.write_text((INDEX_DIR / "hi-lo-nz.toml").read_text().replace(
        'name = "hi-lo-nz"', 'name = "my-nz-set"'))
    plan = tmp_path / "p.toml"
    plan.write_text(f'name = "p"\ncount = "hi-lo"\nindices = "{mine.as_posix()}"\n'
                    "[bet]\nbase = 1\n")
    out = invoke("count", "--plan", plan, "--rounds", "2000", "-q")
    assert out.exit_code == 0, out.output
    assert f"index plays: my-nz-set ({mine.as_posix()})" in out.stdout
    doc = json.loads(invoke("count", "--plan", plan, "--rounds", "2000", "-q", "-f",
                            "json").stdout)
    assert doc["results"]["plan"]["indices_name"] == "my-nz-set"


def test_an_own_index_file_derived_for_other_rules_is_said_to_be(tmp_path):
    # An index reviewer: only the shipped hi-lo-nz was said to be derived for other rules; a
    # counter's own file for the US game, played in the NZ game, passed without a word
    from simulator.counting import load_count
    from simulator.exact import indices as X
    from simulator.rules import Rules

    us = Rules(hole_card="peek", double_on="any", max_hands=4, super_sevens=False)
    hi = load_count("hi-lo")
    plays = [{"name": "insurance", "chart": "insurance", "row": "insurance", "up": "A",
              "below": "N", "at_or_above": "Y", "index": 3, "crossing": 2.74}]
    mine = tmp_path / "us.toml"
    mine.write_text(X.dumps_indices(plays, "hi-lo-us", us, hi, 3.0))
    plan = tmp_path / "p.toml"
    plan.write_text(f'name = "p"\ncount = "hi-lo"\nindices = "{mine.as_posix()}"\n'
                    "[bet]\nbase = 1\n")
    doc = json.loads(invoke("count", "--plan", plan, "--rounds", "2000", "-q", "-f",
                            "json").stdout)
    assert doc["run"]["indices_note"] == (
        "the index plays hi-lo-us (us.toml) were derived for 6 decks, hole card peek, S17, "
        "double any, max_hands 4; these rules are 6 decks, hole card none, dealer blackjack "
        "takes original-and-busted, S17, double hard, which can move the indices: bjsim "
        "strategy indices derives them for these rules")
    same = json.loads(invoke("count", "--plan", plan, "--rounds", "2000", "-q", "-f", "json",
                             "--rules", "us-6deck-s17-das-peek").stdout)
    assert same["run"]["indices_note"] is None


def test_rounds_per_hour_adds_the_figures_an_hour_to_a_run_and_a_sweep(monkeypatch):
    install_fake_engine(monkeypatch, MAIN_MANY)
    doc = json.loads(invoke("count", *TINY, "--rounds-per-hour", "60", "-f", "json").stdout)
    h, w = doc["results"]["per_hour"], doc["results"]["per_round_watched"]
    assert h["rounds_per_hour"] == 60 and h["win"] == pytest.approx(60 * w["mean"])
    assert json.loads(invoke("count", *TINY, "-f", "json").stdout)["results"]["per_hour"] is None
    text = invoke("count", *TINY, "--rounds-per-hour", "1e2").stdout
    assert "Per hour at 100 rounds dealt an hour: win " in text
    sweep = invoke("count", *TINY, "--rounds-per-hour", "60", "--penetrations", "0.6,0.9")
    assert sweep.exit_code == 0, sweep.output
    assert "win/hour (95%)" in sweep.stdout and "N0 hours (95%)" in sweep.stdout
    assert "in units and hours at 60 rounds an hour" in sweep.stdout
    assert "win/hour" not in invoke("count", *TINY, "--penetrations", "0.6,0.9").stdout
    rows = json.loads(invoke("count", *TINY, "--rounds-per-hour", "60", "--penetrations",
                             "0.6,0.9", "-f", "json").stdout)["sweep"]
    assert [r["rounds_per_hour"] for r in rows] == [60, 60]
    assert rows[0]["per_hour_win"] == pytest.approx(60 * w["mean"])
    items = {(r["item"], r["penetration"]) for r in csv.DictReader(io.StringIO(invoke(
        "count", *TINY, "--rounds-per-hour", "60", "--penetrations", "0.6,0.9",
        "-f", "csv").stdout))}
    assert ("per_hour_win", "0.6") in items and ("per_hour_n0_hours", "0.9") in items


def test_the_sweeps_hour_columns_are_explained_whichever_are_shown(monkeypatch):
    """Every round played at 100 rounds an hour: win/hour is win/100's twin and left out, and
    the legend of the hour columns had gone with it (a review); at 1 round an hour, "1 round"
    and the win to its SE's two figures, not 0.01 ± 0.01."""
    from tests.test_counting_report import MAIN_MANY

    install_fake_engine(monkeypatch, [r for r in MAIN_MANY if r.get("played", True)])
    out = invoke("count", *TINY, "--rounds-per-hour", "100", "--penetrations", "0.6,0.9").stdout
    assert "win/hour (95%) (the same as win/100 (95%) in every row)" in out
    assert ("win/hour, SD/hour and N0 hours: in units and hours at 100 rounds an hour, the "
            "rounds dealt at the table") in out
    rows = json.loads(invoke("count", *TINY, "--rounds-per-hour", "1", "--penetrations",
                             "0.6,0.9", "-f", "json").stdout)["sweep"]
    out = invoke("count", *TINY, "--rounds-per-hour", "1", "--penetrations", "0.6,0.9").stdout
    assert "at 1 round an hour" in out
    from simulator.counting_report import hour_digits

    assert (hour_digits(0.0198), hour_digits(0.24), hour_digits(None)) == (3, 2, 2)
    d = hour_digits(rows[0]["per_hour_win_se"])
    assert f"{rows[0]['per_hour_win']:,.{d}f} ± " in out
    single = invoke("count", *TINY, "--rounds-per-hour", "1").stdout
    assert "Per hour at 1 round dealt an hour: win " in single


def test_a_plan_named_without_its_toml_suffix_is_pointed_to_its_file(tmp_path, monkeypatch,
                                                                      fake_engine):
    # A plan author's review: `--plan myplan` beside myplan.toml said only "unknown counting plan"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "myplan.toml").write_text('name = "myplan"\ncount = "hi-lo"\n[bet]\nbase = 1\n')
    line = is_one_line_error(invoke("count", "--plan", "myplan"))
    assert "unknown counting plan 'myplan': did you mean 'myplan.toml', the file? allowed" in line
    assert not fake_engine


def test_the_plans_warnings_are_kept_in_every_format_not_on_stderr_alone():
    # a casino manager's review: the warning that the shipped sevens plan bets where the house
    # has the edge under another pay table went to stderr only; the file handed on said nothing
    args = ["count", "--plan", "sevens-super-sevens", "--set",
            "super_sevens_pays=3,50,100,500,2000", "--rounds", "4000", "--chunk-rounds", "2000"]
    loud = CliRunner().invoke(cli, args)
    assert loud.exit_code == 0, loud.output
    said = [ln.removeprefix("bjsim: warning: ") for ln in loud.stderr.splitlines()
            if ln.startswith("bjsim: warning: ")]
    assert said and "the plan makes some bets where the house has the edge" in said[0]
    # the shipped plan named as the report names it, not by the checkout's path (a diff read)
    assert said[0].startswith("strategies/plans/sevens-super-sevens.toml: "), said[0]
    quiet = [*args, "-q"]
    text = CliRunner().invoke(cli, quiet).stdout
    assert all(f"\nWarning:   {w}\n" in text for w in said)
    md = CliRunner().invoke(cli, [*quiet, "-f", "markdown"]).stdout
    assert all(f"\nWarning:   {w}  \n" in md for w in said)
    doc = json.loads(CliRunner().invoke(cli, [*quiet, "-f", "json"]).stdout)
    assert doc["run"]["warnings"] == said
    rows = list(csv.DictReader(io.StringIO(CliRunner().invoke(cli, [*quiet, "-f", "csv"]).stdout)))
    assert [r["value"] for r in rows if r.get("item") == "warning"] == said
    sweep = CliRunner().invoke(cli, [*quiet, "--penetrations", "0.7,0.8"]).stdout
    assert "\nWarning: " in sweep and "some bets where the house has the edge" in sweep
    plain = json.loads(CliRunner().invoke(cli, ["count", "--rounds", "2000", "--chunk-rounds",
                                                "2000", "-q", "-f", "json"]).stdout)
    assert plain["run"]["warnings"] == []


def test_score_and_n0_say_they_count_the_super_sevens_pays_as_risk():
    # a casino manager's review: cutting the top pay raised SCORE 55% while the win fell, and
    # the risk of ruin was alike under both pay tables, with no word why
    from simulator.counting_report import SS_SCORE

    args = ["count", "--rounds", "4000", "--chunk-rounds", "2000", "-q", "--bankroll", "200"]
    sevens = CliRunner().invoke(cli, [*args, "--plan", "sevens-super-sevens"])
    assert sevens.exit_code == 0, sevens.output
    assert f"\nSCORE and N0 {SS_SCORE}.\n" in sevens.stdout
    assert "pay tables that differ in their top pays alone give about the same risk" in \
        sevens.stdout
    doc = json.loads(CliRunner().invoke(cli, [*args, "--plan", "sevens-super-sevens", "-f",
                                              "json"]).stdout)
    assert doc["results"]["per_round_played"]["score_sevens_note"] == f"SCORE and N0 {SS_SCORE}"
    sweep = CliRunner().invoke(cli, [*args, "--plan", "sevens-super-sevens", "--penetrations",
                                     "0.7,0.8"]).stdout
    assert f"SCORE and N0 {SS_SCORE}." in sweep
    hi_lo = CliRunner().invoke(cli, [*args, "--plan", "hi-lo-1-12"]).stdout
    assert "SCORE and N0 count as risk" not in hi_lo


def test_a_count_run_is_rebuilt_from_its_json_alone(tmp_path):
    """A reproducibility audit: count's json named a user's plan, count system and strategy by
    SHA-256 alone, which tells a file apart but cannot rebuild it. The json holds each file's
    text (``results.plan.files``, each where the plan names it) and each chart played
    (``strategy_charts``, as simulate's): with the originals gone, the files written back from
    the json alone give the same results."""
    from simulator.strategy import dumps_strategy, load_strategy

    count = tmp_path / "sevens-up.toml"
    count.write_text('name = "sevens-up"\ntags = [-1, 1, 1, 1, 1, 0, 1, 0, 0, -1]\n')
    plan = tmp_path / "mine.toml"
    plan.write_text(f'name = "mine"\ncount = "{count}"\ndeck_estimation = "whole"\n'
                    "table_max = 4\n[bet]\nbase = 1\nsteps = [[1, 2], [3, 4]]\n")
    chart = tmp_path / "chart.toml"
    chart.write_text(dumps_strategy(load_strategy("basic")).replace('name = "basic"',
                                                                    'name = "edited"')
                     .replace("12     H   H   S", "12     S   S   S", 1))
    args = ["count", "--plan", plan, "--strategy", chart, "--set", "decks=2", "--rounds",
            "40000", "--chunk-rounds", "10000", "--seed", "5", "-q", "-f", "json"]
    first = json.loads(invoke(*args).stdout)
    files = first["results"]["plan"]["files"]
    assert [f["what"] for f in files] == ["plan", "count system"]
    where = {"plan": first["results"]["plan"]["source"],
             "count system": first["results"]["plan"]["count"]}
    assert where == {"plan": str(plan), "count system": str(count)}
    (sha,) = first["strategy_sha256"]
    for path in (count, plan, chart):
        path.unlink()
    for f in files:
        Path(where[f["what"]]).write_text(f["text"])
        assert hashlib.sha256(f["text"].encode()).hexdigest() == f["sha256"]
    chart.write_text(first["strategy_charts"][sha])
    again = json.loads(invoke(*args).stdout)
    assert again["strategy_sha256"] == first["strategy_sha256"]
    assert again["results"] == first["results"]


def test_a_plan_file_with_a_comment_added_resumes(tmp_path, monkeypatch):
    """A plan file's text is in the json (to rebuild the run) but not in the checkpoint's
    identity: a comment added before the resume changes nothing played, and the run carries
    on (a file's bytes, as its SHA-256, are not what the checkpoint holds it to)."""
    from simulator import engine
    from tests.helpers import interrupt_after_first_chunk

    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.toml").write_text('count = "hi-lo"\ntable_max = 4\n[bet]\nbase = 1\n'
                                        'steps = [[2, 4]]\n')
    args = ["count", "--plan", "plan.toml", *TINY, "--workers", "1"]
    with monkeypatch.context() as mp:
        interrupt_after_first_chunk(mp, engine, "iter_job_chunks")
        cut = invoke(*args, "--checkpoint", "run.ckpt")
    assert cut.exit_code == 130, cut.output
    (tmp_path / "plan.toml").write_text("# a comment\n" + (tmp_path / "plan.toml").read_text())
    again = _json("count", "--resume", "run.ckpt", "-q")
    assert again["timing"]["resumed_rounds"] > 0
    assert again["results"]["plan"]["files"][0]["text"].startswith("# a comment\n")
