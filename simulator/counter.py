"""A counting plan made into what the engine plays: the counter's strategies (the base strategy
with the index plays of each band of the count, with and without insurance), the count, the bet,
Super Sevens and box ramps, wonging, and the Super Sevens return by the shoe's sevens left.
docs/counting.md."""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np

from simulator.index_plays import band_strategies, bands
from simulator.kernel.count import Counter
from simulator.plans import loaded
from simulator.rules import rule_set
from simulator.strategy import checked, stack

STEPS = {"exact": 0, "half": 26, "whole": 52}  # the deck estimate's step, in cards


@lru_cache(maxsize=16)
def super_sevens_by_sevens_left(rules, plays=None) -> np.ndarray:
    """``ev[k - 1, left * (4 decks + 1) + sevens_left]``: the Super Sevens return per stake
    (``k = 1``) and its mean square (``k = 2``) from a shoe of ``left`` cards holding
    ``sevens_left`` sevens (``exact.sevens.moment_by_sevens_left``), 0 where no such shoe is
    (fewer than 3 cards, more sevens than cards). ``plays``: the 7-7 play valued, a tuple by up
    card (`exact_plays`), or None: the published convention (a third card always dealt)."""
    from simulator.exact.sevens import moment_by_sevens_left

    n, s = 52 * rules.decks, 4 * rules.decks
    ev = np.zeros((2, (n + 1) * (s + 1)))
    for left in range(3, n + 1):
        for sl in range(min(left, s) + 1):
            for k in (1, 2):
                ev[k - 1, left * (s + 1) + sl] = moment_by_sevens_left(rules, left, sl, k, plays)
    ev.setflags(write=False)
    return ev


def seven_seven_play(rules, strategies) -> tuple | None:
    """The 7-7 play under a Super Sevens bet (rule 14.4) of the counter's ``strategies`` (one
    a band of the count: `counter_strategies`), a tuple by up card A, 2, ..., 10 of ``split``,
    ``stand``, ``hit`` or ``double`` (`exact.sevens.sevens_plays`), or None where the index plays
    make it differ between bands: it then changes with the count."""
    from simulator.exact.sevens import sevens_plays

    found = {tuple(sevens_plays(rules, s)[up] for up in range(1, 11)) for s in strategies}
    return next(iter(found)) if len(found) == 1 else None


def counter_seven_seven_play(rules, base, plan) -> tuple | None:
    """`seven_seven_play` of the strategies a counter playing ``base`` with ``plan``'s index
    plays has (`index_plays.band_strategies`; insurance changes no 7-7 play)."""
    plays = plan.plays if plan is not None else None
    return seven_seven_play(rules, band_strategies(base, plays, base.insurance))


def exact_plays(rules, play) -> tuple | None:
    """What `super_sevens_by_sevens_left` values for a counter whose 7-7 play is ``play``
    (`seven_seven_play`): None, the published convention, where it is that (a hit or double
    against every up card, no peek: the box's first three cards settle the bet) or where the
    play changes with the count (no one play to value); else ``play``."""
    if play is None or rules.hole_card != "peek" and all(p in ("hit", "double") for p in play):
        return None
    return play


def _ramp(r) -> tuple:
    return tuple(float(c) for c, _ in r.steps), (int(r.base),) + tuple(int(v) for _, v in r.steps)


def counter_for(rules, base, plan) -> tuple:
    """``(tables, counter, insurance)`` for ``kernel.count_chunk``: ``base`` is the Strategy the
    plan's index plays change; ``plan`` a ``plans.CountingPlan``."""
    strategies, counter, insurance = counter_strategies(rules, base, plan)
    return stack(strategies), counter, insurance


def counter_strategies(rules, base, plan) -> tuple:
    """``(strategies, counter, insurance)``: `counter_for`'s, the strategies as Strategy objects
    (one a band of the count, then as many again taking insurance where the index plays insure
    by count; ``insurance``: whether the strategies without such a count take insurance)."""
    rule_set(rules, "rules")  # (an AttributeError for a dict)
    checked(base, "base")
    if not hasattr(plan, "plays"):  # (a plan's name had raised AttributeError: refused as
        # count_runs.check refuses it; a plan's fields in a namespace, as tests make, are taken)
        loaded(plan)
    plays = plan.plays  # (read with the plan: `plans.load_plan`)
    ins = plays.insurance if plays is not None else None  # (N below its index, Y from it)
    if ins is None:
        strategies = band_strategies(base, plays, base.insurance)
    else:  # a second family, insured: a box takes it when the count says so, and even money
        # with it (8.3: at 3 to 2 and 2 to 1 even money is a blackjack insured, worth taking
        # exactly when insurance is), or always where the strategy played takes it (its
        # even_money: the rules' basic strategy's under 6 to 5)
        strategies = [s for taken in (False, True) for s in band_strategies(
            dataclasses.replace(base, even_money=taken or base.even_money), plays, taken)]
    cs = plan.count
    boxes = _ramp(plan.boxes)  # the boxes dealt; the rules' boxes are the most there can be
    if max(boxes[1]) > rules.boxes:
        raise ValueError(f"boxes: the plan plays up to {max(boxes[1])} boxes: allowed up to the "
                         f"rules' boxes = {rules.boxes} (set boxes=N)")
    ev = (super_sevens_by_sevens_left(rules, exact_plays(rules, seven_seven_play(
        rules, strategies))) if rules.super_sevens else np.zeros((2, 0)))
    enter = -np.inf if plan.wong_enter is None else float(plan.wong_enter)
    leave = -np.inf if plan.wong_leave is None else float(plan.wong_leave)
    counter = Counter(
        tags=tuple(cs.tags), irc=int(cs.initial_running_count(rules.decks)),
        step=STEPS[plan.resolution], true=bool(cs.balanced), bands=bands(plays),
        insurance=None if ins is None else float(ins.index), enter=enter, leave=leave,
        ramps=(_ramp(plan.bet), _ramp(plan.super_sevens), boxes), ev=ev,
    )  # fmt: skip
    return strategies, counter, bool(base.insurance and ins is None)
