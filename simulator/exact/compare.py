"""Exact figures for the command line: `bjsim exact`, and `bjsim simulate --exact`.

- `exact_figures(rules, strategy=None, optimal=False)`: main game, insurance, Super Sevens and
  the 7-7 question for a rule set and strategy (None: the derived basic strategy), or of
  composition-dependent optimal play, JSON-ready.
- `sevens_question(rules, strategy)`: combined EV of main wager + Super Sevens for each 7-7 play
  and dealer card, for side bets of 0.5, 1 and 2 times the main wager, and how far the Super
  Sevens house edge moves when every 7-7 is played one way.
- `compare_with_simulation(summary, rules, strategies)`: theory, difference and z-score of the
  simulated house edges (main game, Super Sevens, insurance): every z of a house edge.
"""

from __future__ import annotations

import math
import pickle
import textwrap

import numpy as np

from simulator.exact import cache
from simulator.exact.analyze import (
    STRATEGY_ALLOWED,
    UPS,
    _Box,
    _two_card_hands,
    analyze,
    kept,
    remembered,
)
from simulator.exact.player import EV, UpCard, compile_here
from simulator.exact.sevens import PLAYS, sevens_plays, super_sevens
from simulator.exact.shoe import flag, full_shoe
from simulator.processes import map_spawned
from simulator.report import sevens_note, sevens_player_edge
from simulator.rules import plural, validate
from simulator.source import provenance
from simulator.strategy import checked, sevens_row_for

SIDE_BETS = (0.5, 1.0, 2.0)


def _p_sevens(rules) -> dict:
    """P(box holds 7,7 and the dealer shows ``up``) for each up value, from the full shoe."""
    shoe = full_shoe(rules.decks)
    n = shoe.sum()
    out = {}
    for up in range(1, 11):
        comp = shoe.copy()
        comp[up - 1] -= 1
        p77 = next((p for a, b, p in _two_card_hands(comp) if a == b == 7), 0.0)
        out[up] = shoe[up - 1] / n * p77
    return out


def insurance_per_unit_staked(rules) -> float:
    """The insurance wager's return per unit staked (rule 9), from a full shoe: the dealer's ace
    and a box's two cards (not a blackjack, which is offered even money) out, it wins
    ``insurance_pays`` when the dealer's second card is ten-valued. The same for every strategy
    that takes it. ``rules`` checked as `exact_figures`' (`validate`)."""
    rules = validate(rules, "rules")  # (6.5 decks, "Peek" had been valued, None AttributeError)
    comp = full_shoe(rules.decks).astype(np.float64)
    comp[0] -= 1  # the dealer's ace
    n, p_hands, p_ten = comp.sum(), 0.0, 0.0
    for a, b, p in _two_card_hands(comp):
        if (a, b) != (1, 10):
            p_hands += p
            p_ten += p * (comp[9] - (a == 10) - (b == 10)) / (n - 2)
    p_ten /= p_hands
    return rules.insurance_pays * p_ten - (1 - p_ten)


def sevens_question(rules, strategy, policy_ups=None) -> dict:
    """The 7-7 question: with a Super Sevens bet up, what is each 7-7 play worth?

    Returns ``by_up``: {up: {play: {main, super_sevens, combined: {bet: value}}}} (values per
    7-7 hand against that up card: main wager per initial wager, Super Sevens per unit staked,
    combined = main + bet x super sevens), ``best``: {bet: {up: play}}, and ``plays``: one row per
    way of playing every 7-7 (split, stand, hit, double, surrender where the rules allow it, and
    the strategy's own row): the Super Sevens house edge, the change of the main game's EV per
    round against the strategy's row, and the combined change per round for each side bet.
    ``strategy``: a Strategy, or (with ``policy_ups``, the up cards' values of the play valued)
    its 7-7 play by up card.
    """
    from simulator.exact.player import Tables

    tables = None if policy_ups else Tables.of(strategy)
    ss_by_up = super_sevens(rules, "stand")["by_up"]
    p77 = _p_sevens(rules)
    own = sevens_plays(rules, strategy)
    by_up = {}
    main = {}
    for up in range(1, 11):
        uc = policy_ups[up] if policy_ups else UpCard(rules, up, tables)
        opts = _Box(uc).options(7, 7, True)
        main[up] = {k: float(v[EV]) for k, v in opts.items() if k in PLAYS}
        by_up[up] = {
            play: {
                "main": main[up][play],
                "super_sevens": ss_by_up[up][play],
                "combined": {bet: main[up][play] + bet * ss_by_up[up][play] for bet in SIDE_BETS},
            }
            for play in PLAYS if play in main[up]
        }
    best = {bet: {up: max(by_up[up], key=lambda k, u=up, b=bet: by_up[u][k]["combined"][b])
                  for up in range(1, 11)} for bet in SIDE_BETS}
    own_ss = super_sevens(rules, strategy)
    rows = []
    for label in ("strategy", *PLAYS):
        if label != "strategy" and not any(label in main[up] for up in range(1, 11)):
            continue  # not allowed at all (a split with max_hands = 1): no row
        plays = own if label == "strategy" else {up: label for up in range(1, 11)}
        plays = {up: (p if p in main[up] else own[up]) for up, p in plays.items()}
        ss = own_ss if label == "strategy" else super_sevens(rules, plays)
        d_main = sum(p77[up] * (main[up][plays[up]] - main[up][own[up]]) for up in range(1, 11))
        d_ss = ss["ev"] - own_ss["ev"]
        rows.append({
            "play": label,
            "super_sevens_house_edge": ss["house_edge"],
            "main_ev_change": d_main,
            "combined_change": {bet: d_main + bet * d_ss for bet in SIDE_BETS},
        })
    return {"by_up": by_up, "best": best, "plays": rows, "p_sevens": p77, "strategy_plays": own}


def exact_figures(rules, strategy=None, optimal: bool = False) -> tuple:
    """Every exact figure `bjsim exact` reports (JSON-ready apart from the Strategy object), and
    the strategy; computed once for a game and kept, in the process (`analyze.remembered`) and
    on disk (`cache.load_figures`), the same for every cut card, shuffle and number of boxes.
    ``optimal``: of composition-dependent optimal play (`analyze.analyze`'s ``optimal``; no
    strategy: ``strategy`` is not read, and None is returned for it). ``rules`` checked as
    `analyze.analyze` checks them (`validate`), ``optimal`` True or False."""
    # (a Rules made in code: valued only as a file could say, before any work; 9 boxes or a
    # penetration of 5 had been valued, as one box and the default cut are)
    rules, optimal = validate(rules, "rules"), flag("optimal", optimal)
    one = cache.one_box(rules)
    strategy = None if optimal else strategy
    if strategy is not None:
        checked(strategy, "strategy", STRATEGY_ALLOWED)  # (insurance "no" had been taken)

    def compute():
        hit = cache.load_figures(one, strategy, optimal)
        if hit is None:  # (or another process's, once it has computed them)
            with cache.one_at_a_time(cache.figures_path(one, strategy, optimal)):
                hit = cache.load_figures(one, strategy, optimal)
                if hit is None:
                    hit = _optimal_figures(one) if optimal else _exact_figures(one, strategy)
                    cache.save_figures(one, strategy, hit, optimal)
        return hit

    figures, strat = remembered(("exact-optimal", one) if optimal else ("exact", one, strategy),
                                compute)
    return _boxes(figures, int(rules.boxes)), strat


def _boxes(figures: dict, boxes: int) -> dict:
    """One box's ``figures`` as those of each box of ``boxes``."""
    sd_round = figures["sd_box_round"] if boxes == 1 else None
    return figures | {"boxes": boxes, "per_box_note": per_box_note(boxes), "sd_round": sd_round}


def exact_figures_all(pairs, workers: int | None = None) -> int:
    """``exact_figures`` of each ``(rules, strategy)`` neither the process nor the disk keeps
    yet, side by side on up to ``workers`` processes (`simulator.processes`), kept for the calls
    that follow; returns how many were computed."""
    todo, asked = [], {}
    for r, s in pairs:  # (strategies hold arrays: told apart by their pickles)
        r = validate(r, "rules")  # (as `exact_figures` checks them)
        if s is not None:
            checked(s, "strategy", STRATEGY_ALLOWED)
        asked.setdefault(pickle.dumps((cache.one_box(r), s)), (cache.one_box(r), s))
    for r, s in asked.values():
        if kept(("exact", r, s)):
            continue
        hit = cache.load_figures(r, s)
        if hit is None:
            todo.append((r, s))
        else:
            remembered(("exact", r, s), lambda hit=hit: hit)
    if todo:
        compile_here()
    for (r, s), figures in zip(todo, map_spawned(_exact_pair, todo, workers), strict=True):
        cache.save_figures(r, s, figures)
        remembered(("exact", r, s), lambda figures=figures: figures)
    return len(todo)


def _exact_pair(pair) -> tuple:
    return _exact_figures(*pair)


def _exact_figures(rules, strategy) -> tuple:
    from simulator.exact.analyze import derive, evaluate, strategy_from_tables, trees
    from simulator.exact.player import Tables

    if strategy is None:  # derive and evaluate on the same hand trees (one pass, ~2x faster)
        derived, ups = derive(rules)
        strat = strategy_from_tables(rules, derived)
        tables = Tables.of(strat)
    else:
        strat = strategy
        tables = Tables.of(strategy)
        ups = trees(rules, tables)
    res, _ = evaluate(rules, tables, ups)
    return _figures(rules, res, ups, strat, strat.name, bool(strat.insurance),
                    bool(strat.even_money), "chart"), strat


def _untaken_gain(fig: dict) -> str:
    """After an insurance return per unit staked that a strategy leaves untaken: that it would
    gain, where it would (``insurance_pays=2.4``), and for --optimal where a chart takes it."""
    ins = fig["insurance"]
    if ins["taken"] or (ins["per_unit_staked"] or 0) <= 0:
        return ""
    if fig["strategy"] == OPTIMAL_NAME:
        return (": a gain, which --optimal leaves untaken, as published analyzers do (the "
                "rules' derived basic strategy, without --optimal, takes it)")
    return ": a gain this strategy leaves untaken"


# Which play the figures value (``play``), and in words (``play_note``).
PLAYS_VALUED = {
    "chart": "the strategy's chart, as the engine plays it: each decision by the chart's cell "
             "(the hand's hard or soft total, its pair, the sevens row), whatever cards make it",
    "optimal": "composition-dependent optimal play, as published combinatorial analyzers "
               "headline it: each decision the best for the cards held and the up card (later "
               "ones too; splits by the published tables' convention, docs/exact.md), no "
               "insurance, even money where it gains; no chart is played",
}
OPTIMAL_NAME = "optimal (composition-dependent)"  # the figures' strategy with --optimal


def _optimal_figures(rules) -> tuple:
    """`exact_figures` of composition-dependent optimal play (`analyze.evaluate`'s ``None``
    policy): its 7-7 play against each up card, the main wager's best, for the Super Sevens
    figures and the 7-7 question (a surrender there deals no third card: the side bet settles
    on the two sevens)."""
    from simulator.exact.analyze import evaluate

    res, ups = evaluate(rules, None)
    sevens = {h["up"]: h["choice"] for h in res["hands"] if h["hand"] == (7, 7)}
    box = _Box(ups[1])  # even money where it gains (`evaluate`): against the ace, the blackjack
    even_money = bool(box.natural(True)[EV] > box.natural(False)[EV])
    return _figures(rules, res, ups, sevens, OPTIMAL_NAME, False, even_money, "optimal"), None


def _sevens_row_note(strategy, rules) -> str | None:
    """A chart's "Sevens row: best 7,7 play ..." sentence (`strategy.sevens_row_for`) where it
    was chosen for another Super Sevens bet or pays than ``rules``', else None."""
    if not hasattr(strategy, "description") or not rules.super_sevens:
        return None
    for sentence in (t.strip() for t in strategy.description.split(". ")):
        said = sevens_row_for(sentence.rstrip(".") + ".", rules)
        if said != sentence.rstrip(".") + ".":
            return f"{strategy.name}'s sevens row: {said.split(': ', 1)[1]}"
    return None


def _figures(rules, res, ups, sevens, name, insured, even_money, play) -> dict:
    """`exact_figures` from an evaluation ``res`` (`analyze.evaluate`) on the up cards ``ups``,
    with the 7-7 play ``sevens`` (a Strategy, or a play by up card)."""
    boxes = int(rules.boxes)
    out = {
        "strategy": name,
        "play": play,
        "play_note": PLAYS_VALUED[play],
        "boxes": boxes,
        "per_box_note": per_box_note(boxes),
        "house_edge": -res["ev"],
        "ev": res["ev"],
        "sd_box_round": res["sd"],
        "sd_round": res["sd"] if boxes == 1 else None,
        "insurance": {"taken": insured, "per_initial_wager": res["insurance_ev"],
                      "per_unit_staked": insurance_per_unit_staked(rules)},
        "main_ev": res["ev"] - res["insurance_ev"],
        "even_money_taken": even_money,
        "super_sevens": None,
        "sevens_question": None,
        # where a chart's sevens row was chosen for another bet or pays (a designer's review:
        # exact said nothing, the report did)
        "sevens_row_note": _sevens_row_note(sevens, rules),
    }
    if rules.super_sevens:
        ss = super_sevens(rules, sevens)
        out["super_sevens"] = {
            "house_edge": ss["house_edge"], "ev": ss["ev"], "sd_bet": ss["sd"],
            "plays": {UP_LABELS.get(up, str(up)): ss["plays"][up] for up in UPS},  # as the table
            "lines": ss["lines"],
        }
        out["sevens_question"] = sevens_question(rules, sevens, ups)
    return out


def per_box_note(boxes: int) -> str | None:
    """What the exact figures of a game of ``boxes`` boxes are (None for one box): per box, each
    box valued alone; the SD of a whole round is not computed."""
    if boxes == 1:
        return None
    return (f"{boxes} boxes: every figure is per box (per initial wager, per unit staked, per "
            "box-round), each box valued alone from a full shoe (docs/exact.md, A5); the SD of "
            f"a round of {boxes} boxes is not computed (its boxes share the dealer's cards): "
            f"bjsim simulate --boxes {boxes} measures it")


# ---------------------------------------------------------------------------------------------
# simulate --exact


def _box_strategies(rules, strategies):
    if not isinstance(strategies, (list, tuple)):
        strategies = [strategies]
    strategies = list(strategies)
    if len(strategies) == 1:
        strategies = strategies * int(rules.boxes)
    return strategies


def box_mean(figures: list[dict]) -> dict:
    """The mean over boxes of each box's ``{"house_edge", "super_sevens_ev"}``: a box's own
    figure when every box's is the same (not a mean rounded off it)."""
    if all(f == figures[0] for f in figures):
        return dict(figures[0])
    ss = [f["super_sevens_ev"] for f in figures]
    return {"house_edge": float(np.mean([f["house_edge"] for f in figures])),
            "super_sevens_ev": None if None in ss else float(np.mean(ss))}


def theory(rules, strategies) -> dict:
    """Exact house edge and Super Sevens return for the boxes' strategies (`box_mean`; each box
    valued alone from a full shoe)."""
    cache = {}
    for s in _box_strategies(rules, strategies):
        if id(s) not in cache:
            res = analyze(rules, s)
            cache[id(s)] = {"house_edge": float(res["house_edge"]), "super_sevens_ev":
                            float(res["super_sevens"]["ev"]) if res["super_sevens"] else None}
    mean = box_mean([cache[id(s)] for s in _box_strategies(rules, strategies)])
    return {"house_edge": mean["house_edge"], "super_sevens": mean["super_sevens_ev"]}


# The cut-card effect: a shoe dealt to a cut card has a higher house edge than the full-shoe
# exact figure. Measured by bjsim (basic strategy, one box, the NZ rules with these decks, cut
# card at 75%): simulated less exact, 4 x 10^9 rounds a deck count (seed 4545, SE 0.0018%); six
# decks 10^10 rounds (0.021%, SE 0.0011%, README "Exact analysis"). A z against the exact figure
# holds it.
CUT_CARD_MEASURED = {1: 0.00122, 2: 0.00067, 4: 0.00033, 6: 0.00021, 8: 0.00017}
# The same for a table of several boxes, basic strategy on every box, the effect per box: 6 and
# 8 decks (the decks rule 14 was played with; session 51) and 4 (session 52), `bjsim simulate
# --set decks=D --boxes B --seed 4545 --chunk-rounds 10M --precision 0.00004 --max-rounds 4e9
# --exact -f json` (an SE of 0.0020 pp; 1.4-2.1 x 10^9 rounds each): (decks, boxes) ->
# (effect, the SD a round of the boxes' mean result, the SE x sqrt(rounds)). With 1 and 2
# decks it was measured too and is not used (README "Exact analysis"): there it turns on how
# many rounds the cut card leaves a shoe, whole rounds of the table's cards a round, so on the
# strategy and rules as much as on the boxes (2 decks, 7 boxes: +0.006 pp for basic strategy,
# about +0.15 for never-bust; 6 boxes +0.080).
CUT_CARD_BOXES = {
    (4, 2): (0.000280, 0.931), (4, 3): (0.000218, 0.855), (4, 4): (0.000286, 0.815),
    (4, 5): (0.000220, 0.789), (4, 6): (0.000273, 0.772), (4, 7): (0.000343, 0.759),
    (6, 2): (0.000168, 0.932), (6, 3): (0.000151, 0.856), (6, 4): (0.000151, 0.816),
    (6, 5): (0.000172, 0.790), (6, 6): (0.000171, 0.773), (6, 7): (0.000153, 0.760),
    (8, 2): (0.000141, 0.933), (8, 3): (0.000136, 0.857), (8, 4): (0.000140, 0.816),
    (8, 5): (0.000115, 0.791), (8, 6): (0.000114, 0.773), (8, 7): (0.000107, 0.761)}
CUT_CARD_SE = 0.00002  # about the SE of each measurement (0.0000204)
MEASURED_PENETRATION = 0.75  # the penetration of every figure of CUT_CARD_MEASURED
CUT_CARD_MARK = "~"
SD_ROUND = 1.15  # about the SD of one box's result a round (NZ game: 1.15 to 1.17)
CUT_CARD_EFFECT = ("the cut-card effect (as bjsim measured it for basic strategy at 75% "
                   "penetration: about +0.021 pp on the house edge with 6 decks, +0.017 pp with 8, "
                   "+0.033 pp with 4, +0.067 pp with 2, +0.122 pp with 1, each to an SE of about "
                   "0.002 pp; pp: percentage points)")


def cut_card_effect(decks: int, boxes: int = 1) -> float:
    """The measured cut-card effect of ``decks`` decks (`CUT_CARD_MEASURED`; between two deck
    counts measured, the larger), of a table of ``boxes`` boxes where it was measured
    (`CUT_CARD_BOXES`), else of one box."""
    if (decks, int(boxes)) in CUT_CARD_BOXES:
        return CUT_CARD_BOXES[decks, int(boxes)][0]
    m = CUT_CARD_MEASURED
    if decks in m:
        return m[decks]
    return max(m[max(d for d in m if d < decks)], m[min(d for d in m if d > decks)])


def cut_card_words(decks: int, penetration: float | None = None, boxes: int = 1) -> str:
    """`CUT_CARD_EFFECT` for a shoe of ``decks`` decks, in percentage points (pp): a difference
    of two house edges; with a ``penetration`` not the one measured, or more than one box
    (`effect_measured`), that its size there is not measured."""
    if penetration is not None and not effect_measured(penetration):
        return (f"the cut-card effect (its size at {100 * penetration:g}% penetration is not "
                f"measured: bjsim measured it at {100 * MEASURED_PENETRATION:g}% only)")
    if int(boxes) > 1 and (decks, int(boxes)) in CUT_CARD_BOXES:
        return (f"the cut-card effect (about +{100 * cut_card_effect(decks, boxes):.3f} pp, "
                f"percentage points, on the house edge of a table of {boxes} boxes with {decks} "
                f"{plural(decks, 'deck', 'decks')}, as bjsim measured it for basic strategy on "
                f"every box at 75% "
                f"penetration to an SE of about {100 * CUT_CARD_SE:.3f} pp; "
                f"+{100 * cut_card_effect(decks):.3f} pp for one box)")
    if int(boxes) > 1:
        return (f"the cut-card effect (its size with {boxes} boxes is not measured: bjsim "
                f"measured it for one box, {_one_box(decks)} at 75% penetration, "
                f"{BOXES_MEASURED};"
                f" {BOXES_DIFFER})")
    d = sorted(CUT_CARD_MEASURED)
    how = ("as bjsim measured it" if decks in CUT_CARD_MEASURED else "the larger of bjsim's "
           f"measurements at {max(x for x in d if x < decks)} and "
           f"{min(x for x in d if x > decks)} decks")
    return (f"the cut-card effect (about +{100 * cut_card_effect(decks):.3f} pp, percentage "
            f"points, on the house edge with {decks} {plural(decks, 'deck', 'decks')}, {how} "
            f"for basic strategy at 75% penetration to an SE of about {100 * CUT_CARD_SE:.3f} pp"
            f"{'; +0.122 pp with 1 deck' if decks > 2 else ''})")


def _one_box(decks: int) -> str:
    """One box's effect with ``decks`` decks in words, saying where it is not measured at that
    many but taken from its neighbours (`cut_card_effect`)."""
    d = sorted(CUT_CARD_MEASURED)
    return (f"about +{100 * cut_card_effect(decks):.3f} pp with {decks} "
            f"{plural(decks, 'deck', 'decks')}" + ("" if decks in CUT_CARD_MEASURED else
            f" (the larger of its measurements at {max(x for x in d if x < decks)} and "
            f"{min(x for x in d if x > decks)} decks)"))


def effect_measured(penetration: float, boxes: int = 1, decks: int | None = None) -> bool:
    """Is the cut-card effect measured at ``penetration`` (`MEASURED_PENETRATION`, the only
    one `CUT_CARD_MEASURED` holds) for a table of ``boxes`` boxes (one, or several with
    ``decks`` decks as `CUT_CARD_BOXES` holds)? Elsewhere no z is withheld or sized by it."""
    return math.isclose(float(penetration), MEASURED_PENETRATION) and table_measured(decks, boxes)


def table_measured(decks: int | None, boxes: int) -> bool:
    """Is the cut-card effect measured for a table of ``boxes`` boxes and ``decks`` decks (one
    box: any decks; several: `CUT_CARD_BOXES`), at `MEASURED_PENETRATION`?"""
    return int(boxes) == 1 or (decks, int(boxes)) in CUT_CARD_BOXES


# With several boxes the effect differs from one box's, and not in one direction (basic strategy
# at 75%, in pp: 1 deck +0.004 to +0.120 against one box's +0.122, 2 decks +0.006 to +0.080
# against +0.067, not kept, above; `CUT_CARD_BOXES`: 4 decks +0.022 to +0.034 against +0.033,
# 6 decks +0.015 to +0.017 against +0.021, 8 decks +0.011 to +0.014 against +0.017).
BOXES_DIFFER = "with several boxes it differs, smaller or not"
BOXES_MEASURED = "and for tables of 2-7 boxes with 4, 6 and 8 decks only"


HOW_TO_MEASURE = ("with a shuffle before every round (--set shuffle=every-round), as the exact "
                  "value is dealt, there is no cut-card effect, and z tests only whether the "
                  "simulation agrees with the exact value; bjsim compare --vary "
                  "shuffle=every-round measures the effect")
# the same in plain words, for a document that names no options (the report)
HOW_TO_MEASURE_PLAIN = ("with a shuffle before every round, as the exact value is dealt, there "
                        "is no cut-card effect, and z tests only whether the simulation agrees "
                        "with the exact value; the same game simulated both ways measures the "
                        "effect")


def unmeasured_caveat(rules, wager: str | None = None, plain: bool = False,
                      boxes: int | None = None) -> str:
    """What a z against a full-shoe exact figure holds under a cut card whose effect on it is
    not measured (``z_caveat``): of ``wager`` (a side wager's house edge, as "Super Sevens",
    named in the words), or of the main game's house edge at a penetration other than
    `MEASURED_PENETRATION` or on a table of several boxes (``boxes``, default the rules'). No
    figure sizes it. ``plain``: how to measure it in words, no options
    (`HOW_TO_MEASURE_PLAIN`)."""
    what = ("z" if wager is None else f"z of the {wager} house edge")
    n = int(rules.boxes if boxes is None else boxes)
    unmeasured = (f"the cut card's effect on {wager}, which bjsim has not measured"
                  if wager is not None else
                  f"the cut-card effect, which bjsim has not measured at this penetration "
                  f"({100 * rules.penetration:g}%; it measured it at "
                  f"{100 * MEASURED_PENETRATION:g}% only)"
                  if not effect_measured(rules.penetration) else
                  f"the cut-card effect, which bjsim has not measured for a table of {n} boxes "
                  f"with {rules.decks} {plural(rules.decks, 'deck', 'decks')} (it measured it "
                  f"for one box: {_one_box(rules.decks)}, {BOXES_MEASURED}; {BOXES_DIFFER})")
    return (f"{what} tests the simulation, dealt to a cut card, against the exact value for a "
            f"full shoe every round, so it includes {unmeasured}: how far it moves z is not "
            f"known here, and the more rounds, the more it moves z "
            f"({HOW_TO_MEASURE_PLAIN if plain else HOW_TO_MEASURE})")


def z_min_se(rules, boxes: int | None = None) -> float:
    """Under a cut card, the SE below which no z is given: the cut-card effect of the table
    (``boxes``, default the rules') alone would move z by 2 or more."""
    return cut_card_effect(rules.decks, rules.boxes if boxes is None else boxes) / 2


def basis(decks: int, penetration: float | None = None, boxes: int = 1) -> str:
    """What the exact figures of a shoe of ``decks`` decks are for, in words (the cut-card
    effect's size only at the ``penetration`` and for the ``boxes`` it was measured for:
    `cut_card_words`)."""
    return ("every round from a full shoe, as a shuffle every round deals it: the rules' "
            "penetration and shuffle do not enter; a game dealt to a cut card has a house edge "
            f"higher by {cut_card_words(decks, penetration, boxes)}, which these figures leave "
            "out")


def cut_card_caveat(rules, plain: bool = False, boxes: int | None = None,
                    own: int | None = None) -> str:
    """What a z against a full-shoe exact figure holds under a cut card (``z_caveat``), for a
    table (``boxes``, default the rules') at the penetration and of the boxes and decks the
    effect was measured for (`effect_measured`); elsewhere `unmeasured_caveat` (``plain``: its
    words for the report): no figure sizes it. ``own``: the boxes whose mean the z is of (one
    strategy's of a mixed table; default every box): its rounds' SD sizes the illustration."""
    n = int(rules.boxes if boxes is None else boxes)
    if not effect_measured(rules.penetration, n, rules.decks):
        return unmeasured_caveat(rules, plain=plain, boxes=n)
    e = cut_card_effect(rules.decks, n)
    k = n if own is None else int(own)
    sd = SD_ROUND if k == 1 else CUT_CARD_BOXES[rules.decks, k][1]  # of those boxes' mean
    at = [e / (sd / math.sqrt(r)) for r in (1e7, 1e8)]
    large = (2 * sd / e) ** 2  # the rounds from which the effect alone moves z by 2
    table = ("one box" if n == 1 else f"{n} boxes" if k == n else
             f"its {'box' if k == 1 else f'{k} boxes'} of the table's {n}")
    return ("z tests the simulation, dealt to a cut card, against the exact value for a full "
            f"shoe every round, so it includes {cut_card_words(rules.decks, boxes=n)}, which "
            f"moves z's centre by about {100 * e:.3f} pp / SE (+{at[0]:.1f} at 10 million rounds "
            f"of {table}, +{at[1]:.1f} at 100 million; z still varies by about 2 either side of "
            f"it, at 95%), so a large |z| from about {_rounds_words(large)} rounds on is "
            "expected, not a fault (with a shuffle before every round, as the exact value is "
            "dealt, there is no cut-card effect, and z tests only whether the simulation agrees "
            "with the exact value)")


def _rounds_words(n: float) -> str:
    """``n`` rounds to one significant figure, in words: ``4 million``, ``100 million``."""
    digits = int(math.floor(math.log10(n)))
    lead = round(n / 10**digits)
    if lead == 10:
        lead, digits = 1, digits + 1
    scale = next((w, 10**k) for k, w in ((9, "billion"), (6, "million"), (3, "thousand"),
                                         (0, "")) if digits >= k)
    return f"{lead * 10**digits // scale[1]:,} {scale[0]}".strip()


def cut_card_z(rules, z, se, wager: str | None = None, plain: bool = False,
               boxes: int | None = None,
               own: int | None = None) -> tuple[float | None, str | None, str | None]:
    """A z against a full-shoe exact value, as every output gives it: ``(z, z_note,
    z_caveat)``. With ``shuffle = "every-round"`` the z as it is, no note and no caveat; under
    a cut card, for a table of one box (``boxes``: the table's, default the rules'), the z
    with the caveat `cut_card_caveat`, or, where ``se`` is below `z_min_se` (half the cut-card
    effect of the rules' decks: it alone would move z by 2 or more), no z and a note saying
    why: a z that large tests the cut-card effect, not the simulation, and the difference
    beside it says as much. ``wager``: a side wager's name ("Super Sevens", "insurance"),
    whose cut-card effect is not measured: its z with `unmeasured_caveat`, never withheld;
    likewise the main game's at a penetration, or on a table of several boxes, where the
    effect is not measured (`effect_measured`); ``plain``: its caveat in words, no options,
    for the report; ``own``: `cut_card_caveat`'s."""
    if rules.shuffle == "every-round" or z is None:
        return z, None, None
    boxes = int(rules.boxes if boxes is None else boxes)
    if wager is not None or not effect_measured(rules.penetration, boxes, rules.decks):
        return z, None, unmeasured_caveat(rules, wager, plain, boxes)
    least = z_min_se(rules, boxes)
    if se is not None and se < least:
        return None, (f"no z: its SE ({100 * se:.4f}%) is below {100 * least:.3f}%, where "
                      f"{cut_card_words(rules.decks, boxes=boxes)} would move z by 2 or more (the "
                      "exact value is for a full shoe every round): the difference is that "
                      "effect plus any fault, so no z is given (with a shuffle before every "
                      "round, as the exact value is dealt, z tests only whether the simulation "
                      "agrees with the exact value)"), None
    return z, None, cut_card_caveat(rules, plain, boxes, own)


def compare_with_simulation(summary: dict, rules, strategies, th=None, boxes=None,
                            own=None) -> dict:
    """Theory beside the simulated figures: {figure: {simulated, se, exact, difference, z}},
    each figure a house edge (the main game's, Super Sevens' and insurance's: minus their
    returns), so that every z is of a house edge, + where the simulated one is higher.

    ``z`` = (simulated - exact) / se, or None where the simulated figure's interval is withheld
    (its ``interval_note``: too few wins of a big Super Sevens line for its se to mean
    anything), and ``z_note`` then says why. The exact figure is for a full shoe every round:
    compare with ``shuffle = "every-round"``; under a cut card the simulated figure also holds
    the cut-card effect (and ``exact_note`` says so): ``z_caveat`` says z includes it, or, with
    an se below `z_min_se`, ``z_note`` why no z is given (`cut_card_z`: for the tables the
    effect was measured for, `effect_measured`); ``boxes``: the table's, where ``rules`` are one
    box's (one strategy's boxes of a table, ``summary`` their figures; ``own``: how many).
    ``th``: `theory` of the game, if known.
    """
    th = theory(rules, strategies) if th is None else th
    out = {}
    pairs = [("house_edge", summary["house_edge"], th["house_edge"])]
    if rules.super_sevens and th["super_sevens"] is not None:
        pairs.append(("super_sevens_house_edge", _house_edge(summary["super_sevens"]),
                      -th["super_sevens"]))
    if (summary.get("insurance") or {}).get("mean") is not None:  # some box insures
        pairs.append(("insurance_house_edge", _house_edge(summary["insurance"]),
                      -insurance_per_unit_staked(rules)))
    for key, sim, exact in pairs:
        mean, se = sim.get("mean"), sim.get("se")
        diff = None if mean is None else mean - exact
        z = None if diff is None or not se else diff / se
        note = sim.get("interval_note")
        z_note = None if note is None else f"no z: its standard error is not meaningful ({note})"
        caveat = None
        if z_note is not None:
            z = None
        else:  # (the house edge's caveat for the table's boxes, as the report gives it)
            z, z_note, caveat = cut_card_z(rules, z, se, WAGERS.get(key), boxes=boxes, own=own)
        out[key] = {"simulated": mean, "se": se, "exact": exact, "difference": diff, "z": z,
                    "z_note": z_note, "z_caveat": caveat}
    out["exact_note"] = ("exact: full shoe every round" if rules.shuffle == "every-round" else
                         "exact: full shoe every round; the simulation deals to a cut card, so "
                         "the difference also holds the cut-card effect")
    if rules.boxes > 1:  # both figures are per box: per initial wager, per unit staked
        out["exact_note"] += (f"; {rules.boxes} boxes: each box valued alone from a full shoe "
                              "(docs/exact.md, A5), against the simulated mean per box")
    return out


def _house_edge(fig: dict) -> dict:
    """A simulated return (``mean``, ``se``, ``interval_note``) as the house edge: its mean
    negated (`tally.house_edge_of`: an even result is 0, not -0)."""
    from simulator.tally import house_edge_of

    return {"mean": house_edge_of(fig.get("mean")), "se": fig.get("se"),
            "interval_note": fig.get("interval_note")}


def comparison_text(cmp: dict) -> str:
    """The comparison as lines for the table report (with ``by_strategy``, each strategy's)."""
    by_strategy = cmp.get("by_strategy", [])
    width = max([26, *(len(by["label"]) + 2 for by in by_strategy)])  # every block alike
    lines = ["", "Exact (combinatorial) figures beside the simulated ones", "",
             *_comparison_lines(cmp, "figure", width),
             f"({cmp['exact_note']}; every figure a house edge, minus the return; z = "
             "difference / standard error, + where the simulated house edge is higher)"]
    for by in by_strategy:
        lines += ["", *_comparison_lines(by, by["label"], width)]
    caveats: dict = {}  # each caveat, once, with the blocks it is of (the strategies' by name)
    for title, c in [("the table", cmp), *[(by["label"], by) for by in by_strategy]]:
        for key in FIGURES:
            if (c.get(key) or {}).get("z_caveat"):
                caveats.setdefault(c[key]["z_caveat"], {})[title] = None
    lines += [f"{CUT_CARD_MARK} " + (f"{', '.join(of)}: " if by_strategy else "") + c
              for c, of in caveats.items()]
    return "\n".join(lines) + "\n"


FIGURES = ("house_edge", "super_sevens_house_edge", "insurance_house_edge")  # beside exact ones
# the side wagers' figures, by the name their cut-card caveat gives them (`unmeasured_caveat`)
WAGERS = {"super_sevens_house_edge": "Super Sevens", "insurance_house_edge": "insurance"}


def _comparison_lines(cmp: dict, title: str, width: int = 26) -> list[str]:
    """A block of the comparison: ``title`` and the figures' labels in a column of ``width``
    (the same in every block, so that the columns line up)."""
    width = max(width, len(title) + 2)
    lines = [f"{title:<{width}}{'simulated':>12}{'exact':>12}{'difference':>14}{'z':>8}"]
    labels = (("house_edge", "house edge"), ("super_sevens_house_edge", "Super Sevens house edge"),
              ("insurance_house_edge", "insurance house edge"))
    for key, label in labels:
        c = cmp.get(key)
        if not c:
            continue
        sim = "-" if c["simulated"] is None else f"{100 * c['simulated']:.4f}%"
        diff = "-" if c["difference"] is None else f"{100 * c['difference']:+.4f} pp"
        z = "-" if c["z"] is None else f"{c['z']:+.2f}"
        mark = CUT_CARD_MARK if c.get("z_caveat") else ""
        exact = f"{100 * c['exact']:.4f}%"  # (each after a space: a wide figure's too)
        lines.append(f"{label:<{width}}{' ' + sim:>12}{' ' + exact:>12}{' ' + diff:>14}"
                     f"{' ' + z:>8}{mark}")
    for key, label in labels:
        if (cmp.get(key) or {}).get("z_note"):
            lines.append(f"{label}: {cmp[key]['z_note']}")
    return lines


def comparison_csv(cmp: dict) -> str:
    """The comparison as rows of the tidy csv (section, item, per, value, se, ...)."""
    rows = []
    for prefix, c_all in [("", cmp)] + [(f"{by['label']}: ", by)
                                        for by in cmp.get("by_strategy", [])]:
        for key in FIGURES:
            c = c_all.get(key)
            if not c:
                continue
            per = "initial wager" if key == "house_edge" else "unit staked"  # (as simulate's)
            for item in ("exact", "difference", "z"):
                v = c[item]
                se = c["se"] if item == "difference" else None
                rows.append(f"exact,{_quoted(f'{prefix}{key}:{item}')},{per},"
                            f"{'' if v is None else repr(float(v))},"
                            f"{'' if se is None else repr(float(se))},,")
            for item in ("z_note", "z_caveat"):
                if c.get(item):
                    rows.append(f"exact,{_quoted(prefix + key + ':' + item)},{per},"
                                f"{_quoted(c[item])},,,")
    return "\n".join(rows) + "\n"


def _quoted(text: str) -> str:
    """A csv cell: quoted where it holds a comma or a quote."""
    return f'"{text.replace(chr(34), chr(34) * 2)}"' if "," in text or '"' in text else text


def finite(x):
    return None if x is None or (isinstance(x, float) and not math.isfinite(x)) else x


# ---------------------------------------------------------------------------------------------
# bjsim exact: rendering

UP_LABELS = {1: "A", 10: "10"}


def _pct(x, d=4):
    return "-" if x is None else f"{100 * x:.{d}f}%"


def exact_rows(fig: dict) -> list[tuple]:
    """Tidy rows (section, item, per, value) of `exact_figures`, every field of `exact_json`'s
    ``exact`` (changes of the 7-7 plays per box-round with several boxes, each box valued
    alone). Each money row says its sign as simulate's csv: a section or item ``house_edge``,
    else a return (``return``, ``..._return``, ``..._change``); a flag is a bool, a play a
    string."""
    per_round = "round" if fig.get("boxes", 1) == 1 else "box_round"  # (as simulate's csv)
    rows = [("house_edge", "main+insurance", "initial wager", fig["house_edge"]),
            ("return", "total", "initial wager", fig["ev"]),
            ("return", "main", "initial wager", fig["main_ev"]),
            ("return", "insurance", "initial wager", fig["insurance"]["per_initial_wager"]),
            ("return", "insurance", "unit staked", fig["insurance"]["per_unit_staked"]),
            ("insurance", "taken", "strategy", bool(fig["insurance"]["taken"])),
            ("even_money", "taken", "strategy", bool(fig["even_money_taken"])),
            ("sd", "total", "round", fig["sd_round"]),
            ("sd", "total", "box_round", fig["sd_box_round"])]
    ss = fig.get("super_sevens")
    if ss:
        rows += [("super_sevens", "house_edge", "unit staked", ss["house_edge"]),
                 ("return", "super_sevens", "unit staked", ss["ev"]),
                 ("super_sevens", "sd", "bet", ss["sd_bet"])]
        for k, v in ss["lines"].items():
            rows.append(("super_sevens_freq", k, "bet", v["probability"]))
        for k, v in ss["lines"].items():  # (as simulate's: the line's return per bet)
            rows.append(("super_sevens_contribution", k, "bet", v["contribution"]))
        for up, play in ss["plays"].items():
            rows.append(("super_sevens_play", f"7,7 v {up}", "7-7 hand", play))
        q = fig["sevens_question"]
        for r in q["plays"]:
            rows.append(("sevens_play", f"{r['play']}:super_sevens_house_edge", "unit staked",
                         r["super_sevens_house_edge"]))
            rows.append(("sevens_play", f"{r['play']}:main_ev_change", per_round,
                         r["main_ev_change"]))
            for bet, v in r["combined_change"].items():
                rows.append(("sevens_play", f"{r['play']}:combined_change:bet={bet:g}",
                             per_round, v))
        for up in UPS:
            for play, v in q["by_up"][up].items():
                lab = UP_LABELS.get(up, str(up))
                rows.append(("sevens_by_up", f"7,7 v {lab}:{play}:main_return", "7-7 hand",
                             v["main"]))
                rows.append(("sevens_by_up", f"7,7 v {lab}:{play}:super_sevens_return",
                             "unit staked", v["super_sevens"]))
                for bet, c in v["combined"].items():
                    rows.append(("sevens_by_up",
                                 f"7,7 v {lab}:{play}:combined_return:bet={bet:g}", "7-7 hand", c))
        for bet in SIDE_BETS:
            for up in UPS:
                rows.append(("sevens_best", f"bet={bet:g}:7,7 v {UP_LABELS.get(up, str(up))}",
                             "7-7 hand", q["best"][bet][up]))
    return rows


def _csv_value(v):
    """A value of the csv: a float at full precision, a flag ``true``/``false`` as the other
    csvs write it, a string as it is, None empty."""
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    return float(v)


def valued_charts(strategy) -> list[str] | None:
    """``strategy_sha256`` of the strategy `exact_figures` valued (as `simulate`'s, a list of
    one: every box plays it), or None where it valued no chart (``--optimal``)."""
    from simulator.strategy import charts_sha256

    return None if strategy is None else [charts_sha256(strategy)]


def exact_json(fig: dict, meta: dict) -> dict:
    """The json document of `bjsim exact`."""
    doc = {"bjsim": meta.get("version"), "source": provenance(), "rules": meta.get("rules"),
           "strategy": fig["strategy"], "strategy_sha256": meta.get("strategy_sha256"),
           "run": meta.get("run", {}),
           "exact": {"basis": basis(meta["rules"]["decks"], meta["rules"].get("penetration"),
                                    meta["rules"].get("boxes", 1))}
           | dict(fig)}
    q = fig.get("sevens_question")
    if q:
        plays = [_own_plays_text(q)]
        doc["exact"]["super_sevens"] = dict(fig["super_sevens"]) | {"seven_seven_play": {
            "by_box": plays, "note": sevens_note(plays, meta["rules"])},
            "player_edge": sevens_player_edge(meta["rules"])}
        doc["exact"]["sevens_question"] = {
            "by_up": {UP_LABELS.get(up, str(up)): {
                play: {"main": v["main"], "super_sevens": v["super_sevens"],
                       "combined": {f"{b:g}": c for b, c in v["combined"].items()}}
                for play, v in q["by_up"][up].items()} for up in UPS},
            "best": {f"{b:g}": {UP_LABELS.get(up, str(up)): q["best"][b][up] for up in UPS}
                     for b in SIDE_BETS},
            "plays": [{"play": r["play"], "super_sevens_house_edge": r["super_sevens_house_edge"],
                       "main_ev_change": r["main_ev_change"],
                       "combined_change": {f"{b:g}": v for b, v in r["combined_change"].items()}}
                      for r in q["plays"]],
            "strategy_plays": {UP_LABELS.get(up, str(up)): q["strategy_plays"][up] for up in UPS},
        }
    return doc


def exact_table(fig: dict, title: str, rules: dict) -> str:
    """The people's report of `bjsim exact`; ``title`` names the rules with their changes,
    ``rules`` is their `rules.rules_dict`."""
    per_round = "per round" if fig["boxes"] == 1 else "per box-round"
    if fig["boxes"] == 1:
        sd = f"SD per round                    {fig['sd_round']:.4f}"
    else:
        sd = (f"SD per box-round                {fig['sd_box_round']:.4f}  (one box; a round of "
              f"{fig['boxes']} boxes: not computed)")
    from simulator.rules import gazette_line, unlike_nz_line

    unlike = unlike_nz_line(rules, title)
    out = [f"Exact (combinatorial) figures: {title}, strategy {fig['strategy']}",
           *([unlike] if unlike else []), *filter(None, [gazette_line(rules)]),
           *textwrap.wrap(f"play valued: {fig['play_note']}", 100),
           *(textwrap.wrap(fig["sevens_row_note"], 100) if fig.get("sevens_row_note") else []),
           *textwrap.wrap("(" + basis(rules["decks"], rules.get("penetration"),
                                      rules.get("boxes", 1))
                          + "; method and approximations: docs/exact.md)", 100),
           *([f"({fig['per_box_note']})"] if fig["per_box_note"] else []), "",
           f"house edge (main + insurance)   {_pct(fig['house_edge'])}",
           f"main game return                {_pct(fig['main_ev'])}  per initial wager",
           f"insurance return                {_pct(fig['insurance']['per_initial_wager'])}  "
           f"per initial wager ({'taken' if fig['insurance']['taken'] else 'not taken'})",
           f"                                {_pct(fig['insurance']['per_unit_staked'])}  "
           f"per unit staked on insurance{'' if fig['insurance']['taken'] else ' (if taken)'}"
           + _untaken_gain(fig),
           f"even money                      {'taken' if fig['even_money_taken'] else 'declined'}"
           "  (8.3: a blackjack against an ace paid 1 to 1 at once; in the main game return)",
           sd]
    ss = fig.get("super_sevens")
    if not ss:
        out.append("Super Sevens                     not in this rule set")
        return "\n".join(out) + "\n"
    q = fig["sevens_question"]
    out += ["", f"Super Sevens house edge         {_pct(ss['house_edge'])}  per unit staked "
            f"(SD {ss['sd_bet']:.2f})",
            "  " + sevens_note([_own_plays_text(q)], rules),
            *[f"  WARNING: {edge['note']}." for edge in [sevens_player_edge(rules)] if edge], "",
            "line  probability    pays  contribution"]
    for k, v in ss["lines"].items():
        out.append(f"({k})  {v['probability']:>11.8f}  {v['pays']:>6}  {_pct(v['contribution'])}")
    q = fig["sevens_question"]
    own = " ".join(f"{UP_LABELS.get(up, str(up))}:{q['strategy_plays'][up]}" for up in UPS)
    whose = "optimal play's" if fig["play"] == "optimal" else "strategy's"
    out += ["", "The 7-7 question: every 7-7 played one way", f"(the {whose} own row: {own})",
            "",
            f"{'7-7 play':<10}{'SS house edge':>15}{'main EV change, pp':>20}"
            + "".join(f"{'combined, bet ' + format(b, 'g') + ', pp':>24}" for b in SIDE_BETS)]
    for r in q["plays"]:
        out.append(f"{r['play']:<10}{_pct(r['super_sevens_house_edge'], 3):>15}"
                   f"{100 * r['main_ev_change']:>+20.5f}"
                   + "".join(f"{100 * r['combined_change'][b]:>+24.5f}" for b in SIDE_BETS))
    out += [f"(changes {per_round} against the {whose} own 7-7 row, of the player's return, in "
            "percentage points (pp) of the main wager; combined = main + bet x side bet, per main "
            "wager; split: a 7 dealt to a split 7 split again as the rules allow)", "",
            "EV of each 7-7 play given 7,7 v the up card: main wager / Super Sevens per unit / "
            "combined for side bet 1", ""]
    shown = [p for p in PLAYS if p != "surrender" or any(p in q["by_up"][u] for u in UPS)]
    out.append(f"{'up':<4}" + "".join(f"{p:>24}" for p in shown))
    for up in UPS:
        row = f"{UP_LABELS.get(up, str(up)):<4}"
        for p in shown:
            v = q["by_up"][up].get(p)
            row += f"{'-':>24}" if v is None else (
                f"{v['main']:>+8.3f}/{v['super_sevens']:>+6.2f}/{v['combined'][1.0]:>+7.3f}")
        out.append(row)
    out += ["", "best 7-7 play for the main wager plus the side bet:"]
    for b in SIDE_BETS:
        out.append(f"  bet {b:g}: " + " ".join(
            f"{UP_LABELS.get(up, str(up))}:{q['best'][b][up]}" for up in UPS))
    return "\n".join(out) + "\n"


def _own_plays_text(q: dict) -> str:
    """The strategy's own 7-7 row (`sevens_question`'s ``strategy_plays``) in words."""
    from simulator.report import plays_by_up_text

    return plays_by_up_text([q["strategy_plays"][up] for up in (*range(2, 11), 1)])


def csv_run(run: dict) -> dict:
    """The ``run`` of an exact csv: json's without ``seed`` (null) and ``partial`` (false),
    which say nothing where nothing is simulated."""
    return {k: v for k, v in run.items() if k not in ("seed", "partial")}


def exact_csv(fig: dict, rules: dict, run: dict | None = None, charts=None) -> str:
    """The tidy csv of `bjsim exact` (section, item, per, value: `exact_rows`) under ``rules``
    (a `rules.rules_dict`), then the ``run`` rows (rules name with the changes, strategy, its
    ``charts`` as json's ``strategy_sha256``; not json's seed, null, and partial, false: nothing
    is simulated) and a ``rules`` row a key, as `simulator.report.meta_rows`."""
    import pandas as pd

    from simulator.report import csv_text

    frame = pd.DataFrame([(sec, item, per, _csv_value(v))
                          for sec, item, per, v in exact_rows(fig)],
                         columns=["section", "item", "per", "value"], dtype=object)
    run = csv_run(run or {})
    meta = {"run": run | {"play": fig["play"], "play_note": fig["play_note"],
                          "basis": basis(rules["decks"], rules.get("penetration"),
                                         rules.get("boxes", 1))} | (
        {"per_box_note": fig["per_box_note"]} if fig.get("per_box_note") else {}),
            "rules": rules} | ({"strategy_sha256": charts} if charts else {})
    if fig.get("sevens_question"):
        meta["sevens_play"] = [_own_plays_text(fig["sevens_question"])]
        meta["sevens_note"] = sevens_note(meta["sevens_play"], rules)
        meta["sevens_player_edge"] = sevens_player_edge(rules)
    return csv_text(frame, meta)


__all__ = ["CUT_CARD_MARK", "SIDE_BETS", "cut_card_caveat", "UPS", "compare_with_simulation",
           "comparison_csv", "comparison_text", "cut_card_z", "exact_figures", "sevens_question",
           "theory"]
