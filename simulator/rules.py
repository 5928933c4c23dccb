"""The rule set: New Zealand Gazette 1994 No. 112 blackjack, its variants, and their validation.

Implements the rule-set keys of rules 3.1 (decks), 7.1 (1999; cut card and shuffle), 8.2
(blackjack pays), 9 (insurance pays), 10 (doubling), 11 (splitting), 12.3 (dealer draws), the
undecided points (12.4, dealer blackjack against doubled or split hands, hole card, surrender), 13
(boxes) and 14 (Super Sevens). A `Rules` is immutable; `to_params` packs it into the int64 vector
the kernel reads (indices in `simulator.layout`).

Rule files are TOML (``docs/rules-format.md``): every key optional (a missing key keeps the NZ
default), plus an optional ``[meta]`` table (``name``, ``description``). Every mistake raises
`RuleError` with a one-line message naming the file (or ``--set``), the key, the value and what is
allowed, e.g. ``configs/x.toml: key 'decks' = 9 is out of range: allowed 1-8``.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import math
import re
import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

from simulator import layout as L

SHUFFLES = ("cut-card", "every-round")
HOLE_CARDS = ("none", "peek")
DOUBLE_ON = ("any", "hard", "9-11", "10-11")
DEALER_BJ_TAKES = ("all", "original-and-busted", "original")
SURRENDERS = ("none", "late", "early")


@dataclass(frozen=True)
class Rules:
    """One rule set. Field names are the TOML keys; defaults are the NZ 1994 game."""

    decks: int = 6  # 3.1
    penetration: float = 0.75  # 7.1: fraction of the shoe dealt before the cut card
    shuffle: str = "cut-card"  # 7.1
    hole_card: str = "none"  # dealing: no hole card
    blackjack_pays: float = 1.5  # 8.2
    insurance_pays: float = 2.0  # 9.5
    double_on: str = "hard"  # 10 (inferred)
    double_after_split: bool = True  # 10 (inferred)
    max_hands: int = 3  # 11
    resplit_aces: bool = False  # 11 (b)
    hit_split_aces: bool = False  # 11 (b)
    dealer_hits_soft_17: bool = False  # 12.3
    dealer_draws_when_no_live_box: bool = False  # 12.4 (inferred)
    dealer_blackjack_takes: str = "original-and-busted"  # inferred
    surrender: str = "none"  # not offered in NZ
    boxes: int = 1  # 13
    super_sevens: bool = True  # 14
    super_sevens_bet: float = 1.0  # 14.2: Super Sevens stake relative to the initial wager
    super_sevens_pays: tuple[int, int, int, int, int] = field(default=(3, 50, 100, 500, 5000))

    def replace(self, **changes) -> Rules:
        """Return a copy with some keys changed (no validation here; see `validate`)."""
        return dataclasses.replace(self, **changes)

    @property
    def cut(self) -> int:
        """Cards dealt before the cut card: round(penetration * 52 * decks)."""
        return int(round(self.penetration * 52 * self.decks))

    def to_params(self) -> np.ndarray:
        """Pack into the int64 parameter vector of `simulator.layout` (P_* indices)."""
        p = np.zeros(L.N_PARAMS, dtype=np.int64)
        p[L.P_DECKS] = self.decks
        p[L.P_CUT] = self.cut
        p[L.P_SHUFFLE] = SHUFFLES.index(self.shuffle)
        p[L.P_HOLE] = HOLE_CARDS.index(self.hole_card)
        p[L.P_BJ_WIN] = int(round(self.blackjack_pays * L.UNIT))
        p[L.P_INS_WIN] = int(round(self.insurance_pays * L.INSURANCE_STAKE))
        p[L.P_DOUBLE_ON] = DOUBLE_ON.index(self.double_on)
        p[L.P_DAS] = int(self.double_after_split)
        p[L.P_MAX_HANDS] = self.max_hands
        p[L.P_RSA] = int(self.resplit_aces)
        p[L.P_HSA] = int(self.hit_split_aces)
        p[L.P_H17] = int(self.dealer_hits_soft_17)
        p[L.P_DRAW_NO_LIVE] = int(self.dealer_draws_when_no_live_box)
        p[L.P_DBJ] = DEALER_BJ_TAKES.index(self.dealer_blackjack_takes)
        p[L.P_SURRENDER] = SURRENDERS.index(self.surrender)
        p[L.P_BOXES] = self.boxes
        p[L.P_SS] = int(self.super_sevens)
        p[L.P_SS_PAY_A : L.P_SS_PAY_E + 1] = self.super_sevens_pays
        return p


# ---------------------------------------------------------------------------------------------
# Loading and validation

DEFAULT_RULES_PATH = Path(__file__).resolve().parent.parent / "configs" / "nz1994.toml"
META_KEYS = ("name", "description")  # the optional [meta] table of a rule file


class RuleError(ValueError):
    """A rule set that cannot be used: one line naming the source, the key and what is allowed."""


KEYS = tuple(f.name for f in dataclasses.fields(Rules))
_DEFAULTS = Rules()

# Kind of each key: "int", "float", "bool", "str" (one of CHOICES) or "pays" (five ints).
KIND = {
    "decks": "int",
    "penetration": "float",
    "shuffle": "str",
    "hole_card": "str",
    "blackjack_pays": "float",
    "insurance_pays": "float",
    "double_on": "str",
    "double_after_split": "bool",
    "max_hands": "int",
    "resplit_aces": "bool",
    "hit_split_aces": "bool",
    "dealer_hits_soft_17": "bool",
    "dealer_draws_when_no_live_box": "bool",
    "dealer_blackjack_takes": "str",
    "surrender": "str",
    "boxes": "int",
    "super_sevens": "bool",
    "super_sevens_bet": "float",
    "super_sevens_pays": "pays",
}
assert set(KIND) == set(KEYS)

CHOICES = {
    "shuffle": SHUFFLES,
    "hole_card": HOLE_CARDS,
    "double_on": DOUBLE_ON,
    "dealer_blackjack_takes": DEALER_BJ_TAKES,
    "surrender": SURRENDERS,
}

# Integer ranges (inclusive).
INT_RANGES = {"decks": (1, 8), "max_hands": (1, 4), "boxes": (1, 7)}
PENETRATION_RANGE = (0.1, 0.95)  # the cut card always leaves cards on both sides of it
BLACKJACK_PAYS_RANGE = (1.0, 3.0)  # and pays * 10 an integer (money in tenths, layout.UNIT)
INSURANCE_PAYS_RANGE = (0.0, 5.0)  # 0 < pays <= 5, and pays * 5 an integer (stake 5 tenths)
SUPER_SEVENS_BET_MAX = 1000.0  # a generous bound; only "positive and finite" matters
SUPER_SEVENS_PAYS_MAX = 1_000_000


def _fmt(value) -> str:
    """A value written as in a TOML file (always one line)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    return _q(repr(value))


def _q(text) -> str:
    """Text made safe for a one-line message (control characters escaped)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def _unknown_key(key, source: str, known=KEYS, where: str = "") -> RuleError:
    close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
    hint = f"did you mean '{close[0]}'?" if close else "known keys: " + ", ".join(known)
    return RuleError(f"{source}: unknown key '{_q(key)}'{where}: {hint}")


def _allowed(key: str) -> str:
    """What a key allows, in words (for error messages)."""
    kind = KIND[key]
    if kind == "int":
        lo, hi = INT_RANGES[key]
        return f"an integer {lo}-{hi}"
    if kind == "bool":
        return "true or false"
    if kind == "str":
        return "one of " + ", ".join(f'"{c}"' for c in CHOICES[key])
    if kind == "pays":
        return "five positive integers for lines (a)-(e), e.g. [3, 50, 100, 500, 5000]"
    return {
        "penetration": "a number 0.1-0.95",
        "blackjack_pays": "a number 1-3 in steps of 0.1 (1.5 = 3 to 2, 1.2 = 6 to 5)",
        "insurance_pays": "a number above 0 up to 5 in steps of 0.2 (2 = 2 to 1)",
        "super_sevens_bet": "a positive number (the Super Sevens stake per initial wager)",
    }[key]


def _type_error(key: str, value, source: str, what: str) -> RuleError:
    return RuleError(
        f"{source}: key '{key}' = {_fmt(value)} is {what}: allowed {_allowed(key)}"
    )


def _check_type(key: str, value, source: str):
    """Check the type of one value and return it normalized (int -> float, list -> tuple)."""
    kind = KIND[key]
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise _type_error(key, value, source, "not an integer")
        return int(value)
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise _type_error(key, value, source, "not a number")
        value = float(value)
        if not math.isfinite(value):
            raise _type_error(key, value, source, "not a finite number")
        return value
    if kind == "bool":
        if not isinstance(value, (bool, np.bool_)):
            raise _type_error(key, value, source, "not true or false")
        return bool(value)
    if kind == "str":
        if not isinstance(value, str):
            raise _type_error(key, value, source, "not a string")
        return value
    # pays
    if not isinstance(value, (list, tuple)):
        raise _type_error(key, value, source, "not a list")
    if len(value) != 5:
        raise _type_error(key, value, source, f"a list of {len(value)} numbers, not 5")
    for v in value:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise _type_error(key, value, source, f"not all integers ({_fmt(v)})")
    return tuple(int(v) for v in value)


def _is_multiple(x: float, steps: int) -> bool:
    """True if x * steps is (within rounding) an integer."""
    return abs(x * steps - round(x * steps)) < 1e-9


def _check_value(key: str, value, source: str) -> None:
    """Check the range or choice of one (type-checked) value."""
    kind = KIND[key]
    out = f"{source}: key '{key}' = {_fmt(value)} is out of range: allowed {_allowed(key)}"
    if kind == "int":
        lo, hi = INT_RANGES[key]
        if not lo <= value <= hi:
            raise RuleError(f"{source}: key '{key}' = {value} is out of range: allowed {lo}-{hi}")
    elif kind == "str":
        if value not in CHOICES[key]:
            raise RuleError(
                f"{source}: key '{key}' = {_fmt(value)} is not a choice: allowed "
                + ", ".join(f'"{c}"' for c in CHOICES[key])
            )
    elif kind == "pays":
        if any(not 1 <= v <= SUPER_SEVENS_PAYS_MAX for v in value):
            raise RuleError(out)
    elif key == "penetration":
        lo, hi = PENETRATION_RANGE
        if not lo <= value <= hi:
            raise RuleError(out)
    elif key == "blackjack_pays":
        lo, hi = BLACKJACK_PAYS_RANGE
        if not lo <= value <= hi:
            raise RuleError(out)
        if not _is_multiple(value, L.UNIT):
            raise RuleError(
                f"{source}: key '{key}' = {_fmt(value)} is not a whole number of tenths of the "
                f"wager: allowed {_allowed(key)}"
            )
    elif key == "insurance_pays":
        lo, hi = INSURANCE_PAYS_RANGE
        if not lo < value <= hi:
            raise RuleError(out)
        if not _is_multiple(value, L.INSURANCE_STAKE):
            raise RuleError(
                f"{source}: key '{key}' = {_fmt(value)} does not pay a whole number of tenths "
                f"on a half-wager stake: allowed {_allowed(key)}"
            )
    elif key == "super_sevens_bet":
        if not 0 < value <= SUPER_SEVENS_BET_MAX:
            raise RuleError(
                f"{source}: key '{key}' = {_fmt(value)} is out of range: allowed a number above 0 "
                f"up to {SUPER_SEVENS_BET_MAX:g}"
            )


# Combinations that cannot happen at a table. Settings that merely have no effect under another
# key (double_after_split with max_hands = 1, dealer_blackjack_takes in the peek game, penetration
# with shuffle = "every-round", the Super Sevens pays with super_sevens = false) are allowed: they
# are documented in docs/rules-format.md as having no effect.
def _check_combinations(r: Rules, source: str) -> None:
    if r.resplit_aces and r.max_hands < 3:
        raise RuleError(
            f"{source}: key 'resplit_aces' = true needs at least 3 hands per box, but "
            f"'max_hands' = {r.max_hands}: allowed resplit_aces = false, or max_hands 3-4"
        )
    if r.hit_split_aces and r.max_hands < 2:
        raise RuleError(
            f"{source}: key 'hit_split_aces' = true but 'max_hands' = 1 forbids every split: "
            "allowed hit_split_aces = false, or max_hands 2-4"
        )


def validate(rules: Rules, source: str = "<rules>") -> Rules:
    """Check every key of a rule set; return it with values normalized.

    Parameters
    ----------
    rules : Rules
        The rule set to check (its fields may hold anything, e.g. from ``Rules(**user_dict)``).
    source : str
        Where the rules came from (a file name, ``--set``), the first word of any error.

    Returns
    -------
    Rules
        An equal rule set with ints given for float keys turned into floats and the Super Sevens
        pays into a tuple.

    Raises
    ------
    RuleError
        On a wrong type, a value out of range, a string not among the choices, or a combination
        that cannot happen (``resplit_aces`` with fewer than 3 hands, ``hit_split_aces`` with no
        splits). The message is one line: ``SOURCE: key 'KEY' = VALUE is ...: allowed ...``.
    """
    if not isinstance(rules, Rules):
        raise RuleError(f"{source}: not a rule set ({type(rules).__name__})")
    changes = {}
    for key in KEYS:
        value = _check_type(key, getattr(rules, key), source)
        _check_value(key, value, source)
        changes[key] = value
    rules = rules.replace(**changes)
    _check_combinations(rules, source)
    return rules


def toml_error_line(err: tomllib.TOMLDecodeError, text: str) -> str:
    """One line saying where a TOML file is malformed (rule sets and strategy files share it)."""
    msg = str(err).splitlines()[0] if str(err) else "invalid TOML"
    m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
    if m:
        text = msg[: m.start()].strip()
        return f"line {m.group(1)}, column {m.group(2)}: not valid TOML: {text}"
    m = re.search(r"\(at end of document\)", msg)
    if m:
        line = text.count("\n") + (0 if text.endswith("\n") else 1)
        return f"line {line} (end of file): not valid TOML: {msg[: m.start()].strip()}"
    return f"not valid TOML: {msg}"


def rules_from_dict(data: dict, source: str = "<rules>") -> tuple[Rules, dict]:
    """Build and validate a rule set from a TOML-like dict; return (rules, meta).

    Missing keys keep their NZ defaults. ``meta`` is the optional ``[meta]`` table
    (``name``, ``description``; strings).
    """
    if not isinstance(data, dict):
        raise RuleError(f"{source}: a rule set must be a table of keys")
    meta = {}
    values = {}
    for key, value in data.items():
        if key == "meta":
            if not isinstance(value, dict):
                raise RuleError(
                    f"{source}: key 'meta' must be a table: allowed [meta] with "
                    + ", ".join(META_KEYS)
                )
            for mkey, mvalue in value.items():
                if mkey not in META_KEYS:
                    if mkey in KIND:
                        raise RuleError(
                            f"{source}: rule key '{mkey}' is inside the [meta] table: allowed in "
                            "[meta] only name, description; put rule keys before [meta]"
                        )
                    raise _unknown_key(mkey, source, META_KEYS, where=" in [meta]")
                if not isinstance(mvalue, str):
                    raise RuleError(
                        f"{source}: key 'meta.{mkey}' = {_fmt(mvalue)} is not a string: "
                        "allowed a string"
                    )
                meta[mkey] = mvalue
            continue
        if key not in KIND:
            raise _unknown_key(key, source, KEYS + ("meta",))
        values[key] = _check_type(key, value, source)
    rules = validate(Rules(**values), source)
    return rules, meta


def load_rule_file(path=None) -> tuple[Rules, dict]:
    """Read, check and return ``(rules, meta)`` from a TOML rule file (None: the NZ set)."""
    path = Path(DEFAULT_RULES_PATH if path is None else path)
    source = str(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise RuleError(f"{source}: no such rule file") from None
    except OSError as err:
        raise RuleError(f"{source}: cannot read the rule file: {err.strerror or err}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise RuleError(f"{source}: line {line}: not valid UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RuleError(f"{source}: {toml_error_line(err, text)}") from None
    return rules_from_dict(data, source)


def load_rules(path=None) -> Rules:
    """Read a TOML rule file (None: ``configs/nz1994.toml``), validate it and return the `Rules`.

    Raises
    ------
    RuleError
        One line naming the file: a missing file, malformed TOML (with its line), an unknown key
        (with the closest known key), a wrong type, a value out of range or a contradiction.
    """
    return load_rule_file(path)[0]


# ---------------------------------------------------------------------------------------------
# --set KEY=VALUE overrides

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _parse_number(text: str) -> float:
    """A decimal or a fraction (``1.5``, ``3/2``, ``6:5`` as odds 6 to 5)."""
    t = text.strip()
    m = re.fullmatch(r"\s*(\d+)\s*(?:to|:)\s*(\d+)\s*", t)
    if m:
        return float(Fraction(int(m.group(1)), int(m.group(2))))
    return float(Fraction(t)) if "/" in t else float(t)


def _parse_override_value(key: str, text: str, source: str):
    kind = KIND[key]
    raw = text.strip()
    unq = raw[1:-1] if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'" else raw
    try:
        if kind == "int":
            if not re.fullmatch(r"[+-]?\d+", unq):
                raise ValueError
            return int(unq)
        if kind == "float":
            value = _parse_number(unq)
            if not math.isfinite(value):
                raise ValueError
            return value
        if kind == "bool":
            low = unq.lower()
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
            raise ValueError
        if kind == "str":
            return unq
        parts = [p for p in re.split(r"[\s,]+", unq.strip("[]() ")) if p]
        if not all(re.fullmatch(r"[+-]?\d+", p) for p in parts):
            raise ValueError
        return tuple(int(p) for p in parts)
    except (ValueError, ZeroDivisionError, OverflowError):
        what = {
            "int": "not an integer",
            "float": "not a number",
            "bool": "not true or false",
            "pays": "not a list of integers",
        }[kind]
        raise RuleError(
            f"{source}: key '{key}' = '{_q(text)}' is {what}: allowed {_allowed(key)}"
        ) from None


def apply_overrides(rules: Rules, overrides: list[str], source: str = "--set") -> Rules:
    """Apply ``KEY=VALUE`` overrides (typed by the key), validate and return the new rules.

    Values: integers; numbers as decimals or fractions (``blackjack_pays=6/5``); booleans as
    ``true/false`` (also yes/no, on/off, 1/0); strings bare or quoted; ``super_sevens_pays`` as
    five integers separated by commas (``3,50,100,500,5000``; brackets allowed).

    Raises
    ------
    RuleError
        ``--set: ...`` naming the override, the key and what is allowed.
    """
    changes = {}
    for item in overrides:
        if not isinstance(item, str) or "=" not in item:
            raise RuleError(f"{source}: '{_q(item)}' is not KEY=VALUE: e.g. decks=8")
        key, text = item.split("=", 1)
        key = key.strip()
        if key not in KIND:
            raise _unknown_key(key, source)
        value = _parse_override_value(key, text, source)
        value = _check_type(key, value, source)
        _check_value(key, value, source)
        changes[key] = value
    return validate(rules.replace(**changes), source)


# ---------------------------------------------------------------------------------------------
# The rules in words

RULE_NUMBER = {
    "decks": "3.1",
    "penetration": "7.1",
    "shuffle": "7.1",
    "hole_card": "8.2, 9.1",
    "blackjack_pays": "8.2",
    "insurance_pays": "9.5",
    "double_on": "10",
    "double_after_split": "10",
    "max_hands": "11",
    "resplit_aces": "11 (b)",
    "hit_split_aces": "11 (b), 12.1 (c)",
    "dealer_hits_soft_17": "12.3",
    "dealer_draws_when_no_live_box": "12.4",
    "dealer_blackjack_takes": "4.1, 12.2",
    "surrender": "n/a",
    "boxes": "13",
    "super_sevens": "14.1",
    "super_sevens_bet": "14.2",
    "super_sevens_pays": "14.3",
}
assert set(RULE_NUMBER) == set(KEYS)


def _odds(x: float) -> str:
    f = Fraction(x).limit_denominator(10)
    return f"{f.numerator} to {f.denominator}"


def _words(r: Rules, key: str) -> str:
    v = getattr(r, key)
    if key == "decks":
        return f"The shoe holds {v} deck{'s' if v != 1 else ''} of 52 cards ({52 * v} cards)"
    if key == "penetration":
        return (
            f"The cut card is placed after {r.cut} of {52 * r.decks} cards ({v:.0%} of the shoe)"
        )
    if key == "shuffle":
        if v == "cut-card":
            return (
                "Shuffle when the cut card comes out: before the round if it is the round's first "
                "card, otherwise after finishing the round"
            )
        return "Every card is reshuffled before every round (a continuous shuffler)"
    if key == "hole_card":
        if v == "none":
            return (
                "No hole card: the dealer's second card is dealt after every box has played"
            )
        return "The dealer takes a hole card and checks it for blackjack before the boxes play"
    if key == "blackjack_pays":
        return f"A player blackjack is paid {_odds(v)}"
    if key == "insurance_pays":
        return f"Insurance (half the wager, offered on a dealer ace) pays {_odds(v)}"
    if key == "double_on":
        return {
            "any": "The player may double down on any first two cards",
            "hard": "The player may double down on any two-card hard total (no ace)",
            "9-11": "The player may double down on a two-card hard 9, 10 or 11 only",
            "10-11": "The player may double down on a two-card hard 10 or 11 only",
        }[v]
    if key == "double_after_split":
        return (
            "Doubling down is allowed after a split"
            if v
            else "Doubling down is not allowed after a split"
        )
    if key == "max_hands":
        if v == 1:
            return "Pairs may not be split"
        return f"A box may split pairs into at most {v} hands ({v - 1} split{'s' if v > 2 else ''})"
    if key == "resplit_aces":
        return "Split aces may be split again" if v else "Aces may be split only once"
    if key == "hit_split_aces":
        return (
            "Split aces may draw further cards"
            if v
            else "Each split ace gets one card only"
        )
    if key == "dealer_hits_soft_17":
        return (
            "The dealer draws on soft 17 and stands on hard 17 and on 18 or more"
            if v
            else "The dealer draws to 17 and stands on all 17s, soft or hard"
        )
    if key == "dealer_draws_when_no_live_box":
        return (
            "The dealer completes the hand even when no box is left to settle"
            if v
            else "The dealer draws no more cards when no box is left that they could affect"
        )
    if key == "dealer_blackjack_takes":
        return {
            "all": "A dealer blackjack takes every unbusted wager, doubles and splits included",
            "original-and-busted": (
                "A dealer blackjack takes only the original wager (plus wagers already busted); "
                "other doubled or split wagers are returned"
            ),
            "original": (
                "A dealer blackjack takes only the original wager; every other wager is returned"
            ),
        }[v]
    if key == "surrender":
        return {
            "none": "Surrender is not offered",
            "late": "Late surrender: give up half the wager on the first two cards",
            "early": (
                "Early surrender: give up half the wager before the dealer's blackjack is known"
            ),
        }[v]
    if key == "boxes":
        return f"{v} box{'es' if v != 1 else ''} in play each round, all played by the simulation"
    if key == "super_sevens":
        return (
            "Every box places a Super Sevens wager"
            if v
            else "No Super Sevens wagers are placed"
        )
    if key == "super_sevens_bet":
        return f"The Super Sevens wager is {v:g} times the initial wager"
    if key == "super_sevens_pays":
        a, b, c, d, e = v
        return (
            f"Super Sevens pays {a} to 1 for a first seven, {b} to 1 for two sevens, {c} to 1 "
            f"suited, {d} to 1 for three sevens, {e} to 1 three suited"
        )
    raise KeyError(key)


def describe(rules: Rules) -> list[tuple[str, str, str]]:
    """Every key in words: (Gazette rule number, ``key = value``, the rule in plain words).

    ``"n/a"`` marks a key with no Gazette rule (surrender). Example:
    ``("12.3", "dealer_hits_soft_17 = false", "The dealer draws to 17 and stands on all 17s,
    soft or hard")``.
    """
    return [(RULE_NUMBER[k], f"{k} = {_fmt(getattr(rules, k))}", _words(rules, k)) for k in KEYS]


def dumps_rules(rules: Rules, meta: dict | None = None) -> str:
    """The rule set as TOML text (every key; loads back equal)."""
    lines = []
    if meta:
        lines.append("[meta]")
        lines += [f"{k} = {_fmt(v)}" for k, v in meta.items()]
        lines.append("")
    head = [f"{k} = {_fmt(getattr(rules, k))}" for k in KEYS]
    return "\n".join(head + [""] + lines) if meta else "\n".join(head) + "\n"


def modified_name(name: str, changes) -> str:
    """A rule set's name with the command line's changes named: ``nz1994 (modified: decks=8)``."""
    changes = list(changes)
    return f"{name} (modified: {', '.join(changes)})" if changes else name


def modified_meta(meta: dict | None, changes) -> dict | None:
    """A rule file's ``[meta]`` after ``changes`` (``KEY=VALUE``): the name says it was modified and
    the description what changed, so a dumped file does not pass for the original."""
    changes = list(changes)
    if not changes:
        return meta
    meta = dict(meta or {})
    name = meta.get("name") or "rules"
    meta["name"] = modified_name(name, changes)
    was = meta.get("description")
    meta["description"] = f"{name} changed by {', '.join(changes)}" + (
        f". Before the change: {was}" if was else "")
    return meta
