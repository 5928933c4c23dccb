"""The report: pandas tables of a summary (`simulator.tally.summarize`) and their table, csv and
json renderings.

``render(summary, fmt, meta)``: what ``meta`` holds is in docs/api.md, "simulator.tally /
simulator.report"; what each format names and holds, in README, "JSON output".
"""

from __future__ import annotations

import dataclasses
import functools
import io
import json
import math
import re

import pandas as pd

from simulator import __version__
from simulator.exact.hands import up_label
from simulator.exact.sevens import convention, sevens_plays, super_sevens
from simulator.rules import (
    Rules,
    gazette_line,
    marked_changes,
    pays_text,
    plural,
    unlike_nz_line,
)
from simulator.source import NOT_GIT, provenance
from simulator.tally import MIN_WINS, NO_INSURANCE, NO_SUPER_SEVENS, SS_SUITED_SEVENS, Z95

FORMATS = ("table", "csv", "json")

WAGERS = (
    # (summary key, label, per)
    ("total", "Main game + insurance", "initial wager"),
    ("main", "Main game (even money included)", "initial wager"),
    ("insurance", "Insurance", "unit staked"),
    ("super_sevens", "Super Sevens", "unit staked"),
)
# The main game's result per unit wagered on it (`tally.summarize`'s ``main.mean_per_unit_wagered``,
# `bjsim count`'s ``total_bet``): one definition, one label, in every output.
PER_UNIT_WAGERED = ("per unit wagered on the main game (initial bets, doubles, splits; main game "
                    "result, insurance apart)")
SS_LINE_TEXT = {
    "a": "first card a seven, second not",
    "b": "two sevens, different suits",
    "c": "two sevens, same suit",
    "d": "three sevens, not all one suit",
    "e": "three sevens, all one suit",
    "f": "anything else (loses)",
}


# Beside simulate's Super Sevens interval: the report's is by the exact SD (assessment.figures).
SS_SD_WORDS = "bjsim report gives the interval by the bet's exact SD, so a little different"
UP_TEXT = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")


def sevens_play_text(strategy, rules) -> str:
    """A Strategy's first play on 7-7 with a Super Sevens bet up (rule 14.4) under ``rules`` (a
    `Rules`), in words, up cards grouped: ``split v 2-7, hit v 8-A``. Each code is taken as the
    engine plays it (`exact.sevens.sevens_plays`): ``D`` and ``Ds`` double only where the rules
    allow a double on hard 14, else hit and stand; ``P`` splits only where a box may hold two
    hands, else the hard 14 row plays; ``Rh``, ``Rs`` and ``Rp`` surrender where the rules allow
    it, else hit, stand and split."""
    plays = sevens_plays(rules, strategy)
    return plays_by_up_text([plays[up] for up in (*range(2, 11), 1)])


def plays_by_up_text(words) -> str:
    """A play for each up card (2 to 10, then A) in words, up cards grouped: ``split v 2-7,
    hit v 8-A``; one play against every up card: ``hit every 7-7``."""
    if len(set(words)) == 1:
        return f"{words[0]} every 7-7"
    parts, start = [], 0
    for i in range(1, len(words) + 1):
        if i == len(words) or words[i] != words[start]:
            ups = UP_TEXT[start] if i - 1 == start else f"{UP_TEXT[start]}-{UP_TEXT[i - 1]}"
            parts.append(f"{words[start]} v {ups}")
            start = i
    return ", ".join(parts)


def sevens_convention(rules: dict) -> str:
    """What the published Super Sevens figures' convention (a third card always dealt) gives
    under ``rules`` (a `rules.rules_dict`), and the figure published for exactly those rules,
    or that none is (`exact.sevens.convention`)."""
    c = convention(rules["decks"], rules["super_sevens_pays"])
    decks = rules["decks"]
    pays = pays_text(rules["super_sevens_pays"])
    how = ("hit every 7-7, as the basic-super-sevens strategy" if rules["hole_card"] == "none"
           else "which no 7-7 play gives with a peek")
    said = (f"published for them: {_pct(c['published'], 2)} house edge ({c['source']})"
            if c["published"] is not None else "no published figure is cited for them" + (
                " (a secondary source's, which this figure reproduces, is in docs/exact.md; "
                "none from an authoritative one)" if c.get("secondary") else ""))
    return (f"the published figures' convention, a third card always dealt ({how}), gives "
            f"{_pct(c['house_edge'])} house edge (full shoe) for these rules ({decks} "
            f"deck{'s' if decks != 1 else ''}, pays {pays}); {said}")


def sevens_player_edge(rules: dict) -> dict | None:
    """Where the Super Sevens bet favours a player who plays 7-7 for it under ``rules`` (a
    `rules.rules_dict`, the side bet on): the house edge of the 7-7 play best for the bet at
    each up card (a third card or not, by their exact returns: hitting with the NZ pays;
    standing or splitting where a third seven is worth less to the bet than none), below 0:
    ``{"play", "house_edge", "note"}`` (``note``: the warning in words); else None."""
    fields = {f.name for f in dataclasses.fields(Rules)}
    r = Rules(**{k: tuple(v) if isinstance(v, list) else v for k, v in rules.items()
                 if k in fields})
    play, edge = _best_for_the_bet(r)
    if edge >= 0:
        return None
    doing, how = BEST_WORDS.get(play, (
        "hitting" + play.removeprefix("hit"),
        "a third card against those up cards alone, none against the others;"))
    worst = _best_for_the_bet(r, worst=True)[1]  # (below 0 too: every player wins, said so)
    whatever = (f" whatever the 7-7 play (the play worst for the bet makes its house edge "
                f"{_pct(worst)})" if worst < 0 and play != "play 7-7 any way" else
                " whatever the 7-7 play" if worst < 0 else "")
    return {"play": play, "house_edge": edge, "note": (
        f"these pays give the player the edge on the side bet{whatever}: {doing} ({how} the "
        f"most any 7-7 play gives the bet) makes its house edge {_pct(edge)}, {_pct(-edge)} a "
        "unit staked to the player")}


# The 7-7 plays best for the bet the same at every up card (`_best_for_the_bet`), in the
# warning's words; a play by up card is "hit 7-7 against ...", told in words of its own.
BEST_WORDS = {
    "hit every 7-7": ("hitting every 7-7",
                      "a third card to every 7-7 unless a peeked dealer blackjack ends the round,"),
    "stand on every 7-7": ("standing on every 7-7",
                           "the bet settled on the two sevens, as splitting settles it;"),
    "play 7-7 any way": ("playing 7-7 any way",
                         "a third card or none: the bet returns the same either way;")}


@functools.lru_cache(maxsize=64)
def _best_for_the_bet(rules: Rules, worst: bool = False) -> tuple[str, float]:
    """The 7-7 play best for the Super Sevens bet under ``rules`` (by up card, a third card or
    not) in words, and its exact house edge (each format and each game of a comparison asks
    again); with ``worst``, the play worst for it."""
    by_up = super_sevens(rules, "hit")["by_up"]

    def better(a: float, b: float) -> bool:  # (beyond rounding: pays alike tie to 1e-14)
        return (b - a if worst else a - b) > 1e-9 * max(1.0, abs(a), abs(b))

    third = [up for up in range(1, 11) if better(by_up[up]["hit"], by_up[up]["stand"])]
    two = [up for up in range(1, 11) if better(by_up[up]["stand"], by_up[up]["hit"])]
    plays = {up: "hit" if up in third else "stand" for up in range(1, 11)}
    if not third and not two:
        play = "play 7-7 any way"
    elif not two:
        play = "hit every 7-7"
    elif not third:
        play = "stand on every 7-7"
    else:
        play = "hit 7-7 against " + ", ".join(map(up_label, third))
    return play, float(super_sevens(rules, plays)["house_edge"])


def sevens_note(plays, rules: dict) -> str | None:
    """One line: the 7-7 play (``plays``, each box's `sevens_play_text`) the Super Sevens figure
    depends on, and `sevens_convention` of ``rules``; None without ``plays``."""
    plays = list(plays or ())
    if not plays:
        return None
    if len(set(plays)) == 1:
        said = plays[0]
    else:
        said = "; ".join(f"box {i + 1}: {text}" for i, text in enumerate(plays))
    return f"depends on the 7-7 play (14.4): {said}; {sevens_convention(rules)}"


def wagers_frame(summary: dict) -> pd.DataFrame:
    """One row per wager: mean return, its SE and 95% CI, SDs, and the number of bets."""
    rows = []
    for key, label, per in WAGERS:
        f = summary[key]
        n = f.get("bets", summary["box_rounds"])
        rows.append({
            "wager": key, "label": label, "per": per, "mean": f["mean"], "se": f["se"],
            "ci95_low": f["ci95_low"], "ci95_high": f["ci95_high"],
            "sd_bet": f.get("sd_box_round", f.get("sd_bet")), "sd_round": f.get("sd_round"),
            "n": n, "note": f.get("interval_note"),
        })
    return pd.DataFrame(rows)


def lines_frame(summary: dict) -> pd.DataFrame:
    """Super Sevens lines (a)-(f) (rule 14): pays, count, frequency per bet, contribution."""
    lines = summary["super_sevens"]["lines"]
    rows = [{"line": k, "cards": SS_LINE_TEXT[k]} | v for k, v in lines.items()]
    return pd.DataFrame(rows)


def frequencies_frame(summary: dict) -> pd.DataFrame:
    """Event counts and rates with the denominator each is per."""
    rows = [{"event": k} | v for k, v in summary["frequencies"].items()]
    return pd.DataFrame(rows, columns=["event", "per", "count", "n", "rate", "se"])


def by_strategy(summary: dict, strategy) -> list[dict]:
    """``summary``'s figures by strategy, each with its ``strategy`` name, its boxes
    (``box_numbers``) and ``strategies``: each name it is played under with its boxes, from
    ``strategy`` (one name a box, or one for all). Boxes of two names with the same charts are
    one strategy to the engine (`kernel.tables.first_boxes`): its ``strategy`` names them all
    (``basic and copy.toml``). A summary made without the strategies has no ``box_numbers``:
    they are its first box's name's boxes where their number is its, else None (and
    ``strategies`` None)."""
    names = list(strategy) if isinstance(strategy, (list, tuple)) else [strategy]
    out = []
    for e in summary.get("by_strategy") or []:
        boxes = e.get("box_numbers")
        if boxes is None:  # (summed without the strategies: by the names, where they tell)
            name = _name_of(names, e["first_box"])
            boxes = [b for b in range(1, len(names) + 1) if _name_of(names, b) == name]
            boxes = boxes if len(boxes) == e["boxes"] else None
        if boxes is None:
            out.append({"strategy": name, "box_numbers": None, "strategies": None} | e)
            continue
        own: dict = {}  # each name with its boxes, in the order of their first box
        for b in boxes:
            own.setdefault(_name_of(names, b), []).append(b)
        out.append({"strategy": _and([str(n) for n in own]), "box_numbers": boxes,
                    "strategies": [{"strategy": n, "box_numbers": b} for n, b in own.items()]}
                   | e)
    return out


def _name_of(names: list, box: int):
    """The strategy name of box ``box`` (1-based) in ``names`` (one a box, or one for all)."""
    return names[0] if len(names) == 1 else names[box - 1] if box <= len(names) else None


def _and(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def as_edge(key: str, f: dict) -> tuple:
    """``(edge, ci95_low, ci95_high)`` of a figure as a house edge: a ``house_edge`` figure as
    it is, a ``super_sevens`` one (a return, with its ``house_edge``) turned round."""
    if key == "house_edge":
        return f["mean"], f["ci95_low"], f["ci95_high"]
    lo, hi = f["ci95_low"], f["ci95_high"]
    return f["house_edge"], None if hi is None else -hi, None if lo is None else -lo


def strategy_label(e: dict) -> str:
    """A strategy of ``by_strategy`` and its boxes: ``basic (boxes 1, 3)``; played under several
    names, each with its boxes: ``basic (box 1) and copy.toml (box 2), the same charts``."""
    if e["box_numbers"] is None:
        return f"{e['strategy']} (box {e['first_box']} and {e['boxes'] - 1} more with its charts)"
    own = e.get("strategies") or [{"strategy": e["strategy"], "box_numbers": e["box_numbers"]}]
    text = _and([f"{x['strategy']} ({_boxes_text(x['box_numbers'])})" for x in own])
    return text + (", the same charts" if len(own) > 1 else "")


def _boxes_text(boxes: list[int]) -> str:
    """``box 2``, ``boxes 1, 3``."""
    return f"box{'es' if len(boxes) > 1 else ''} {', '.join(map(str, boxes))}"


def tidy_frame(summary: dict, strategy=None) -> pd.DataFrame:
    """Every figure as one row: section, item, per, value, se, ci95_low, ci95_high."""
    rows = []

    def add(section, item, per, value, se=None, lo=None, hi=None):
        rows.append({"section": section, "item": item, "per": per, "value": value, "se": se,
                     "ci95_low": lo, "ci95_high": hi})

    he = summary["house_edge"]
    add("house_edge", "main+insurance", "initial wager", he["mean"], he["se"], he["ci95_low"],
        he["ci95_high"])
    for key, _, per in WAGERS:
        f = summary[key]
        add("return", key, per, f["mean"], f["se"], f["ci95_low"], f["ci95_high"])
    for key, _, _per in WAGERS:
        f = summary[key]
        sd = f.get("sd_box_round", f.get("sd_bet"))
        add("sd", key, "box_round" if "sd_box_round" in f else "bet", sd)
        if "sd_round" in f:  # (insurance has none: no row always empty)
            add("sd", key, "round", f["sd_round"])
    m = summary["main"]
    lo, hi = _ci(m["mean_per_unit_wagered"], m["se_per_unit_wagered"])
    add("return", "main", "unit wagered on the main game", m["mean_per_unit_wagered"],
        m["se_per_unit_wagered"], lo, hi)
    add("wagered", "main", "initial wager", m["wagered_per_initial"])
    add("return", "insurance", "initial wager", summary["insurance"]["per_initial_wager"])
    for key, _, per in WAGERS:  # (whether the SE is exact: json's se_exact, where it has one)
        if "se_exact" in summary[key]:
            add("se_exact", key, per, csv_cell(summary[key]["se_exact"]))
    for k, v in summary["super_sevens"]["lines"].items():
        add("super_sevens_count", k, "run", v["count"])
        lo, hi = _ci(v["freq"], v["freq_se"], 0, 1)
        add("super_sevens_freq", k, "bet", v["freq"], v["freq_se"], lo, hi)
        pay = v.get("pays", 0) if k != "f" else -1
        lo, hi = _ci(v["contribution"], v["contribution_se"], min(pay, 0), max(pay, 0))
        add("super_sevens_contribution", k, "bet", v["contribution"], v["contribution_se"], lo, hi)
    for k, v in summary["frequencies"].items():  # a rate is 0 to 1; hands a box-round 1 or more
        lo, hi = _ci(v["rate"], v["se"], *{"hands_per_box_round": (1, math.inf),
                                           "splits": (0, math.inf)}.get(k, (0, 1)))
        add("frequency", k, v["per"], v["rate"], v["se"], lo, hi)
    for k, v in summary["frequencies"].items():  # (each rate's events, of n, as json's)
        add("frequency_count", k, "run", v["count"])
        add("frequency_n", k, v["per"], v["n"])
        add("frequency_se_upper_bound", k, v["per"], csv_cell(v["se_upper_bound"]))
    for e in by_strategy(summary, strategy):  # (each a house edge, and its section says so)
        for key, section, per in (("house_edge", "by_strategy_house_edge", "initial wager"),
                                  ("super_sevens", "by_strategy_super_sevens_house_edge",
                                   "unit staked")):
            f = e[key]
            if f is not None:
                edge, lo, hi = as_edge(key, f)
                add(section, strategy_label(e), per, edge, f["se"], lo, hi)
                if f["interval_note"]:
                    add("note", f"{strategy_label(e)}: {key}", per, f["interval_note"])
        add("by_strategy_count", f"{strategy_label(e)}: box_rounds", "run", e["box_rounds"])
    for k in ("rounds", "boxes", "box_rounds", "hands"):
        add("count", k, "run", summary[k])
    for key in ("insurance", "super_sevens"):
        add("count", f"{key}_bets", "run", summary[key]["bets"])
    for k, v in summary["shoe"].items():
        add("shoe", k, "run", v)
    for key, _, per in WAGERS:
        if summary[key].get("interval_note"):
            add("note", key, per, summary[key]["interval_note"])
    if summary.get("frequencies_note"):
        add("note", "frequencies", "se", summary["frequencies_note"])
    if summary.get("few_events_note"):
        add("note", "frequencies", "few_events", summary["few_events_note"])
    if summary.get("splits_note"):
        add("note", "frequencies", "splits", summary["splits_note"])
    if summary.get("dealer_note"):
        add("note", "frequencies", "dealer", summary["dealer_note"])
    return pd.DataFrame(rows)


RUN_ROWS = ("rules_name", "rules_file", "overrides", "no_effect", "strategy", "strategy_sha256",
            "strategy_files",
            "seed", "rounds", "rounds_played", "chunk_rounds", "boxes", "partial", "per_box_note",
            "strategy_note", "play", "play_note", "basis")


# What Markdown would read as markup or HTML in text a user gave (names, paths, descriptions
# among our own): a backslash, code, emphasis, the bracket that closes a link's text ([x](y); a
# list, [3, 50], stays as it is), an underscore not inside a word (dealer_hits_soft_17 stays as
# it is), and & and < where HTML would read them (an entity, a tag, an autolink: "<=" stays);
# outside a table, a heading, quote or list at the start of a line
_MD_MARKUP = re.compile(r"[\\`*]|\](?=[(\[])|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")
_MD_LINE_START = re.compile(r"^(?=[#>]|[-+] )")
_MD_HTML = re.compile(r"&(?=[A-Za-z#])|<(?=[A-Za-z/!?])")


def md_text(text: str, cell: bool = False) -> str:
    """``text`` as Markdown shows it as written, as the HTML escapes it: ``A&B <casino>`` stays
    ``A&B <casino>`` (not an HTML tag, which a viewer drops), ``*x*`` is no emphasis; on one
    line (a line break would let the next line begin a heading), which begins no heading, quote
    or list unless a table's ``cell``."""
    text = _MD_MARKUP.sub(lambda m: "\\" + m.group(), " ".join(str(text).splitlines()))
    text = text if cell else _MD_LINE_START.sub(lambda m: "\\", text)
    return _MD_HTML.sub(lambda m: {"&": "&amp;", "<": "&lt;"}[m.group()], text)


def csv_cell(v) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return no_formula("; ".join(csv_cell(x) for x in v))
    if isinstance(v, dict):  # (strategy_files: each name, then its file)
        return no_formula("; ".join(f"{k}: {csv_cell(x)}" for k, x in v.items()))
    return no_formula(str(v))


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet takes for a formula


def no_formula(text):
    """A csv cell's ``text`` as a spreadsheet will not evaluate it: one that begins as a formula
    does (a name from someone else's file, ``=HYPERLINK(...)``) gets a ``'`` before it, as
    spreadsheets mark text; a number (``-0.5``) and anything not a string are left as they are."""
    if not isinstance(text, str) or not text.startswith(FORMULA_STARTS):
        return text
    try:
        float(text)
        return text
    except ValueError:
        return "'" + text


def csv_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with `no_formula` on each text cell, for writing as csv."""
    return frame.apply(lambda col: col if pd.api.types.is_numeric_dtype(col) else col.map(
        no_formula))


def meta_rows(meta: dict) -> list[dict]:
    """The csv's metadata rows: section ``run`` (bjsim version, its source as json's ``source``
    (``source:sha256``, ``source:files``, ``source:git_commit``), rules name with the changes,
    rules file, changes, strategy, ``strategy_sha256`` (json's), seed, rounds, partial, ...,
    with ``--precision`` the items ``precision:target``, ``precision:max_rounds``,
    ``precision:half_width``, ``precision:met`` and ``precision:stop_chunk`` of json's
    ``run.precision``) and section ``rules`` (every rule key)."""
    run = dict(meta.get("run", {}))
    run.setdefault("strategy", meta.get("strategy"))
    if "strategy_sha256" in meta:  # (json's, beside the strategy: one a box, as it)
        run.setdefault("strategy_sha256", meta["strategy_sha256"])
    rows = [{"section": "run", "item": "bjsim", "per": "", "value": meta.get("version",
                                                                           __version__)}]
    rows += [{"section": "run", "item": f"source:{k}", "per": "", "value": csv_cell(v)}
             for k, v in provenance().items()]  # (json's source, key by key)
    for k in RUN_ROWS:
        if k in run:
            rows.append({"section": "run", "item": k, "per": "", "value": csv_cell(run[k])})
    for k, v in (run.get("precision") or {}).items():  # json's run.precision, key by key
        rows.append({"section": "run", "item": f"precision:{k}", "per": "", "value": csv_cell(v)})
    note = meta.get("sevens_note")
    if note:  # (the note, and json's by_box: each box's 7-7 play, one value per box)
        rows.append({"section": "run", "item": "super_sevens_7_7_play", "per": "",
                     "value": note})
        rows.append({"section": "run", "item": "super_sevens_7_7_play:by_box", "per": "",
                     "value": "; ".join(meta.get("sevens_play") or ())})
    edge = meta.get("sevens_player_edge")
    if edge:  # (the warning, and the house edge of the play that gives the player the edge)
        rows += [{"section": "run", "item": f"super_sevens_player_edge:{k}", "per": "",
                  "value": csv_cell(edge[k])} for k in ("play", "house_edge", "note")]
    for k, v in meta.get("rules", {}).items():
        rows.append({"section": "rules", "item": k, "per": "", "value": csv_cell(v)})
    return rows


def stopped_how(meta: dict) -> str:
    """How a partial run was stopped, as its PARTIAL RESULT line says it: ``interrupted``
    (Ctrl-C, SIGTERM), or ``stopped by a cluster failure`` where the Dask cluster failed it
    (``meta["failure"]``, `run.Result.failure`; stderr's ``Error:`` line says which)."""
    return "stopped by a cluster failure" if meta.get("failure") else "interrupted"


def of_rounds(run: dict) -> str:
    """The rounds a partial run was to play (json's ``run``), as its PARTIAL RESULT line says
    them: with a precision target ``run.rounds`` is only the cap, ``at most N rounds
    (--max-rounds)``, not the run's length (the target would have stopped it first)."""
    rounds = f"{run.get('rounds', 0):,}"
    return f"at most {rounds} rounds (--max-rounds)" if run.get("precision") else f"{rounds} rounds"


def chunks_text(chunk_rounds: int, rounds: int | None) -> str:
    """The header's words for the chunks of a run of ``rounds`` (asked; with a precision target
    its cap): a chunk never holds more than the run, so one chunk is said as such."""
    if rounds is not None and 0 < rounds <= chunk_rounds:
        return f"one chunk of {rounds:,} {'round' if rounds == 1 else 'rounds'} (--chunk-rounds "\
            f"{chunk_rounds:,})"
    return f"chunks of {chunk_rounds:,} {'round' if chunk_rounds == 1 else 'rounds'}"


def csv_text(frame: pd.DataFrame, meta: dict) -> str:
    """``frame`` (tidy: section, item, per, value, ...) then `meta_rows` as csv."""
    extra = pd.DataFrame(meta_rows(meta), columns=list(frame.columns[:4]))
    out = pd.concat([frame, extra], ignore_index=True) if len(extra) else frame
    return csv_frame(out).to_csv(index=False, lineterminator="\n")


def _ci(x, se, lo=-math.inf, hi=math.inf):
    """The 95% interval ``x +- 1.96 se``, held to what ``x`` can be (``lo`` to ``hi``)."""
    if x is None or se is None:
        return None, None
    return max(x - Z95 * se, lo), min(x + Z95 * se, hi)


def _pct(x, digits=3) -> str:
    if x is None or _isnan(x):
        return "-"
    text = f"{100 * x:.{digits}f}%"
    return text[1:] if text.startswith("-") and not text.strip("-0.%") else text  # not -0.000%


def _num(x, digits=4) -> str:
    if x is None or _isnan(x):
        return "-"
    if isinstance(x, int):
        return f"{x:,}"
    return f"{x:.{digits}f}"


def with_note(name: str, note: str | None) -> str:
    """A strategy's name with what is said of it: "basic (note)", or inside a name's own
    parentheses, "basic (derived for these rules: note)"."""
    if not note:
        return name
    return f"{name[:-1]}: {note})" if name.endswith(")") else f"{name} ({note})"


def strategy_text(strategy) -> str:
    """A game's strategies as its outputs name them: one name, or each box's in box order."""
    if isinstance(strategy, (list, tuple)):
        if len(set(strategy)) == 1:
            return str(strategy[0])
        return ", ".join(f"box {i + 1}: {s}" for i, s in enumerate(strategy))
    return str(strategy)


def files_text(files: dict) -> str:
    """Where the strategies read from files are (run.strategy_files, ``{name: path}``), for
    after their names: ``file my-chart: charts/my.toml``."""
    return (f"file{'s' if len(files) > 1 else ''} "
            + ", ".join(f"{name}: {path}" for name, path in files.items()))


def rules_title(run: dict) -> str:
    """The rules' name with its changes, then its file where the name is not the file's."""
    title = run.get("rules_name") or run.get("rules_file") or "rules"
    src = run.get("rules_file")
    return title + (f" ({src})" if src and not title.startswith(src) else "")


def code_line(meta: dict) -> str:
    """The table's line naming the code and the charts that made the figures (json's ``source``
    and ``strategy_sha256``, shortened): ``Code:      source SHA-256 1f2e3d4c5b6a (git 8e645cd);
    charts SHA-256 9a8b7c6d5e4f``, so that a figure quoted from the table can be traced as
    one from the json can."""
    src = provenance()
    commit = src["git_commit"]
    git = "" if commit == NOT_GIT else f" (git {commit[:12]}{' + changes' * ('+' in commit)})"
    charts = list(dict.fromkeys(meta.get("strategy_sha256") or ()))
    return (f"Code:      source SHA-256 {src['sha256'][:12]}{git}"
            + (f"; charts SHA-256 {', '.join(c[:12] for c in charts)}" if charts else ""))


def _table(summary: dict, meta: dict) -> str:
    run = meta.get("run", {})
    rules = meta.get("rules", {})
    out = io.StringIO()
    w = out.write
    w(f"bjsim {meta.get('version', __version__)}: blackjack house edge\n")
    w(f"Rules:     {rules_title(run)}\n")
    if run.get("overrides"):
        marked = marked_changes(run["overrides"], run.get("no_effect") or {})
        w(f"Changed:   {', '.join(marked)}\n")
    unlike = unlike_nz_line(rules, ", ".join(run.get("overrides") or ()))  # (a file's too)
    if unlike:
        w(unlike + "\n")
    if gazette_line(rules):  # (what the Gazette says of the values not the NZ game's)
        w(gazette_line(rules) + "\n")
    if rules:
        decks, boxes = rules.get("decks"), rules.get("boxes")
        w(f"           {decks} {plural(decks, 'deck', 'decks')}, {boxes} "
          f"{plural(boxes, 'box', 'boxes')}, "
          f"Super Sevens {'on' if rules.get('super_sevens') else 'off'}, "
          f"hole card {rules.get('hole_card')}, blackjack pays {rules.get('blackjack_pays')}\n")
    note = run.get("strategy_note")
    w(f"Strategy:  {with_note(strategy_text(meta.get('strategy', '?')), note)}\n")
    if run.get("strategy_files"):
        w(f"           {files_text(run['strategy_files'])}\n")
    w(code_line(meta) + "\n")
    w(f"Rounds:    {summary['rounds']:,} played ({summary['box_rounds']:,} box-rounds)")
    if "seed" in run:
        w(f"; seed {run['seed']}")
    if "chunk_rounds" in run:
        w(f"; {chunks_text(run['chunk_rounds'], run.get('rounds'))}")
    w("\n")
    if run.get("partial"):
        w(f"PARTIAL RESULT: {stopped_how(meta)} after {summary['rounds']:,} of "
          f"{of_rounds(run)}; not reproducible as it stands\n")
    elif "partial" in run:
        unmet = run.get("precision") and not run["precision"]["met"]
        w("Result:    complete" + (", precision target NOT met" if unmet else "") + "\n")
    if run.get("precision"):
        how = run.get("partial") and stopped_how(meta)
        w(f"Precision: {precision_text(run['precision'], how)}\n")
    he = summary["house_edge"]
    w("\n")
    if he["mean"] is None:
        w("House edge: no rounds played\n")
    else:
        pm = "" if he["se"] is None else f" ± {_pct(Z95 * he['se'])}"
        if he.get("interval_note"):
            pm = f" ({he['interval_note']})"
        w(f"HOUSE EDGE (main game + insurance, per initial wager): {_pct(he['mean'])}{pm}\n")
        if he["se"] is not None and not he.get("interval_note"):
            w(f"  95% confidence interval {_pct(he['ci95_low'])} to {_pct(he['ci95_high'])}; "
              f"standard error {_pct(he['se'])}\n")
    ss = summary["super_sevens"]
    if ss["mean"] is not None:
        pm = "" if ss["se"] is None else f" ± {_pct(Z95 * ss['se'])}"
        if ss.get("interval_note"):
            pm = f" ({ss['interval_note']})"
        w(f"SUPER SEVENS house edge (per unit staked): {_pct(ss['house_edge'])}{pm}\n")
        if ss["se"] is not None and not ss.get("interval_note"):  # (as the house edge's line)
            w(f"  95% confidence interval {_pct(-ss['ci95_high'])} to {_pct(-ss['ci95_low'])}; "
              f"standard error {_pct(ss['se'])}, from the simulated results' own spread "
              f"({SS_SD_WORDS})\n")
        note = meta.get("sevens_note")
        if note:
            w(f"  {note}\n")
        if meta.get("sevens_player_edge"):
            w(f"  WARNING: {meta['sevens_player_edge']['note']}.\n")

    wf = wagers_frame(summary)
    shown = pd.DataFrame({
        "wager": wf["label"], "per": wf["per"], "return": wf["mean"].map(_pct),
        "SE": wf["se"].map(_pct),
        "95% CI": [_ci_text(a, b, note)
                   for a, b, note in zip(wf["ci95_low"], wf["ci95_high"], wf["note"],
                                         strict=True)],
        "SD/bet": wf["sd_bet"].map(_num), "SD/round": wf["sd_round"].map(_num),
        "bets": wf["n"].map(lambda n: f"{int(n):,}"),
    })
    w("\nReturn to the player (the house edge is minus the return)\n")
    w(_grid(shown, left=("wager", "per")))
    m = summary["main"]
    if m["mean_per_unit_wagered"] is not None:
        se = m["se_per_unit_wagered"]
        pm = " (no interval: too few rounds)" if se is None else f" ± {_pct(Z95 * se)} (95%)"
        w(f"  Return {PER_UNIT_WAGERED}: {_pct(m['mean_per_unit_wagered'])}{pm}; "
          f"{_num(m['wagered_per_initial'])} units wagered per initial wager\n")
    w(_by_strategy_table(by_strategy(summary, meta.get("strategy"))))

    if ss["bets"]:
        lf = lines_frame(summary)
        shown = pd.DataFrame({
            "line": "(" + lf["line"] + ")", "cards": lf["cards"],
            "pays": lf["pays"].map(lambda p: "loses" if p < 0 else f"{p} to 1"),
            "count": lf["count"].map(lambda c: f"{int(c):,}"),
            "frequency": lf["freq"].map(lambda x: _num(x, 7)),
            "SE": lf["freq_se"].map(lambda x: _num(x, 7)),
            "contribution": lf["contribution"].map(lambda x: _pct(x, 3)),  # (percent, as exact's)
        })
        w("\nSuper Sevens lines (rule 14), per bet\n")
        w(_grid(shown, left=("line", "cards")))
        decks = (meta.get("rules") or {}).get("decks")
        never = {k: n for k, n in SS_SUITED_SEVENS.items() if decks is not None and decks < n}
        if never:  # (no SE either, but not for want of deals)
            shoe = ("one deck, which holds one seven" if decks == 1 else
                    f"{decks} decks, which hold {decks} sevens")
            w(f"  {', '.join(f'({k})' for k in never)}: cannot be dealt from {shoe} of each "
              "suit: " + ", ".join(f"({k}) needs {n} sevens of one suit"
                                   for k, n in never.items()) + "\n")
        few = lf["freq_se"].isna() & ~lf["line"].isin(never)
        if few.any() and summary["super_sevens"]["bets"]:
            w(f"  SE: none for a line of fewer than {MIN_WINS} deals expected (the bets x its "
              "exact chance under the 7-7 play, not the deals seen): the normal approximation "
              "does not hold\n")

    ff = frequencies_frame(summary)
    shown = pd.DataFrame({
        "event": ff["event"], "per": ff["per"].str.replace("_", " "),
        "count": ff["count"].map(lambda c: f"{int(c):,}"),
        "rate": ff["rate"].map(lambda x: _num(x, 5)),
        # (several boxes: an upper bound per box-round, "<=", as the note under the table says)
        "SE": [("<=" if summary.get("frequencies_note") and per == "box_round" and x == x
                and x is not None else "") + _num(x, 5) for x, per in zip(ff["se"], ff["per"],
                                                                          strict=True)],
    })
    w("\nFrequencies\n")
    w(_grid(shown, left=("event", "per")))
    if summary.get("frequencies_note"):
        w(f"  SE: {summary['frequencies_note']}\n")
    if summary.get("few_events_note"):
        w(f"  SE: {summary['few_events_note']}\n")
    if summary.get("splits_note"):
        w(f"  SE: {summary['splits_note']}\n")
    if summary.get("dealer_note"):
        w(f"  {summary['dealer_note']}\n")
    shoe = summary["shoe"]
    w(f"\nShoe: {shoe['shuffles']:,} shuffles, {_num(shoe['cards_per_round'], 2)} cards per round, "
      f"{_num(shoe['rounds_per_shuffle'], 2)} rounds per shuffle\n")
    if shoe.get("refills"):
        w(f"  {refill_text(shoe['refills'])}\n")
    # timing is left out on purpose: the same run prints the same table, byte for byte
    return out.getvalue()


def refill_text(refills: int) -> str:
    """The shoe line's note of ``refills`` rounds the shoe ran out in (`tally.summarize`)."""
    return (f"{refills:,} of the shuffles came mid-round: the shoe ran out in a round, and its "
            "discards were shuffled and dealt on (too few cards behind the cut card for the "
            "boxes; a lower penetration or fewer boxes avoids it)")


def precision_text(p: dict, partial: bool | str = False,
                   of: str = "95% half-width of the house edge", unit: str = "%") -> str:
    """A ``--precision`` run's target, whether it was met and the half-width reached, in words
    (``p``: json's ``run.precision``; ``partial``: the run was stopped, how (`stopped_how`; True:
    ``interrupted``); ``of``: what the half-width is of; ``unit``: after the percents, " pp" for
    a difference of house edges)."""
    def pct(x: float) -> str:  # (a target below 0.00005% in two significant figures, not 0)
        return f"{100 * x:.4f}" if 100 * x >= 0.00005 or x == 0 else f"{100 * x:.2g}"

    target = f"target ±{pct(p['target'])}{unit} ({of})"
    hw = "-" if p.get("half_width") is None else f"±{pct(p['half_width'])}{unit}"
    if p["met"]:
        return f"{target} met: {hw}"
    why = (partial if isinstance(partial, str) else "interrupted") if partial else \
        f"stopped at --max-rounds {p['max_rounds']:,}"
    return f"{target} NOT met ({why}): {hw}"


def _by_strategy_table(entries: list[dict]) -> str:
    """The table's section of figures by strategy (none for one strategy)."""
    if not entries:
        return ""
    cols: dict = {"strategy": [strategy_label(e) for e in entries]}
    for key, name in (("house_edge", "edge"), ("super_sevens", "SS edge")):
        figs = [e[key] for e in entries]
        if any(f is None for f in figs):
            continue
        edges = [as_edge(key, f) for f in figs]
        cols[name] = [_pct(x[0]) for x in edges]
        cols[name.replace("edge", "SE")] = [_pct(f["se"]) for f in figs]
        cols[name.replace("edge", "95% CI")] = [_ci_text(x[1], x[2], f["interval_note"])
                                                for x, f in zip(edges, figs, strict=True)]
    cols["box-rounds"] = [f"{e['box_rounds']:,}" for e in entries]
    text = ("\nBy strategy: house edge of the main game + insurance per initial wager; SS = "
            "Super Sevens, per unit staked\n")
    text += _grid(pd.DataFrame(cols), left=("strategy",))
    for e in entries:  # in the rows' order, each named
        if e["super_sevens"] and e["super_sevens"]["interval_note"]:
            text += (f"  {strategy_label(e)}: Super Sevens interval withheld: "
                     f"{e['super_sevens']['interval_note']}\n")
    return text


def _ci_text(low, high, note) -> str:
    if isinstance(note, str) and note not in (NO_INSURANCE, NO_SUPER_SEVENS):  # (no bet: "-")
        return "too few to say"
    return "-" if _pct(low) == "-" else f"{_pct(low)} to {_pct(high)}"


def _grid(df: pd.DataFrame, left=()) -> str:
    """Text columns of already formatted cells: ``left`` columns left-aligned, others right."""
    cols = list(df.columns)
    cells = [[str(c) for c in cols]] + [[str(v) for v in row] for row in df.itertuples(index=False)]
    widths = [max(len(r[i]) for r in cells) for i in range(len(cols))]
    lines = []
    for r in cells:
        parts = [v.ljust(wd) if c in left else v.rjust(wd)
                 for v, wd, c in zip(r, widths, cols, strict=True)]
        lines.append("  " + "  ".join(parts).rstrip())
    return "\n".join(lines) + "\n"


def _isnan(x) -> bool:
    return isinstance(x, float) and math.isnan(x)


def document(summary: dict, meta: dict) -> dict:
    """The json document: bjsim version, its source (`source.provenance`), rules, strategy (and
    each box's ``strategy_sha256``, `strategy.charts_sha256`, and ``strategy_charts``, each
    strategy as a file by that hash), run, results, timing."""
    note = meta.get("sevens_note")
    summary = summary | {"super_sevens": summary["super_sevens"] | {"seven_seven_play": {
        "by_box": list(meta["sevens_play"]), "note": note}
        if note and summary["super_sevens"]["mean"] is not None else None,
        "player_edge": meta.get("sevens_player_edge")}}  # (null: no bet, or none)
    summary = summary | {"by_strategy": by_strategy(summary, meta.get("strategy"))}
    return {
        "bjsim": meta.get("version", __version__),
        "source": provenance(),
        "rules": meta.get("rules", {}),
        "strategy": meta.get("strategy"),
        "strategy_sha256": meta.get("strategy_sha256"),
        "strategy_charts": meta.get("strategy_charts"),
        "run": meta.get("run", {}),
        "results": summary,
        "timing": meta.get("timing", {}),
    }


def render(summary: dict, fmt: str, meta: dict | None = None) -> str:
    """The report as text: ``fmt`` is ``table`` (for people), ``csv`` (tidy, one row per figure)
    or ``json`` (one document, see `document`)."""
    meta = meta or {}
    if fmt == "table":
        return _table(summary, meta)
    if fmt == "csv":
        return csv_text(tidy_frame(summary, meta.get("strategy")), meta)
    if fmt == "json":
        return json.dumps(document(summary, meta), indent=2, allow_nan=False) + "\n"
    raise ValueError(f"format {fmt!r} is not known: allowed {', '.join(FORMATS)}")
