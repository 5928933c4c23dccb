"""The bjsim command line through click's CliRunner: help, version, seeded runs, formats, errors."""

import csv
import errno
import io
import json
import os
import re
import shlex
import subprocess
import sys

import pytest
from click.testing import CliRunner
from helpers import interrupt_after_first_chunk

from simulator import __version__
from simulator.cli import CountType, cli
from simulator.plans import PLAN_DIR

TINY = ["--rounds", "20_000", "--chunk-rounds", "5000", "--seed", "7", "--quiet"]
COMMANDS = [
    [], ["simulate"], ["replay"], ["rules"], ["rules", "show"], ["rules", "check"],
    ["strategies"], ["strategies", "list"], ["strategies", "show"],
]


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def assert_user_error(result, *words):
    """Exit code 2, one line on stderr starting 'Error:', naming each of words; no traceback."""
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert lines[-1].startswith("Error:"), result.stderr
    assert "Traceback" not in result.output
    for w in words:
        assert w in lines[-1], (w, lines[-1])


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a) or "bjsim")
def test_every_command_has_help_with_an_example(args):
    for flag in ("--help", "-h"):
        result = run(*args, flag)
        assert result.exit_code == 0, result.output
        assert "Usage: bjsim" in result.stdout
        assert "Example" in result.stdout


def every_command(cmd=cli, path=("bjsim",)):
    """(path, command) of ``cmd`` and every command under it."""
    from click import Group

    yield " ".join(path), cmd
    if isinstance(cmd, Group):
        for name, sub in cmd.commands.items():
            yield from every_command(sub, (*path, name))


def test_every_option_has_help():
    for name, cmd in every_command():
        for p in cmd.params:
            if p.param_type_name == "option":
                assert p.help, (name, p.name)


def test_every_command_starts_with_a_one_line_summary_and_shows_an_example():
    # The summary is what a group's command list shows; `rules check`'s ran onto a second line.
    for name, cmd in every_command():
        summary = cmd.help.split("\n\n", 1)[0].strip()
        assert "\n" not in summary and summary.endswith("."), (name, summary)
        assert "Example" in cmd.help, name


def test_counts_boxes_help_says_the_plan_decides_the_boxes_played():
    # count plays the boxes its plan's [boxes] says; --boxes is only the most the table has
    # (the shared help said "Boxes played each round", as it is for the other commands).
    text = " ".join(run("count", "--help").stdout.split())
    assert "--boxes INTEGER RANGE The most boxes the table has" in text
    assert "Boxes played each round" not in text
    assert "--boxes INTEGER RANGE Boxes played each round" in " ".join(
        run("simulate", "--help").stdout.split())


def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"bjsim {__version__}"


@pytest.mark.parametrize("text", ["20000", "20_000", "20,000", "2e4", "2E4", "20k", "0.02M",
                                  "0.00002G", "0.00000002T"])
def test_rounds_forms(text):
    assert CountType().convert(text, None, None) == 20_000
    assert CountType().convert("1T", None, None) == 10**12  # as the progress bar writes it


@pytest.mark.parametrize("text, n", [("1.5e6", 1_500_000), ("1e15", 10**15), ("1500e-3k", 1500),
                                     ("123456789012345", 123456789012345)])
def test_rounds_are_parsed_exactly(text, n):
    assert CountType().convert(text, None, None) == n


@pytest.mark.parametrize("text", ["1e16", "1e30", "1e999999999999", "1000000000000001",
                                  "1.0000000000000001e15"])
@pytest.mark.parametrize("option", ["--rounds", "--chunk-rounds"])
def test_rounds_past_the_limit_or_not_whole_are_refused(text, option):
    result = run("simulate", option, text, "--quiet")
    why = "not a whole number" if "." in text else "10^15"
    assert_user_error(result, option, text, why)


@pytest.mark.parametrize("text", ["1,0,0", "10,00", "12,34", ",100", "1,000,", "_10", "10_"])
def test_digit_groups_out_of_place_are_refused(text):
    # "1,0,0" played 100 rounds and "10,00" 1000: a comma groups thousands or is refused.
    assert_user_error(run("simulate", "--rounds", text, "--quiet"), "--rounds", "by thousands")


@pytest.mark.parametrize("text", ["0", "-5", "1.5", "ten", "1e-3", "", "1500e-3"])
def test_bad_rounds_is_a_usage_error(text):
    result = run("simulate", "--rounds", text, "--quiet")
    assert result.exit_code == 2
    assert "--rounds" in result.stderr and "Traceback" not in result.output


def test_same_seed_same_json_results_whatever_the_workers():
    a = json.loads(run("simulate", *TINY, "--format", "json", "--workers", "1").stdout)
    b = json.loads(run("simulate", *TINY, "--format", "json", "--workers", "2").stdout)
    assert set(a) == {"bjsim", "source", "rules", "strategy", "strategy_sha256",
                      "strategy_charts", "run", "results", "timing"}
    assert a["results"] == b["results"]
    assert a["run"] == b["run"]
    assert a["results"]["rounds"] == 20_000 and a["run"]["seed"] == 7
    assert a["run"]["partial"] is False and a["strategy"] == ["basic"]
    assert a["rules"]["decks"] == 6 and a["rules"]["super_sevens"] is True
    he = a["results"]["house_edge"]
    assert he["ci95_low"] < he["mean"] < he["ci95_high"]
    assert a["results"]["super_sevens"]["bets"] == 20_000
    c = json.loads(run("simulate", *TINY[:-3], "--seed", "8", "--quiet", "-f", "json").stdout)
    assert c["results"] != a["results"]


def test_same_seed_same_table_to_the_last_digit():
    a = run("simulate", *TINY).stdout
    b = run("simulate", *TINY, "--workers", "1").stdout
    assert a == b
    assert "HOUSE EDGE" in a and "seed 7" in a
    noisy = run("simulate", *TINY[:-1])  # without --quiet: progress and timing go to stderr only
    assert noisy.stdout == a and "rounds/s" in noisy.stderr


def test_csv_parses_and_agrees_with_json():
    rows = list(csv.DictReader(io.StringIO(run("simulate", *TINY, "-f", "csv").stdout)))
    doc = json.loads(run("simulate", *TINY, "-f", "json").stdout)
    he = next(r for r in rows if r["section"] == "house_edge")
    assert float(he["value"]) == doc["results"]["house_edge"]["mean"]
    assert float(he["se"]) == doc["results"]["house_edge"]["se"]


def test_overrides_boxes_and_strategy_per_box(tmp_path):
    out = tmp_path / "run.json"
    result = run("simulate", *TINY, "--set", "decks=8", "--boxes", "2", "--no-super-sevens",
                 "--strategy", "basic", "--strategy", "mimic-dealer", "-f", "json", "-o", str(out))
    assert result.exit_code == 0 and result.stdout == ""
    doc = json.loads(out.read_text())
    assert doc["rules"]["decks"] == 8 and doc["rules"]["boxes"] == 2
    assert doc["strategy"] == ["basic", "mimic-dealer"]
    assert doc["results"]["box_rounds"] == 40_000
    assert doc["results"]["super_sevens"]["mean"] is None
    assert doc["run"]["overrides"] == ["decks=8", "boxes=2", "super_sevens=false"]  # every change


def test_bad_set_key_and_value():
    assert_user_error(run("simulate", *TINY, "--set", "deks=8"), "deks", "decks")
    assert_user_error(run("simulate", *TINY, "--set", "decks=9"), "decks", "1-8")
    assert_user_error(run("rules", "show", "--set", "surrender=sometimes"), "surrender")
    assert_user_error(run("simulate", *TINY, "--set", "decks"), "decks")


def test_bad_strategy():
    assert_user_error(run("simulate", *TINY, "--strategy", "nope"), "nope", "basic")
    assert_user_error(run("strategies", "show", "nope"), "nope")
    r = run("simulate", *TINY, "--boxes", "3", "--strategy", "basic", "--strategy", "basic")
    assert_user_error(r, "--strategy", "3")


def test_bad_rules_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("decks = 6\nblackjack_payz = 1.5\n")
    assert_user_error(run("simulate", *TINY, "--rules", str(bad)), "bad.toml", "blackjack_payz")
    assert_user_error(run("rules", "show", "--rules", str(tmp_path / "none.toml")), "none.toml")
    result = run("rules", "check", str(bad), "configs/nz1994.toml")
    assert result.exit_code == 2
    assert "configs/nz1994.toml: ok" in result.stdout and "blackjack_payz" in result.stderr
    # a shipped rule set by name, as --rules takes it (its listing named it, then refused it)
    result = run("rules", "check", "nz1994-8deck")
    assert result.exit_code == 0 and result.stdout.endswith("configs/nz1994-8deck.toml: ok\n")


def test_rules_show_and_toml_round_trip(tmp_path):
    result = run("rules", "show", "--set", "decks=8")
    assert result.exit_code == 0
    assert "decks = 8" in result.stdout and "3.1" in result.stdout and "14" in result.stdout
    path = tmp_path / "nz8.toml"
    assert run("rules", "show", "--set", "decks=8", "-f", "toml", "-o", str(path)).exit_code == 0
    assert run("rules", "check", str(path)).exit_code == 0
    doc = json.loads(run("rules", "show", "--rules", str(path), "-f", "json").stdout)
    assert doc["rules"]["decks"] == 8


def test_strategies_list_and_show(tmp_path):
    result = run("strategies", "list")
    assert result.exit_code == 0
    names = [ln.split()[0] for ln in result.stdout.splitlines()]
    assert "basic" in names and "mimic-dealer" in names
    path = tmp_path / "mine.toml"
    assert run("strategies", "show", "basic", "-o", str(path)).exit_code == 0
    a = json.loads(run("simulate", *TINY, "-f", "json").stdout)
    b = json.loads(run("simulate", *TINY, "-f", "json", "--strategy", str(path)).stdout)
    assert a["results"] == b["results"]


# box Th 7s = 17 stands (basic); dealer 9c then 8d = 17: a push. Then As Kh blackjack v 5d: paid.
CARDS = "Th 9c 7s 8d\nAs 5d Kh  # second round\n"


def test_replay_text_and_json(tmp_path):
    path = tmp_path / "shoe.txt"
    path.write_text(CARDS)
    result = run("replay", "--cards", str(path))
    assert result.exit_code == 0, result.output
    assert "Round 1" in result.stdout and "Round 2" in result.stdout
    assert "2 complete rounds, 7 cards dealt of the 7 given; 0 cards left" in result.stdout
    doc = json.loads(run("replay", "--cards", str(path), "-f", "json").stdout)
    assert len(doc["rounds"]) == 2 and doc["cards"] == 7
    assert doc["rounds"][0]["dealer"]["total"] == 17
    assert doc["rounds"][0]["boxes"][0] is not None
    stdin = run("replay", "--cards", "-", "-f", "json", input=CARDS)
    assert json.loads(stdin.stdout)["rounds"] == doc["rounds"]
    bad = run("replay", "--cards", "-", input="Xh 9c\n")  # (a review: the option not named)
    assert bad.exit_code == 2 and bad.stderr.startswith(
        "Error: --cards <stdin>: line 1, card 1: 'Xh' is not a card"), bad.stderr
    one = json.loads(run("replay", "--cards", str(path), "--cut", "1", "-f", "json").stdout)
    assert len(one["rounds"]) == 1


def test_replay_quotes_a_text_value_of_the_rules(tmp_path):
    # a review: "double not allowed here (double_on = 10-11)", where messages quote text
    path = tmp_path / "shoe.txt"
    path.write_text("5c 3h 4d 9s Tc 8c 7h 6d 5s\n")  # hard 9 v 3: basic doubles
    result = run("replay", "--cards", str(path), "--strategy", "basic", "--set",
                 "double_on=10-11")
    assert 'hard 9 v 3 = D, double not allowed here (double_on = "10-11"), so hit' in \
        result.stdout, result.output


def test_replay_json_run_records_the_cut(tmp_path):
    # README "JSON output": with cards left and no incomplete round, run.cut says why play stopped.
    path = tmp_path / "cards.txt"
    path.write_text("7h 9c Td 7s 5d   8h Ks 2c 9d 9h\n")  # two rounds of five cards
    cut = json.loads(run("replay", "--cards", str(path), "--cut", "5", "-f", "json").stdout)
    assert cut["run"]["cut"] == 5 and cut["run"]["partial"] is False
    assert cut["incomplete_round"] is None and len(cut["rounds"]) == 1
    last = cut["rounds"][-1]
    dealt = last["start"] + len(last["cards"])
    assert dealt == last["record"][0] == 5 and cut["cards"] == 10  # 5 cards left, by the cut
    whole = json.loads(run("replay", "--cards", str(path), "-f", "json").stdout)
    assert whole["run"]["cut"] is None and len(whole["rounds"]) == 2
    last = whole["rounds"][-1]
    assert last["start"] + len(last["cards"]) == whole["cards"] == 10  # every card played


def test_replay_names_each_boxs_strategy_in_box_order(tmp_path):
    # three boxes read "strategy insurance-taker, basic": the names without repeats, not by box
    path = tmp_path / "s7.txt"
    path.write_text("As 7h 9d Ac Kd 7h 7c 7s 5c Th\n")
    args = ["replay", "--cards", str(path), "--boxes", "3", "--strategy", "insurance-taker",
            "--strategy", "basic", "--strategy", "insurance-taker"]
    head = run(*args).stdout.splitlines()[0]
    assert "; strategy box 1: insurance-taker, box 2: basic, box 3: insurance-taker; " in head
    sim = run("simulate", *args[3:], "-n", "1000", "-q").stdout  # (as simulate names them)
    assert "Strategy:  box 1: insurance-taker, box 2: basic, box 3: insurance-taker\n" in sim
    assert json.loads(run(*args, "-f", "json").stdout)["strategy"] == [
        "insurance-taker", "basic", "insurance-taker"]
    one = run("replay", "--cards", str(path), "--boxes", "3", "--strategy", "basic")
    assert "; strategy basic; " in one.stdout.splitlines()[0]


def test_replay_bad_cards(tmp_path):
    path = tmp_path / "shoe.txt"
    path.write_text("Th 9c 1x 8d\n")
    assert_user_error(run("replay", "--cards", str(path)), "1x")


def test_replay_cards_a_folder_is_named_in_the_projects_words(tmp_path):
    # It was click's "Invalid value for '--cards': File '...' is a directory."
    folder = tmp_path / "somefolder"
    folder.mkdir()
    result = run("replay", "--cards", str(folder))
    assert_user_error(result)
    assert result.stderr == f"Error: --cards {folder}: a folder, not a card file\n"


def test_a_card_file_that_cannot_be_read_names_cards(tmp_path):
    # It said "Error: /nonexist: no such card file", where "--cards empty.txt: no cards, ..."
    # named the option.
    missing = tmp_path / "nonexist"
    assert run("replay", "--cards", str(missing)).stderr == (
        f"Error: --cards {missing}: no such card file\n")
    bad = tmp_path / "bad.txt"
    bad.write_text("Th 9c 1x\n")
    assert run("replay", "--cards", str(bad)).stderr.startswith(
        f"Error: --cards {bad}: line 1, card 3: '1x' is not a card")


def test_a_strategy_path_is_named_as_typed(tmp_path, monkeypatch):
    # `strategy show ./nosuch` said "nosuch: no such strategy file"; an option's file that is
    # none then said it without the option (`--plan nosuch`, a name, named it), a count's and a
    # plan's as "nosuch".
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    for args, said in ((["strategy", "show", "./nosuch"], "./nosuch: no such strategy file: "),
                       (["simulate", "--strategy", "./nosuch"],
                        "--strategy ./nosuch: no such strategy "),
                       (["simulate", "--rules", "./nosuch"], "--rules ./nosuch: no such rule "),
                       (["count", "--plan", "./nosuch"], "--plan ./nosuch: no such plan "),
                       (["strategy", "indices", "--count", "./nosuch"],
                        "--count ./nosuch: no such count file"),
                       (["compare", "--variant=./nosuch"], "--variant ./nosuch: no such var"),
                       (["strategy", "show", "./folder"], "./folder: a folder, not a strategy")):
        result = run(*args)
        assert_user_error(result)
        assert result.stderr.startswith(f"Error: {said}"), result.stderr


def test_an_empty_file_option_is_named_once_before_the_loaders_words():
    # a day's change to name the option before a missing file made these "--rules an empty
    # path", "--plan : an empty path" and "--variant --variant: an empty path"
    for args, kind in ((["simulate", "--rules="], "rule"), (["count", "--plan="], "plan"),
                       (["compare", "--variant="], "variant"), (["simulate", "--strategy="],
                                                                "strategy"),
                       (["strategy", "indices", "--count="], "count"),
                       (["exact", "--removal", "--count="], "count")):
        result = run(*args, "-q")
        assert_user_error(result)
        option = args[-1].rstrip("=")
        assert result.stderr.startswith(f"Error: {option}: an empty path: name a {kind} "), \
            result.stderr


def test_ctrl_c_prints_the_partial_report(monkeypatch):
    from simulator import engine

    interrupt_after_first_chunk(monkeypatch, engine, "iter_chunks")
    result = run("simulate", *TINY, "--workers", "1", "-f", "json")
    assert result.exit_code == 130
    doc = json.loads(result.stdout)
    assert doc["run"]["partial"] is True
    # the first chunk, and the second if it was in play at the stop (waited for, and kept)
    done = doc["results"]["rounds"]
    assert done in (5000, 10_000) and doc["run"]["rounds_played"] == done
    assert "interrupted" in result.stderr
    table = run("simulate", *TINY, "--workers", "1")
    assert table.exit_code == 130 and "PARTIAL RESULT" in table.stdout


@pytest.mark.parametrize("command, name", [(["simulate"], "iter_chunks"),
                                           (["compare", "--vary", "decks=8"], "advance_job"),
                                           (["count"], "advance_job"),
                                           (["count", "--penetrations", "0.6,0.8"],
                                            "advance_job")])
def test_ctrl_c_before_any_chunk_writes_no_report(monkeypatch, tmp_path, command, name):
    # A 0-round partial report was written over -o's file; now nothing is written, as README's
    # "stopped before it has anything to report" says, and the exit code is 130.
    from simulator import engine

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt
        yield

    monkeypatch.setattr(engine, name, stopped)
    out = tmp_path / "keep.json"
    out.write_text("precious")
    result = run(*command, *TINY, "-f", "json", "-o", str(out))
    assert result.exit_code == 130
    assert "nothing to report" in result.stderr and out.read_text() == "precious"
    assert "0 rounds" not in result.stderr  # one line, not the run's lines of nothing


@pytest.mark.parametrize("command, job", [(["simulate"], "simulator.chunks.PlayChunk"),
                                          (["compare", "--vary", "decks=8"],
                                           "simulator.compare.PlayVariants"),
                                          (["count"], "simulator.chunks.CountChunk")])
def test_ctrl_c_while_compiling_draws_no_bar_and_says_so(monkeypatch, command, job):
    """Ctrl-C during a first run's compile drew a 0% progress bar, then 'interrupted before any
    chunk finished': the bar is drawn only once compiling is done, and the line says when (in
    simulate, compare and count, which share `run.compile_then_bar`)."""
    import importlib

    module, name = job.rsplit(".", 1)

    def compiling(self):
        raise KeyboardInterrupt

    from simulator import jit

    monkeypatch.setattr(getattr(importlib.import_module(module), name), "warm", compiling)
    # stderr said it was compiling (a cold cache), or did not (loading from the cache: the
    # line said "while compiling" all the same)
    for said, when in (({"simulate"}, "compiling"), (set(), "starting")):
        monkeypatch.setattr(jit, "_said", said)
        result = run(*command, "--rounds", "20_000", "--chunk-rounds", "5000")
        assert result.exit_code == 130
        # (compare's line of its exact figures comes first; with a cold numba cache, compare's
        # probe of the rounds a shoe lasts compiles the kernel before it, saying so)
        lines = [ln for ln in result.stderr.splitlines() if ln.strip()
                 and not ln.startswith("bjsim: compiling")]  # fmt: skip
        assert lines[-1:] == [f"bjsim: interrupted while {when}, before any chunk finished: "
                              "nothing to report"], lines
        assert not any("0%|" in ln for ln in lines), lines  # no bar: tqdm writes 'bjsim: 0%|'
        assert len(lines) == 1 + (command[0] == "compare"), lines


def test_rules_show_says_where_each_value_comes_from():
    out = CliRunner().invoke(cli, ["rules", "show", "--set", "decks=8"]).output
    line = next(x for x in out.splitlines() if "decks = 8" in x)
    assert "within gazette" in line and "(within the Gazette's range, 3.1: 6-8 decks)" in line
    assert "gazette" in next(x for x in out.splitlines() if "blackjack_pays" in x)
    assert "from: gazette = the NZ value, as the Gazette text in hand gives it" in out
    assert out.startswith("Rule set: nz1994 (modified: decks=8) (configs/nz1994.toml)\n")
    out = CliRunner().invoke(cli, ["rules", "show", "--rules", "us-6deck-s17-das-peek"]).output
    assert out.startswith("Rule set: us-6deck-s17-das-peek (configs/us-6deck-s17-das-peek.toml)")


NO_FOLDER = "/nonexistent_dir/x"


@pytest.mark.parametrize("args, option", [
    (["simulate", "-n", "400M", "-o", NO_FOLDER + ".txt"], "-o"),
    (["count", "-n", "400M", "-o", NO_FOLDER + ".txt"], "-o"),
    (["compare", "--vary", "decks=8", "-o", NO_FOLDER + ".txt"], "-o"),
    (["compare", "--vary", "decks=8", "--plot", NO_FOLDER + ".png"], "--plot"),
    (["compare", "--vary", "decks=8", "--plot", "effects.txt"], "--plot"),
    (["exact", "--output", NO_FOLDER + ".txt"], "--output"),
    (["strategy", "show", "basic", "-o", NO_FOLDER + ".toml"], "-o"),
    (["rules", "show", "-o", "/"], "-o"),
    (["report", "-o", "/etc/hostname"], "-o"),
    (["simulate", "-n", "400M", "-o", "/tmp/" + "a" * 300 + ".txt"], "-o"),  # name > 255
    (["report", "--output", "/tmp/" + "b" * 300], "--output"),
], ids=lambda a: " ".join(a)[:60] if isinstance(a, list) else a)
def test_an_output_that_cannot_be_written_is_refused_before_any_round(monkeypatch, args, option):
    from simulator import compare, count_runs
    from simulator import run as run_mod
    from simulator.exact import compare as exact_compare

    def played(*_a, **_k):
        raise AssertionError("a round was played before the output was checked")

    for module, name in [(run_mod, "simulate"), (compare, "compare"), (count_runs, "play"),
                         (exact_compare, "exact_figures")]:
        monkeypatch.setattr(module, name, played)
    assert_user_error(run(*args), f"Error: {option} {args[-1]}: ")  # (the option as typed)


@pytest.mark.parametrize("args, option, folder", [
    (["simulate", "-n", "400M", "-o", "{d}/x.txt"], "-o", False),
    (["simulate", "-n", "400M", "--output={d}/x.txt"], "--output", False),
    (["simulate", "-n", "400M", "--checkpoint", "{d}/x.ckpt"], "--checkpoint", False),
    (["report", "-o", "{d}/x"], "-o", True),
    (["report", "--output", "{d}/x/y"], "--output", True),
    (["rules", "show", "-o", "{d}/x"], "-o", False),
    (["compare", "--vary", "decks=8", "--plot", "{d}/x.png"], "--plot", False),
    (["compare", "--vary", "decks=8", "--checkpoint", "{d}/x.ckpt"], "--checkpoint", False),
], ids=lambda a: " ".join(a)[:40] if isinstance(a, list) else str(a))
@pytest.mark.parametrize("code, why", [
    # /proc: the folder is there, and still "No such file or directory" (it makes no file)
    (errno.ENOENT, "the system lets nothing be made there (trying: No such file or directory)"),
    (errno.EROFS, "a read-only file system"),
])
def test_an_output_the_system_refuses_is_one_wording_in_every_command(
        monkeypatch, tmp_path, args, option, folder, code, why):
    # -o /proc/x said "Invalid value for '-o' / '--output': /proc/x: cannot write in /proc: No
    # such file or directory" (though /proc is there), --checkpoint "--checkpoint /proc/x.ckpt:
    # cannot write in /proc: ...", report -o "--output /proc/x: cannot write: No such ..."
    import tempfile

    from simulator import compare, count_runs
    from simulator import run as run_mod
    from simulator.exact import compare as exact_compare

    def refused(*_a, **_k):
        raise OSError(code, os.strerror(code), _k.get("dir"))

    def played(*_a, **_k):
        raise AssertionError("a round was played before the output was checked")

    for module, name in [(run_mod, "simulate"), (compare, "compare"), (count_runs, "play"),
                         (exact_compare, "exact_figures")]:
        monkeypatch.setattr(module, name, played)
    monkeypatch.setattr(tempfile, "NamedTemporaryFile", refused)
    if folder:  # (a folder that is made: refused where it is made)
        monkeypatch.setattr(os, "mkdir", lambda path, *a, **k: refused(dir=path))
    args = [a.format(d=tmp_path) for a in args]
    path = args[-1].partition("=")[2] or args[-1]
    args += ["-q"] if args[0] != "rules" else []
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.stderr == f"Error: {option} {path}: cannot write in {tmp_path}: {why}\n"
    assert list(tmp_path.iterdir()) == []


def _refused_at_once(monkeypatch, *args):
    """``report`` with ``args``: refused with an Error line before any analysis or run."""
    from simulator import assessment

    def compute(*_a, **_k):
        raise AssertionError("the report's runs started before its folder was checked")

    monkeypatch.setattr(assessment, "compute", compute)
    return run("report", "--rounds", "1000", "--no-variants", "-q", *args)


@pytest.mark.parametrize("where", ["under a file", "/proc", "/sys"])
def test_a_report_folder_that_cannot_be_made_is_refused_before_the_run(
        tmp_path, monkeypatch, where):
    """``report -o /proc/x`` as root passed the permission check (root may write anywhere, by
    os.access), played the whole run, then failed: the folder is now made, and a file written in
    it, before anything else."""
    import os

    path = {"under a file": str(tmp_path / "file" / "x"), "/proc": "/proc/bjsim-x",
            "/sys": "/sys/bjsim-x/y"}[where]
    if where == "under a file":
        (tmp_path / "file").write_text("a file\n")
    elif not os.path.isdir(path.split("/bjsim-")[0]):
        pytest.skip(f"{where} does not exist on this system (not Linux); the case of a path "
                    "under a file runs everywhere")
    assert_user_error(_refused_at_once(monkeypatch, "-o", path), f"Error: -o {path}: cannot write")


def test_the_folder_probe_leaves_nothing_behind(tmp_path, monkeypatch):
    """The folders made to check -o are removed again when the command stops before its run."""
    out = tmp_path / "new" / "report"
    assert_user_error(_refused_at_once(monkeypatch, "-o", str(out), "--variant",
                                       "configs/variants/h17.toml"), "--no-variants")
    assert list(tmp_path.iterdir()) == []


def test_an_output_is_neither_created_nor_truncated_when_the_run_is_refused(tmp_path):
    out = tmp_path / "kept.txt"
    out.write_text("kept\n")
    result = run("simulate", "-n", "1.5", "-o", str(out))
    assert result.exit_code == 2 and out.read_text() == "kept\n"
    assert run("simulate", "-n", "1.5", "-o", str(tmp_path / "new.txt")).exit_code == 2
    assert not (tmp_path / "new.txt").exists()


@pytest.mark.parametrize("args, words", [
    (["--set", "boxes=3", "--boxes", "2"], ["--set boxes=3", "--boxes"]),
    (["--set", " super_sevens = true", "--no-super-sevens"],
     ["--set super_sevens=true", "--no-super-sevens"]),
    (["--super-sevens", "--set", "super_sevens=false"], ["--set super_sevens=false",
                                                         "--super-sevens"]),
    (["--set", "decks=6", "--set", "decks=8"], ["--set decks=6 and --set decks=8"]),
])
@pytest.mark.parametrize("command", [["simulate"], ["rules", "show"], ["report", "-o", "r"]])
def test_a_key_set_twice_is_refused(command, args, words):
    assert_user_error(run(*command, *args), *words, "allowed one of them")


@pytest.mark.parametrize("seed", ["abc", "-3", "1.5", ""])
def test_a_bad_seed_says_what_a_seed_is(seed):
    assert_user_error(run("simulate", "--seed", seed, "-q"), "--seed",
                      "allowed a whole number, 0 or more")


def test_a_seed_of_more_digits_than_python_reads_says_so():
    # it said "is not a seed: allowed a whole number, 0 or more" of a whole number, quoted whole
    most = sys.get_int_max_str_digits()
    assert_user_error(run("simulate", "--seed", "1" * (most + 1), "-q"), "--seed",
                      f"'{'1' * 20}...' ({most + 1} digits) is not a seed",
                      f"allowed a whole number, 0 or more, of at most {most} digits")


@pytest.mark.parametrize("seed", [2**53 + 1, 2**64 - 1])
@pytest.mark.parametrize("command", [["simulate"], ["compare", "--vary", "decks=8", "--no-exact"],
                                     ["count"]], ids=lambda c: c[0])
def test_a_seed_no_float_holds_is_played_and_reported_exactly(command, seed):
    # 2**53 + 1 and 2**64 - 1 were refused, "seed = 9007199254740993: allowed a whole number
    # >= 0", where 2**53 and 2**64 played
    result = run(*command, "--rounds", "2000", "--chunk-rounds", "1000", "--seed", str(seed),
                 "-q", "-f", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["run"]["seed"] == seed
    assert f'"seed": {seed},' in result.stdout  # (as written, not through a float)


def test_a_variant_file_as_rules_points_to_compare_variant():
    assert_user_error(run("simulate", "--rules", "configs/variants/h17.toml", "-q"),
                      "configs/variants/h17.toml", "a variant file",
                      "bjsim compare --variant configs/variants/h17.toml")


def test_a_strategy_file_as_rules_and_a_rule_file_as_strategy_say_where_each_goes(tmp_path,
                                                                                 monkeypatch):
    # A strategy file in `rules check` gave nine "unknown key" lines ("'hard': did you mean
    # 'hole_card'?"); a rule file as --strategy, "unknown key 'decks': allowed name, ...".
    monkeypatch.chdir(tmp_path)
    (tmp_path / "basic.toml").write_text(run("strategy", "show", "basic").stdout)
    (tmp_path / "two.toml").write_text("decks = 2\n")
    said = ("basic.toml: a strategy file, not a rule file: give it to --strategy (`bjsim "
            "simulate --strategy basic.toml`)")
    result = run("rules", "check", "basic.toml")
    assert result.exit_code == 2 and result.stderr == f"Error: {said}\n"
    assert_user_error(run("simulate", "-q", "-n", "1000", "--rules", "basic.toml"), said)
    assert_user_error(run("simulate", "-q", "-n", "1000", "--strategy", "two.toml"),
                      "two.toml: a rule file, not a strategy file: give it to --rules")


def test_a_strategy_file_of_any_suffix_plays(tmp_path, monkeypatch):
    # `--strategy mine.txt` said "unknown strategy 'mine.txt': allowed ... or the path of a .toml
    # strategy file", where `./mine.txt` played.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.txt").write_text(run("strategy", "show", "never-bust").stdout)
    args = ["simulate", *TINY, "--set", "decks=8", "-f", "json"]
    mine, theirs = (json.loads(run(*args, "--strategy", s).stdout)["results"]["house_edge"]
                    for s in ("mine.txt", "never-bust"))
    assert mine == theirs


def test_a_clash_of_the_rule_file_and_set_names_each_keys_place(tmp_path):
    # It blamed --set for the file's key: "--set: key 'resplit_aces' = true needs ...".
    path = tmp_path / "rsa.toml"
    path.write_text("resplit_aces = true\nmax_hands = 4\n")
    assert_user_error(run("simulate", "-q", "-n", "1000", "--rules", str(path), "--set",
                          "max_hands=2"),
                      f"Error: {path} and --set: key 'resplit_aces' = true ({path}) needs at least "
                      "3 hands per box, but 'max_hands' = 2 (--set): allowed resplit_aces = false, "
                      "or max_hands 3-4")


def test_rules_check_echoes_a_file_as_typed(tmp_path, monkeypatch):
    # An absolute path into the checkout was echoed as configs/variants/h17.toml, a path that is
    # not there from the folder the user is in.
    from simulator.rules import DEFAULT_RULES_PATH

    monkeypatch.chdir(tmp_path)
    h17 = str(DEFAULT_RULES_PATH.parent / "variants" / "h17.toml")
    result = run("rules", "check", h17, "nz1994")
    assert result.exit_code == 0
    assert result.stdout == (f"{h17}: ok (a variant of configs/nz1994.toml: "
                             "dealer_hits_soft_17=true)\nconfigs/nz1994.toml: ok\n")


def test_a_cut_that_lets_no_round_start_names_cut(tmp_path):
    path = tmp_path / "shoe.txt"
    path.write_text("Th 9c 7s 8d  As 5d Kh\n")
    assert_user_error(run("replay", "--cards", str(path), "--cut", "0"), "--cut", "x>=1")
    assert run("replay", "--cards", str(path), "--cut", "1").exit_code == 0


def test_rules_check_reports_a_folder_and_checks_the_other_files(tmp_path):
    result = run("rules", "check", "configs/nz1994.toml", str(tmp_path), "configs/nz1994.toml")
    assert result.exit_code == 2
    assert result.stdout.splitlines() == ["configs/nz1994.toml: ok"] * 2
    from simulator.rules import shipped_rule_sets

    line = (f"Error: {tmp_path}: a folder, not a rule file: allowed a shipped rule set by name "
            f"({', '.join(shipped_rule_sets())}) or the path of a rule file")
    assert result.stderr.splitlines() == [line]
    # --rules FOLDER: click's "Invalid value for '--rules': File '/tmp' is a directory." said
    # nothing of what is allowed
    for command in (["simulate"], ["compare", "--vary", "decks=8"], ["exact"]):
        refused = run(*command, "--rules", str(tmp_path), "-q")
        assert refused.exit_code == 2, refused.stderr
        assert refused.stderr == line.replace("Error: ", "Error: --rules ") + "\n", refused.stderr


def test_shipped_rule_sets_and_variants_are_found_from_any_folder(tmp_path, monkeypatch):
    # From another folder `--rules configs/nz1994-8deck.toml` said "no such rule file"; a shipped
    # rule set or variant is now found by its checkout path or its name. A file of that name in
    # the folder itself still comes first.
    monkeypatch.chdir(tmp_path)
    for given in ("configs/nz1994-8deck.toml", "nz1994-8deck", "nz1994-8deck.toml"):
        doc = json.loads(run("simulate", *TINY, "--rules", given, "--strategy", "basic", "-f",
                             "json").stdout)  # (basic: no derivation, not the question here)
        assert doc["rules"]["decks"] == 8 and doc["run"]["rules_name"] == "nz1994-8deck"
        # named as the default is (configs/...), not by a path into the install
        assert doc["run"]["rules_file"] == "configs/nz1994-8deck.toml"
    out = run("compare", "--rounds", "4000", "--chunk-rounds", "2000", "--quiet", "--no-exact",
              "--same-strategy", "--variant", "variants/h17", "-f", "json").stdout
    assert json.loads(out)["variants"][0]["rules"]["dealer_hits_soft_17"] is True
    (tmp_path / "nz1994-8deck.toml").write_text("decks = 2\n")
    doc = json.loads(run("simulate", *TINY, "--rules", "nz1994-8deck.toml", "--strategy", "basic",
                         "-f", "json").stdout)
    assert doc["rules"]["decks"] == 2 and doc["run"]["rules_file"] == "nz1994-8deck.toml"
    shown = run("compare", "--rounds", "4000", "--chunk-rounds", "2000", "--quiet", "--no-exact",
                "--same-strategy", "--rules", "single-deck-h17", "--vary", "decks=2").stdout
    assert "against the baseline single-deck-h17 (configs/single-deck-h17.toml; Gazette: " in shown


def test_a_commands_option_before_the_command_says_where_options_go():
    result = CliRunner().invoke(cli, ["--rounds", "1M"])
    assert result.exit_code == 2
    assert "Options go after the command, e.g. bjsim simulate --rounds 1M" in result.stderr


def test_output_dash_is_stdout(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("simulate", *TINY, "-f", "json", "-o", "-")
    assert json.loads(result.stdout)["results"]["rounds"] == 20_000
    assert not (tmp_path / "-").exists()


def test_replays_help_examples_run(tmp_path, monkeypatch):
    # Its shoe of six cards made no complete round for the example's two boxes.
    text = run("replay", "--help").stdout
    shoe = re.search(r"printf '([^']*)\\n' > shoe.txt", text).group(1)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "shoe.txt").write_text(shoe + "\n")
    for line in text.splitlines():
        if line.strip().startswith("bjsim replay"):
            result = run(*shlex.split(line.strip())[1:])
            assert result.exit_code == 0, (line, result.output)
            assert "warning" not in result.stderr, (line, result.stderr)


def test_an_output_that_cannot_be_written_loses_no_report(tmp_path, monkeypatch):
    # stdout on a full disk gave a traceback; -o failing at the end (checked before the run, so
    # the disk filled since) lost the whole result with exit code 2, as for bad input.
    import click

    from simulator import atomic

    full = OSError(28, "No space left on device")
    target = str(tmp_path / "out.txt")

    real_write = atomic.write

    def write(path, *a, **k):  # (-o is written through a temporary file renamed over it)
        if str(path) == target:
            raise full
        return real_write(path, *a, **k)

    monkeypatch.setattr(atomic, "write", write)
    for option in ("-o", "--output"):  # (named as typed: it said --output for -o)
        result = run("simulate", *TINY, option, target)
        assert result.exit_code == 1
        assert result.stdout.startswith("bjsim ") and "HOUSE EDGE" in result.stdout
        assert result.stderr.strip() == (f"Error: {option} {target}: cannot write: No space "
                                         "left on device: the report is on stdout instead")
    real_echo = click.echo

    def echo(message=None, *args, err=False, **kwargs):
        if not err:
            raise full
        return real_echo(message, *args, err=err, **kwargs)

    monkeypatch.setattr(click, "echo", echo)
    done = run("rules", "show")
    assert done.exit_code == 1 and "Traceback" not in done.output
    assert done.stderr.strip() == "Error: stdout: cannot write: No space left on device"


@pytest.mark.parametrize("args, words", [
    (["simulate", "--rules", ""], ["an empty path", "rule file"]),
    (["rules", "check", ""], ["an empty path", "rule file"]),
    (["replay", "--cards", ""], ["an empty path", "card file"]),
    (["simulate", "--strategy", ""],
     ["--strategy: an empty path: name a strategy file (or a shipped one"]),
    (["replay", "--strategy", "", "--cards", "F"], ["--strategy: an empty path: name a strategy"]),
    (["strategy", "show", ""], ["an empty path: name a strategy file (or a shipped one"]),
    (["count", "--plan", ""], ["an empty path: name a plan file (or a shipped one by name)"]),
    (["strategy", "indices", "--count", "", "-o", "unused"],
     ["an empty path: name a count file (or a shipped one by name)"]),
    (["compare", "--variant", ""], ["--variant", "an empty path", "variant file"]),
    (["report", "--variant", "", "-o", "unused"], ["--variant", "an empty path"]),
    (["report", "--no-variants", "-o", "-"], ["-o -:", "not stdout", "./-"]),
    (["strategy", "generate", "--name", ""], ["--name", "an empty name"]),
    (["strategy", "indices", "--name", " "], ["--name", "an empty name"]),
])
def test_empty_paths_names_and_a_report_to_stdout_are_refused_saying_why(args, words, tmp_path,
                                                                          monkeypatch):
    monkeypatch.chdir(tmp_path)  # (nothing made in the checkout, should one be accepted)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code in (1, 2) and "Traceback" not in result.output, result.output
    line = [ln for ln in result.stderr.splitlines() if ln.strip()][-1]
    assert line.startswith("Error:") and all(w in line for w in words), line
    assert not (tmp_path / "-").exists() and not (tmp_path / "unused").exists()


@pytest.mark.parametrize("args, option, name", [
    (["simulate", "--strategy", "nonexistent"], "--strategy", "nonexistent"),
    (["simulate", "--boxes", "2", "--strategy", "basic", "--strategy=nope"], "--strategy", "nope"),
    (["replay", "--cards", "F", "--strategy", "nope"], "--strategy", "nope"),
    (["compare", "--vary-strategy", "nosuch"], "--vary-strategy", "nosuch"),
    (["compare", "--strategy", "nosuch", "--vary-strategy", "mimic-dealer"], "--strategy",
     "nosuch"),
    (["exact", "--strategy", "nope"], "--strategy", "nope"),
    (["report", "--strategy", "nope", "-o", "unused"], "--strategy", "nope"),
    (["report", "--choice", "basic", "--choice", "nope", "-o", "unused"], "--choice", "nope"),
    (["count", "--strategy", "nope"], "--strategy", "nope"),
])
def test_an_unknown_strategy_names_the_option_that_gave_it(args, option, name, tmp_path,
                                                           monkeypatch):
    """A review: `compare --vary-strategy nosuch` said "unknown strategy 'nosuch'" alone, where
    --strategy takes one too: the option and the value as typed come first, as --cards's and
    --vary's refusals (a variant file's or a plan's strategy names its file and key already)."""
    from simulator.strategy import list_strategies

    monkeypatch.chdir(tmp_path)  # (nothing made in the checkout, should one be accepted)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.stderr.splitlines() == [
        f"Error: {option} {name}: unknown strategy '{name}': allowed a shipped strategy "
        f"({', '.join(list_strategies())}) or the path of a strategy file"]
    assert not (tmp_path / "unused").exists()


@pytest.mark.parametrize("key, kind", [("count", "count"), ("indices", "index")])
def test_an_empty_count_or_index_path_in_a_plan_is_said_empty_not_a_folder(key, kind, tmp_path,
                                                                           monkeypatch):
    # Path("") is the folder ".": the plan's key was said to name a folder
    monkeypatch.chdir(tmp_path)
    plan = (PLAN_DIR / "hi-lo-1-12.toml").read_text().replace(
        f'{key} = "', f'{key} = "" # "', 1)
    (tmp_path / "p.toml").write_text(plan)
    result = CliRunner().invoke(cli, ["count", "--plan", "p.toml", "-n", "1000"])
    article = "an" if kind == "index" else "a"
    assert_user_error(result, f"p.toml: key '{key}': an empty path: name {article} {kind} file "
                      "(or a shipped one by name)")


def test_one_game_has_one_name_in_every_order_of_its_changes():
    # simulate --set blackjack_pays=1.2 --set decks=8 and --set decks=8 --set blackjack_pays=1.2
    # named one game two ways; run.overrides still lists the changes as typed.
    typed = [["--set", "blackjack_pays=6:5", "--set", "decks=8", "--boxes", "2"],
             ["--boxes", "2", "--set", "decks=8", "--set", "blackjack_pays=1.2"]]
    docs = [json.loads(run("simulate", *TINY, "-f", "json", *t).stdout) for t in typed]
    assert {d["run"]["rules_name"] for d in docs} == {
        "nz1994 (modified: decks=8, blackjack_pays=1.2, boxes=2)"}
    assert docs[0]["run"]["overrides"] == ["blackjack_pays=6:5", "decks=8", "boxes=2"]
    for t in typed:
        meta = run("rules", "show", "-f", "json", *t)
        assert json.loads(meta.stdout)["meta"]["name"] == (
            "nz1994 (modified: decks=8, blackjack_pays=1.2, boxes=2)")
    texts = [run("exact", *t).stdout for t in typed]
    assert all("nz1994 (modified: decks=8, blackjack_pays=1.2, boxes=2)" in t for t in texts)


def test_a_report_names_its_changes_in_the_rule_sets_order(tmp_path, monkeypatch):
    # The report's label and commands are made from the Spec's overrides: in the order typed,
    # `report --set penetration=0.8 --set decks=8` was "nz1994 (modified: penetration=0.8,
    # decks=8)", the name no other command gives that game.
    from simulator import assessment
    from simulator.assessment.figures import shown_name

    class Seen(Exception):
        pass

    specs = []

    def compute(spec, *_a, **_k):
        specs.append(spec)
        raise Seen

    monkeypatch.setattr(assessment, "compute", compute)
    for typed in (["--set", "penetration=0.8", "--set", "decks=8"],
                  ["--set", "decks=8", "--set", "penetration=0.8"]):
        CliRunner().invoke(cli, ["report", "--no-variants", "-n", "1000", "-q", "-o",
                                 str(tmp_path / "r"), *typed])
    assert [s.overrides for s in specs] == [("decks=8", "penetration=0.8")] * 2
    assert shown_name("nz1994", specs[0].overrides) == (
        "nz1994 (modified: decks=8, penetration=0.8)")


@pytest.mark.parametrize("args", [["strategy", "list"], ["rules", "check", "nz1994"],
                                  ["--version"], ["simulate", "--help"]])
def test_a_full_stdout_is_one_line_for_every_command(args, tmp_path):
    # A stdout that refuses every write (/dev/full; here a file opened for reading, which does
    # so on any system): a command with no output handling of its own (a listing, a check,
    # click's --version and --help) says so in one line too, exit code 1
    (tmp_path / "out").write_text("")
    with open(tmp_path / "out") as unwritable:
        done = subprocess.run([sys.executable, "-m", "simulator", *args], stdout=unwritable,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip() == ("Error: stdout: cannot write: "
                                   f"{os.strerror(errno.EBADF)}")


@pytest.mark.parametrize("args", [["strategy", "list"], ["rules", "show"], ["--help"],
                                  ["simulate", "-q", "--rounds", "1000"]])
def test_a_closed_pipe_ends_quietly_as_sigpipe_does(args):
    # `bjsim strategy list | head -1` exited 1 (click's word for a closed pipe), without a line;
    # a closed pipe ends a program as SIGPIPE does: quietly, exit code 128 + 13
    read_end, write_end = os.pipe()
    os.close(read_end)  # (closed before a byte is written: every write is EPIPE)
    try:
        done = subprocess.run([sys.executable, "-m", "simulator", *args], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(write_end)
    said = [ln for ln in done.stderr.splitlines() if not ln.startswith("bjsim: compiling")]
    assert done.returncode == 141 and said == [], done.stderr


def test_a_pipe_closed_during_a_large_output_ends_as_sigpipe_does():
    # `bjsim exact --hands -q -f csv | head -1` (135 KB) exited 0: the write larger than the
    # pipe's 64 KB buffer was taken in part when the reader went, and the rest dropped in
    # silence (io.BufferedWriter returns the count, io.TextIOWrapper ignores it). A reader
    # that takes 10 bytes and closes: the rest of the output cannot go, exit code 141
    done = subprocess.Popen([sys.executable, "-m", "simulator", "exact", "--hands", "-q", "-f",
                             "csv"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert len(done.stdout.read(10)) == 10
    done.stdout.close()
    said = done.stderr.read().decode()
    assert done.wait(timeout=300) == 141 and said == "", said


def test_a_run_of_the_nz_chart_under_other_rules_says_so(tmp_path, monkeypatch):
    # `--rules us-6deck-s17-das-peek` played the NZ chart (no soft doubles) without a word:
    # -0.547% against -0.436% with the US game's own basic strategy.
    from simulator import derived
    from simulator.exact.cache import sealed
    from simulator.rules import load_rules
    from simulator.strategy import dumps_strategy, load_strategy

    monkeypatch.setenv("BJSIM_CACHE_DIR", str(tmp_path))
    loud = [a for a in TINY if a != "--quiet"]

    def note(*args):
        mine = () if "--strategy" in args else ("--strategy", "basic")
        result = run("simulate", *loud, *mine, *args)
        assert result.exit_code == 0, result.output
        return [ln for ln in result.stderr.splitlines() if "NZ rules' chart" in ln]

    assert note() == [] and note("--set", "penetration=0.8") == []
    assert note("--set", "decks=8", "--strategy", "mimic-dealer") == []
    (line,) = note("--set", "decks=8", "--set", "surrender=late")
    assert 'these rules (decks=8, surrender="late") may call for another: bjsim strategy ' \
        "generate" in line

    def label(*args):  # what every format says beside the strategy
        doc = json.loads(run("simulate", *TINY, "--strategy", "basic", *args, "-f",
                             "json").stdout)
        return doc["run"]["strategy_note"]

    assert label("--set", "decks=8", "--set", "surrender=late") == (
        "basic is the NZ rules' chart; these rules (decks=8, surrender=\"late\") may call for "
        "another")
    eight = load_rules().replace(decks=8)
    path = derived.basic_path(eight)
    path.write_bytes(sealed(dumps_strategy(load_strategy("basic"))))  # derived, the same: no note
    assert note("--set", "decks=8") == []
    path.write_bytes(sealed(dumps_strategy(load_strategy("mimic-dealer"))))  # (one that differs)
    (line,) = note("--set", "decks=8")
    assert line.endswith(f"the one derived for these rules (decks=8) differs: --strategy {path} "
                         "plays it")
    assert label("--set", "decks=8") == ("basic is the NZ rules' chart; the one derived for "
                                         "these rules (decks=8) differs")
    quiet = run("simulate", *TINY, "--strategy", "basic", "--set", "decks=8")
    assert quiet.stderr == ""  # --quiet


def test_simulate_count_and_replay_play_the_rules_own_basic_strategy_by_default(
        tmp_path, monkeypatch):
    # simulate and count played the NZ chart under any rules unless told otherwise, where
    # compare, exact and report play the rules' own: the same rules gave two house edges.
    from simulator import derived
    from simulator.exact.cache import sealed
    from simulator.rules import load_rules
    from simulator.strategy import dumps_strategy, load_strategy

    monkeypatch.setenv("BJSIM_CACHE_DIR", str(tmp_path))
    eight = load_rules().replace(decks=8)
    path = derived.basic_path(eight)
    path.parent.mkdir(parents=True, exist_ok=True)
    stand_in = load_strategy("mimic-dealer")  # (a cached chart that differs from the NZ one)
    path.write_bytes(sealed(dumps_strategy(stand_in)))
    said = "the exact analyzer's for decks=8; the shipped basic is the NZ rules' chart"
    named = "basic (derived for these rules)"  # (not its cache file: the same on every machine)

    def doc(*args):
        result = run("simulate", *TINY, "--set", "decks=8", *args, "-f", "json")
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    own, nz, mimic = doc(), doc("--strategy", "basic"), doc("--strategy", "mimic-dealer")
    assert own["strategy"] == [named] and own["run"]["strategy_note"] == said
    assert own["results"] == mimic["results"] != nz["results"]  # the chart played is the file
    loud = run("simulate", *[a for a in TINY if a != "--quiet"], "--set", "decks=8")
    assert f"playing the basic strategy derived for these rules (decks=8; {path})" in loud.stderr
    assert f"Strategy:  {named[:-1]}: {said})" in loud.stdout and str(path) not in loud.stdout
    # the NZ rules (or keys no chart depends on) play the shipped chart, with nothing said
    nz_rules = run("simulate", *TINY, "--set", "penetration=0.8", "-f", "json")
    assert json.loads(nz_rules.stdout)["strategy"] == ["basic"] and nz_rules.stderr == ""
    counted = run("count", "--plan", "hi-lo-flat", "--rounds", "2000", "--quiet", "--set",
                  "decks=8", "-f", "json")
    assert counted.exit_code == 0, counted.output
    assert json.loads(counted.stdout)["run"]["strategy_note"] == said
    rows = run("count", "--plan", "hi-lo-flat", "--rounds", "2000", "--quiet", "--set", "decks=8",
               "-f", "csv").stdout.splitlines()
    assert f"run,strategy,,,{named},,," in rows and f"run,strategy_note,,,{said},,," in rows
    cards = tmp_path / "shoe.txt"
    cards.write_text("Tc 6h 6d 9s 8c 5h 4d 3c\n")  # 16 against 6: the stand-in hits
    replayed = run("replay", "--cards", str(cards), "--set", "decks=8")
    nz_chart = run("replay", "--cards", str(cards), "--set", "decks=8", "--strategy", "basic")
    assert replayed.exit_code == nz_chart.exit_code == 0, replayed.output
    assert f"strategy {named[:-1]}: {said})" in replayed.stdout
    assert f"box 1 ({named}): main" in replayed.stdout
    assert "hits" in replayed.stdout.lower() and "hit" not in nz_chart.stdout.lower()


def test_rules_check_checks_a_variant_file_against_its_baseline(tmp_path):
    ok = CliRunner().invoke(cli, ["rules", "check", "configs/variants/h17.toml"])
    assert ok.exit_code == 0
    assert ok.stdout == ("configs/variants/h17.toml: ok (a variant of configs/nz1994.toml: "
                         "dealer_hits_soft_17=true)\n")
    cases = {
        '[variant]\nname = "x"\n[changes]\nh17 = true\n':
            "unknown key 'h17' in [changes] (not a rule-set key): did you mean "
            "'dealer_hits_soft_17'?",
        '[variant]\nname = "x"\nbaseline = "nope.toml"\n[changes]\ndecks = 8\n':
            "key 'variant.baseline' names",
        '[variant]\nname = "x"\nstrategy = "basik"\n[changes]\ndecks = 8\n':
            # (it named the value by Python's repr, 'basik', and the key without its table)
            "key 'variant.strategy' = \"basik\": unknown strategy 'basik': did you mean "
            "'basic'?",
        '[variant]\nname = " "\n[changes]\ndecks = 8\n':
            "key 'variant.name' = \" \" is empty: allowed a name: printable text, not empty, on "
            "one line (it names the variant's row)",
        '[variant]\nname = "x"\n[changes]\ndecks = 9\n': "key 'decks' = 9 is out of range",
        # (a review: these said nothing of what is allowed, nor the value)
        '[variant]\nname = "x"\nbaseline = "nosuch.toml"\n[changes]\ndecks = 8\n':
            "nosuch.toml: no such rule file: allowed the path of a rule file, relative to the "
            "variant file's folder",
        '[variant]\nname = "x"\n': "no [changes] and no variant.strategy: allowed a [changes] "
            "table of rule-set keys, or variant.strategy, or both",
        '[variant]\nname = "x"\nstrategy = 5\n[changes]\ndecks = 8\n': "key 'variant.strategy' "
            "= 5 is not a string: allowed a shipped strategy's name or the path of a strategy file",
        # (a review: the value was quoted as the path it was read from, "/tmp/.../nosuch.toml")
        '[variant]\nname = "x"\nstrategy = "nosuch.toml"\n[changes]\ndecks = 8\n':
            f"key 'variant.strategy' = \"nosuch.toml\": {tmp_path / 'nosuch.toml'}: no such "
            "strategy file",
    }
    for i, (text, said) in enumerate(cases.items()):
        path = tmp_path / f"v{i}.toml"
        path.write_text(text)
        bad = CliRunner().invoke(cli, ["rules", "check", str(path)])
        assert bad.exit_code == 2 and said in bad.stderr, (text, bad.stderr)
        assert len(bad.stderr.strip().splitlines()) == 1


def test_rules_check_json_gives_each_file_its_problems_and_changes(tmp_path):
    # `rules check` had only its text: a script checking a folder of casino files parsed the
    # "Error:" lines of stderr. json on stdout, a file an entry, in the order given; exit 2 still
    bad = tmp_path / "bad.toml"
    bad.write_text("decks = 9\nfoo = 1\n")
    args = ["rules", "check", "-f", "json", str(bad), "nz1994", "configs/variants/h17.toml"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and result.stderr == ""
    files = json.loads(result.stdout)["files"]
    assert [f["file"] for f in files] == [str(bad), "configs/nz1994.toml",
                                          "configs/variants/h17.toml"]
    assert [f["ok"] for f in files] == [False, True, True]
    assert len(files[0]["problems"]) == 2 and "'decks' = 9" in files[0]["problems"][0]
    assert "unknown key 'foo'" in files[0]["problems"][1]
    assert files[1]["problems"] == [] and files[1]["variant_of"] is None
    assert files[2]["variant_of"] == "configs/nz1994.toml"
    assert files[2]["changes"] == ["dealer_hits_soft_17=true"]
    good = CliRunner().invoke(cli, ["rules", "check", "--format", "json", "nz1994"])
    assert good.exit_code == 0 and json.loads(good.stdout)["files"][0]["ok"] is True


def test_rules_check_json_names_a_bad_variant_files_baseline_and_changes(tmp_path):
    # A variant file with a problem gave "variant_of": null, "changes": null, as a rule file
    # does: a script could not tell a broken variant from a broken rule file.
    path = tmp_path / "v.toml"
    base = os.path.abspath("configs/nz1994-8deck.toml")
    path.write_text(f'[variant]\nname = "x"\nbaseline = "{base}"\n[changes]\ndecks = 99\n'
                    'surrender = "none"\nhole_card = "peek"\n')
    nz = tmp_path / "nz.toml"  # (no baseline named: the NZ rule set)
    nz.write_text('[variant]\nname = "y"\nstrategy = "basic"\n[changes]\ndecks = "four"\n')
    gone = tmp_path / "gone.toml"
    gone.write_text('[variant]\nbaseline = "nope.toml"\n[changes]\ndecks = 4\n')
    rule = tmp_path / "rule.toml"
    rule.write_text("decks = 99\n")
    result = CliRunner().invoke(cli, ["rules", "check", "-f", "json"]
                                + [str(p) for p in (path, nz, gone, rule)])
    assert result.exit_code == 2 and result.stderr == ""
    files = json.loads(result.stdout)["files"]
    assert [f["ok"] for f in files] == [False] * 4
    assert files[0]["variant_of"] == "configs/nz1994-8deck.toml"
    # (surrender = "none" is the baseline's: left out, as in a good file's changes)
    assert files[0]["changes"] == ["decks=99", 'hole_card="peek"']
    assert files[1]["variant_of"] == "configs/nz1994.toml"
    assert files[1]["changes"] == ['decks="four"', "strategy=basic"]
    assert files[2]["variant_of"] == str(tmp_path / "nope.toml") and files[2]["changes"] is None
    assert files[3]["variant_of"] is None and files[3]["changes"] is None


def test_strategy_list_json_and_csv_give_each_strategy_and_its_hash(tmp_path):
    from simulator.strategy import charts_sha256, list_strategies, load_strategy

    doc = json.loads(run("strategy", "list", "-f", "json").stdout)["strategies"]
    assert [d["name"] for d in doc] == list_strategies()
    for d in doc:
        s = load_strategy(d["name"])
        assert d["description"] == s.description.strip() and d["error"] is None
        assert d["strategy_sha256"] == charts_sha256(s)
    rows = list(csv.DictReader(io.StringIO(run("strategy", "list", "-f", "csv").stdout)))
    assert [r["name"] for r in rows] == [d["name"] for d in doc]
    assert rows[0]["strategy_sha256"] == doc[0]["strategy_sha256"]
    path = tmp_path / "list.json"
    assert run("strategy", "list", "-f", "json", "-o", str(path)).stdout == ""
    assert json.loads(path.read_text())["strategies"] == doc


@pytest.mark.parametrize("path, files", [
    ("configs/variants/h17.toml", {"h17.toml": 1, "nz1994.toml": 1}),
    ("configs/variants/us-peek.toml", {"us-peek.toml": 1, "nz1994.toml": 1}),
    ("configs/nz1994-8deck.toml", {"nz1994-8deck.toml": 1}),
])
def test_rules_check_reads_and_parses_a_good_file_once(path, files, monkeypatch):
    # A good variant file was read and parsed six times (its baseline three), a rule file twice:
    # to tell a variant file, for its problems, for its baseline, for its changes.
    import tomllib
    from pathlib import Path

    from simulator import rules, variants

    reads, parses = {}, []

    def read_text(p, *args, **kwargs):
        reads[Path(p).name] = reads.get(Path(p).name, 0) + 1
        return real_read(p, *args, **kwargs)

    real_read, real_loads = rules.read_text, tomllib.loads
    for module in (rules, variants):
        monkeypatch.setattr(module, "read_text", read_text)
    monkeypatch.setattr(tomllib, "loads", lambda text: parses.append(text) or real_loads(text))
    result = CliRunner().invoke(cli, ["rules", "check", path])
    assert result.exit_code == 0 and result.stdout.startswith(f"{path}: ok")
    assert reads == files and len(parses) == len(files)


def test_rules_check_of_a_missing_file_names_the_shipped_rule_sets_and_variants(tmp_path,
                                                                                monkeypatch):
    # From another folder `rules check configs/variants/*.toml` (bash passes a pattern that
    # matches nothing as it is) and `rules check variants/nosuch` said "no such rule file
    # (shipped ones, by name: nz1994, ...)": no word of the variants or of variants/NAME.
    from simulator import variants
    from simulator.rules import shipped_rule_sets

    monkeypatch.chdir(tmp_path)
    rule_sets = ", ".join(shipped_rule_sets())
    result = run("rules", "check", "variants/nosuch", "variants/h17")
    assert result.exit_code == 2
    assert result.stdout.endswith("configs/variants/h17.toml: ok (a variant of "
                                  "configs/nz1994.toml: dealer_hits_soft_17=true)\n")
    names = ", ".join(f.stem for f in variants.shipped())
    assert "h17" in names.split(", ") and len(names.split(", ")) == len(variants.shipped()) > 20
    assert result.stderr == (
        f"Error: variants/nosuch: no such rule or variant file: allowed a path, a shipped rule "
        f"set by name ({rule_sets}) or a shipped variant as variants/NAME ({names})\n")
    result = run("rules", "check", "configs/variants/*.toml")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        f"Error: configs/variants/*.toml: no such rule or variant file: a pattern is expanded "
        f"by the shell, in the folder it runs in ({tmp_path}), and passed as it is where no "
        f"file matches it; allowed a path, a shipped rule set by name ({rule_sets}) or a "
        f"shipped variant as variants/NAME (the files of {variants.VARIANTS_DIR})\n")


def test_rules_check_gives_every_problem_of_a_rule_file(tmp_path):
    path = tmp_path / "typo.toml"
    path.write_text('decks = 9\npenetration = 80\nsurrender = "Late"\nh17 = true\n')
    result = CliRunner().invoke(cli, ["rules", "check", str(path), "nz1994"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert [ln.split(": ")[0] for ln in lines] == ["Error"] * 4
    for said in ("unknown key 'h17'", "key 'decks' = 9", "key 'penetration' = 80 ",
                 "key 'surrender' = \"Late\""):
        assert sum(said in ln for ln in lines) == 1, (said, lines)
    assert result.stdout.endswith("nz1994.toml: ok\n")  # the next file is still checked
    both = tmp_path / "both.toml"
    both.write_text("resplit_aces = true\nmax_hands = 2\n")  # a combination: one line
    (line,) = CliRunner().invoke(cli, ["rules", "check", str(both)]).stderr.strip().splitlines()
    assert "needs at least 3 hands per box" in line


def test_a_damaged_cached_strategy_is_derived_again_and_stderr_says_so(tmp_path, monkeypatch):
    # it was derived again in silence because the file existed
    from simulator import derived
    from simulator.rules import load_rules

    monkeypatch.setenv("BJSIM_CACHE_DIR", str(tmp_path))
    path = derived.basic_path(load_rules().replace(dealer_hits_soft_17=True))
    path.write_text("garbage ][")
    result = run("simulate", *[a for a in TINY if a != "--quiet"], "--set",
                 "dealer_hits_soft_17=true")
    assert result.exit_code == 0, result.output
    assert "bjsim: deriving the basic strategy for these rules (exact analyzer" in result.stderr
    assert f"bjsim: the cached {path} has no sha256 checksum (damaged, or written by an older " \
        "bjsim): made again\n" in result.stderr
    assert "sevens = " in path.read_text()  # derived and kept again


def test_an_empty_output_path_is_named_as_such():
    # -o '' and --checkpoint '' said "cannot write: it is a folder" (the current folder)
    for args in (["-o", ""], ["--checkpoint", ""], ["--checkpoint", "", "--resume"]):
        result = run("simulate", *TINY, *args)
        assert_user_error(result, "an empty path: name a file")
        assert ": :" not in result.stderr and "checkpoint  " not in result.stderr
    assert_user_error(run("report", "-o", ""), "an empty path: name a folder")


@pytest.mark.parametrize("command", [["simulate"], ["compare", "--vary", "decks=8"], ["count"]],
                         ids=lambda c: c[0])
def test_a_checkpoint_that_is_a_folder_is_refused_as_an_output_is(monkeypatch, tmp_path,
                                                                  command):
    """--checkpoint FOLDER got click's own words (Invalid value for '--checkpoint': File ...
    is a directory) and --resume FOLDER checkpoint_problem's: every command refuses an output
    that is a folder as -o does, the option as typed (README)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "somefolder").mkdir()
    expected = run(*command, "-o", "somefolder")
    assert expected.stderr == "Error: -o somefolder: cannot write: it is a folder\n"
    read = ("a folder, not a checkpoint: allowed the path of an existing checkpoint file (the "
            "run to carry on)")  # (a resume's file is read: "cannot write" was odd, a review)
    for args, option, said in ((["--checkpoint", "somefolder"], "--checkpoint",
                                "cannot write: it is a folder"),
                               (["--checkpoint", "somefolder", "--resume"], "--checkpoint", read),
                               (["--resume", "somefolder"], "--resume", read),
                               (["--resume=somefolder"], "--resume", read)):
        result = run(*command, *args)
        assert result.exit_code == 2, result.output
        assert result.stderr == f"Error: {option} somefolder: {said}\n"


@pytest.mark.parametrize("args", [
    ["simulate", "-o", "nodir/"], ["simulate", "--checkpoint", "nodir/"], ["exact", "-o", "nodir/"],
    ["rules", "show", "-o", "nodir/"], ["strategy", "show", "basic", "-o", "nodir/"]],
    ids=lambda a: "-".join(a[:-1]))
def test_a_file_path_ending_in_a_slash_is_refused_not_written_as_a_file(monkeypatch, tmp_path,
                                                                        args):
    """A review: `-o nodir/` (no such folder) wrote a file named nodir."""
    monkeypatch.chdir(tmp_path)
    result = run(*args, *(["-n", "1000"] if args[0] == "simulate" else []))
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"Error: {args[-2]} nodir/: cannot write: a path ending in / names "
                             f"a folder (no folder {tmp_path / 'nodir'}): name a file\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [
    ["simulate", "-o", "{path}"], ["simulate", "--checkpoint", "{path}"],
    ["compare", "--vary", "decks=8", "--plot", "{path}.png"], ["compare", "-o", "{path}"],
    ["count", "-o", "{path}"], ["count", "--checkpoint", "{path}"], ["exact", "-o", "{path}"]])
@pytest.mark.parametrize("where", ["/proc/x", "under a file"])
def test_a_file_output_the_system_refuses_fails_before_the_run(monkeypatch, tmp_path, args,
                                                                where):
    """Single-file outputs were checked by permission alone (os.access), which root passes where
    the write fails (/proc/x): a temporary file made and removed in the target's folder, as
    report -o's, refuses them at once, the target itself neither created nor truncated."""
    from simulator import compare
    from simulator import run as run_mod
    from simulator.exact import compare as exact_compare

    def started(*a, **k):
        raise AssertionError("the run started")

    for module, name in [(run_mod, "simulate"), (compare, "compare"),
                         (exact_compare, "exact_figures")]:
        monkeypatch.setattr(module, name, started)
    if where == "under a file":
        (tmp_path / "file").write_text("")
        path = str(tmp_path / "file" / "x")
    else:
        path = where
    result = run(*[a.format(path=path) for a in args], "-q")
    assert result.exit_code == 2, result.output
    line = result.stderr.strip().splitlines()[-1]
    assert path in line and "cannot write" in line, line
    assert "Traceback" not in result.output
    assert not os.path.exists(path) and not os.path.exists(path + ".png")


def test_rules_check_gives_every_problem_of_a_variant_file(tmp_path):
    # It gave a variant file's first problem only: a casino's draft with three mistakes needed
    # three runs to find them.
    base = tmp_path / "base.toml"
    base.write_text("max_hands = 2\n")
    path = tmp_path / "v.toml"
    path.write_text('[variant]\nname = "x"\nbaseline = "base.toml"\ncolour = "red"\n'
                    'strategy = "basik"\n[changes]\ndecks = 9\nh17 = true\nresplit_aces = true\n')
    result = CliRunner().invoke(cli, ["rules", "check", str(path), "variants/h17"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    said = ["unknown key 'variant.colour': allowed variant.name,", "unknown key 'h17' in [changes]",
            "[changes]: key 'decks' = 9 is out of range",
            # a clash with the baseline's own key, as the variant would meet it, naming where
            # each key is (it named the variant alone, as if it set max_hands)
            f"Error: {path} [changes] and {base}: key 'resplit_aces' = true ({path} [changes]) "
            f"needs at least 3 hands per box, but 'max_hands' = 2 ({base}): allowed",
            "key 'variant.strategy' = \"basik\": unknown strategy"]
    assert len(lines) == len(said) and all(ln.startswith("Error: ") for ln in lines), lines
    for line, words in zip(lines, said, strict=True):
        assert words in line, (words, line)
    assert result.stdout.endswith("h17.toml: ok (a variant of configs/nz1994.toml: "
                                  "dealer_hits_soft_17=true)\n")
    (line,) = CliRunner().invoke(cli, ["rules", "check", str(tmp_path / "nope.toml")]
                                 ).stderr.strip().splitlines()
    path.write_text('[variant]\nbaseline = "gone.toml"\nname = 3\n[changes]\ndecks = 9\n')
    lines = CliRunner().invoke(cli, ["rules", "check", str(path)]).stderr.strip().splitlines()
    assert len(lines) == 2 and "'variant.name' = 3 is not a string" in lines[0], lines
    assert "key 'variant.baseline' names" in lines[1] and "no such rule file" in lines[1]
    # a folder named as the baseline: said so, as --rules FOLDER does (it said "no such file")
    path.write_text('[variant]\nbaseline = "."\n[changes]\ndecks = 8\n')
    folder = f"names {tmp_path}: a folder, not a rule file: allowed the path of a rule file"
    (line,) = CliRunner().invoke(cli, ["rules", "check", str(path)]).stderr.strip().splitlines()
    assert line == f"Error: {path}: key 'variant.baseline' {folder}", line
    result = CliRunner().invoke(cli, ["compare", "--variant", str(path), "-n", "1000"])
    assert result.exit_code == 2 and folder in result.stderr, result.stderr


def test_rules_show_names_a_file_without_a_name_as_simulate_does(tmp_path, monkeypatch):
    # `rules show --rules d4.toml --set decks=2` said "rules (modified: decks=2)" where simulate
    # and exact say "d4.toml (modified: decks=2)", and its toml kept that name.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d4.toml").write_text("decks = 4\n")
    args = ["--rules", "d4.toml", "--set", "decks=2"]
    out = run("rules", "show", *args).stdout
    assert out.startswith("Rule set: d4.toml (modified: decks=2)\n")
    assert 'name = "d4.toml (modified: decks=2)"' in run("rules", "show", *args, "-f",
                                                          "toml").stdout
    sim = run("simulate", *args, "-n", "1000", "-q", "-f", "json").stdout
    assert json.loads(sim)["run"]["rules_name"] == "d4.toml (modified: decks=2)"
    assert run("rules", "show", "--rules", "d4.toml").stdout.startswith("Rule set: d4.toml\n")


def test_replay_names_every_rule_unlike_nz_as_the_other_tables(tmp_path, monkeypatch):
    # The header named a rule file's keys only where the derived chart's note named them (a
    # 6:5 blackjack with --strategy basic: nowhere); now simulate's, count's and exact's line.
    monkeypatch.chdir(tmp_path)
    cards = "s.txt"
    (tmp_path / cards).write_text("4c 6h Jd 7h 9d 7s Ah As 2d Td\n")
    (tmp_path / "h65.toml").write_text("decks = 2\nblackjack_pays = 1.2\n")
    head = run("replay", "--cards", cards, "--rules", "h65.toml", "--strategy", "basic",
               "--set", "penetration=0.5").stdout.split("\n\n")[0].splitlines()
    assert head[0].startswith(f"bjsim {__version__} replay: rules h65.toml (modified: "
                              "penetration=0.5)"), head
    assert head[1:] == ["Unlike nz1994: decks=2, penetration=0.5, blackjack_pays=1.2",
                        "WARNING: replay deals the cards as given, in order: penetration does "
                        "not apply here (--cut stops play as a cut card would)"], head
    for args in ([], ["--set", "decks=2", "--set", "blackjack_pays=6:5"]):  # (the title names it)
        out = run("replay", "--cards", cards, "--strategy", "basic", *args).stdout
        assert len(out.split("\n\n")[0].splitlines()) == 1 and "Unlike nz1994" not in out, out


def test_the_unlike_nz_line_shows_a_whole_number_as_a_file_writes_it(tmp_path, monkeypatch):
    # A rule file writing super_sevens_bet = 2 read "Unlike nz1994: super_sevens_bet=2.0".
    from simulator.rules import load_rules, rules_dict, unlike_nz_line

    monkeypatch.chdir(tmp_path)
    (tmp_path / "ss2.toml").write_text("super_sevens_bet = 2\nblackjack_pays = 1.2\n")
    out = run("simulate", "--rules", "ss2.toml", "-n", "1000", "-q").stdout.splitlines()
    assert "Unlike nz1994: blackjack_pays=1.2, super_sevens_bet=2" in out, out
    rules = rules_dict(load_rules().replace(super_sevens_bet=2.0, penetration=0.5))
    assert unlike_nz_line(rules) == "Unlike nz1994: penetration=0.5, super_sevens_bet=2"
    assert unlike_nz_line(rules, "super_sevens_bet=2, penetration=0.5") is None


def test_every_name_of_a_change_shows_a_whole_number_as_a_file_writes_it():
    # "2, not 2.0" reached only the Unlike NZ line: exact's title read "nz1994 (modified:
    # super_sevens_bet=2.0)", the report's Rules section "with the choice
    # super_sevens_bet=2.0" and compare's label super_sevens_bet=2.0.
    from simulator.assessment.figures import set_form
    from simulator.rules import Rules, canonical_change, changes_made, nz_changes, rules_dict
    from simulator.variants import from_vary, vary_label

    title = run("exact", "--set", "super_sevens_bet=2").stdout.splitlines()[0]
    assert title.endswith("nz1994 (modified: super_sevens_bet=2), strategy basic"), title
    rules = Rules(super_sevens_bet=2.0, insurance_pays=3.0)
    assert nz_changes(rules_dict(rules)) == ["insurance_pays=3", "super_sevens_bet=2"]
    assert changes_made(Rules(), rules, ["super_sevens_bet"]) == ["super_sevens_bet=2"]
    assert canonical_change("super_sevens_bet=2.0") == "super_sevens_bet=2"
    assert set_form("super_sevens_bet=2.0") == "super_sevens_bet=2"  # (the report's)
    assert vary_label("super_sevens_bet=2.0") == "super_sevens_bet=2"
    assert from_vary(Rules(), "super_sevens_bet=2").changes == ("super_sevens_bet=2",)
    assert canonical_change("blackjack_pays=6:5") == "blackjack_pays=1.2"  # (not a whole one)


def test_the_derived_strategys_note_quotes_a_text_value_as_a_rule_file_does():
    # It read "the exact analyzer's for double_on=10-11", where the Changed: line and every
    # message quote a text value: double_on="10-11".
    from simulator import derived
    from simulator.rules import load_rules

    rules = load_rules().replace(double_on="10-11", surrender="late", decks=8)
    assert derived.chart_change(rules) == 'decks=8, double_on="10-11", surrender="late"'
    assert derived.derived_words(rules).startswith(
        'the exact analyzer\'s for decks=8, double_on="10-11", surrender="late"; ')


def test_replay_cites_rule_11_for_a_7_7_split_and_14_4_for_its_paid_bet(tmp_path):
    # Under Super Sevens the split itself was cited [14.4], which is the bet's payment only.
    cards = tmp_path / "s.txt"
    cards.write_text("7s 6d 7h 3c 9c Td 7c 5c\n")
    out = run("replay", "--cards", str(cards)).stdout
    split = next(ln for ln in out.splitlines() if "splits, draws 3c" in ln)
    assert split.endswith("(strategy: sevens v 6 = P)  [11]"), split
    paid = next(ln for ln in out.splitlines() if "Super Sevens wins +50" in ln)
    assert paid.endswith("[14.4]"), paid


def test_replay_gives_the_dealers_own_reason_to_stand(tmp_path):
    # "stands on soft 18 (stands on all 17s)": the reason was the rule's, whatever the total.
    cards = tmp_path / "d.txt"
    for text, extra, why in (("Ts Ad 8h 5c 2d", [], "stands on soft 18  (stands on 17 or more)"),
                             ("Ts 7d 8h Tc", [], "stands on hard 17  (stands on all 17s)"),
                             ("Ts 7d 8h Tc", ["--set", "dealer_hits_soft_17=true"],
                              "stands on hard 17  (hits soft 17, stands on hard 17)")):
        cards.write_text(text + "\n")
        out = run("replay", "--cards", str(cards), *extra).stdout
        line = next(ln for ln in out.splitlines() if ln.lstrip().startswith("dealer")
                    and "stands on" in ln)
        assert line.endswith(f"{why}  [12.3]"), line


def test_a_variant_files_bad_baseline_is_named_by_the_variant_file(tmp_path, monkeypatch):
    # rules check and compare named only the baseline file ("r.toml: unknown key 'deck'"),
    # and a variant file given as a baseline was told to run `compare --variant` on itself.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.toml").write_text("deck = 4\n")
    (tmp_path / "a.toml").write_text('[variant]\nbaseline = "r.toml"\n[changes]\ndecks = 2\n')
    h17 = tmp_path / "h17.toml"
    h17.write_text("[variant]\n[changes]\ndealer_hits_soft_17 = true\n")
    (tmp_path / "b.toml").write_text('[variant]\nbaseline = "h17.toml"\n[changes]\ndecks = 2\n')
    lines = run("rules", "check", "a.toml", "b.toml").stderr.strip().splitlines()
    assert lines == [
        f"Error: a.toml: key 'variant.baseline': {tmp_path / 'r.toml'} does not load as a rule "
        f"file: {tmp_path / 'r.toml'}: unknown key 'deck': did you mean 'decks'?",
        f"Error: b.toml: key 'variant.baseline': {h17} is a variant file, not a rule file: "
        "allowed the path of a rule file"]
    for name, line in zip(("a.toml", "b.toml"), lines, strict=True):
        result = run("compare", "--variant", name, "-n", "1000", "-q")
        assert result.exit_code == 2
        assert result.stderr == line + "\n"  # (the file first, as rules check says it)


def test_an_empty_changes_table_is_called_empty(tmp_path):
    (tmp_path / "e.toml").write_text('[variant]\nname = "e"\n[changes]\n')
    (tmp_path / "n.toml").write_text('[variant]\nname = "n"\n')
    lines = run("rules", "check", str(tmp_path / "e.toml"), str(tmp_path / "n.toml")
                ).stderr.strip().splitlines()
    assert lines == [f"Error: {tmp_path / 'e.toml'}: [changes] is empty: allowed at least one "
                     "rule-set key in it, or variant.strategy",
                     f"Error: {tmp_path / 'n.toml'}: no [changes] and no variant.strategy: "
                     "allowed a [changes] table of rule-set keys, or variant.strategy, or both "
                     "(a variant changes something)"]


def test_an_output_that_fails_to_be_written_leaves_the_earlier_file_whole(tmp_path,
                                                                          monkeypatch):
    # -o was written in place: a full disk left it cut off mid-way, the earlier result gone,
    # where README says the file is neither created nor emptied until the result is written.
    import errno

    from simulator import atomic

    out = tmp_path / "out.json"
    out.write_text('{"earlier": "kept"}\n')
    real = os.fdopen

    class Full:
        def __init__(self, fd, mode):
            self.f = real(fd, mode)

        def write(self, data):
            self.f.write(data[: len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    monkeypatch.setattr(atomic.os, "fdopen", Full)
    result = run("simulate", "-n", "1000", "-q", "-f", "json", "-o", str(out))
    assert result.exit_code == 1
    assert "cannot write: No space left on device: the report is on stdout instead" in \
        result.stderr
    assert json.loads(result.stdout)["results"]["rounds"] == 1000
    assert out.read_text() == '{"earlier": "kept"}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]  # no temporary file left
    monkeypatch.undo()
    link = tmp_path / "link.json"
    link.symlink_to(out)
    assert run("simulate", "-n", "1000", "-q", "-f", "json", "-o", str(link)).exit_code == 0
    assert link.is_symlink() and json.loads(out.read_text())["results"]["rounds"] == 1000


@pytest.mark.parametrize("command, name", [(["simulate"], "iter_chunks"),
                                           (["compare", "--vary", "decks=8"], "advance_job"),
                                           (["count"], "advance_job")])
@pytest.mark.parametrize("named", [["--resume", "c.ckpt"], ["--checkpoint", "c.ckpt",
                                                            "--resume"]])
def test_a_checkpoint_save_that_fails_mid_run_names_the_file_as_typed(tmp_path, monkeypatch,
                                                                      command, name, named):
    # A full disk mid-run of --resume c.ckpt said "--checkpoint c.ckpt: cannot write", an
    # option not typed; the file is named by the option that named it, as every other
    # checkpoint message names it.
    from simulator import checkpoint, engine

    monkeypatch.chdir(tmp_path)
    args = [*command, "-n", "4000", "--chunk-rounds", "1000", "--workers", "1", "-q"]
    interrupt_after_first_chunk(monkeypatch, engine, name)
    assert run(*args, "--checkpoint", "c.ckpt").exit_code == 130
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    real, calls = checkpoint.Writer.write, []

    def write(self, state):  # the run's first save (before it) written, then a full disk
        if self.part is None:  # (count's control run, kept in its own section, not failed)
            calls.append(1)
            if len(calls) > 1:
                raise OSError(errno.ENOSPC, "No space left on device")
        real(self, state)

    monkeypatch.setattr(checkpoint.Writer, "write", write)
    monkeypatch.setenv("BJSIM_CHECKPOINT_EVERY", "0")
    result = run(*command, *named, "--workers", "1")
    assert result.exit_code == 0, result.output
    option = named[0]
    said = f"{option} c.ckpt: cannot write: No space left on device"
    assert f"bjsim: {said}: the run goes on" in result.stderr, result.stderr
    assert f"{said}: the report has every chunk played" in result.stderr  # (count's: its run's)
    assert ("--checkpoint" in result.stderr) == (option == "--checkpoint")


@pytest.mark.parametrize("command", [["simulate"], ["compare", "--vary", "decks=8"], ["count"]])
def test_a_stopped_run_whose_output_fails_still_says_where_to_carry_on(tmp_path, monkeypatch,
                                                                       command):
    # SIGTERM, then -o on a full disk: exit 1 and the Error line alone; no "interrupted" line,
    # no "carry on with --resume", and a batch scheduler saw a plain failure.
    from simulator import atomic, engine
    from tests.helpers import interrupt_after_first_chunk

    target, ckpt = str(tmp_path / "out.json"), tmp_path / "run.ckpt"

    saved = atomic.write

    def write(path, *a, **k):  # the disk full for -o (the checkpoint is written)
        if str(path) == target:
            raise OSError(28, "No space left on device")
        return saved(path, *a, **k)

    monkeypatch.setattr(atomic, "write", write)
    gen = "iter_job_chunks" if command[0] != "simulate" else "iter_chunks"
    interrupt_after_first_chunk(monkeypatch, engine, gen)
    result = run(*command, "-n", "40000", "--chunk-rounds", "1000", "--workers", "1", "-q",
                 "-f", "json", "--checkpoint", str(ckpt), "-o", target)  # (not done at once)
    assert result.exit_code == 130, result.output
    lines = result.stderr.splitlines()
    assert any(ln.startswith("bjsim: ") and "finished chunks saved in" in ln and "--resume" in ln
               for ln in lines), lines
    assert lines[-1].startswith(f"Error: -o {target}: cannot write: No space left on "
                                "device: the report is on stdout instead")
    assert json.loads(result.stdout)["run"]["partial"] is True


def test_a_default_given_as_text_shows_as_written_in_help():
    # click wrote a text default in parentheses: "[default: (1,000,000)]".
    for command in ("simulate", "compare", "count", "report", "exact", "replay"):
        text = run(command, "--help").stdout
        assert "default: (" not in " ".join(text.split()), command
    assert "[default: 1,000,000]" in " ".join(run("simulate", "--help").stdout.split())


def test_one_box_given_two_strategies_is_told_once_is_allowed():
    # It said "allowed once (every box plays it) or once per box (1 times)".
    result = run("simulate", "--strategy", "basic", "--strategy", "never-bust", "-n", "100")
    assert result.exit_code == 2
    assert result.stderr.strip() == ("Error: --strategy: given 2 times for 1 box(es): allowed "
                                     "once (every box plays it)")


@pytest.mark.parametrize("sets, change, why", [
    (["hole_card=peek", "dealer_blackjack_takes=all"], 'dealer_blackjack_takes="all"',
     'hole_card = "peek", a dealer blackjack ends the round before any double or split'),
    (["shuffle=every-round", "penetration=0.5"], "penetration=0.5",
     'shuffle = "every-round", no cut card'),
])
def test_a_set_key_of_no_effect_is_said_and_marked(sets, change, why):
    # Taken silently: listed under Changed: as any change, and dealer_blackjack_takes=all named
    # in the derived strategy's note as a reason for its chart; the figures were those without it.
    key = change.split("=")[0]
    args = [x for s in sets for x in ("--set", s)]
    table = run("simulate", *TINY, *args)
    assert table.exit_code == 0, table.output
    assert table.stderr.splitlines() == [  # (with -q too, as exact's warning of the shoe)
        f"bjsim: warning: --set {change} has no effect under these rules ({why}): every "
        f"value of {key} gives the same figures"]
    first = sets[0].replace("=", '="') + '"'  # (as a rule file writes it: hole_card="peek")
    assert f"\nChanged:   {first}, {change} (no effect: {why})\n" in table.stdout
    doc = json.loads(run("simulate", *TINY, *args, "-f", "json").stdout)
    assert doc["run"]["no_effect"] == {key: why}
    assert key not in (doc["run"]["strategy_note"] or "")  # (no reason for another chart)
    alone = json.loads(run("simulate", *TINY, "--set", sets[0], "-f", "json").stdout)
    assert "no_effect" not in alone["run"] and alone["results"] == doc["results"]
    rows = list(csv.reader(io.StringIO(run("simulate", *TINY, *args, "-f", "csv").stdout)))
    assert ["run", "no_effect", "", f"{key}: {why}"] in [r[:4] for r in rows]


def test_a_set_key_at_the_rule_files_own_value_is_no_change_and_not_said(tmp_path, monkeypatch):
    # --set max_hands=2 --set resplit_aces=false warned "--set resplit_aces=false has no effect
    # under these rules (max_hands = 2, a box splits once)" in simulate, compare and report,
    # where false is the NZ file's own value: no change (not under Changed:, nor run.no_effect).
    from simulator import assessment

    sets = ["--set", "max_hands=2", "--set", "resplit_aces=false"]
    table = run("simulate", *TINY, *sets)
    assert table.exit_code == 0, table.output
    assert table.stderr == "" and "\nChanged:   max_hands=2\n" in table.stdout
    doc = json.loads(run("simulate", *TINY, *sets, "-f", "json").stdout)
    assert "no_effect" not in doc["run"]
    compared = run("compare", "--vary", "decks=8", "-n", "1000", "--chunk-rounds", "1000",
                   "--pair-rounds", "50", "--strategy", "basic", "--same-strategy", "--no-exact",
                   "-q", *sets)
    assert compared.exit_code == 0, compared.output
    assert "no effect" not in compared.stderr, compared.stderr

    def compute(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(assessment, "compute", compute)
    reported = run("report", "-q", "--no-variants", *sets, "-o", str(tmp_path / "out"))
    assert reported.exit_code == 130 and "no effect" not in reported.stderr, reported.stderr
    # the same key set to another value of no effect is said, as before
    other = run("simulate", *TINY, "--set", "max_hands=1", "--set", "resplit_aces=false",
                "--set", "double_after_split=false")
    assert other.stderr.splitlines() == [
        "bjsim: warning: --set double_after_split=false has no effect under these rules "
        "(max_hands = 1, pairs are not split): every value of double_after_split gives the same "
        "figures"], other.stderr


def test_a_value_the_user_gave_is_quoted_in_one_style_in_every_message(tmp_path):
    """A value is quoted as a rule file writes it, text in double quotes, so it can be typed
    again after --set or in a rule file: --set decks=nine was quoted 'nine' where the rule file's
    decks = "nine" was "nine"; the no-effect reason said hole_card = peek and the warning
    --set dealer_blackjack_takes=all beside Changed:'s and rules show's hole_card="peek"."""
    path = tmp_path / "r.toml"
    path.write_text('decks = "nine"\n')
    said = "key 'decks' = \"nine\" is not an integer: allowed an integer 1-8"
    assert_user_error(run("simulate", "--rules", str(path)), f"{path}: {said}")
    assert_user_error(run("simulate", "--set", "decks=nine"), f"--set: {said}")
    assert_user_error(run("rules", "show", "--set", "dealer_hits_soft_17=maybe"),
                      "key 'dealer_hits_soft_17' = \"maybe\" is not true or false")
    assert_user_error(run("rules", "show", "--set", "decks=6.5"), "key 'decks' = 6.5 is not")
    sets = ["--set", "hole_card=peek", "--set", "dealer_blackjack_takes='all'"]
    table = run("simulate", *TINY, *sets)
    texts = [table.stdout.split("\nChanged:   ")[1].split("\n")[0], table.stderr,
             run("rules", "show", *sets).stdout,
             run("rules", "show", *sets, "--set", "hole_card=none").stderr]
    for text in texts:
        values = re.findall(r"(hole_card|dealer_blackjack_takes) ?= ?(\S+?)[,)\s]", text)
        assert values and all(v.startswith('"') for _, v in values), (text, values)
    assert "bjsim: warning: --set dealer_blackjack_takes=\"all\" has no effect under these " \
           'rules (hole_card = "peek", a dealer' in table.stderr
    assert "Error: --set hole_card=\"peek\" and --set hole_card=\"none\": both set " \
           "'hole_card'" in texts[3]


def test_a_report_says_a_set_key_of_no_effect_before_its_runs(tmp_path, monkeypatch):
    # As simulate, compare and count say it (its rules table marks the key "no effect" too).
    from simulator import assessment

    def compute(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(assessment, "compute", compute)
    result = run("report", "-q", "--no-variants", "--set", "shuffle=every-round", "--set",
                 "penetration=0.5", "-o", str(tmp_path / "out"))
    assert result.exit_code == 130, result.output
    assert result.stderr.splitlines()[0] == (
        "bjsim: warning: --set penetration=0.5 has no effect under these rules (shuffle = "
        '"every-round", no cut card): every value of penetration gives the same figures')


def test_replay_json_names_each_boxs_charts_by_their_sha256_as_simulate(tmp_path):
    """A review: replay's json had no ``strategy_sha256``, where simulate's, count's, exact's and
    compare's carry it: one a box, beside ``strategy``, the hash simulate gives the same chart."""
    path = tmp_path / "shoe.txt"
    path.write_text(CARDS)
    args = ["--boxes", "2", "--strategy", "basic", "--strategy", "mimic-dealer", "-f", "json"]
    doc = json.loads(run("replay", "--cards", str(path), *args).stdout)
    sim = json.loads(run("simulate", "-n", "1000", "-q", *args).stdout)
    assert doc["strategy"] == ["basic", "mimic-dealer"]
    assert doc["strategy_sha256"] == sim["strategy_sha256"]
    assert len(set(sim["strategy_sha256"])) == 2
    assert list(doc).index("strategy_sha256") == list(doc).index("strategy") + 1


def test_a_stderr_that_is_not_a_terminal_gets_progress_lines_without_carriage_returns(
        monkeypatch):
    """A scripting user's review: stderr sent to a file held tqdm's redraws (carriage returns,
    a line of spaces) between its lines, and -q dropped the useful lines with them. A file or
    pipe gets a plain line every `run.LINE_EVERY` seconds (none for a shorter run) and a last
    one as the bar closes (BJSIM_PROGRESS_SECONDS sets the seconds); a terminal keeps the bar."""
    from simulator import run as R

    quiet = run("simulate", *TINY[:-1])
    assert "\r" not in quiet.stderr and "%" not in quiet.stderr  # (a short run: no line)
    assert "rounds/s" in quiet.stderr  # (the line of the time taken stays)
    monkeypatch.setenv("BJSIM_PROGRESS_SECONDS", "0")
    lines = run("simulate", *TINY[:-1], "--chunk-rounds", "1000").stderr
    assert "\r" not in lines
    bars = [ln for ln in lines.splitlines() if re.match(r"bjsim: +\d+% ", ln)]
    assert bars and bars[-1].startswith("bjsim: 100% ") and "house edge" in bars[-1]
    assert all(" rounds [" in b for b in bars), bars
    # every command's lines begin "bjsim:" (compare's had begun "compare 2 games:", which a
    # pipeline keeping bjsim's lines by that prefix lost: a review)
    for args in (["compare", "--rounds", "4000", "--chunk-rounds", "1000", "--pair-rounds", "50",
                  "--vary", "decks=8", "--no-exact"],
                 ["count", "--rounds", "4000", "--chunk-rounds", "1000"]):
        said = run(*args).stderr
        progress = [ln for ln in said.splitlines() if re.search(r"\d+% ", ln)]
        assert progress and all(ln.startswith("bjsim: ") for ln in progress), said
    monkeypatch.setenv("BJSIM_PROGRESS_SECONDS", "soon")
    said = run("simulate", *TINY[:-1]).stderr
    assert ("bjsim: warning: BJSIM_PROGRESS_SECONDS='soon' is not a number of seconds, 0 or "
            "more: 60 used") in said and "%" not in said
    # once a process (a sweep draws a bar a penetration), and not at all with -q (no bar)
    monkeypatch.setattr(R, "_WARNED", set())
    sweep = run("count", "--rounds", "2000", "--penetrations", "0.6,0.7,0.8").stderr
    assert sweep.count("BJSIM_PROGRESS_SECONDS") == 1, sweep
    monkeypatch.setattr(R, "_WARNED", set())
    assert "BJSIM_PROGRESS_SECONDS" not in run("simulate", *TINY).stderr
    monkeypatch.setenv("BJSIM_PROGRESS_SECONDS", " ")  # (empty: unset, as the checkpoint's)
    assert "warning" not in run("simulate", *TINY[:-1]).stderr
    monkeypatch.setattr(R, "terminal", lambda: True)
    assert "\r" in run("simulate", *TINY[:-1]).stderr  # (a terminal: redrawn in place)


@pytest.mark.parametrize("command", [["simulate"], ["count"],
                                     ["compare", "--vary", "decks=8", "--no-exact"]])
def test_the_last_progress_line_is_written_once(monkeypatch, command):
    """A review: with BJSIM_PROGRESS_SECONDS=0 a log ended on the last line twice (`bjsim: 100%
    2.00M/2.00M rounds [...]`, count's `counter's run: 100% ...`): the runner's redraw after
    its last chunk wrote the line the chunk had. (No least time between redraws: a line every
    chunk, as TQDM_MININTERVAL=0 gives.)"""
    from simulator import run as R

    line_bar = R._line_bar

    def every_redraw():
        kind = line_bar()
        return lambda *a, **k: kind(*a, **{**k, "mininterval": 0})

    monkeypatch.setenv("BJSIM_PROGRESS_SECONDS", "0")
    monkeypatch.setattr(R, "_line_bar", every_redraw)
    err = run(*command, *TINY[:-1], "--workers", "1").stderr
    bars = [ln for ln in err.splitlines() if re.search(r" +\d+% \S+ rounds \[", ln)]
    ends = [ln for ln in bars if "100% " in ln]
    assert len(bars) == 4 * len(ends) and ends, err  # (count: its control run's bar too)
    assert len(set(bars)) == len(bars), err  # (no line twice)


def test_the_last_progress_line_is_written_where_the_last_interval_line_was_not_the_end(
        monkeypatch):
    from simulator import run as R

    monkeypatch.setenv("BJSIM_PROGRESS_SECONDS", "0")
    out = io.StringIO()
    bar = R._line_bar()(total=3, file=out, leave=False, mininterval=0, desc="bjsim")
    bar.update(1)  # (an interval of 0: a line)
    bar._every = 1000.0
    bar.update(2)  # (within the interval: none)
    bar.refresh()
    bar.close()
    assert [ln.split(" [")[0] for ln in out.getvalue().splitlines()] == [
        "bjsim:  33% 1/3 rounds", "bjsim: 100% 3/3 rounds"]


def test_help_texts_say_what_the_options_do_in_each_command():
    # A help-only user: count's --super-sevens said it bets the side bet on every box (the plan
    # decides); simulate's --rounds "the checkpoint's unless given" (another is refused); the
    # examples writing into strategies/ or globbing configs/ failed outside bjsim's folder; the
    # report's --chunk-rounds "as simulate's" (whose default is ten times as large)
    def words(*args):
        return " ".join(run(*args, "--help").stdout.split())

    assert ("The table offers Super Sevens (rule 14), or not: the plan's [super_sevens] decides "
            "what the counter bets on it") in words("count")
    assert "Bet Super Sevens (rule 14) on every box, or not." in words("simulate")
    assert "With --resume: the checkpoint's (given, it must be the same" in words("simulate")
    for group in (("rules",), ("rules", "check"), ("strategy",), ("strategy", "generate"),
                  ("strategy", "indices")):
        text = words(*group)
        assert "-o strategies/" not in text, group
        assert all("# in bjsim's folder" in line for line in run(*group, "--help").stdout
                   .splitlines() if "configs/*" in line or "configs/variants/*" in line), group
    assert "whose default is 1,000,000" in words("report")
