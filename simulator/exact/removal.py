"""Effects of removal (EoR) and count-system correlations (rules 3.1, 9, 14).

The EoR of a card value is the change in a wager's expected return when one card of that value
is taken out of the rule set's full shoe, the play held fixed: the main game per initial wager,
insurance per unit staked, Super Sevens per unit bet. A count's betting, insurance and Super
Sevens correlations are Pearson's r over the 13 ranks between its tags and those EoRs.
"""

from __future__ import annotations

import numpy as np

from simulator.exact.shoe import flag, full_shoe
from simulator.rules import validate
from simulator.strategy import checked

VALUES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")  # EoR order, index value - 1
GAMES = ("main", "insurance", "super_sevens")
DECK = np.array([4] * 9 + [16], dtype=np.float64)  # one deck by value, A..T


def ranks(by_value) -> np.ndarray:
    """Ten figures by value (A..T) as the 13 ranks A, 2, ..., 9, T, J, Q, K: the ten-valued
    ranks each carry the ten's."""
    x = np.asarray(by_value, dtype=np.float64)
    return np.concatenate([x, np.repeat(x[9], 3)])


def insurance_return(rules, shoe) -> float:
    """Insurance's return per unit staked against the dealer's ace dealt from ``shoe`` (counts
    by value, A..T, the ace among them): it wins ``insurance_pays`` if the next card is
    ten-valued. Every hand alike, the player's cards unseen (a blackjack's even money is the
    same bet)."""
    comp = np.array(shoe, dtype=np.float64)
    comp[0] -= 1  # the dealer's ace
    p_ten = comp[9] / comp.sum()
    return rules.insurance_pays * p_ten - (1 - p_ten)


def _main_return(task) -> float:
    """The main game's return per initial wager dealt from a shoe: ``task`` (rules, policy,
    shoe), `analyze.evaluate`'s."""
    from simulator.exact.analyze import evaluate

    rules, policy, shoe = task
    return float(evaluate(rules, policy, shoe=shoe)[0]["ev"])


def _sevens_return(rules, plays, removed) -> float:
    from simulator.exact.sevens import _by_types, shoe_by_type

    return float(_by_types(rules, plays, False, shoe_by_type(rules.decks, removed))["ev"])


def effects_of_removal(rules, strategy=None, optimal: bool = False,
                       workers: int | None = None) -> dict:
    """The effect of removing one card of each value from the full shoe, play held fixed.

    Parameters
    ----------
    rules : Rules
    strategy : Strategy or None
        The chart held fixed (as `analyze` plays it); None: the rules' derived basic strategy.
    optimal : bool
        Composition-dependent optimal play instead, re-optimised for each shoe (as published
        EoR tables of combinatorial analyzers); its 7-7 play for Super Sevens is the full
        shoe's; ``strategy`` is then ignored.
    workers : int or None
        The ten shoes are valued side by side on up to this many processes
        (`simulator.processes`; default every CPU).

    Returns
    -------
    dict
        ``full`` {game: the full shoe's return}, ``eor`` {game: 10 EoRs, A..T} (returns as
        fractions: per initial wager for ``main``, per unit staked for ``insurance``, per unit
        bet for ``super_sevens``; None where the rules have no Super Sevens), ``deck_sum``
        {game: sum of the EoRs times one deck's cards of each value}, ``strategy`` (the
        Strategy held fixed, None when optimal), ``sevens_plays`` {up: 7-7 play} or None,
        ``decks``, ``play`` (``chart`` or ``optimal``).
    """
    from simulator.exact.analyze import derive, evaluate, strategy_from_tables
    from simulator.exact.player import Tables, compile_here
    from simulator.exact.sevens import sevens_plays
    from simulator.processes import map_spawned

    rules = validate(rules, "rules")
    if strategy is not None:
        checked(strategy, "strategy", "None (the rules' basic strategy) or "
                                      "load_strategy(NAME or FILE)'s")
    optimal = flag("optimal", optimal)
    if optimal:
        strat, policy = None, None
        res, _ = evaluate(rules, None)
        plays = {h["up"]: h["choice"] for h in res["hands"] if h["hand"] == (7, 7)}
    else:
        strat = strategy if strategy is not None else strategy_from_tables(rules, derive(rules)[0])
        policy = Tables.of(strat)
        plays = strat
    full = full_shoe(rules.decks)
    shoes = [full] + [full - np.eye(10, dtype=np.int64)[v] for v in range(10)]
    compile_here()
    main = map_spawned(_main_return, [(rules, policy, s) for s in shoes], workers)
    ins = [insurance_return(rules, s) for s in shoes]
    out = {"full": {"main": main[0], "insurance": ins[0], "super_sevens": None},
           "eor": {"main": np.subtract(main[1:], main[0]),
                   "insurance": np.subtract(ins[1:], ins[0]), "super_sevens": None},
           "strategy": strat, "sevens_plays": None, "decks": rules.decks,
           "play": "optimal" if optimal else "chart"}
    if rules.super_sevens:
        by_up = sevens_plays(rules, plays)
        ss = [_sevens_return(rules, by_up, v) for v in (None, *range(1, 11))]
        out["full"]["super_sevens"] = ss[0]
        out["eor"]["super_sevens"] = np.subtract(ss[1:], ss[0])
        out["sevens_plays"] = by_up
    out["deck_sum"] = {g: (None if e is None else float(DECK @ e)) for g, e in out["eor"].items()}
    return out


def correlation(tags, eor) -> float | None:
    """Pearson's r over the 13 ranks (`ranks`) of a count's ``tags`` (A..T) and ``eor`` (A..T);
    None where either is the same for every rank (r undefined)."""
    x, y = ranks(tags), ranks(eor)
    x, y = x - x.mean(), y - y.mean()
    den = np.sqrt((x @ x) * (y @ y))
    return None if den == 0 else float(x @ y / den)


def correlations(effects: dict, tags) -> dict:
    """A count's betting (``main``), insurance and Super Sevens correlations with the EoRs of
    `effects_of_removal` (None where the rules have no Super Sevens)."""
    return {g: (None if effects["eor"][g] is None else correlation(tags, effects["eor"][g]))
            for g in GAMES}
