"""The report's provenance and rendering: the source fingerprint in every manifest, the printed
page's foot, user text in the Markdown, dates and self-describing csv files; and the messages
that name what was given."""

import re

import pytest
from click.testing import CliRunner

from simulator.cli import cli


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


# ---------------------------------------------------------------------------------------------
# Messages


@pytest.mark.parametrize("given", [["--bankroll", "100"], ["--count-penetrations", "0.6"],
                                   ["--count-rounds", "1000", "--bankroll", "100"]])
def test_counting_options_without_a_plan_are_named_only_when_given(given, tmp_path):
    result = run("report", *given, "-o", tmp_path / "r")
    assert result.exit_code != 0
    named = set(re.findall(r"--[a-z-]+", result.stderr.split("only with")[0]))
    assert named == {w for w in given if w.startswith("--")}, result.stderr


@pytest.mark.parametrize("decks, never", [(1, ["c", "e"]), (2, ["e"])])
def test_super_sevens_lines_one_deck_cannot_deal_are_said_so_not_short_of_deals(decks, never):
    result = run("simulate", "--set", f"decks={decks}", "--rounds", "20000", "-q")
    assert result.exit_code == 0, result.output
    out = result.stdout
    lines = ", ".join(f"({k})" for k in never)
    assert f"{lines}: cannot be dealt from" in out
    for k in never:
        assert f"({k}) needs" in out
    assert "(d) needs" not in out
