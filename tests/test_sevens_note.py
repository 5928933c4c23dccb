"""The Super Sevens note: the published figures' convention (a third card always dealt) computed
for the rules in play, a published figure named only for exactly the decks and pays it was
published for (`exact.sevens.PUBLISHED`), and the same line from simulate, exact, count and
report."""

import csv
import io
import json

import pytest
from click.testing import CliRunner

from simulator import layout as L
from simulator.assessment.sections import sentence
from simulator.cli import cli
from simulator.exact import super_sevens
from simulator.exact.sevens import PUBLISHED, SECONDARY, convention
from simulator.kernel import tables as K
from simulator.report import sevens_convention, sevens_play_text
from simulator.rules import Rules, rules_dict
from simulator.strategy import stack
from tests.helpers import make_strategy

NZ_PAYS = "super_sevens_pays=[3,50,100,500,5000]"
GAMES = {  # --set changes: decks, pays
    "6 decks": ["--set", "decks=6"],
    "8 decks": ["--set", "decks=8"],
    "1 deck": ["--set", "decks=1"],
    "changed pays": ["--set", "super_sevens_pays=[3,50,100,500,1000]"],
}


def rules_of(changes):
    pairs = dict(c.split("=", 1) for c in changes[1::2])
    decks = int(pairs.get("decks", 6))
    pays = tuple(int(x) for x in pairs.get("super_sevens_pays", NZ_PAYS.split("=")[1])
                 .strip("[]").split(","))
    return Rules(decks=decks, super_sevens_pays=pays)


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.mark.parametrize("game", GAMES)
def test_the_convention_is_computed_and_named_published_only_where_it_is(game):
    rules = rules_of(GAMES[game])
    text = sevens_convention(rules_dict(rules))
    edge = super_sevens(rules, "hit", guaranteed_third=True)["house_edge"]
    # each figure named: a house edge (the return's minus), from a full shoe
    assert f"gives {100 * edge:.3f}% house edge (full shoe) for these rules" in text
    published = PUBLISHED.get((rules.decks, tuple(rules.super_sevens_pays)))
    if published is None:
        assert "no published figure is cited for them" in text and "published for them:" not in text
    else:
        figure, source = published
        assert f"published for them: {100 * figure:.2f}% house edge ({source})" in text
        assert abs(edge - figure) < 5e-5  # the figure as published is the convention's, rounded
    if game == "6 decks":
        assert "11.400%" in text and "11.40% house edge (Eliot Jacobson" in text
    if game == "8 decks":  # 9.01% only by a secondary source: not cited, nor 6 decks' 11.40%
        assert "9.008%" in text and "9.01%" not in text and "11.40" not in text
        # (a review: "no published figure" read as denying the docs' 9.01%: it says where it is)
        assert ("no published figure is cited for them (a secondary source's, which this figure "
                "reproduces, is in docs/exact.md; none from an authoritative one)") in text
    if game in ("1 deck", "changed pays"):
        assert "secondary" not in text
    if game in ("1 deck", "changed pays"):
        assert "11.40" not in text and "no published figure is cited" in text


def test_the_published_table_is_what_the_convention_gives():
    for (decks, pays), (figure, _) in PUBLISHED.items():
        c = convention(decks, pays)
        assert c["published"] == figure and abs(c["house_edge"] - figure) < 5e-5
    for (decks, pays), figure in SECONDARY.items():  # reproduced, but cited by no output
        assert abs(convention(decks, pays)["house_edge"] - figure) < 5e-5


def test_only_the_authoritative_source_is_cited():
    # The report's summary cited "webdelautomovil.com, 'How to play Super 7'" beside Eliot
    # Jacobson for the NZ game's 11.40%: a regulator's report cites the authoritative source.
    text = sevens_convention(rules_dict(Rules()))
    assert "11.40% house edge (Eliot Jacobson, 'Card Counting the Super Sevens Blackjack Side " \
           "Bet', 888casino blog)" in text
    assert "webdelautomovil" not in text and all(
        "webdelautomovil" not in source for _, source in PUBLISHED.values())


@pytest.mark.parametrize("game", GAMES)
def test_exact_and_simulate_give_the_same_note(game):
    changes = GAMES[game]
    want = sevens_convention(rules_dict(rules_of(changes)))
    exact_table = run("exact", "-q", *changes)
    assert exact_table.exit_code == 0, exact_table.output
    exact_doc = json.loads(run("exact", "-q", "-f", "json", *changes).stdout)
    exact_csv = run("exact", "-q", "-f", "csv", *changes).stdout
    sim = ["simulate", "-q", "--rounds", "2000", "--chunk-rounds", "1000", *changes]
    sim_table = run(*sim)
    assert sim_table.exit_code == 0, sim_table.output
    sim_doc = json.loads(run(*sim, "-f", "json").stdout)
    sim_csv = run(*sim, "-f", "csv").stdout
    notes = [exact_doc["exact"]["super_sevens"]["seven_seven_play"]["note"],
             sim_doc["results"]["super_sevens"]["seven_seven_play"]["note"]]
    for text in (exact_csv, sim_csv):
        notes += [r["value"] for r in csv.DictReader(io.StringIO(text))
                  if r["item"] == "super_sevens_7_7_play"]
    assert len(notes) == 4
    for note in notes:
        assert note.endswith(want), note
    # json's by_box as a value of its own (a data pipeline's review: only in the prose note)
    for doc, text in ((exact_doc["exact"], exact_csv), (sim_doc["results"], sim_csv)):
        by_box = [r["value"] for r in csv.DictReader(io.StringIO(text))
                  if r["item"] == "super_sevens_7_7_play:by_box"]
        assert by_box == ["; ".join(doc["super_sevens"]["seven_seven_play"]["by_box"])]
    for table in (exact_table.stdout, sim_table.stdout):
        assert want in table
        if game != "6 decks":
            assert "11.40" not in table.split("7-7 play (14.4)")[1].split("\n")[0]


@pytest.mark.parametrize("game", ["8 decks", "changed pays"])
def test_count_gives_the_same_note(game):
    changes = GAMES[game]
    want = sevens_convention(rules_dict(rules_of(changes)))
    args = ["count", "-q", "--rounds", "4000", "--chunk-rounds", "2000", *changes]
    table = run(*args)
    assert table.exit_code == 0, table.output
    assert f"{want}." in table.stdout
    doc = json.loads(run(*args, "-f", "json").stdout)
    assert doc["results"]["super_sevens"]["seven_seven_play"]["note"].endswith(want)
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)))
    assert [r["value"] for r in rows if r["item"] == "super_sevens_7_7_play"][0].endswith(want)
    assert [r["value"] for r in rows if r["item"] == "super_sevens_7_7_play:by_box"] == [
        "; ".join(doc["results"]["super_sevens"]["seven_seven_play"]["by_box"])]


def test_counts_sweep_gives_the_same_note():
    # the sweep (--penetrations) gave no Super Sevens note in any format
    changes = GAMES["changed pays"]
    want = sevens_convention(rules_dict(rules_of(changes)))
    args = ["count", "-q", "--rounds", "2000", "--penetrations", "0.6,0.9", *changes]
    assert "The Super Sevens return depends on the 7-7 play (14.4): " in run(*args).stdout
    assert f"{want}." in run(*args).stdout
    doc = json.loads(run(*args, "-f", "json").stdout)
    assert doc["seven_seven_play"]["note"].endswith(want)
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)))
    assert [r["value"] for r in rows if r["item"] == "super_sevens_7_7_play"][0].endswith(want)
    off = json.loads(run(*args, "--no-super-sevens", "-f", "json").stdout)
    assert off["seven_seven_play"] is None and off["player_edge"] is None


def report_summary(out, changes) -> tuple[str, dict]:
    """A small report of the game ``changes`` make, in ``out``: its summary's words, one space
    apart, and report.json."""
    result = run("report", *changes, "--rounds", "20_000", "--chunk-rounds", "10_000",
                 "--sample-rounds", "10_000", "--choice", "basic", "--no-variants", "--quiet",
                 "-o", out)
    assert result.exit_code == 0, result.output
    summary = " ".join((out / "report.md").read_text().split("## ")[1].split())
    return summary, json.loads((out / "report.json").read_text())


@pytest.mark.parametrize("game", ["8 decks", "changed pays"])
def test_report_gives_the_same_note(tmp_path, game):
    changes = GAMES[game]
    want = sevens_convention(rules_dict(rules_of(changes)))
    summary, _ = report_summary(tmp_path / "rep", changes)
    assert sentence(want) in summary  # (a sentence of its own there)


# The 7-7 play in words, as the engine plays it (`kernel.tables.Builder.decide`, the authority).
ENGINE_WORDS = {K.A_STAND: "stand", K.A_HIT: "hit", K.A_DOUBLE: "double", K.A_SPLIT: "split",
                K.A_SURRENDER: "surrender"}
UPS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "A"]
SEVENS_RULES = [Rules(double_on=d, max_hands=m, surrender=s)
                for d in ("any", "hard", "9-11", "10-11") for m in (1, 3)
                for s in ("none", "late", "early")]


@pytest.mark.parametrize("rules", SEVENS_RULES, ids=lambda r: (
    f"{r.double_on}-hands{r.max_hands}-{r.surrender}"))
def test_the_7_7_play_in_words_is_the_engines(rules):
    # simulate named the sevens row's code (D: "double", P: "split") where the rules allow no
    # double on 14 (double_on = 10-11) or no split (max_hands = 1): the engine hits or stands,
    # or plays the hard 14 row. Every sevens code against every hard 14 code, one up card each.
    codes = [(c7, c14) for c7 in L.SEVENS_ACTIONS for c14 in L.HARD_ACTIONS]
    for i in range(0, len(codes), len(UPS)):
        cells = list(zip(UPS, codes[i:i + len(UPS)], strict=False))  # (the last: fewer)
        ups_used = [up for up, _ in cells]
        strat = make_strategy(
            sevens={up: L.ACTION_NAMES[c7] for up, (c7, _) in cells},
            hard={(14, up): L.ACTION_NAMES[c14] for up, (_, c14) in cells})
        tables = stack([strat])
        bld = K.Builder(rules.to_params(), tables, K.first_boxes(tables))
        engine = {up: ENGINE_WORDS[bld.decide(0, 14, 0, 2, 1 if up == "A" else int(up), pair=7,
                                              surrender=rules.surrender != "none", sevens=True)]
                  for up in ups_used}
        said = dict(zip(UPS, words_by_up(sevens_play_text(strat, rules)), strict=True))
        assert {up: said[up] for up in ups_used} == engine, cells


def words_by_up(text: str) -> list[str]:
    """A play in words (``hit v 2-6, stand v 7-A``, ``hit every 7-7``), one word an up card."""
    if text.endswith(" every 7-7"):
        return [text.removesuffix(" every 7-7")] * len(UPS)
    words = []
    for part in text.split(", "):
        word, ups = part.split(" v ")
        first, _, last = ups.partition("-")
        words += [word] * (UPS.index(last or first) - UPS.index(first) + 1)
    return words


SEVENS_ROW = "7,7    P   P   P   P   P   P   H   H   H   H"
SEVENS_GAMES = {  # the sevens row written, --set: what the rules let it be
    "D where no double on 14": ("D   D   D   D   D   Ds  Ds  Ds  Ds  Ds",
                                ["--set", "double_on=10-11"], "hit v 2-6, stand v 7-A"),
    "P where no split": ("P   P   P   P   P   P   P   P   P   P",
                         ["--set", "max_hands=1"], "stand v 2-6, hit v 7-A"),
}


@pytest.mark.parametrize("game", SEVENS_GAMES)
def test_simulate_and_exact_name_the_7_7_play_the_rules_allow(tmp_path, game):
    # simulate said "double every 7-7" and "split every 7-7" in every format (exact and replay:
    # hit or stand), the codes of the sevens row, not what the rules let them be.
    row, changes, want = SEVENS_GAMES[game]
    basic = run("strategy", "show", "basic").stdout
    assert SEVENS_ROW in basic
    path = tmp_path / "sevens.toml"
    path.write_text(basic.replace(SEVENS_ROW, "7,7    " + row))
    said = f"depends on the 7-7 play (14.4): {want};"
    sim = ["simulate", "-q", "--rounds", "2000", "--chunk-rounds", "1000", "--strategy", path,
           *changes]
    exact = ["exact", "-q", "--strategy", path, *changes]
    for args in (sim, exact):
        table = run(*args)
        assert table.exit_code == 0, table.output
        assert said in table.stdout, table.stdout
    doc = json.loads(run(*sim, "-f", "json").stdout)["results"]["super_sevens"]
    assert doc["seven_seven_play"]["by_box"] == [want]
    assert said in doc["seven_seven_play"]["note"]
    rows = csv.DictReader(io.StringIO(run(*sim, "-f", "csv").stdout))
    assert [said in r["value"] for r in rows if r["item"] == "super_sevens_7_7_play"] == [True]


# Pays under which a player who hits every 7-7 has the edge on the side bet (a designer's
# candidate table: 8 decks, 5/40/80/400/10000, -4.121% so played), and the NZ game's, which
# give none (+11.400% hit, +22.767% with basic's own 7-7 play).
EDGE = ["--set", "decks=8", "--set", "super_sevens_pays=5,40,80,400,10000"]
PLAYS = ("split", "stand", "hit", "double")


@pytest.mark.parametrize(("rules", "best"), [
    (Rules(decks=8, super_sevens_pays=(5, 40, 80, 400, 10000)), "hit"),
    (Rules(decks=8, super_sevens_pays=(5, 40, 80, 400, 10000), hole_card="peek"), "hit"),
    (Rules(decks=1, super_sevens_pays=(4, 40, 80, 400, 8000)), "hit"),
    (Rules(), "hit"), (Rules(hole_card="peek"), "hit"),
    # a third seven paying less than two (a rule-space review: no warning, though standing or
    # splitting every 7-7 gave the player 3.0%, since hitting alone was asked)
    (Rules(super_sevens_pays=(3, 130, 130, 1, 1)), "stand"),
    (Rules(super_sevens_pays=(3, 1000, 1000, 1, 1), hole_card="peek"), "stand"),
    (Rules(super_sevens_pays=(3, 20, 20, 1, 1)), "stand"),
    # every play alike for the bet: exactly, or to rounding (a review: the up cards named by
    # hit and stand apart by 1e-14 were "hit 7-7 against A, 10")
    (Rules(decks=4, hole_card="peek", super_sevens_pays=(100, 100, 100, 100, 100)), "any"),
    (Rules(hole_card="peek", super_sevens_pays=(13, 50, 100, 60, 82)), "any")],
    ids=["8-decks", "8-peek", "1-deck", "nz", "nz-peek", "third-pays-less",
         "third-pays-less-peek", "third-pays-less-house", "all-alike", "alike-in-sum"])
def test_the_player_edge_is_the_lowest_house_edge_of_any_7_7_play(rules, best):
    """`sevens_player_edge`: the house edge of the 7-7 play best for the bet, the lowest of any
    7-7 play (hitting where a third seven pays more, standing where it pays less), given where
    it is below 0 and only there."""
    from simulator.report import sevens_player_edge

    edges = {p: super_sevens(rules, p)["house_edge"] for p in PLAYS}
    edges["any"] = edges["stand"]
    edge = sevens_player_edge(rules_dict(rules))
    assert edges[best] == pytest.approx(min(edges.values()), rel=1e-12)
    if best == "any":
        assert edges["hit"] == pytest.approx(edges["stand"], rel=1e-12)
    if edges[best] >= 0:
        assert edge is None
    else:
        play = {"hit": "hit every 7-7", "stand": "stand on every 7-7",
                "any": "play 7-7 any way"}[best]
        assert edge["play"] == play and edge["house_edge"] == edges[best]
        gerund = {"hit": "hitting every 7-7 (a third card", "stand": "standing on every 7-7 ("
                  "the bet settled on the two sevens, as splitting settles it;",
                  "any": "playing 7-7 any way (a third card or none: the bet returns the same "
                  "either way;"}[best]
        assert f": {gerund}" in edge["note"]
        assert f"makes its house edge {100 * edges[best]:.3f}%" in edge["note"]
        # where the play worst for the bet gives the player the edge too, every player has
        # it, said so (a regulator's review: the words had read as if the play won it)
        worst = max(edges.values())
        every = "the player the edge on the side bet whatever the 7-7 play"
        assert (every in edge["note"]) == (worst < 0), edge["note"]
        if worst < 0 and best != "any":
            assert (f"(the play worst for the bet makes its house edge {100 * worst:.3f}%)"
                    in edge["note"])


def test_the_player_edge_of_a_play_by_up_card_names_the_up_cards(monkeypatch):
    # where a third card is best against some up cards only (no pays found that give it: the
    # conditional pays are crafted), the play names them and the edge is that play's
    from simulator import report

    real = report.super_sevens
    asked = []

    def crafted(rules, play="stand", guaranteed_third=False):
        out = real(rules, play)
        asked.append(play)
        if play == "hit":
            for up in (1, 10):
                out["by_up"][up]["hit"] = out["by_up"][up]["stand"] + 1
        return out

    monkeypatch.setattr(report, "super_sevens", crafted)
    rules = Rules(super_sevens_pays=(3, 130, 130, 1, 1), decks=7)
    edge = report.sevens_player_edge(rules_dict(rules))
    plays = {up: "hit" if up in (1, 10) else "stand" for up in range(1, 11)}
    assert asked[:2] == ["hit", plays]  # (then the play worst for the bet: none below 0)
    assert edge["play"] == "hit 7-7 against A, 10"
    assert edge["house_edge"] == real(rules, plays)["house_edge"]
    assert edge["note"].startswith("these pays give the player the edge on the side bet")
    assert (": hitting 7-7 against A, 10 (a third card against those up cards alone, none "
            "against the others; the most any 7-7 play gives the bet) makes its house edge"
            in edge["note"])


def test_every_command_warns_where_the_pays_give_a_player_the_edge(tmp_path):
    """A designer's table whose headline figure (the strategy's own 7-7 play: +10.8%) hides a
    player edge for whoever hits every 7-7 (-4.121%): simulate, exact, count (its sweep too,
    which said nothing) and compare say so in every format, and nothing is said of the NZ pays
    (a review: nothing said it at all)."""
    from simulator.report import sevens_player_edge

    edge = sevens_player_edge(rules_dict(Rules(decks=8, super_sevens_pays=(5, 40, 80, 400,
                                                                           10000))))
    assert edge is not None and edge["house_edge"] == pytest.approx(-0.04120831, abs=1e-8)
    warning = f"WARNING: {edge['note']}"
    small = ["-q", "--rounds", "4000", "--chunk-rounds", "2000"]
    sweep = [*small, "--penetrations", "0.6,0.9"]
    for cmd, extra, where in (("simulate", small, ("results",)), ("exact", ["-q"], ("exact",)),
                              ("count", small, ("results",)), ("count", sweep, ())):
        for changes, warned in ((EDGE, True), ([], False)):
            text = run(cmd, *extra, *changes).stdout
            assert (warning in text) is warned, (cmd, changes)
            doc = json.loads(run(cmd, *extra, *changes, "-f", "json").stdout)
            # (the sweep's: a top-level key beside its sweep_note)
            got = doc[where[0]]["super_sevens"]["player_edge"] if where else doc["player_edge"]
            assert got == (edge if warned else None), (cmd, changes)
            rows = list(csv.DictReader(io.StringIO(run(cmd, *extra, *changes, "-f",
                                                       "csv").stdout)))
            kept = {r["item"]: r["value"] for r in rows
                    if r["item"].startswith("super_sevens_player_edge:")}
            assert kept == ({"super_sevens_player_edge:play": "hit every 7-7",
                             "super_sevens_player_edge:house_edge": str(edge["house_edge"]),
                             "super_sevens_player_edge:note": edge["note"]}
                            if warned else {}), (cmd, changes)
    args = ["compare", *small, "--no-exact", "--vary",
            "decks=8,super_sevens_pays=5,40,80,400,10000"]
    text = run(*args).stdout
    assert f"WARNING: decks=8,super_sevens_pays=[5, 40, 80, 400, 10000]: {edge['note']}." in text
    assert text.count("WARNING:") == 1  # (not the baseline's, the NZ pays)
    doc = json.loads(run(*args, "-f", "json").stdout)
    assert doc["baseline"]["super_sevens"]["player_edge"] is None
    assert doc["variants"][0]["super_sevens"]["player_edge"] == edge
    rows = [r for r in csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout))
            if r["figures_of"] == "super_sevens_player_edge"]
    assert [(r["variant"], r["figure"], float(r["value"]), r["note"]) for r in rows] == [
        ("decks=8,super_sevens_pays=[5, 40, 80, 400, 10000]", "hit every 7-7",
         edge["house_edge"], edge["note"])]


def test_the_report_warns_where_the_pays_give_a_player_the_edge(tmp_path):
    from simulator.report import sevens_player_edge

    edge = sevens_player_edge(rules_dict(rules_of(EDGE)))
    summary, data = report_summary(tmp_path / "rep", EDGE)
    assert (f"Warning: {edge['note']}, and the casino loses on the side bet on average to a "
            "player who does so.") in summary
    assert data["sevens"]["player_edge"] == edge
