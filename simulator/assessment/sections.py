"""The report's sections, built from the figures dict alone: titled blocks of paragraphs, tables
(each also written as CSV), charts and code. HTML and Markdown render these same sections.
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field
from statistics import NormalDist

from simulator import DEFAULT_CHUNK_ROUNDS
from simulator.assessment.figures import CONFIDENCES
from simulator.counting_report import (
    ADVANTAGE_LABELS,
    AS_FLAT,
    BY_EXACT,
    CHUNK_SE_WORDS,
    GAIN_NONE_WORDS,
    MERGED_TAILS,
    MIN_SAMPLE,
    MOVED_TOGETHER,
    NO_EDGE,
    NO_FAVOURABLE,
    NO_INTERVAL,
    NO_SE,
    NO_SS_BET,
    NOT_APPLICABLE,
    PER_HOUR_WORDS,
    SAME_BETS,
    SEVENS_SCALING,
    _and,
    _every_too_few,
    _num,
    _pct,
    _se_figure,
    _se_text,
    boxes_vary,
    change_line,
    chunk_se_line,
    counter_bets_text,
    counter_exact_text,
    exact_change_line,
    exact_why,
    floored_words,
    gain_none,
    hour_digits,
    hour_words,
    left_out,
    left_out_text,
    merged_tails,
    merged_text,
    plan_words,
    rare_words,
    refill_words,
    ruin_method_lines,
    ruin_pct,
    score_note_lines,
    sig3,
    ss_spread,
    sweep_columns_out,
    sweep_note,
    sweep_whole_se_line,
    whole_se_line,
    win_by_exact_line,
)
from simulator.exact.compare import (
    CUT_CARD_MARK,
    CUT_CARD_SE,
    MEASURED_PENETRATION,
    cut_card_effect,
    cut_card_words,
    effect_measured,
    table_measured,
)
from simulator.report import PER_UNIT_WAGERED, precision_text, refill_text
from simulator.rules import (
    CHANGED,
    GAZETTE_WORDS,
    OUTSIDE_GAZETTE,
    WITHIN_GAZETTE,
    origin_legend,
    plural,
)
from simulator.source import NOT_GIT, PATTERNS
from simulator.tally import MIN_ROUNDS, MIN_WINS, NO_SUPER_SEVENS, Z95, lines_words

LABEL = {1: "A", 10: "10"}


@dataclass
class Table:
    """A table: ``columns`` are (key, label, format); ``rows`` raw values in column order. CSV
    files hold the raw values under the keys; HTML and Markdown the formatted ones."""

    name: str
    title: str
    columns: list[tuple[str, str, str]]
    rows: list[list]
    csv_names: dict = field(default_factory=dict)  # a key's CSV header where it is not the key
    csv_rows: set = field(default_factory=set)  # indices of rows in the CSV only
    breaks: tuple = ()  # keys a part of the printed table may start at (`parts`): too wide
    most: int = 0  # with breaks, the most columns a part (its label's too): parts joined to it
    row_keys: tuple = ()  # the columns naming a row (its headers in HTML; none: the first)
    csv_alone: bool = False  # a chart's figures: its CSV only (its caption names the file)

    def csv_header(self) -> list[str]:
        return [self.csv_names.get(key, key) for key, _, _ in self.columns]

    def shown(self) -> tuple[list[tuple[str, str, str]], list[list]]:
        """The columns and rows HTML and Markdown show: all but the CSV's own (format
        ``csv``, as a withheld figure's note; rows ``csv_rows``, as one that repeats another)."""
        keep = [i for i, (_, _, kind) in enumerate(self.columns) if kind != CSV_ONLY]
        return ([self.columns[i] for i in keep],
                [[row[i] for i in keep] for r, row in enumerate(self.rows)
                 if r not in self.csv_rows])

    def parts(self) -> list[tuple[list[tuple[str, str, str]], list[list]]]:
        """`shown` cut before each key of ``breaks`` into tables of their own, each led by the
        first column (the row's label): a table of 25 columns, wider than the printed page,
        made Chromium print every page smaller. With ``most``, consecutive parts joined while
        they hold no more columns. Parts with nothing beside the label left out (a table of one
        column is one part)."""
        columns, rows = self.shown()
        cuts = [0] + [i for i, (key, _, _) in enumerate(columns) if i and key in self.breaks]
        spans = [range(a or 1, b) for a, b in zip(cuts, [*cuts[1:], len(columns)], strict=True)]
        if self.most:  # (the columns left out: a part of one or two joined to the next)
            joined = []
            for span in (x for x in spans if x):
                if joined and 1 + len(joined[-1]) + len(span) <= self.most:
                    span = range(joined.pop().start, span.stop)
                joined.append(span)
            spans = joined
        return [([columns[0], *(columns[i] for i in span)],
                 [[row[0], *(row[i] for i in span)] for row in rows])
                for span in spans if span] or [(columns, rows)]


def _left_out(table: Table, every: str, why=None, **kw) -> str:
    """Leave out of the HTML, PDF and Markdown the columns and rows of ``table`` that say
    nothing (`counting_report.left_out`: no value anywhere, a repeat of another, with
    ``constant`` one value throughout), the CSV keeping them; the sentence saying which and
    why, or "". ``why``: by column key, why it holds no value."""
    cols = [i for i, (_, _, kind) in enumerate(table.columns) if kind != CSV_ONLY]
    head = [table.columns[i][1] for i in cols]
    cells = [[fmt(row[i], table.columns[i][2]) for i in cols] for row in table.rows]
    by_key = {table.columns[i][0]: j for j, i in enumerate(cols)}
    keep, rows, notes = left_out(head, cells, every, why={
        by_key[k]: w for k, w in (why or {}).items() if k in by_key}, **kw)
    if not notes:
        return ""
    for j in set(range(len(cols))) - set(keep):
        key, label, _ = table.columns[cols[j]]
        table.columns[cols[j]] = (key, label, CSV_ONLY)
    table.csv_rows |= set(range(len(table.rows))) - set(rows)
    return f" Left out of the table: {left_out_text(notes)}; the CSV keeps them."


CSV_ONLY = "csv"  # a column's format: in the CSV file only


@dataclass(frozen=True)
class Withheld:
    """A figure whose interval is withheld: the CSV keeps its raw value (its note in a column
    of its own), HTML and Markdown show ``-``, so that no bare number is left to quote without
    the caveat; or (``value`` None) a figure that does not apply, shown as ``shown`` (``n/a``)
    and empty in the CSV; or a figure shown otherwise than raw (the manifest's rounds,
    ``200,000``), raw in the CSV."""

    value: float | None
    shown: str = "-"


@dataclass
class Chart:
    name: str
    caption: str
    file: str | None = None
    width: int = 0
    height: int = 0
    missing: str | None = None
    alt: str = ""  # what it shows, in figures (`_chart`): its text for a reader who cannot see it


@dataclass
class Code:
    text: str


@dataclass
class Section:
    id: str
    title: str
    blocks: list = field(default_factory=list)


def sentence(text: str) -> str:
    """``text`` begun as a sentence: its first letter raised and nothing else lowered (``SE``
    stays), unless its first word is a name as written (``dealer_*``, ``SE``)."""
    first = text.split(" ", 1)[0]
    if "_" in first or first.isupper():
        return text
    return text[:1].upper() + text[1:]


def fmt(value, kind: str) -> str:
    """A raw value as the report prints it; ``-`` for a missing one or a `Withheld` one."""
    if value is None:
        return "-"
    if kind.startswith("se:"):  # an SE of 0: a figure the plan fixes, none shown (as count's)
        base = kind[3:]  # (one its decimals show as 0: to two significant figures, as count's)
        d, pct = int(base[-1]) if base[-1].isdigit() else None, base.startswith("pct")
        if (value and d is not None and base.startswith(("num", "pct"))
                and abs(value) * (100 if pct else 1) < 0.5 * 10.0**-d):
            return _se_figure(value, d, pct)
        return "-" if value == 0 else fmt(value, base)
    if isinstance(value, Withheld):
        return value.shown
    if isinstance(value, bool):  # (a rule's value: as its file and the csv write it)
        return "true" if value else "false"
    if isinstance(value, list):  # (a rule's list: as --set takes it, the report's one form)
        return ",".join(str(x) for x in value)
    if kind == "text" or isinstance(value, str):  # a word: a text column's
        return str(value)
    if kind == "int":
        return f"{round(value):,}"
    if kind == "freq":  # a frequency to 0.001%, never 0.000% for one seen (as bjsim count's)
        return "<0.001%" if value and 100 * value < 0.0005 else f"{100 * value:.3f}%"
    if kind.startswith("pct"):  # pct, pct2, ...: percent with that many decimals (4 by default)
        return f"{100 * value:.{int(kind[3:] or 4)}f}%"
    if kind.startswith("spct"):
        return f"{100 * value:+.{int(kind[4:] or 4)}f}%"
    if kind.startswith("spp"):  # a difference of two percentages: percentage points
        return f"{100 * value:+.{int(kind[3:] or 4)}f} pp"
    if kind.startswith("pp"):  # the SE of such a difference
        return f"{100 * value:.{int(kind[2:] or 4)}f} pp"
    if kind == "z":
        return f"{value:+.2f}"
    if kind.startswith("num"):
        return f"{value:,.{int(kind[3:] or 4)}f}"
    if kind == "prob":  # every probability in fixed notation to 10 decimals, points aligned
        return f"{value:.10f}"
    if kind == "odds":  # "1 in N" of a probability p, given as N = 1 / p
        return f"{value:,.1f}" if value < 100 else f"{value:,.0f}"
    if kind == "prob3":  # a probability estimated (or an SE), to three significant figures, fixed
        # notation
        return sig3(value)
    if kind == "ruin":  # a risk of ruin, a percentage to three significant figures
        return ruin_pct(value)
    raise ValueError(f"format {kind!r} is not known")


# Words that say which side a signed figure is of: every table with one names it (its title or
# the column's header).
SIGN_WORDS = ("house edge", "return to the player", "player's", "casino's", "counter's")


def unsigned_columns(t: Table) -> list[str]:
    """The columns of ``t`` (as shown) holding a signed figure (+/- printed, or a value below
    0) whose side, the player's or the house's, neither the title nor the header names."""
    columns, rows = t.shown()
    out = []
    for i, (_, label, kind) in enumerate(columns):
        signed = kind.startswith(("spct", "spp", "z")) or (
            kind.startswith(("num", "pct")) and any(
                isinstance(r[i], int | float) and r[i] < 0 for r in rows))
        if signed and not any(w in f"{t.title} {label}".lower() for w in SIGN_WORDS):
            out.append(label)
    return out


def _exact_sd_interval(w: dict, pays: list[dict] | None = None,
                       variant_table: bool = False) -> str:
    """Which SD Super Sevens' one SE, 95% interval and z are by (the exact one: `figures.
    by_exact_sd`), in the report's every table and sentence, and bjsim simulate's beside it
    (by the simulated SD), so that no reader takes the two for one interval."""
    return (f"{w['label']}: its SE, 95% interval and z, here, in the summary and in the "
            f"player's choices, are by the exact SD per bet, "
            f"{fmt(w['exact_sd_bet'], 'num2')}: {fmt(w['simulated'], 'pct3')} ± "
            f"{fmt(w['half_width_exact_sd'], 'pct3')}, the more honest interval, as the "
            f"simulated SD, {fmt(w['sd_bet'], 'num2')}, rests on {big_pays_words(pays)} and "
            "most often runs below the exact one. bjsim simulate prints the interval by the "
            f"simulated SD, ± {fmt(Z95 * w['se_simulated_sd'], 'pct3')} (its SE is in the "
            "CSV file of the table): not this report's interval."
            + (" Each game's interval in the rule-variant Super Sevens table is by its own "
               "exact SD per bet." if variant_table else ""))


def _ss_interval_tables(data: dict) -> str:
    """The tables whose Super Sevens intervals are by the exact SD per bet, as the summary's."""
    places = ["the wagers table"]
    if any(r.get("ss_se") is not None for r in data.get("choices") or []):
        places.append("the player's choices")
    if _variant_ss_games(data.get("variants")):
        places.append("the rule variants")
    return places[0] if len(places) == 1 else ", ".join(places[:-1]) + " and " + places[-1]


def _chart(data: dict, name: str, caption: str) -> Chart:
    c = data.get("charts", {}).get(name, {"missing": "charts not drawn"})
    return Chart(name, caption, c.get("file"), c.get("width", 0), c.get("height", 0),
                 c.get("missing"), CHART_ALT[name](data) if "file" in c else "")


def _running_alt(data: dict) -> str:
    """What the running house-edge chart shows, in figures: its first and last points."""
    r = data["running"]
    exact = -next(w["exact"] for w in data["wagers"] if w["wager"] == "total")
    last = r["half_width"][-1]
    return (f"Line chart: the simulated house edge, {fmt(r['house_edge'][0], 'pct3')} after "
            f"{r['rounds'][0]:,} rounds, {fmt(r['house_edge'][-1], 'pct3')} after "
            f"{r['rounds'][-1]:,}" + ("" if last is None else f" (± {fmt(last, 'pct3')})")
            + f", against the exact {fmt(exact, 'pct3')}.")


def _distribution_alt(data: dict) -> str:
    """What the distribution chart shows, in figures: the range of results, the likeliest one
    and, beside it, how often a Super Sevens bet won."""
    d = data["distribution"]
    m = d["main"]
    n = max(m["rounds"], 1)
    top = max(range(len(m["counts"])), key=m["counts"].__getitem__)
    text = (f"Bar chart, log scale: net results of a round from {m['values'][0]:+g} to "
            f"{m['values'][-1]:+g} initial wagers, the likeliest {m['values'][top]:+g} "
            f"({fmt(m['counts'][top] / n, 'pct1')} of {m['rounds']:,} rounds)")
    ss = d.get("super_sevens")
    if ss:
        won = sum(c for c, v in zip(ss["counts"], ss["values"], strict=True) if v > 0)
        text += (f"; Super Sevens: {fmt(won / max(ss['bets'], 1), 'pct2')} of "
                 f"{ss['bets']:,} bets won a line")
    return text + "."


def _effects_alt(data: dict) -> str:
    """What the rule-effects chart shows, in figures: the smallest and largest change."""
    rows = [r for r in data["variants"]["rows"] if r.get("difference") is not None]
    if not rows:
        return "Bar chart of the rule variants' changes in house edge."
    lo = min(rows, key=lambda r: r["difference"])
    hi = max(rows, key=lambda r: r["difference"])
    return (f"Bar chart of {len(rows)} rule variants' changes in house edge, from "
            f"{fmt(lo['difference'], 'spp2')} ({lo['variant']}) to "
            f"{fmt(hi['difference'], 'spp2')} ({hi['variant']}).")


CHART_ALT = {"running_house_edge": _running_alt, "distribution": _distribution_alt,
             "rule_effects": _effects_alt}


def _wager(data: dict, key: str):
    return next((w for w in data["wagers"] if w["wager"] == key), None)


def _has_sevens(rows: list[dict]) -> bool:
    """Do a section's wager rows (wagers, volatility) hold Super Sevens (rule 14)? A game without
    them has no sentence about them."""
    return any(r.get("wager") == "super_sevens" for r in rows)


# ---------------------------------------------------------------------------------------------
# Sections


def _plus_minus(w: dict, digits: int) -> str:
    """`` ± half-width (95%)`` of a wager's simulated return, or why it has no interval."""
    if w["ci95_high"] is None:
        return f" (no 95% interval: {w['interval_note'] or 'too few rounds'})"
    return f" ± {fmt(w['ci95_high'] - w['simulated'], f'pct{digits}')} (95%)"


def summary(data: dict) -> Section:
    tot = _wager(data, "total")
    man = data["manifest"]
    text = [f"The game assessed: {data.get('game') or data['rules_label']} (rule file "
            f"{man['rules_file']}){data.get('changes_in_words') or ''}.",
            f"Strategy played: {_strategy_shown(data)}; {man['rounds_played']:,} simulated "
            f"rounds, seed {man['seed']}, chunks of {man['chunk_rounds']:,} rounds (bjsim "
            f"{man['bjsim']}): bjsim simulate with the same seed and --chunk-rounds "
            f"{man['chunk_rounds']:,} plays the same rounds" + (
                "" if man["chunk_rounds"] == DEFAULT_CHUNK_ROUNDS else
                f" (its default chunks, of {DEFAULT_CHUNK_ROUNDS:,}, deal another sample)")
            + "."]
    if data.get("precision"):  # as simulate's "Precision:" line
        text.append(f"Precision: {precision_text(data['precision'])}.")
    boxes, decks = int(_rule(data, "boxes")), int(_rule(data, "decks", 6))
    alone = (f"; each of the {boxes} boxes valued alone, without the others' cards: docs/exact.md,"
             " A5" if boxes > 1 else "")
    shuffle = _rule(data, "shuffle")
    z = (f"no z (of the house edge): {tot['z_note'].removeprefix('no z: ')}"
         if tot.get("z_note") else
         f"{_z_text(tot['z'])} (of the house edge, as every z of this report)"
         + (("; it includes the cut-card effect, which the note under the wagers table sizes"
             if effect_measured(_penetration(data), boxes, decks) else
             "; it includes the cut-card effect, not measured "
             + ("at this penetration" if not effect_measured(_penetration(data)) else
                f"for a table of {boxes} boxes with {decks} {plural(decks, 'deck', 'decks')}")
             + " (the note under the wagers table)")
            if tot.get("z_caveat") else ""))
    if shuffle == "cut-card":  # (the game as dealt is the simulated one: rule 7.1 (1999))
        text.append("House edge of the main game (with insurance where the strategy takes it), "
                    "per initial wager, of this table as dealt, to the cut card (rule 7.1 "
                    f"(1999)): simulated {fmt(-tot['simulated'], 'pct')}{_plus_minus(tot, 4)}; "
                    f"exact for a full shoe every round{f' ({alone[2:]})' if alone else ''}, "
                    "which leaves out the cut-card "
                    f"effect: {fmt(-tot['exact'], 'pct')}; {z}."
                    + _z_less_cut_card(tot, data["rules"]))
        shoe = (((data.get("simulation") or {}).get(data.get("strategy")) or {}).get(
            "results") or {}).get("shoe") or {}
        if shoe.get("refills"):  # (as simulate's shoe line says it)
            text.append(f"In the main run {refill_text(shoe['refills'])}.")
    else:
        text.append(f"House edge of the main game (with insurance where the strategy takes it), "
                    f"per initial wager: exact {fmt(-tot['exact'], 'pct')} (a full shoe every "
                    f"round, as this table is dealt{alone}); simulated "
                    f"{fmt(-tot['simulated'], 'pct')}{_plus_minus(tot, 4)}, {z}."
                    + _z_less_cut_card(tot, data["rules"]))
    text.append(player_edge_text(data))
    if data.get("against_nz"):
        text.append(against_nz_text(data["against_nz"], data.get("variants")))
    ss = _wager(data, "super_sevens")
    if ss is not None:
        rows = {r["label"]: r for r in data["sevens"]["rows"]}
        hit = rows.get("hit every 7-7")
        text.append(
            f"Super Sevens house edge, per unit staked: exact {fmt(-ss['exact'], 'pct3')} with "
            f"the strategy's own 7-7 play; simulated {fmt(-ss['simulated'], 'pct3')}"
            + (_plus_minus(ss, 3) if not ss.get("half_width_exact_sd") else
               f" ± {fmt(ss['half_width_exact_sd'], 'pct3')} (95%, by the exact SD per bet, "
               f"{fmt(ss['exact_sd_bet'], 'num2')}, as in "
               + _ss_interval_tables(data) + ": the simulated SD, "
               f"{fmt(ss['sd_bet'], 'num2')}, rests on "
               f"{big_pays_words(data.get('super_sevens_pays'))}; "
               f"{_sd_against_exact(ss)})") + ". "
            # hitting every 7-7 is named only where it is not the convention's figure (a peek)
            + (f"It is {fmt(hit['super_sevens_house_edge'], 'pct3')} if every 7-7 is hit"
               + (", the lowest a player can hold it to" if _lowest(hit, rows) else "") + ". "
               if hit and not data["sevens"]["published_equals_hit"] else "")
            + sentence(data["sevens"]["convention_note"]) + "."
            + (" That figure, every 7-7 hit, is the lowest house edge a player can hold the "
               "side bet to (the most third cards)."
               if hit and data["sevens"]["published_equals_hit"] and _lowest(hit, rows)
               else "")
            + " The section Super Sevens and the 7-7 play says why the two figures "
            + ("agree." if data["sevens"].get("strategy_equals_published") else "differ."))
        if ss["exact"] is not None and ss["exact"] > 0:  # (the strategy's own play wins)
            text.append(f"With the strategy's own 7-7 play the player has the edge on the side "
                        f"bet (house edge {fmt(-ss['exact'], 'pct3')}): the casino loses on it "
                        "on average to a player of this strategy.")
        if data["sevens"].get("player_edge"):  # (a player who plays for the side bet wins)
            text.append(f"Warning: {data['sevens']['player_edge']['note']}, and the casino "
                        "loses on the side bet on average to a player who does so.")
    text.append(_counting_summary(data))
    text.append(_inferred_text(data))
    return Section("summary", "Summary", [t for t in text if t])


def _lowest(hit: dict, rows: dict) -> bool:
    """Is hitting every 7-7 (``hit``) the play of the lowest Super Sevens house edge among the
    7-7 table's ``rows``? Not where a third seven pays less than two (3,50,100,5,5: standing
    holds it lower; a review)."""
    return all(hit["super_sevens_house_edge"] <= r["super_sevens_house_edge"] + 1e-12
               for r in rows.values() if r.get("super_sevens_house_edge") is not None
               and not r.get("convention"))  # (a convention, no play: with a peek below all)


def _inferred_text(data: dict) -> str | None:
    """The summary's sentence on the rules its figures rest on that the Gazette text in hand
    does not give (`from` inferred: a regulator's review found no word of them there)."""
    inferred = [r["key"] for r in data["rules"] if r["from"] == "inferred"
                and not r.get("no_effect")]  # (no rule the figures rest on: a review)
    if not inferred:
        return None
    v = data.get("variants") or {}
    varied = [k for k in inferred if v.get("available") and any(
        k in (r.get("changed_keys") or ()) for r in v.get("rows") or ())]
    return (f"The figures rest too on {len(inferred)} {plural(len(inferred), 'rule', 'rules')} "
            f"the Gazette text in hand does not give, inferred ({', '.join(inferred)}: the "
            "section Rules says from where)"
            + (f"; the section Rule variants gives what changing {_and(varied)} costs" if varied
               else "") + ".")


def _counting_summary(data: dict) -> str | None:
    """The summary's sentence of the counting section, where the report has one: the counter's
    advantage per unit of initial main bet with its interval, and how often the Super Sevens bet
    favoured the player (a regulator's review: the summary had said nothing of a counter who
    beat the game)."""
    c = data.get("counting")
    if not c:
        return None
    f = c["figures"]
    a = f["advantage"]["initial_bet"]
    if a["mean"] is None:
        return None
    interval = (f" (95% CI {fmt(a['ci95_low'], 'spct3')} to {fmt(a['ci95_high'], 'spct3')})"
                if a["ci95_low"] is not None else f" ({a['interval_note'] or 'no interval'})")
    ss = f["super_sevens"] or {}
    side, own = ss.get("favourable_share"), ss.get("counter_return")
    own_ci = (f" (95% CI {fmt(ss['counter_return_ci95_low'], 'spct3')} to "
              f"{fmt(ss['counter_return_ci95_high'], 'spct3')})"
              if ss.get("counter_return_ci95_low") is not None else
              f" (no interval: {ss.get('counter_return_interval_note') or 'too few bets'})")
    w = f["advantage"].get("initial_bet_with_super_sevens") or {}
    with_ss = (f"; with its Super Sevens bets, per unit of initial main and Super Sevens bet, "
               f"{fmt(w['mean'], 'spct3')}"
               + (f" (95% CI {fmt(w['ci95_low'], 'spct3')} to {fmt(w['ci95_high'], 'spct3')})"
                  if w.get("ci95_low") is not None else
                  f" (no interval: {w.get('interval_note') or 'too few bets'})")
               if own is not None and w.get("mean") is not None else "")
    edge = [x for x in (a, w) if x.get("ci95_low") is not None and x["ci95_low"] > 0]
    return (f"Card counting (plan {f['plan']['name']}, {f['rounds']:,} rounds): the counter's "
            f"advantage per unit of initial main bet is {fmt(a['mean'], 'spct3')}{interval}"
            + with_ss
            + ("; the counter has the edge over the game" if edge else "")
            + (f"; its Super Sevens bets returned {fmt(own, 'spct3')} per unit staked{own_ci}"
               if own is not None else "")
            + (f", {fmt(ex, 'spct3')} by the exact return of the shoe each was staked at"
               + (f" (95% CI {fmt(ss['counter_exact_return_ci95_low'], 'spct3')} to "
                  f"{fmt(ss['counter_exact_return_ci95_high'], 'spct3')})"
                  if ss.get("counter_exact_return_ci95_low") is not None else
                  f" (no interval: {ss.get('counter_exact_return_interval_note')})"
                  if ss.get("counter_exact_return_interval_note") else "")
               if own is not None and (ex := ss.get("counter_exact_return")) is not None else "")
            + (f"; the Super Sevens bet favoured the player (a positive exact return, by "
               f"{ss.get('exact_play') or 'the strategy' + chr(39) + 's 7-7 play'}, from the "
               f"cards left) in {fmt(side, 'pct2')}"
               + (f" (SE {fmt(ss['favourable_share_se'], 'se:pct2')})"
                  if ss.get("favourable_share_se") else "")
               + " of rounds, open to a count of sevens"
               if side else "") + " (the section Card counting).")


# The changes that move the Super Sevens figures (`compare_report.SS_KEYS`), in words.
SS_CHANGES = ("a change of decks, hole card, pays or stake, of the penetration, shuffle or "
              "boxes, whose cut-card effect moves the side bet too, or of the 7-7 play, which "
              "decides whether a third card is dealt")


def player_edge_text(data: dict) -> str:
    """Where the player, playing the strategy, has the edge in the main game (with the
    insurance it takes): its exact house edge below 0, or the simulated one's 95% interval
    wholly below 0: a plain sentence saying so, that the casino loses on average, and which
    wager gives it (the main game, insurance); "" elsewhere. Insurance that returns more than it
    costs is named too where the strategy does not take it."""
    tot, main, ins = (_wager(data, k) for k in ("total", "main", "insurance"))
    exact_edge = tot["exact"] is not None and tot["exact"] > 0
    sim_edge = tot["ci95_low"] is not None and tot["ci95_low"] > 0
    ins_gains = ins is not None and ins.get("exact") is not None and ins["exact"] > 0
    if not exact_edge and not sim_edge:
        if not ins_gains:
            return ""
        return (f"Insurance returns the player {fmt(ins['exact'], 'spct3')} per unit staked "
                "(exact): the player who takes it has the edge on that wager, and the casino "
                "loses on it on average; the strategy played here does not take it.")
    how = (f"exact {fmt(-tot['exact'], 'pct')}" if exact_edge else "") + (
        (" and " if exact_edge else "") + "the simulated house edge's 95% interval, "
        f"{fmt(-tot['ci95_high'], 'pct')} to {fmt(-tot['ci95_low'], 'pct')}, wholly below 0"
        if sim_edge else "")
    if not exact_edge:
        how += f" (exact, for a full shoe every round: {fmt(-tot['exact'], 'pct')})"
    main_gains = main is not None and main["exact"] is not None and main["exact"] > 0
    taken = ins is not None and not ins.get("exact_only") and (
        main is None or main["exact"] != tot["exact"])
    if ins_gains and taken and not main_gains:
        which = ("The insurance wager gives the player the edge: it returns "
                 f"{fmt(ins['exact'], 'spct3')} per unit staked (exact), and the strategy takes "
                 "it, while the main game alone keeps a house edge of "
                 f"{fmt(-main['exact'], 'pct')} (exact).")
    else:
        which = ("The main game itself gives the player the edge"
                 + (f"; insurance too returns {fmt(ins['exact'], 'spct3')} per unit staked "
                    "(exact)" + ("" if taken else ", though the strategy does not take it")
                    if ins_gains else "") + ".")
    return ("The player has the edge at this table: playing this strategy, the player wins and "
            "the casino loses on average, as the house edge of the main game (with the "
            f"insurance the strategy takes) is below 0 ({how}). " + which)


SD_CLOSE = 0.05  # a simulated SD within 5% of the exact one is close to it


def big_pays_words(pays: list[dict] | None) -> str:
    """What Super Sevens' simulated SD rests on, for the lines the strategy can make (the pay
    table's, `figures._pay_table`): ``its wins of the biggest pays it can make: 84 at 5000 to 1
    (line (e)) and 2,126 at 500 to 1 (line (d)), in this run``; lines its 7-7 play cannot make
    (never-bust takes no third card to 7-7: no (d) or (e)) are named as such."""
    if not pays:
        return "its wins of the biggest pays"
    wins = sorted((r for r in pays if r["pays"] > 0), key=lambda r: -r["pays"])
    can: dict = {}  # pay -> (its wins, its lines): lines paying alike are one pay
    for r in wins:
        if r["probability"] > 0:
            n, lines = can.get(r["pays"], (0, ()))
            can[r["pays"]] = (n + r["count"], lines + (r["line"],))
    cannot = [r["line"] for r in wins if r["probability"] <= 0]
    top = " and ".join(f"{n:,} at {pay:g} to 1 ({lines_words(sorted(lines))})"
                       for pay, (n, lines) in list(can.items())[:2])
    return (f"its wins of the biggest pays it can make: {top}, in this run" + (
        f" (its 7-7 play can make no line {' or '.join(f'({x})' for x in sorted(cannot))})"
        if cannot else ""))


def _rule(data: dict, key: str, default=None):
    """The value of rule-set key ``key`` in the report's rules table, or ``default``."""
    return next((r["value"] for r in data.get("rules", []) if r["key"] == key), default)


def _penetration(data: dict) -> float:
    """The report's rules' penetration."""
    return float(_rule(data, "penetration"))


Z_LARGE = 1.96  # a |z| from which the summary says how much of it the cut-card effect is


def _z_less_cut_card(w: dict, rules: list[dict]) -> str:
    """Where a z that holds the cut-card effect (``z_caveat``) is large (|z| >= `Z_LARGE`), how
    much of the difference the effect accounts for (`cut_card_effect`: bjsim's measurement for
    the rules' decks where it made one, else the larger of the neighbouring ones, as
    `cut_card_words` says) and the z that remains, in plain words, with how often chance alone gives
    a z that far from 0; at a penetration, or with several boxes, where the effect is not
    measured (`effect_measured`), only that it is not; "" elsewhere."""
    if not w.get("z_caveat") or w.get("z") is None or abs(w["z"]) < Z_LARGE:
        return ""
    value = {r["key"]: r["value"] for r in rules}
    decks, pen = int(value["decks"]), float(value["penetration"])
    boxes = int(value.get("boxes", 1))
    diff = w["exact"] - w["simulated"]  # simulated house edge less the exact one
    if not effect_measured(pen, boxes, decks):
        return (f" The simulated house edge differs from the exact one by {fmt(diff, 'spp4')}, "
                f"which holds {cut_card_words(decks, pen, boxes)}: how much of it that "
                "accounts for is not known here (a shuffle before every round, as the exact "
                "value is dealt, has no cut-card effect).")
    effect = cut_card_effect(decks, boxes)
    left = (diff - effect) / math.hypot(w["se"], CUT_CARD_SE)  # (the effect's own SE too)
    chance = 2 * (1 - NormalDist().cdf(abs(left)))
    return (f" The simulated house edge differs from the exact one by {fmt(diff, 'spp4')}; "
            f"{cut_card_words(decks, boxes=boxes)} accounts for about {fmt(effect, 'spp3')} of it"
            + f", and the rest, {fmt(diff - effect, 'spp4')}, is a z of {fmt(left, 'z')} (by "
            "the run's SE and the effect's): "
            + ("chance alone gives one that far from 0 in about one run in "
               f"{1 / chance:,.0f}, with nothing wrong" if chance > 0.001 else
               "chance alone gives one that far from 0 in fewer than one run in 1,000: "
               "more than the cut-card effect and chance explain")
            + ".")


def _sd_against_exact(w: dict) -> str:
    """Super Sevens' simulated SD per bet against its exact one, in words that follow the two
    figures: ``here 0.2% above it``, ``here 31% below it, as it most often is until the run
    holds many of the biggest pays``."""
    sim, exact = w["sd_bet"], w["exact_sd_bet"]
    if not sim or not exact:
        return "no simulated SD to set beside it"
    r = sim / exact - 1
    side = "above" if r > 0 else "below"
    size = f"{100 * abs(r):.1f}%" if abs(r) < SD_CLOSE else f"{100 * abs(r):.0f}%"
    if abs(r) < 0.0005:
        return "here the two agree"
    return (f"here {size} {side} it" + ("" if abs(r) < SD_CLOSE else
                                        ", as it most often is until the run holds many of them"
                                        if r < 0 else ": a few big pays more than their share"))


def _cost_words(d: float) -> str:
    """What changes that raise the house edge by ``d`` do to the player, together: ``cost the
    player 0.1000 percentage points together``, or where they lower it, ``are worth 0.1000
    percentage points to the player``."""
    points = fmt(abs(d), "pct4").removesuffix("%") + " percentage points"  # (of house edge)
    return (f"cost the player {points} together" if d > 0 else
            f"are worth {points} to the player together" if d < 0 else
            "leave the house edge as it is, together")


def _unseen_measured(a: dict, variants: dict | None) -> str:
    """What in the report measures the departures the exact figures do not see (the
    penetration, the shuffle), by simulation, and what measures them against the NZ game: the
    rule-variant rows that change those keys here (not one the table has already, nor one of no
    effect under its rules), or where none does, that nothing here does, and why."""
    keys = {c.split("=", 1)[0] for c in a["unseen"]}
    rows = [r for r in (variants or {}).get("rows", []) if r.get("changed_keys")
            and set(r["changed_keys"]) <= keys and not r.get("in_rule_set")
            and not r.get("no_effect")]
    cost = "this departure costs" if len(a["unseen"]) == 1 else "these departures cost"
    how = (f"{a['measure_command']} measures, by simulation, what {cost} against the NZ "
           "game")
    if rows:
        names = ", ".join(r["variant"] for r in rows)
        measure = "row measures" if len(rows) == 1 else "rows measure"
        return (f"the rule-variant table's {names} {measure} a change of "
                f"{', '.join(sorted(keys))} from this table, by simulation; {how}")
    if not (variants or {}).get("available"):
        why = "this report has no rule-variant table"
    else:
        why = "no row of its rule-variant table changes it here"
    return f"nothing in this report measures it ({why}); {how}"


def against_nz_text(a: dict, variants: dict | None = None) -> str:
    """The table's departures from the NZ game (`figures.against_nz`) and what they cost the
    player together: each game's exact house edge under its own basic strategy and the
    difference (sign-aware); those the exact figures cannot see named apart, with what measures
    them (`_unseen_measured`, from the report's rule ``variants``)."""
    within = a.get("within_gazette") or {}  # (a value in the Gazette's range: said so)
    outside = a.get("outside_gazette") or {}  # (a value the Gazette does not allow: its clause)
    changes = ", ".join(c + (f" ({within[c]})" if c in within else
                             f" (outside what the Gazette allows, {outside[c]})" if c in outside
                             else "") for c in a["changes"])
    unseen = ", ".join(a["unseen"])
    if a["difference"] is None:
        return (f"This table differs from the NZ game only in {changes}, which the exact "
                "figures (a full shoe every round) do not see: no exact figure of what it costs "
                f"is given; {_unseen_measured(a, variants)}.")
    cost = _cost_words(a["difference"])
    main, side = a.get("main_changes", a["changes"]), a.get("side_changes", [])
    seen = ("exact, full shoe" + (f"; {unseen} not included: the exact figures do not see it"
                                  if unseen else ""))
    if side and not main:
        text = (f"This table differs from the NZ game only in {changes}, the Super Sevens bet's "
                "pays, which leave the main game as it is: its exact house edge, with the basic "
                f"strategy derived for these rules, is the NZ game's, "
                f"{fmt(a['house_edge'], 'pct4')} ({seen}).")
    else:
        whose = ("the changes from the NZ game" if not side else
                 f"the changes of the main game ({', '.join(main)})")
        text = (f"This table differs from the NZ game in {changes}. With each game's own basic "
                "strategy (derived by the exact analyzer for its rules), the NZ game's exact "
                f"house edge is {fmt(a['nz_house_edge'], 'pct4')} and this table's "
                f"{fmt(a['house_edge'], 'pct4')}: {whose} {cost} ({seen})."
                + (f" The change of the Super Sevens pays ({', '.join(side)}) is not in that "
                   "figure: it changes the side bet alone." if side else ""))
    if a.get("super_sevens_difference"):
        text += (f" Super Sevens, per unit staked, with that strategy's 7-7 play: "
                 f"{fmt(a['nz_super_sevens_house_edge'], 'pct3')} in the NZ game, "
                 f"{fmt(a['super_sevens_house_edge'], 'pct3')} here "
                 f"({fmt(a['super_sevens_difference'], 'spp3').removesuffix(' pp')} "
                 "percentage points of house edge" + (", with every change, the pays' among "
                                                      "them" if side and main else "") + ").")
    return text


def _rules_cost(a: dict | None) -> str:
    """The rules section's word on what the departures from the NZ game cost (exact): the main
    game's changes, and the Super Sevens pays' apart (they leave the main game as it is)."""
    if not a or a["difference"] is None:
        return ""
    main, side = a.get("main_changes", a["changes"]), a.get("side_changes", [])
    edges = (f"(exact, each game with its own basic strategy: {fmt(a['house_edge'], 'pct4')} "
             f"against {fmt(a['nz_house_edge'], 'pct4')}; the summary says more)")
    if not side:
        return (f" Together its changes from the NZ game ({', '.join(a['changes'])}) "
                f"{_cost_words(a['difference']).removesuffix(' together')} {edges}.")
    edges_ss = ("" if a.get("super_sevens_difference") is None else
                f"the Super Sevens house edge from {fmt(a['nz_super_sevens_house_edge'], 'pct3')}"
                f" to {fmt(a['super_sevens_house_edge'], 'pct3')}")
    ss = f": with the other changes it takes {edges_ss}" if edges_ss else ""
    if not main:  # (no other change: the pays' alone, said in a sentence of its own)
        return (f" Its change from the NZ game, {', '.join(side)}, changes the Super Sevens bet "
                f"alone: the main game's exact house edge is the NZ game's, "
                f"{fmt(a['house_edge'], 'pct4')} (the summary says more)."
                + (f" It takes {edges_ss}." if edges_ss else ""))
    return (f" Together its changes of the main game ({', '.join(main)}) "
            f"{_cost_words(a['difference']).removesuffix(' together')} of the main game's "
            f"house edge {edges.removesuffix('; the summary says more)')}); its change of the "
            f"Super Sevens pays ({', '.join(side)}) is not in that figure, as it changes the side "
            f"bet alone{ss} (the summary says more).")


def _z_column(rows: list[dict], label: str) -> str:
    """A z column's label, marked `CUT_CARD_MARK` where a z in it holds the cut-card effect."""
    return label + (f" {CUT_CARD_MARK}" if any(r.get("z_caveat") for r in rows) else "")


def _z_notes(rows: list[dict], name: str, said: tuple = ()) -> list[str]:
    """What the z column's `CUT_CARD_MARK` means, and each z withheld for the cut card, why; a
    caveat already ``said`` (under the wagers table) is pointed to, not said again."""
    out = [f"{CUT_CARD_MARK} {c}." if c not in said else
           f"{CUT_CARD_MARK} z includes the cut-card effect, as the note under the wagers table "
           "says." for c in dict.fromkeys(r["z_caveat"] for r in rows if r.get("z_caveat"))]
    return out + [f"{r[name]}: {r['z_note']}." for r in rows if r.get("z_note")]


def _z_text(z) -> str:
    """``z = +1.23`` in a sentence, or ``no z`` where none is given."""
    return "no z" if z is None else f"z = {fmt(z, 'z')}"


def rules(data: dict) -> Section:
    t = Table("rules", "The rule set, key by key", [
        ("rule", "Gazette rule", "text"), ("key", "key", "text"), ("value", "value", "text"),
        ("from", "from", "text"), ("words", "in words", "text")],
        [[r["rule"], r["key"], r["value"], r["from"], r["words"]] for r in data["rules"]],
        row_keys=("key",))  # (a Gazette rule may hold several keys: the key names the row)
    m = data["manifest"]
    choice = {r["key"] for r in data["rules"] if r["from"] == "choice"}
    chosen = [o for o in m["overrides"] if o.split("=", 1)[0].strip() in choice]
    changed = [o for o in m["overrides"] if o not in chosen]
    src = m["rules_file"] + (f", changed by {', '.join(changed)}" if changed else "") + (
        f", with the choice{'s' if len(chosen) > 1 else ''} {', '.join(chosen)}" if chosen
        else "")
    other = any(r["from"] in (OUTSIDE_GAZETTE, CHANGED) for r in data["rules"])
    within = [f"{r['key']} = {fmt(r['value'], 'text')}" for r in data["rules"]
              if r["from"] == WITHIN_GAZETTE]
    a = data.get("against_nz")
    return Section("rules", "Rules", [
        f"Rule file {src}. Each key's Gazette rule (New Zealand Gazette 1994 No. 112; rule 7.1 "
        f"as amended in 1999). {GAZETTE_IN_HAND} 'from' says where the value comes from: "
        + origin_legend("a setting of the assessment, not a rule of the game, whatever its "
                        "value") + "."
        + (" This rule set differs from the NZ one: gazette and inferred mark the keys it "
           "shares with the NZ game, not rules the Gazette approved for this table." if other
           else f" This rule set departs from the NZ values only within what the Gazette "
           f"allows ({', '.join(within)})." if within
           else "")
        + _rules_cost(a), t, FIXED_RULES])


# What the report's rules rest on: the Gazette pages in hand (RULES.md), and the rules bjsim
# plays under every rule set, which no key changes (so the table of keys does not show them).
GAZETTE_IN_HAND = (
    "The Gazette text in hand is pages 3234, 3236 and 3238 of that issue; an inferred value "
    "comes from other public copies of it (page 3229 holds rules 3 and 4), its 1999 amendment "
    "(No. 9, p. 230) or current New Zealand casino practice (configs/nz1994.toml says which).")
FIXED_RULES = (
    "Rules played under every rule set, no key changing them: from the text in hand, 8.3 (even "
    "money on a blackjack against an ace: the strategy's choice, as insurance, rule 9); 11 (c) "
    "(a two-card 21 after splitting aces or tens is 21, not a blackjack); 11.5 (a box that "
    "declines to split a pair splits no further pair that round); 12.1 (a) (no card drawn to a "
    "blackjack or to 21), (b) (a doubled hand gets one card) and (d) (a hand of 11 or less "
    "draws, whatever the strategy says, where it does not surrender under a surrender rule); "
    "12.2 (a bust loses at once, its wagers collected); and from page 3229 of another copy, "
    "3.2 (an ace counts 11 unless that busts the hand, then 1) and 4.1 (a)-(g) (a blackjack "
    "beats a 21 of three or more cards, equal totals and two blackjacks stand off, a bust "
    "loses; what a dealer blackjack takes of a doubled or split box is dealer_blackjack_takes, "
    "above).")


GAZETTE_COLUMN = " Gazette: " + GAZETTE_WORDS


def wagers(data: dict) -> Section:
    cols = [("wager", "wager", "text"), ("per", "figures per", "text"),
            ("strategy", "strategy", "text"),
            ("exact", "exact return", "spct"), ("simulated", "simulated return", "spct"),
            ("se", "SE", "pct"), ("ci95_low", "95% CI low", "spct"),
            ("ci95_high", "95% CI high", "spct"),
            ("z", _z_column(data["wagers"], "z (of the house edge)"), "z"),
            ("sd_bet", "SD per bet", "num"), ("exact_sd_bet", "SD per bet (exact)", "num"),
            ("sd_round", "SD per round", "num"), ("bets", "bets", "int"),
            ("se_simulated_sd", "SE by the simulated SD (bjsim simulate's)", CSV_ONLY)]
    t = Table("wagers", "Each wager's return to the player", cols,
              [[w["label"] if c == "wager" else w.get(c) for c, _, _ in cols]
               for w in data["wagers"]],
              {"exact": "exact_return", "simulated": "simulated_return", "z": "z_house_edge"})
    ss = _has_sevens(data["wagers"])
    same = _same_main_row(t)
    ss_sd = _wager(data, "super_sevens") or {}
    ins = _wager(data, "insurance")
    ins_only = ins if ins and ins.get("exact_only") else None  # (`figures._exact_insurance`)
    # (insurance ranged by its exact SD with one box; with several by its SD per round)
    ins_exact = bool(ins) and int(_rule(data, "boxes")) == 1  # (several: no exact-only row,
    # and a simulated one by its SD per round)
    blocks = [
        "Returns are to the player (the house edge is minus the return). Exact figures are "
        "combinatorial (bjsim exact); simulated ones come with their standard error (SE), 95% "
        "confidence interval (CI), and z of the house edge (exact return - simulated return) / "
        "SE, + where the simulated house edge is higher. SD (standard deviation) per bet is per "
        "initial wager "
        f"(main game) or per unit staked (insurance{', Super Sevens' if ss else ''}); SD per "
        "round sums every box of a round. SD per bet (exact): bjsim exact's, from a full shoe "
        "every round: for the main game with insurance its SD per initial wager (split "
        "rounds' SD approximated, docs/exact.md A3), which is also the main "
        "game's alone where the strategy takes no insurance"
        + ("; for Super Sevens its SD per unit staked, whose simulated one rests on "
           f"{big_pays_words(data.get('super_sevens_pays'))} ({_sd_against_exact(ss_sd)})"
           if ss else "")
        + ("; for insurance" + (", which no strategy here simulates," if ins_only else "")
           + " its SD per unit staked from its exact return, as each bet wins its pays or "
           "loses 1" if ins else "")
        + ". The exact analyzer gives none for the main game alone where insurance is taken "
        "('-'). The exact figures rest on small approximations besides (docs/exact.md): split "
        "hands valued with the pair's cards alone removed, the published tables' convention "
        "(A1: measured on US games, the game's total 3e-6 high at 6 decks, 8e-6 at 1 deck)"
        + (", and a split box's hands all busting against a dealer blackjack taken as "
           "independent (A2: under 1e-5)" if _rule(data, "hole_card") == "none"
           and _rule(data, "dealer_blackjack_takes") == "original-and-busted" else "")
        + ". The volatility table uses the simulated SD" + (" but for " + " and ".join(
            ["insurance"] * bool(ins_exact) + ["Super Sevens"] * ss) + " (below)."
                          if ss or ins_exact else ".") + _boxes_sd_text(data)
        + (" The main game alone (even money included) is not shown apart: the strategy takes "
           "no insurance, so its row would repeat the first in every figure (the CSV keeps it)."
           if same else ""), t,
        *_z_notes(data["wagers"], "label"), "How each exact figure is derived:"]
    blocks += [f"{w['label']}: {w['derivation']}" for w in data["wagers"]
               if not (same and w["wager"] == "main")]
    blocks += [f"{w['label']}: no 95% interval and no z: {w['interval_note']}."
               for w in data["wagers"] if w["interval_note"]]
    blocks += [_exact_sd_interval(w, data.get("super_sevens_pays"),
                                  bool(_variant_ss_games(data.get("variants"))))
               for w in data["wagers"]
               if w.get("half_width_exact_sd") and w.get("se_simulated_sd")]
    pw = data["main_per_unit_wagered"]
    blocks.append(f"Main game return {PER_UNIT_WAGERED}: {fmt(pw['mean'], 'spct3')} ("
                  + (f"no interval: {pw['interval_note']}" if pw.get("interval_note") else
                     f"95% CI {fmt(pw['ci95_low'], 'spct3')} to {fmt(pw['ci95_high'], 'spct3')}")
                  + "); "
                  f"{fmt(pw['wagered_per_initial'], 'num4')} units wagered per initial wager. "
                  "bjsim count's advantage of the same name is the same quantity.")
    blocks.append(even_money_text(data["even_money"]))
    if not ins or ins_only:
        blocks.append(f"Insurance: {data['insurance_missing']}.")
    r = data["running"]  # (the chart's figures, for a reader who cannot see it: its CSV)
    blocks.append(Table("running_house_edge", "The running house edge", [
        ("rounds_played", "rounds played", "int"), ("house_edge", "house edge", "pct3"),
        ("half_width", "95% half-width", "pct3")],
        [list(x) for x in zip(r["rounds"], r["house_edge"], r["half_width"], strict=True)],
        csv_alone=True))
    blocks.append(_chart(data, "running_house_edge",
                         "The simulated house edge after each chunk of the run (chunks in "
                         "index order), its 95% confidence band, and the exact figure (its "
                         "figures: csv/running_house_edge.csv)."))
    return Section("wagers", "Wagers: exact and simulated return", blocks)


def _same_main_row(t: Table) -> bool:
    """Does the wagers table's main-game row repeat the first (main game and insurance) in every
    cell shown, as where the strategy takes no insurance? It is then left out of the HTML, PDF
    and Markdown (``csv_rows``: the CSV keeps it); True where it is."""
    labels = [r[0] for r in t.rows]
    if "Main game (even money included)" not in labels or len(t.rows) < 2:
        return False
    i = labels.index("Main game (even money included)")
    shown = [j for j, (k, _, kind) in enumerate(t.columns) if kind != CSV_ONLY and k != "wager"]
    if [fmt(t.rows[0][j], t.columns[j][2]) for j in shown] != [
            fmt(t.rows[i][j], t.columns[j][2]) for j in shown]:
        return False
    t.csv_rows.add(i)
    return True


def _boxes_sd_text(data: dict) -> str:
    """The wagers table's word, with several boxes, on its SD per bet against the SD per round
    the volatility section ranges the main game by; empty with one box."""
    boxes = int(_rule(data, "boxes", 1))
    tot = _wager(data, "total")
    if boxes <= 1 or not tot or not tot.get("sd_round"):
        return ""
    return (f" With {boxes} boxes the SD per bet takes each box's bet alone; the boxes share the "
            f"dealer's cards, so the SD per round of the main game, {fmt(tot['sd_round'], 'num4')}"
            f", is not sqrt({boxes}) x {fmt(tot['sd_bet'], 'num4')} = "
            f"{fmt(tot['sd_bet'] * boxes ** 0.5, 'num4')}, as for independent bets: the volatility "
            f"section counts the main game's bets in rounds, by the SD per round over sqrt("
            f"{boxes}), {fmt(tot['sd_round'] / boxes ** 0.5, 'num4')} a bet, and says so.")


def even_money_text(em: dict) -> str:
    """Even money (rule 8.3) against declining it: what taking it gives up, or gains where the
    blackjack pays too little (6 to 5), and whether the assessed strategy takes it."""
    cost = em["cost"]
    worth = (f"Taking it gives up {fmt(cost, 'num4')} of the initial wager each time"
             if cost > 0 else f"Taking it gains {fmt(-cost, 'num4')} of the initial wager each "
             "time" if cost < 0 else "Taking it or not is worth the same")
    takes = em.get("strategy_takes")
    strategy = "" if takes is None else (
        f". The assessed strategy, {em['strategy']}, {'takes' if takes else 'declines'} it"
        + ("" if em.get("offers") is None else
           f": it took {em['offers_taken']:,} of the {em['offers']:,} offers in the main run"))
    return (f"Even money (rule 8.3), per initial wager: {em['derivation']} {worth}{strategy} "
            "(the simulation counts it within the main game).")


def _one_in(p) -> float | None:
    """N of "1 in N" for a probability ``p`` (None for 0: never seen)."""
    return 1 / p if p else None


def pay_table(data: dict) -> Section | None:
    rows = data["super_sevens_pays"]
    if not rows:
        return None
    cols = [("line", "line", "text"), ("cards", "cards", "text"),
            ("combinations", "combinations", "int"), ("of", "of all combinations", "int"),
            ("probability", "probability", "prob"), ("one_in", "1 bet in", "odds"),
            ("pays", "pays", "int"),
            ("contribution", "contribution to the player's return", "spct"),
            ("count", "simulated count", "int"),
            ("freq", "simulated frequency", "prob"), ("freq_se", "SE", "prob"),
            ("sim_contribution", "simulated contribution to the player's return", "spct")]
    t = Table("super_sevens_pay_table", "Super Sevens pay table (rule 14), per bet", cols,
              [[(r | {"one_in": _one_in(r["probability"])}).get(c) for c, _, _ in cols]
               for r in rows], breaks=("count",))  # (the exact figures, then the simulated)
    total = sum(r["contribution"] for r in rows)
    no_se = any(r.get("freq_se") is None and r.get("count") is not None for r in rows)
    return Section("super-sevens", "Super Sevens pay table", [
        "Combinations: ordered deals of the box's first card, the dealer's up card, the box's "
        "second card and the next card (and the hole card before it in a peek game) that end in "
        "the line, out of all such deals, under the strategy's 7-7 play; probability = "
        "combinations / of, in fixed notation to 10 decimals, and '1 in' its inverse (one bet "
        "in how many makes the line). Contribution = probability x pays (a loss pays -1). "
        f"Their sum, the return, is {fmt(total, 'spct')}. The simulated frequency comes with "
        "its binomial standard error (SE), as bjsim simulate gives it (a line's simulated "
        "contribution, not shown, has |pays| x that SE)"
        + (f"; a line of fewer than {MIN_WINS} deals expected in the run (the bets x its "
           "probability, not the deals seen) has none ('-'): the normal approximation does not "
           "hold" if no_se else "") + ".", t])


def frequencies(data: dict) -> Section:
    cols = [("event", "key", CSV_ONLY), ("per", "per (key)", CSV_ONLY),
            ("label", "event", "text"), ("per_words", "per", "text"), ("count", "count", "int"),
            ("n", "out of", "int"), ("rate", "rate", "pct4"), ("se", "SE", "pct4"),
            ("se_upper_bound", "SE an upper bound", CSV_ONLY)]  # (simulate's, several boxes)
    rows = data["frequencies"]
    zero = [r["label"] for r in rows if r.get("count") == 0 and not r.get("left_out")]
    hands = next((r for r in rows if r["event"] == "hands_per_box_round"), None)
    few = [r["label"] for r in rows if not r.get("left_out")
           and r["event"] in data.get("few_events", ())]  # (simulate's: no SE there)
    t = Table("hit_frequencies", "Hit frequencies", cols,
              # (a count of 0, or too few events, has no SE: a binomial SE of 0 from no event
              # says nothing)
              [[None if c == "se" and (r.get("count") == 0 or r["label"] in few) else
                Withheld(r[c], "≤" + fmt(r[c], "pct4")) if c == "se" and r.get("se_upper_bound")
                else r.get(c) for c, _, _ in cols] for r in rows],  # (≤: as simulate's <=)
              {"label": "event_words", "per_words": "per_words"})
    empty: dict[str, list[str]] = {}
    for i, r in enumerate(rows):
        if r is hands or r.get("left_out"):
            t.csv_rows.add(i)
        if r is not hands and r.get("left_out"):
            empty.setdefault(r["left_out"], []).append(r["label"])
    dealer = [r["label"] for r in rows if r["per"] == "completed_dealer_hand"]
    d = data["distribution"]
    m = d["main"]
    n = max(m["rounds"], 1)
    dist = Table("distribution", "The player's net result per round (main game + insurance)", [
        ("value", "player's net result, initial wagers", "num1"), ("count", "rounds", "int"),
        ("probability", "probability", "prob"), ("one_in", "1 round in", "odds")],
        [[v, c, c / n, _one_in(c / n)] for v, c in zip(m["values"], m["counts"], strict=True)])
    blocks = [
        "Counts from the simulation; rates in % with their binomial standard errors (SE). "
        "'per' is the denominator: a box-round (one initial wager), a hand (after splits), a "
        "round, an offer or a bet"
        + (f", or, for the dealer's rows ({dealer[0]} to {dealer[-1].split(' (')[0]}), a "
           "completed dealer "
           "hand (one for each round the dealer completed; those rows add up to 100%)"
           if dealer else "") + "."
        + (f" Hands played, after splits: {hands['count']:,} in {hands['n']:,} box-rounds, "
           f"{fmt(hands['rate'], 'num4')} a box-round (one and the splits' rate; the CSV keeps "
           "it as a row)." if hands else "")
        + (f" SE: {data['frequencies_note']}; the upper bounds are marked ≤."
           if data.get("frequencies_note") else "")
        + (f" SE: {data['splits_note']}." if data.get("splits_note") else "")
        + (f" SE: none ('-') for a count of 0 ({', '.join(zero)}): no event seen gives no "
           "interval, as every figure of the report without one." if zero and not few else "")
        + (f" SE: none ('-') where fewer than {MIN_WINS} events were seen, or, of a "
           f"proportion, fewer than {MIN_WINS} not ({', '.join(few)}): the normal "
           "approximation does not hold." if few else "")
        + (f" {sentence(data['dealer_note'])}." if data.get("dealer_note") else "")
        + (" Left out of the table, with nothing to count: " + "; ".join(
            f"{', '.join(labels)} ({why})" for why, labels in empty.items())
           + "; the CSV keeps them." if empty else ""),
        t,
        f"The distribution of the net result per round: {m['source']} Sample mean "
        f"{fmt(m['mean'], 'num4')} (SE {fmt(m.get('mean_se'), 'num4')}) and SD "
        f"{fmt(m['sd'], 'num4')}; the run's {fmt(m['run_mean'], 'num4')} (SE "
        f"{fmt(m.get('run_mean_se'), 'num4')}) and {fmt(m['run_sd'], 'num4')}, in initial "
        "wagers. Each mean's SE is its SD / sqrt(rounds), a round taken as one draw (an SD is "
        "shown without one, as in every table of the report)"
        + (f"; from fewer than {MIN_ROUNDS} rounds none ('-'), as the house edge has none there"
           if None in (m.get("mean_se"), m.get("run_mean_se")) else "") + ".", dist]
    if d.get("super_sevens"):
        blocks.append(f"Super Sevens per bet: from {d['super_sevens']['source']}.")
    blocks.append(_chart(data, "distribution", "Distribution of the net result per round "
                         "(sampled)" + (" and per Super Sevens bet (the run's tally)"
                                        if d.get("super_sevens") else "") + ", log scale."))
    return Section("frequencies", "Hit frequencies and the distribution of results", blocks)


def _gain_text(gain, se, kind: str) -> str:
    """A counter's gain with its SE and what kind of SE it is, or `NO_INTERVAL` without one."""
    if se is None:
        return f"{fmt(gain, 'spp3')} ({NO_INTERVAL})"
    return f"{fmt(gain, 'spp3')} (SE {fmt(se, 'pct3').removesuffix('%')} pp, {kind})"


def _strategy_shown(data: dict) -> str:
    """The strategy as the summary names it: the report's default under rules other than the
    NZ chart's, the basic strategy derived for them, says so."""
    note = data.get("strategy_note")
    if data.get("strategy_derived"):  # (its file: the manifest's strategies)
        return "the basic strategy derived for these rules (" + (
            note or "exact analyzer") + ")"
    return data["strategy"] + (f" ({note})" if note else "")


def _per_bet(rows: list[dict]) -> str:
    """What a bet is for each wager of the volatility table, in its order: ``per initial wager:
    main game and insurance; per unit staked: insurance, Super Sevens`` (a name kept capital)."""
    groups: dict[str, list[str]] = {}
    for r in rows:
        labels = groups.setdefault(r["per"], [])
        label = r["label"] if r["label"].startswith("Super") else r["label"][:1].lower() + \
            r["label"][1:]
        if label not in labels:
            labels.append(label)
    return "; ".join(f"per {per}: {', '.join(labels)}" for per, labels in groups.items())


def _vi_sd(r: dict) -> str:
    """The SD a wager's volatility index and range use, named as the wagers table names its SDs:
    with one box (or Super Sevens) the SD per bet; with several boxes the SD per round over the
    root of the bets in a round, which is not the wagers table's SD per bet (that takes the
    boxes' bets as independent)."""
    if r.get("sd_round") is None:
        return f"SD per bet {fmt(r['sd_range'], 'num4')}, {r['sd_source']}"
    per = r["bets_per_round"]
    if r["wager"] not in ("total", "main"):  # (insurance: from its SE, as the wagers table's)
        return (f"{fmt(r['sd_range'], 'num4')} a bet: the wagers table's SE x sqrt(bets), which "
                "counts the insurance bets of a round together, as the dealer's card settles "
                f"them together ({fmt(per, 'num3')} a round); not the wagers table's SD per bet, "
                f"{fmt(r['sd_bet'], 'num4')}, which takes them as independent")
    root = f"sqrt({per:g})" if float(per).is_integer() else f"sqrt({fmt(per, 'num3')})"
    return (f"{fmt(r['sd_range'], 'num4')} a bet: the {r['sd_source']} SD per round, "
            f"{fmt(r['sd_round'], 'num4')}, over {root}, the boxes in a round; not the wagers "
            f"table's SD per bet, {fmt(r['sd_bet'], 'num4')}, which takes them as independent")


def _boxes_text(rows: list[dict], sevens: bool) -> str:
    """The volatility table's word on several boxes: N bets counted in rounds (`figures.
    _volatility`); empty with one box."""
    boxes = max((r.get("boxes") or 1 for r in rows), default=1)
    if boxes <= 1:
        return ""
    sd = {r["wager"]: r for r in rows}.get("total") or rows[0]
    ins = any(r["wager"] == "insurance" and r.get("sd_round") for r in rows)
    return (f" With {boxes} boxes the bets of a round are not independent (the boxes share the "
            f"dealer's cards), so N bets are counted in rounds: N / {boxes} rounds for the main "
            f"game, and the range is house edge ± z x SD per round x sqrt(N / {boxes}) / N, "
            f"from the simulated SD per round of all {boxes} boxes summed"
            + (f" ({fmt(sd['sd_round'], 'num3')} initial wagers, against "
               f"{fmt(sd['sd_bet'], 'num3')} per bet)" if sd.get("sd_round") else "")
            + f"; so VI = z x SD per round / sqrt({boxes}), not z x SD per bet"
            + ("; for insurance, N bets are N / (insurance bets per round) rounds, its SD per "
               "round from its SE" if ins else "")
            + "." + (" Super Sevens' bets rest each on its own box's cards, all but independent "
                     "of the other boxes' (they share only the cards removed), so its range is "
                     "per bet as with one box." if sevens else ""))


def volatility(data: dict) -> Section:
    cols = [("wager", "wager", "text"), ("bets", "bets", "int"),
            ("house_edge", "house edge", "pct3"), ("expected_win", "expected casino win, units",
                                                   "num2")]
    for c in CONFIDENCES:
        p = round(100 * c)
        cols += [(f"low_{p}", f"{p}% low", "spct2"), (f"high_{p}", f"{p}% high", "spct2")]
    per = _per_bet(data["volatility"])
    shuffle = _rule(data, "shuffle")
    dealt = {"cut-card": ", to the cut card", "every-round": ", a fresh shoe every round"}.get(
        shuffle, "")
    boxes = max((r.get("boxes") or 1 for r in data["volatility"]), default=1)
    counted = "" if boxes <= 1 else f"; with {boxes} boxes, N bets = N / {boxes} rounds"
    t = Table("volatility", f"The casino's result per bet ({per}{counted})", cols,
              [[r["label"] if c == "wager" else r[c] for c, _, _ in cols]
               for r in data["volatility"]], row_keys=("wager", "bets"))  # (a wager a row each N)
    seen, vi = set(), []
    for r in data["volatility"]:
        if r["wager"] not in seen:
            seen.add(r["wager"])
            vi.append(f"{r['label']} ({_vi_sd(r)}): "
                      + ", ".join(f"{fmt(r[f'vi_{round(100 * c)}'], 'num3')} at "
                                  f"{round(100 * c)}%" for c in CONFIDENCES))
    ss = _has_sevens(data["volatility"])
    below = list(dict.fromkeys(r["label"] for r in data["volatility"] if r["house_edge"] < 0))
    few = next((r for r in data["volatility"] if r["wager"] == "insurance"
                and r.get("sd_few_bets") is not None), None)
    return Section("volatility", "Volatility: the casino's result over many bets", [
        f"Over N bets the casino's result per bet ({per}; doubles and splits put more than the "
        "initial wager at stake) lies between house edge - VI / sqrt(N) and house edge + "
        "VI / sqrt(N) with the stated confidence (normal approximation), VI = z x SD per bet "
        "being the volatility index." + _boxes_text(data["volatility"], ss)
        + _edge_source_text(data) + " SD: "
        f"simulated (the wagers table's SD per bet: the game as dealt{dealt}, where "
        "the exact SD beside it is for a full shoe every round with split rounds approximated)"
        + (", but exact for Super Sevens, whose simulated SD rests on "
           f"{big_pays_words(data.get('super_sevens_pays'))}" if ss else "")
        + (f"{', and' if ss else ', but exact'} for insurance"
           + (", which no strategy here simulates" if (_wager(data, "insurance") or {}).get(
               "exact_only") else f", whose simulated bets, {few['sd_few_bets']:,}, are too "
               "few for an interval, so too few for its SD" if few else "")
           + " (each bet wins its pays or loses 1, so its exact return gives its SD)"
           if any(r["wager"] == "insurance" and r["sd_source"] == "exact"
                  for r in data["volatility"]) else "")
        + (f", and exact for {_and(list(dict.fromkeys(r['label'] for r in data['volatility'] if r.get('sd_few_rounds'))))} "  # noqa: E501
           "too: from fewer than 30 rounds, with no SE, the simulated SD says too little"
           if any(r.get("sd_few_rounds") for r in data["volatility"]) else "")
        + "; the volatility index below names the SD each wager's range uses."
        + (" A negative house edge and expected casino win (" + ", ".join(below) + ") means "
           "the player has the edge on that wager: the casino loses on average, as the summary "
           "says." if below else "")
        + ((" Super Sevens' result is a handful of large pays, far from normal even over "
            "100,000 bets" if _top_pay(data) >= 1000 else
            f" Super Sevens' result rests on its largest pays, up to {_top_pay(data):g} to 1")
           + f" ({_normal_reach(data['volatility'])}): its low and high are the "
           "central range of 400,000 "
           "sets of N bets drawn from its exact line chances (seed 1994; each tail's chance "
           "within about 0.07 percentage points at 95%), and its VI only for comparison with "
           "other games' volatility indexes." if ss else ""),
        t, "Volatility index: " + "; ".join(vi) + "."])


def _edge_source_text(data: dict) -> str:
    """The volatility note's word on the house edge its rows are centred on and its expected
    casino win is of (`figures._edge_of`): the main game's simulated one, the game as dealt to
    the cut card, where the run measured it more closely than the cut-card effect, else the
    exact one, a full shoe every round, saying why (with several boxes where bjsim has not
    measured the effect, one box's is the yardstick, and said to be)."""
    rows = data["volatility"]
    main = next((r for r in rows if r["wager"] in ("total", "main")), None)
    if main is None or "edge_source" not in main:
        return " House edge: exact."
    shuffle = _rule(data, "shuffle")
    tot = _wager(data, "total") if data.get("wagers") else None
    sim = ("" if tot is None or tot.get("ci95_high") is None else
           f" ({fmt(-tot['simulated'], 'pct4')} ± "
           f"{fmt(tot['ci95_high'] - tot['simulated'], 'pct4')}, the summary's)")
    decks = int(_rule(data, "decks", 6))
    boxes = int(_rule(data, "boxes", 1))
    measured = table_measured(decks, boxes)  # (the size alone: any penetration)
    size = f"about +{100 * cut_card_effect(decks, boxes):.3f} pp with {decks} " + (
        "deck" if decks == 1 else "decks") + (
        "" if boxes == 1 else f" for a table of {boxes} boxes, as bjsim measured it" if measured
        else f" for one box, as bjsim measured it; not measured for {boxes} boxes")
    pen = _rule(data, "penetration")
    if pen is not None and not effect_measured(float(pen)):  # (a statistician's review)
        size = (f"not measured at {100 * float(pen):g}% penetration; at "
                f"{100 * MEASURED_PENETRATION:g}%, {size}")
    said = " House edge, and the expected casino win (N x house edge): "
    if main["edge_source"] == "simulated":
        return (f"{said}for the main game the simulated one, of the game as dealt to the cut "
                f"card{sim}, as this run measures it more closely than the cut-card effect "
                f"({size}); exact for the other wagers.")
    if shuffle != "cut-card":
        return f"{said}exact, a full shoe every round, as this table is dealt."
    if boxes > 1 and not measured:  # (not measured for these boxes: one box's the yardstick)
        return (f"{said}exact, a full shoe every round. The game as dealt to the cut card "
                f"differs from it by the cut-card effect ({size}); its simulated house "
                f"edge{sim} would be used for the main game, but this run measures it less "
                "closely than one box's effect, so the exact one is used here.")
    return (f"{said}exact, a full shoe every round. The game as dealt to the cut card runs "
            f"higher by the cut-card effect ({size}); its simulated house edge{sim} would be "
            "used for the main game, but this run measures it less closely than that effect, "
            "so the exact one is the nearer figure here.")


def _top_pay(data: dict) -> float:
    """The largest Super Sevens pay of the report's pay table that can be dealt and made (5000,
    the NZ table's, without one): one deck deals no (e), never-bust makes no (d) or (e)."""
    return max((r["pays"] for r in data.get("super_sevens_pays") or ()
                if r.get("probability", 1) > 0), default=5000)


def _normal_reach(rows: list[dict]) -> str:
    """How far this table's normal 95% range of Super Sevens over the fewest bets would reach
    (its own figure, not the NZ game's), and that it is more than the casino can win."""
    r = min((r for r in rows if r["wager"] == "super_sevens" and r.get("normal_high_95")
             is not None), key=lambda r: r["bets"], default=None)
    if r is None:
        return "a normal range would not hold"
    return (f"here a normal 95% range over {r['bets']:,} bets would reach "
            f"{100 * r['normal_high_95']:+.0f}%"
            + (", more than the casino can win" if r["normal_high_95"] > 1 else ""))


def sevens(data: dict) -> Section | None:
    s = data["sevens"]
    if not s:
        return None
    bets = s["side_bets"]
    own = f"{s['bet']:g}"  # this table's own side bet (super_sevens_bet), one of ``bets``
    cols = [("label", "label", CSV_ONLY), ("plays", "plays", CSV_ONLY),
            ("shown", "7-7 played", "text"),
            ("super_sevens_house_edge", "Super Sevens house edge (exact)", "pct3"),
            ("simulated", "simulated", "pct3"), ("se", "SE", "pct3"),
            ("simulated_by", "simulated with", "text"),
            ("main_house_edge_change", "main game: house edge change per initial wager, pp",
             "spp3")]
    cols += [(f"combined_{b}", f"main game + side bet {b}"
              + (" (this table's)" if b == own else "") + ": house edge change, pp", "spp3")
             for b in bets]
    shown, same = _sevens_shown(s["rows"])
    rows = []
    for r, words in zip(s["rows"], shown, strict=True):
        comb = r["combined_house_edge_change"] or {}
        rows.append([r["label"], r["plays"], words] + [r[c] for c, _, _ in cols[3:8]]
                    + [comb.get(b) for b in bets])
    t = Table("sevens_plays", "Super Sevens house edge under each 7-7 play (rule 14.4)", cols,
              rows, {"simulated": "simulated_house_edge", "shown": "played"}
              | {f"combined_{b}": f"combined_house_edge_change_{b}" for b in bets}, set(same))
    return Section("sevens", "Super Sevens and the 7-7 play", [
        "With a Super Sevens bet up, the Super Sevens house edge depends on how 7-7 is played. "
        "The changes are in the house edge, in percentage points (pp), against the strategy's "
        "own 7-7 play: + means the player loses more, as the cost in the player's choices "
        "below. They are per "
        + ("round" if int(_rule(data, "boxes", 1)) == 1 else
           "box-round (each box's, not the table's round)") + ", as a "
        "share of the main wager: the main game's alone, and with a side bet of "
        f"{', '.join(bets[:-1])} or {bets[-1]} times the main wager, the main game's change + "
        f"side bet x the Super Sevens change. This table's Super Sevens bet is {own} times the "
        "main wager. Split: a 7 dealt to a split 7 is split again as "
        "the rules allow. A simulated figure is shown where one of the report's strategies "
        "plays 7-7 that way." + (" A play that is another row's too is given once, its row "
                                 "naming both (the CSV keeps a row for each)." if same else ""),
        t, s["why"]])


def _sevens_shown(rows: list[dict]) -> tuple[list[str], list[int]]:
    """The 7-7 table's words for each row, a name and, where it says more, what it plays (``the
    strategy's own 7-7 play: split v 2-7, hit v 8-A``), and the rows whose play is an earlier
    row's (left out of the HTML, PDF and Markdown; the earlier row names both: ``hit every 7-7;
    also the best play with this table's side bet (1 x the main wager)``)."""
    words, same, first = [], [], {}
    for i, r in enumerate(rows):
        w = r["label"] if r["plays"] == r["label"] else (
            f"{r['label']} ({r['plays']})" if r.get("convention") else
            f"{r['label']}: {r['plays']}")
        words.append(w)
        if r.get("convention"):
            continue
        if r["plays"] in first:
            j = first[r["plays"]]
            if r["label"] not in words[j]:
                words[j] += f"; also {r['label']}"
            same.append(i)
        else:
            first[r["plays"]] = i
    return words, same


def choices(data: dict) -> Section:
    ss = any(r.get("ss_exact") is not None for r in data["choices"])  # (exact: every strategy)
    cols = [("strategy", "strategy", "text"), ("exact", "house edge (exact)", "pct3"),
            ("simulated", "simulated", "pct3"), ("se", "SE", "pct3"),
            ("ci95_low", "95% CI low", "pct3"), ("ci95_high", "95% CI high", "pct3"),
            ("z", _z_column(data["choices"], "z (of the house edge)"), "z"),
            ("cost", f"cost against {data['strategy']}: house edge change, pp", "spp3")]
    if ss:
        cols += [("ss_exact", "Super Sevens (exact)", "pct3"),
                 ("ss_simulated", "Super Sevens (simulated)", "pct3"),
                 ("ss_se", "Super Sevens SE", "pct3"),  # (each header says whose: a screen
                 ("ss_ci95_low", "Super Sevens 95% CI low", "pct3"),  # reader gives it alone)
                 ("ss_ci95_high", "Super Sevens 95% CI high", "pct3")]
    cols.append(("description", "what it does", "text"))
    also = _same_play_names(data["choices"])
    t = Table("player_choices", "The player's choices: house edge by strategy", cols,
              [[Withheld(r[c], also[r[c]]) if c == "strategy" and r[c] in also else r.get(c)
                for c, _, _ in cols] for r in data["choices"]],
              {"exact": "exact_house_edge", "simulated": "simulated_house_edge",
               "ss_exact": "ss_exact_house_edge", "ss_simulated": "ss_simulated_house_edge",
               "z": "z_house_edge"},
              {i for i, r in enumerate(data["choices"]) if r.get("same_play_as")},
              breaks=("ss_exact",))  # (Super Sevens apart: 14 columns, wider than the page)
    distinct = [r for r in data["choices"] if not r.get("same_play_as")]
    withheld = _withheld_by_note(distinct)
    n_z = sum(r.get("z") is not None for r in distinct)
    many = ([f"Of {n_z} z-scores, about one in 20 is above 1.96 in size by chance alone with "
             f"nothing wrong ({n_z / 20:g} expected here); the strategies share the seed, so "
             "their z-scores tend to move together, and several can be large at once."]
            if n_z > 1 else [])
    return Section("choices", "The effect of the player's choices", [
        "Each strategy plays the same number of rounds with the same seed; each simulated house "
        "edge, the main game's (with insurance, per initial wager)"
        + (" and Super Sevens' (per unit staked)" if ss else "")
        + ", with its standard error and 95% confidence interval"
        + (" (Super Sevens' by the strategy's exact SD per bet, as the wagers table says)"
           if ss else "") + ". Cost: how much the exact "
        "house edge rises against the report's strategy, in percentage points (pp; + the "
        "player loses more)."
        + (" The 7-7 question is in the section above." if ss else "")
        + (f" {data['choices_note']}" if data["choices_note"] else "")
        + _same_play_text(data["choices"]), t,
        *_z_notes(distinct, "strategy",
                  tuple(w["z_caveat"] for w in data.get("wagers", [])
                        if w.get("z_caveat"))), *many]
        + ([f"Super Sevens simulated with no SE or interval ('-'): {withheld}."]
           if withheld else []))


def _same_play_names(rows: list[dict]) -> dict[str, str]:
    """{strategy: its name with those of the later choices that play every hand as it does
    under these rules (`figures.plays_alike`), ``basic (also basic-super-sevens)``}: the table
    gives their figures, the same, once."""
    also: dict[str, list[str]] = {}
    for r in rows:
        if r.get("same_play_as"):
            also.setdefault(r["same_play_as"], []).append(r["strategy"])
    return {k: f"{k} (also {', '.join(v)})" for k, v in also.items()}


def _same_play_text(rows: list[dict]) -> str:
    """The choices' word on strategies that play alike under these rules, given once."""
    twins = [r for r in rows if r.get("same_play_as")]
    if not twins:
        return ""
    return " " + " ".join(
        f"{r['strategy']} plays every hand as {r['same_play_as']} does under these rules "
        "(where they differ, no round of this game reaches), so the same seed gives it the same "
        "figures: one row names both (the CSV keeps a row for each)." for r in twins)


def _withheld_by_note(rows: list[dict]) -> str:
    """Why each choice's simulated Super Sevens has no interval, each reason said once with the
    strategies it holds for: ``too few rounds for a meaningful interval: basic, insurance-taker
    (about 6.1 wins of line (e) ...); basic-super-sevens (about 11.3 wins ...)``; "" for none."""
    by_note: dict[str, list[str]] = {}
    for r in rows:
        if r.get("ss_interval_note") not in (None, NO_SUPER_SEVENS):  # (no bet: nothing to say)
            by_note.setdefault(r["ss_interval_note"], []).append(r["strategy"])
    heads: dict[str, list[str]] = {}
    for note, names in by_note.items():
        head, _, rest = note.partition(": ")
        heads.setdefault(head if rest else "", []).append(
            f"{', '.join(names)} ({rest or note})")
    return "; ".join((f"{head}: " if head else "") + "; ".join(parts)
                     for head, parts in heads.items())


def variants(data: dict) -> Section:
    v = data["variants"]
    if not v["available"]:
        return Section("variants", "Rule variants", [f"{sentence(v['reason'])}."])
    cols = [("variant", "variant", "text"), ("changes", "changes", "text"),
            ("gazette", "Gazette", "text"),
            ("house_edge", "house edge", "pct3"), ("house_edge_half_width", "95% ±", "pct3"),
            ("exact_house_edge", "house edge (exact)", "pct3"),
            ("difference", "house edge difference, pp", "spp3"),
            ("ci95_low", "95% CI low, pp", "spp3"), ("ci95_high", "95% CI high, pp", "spp3"),
            ("variance_reduction", "variance reduction (times)", "num1"),
            ("exact", "exact house edge difference, pp", "spp3"),
            ("exact_scope", "exact scope", "text"), ("z", "z (of the house edge)", "z"),
            ("strategy", "strategy", "text")]
    every = [v["baseline"], *v["rows"]]
    names, twins = same_game_names(every)
    t = Table("rule_variants", "The effect of each rule variant on the house edge (the first "
              "row: the comparison's own run of the rule set)", cols,
              [[_variant_cell(r, c, names) for c, _, _ in cols] for r in every],
              # (as compare's csv names them: ci95_* there is of the house edge itself)
              {"exact": "exact_difference", "ci95_low": "difference_ci95_low",
               "ci95_high": "difference_ci95_high", "z": "z_house_edge"},
              {i for i, r in enumerate(every) if r["variant"] in twins},
              breaks=("difference",))  # (the games, then the differences: 13 columns)
    blocks = [v["note"] + _twins_text(twins) + _no_effect_text(v["rows"]) + GAZETTE_COLUMN, t,
              _chart(
        data, "rule_effects", "Change in house edge of each variant, with its 95% interval "
        "(paired with this rule set) and the exact change."
        + _cut_card_text([r for r in v["rows"] if r["variant"] not in twins], names)
        + _in_table_text(v["rows"], (data.get("against_nz") or {}).get("difference"))
        + "".join(f" {r['variant']}: no effect under these rules, so at 0." for r in v["rows"]
                  if r.get("no_effect") and r["variant"] not in twins))]
    games = _variant_ss_games(v)
    if games:
        scols = [("variant", "variant", "text"), ("changes", "changes", "text"),
                 ("ss_house_edge", "Super Sevens house edge", "pct3"),
                 ("ss_half_width", "95% ±", "pct3"),
                 ("ss_half_width_simulated_sd", "95% ± by the simulated SD (bjsim compare's)",
                  CSV_ONLY),
                 ("ss_exact_sd", "SD per bet (exact)", CSV_ONLY),
                 ("ss_exact_house_edge", "Super Sevens house edge (exact)", "pct3"),
                 ("ss_difference", "Super Sevens house edge difference, pp", "spp3"),
                 ("ss_ci95_low", "95% CI low, pp", "spp3"),
                 ("ss_ci95_high", "95% CI high, pp", "spp3"),
                 ("ss_exact", "exact Super Sevens house edge difference, pp", "spp3"),
                 ("ss_exact_scope", "exact scope", "text"),
                 ("ss_z", "z (of the house edge)", "z"),
                 ("ss_interval_note", "why no interval", CSV_ONLY)]
        hidden = [r["variant"] for r in games if _ss_difference_withheld(r)
                  and r["variant"] not in twins]
        ss_table = Table(
            "rule_variants_super_sevens", "The effect of each rule variant on the Super Sevens "
            "house edge", scols,
            [[Withheld(r[c]) if c == "ss_difference" and _ss_difference_withheld(r)
              else _variant_cell(r, c, names) for c, _, _ in scols] for r in games],
            {"ss_exact": "ss_exact_difference", "ss_ci95_low": "ss_difference_ci95_low",
             "ss_ci95_high": "ss_difference_ci95_high", "ss_z": "ss_z_house_edge"},
            {i for i, r in enumerate(games) if r["variant"] in twins})
        no_interval = "no interval: too few wins of the rare big lines, as said above"
        empty = _left_out(ss_table, "in every row", why={
            "ss_half_width": no_interval, "ss_difference": "not shown without its interval, as "
            "said above", "ss_ci95_low": no_interval, "ss_ci95_high": no_interval,
            "ss_z": no_interval})
        blocks += [
            "Super Sevens (rule 14), per unit staked, in each game whose Super Sevens can "
            f"differ from this rule set's ({SS_CHANGES}), as bjsim compare shows them: "
            "the simulated house edge, the exact one (the strategy's 7-7 play, a full shoe "
            "every round) and the difference from this rule set, paired as above. "
            + _variant_ss_interval_words(games) + " "
            + _ss_withheld_text(games, twins)
            + (f" The simulated difference of {', '.join(hidden)} rests on such a figure (its "
               "own or this rule set's) or on too few paired blocks, so it has no interval and "
               "is not shown either ('-'): from a handful of big pays it can lie far from the "
               "exact difference, even opposite in sign. The exact difference stands; "
               "the CSV file of the table and report.json keep the simulated one with why it "
               "has no interval." if hidden else "") + empty,
            ss_table]
    return Section("variants", "Rule variants", blocks)


def _ss_withheld_text(games: list[dict], twins: set[str]) -> str:
    """How many of the rule-variant Super Sevens table's simulated figures have no interval, out
    of the rows the table shows: a game given twice (``twins``, `same_game_names`) is one row,
    so counted once, as the main table's note counts it."""
    shown = [r for r in games if r["variant"] not in twins]
    withheld = sum(r["ss_half_width"] is None for r in shown)
    if not withheld:
        return ""
    return (f"{withheld} of the {len(shown)} simulated figures have no interval ('-')"
            + (", a game given twice counted once" if len(shown) < len(games) else "")
            + ": their runs hold too few wins of the rare big lines for a standard error to "
            "mean much (docs/compare.md); the exact figures stand.")


def _variant_ss_games(v: dict | None) -> list[dict]:
    """The rows of the rule-variant Super Sevens table (the baseline and each game whose Super
    Sevens can differ from it), or [] where the report shows no such table."""
    if not v or not v.get("available"):
        return []
    games = [r for r in [v["baseline"], *v["rows"]]
             if r.get("ss_house_edge") is not None and r.get("ss_touched", True)]
    return games if len(games) > 1 else []


def _variant_ss_interval_words(games: list[dict]) -> str:
    """The rule-variant Super Sevens table's word on which SD each game's 95% ± is by (the
    game's exact SD per bet, as the wagers table's; the simulated one only where no exact SD is
    known: ``ss_sd_source``), and that a difference's interval is the paired blocks'."""
    simulated = [r["variant"] for r in games if r.get("ss_sd_source") == "simulated"]
    exact = any(r.get("ss_sd_source") == "exact" for r in games)
    words = []
    if exact:
        words.append("Each game's 95% ± is by its exact SD per bet (its own rules and 7-7 "
                     "play), as the wagers table's Super Sevens interval. bjsim compare's, by "
                     "the simulated SD, is kept in the CSV file of the table.")
    if simulated:
        words.append(f"The 95% ± of {', '.join(simulated)} is by the simulated SD, as bjsim "
                     "compare gives it: no exact SD is known for "
                     + ("its" if len(simulated) == 1 else "their") + " rules.")
    words.append("Each difference's interval is by the spread of the paired blocks, as bjsim "
                 "compare gives it, and so its z (of the house edge: the simulated difference "
                 "less the exact one, over its SE)."
                 + (" Exact scope cut-card: the exact difference is of a full shoe every round, "
                    "the simulated one holds the cut card's effect on Super Sevens too, which "
                    "bjsim has not measured, so a z there is of both."
                    if any(r.get("ss_exact_scope") == "cut-card" for r in games) else ""))
    return " ".join(words)


def same_game_names(rows: list[dict]) -> tuple[dict[str, str], set[str]]:
    """The variant rows that play an earlier variant's game (compare's ``same_game_as``, as
    super-sevens-8-decks is decks-8 where Super Sevens is on already): ({first: its name
    with theirs, ``decks-8 (also super-sevens-8-decks)``}, {the later ones}), so that the
    tables and the chart give the game once (the CSV keeps each row)."""
    labels = {r["variant"] for r in rows if r.get("changes") != "(baseline)"
              and not r.get("in_rule_set")}  # (a game the baseline's: its own row, marked)
    also: dict[str, list[str]] = {}
    for r in rows:
        if r.get("same_game_as") in labels and r["variant"] != r["same_game_as"]:
            also.setdefault(r["same_game_as"], []).append(r["variant"])
    return ({k: f"{k} (also {', '.join(v)})" for k, v in also.items()},
            {x for v in also.values() for x in v})


def _variant_cell(row: dict, key: str, names: dict[str, str]):
    """A variant table's cell: the variant's name with those of the later variants that play its
    game (`same_game_names`; the CSV keeps its own name), else the row's value."""
    if key == "variant" and row["variant"] in names:
        return Withheld(row["variant"], names[row["variant"]])
    return row.get(key)


def _no_effect_text(rows: list[dict]) -> str:
    """The variant note's word on the variants that change nothing under these rules
    (`figures._no_effect_here`): their 0 is the rules', not a measured effect."""
    by_why: dict[str, list[str]] = {}
    for r in rows:
        if r.get("no_effect"):
            by_why.setdefault(r["no_effect"], []).append(r["variant"])
    return "".join(
        f" {', '.join(names)}: no effect under these rules ({why}), so "
        + ("its difference is 0 by the rules, not a rule measured to cost nothing."
           if len(names) == 1 else
           "their differences are 0 by the rules, not rules measured to cost nothing.")
        for why, names in by_why.items())


def _twins_text(twins: set[str]) -> str:
    """The variant note's word on the games given twice, each shown once."""
    if not twins:
        return ""
    return (f" {', '.join(sorted(twins))} {'plays' if len(twins) == 1 else 'play'} the same game "
            "as an earlier variant here: one row names both (the CSV keeps a row for each).")


def _cut_card_text(rows: list[dict], names: dict | None = None) -> str:
    """The rule-effects caption's word on the exact changes of scope cut-card, drawn apart (as
    bjsim compare --plot draws them), or "" where there is none; ``names``: the variants as the
    chart names them (`same_game_names`)."""
    cut = [(names or {}).get(r["variant"], r["variant"]) for r in rows
           if r.get("exact_scope") == "cut-card" and r.get("exact") is not None]
    if not cut:
        return ""
    return (f" The exact change of {', '.join(cut)} (exact scope cut-card) is drawn apart, as "
            "a three-pronged mark, not a diamond: it is for a full shoe every round, while the "
            "simulated change also holds the change of the cut-card effect.")


def _in_table_text(rows: list[dict], cost) -> str:
    """The rule-effects caption's word on the variants the rule set already plays (marked "in
    this table" at 0), and which of them are its departures from the NZ game (``cost``: what
    those cost together, exact, which the summary gives; None: no exact figure)."""
    kept = [r["variant"] for r in rows if r.get("in_rule_set")]
    if not kept:
        return ""
    nz = [r["variant"] for r in rows if r.get("nz_departure")]
    one = len(kept) == 1
    return (f" Marked '(in this table)': {', '.join(kept)}, "
            + ("a rule this table already has, so it changes nothing here and is drawn at 0"
               if one else "rules this table already has, so they change nothing here and are "
               "drawn at 0")
            + (f"; {', '.join(nz)} {'is' if len(nz) == 1 else 'are'} among its departures "
               "from the NZ game" + (f", which {_cost_words(cost)} (exact: the summary)"
                                     if cost is not None else "")
               if nz else "")
            + ".")


def _ss_difference_withheld(row: dict) -> bool:
    """Is a variant's Super Sevens difference without the interval it needs (withheld, as
    bjsim compare withholds it: too few big-line wins, or too few paired blocks)?"""
    return row.get("ss_difference") is not None and row.get("ss_ci95_low") is None


ADVANTAGE_NAMES = dict(ADVANTAGE_LABELS)


def counting(data: dict) -> Section | None:
    """The card counter's figures (``bjsim count``), the tables by count and the penetration
    sweep."""
    c = data.get("counting")
    if not c:
        return None
    f = c["figures"]
    p, kind = f["plan"], f["count_kind"]
    adv = f["advantage"]
    ruin_given = f["per_round_played"].get("risk_of_ruin") is not None  # (a bankroll given)
    labels = (("initial_bet", "per unit of initial main bet (main + insurance result)"),
              ("initial_bet_with_super_sevens", "per unit of initial main bet and Super Sevens "
               "bet (main, insurance and Super Sevens result)"),
              ("total_bet", ADVANTAGE_NAMES["total_bet"]),
              ("total_bet_with_super_sevens", "per unit wagered on the main game and Super "
               "Sevens bet (main game, insurance and Super Sevens result)"))
    cols = [("advantage", "advantage", "text"), ("mean", "mean (+: the player's gain)", "spct3"),
            ("se", "SE", "pct3"),
            ("ci95_low", "95% CI low", "spct3"), ("ci95_high", "95% CI high", "spct3")]
    rows = [[label] + [adv[k][c] for c, _, _ in cols[1:]] for k, label in labels]
    if f.get("insures") is not False:  # (part of the first row's result; not in the third's)
        ins = "insurance_per_initial_bet"
        rows.append(["insurance result per unit of initial main bet (in the first row)"]
                    + [f[ins + s] for s in ("", "_se", "_ci95_low", "_ci95_high")])
    rows.append(["flat 1 unit on every box dealt (the counter's play)"]
                + [f["flat"][c] for c, _, _ in cols[1:]])
    if f.get("basic") is not None:
        rows.append(["the strategy alone, flat 1 unit (control run)"]
                    + [f["basic"][c] for c, _, _ in cols[1:]])
    about = p["description"].rstrip(".")  # (none in a plan file without one: the name alone)
    blocks = [
        f"Plan {p['name']}{f': {about}' if about else ''}. "
        f"{sentence(plan_words(p, kind))}; "
        "main bet "
        f"{_ramp_text(p['bet'])}; Super Sevens {_ramp_text(p['super_sevens'])}"
        + (f"; wonging out below {p['wong']['leave']:g}, in at {p['wong']['enter']:g}"
           if p["wong"] else "")
        + (f". Strategy {c['strategy']} (the plan's own; the rest of this report: "
           f"{data['strategy']})" if c.get("strategy") else
           f". Strategy {data['strategy']} (the report's --strategy, in place of the plan's own "
           f"{c['plan_strategy']})" if c.get("plan_strategy") else
           f". Strategy {data['strategy']}")
        + f" where no index play applies. {f['rounds']:,} rounds dealt, "
        f"{f['rounds_played']:,} played (the same seed as the main run)"
        + _average_bet_text(f) + "." + _chunk_se_text(f) + ROUNDS_SE + " Advantage: the "
        "counter's net per unit bet; flat: every box dealt at one unit, played as the counter "
        "plays (index plays included); the control run: the strategy alone at a flat bet, the "
        "same seed. Gain over the control run: "
        + (gain_none(f, "basic") or _gain_text(
            f.get("gain_over_basic"), f.get("gain_over_basic_se"),
            "paired: no index plays and fixed boxes, so the same rounds as the flat figure and "
            "the same gain as over flat betting" if f.get("gain_over_basic_se_kind") == AS_FLAT
            else "the two runs taken as independent"))
        + "; over flat betting: "
        + (gain_none(f, "flat") or _gain_text(f["gain_over_flat"], f.get("gain_over_flat_se"),
                                              "paired, the same rounds")) + "."
        + (f" Note: {c['indices_note']}." if c.get("indices_note") else "")
        + "".join(f" Warning (as bjsim count gives it): {w}." for w in c.get("warnings") or ())
        + (f" Note: {f['no_play_note']}." if f.get("no_play_note") else "")
        + (f" Note: {refill_words(f['shoe'])}." if (f.get("shoe") or {}).get("refills") else "")
        + (f" The flat advantage's SE is {f['flat']['interval_note']}."
           if f["flat"].get("interval_note") else "")
        + (" The insurance result has no SE or interval: "
           f"{f['insurance_per_initial_bet_interval_note']}." if f.get("insures") is not False
           and f.get("insurance_per_initial_bet_interval_note") else "")
        + "".join(" " + x for x in [whole_se_line(f)] if x)
        + " SCORE (10^6 (m / s)^2, m and s the mean and SD of a round's net: the win per 100 "
        "rounds of the plan's bets scaled to a 10,000-unit bankroll as Kelly betting scales "
        "them) and N0 ((s / m)^2: the rounds until the expected win is one SD of the result) "
        "are as bjsim count gives them (docs/counting.md)."
        + " The SE of the win per 100 rounds is from the mean's; "
        + _and(["SCORE", "N0"] + (["the risk of ruin"] if ruin_given and not f[
            "per_round_played"].get("risk_of_ruin_interval_note") else []))  # (else: why not)
        + (" have" if not f["per_round_played"].get("interval_note") else " would have")
        + " 95% intervals, the mean's carried through each, as bjsim count gives them (N0: no "
        "bound where the mean's interval reaches no edge)."
        + (" The advantages with Super Sevens have no figures: "
           f"{NO_SS_BET}." if adv["initial_bet_with_super_sevens"].get("interval_note")
           == NO_SS_BET else " With Super Sevens the advantages have no SE or interval: "
           f"{adv['initial_bet_with_super_sevens']['interval_note']}."
           if adv["initial_bet_with_super_sevens"].get("interval_note") else "")
        + (" The net per round has no SE, and "
           + _and(["the win per 100 rounds", "SCORE", "N0"]
                  + (["the risk of ruin"] if ruin_given else []))
           + f" no interval: {f['per_round_played']['interval_note']}."
           if f["per_round_played"].get("interval_note") else "")
        + (" The intervals of SCORE and N0 are "
           f"{f['per_round_played']['score_n0_ruin_note']}."
           if f["per_round_played"].get("score_n0_ruin_note") else "")
        + (f" SCORE and N0: {NOT_APPLICABLE}, {NO_EDGE}."
           if f["per_round_played"].get("no_edge_note") else "")
        + (f" The risk of ruin is {f['per_round_played']['risk_of_ruin_note']}."
           if f["per_round_played"].get("risk_of_ruin_note") else "")
        + "".join(" " + x for x in score_note_lines([f["per_round_played"]]))
        + "".join(" " + x for x in ruin_method_lines([f["per_round_played"]]))
        + (" The risk of ruin has no SE or interval: "
           f"{f['per_round_played']['risk_of_ruin_interval_note']}."
           if f["per_round_played"].get("risk_of_ruin_interval_note") else "")
        + " Method: docs/counting.md.",
        Table("counting_advantage", "The counter's advantage", cols, rows)]
    rcols = [("per", "per", "text"), ("rounds", "rounds", "int"), ("mean", "mean, units", "num4"),
             ("se", "SE, units", "num4"), ("sd", "SD, units", "num3"),
             ("win_per_100", "win per 100 rounds", "num2"),
             ("win_per_100_se", "win per 100 rounds SE", "num2"),
             *_with_ci95("score", "SCORE", "num1"), *_with_ci95("n0", "N0", "int"),
             *_with_ci95("risk_of_ruin", "risk of ruin"
                         + (f" ({fmt(f['bankroll'], 'num0')} units)" if f["bankroll"] else ""),
                         "ruin", "risk of ruin")]
    blocks.append(Table("counting_per_round", "The counter's net per round", rcols, [
        [label] + [_no_bound(f[key], k) for k, _, _ in rcols[1:]]
        for key, label in (("per_round_played", "round played"),
                           ("per_round_watched", "round watched"))]))
    h = f.get("per_hour")
    if h is not None:  # (--rounds-per-hour: a table, its csv too, as the net per round's)
        wk = f"num{hour_digits(h['win_se'])}"  # (to the SE's two figures: 1 round an hour)
        hcols = [("rounds_per_hour", "rounds an hour", "int"), ("win", "win, units", wk),
                 ("win_se", "win SE, units", wk), ("win_ci95_low", "win 95% low", wk),
                 ("win_ci95_high", "win 95% high", wk),
                 ("sd", "SD, units", "num2"),
                 *_with_ci95("n0_hours", "N0 in hours", "num1")]
        blocks += [f"The counter an hour at {hour_words(h['rounds_per_hour'])}: "
                   f"{PER_HOUR_WORDS}."
                   + (f" No SE or interval: {h['interval_note']}." if h["interval_note"] else "")
                   + (f" N0: {NOT_APPLICABLE}, {NO_EDGE}." if h["no_edge_note"] else ""),
                   Table("counting_per_hour", "The counter's win an hour", hcols,
                         [[_no_bound(h, k) for k, _, _ in hcols]])]
    bcols = [("label", kind, "text"), ("rounds", "rounds", "int"),
             ("frequency", "frequency", "freq"), ("played_share", "played", "pct1"),
             ("flat_advantage", "player's flat advantage", "spct2"),
             ("flat_se", "flat advantage SE", "pct2"),
             ("average_bet", "counter's average bet", "num2"),
             ("boxes_per_round_played", "counter's boxes per round played",
              "num2" if boxes_vary(f) else CSV_ONLY),
             ("boxes_per_round_played_se", "counter's boxes per round played SE",
              "se:prob3" if boxes_vary(f) else CSV_ONLY),  # (never 0.000 for some)
             ("counter_advantage", "counter's advantage", "spct2"),
             ("counter_se", "counter's advantage SE", "pct2")]
    blocks += [f"By the {kind} at the round's start ({floored_words(kind)}each SE the main "
               "game's, from the "
               "rounds' sums: a round's boxes share the "
               f"dealer's cards). {sentence(NO_SE)}."
               + (" The counter's average bet: the initial bets of a round played, all its "
                  "boxes together, over the boxes per round played beside it (the plan's "
                  "[boxes] changes them with the count). The boxes' SE: "
                  f"{CHUNK_SE_WORDS}, none from fewer than {MIN_SAMPLE} rounds played at a "
                  "count." if boxes_vary(f) else "")
               + (f" {sentence(merged_text('rounds'))}." if merged_tails(f["by_count"]) else ""),
               Table("counting_by_count", f"Frequency and the player's advantage by {kind}",
                     bcols,
                     [[b[k] for k, _, _ in bcols] for b in f["by_count"]])]
    ss = f["super_sevens"]
    if f["super_sevens_by_count"]:
        out = _ss_columns_out(f)
        scols = [(k, label, CSV_ONLY if k in out else kind) for k, label, kind in (
            ("label", kind, "text"), ("bets", "bets", "int"),
            # (its SE withheld at every count: said in the column, not only in the text above
            # it, so that a count's return from a few dozen bets is not quoted as a finding)
            ("return", "simulated return to the player" + (
                " (no SE at any count: too few bets, see above)" if "se" in out else ""),
             "spct2"),
            ("se", "SE (sample)", "pct2"), ("exact", "exact return to the player", "spct2"),
            ("exact_se", "SE (exact SD)", "pct2"),
            ("z_house_edge", "z (of the house edge)", "z"),
            ("favourable_share", "rounds favourable", "pct1"),
            ("counter_bets", "counter's units staked", "int"))]
        where = ("with a shuffle every round" if f["rules"].get("shuffle") == "every-round"
                 else f"at penetration {f['rules']['penetration']:g}")
        overall = (f"overall return per unit staked: simulated {fmt(ss['flat']['mean'], 'spct3')}"
                   f"{ss_spread(ss)}")
        blocks += [
            f"Super Sevens by {kind}: the simulated return of every Super Sevens bet dealt at "
            "that count"
            + (f"; {overall}. No exact return is set beside it: {ss['why_not']}."
               if ss["why_not"] else
               (f", beside the exact return of {ss['exact_play']}, from the cards and sevens "
                "left at each round's start" if ss.get("by_count_exact") else
                f"; the exact return of {ss['exact_play']}, from the cards and sevens left at "
                "each round's start, is given for every count together, not at each (below)")
               + " (the sevens' suits and the other cards taken as any of the shoe's). By that "
               "exact return the bet favoured the player in "
               f"{fmt(ss['favourable_share'], 'pct2')}"
               + (" (no SE, as said above)" if f.get("chunk_se_note") else
                  "" if not ss.get("favourable_share_se") else
                  f" (SE {fmt(ss['favourable_share_se'], 'pct2')}, by batch means over the "
                  f"run's {f['chunks']:,} chunks: rounds of a shoe are correlated)")
               + f" of rounds {where}; {overall}, exact "
               f"(mean over the rounds' starting shoes) {fmt(ss['exact'], 'spct3')}, "
               f"{_z_text(ss['z_house_edge'])}"
               + ("" if ss["z_house_edge"] is None else " (of the house edge: the exact return "
                  "less the simulated, over the SE)") + ". "
               + ("z is against the SE from the exact variance of the bets' starting shoes (the "
                  "sample's misses the rare big pays at most counts)" if ss["exact_se"] is not None
                  else "z is shown only where the bets are enough to expect 30 wins of "
                  + ("the rarest big pay the strategy can make"
                     if ss["rarest_line"] is None
                     else f"{rare_words(ss['rarest_line'])} (one bet in "
                     f"{1 / ss['rarest_line']['probability']:,.0f})")
                  + ": before that the SE understates the spread")
               + (f". By count: {ss['by_count_note']}; the by-count SE is the sample's"
                  if ss.get("by_count_note") else "") + ".")
            + (f" By count a z needs 30 wins expected at that count; {SEVENS_SCALING}."
               if ss.get("by_count_chance") == "sevens left" and
               not ss["why_not"] else "")
            + (f" {sentence(MERGED_TAILS)}." if merged_tails(f["super_sevens_by_count"])
               else "")
            + (" Left out of the table, holding no value at any count: "
               + "; ".join(f"{cols} ({why})" for why, cols in _by_reason(out).items())
               + ". The CSV keeps every column." if out else "")
            + f" {sentence(counter_bets_text(ss) + counter_exact_text(ss))}."  # (as count's)
            + "".join(f" {x}" for x in [win_by_exact_line(f)] if x)
            + (" The counter's Super Sevens figures: csv/counting_super_sevens_counter.csv."
               if ss.get("counter_bets") else ""),
            Table("counting_super_sevens", f"Super Sevens return to the player by {kind}",
                  scols,
                  [[b[k] for k, _, _ in scols]
                   for b in f["super_sevens_by_count"]],
                  {"return": "simulated_return", "exact": "exact_return",
                   "exact_se": "exact_return_se"})]
        if ss.get("counter_bets"):  # (the sentence's figures, each with its SE and interval)
            blocks.append(Table(
                "counting_super_sevens_counter", "The counter's Super Sevens bets",
                [("figure", "figure", "text"), ("value", "value", "num4"), ("se", "SE", "num4"),
                 ("ci95_low", "95% low", "num4"), ("ci95_high", "95% high", "num4"),
                 ("interval_note", "why no interval", "text")],
                [[name, ss.get(name), ss.get(name + "_se"), ss.get(name + "_ci95_low"),
                  ss.get(name + "_ci95_high"), ss.get(name + "_interval_note")]
                 for name in ("counter_return", *BY_EXACT)], csv_alone=True))
    if c.get("sweep"):
        wcols = [("penetration", "penetration", "num2"), ("advantage", "advantage", "spct3"),
                 ("se", "advantage SE", "pct3"),
                 ("ci95_low", "advantage 95% low", "spct3"),
                 ("ci95_high", "advantage 95% high", "spct3"),
                 *((k, label, CSV_ONLY) for k, label in (  # (the text's line gives them)
                     ("advantage_change", "advantage change from the first penetration"),
                     ("advantage_change_from", "advantage change from penetration"),
                     ("advantage_change_se", "advantage change SE"),
                     ("advantage_change_ci95_low", "advantage change 95% low"),
                     ("advantage_change_ci95_high", "advantage change 95% high"))),
                 ("advantage_with_super_sevens", "with Super Sevens", "spct3"),
                 ("advantage_with_super_sevens_se", "with Super Sevens SE", "pct3"),
                 *_with_ci95("advantage_with_super_sevens", "with Super Sevens",
                             "spct3")[1:],
                 ("flat_advantage", "flat", "spct3"),
                 ("flat_advantage_se", "flat SE", "pct3"),
                 *_with_ci95("flat_advantage", "flat", "spct3")[1:],
                 ("gain_over_flat", "gain over flat, pp", "spp3"),
                 ("gain_over_flat_se", "gain SE (paired), pp", "pp3"),
                 *((k, label, CSV_ONLY if k.removesuffix("_se") in sweep_columns_out(p)
                    else kind)  # (an SE shown with its figure)
                   for k, label, kind in (
                       ("played_share", "played", "pct1"),
                       ("played_share_se", "played SE", "se:pct2"),
                       ("average_bet", "counter's average bet", "num2"),
                       ("average_bet_se", "counter's average bet SE", "se:num3"))),
                 ("sd_round", "SD per round", "num3"),
                 ("win_per_100", "win per 100 rounds", "num2"),
                 ("win_per_100_se", "win per 100 rounds SE", "num2"),
                 *_with_ci95("score", "SCORE", "num1"), *_with_ci95("n0", "N0", "int")]
        bankroll = c["sweep"][0].get("bankroll")  # (every row's: --bankroll, else the plan's)
        if bankroll is not None:
            wcols += _with_ci95("risk_of_ruin", f"risk of ruin ({fmt(bankroll, 'num0')} units)",
                                "ruin", "risk of ruin")
        if c["sweep"][0].get("rounds_per_hour") is not None:  # (--rounds-per-hour, as count's)
            wk = f"num{max(hour_digits(r.get('per_hour_win_se')) for r in c['sweep'])}"
            win = _with_ci95("per_hour_win", "win an hour", wk)
            wcols += [win[0], ("per_hour_win_se", "win an hour SE", wk), *win[1:],
                      ("per_hour_sd", "SD an hour", "num2"),
                      *_with_ci95("per_hour_n0_hours", "N0 in hours", "num1")]
        wcols += [("super_sevens_favourable_share", "Super Sevens favourable", "pct2"),
                  ("super_sevens_favourable_share_se", "Super Sevens favourable SE", "pct3")]
        if any(r.get("super_sevens_counter_bets") for r in c["sweep"]):  # (as bjsim count's)
            wcols += [("super_sevens_counter_bets", "counter's Super Sevens units staked", "int"),
                      ("super_sevens_counter_bets_per_round",
                       "counter's Super Sevens units a round dealt", "num3"),
                      ("super_sevens_counter_bets_per_round_se",
                       "counter's Super Sevens units a round dealt SE", "se:num3"),
                      *_with_ci95("super_sevens_counter_return", "counter's Super Sevens return",
                                  "spct3"),
                      # (its win with them by the exact return of their shoes, as count's;
                      # the return and units a round by it in the csv)
                      *((f"super_sevens_{name}{k}", f"{label}{words}", CSV_ONLY)
                        for name, label in (
                            ("counter_exact_return",
                             "counter's Super Sevens return by exact return"),
                            ("counter_exact_per_100",
                             "counter's Super Sevens win per 100 rounds by exact return"))
                        for k, words in (("", ""), ("_se", " SE"), ("_ci95_low", " 95% low"),
                                         ("_ci95_high", " 95% high"))),
                      ("super_sevens_counter_win_per_100_with_exact",
                       "win per 100 rounds with Super Sevens by exact return", "num3"),
                      ("super_sevens_counter_win_per_100_with_exact_se",
                       "win per 100 rounds with Super Sevens by exact return SE", "se:num3"),
                      *_with_ci95("super_sevens_counter_win_per_100_with_exact",
                                  "win per 100 rounds with Super Sevens by exact return",
                                  "num3")[1:],
                      *((f"super_sevens_exact_win_change{k}", f"{label}", CSV_ONLY)
                        for k, label in (  # (the text's line gives them)
                            ("", "change of that win from the first penetration"),
                            ("_from", "change of that win from penetration"),
                            ("_se", "change of that win SE"),
                            ("_ci95_low", "change of that win 95% low"),
                            ("_ci95_high", "change of that win 95% high")))]
        shown = {k for k, _, kind in wcols if kind != CSV_ONLY}
        by_chunks = [words for k, words in (
            ("played_share_se", "the share played"), ("average_bet_se", "the average bet"),
            ("super_sevens_counter_bets_per_round_se",
             "the counter's Super Sevens units a round dealt"))
                     if k in shown and any(r.get(k) for r in c["sweep"])]
        by_chunks = [f"The SE{'s' if len(by_chunks) > 1 else ''} of {_and(by_chunks)}"
                     ] if by_chunks else []
        blocks += ["The same plan and seed at each penetration (the share of the shoe dealt "
                   "before the cut card): what the cut card's place is worth to a counter. "
                   + sweep_note(c["sweep"], "Super Sevens favourable")
                   + (" Played: the share of rounds dealt the counter played (it wongs)."
                      if "played_share" in shown else "")
                   + (" The counter's average bet: the initial main bet per round played, in "
                      "units, all its boxes together." if "average_bet" in shown else "")
                   + (" Win an hour, SD an hour and N0 in hours: in units and hours at "
                      f"{hour_words(c['sweep'][0]['rounds_per_hour'])}, {PER_HOUR_WORDS} (the "
                      "other figures are per round played)."
                      if c["sweep"][0].get("rounds_per_hour") is not None else "")
                   + "".join(f" {w}: {CHUNK_SE_WORDS}." for w in by_chunks)
                   + (" Win per 100 rounds with Super Sevens by exact return: the counter's win "
                      "with its Super Sevens bets by the exact return of the shoe each was "
                      "staked at and the main game as played (the simulated win's expectation "
                      "without the few big pays in its spread), its SE by batch means over each "
                      "run's chunks." if any(r.get("super_sevens_counter_win_per_100_with_exact")
                                             is not None for r in c["sweep"]) else "")
                   + (" The Super Sevens favourable share's SE: by batch means over each "
                      "run's chunks (rounds of a shoe are correlated), none from fewer than 10."
                      if any(r.get("super_sevens_favourable_share") is not None
                             for r in c["sweep"]) else "")
                   + ("" if bankroll is not None else " No risk of ruin: no bankroll given "
                      "(--bankroll, or the plan's bankroll).")
                   + "".join(_sweep_interval_notes(r) for r in c["sweep"])
                   + "".join(f" At penetration {r['penetration']:g} {refill_words(r)}."
                             for r in c["sweep"] if r.get("refills"))
                   + "".join(f" At penetration {r['penetration']:g} the risk of ruin has no SE "
                             f"or interval: {r['risk_of_ruin_interval_note']}."
                             for r in c["sweep"] if r.get("risk_of_ruin_interval_note"))
                   + (f" Gain over flat: {GAIN_NONE_WORDS} (its SE left out)."
                      if any(r.get("gain_over_flat_se_kind") == SAME_BETS for r in c["sweep"])
                      else "")
                   + (f" The risk of ruin is {c['sweep'][0]['risk_of_ruin_note']}."
                      if any(r.get("risk_of_ruin_note") for r in c["sweep"]) else "")
                   + "".join(" " + x for x in score_note_lines(c["sweep"]))
                   + "".join(" " + x for x in ruin_method_lines(c["sweep"]))
                   + "".join(" " + x for x in change_line(c["sweep"]))
                   + "".join(" " + x for x in exact_change_line(c["sweep"]))
                   + "".join(" " + x for x in [sweep_whole_se_line(c["sweep"])] if x)
                   + (f" SCORE and N0 intervals are {MOVED_TOGETHER} where given."
                      if any(r.get("score_n0_ruin_note") for r in c["sweep"]) else "")
                   + (f" SCORE and N0: {NOT_APPLICABLE} where the counter has no edge, "
                      f"{NO_EDGE}." if any(r.get("no_edge_note") for r in c["sweep"]) else ""),
                   Table("counting_penetration", "The counter's advantage by penetration",
                         wcols, [[_no_bound(r, k) for k, _, _ in wcols] for r in c["sweep"]],
                         breaks=("flat_advantage", "sd_round", "n0",
                                 "super_sevens_favourable_share"), most=12)]
    _leave_out(blocks, f["per_round_played"], f["bankroll"], next(
        (r["chunk_se_note"] for r in c.get("sweep") or () if r.get("chunk_se_note")), None),
        "no Super Sevens bet" if all(
            r.get("advantage_with_super_sevens_interval_note") in (None, NO_SS_BET)
            for r in c.get("sweep") or ()) else "withheld at every penetration, as said above",
        f.get("chunk_se_note"), _sweep_too_few(c.get("sweep") or []),
        exact_why(c["sweep"]) if c.get("sweep") else None)
    return Section("counting", "Card counting", blocks)


def _average_bet_text(f: dict) -> str:
    """The share of rounds played (where the counter wongs), the counter's average bet a round
    played, over how many boxes, and its Super Sevens stake, with the SEs by batch means, as
    ``bjsim count`` says them (`counting_report._se_text`); "" where no round was played."""
    if f.get("average_bet") is None:
        return ""
    boxes_se = f.get("boxes_per_round_played_se")
    played = _pct(f.get("played_share"), 1, sign=False)
    return ((f"; rounds played {_se_text(played, f.get('played_share_se'), 1)}"
             if f.get("played_share") is not None and f["played_share"] < 1 else "")
            + "; the counter's average bet "
            f"{_se_text(_num(f['average_bet']) + ' units', f.get('average_bet_se'), 3)} a round "
            f"played ({_num(f['boxes_per_round_played'])} boxes"
            + ("" if not boxes_se else f", SE {sig3(boxes_se)}") + ")"
            + (", and " + _se_text(f"{_num(f['average_super_sevens_bet'], 3)} units",
                                   f.get("average_super_sevens_bet_se"), 3) + " of Super Sevens"
               if f.get("average_super_sevens_bet") else ""))


# Why the advantages' SEs, unlike the average bet's, take the rounds as independent (a
# regulator's review asked; measured in docs/counting.md, "These SEs take the rounds as
# independent").
ROUNDS_SE = (" The advantages' SEs and the net per round's take the rounds as independent: "
             "the count carries over within a shoe, but the rounds' results hardly move "
             "together (on hi-lo-1-12, 20 million rounds, the SE by batch means over 2,000 "
             "chunks was 0.97 times it for the advantage, 1.00 for flat: docs/counting.md), "
             "save the figures with Super Sevens of a plan whose Super Sevens stake goes with "
             "the count, which are by batch means where that is so.")


def _chunk_se_text(f: dict) -> str:
    """``bjsim count``'s line on the SEs of the rounds played, the average bet and the boxes
    (and the counter's Super Sevens units a round played, where it bet Super Sevens, and the
    Super Sevens favourable share, where there is one; `counting_report.chunk_se_line`):
    by batch means over how many chunks, or, once, why there are none (too few chunks); ""
    where the figures hold neither (an older run's)."""
    if f.get("chunk_se_note") is None and f.get("chunks") is None:
        return ""
    return " " + chunk_se_line(f.get("chunks"), f.get("chunk_se_note"), f.get(
        "super_sevens", {}).get("favourable_share") is not None,
        bool(f.get("average_super_sevens_bet")))


def _sweep_interval_notes(r: dict) -> str:
    """A sweep row's sentences on the intervals it withholds: the advantage with Super Sevens'
    SE and interval, the win per 100 rounds', SCORE's, N0's (and the risk of ruin's) intervals,
    one sentence where they share the reason (too few Super Sevens bets)."""
    at = f" At penetration {r['penetration']:g}"
    ss = r.get("advantage_with_super_sevens_interval_note")
    ss = None if ss == NO_SS_BET else ss
    per = r.get("per_round_interval_note")
    ruin = ", nor the risk of ruin" if r.get("risk_of_ruin") is not None else ""
    if ss is not None and ss == per:
        return (f"{at} the advantage with Super Sevens has no SE or interval, and the win per "
                f"100 rounds, SCORE and N0 no interval{ruin}: {ss}.")
    return ((f"{at} the advantage with Super Sevens has no SE or interval: {ss}." if ss else "")
            + (f"{at} the win per 100 rounds, SCORE and N0 have no interval{ruin}: {per}."
               if per else ""))


def _sweep_too_few(rows: list[dict]) -> dict:
    """The sweep's SE and interval columns empty in every row for too few rounds, with why
    (`counting_report._every_too_few`, as bjsim count's sweep says it)."""
    out = {}
    for fig, cols in (("", ("se", "ci95_low", "ci95_high")),
                      ("flat_advantage_", ("flat_advantage_se", "flat_advantage_ci95_low",
                                           "flat_advantage_ci95_high"))):
        why = _every_too_few([r.get(fig + "interval_note") for r in rows])
        out |= dict.fromkeys(cols, why) if why else {}
    return out


def _leave_out(blocks: list, p: dict, bankroll, chunk_note: str | None = None,
               ss_why: str = "no Super Sevens bet", count_note: str | None = None,
               too_few: dict | None = None, exact_why: str | None = None) -> None:
    """Leave out of the counting tables shown the columns and rows that say nothing
    (`_left_out`), each table's sentence added to the paragraph before it (or put there).
    ``p``: the net per round played; ``bankroll``: the risk of ruin's; ``chunk_note``: why the
    sweep's SEs by batch means are none (too few chunks), if so; ``ss_why``: why its advantage
    with Super Sevens has no SE or interval in any row; ``count_note``: why the single run's
    SEs by batch means (the boxes' by count) are none, if so; ``too_few``: the sweep's columns
    empty for too few rounds, with why (`_sweep_too_few`); ``exact_why``: why its win with Super
    Sevens by exact return is none in every row, if so."""
    no_edge = f"{NOT_APPLICABLE}: no edge, as said above"
    ruin = ("no bankroll given" if bankroll is None else
            "not given where the counter bets Super Sevens, as said above"
            if p.get("risk_of_ruin_note") else None)
    why = {k: w for k, w in (("score", no_edge if p.get("no_edge_note") else None),
                             ("n0", no_edge if p.get("no_edge_note") else None),
                             ("risk_of_ruin", ruin)) if w}
    how = {"counting_advantage": ("in every row", {"same_rows": True}),
           "counting_per_round": ("in every row", {"same_rows": True, "why": why}),
           "counting_by_count": ("at every count", {"constant": True, "why": {
               "boxes_per_round_played_se": "no SE, as said above"} if count_note else {}}),
           "counting_super_sevens": ("at every count", {"constant": True}),
           "counting_penetration": ("in every row", {"why": {
               "advantage_with_super_sevens": "no Super Sevens bet",
               **dict.fromkeys(("advantage_with_super_sevens_se",
                                "advantage_with_super_sevens_ci95_low",
                                "advantage_with_super_sevens_ci95_high"), ss_why),
               "gain_over_flat_se": "the gain is none, as said above",
               **({"played_share_se": chunk_note, "average_bet_se": chunk_note}
                  if chunk_note else {}),
               **({f"super_sevens_counter_win_per_100_with_exact{k}": chunk_note
                   for k in ("_se", "_ci95_low", "_ci95_high")} if chunk_note else {}),
               **({"super_sevens_counter_win_per_100_with_exact": exact_why} if exact_why
                  else {}),
               "super_sevens_favourable_share": NO_FAVOURABLE,
               "super_sevens_favourable_share_se": chunk_note if chunk_note
               else NO_FAVOURABLE} | {
               k: w for k, w in why.items() if k == "risk_of_ruin"} | (too_few or {})})}
    for i, b in reversed(list(enumerate(blocks))):
        if not isinstance(b, Table) or b.name not in how:
            continue
        every, kw = how[b.name]
        text = _left_out(b, every, **kw)
        if text and isinstance(blocks[i - 1], str):
            blocks[i - 1] += text
        elif text:
            blocks.insert(i, text.strip())


def _ss_columns_out(f: dict) -> dict[str, tuple[str, str]]:
    """The Super Sevens-by-count columns that cannot hold a value in this run, each with its
    words and why: the counter's stakes where the plan places no Super Sevens bet; z where
    none can be given at all (``why_not``); the sample SE and z where all the bets together are
    too few to expect `MIN_WINS` wins of the rarest big pay, so those at any one count are too
    (a count's chance of it is at most a full shoe's: `counting_report._too_few_bets`)."""
    ss, ramp, out = f["super_sevens"], f["plan"]["super_sevens"], {}
    if not max([ramp["base"], *(units for _, units in ramp["steps"])]):
        out["counter_bets"] = ("the counter's units staked", "the plan places no Super Sevens bet")
    rare = ss["rarest_line"]
    if rare is not None and ss["flat"]["n"] * rare["probability"] < MIN_WINS:
        few = (f"too few bets at any count: fewer than {MIN_WINS} wins of "
               f"{rare['words']} expected in all {ss['flat']['n']:,} together")
        out["se"] = ("the sample SE", few)
        out["z_house_edge"] = ("z", few)
    if ss["why_not"] is not None:
        for k, words in (("exact", "the exact return"), ("exact_se", "its SE"),
                         ("z_house_edge", "z"), ("favourable_share", "the rounds favourable")):
            out[k] = (words, "no exact return, as said above")
    elif ss.get("by_count_note"):
        for k, words in (("exact", "the exact return"), ("exact_se", "its SE"),
                         ("z_house_edge", "z"), ("favourable_share", "the rounds favourable")):
            out[k] = (words, "exact overall only, as said above")
    return out


def _by_reason(out: dict[str, tuple[str, str]]) -> dict[str, str]:
    """The columns left out, joined by the reason they share: ``{why: "the sample SE and z"}``."""
    joined: dict[str, list[str]] = {}
    for words, why in out.values():
        joined.setdefault(why, []).append(words)
    return {why: " and ".join(words) for why, words in joined.items()}


def _with_ci95(key: str, label: str, kind: str, name: str | None = None
               ) -> list[tuple[str, str, str]]:
    """A figure's columns with its 95% interval (``bjsim count``'s ``*_ci95_low``, ``_high``),
    each bound named after the figure (``name``, else ``label``): ``SCORE 95% low``."""
    name = name or label
    return [(key, label, kind), (key + "_ci95_low", f"{name} 95% low", kind),
            (key + "_ci95_high", f"{name} 95% high", kind)]


def _no_bound(fig: dict, key: str):
    """``fig[key]``; ``no bound`` for an interval's missing high end where its low end is there
    (N0 where the mean's interval reaches no edge); SCORE and N0 without an edge ``n/a``: both
    empty in the CSV, as in bjsim count's, so that a column of numbers holds no word."""
    if key in ("score", "n0", "n0_hours", "per_hour_n0_hours") and fig.get(key) is None and (
            fig.get("no_edge_note")):
        return Withheld(None, NOT_APPLICABLE)
    if key in ("gain_over_flat", "gain_over_flat_se") and fig.get(
            "gain_over_flat_se_kind") == SAME_BETS:  # (the same bets: "none", as count says)
        return Withheld(fig.get(key), "none" if key == "gain_over_flat" else "-")
    if key.endswith("_ci95_high") and fig.get(key) is None and fig.get(
            key.removesuffix("high") + "low") is not None:
        return Withheld(None, "no bound")
    return fig.get(key)


def _ramp_text(r: dict) -> str:
    """A ramp in words: ``1 unit below +2, then 2 from +2, 4 from +3``."""
    if not r["steps"]:
        return f"{r['base']} unit(s) at every count" if r["base"] else "never"
    return f"{r['base']} unit(s) below {r['steps'][0][0]:+g}, then " + ", ".join(
        f"{u} from {c:+g}" for c, u in r["steps"])


def csv_run(data: dict, name: str) -> dict:
    """The columns a table's CSV file ends with, the same value on every row, so that the file
    says alone what made it, as compare's csv does (its rounds, seed and partial): the bjsim
    version, its source SHA-256, the rule set as every command names it, the seed, the rounds
    its figures are of (a rule-variant table's a game, a counting table's a run, the
    distribution's its sample's, else the main run's) and partial (false: an interrupted report
    is not written). None (an empty dict) for the manifest, which holds them all. A name the
    table has already (counting's ``rounds`` at each count) is given with ``run_`` before it."""
    if name == "manifest":
        return {}
    m = data["manifest"]
    rounds = (m["variant_rounds"] if name.startswith("rule_variants") else
              m.get("count_rounds") if name.startswith("counting") else
              m["sample_rounds"] if name == "distribution" else m["rounds_played"])
    return {"bjsim": m["bjsim"], "source_sha256": m.get("source_sha256"),
            "rules_name": m["rules_name"], "seed": m["seed"], "rounds": rounds,
            "partial": "false"}


def head_line(data: dict) -> str:
    """The line under the report's title (HTML and Markdown; the PDF's page foot also gives the
    date it was printed): when it was written (UTC, ISO 8601) and by which code, its version,
    source SHA-256 (first 16 digits: the manifest gives it whole) and git commit."""
    m = data["manifest"]
    if not m.get("written"):
        return ""
    commit = m.get("git_commit") or NOT_GIT
    return (f"Written {m['written']} (UTC) by bjsim {m['bjsim']}, source SHA-256 "
            f"{m['source_sha256'][:16]}…, "
            + (commit if commit == NOT_GIT else f"git commit {commit}")
            + "; the Reproducibility section gives the whole manifest.")


SOURCE_FILES = ", ".join(PATTERNS)  # what the source SHA-256 covers (`source.fingerprint`)


# a derived strategy's file in the manifest where the cache folder could not be written
NOT_CACHED = "not cached: the SHA-256 of its text as a file would hold it"


def home_folder() -> str | None:
    """The user's home folder, as paths under it begin (``/home/alice``); None where it is the
    root or not known."""
    home = os.path.expanduser("~").rstrip("/\\")
    return home if home and home != "~" and len(home) > 1 else None


def home_shown(text: str) -> str:
    """``text`` (the report's HTML or Markdown) with each path in the user's home folder shown
    from ``~`` (``~/.cache/bjsim/basic-....toml``), so that a report sent to others does not
    give their name or folders; a command's quoted path as a shell reads it (``~/'my x.toml'``:
    a ``~`` inside quotes is not the home folder)."""
    home = home_folder()
    if home is None:
        return text
    h = re.escape(home)
    for quote in ("'", "&#x27;"):
        text = re.sub(f"{re.escape(quote)}{h}/", f"~/{quote}", text)
    return re.sub(rf"(?<![\w.~/\\-]){h}(?=[/\\\s)\]'\",;:<]|$)", "~", text)


HOME_NOTE = ("Here a path in the home folder of the user who wrote the report is shown from ~, "
             "as a shell reads it (~/.cache/bjsim/...: bjsim's cache of the strategies it "
             "derives); report.json and the CSV files give each path in full.")


def manifest(data: dict) -> Section:
    m = data["manifest"]
    rows = [["bjsim version", m["bjsim"]],
            *([[f"bjsim source SHA-256 ({m['source_files']} files: {SOURCE_FILES})",
                m["source_sha256"]], ["bjsim git commit", m["git_commit"]]]
              if m.get("source_sha256") else []),
            *([["written (UTC)", m["written"]]] if m.get("written") else []),
            *([["bjsim's folder (of the files named configs/... and strategies/...)",
                m["bjsim_folder"]]] if m.get("bjsim_folder") else []),
            ["rule file", m["rules_file"]],
            ["rule file SHA-256", m["rules_sha256"]],
            ["--set", ", ".join(m["overrides"]) or "none"],
            ["rule set, as bjsim's commands name it", m["rules_name"]]]
    for s in m["strategies"]:  # its file, and its charts as played (simulate's strategy_sha256)
        rows.append([f"strategy {s['name']} ({s['file'] or NOT_CACHED}) SHA-256", s["sha256"]])
        if s.get("charts_sha256"):
            rows.append([f"strategy {s['name']}: its charts as played, SHA-256",
                         s["charts_sha256"]])
    rows += [[f"rule variant {s['variant']}: strategy {s['name']} ({s['file'] or NOT_CACHED}) "
              "SHA-256", s["sha256"]] for s in m.get("variant_strategies") or ()]
    asked = "rounds asked" if m["precision"] is None else "rounds at most (--max-rounds)"
    rows += [["seed", m["seed"]], [asked, m["rounds"]],
             ["rounds played", m["rounds_played"]],
             ["precision target", m["precision"] if not data.get("precision") else
              precision_text(data["precision"])],
             ["chunk size (rounds)", m["chunk_rounds"]],
             ["distribution sample (rounds)", m["sample_rounds"]],
             ["distribution sample asked (--sample-rounds, at most the rounds played)",
              m["sample_rounds_asked"]],
             *([["distribution sample's random numbers", m["sample_stream"]]]
               if m.get("sample_stream") else []),
             ["rule variants (files)", ", ".join(m["variant_files"]) or "none"],
             *[[f"rule variant {f} SHA-256", h] for f, h in zip(
                 m["variant_files"], m.get("variant_sha256") or [], strict=False)],
             *([["rule variants (rounds a game)", m["variant_rounds"]]]
               if m["variant_rounds"] is not None else []),
             ["counting plan", m.get("count_plan") or "none"],
             *[[f"counting {x['what']} ({x['file']}) SHA-256", x["sha256"]]
               for x in m.get("count_files") or ()],
             ["counting (rounds a run)", m.get("count_rounds")],
             ["counting penetrations", ", ".join(f"{p:g}" for p in m.get("count_penetrations")
                                                 or ()) or "none"],
             *([["counting bankroll (--bankroll, units)", f"{m['count_bankroll']:,g}"]]
               if m.get("count_bankroll") is not None else []),
             *([["counting rounds an hour (--rounds-per-hour)", m["count_rounds_per_hour"]]]
               if m.get("count_rounds_per_hour") is not None else []),
             ["platform", f"{m['platform']} ({m['machine']})"],
             ["Python, numpy, numba", f"{m['python']}, {m['numpy']}, {m['numba']}"]]
    rows = [[k, Withheld(v, f"{v:,}") if type(v) is int and k != "seed" else v]  # (as the
            for k, v in rows]  # body writes rounds, 200,000, the CSV raw; a seed as typed)
    t = Table("manifest", "Reproducibility manifest", [("item", "item", "text"),
                                                      ("value", "value", "text")], rows)
    c = m["commands"]
    return Section("manifest", "Reproducibility", [
        "The figures depend on the rule file, the strategies, the seed, the rounds and the chunk "
        "size, never on the number of threads or machines; and on the code, which the source "
        "SHA-256 names (the same files give the same hash on every machine; the version number "
        "alone names no one state of the code). The commands run from the folder the report "
        "was made in (they name its files as they were given there). This command, run by the "
        "same code, rebuilds the whole report to the same figures, in a folder beside this "
        "one (its own -o would replace this report):", Code(c["report"]),
        "Each part alone: the main run, the exact figures"
        + (", the rule-variant comparison" if c.get("compare") else "")
        + (", the counting run" if c.get("count") else "")
        + (", the penetration sweep" if c.get("count_sweep") else "")
        + (", each player's choice (its run, then its exact figures: the choices' exact house "
           "edge and cost, and an insuring one's insurance return)" if c.get("choices") else "")
        + ":",
        Code("\n".join(x for x in (c["simulate"], c["exact"], c.get("compare"), c.get("count"),
                                   c.get("count_sweep"), *(c.get("choices") or {}).values(),
                                   *(c.get("choices_exact") or {}).values())
                        if x)), *([HOME_NOTE] if _in_home(m) else []), t])


def _in_home(manifest: dict) -> bool:
    """Does the manifest name a path in the user's home folder (`home_shown`)?"""
    home = home_folder()
    return home is not None and home_shown(json.dumps(manifest)) != json.dumps(manifest)


def build(data: dict) -> list[Section]:
    """Every section, in the report's order."""
    out = [summary(data), rules(data), wagers(data), pay_table(data), frequencies(data),
           volatility(data), sevens(data), choices(data), variants(data), counting(data),
           manifest(data)]
    return [s for s in out if s is not None]


def tables(sections: list[Section]) -> list[Table]:
    return [b for s in sections for b in s.blocks if isinstance(b, Table)]
