"""Super Sevens (rule 14), exactly, suits included, for a given 7-7 play per dealer up card.

Cards 1 and 2 of the box, and its third card when the player hits or doubles 7-7, decide the bet
(14.3). Rule 14.4: splitting 7-7 is paid at once under (b) or (c); standing or surrendering (a
rule-set variant: the box takes no third card) leaves (b) or (c); a hit or a double gives the
third card, which may make (d) or (e). In the peek game a dealer
blackjack ends the round before any third card. ``guaranteed_third=True`` is the convention of
the published figures: the first three cards of the box always settle the bet.
"""

from __future__ import annotations

import numpy as np

from simulator import layout as L
from simulator.exact.player import double_allowed_by_rule, hand_of, up_index
from simulator.exact.shoe import flag
from simulator.rules import Rules, validate
from simulator.strategy import Strategy, checked

LINES = ("a", "b", "c", "d", "e", "f")
PLAYS = ("split", "stand", "hit", "double", "surrender")
TWO_CARD_PLAYS = ("split", "stand", "surrender")  # the side bet settled on the two sevens

# The published Super Sevens house edge every output cites, under the convention
# (``guaranteed_third``), by decks and pays of lines (a)-(e): (figure as published, source), from
# the authoritative source alone (Eliot Jacobson's). Reproduced by
# tests/test_super_sevens_exact.py; docs/exact.md "Published figures reproduced".
_JACOBSON = ("Eliot Jacobson, 'Card Counting the Super Sevens Blackjack Side Bet', 888casino "
             "blog")
_GAZETTE_PAYS = (3, 50, 100, 500, 5000)
PUBLISHED = {
    (6, _GAZETTE_PAYS): (0.1140, _JACOBSON),
}
# Figures of a secondary source (webdelautomovil.com, 'How to play Super 7'), no authority for a
# regulator: reproduced by the tests and docs/exact.md, cited by no output.
SECONDARY = {
    (4, _GAZETTE_PAYS): 0.1592,
    (5, _GAZETTE_PAYS): 0.1325,
    (6, _GAZETTE_PAYS): 0.1140,
    (8, _GAZETTE_PAYS): 0.0901,
}


def _is_row(x) -> bool:
    """Whether ``x`` is a sevens row: 10 action codes (`layout.ACTION_NAMES`)."""
    try:
        a = np.asarray(x)
    except (TypeError, ValueError):  # (ragged)
        return False
    return (a.shape == (L.N_UP,) and a.dtype.kind in "iu"
            and 0 <= a.min() and a.max() < len(L.ACTION_NAMES))


def sevens_plays(rules, sevens_play) -> dict:
    """Normalise a 7-7 play to {up value: 'split' | 'stand' | 'hit' | 'double' | 'surrender'}
    under the rules.

    ``sevens_play``: a play name for every up card, a {up value: name} dict, a sevens row of
    action codes (10, strategy column order), or a Strategy (its ``sevens`` row and, where a
    split is impossible, its hard 14 row). A code is played as the engine plays it: ``Rh``,
    ``Rs`` and ``Rp`` surrender where the rules allow it, else hit, stand and split.
    """
    hard = None
    if isinstance(sevens_play, Strategy):
        checked(sevens_play, "sevens_play")  # (a Strategy made in code, as a run checks it)
    if hasattr(sevens_play, "sevens"):
        hard = sevens_play.hard
        sevens_play = sevens_play.sevens
    if isinstance(sevens_play, dict) and set(sevens_play) != set(range(1, 11)):
        missing = [up for up in range(1, 11) if up not in sevens_play]
        other = [up for up in sevens_play if up not in range(1, 11)]
        why = [f"{other[0]!r:.20} is not an up card value"] if other else []
        why += [f"no play for up card{'s' if len(missing) > 1 else ''} "
                f"{', '.join(map(str, missing))}"] if missing else []
        raise ValueError(f"sevens_play = {sevens_play!r:.40}: {', '.join(why)}: allowed a dict "
                         "of a play for each of the ten up card values 1-10 (1 the ace)")
    if not (isinstance(sevens_play, str) and sevens_play in PLAYS or isinstance(sevens_play, dict)
            or _is_row(sevens_play)):
        raise ValueError(f"sevens_play = {sevens_play!r:.40}: allowed a play ({', '.join(PLAYS)}),"
                         " a {up card value 1-10: play} dict, a sevens row of 10 action codes or "
                         "a Strategy")
    can_double = double_allowed_by_rule(rules.double_on, hand_of(7, 7))
    surrender = rules.surrender != "none"
    out = {}
    for up in range(1, 11):
        if isinstance(sevens_play, str):
            play = sevens_play
        elif isinstance(sevens_play, dict):
            play = sevens_play[up]
        else:
            code = int(np.asarray(sevens_play)[up_index(up)])
            if code == L.RP and not surrender:
                code = L.P
            if code == L.P and rules.max_hands < 2 and hard is not None:
                code = int(hard[14, up_index(up)])
            play = {L.S: "stand", L.H: "hit", L.P: "split", L.RH: "hit", L.RS: "stand",
                    L.RP: "surrender"}.get(code)
            if code in (L.RH, L.RS) and surrender:
                play = "surrender"
            elif code == L.D:
                play = "double" if can_double else "hit"
            elif code == L.DS:
                play = "double" if can_double else "stand"
        if play == "split" and rules.max_hands < 2:
            play = "stand"
        if play == "double" and not can_double:
            play = "hit"
        if play not in PLAYS or play == "surrender" and not surrender:
            allowed = PLAYS if surrender else PLAYS[:-1]
            raise ValueError(f"sevens play {play!r} for up card {up}: allowed "
                             f"{', '.join(allowed)}")
        out[up] = play
    return out


def super_sevens(rules, sevens_play="stand", guaranteed_third: bool = False) -> dict:
    """Exact Super Sevens return per unit staked, line by line.

    Returns a dict: ``lines`` {line: {probability, pays, contribution}}, ``ev``, ``sd``,
    ``house_edge``, ``by_up`` {up: {play: conditional mean pay given 7-7 against that up card}}.
    """
    rules = validate(rules, "rules")
    guaranteed_third = flag("guaranteed_third", guaranteed_third)
    return _by_types(rules, sevens_plays(rules, sevens_play), guaranteed_third,
                     shoe_by_type(rules.decks))


NONSEVEN = (1, 2, 3, 4, 5, 6, 8, 9, 10)  # the values of types 4..12 (`shoe_by_type`)


def shoe_by_type(decks: int, removed: int | None = None) -> np.ndarray:
    """The full shoe by type, as `super_sevens` deals it: sevens of suit 0..3 (types 0..3), then
    the values A..10 other than 7 (types 4..12); ``removed``: less one card of that value (a
    seven of suit 0: by the suits' symmetry, the same figures as any other suit's)."""
    counts = np.array([decks] * 4 + [(16 * decks if v == 10 else 4 * decks) for v in NONSEVEN],
                      dtype=float)
    if removed is not None:
        counts[0 if removed == 7 else 4 + NONSEVEN.index(removed)] -= 1
    return counts


def _by_types(rules, plays: dict, guaranteed_third: bool, counts: np.ndarray) -> dict:
    """`super_sevens` dealt from ``counts`` (`shoe_by_type`), the 7-7 plays by up card given."""
    pays = dict(zip("abcde", rules.super_sevens_pays, strict=True))
    pays["f"] = -1
    n = counts.sum()
    sevens = counts[:4].sum()
    value = [7] * 4 + list(NONSEVEN)
    prob = dict.fromkeys(LINES, 0.0)
    p7 = sevens / n
    prob["f"] = 1 - p7
    prob["a"] = p7 * (1 - (sevens - 1) / (n - 1))
    valued = PLAYS if rules.surrender != "none" else PLAYS[:-1]
    by_up = {up: {k: [0.0, 0.0] for k in valued} for up in range(1, 11)}  # pay-weighted, weight
    peek = rules.hole_card == "peek"
    for s1 in range(4):
        if counts[s1] == 0:
            continue
        c = counts.copy()
        pr1 = c[s1] / n
        c[s1] -= 1
        for ut in range(13):  # the dealer's up card
            if c[ut] == 0:
                continue
            pru = c[ut] / (n - 1)
            cu = c.copy()
            cu[ut] -= 1
            up = value[ut]
            for s2 in range(4):
                if cu[s2] == 0:
                    continue
                pr2 = cu[s2] / (n - 2)
                c2 = cu.copy()
                c2[s2] -= 1
                w = pr1 * pru * pr2
                two = "c" if s1 == s2 else "b"
                third = _third_card(c2, s1, s2, up, peek and not guaranteed_third)
                for play in valued:
                    if play in TWO_CARD_PLAYS and not guaranteed_third:
                        dist = {two: 1.0}
                    else:
                        dist = {k: v for k, v in third.items()}
                        dist[two] = dist.pop("none", 0.0)
                    mean = sum(p * pays[k] for k, p in dist.items())
                    by_up[up][play][0] += w * mean
                    by_up[up][play][1] += w
                    if play == plays[up]:
                        for k, p in dist.items():
                            prob[k] += w * p
    lines = {k: {"probability": prob[k], "pays": pays[k], "contribution": prob[k] * pays[k]}
             for k in LINES}
    ev = sum(x["contribution"] for x in lines.values())
    ex2 = sum(x["probability"] * x["pays"] ** 2 for x in lines.values())
    return {
        "lines": lines,
        "ev": ev,
        "house_edge": -ev,
        "sd": float(np.sqrt(ex2 - ev * ev)),
        "plays": plays,
        "guaranteed_third": guaranteed_third,
        "by_up": {up: {k: (v[0] / v[1] if v[1] else 0.0) for k, v in m.items()}
                  for up, m in by_up.items()},
    }


def _third_card(c, s1, s2, up, peek):
    """Distribution of the line decided by the box's third card: 'd', 'e' or 'none' (no seven,
    or no third card because a peeked dealer blackjack ended the round)."""
    n = c.sum()
    out = {"d": 0.0, "e": 0.0, "none": 0.0}
    if peek and up in (1, 10):
        bj_type = 4 + 9 - 1 if up == 1 else 4 + 0  # ten-valued (type 12) or ace (type 4)
        p_bj = c[bj_type] / n
        out["none"] += p_bj
        # hole card is any other card; then the third card comes from what is left
        for ht in range(13):
            if ht == bj_type or c[ht] == 0:
                continue
            ph = c[ht] / n
            ch = c.copy()
            ch[ht] -= 1
            for k, v in _next_seven(ch, s1, s2).items():
                out[k] += ph * v
        return out
    return _next_seven(c, s1, s2)


def _next_seven(c, s1, s2):
    n = c.sum()
    e = c[s1] / n if s1 == s2 else 0.0
    d = c[:4].sum() / n - e
    return {"d": d, "e": e, "none": 1.0 - d - e}


def convention(decks: int, pays) -> dict:
    """The convention's Super Sevens house edge for ``decks`` and ``pays`` (lines (a)-(e)), the
    only keys it depends on, and the figure published for exactly those, if any:
    ``house_edge``, ``published`` (None, or the figure as published), ``source`` and
    ``secondary`` (whether only a secondary source, not cited, gives one: `SECONDARY`)."""
    pays = tuple(pays)
    edge = super_sevens(Rules(decks=int(decks), super_sevens_pays=pays), "hit",
                        guaranteed_third=True)["house_edge"]
    published, source = PUBLISHED.get((int(decks), pays), (None, None))
    return {"house_edge": float(edge), "published": published, "source": source,
            "secondary": (int(decks), pays) in SECONDARY}


def value_by_sevens_left(rules, cards_left: int, sevens_left: int, plays=None) -> float:
    """Super Sevens return per unit staked from a shoe of ``cards_left`` cards holding
    ``sevens_left`` sevens, their suits unknown: the sevens left are taken as a random few of the
    shoe's ``4 x decks`` (``decks`` of each suit), as a sevens count leaves them. ``plays``: None,
    the published convention (the box's first three cards settle the bet; the full shoe gives
    ``super_sevens(rules, guaranteed_third=True)['ev']``); else the 7-7 play by up card
    (`sevens_plays`' dict, or a tuple of 10 plays, up card A, 2, ..., 10), the cards other than
    sevens taken as a random few of the shoe's (the full shoe gives ``super_sevens(rules,
    plays)['ev']``)."""
    return moment_by_sevens_left(rules, cards_left, sevens_left, 1, plays)


def moment_by_sevens_left(rules, cards_left: int, sevens_left: int, k: int, plays=None) -> float:
    """The ``k``-th moment of the Super Sevens result per unit staked (``k = 1``: the return,
    `value_by_sevens_left`; ``k = 2``: its mean square, for the variance), under the
    convention (``plays`` None) or a 7-7 play by up card."""
    n, s, d = float(cards_left), float(sevens_left), rules.decks
    if not (3 <= n and 0 <= s <= min(n, 4 * d)):
        raise ValueError(f"cards_left = {cards_left}, sevens_left = {sevens_left}: allowed at "
                         f"least 3 cards and 0 to min(cards, {4 * d}) sevens")
    a, b, c, dd, e = (x**k for x in rules.super_sevens_pays)
    q2 = (d - 1) / (4 * d - 1)  # two sevens left share a suit
    q3 = q2 * (d - 2) / (4 * d - 2) if d >= 2 else 0.0  # three do
    two, three = c * q2 + b * (1 - q2), e * q3 + dd * (1 - q3)  # 7-7 and 7-7-7, the suits unknown
    p_first = s / n
    p_a = p_first * (n - s) / (n - 1)
    if plays is None:
        p_77x = p_first * (s - 1) / (n - 1) * (n - s) / (n - 2)  # two sevens, then another card
        p_777 = p_first * (s - 1) / (n - 1) * (s - 2) / (n - 2)
        return a * p_a + two * p_77x + three * p_777 + (-1) ** k * (1 - p_first)
    return (a * p_a + (-1) ** k * (1 - p_first)
            + p_first * _two_sevens(rules, n, s, _plays_by_up(plays), two, three))


def _plays_by_up(plays) -> dict:
    return dict(plays) if isinstance(plays, dict) else dict(zip(range(1, 11), plays, strict=True))


def _two_sevens(rules, n: float, s: float, plays: dict, two: float, three: float) -> float:
    """Given a first card seven from ``n`` cards holding ``s`` sevens: the chance-weighted pay
    (``two``: 7-7 settles it; ``three``: 7-7-7) of a second seven and what follows, by the
    dealer's up card (dealt between the box's two cards) and the 7-7 play against it. The cards
    other than sevens are a random few of the full shoe's, so each is a value ``v`` in its full
    shoe's share; in the peek game a dealer blackjack, the hole card drawn before the third card,
    ends the round on two cards."""
    d = rules.decks
    full = {v: (16 * d if v == 10 else 4 * d) for v in range(1, 11) if v != 7}
    others = sum(full.values())
    peek = rules.hole_card == "peek"

    def frac(x, y):
        return x / y if y > 0 and x > 0 else 0.0

    def third(r, sl):  # the pay once the third card comes from r cards holding sl sevens
        p = frac(sl, r)
        return p * three + (1 - p) * two

    out = 0.0
    rest = n - 1  # after the first seven
    for up in range(1, 11):
        if up == 7:
            p_up, sl = frac(s - 1, rest), s - 3  # sevens left after 7, up 7, 7
            bj = 0.0
        else:
            p_up, sl = frac(rest - (s - 1), rest) * full[up] / others, s - 2
            bj = full[11 - up] / (others - 1) if peek and up in (1, 10) else 0.0
        if not p_up:
            continue
        p_77 = p_up * frac(sl + 1, n - 2)  # the up card, then the box's second seven
        r = n - 3
        if plays[up] in ("split", "stand", "surrender"):  # (settled on the two sevens)
            pay = two
        elif not bj:
            pay = third(r, sl)
        else:  # the hole card: the dealer's blackjack, another card, or a seven
            p_bj = frac(r - sl, r) * bj
            p_seven = frac(sl, r)
            pay = (p_bj * two + p_seven * third(r - 1, sl - 1)
                   + (1 - p_bj - p_seven) * third(r - 1, sl))
        out += p_77 * pay
    return out
