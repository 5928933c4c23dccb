"""The assessment report after a regulator's review (2026-12-06): each test names the defect it
guards against, as the reviewer found it."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from simulator.assessment import figures, sections
from simulator.cli import cli
from simulator.rules import Rules, describe


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def _section(md: str, title: str) -> str:
    start = md.index(f"## {title}")
    end = md.find("\n## ", start + 1)
    return md[start:end if end > 0 else None]


def _wagers(total, main, ins, ins_exact_only=False):
    """The wagers rows `sections.player_edge_text` reads: returns to the player."""
    def row(key, exact, sim=None, half=None):
        return {"wager": key, "exact": exact, "simulated": sim,
                "ci95_low": None if half is None else sim - half,
                "ci95_high": None if half is None else sim + half}
    ins_row = row("insurance", ins) | {"exact_only": ins_exact_only}
    return {"wagers": [row("total", *total), row("main", *main), ins_row]}


# 1. A table where the player has the edge (early surrender: exact -0.1184%) was not said to be.

def test_a_table_where_the_player_has_the_edge_says_so_in_plain_words():
    nz = _wagers((-0.00519, -0.0054, 0.0007), (-0.00519, -0.0054, 0.0007), -0.0738, True)
    assert sections.player_edge_text(nz) == ""
    early = _wagers((0.001184, 0.000998, 0.0021), (0.001184, 0.000998, 0.0021), -0.0738, True)
    text = sections.player_edge_text(early)
    assert text.startswith("The player has the edge at this table")
    assert "the casino loses on average" in text and "(exact -0.1184%)" in text
    assert "The main game itself gives the player the edge." in text
    # exact edge to the house, but the simulated interval wholly on the player's side
    sim = _wagers((-0.0001, 0.004, 0.001), (-0.0001, 0.004, 0.001), -0.0738, True)
    assert "wholly below 0" in sections.player_edge_text(sim)
    # insurance paying 3 to 1, taken by the strategy: the wager that gives the edge is named
    ins3 = _wagers((0.00343, 0.0044, 0.0022), (-0.00519, -0.0043, 0.0022), 0.23496)
    text = sections.player_edge_text(ins3)
    assert "The insurance wager gives the player the edge: it returns +23.496% per unit " \
        "staked (exact), and the strategy takes it, while the main game alone keeps a house " \
        "edge of 0.5190% (exact)." in text
    # insurance that gains, not taken: named all the same
    untaken = _wagers((-0.00519, -0.0054, 0.0007), (-0.00519, -0.0054, 0.0007), 0.23496, True)
    assert "the player who takes it has the edge on that wager" in \
        sections.player_edge_text(untaken)


# 2, 3. The departures the Gazette does not allow were not named in the summary; the title
# counted the command line's changes, not the departures (a rule file's own missed), and the
# first sentence dropped the rules table's "(no effect: ...)".

CASINO = Rules(decks=8, dealer_hits_soft_17=True, super_sevens_pays=(3, 50, 100, 500, 2500))
PEEK = Rules(hole_card="peek", dealer_blackjack_takes="all")


def test_the_summary_names_each_departure_the_gazette_does_not_allow_with_its_clause():
    text = sections.against_nz_text(figures.against_nz(CASINO))
    assert "decks=8 (within the Gazette's range, 3.1: 6-8 decks)" in text
    assert "dealer_hits_soft_17=true (outside what the Gazette allows, 12.3: false only)" in text
    assert ("super_sevens_pays=3,50,100,500,2500 (outside what the Gazette allows, 14.3: "
            "3,50,100,500,5000 only)") in text
    peek = sections.against_nz_text(figures.against_nz(PEEK))
    assert 'hole_card=peek (outside what the Gazette allows, 8.2, 9.1: "none" only)' in peek


def test_the_title_and_first_sentence_count_the_departures_as_the_rules_table_marks_them():
    game = "Casino X table 4"
    # the rule file sets the pays; the command line decks and H17: three departures
    assert figures.report_title(game, CASINO, ["decks=8", "dealer_hits_soft_17=true"]) == (
        f"Mathematical assessment of {game}, with 3 rules changed")
    words = figures.changes_words(CASINO, ["decks=8", "dealer_hits_soft_17=true"])
    table = {kv.split(" = ")[0]: w for _, kv, w in describe(CASINO)}
    assert words.count("; ") == 2 and words.startswith(", changed from the NZ game: the shoe")
    assert "(outside what the Gazette allows, 12.3: false only)" in words
    assert table["super_sevens_pays"][1:] in words  # (the rule file's own, in the table's words)
    assert figures.report_title(game, PEEK, ["hole_card=peek",
                                             "dealer_blackjack_takes=all"]).endswith(
        "with 2 rules changed")
    words = figures.changes_words(PEEK, ["hole_card=peek", "dealer_blackjack_takes=all"])
    assert ('(no effect: hole_card = "peek", a dealer blackjack ends the round before any '
            "double or split)") in words
    assert figures.report_title(game, Rules(boxes=3), ["boxes=3"]) == (
        f"Mathematical assessment of {game} (3 boxes)")


# 4. The headline house edge was the full-shoe exact figure, not the game as dealt.

def _volatility_total(sim, half):
    return {"wager": "total", "label": "Main game and insurance", "per": "initial wager",
            "exact": -0.005191, "simulated": sim, "ci95_low": sim - half,
            "ci95_high": sim + half, "sd_bet": 1.13, "sd_round": 1.13, "exact_sd_bet": 1.13,
            "se": half / 1.96, "bets": 10, "rounds": 10}


def test_the_expected_casino_win_is_of_the_game_as_dealt_where_the_run_measured_it():
    close = figures._volatility([_volatility_total(-0.005406, 0.000011)], None, 1, Rules())
    assert {r["edge_source"] for r in close} == {"simulated"}
    assert close[0]["house_edge"] == 0.005406 and close[0]["expected_win"] == 100 * 0.005406
    wide = figures._volatility([_volatility_total(-0.0054, 0.0007)], None, 1, Rules())
    assert {r["edge_source"] for r in wide} == {"exact"} and wide[0]["house_edge"] == 0.005191
    every = figures._volatility([_volatility_total(-0.005191, 0.000011)], None, 1,
                                Rules(shuffle="every-round"))
    assert every[0]["edge_source"] == "exact"  # (dealt as the exact figure is)


def test_the_volatility_notes_cut_card_effect_has_the_places_of_the_summary_and_compare():
    # It said "about +0.02 pp with 8 decks" for 0.017 (two places) where
    # exact.compare.cut_card_words, the summary and compare give three.
    from simulator.exact.compare import cut_card_effect

    for decks in (6, 8):
        size = f"+{100 * cut_card_effect(decks):.3f} pp with {decks} decks"
        rules = [{"key": "decks", "value": decks}, {"key": "shuffle", "value": "cut-card"}]
        for source in ("simulated", "exact"):
            data = {"volatility": [{"wager": "total", "edge_source": source}], "rules": rules}
            assert f"(about {size})" in sections._edge_source_text(data)
    assert "+0.017 pp with 8 decks" in size
    # with several boxes where bjsim has not measured the effect (5 decks), one box's is said
    # to be the yardstick; the game is not said to "run higher" by it; where it has (8 decks),
    # the table's own
    rules += [{"key": "boxes", "value": 3}]
    data = {"volatility": [{"wager": "total", "edge_source": "exact"}], "rules": rules}
    text = sections._edge_source_text(data)
    assert (f"(about +{100 * cut_card_effect(8, 3):.3f} pp with 8 decks for a table of 3 "
            "boxes, as bjsim measured it)") in text and "runs higher" in text
    rules[0]["value"] = 5
    text = sections._edge_source_text(data)
    assert "for one box, as bjsim measured it; not measured for 3 boxes" in text
    assert "runs higher" not in text and "less closely than one box's effect" in text
    # at another penetration the size is said to be 75%'s, not this game's (a statistician)
    rules += [{"key": "penetration", "value": 0.9}]
    rules[0]["value"], rules[2]["value"] = 6, 1
    text = sections._edge_source_text(data)
    assert "(not measured at 90% penetration; at 75%, about +0.021 pp with 6 decks)" in text


# 7. A tiny run's volatility used insurance's SD from 6 bets; a count of 0 showed an SE of 0.

def test_insurance_simulated_from_too_few_bets_takes_its_exact_sd_in_the_volatility_table():
    ins = {"wager": "insurance", "label": "Insurance", "per": "unit staked",
           "exact": -0.07378, "simulated": 0.5, "se": None, "ci95_low": None,
           "ci95_high": None, "sd_bet": 1.6432, "sd_round": None, "bets": 6, "rounds": 100,
           "interval_note": "too few"}
    rows = figures._volatility([_volatility_total(-0.145, 0.22), ins], None, 1, Rules())
    r = next(r for r in rows if r["wager"] == "insurance")
    assert r["sd_source"] == "exact" and r["sd_few_bets"] == 6
    assert r["sd_bet"] == pytest.approx(figures.insurance_sd(-0.07378, 2.0))


@pytest.fixture(scope="module")
def early(tmp_path_factory):
    out = tmp_path_factory.mktemp("early")
    result = run("report", "--set", "surrender=early", "--rounds", "20_000", "--chunk-rounds",
                 "10_000", "--sample-rounds", "10_000", "--choice", "basic", "--no-variants",
                 "-q", "-o", out)
    assert result.exit_code == 0, result.output
    return out, json.loads((out / "report.json").read_text())


def test_an_early_surrender_report_says_the_player_has_the_edge_and_the_game_as_dealt(early):
    out, data = early
    summary = _section((out / "report.md").read_text(), "Summary")
    assert "The player has the edge at this table" in summary
    assert "per initial wager, of this table as dealt, to the cut card (rule 7.1 (1999)): " \
        "simulated " in summary
    assert "exact for a full shoe every round, which leaves out the cut-card effect: " \
        "-0.1184%" in summary
    vol = _section((out / "report.md").read_text(), "Volatility")
    assert "means the player has the edge on that wager: the casino loses on average" in vol
    assert "House edge, and the expected casino win (N x house edge): exact" in vol


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    out = tmp_path_factory.mktemp("tiny")
    result = run("report", "--rounds", "100", "--choice", "insurance-taker", "--no-variants",
                 "-q", "-o", out)
    assert result.exit_code == 0, result.output
    return out, json.loads((out / "report.json").read_text())


def test_a_tiny_run_gives_insurance_its_exact_sd_and_a_count_of_0_no_se(tiny):
    out, data = tiny
    md = (out / "report.md").read_text()
    ins = next(r for r in data["volatility"] if r["wager"] == "insurance")
    assert ins["sd_source"] == "exact" and ins["sd_few_bets"] is not None
    assert "for insurance, whose simulated bets" in _section(md, "Volatility")
    zero = [r for r in data["frequencies"] if r["count"] == 0 and not r.get("left_out")]
    assert zero, "the tiny run has a count of 0 to show"
    for r in zero:
        line = next(x for x in md.splitlines() if x.startswith(f"| {r['label']} |"))
        assert re.search(r"\| - \|$", line), line


# 6. The Super Sevens variant note said "1 of the 8 simulated figures" under a table of 7 rows
# (decks-8 and super-sevens-8-decks, one game, one row).

def test_the_super_sevens_variant_note_counts_the_rows_the_table_shows():
    games = [{"variant": f"v{i}", "ss_half_width": None if i == 0 else 0.01} for i in range(8)]
    text = sections._ss_withheld_text(games, {"v7"})
    assert text.startswith("1 of the 7 simulated figures have no interval ('-'), a game given "
                           "twice counted once:")
    assert sections._ss_withheld_text(games, set()).startswith("1 of the 8 simulated figures")
    assert sections._ss_withheld_text(games[1:], set()) == ""


# 8. report --rules a variant file was told `bjsim compare --variant ...` though report takes
# --variant; report --variant a strategy file was told "not a rule file".

def test_a_file_of_the_wrong_kind_for_report_is_told_reports_own_options(tmp_path):
    result = run("report", "--rules", "configs/variants/h17.toml", "-o", tmp_path / "a")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1] == (
        "Error: configs/variants/h17.toml: a variant file (a baseline and its changes), not a "
        "rule file: give it to --variant (`bjsim report --variant configs/variants/h17.toml`)")
    result = run("report", "--variant", "strategies/basic.toml", "-o", tmp_path / "b")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1] == (
        "Error: strategies/basic.toml: a strategy file, not a variant file: give it to "
        "--strategy (`bjsim report --strategy strategies/basic.toml`)")
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


# 9. Ctrl-C during a report said the chunks in play were "being finished, to be kept (Ctrl-\
# quits at once, losing them)", then "interrupted: no report written": nothing is kept.

def test_ctrl_c_during_a_report_says_at_once_that_nothing_is_kept(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen(
        [sys.executable, "-m", "simulator", "report", "--rounds", "400M", "--chunk-rounds", "5M",
         "--no-variants", "--choice", "basic", "-q", "-o", str(tmp_path / "out")],
        stderr=subprocess.PIPE, text=True, cwd=root,
        env=dict(os.environ, PYTHONPATH=str(root)),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    err = ""
    deadline = time.monotonic() + 240
    while "simulation of" not in err and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        err += line
    time.sleep(1.0)  # (the main run's chunks in play)
    proc.send_signal(signal.SIGINT)
    err += proc.stderr.read()
    assert proc.wait(timeout=240) == 130, err
    assert "to be kept" not in err and "losing them" not in err, err
    assert "nothing is kept: no report is written" in err, err
    assert err.rstrip().endswith("bjsim report: interrupted: no report written")
    assert not (tmp_path / "out").exists()


def test_the_stop_words_say_what_a_stop_keeps():
    from simulator.chunks import nothing_kept, stop_keeps, stopping_words

    assert stop_keeps() and "to be kept" in stopping_words(2)
    with nothing_kept():
        assert not stop_keeps()
        assert "to be kept" not in stopping_words(2) and "nothing is kept" in stopping_words(2)


# 10. BJSIM_CHROMIUM=/nonexistent said "Chromium not found (install chromium, or name it in
# BJSIM_CHROMIUM)", though it was named there.

@pytest.mark.parametrize("named, why", [
    ("/nonexistent", "no such file"), ("no-such-browser-here", "not found on the PATH"),
    ("/tmp", "a folder, not an executable")])
def test_a_bad_bjsim_chromium_is_named_with_what_is_wrong(named, why, monkeypatch):
    from simulator.assessment import chromium
    monkeypatch.setenv("BJSIM_CHROMIUM", named)
    assert chromium.find() is None  # (not passed over for one on the PATH)
    assert chromium.missing().startswith(f"BJSIM_CHROMIUM={named}: {why} (")
    # it named chromium or chromium-browser alone, where find() tries every one of NAMES
    assert chromium.missing().endswith(
        "or unset it to use the first of chromium, chromium-browser, google-chrome or "
        "google-chrome-stable on the PATH)")
    assert all(name in chromium.missing() for name in chromium.NAMES)


def test_a_report_with_a_bad_bjsim_chromium_says_which_path(tmp_path, monkeypatch, tiny):
    from simulator.assessment import output
    monkeypatch.setenv("BJSIM_CHROMIUM", "/nonexistent")
    said = []
    written = output.write_report(json.loads(json.dumps(tiny[1])), tmp_path, said.append)
    assert "report.pdf" not in written
    assert any(s.startswith("report.pdf not written: BJSIM_CHROMIUM=/nonexistent: no such file")
               for s in said), said


def test_the_variants_super_sevens_table_names_every_change_that_puts_a_game_in_it():
    # A side-bet designer's review: the sentence over the table named decks, hole card, pays
    # and the 7-7 play, while the table (compare's SS_KEYS) holds penetration and shuffle
    # variants too.
    from simulator.assessment.sections import SS_CHANGES
    from simulator.compare_report import SS_KEYS

    words = {"decks": "decks", "hole_card": "hole card", "super_sevens_pays": "pays",
             "super_sevens_bet": "stake", "penetration": "penetration", "shuffle": "shuffle",
             "boxes": "boxes"}
    assert set(words) == set(SS_KEYS)
    assert all(w in SS_CHANGES for w in words.values()) and "7-7 play" in SS_CHANGES


# A regulator's review (2026-12-07): the summary, the 7-7 table and the manifest.

def test_the_summary_names_the_lowest_super_sevens_edge_a_player_can_hold(early):
    # 11.40% (every 7-7 hit) had been given only as "the published figures' convention"
    out, _ = early
    summary = _section((out / "report.md").read_text(), "Summary")
    assert ("That figure, every 7-7 hit, is the lowest house edge a player can hold the side "
            "bet to (the most third cards).") in summary
    sevens = _section((out / "report.md").read_text(), "Super Sevens and the 7-7 play")
    assert "the best play with this table's side bet (1 x the main wager)" in sevens
    assert "side bet of 1 up" not in sevens  # (read as "of 1 or more", a review)


def test_the_summary_gives_the_counters_advantage_and_the_side_bets_exposure():
    # the summary said nothing of a counter who beat the game (+0.492%, CI +0.130% to +0.854%)
    def data(mean, low, high, share):
        return {"counting": {"figures": {
            "plan": {"name": "hi-lo-1-12"}, "rounds": 1_000_000,
            "advantage": {"initial_bet": {"mean": mean, "ci95_low": low, "ci95_high": high,
                                          "interval_note": None}},
            "super_sevens": {"favourable_share": share}}}}
    text = sections._counting_summary(data(0.00492, 0.0013, 0.00854, 0.1289))
    assert text == ("Card counting (plan hi-lo-1-12, 1,000,000 rounds): the counter's advantage "
                    "per unit of initial main bet is +0.492% (95% CI +0.130% to +0.854%); the "
                    "counter has the edge over the game; the Super Sevens bet favoured the "
                    "player (a positive exact return, by the strategy's 7-7 play, from the cards "
                    "left) in 12.89% of rounds, open to a count of sevens (the section Card "
                    "counting).")
    text = sections._counting_summary(data(0.003, -0.004, 0.011, None))
    assert "the counter has the edge" not in text and "Super Sevens" not in text
    sevens = data(-0.027, -0.043, -0.012, 0.268)  # (the sevens plan: its side bet's return)
    sevens["counting"]["figures"]["super_sevens"] |= {
        "counter_return": 0.08, "counter_return_ci95_low": -0.2, "counter_return_ci95_high": 0.36,
        "exact_play": "the strategy's 7-7 play (split v 2-7, hit v 8-A)"}
    assert ("its Super Sevens bets returned +8.000% per unit staked (95% CI -20.000% to "
            "+36.000%); the Super Sevens bet favoured the player (a positive exact return, by "
            "the strategy's 7-7 play (split v 2-7, hit v 8-A), from the cards left) in 26.80%"
            ) in sections._counting_summary(sevens)
    assert sections._counting_summary({"counting": None}) is None


def test_the_rebuild_command_writes_beside_the_report_not_over_it(early):
    # `bjsim report ... -o rep1` run as printed replaced the report being audited
    out, data = early
    words = data["manifest"]["commands"]["report"].split()
    assert words[words.index("-o") + 1] == f"{out}-rebuilt"
    assert figures.rebuilt("rep1/") == "rep1-rebuilt"
    repro = _section((out / "report.md").read_text(), "Reproducibility")
    assert "The commands run from the folder the report was made in" in repro


def test_the_variants_say_what_the_gazette_says_of_each_change():
    # the variants table did not mark which variants the Gazette allows (bj-6-5, h17, ...),
    # where the rules table and the summary mark every departure
    nz = Rules()
    assert figures.gazette_word(nz.replace(blackjack_pays=1.2), ["blackjack_pays"]) == \
        "outside (8.2)"
    assert figures.gazette_word(nz.replace(decks=8), ["decks"]) == "within (3.1)"
    assert figures.gazette_word(nz.replace(decks=1), ["decks"]) == "outside (3.1)"
    assert figures.gazette_word(nz.replace(double_on="any"), ["double_on"]) == \
        "inferred rule (10)"
    assert figures.gazette_word(nz.replace(surrender="late"), ["surrender"]) == "inferred rule"
    assert figures.gazette_word(nz.replace(boxes=3), ["boxes"]) == "a choice"
    assert figures.gazette_word(nz.replace(decks=8, dealer_hits_soft_17=True),
                                ["decks", "dealer_hits_soft_17"]) == "outside (12.3); within (3.1)"
    assert figures.gazette_word(nz, ["decks"]) == "the NZ value"  # (a departure undone)
    assert figures.gazette_word(nz, []) == ""
    assert "Gazette: what the Gazette says of the values a variant changes" in \
        sections.GAZETTE_COLUMN


def test_the_rules_section_names_the_pages_in_hand_and_the_rules_with_no_key(early):
    # a committee could not tell which Gazette pages the rules rest on, nor that 11 (c), 11.5,
    # 12.1 (d) were played: the table lists keys alone
    out, data = early
    md = (out / "report.md").read_text()
    rules = _section(md, "Rules")
    assert "pages 3234, 3236 and 3238 of that issue" in rules
    for rule in ("3.2 (", "4.1 (a)-(g) (", "11 (c) (", "11.5 (", "12.1 (a) (", "(d) (a hand of 11"):
        assert rule in rules, rule
    summary = _section(md, "Summary")
    inferred = [r["key"] for r in data["rules"] if r["from"] == "inferred"]
    assert "decks" in inferred and "double_on" in inferred
    assert (f"The figures rest too on {len(inferred)} rules the Gazette text in hand does not "
            f"give, inferred ({', '.join(inferred)}: the section Rules says from where).") \
        in summary


def test_the_super_sevens_variants_carry_the_exact_scope_and_z_as_the_house_edge_table():
    # compare gave decks-8 "~-1.527 ... -1.77"; the report's Super Sevens table had neither
    game = {"house_edge": {}, "super_sevens": {"house_edge": 0.2252, "ci95_high": 0.2352,
                                               "bets": 200_000, "interval_note": None},
            "difference": {"super_sevens": {"mean": -0.0064, "ci95_low": -0.009,
                                            "ci95_high": -0.0038, "exact": -0.0153,
                                            "exact_scope": "cut-card", "z": -1.77,
                                            "interval_note": None}}}
    row = figures._variant_sevens(game, {}, True, 17.1)
    assert (row["ss_exact_scope"], row["ss_z"]) == ("cut-card", -1.77)


def test_a_report_s_super_sevens_variants_table_gives_the_exact_scope_and_z(tmp_path):
    out = tmp_path / "r"
    result = run("report", "--set", "super_sevens_pays=3,3,3,3,3", "--rounds", "2000",
                 "--variant-rounds", "20000", "--variant", "variants/decks-8", "--choice",
                 "basic", "--sample-rounds", "2000", "-q", "-o", out)
    assert result.exit_code == 0, result.output
    data = json.loads((out / "report.json").read_text())
    (row,) = data["variants"]["rows"]
    assert row["ss_exact_scope"] == "cut-card" and row["ss_z"] is not None  # (390 bets do)
    md = _section((out / "report.md").read_text(), "Rule variants")
    table = md[md.index("**The effect of each rule variant on the Super Sevens"):]
    assert "| exact scope | z (of the house edge) |" in table and "| cut-card |" in table
    with open(out / "csv" / "rule_variants_super_sevens.csv") as f:
        assert "ss_z_house_edge" in f.readline()
    assert "Exact scope cut-card: the exact difference is of a full shoe every round" in md


def test_the_lowest_super_sevens_edge_leaves_out_the_convention_and_keys_of_no_effect():
    # a last read: under a peek the convention's 11.400% (no play reaches it) made hitting's
    # 12.606% never "the lowest"; a key of no effect (the penetration, a shuffle every round)
    # was counted among the inferred rules the figures rest on
    rows = {"hit every 7-7": {"super_sevens_house_edge": 0.12606},
            "double every 7-7": {"super_sevens_house_edge": 0.12606},
            "stand every 7-7": {"super_sevens_house_edge": 0.36},
            "published convention": {"super_sevens_house_edge": 0.114, "convention": True}}
    assert sections._lowest(rows["hit every 7-7"], rows)
    rows["stand every 7-7"]["super_sevens_house_edge"] = 0.1  # (3,50,100,5,5: standing lower)
    assert not sections._lowest(rows["hit every 7-7"], rows)
    data = {"rules": [{"key": "penetration", "from": "inferred", "no_effect": True},
                      {"key": "decks", "from": "inferred", "no_effect": False}],
            "variants": {"available": True, "rows": [{"changed_keys": ["decks"]}]}}
    assert sections._inferred_text(data) == (
        "The figures rest too on 1 rule the Gazette text in hand does not give, inferred "
        "(decks: the section Rules says from where); the section Rule variants gives what "
        "changing decks costs.")
    data["variants"]["rows"] = [{"changed_keys": ["hole_card"]}]  # (no inferred key changed)
    assert "Rule variants" not in sections._inferred_text(data)


def test_the_counters_super_sevens_return_in_the_summary_says_why_it_has_no_interval():
    f = {"plan": {"name": "sevens-super-sevens"}, "rounds": 20_000,
         "advantage": {"initial_bet": {"mean": -0.027, "ci95_low": -0.043, "ci95_high": -0.012,
                                       "interval_note": None}},
         "super_sevens": {"counter_return": 0.157, "counter_return_ci95_low": None,
                          "counter_return_interval_note": "about 0.049 wins of line (e) ..."}}
    text = sections._counting_summary({"counting": {"figures": f}})
    assert ("its Super Sevens bets returned +15.700% per unit staked (no interval: about 0.049 "
            "wins of line (e) ...)") in text


def test_the_super_sevens_variants_scope_sentence_only_where_a_row_has_that_scope():
    games = [{"variant": "decks-8", "ss_sd_source": "exact", "ss_exact_scope": "full"}]
    assert "Exact scope cut-card" not in sections._variant_ss_interval_words(games)
    games[0]["ss_exact_scope"] = "cut-card"
    assert "Exact scope cut-card" in sections._variant_ss_interval_words(games)


def test_the_summary_gives_a_super_sevens_counters_advantage_with_its_side_bet():
    # a casino manager's review: the sevens counter's summary headlined -0.668% (main bet
    # alone), its +3.516% with Super Sevens in the section's table only
    f = {"plan": {"name": "sevens-super-sevens"}, "rounds": 500_000,
         "advantage": {"initial_bet": {"mean": -0.00668, "ci95_low": -0.00889,
                                       "ci95_high": -0.00448, "interval_note": None},
                       "initial_bet_with_super_sevens": {
                           "mean": 0.03516, "ci95_low": 0.01, "ci95_high": 0.06,
                           "interval_note": None}},
         "super_sevens": {"counter_return": 0.36763, "counter_return_ci95_low": 0.1,
                          "counter_return_ci95_high": 0.6}}
    text = sections._counting_summary({"counting": {"figures": f}})
    assert ("is -0.668% (95% CI -0.889% to -0.448%); with its Super Sevens bets, per unit of "
            "initial main and Super Sevens bet, +3.516% (95% CI +1.000% to +6.000%); the "
            "counter has the edge over the game") in text


def test_compare_says_whose_7_7_play_its_super_sevens_figures_are_of():
    # +2.603 pp for basic's play was +4.787 pp for a player hitting every 7-7, unsaid
    result = run("compare", "--vary", "super_sevens_pays=3,50,100,500,2000", "-n", "2000",
                 "--workers", "1", "-q")
    assert ("The Super Sevens figures are of each game's strategy's 7-7 play (the baseline's: "
            "split v 2-7, hit v 8-A)") in result.stdout
    assert "--strategy basic-super-sevens" in result.stdout
