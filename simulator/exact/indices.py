"""Index plays by exact analysis of shoes depleted to a true count (docs/counting.md).

A shoe of ``d`` decks left at true count ``t`` of a balanced count with tags ``g`` is the average
composition those decks hold given the count: ``c_v = d n_v (1 - t g_v / sum_u n_u g_u^2)``, with
``n_v`` the cards of value ``v`` in one deck (fractional counts; its tags add to ``-t d``, the
running count the cards seen leave). Each play's two actions are valued exactly on that shoe
(later decisions optimal for it), and the index is the true count where the better one changes.
"""

from __future__ import annotations

import json

import numpy as np

from simulator.exact.analyze import _Box, _row_hands
from simulator.exact.player import UpCard, compile_here, hand_of, hand_total
from simulator.exact.shoe import DECK
from simulator.processes import map_spawned
from simulator.rules import plural

# The Illustrious 18 (Don Schlesinger, Blackjack Attack, 3rd ed., Hi-Lo, multi-deck S17 peek):
# (name, hand, up card, action below the index, action at or above it, published index).
ILLUSTRIOUS_18 = (
    ("insurance", None, 1, "no insurance", "insurance", 3),
    ("16 v 10", (10, 6), 10, "hit", "stand", 0),
    ("15 v 10", (10, 5), 10, "hit", "stand", 4),
    ("10,10 v 5", (10, 10), 5, "stand", "split", 5),
    ("10,10 v 6", (10, 10), 6, "stand", "split", 4),
    ("10 v 10", (6, 4), 10, "hit", "double", 4),
    ("12 v 3", (10, 2), 3, "hit", "stand", 2),
    ("12 v 2", (10, 2), 2, "hit", "stand", 3),
    ("11 v A", (6, 5), 1, "hit", "double", 1),
    ("9 v 2", (5, 4), 2, "hit", "double", 1),
    ("10 v A", (6, 4), 1, "hit", "double", 4),
    ("9 v 7", (5, 4), 7, "hit", "double", 3),
    ("16 v 9", (10, 6), 9, "hit", "stand", 5),
    ("13 v 2", (10, 3), 2, "hit", "stand", -1),
    ("12 v 4", (10, 2), 4, "hit", "stand", 0),
    ("12 v 5", (10, 2), 5, "hit", "stand", -2),
    ("12 v 6", (10, 2), 6, "hit", "stand", -1),
    ("13 v 3", (10, 3), 3, "hit", "stand", -2),
)


class NoSuchShoe(ValueError):
    """A true count whose average shoe holds no card of a value it needs."""


def depleted_shoe(decks_left: float, tags, true_count: float) -> np.ndarray:
    """The average composition (by value, A..T; fractional) of ``decks_left`` decks at
    ``true_count`` of a balanced count with ``tags``."""
    g = np.asarray(tags, dtype=np.float64)
    k = true_count / float((DECK * g * g).sum())
    comp = decks_left * DECK * (1.0 - k * g)
    if (comp <= 0).any():
        raise NoSuchShoe(f"true count {true_count} empties a card value at {decks_left} decks")
    return comp


def pre_deal_count(tags, decks_left: float, true_count: float, seen) -> float:
    """The true count of a shoe of ``decks_left`` decks before the deal that is ``true_count``
    once the cards ``seen`` (values; None for a card not known, its tag the average of the
    shoe less the known cards) are dealt from it: the count a counter decides by holds the up
    card and the hand. With the known cards' tags ``K`` (``m`` of them), ``u`` unknown and the
    running count ``R`` before the deal, the count after it is ``(R + K) (1 - u / (n - m))``."""
    n = 52.0 * decks_left
    known = [float(tags[v - 1]) for v in seen if v is not None]
    unknown = len(seen) - len(known)
    after = true_count * (n - len(seen)) / 52.0
    running = after / (1.0 - unknown / (n - len(known))) - sum(known)
    return running / decks_left


def action_values(rules, tags, decks_left: float, true_count: float, hand, up: int) -> dict:
    """Expected value of each first action against ``up`` on ``hand`` at ``true_count``, the
    count as the decision is made (the up card and the hand seen, as a counter plays the cell):
    a pair as dealt, or the total of two other cards, every two-card hand of that total weighted
    by its chance; each hand valued on the average shoe of ``decks_left`` decks before the deal
    whose count, with that hand and the up card dealt from it, is ``true_count``
    (`pre_deal_count`); ``hand=None`` values insurance (per unit staked), the ace up and the
    box's two cards (any) seen."""
    if hand is None:
        shoe = depleted_shoe(decks_left, tags, pre_deal_count(tags, decks_left, true_count,
                                                              (up, None, None)))
        p_ten = shoe[9] / (shoe.sum() - 1)  # (the ace up dealt)
        return {"insurance": rules.insurance_pays * p_ten - (1 - p_ten), "no insurance": 0.0}
    a, b = sorted(hand)
    at = depleted_shoe(decks_left, tags, true_count)
    at[up - 1] -= 1
    hands = [(a, b, 1.0)] if a == b else _row_hands(*hand_total(hand_of(a, b)), at)
    sums: dict = {}
    weight = 0.0
    for x, y, p in hands:
        shoe = depleted_shoe(decks_left, tags, pre_deal_count(tags, decks_left, true_count,
                                                              (up, x, y)))
        left = shoe.copy()
        for v in (x, y, up):
            left[v - 1] -= 1
        if (left < 0).any():  # (a half deck at +6 holds no whole 2 for 10,2 v 2)
            raise NoSuchShoe(f"true count {true_count} leaves no {up} up and {x},{y} in "
                             f"{decks_left} decks")
        weight += p
        for k, v in _Box(UpCard(rules, up, None, shoe=shoe)).options(x, y).items():
            sums[k] = sums.get(k, 0.0) + p * float(v[0])
    return {k: v / weight for k, v in sums.items()}


def crossing(rules, tags, hand, up: int, low: str, high: str, decks_left: float = 3.0,
             counts=range(-10, 11)) -> float | None:
    """The true count at the decision at which ``high`` becomes worth more than ``low`` (linear
    between the integer counts scanned, the highest such change); None if ``high`` is never
    better at the top of the scan, -inf if it is better throughout. A count whose average shoe
    cannot hold the up card and a hand of the play (a shallow shoe, far from 0) is not valued:
    the scan is the run of counts around 0 that can."""
    diff, ts, low_cut = [], [], False
    for t in counts:
        try:
            values = action_values(rules, tags, decks_left, t, hand, up)
        except NoSuchShoe:
            if t <= 0:
                diff, ts, low_cut = [], [], True  # (below 0: the run starts above it)
                continue
            break
        diff.append(values[high] - values[low])
        ts.append(t)
    if not diff or diff[-1] <= 0:
        return None
    for i in range(len(ts) - 1, 0, -1):
        if diff[i - 1] <= 0 < diff[i]:
            return ts[i - 1] + (0 - diff[i - 1]) / (diff[i] - diff[i - 1]) * (ts[i] - ts[i - 1])
    return None if low_cut else float("-inf")  # (better from the run's start: not known below)


def _crossing_of(task) -> float | None:
    return crossing(*task)


def index_of(x: float) -> int:
    """The index of a crossing ``x``: the nearest integer, but +1 for a crossing above 0 that
    would round to 0, so that at a true count of exactly 0 (a full shoe, and every running count
    of 0) the play is the better one there, ``low``."""
    return max(int(np.floor(x + 0.5)), 1) if x > 0 else int(np.floor(x + 0.5))


def find_index(rules, tags, hand, up: int, low: str, high: str, decks_left: float = 3.0,
               counts=range(-10, 11)) -> int | None:
    """The index: `index_of` the `crossing` (play ``high`` at a true count at or above it);
    None if ``high`` never becomes better in the scan, and the scan's lowest count if it is
    better throughout."""
    x = crossing(rules, tags, hand, up, low, high, decks_left, counts)
    if x is None:
        return None
    return min(counts) if x == float("-inf") else index_of(x)


CODES = {"stand": "S", "hit": "H", "double": "D", "split": "P", "insurance": "Y",
         "no insurance": "N"}


def _cell(hand, up: int) -> tuple[str, str, str]:
    """The chart, row and column (strategy-file labels) of a play."""
    col = "A" if up == 1 else str(up)
    if hand is None:
        return "insurance", "insurance", col
    a, b = sorted(hand)
    if a == b:
        return "pairs", ("A,A" if a == 1 else f"{a},{b}"), col
    total, soft = hand_total(hand_of(a, b))
    return ("soft" if soft else "hard"), str(total), col


def scan_top(tags) -> int:
    """The highest true count `derive_indices` values a count at (and its lowest, negated): 10
    times the count's level (its largest tag, rounded up: a level-2 count's true counts run
    about twice Hi-Lo's), short of the count where its average shoe runs out of a card value."""
    g = np.abs(np.asarray(tags, dtype=np.float64))
    spread = float((DECK * g * g).sum())
    return int(min(10 * np.ceil(g.max()), np.ceil(spread / g.max()) - 1))


def derive_indices(rules, system, plays=ILLUSTRIOUS_18, decks_left: float | None = None,
                   workers: int | None = None):
    """Index plays for ``rules`` and a balanced count ``system`` (`simulator.counting`): for each
    play, its chart cell, the code below and at or above the index, the index and the exact
    crossing (each None where the better action does not change at a true count of the scan,
    `scan_top`). ``decks_left``: the depth valued (default: half the shoe). The plays are valued
    side by side on up to ``workers`` processes (`simulator.processes`; default every CPU)."""
    if not system.balanced:
        from simulator.counting import list_counts, load_count

        balanced = [c for c in list_counts() if load_count(c).balanced]
        raise ValueError(f"count '{system.name}' is unbalanced: index plays are derived for "
                         f"balanced counts (true counts): allowed {', '.join(balanced)}, or a "
                         "balanced count file")
    g = np.abs(np.asarray(system.tags, dtype=np.float64))
    spread = float((DECK * g * g).sum())  # (an average shoe at true count t lacks a value where
    if 10 * g.max() >= spread:            # |t| x its tag reaches this: `depleted_shoe`)
        value = "A23456789T"[int(g.argmax())]
        raise ValueError(f"count '{system.name}': index plays are valued at true counts -10 to "
                         f"+10, and at one of them its average shoe holds no card of value "
                         f"{value}: allowed a count whose tags squared, over a deck ({spread:g}), "
                         f"exceed 10 times its largest tag ({g.max():g}), as every shipped one's "
                         "do (tag more card values)")
    d = rules.decks / 2 if decks_left is None else decks_left
    top = scan_top(system.tags)
    tasks = [(rules, system.tags, hand, up, low, high, d, range(-top, top + 1))
             for _, hand, up, low, high, _ in plays]
    out = []
    compile_here()
    hi_lo = _is_hi_lo(system)  # (the published indices are Hi-Lo's: beside no other count's)
    for (name, hand, up, low, high, published), x in zip(
            plays, map_spawned(_crossing_of, tasks, workers), strict=True):
        chart, row, col = _cell(hand, up)
        code = {k: "N" if chart == "pairs" and k != "split" else v for k, v in CODES.items()}
        out.append({  # (a pair not split is N: the total's chart then plays it)
            "name": name, "chart": chart, "row": row, "up": col, "below": code[low],
            "at_or_above": code[high],
            "index": None if x is None else (-99 if x == float("-inf") else index_of(x)),
            "crossing": None if x is None or x == float("-inf") else round(float(x), 3),
            "published_hi_lo_s17_peek": published if hi_lo else None,
        })
    return out


def _is_hi_lo(system) -> bool:
    """Whether ``system`` counts as the shipped Hi-Lo does (its tags, whatever its name)."""
    from simulator.counting import load_count

    return tuple(system.tags) == tuple(load_count("hi-lo").tags)


def rules_words(system, rules) -> str:
    """An index file's description: ``COUNT index plays for`` the rules' keys that move its
    plays (those beyond the first six where they are not the NZ game's)."""
    from simulator.rules import Rules, no_effect

    takes = ("" if no_effect(rules, "dealer_blackjack_takes")  # (under a peek: none)
             else f"dealer blackjack takes {rules.dealer_blackjack_takes}, ")
    nz = Rules()  # (the other keys that move a play, where they are not the NZ game's)
    more = "".join(f", {k} {_toml_word(getattr(rules, k))}" for k in (
        "double_after_split", "max_hands", "resplit_aces", "hit_split_aces", "surrender",
        "blackjack_pays", "insurance_pays")
        if getattr(rules, k) != getattr(nz, k) and not no_effect(rules, k))
    return (f"{system.name} index plays for {rules.decks} {plural(rules.decks, 'deck', 'decks')}"
            f", hole card {rules.hole_card}, {takes}"
            f"{'H17' if rules.dealer_hits_soft_17 else 'S17'}, double {rules.double_on}{more}")


def _toml_word(v) -> str:
    """A rule value as a description gives it: ``true``, ``4``, ``1.2``, ``late``."""
    return str(v).lower() if isinstance(v, bool) else f"{v:g}" if isinstance(v, float) else str(v)


def dumps_indices(plays: list[dict], name: str, rules, system, decks_left: float,
                  command: str = "bjsim strategy indices") -> str:
    """An index-play file (TOML) of `derive_indices`' plays; ``command`` made it."""
    def q(x):  # (a TOML basic string holding exactly x: a quote escaped, not changed)
        return json.dumps(str(x), ensure_ascii=False)

    lines = [
        f"# Generated by `{command}`: regenerate it, do not edit.",
        "# Each play: in chart cell (chart, row, up) play `at_or_above` when the true count is",
        "# at or above `index`, else `below`. `crossing` is where the two actions' exact values",
        "# cross on a shoe depleted to that true count (docs/counting.md).",
        f"name = {q(name)}",
        f"count = {q(system.name)}",
        f"description = {q(rules_words(system, rules))}",
        "source = " + q(f"Exact analysis of shoes depleted to each true count, {decks_left:g} "
                        f"{plural(decks_left, 'deck', 'decks')} left (the Illustrious 18 plays "
                        "of D. Schlesinger, Blackjack "
                        "Attack, "
                        + ("re-derived for these rules" if _is_hi_lo(system) else
                           f"published for Hi-Lo, derived for these rules and the {system.name} "
                           "count") + ")"),
    ]
    missing = [p["name"] for p in plays if p["index"] is None]
    if missing:  # (a play needs an index: `simulator.index_plays`)
        top = scan_top(system.tags)
        lines += [f"# Not written: {', '.join(missing)}: the better action does not change at a "
                  f"true count from -{top} to +{top} (as far as a shoe of {decks_left:g} "
                  f"{plural(decks_left, 'deck', 'decks')} holds the play's cards)."]
    for p in plays:
        if p["index"] is None:
            continue
        lines += ["", "[[play]]"]
        for k, v in p.items():
            if v is None:
                continue
            lines.append(f"{k} = {q(v) if isinstance(v, str) else v}")
    return "\n".join(lines) + "\n"
