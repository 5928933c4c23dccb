"""A user's slips on the command line (a review): an option taken as a file name, an option
taken as --set's change, a name that would not load back, a leading comma, an endless file,
an option named as it was not typed. Each a one-line error naming what was typed."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.test_hostile_input import invoke, is_one_line_error


@pytest.mark.parametrize("args", [
    ("simulate", "-o", "--quiet", "-n", "10"),
    ("simulate", "--checkpoint", "-q", "-n", "10"),
    ("count", "--optimal-bets", "--optimal-plan", "-q", "-n", "10"),
    ("strategy", "generate", "-o", "-q"),
    ("strategy", "show", "basic", "-o", "--help"),
    ("report", "-o", "-q", "-n", "2000", "--no-variants"),
])
def test_a_file_option_given_an_option_is_refused_not_written(args, tmp_path, monkeypatch):
    # `-o --quiet` wrote the result to a file called --quiet, the run not quiet (exit 0)
    monkeypatch.chdir(tmp_path)
    line = is_one_line_error(invoke(*args))
    name = next(a for a in args[args.index(next(a for a in args if a in (
        "-o", "--checkpoint", "--optimal-plan"))) + 1:] if a.startswith("-"))
    assert f" {name}: an option, not a file name" in line and f"./{name}" in line, line
    assert list(tmp_path.iterdir()) == []


def test_a_file_so_called_is_written_by_its_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert invoke("simulate", "-n", "10", "-q", "-o", "./-q").exit_code == 0
    assert (tmp_path / "-q").is_file()


@pytest.mark.parametrize("value", ["-n", "--boxes"])
def test_set_given_an_option_names_set(value):
    # `--set -n 10` said "Got unexpected extra argument (10)", not naming --set
    line = is_one_line_error(invoke("simulate", "--set", value, "10"))
    assert "--set" in line and f"{value}: an option, not KEY=VALUE" in line, line


@pytest.mark.parametrize("name", ["a\nb", "a\tb", "a\x01b"])
@pytest.mark.parametrize("command", [("strategy", "generate"), ("strategy", "indices")])
def test_a_name_that_would_not_load_back_is_refused(command, name, tmp_path):
    out = tmp_path / "x.toml"
    line = is_one_line_error(invoke(*command, "-q", "--name", name, "-o", out))
    assert "--name" in line and "not printable (a line break, tab" in line, line
    assert not out.exists()


def test_a_variant_files_baseline_that_is_not_toml_names_the_variant_file(tmp_path):
    (tmp_path / "r.toml").write_text("decks =\n")
    v = tmp_path / "v.toml"
    v.write_text('[variant]\nbaseline = "r.toml"\n[changes]\ndecks = 8\n')
    for args in (("rules", "check", v), ("compare", "--variant", v, "-n", "100")):
        line = is_one_line_error(invoke(*args))
        assert f"{v}: key 'variant.baseline'" in line and "not valid TOML" in line, line


def test_a_variant_files_empty_baseline_is_an_empty_path(tmp_path):
    v = tmp_path / "v.toml"
    v.write_text('[variant]\nbaseline = ""\n[changes]\ndecks = 8\n')
    line = is_one_line_error(invoke("rules", "check", v))
    assert "key 'variant.baseline' = \"\" is empty" in line, line
    assert "a folder" not in line


def test_vary_with_a_leading_comma_is_refused():
    # `--vary ,decks=8` ran decks=8 where `decks=8,` was refused
    line = is_one_line_error(invoke("compare", "--vary", ",decks=8", "-n", "100"))
    assert "an empty item between commas" in line, line


def test_an_endless_rule_file_is_refused_not_read_to_the_end(tmp_path):
    # `--rules /dev/zero` read until the machine ran out of memory (killed, no message); a file
    # one byte over the limit (sparse: nothing written) stands for it where there is no
    # /dev/zero, and beside it where there is
    big = tmp_path / "big.toml"
    with open(big, "wb") as f:
        f.truncate((64 << 20) + 1)
    for path in [big] + [Path("/dev/zero")] * Path("/dev/zero").exists():
        line = is_one_line_error(invoke("simulate", "-n", "10", "--rules", path))
        assert f"{path}: larger than 64 MiB, too large for a rule file" in line, line
    small = tmp_path / "small.toml"  # (at the limit: read, then refused for what it holds)
    with open(small, "wb") as f:
        f.truncate(64 << 20)
    assert "larger than" not in is_one_line_error(invoke("simulate", "--rules", small))


def test_errors_name_the_option_as_typed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = is_one_line_error(invoke("count", "--list", "--no-super-sevens"))
    assert "--no-super-sevens would be ignored" in line, line
    assert invoke("simulate", "-q", "-n", "10", "--checkpoint", "c.ckpt").exit_code == 0
    line = is_one_line_error(invoke("simulate", "-q", "--resume", "c.ckpt", "-o", "c.ckpt"))
    assert line.startswith("Error: --resume and -o: both name c.ckpt"), line


def test_a_name_joined_to_its_option_is_taken_as_given(tmp_path, monkeypatch):
    # `--output=--quiet` cannot have swallowed an option: the file so called is written
    monkeypatch.chdir(tmp_path)
    for args, name in ((("--output=--quiet",), "--quiet"), (("-o--x",), "--x"),
                       (("--checkpoint=-x.ckpt",), "-x.ckpt")):
        assert invoke("simulate", "-n", "10", "-q", *args).exit_code == 0
        assert (tmp_path / name).is_file()


def test_a_checkpoint_is_not_written_to_stdout(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = is_one_line_error(invoke("simulate", "-n", "10", "--checkpoint", "-"))
    assert line.startswith("Error: --checkpoint -: a file is written here, not stdout"), line
    assert list(tmp_path.iterdir()) == []


def test_endless_standard_input_is_refused_as_cards():
    line = is_one_line_error(invoke("replay", "--cards", "-", input="A" * ((64 << 20) + 1)))
    assert "--cards -: standard input longer than 64 MiB" in line, line


def test_a_no_break_space_is_said_to_be_unprintable(tmp_path):
    line = is_one_line_error(invoke("strategy", "generate", "-q", "--name", "a\u00a0b",
                                    "-o", tmp_path / "x.toml"))
    assert "not printable (a line break, tab, control character or no-break space)" in line, line


@pytest.mark.parametrize(("text", "read"), [("2", 2), ("2e0", 2), ("1e3", 1000), ("1_000", 1000),
                                            ("2.0", 2), ("2.", 2), (".5e1", 5), (" 3 ", 3)])
def test_a_whole_number_option_reads_a_number_as_rounds_does(text, read):
    # `-n 1e3` was read, `--workers 1e3` and `--cut 1e3` refused as "not a whole number"
    from simulator.cli import WholeRange

    assert WholeRange(min=1).convert(text, None, None) == read


@pytest.mark.parametrize(("args", "words"), [
    (["--workers", "1.5"], "'1.5' is not a whole number in the range x>=1."),
    (["--workers", "_1"], "'_1' is not a whole number in the range x>=1."),
    (["--workers", "1e"], "'1e' is not a whole number in the range x>=1."),
    (["--workers", "inf"], "'inf' is not a whole number in the range x>=1."),
    (["--workers", "0e5"], "0 is not in the range x>=1."),
    (["--workers", "1e99"], "'1e99' is too large: allowed x>=1."),
    (["--boxes", "1e40"], "'1e40' is too large: allowed 1<=x<=7."),
    (["--boxes", "8.0"], "8 is not in the range 1<=x<=7."),
    # (a last read: an exponent beyond Decimal's own limit raised a traceback; -1e40 was "too
    # large")
    (["--workers", "1e999999999999999999999"],
     "'1e999999999999999999999' is not a whole number in the range x>=1."),
    (["--boxes", "1e-999999999999999999999"],
     "'1e-999999999999999999999' is not a whole number in the range 1<=x<=7."),
    (["--boxes", "-1e40"], "'-1e40' is too small: allowed 1<=x<=7."),
])
def test_a_whole_number_option_refuses_in_one_line(args, words):
    line = is_one_line_error(invoke("simulate", "--rounds", "1000", *args))
    assert line.endswith(words), line


@pytest.mark.parametrize("args, hint", [
    (("simulate", "--strategy", "basic.toml"), "did you mean 'basic', the shipped strategy?"),
    (("simulate", "--strategy", "strategies/basic.toml"),
     "did you mean 'basic', the shipped strategy?"),
    (("count", "--plan", "hi-lo-flat.toml"), "did you mean 'hi-lo-flat', the shipped plan?"),
    (("compare", "--variant", "h17.toml"), "did you mean 'variants/h17', the shipped variant?"),
    (("count", "--plan", "plan.toml"), "did you mean indices = \"hi-lo-nz\", the shipped index"),
])
def test_a_shipped_file_named_as_a_path_is_suggested_by_its_name(args, hint, tmp_path,
                                                                  monkeypatch):
    # `--rules nz1994.toml` reads the shipped rules from any folder, but `--strategy basic.toml`
    # was refused with no word of 'basic' (a review): each names the shipped one
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plan.toml").write_text('count = "hi-lo"\nindices = "hi-lo-nz.toml"\n'
                                        "[bet]\nbase = 1\n")
    line = is_one_line_error(invoke(*args, "-n", "10", "-q"))
    assert hint in line and "no such" in line, line
    (tmp_path / "basic.toml").mkdir()  # (a folder of that name: no hint, the folder said)
    line = is_one_line_error(invoke("simulate", "--strategy", "basic.toml", "-n", "10", "-q"))
    assert "did you mean" not in line and "a folder" in line, line


def test_a_rule_change_the_derived_file_does_not_depend_on_is_warned_of(monkeypatch):
    # `strategy generate --boxes 5 --no-super-sevens` wrote the NZ chart with no word (a review)
    from simulator.exact import indices

    result = invoke("strategy", "generate", "--boxes", "5", "--no-super-sevens", "--set",
                    "penetration=0.8", "--set", "decks=6", "-q")
    assert result.exit_code == 0, result.output
    warned = [ln for ln in result.stderr.splitlines() if ln.startswith("bjsim: warning:")]
    assert [w.split()[2] for w in warned] == ["penetration=0.8", "boxes=5", "super_sevens=false"]
    assert warned[1] == ("bjsim: warning: boxes=5 changes no play of the strategy (its best plays "
                         "do not depend on boxes): it is written in the file's header only")
    monkeypatch.setattr(indices, "derive_indices", lambda *_a, **_k: [])
    result = invoke("strategy", "indices", "--boxes", "3", "-q")
    assert result.exit_code == 0 and ("warning: boxes=3 changes no play of the index set (its "
                                      "best plays do not depend on boxes): it is written in the "
                                      "file's header only") in result.stderr
    assert tomllib.loads(result.stdout)["name"] == "hi-lo-nz1994"  # (not in the name: a review)
    result = invoke("strategy", "indices", "--set", "penetration=0.8", "-q")
    assert "it is written in the file's header and default name only" in result.stderr
    assert tomllib.loads(result.stdout)["name"] == "hi-lo-nz1994-penetration-0.8"
    result = invoke("strategy", "indices", "--set", "penetration=0.8", "--name", "mine", "-q")
    assert "written in the file's header only" in result.stderr, result.stderr


def test_an_underscore_in_a_decimal_key_s_value_is_not_a_number():
    # blackjack_pays=1_5 was read as 15 ("out of range: allowed a number 1-3"): a slip for 1.5
    line = is_one_line_error(invoke("simulate", "--set", "blackjack_pays=1_5", "-n", "10"))
    assert "key 'blackjack_pays' = 1_5 is not a number" in line, line
    line = is_one_line_error(invoke("simulate", "--set", "decks=1_0", "-n", "10"))
    assert "key 'decks' = 10 is out of range" in line, line  # (an integer's digits grouped)


@pytest.mark.parametrize("args, hint", [
    (("simulate", "--set", "decks", "8"), "--set takes KEY=VALUE as one word: --set decks=8"),
    (("compare", "--vary", "decks", "8"), "--vary takes KEY=VALUE as one word: --vary decks=8"),
    (("simulate", "--set", "decks=8,", "dealer_hits_soft_17=true"),
     "--set takes one KEY=VALUE: repeat it for each, --set decks=8 --set dealer_hits_soft_17"),
    (("simulate", "--rounds", "10", "000", "000"), "--rounds's value is one word: --rounds "
                                                   "10000000"),
    (("simulate", "10M"), "the rounds are given by an option: --rounds 10M"),
    (("simulate", "--set", "decks", "=", "8"), "--set takes KEY=VALUE as one word: --set decks=8"),
    (("simulate", "--set", "decks=", "8"), "--set takes KEY=VALUE as one word: --set decks=8"),
])
def test_a_stray_word_is_said_with_what_it_likely_was(args, hint):
    # `--set decks 8` said only "Got unexpected extra argument (8)" (a newcomer's review)
    line = is_one_line_error(invoke(*args))
    assert line.startswith("Error: Got unexpected extra argument") and hint in line, line
    # no hint where none is likely: a word of its own, a second value after a --set's, a
    # count after an option not of rounds (--workers 1 20000: not 120,000 workers), a command
    # with no --rounds (a review of the change)
    for bare in (("simulate", "-n", "100", "foo"), ("simulate", "--set", "decks=8", "8"),
                 ("simulate", "--workers", "1", "20000"), ("exact", "20000")):
        line = is_one_line_error(invoke(*bare))
        assert line == f"Error: Got unexpected extra argument ({bare[-1]})", line


def test_exact_and_a_penetration_sweep_name_the_code_as_every_table():
    # the Code: line of simulate's, count's and compare's tables was missing from exact's and
    # from count --penetrations' (a review of the change)
    text = invoke("exact", "-q").stdout
    assert text.splitlines()[-1].startswith("Code:      source SHA-256 ")
    result = invoke("count", "--plan", "hi-lo-flat", "-n", "4000", "--workers", "1", "-q",
                    "--penetrations", "0.6,0.8")
    assert result.exit_code == 0, result.output
    assert any(ln.startswith("Code:      source SHA-256 ") for ln in
               result.stdout.splitlines()[:6]), result.stdout[:600]
