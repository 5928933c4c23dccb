"""The report of ``bjsim compare`` (`simulator.compare.statistics`): table, csv, json, markdown,
and the ``--plot`` figure (matplotlib, the optional ``plot`` extra).

Every money figure is a fraction of the stake it is per (house edge: per initial wager; Super
Sevens: per unit staked); the table and markdown show percents, and a difference of two house
edges in percentage points (pp), as the report prints it: +0.213 pp, not +0.213%, which reads as
a relative change.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import math
import os
import shlex

import pandas as pd

from simulator.exact.compare import CUT_CARD_SE, cut_card_words
from simulator.report import (
    SS_SD_WORDS,
    as_edge,
    by_strategy,
    chunks_text,
    code_line,
    csv_cell,
    csv_frame,
    files_text,
    md_text,
    precision_text,
    sevens_player_edge,
    stopped_how,
    strategy_label,
    strategy_text,
    with_note,
)
from simulator.rules import (
    DECLARED,
    GAZETTE_WORDS,
    Rules,
    gazette_word,
    marked_changes,
    no_effect_changes,
    nz_gazette_word,
    rule_change,
    rules_dict,
    shown_rule_file,
)
from simulator.source import provenance, provenance_columns
from simulator.strategy import charts_sha256, dumps_strategy
from simulator.tally import Z95, house_edge_of

FORMATS = ("table", "csv", "json", "markdown")
PLOT_HINT = "pip install 'bjsim[plot]' (in a checkout: pip install -e '.[plot]')"

PAIRING_TEXT = (
    "Pairing (common random numbers): each chunk is cut into blocks of {pair} rounds; block j "
    "of every game is dealt from a fresh shuffle with the same random stream, so games with the "
    "same decks see the same shoe until one takes a different number of cards (after that, and "
    "after the first reshuffle, their streams are no longer aligned). Differences, their "
    "standard errors and intervals come from the {blocks}"
)
# compare's own columns, after PAIRING_TEXT ("; ..."; the report's table has x var alone)
_PAIRING_COLUMNS = (
    "; 'corr' is the correlation left between a game's and the baseline's block results, 'x var' "
    "how many times smaller the variance of the difference is than that of two independent runs "
    "of the same length (the 'se ratio' is its square root)."
)


def pairing_text(pair_rounds: int, blocks: int, columns: bool = True) -> str:
    """How the games are paired (`PAIRING_TEXT`), with ``columns`` compare's own columns
    explained (corr, x var, se ratio), else ending in a full stop."""
    from simulator.compare import paired_blocks

    text = PAIRING_TEXT.format(pair=pair_rounds, blocks=paired_blocks(blocks))
    return text + (_PAIRING_COLUMNS if columns else ".")


def _pct(x, d=3, sign=False) -> str:
    if x is None:
        return "-"
    return f"{100 * x:+.{d}f}" if sign else f"{100 * x:.{d}f}"


def _num(x, fmt) -> str:
    return "-" if x is None or (isinstance(x, float) and not math.isfinite(x)) else format(x, fmt)


def _strategy_text(game) -> str:
    return with_note(strategy_text(list(game.names)), game.strategy_note)


def frame(stats: dict, files: dict | None = None) -> pd.DataFrame:
    """One row per game, figure (house_edge, super_sevens) and ``figures_of`` (``game``: its
    boxes together; else a strategy, where a game's boxes play several: its boxes): the figure
    with its se and interval, its exact value (as a house edge: the game's, or with several
    strategies each one's one-box figure; empty without one), the paired difference, its se
    and interval, the independent
    runs' se, the variance reduction and the se ratio (its square root, as the table gives
    it), the correlation left, the exact difference, its scope
    and z; then why an interval is withheld (``interval_note`` of the figure,
    ``difference_interval_note``), or empty. After them each game's rules, a row a key
    (``figures_of`` ``rules``, ``figure`` ``rules.KEY`` as json's path, not to be taken for a
    figure: ``rules.super_sevens``; ``value`` as `bjsim simulate`'s csv writes it), so that
    every game, the baseline too, can be told from the csv alone; each strategy's charts as
    played (``figures_of`` ``strategy_sha256``, ``figure`` its name, ``value`` json's
    ``strategy_sha256``: `strategy.charts_sha256`); and where a game plays a
    strategy read from a file (``files``: run.strategy_files), a row naming it (``figures_of``
    ``strategy_file``, ``figure`` its name, ``value`` its path)."""
    rows = []
    sized = _sized_shifts(_tilde_rows(stats), stats["rows"][0]["game"],
                          stats.get("pair_rounds")) if "exact" in stats["rows"][0] else {}
    for row in stats["rows"]:
        game, s = row["game"], row["summary"]
        diff = row["difference"] or {}
        paired = {d["first_box"]: d for d in diff.get("by_strategy") or []}
        ex = row.get("exact") or {}
        exact = {e["first_box"]: e for e in ex.get("by_strategy") or []}
        parts = [("game", s, diff, ex)] + [
            (strategy_label(e), e, paired.get(e["first_box"], {}), exact.get(e["first_box"], {}))
            for e in by_strategy(s, list(game.names))]
        for of, figs, diffs, ex in parts:
            for key in ("house_edge", "super_sevens") if game.rules.super_sevens else \
                    ("house_edge",):
                f, d = figs[key], diffs.get(key) or {}
                if f is None:
                    continue
                edge, lo, hi = as_edge(key, f)
                x = ex.get("house_edge" if key == "house_edge" else "super_sevens_ev")
                rows.append({
                    "variant": game.label, "changes": "; ".join(game.changes),
                    "gazette": gazette_of(game, baseline=row["difference"] is None),
                    "strategy": strategy_text(list(game.names)), "figures_of": of,
                    "figure": key, "value": edge, "se": f["se"], "ci95_low": lo,
                    "ci95_high": hi,
                    # the bets it is of: box-rounds (initial wagers), Super Sevens bets
                    "bets": figs.get("box_rounds") if key == "house_edge" else f.get("bets"),
                    # Super Sevens: the house's take a box-round in initial wagers (the house
                    # edge per unit staked times the stake, super_sevens_bet)
                    "per_initial_wager": None if key == "house_edge" else (
                        edge * game.rules.super_sevens_bet),
                    "exact_value": None if x is None else x if key == "house_edge" else -x,
                    "difference": d.get("mean"),
                    "difference_se": d.get("se"), "difference_ci95_low": d.get("ci95_low"),
                    "difference_ci95_high": d.get("ci95_high"),
                    "se_independent": d.get("se_independent"),
                    "variance_reduction": d.get("variance_reduction"),
                    "se_ratio": d.get("se_ratio"),  # (the table's and json's, as they give it)
                    "correlation": d.get("correlation"), "exact_difference": d.get("exact"),
                    "exact_scope": d.get("exact_scope"), "z": d.get("z"),
                    # the ~ note's sizing of the house edge's (json's, `_sized_shifts`)
                    **dict(zip(("cut_card_shift", "z_less_shift"), sized.get(game.label, (
                        None, None)) if of == "game" and key == "house_edge" else (None, None),
                               strict=True)),
                    "interval_note": f.get("interval_note"),
                    "difference_interval_note": d.get("interval_note"),
                    "note": row.get("note") if of == "game" else None,
                })
    for row in stats["rows"]:  # (as simulate's csv: section rules, item the key)
        game = row["game"]
        rows += [{"variant": game.label, "changes": "; ".join(game.changes),
                  "strategy": strategy_text(list(game.names)), "figures_of": "rules",
                  "figure": f"rules.{k}", "value": csv_cell(v)}
                 for k, v in rules_dict(game.rules).items()]
        rows += [{"variant": game.label, "changes": "; ".join(game.changes),  # (json's
                  "strategy": strategy_text(list(game.names)),  # strategy_sha256)
                  "figures_of": "strategy_sha256", "figure": name,
                  "value": charts_sha256(strategy)}
                 for name, strategy in dict(zip(game.names, game.strategies,
                                                strict=True)).items()]
        rows += [{"variant": game.label, "changes": "; ".join(game.changes),  # (json's
                  "strategy": strategy_text(list(game.names)),  # run.strategy_files)
                  "figures_of": "strategy_file", "figure": name, "value": files[name]}
                 for name in dict.fromkeys(game.names) if name in (files or {})]
        edge = sevens_player_edge(rules_dict(game.rules)) if game.rules.super_sevens else None
        if edge:  # (json's super_sevens.player_edge: the warning in note)
            rows.append({"variant": game.label, "changes": "; ".join(game.changes),
                         "strategy": strategy_text(list(game.names)),
                         "figures_of": "super_sevens_player_edge", "figure": edge["play"],
                         "value": edge["house_edge"], "note": edge["note"]})
    return pd.DataFrame(rows)


def _csv_number(x):
    """A cell of a column holding numbers and words (``value``: the rules' too) as the csv writes
    a number (at full precision: its repr, as every command's csv), a word as it is, nothing for
    none."""
    if x is None or isinstance(x, float) and math.isnan(x):
        return None
    return repr(float(x)) if isinstance(x, float) else x


SIGNS = ("difference = the variant's house edge less the baseline's, in percentage points (pp) "
         "of house edge: + the house edge rises (worse for the player), - it falls (better for "
         "the player)")
PP = "pp"  # a difference of two percentages: percentage points, never "%"


def _head(stats: dict, meta: dict) -> list[str]:
    base = stats["rows"][0]["game"]
    run = meta["run"]
    word = gazette_of(base, baseline=True)  # (its departures from the NZ game)
    lines = [f"bjsim compare: {len(stats['rows']) - 1} variant(s) against the baseline "
             f"{base.label} ({base.source or 'rules'}"
             + (f"; Gazette: {word}" if word else "") + f"), strategy {_strategy_text(base)}"
             + (f"; {files_text(run['strategy_files'])}" if run.get("strategy_files") else ""),
             f"{stats['rounds']:,} rounds per game, seed {run['seed']}, "
             f"{chunks_text(run['chunk_rounds'], run.get('rounds'))} in blocks of "
             f"{run['pair_rounds']:,}"
             + (f"  (PARTIAL: {stopped_how(meta)})" if run.get("partial") else "")]
    if run.get("precision"):
        lines.append("precision " + precision_text(
            run["precision"], run.get("partial") and stopped_how(meta),
            of="widest 95% half-width of a house-edge difference", unit=f" {PP}")
            + (f"; {run['precision']['note']}" if run["precision"].get("note") else ""))
    return lines + [code_line({"strategy_sha256": [charts_sha256(s) for r in stats["rows"]
                                                   for s in r["game"].strategies]}), SIGNS]


def _sevens_play_note(stats: dict) -> str:
    """Whose 7-7 play the Super Sevens figures are of (a casino manager's review: a pay change
    priced at +2.603 pp for basic's play is +4.787 pp for a player who hits every 7-7, and
    nothing said which)."""
    from simulator.report import sevens_play_text

    base = stats["rows"][0]["game"]
    play = sevens_play_text(base.strategies[0], base.rules)
    return (f"The Super Sevens figures are of each game's strategy's 7-7 play (the baseline's: "
            f"{play}); another play has other figures, and a change of the pays moves them "
            "otherwise: hitting every 7-7, the published figures' convention, is --strategy "
            "basic-super-sevens (bjsim exact gives its exact figures).")


def same_games(stats: dict) -> dict[str, str]:
    """Each variant that is the same game as one before it (the same rules and strategies, as
    super-sevens-8-decks is decks-8 where Super Sevens is on already): its label -> that one's."""
    seen, out = {}, {}
    for row in stats["rows"]:
        game = row["game"]
        key = (json.dumps(rules_dict(game.rules), sort_keys=True), tuple(game.names))
        if key in seen and row is not stats["rows"][0]:
            out[game.label] = seen[key]
        seen.setdefault(key, game.label)
    return out


def same_main_games(stats: dict, same: dict) -> dict[str, str]:
    """Where the baseline bets no Super Sevens (so no table shows that bet's difference): each
    variant whose game is an earlier one's but for the Super Sevens keys, and not the same game
    (``same``, `same_games`): its label -> that one's."""
    from simulator.compare import same_game

    if stats["rows"][0]["game"].rules.super_sevens:
        return {}
    seen, out = {}, {}
    for row in stats["rows"]:
        game = row["game"]
        main = {k: v for k, v in rules_dict(game.rules).items() if not k.startswith("super_")}
        key = (json.dumps(main, sort_keys=True), tuple(game.names))
        # (the same main game only where each plays 7-7 alike with the side bet up and not, as
        # `compare.same_game` asks: basic-super-sevens hits 7-7 against 8-A with the bet up)
        if row is not stats["rows"][0] and game.label not in same:
            alike = [g for g in seen.get(key, ()) if same_game(g, game, "house_edge")]
            if alike:
                out[game.label] = alike[0].label
        seen.setdefault(key, []).append(game)
    return out


def same_text(same_as: str | None, main_as: str | None) -> str:
    """The words after a variant's changes for its `same_games` and `same_main_games`, or ""."""
    if same_as:
        return f" (the same game as {same_as})"
    if main_as:
        return (f" (the main game of {main_as}: its Super Sevens bet has no difference, as "
                "the baseline bets none; its own figure is in the Super Sevens table)")
    return ""


def _legend(stats: dict, markdown: bool) -> list[str]:
    out = []
    same = same_games(stats)
    main = same_main_games(stats, same)
    for row in stats["rows"][1:]:
        game = row["game"]
        changes = ", ".join(marked_changes(game.changes, no_effect_changes(
            game.rules, game.changes))) or "(none)"
        changes += same_text(same.get(game.label), main.get(game.label))
        word = gazette_of(game)
        changes += f"; Gazette: {word}" if word else ""
        pairing = row["pairing"] + (f": {row['note']}" if row.get("note") else "")
        item = (f"- **{md_text(game.label)}**: "
                + md_text(f"{changes}; strategy {_strategy_text(game)}; {pairing}") if markdown else
                f"  {game.label}: {changes}; strategy {_strategy_text(game)}; {pairing}")
        out.append(item)
    return out


def gazette_of(game, baseline: bool = False) -> str:
    """What the Gazette says of the values a variant changes (`rules.gazette_word`): ``outside
    (14.3)`` for a Super Sevens pay table it does not allow, as the report's variants table;
    of the ``baseline``, of its values that are not the NZ game's; keys of no effect left
    out."""
    if baseline:  # (as simulate's Gazette line: `rules.nz_gazette_word`)
        return nz_gazette_word(rules_dict(game.rules))
    idle = no_effect_changes(game.rules, game.changes)  # (marked so, not judged)
    keys = [c.split("=", 1)[0] for c in game.changes]
    return gazette_word(game.rules, [k for k in keys if k in DECLARED and k not in idle])


WITHHELD = "†"  # marks an interval withheld (too few wins of a big Super Sevens line)


def _withheld_note(stats: dict) -> str | None:
    """The footnote of `WITHHELD`, one sentence for each reason an interval is withheld: too
    few paired blocks for any difference's interval; the games whose difference is not
    measured, grouped by why: their rules or charts differ where no round reached yet
    (`NOT_REACHED`), or they differ only at the cut card and no block reaches it
    (`no_cut_card`, naming the least block); and each game whose Super Sevens interval is
    withheld, and why (`_withheld_ss`). None if no interval is withheld (in a table that is
    shown)."""
    from simulator.compare import NO_CUT_CARD, NOT_REACHED, _few_blocks

    few = _few_blocks(stats["blocks"]) if len(stats["rows"]) > 1 else None
    keys = [key for key, _ in _sections(stats)]
    unmeasured: dict = {}  # the words -> the games (not reached yet; no block reaches a cut card)
    for r in stats["rows"][1:]:
        for k in keys:
            note = ((r["difference"] or {}).get(k) or {}).get("interval_note") or ""
            if note == NOT_REACHED or note.startswith(NO_CUT_CARD):
                unmeasured.setdefault(note, []).append(r["game"].label)
    unmeasured = " ".join(f"{WITHHELD} {', '.join(dict.fromkeys(labels))}: {note}."
                          for note, labels in unmeasured.items()) or None
    ss_too = any(key == "super_sevens" for key, _ in _sections(stats))
    zero = _exactly_zero(stats)
    few = None if few is None else (f"{WITHHELD} no 95% interval, x var, se ratio, corr or z "
                                    "for the differences"
                                    + (", and no Super Sevens difference shown (csv and json "
                                       "keep it)" if ss_too else "")
                                    + ("" if not zero else
                                       f", but for {_zero_words(zero, 'for a table')}")
                                    + f": {few}.")
    ss = _withheld_ss(stats)
    own: dict = {}  # a game's own house edge without an interval (too few rounds), by why
    for r in stats["rows"]:
        note = r["summary"]["house_edge"].get("interval_note")
        if note:
            own.setdefault(note, []).append(r["game"].label)
    own = " ".join(f"{WITHHELD} no 95% interval for the house edge of {'; '.join(labels)}: "
                   f"{note}." for note, labels in own.items()) or None  # (labels hold commas)
    return " ".join(n for n in (own, few, unmeasured, ss) if n) or None


def _withheld_ss(stats: dict) -> str | None:
    """The Super Sevens part of `_withheld_note`."""
    if not any(key == "super_sevens" for key, _ in _sections(stats)):
        return None
    shown = [r for r in stats["rows"] if _shown(stats, "super_sevens", r["game"])]
    notes = [f"{r['game'].label}: {r['summary']['super_sevens']['interval_note']}"
             for r in shown if r["summary"]["super_sevens"].get("interval_note")]
    notes += [f"{r['game'].label}, {strategy_label(e)}: {e['super_sevens']['interval_note']}"
              for r in shown for e in by_strategy(r["summary"], list(r["game"].names))
              if (e["super_sevens"] or {}).get("interval_note") not in
              (None, r["summary"]["super_sevens"].get("interval_note"))]  # (not the game's)
    if not notes:
        return None
    pays = [r["game"].label for r in shown[1:] if (r.get("same") or {}).get("house_edge")
            and not r["same"].get("super_sevens")  # (a stake alone: the same pays, exactly 0)
            and (r["difference"] or {}).get("super_sevens")
            and r["difference"]["super_sevens"]["ci95_low"] is not None]
    pays = "" if not pays else (
        f" ({', '.join(pays)} only {'pays' if len(pays) == 1 else 'pay'} Super Sevens lines "
        "otherwise, with the same cards and 7-7 decisions as the baseline, so the same lines come "
        "up on the same rounds: such a difference rests on the lines whose pay differs alone, "
        "and has its interval where those are common)")
    zero = _exactly_zero(stats, "super_sevens")
    zero = "" if not zero else f" (but for {_zero_words(zero, 'in Super Sevens')})"
    return (f"{WITHHELD} no 95% interval; a difference resting on it has no interval, x var, "
            f"se ratio, corr or z either, and is not shown ({WITHHELD}){zero}: from a handful of "
            "big pays it can lie far from the exact difference, even opposite in sign (csv and "
            f"json keep it, with its difference_interval_note){pays}: {'; '.join(notes)}.")


def _exactly_zero(stats: dict, key: str | None = None) -> list[str]:
    """The labels of the variants whose difference of ``key`` (of any table's, where None) is
    exactly 0 by construction, shown with its interval of [0, 0] however few the wins or the
    blocks (`compare._withhold`): they play the baseline's game for that figure on every round
    (`compare.same_game`), as a change of the Super Sevens stake alone does."""
    keys = [k for k, _ in _sections(stats)] if key is None else [key]
    return list(dict.fromkeys(
        r["game"].label for r in stats["rows"][1:] for k in keys
        if _shown(stats, k, r["game"]) and (r.get("same") or {}).get(k)
        and (d := (r["difference"] or {}).get(k)) is not None and d.get("se") == 0
        and d.get("mean") == 0 and d.get("interval_note") is None))


def _zero_words(labels: list[str], where: str) -> str:
    """`_exactly_zero`'s variants in the `WITHHELD` footnote's words: they play the baseline's
    game ``where`` (``"in Super Sevens"``), and their difference there is shown."""
    one = len(labels) == 1
    return (f"{', '.join(labels)}, which {'plays' if one else 'play'} the baseline's game "
            f"{where} on every round, with the same cards, decisions and pays per unit staked: "
            f"{'its' if one else 'their'} difference there is exactly 0 by construction, shown "
            f"with {'its' if one else 'their'} interval [+0.000, +0.000] and corr")


SHOE_BLOCKS = 1024  # blocks of fewer rounds hold few shoes: a cut-card question is diluted


def cut_card_questions(games) -> list:
    """The variants of ``games[1:]`` that change the penetration or the shuffle against the
    baseline ``games[0]``, a cut card in either: questions of the cut card itself."""
    base = games[0].rules
    return [g for g in games[1:]
            if (g.rules.penetration, g.rules.shuffle) != (base.penetration, base.shuffle)
            and "cut-card" in (base.shuffle, g.rules.shuffle)]


def shoe_note(stats: dict, pair_rounds: int, option: bool = True) -> list[str]:
    """A note where a variant changes the penetration or the shuffle and the blocks are short:
    each block starts from a fresh shuffle, so its last shoe is cut short and the cut-card
    effect such a variant asks about is diluted; by how much at most, beside the differences'
    95% intervals (docs/compare.md). ``option``: name compare's --pair-rounds, which removes it."""
    from simulator.compare import rounds_per_shoe
    from simulator.exact.compare import cut_card_effect, table_measured

    games = [r["game"] for r in stats["rows"]]
    never = unreached_games(stats, pair_rounds)  # (`unreached_note` says what they lose)
    asked = [g for g in cut_card_questions(games) if g not in never]
    if not asked or pair_rounds >= SHOE_BLOCKS:
        return []
    played = [g for g in [games[0], *asked] if g.rules.shuffle == "cut-card" and g not in never]
    shift = max(_cut_short(pair_rounds, rounds_per_shoe(g))
                * cut_card_effect(g.rules.decks, g.rules.boxes) for g in played)
    short = max(_cut_short(pair_rounds, rounds_per_shoe(g)) for g in played)
    widths = [Z95 * d["house_edge"]["se"] for r in stats["rows"][1:] if r["game"] in asked
              and (d := r["difference"] or {}).get("house_edge") and d["house_edge"]["se"]]
    small = bool(widths) and shift < min(widths) / 4
    several = not all(table_measured(g.rules.decks, g.rules.boxes) for g in played)
    return [f"{', '.join(g.label for g in asked)}: a question of the cut card, played here in "
            f"blocks of {pair_rounds:,} rounds, each from a fresh shuffle: a block's last shoe "
            f"is cut short (up to {100 * short:.0f}% of a game's rounds here), where the cut card "
            f"plays no part, so a difference holds up to {100 * short:.0f}% less of the change "
            + ("in the cut-card effect, which bjsim measured for one box, and for tables of 2-7 "
               "boxes with 4, 6 and 8 decks only, not for these games' boxes: the shift "
               "is not sized here" if several else
               f"in the cut-card effect (an effect of about {_effects(played)} on the house edge "
               f"in all): a shift of about {100 * shift:.4f} pp"
               + ("" if not widths else (", well inside" if small else ", not small beside")
                  + f" the 95% interval{'s' if len(widths) != 1 else ''} of "
                  + f"±{100 * min(widths):.3f} pp{' or more' if len(widths) > 1 else ''}"))
            + (f"; blocks of many shoes ({SHOE_BLOCKS_ADVICE[stats.get('block_option')]}; "
               "docs/compare.md) remove it, but pair less and widen the intervals." if option
               else ".")]


# Blocks of many shoes, by the option that set the blocks: a chunk shorter than the block is one.
SHOE_BLOCKS_ADVICE = {None: "--pair-rounds 4096", "--pair-rounds": "--pair-rounds 4096",
                      "--chunk-rounds": "--pair-rounds 4096 with --chunk-rounds 4096 or more"}


def _effects(games) -> str:
    """The measured cut-card effect of each deck count and table of ``games``, in words:
    "+0.017 pp with 8 decks", "+0.015 pp with 6 decks and 7 boxes"; one box's where several
    are not measured, and said to be."""
    from simulator.exact.compare import cut_card_effect, table_measured

    measured = {id(g): table_measured(g.rules.decks, g.rules.boxes) for g in games}
    tables = sorted({(g.rules.decks, g.rules.boxes if measured[id(g)] else 1) for g in games})
    unmeasured = not all(measured.values())
    return ", ".join(f"+{100 * cut_card_effect(d, b):.3f} pp with {d} deck{'s' if d != 1 else ''}"
                     + (f" and {b} boxes" if b > 1 else "") for d, b in tables) + (
        ", for one box (not measured for these games' several boxes)" if unmeasured else "")


def unreached_games(stats: dict, pair_rounds: int | None) -> list:
    """The games of ``stats`` (the baseline too) dealt to a cut card whose blocks of
    ``pair_rounds`` rounds never reach it: shorter than the game's shortest first shoe
    (`compare.shortest_shoe`, 2,000 fresh shoes of a fixed seed)."""
    from simulator.compare import rounds_per_shoe, shortest_shoe

    if not pair_rounds:
        return []
    return [r["game"] for r in stats["rows"] if r["game"].rules.shuffle == "cut-card"
            and pair_rounds < rounds_per_shoe(r["game"])  # (the mean first: cached, cheap)
            and pair_rounds < shortest_shoe(r["game"])]


def _unmarked(stats: dict, pair_rounds: int | None) -> set:
    """The labels of the variants whose exact difference loses its `~`: neither it nor the
    baseline reaches its cut card in any block (`unreached_games`), so the simulated difference
    holds no cut-card effect at all."""
    never = unreached_games(stats, pair_rounds)
    if not never or stats["rows"][0]["game"] not in never:
        return set()
    return {g.label for g in never[1:]}


def unreached_note(stats: dict, pair_rounds: int | None, option: bool = True) -> str | None:
    """Where a game's blocks never reach its cut card (`unreached_games`): its simulated
    figures hold none of the cut-card effect (the effect sized for its decks), a change of
    penetration alone changes nothing in it, and what its difference holds; None where every
    game reaches its cut card. ``option``: name compare's --pair-rounds."""
    from simulator.compare import SHOE_PROBE_BLOCKS, shortest_shoe

    never = unreached_games(stats, pair_rounds)
    if not never:
        return None
    one = len(never) == 1
    base = stats["rows"][0]["game"]
    labels = ", ".join(g.label for g in never)
    least = ", ".join(f"{g.label} {shortest_shoe(g):,}" for g in never)
    text = (f"{labels}: no block of {pair_rounds:,} rounds, each from a fresh shuffle, reaches "
            f"{'its' if one else 'their'} cut card (the shortest first shoe of "
            f"{SHOE_PROBE_BLOCKS:,} fresh ones, in rounds: {least}), so "
            f"{'its' if one else 'their'} simulated house edge holds none of the cut-card "
            f"effect (about {_effects(never)}), and a change of the penetration alone changes "
            "nothing in it")
    variants = [g for g in never if g is not base]
    if variants and base in never:
        marked = [r["game"].label for r in stats["rows"][1:] if r["game"] in variants and (
            r["difference"] or {}).get("house_edge", {}).get("exact_scope") == "cut-card"]
        text += (f"; with the baseline's blocks short of its cut card too, the difference of "
                 f"{', '.join(g.label for g in variants)} holds no cut-card effect"
                 + (f", so the exact difference of {', '.join(marked)} has no ~" if marked
                    else ""))
    advice = SHOE_BLOCKS_ADVICE[stats.get("block_option")]
    return text + (f"; blocks of many shoes ({advice}; docs/compare.md) play the cut card, but "
                   "pair less and widen the intervals." if option else ".")


def _cut_short(pair_rounds: int, per_shoe: float) -> float:
    """The share of a block's rounds dealt from its last shoe, cut short by the block's end."""
    return (pair_rounds % per_shoe) / pair_rounds if per_shoe <= pair_rounds else 1.0


def cut_card_difference_z(decks: int, penetration: float | None = None, boxes: int = 1,
                          marked: str = "the rows marked ~") -> str:
    """What a difference's z holds where a game is dealt to a cut card, the effect given for
    the baseline's ``decks`` (`cut_card_words`; at a baseline ``penetration`` or ``boxes``
    where it is not measured, that it is not); ``marked``: how the output marks the games
    whose decks, cut card or boxes differ."""
    return ("z tests each simulated difference against the exact difference for a full shoe "
            f"every round: dealt to a cut card, each game's simulated figure holds "
            f"{cut_card_words(decks, penetration, boxes)}, in part where blocks each start from a "
            "fresh shuffle, "
            "which the exact figures do not; where both games deal the same decks to the same cut "
            "card it mostly cancels in the difference, but what is left of it is in z too, and "
            "can make |z| large over many rounds with nothing wrong (where the decks, the cut "
            f"card or the boxes differ it does not cancel: {marked})")


def cut_card_note(stats: dict, marked: str = "the rows marked ~") -> str | None:
    """What z holds where a game is dealt to a cut card (`cut_card_difference_z`, ``marked``),
    or None: every game shuffled every round, or no exact figures."""
    if "exact" not in stats["rows"][0] or len(stats["rows"]) < 2 or all(
            r["game"].rules.shuffle == "every-round" for r in stats["rows"]):
        return None
    from simulator.exact.compare import table_measured

    base = stats["rows"][0]["game"].rules  # the effect of a table of several boxes where one
    several = [r["game"].rules for r in stats["rows"] if r["game"].rules.boxes > 1]  # plays:
    unmeasured = [g for g in several if not table_measured(g.decks, g.boxes)]
    shown = unmeasured[0] if unmeasured else max(several, key=lambda g: g.boxes, default=base)
    return cut_card_difference_z(shown.decks, base.penetration, shown.boxes, marked) + "."


MANY_VARIANTS = 5  # more variants than this: the note on many comparisons


def _intervals(stats: dict, zero: bool = False, again: bool = False) -> dict:
    """How many 95% intervals of a difference each table shows (by key): each variant's house
    edge, its Super Sevens where the tables show it (`_sections`, `_shown`), and each
    strategy's; not one of a game played identically to the baseline (se 0: it cannot miss),
    or with ``zero`` only those, each variant's (the baseline's own game given as a variant is
    one of them). A game given twice (`same_games`, `same_main_games`: an earlier variant's) is
    counted once, or with ``again`` only its second time."""
    n = {key: 0 for key, _ in _sections(stats)}
    same = same_games(stats)
    main = same_main_games(stats, same)
    for row in stats["rows"][1:]:
        diff = row["difference"] or {}
        for key in n:
            twice = row["game"].label in same or key == "house_edge" and row["game"].label in main
            if not _shown(stats, key, row["game"]) or twice != again and not zero:
                continue
            n[key] += sum((d.get(key) or {}).get("ci95_low") is not None
                          and bool(d[key]["se"]) != zero
                          for d in [diff, *(diff.get("by_strategy") or [])])
    return n


def _in_tables(n: dict) -> str:
    """``n`` (`_intervals`) in words by table, where there are two."""
    words = {"house_edge": "of the house edge", "super_sevens": "of Super Sevens"}
    return "" if sum(v > 0 for v in n.values()) < 2 else " (" + ", ".join(
        f"{v} {words[k]}" for k, v in n.items() if v) + ")"


def multiple_note(stats: dict) -> str | None:
    """With more than `MANY_VARIANTS` variants, how many of the intervals (and z-scores) are
    expected to miss by chance alone, one in 20 at 95%; else None."""
    variants = len(stats["rows"]) - 1
    by_table, zeros = _intervals(stats), _intervals(stats, zero=True)
    n, same = sum(by_table.values()), sum(zeros.values())
    if variants <= MANY_VARIANTS or not n:
        return None
    exact = "exact" in stats["rows"][0]
    tables = " in the tables" if sum(v > 0 for v in by_table.values()) > 1 else ""
    # (not a game that plays as the baseline does: each of those is counted below)
    twice = (" (a game given twice counted once)" if any(_intervals(stats, again=True).values())
             else "")
    n_text = f"{n} differences with a 95% interval{tables}{twice}{_in_tables(by_table)}"
    if same:  # (shown as +0.000% to +0.000%: every round played as in the baseline)
        n_text += (f", and {same} difference{'s' if same != 1 else ''} of "
                   + ("a variant that plays" if same == 1 else "variants that play")
                   + f" every round as the baseline does{_in_tables(zeros)}: exactly 0, "
                   + ("it cannot" if same == 1 else "they cannot") + " miss")
    return (f"Many comparisons: {variants} variants, {n_text}; "
            f"each misses its true value one time in 20 by chance, so about {n / 20:g} of "
            f"them {'is' if n == 20 else 'are'} expected to miss with nothing wrong" + (
                ", and about as many exact differences to fall outside their interval (|z| "
                "above 1.96)" if exact else "") + ".")


def unused_rules_note(stats: dict, where: str = " (Variants, above)") -> str | None:
    """The footnote of the variants whose rules the chart played never reaches (their
    ``note``, `compare.unused_note`): a difference of exactly 0 that is the chart's, not the
    rule's worth to every player, ending with ``where`` their lines are; None if none."""
    rows = [r for r in stats["rows"][1:] if r.get("note")]
    if not rows:
        return None
    labels = ", ".join(r["game"].label for r in rows)
    one = len(rows) == 1
    return (f"Worth nothing to the chart played, not to every player: {labels} "
            f"{'plays' if one else 'play'} identically to the baseline, a difference of exactly "
            f"0, because the chart {'it plays' if one else 'each plays'} makes no play "
            f"{'its change touches' if one else 'their changes touch'}{where}.")


def counter_note(stats: dict) -> str | None:
    """Where a variant moves the cut card or takes it away: its difference is the strategy's,
    which does not count; what the cut card's place is worth to a card counter is bjsim
    count's, at the penetrations the games deal to, under the baseline's rules, and for a
    variant that changes other rules too under its own (a rule-variant analyst's review: a
    1-deck variant had been pointed at the 6-deck baseline's sweep). Each command sets every
    key in which its rules differ from the NZ game's (`counter_sets`), so that it runs as
    printed from any folder."""
    def cut(rules):  # (the cut card's place; none where the shoe is shuffled every round)
        return rules.penetration if rules.shuffle == "cut-card" else None

    def command(games, rules) -> str:  # the penetrations of the baseline and ``games``
        pens = sorted({p for g in games if (p := cut(g.rules)) is not None}
                      | {cut(base) or base.penetration})
        return " ".join([f"bjsim count --penetrations {','.join(f'{p:g}' for p in pens)}",
                         *(f"--set {shlex.quote(c)}" for c in counter_sets(rules))])

    base = stats["rows"][0]["game"].rules
    moved = [r["game"] for r in stats["rows"][1:] if cut(r["game"].rules) != cut(base)]
    if not moved:
        return None
    alone = [g for g in moved if counter_sets(g.rules) == counter_sets(base)]
    own = [f"{g.label}, at its own rules: {command([g], g.rules)}" for g in moved
           if g not in alone]
    return (f"{', '.join(g.label for g in moved)}: the cut card moved or taken away, for the "
            "strategy played, which does not count; what its place is worth to a card counter "
            "(the counter's advantage at each penetration"
            + (f", the baseline's rules): {command(alone, base)}" if alone else "): ")
            + ("; " if alone and own else "") + "; ".join(own) + ".")


def counter_sets(rules) -> list[str]:
    """The ``--set`` changes that give ``bjsim count`` ``rules`` from the NZ game, but the cut
    card (the sweep's penetrations), the boxes (a plan plays its own), the Super Sevens stake
    (a plan's own too: count refuses ``super_sevens_bet``) and keys of no effect under the
    others (count warns of them)."""
    nz = rules_dict(Rules())
    sets = [rule_change(k, v) for k, v in rules_dict(rules).items() if v != nz[k]
            and k not in ("penetration", "shuffle", "boxes", "super_sevens_bet")]
    idle = no_effect_changes(rules, sets)  # (count would warn of each)
    return [c for c in sets if c.split("=", 1)[0] not in idle]


def _sized_shifts(rows: list, base, pair_rounds: int | None) -> dict:
    """The change of the measured cut-card effect (`exact.compare.cut_card_effect`) from the
    baseline ``base`` to each ``rows``' game where both are played as it was measured (the NZ
    rules but their decks and boxes, which it was measured for, not taken from neighbours; basic
    strategy on every box; the cut card at 75%), each game's effect scaled by its rounds dealt
    from whole shoes in blocks of ``pair_rounds`` (a block's last shoe, cut short, holds none:
    `shoe_note`), with the z less that change over the difference's SE, by label: ``{"decks=1":
    (0.00103, -0.31)}`` (a rule-variant analyst's review: the README's 1-deck row read z +2.56
    with the shift unsized); json's ``cut_card_shift`` and ``z_less_shift``."""
    from simulator.compare import rounds_per_shoe
    from simulator.derived import DERIVED_BASIC
    from simulator.exact.compare import CUT_CARD_BOXES, CUT_CARD_MEASURED, cut_card_effect

    basic = {"basic", DERIVED_BASIC}  # (the strategy the effect was measured for)
    nz_rules = rules_dict(Rules())

    def effect(game) -> float | None:
        r = game.rules
        measured = (r.decks, r.boxes) in CUT_CARD_BOXES or r.boxes == 1 and r.decks in \
            CUT_CARD_MEASURED
        nz = {k for k, v in rules_dict(r).items() if v != nz_rules[k]} <= MEASURED_KEYS
        if not (measured and nz and set(game.names) <= basic):
            return None
        whole = 1.0 if pair_rounds is None else 1 - _cut_short(pair_rounds, rounds_per_shoe(game))
        return cut_card_effect(r.decks, r.boxes) * whole

    out = {}
    for row in rows:
        d = (row["difference"] or {}).get("house_edge") or {}
        if d.get("z") is None or not d.get("se") or None in (a := effect(base),
                                                               b := effect(row["game"])):
            continue
        out[row["game"].label] = (b - a, d["z"] - (b - a) / d["se"])
    return out


def _tilde_rows(stats: dict) -> list:
    """The variant rows whose exact difference is marked ~ (``exact_scope`` "cut-card") and
    whose blocks reach their cut card."""
    never = {g.label for g in unreached_games(stats, stats.get("pair_rounds"))}
    return [r for r in stats["rows"][1:] if r["game"].label not in never
            and (r["difference"] or {}).get("house_edge", {}).get("exact_scope") == "cut-card"]


def sized_note(stats: dict) -> str | None:
    """The ~ rows' sizing (`_sized_shifts`) as a sentence of its own, for the report (whose
    tables mark those rows by their exact scope, cut-card), or None where none is sized."""
    if "exact" not in stats["rows"][0]:
        return None
    twice = same_games(stats)  # (the report's table folds a game given twice into the first)
    sized = _sized_shifts([r for r in _tilde_rows(stats) if r["game"].label not in twice],
                          stats["rows"][0]["game"], stats.get("pair_rounds"))
    return None if not sized else (
        f"The change of the cut-card effect {SIZED_WORDS}: {_sized_text(sized)}.")


def _sized_text(sized: dict) -> str:
    """`_sized_shifts` in the ~ note's words: ``decks=1 +0.103 pp (z -0.31)``."""
    return ", ".join(f"{label} {100 * shift:+.3f} pp (z {z:+.2f})"
                     for label, (shift, z) in sized.items())


# How `_sized_shifts` sizes the change of the cut-card effect (the ~ note's and report's words).
SIZED_WORDS = ("on the house edge where both games are played as bjsim measured the effect (the "
               "NZ rules with their decks and boxes, basic strategy, 75% penetration; each "
               f"effect to an SE of about {100 * CUT_CARD_SE:.3f} pp), each "
               "game's effect scaled by its rounds dealt from whole shoes in the blocks, and the "
               "house edge's z less it over its SE")


# The keys a game may change from the NZ rules and still be sized by the measured cut-card effect
# (`_sized_shifts`): those it was measured for, and the side bet's, which the main game ignores.
MEASURED_KEYS = {"decks", "boxes", "super_sevens", "super_sevens_bet", "super_sevens_pays"}


def _notes(stats: dict, has_exact: bool) -> list[str]:
    notes = [n for n in (unused_rules_note(stats), stake_note(stats), _withheld_note(stats),
                         multiple_note(stats), counter_note(stats))
             if n]
    if has_exact:
        notes.append("exact % = the exact analyzer's house edge of each game (a full shoe "
                     f"every round, docs/exact.md); exact diff ({PP}) = a variant's less the "
                     "baseline's, in percentage points; z = (simulated difference - exact "
                     "difference) / se of the paired difference.")
        notes += [n for n in (cut_card_note(stats),) if n]
        unmarked = _unmarked(stats, stats.get("pair_rounds"))
        never = {g.label for g in unreached_games(stats, stats.get("pair_rounds"))}
        scopes = {(r["difference"] or {}).get("house_edge", {}).get("exact_scope")
                  for r in stats["rows"][1:] if r["game"].label not in unmarked}
        tilde = [r["game"].label for r in stats["rows"][1:] if r["game"].label in never
                 and (r["difference"] or {}).get("house_edge", {}).get("exact_scope")
                 == "cut-card" and r["game"].label not in unmarked]
        played = _tilde_rows(stats)
        own = ("" if not tilde else
               f"{', '.join(tilde)}, whose blocks never reach "
               f"{'its' if len(tilde) == 1 else 'their'} cut card, holds none of "
               f"{'its' if len(tilde) == 1 else 'their'} own cut-card effect, only the "
               "baseline's, with its sign turned (as far as the baseline's blocks reach its "
               "cut card)")
        if "cut-card" in scopes and played:
            sized = _sized_text(_sized_shifts(played, stats["rows"][0]["game"],
                                              stats.get("pair_rounds")))
            notes.append("~ marks the decks, penetration, shuffle or boxes changed with a cut "
                         "card: the simulated difference also holds the change of the cut-card "
                         "effect, which the exact one (a full shoe every round) does not"
                         + (f"; that of {own}" if own else "")
                         + (f"; that change {SIZED_WORDS}: {sized}" if sized else "") + ".")
        elif "cut-card" in scopes:
            notes.append("~ marks the decks, penetration, shuffle or boxes changed with a cut "
                         f"card: the simulated difference of {own}, which the exact one (a full "
                         "shoe every round) does not.")
        if "none" in scopes:
            notes.append(f"{NOT_SEEN}: no exact difference or z where only the penetration, the "
                         "shuffle, the boxes or whether the dealer draws with no live box change "
                         "with a cut card: the exact analyzer (one box, a full shoe every round) "
                         "does not see them, and its difference would be 0 whatever they do.")
    return notes


NOT_SEEN = "n/a"  # the exact column of a change the exact analyzer does not see


def _table_rows(stats: dict, key: str, has_exact: bool) -> list[list[str]]:
    rows = []
    unmarked = _unmarked(stats, stats.get("pair_rounds"))
    for row in stats["rows"]:
        game, s = row["game"], row["summary"]
        if not _shown(stats, key, game):
            continue
        d = (row["difference"] or {}).get(key)
        alone = key == "super_sevens" and _adds_ss(stats["rows"][0]["game"], game)
        if row["difference"] is not None and d is None and not alone:
            continue
        rows.append([game.label, *_cells(s[key], key, d, row.get("exact"), has_exact,
                                         not alone, tilde=game.label not in unmarked)])
    return rows


def _strategy_rows(stats: dict, key: str, has_exact: bool) -> list[list[str]]:
    """The rows of the by-strategy table: each game's strategies' figures, and where they are
    paired with the baseline's (`compare.differences`' ``by_strategy``) their differences."""
    unmarked = _unmarked(stats, stats.get("pair_rounds"))
    rows = []
    for row in stats["rows"]:
        game = row["game"]
        if not _shown(stats, key, game):
            continue
        paired = {d["first_box"]: d for d in (row["difference"] or {}).get("by_strategy") or []}
        exact = {e["first_box"]: e for e in (row.get("exact") or {}).get("by_strategy") or []}
        for e in by_strategy(row["summary"], list(game.names)):
            if e[key] is None:
                continue
            d = paired.get(e["first_box"], {}).get(key)
            rows.append([game.label, strategy_label(e),
                         *_cells(e[key], key, d, exact.get(e["first_box"]), has_exact,
                                 row["difference"] is None, game.label not in unmarked)])
    return rows


def _cells(f: dict, key: str, d: dict | None, ex: dict | None, has_exact: bool,
           baseline: bool = True, tilde: bool = True) -> list[str]:
    """A figure ``f`` (as a house edge, with its 95% half-width) and its paired difference
    ``d`` from the baseline (None: the baseline's row, or with ``baseline`` False a figure not
    paired); with ``has_exact`` the exact house edge (``ex``: the exact figures), the exact
    difference and z (``tilde`` False: no `~`, `_unmarked`). A Super Sevens difference whose
    interval is withheld is not shown either (`WITHHELD`; csv and json keep it with its note):
    resting on a handful of big pays, it can
    lie far from the exact difference, even opposite in sign."""
    mean = f["mean"] if key == "house_edge" else f["house_edge"]
    hw_text = WITHHELD if f.get("interval_note") else \
        "-" if f["se"] is None else f"±{_pct(Z95 * f['se'])}"
    cells = [_pct(mean), hw_text]
    if d is None:
        cells += ["(baseline)" if baseline else "-", "", "", "", ""]
    else:
        ci = "-" if d["ci95_low"] is None else \
            f"[{_pct(d['ci95_low'], sign=True)}, {_pct(d['ci95_high'], sign=True)}]"
        diff, corr = _pct(d["mean"], sign=True), _num(d.get("correlation"), ".3f")
        if d.get("interval_note"):
            ci = WITHHELD
            if key == "super_sevens":
                diff, corr = WITHHELD, "-"
        cells += [diff, ci, _num(d.get("variance_reduction"), ".1f"),
                  _num(d.get("se_ratio"), ".2f"), corr]
    if has_exact:
        ex = ex or {}
        v = ex.get("house_edge") if key == "house_edge" else (
            None if ex.get("super_sevens_ev") is None else -ex["super_sevens_ev"])
        if d is None:
            cells += [_pct(v), "", ""]
        elif d.get("exact_scope") == "none":
            cells += [NOT_SEEN, NOT_SEEN, "-"]
        else:
            mark = "~" if d.get("exact_scope") == "cut-card" and tilde else ""
            cells += [_pct(v), mark + _pct(d.get("exact"), sign=True), _num(d.get("z"), "+.2f")]
    return cells


def _headers(key: str, has_exact: bool) -> list[str]:
    what = "house edge %" if key == "house_edge" else "SS house edge %"
    h = ["variant", what, "95%", f"difference ({PP})", f"95% interval ({PP})", "x var",
         "se ratio", "corr"]
    return h + (["exact %", f"exact diff ({PP})", "z"] if has_exact else [])


def _aligned(headers, rows) -> list[str]:
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows, strict=True)]
    def line(cells):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()
    return [line(headers), *(line(r) for r in rows)]


def _markdown(headers, rows) -> list[str]:
    """A markdown table; a cell indented under the one above (leading spaces, which markdown
    drops) starts with ``↳`` instead."""
    out = ["| " + " | ".join(headers) + " |",
           "|" + "|".join("---" if i == 0 else "---:" for i in range(len(headers))) + "|"]
    out += ["| " + " | ".join(md_text("↳ " + c.lstrip() if c[:1] == " " else c, cell=True).replace(
        "|", "\\|") for c in r) + " |" for r in rows]  # (a name from a file: its text shown)
    return out


# what the Super Sevens figures depend on: its return per unit staked, and the stake (its take
# a round, in initial wagers)
SS_KEYS = ("decks", "hole_card", "super_sevens_pays", "super_sevens_bet", "penetration", "shuffle",
           "boxes")  # (penetration, shuffle, boxes: the cut-card effect moves the return too)


def _shown(stats: dict, key: str, game) -> bool:
    """Whether a table of ``key`` shows ``game``: a Super Sevens table, a game that bets it,
    the baseline or a variant that touches it (`_touches_ss`) or adds it (`_adds_ss`)."""
    base = stats["rows"][0]["game"]
    return key == "house_edge" or game.rules.super_sevens and (
        game is base or _touches_ss(base, game) or _adds_ss(base, game))


def _adds_ss(base, game) -> bool:
    """Whether ``game`` bets Super Sevens where the baseline bets none: its figure stands in the
    Super Sevens table with no difference (a rule-variant analyst's review: what adding the
    side bet earns had no figure in the table)."""
    return bool(game.rules.super_sevens) and not base.rules.super_sevens


def _touches_ss(base, game) -> bool:
    """Whether ``game``'s Super Sevens figures can differ from the baseline's: a rule they
    depend on changed (the stake, ``super_sevens_bet``, changes the house's take a round, not
    the house edge per unit staked), or the 7-7 play (which decides whether a third card is
    dealt) of a strategy at its boxes, whether by a changed strategy or by rules that change its
    play (no split with ``max_hands = 1``, a surrender)."""
    if any(getattr(base.rules, k) != getattr(game.rules, k) for k in SS_KEYS):
        return True
    a, b = _sevens_plays(base), _sevens_plays(game)
    return set(a) != set(b) or len(set(a)) > 1 and sorted(a) != sorted(b)


def _sevens_plays(game) -> list:
    """Each box's 7-7 play by up card under the game's rules (`exact.sevens.sevens_plays`)."""
    from simulator.exact.sevens import sevens_plays

    return [tuple(sevens_plays(game.rules, s).items()) for s in game.strategies]


BY_STRATEGY_TITLES = {
    "house_edge": "House edge by strategy (main game + insurance, per initial wager on its boxes)",
    "super_sevens": "Super Sevens (rule 14) house edge by strategy, per unit staked on its boxes"}


def _ss_differences(stats: dict) -> bool:
    """Whether a variant that touches the Super Sevens bet has a difference of it from the
    baseline's (the plot's Super Sevens panel draws those alone)."""
    base = stats["rows"][0]["game"]
    return any((r["difference"] or {}).get("super_sevens") is not None
               and _touches_ss(base, r["game"]) for r in stats["rows"][1:])


def _sections(stats: dict):
    """(key, title) of the tables to print: the house edge, and Super Sevens where a variant
    that bets it touches it."""
    out = [("house_edge", "House edge (main game + insurance, per initial wager)")]
    base = stats["rows"][0]["game"]
    if _ss_differences(stats) or any((r.get("summary") or {}).get("super_sevens")
                                     and _adds_ss(base, r["game"]) for r in stats["rows"][1:]):
        out.append(("super_sevens", "Super Sevens (rule 14) house edge, per unit staked"))
    return out


def render_text(stats: dict, meta: dict, markdown: bool = False) -> str:
    has_exact = "exact" in stats["rows"][0]
    out = _head(stats, meta)
    if markdown:  # (markdown's line breaks; the names and files in it shown as written)
        out = [md_text(ln) + "  " for ln in out[:-1]] + [md_text(ln) for ln in out[-1:]]
    tables = [(title, _headers(key, has_exact), _table_rows(stats, key, has_exact))
              for key, title in _sections(stats)]
    for key, _ in _sections(stats):  # a game's strategies apart (several at its boxes)
        headers = _headers(key, has_exact)
        rows = _strategy_rows(stats, key, has_exact)
        if rows:
            tables.append((BY_STRATEGY_TITLES[key], [headers[0], "strategy", *headers[1:]], rows))
    for title, headers, rows in tables:
        out += ["", f"**{title}**" if markdown else title, ""]
        out += _markdown(headers, rows) if markdown else _aligned(headers, rows)
    out += ["", "Variants:", *(["" ] if markdown else []), *_legend(stats, markdown)]
    notes = [*player_edge_notes(stats), pairing_text(meta["run"]["pair_rounds"], stats["blocks"]),
             *_notes(stats, has_exact), *shoe_note(stats, meta["run"]["pair_rounds"]),
             *filter(None, [unreached_note(stats, meta["run"]["pair_rounds"])]),
             *meta.get("notes", ())]
    baseline = gazette_of(stats["rows"][0]["game"], baseline=True)
    if baseline or any(gazette_of(r["game"]) for r in stats["rows"][1:]):
        notes.append("Gazette: " + GAZETTE_WORDS + (" The baseline's (the first line) is of its "
                                                    "values that are not the NZ game's."
                                                    if baseline else ""))
    if any(key == "super_sevens" for key, _ in _sections(stats)):  # (as simulate's line says)
        notes.append(f"The Super Sevens intervals are from the simulated results' own spread "
                     f"({SS_SD_WORDS}).")
        notes.append(_sevens_play_note(stats))
    for note in notes:
        out += ["", md_text(note)] if markdown else [note] if note is not notes[0] else ["", note]
    return "\n".join(out) + "\n"


def _ss_edge(f: dict | None) -> dict | None:
    """A Super Sevens figure (`tally.summarize`'s, a return with its ``house_edge``) as json
    gives it: a house edge per unit staked, its interval turned round with it, and no ``mean``
    (the return, which reads the other way round)."""
    if f is None:
        return None
    edge, lo, hi = as_edge("super_sevens", f)
    return {"house_edge": edge} | {k: v for k, v in f.items() if k != "mean"} | {
        "ci95_low": lo, "ci95_high": hi}


def player_edge_notes(stats: dict) -> list[str]:
    """A warning of the games (the baseline and the variants, by label) whose Super Sevens pays
    give a player who plays 7-7 for the side bet the edge on it (`report.sevens_player_edge`), one
    for the games of the same warning, first among the notes."""
    games: dict[str, list[str]] = {}  # the warning -> the games it is of (the same pays: one)
    for row in stats["rows"]:
        rules = row["game"].rules
        edge = sevens_player_edge(rules_dict(rules)) if rules.super_sevens else None
        if edge:
            games.setdefault(edge["note"], []).append(row["game"].label)
    return [f"WARNING: {'; '.join(labels)}: {note}." for note, labels in games.items()]  # (a
    # label may hold commas)


def stake_note(stats: dict) -> str | None:
    """Where a variant's Super Sevens stake (``super_sevens_bet``, in initial wagers) is not the
    baseline's: the house edge per unit staked, and the house's take on the side bet a
    box-round, in initial wagers, that times the stake. The exact figures lead where there are
    any (the simulated beside them, unless the table withholds an interval they rest on, its
    `WITHHELD`); with none (``--no-exact``), the simulated, said to have no interval where the
    table withholds it. None where no variant changes the stake."""
    base = stats["rows"][0]
    b = base["game"].rules
    if not b.super_sevens:
        return None
    def edges(row):  # (the simulated and the exact house edge per unit staked; is it withheld?)
        s = row["summary"]["super_sevens"]
        ev = (row.get("exact") or {}).get("super_sevens_ev")
        return s["house_edge"], house_edge_of(ev), s.get("interval_note") is not None
    parts = []
    for row in stats["rows"][1:]:
        r = row["game"].rules
        if not r.super_sevens or r.super_sevens_bet == b.super_sevens_bet:
            continue
        (sim, ex, held), (sim0, ex0, held0) = edges(row), edges(base)
        same = (row.get("same") or {}).get("super_sevens") or (
            (row["difference"] or {}).get("super_sevens") or {}).get("se") == 0 and (
            row["difference"] or {})["super_sevens"].get("mean") == 0
        exact = ex is not None and ex0 is not None
        lead, lead0, beside, beside0 = (ex, ex0, sim, sim0) if exact else (sim, sim0, None, None)
        if held or held0:  # (the table's †: no simulated figure beside the exact one)
            beside = beside0 = None
        what = "exact" if exact else (f"simulated, with no 95% interval ({WITHHELD}): too few "
                                      "rounds for one" if held or held0 else "simulated")
        per_unit = (f"at the same house edge per unit staked ({_pct(lead)}% {what}"
                    + ("" if beside is None else f", {_pct(beside)}% simulated") + ")" if same
                    else f"at a house edge per unit staked of {_pct(lead)}% (the baseline's "
                    f"{_pct(lead0)}%, {what}"
                    + ("" if beside is None else
                       f"; simulated {_pct(beside)}% and {_pct(beside0)}%") + ")")
        takes = ("" if beside is None else f"; simulated {beside0 * b.super_sevens_bet:.3f} to "
                 f"{beside * r.super_sevens_bet:.3f}")
        parts.append(f"{row['game'].label} stakes {r.super_sevens_bet:g} initial wager"
                     f"{'s' if r.super_sevens_bet != 1 else ''} on Super Sevens a box-round, the "
                     f"baseline {b.super_sevens_bet:g}, {per_unit}: the house's take on the side "
                     f"bet a box-round goes from {lead0 * b.super_sevens_bet:.3f} to "
                     f"{lead * r.super_sevens_bet:.3f} initial wagers ("
                     f"{'exact' if exact else 'simulated'}: the house edge per unit staked times "
                     f"the stake{takes})")
    if not parts:
        return None
    return ("Super Sevens stake (super_sevens_bet): " + "; ".join(parts)
            + ". A stake changes no play and no house edge per unit staked: the house's take "
            "a round grows with it (json super_sevens.per_initial_wager, csv per_initial_wager).")


def _exact_edges(ex: dict | None) -> dict | None:
    """A game's exact figures (`compare.exact_figures`) as json gives them: house edges, the
    Super Sevens one (``super_sevens_house_edge``) minus the analyzer's return."""
    if ex is None:
        return None
    ev = ex.get("super_sevens_ev")
    out = {"house_edge": ex.get("house_edge"),
           "super_sevens_house_edge": house_edge_of(ev)}
    if "first_box" in ex:
        out = {"first_box": ex["first_box"]} | out
    if "by_strategy" in ex:
        out["by_strategy"] = [_exact_edges(e) for e in ex["by_strategy"]]
    return out


def _game_json(row: dict, base, sized: dict | None = None) -> dict:
    """A game of the json document: every money figure a house edge (or a difference of house
    edges), docs/compare.md; ``sized``: `_sized_shifts`' of the ~ rows."""
    sized = sized or {}
    game, s = row["game"], row["summary"]
    out = {"label": game.label,  # (a shipped file named as the baseline's: configs/...)
           "source": shown_rule_file(game.source), "description": game.description,
           "changes": list(game.changes),
           "no_effect": no_effect_changes(game.rules, game.changes),
           # (the legend's word, the baseline's of its departures from the NZ game: the head
           # line's; "" for none)
           "gazette": gazette_of(game, baseline=row["difference"] is None),
           "strategy": list(game.names),
           # each box's charts as played (`strategy.charts_sha256`), as simulate's json gives them
           "strategy_sha256": [charts_sha256(x) for x in game.strategies],
           # and each as a strategy file, by that hash (a run of a file rebuilt from the json)
           "strategy_charts": {charts_sha256(x): dumps_strategy(x) for x in game.strategies},
           "strategy_note": game.strategy_note or _derived_note(game),  # (null for none, as
           # simulate's)
           "rules": rules_dict(game.rules),
           "rounds": s["rounds"], "house_edge": s["house_edge"],
           "super_sevens": None if not game.rules.super_sevens else {
               k: v for k, v in _ss_edge(s["super_sevens"]).items()
               if k in ("house_edge", "se", "ci95_low", "ci95_high", "interval_note", "bets")}
           | {"stake": game.rules.super_sevens_bet,  # (in initial wagers, a box-round)
              # the house's take a box-round, in initial wagers: the house edge times the stake
              "per_initial_wager": s["super_sevens"]["house_edge"] * game.rules.super_sevens_bet,
              # where a player who plays 7-7 for it has the edge on it (as simulate's)
              "player_edge": sevens_player_edge(rules_dict(game.rules))},
           "by_strategy": [e | {"super_sevens": _ss_edge(e.get("super_sevens"))}
                           for e in by_strategy(s, list(game.names))],  # each's figures
           "exact": _exact_edges(row.get("exact"))}
    if row["difference"] is not None:
        d = row["difference"]
        out["difference"] = d | {"by_strategy": d.get("by_strategy") and by_strategy(
            {"by_strategy": d["by_strategy"]}, list(game.names))}
        if d.get("house_edge") is not None:  # the ~ note's sizing (`_sized_shifts`), or null
            shift, z = sized.get(game.label, (None, None))
            out["difference"]["house_edge"] = d["house_edge"] | {"cut_card_shift": shift,
                                                                 "z_less_shift": z}
        out["pairing"] = row["pairing"]
        # why it plays identically to the baseline where its rules differ (`compare.unused_note`)
        out["note"] = row.get("note")
        # whether its Super Sevens figure can differ from the baseline's (the tables show it)
        out["super_sevens_touched"] = bool(game.rules.super_sevens) and _touches_ss(base, game)
    return out


def _derived_note(game) -> str | None:
    """What `bjsim simulate` says beside ``game``'s strategy where it plays one strategy by
    name (`derived.strategy_note`: a chart derived for its rules, or the shipped basic under
    rules that call for another); None for none, or for several."""
    from simulator import derived

    names = set(game.names)
    return derived.strategy_note(game.rules, next(iter(names))) if len(names) == 1 else None


def _finite(x):
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def render_json(stats: dict, meta: dict) -> str:
    base = stats["rows"][0]["game"]
    sized = _sized_shifts(_tilde_rows(stats), base, stats.get("pair_rounds")) if (
        "exact" in stats["rows"][0]) else {}
    same = same_games(stats)
    main = same_main_games(stats, same)
    doc = {"bjsim": meta["version"], "source": provenance(), "run": meta["run"],
           "timing": meta["timing"],
           "pairing": pairing_text(meta["run"]["pair_rounds"], stats["blocks"]),
           "shoe_note": next(iter(shoe_note(stats, meta["run"]["pair_rounds"])), None),
           "unreached_cut_card_note": unreached_note(stats, meta["run"]["pair_rounds"]),
           "z_note": cut_card_note(stats),
           "stake_note": stake_note(stats),
           "multiple_comparisons": multiple_note(stats),
           # what the command line said of the variants asked for: left out, baselines set aside
           "notes": list(meta.get("notes", ())),
           "baseline": _game_json(stats["rows"][0], base),
           "variants": [_game_json(r, base, sized) | {"same_game_as": same.get(r["game"].label),
                                                "same_main_game_as": main.get(r["game"].label)}
                        for r in stats["rows"][1:]]}
    return json.dumps(_finite(doc), indent=2, allow_nan=False) + "\n"


def render(stats: dict, meta: dict, fmt: str) -> str:
    """The report in ``fmt`` (one of `FORMATS`)."""
    if fmt == "json":
        return render_json(stats, meta)
    if fmt == "csv":
        run, target = meta["run"], meta["run"].get("precision") or {}
        met = target.get("met")  # (true and false as simulate's csv writes them)
        files = run.get("strategy_files")
        df = frame(stats, files).assign(  # the run on every row: what reproduces it (rounds
            # asked, seed, chunk and block sizes, precision target, version), what it played
            rounds=run["rounds_played"], rounds_asked=run["rounds"], seed=run["seed"],
            chunk_rounds=run["chunk_rounds"], pair_rounds=run["pair_rounds"],
            partial=str(run["partial"]).lower(),
            precision_target=target.get("target"),
            precision_met=None if met is None else str(met).lower(),
            bjsim=meta["version"], **provenance_columns())
        df["value"] = df["value"].map(_csv_number)  # (numbers as the others: full precision)
        df["bets"] = df["bets"].astype("Int64")  # (a count: 6000, not 6000.0; empty elsewhere)
        return csv_frame(df).to_csv(index=False)
    return render_text(stats, meta, markdown=fmt == "markdown")


def require_matplotlib():
    """``matplotlib.pyplot`` (non-interactive), or a one-line ValueError naming the extra."""
    from simulator.plotting import pyplot

    try:
        plt = pyplot()
    except ImportError:
        raise ValueError(f"--plot: needs matplotlib, which is not installed: {PLOT_HINT}") from None
    return plt


# A plot's file the same bytes for the same run (as a PNG is): no date written, fixed SVG ids
# (an .svgz's gzip header without its time too: `_save`).
_DATELESS = {".pdf": {"CreationDate": None}, ".svg": {"Date": None}, ".svgz": {"Date": None}}


def _save(fig, path: str) -> None:
    """``fig`` to ``path`` by its suffix, dateless (`_DATELESS`): an .svgz gzipped here with the
    time 0 in its header, where matplotlib writes the time of writing."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix != ".svgz":
        fig.savefig(path, metadata=_DATELESS.get(suffix))
        return
    with open(path, "wb") as fh, gzip.GzipFile(mode="wb", fileobj=fh, mtime=0) as gz:
        fig.savefig(gz, format="svg", metadata=_DATELESS[suffix])


@contextlib.contextmanager
def _no_date(path: str):
    """PostScript takes its date from ``SOURCE_DATE_EPOCH`` alone: set (to 0) while it is
    written."""
    if os.path.splitext(path)[1].lower() not in (".ps", ".eps"):
        yield
        return
    old = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = "0"
    try:
        yield
    finally:
        if old is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = old


def plot(stats: dict, path: str, partial: bool | str = False) -> None:
    """Draw each variant's house-edge difference with its 95% interval, and the exact difference
    where there is one, to ``path`` (PNG, PDF, SVG: by its extension), and beside it, where the
    table shows Super Sevens (`_sections`), each Super Sevens difference; ``partial``: a stopped
    run's (how it was stopped, `report.stopped_how`; True: interrupted), said in the title."""
    plt = require_matplotlib()
    fig = figure(plt, stats, partial)
    new = not os.path.lexists(path)
    try:
        with plt.rc_context({"svg.hashsalt": "bjsim"}), _no_date(path):
            _save(fig, path)
    except Exception as err_:  # (matplotlib's writer: .pgf's RuntimeError with no LaTeX, ...)
        if new and os.path.isfile(path):
            os.remove(path)  # (a part written: not left as if it were the plot)
        why = (err_.strerror or str(err_)) if isinstance(err_, OSError) else str(err_)
        why = why.strip().splitlines()[0] if why.strip() else type(err_).__name__
        raise ValueError(f"--plot {path}: cannot write: {why}") from None
    finally:
        plt.close(fig)


LEGEND_ROW = 0.25  # inches a line of the plot's legend takes, below the axes
PLOT_AXIS = f"house edge difference from the baseline, percentage points ({PP})"
PLOT_WAGERS = {"house_edge": "Main game + insurance (per initial wager)",
               "super_sevens": "Super Sevens, rule 14 (per unit staked)"}
SS_BLANK = "no point: the variant leaves the Super Sevens bet as it is"
SS_EXACT_ALONE = "exact mark alone: the simulated difference withheld (the table's †)"
SS_NONE_HELD = "no point: the simulated difference withheld (†), and no exact one"


def figure(plt, stats: dict, partial: bool = False):
    """`plot`'s figure: an exact difference whose simulated one also holds the change of the
    cut-card effect (``exact_scope`` "cut-card", the table's ``~``) drawn apart. Where the table
    shows Super Sevens, a second panel draws the Super Sevens differences of the variants that
    touch it, as the table gives them (no simulated point where the table withholds it, `†`).
    The legend is below the axes, outside them, in height added for it: inside, it covered
    points and intervals (wherever "best" put it)."""
    rows = [r for r in stats["rows"][1:] if r["difference"]["house_edge"]["mean"] is not None]
    labels = [r["game"].label for r in rows]
    y = list(range(len(rows)))[::-1]
    base = stats["rows"][0]["game"]
    diffs = {"house_edge": [r["difference"]["house_edge"] for r in rows]}
    if _ss_differences(stats):  # (a variant adding the bet has no difference to draw)
        diffs["super_sevens"] = [r["difference"].get("super_sevens")
                                 if _touches_ss(base, r["game"]) else None for r in rows]
    every = [x for d in diffs.values() for x in d if x is not None]
    entries = 1 + len({x.get("exact_scope") == "cut-card" for x in every
                       if x.get("exact") is not None})  # (the legend's lines)
    fig, axes = plt.subplots(1, len(diffs), sharey=True, squeeze=False,
                             figsize=(8 if len(diffs) == 1 else 13,
                                      0.35 * len(rows) + 1.5 + LEGEND_ROW * (entries + 1)),
                             layout="constrained")
    # a simulated point where the table shows one: not a Super Sevens difference whose
    # interval is withheld (the table's †), nor one of a variant that leaves the bet alone
    sims = {key: [(x, yy) for x, yy in zip(d, y, strict=True) if x is not None and not (
        key == "super_sevens" and x.get("interval_note"))] for key, d in diffs.items()}
    withheld = any(x["se"] is None for sim in sims.values() for x, _ in sim) or sum(
        map(len, sims.values())) < len(every)
    label = "simulated, 95% interval" + (" (where given)" if withheld else "")
    handles = {}
    for ax, (key, d) in zip(axes[0], diffs.items(), strict=True):
        sim = sims[key]
        if sim:
            handles.setdefault(label, ax.errorbar(
                [100 * x["mean"] for x, _ in sim], [yy for _, yy in sim],
                xerr=[Z95 * (x["se"] or 0) * 100 for x, _ in sim], fmt="o", color="tab:blue",
                capsize=3, label=label))
        for cut, marker, text in ((False, "x", "exact"), (True, "1", "exact, full shoe (~: the "
                                                           "simulated also holds the cut-card "
                                                           "effect)")):
            ex = [(100 * x["exact"], yy) for x, yy in zip(d, y, strict=True)
                  if x is not None and x.get("exact") is not None
                  and (x.get("exact_scope") == "cut-card") == cut]
            if ex:
                (line,) = ax.plot([e[0] for e in ex], [e[1] for e in ex], marker,
                                  color="tab:red", label=text, zorder=3, markersize=8)
                handles.setdefault(text, line)
        ax.axvline(0, color="grey", lw=0.8)
        ax.margins(x=0.08)
        if len(diffs) == 1:  # (the main game's alone: its axis says so)
            ax.set_xlabel(f"{PLOT_AXIS}\n{PLOT_WAGERS[key].lower().replace(' (', ', ')[:-1]}")
        else:
            ax.set_title(PLOT_WAGERS[key], fontsize="medium")
            held = [x for x in d if x is not None and x.get("interval_note")]
            why = [w for w, shown in (
                (SS_BLANK, any(x is None for x in d)),
                (SS_EXACT_ALONE, any(x.get("exact") is not None for x in held)),
                (SS_NONE_HELD, any(x.get("exact") is None for x in held)))
                if shown and key == "super_sevens"]
            ax.set_xlabel(PLOT_AXIS + "".join(f"\n({w})" for w in why))
    axes[0][0].set_yticks(y, labels)
    title = (f"{base.label}: {stats['rounds']:,} rounds per game"
             + (f" (partial: {partial if isinstance(partial, str) else 'interrupted'})"
                if partial else ""))
    if len(diffs) == 1:
        axes[0][0].set_title(title)
    else:
        fig.suptitle(title)
    fig.legend(handles=list(handles.values()), loc="outside lower center", fontsize="small",
               frameon=False)
    return fig
