"""Effects of removal (EoR) and count-system correlations (rules 3.1, 9, 14).

The EoR of a card value is the change in a wager's expected return when one card of that value
is taken out of the rule set's full shoe, the play held fixed: the main game per initial wager,
insurance per unit staked, Super Sevens per unit staked. A count's betting, insurance and Super
Sevens correlations are Pearson's r over the 13 ranks between its tags and those EoRs.
"""

from __future__ import annotations

import numpy as np

from simulator.exact.shoe import DECK, flag, full_shoe
from simulator.rules import validate
from simulator.strategy import checked

VALUES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")  # EoR order, index value - 1: a
# ten is "10", as exact's up-card keys (the ranks' T, J, Q, K all carry it)
GAMES = ("main", "insurance", "super_sevens")


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


def sevens_effects(rules, sevens_play) -> tuple[float, np.ndarray]:
    """Super Sevens' return per unit staked from the full shoe and its 10 EoRs (A..T), the 7-7
    play by up card held fixed (``sevens_play`` as `sevens.super_sevens` takes it; rule 14.4).
    A seven removed is of one suit, the other sevens all there (by the suits' symmetry any
    suit gives the same figure)."""
    from simulator.exact.sevens import _by_types, sevens_plays, shoe_by_type

    plays = sevens_plays(rules, sevens_play)
    ss = [float(_by_types(rules, plays, False, shoe_by_type(rules.decks, v))["ev"])
          for v in (None, *range(1, 11))]
    return ss[0], np.subtract(ss[1:], ss[0])


def sevens_depleted(rules, sevens_play, out=(48, 96)) -> dict:
    """Super Sevens' exact return from shoes poorer in non-sevens, against the EoRs' linear
    estimate: the EoRs are first-order, and the bet's return climbs much faster than linearly
    as sevens get denser (its 3-seven lines).

    Each shoe is the rule set's full shoe less ``k`` non-sevens in proportion to their numbers
    (every seven there), for each ``k`` of ``out`` that leaves at least a deck's worth of
    non-sevens; exact: `sevens._by_types` on that shoe, the 7-7 play by up card held fixed
    (``sevens_play`` as `sevens_effects` takes it); linear: the full shoe's return plus each
    removed card's EoR. ``break_even``: the ``k`` (non-sevens out in proportion, fractional)
    where each turns positive, None if not before a deck's worth of non-sevens is left.

    Returns
    -------
    dict
        ``shoes`` [{``non_sevens_out``, ``cards``, ``sevens``, ``exact``, ``linear``}] (returns
        per unit staked, fractions), ``break_even`` {``exact``, ``linear``}.
    """
    from simulator.exact.sevens import _by_types, sevens_plays, shoe_by_type

    plays = sevens_plays(rules, sevens_play)
    full, eor = sevens_effects(rules, plays)
    base = shoe_by_type(rules.decks)
    others = base[4:].sum()  # 48 a deck
    slope = float(DECK @ eor - 4 * eor[6]) / 48  # a non-seven's EoR, in proportion

    def exact(k: float) -> float:
        counts = base.copy()
        counts[4:] *= 1 - k / others
        return float(_by_types(rules, plays, False, counts)["ev"])

    most = others - 48  # (a deck's worth of non-sevens left)
    shoes = [{"non_sevens_out": int(k), "cards": int(base.sum() - k), "sevens": int(base[:4].sum()),
              "exact": exact(k), "linear": full + k * slope} for k in out if k <= most]
    even = {"exact": None, "linear": None}
    if full < 0 < exact(most):
        lo, hi = 0.0, float(most)
        while hi - lo > 1e-6:
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if exact(mid) < 0 else (lo, mid)
        even["exact"] = hi
    if slope > 0 and -full / slope <= most:
        even["linear"] = -full / slope
    return {"shoes": shoes, "break_even": even}


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
        out["full"]["super_sevens"], out["eor"]["super_sevens"] = sevens_effects(rules, plays)
        out["sevens_plays"] = sevens_plays(rules, plays)
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


# ---------------------------------------------------------------------------------------------
# Output: `bjsim exact --removal` (docs/exact.md, "Effects of removal")

GAME_WORDS = {"main": "main game", "insurance": "insurance", "super_sevens": "Super Sevens"}
PER = {"main": "per initial wager", "insurance": "per unit staked",
       "super_sevens": "per unit staked"}
CSV_PER = {g: per.removeprefix("per ") for g, per in PER.items()}  # (as simulate's and exact's)
CORRELATION_KEYS = {"main": "betting", "insurance": "insurance", "super_sevens": "super_sevens"}
METHOD = ("one card of each value removed from the rule set's full shoe: EoR = the return from "
          "the shoe less that card minus the full shoe's")
SEVENS_SUITS = ("Super Sevens: a seven removed is of one suit (the other sevens all there; by the "
                "suits' symmetry any suit gives the same figure), the 7-7 play by up card held "
                "fixed (rule 14.4)")
INSURANCE_BASIS = ("insurance: every dealer ace, the player's cards unseen (a blackjack's even "
                   "money is the same bet), so its EoRs are a pure function of the ten density")
CORRELATION_NOTE = ("Pearson's r over the 13 ranks A, 2, ..., 9, T, J, Q, K, each ten-valued rank "
                    "carrying the ten's tag and EoR")
UNDEFINED = ("r undefined: the count's tags are the same for every card, so they do not vary with "
             "the EoRs")


def rich_sevens_note(depleted: dict) -> str:
    """What `sevens_depleted`'s figures say: the Super Sevens EoRs understate the gain of a
    shoe rich in sevens."""
    shoes = depleted["shoes"]
    even = depleted["break_even"]
    text = ("Super Sevens: the EoRs are first-order, good near a full shoe; the bet's return "
            "climbs much faster than linearly as sevens get denser (the 3-seven lines), so they "
            "understate the gain of a shoe rich in sevens")
    if shoes:
        text += ("; valued exactly, the full shoe less non-sevens in proportion (every seven "
                 "there): " + ", ".join(
                     f"{s['non_sevens_out']} out ({s['cards']} cards, {s['sevens']} sevens) "
                     f"{100 * s['exact']:+.2f}% against {100 * s['linear']:+.2f}% by the EoRs"
                     for s in shoes))
    if even["exact"] is not None:
        text += (f"; it turns positive after about {even['exact']:.0f} non-sevens out" + (
            f", not the {even['linear']:.0f} the EoRs give" if even["linear"] is not None
            else ""))
    return text + (". For the real exposure: the exact values by the sevens left "
                   "(docs/counting.md, Super Sevens by the sevens left) and "
                   "`bjsim count --plan sevens-super-sevens`")


NO_EFFICIENCY = ("playing efficiency is not given: it needs each play's gain from the count's "
                 "index plays at every depth, not the EoRs of the whole game (docs/exact.md)")


def count_rows(effects: dict, systems) -> list[dict]:
    """One row per count system: name, tags, balanced, its correlations (`correlations`) and
    ``note``: why they are None (`UNDEFINED`: tags all equal), else None."""
    return [{"count": s.name, "tags": list(s.tags), "balanced": bool(s.balanced)}
            | {CORRELATION_KEYS[g]: r for g, r in correlations(effects, s.tags).items()}
            | {"note": UNDEFINED if len(set(s.tags)) == 1 else None}
            for s in systems]


def _sevens_plays_by_up(effects: dict) -> dict | None:
    """The 7-7 play held fixed by up card shown (2..10, A), or None."""
    plays = effects["sevens_plays"]
    return None if plays is None else {("A" if up == 1 else str(up)): plays[up]
                                       for up in (*range(2, 11), 1)}


def removal_json(effects: dict, systems, strategy: str) -> dict:
    """The ``removal`` part of `bjsim exact --removal -f json` (fractions, unrounded)."""
    games = [g for g in GAMES if effects["eor"][g] is not None]
    return {
        "play": effects["play"], "strategy": strategy, "decks": effects["decks"],
        "cards": int(full_shoe(effects["decks"]).sum()),
        "method": METHOD, "insurance_basis": INSURANCE_BASIS,
        "sevens_basis": SEVENS_SUITS if "super_sevens" in games else None,
        "sevens_plays": _sevens_plays_by_up(effects),
        "sevens_depleted": (None if effects.get("sevens_depleted") is None else
                            effects["sevens_depleted"] | {
                                "note": rich_sevens_note(effects["sevens_depleted"])}),
        "per": {g: PER[g] for g in games},
        "full_shoe": {g: effects["full"][g] for g in games},
        "effects": {v: {g: float(effects["eor"][g][i]) for g in games}
                    for i, v in enumerate(VALUES)},
        "deck_sum": {g: effects["deck_sum"][g] for g in games},
        "correlation": CORRELATION_NOTE,
        "counts": count_rows(effects, systems),
        "playing_efficiency": None, "playing_efficiency_note": NO_EFFICIENCY,
    }


def removal_rows(effects: dict, systems) -> list[tuple]:
    """Tidy rows (section, item, per, value) of `removal_json`'s figures, for the csv."""
    games = [g for g in GAMES if effects["eor"][g] is not None]
    rows = [("shoe", "decks", "", effects["decks"]),
            ("shoe", "cards", "", int(full_shoe(effects["decks"]).sum()))]
    rows += [("sevens_play", up, "7-7 play held fixed", play)
             for up, play in (_sevens_plays_by_up(effects) or {}).items()]
    rows += [("full_shoe", g, CSV_PER[g], effects["full"][g]) for g in games]
    rows += [("effect", f"{v}:{g}", CSV_PER[g], float(effects["eor"][g][i]))
             for i, v in enumerate(VALUES) for g in games]
    rows += [("deck_sum", g, CSV_PER[g], effects["deck_sum"][g]) for g in games]
    depleted = effects.get("sevens_depleted")
    if depleted is not None:
        for s in depleted["shoes"]:
            rows += [("sevens_depleted", f"{s['non_sevens_out']}:{k}", CSV_PER["super_sevens"],
                      s[k]) for k in ("exact", "linear")]
        rows += [("sevens_depleted", f"break_even:{k}", "non-sevens out", v)
                 for k, v in depleted["break_even"].items()]
        rows.append(("note", "sevens_depleted", "", rich_sevens_note(depleted)))
    for row in count_rows(effects, systems):
        rows += [("correlation", f"{row['count']}:{CORRELATION_KEYS[g]}", "r",
                  row[CORRELATION_KEYS[g]]) for g in games]
        if row["note"]:
            rows.append(("note", row["count"], "r", row["note"]))
    return rows


def _signed(x, digits: int) -> str:
    """``x`` with its sign, or unsigned where it rounds to zero (not ``-0.000``)."""
    text = f"{x:+.{digits}f}"
    return text[1:] if not text.strip("+-0.") else text


def _r(x) -> str:
    return "-" if x is None else _signed(x, 3)


def removal_table(effects: dict, systems, title: str, strategy: str) -> str:
    """The people's table of `bjsim exact --removal`: EoRs in % per card removed."""
    import textwrap

    games = [g for g in GAMES if effects["eor"][g] is not None]
    d = effects["decks"]
    held = ("composition-dependent optimal play, re-optimised for each shoe" if
            effects["play"] == "optimal" else f"strategy {strategy}, its chart held fixed")
    out = [f"Effects of removal: {title}",
           *textwrap.wrap(f"play: {held}; shoe: {d} deck{'s' if d > 1 else ''} "
                          f"({int(full_shoe(d).sum())} cards); {METHOD}", 100)]
    if effects.get("per_box_note"):
        out += textwrap.wrap(f"({effects['per_box_note']})", 100)
    out.append("")
    out.append(f"{'card':<11}" + "".join(f"{GAME_WORDS[g]:>15}" for g in games))
    out.append(f"{'full shoe':<11}" + "".join(
        f"{100 * effects['full'][g]:>+14.4f}%" for g in games))
    for i, v in enumerate(VALUES):
        out.append(f"{v:<11}" + "".join(f"{_signed(100 * effects['eor'][g][i], 4):>15}"
                                        for g in games))
    out.append(f"{'deck sum':<11}" + "".join(
        f"{_signed(100 * effects['deck_sum'][g], 4):>15}" for g in games))
    out += textwrap.wrap(
        "(full shoe: the return in % of the wager, " + ", ".join(
            f"{GAME_WORDS[g]} {PER[g]}" for g in games) + "; each card: the change of that "
        "return, in percentage points, when one card of that value is removed; deck sum: the "
        "changes weighted by one deck's cards, 4 of A-9 and 16 tens: near zero for a fixed "
        "play, insurance's 16 (insurance_pays + 1) / ((N - 1)(N - 2)) of a shoe of N cards as "
        "its dealer's ace is out, and positive for re-optimised play, each shoe's own best play "
        "gaining)", 100)
    out += textwrap.wrap(f"({INSURANCE_BASIS})", 100)
    if "super_sevens" in games:
        plays = effects["sevens_plays"]
        out += textwrap.wrap(f"({SEVENS_SUITS}: " + " ".join(
            f"{'A' if up == 1 else up}:{plays[up]}" for up in (*range(2, 11), 1)) + ")", 100)
    if effects.get("sevens_depleted") is not None:
        out += textwrap.wrap(f"({rich_sevens_note(effects['sevens_depleted'])})", 100)
    rows = count_rows(effects, systems)
    width = max([16] + [len(r["count"]) + 2 for r in rows])
    out += ["", *textwrap.wrap(f"Count correlations ({CORRELATION_NOTE})", 100), "",
            f"{'count':<{width}}{'balanced':>9}" + "".join(
                f"{w:>15}" for w in ("betting (BC)", "insurance (IC)", "Super Sevens")[
                    :len(games)])]
    for row in rows:
        out.append(f"{row['count']:<{width}}{'yes' if row['balanced'] else 'no':>9}" + "".join(
            f"{_r(row[CORRELATION_KEYS[g]]):>15}" for g in games))
    undefined = [row["count"] for row in rows if row["note"]]
    if undefined:
        out += textwrap.wrap(f"(-: {UNDEFINED}: {', '.join(undefined)})", 100)
    out += textwrap.wrap(f"({NO_EFFICIENCY})", 100)
    return "\n".join(out) + "\n"
