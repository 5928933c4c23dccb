"""simulator.report: the three renderings of a summary."""

import csv
import dataclasses
import io
import json

import pytest

from simulator import __version__
from simulator.report import FORMATS, render, tidy_frame, wagers_frame
from simulator.rules import Rules
from simulator.tally import summarize
from tests.test_tally import build_tally

ROUNDS = [[(10, None, 5)], [(-10, -5, 5)], [(15, None, 0)], [(0, 10, 1)], [(-20, None, 5)]] * 6
META = {
    "rules": dataclasses.asdict(Rules()),
    "strategy": ["basic"],
    "run": {"seed": 7, "rounds": 30, "chunk_rounds": 5, "boxes": 1,
            "rules_file": "configs/nz1994.toml", "rules_name": "NZ 1994", "partial": False},
    "timing": {"seconds": 0.5, "rounds_per_second": 30.0, "workers": 2},
}


@pytest.fixture
def summary():
    return summarize(build_tally(ROUNDS), Rules())


def test_json_document_keeps_results_apart_from_timing(summary):
    doc = json.loads(render(summary, "json", META))
    assert set(doc) == {"bjsim", "source", "rules", "strategy", "strategy_sha256",
                        "strategy_charts", "run", "results", "timing"}
    assert doc["bjsim"] == __version__
    # (seven_seven_play and player_edge null: META has no sevens_note nor sevens_player_edge,
    # as a run without Super Sevens)
    assert doc["results"] == summary | {"super_sevens": summary["super_sevens"] | {
        "seven_seven_play": None, "player_edge": None}}
    assert doc["rules"]["decks"] == 6
    assert doc["rules"]["super_sevens_pays"] == [3, 50, 100, 500, 5000]
    assert doc["run"]["seed"] == 7 and doc["timing"]["seconds"] == 0.5
    other = json.loads(render(summary, "json", META | {"timing": {"seconds": 9.0}}))
    assert other["results"] == doc["results"] and other["timing"] != doc["timing"]


def test_csv_is_tidy_one_row_per_figure(summary):
    rows = list(csv.DictReader(io.StringIO(render(summary, "csv", META))))
    assert list(rows[0]) == ["section", "item", "per", "value", "se", "ci95_low", "ci95_high"]
    he = rows[0]
    assert he["section"] == "house_edge"
    assert float(he["value"]) == pytest.approx(summary["house_edge"]["mean"])
    assert float(he["se"]) == pytest.approx(summary["house_edge"]["se"])
    keys = [(r["section"], r["item"], r["per"]) for r in rows]
    assert len(keys) == len(set(keys))
    lines = [r for r in rows if r["section"] == "super_sevens_freq"]
    assert [r["item"] for r in lines] == list("abcdef")
    figures = [r for r in rows if r["section"] not in ("run", "rules")]  # then the metadata
    assert len(tidy_frame(summary)) == len(figures) and rows[: len(figures)] == figures


def test_table_names_rules_strategy_seed_and_house_edge_in_percent(summary):
    text = render(summary, "table", META)
    he = summary["house_edge"]
    assert "NZ 1994" in text and "basic" in text and "seed 7" in text
    assert f"{100 * he['mean']:.3f}%".replace("-0.000%", "0.000%") in text  # (no -0.000%)
    assert "95% confidence interval" in text
    assert "Super Sevens lines" in text and "5000 to 1" in text
    assert "PARTIAL" not in text
    partial = render(summary, "table", META | {"run": META["run"] | {"partial": True}})
    assert "PARTIAL RESULT" in partial


def test_table_without_side_bets_or_rounds():
    s = summarize(build_tally([[(10, None, None)]]), Rules(super_sevens=False))
    text = render(s, "table", {})
    assert "Super Sevens lines" not in text and "nan" not in text.lower()
    empty = summarize(build_tally([]), Rules())
    assert "no rounds" in render(empty, "table", {})
    for fmt in FORMATS:
        render(empty, fmt, {})  # no error, no NaN in json (allow_nan=False)


def test_wagers_frame_rows(summary):
    wf = wagers_frame(summary)
    assert list(wf["wager"]) == ["total", "main", "insurance", "super_sevens"]
    assert wf.loc[2, "n"] == summary["insurance"]["bets"]


def test_unknown_format_is_a_value_error(summary):
    with pytest.raises(ValueError, match="allowed table, csv, json"):
        render(summary, "xml", META)


def test_csv_has_no_always_empty_round_sd_of_insurance(summary):
    # `sd,insurance,round` was always empty (insurance keeps no SD per round; json has no such
    # field): no row. The wagers that have one keep theirs.
    rows = list(csv.DictReader(io.StringIO(render(summary, "csv", META))))
    sd = {(r["item"], r["per"]) for r in rows if r["section"] == "sd"}
    assert ("insurance", "round") not in sd and ("insurance", "bet") in sd
    assert {("total", "round"), ("main", "round"), ("super_sevens", "round")} <= sd


def test_csv_gives_the_counts_json_gives(summary):
    # The csv gave each rate but not the counts it rests on (a line's wins, an event's count of
    # its n, the insurance and Super Sevens bets) nor json's se_exact and se_upper_bound flags.
    rows = list(csv.DictReader(io.StringIO(render(summary, "csv", META))))
    got = {(r["section"], r["item"], r["per"]): r["value"] for r in rows}
    for k, v in summary["frequencies"].items():
        assert int(got[("frequency_count", k, "run")]) == v["count"]
        assert int(got[("frequency_n", k, v["per"])]) == v["n"]
        assert got[("frequency_se_upper_bound", k, v["per"])] == str(v["se_upper_bound"]).lower()
    for k, v in summary["super_sevens"]["lines"].items():
        assert int(got[("super_sevens_count", k, "run")]) == v["count"]
    assert int(got[("count", "insurance_bets", "run")]) == summary["insurance"]["bets"]
    assert int(got[("count", "super_sevens_bets", "run")]) == summary["super_sevens"]["bets"]
    assert got[("se_exact", "insurance", "unit staked")] == "true"
    assert got[("se_exact", "main", "initial wager")] == "true"


def test_one_round_and_no_side_bet_say_why_in_their_own_words():
    one = summarize(build_tally([[(10, None, 5)]]), Rules())
    assert one["house_edge"]["interval_note"] == "a standard error needs two rounds or more"
    off = summarize(build_tally([[(10, None, None)]] * 40), Rules(super_sevens=False))
    assert off["super_sevens"]["interval_note"] == "no Super Sevens bet: the side bet is off"
    rows = list(csv.DictReader(io.StringIO(render(off, "csv", META))))
    assert {"section": "note", "item": "super_sevens", "per": "unit staked",
            "value": "no Super Sevens bet: the side bet is off"}.items() <= next(
        r for r in rows if r["section"] == "note" and r["item"] == "super_sevens").items()
    assert "too few to say" not in render(off, "table", META)


def test_a_tiny_precision_target_is_not_shown_as_zero():
    # `--precision 1e-300` read "target ±0.0000% ... NOT met"
    from simulator.report import precision_text

    p = {"target": 1e-300, "met": False, "max_rounds": 2000, "half_width": 0.0123}
    assert precision_text(p).startswith("target ±1e-298% (95% half-width")
    assert "±1.2300%" in precision_text(p)


def test_the_header_says_one_round_a_chunk_in_the_singular():
    # `--chunk-rounds 1` read "chunks of 1 rounds" (a review)
    from simulator.report import chunks_text

    assert chunks_text(1, 20_000) == "chunks of 1 round"
    assert chunks_text(1, 1) == "one chunk of 1 round (--chunk-rounds 1)"
    assert chunks_text(1_000_000, 200) == "one chunk of 200 rounds (--chunk-rounds 1,000,000)"
    assert chunks_text(500_000, 2_000_000) == "chunks of 500,000 rounds"


def test_the_table_names_the_code_and_the_charts_as_json_does():
    # the table's header named the version alone, "names no one state of the code" (README),
    # and no chart's hash (a reproducibility review)
    from simulator.report import code_line
    from simulator.source import provenance

    src = provenance()
    line = code_line({"strategy_sha256": ["ab" * 32, "ab" * 32, "cd" * 32]})
    assert line.startswith(f"Code:      source SHA-256 {src['sha256'][:12]}")
    assert line.endswith("; charts SHA-256 abababababab, cdcdcdcdcdcd")
    assert (f"(git {src['git_commit'][:12]}" in line) == (src["git_commit"] !=
                                                         "not a git checkout")
    table = render(summarize(build_tally([[(10, None, None)]] * 40), Rules()), "table",
                   {"strategy_sha256": ["ef" * 32]})
    assert "\nCode:      source SHA-256 " in table and "charts SHA-256 efefefefefef" in table
