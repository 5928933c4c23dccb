"""README.md against the command line: each command's section lists every option its --help
shows."""

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from simulator.cli import cli

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()

# Each command (its words after ``bjsim``) and the heading of the README section that lists its
# options; the section runs to the next heading of any level.
SECTIONS = {
    "simulate": "### `bjsim simulate`",
    "compare": "### `bjsim compare`",
    "replay": "### `bjsim replay`",
    "rules show": "### `bjsim rules show` and `bjsim rules check`",
    "rules check": "### `bjsim rules show` and `bjsim rules check`",
    "strategy list": "### `bjsim strategy list` and `bjsim strategy show`",
    "strategy show": "### `bjsim strategy list` and `bjsim strategy show`",
    "strategy generate": "### `bjsim strategy generate`",
    "strategy indices": "### `bjsim strategy indices`",
    "exact": "## Exact analysis and the 7-7 question",
    "report": "## The assessment report: `bjsim report`",
    "count": "## Card counting: `bjsim count`",
}


def commands(group=cli, words=()):
    """Every command ``bjsim`` offers (not the hidden aliases), as (words, command)."""
    for name, command in sorted(group.commands.items()):
        if command.hidden:
            continue
        if isinstance(command, click.Group):
            yield from commands(command, (*words, name))
        else:
            yield " ".join((*words, name)), command


def section(heading: str) -> str:
    lines = README.splitlines()
    assert heading in lines, f"README has no heading {heading!r}"
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("#")), len(lines))
    return "\n".join(lines[start:end])


def test_every_command_has_a_readme_section():
    assert sorted(name for name, _ in commands()) == sorted(SECTIONS)


@pytest.mark.parametrize("name, command", list(commands()), ids=lambda v: getattr(v, "name", v))
def test_readme_lists_every_option_of_the_command(name, command):
    text = section(SECTIONS[name])
    missing = [opt for param in command.params
               if isinstance(param, click.Option) and param.name != "help"
               for opt in (*param.opts, *param.secondary_opts)
               if not re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", text)]
    assert not missing, f"README's section for bjsim {name} does not list {', '.join(missing)}"


def test_readme_replay_json_run_row_lists_every_key_of_run(tmp_path):
    """The README's `bjsim replay -f json` table, its `run` row, names every key of replay's json
    `run`, those a strategy file adds too (it left out `strategy_files`)."""
    mine = tmp_path / "mine.toml"
    mine.write_text((ROOT / "strategies" / "never-bust.toml").read_text()
                    .replace('name = "never-bust"', 'name = "my-chart"'))
    result = CliRunner().invoke(cli, ["replay", "--cards", str(ROOT / "tests" / "cards" /
                                                                "gazette_tour.cards"),
                                      "--strategy", str(mine), "-f", "json"],
                                catch_exceptions=False)
    run = json.loads(result.stdout)["run"]
    assert run["strategy_files"] == {"my-chart": str(mine)}
    table = README.split("**`bjsim replay -f json`**", 1)[1]
    row = next(line for line in table.splitlines() if line.startswith("| `run` |"))
    assert [key for key in run if f"`{key}`" not in row] == []


def test_readme_replay_json_table_lists_every_key_and_says_true_of_simulates_run(tmp_path):
    """Every top-level key of replay's json has a row of the README's table (it left out
    ``strategy_sha256``), and the `run` row's keys said to be "as `simulate`'s" are keys of
    simulate's `run` (it said so of `strategy`, which simulate's `run` has not)."""
    cards = str(ROOT / "tests" / "cards" / "gazette_tour.cards")
    mine = tmp_path / "mine.toml"
    mine.write_text((ROOT / "strategies" / "never-bust.toml").read_text()
                    .replace('name = "never-bust"', 'name = "my-chart"'))
    doc = json.loads(CliRunner().invoke(cli, ["replay", "--cards", cards, "--strategy",
                                              str(mine), "-f", "json"]).stdout)
    sim = json.loads(CliRunner().invoke(cli, ["simulate", "-n", "1000", "-q", "--strategy",
                                              str(mine), "-f", "json"]).stdout)
    table = README.split("**`bjsim replay -f json`**", 1)[1].split("\n\n")[1]
    rows = [re.findall(r"`(\w+)`", line.split(" | ")[0]) for line in table.splitlines()]
    assert set(doc) == {k for keys in rows for k in keys}
    row = next(line for line in table.splitlines() if line.startswith("| `run` |"))
    said = row.split(" | ", 1)[1].split("(as `simulate`'s)")[0]
    assert [k for k in re.findall(r"`(\w+)`", said) if k not in sim["run"]] == []


def test_the_compare_example_of_the_rule_effect_table_is_the_command_that_made_it():
    """The compare section's example "the rule-effect table below" is the command the table's
    own section says made it (it left out --rounds 20M, so it made another table)."""
    example = next(line for line in section(SECTIONS["compare"]).splitlines()
                   if line.endswith("# the rule-effect table below"))
    command = example.split("#")[0].strip()
    table = section("## What a rule is worth: the NZ rule-effect table")
    assert command in table.splitlines(), (command, "not the table's command")


def test_the_readmes_quoted_errors_for_a_folder_named_as_a_file_are_the_commands(
        tmp_path, monkeypatch):
    """A docs audit: README quoted `--resume runs: cannot write: it is a folder`, where --resume
    says the folder is not a checkpoint; each line quoted is the command's own."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    text = " ".join(README.split())
    for args in (["--checkpoint", "runs"], ["--resume", "runs"], ["-o", "runs"]):
        result = CliRunner().invoke(cli, ["simulate", "--rounds", "1000", *args])
        said = result.stderr.strip()
        assert result.exit_code == 2 and said.startswith("Error: "), said
        if args[0] != "-o":  # (-o's is said to be as --checkpoint's)
            assert f"`{said}`" in text, said
        assert said.endswith(("cannot write: it is a folder",
                              "allowed the path of an existing checkpoint file (the run to "
                              "carry on)")), said
