"""Checkpoints: resume after an interruption gives the uninterrupted result bit for bit (fixed
rounds and precision targets), a checkpoint of another run is refused with one line naming what
differs, writes are atomic, and the simulate options --checkpoint/--resume behave.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from simulator import atomic, engine
from simulator import checkpoint as C
from simulator import layout as L
from simulator.cli import cli
from simulator.rules import DEFAULT_RULES_PATH, Rules
from simulator.strategy import dumps_strategy, load_strategy

NZ = Rules()
BASIC = load_strategy("basic")
RUN = ["--rounds", "12_000", "--chunk-rounds", "1000", "--seed", "5", "-q", "-f", "json"]


def run_cli(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def ident(rules=NZ, strategy=BASIC, seed=5, chunk_rounds=1000, rounds=12_000, precision=None):
    return C.identity(rules, engine.stack_tables(rules, strategy), seed, chunk_rounds, rounds,
                      precision)


def play(state, seed=5, workers=2, stop_after=None):
    """Advance ``state``; with ``stop_after``, stop (as Ctrl-C would) after that many chunks."""
    gen = engine.advance(state, NZ, BASIC, seed, workers)
    for count, _ in enumerate(gen, 1):
        if stop_after is not None and count >= stop_after:
            break
    gen.close()
    return state


def assert_user_error(result, *words):
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert lines[-1].startswith("Error:") and "Traceback" not in result.output
    for w in words:
        assert w in lines[-1], (w, lines[-1])


# ---------------------------------------------------------------------------------------------
# Resume is bit-exact


@pytest.mark.parametrize("k", [1, 5, 11])
def test_interrupt_after_k_chunks_then_resume_is_bit_exact(tmp_path, k):
    whole = play(engine.RunState(12_000, 1000)).total()
    path = tmp_path / "run.ckpt"
    first = play(engine.RunState(12_000, 1000), stop_after=k)
    kept = first.prefix_end + len(first.extra)  # k, and the chunks in play at the stop
    assert kept >= k and first.total()[L.T_ROUNDS] == 1000 * kept
    C.save(path, ident(), first)
    again = engine.RunState(12_000, 1000)
    C.resume(path, ident(), again)
    assert again.total().tolist() == first.total().tolist()
    ran = [i for i, _ in engine.advance(again, NZ, BASIC, 5, 1)]
    assert not set(ran) & (set(range(first.prefix_end)) | set(first.extra))  # finished: skipped
    assert len(ran) == 12 - kept
    assert again.finished and np.array_equal(again.total(), whole)


def test_resume_with_a_precision_target_stops_at_the_same_chunk(tmp_path):
    whole = play(engine.RunState(60_000, 250, 0.06))
    assert whole.target_met
    path = tmp_path / "p.ckpt"
    first = play(engine.RunState(60_000, 250, 0.06), stop_after=whole.stop_chunk // 2)
    C.save(path, ident(chunk_rounds=250, rounds=60_000, precision=0.06), first)
    again = engine.RunState(60_000, 250, 0.06)
    C.resume(path, ident(chunk_rounds=250, rounds=60_000, precision=0.06), again)
    play(again, workers=1)
    assert again.stop_chunk == whole.stop_chunk
    assert np.array_equal(again.total(), whole.total())


def interrupted_after(chunks: int, real=None):
    """`engine.iter_chunks` (or ``real``: `engine.iter_job_chunks`) stopped by a Ctrl-C after
    ``chunks`` chunks."""
    real = engine.iter_chunks if real is None else real

    def interrupted(*args, **kwargs):
        gen = real(*args, **kwargs)
        for _ in range(chunks):
            yield next(gen)
        gen.close()
        raise KeyboardInterrupt

    return interrupted


def test_cli_ctrl_c_saves_and_resume_prints_the_uninterrupted_result(tmp_path, monkeypatch):
    whole = run_cli("simulate", *RUN)
    assert whole.exit_code == 0
    path = str(tmp_path / "cli.ckpt")
    real = engine.iter_chunks
    monkeypatch.setattr(engine, "iter_chunks", interrupted_after(3))
    cut = run_cli("simulate", *RUN, "--workers", "1", "--checkpoint", path)
    assert cut.exit_code == 130 and "--resume" in cut.stderr
    partial = json.loads(cut.stdout)
    done = partial["results"]["rounds"]  # 3 chunks, and a fourth if in play at the stop
    assert partial["run"]["partial"] is True and done in (3000, 4000)
    saved = json.load(open(path))
    assert saved["rounds_done"] == done and saved["finished"] is False
    monkeypatch.setattr(engine, "iter_chunks", real)

    resumed = run_cli("simulate", *RUN, "--checkpoint", path, "--resume")
    assert resumed.exit_code == 0
    a, b = json.loads(whole.stdout), json.loads(resumed.stdout)
    assert a["results"] == b["results"] and a["run"] == b["run"]
    assert b["timing"]["resumed_rounds"] == done
    assert json.load(open(path))["finished"] is True
    # a finished checkpoint resumes to the same report without playing anything
    again = run_cli("simulate", *RUN, "--checkpoint", path, "--resume")
    assert json.loads(again.stdout)["results"] == a["results"]


def test_resume_needs_only_the_checkpoint_the_options_of_the_run_are_kept_there(
        tmp_path, monkeypatch):
    """``--checkpoint FILE --resume`` alone carries on an interrupted run of other rules, boxes,
    strategy, seed, rounds and chunk size: the report is the uninterrupted run's, labels
    included (it refused: rounds is 12000 there, 10000000 here)."""
    run = [*RUN, "--set", "decks=8", "--boxes", "2", "--strategy", "basic"]
    whole = run_cli("simulate", *run)
    assert whole.exit_code == 0
    path = str(tmp_path / "run.ckpt")
    with monkeypatch.context() as mp:
        mp.setattr(engine, "iter_chunks", interrupted_after(1))
        assert run_cli("simulate", *run, "--workers", "1", "--checkpoint", path).exit_code == 130
    resumed = run_cli("simulate", "--checkpoint", path, "--resume", "-q", "-f", "json")
    assert resumed.exit_code == 0, resumed.output
    a, b = json.loads(whole.stdout), json.loads(resumed.stdout)
    assert 0 < b["timing"]["resumed_rounds"] < 12_000
    assert a["results"] == b["results"] and a["run"] == b["run"] and a["rules"] == b["rules"]
    assert b["run"]["rules_name"] == "nz1994 (modified: decks=8, boxes=2)"


def test_a_seed_no_float_holds_is_kept_in_the_checkpoint_and_resumed_exactly(tmp_path,
                                                                            monkeypatch):
    seed = str(2**64 - 1)  # (refused before it was kept: "allowed a whole number >= 0")
    run = [*RUN, "--seed", seed]
    whole = run_cli("simulate", *run)
    assert whole.exit_code == 0, whole.output
    path = str(tmp_path / "run.ckpt")
    with monkeypatch.context() as mp:
        mp.setattr(engine, "iter_chunks", interrupted_after(1))
        assert run_cli("simulate", *run, "--workers", "1", "--checkpoint", path).exit_code == 130
    saved = json.load(open(path))
    assert saved["identity"]["seed"] == int(seed), saved["identity"]
    resumed = run_cli("simulate", "--checkpoint", path, "--resume", "-q", "-f", "json")
    assert resumed.exit_code == 0, resumed.output
    a, b = json.loads(whole.stdout), json.loads(resumed.stdout)
    assert 0 < b["timing"]["resumed_rounds"] < 12_000
    assert a["results"] == b["results"] and a["run"] == b["run"]
    assert b["run"]["seed"] == int(seed)


def test_resume_of_a_set_spelt_otherwise_names_the_changes_as_the_rule_file_writes_them(
        tmp_path, monkeypatch):
    """A checkpoint keeps --set as typed (``dealer_hits_soft_17=no``, ``decks= 8``), as one
    written before the changes were named canonically did: resumed, the report is the
    uninterrupted run's and names only the change, as ``decks=8``."""
    run = [*RUN, "--set", "dealer_hits_soft_17=no", "--set", "decks= 8"]
    path = str(tmp_path / "run.ckpt")
    with monkeypatch.context() as mp:
        mp.setattr(engine, "iter_chunks", interrupted_after(1))
        assert run_cli("simulate", *run, "--workers", "1", "--checkpoint", path).exit_code == 130
    kept = json.load(open(path))["command"]["options"]["overrides"]
    assert kept == ["dealer_hits_soft_17=no", "decks= 8"]
    resumed = run_cli("simulate", "--checkpoint", path, "--resume", "-q", "-f", "json")
    assert resumed.exit_code == 0, resumed.output
    whole = json.loads(run_cli("simulate", *RUN, "--set", "decks=8").stdout)
    b = json.loads(resumed.stdout)
    assert 0 < b["timing"]["resumed_rounds"] < 12_000 and b["results"] == whole["results"]
    assert b["run"]["rules_name"] == whole["run"]["rules_name"] == "nz1994 (modified: decks=8)"
    assert b["run"]["overrides"] == ["decks=8"]
    # the same game spelt otherwise on the command line resumes it too
    again = run_cli("simulate", "--checkpoint", path, "--resume", "-q", "-f", "json",
                    "--set", "decks=8", "--set", "dealer_hits_soft_17=false")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["results"] == whole["results"]


@pytest.mark.parametrize("command", [
    ["simulate", "--precision", "0.05", "--max-rounds", "12_000", *RUN[2:]],
    ["count", "--plan", "hi-lo-flat", "--rounds", "4000", "--chunk-rounds", "1000", "--seed",
     "3", "-q", "-f", "json"],
    ["compare", "--vary-strategy", "mimic-dealer", "--rounds", "4000", "--chunk-rounds", "1000",
     "--seed", "3", "--no-exact", "-q", "-f", "json"],
], ids=["simulate-precision", "count", "compare"])
def test_every_command_with_resume_takes_its_options_from_the_checkpoint(tmp_path, command):
    path = str(tmp_path / "run.ckpt")
    whole = run_cli(*command, "--checkpoint", path)
    assert whole.exit_code == 0, whole.output
    extra = ["--no-exact"] if command[0] == "compare" else []
    again = run_cli(command[0], "--checkpoint", path, "--resume", "-q", "-f", "json", *extra)
    assert again.exit_code == 0, again.output
    a, b = json.loads(whole.stdout), json.loads(again.stdout)
    a.pop("timing"), b.pop("timing")
    assert a == b


def test_a_resume_from_another_folder_finds_the_rule_files(tmp_path, monkeypatch):
    """The checkpoint keeps a rule file given by a relative path as its absolute path, and a
    shipped one by its name under configs/, so a resume from another folder finds both."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "mine.toml").write_text(DEFAULT_RULES_PATH.read_text())
    for rules, kept in (("mine.toml", str(tmp_path / "a" / "mine.toml")),
                        ("nz1994-8deck", "configs/nz1994-8deck.toml")):
        monkeypatch.chdir(tmp_path / "a")
        whole = run_cli("simulate", *RUN, "--rules", rules, "--checkpoint", "../run.ckpt")
        assert whole.exit_code == 0, whole.output
        assert json.load(open("../run.ckpt"))["command"]["options"]["rules_path"] == kept
        monkeypatch.chdir(tmp_path / "b")
        again = run_cli("simulate", "--resume", "../run.ckpt", "-q", "-f", "json")
        assert again.exit_code == 0, again.output
        assert json.loads(again.stdout)["results"] == json.loads(whole.stdout)["results"]
        os.unlink("../run.ckpt")


def test_a_resume_prints_the_report_as_typed_and_finds_a_strategy_file_anywhere(
        tmp_path, monkeypatch):
    """A resume printed the rule file by its absolute path (the uninterrupted run: as typed),
    and a strategy file given by a relative path was not found from another folder."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "mine.toml").write_text(DEFAULT_RULES_PATH.read_text())
    (tmp_path / "a" / "s.toml").write_text(dumps_strategy(load_strategy("mimic-dealer")))
    monkeypatch.chdir(tmp_path / "a")
    args = ("simulate", "--rounds", "12_000", "--chunk-rounds", "1000", "--seed", "5", "-q",
            "--rules", "mine.toml", "--strategy", "s.toml")
    whole = run_cli(*args, "--checkpoint", "run.ckpt")
    assert whole.exit_code == 0, whole.output
    again = run_cli("simulate", "--resume", "run.ckpt", "-q")
    assert again.stdout == run_cli(*args).stdout  # the same report, to the byte
    assert "(mine.toml)" in again.stdout and "s.toml" in again.stdout
    monkeypatch.chdir(tmp_path / "b")
    there = run_cli("simulate", "--resume", "../a/run.ckpt", "-q", "-f", "json")
    assert there.exit_code == 0, there.output
    here = run_cli(*args[:-4], "-f", "json", "--rules", "../a/mine.toml", "--strategy",
                   "../a/s.toml")
    assert json.loads(there.stdout)["results"] == json.loads(here.stdout)["results"]


@pytest.mark.parametrize("command", [
    ["simulate"],
    ["compare", "--variant", "configs/h17.toml", "--no-exact"],
    ["count", "--plan", "plans/flat.toml"],
])
def test_a_resume_from_another_folder_names_the_files_as_the_run_was_started(
        tmp_path, monkeypatch, command):
    """Resumed from another folder, a run named the files given by relative paths (rules,
    strategy, variant, plan) by the absolute paths it read them from, in its report and in the
    checkpoint it saved again; count refused to resume at all (its plan's source, part of the
    run, differed). Now the report is the uninterrupted run's, resumed once or twice."""
    a, b = tmp_path / "a", tmp_path / "b"
    for folder in (a / "configs", a / "strategies", a / "plans", b):
        folder.mkdir(parents=True)
    (a / "configs" / "mine.toml").write_text(DEFAULT_RULES_PATH.read_text())
    (a / "configs" / "h17.toml").write_text(
        '[variant]\nname = "h17"\n\n[changes]\ndealer_hits_soft_17 = true\n')
    (a / "strategies" / "s.toml").write_text(dumps_strategy(load_strategy("mimic-dealer")))
    (a / "plans" / "flat.toml").write_text(
        (DEFAULT_RULES_PATH.parent.parent / "strategies" / "plans" / "hi-lo-flat.toml")
        .read_text())
    args = [*command, "--rules", "configs/mine.toml", "--strategy", "strategies/s.toml",
            "--rounds", "4000", "--chunk-rounds", "1000", "--seed", "3", "-q", "-f", "json"]
    monkeypatch.chdir(a)
    whole = run_cli(*args, "--checkpoint", "run.ckpt")
    assert whole.exit_code == 0, whole.output
    expected = json.loads(whole.stdout)
    expected.pop("timing")
    assert "configs/mine.toml" in whole.stdout and str(a) not in whole.stdout
    monkeypatch.chdir(b)
    for _ in range(2):  # (the second from the checkpoint the first saved again)
        again = run_cli(command[0], "--resume", "../a/run.ckpt", "-q", "-f", "json",
                        *(["--no-exact"] if command[0] == "compare" else []))
        assert again.exit_code == 0, again.output
        got = json.loads(again.stdout)
        both = 2 if command[0] == "count" else 1  # (the counter's run and its control's)
        assert got.pop("timing")["resumed_rounds"] == 4000 * both
        assert got == expected


def _whole_then_stopped(monkeypatch, command, flags, chunks: str, path: str) -> dict:
    """The json (timing aside) of ``command`` run whole with ``flags``, then the same run
    without them stopped after its first chunk (exit 130) with its checkpoint at ``path``."""
    from tests.helpers import interrupt_after_first_chunk

    args = [*command, "--rounds", "20000", "--chunk-rounds", "5000", "--seed", "3",
            "--workers", "1", "-q", "-f", "json"]
    whole = run_cli(*args, *flags)
    assert whole.exit_code == 0, whole.output
    expected = json.loads(whole.stdout)
    expected.pop("timing")
    interrupt_after_first_chunk(monkeypatch, engine, chunks)
    assert run_cli(*args, "--checkpoint", path).exit_code == 130
    monkeypatch.undo()
    return expected


@pytest.mark.parametrize(("command", "chunks"), [
    (["simulate", "--exact"], "iter_chunks"),
    (["compare", "--vary", "decks=8", "--no-exact"], "iter_job_chunks"),
    (["count", "--optimal-bets", "--kelly-fraction", "0.5"], "iter_job_chunks"),
])
def test_a_resume_keeps_the_options_of_what_the_result_holds(tmp_path, monkeypatch, command,
                                                              chunks):
    """A review: compare --no-exact stopped by Ctrl-C (exit 130) and resumed by --resume FILE
    alone printed the exact columns, having computed them: not the uninterrupted run's output.
    simulate --exact left its exact figures out so, and count --optimal-bets its section (and
    the --kelly-fraction with it). The checkpoint keeps them; given again, they agree."""
    path = str(tmp_path / "run.ckpt")
    expected = _whole_then_stopped(monkeypatch, command, (), chunks, path)
    saved = json.load(open(path))["command"]["options"]
    assert all(saved[n] in (True, "0.5") for n in ("with_exact", "no_exact", "optimal_bets",
                                                   "kelly_fraction") if n in saved)
    for again in ([], command[-2:] if command[0] == "count" else command[-1:]):
        resumed = run_cli(command[0], "--resume", path, *again, "-q", "-f", "json")
        assert resumed.exit_code == 0, resumed.output
        got = json.loads(resumed.stdout)
        got.pop("timing")
        assert got == expected, again


@pytest.mark.parametrize(("command", "flags", "chunks", "said"), [
    (["simulate"], ["--exact"], "iter_chunks",
     "--exact given for a run made without it is taken"),
    (["compare", "--vary", "decks=8"], ["--no-exact"], "iter_job_chunks",
     "--no-exact given for a comparison made without it is taken"),
    (["count"], ["--optimal-bets", "--kelly-fraction", "0.5"], "iter_job_chunks",
     "--optimal-bets and --kelly-fraction given are taken"),
])
def test_a_flag_of_what_the_result_holds_given_on_a_resume_is_taken(tmp_path, monkeypatch,
                                                                    command, flags, chunks, said):
    """The --resume help said such a flag (kept in FILE) "given that changes the run is
    refused": given on the resume of a run made without it, it is taken, the result the one of
    an uninterrupted run made with it; the help says so."""
    path = str(tmp_path / "run.ckpt")
    expected = _whole_then_stopped(monkeypatch, command, flags, chunks, path)
    resumed = run_cli(command[0], "--resume", path, *flags, "-q", "-f", "json")
    assert resumed.exit_code == 0, resumed.output
    got = json.loads(resumed.stdout)
    got.pop("timing")
    assert got == expected
    text = " ".join(run_cli(command[0], "--help").stdout.split())
    assert said in text and "kept in FILE" in text and "cannot be dropped" in text, text


def test_a_resumed_compare_names_its_variant_files_baseline_as_the_run_was_started(
        tmp_path, monkeypatch):
    """A compare whose baseline is the one its variant file names (no --rules) named it by its
    absolute path when resumed from another folder (the uninterrupted run: from the folder it
    was started in, cfg/base.toml), from a folder above as from one beside it."""
    a, b = tmp_path / "a", tmp_path / "b"
    (a / "cfg").mkdir(parents=True)
    b.mkdir()
    (a / "cfg" / "base.toml").write_text(DEFAULT_RULES_PATH.read_text())
    (a / "cfg" / "var.toml").write_text('[variant]\nname = "h17"\nbaseline = "base.toml"\n\n'
                                        '[changes]\ndealer_hits_soft_17 = true\n')
    monkeypatch.chdir(a)
    whole = run_cli("compare", "--variant", "cfg/var.toml", "--rounds", "2000", "--chunk-rounds",
                    "1000", "--no-exact", "-q", "-f", "json", "--checkpoint", "run.ckpt")
    assert whole.exit_code == 0, whole.output
    expected = json.loads(whole.stdout)
    expected.pop("timing")
    assert expected["baseline"]["source"] == "cfg/base.toml"
    for folder, ckpt in ((b, "../a/run.ckpt"), (tmp_path, "a/run.ckpt")):
        monkeypatch.chdir(folder)
        again = run_cli("compare", "--resume", ckpt, "-q", "-f", "json", "--no-exact")
        assert again.exit_code == 0, again.output
        got = json.loads(again.stdout)
        got.pop("timing")
        assert got == expected


def test_a_refused_resume_names_the_options_behind_it(tmp_path):
    """An option given again replaces the checkpoint's whole (one --set of two: the refusal named
    only the other key); an option kept there can be what a given one clashes with."""
    path = str(tmp_path / "run.ckpt")
    two = ("--set", "decks=8", "--set", "dealer_hits_soft_17=true")
    assert run_cli("simulate", *RUN, *two, "--checkpoint", path).exit_code == 0
    assert_user_error(run_cli("simulate", "--resume", path, "--set", "decks=8"),
                      "rule 'dealer_hits_soft_17' is true there, false here",
                      "(given here in place of the checkpoint's: --set)")
    assert run_cli("simulate", "--resume", path, *two, "-q").exit_code == 0  # the same: no change
    prec = str(tmp_path / "prec.ckpt")
    assert run_cli("simulate", "--precision", "0.05", "--max-rounds", "4000", "--chunk-rounds",
                   "1000", "--checkpoint", prec, "-q").exit_code == 0
    assert_user_error(run_cli("simulate", "--resume", prec, "--rounds", "1000"),
                      "--rounds: not with --precision", "(--precision, --max-rounds: the "
                      "checkpoint's)")


@pytest.mark.parametrize("command", ["simulate", "count"])
def test_a_rule_given_again_in_its_other_form_is_taken_not_set_twice(tmp_path, command):
    # a checkpoint made with --boxes 7, resumed with --set boxes=7, said "--set boxes=7 and
    # --boxes: both set 'boxes': allowed one of them (--boxes: the checkpoint's)"
    args = [command, "--rounds", "4000", "--chunk-rounds", "2000", "-q", "-f", "json"]
    for made, again in [(["--boxes", "7"], ["--set", "boxes=7"]),
                        (["--set", "boxes=7", "--set", "decks=8"], ["--boxes", "7"])]:
        path = str(tmp_path / f"{made[0]}.ckpt")
        whole = run_cli(*args, *made, "--checkpoint", path)
        assert whole.exit_code == 0, whole.output
        resumed = run_cli(command, "--resume", path, *again, "-q", "-f", "json")
        assert resumed.exit_code == 0, resumed.output  # (decks=8 kept from the checkpoint)
        assert json.loads(resumed.stdout)["results"] == json.loads(whole.stdout)["results"]
    for made, again in [(["--set", "super_sevens=false"], ["--no-super-sevens"]),
                        (["--no-super-sevens"], ["--set", "super_sevens=false"])]:
        path = str(tmp_path / f"ss{made[0]}.ckpt")
        assert run_cli(*args, *made, "--checkpoint", path).exit_code == 0
        assert run_cli(command, "--resume", path, *again, "-q").exit_code == 0
    # another value in the other form: refused by the rule that differs
    assert_user_error(run_cli(command, "--resume", str(tmp_path / "--boxes.ckpt"), "--set",
                              "boxes=5"), "different run", "rule 'boxes' is 7 there, 5 here")


def test_a_refused_resume_names_a_flag_as_typed(tmp_path):
    # --no-super-sevens given again was named '--super-sevens'
    path = str(tmp_path / "run.ckpt")
    assert run_cli("simulate", *RUN, "--checkpoint", path).exit_code == 0
    assert_user_error(run_cli("simulate", "--resume", path, "--no-super-sevens"),
                      "rule 'super_sevens' is true there, false here",
                      "(given here in place of the checkpoint's: --no-super-sevens)")


@pytest.mark.parametrize("command", [["simulate"], ["compare", "--vary", "decks=8", "--no-exact"]])
def test_other_strategy_tables_name_a_counters_index_plays_only_for_a_count(tmp_path, command):
    # simulate and compare said "(--strategy, or a counter's index plays; ...)"
    path = str(tmp_path / "run.ckpt")
    assert run_cli(*command, "--rounds", "4000", "--chunk-rounds", "2000", "-q",
                   "--checkpoint", path).exit_code == 0
    refused = run_cli(command[0], "--resume", path, "--strategy", "mimic-dealer", "-q")
    assert_user_error(refused, "different run", "strategy tables differ (--strategy; with no "
                      "--strategy")
    assert "counter" not in refused.stderr
    # a count's: its index plays change the tables too
    counting = {"counting": {"name": "hi-lo-1-12"}}
    said = C._differs(ident() | counting, ident(strategy=load_strategy("mimic-dealer")) | counting)
    assert said.startswith("strategy tables differ (--strategy, or a counter's index plays; ")


def test_a_refused_resume_names_an_option_by_its_long_form(tmp_path):
    # --rounds given again was named '-n' (its first spelling), where --seed was '--seed'
    path = str(tmp_path / "run.ckpt")
    assert run_cli("simulate", *RUN, "--checkpoint", path).exit_code == 0
    for rounds in ("--rounds", "-n"):
        refused = run_cli("simulate", "--resume", path, rounds, "24000", "--seed", "6", "-q")
        assert_user_error(refused, "(given here in place of the checkpoint's: --rounds, --seed)")
        assert "-n," not in refused.stderr


def test_resume_file_is_checkpoint_file_resume(tmp_path):
    """``bjsim simulate --resume run.ckpt``: the file named by --resume itself."""
    path = str(tmp_path / "run.ckpt")
    whole = run_cli("simulate", *RUN, "--checkpoint", path)
    again = run_cli("simulate", "--resume", path, "-q", "-f", "json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["results"] == json.loads(whole.stdout)["results"]
    same = run_cli("simulate", "--resume", path, "--checkpoint", path, "-q", "-f", "json")
    assert json.loads(same.stdout)["results"] == json.loads(whole.stdout)["results"]
    assert_user_error(run_cli("simulate", "--resume", path, "--checkpoint", path + "2"),
                      "two files", "allowed one")
    assert_user_error(run_cli("simulate", "--resume", "-q"), "--resume: needs --checkpoint",
                      "--resume FILE")
    assert_user_error(run_cli("simulate", "--resume", path, "-o", path), "different file")


def test_an_option_given_on_resume_that_changes_the_run_is_refused(tmp_path):
    path = str(tmp_path / "run.ckpt")
    assert run_cli("simulate", *RUN, "--checkpoint", path).exit_code == 0
    assert_user_error(run_cli("simulate", "--rounds", "13000", "--checkpoint", path, "--resume"),
                      "different run", "rounds (or --max-rounds) is 12000 there, 13000 here")
    assert_user_error(run_cli("simulate", "--set", "decks=8", "--checkpoint", path, "--resume"),
                      "different run", "rule 'decks' is 6 there, 8 here")
    # a value the run had as none (no --precision): its own words, not "not recorded there"
    assert_user_error(run_cli("simulate", "--precision", "0.01", "--max-rounds", "12000",
                              "--checkpoint", path, "--resume"),
                      "different run", "precision is none (a run of a fixed number of rounds) "
                      "there, 0.01 here")
    # the same value given again is no change
    assert run_cli("simulate", "--seed", "5", "--checkpoint", path, "--resume").exit_code == 0


@pytest.mark.parametrize("command", [["simulate"], ["compare", "--vary", "decks=8", "--no-exact"]])
def test_a_precision_given_on_resuming_a_fixed_length_run_is_named_not_its_cap(tmp_path,
                                                                             command):
    # it said "rounds (or --max-rounds) is 12000 there, 1000000000 here": the default cap of
    # --precision, which the user did not give
    path = str(tmp_path / "run.ckpt")
    assert run_cli(*command, "--rounds", "4000", "--chunk-rounds", "2000", "-q",
                   "--checkpoint", path).exit_code == 0
    refused = run_cli(command[0], "--resume", path, "--precision", "0.001", "-q")
    assert_user_error(refused, "different run", "precision is none (a run of a fixed number of "
                      "rounds) there, 0.001 here",
                      "(given here in place of the checkpoint's: --precision)")
    assert "1000000000" not in refused.stderr


def test_a_checkpoint_without_kept_options_needs_them_given_again(tmp_path):
    """One written before the options were kept: the options not given are the defaults, and
    the identity refuses them, naming the first that differs."""
    path = tmp_path / "run.ckpt"
    assert run_cli("simulate", *RUN, "--checkpoint", str(path)).exit_code == 0
    doc = json.loads(path.read_text())
    del doc["command"]
    doc["sha256"] = C.checksum(doc)
    path.write_text(json.dumps(doc))
    assert_user_error(run_cli("simulate", "--checkpoint", str(path), "--resume"),
                      "different run", "seed is 5 there, 1994 here")
    assert run_cli("simulate", *RUN, "--checkpoint", str(path), "--resume").exit_code == 0


def test_a_bad_option_kept_in_a_checkpoint_is_one_line(tmp_path):
    path = tmp_path / "run.ckpt"
    assert run_cli("simulate", *RUN, "--checkpoint", str(path)).exit_code == 0
    doc = json.loads(path.read_text())
    doc["command"]["options"]["rounds"] = 0
    doc["sha256"] = C.checksum(doc)
    path.write_text(json.dumps(doc))
    assert_user_error(run_cli("simulate", "--checkpoint", str(path), "--resume"),
                      "an option kept there", "--rounds", "at least 1")


# ---------------------------------------------------------------------------------------------
# A checkpoint of another run is refused


@pytest.mark.parametrize(
    "change, words",
    [
        (["--seed", "6"], ["seed", "5", "6"]),
        (["--set", "decks=8"], ["decks", "6", "8"]),
        (["--strategy", "mimic-dealer"], ["strategy"]),
        (["--chunk-rounds", "2000"], ["chunk_rounds"]),
        (["--rounds", "13000"], ["rounds"]),
    ],
)
def test_resume_refuses_a_checkpoint_of_another_run(tmp_path, change, words):
    path = str(tmp_path / "x.ckpt")
    assert run_cli("simulate", *RUN, "--checkpoint", path).exit_code == 0
    r = run_cli("simulate", *RUN, *change, "--checkpoint", path, "--resume")
    assert_user_error(r, "different run", *words)


@pytest.mark.parametrize("command, other", [
    (["simulate", *RUN], ["count", "--rounds", "12_000", "--chunk-rounds", "1000", "-q"]),
    (["count", "--rounds", "12_000", "--chunk-rounds", "1000", "-q"], ["simulate", *RUN]),
])
def test_resume_under_other_rules_is_refused_before_the_strategy_is_derived(
        tmp_path, monkeypatch, command, other):
    """Other rules (here H17, whose basic strategy is derived) or another command's checkpoint:
    refused at once, not after the rules' own strategy has been derived."""
    from simulator import cli as cli_module

    path = str(tmp_path / "x.ckpt")
    assert run_cli(*command, "--strategy", "basic", "--checkpoint", path).exit_code == 0

    def derive(*_):
        raise AssertionError("derived before the checkpoint was refused")

    monkeypatch.setattr(cli_module, "_derived_basic", derive)
    h17 = ["--set", "dealer_hits_soft_17=true"]
    assert_user_error(run_cli(*command, *h17, "--checkpoint", path, "--resume"),
                      "different run", "rule 'dealer_hits_soft_17' is false there, true here")
    assert_user_error(run_cli(*other, *h17, "--checkpoint", path, "--resume"),
                      f"is a checkpoint of bjsim {command[0]}, not of bjsim {other[0]}")


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    """A small finished checkpoint of each command that takes --resume."""
    folder = tmp_path_factory.mktemp("kinds")
    small = ["--rounds", "2000", "--chunk-rounds", "1000", "-q", "-f", "json"]
    runs = {"simulate": ["--strategy", "basic"], "compare": ["--vary", "decks=8", "--no-exact"],
            "count": []}
    out = {}
    for name, extra in runs.items():
        out[name] = str(folder / f"{name}.ckpt")
        r = run_cli(name, *small, *extra, "--checkpoint", out[name])
        assert r.exit_code == 0, r.output
    return out


@pytest.mark.parametrize("saved, given", [(a, b) for a in ("simulate", "compare", "count")
                                          for b in ("simulate", "compare", "count") if a != b])
def test_a_checkpoint_of_another_command_is_named_as_such_before_anything_else(
        checkpoints, saved, given):
    """``compare --resume simulate.ckpt`` with no --vary said "no variant": the checkpoint's
    command is checked first, and the refusal says which command resumes it."""
    path = checkpoints[saved]
    r = run_cli(given, "--resume", path)
    assert_user_error(r, f"{path} is a checkpoint of bjsim {saved}, not of bjsim {given}",
                      f"resume it with bjsim {saved} --resume {path}")


OTHER_CODE = "0" * 64  # the source SHA-256 of code other than this (`source.sha256`)


@pytest.mark.parametrize("command", ["simulate", "compare", "count"])
def test_a_checkpoint_written_by_other_code_is_refused_by_every_command(
        checkpoints, monkeypatch, command):
    """A checkpoint resumed after the code changed (a pull between Ctrl-C and --resume) was
    accepted: its chunks and the new code's made one result, reported whole under the new
    code's source.sha256. Refused in one line naming both codes' SHA-256 and what to do; the
    file left as it was."""
    from simulator import source

    path = checkpoints[command]
    before = open(path, "rb").read()
    there = source.fingerprint()
    monkeypatch.setattr(source, "sha256", lambda: OTHER_CODE, raising=False)  # (code changed)
    r = run_cli(command, "--resume", path)
    assert_user_error(r, f"--resume: {path} is a checkpoint of a different run: it was written "
                      f"by other code: bjsim's source SHA-256 is {there} there, {OTHER_CODE} here",
                      "resume it with the code that wrote it, or start the run again without "
                      "--resume")
    assert len([ln for ln in r.stderr.splitlines() if ln.strip()]) == 1, r.stderr
    assert open(path, "rb").read() == before


def test_a_partial_run_is_not_carried_on_by_other_code(tmp_path, monkeypatch):
    """The engine's own check (`checkpoint.resume`, as `run.simulate` and `compare.compare`
    make it), not only the command line's: a run stopped part way by one code is not finished
    by another."""
    from simulator import source

    path = tmp_path / "run.ckpt"
    C.save(path, ident(), play(engine.RunState(12_000, 1000), stop_after=3))
    monkeypatch.setattr(source, "sha256", lambda: OTHER_CODE, raising=False)
    state = engine.RunState(12_000, 1000)
    with pytest.raises(C.CheckpointError, match="written by other code: bjsim's source SHA-256 "
                       f"is {source.fingerprint()} there, {OTHER_CODE} here"):
        C.resume(path, ident(), state)
    assert state.prefix_end == 0


@pytest.mark.parametrize("command", ["simulate", "compare", "count"])
def test_a_checkpoint_that_does_not_record_its_code_is_refused(checkpoints, tmp_path, command):
    """One written before the identity kept the code's SHA-256 cannot be shown to be of this
    code: refused the same way."""
    path = tmp_path / f"{command}.ckpt"
    doc = json.loads(open(checkpoints[command]).read())
    doc["identity"].pop("source_sha256", None)
    doc["sha256"] = C.checksum(doc)
    path.write_text(json.dumps(doc))
    assert_user_error(run_cli(command, "--resume", str(path)),
                      f"{path} is a checkpoint of a different run: it was written by other "
                      "code: bjsim's source SHA-256 is not recorded there (a checkpoint of an "
                      "earlier bjsim)", "resume it with the code that wrote it")


def test_precision_target_is_part_of_the_identity(tmp_path):
    path = tmp_path / "p.ckpt"
    C.save(path, ident(precision=0.01), engine.RunState(12_000, 1000, 0.01))
    with pytest.raises(C.CheckpointError, match="precision"):
        C.resume(path, ident(precision=0.02), engine.RunState(12_000, 1000, 0.02))


def test_existing_file_needs_resume_and_resume_needs_a_file(tmp_path):
    path = str(tmp_path / "y.ckpt")
    assert_user_error(run_cli("simulate", *RUN, "--checkpoint", path, "--resume"),
                      "does not exist")
    assert run_cli("simulate", *RUN, "--checkpoint", path).exit_code == 0
    assert_user_error(run_cli("simulate", *RUN, "--checkpoint", path), "exists", "--resume")


def test_a_file_that_is_not_a_checkpoint_is_refused(tmp_path):
    bad = tmp_path / "bad.ckpt"
    bad.write_text("{not json")
    assert_user_error(run_cli("simulate", *RUN, "--checkpoint", str(bad), "--resume"),
                      "not a bjsim checkpoint: not JSON (line 1, column 2)")
    # Named as the file whichever option gave it, without the JSON parser's own words.
    bad.write_bytes(b"\xff\xfe binary")
    result = run_cli("simulate", "--resume", str(bad))
    assert_user_error(result, f"checkpoint {bad}: not a bjsim checkpoint: not UTF-8 text")
    assert "--checkpoint" not in result.output
    bad.write_text('{"format": "something else"}')
    assert_user_error(run_cli("simulate", *RUN, "--checkpoint", str(bad), "--resume"),
                      "not a bjsim checkpoint")


def _checkpoint_of(tmp_path, command) -> Path:
    """The checkpoint of a short finished run of ``command``."""
    path = tmp_path / "run.ckpt"
    assert run_cli(*command, "--rounds", "4000", "--chunk-rounds", "2000", "-q",
                   "--checkpoint", str(path)).exit_code == 0
    return path


@pytest.mark.parametrize("command", [["simulate"], ["compare", "--vary", "decks=8", "--no-exact"],
                                     ["count"]])
def test_a_damaged_chunk_number_is_said_in_bjsims_words(tmp_path, command):
    # an edited chunk number said "damaged state: invalid literal for int() with base 10: 'x'"
    path = _checkpoint_of(tmp_path, command)
    doc = json.loads(path.read_text())
    for extra, words in [({"x": [0]}, "extra: 'x' is not a chunk number: allowed a chunk's "
                                      "index, a whole number 0 or more"),
                         ({"-1": [0]}, "extra: '-1' is not a chunk number"),
                         ([[0]], "extra: [[0]]: allowed an object of finished chunks"),
                         # (a fuzzing review: "allowed 2-1", a range of nothing)
                         ({"2": "prefix"}, "finished chunk 2: none can be past the prefix "
                                           "(chunks 0-1) in a run of chunks 0-1")]:
        doc["state"]["extra"] = extra if extra != {"2": "prefix"} else {
            "2": doc["state"]["prefix"]}  # (a payload of the right length)
        doc["sha256"] = C.checksum(doc)
        path.write_text(json.dumps(doc, indent=1))
        refused = run_cli(command[0], "--resume", str(path), "-q")
        if command[0] == "count" and "none can be past" in words:  # (a counter's own words)
            words = "chunk 2: not a chunk of this run past the prefix"
        assert_user_error(refused, f"checkpoint {path}: damaged state: {words}")
        assert "int()" not in refused.stderr


@pytest.mark.parametrize("command", [["simulate"], ["compare", "--vary", "decks=8", "--no-exact"],
                                     ["count"]])
def test_a_checkpoint_cut_short_is_said_to_be_one_damaged(tmp_path, command):
    # it said "not a bjsim checkpoint: not JSON (line 45, column 1)"
    path = _checkpoint_of(tmp_path, command)
    whole = path.read_text()
    path.write_text(whole[: len(whole) // 2])
    assert_user_error(run_cli(command[0], "--resume", str(path), "-q"),
                      f"checkpoint {path}: a damaged bjsim checkpoint: cut short (line ",
                      "remove it and start the run again")


def test_a_checkpoint_of_an_older_tally_layout_is_refused_saying_so(tmp_path):
    """A checkpoint written before the figures by strategy (``layout.T_BY``) were added."""
    path = tmp_path / "run.ckpt"
    assert run_cli("simulate", *RUN, "--checkpoint", str(path)).exit_code == 0
    doc = json.loads(path.read_text())
    doc["tally_names"] = doc["tally_names"][: L.T_BY]
    doc["state"]["prefix"] = doc["state"]["prefix"][: L.T_BY]
    doc["sha256"] = C.checksum(doc)
    path.write_text(json.dumps(doc))
    assert_user_error(run_cli("simulate", *RUN, "--checkpoint", str(path), "--resume"),
                      "tally layout differs", "another version", "start the run again")


def test_a_count_checkpoint_of_an_older_counting_layout_is_refused_saying_so(tmp_path):
    """A counter's checkpoint written before the counting tally's per-round moments
    (``flat_rsq``, ``main_sq``, ``cross``): its layout is named, and refused as another one."""
    path = tmp_path / "count.ckpt"
    args = ["count", "--plan", "hi-lo-flat", "--rounds", "2000", "--chunk-rounds", "1000", "-q"]
    assert run_cli(*args, "--checkpoint", str(path)).exit_code == 0
    doc = json.loads(path.read_text())
    assert doc["count_names"] == list(L.COUNT_NAMES)
    del doc["count_names"]
    doc["sha256"] = C.checksum(doc)
    path.write_text(json.dumps(doc))
    assert_user_error(run_cli(*args, "--checkpoint", str(path), "--resume"),
                      "tally layout differs", "another version", "start the run again")


@pytest.mark.parametrize("first", ["ins_sq", "ins_won", "ss_exact_bet"])
def test_a_count_checkpoint_from_before_ins_sq_or_ins_won_is_refused_saying_so(tmp_path, first):
    """A counter's checkpoint written before the counting tally kept the square of the insurance
    result (``ins_sq``), before it counted the insurance bets won and lost (``ins_won``,
    ``ins_lost``), or before it kept the exact return of the counter's Super Sevens stakes
    (``ss_exact_bet``, the last column): its names and payload without the columns from
    ``first`` on, as that bjsim wrote them. Refused as another layout, not read with the
    columns shifted."""
    path = tmp_path / "count.ckpt"
    args = ["count", "--plan", "hi-lo-flat", "--rounds", "2000", "--chunk-rounds", "1000", "-q"]
    assert run_cli(*args, "--checkpoint", str(path)).exit_code == 0
    doc = json.loads(path.read_text())
    assert doc["count_names"][-4:] == ["ins_sq", "ins_won", "ins_lost", "ss_exact_bet"] == [
        L.COUNT_NAMES[c] for c in (L.C_INS_SQ, L.C_INS_WON, L.C_INS_LOST, L.C_SS_EXACT_BET)]
    keep = doc["count_names"].index(first)
    doc["count_names"] = doc["count_names"][:keep]
    prefix = doc["state"]["prefix"]
    rows = [prefix[L.N_TALLY + r * L.N_COUNT:][:keep] for r in range(L.N_TC)]
    doc["state"]["prefix"] = prefix[: L.N_TALLY] + [x for row in rows for x in row]
    doc["sha256"] = C.checksum(doc)
    path.write_text(json.dumps(doc))
    assert_user_error(run_cli(*args, "--checkpoint", str(path), "--resume"),
                      "tally layout differs", "another version", "start the run again")


def test_figures_by_strategy_that_do_not_add_up_are_refused(tmp_path):
    """Found by hypothesis: an edit (checksum recomputed) giving a strategy too few box-rounds."""
    path = tmp_path / "run.ckpt"
    assert run_cli("simulate", *RUN, "--checkpoint", str(path)).exit_code == 0
    doc = json.loads(path.read_text())
    doc["state"]["prefix"][L.T_BY + L.BY_BOX_ROUNDS] = 1
    doc["sha256"] = C.checksum(doc)
    path.write_text(json.dumps(doc))
    assert_user_error(run_cli("simulate", *RUN, "--checkpoint", str(path), "--resume"),
                      "strategyK_box_rounds", "add up to box_rounds")


def test_unwritable_checkpoint_fails_before_the_run(tmp_path):
    path = str(tmp_path / "no-such-dir" / "z.ckpt")
    assert_user_error(run_cli("simulate", *RUN, "--checkpoint", path), "cannot write")


def test_output_the_same_file_as_the_checkpoint_is_refused_before_the_run(tmp_path):
    path = tmp_path / "run.ckpt"
    other = tmp_path / "." / "run.ckpt"
    assert_user_error(run_cli("simulate", *RUN, "--checkpoint", str(path), "-o", str(other)),
                      "--checkpoint and -o:", "different file")  # (-o as typed)
    assert not path.exists()


@pytest.mark.parametrize("value", ["abc", "-1", "nan", "inf"])
def test_a_bad_checkpoint_interval_in_the_environment_is_refused(tmp_path, monkeypatch, value):
    monkeypatch.setenv("BJSIM_CHECKPOINT_EVERY", value)
    path = tmp_path / "run.ckpt"
    assert_user_error(run_cli("simulate", *RUN, "--checkpoint", str(path)),
                      f"BJSIM_CHECKPOINT_EVERY={value}", "0 or more")
    assert not path.exists()


# ---------------------------------------------------------------------------------------------
# Atomic writes and their frequency


@pytest.mark.parametrize("fail", ["fsync", "replace"])
def test_a_failed_write_leaves_the_old_checkpoint_whole_and_no_temp_file(tmp_path, monkeypatch,
                                                                          fail):
    path = tmp_path / "a.ckpt"
    old = play(engine.RunState(12_000, 1000), stop_after=2)
    C.save(path, ident(), old)
    before = path.read_bytes()
    new = play(engine.RunState(12_000, 1000), stop_after=6)

    def boom(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, fail, boom)
    with pytest.raises(OSError):
        C.save(path, ident(), new)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["a.ckpt"]
    state = engine.RunState(12_000, 1000)
    C.resume(path, ident(), state)
    assert state.total().tolist() == old.total().tolist()


def test_writer_writes_at_most_every_interval(tmp_path):
    state = engine.RunState(12_000, 1000)
    w = C.Writer(tmp_path / "w.ckpt", ident(), every=3600)
    assert w.maybe(state) is False and not (tmp_path / "w.ckpt").exists()
    w.write(state)
    assert w.writes == 1 and (tmp_path / "w.ckpt").exists()
    assert C.Writer(tmp_path / "w.ckpt", ident(), every=0).maybe(state) is True


def test_checkpoint_size_does_not_grow_with_the_chunks_done(tmp_path):
    sizes = []
    for k in (2, 40):
        state = play(engine.RunState(10**9, 100), stop_after=k)
        C.save(tmp_path / f"{k}.ckpt", ident(chunk_rounds=100, rounds=10**9), state)
        sizes.append(len(state.extra))
    # only the chunks finished past the contiguous prefix are kept apart (a few, not k)
    assert max(sizes) <= engine.lookahead_for(engine.IN_FLIGHT_PER_WORKER * 2)


def test_a_checkpoint_is_made_with_the_users_umask(tmp_path):
    # mkstemp made it 0600 whatever the umask, and each save made it so again.
    path = tmp_path / "m.ckpt"
    C.save(path, ident(), play(engine.RunState(12_000, 1000), stop_after=1))
    assert os.stat(path).st_mode & 0o777 == atomic.USER_MODE


@pytest.mark.parametrize("path", ["/dev/null", "/dev/zero", "FIFO"])
def test_a_checkpoint_that_is_not_a_regular_file_is_refused_before_it_is_read(tmp_path, path):
    # --resume /dev/full read without end until the kernel killed bjsim; a FIFO hung; and
    # --checkpoint /dev/null told root to remove /dev/null. (The suite runs where POSIX does:
    # /dev/null and /dev/zero are there, as os.mkfifo and the interrupt tests' signals are.)
    # Named by the option as typed (--resume FILE said --checkpoint), and what is allowed for
    # a resume is a checkpoint to carry on, not a path where a new one is made.
    if path == "FIFO":
        path = tmp_path / "ff.ckpt"
        os.mkfifo(path)
    fresh = "the path of a checkpoint file (a new one is made there)"
    resumed = "the path of an existing checkpoint file (the run to carry on)"
    for args, option, allowed in ((["--resume", str(path)], "--resume", resumed),
                                  (["--checkpoint", str(path), "--resume"], "--checkpoint",
                                   resumed),
                                  (["--checkpoint", str(path)], "--checkpoint", fresh)):
        result = CliRunner().invoke(cli, ["simulate", "-n", "1000", "-q", *args])
        assert result.exit_code == 2, result.output
        assert result.stderr == (f"Error: {option} {path}: not a regular file (a device or "
                                 f"a pipe): allowed {allowed}\n")


def test_a_linked_checkpoint_is_kept_up_to_date_where_it_links(tmp_path, monkeypatch):
    # The link was replaced by a plain file and its target (a store elsewhere) left stale.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "store").mkdir()
    link = tmp_path / "run.ckpt"
    link.symlink_to(tmp_path / "store" / "real.ckpt")  # (dangling: made on the first save)
    args = ["simulate", "-n", "2000", "--chunk-rounds", "1000", "-q", "-f", "json"]
    first = CliRunner().invoke(cli, [*args, "--checkpoint", "run.ckpt"])
    assert first.exit_code == 0, first.output
    assert link.is_symlink() and json.loads(link.read_text())["finished"]
    again = CliRunner().invoke(cli, ["simulate", "--resume", "run.ckpt", "-q", "-f", "json"])
    assert again.exit_code == 0 and json.loads(again.stdout)["results"] == json.loads(
        first.stdout)["results"]
    assert link.is_symlink()


def test_a_checkpoint_another_run_is_playing_is_not_resumed(tmp_path):
    # Two processes resumed one checkpoint at once: both played its chunks and took turns
    # overwriting it, the slower one able to roll back a finished file.
    import fcntl

    ckpt = tmp_path / "run.ckpt"
    args = ["simulate", "-n", "2000", "--chunk-rounds", "1000", "-q", "-f", "json"]
    first = CliRunner().invoke(cli, [*args, "--checkpoint", str(ckpt)])
    assert first.exit_code == 0, first.output
    fd = os.open(ckpt, os.O_RDONLY)  # another run, holding the file as a run does (`Writer.hold`)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        busy = CliRunner().invoke(cli, ["simulate", "--resume", str(ckpt), "-q"])
        assert busy.exit_code == 2
        assert busy.stderr == (f"Error: --resume: checkpoint {ckpt} is in use by another bjsim "
                               "run: allowed once that run has ended\n")
    finally:
        os.close(fd)
    again = CliRunner().invoke(cli, ["simulate", "--resume", str(ckpt), "-q", "-f", "json"])
    assert again.exit_code == 0 and json.loads(again.stdout)["results"] == json.loads(
        first.stdout)["results"]


def test_a_checkpoint_is_held_from_the_moment_each_save_puts_it_in_place(tmp_path):
    """Each save renamed a new file into place and locked it only then: a run resuming it in
    between got in (a review's: refused 44 times, then both played and wrote it). The new file
    is locked before the rename and the old one let go after it; a lock taken on a file since
    replaced is not the checkpoint's (`Writer.hold` tries again). Another process probing as
    `hold` does, all through 300 saves, never gets it."""
    import subprocess
    import sys
    import time

    path = tmp_path / "run.ckpt"
    state = engine.RunState(2_000, 1_000)
    writer = C.Writer(str(path), {"run": 1}, every=0)
    writer.write(state)
    probe = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, os, sys, time\n"
        "got = tries = 0\n"
        "end = time.monotonic() + 60\n"
        "while not os.path.exists(sys.argv[1] + '.stop') and time.monotonic() < end:\n"
        "    try:\n"
        "        fd = os.open(sys.argv[1], os.O_RDONLY)\n"
        "    except OSError:\n"
        "        continue\n"
        "    tries += 1\n"
        "    try:\n"
        "        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
        "        a, b = os.fstat(fd), os.stat(sys.argv[1])\n"  # (as `Writer.hold`: the file
        "        got += (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)\n"  # still in place)
        "    except OSError:\n"
        "        pass\n"
        "    os.close(fd)\n"
        "print(got, tries)\n"), str(path)], stdout=subprocess.PIPE, text=True)
    try:
        time.sleep(0.3)  # (the probe started)
        for _ in range(300):
            writer.write(state)
    finally:
        (tmp_path / "run.ckpt.stop").touch()
        got, tries = map(int, probe.communicate(timeout=90)[0].split())
        writer.release()
    assert tries > 10 and got == 0, (got, tries)


@pytest.mark.parametrize("command, games", [(["simulate"], ""),
                                            (["compare", "--vary", "decks=8", "--no-exact"],
                                             "2 games x "),
                                            (["count"], "counter's run: ")])
def test_resuming_a_finished_run_says_so_not_zero_rounds(tmp_path, command, games):
    # it said "0 rounds in 0.00 s (0 rounds/s); 4,000 more from run.ckpt"
    ckpt = tmp_path / "run.ckpt"
    first = run_cli(*command, "--rounds", "4000", "--chunk-rounds", "2000", "-q",
                    "--checkpoint", str(ckpt))
    assert first.exit_code == 0, first.output
    again = run_cli(*command, "--resume", str(ckpt), "-f", "json")
    assert again.exit_code == 0, again.output
    said = [ln for ln in again.stderr.replace("\r", "\n").splitlines() if ln.startswith("bjsim: ")
            and "%|" not in ln]
    assert said[0] == (f"bjsim: {games}all 4,000 rounds from {ckpt}, none left to play (a "
                       "finished run)"), said
    assert not any("0 rounds in" in ln for ln in said)


@pytest.mark.parametrize("command", [["simulate"], ["compare", "--vary", "decks=8", "--no-exact"],
                                     ["count"]])
def test_a_finished_checkpoint_resumed_gives_no_workers(tmp_path, command):
    """README: ``timing.workers`` is null where the run played nothing there. A finished
    checkpoint resumed gave every CPU's count, or --workers 1 with --workers 1, with no
    round played."""
    ckpt = tmp_path / "run.ckpt"
    first = run_cli(*command, "--rounds", "4000", "--chunk-rounds", "2000", "-q", "-f", "json",
                    "--workers", "2", "--checkpoint", str(ckpt))
    assert first.exit_code == 0, first.output
    assert json.loads(first.stdout)["timing"]["workers"] == 2
    for workers in ([], ["--workers", "1"]):
        again = run_cli(command[0], "--resume", str(ckpt), "-q", "-f", "json", *workers)
        assert again.exit_code == 0, again.output
        timing = json.loads(again.stdout)["timing"]
        both = 2 if command[0] == "count" else 1  # (the counter's run and its control's)
        assert (timing["resumed_rounds"], timing["workers"]) == (4000 * both, None), timing
        speed = "game_rounds_per_second" if command[0] == "compare" else "rounds_per_second"
        assert timing[speed] is None, timing  # (it read 0.0: no round, no speed)


@pytest.mark.parametrize("command, games", [(["simulate"], ""),
                                            (["simulate", "--precision", "0.0001"], ""),
                                            (["compare", "--vary", "decks=8", "--no-exact"],
                                             "2 games x "),
                                            (["count"], "counter's run: ")])
def test_a_resumed_run_stopped_before_a_chunk_finished_is_not_said_finished(
        tmp_path, monkeypatch, command, games):
    # it said "all 4,000 rounds from run.ckpt, none left to play (a finished run)", then
    # "interrupted: partial result of 4,000 rounds"
    ckpt = tmp_path / "run.ckpt"
    length = ["--max-rounds" if "--precision" in command else "--rounds", "12000"]
    real = engine.iter_chunks, engine.iter_job_chunks

    def stop_after(chunks):  # (count's counter and compare's games play by iter_job_chunks)
        monkeypatch.setattr(engine, "iter_chunks", interrupted_after(chunks, real[0]))
        monkeypatch.setattr(engine, "iter_job_chunks", interrupted_after(chunks, real[1]))

    stop_after(2)
    first = run_cli(*command, *length, "--chunk-rounds", "2000", "--workers", "1", "-q",
                    "--checkpoint", str(ckpt))
    assert first.exit_code == 130, first.output
    kept = json.load(open(ckpt))["rounds_done"]
    assert 0 < kept < 12000
    stop_after(0)
    again = run_cli(command[0], "--resume", str(ckpt), "--workers", "1", "-f", "json")
    assert again.exit_code == 130, again.output
    said = [ln for ln in again.stderr.replace("\r", "\n").splitlines() if ln.startswith("bjsim: ")
            and "%|" not in ln]
    assert not any("finished run" in ln or "none left" in ln for ln in said), said
    assert any(ln.startswith(f"bjsim: {games}0 rounds in ") and ln.endswith(
        f" s (stopped before a chunk finished); {kept:,} more from {ckpt}") for ln in said), said
    assert f"interrupted: partial result of {kept:,} rounds" in " ".join(said), said
    assert json.load(open(ckpt))["rounds_done"] == kept


def _read_only(monkeypatch, folder: Path) -> None:
    """``folder`` as on a file system mounted read-only: os.access refuses it (EROFS, which its
    bool does not say), statvfs says so, and a file made in it is refused."""
    import tempfile

    real_access, real_statvfs, real_temp = os.access, os.statvfs, tempfile.NamedTemporaryFile

    def ours(path) -> bool:
        return os.path.abspath(os.fspath(path)).startswith(str(folder))

    def statvfs(path):
        got = real_statvfs(path)
        if not ours(path):
            return got
        return os.statvfs_result((*got[:8], got.f_flag | os.ST_RDONLY, *got[9:]))

    def temp(*a, **k):
        if ours(k.get("dir", "")):
            raise OSError(30, "Read-only file system", k.get("dir"))
        return real_temp(*a, **k)

    monkeypatch.setattr(os, "access", lambda p, mode, **k: not (
        ours(p) and mode & os.W_OK) and real_access(p, mode, **k))
    monkeypatch.setattr(os, "statvfs", statvfs)
    monkeypatch.setattr(tempfile, "NamedTemporaryFile", temp)


@pytest.mark.parametrize("args, option", [
    (["simulate", *RUN, "--checkpoint", "{d}/x.ckpt"], "--checkpoint"),
    (["simulate", *RUN, "-o", "{d}/x.txt"], "-o"),
    (["simulate", *RUN, "-o", "{d}/old.txt"], "-o"),  # (a file there: 'cannot write: ...')
    (["count", "--rounds", "4000", "--checkpoint", "{d}/x.ckpt"], "--checkpoint"),
    (["compare", "--vary", "decks=8", "--checkpoint", "{d}/x.ckpt"], "--checkpoint"),
])
def test_a_read_only_file_system_is_named_as_such_not_permission_denied(tmp_path, monkeypatch,
                                                                        args, option):
    # it said "cannot write in DIR: permission denied" (os.access's EROFS taken for EACCES)
    folder = tmp_path / "ro"
    folder.mkdir()
    (folder / "old.txt").write_text("kept\n")
    args = [a.format(d=folder) for a in args]
    _read_only(monkeypatch, folder)
    result = run_cli(*args)
    where = "cannot write: " if "old" in args[-1] else f"cannot write in {folder}: "
    assert_user_error(result, f"Error: {option} {args[-1]}: {where}a read-only file system")
    assert "permission denied" not in result.stderr


@pytest.mark.parametrize("given", [["--resume", "{p}"], ["--resume={p}"],
                                   ["--checkpoint", "{p}", "--resume"]])
def test_a_resume_in_a_read_only_folder_names_the_option_as_typed(tmp_path, monkeypatch, given):
    # --resume FILE on a read-only mount said "Error: --checkpoint FILE: cannot write:
    # Read-only file system" (the first save's OSError, after the strategy was derived)
    path = tmp_path / "ro" / "r.ckpt"
    path.parent.mkdir()
    monkeypatch.setattr(engine, "iter_chunks", interrupted_after(2))
    assert run_cli("simulate", *RUN, "--workers", "1", "--checkpoint", str(path)).exit_code == 130
    monkeypatch.undo()
    _read_only(monkeypatch, path.parent)
    given = [g.format(p=path) for g in given]
    option = "--checkpoint" if "--checkpoint" in given else "--resume"
    assert_user_error(run_cli("simulate", *given, "-q"),
                      f"Error: {option} {path}: cannot write in {path.parent}: a read-only file "
                      "system")
    # a finished run is only read: its report all the same
    monkeypatch.undo()
    assert run_cli("simulate", "--resume", str(path), "-q").exit_code == 0
    _read_only(monkeypatch, path.parent)
    assert run_cli("simulate", "--resume", str(path), "-q").exit_code == 0


def test_a_temporary_file_a_killed_run_left_is_removed_by_the_next_save(tmp_path, monkeypatch):
    # kill -9 as a checkpoint was saved left a.ckpt.XXXXXXXX.tmp beside it, and a resume run to
    # its end left it there; others' files (another checkpoint's, a name not ours) are kept
    path = tmp_path / "a.ckpt"
    monkeypatch.setattr(engine, "iter_chunks", interrupted_after(2))
    assert run_cli("simulate", *RUN, "--workers", "1", "--checkpoint", str(path)).exit_code == 130
    monkeypatch.undo()
    left = ["a.ckpt.k2x_9qzt.tmp", "a.ckpt.0abcdefg.tmp"]
    kept = ["b.ckpt.k2x_9qzt.tmp", "a.ckpt.mine.tmp", "a.ckpt.k2x_9qzt.tmp.bak"]
    for name in left + kept:
        (tmp_path / name).write_text('{ "format": "bjsim-checkpoint"')
        os.utime(tmp_path / name, (1e9, 1e9))  # (left before the run: a run writing its own
    assert sorted(os.path.basename(p) for p in atomic.leftovers(path)) == sorted(left)  # is not)
    assert run_cli("simulate", "--resume", str(path), "-q").exit_code == 0
    assert sorted(os.listdir(tmp_path)) == sorted(["a.ckpt", *kept])


def test_a_file_the_checkpoint_names_that_is_gone_says_so_and_how_to_resume(tmp_path,
                                                                            monkeypatch):
    # a strategy file moved since said "Error: /x/mystrat.toml: no such strategy file: allowed
    # a shipped strategy by name ...", as if typed on the resume (a rule file likewise)
    old, new = tmp_path / "x", tmp_path / "y"
    old.mkdir()
    (old / "mystrat.toml").write_text(dumps_strategy(BASIC))
    (old / "myrules.toml").write_text(DEFAULT_RULES_PATH.read_text())
    path = tmp_path / "ms.ckpt"
    monkeypatch.setattr(engine, "iter_chunks", interrupted_after(2))
    assert run_cli("simulate", *RUN, "--workers", "1", "--checkpoint", str(path), "--strategy",
                   str(old / "mystrat.toml"), "--rules", str(old / "myrules.toml")
                   ).exit_code == 130
    monkeypatch.undo()
    old.rename(new)
    given = []
    for option, name in (("--rules", "myrules.toml"), ("--strategy", "mystrat.toml")):
        refused = run_cli("simulate", "--resume", str(path), "-q", *given)
        assert_user_error(refused, f"Error: checkpoint {path}: {option} {old / name}, as the run "
                          "was started (kept there): no such file now: give its new place on "
                          f"the resume, {option} NEWPATH")
        assert "no such strategy file" not in refused.stderr
        given += [option, str(new / name)]
    assert run_cli("simulate", "--resume", str(path), "-q", *given).exit_code == 0


def test_a_file_s_name_edited_before_a_resume_is_refused_not_relabelling_the_run(tmp_path,
                                                                                monkeypatch):
    # a rule or strategy file's name edited between a run and its resume relabelled every round
    # played before it, the output no longer the uninterrupted run's (a reproducibility review);
    # a file moved, named by its path, is still given again (the test above)
    (tmp_path / "mystrat.toml").write_text(dumps_strategy(BASIC).replace(
        'name = "basic"', 'name = "audited"'))
    (tmp_path / "myrules.toml").write_text(DEFAULT_RULES_PATH.read_text())
    path = tmp_path / "names.ckpt"
    args = ("--strategy", str(tmp_path / "mystrat.toml"), "--rules", str(tmp_path / "myrules.toml"))
    monkeypatch.setattr(engine, "iter_chunks", interrupted_after(2))
    assert run_cli("simulate", *RUN, "--workers", "1", "--checkpoint", str(path), *args
                   ).exit_code == 130
    monkeypatch.undo()
    rules = (tmp_path / "myrules.toml").read_text()
    (tmp_path / "myrules.toml").write_text(rules.replace('name = "nz1994"', 'name = "mine"'))
    assert_user_error(run_cli("simulate", "--resume", str(path), "-q"),
                      "the rule set's name, which the outputs give (the file's name key, else its "
                      "file's name), is "
                      "nz1994 there, mine here: give the file its name back, or start the run "
                      "again")
    (tmp_path / "myrules.toml").write_text(rules)
    text = (tmp_path / "mystrat.toml").read_text()
    (tmp_path / "mystrat.toml").write_text(text.replace('name = "audited"', 'name = "other"'))
    assert_user_error(run_cli("simulate", "--resume", str(path), "-q"),
                      "each box's strategy name, which the outputs give (the file's name key, else "
                      "its file's name), is "
                      "audited there, other here")
    # to a shipped name, where the outputs show the file by its path (a review of the change)
    (tmp_path / "mystrat.toml").write_text(text.replace('name = "audited"', 'name = "basic"'))
    assert_user_error(run_cli("simulate", "--resume", str(path), "-q"),
                      "is audited there, basic here")
    (tmp_path / "myrules.toml").write_text(rules.replace('name = "nz1994"\n', ""))  # (gone)
    assert_user_error(run_cli("simulate", "--resume", str(path), "-q"),
                      "the rule set's name, which the outputs give (the file's name key, else its "
                      "file's name), is "
                      "nz1994 there, no name here")
    (tmp_path / "myrules.toml").write_text(rules)
    (tmp_path / "mystrat.toml").write_text(text)
    assert run_cli("simulate", "--resume", str(path), "-q").exit_code == 0


def test_a_strategy_file_with_no_name_moved_resumes_renamed_is_refused(tmp_path, monkeypatch):
    # a file with no name key is named by its file's name: moved, the same name, it resumes;
    # renamed, the outputs would name the rounds played before by the new name
    (tmp_path / "nokey.toml").write_text(dumps_strategy(BASIC).replace('name = "basic"\n', ""))
    path = tmp_path / "nokey.ckpt"
    monkeypatch.setattr(engine, "iter_chunks", interrupted_after(2))
    assert run_cli("simulate", *RUN, "--workers", "1", "--checkpoint", str(path), "--strategy",
                   str(tmp_path / "nokey.toml")).exit_code == 130
    monkeypatch.undo()
    (tmp_path / "moved").mkdir()
    (tmp_path / "nokey.toml").rename(tmp_path / "moved" / "nokey2.toml")
    assert_user_error(run_cli("simulate", "--resume", str(path), "-q", "--strategy",
                              str(tmp_path / "moved" / "nokey2.toml")),
                      "is nokey there, nokey2 here")
    (tmp_path / "moved" / "nokey2.toml").rename(tmp_path / "moved" / "nokey.toml")
    assert run_cli("simulate", "--resume", str(path), "-q", "--strategy",
                   str(tmp_path / "moved" / "nokey.toml")).exit_code == 0


def test_a_checkpoint_cut_short_in_its_opening_is_said_to_be_one_damaged(tmp_path):
    # cut to 30 bytes ('{ "format": "bjsim-checkpo') it said "not a bjsim checkpoint: not JSON
    # (line 2, column 12)"; from 40 bytes on, "a damaged bjsim checkpoint: cut short"
    whole = tmp_path / "whole.ckpt"
    C.save(whole, ident(), play(engine.RunState(12_000, 1000), stop_after=1))
    data = whole.read_bytes()
    cut = tmp_path / "cut.ckpt"
    for n in range(1, 60):
        cut.write_bytes(data[:n])
        with pytest.raises(C.CheckpointError) as err:
            C.load(cut)
        damaged = n >= data.index(b'"bj') + 3  # (from '{"format":"bj' on: a last read found
        # '{"fo', which another program's JSON could begin with, called a damaged checkpoint)
        assert (f"checkpoint {cut}: a damaged bjsim checkpoint: cut short (line " if damaged else
                f"checkpoint {cut}: not a bjsim checkpoint: not JSON") in str(err.value), n
    cut.write_bytes(data[:30])
    assert_user_error(run_cli("simulate", "--resume", str(cut), "-q"),
                      f"checkpoint {cut}: a damaged bjsim checkpoint: cut short (line 2, column ",
                      "remove it and start the run again")


def test_two_runs_starting_one_new_checkpoint_at_once_one_goes_on(tmp_path):
    """Both past the check that no file is there (`run.checkpoint_problem`), two new runs on one
    path had both run, the second's file replacing the first's, and both said their chunks
    were saved there (a scale review: one run's 69 million rounds lost). The first write of a
    run's own file now makes it only where none is: the other run stops, before any round,
    with one line; the file is the first's, and its temporary files are not taken for a
    killed run's leftovers."""
    from simulator import run

    path = str(tmp_path / "same.ckpt")
    a, b = (run.open_checkpoint(path, False, {"run": i}, engine.RunState(2_000, 1_000))
            for i in (1, 2))
    stray = tmp_path / "same.ckpt.abcd1234.tmp"  # (a temporary file of a run writing now)
    stray.write_text("")
    old = tmp_path / "same.ckpt.zzzz9999.tmp"  # (one a run killed before this one left)
    old.write_text("")
    os.utime(old, (a.started - 60, a.started - 60))
    first = run.saver(a, engine.RunState(2_000, 1_000))
    first(True)
    assert json.loads(Path(path).read_text())["identity"] == {"run": 1}
    assert stray.exists() and not old.exists()
    second = run.saver(b, engine.RunState(2_000, 1_000))
    with pytest.raises(run.RunError) as e:
        second(True)
    assert str(e.value) == (f"--checkpoint: {path} exists: another bjsim run started on it at "
                            "the same time: pass --resume to carry on with it once that run has "
                            "ended, or remove it")
    assert json.loads(Path(path).read_text())["identity"] == {"run": 1}
    assert atomic.leftovers(path) == [str(stray)]  # (the refused write's own removed)
    second.release()
    assert Path(path).exists()  # (the other run's file is not this one's to remove)
    first(True)  # (later writes replace the run's own file)
    first.release()


def test_a_checkpoint_s_identity_holds_every_rule_key():
    """A run-machinery audit: an identity leaving out one rule key (dealer_draws_when_no_live_box)
    resumed a run of other rules; the tests changed only decks, boxes, H17 and Super Sevens."""
    import dataclasses

    from simulator.rules import Rules

    rules = Rules()
    held = C.identity(rules, engine.stack_tables(rules, load_strategy("basic")), 1, 1000,
                      2000)["rules"]
    assert set(held) == {f.name for f in dataclasses.fields(Rules)}
    for f in dataclasses.fields(Rules):
        value = getattr(rules, f.name)
        assert held[f.name] == (list(value) if isinstance(value, tuple) else value), f.name
