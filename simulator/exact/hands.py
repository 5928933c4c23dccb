"""The value of each first play of every two-card hand against each up card (rules 10, 11, 12.1
and the rule set's surrender), every later decision played at its best for the cards held (the
composition-dependent convention of the published tables), beside the play a strategy's chart
takes there. docs/exact.md: "Hand by hand"."""

from __future__ import annotations

from simulator import layout as L
from simulator.exact.analyze import _Box, _two_card_hands
from simulator.exact.player import (
    EV,
    Tables,
    UpCard,
    compile_here,
    hand_of,
    hand_total,
    up_index,
)
from simulator.exact.shoe import full_shoe
from simulator.processes import map_spawned

PLAYS = ("stand", "hit", "double", "split", "surrender")
UP_ORDER = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)


def up_label(up: int) -> str:
    """``2`` .. ``10``, ``A``: a card as every output of `bjsim exact` and strategy files write
    an up card (and the hands' cards)."""
    return "A" if up == 1 else str(up)


def hand_label(a: int, b: int) -> str:
    """``A,7``, ``6,10``, ``8,8``: a two-card hand by its values, each card as `up_label`."""
    return f"{up_label(a)},{up_label(b)}"


def kind_label(a: int, b: int, rules=None, pair_code=None) -> str:
    """What the chart reads for the hand: ``pair 8s`` (where ``rules`` allow a split, or none
    given; or where they allow surrender and the pairs cell, ``pair_code``, is ``Rp``, which
    surrenders where it may not split), ``sevens`` (7-7 under Super Sevens: the sevens row),
    ``soft 18``, ``hard 16``."""
    if a == b == 7 and rules is not None and rules.super_sevens:
        return "sevens"
    if a == b and (rules is None or rules.max_hands >= 2
                   or pair_code == L.RP and rules.surrender != "none"):
        return f"pair {up_label(a)}s"
    total, soft = hand_total(hand_of(a, b))
    return f"{'soft' if soft else 'hard'} {total}"


def hand_values(rules, strategy, ups=UP_ORDER, workers: int | None = None) -> list[dict]:
    """A row per two-card hand (not a blackjack) and up card, in chart order (up cards 2..A):
    ``up``, ``hand`` (values, low first), ``probability`` (of that hand and up card from a full
    shoe; in the peek game, and no dealer blackjack: of the decision), ``values`` (each play the
    rules allow: the box's expected net per initial wager; in the peek game given no dealer
    blackjack, as the player knows when choosing, but with early surrender, chosen before the
    peek, as the no-hole-card game's), ``best`` and
    ``margin`` (its value less the next best's), ``chart`` (the play ``strategy``'s chart takes)
    and ``chart_cost`` (the best value less the chart's). Up cards ``ups`` (1 for an ace),
    side by side on up to ``workers`` processes."""
    compile_here()
    done = map_spawned(_up_rows, [(rules, up, strategy) for up in ups], workers)
    return [row for rows in done for row in rows]


def _up_rows(task) -> list[dict]:
    """``hand_values``' rows of one up card."""
    rules, up, strategy = task
    tables = Tables.of(strategy)
    best_play, chart_play = _Box(UpCard(rules, up, None)), _Box(UpCard(rules, up, tables))
    comp = full_shoe(rules.decks)
    p_up = comp[up - 1] / comp.sum()
    comp[up - 1] -= 1
    rows = []
    for a, b, p in _two_card_hands(comp):
        if (a, b) == (1, 10):
            continue
        opts = best_play.options(a, b, True)
        values = {k: float(opts[k][EV]) for k in PLAYS if k in opts}
        if _conditioned(rules):  # as the player knows when choosing
            pbj = float(best_play.pbj0(hand_of(a, b)))  # (given no dealer blackjack)
            values = {k: (v + pbj) / (1 - pbj) for k, v in values.items()}
            p *= 1 - pbj
        order = sorted(values, key=values.get, reverse=True)
        chart = chart_play.table_choice(a, b, values, tables)
        cell = int(tables.pairs[a - 1, up_index(up)]) if a == b else None
        rows.append({"up": up, "hand": (a, b), "chart_reads": kind_label(a, b, rules, cell),
                     "probability": float(p_up * p),
                     "values": values, "best": order[0],
                     "margin": values[order[0]] - values[order[1]] if len(order) > 1 else None,
                     "chart": chart, "chart_cost": values[order[0]] - values[chart]})
    return rows


def _value(x) -> str:
    return "-" if x is None else f"{x:+.6f}"


def _conditioned(rules) -> bool:
    """Are the values given no dealer blackjack (the peek game, no early surrender)?"""
    return rules.hole_card == "peek" and rules.surrender != "early"


def hands_table(rows: list[dict], title: str, strategy: str, rules) -> str:
    """`bjsim exact --hands` for people: a block per up card, a line per hand."""
    given = "given no dealer blackjack (the peek game), " if _conditioned(rules) else ""
    out = [f"Exact value of each first play, hand by hand: {title}; chart of strategy {strategy}",
           f"(the box's expected net per initial wager, {given}every later decision at its best "
           "for the cards held; from a full shoe less the up card; docs/exact.md)",
           "(margin: the best play's value less the next best's; cost: the best play's less the "
           "chart's, where the chart plays otherwise)",
           "(-: a play the rules do not allow on that hand: a stand on 11 or less, which must "
           "draw (12.1 (d)); a double outside double_on; a split of no pair, or with "
           "max_hands = 1; a surrender where surrender = none)"]
    head = (f"{'hand':<6}{'chart reads':<13}" + "".join(f"{p:>11}" for p in PLAYS)
            + f"  {'best':<10}{'margin':>9}  {'chart':<10}{'cost':>9}")
    for up in UP_ORDER:
        block = [r for r in rows if r["up"] == up]
        if not block:
            continue
        out += ["", f"dealer shows {up_label(up)}", head]
        for r in block:
            a, b = r["hand"]
            cost = f"{r['chart_cost']:9.6f}" if r["chart"] != r["best"] else ""
            margin = "" if r["margin"] is None else f"{r['margin']:9.6f}"
            out.append(f"{hand_label(a, b):<6}{r['chart_reads']:<13}"
                       + "".join(f"{_value(r['values'].get(p)):>11}" for p in PLAYS)
                       + f"  {r['best']:<10}{margin:>9}  {r['chart']:<10}{cost:>9}".rstrip())
    differ = [r for r in rows if r["chart"] != r["best"]]
    cost = sum(r["probability"] * r["chart_cost"] for r in rows)
    out += ["", f"The chart plays otherwise than the best play on {len(differ)} of the "
            f"{len(rows)} hands shown; they cost the player {100 * cost:.5f}% of the initial "
            "wager over all rounds (first decisions only)."]
    return "\n".join(out) + "\n"


def hands_frame(rows: list[dict], run: dict, rules, charts=None):
    """The rows as a table (pandas), one column per play, the run's rules and strategy, its
    ``charts`` (json's ``strategy_sha256``, a list of one) and bjsim's source
    (`source.provenance`) on every row (csv)."""
    import pandas as pd

    from simulator import __version__
    from simulator.source import provenance_columns

    run_columns = {"rules_name": run.get("rules_name"), "strategy": run.get("strategy"),
                   "strategy_sha256": "; ".join(charts or []), "bjsim": __version__,
                   **provenance_columns()}  # (the same on every row: made once)
    return pd.DataFrame([{
        "up": up_label(r["up"]),
        "hand": hand_label(*r["hand"]), "chart_reads": r["chart_reads"],
        **{p: r["values"].get(p) for p in PLAYS}, "best": r["best"], "margin": r["margin"],
        "chart": r["chart"], "chart_cost": r["chart_cost"], "probability": r["probability"],
        **run_columns} for r in rows])


def hands_json(rows: list[dict], meta: dict, rules) -> dict:
    """The json document: ``meta`` (version, rules, run) and the rows, each card (the up card,
    the hand's two) spelt as the rest of `bjsim exact`'s json spells an up card (``up_label``)."""
    return meta | {"value_convention": _CONVENTION,
                   "given_no_dealer_blackjack": _conditioned(rules), "hands": [
        {"up": up_label(r["up"]), "hand": [up_label(c) for c in r["hand"]],
         "chart_reads": r["chart_reads"], "values": r["values"], "best": r["best"],
         "margin": r["margin"], "chart": r["chart"], "chart_cost": r["chart_cost"],
         "probability": r["probability"]} for r in rows]}


_CONVENTION = ("the box's expected net per initial wager of each first play, every later "
               "decision at its best for the cards held, from a full shoe less the up card; in the "
               "peek game (without early surrender, chosen before the peek) given no dealer "
               "blackjack")
