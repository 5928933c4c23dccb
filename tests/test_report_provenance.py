"""The report's provenance and rendering: the source fingerprint in every manifest, the printed
page's foot, user text in the Markdown, dates and self-describing csv files; and the messages
that name what was given."""

import csv
import hashlib
import io
import json
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from simulator import source
from simulator.assessment import output, render, sections
from simulator.checkpoint import tables_hash
from simulator.cli import cli
from simulator.derived import DERIVED_BASIC
from simulator.strategy import load_strategy, stack
from tests.test_report_print import NEEDS_PRINTING


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


# ---------------------------------------------------------------------------------------------
# The source fingerprint


def test_the_source_fingerprint_is_of_sorted_paths_and_bytes_the_same_anywhere(tmp_path):
    def tree(root, files):
        for rel, text in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(text)
        return root

    files = {"simulator/a.py": b"x = 1\n", "simulator/sub/b.py": b"y = 2\n",
             "configs/nz.toml": b"decks = 6\n", "strategies/plans/p.toml": b"name = 'p'\n"}
    one = tree(tmp_path / "one", files)
    two = tree(tmp_path / "elsewhere" / "two", dict(reversed(files.items())))
    assert source.source_files(one) == sorted(files)
    assert source.fingerprint(one) == source.fingerprint(two)  # (where, and in what order made)
    tree(two, {"simulator/__pycache__/a.cpython-311.pyc": b"\0", "README.md": b"words"})
    assert source.fingerprint(one) == source.fingerprint(two)  # (files a run does not read)
    for change in ({"simulator/a.py": b"x = 2\n"}, {"configs/other.toml": b""},
                   {"strategies/plans/p.toml": b"name = 'q'\n"}):
        other = tree(tmp_path / f"c{len(list(tmp_path.iterdir()))}", files | change)
        assert source.fingerprint(other) != source.fingerprint(one), change
    # two files' bytes shifted between them: another hash (each file's length is in it)
    shifted = tree(tmp_path / "shifted", files | {"simulator/a.py": b"x = 1\ny",
                                                 "simulator/sub/b.py": b" = 2\n"})
    assert source.fingerprint(shifted) != source.fingerprint(one)


def test_the_git_commit_says_when_there_is_no_checkout_or_no_git(tmp_path, monkeypatch):
    assert source.git_commit(tmp_path) == source.NOT_GIT
    monkeypatch.setenv("PATH", str(tmp_path))  # (no git to run)
    assert source.git_commit(source.ROOT) == source.NOT_GIT


def test_the_git_commit_says_changes_for_a_changed_or_an_untracked_source_file(tmp_path):
    """An untracked file of the fingerprint's (a new module) changes the hash, so the commit is
    said to have changes, as a changed one (``--untracked-files=no`` had missed it)."""
    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    (tmp_path / "simulator").mkdir()
    (tmp_path / "simulator" / "a.py").write_text("A = 1\n")
    (tmp_path / "notes.txt").write_text("not a source file\n")
    git("init", "-q")
    git("add", "simulator/a.py")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    assert not source.git_commit(tmp_path).endswith("changes not committed")  # (notes.txt: not)
    (tmp_path / "simulator" / "b.py").write_text("B = 2\n")
    assert source.git_commit(tmp_path).endswith(" + changes not committed")
    (tmp_path / "simulator" / "b.py").unlink()
    (tmp_path / "simulator" / "a.py").write_text("A = 2\n")
    assert source.git_commit(tmp_path).endswith(" + changes not committed")


def _head() -> str | None:
    res = subprocess.run(["git", "-C", str(source.ROOT), "rev-parse", "--show-toplevel", "HEAD"],
                         capture_output=True, text=True, check=False)
    if res.returncode != 0 or Path(res.stdout.split()[0]).resolve() != source.ROOT:
        return None
    return res.stdout.split()[1]


def test_simulate_json_and_csv_name_the_code_that_made_them():
    doc = json.loads(run("simulate", "--rounds", "2000", "-q", "-f", "json").stdout)
    head = _head()
    assert doc["source"]["sha256"] == source.fingerprint()
    assert doc["source"]["files"] == len(source.source_files()) > 50
    assert doc["source"]["git_commit"] == source.NOT_GIT if head is None else \
        doc["source"]["git_commit"].startswith(head)
    rows = {r["item"]: r["value"] for r in csv.DictReader(io.StringIO(
        run("simulate", "--rounds", "2000", "-q", "-f", "csv").stdout)) if r["section"] == "run"}
    assert rows["source:sha256"] == source.fingerprint()
    assert rows["source:git_commit"] == doc["source"]["git_commit"]


@pytest.mark.parametrize("args", [
    ["simulate", "--rounds", "2000"],
    ["compare", "--vary", "decks=8", "--rounds", "2000", "--no-exact"],
    ["count", "--plan", "hi-lo-flat", "--rounds", "2000"],
    ["count", "--plan", "hi-lo-flat", "--rounds", "2000", "--penetrations", "0.6,0.7"]])
def test_json_and_csv_tell_a_strategy_files_charts_from_an_edited_copys(args, tmp_path):
    """A strategy file edited in one cell between two runs (hard 12 v 2 and 3: H to S) gave
    the same rules, strategy, run and source in json and csv, only the figures differing:
    nothing said which charts were played. Each strategy's charts as played
    (`strategy.charts_sha256`) are in json's ``strategy_sha256`` and csv's run rows (compare:
    each game's, a row a strategy); a copy unedited has the shipped chart's."""
    def charts(name):  # the charts as the engine plays them, hashed as a checkpoint hashes them
        return tables_hash(stack([load_strategy(name)]))

    mine = tmp_path / "mine.toml"
    basic = (source.ROOT / "strategies" / "basic.toml").read_text()
    mine.write_text(basic.replace('name = "basic"', 'name = "mine"'))
    common = [*args, "--strategy", mine, "-q"]

    def outputs():
        doc = json.loads(run(*common, "-f", "json").stdout)
        res = run(*common, "-f", "csv")
        assert res.exit_code == 0, res.output
        rows = list(csv.DictReader(io.StringIO(res.stdout)))
        if args[0] == "compare":
            said = {g["label"]: g.get("strategy_sha256") for g in [doc["baseline"],
                                                                   *doc["variants"]]}
            in_csv = {r["variant"]: [r["value"]] for r in rows
                      if r["figures_of"] == "strategy_sha256" and r["figure"] == "mine"}
            assert in_csv == said
            return {h for hashes in said.values() for h in hashes}
        run_rows = {r["item"]: r["value"] for r in rows if r["section"] == "run"}
        assert [run_rows.get("strategy_sha256")] == doc.get("strategy_sha256"), run_rows
        return set(doc["strategy_sha256"])

    shipped = json.loads(run("simulate", "--rounds", "1000", "-q", "-f", "json").stdout).get(
        "strategy_sha256")
    assert shipped == [charts("basic")]
    assert outputs() == set(shipped)  # (the same charts, under another name and file)
    mine.write_text(mine.read_text().replace("12     H   H   S", "12     S   S   S"))
    edited = outputs()
    assert edited == {charts(str(mine))} and edited != set(shipped)


# ---------------------------------------------------------------------------------------------
# One report of a rule file whose name holds Markdown's and HTML's characters, long enough to be
# cut in the page foot, with a rule and a choice changed and a variant of its own derived chart

NAME = ("A&B <casino> | *table* #1, proposed rules for the 2027 season (draft, for the "
        "Gambling Commission, version 3)")


@pytest.fixture(scope="module")
def weird(tmp_path_factory):
    folder = tmp_path_factory.mktemp("weird")
    (folder / "weird.toml").write_text(f'decks = 8\n[meta]\nname = "{NAME}"\n')
    out = folder / "report"
    result = run("report", "--rules", folder / "weird.toml", "--set", "dealer_hits_soft_17=true",
                 "--boxes", "2", "--rounds", "20000", "--chunk-rounds", "10000",
                 "--sample-rounds", "5000", "--choice", "basic", "--variant",
                 "configs/variants/decks-2.toml", "--variant-rounds", "20000", "-q", "-o", out)
    assert result.exit_code == 0, result.output
    return out, json.loads((out / "report.json").read_text())


def test_every_format_names_the_code_and_the_variants_derived_charts(weird):
    out, data = weird
    m = data["manifest"]
    assert m["source_sha256"] == source.fingerprint()
    assert m["source_files"] == len(source.source_files())
    head = _head()
    assert m["git_commit"] == source.NOT_GIT if head is None else m["git_commit"].startswith(head)
    (derived,) = m["variant_strategies"]  # decks-2 plays the chart derived for its rules
    assert derived["variant"] == "decks-2" and derived["name"] == DERIVED_BASIC
    assert derived["sha256"] == hashlib.sha256(Path(derived["file"]).read_bytes()).hexdigest()
    manifest = {r["item"]: r["value"] for r in csv.DictReader(
        (out / "csv" / "manifest.csv").open(encoding="utf-8"))}
    md, page = (out / "report.md").read_text(), (out / "report.html").read_text()
    for text in (md, page, "\n".join(manifest.values())):
        assert m["source_sha256"] in text and m["git_commit"] in text
        assert derived["sha256"] in text
    assert any(k.startswith("rule variant decks-2: strategy") for k in manifest)
    # each strategy's charts as played, as its simulation's json gives them
    for s in m["strategies"]:
        charts = data["simulation"][s["name"]]["strategy_sha256"]
        assert s["charts_sha256"] == charts[0] and set(charts) == {charts[0]}
        assert manifest[f"strategy {s['name']}: its charts as played, SHA-256"] == charts[0]
        assert charts[0] in md and charts[0] in page


def test_html_and_markdown_heads_give_the_date_written(weird):
    out, data = weird
    written = data["manifest"]["written"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", written)
    md = (out / "report.md").read_text().splitlines()
    assert md[2].startswith(f"Written {written} (UTC) by bjsim")
    page = (out / "report.html").read_text()
    assert page.index(f"Written {written} (UTC)") < page.index("<nav")


def test_every_csv_file_says_what_made_its_figures(weird):
    out, data = weird
    m = data["manifest"]
    for path in sorted((out / "csv").glob("*.csv")):
        rows = list(csv.DictReader(path.open(encoding="utf-8")))
        if path.stem == "manifest":
            continue
        assert rows, path.name
        rounds = (m["variant_rounds"] if path.stem.startswith("rule_variants") else
                  m["sample_rounds"] if path.stem == "distribution" else m["rounds_played"])
        for r in rows:
            assert (r["bjsim"], r["source_sha256"], r["rules_name"], r["seed"], r["rounds"],
                    r["partial"]) == (m["bjsim"], m["source_sha256"], m["rules_name"],
                                      str(m["seed"]), str(rounds), "false"), path.name
    assert m["variant_rounds"] == 20000 and "decks=8" not in m["rules_name"]


def test_a_tables_own_column_keeps_its_name_beside_the_runs(tmp_path):
    t = sections.Table("counting_by_count", "By count", [("label", "count", "text"),
                                                         ("rounds", "rounds", "int")],
                       [["+1", 5]])
    output._csv(t, tmp_path / "t.csv", {"seed": 7, "rounds": 1000, "partial": "false"})
    (row,) = csv.DictReader((tmp_path / "t.csv").open())
    assert row == {"label": "+1", "rounds": "5", "seed": "7", "run_rounds": "1000",
                   "partial": "false"}


def test_the_markdown_shows_a_rule_files_name_as_written(weird):
    out, _ = weird
    md = (out / "report.md").read_text()
    title = md.splitlines()[0]
    assert title.startswith("# Mathematical assessment of A&amp;B &lt;casino> | \\*table\\* #1")
    prose = re.sub(r"```.*?```", "", md, flags=re.S)  # (the commands are code: as written)
    assert "<casino>" not in prose and "*table*" not in prose and "A&B" not in prose
    # in a table, a | of the name does not end the cell
    row = next(ln for ln in md.splitlines() if ln.startswith("| A&amp;B"))
    assert "&lt;casino> \\| \\*table\\*" in row
    assert render.md_text("dealer_hits_soft_17 x86_64") == "dealer_hits_soft_17 x86_64"
    assert render.md_text("_a_ [b](c) `d` \\") == "\\_a\\_ [b\\](c) \\`d\\` \\\\"
    assert render.md_text("pays=[3, 50]") == "pays=[3, 50]"  # (no link: as written)


def test_the_printed_foot_shortens_the_name_never_the_changes(weird):
    out, data = weird
    foot = render._foot(data["title"], data["game"])
    # (the rule file's decks=8 and --set dealer_hits_soft_17=true: two departures, as the rules
    # table marks them)
    assert foot.endswith(", with 2 rules changed (2 boxes)") and len(foot) <= render.FOOT_CHARS
    assert foot.startswith("Mathematical assessment of A&B <casino> | *table* #1")


@NEEDS_PRINTING
def test_every_printed_page_ends_with_the_rule_changes(weird):
    out, _ = weird
    text = subprocess.run(["pdftotext", "-layout", str(out / "report.pdf"), "-"],
                          capture_output=True, text=True, check=True).stdout
    pages = text.split("\f")[:-1]
    assert len(pages) > 1
    for page in pages:
        assert "with 2 rules changed (2 boxes)" in page.strip().splitlines()[-1]


# ---------------------------------------------------------------------------------------------
# What the Gazette allows: a range (3.1: six to eight decks), or the one value its text sets


@pytest.mark.parametrize("sets, key, said", [
    ({"decks": 8}, "decks", "within gazette"), ({"decks": 7}, "decks", "within gazette"),
    ({"decks": 1}, "decks", "outside gazette"), ({"decks": 2}, "decks", "outside gazette"),
    ({"decks": 6}, "decks", "inferred"),
    ({"dealer_hits_soft_17": True}, "dealer_hits_soft_17", "outside gazette"),
    ({"blackjack_pays": 1.2}, "blackjack_pays", "outside gazette"),
    ({"surrender": "late"}, "surrender", "changed"), ({"boxes": 3}, "boxes", "choice")])
def test_a_value_off_the_nz_one_is_within_or_outside_what_the_gazette_allows(sets, key, said):
    from simulator.rules import DECLARED, Rules, origin, origin_note

    rules = Rules(**sets)
    assert origin(rules, key) == said
    note = origin_note(rules, key)
    if said == "within gazette":
        assert note == " (within the Gazette's range, 3.1: 6-8 decks)"
    elif said == "outside gazette":
        assert note.startswith(" (outside what the Gazette allows, ")
        assert DECLARED[key].rule in note
    else:
        assert note == ""


def test_rules_show_tells_a_gazette_range_from_a_value_the_gazette_forbids():
    out = run("rules", "show", "--rules", "nz1994-8deck").stdout
    line = next(x for x in out.splitlines() if "decks = 8" in x)
    assert "within gazette" in line and "changed" not in line
    assert "within gazette = not the NZ value, but within the range the Gazette allows" in out
    out = run("rules", "show", "--set", "decks=1").stdout
    line = next(x for x in out.splitlines() if "decks = 1" in x)
    assert "outside gazette" in line and "(outside what the Gazette allows, 3.1: 6-8 decks)" in line


def _rules_section(rows, overrides, against=None):
    data = {"rules": rows, "against_nz": against,
            "manifest": {"rules_file": "configs/nz1994.toml", "overrides": overrides}}
    return " ".join(str(b) for b in sections.rules(data).blocks)


def test_the_report_does_not_call_a_game_in_the_gazettes_range_a_departure():
    from simulator.rules import Rules, describe, origin

    def rows(rules):
        return [{"rule": r, "key": kv.split(" = ")[0], "value": kv.split(" = ")[1],
                 "from": origin(rules, kv.split(" = ")[0]), "words": w}
                for r, kv, w in describe(rules)]

    eight = _rules_section(rows(Rules(decks=8)), ["decks=8"])
    assert "differs from the NZ one" not in eight
    assert "only within what the Gazette allows (decks = 8)" in eight
    one = _rules_section(rows(Rules(decks=1)), ["decks=1"])
    assert "This rule set differs from the NZ one" in one and "only within" not in one
    assert "outside gazette = a value the Gazette does not allow" in one
    nz = _rules_section(rows(Rules()), [])
    assert "differs from the NZ one" not in nz and "only within" not in nz
    text = sections.against_nz_text({
        "changes": ["decks=8"], "unseen": [], "difference": 0.0004, "house_edge": 0.0056,
        "nz_house_edge": 0.0052, "within_gazette": {
            "decks=8": "within the Gazette's range, 3.1: 6-8 decks"}})
    assert "in decks=8 (within the Gazette's range, 3.1: 6-8 decks)." in text


@pytest.mark.parametrize("args", [
    ["compare", "--vary", "dealer_hits_soft_17=true", "--rounds", "2000", "-q"],
    ["count", "--plan", "hi-lo-flat", "--rounds", "2000", "-q"],
    ["count", "--plan", "hi-lo-flat", "--rounds", "2000", "-q", "--penetrations", "0.6,0.7"],
    ["exact"], ["replay", "--cards", "CARDS"], ["exact", "--hands", "--up", "T"]])
def test_every_json_and_csv_names_the_code_that_made_it(args, tmp_path):
    # simulate's json and csv named bjsim's source (`source.provenance`); compare's, count's,
    # exact's and replay's did not, so a figure kept from them could not be traced to its code
    cards = tmp_path / "shoe.txt"
    cards.write_text("Ah 9c Kd 5s Td 7h 7c 2d 9h 8s\n")
    args = [str(cards) if a == "CARDS" else a for a in args]
    doc = json.loads(run(*args, "-f", "json").stdout)
    assert doc["source"] == source.provenance()
    res = run(*args, "-f", "csv")
    if args[0] == "replay":  # (its formats: text and json)
        assert res.exit_code == 2 and "'csv' is not one of" in res.stderr
        return
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    if "source_sha256" in rows[0]:  # (compare, exact --hands: the run on every row, as the
        # report manifest's columns)
        for k, v in source.provenance_columns().items():
            assert {r[k] for r in rows} == {str(v)}, k
    else:
        run_rows = {r["item"]: r["value"] for r in rows if r["section"] == "run"}
        assert run_rows["source:sha256"] == source.fingerprint()
        assert run_rows["source:git_commit"] == source.provenance()["git_commit"]
