"""The rule set: New Zealand Gazette 1994 No. 112 blackjack, its variants, and their validation.

Each rule-set key is declared once (`DECLARATIONS`): the `Rules` dataclass, validation, the words
of ``bjsim rules show``, the docs' key table and the kernel's parameter vector (`to_params`) are
all made from the declarations. Every mistake raises `RuleError`, one line naming the file, the
key, the value and what is allowed. Keys, file format and errors: docs/rules-format.md.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import datetime
import difflib
import functools
import json
import math
import os
import re
import stat
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import NamedTuple

import numpy as np

from simulator import HOME
from simulator import layout as L
from simulator.streams import acting_char

SHUFFLES = ("cut-card", "every-round")
HOLE_CARDS = ("none", "peek")
DOUBLE_ON = ("any", "hard", "9-11", "10-11")
DEALER_BJ_TAKES = ("all", "original-and-busted", "original")
SURRENDERS = ("none", "late", "early")
SOURCES = ("gazette", "inferred", "choice")  # where the NZ default of a key comes from


def _odds(x: float) -> str:
    f = Fraction(x).limit_denominator(10)
    return f"{f.numerator} to {f.denominator}"


def plural(n: int, one: str, many: str) -> str:
    """``one`` for 1 of a thing, else ``many``: ``f"{n} {plural(n, 'deck', 'decks')}"``."""
    return one if n == 1 else many


def _ratio(x: float) -> str:
    """Pays as exact odds, ``6:5`` (the keys' steps make every value a fraction of tenths)."""
    f = Fraction(x).limit_denominator(1000)
    return f"{f.numerator}:{f.denominator}"


def _number(x: float) -> str:
    """A number as short as it is exact: ``2``, ``0.5``."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


@dataclass(frozen=True)
class Key:
    """The one declaration of a rule-set key: everything else about it is derived from here.

    ``kind``: "int", "float", "bool", "choice" (one of ``choices``) or "pays" (five ints).
    ``lo``/``hi``: the range (``lo_open``: ``lo`` itself is excluded); ``steps``: the value times
    ``steps`` must be whole (money in tenths). ``rule``: the Gazette rule number; ``source``: where
    the NZ default comes from (`SOURCES`). ``allowed``: what it allows, in words (for errors);
    ``meaning``: one line for docs/rules-format.md; ``words(rules)``: the rule in plain words for
    ``bjsim rules show``. ``params``: the kernel's parameter slots (``layout.P_*`` names) and
    ``encode(rules)``: their int values. ``short(rules)``: the value in a few words, distinct for
    each value, for the name of a strategy derived for the rules (`short_change`: ``H17``).
    ``gazette_range``: where the Gazette itself allows a range of values, its ends (``decks``:
    6-8, rule 3.1), and ``gazette_words`` it in words. ``gazette_refuses``: values of a key whose
    own rule is not in hand that Gazette text in hand still rules out (``gazette_words`` saying
    why: ``dealer_blackjack_takes = "original"`` returns busted wagers, where 12.2 loses a bust
    at once).
    """

    name: str
    kind: str
    default: object
    rule: str
    source: str
    meaning: str
    words: Callable
    params: tuple[str, ...]
    encode: Callable
    allowed: str = ""
    choices: tuple = ()
    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False
    steps: int = 0
    step_error: str = ""
    range_words: str = ""
    short: Callable | None = None
    gazette_range: tuple | None = None
    gazette_words: str = ""
    gazette_refuses: tuple = ()

    def gazette_allows(self, code: str = "") -> str:
        """What the Gazette allows of the key, in words: its range (``3.1: 6-8 decks``), the NZ
        value alone (a key the Gazette text in hand sets: ``12.3: false only``, the value
        between ``code`` marks), the values other text in hand leaves (``gazette_refuses``), or
        nothing (an inferred key, whose Gazette text is not in hand, or a choice)."""
        if self.gazette_refuses:
            allowed = " or ".join(f'{code}"{c}"{code}' for c in self.choices
                                  if c not in self.gazette_refuses)
            return f"{self.rule}: {allowed}, {self.gazette_words}"
        if self.gazette_range is not None:
            return f"{self.rule}: {self.gazette_words}"
        if self.source == "gazette":
            value = (",".join(map(str, self.default)) if self.kind == "pays"  # (as --set)
                     else _fmt(self.default))
            return f"{self.rule}: {code}{value}{code} only"
        return ""

    def allows(self) -> str:
        """What the key allows, in words."""
        if self.allowed:
            return self.allowed
        if self.kind == "int":
            return f"an integer {self.lo}-{self.hi}"
        if self.kind == "bool":
            return "true or false"
        return "one of " + ", ".join(f'"{c}"' for c in self.choices)

    def type_name(self) -> str:
        return {"int": "integer", "float": "number", "bool": "boolean", "choice": "string",
                "pays": "list of 5 integers"}[self.kind]


def _index(choices):
    return lambda v: choices.index(v)


DECLARATIONS: tuple[Key, ...] = (
    Key("decks", "int", 6, "3.1", "inferred", "52-card decks in the shoe (NZ: six to eight)",
        lambda r: f"The shoe holds {r.decks} {plural(r.decks, 'deck', 'decks')} of 52 cards "
                  f"({52 * r.decks} cards)",
        ("P_DECKS",), lambda r: r.decks, lo=1, hi=8, gazette_range=(6, 8),
        gazette_words="6-8 decks",
        short=lambda r: f"{r.decks} {plural(r.decks, 'deck', 'decks')}"),
    Key("penetration", "float", 0.75, "7.1 (1999)", "inferred",
        "fraction of the shoe dealt before the cut card: the cut card sits after "
        "`round(penetration * 52 * decks)` cards",
        lambda r: f"The cut card is placed after {r.cut} of {52 * r.decks} cards "
                  f"({r.penetration:.0%} of the shoe)",
        ("P_CUT",), lambda r: r.cut, allowed="a number 0.1-0.95", lo=0.1, hi=0.95),
    Key("shuffle", "choice", "cut-card", "7.1 (1999)", "inferred",
        "`cut-card`: shuffle when the cut card comes out (before the round if it is the round's "
        "first card, else after the round); `every-round`: a full shuffle before every round "
        "(ideal continuous shuffler)",
        lambda r: "Shuffle when the cut card comes out: before the round if it is the round's "
                  "first card, otherwise after finishing the round" if r.shuffle == "cut-card"
                  else "Every card is reshuffled before every round (a continuous shuffler)",
        ("P_SHUFFLE",), lambda r: SHUFFLES.index(r.shuffle), choices=SHUFFLES),
    Key("hole_card", "choice", "none", "8.2, 9.1", "gazette",
        "`none`: the dealer's second card comes after every box has played (NZ); `peek`: US hole "
        "card, checked for blackjack before the boxes play",
        lambda r: "No hole card: the dealer's second card is dealt after every box has played"
                  if r.hole_card == "none" else
                  "The dealer takes a hole card and checks it for blackjack before the boxes play",
        ("P_HOLE",), lambda r: HOLE_CARDS.index(r.hole_card), choices=HOLE_CARDS,
        short=lambda r: "peek" if r.hole_card == "peek" else "no hole card"),
    Key("blackjack_pays", "float", 1.5, "8.2", "gazette",
        "a player blackjack wins this many wagers (1.5 = 3 to 2, 1.2 = 6 to 5)",
        lambda r: f"A player blackjack is paid {_odds(r.blackjack_pays)}",
        ("P_BJ_WIN",), lambda r: int(round(r.blackjack_pays * L.UNIT)),
        allowed="a number 1-3 in steps of 0.1 (1.5 = 3 to 2, 1.2 = 6 to 5)", lo=1.0, hi=3.0,
        steps=L.UNIT, step_error="is not a whole number of tenths of the wager",
        short=lambda r: f"BJ pays {_ratio(r.blackjack_pays)}"),
    Key("insurance_pays", "float", 2.0, "9.5", "gazette",
        "odds paid on a winning insurance wager (stake: up to half the wager, 9.3; bjsim "
        "stakes half)",
        lambda r: f"Insurance (up to half the wager, bjsim stakes half; offered on a dealer ace) "
                  f"pays {_odds(r.insurance_pays)}",
        ("P_INS_WIN",), lambda r: int(round(r.insurance_pays * L.INSURANCE_STAKE)),
        allowed="a number above 0 up to 5 in steps of 0.2 (2 = 2 to 1)", lo=0.0, hi=5.0,
        lo_open=True, steps=L.INSURANCE_STAKE,
        step_error="does not pay a whole number of tenths on a half-wager stake",
        short=lambda r: f"insurance pays {_ratio(r.insurance_pays)}"),
    Key("double_on", "choice", "hard", "10", "inferred",
        "which two-card hands may double: any; any hard total (no ace); hard 9-11; hard 10-11",
        lambda r: {
            "any": "The player may double down on any first two cards",
            "hard": "The player may double down on any two-card hard total (no ace)",
            "9-11": "The player may double down on a two-card hard 9, 10 or 11 only",
            "10-11": "The player may double down on a two-card hard 10 or 11 only",
        }[r.double_on],
        ("P_DOUBLE_ON",), lambda r: DOUBLE_ON.index(r.double_on), choices=DOUBLE_ON,
        short=lambda r: f"double {'any 2' if r.double_on == 'any' else r.double_on}"),
    Key("double_after_split", "bool", True, "10", "inferred", "doubling allowed on split hands",
        lambda r: "Doubling down is allowed after a split" if r.double_after_split
                  else "Doubling down is not allowed after a split",
        ("P_DAS",), lambda r: int(r.double_after_split),
        short=lambda r: "DAS" if r.double_after_split else "no DAS"),
    Key("max_hands", "int", 3, "11", "gazette",
        "most hands a box may hold after splits (1 = no splitting; NZ: split at most twice)",
        lambda r: "Pairs may not be split" if r.max_hands == 1 else
                  f"A box may split pairs into at most {r.max_hands} hands ({r.max_hands - 1} "
                  f"{plural(r.max_hands - 1, 'split', 'splits')})",
        ("P_MAX_HANDS",), lambda r: r.max_hands, lo=1, hi=4,
        short=lambda r: "no splits" if r.max_hands == 1 else f"split to {r.max_hands}"),
    Key("resplit_aces", "bool", False, "11 (b)", "gazette",
        "split aces may be split again (needs `max_hands` 3 or more)",
        lambda r: "Split aces may be split again" if r.resplit_aces
                  else "Aces may be split only once",
        ("P_RSA",), lambda r: int(r.resplit_aces),
        short=lambda r: "RSA" if r.resplit_aces else "no RSA"),
    Key("hit_split_aces", "bool", False, "11 (b), 12.1 (c)", "gazette",
        "split aces may draw more than one card (needs `max_hands` 2 or more)",
        lambda r: "Split aces may draw further cards" if r.hit_split_aces
                  else "Each split ace gets one card only",
        ("P_HSA",), lambda r: int(r.hit_split_aces),
        short=lambda r: "HSA" if r.hit_split_aces else "no HSA"),
    Key("dealer_hits_soft_17", "bool", False, "12.3", "gazette",
        "true: dealer draws on soft 17 (H17); false: stands on all 17s (S17)",
        lambda r: "The dealer draws on soft 17 and stands on hard 17 and on 18 or more"
                  if r.dealer_hits_soft_17
                  else "The dealer draws to 17 and stands on all 17s, soft or hard",
        ("P_H17",), lambda r: int(r.dealer_hits_soft_17),
        short=lambda r: "H17" if r.dealer_hits_soft_17 else "S17"),
    Key("dealer_draws_when_no_live_box", "bool", False, "12.4", "inferred",
        "true: the dealer completes the hand even when no box is left that it could affect",
        lambda r: "The dealer completes the hand even when no box is left to settle"
                  if r.dealer_draws_when_no_live_box
                  else "The dealer draws no more cards when no box is left that they could affect",
        ("P_DRAW_NO_LIVE",), lambda r: int(r.dealer_draws_when_no_live_box)),
    Key("dealer_blackjack_takes", "choice", "original-and-busted", "4.1, 12.2", "inferred",
        "what a dealer blackjack (no-hole game) takes from a box that doubled or split: every "
        "unbusted wager; the original wager only (busted wagers are already lost); exactly the "
        "original wager (busted wagers returned too, the US peek outcome)",
        lambda r: {
            "all": "A dealer blackjack takes every unbusted wager, doubles and splits included",
            "original-and-busted": (
                "A dealer blackjack takes only the original wager (plus wagers already busted); "
                "other doubled or split wagers are returned"
            ),
            "original": (
                "A dealer blackjack takes only the original wager; every other wager is returned"
            ),
        }[r.dealer_blackjack_takes],
        ("P_DBJ",), lambda r: DEALER_BJ_TAKES.index(r.dealer_blackjack_takes),
        choices=DEALER_BJ_TAKES, gazette_refuses=("original",),
        gazette_words="as 12.2 loses a bust at once",
        short=lambda r: {"all": "BJ takes all", "original-and-busted": "OBBO",
                         "original": "OBO"}[r.dealer_blackjack_takes]),
    Key("surrender", "choice", "none", "n/a", "inferred",
        "surrender half the wager on the first two cards: never; late, against a dealer "
        "blackjack the whole wager lost (peek: known before play; no hole card: its second card "
        "makes it); early, half lost whatever the dealer has",
        lambda r: {
            "none": "Surrender is not offered",
            "late": ("Late surrender: give up half the wager on the first two cards, " + (
                         "after the dealer has checked for blackjack (the peek game's is known "
                         "before play)" if r.hole_card == "peek" else
                         "before the dealer's second card: without a hole card a surrendered "
                         "hand still loses its whole wager if that card makes blackjack")),
            "early": (
                "Early surrender: give up half the wager before the dealer's blackjack is known"
            ),
        }[r.surrender],
        ("P_SURRENDER",), lambda r: SURRENDERS.index(r.surrender), choices=SURRENDERS,
        short=lambda r: "no surrender" if r.surrender == "none" else f"{r.surrender} surrender"),
    Key("boxes", "int", 1, "13", "choice", "boxes played each round, each with its own strategy",
        lambda r: f"{r.boxes} {plural(r.boxes, 'box', 'boxes')} in play each round, all played "
                  "by the simulation",
        ("P_BOXES",), lambda r: r.boxes, lo=1, hi=7),
    Key("super_sevens", "bool", True, "14.1", "choice",
        "every box places a Super Sevens wager",
        lambda r: "Every box places a Super Sevens wager" if r.super_sevens
                  else "No Super Sevens wagers are placed",
        ("P_SS",), lambda r: int(r.super_sevens)),
    Key("super_sevens_bet", "float", 1.0, "14.2", "choice",
        "the Super Sevens stake per initial wager",
        lambda r: f"The Super Sevens wager is {r.super_sevens_bet:g} times the initial wager",
        (), lambda r: (), allowed="a number above 0 up to 1000 (the Super Sevens stake per "
                                  "initial wager)",
        lo=0.0, hi=1000.0, lo_open=True, range_words="a number above 0 up to 1000",
        short=lambda r: f"sevens bet {_number(r.super_sevens_bet)}"),
    Key("super_sevens_pays", "pays", (3, 50, 100, 500, 5000), "14.3", "gazette",
        "pays (to 1) of lines (a) a first seven, (b) two sevens, (c) two suited sevens, (d) three "
        "sevens, (e) three suited sevens",
        lambda r: "Super Sevens pays {} to 1 for a first seven, {} to 1 for two sevens, {} to 1 "
                  "suited, {} to 1 for three sevens, {} to 1 three suited"
                  .format(*r.super_sevens_pays),
        ("P_SS_PAY_A", "P_SS_PAY_B", "P_SS_PAY_C", "P_SS_PAY_D", "P_SS_PAY_E"),
        lambda r: tuple(r.super_sevens_pays),
        allowed="five whole numbers, each 1-1000000, for lines (a)-(e), e.g. [3, 50, 100, 500, "
        "5000]",
        lo=1, hi=1_000_000,
        short=lambda r: "sevens pays " + "/".join(str(p) for p in r.super_sevens_pays)),
)
DECLARED = {k.name: k for k in DECLARATIONS}
KEYS = tuple(DECLARED)
_PYTYPE = {"int": int, "float": float, "bool": bool, "choice": str, "pays": tuple}


def _cut(self) -> int:
    """Cards dealt before the cut card: round(penetration * 52 * decks)."""
    return int(round(self.penetration * 52 * self.decks))


def _replace(self, **changes):
    """Return a copy with some keys changed (no validation here; see `validate`)."""
    return dataclasses.replace(self, **changes)


def _to_params(self) -> np.ndarray:
    """Pack into the int64 parameter vector of `simulator.layout` (each key's ``params``)."""
    p = np.zeros(L.N_PARAMS, dtype=np.int64)
    for k in DECLARATIONS:
        values = k.encode(self)
        values = values if isinstance(values, tuple) else (values,)
        for name, v in zip(k.params, values, strict=True):
            p[getattr(L, name)] = v
    return p


Rules = dataclasses.make_dataclass(
    "Rules",
    [(k.name, _PYTYPE[k.kind], field(default=k.default)) for k in DECLARATIONS],
    namespace={"cut": property(_cut), "replace": _replace, "to_params": _to_params,
               "__module__": __name__,
               "__doc__": "One rule set. Field names are the TOML keys (`DECLARATIONS`); "
                          "defaults are the NZ 1994 game."},
    frozen=True,
)
_dataclass_init = Rules.__init__


@functools.wraps(_dataclass_init)
def _init(self, *args, **kwargs):
    """The dataclass's ``__init__``, an unknown key refused as a rule file's is (``Rules(foo=1)``,
    ``rules.replace(foo=1)``: dataclasses' TypeError)."""
    for key in kwargs:
        if key not in DECLARED:
            raise unknown_key(key, "rules")
    _dataclass_init(self, *args, **kwargs)


Rules.__init__ = _init
_SLOTS = [name for k in DECLARATIONS for name in k.params]
assert sorted(getattr(L, n) for n in _SLOTS) == list(range(L.N_PARAMS)), "a P_* slot undeclared"


# ---------------------------------------------------------------------------------------------
# Loading and validation

DEFAULT_RULES_PATH = HOME / "configs" / "nz1994.toml"
META_KEYS = ("name", "description")  # the optional [meta] table of a rule file
# A strategy file's charts (`simulator.strategy.CHARTS`), by which a strategy file given as a rule
# file, or a rule file given as a strategy, is told.
STRATEGY_CHARTS = ("hard", "soft", "pairs", "sevens")


class RuleError(ValueError):
    """A rule set that cannot be used: one line naming the source, the key and what is allowed."""


_DEFAULTS = Rules()
# Views of the declarations, by key (kept for callers and tests).
KIND = {k.name: ("str" if k.kind == "choice" else k.kind) for k in DECLARATIONS}
CHOICES = {k.name: k.choices for k in DECLARATIONS if k.kind == "choice"}
RULE_NUMBER = {k.name: k.rule for k in DECLARATIONS}
SOURCE = {k.name: k.source for k in DECLARATIONS}


def _fmt(value) -> str:
    """A value written as in a TOML file (always one line): ``true``, ``"text"``, ``[1, 2]``,
    ``{n = 6}``, ``1979-05-27``."""
    if isinstance(value, np.generic):  # (a numpy scalar given to validate: as its Python value)
        value = value.item()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    if isinstance(value, dict):  # an inline table
        return "{" + ", ".join(f"{_fmt_key(k)} = {_fmt(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (datetime.date, datetime.time)):  # (a datetime is a date too)
        return _q(value.isoformat())
    return _q(repr(value))


def _fmt_key(key) -> str:
    """A key as TOML writes it: bare where it may be, else quoted."""
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", str(key)) else json.dumps(str(key))


def pays_text(pays) -> str:
    """Super Sevens pays as every output writes them, whole numbers with slashes:
    ``3/50/100/500/5000`` (``1000000``, not ``1e+06``)."""
    return "/".join(str(int(x)) for x in pays)


def rule_change(key: str, value) -> str:
    """``key=value`` with the value as a rule file writes it (`_fmt`), a whole-number float as
    a whole number (``super_sevens_bet=2``, not ``2.0``: a float key reads either): every list
    of changes, rule-set name and variant label writes a change so."""
    if isinstance(value, np.generic):
        value = value.item()
    return f"{key}={_number(value) if isinstance(value, float) else _fmt(value)}"


def shown(value, limit: int = 40) -> str:
    """A user's value for a one-line message: as TOML writes it (`_fmt`), made safe and cut to
    ``limit`` characters (`_q`)."""
    return _q(_fmt(value), limit)


def _q(text, limit: int = 80) -> str:
    """Text made safe for a one-line message (control characters escaped, at most ``limit``
    characters shown)."""
    text = str(text)
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[:limit])
    return shown + ("..." if len(text) > limit else "")


TEXT_ALLOWED = "text without control characters or bidirectional overrides (line breaks and " \
    "tabs are fine)"


def checked_text(value: str, where: str, key: str, error=None) -> str:
    """``value`` (a string) where a file describes what it holds (a description, a source, a
    file it names): no character that acts (`acting_char`); else ``error`` (`RuleError`)."""
    c = acting_char(value)
    if c is not None:
        raise (error or RuleError)(f"{where}: key '{key}' holds U+{ord(c):04X}, a character "
                                   f"that acts rather than shows: allowed {TEXT_ALLOWED}")
    return value


# What players call some keys (for a hint: --set H17=true means dealer_hits_soft_17).
# Where a word also says the value, the hint gives it (S17 is dealer_hits_soft_17 = false).
KEY_WORDS = {"h17": "dealer_hits_soft_17", "s17": "dealer_hits_soft_17=false",
             "das": "double_after_split", "rsa": "resplit_aces", "hsa": "hit_split_aces",
             "peek": 'hole_card="peek"', "enhc": 'hole_card="none"', "pen": "penetration",
             "ls": 'surrender="late"', "es": 'surrender="early"', "bj": "blackjack_pays",
             "hands": "max_hands", "ss": "super_sevens", "deck": "decks"}


def did_you_mean(key, known, table: str = "") -> str | None:
    """``did you mean 'KEY'?`` for an unknown ``key``: the word players use for it
    (`KEY_WORDS`), else the closest of ``known`` (difflib); None where none is close. A key of
    a ``table`` is matched by its own name and named with the table's (``wong.leave``). Every
    file's loader says so of an unknown key: rule, strategy, variant, plan, count and index."""
    word = KEY_WORDS.get(str(key).lower())
    close = [word] if word and word.split("=")[0] in known else difflib.get_close_matches(
        str(key).lower(), known, n=1, cutoff=0.6)
    return f"did you mean '{table + '.' if table else ''}{close[0]}'?" if close else None


NAME_ALLOWED = "a name: printable text, not empty, on one line"
# (Python's printable: a no-break space is not, as no control character or line break is)
UNPRINTABLE = ("holds a character that is not printable (a line break, tab, control character or "
               "no-break space)")


def checked_name(value, where: str, key: str, error=None) -> str:
    """``value`` where it can name what a file holds (a rule set, strategy, count system, plan,
    index set or variant: one rule for every kind): a string, not blank, of printable characters
    (a line break or control character would split the header it is shown in); else ``error``
    (`RuleError`) naming ``where``, the ``key`` and the value as written."""
    why = ("is not a string" if not isinstance(value, str) else "is empty" if not value.strip()
           else UNPRINTABLE if not value.isprintable() else None)
    if why:
        raise (error or RuleError)(f"{where}: key '{key}' = {shown(value)} {why}: allowed "
                                   f"{NAME_ALLOWED}")
    return value


def closest_name(text, shipped) -> str:
    """``did you mean 'NAME'? `` where ``text``, a name typed for a shipped file (a plan, count
    system, index set, rule set; no folder in it, ``.toml`` dropped), is close to one of
    ``shipped`` (difflib, as `did_you_mean` for keys); else ""."""
    text = str(text)
    if "/" in text or "\\" in text:
        return ""
    text = text.removesuffix(".toml").lower()
    close = difflib.get_close_matches(text, list(shipped), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'? " if close else ""


def unknown_key(key, source: str, known=KEYS, where: str = "") -> RuleError:
    hint = did_you_mean(key, known) or "allowed " + ", ".join(known)
    return RuleError(f"{source}: unknown key '{_q(key)}'{where}: {hint}")


def _allowed(key: str) -> str:
    """What a key allows, in words (for error messages)."""
    return DECLARED[key].allows()


def _short(shown: str) -> str:
    """A value as an error line quotes it: at most 80 characters (400 digits had been quoted)."""
    return shown if len(shown) <= 80 else shown[:77] + "..."


def _type_error(key: str, value, source: str, what: str) -> RuleError:
    shown = _short(_fmt(value))
    return RuleError(f"{source}: key '{key}' = {shown} is {what}: allowed {_allowed(key)}")


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
        try:
            value = float(value)
        except OverflowError:  # (an integer beyond any float: 1 and 400 zeros)
            raise _type_error(key, value, source, "out of range") from None
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


def _check_value(key: str, value, source: str, written: str | None = None) -> None:
    """Check the range, choice or step of one (type-checked) value against its declaration;
    ``written``: the value as the user wrote it, for the message (default: as checked)."""
    k = DECLARED[key]
    if k.kind == "bool":
        return
    if k.kind == "choice":
        if value not in k.choices:
            case = next((c for c in k.choices if c == str(value).lower()), None)
            raise RuleError(
                f"{source}: key '{key}' = {_fmt(value)} is not a choice: allowed "
                + ", ".join(f'"{c}"' for c in k.choices)
                + (f' (lower case: did you mean "{case}"?)' if case else "")
            )
        return
    shown = _short(str(written if written is not None else value if k.kind == "int" else
                       _fmt(value)))
    allowed = f"{k.lo}-{k.hi}" if k.kind == "int" else (k.range_words or k.allows())
    values = value if k.kind == "pays" else (value,)
    for i, v in enumerate(values):
        if v > k.hi or v < k.lo or (k.lo_open and v == k.lo):
            pct = (k.kind == "float" and k.hi <= 1 < v <= 100 and k.lo <= v / 100 <= k.hi)
            item = (f" (line ({'abcde'[i]})'s {v})" if k.kind == "pays" and len(values) == 5
                    else f" (its {v})" if k.kind == "pays" else "")
            raise RuleError(f"{source}: key '{key}' = {shown} is out of range{item}: allowed "
                            f"{allowed}"
                            + (f" (a fraction: did you mean {v / 100:g}?)" if pct else ""))
    if k.steps and not _is_multiple(value, k.steps):
        raise RuleError(f"{source}: key '{key}' = {shown} {k.step_error}: allowed {k.allows()}")


class Clash(NamedTuple):
    """A combination of keys that cannot happen at a table: the keys and the one-line message."""

    keys: tuple[str, ...]
    message: str


# Combinations that cannot happen at a table. Settings that merely have no effect under another
# key (double_after_split with max_hands = 1, dealer_blackjack_takes in the peek game, penetration
# with shuffle = "every-round", the Super Sevens pays with super_sevens = false) are allowed: they
# are documented in docs/rules-format.md as having no effect.
def _whence(keys, source: str, origins: dict | None) -> tuple[str, dict]:
    """Where a clash of ``keys`` came from: ``source``, and no word by each key; or, where
    ``origins`` (key -> where it was set; ``source`` if not there) has the keys from different
    places, each place (``r.toml and --set``) and each key's `` (place)``."""
    where = {k: (origins or {}).get(k, source) for k in keys}
    if len(set(where.values())) < 2:
        return source, dict.fromkeys(keys, "")
    return " and ".join(dict.fromkeys(where.values())), {k: f" ({w})" for k, w in where.items()}


def _clashes(r: Rules, source: str, origins: dict | None = None) -> list[Clash]:
    """Every combination of ``r`` that cannot happen at a table, in the order they are checked;
    ``origins``: where each key was set, where not all in ``source`` (`_whence`)."""
    out = []
    if r.resplit_aces and r.max_hands < 3:
        src, at = _whence(("resplit_aces", "max_hands"), source, origins)
        out.append(Clash(
            ("resplit_aces", "max_hands"),
            f"{src}: key 'resplit_aces' = true{at['resplit_aces']} needs at least 3 hands per box, "
            f"but 'max_hands' = {r.max_hands}{at['max_hands']}: allowed resplit_aces = false, or "
            "max_hands 3-4",
        ))
    if r.hit_split_aces and r.max_hands < 2:
        src, at = _whence(("hit_split_aces", "max_hands"), source, origins)
        out.append(Clash(
            ("hit_split_aces", "max_hands"),
            f"{src}: key 'hit_split_aces' = true{at['hit_split_aces']} but 'max_hands' = "
            f"1{at['max_hands']} forbids every split: allowed hit_split_aces = false, or "
            "max_hands 2-4",
        ))
    return out


def _check_combinations(r: Rules, source: str, origins: dict | None = None) -> None:
    """Raise the first of `_clashes`, if any."""
    clashes = _clashes(r, source, origins)
    if clashes:
        raise RuleError(clashes[0].message)


def rule_set(rules, source: str = "<rules>") -> Rules:
    """``rules`` if it is a `Rules` (its values as given: `validate` checks them), else a
    `RuleError` naming ``source`` and what is allowed."""
    if not isinstance(rules, Rules):
        raise RuleError(f"{source}: not a rule set ({type(rules).__name__}): allowed a Rules "
                        "(load_rules(NAME or FILE), or Rules(KEY=VALUE, ...))")
    return rules


def validate(rules: Rules, source: str = "<rules>", origins: dict | None = None) -> Rules:
    """Check every key of a rule set; return it with values normalized.

    Parameters
    ----------
    rules : Rules
        The rule set to check (its fields may hold anything, e.g. from ``Rules(**user_dict)``).
    source : str
        Where the rules came from (a file name, ``--set``), the first word of any error.
    origins : dict, optional
        Where each key not from ``source`` came from (``{"resplit_aces": "r.toml"}``): a
        combination of keys from different places names each place.

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
    rule_set(rules, source)
    changes = {}
    for key in KEYS:
        given = getattr(rules, key)
        value = _check_type(key, given, source)
        _check_value(key, value, source, _fmt(given))  # (0 quoted as 0, not 0.0)
        changes[key] = value
    rules = rules.replace(**changes)
    _check_combinations(rules, source, origins)
    return rules


def _statement_start(lines: list[str], n: int) -> int:
    """The line (from 1) where the statement ending on line ``n`` begins: ``n`` itself, or the
    line opening the multi-line string or array that ends there (the nearest line above, among
    the last 200 that could open a statement, from which the lines through ``n`` parse)."""
    tried = 0
    for s in range(n, 0, -1):
        if not re.match(r"\s*([\w\"'.-][^=]*=|\[)", lines[s - 1]):
            continue
        try:
            tomllib.loads("\n".join(lines[s - 1 : n]))
            return s
        except tomllib.TOMLDecodeError:
            tried += 1
            if tried == 200:
                break
    return n


def _value_as_table(key: str, before: list[str]) -> str | None:
    """Why dotted ``key`` (``decks.x``) cannot be set where one of ``before`` (the lines above)
    gave a part of it a value (``decks = 6``): that part is then a value, not a table; None
    where none did (the key was given twice)."""
    parts = [p.strip() for p in key.split(".")]
    for i in range(len(parts) - 1, 0, -1):
        prefix = r"\s*\.\s*".join(map(re.escape, parts[:i]))
        for k in range(len(before), 0, -1):
            if re.match(r"\s*\[", before[k - 1]):  # (a table's header: its keys are its own)
                break
            if re.match(rf"\s*{prefix}\s*=", before[k - 1]):
                return (f"key '{_q(key)}' sets a key inside '{_q('.'.join(parts[:i]))}', which "
                        f"line {k} gives a value ({_q(before[k - 1].strip(), 40)}): allowed a "
                        "key or a table of keys, not both")
    return None


def toml_error_line(err: tomllib.TOMLDecodeError, text: str) -> str:
    """One line saying where a TOML file is malformed (rule sets and strategy files share it).
    A key given twice is named, and the line where its second statement begins (tomllib gives
    the line where a multi-line string or array given to it ends)."""
    msg = str(err).splitlines()[0] if str(err) else "invalid TOML"
    m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
    if m:
        what, lines = msg[: m.start()].strip(), text.split("\n")
        n, column = int(m.group(1)), m.group(2)
        twice = what.startswith(("Cannot overwrite", "Cannot declare")) and 0 < n <= len(lines)
        if twice and (s := _statement_start(lines, n)) != n:
            n, column = s, len(lines[s - 1]) - len(lines[s - 1].lstrip()) + 1
        src = lines[n - 1].strip() if 0 < n <= len(lines) else ""
        if twice and src:  # a key given twice
            head = re.fullmatch(r"\[+\s*([^\]]+?)\s*\]+.*", src)
            key = src.split("=")[0].strip()
            what = (f"'{head.group(1)}' given twice (as a table or a key)" if head else
                    _value_as_table(key, lines[: n - 1]) or f"key '{key}' given twice")
        elif what.startswith(("Invalid hex value", "Unescaped '\\'")) and '"' in src:
            # (a Windows path: C:\Users is an escape, \U...; the key named on a key's line, as
            # written, quoted or not; an array's line names none)
            key = re.match(r"""\s*("[^"]*"|'[^']*'|[^="']+?)\s*=""", src)
            named = f"key '{key.group(1).strip(chr(34) + chr(39))}': " if key else ""
            what += (f" ({named}a backslash in a \"...\" string begins an escape: write a "
                     "path with / or in single quotes, 'C:\\Users\\me\\file.toml')")
        return f"line {n}, column {column}: not valid TOML: {what}"
    m = re.search(r"\(at end of document\)", msg)
    if m:
        line = text.count("\n") + (0 if text.endswith("\n") else 1)
        return f"line {line} (end of file): not valid TOML: {msg[: m.start()].strip()}"
    return f"not valid TOML: {msg}"


def _check_meta(value, source: str) -> None:
    """Check that a rule file's ``meta`` is a table (its keys: `_check_meta_key`)."""
    if not isinstance(value, dict):
        raise RuleError(
            f"{source}: key 'meta' must be a table: allowed [meta] with " + ", ".join(META_KEYS)
        )


def _check_meta_key(mkey, mvalue, source: str) -> None:
    """Check one key of a rule file's ``[meta]`` table: ``name`` or ``description``, a string."""
    if mkey not in META_KEYS:
        if mkey in KIND:
            raise RuleError(
                f"{source}: rule key '{mkey}' is inside the [meta] table: allowed in "
                "[meta] only name, description; put rule keys before [meta]"
            )
        raise unknown_key(mkey, source, META_KEYS, where=" in [meta]")
    if mkey == "name":
        checked_name(mvalue, source, "meta.name")
    if not isinstance(mvalue, str):
        raise RuleError(
            f"{source}: key 'meta.{mkey}' = {_fmt(mvalue)} is not a string: allowed a string"
        )
    checked_text(mvalue, source, f"meta.{mkey}")


def rules_from_dict(data: dict, source: str = "<rules>",
                    origins: dict | None = None) -> tuple[Rules, dict]:
    """Build and validate a rule set from a TOML-like dict; return (rules, meta).

    Missing keys keep their NZ defaults. ``meta`` is the optional ``[meta]`` table
    (``name``, ``description``; strings). ``origins``: where each key not from ``source`` was
    set (`validate`).
    """
    if not isinstance(data, dict):
        raise RuleError(f"{source}: a rule set must be a table of keys")
    meta = {}
    values = {}
    for key, value in data.items():
        if key == "meta":
            _check_meta(value, source)
            for mkey, mvalue in value.items():
                _check_meta_key(mkey, mvalue, source)
                meta[mkey] = mvalue
            continue
        if key not in KIND:
            raise unknown_key(key, source, KEYS + ("meta",))
        values[key] = _check_type(key, value, source)
        _check_value(key, values[key], source, _fmt(value))  # (the first problem in file order)
    rules = validate(Rules(**values), source, origins)
    return rules, meta


def _a(word: str) -> str:
    """``word`` after its article: "a rule", "an index"."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


MAX_FILE = 64 << 20  # the most a rule, strategy, plan, count, variant or card file is read


def read_text(path, kind: str, error=None, source=None, missing=None,
              allowed: str | None = None) -> str:
    """The text of the UTF-8 file ``path`` (a leading BOM, as Notepad writes, dropped), a
    ``kind`` file: every way it cannot be read (missing, a folder, unreadable, not UTF-8) is one
    line of ``error`` (default `RuleError`) starting with ``source`` (default the path);
    ``missing``: the line for a missing file, if not the default; ``allowed``: what may be
    given instead (`shipped_or_path`), said after a folder, and after a missing file where
    ``missing`` is None."""
    error = RuleError if error is None else error
    if str(path) == "":  # (Path("") would read as the folder ".")
        raise error(f"{source + ': ' if source else ''}an empty path: name {_a(kind)} file")
    source = str(path) if source is None else source
    if named_pipe(path):  # (opened, a named pipe waits for a writer)
        raise error(f"{source}: a named pipe, not {_a(kind)} file" + _then(allowed))
    try:
        with open(path, "rb") as f:  # (at most MAX_FILE: /dev/zero had been read to no end)
            raw = read_at_most(f, MAX_FILE + 1)
    except FileNotFoundError:
        raise error(missing or f"{source}: no such {kind} file" + _then(allowed)) from None
    except IsADirectoryError:
        raise error(f"{source}: a folder, not {_a(kind)} file" + _then(allowed)) from None
    except OSError as err:
        raise error(f"{source}: cannot read the {kind} file: {err.strerror or err}") from None
    if len(raw) > MAX_FILE:
        raise error(f"{source}: larger than {MAX_FILE >> 20} MiB, too large for {_a(kind)} file"
                    + _then(allowed))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise error(f"{source}: line {line}: not valid UTF-8 text") from None


def named_pipe(path) -> bool:
    """Is ``path`` a named pipe (False where it cannot be looked at: reading it says why)?"""
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def read_at_most(f, n: int):
    """Up to ``n`` bytes (or characters) of the open file ``f``, a mebibyte at a time: one read
    of ``n`` sets aside all of it first, which a tight memory limit refused for a small file."""
    parts, got = [], 0
    while got < n:
        part = f.read(min(1 << 20, n - got))
        if not part:
            break
        parts.append(part)
        got += len(part)
    return parts[0][:0].join(parts) if parts else f.read(0)


def _then(allowed: str | None) -> str:
    return f": {allowed}" if allowed else ""


def shipped_or_path(kind: str, shipped, what: str | None = None, toml: bool = True,
                    given=None) -> str:
    """What a ``kind`` file option allows, where a shipped one may be named instead: the
    ``shipped`` names (of a ``what``, default ``kind``) or a path (of a .toml file, unless not
    ``toml``: a file of any name is read). ``given``: the path given, where it is no file but
    its name is a shipped one's (``basic.toml``, ``strategies/basic.toml`` from another folder),
    the name suggested first."""
    stem = Path(str(given)).stem if given is not None else None
    near = (f"did you mean '{stem}', the shipped {what or kind}? " if stem in shipped
            and str(given) != stem and not Path(str(given)).exists() else "")
    return (f"{near}allowed a shipped {what or kind} by name ({', '.join(shipped)}) or the path "
            f"of {_a(('.toml ' if toml else '') + kind)} file")


def names_a_file(name_or_path, shipped, folder=".") -> bool:
    """Does ``name_or_path`` name a file, not one of the ``shipped`` names: a Path, a
    separator, ``.toml``, or a file in ``folder`` of any other name that is not shipped
    (``mine.txt``; a folder of that name too, so that reading it says it is a folder)? A
    strategy, counting plan, count system or index set is found so."""
    text = str(name_or_path)
    return (isinstance(name_or_path, Path) or "/" in text or "\\" in text
            or text.endswith(".toml")
            or text not in shipped and (Path(folder) / text).exists())


def read_toml(path, kind: str, error=None, missing=None, allowed: str | None = None) -> dict:
    """The table of the TOML file ``path``, a ``kind`` file (``rule``, ``plan``, ``count``, ...):
    every way it cannot be read (`read_text`, not TOML, nested too deeply) is one line of
    ``error`` (default `RuleError`) naming the file; ``missing``, ``allowed``: as
    `read_text`'s."""
    error = RuleError if error is None else error
    source = str(path)
    text = read_text(path, kind, error, missing=missing, allowed=allowed)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise error(f"{source}: {toml_error_line(err, text)}") from None
    except RecursionError:
        raise error(f"{source}: nested too deeply to be a {kind} file") from None


def shipped_rule_sets() -> list[str]:
    """Names of the shipped rule sets (``configs/*.toml``), sorted."""
    return sorted(f.stem for f in DEFAULT_RULES_PATH.parent.glob("*.toml"))


def refuse_empty(name_or_path, kind: str, error=None) -> None:
    """Refuse, as ``error(line)`` (default `RuleError`), an empty name or path of a ``kind`` file
    that may be a shipped one by name (a rule set, strategy, plan, count system, index set):
    ``Path("")`` would read as the folder ``.``."""
    if name_or_path is not None and str(name_or_path) == "":
        raise (RuleError if error is None else error)(
            f"an empty path: name {_a(kind)} file (or a shipped one by name)")


def file_named(name_or_path, kind: str, shipped, folder, error, words: str) -> Path:
    """The file a ``kind`` file option names (a count system, index set or plan): the path
    given (`names_a_file`), or a ``shipped`` one's by name (``folder/NAME.toml``); an empty
    one, or a name neither shipped nor a file, one line of ``error`` (``words``: what the kind
    is called there, ``unknown counting plan 'x': allowed ...``)."""
    refuse_empty(name_or_path, kind, error)
    text = str(name_or_path)
    if names_a_file(name_or_path, shipped):
        return Path(text)  # (missing, a folder, unreadable: one line from read_toml)
    path = Path(folder) / f"{text}.toml"
    if not path.is_file():
        near = (f"did you mean '{text}.toml', the file? " if Path(f"{text}.toml").is_file()
                else closest_name(text, shipped))  # (a file of the user's, its .toml left off)
        raise error(f"unknown {words} '{_q(text, 40)}': {near}allowed "
                    + ", ".join(shipped)
                    + f", or the path of {_a(kind)} file")
    return path


def load_rule_file(path=None) -> tuple[Rules, dict]:
    """Read, check and return ``(rules, meta)`` from a TOML rule file (None: the NZ set)."""
    refuse_empty(path, "rule")
    path = Path(DEFAULT_RULES_PATH if path is None else path)
    allowed = shipped_or_path("rule", shipped_rule_sets(), what="rule set", toml=False)
    if not path.exists():
        allowed = closest_name(path.as_posix() if path.parent != Path(".") else path.name,
                               shipped_rule_sets()) + allowed
    return _rules_of(read_toml(path, "rule", allowed=allowed), path)


# The keys that tell each kind of bjsim file from the others (`wrong_kind`): keys of that kind's
# files that no other kind's file has (a plan's [boxes] and [super_sevens] share a rule key's
# name, so they tell neither). The plan, count and index keys are those of `simulator.plans`,
# `simulator.counting` and `simulator.index_plays` (tests/test_file_kinds.py checks them).
TELLING_KEYS = {
    "rule": (*(k for k in KIND if k not in ("boxes", "super_sevens")), "meta"),
    "strategy": (*STRATEGY_CHARTS, "insurance", "even_money"),
    "variant": ("variant", "changes"),
    "plan": ("bet", "wong", "deck_estimation", "indices", "table_min", "table_max", "bankroll",
             "tuned_penetration"),
    "count": ("tags", "irc_per_deck", "irc_constant"),
    "index": ("play",),
}
# What each kind of file is, and where it goes, for `wrong_kind`'s line ({command}: the
# command in use where it takes that option, `example_commands`).
_KIND_WORDS = {
    "rule": ("", "give it to --rules (`bjsim {command} --rules {}`)"),
    "strategy": ("", "give it to --strategy (`bjsim {command} --strategy {}`)"),
    "variant": (" (a baseline and its changes)", "give it to --variant (`bjsim {command} --variant "
                "{}`)"),
    "plan": (" (a counter's bets by count)", "give it to --plan (`bjsim count --plan {}`)"),
    "count": (" (a count system's tags)", "give it to --count (`bjsim {command} --count {}`) or "
              "name it in a plan's count key"),
    "index": (" (index plays)", "name it in a plan's indices key (`indices = \"{}\"`)"),
}


_DEFAULT_COMMAND = {"count": "strategy indices", "variant": "compare"}  # (else simulate)
_EXAMPLES = contextvars.ContextVar("bjsim_example_commands", default=None)


@contextlib.contextmanager
def example_commands(commands: dict):
    """Within it, `wrong_kind`'s line for a rule, strategy, variant or count file names
    ``commands[kind]`` (``{"rule": "replay"}``: the command in use, which takes --rules) in its
    example, not ``_DEFAULT_COMMAND``'s (else ``simulate``): ``give it to --rules (`bjsim replay
    --rules r1.toml`)``. The CLI sets it."""
    token = _EXAMPLES.set(dict(commands))
    try:
        yield
    finally:
        _EXAMPLES.reset(token)


def wrong_kind(data, path, kind: str) -> str | None:
    """The line for the table ``data`` of a file ``path`` given as a ``kind`` file (``rule``,
    ``strategy``, ``variant``, ``plan``, ``count``, ``index``) that is another kind of file,
    saying what it is and where it goes: it has none of the keys that tell a ``kind`` file
    (`TELLING_KEYS`) and some of another kind's (the kind with most, where several have some),
    or it has a ``[variant]`` table, which makes a variant file whatever else it holds; else
    None (a ``kind`` file with a stray key has that key named unknown)."""
    if not isinstance(data, dict):
        return None
    found = {other: sum(k in data for k in keys) for other, keys in TELLING_KEYS.items()
             if other != kind}
    other = max(found, key=found.get)
    if kind != "variant" and isinstance(data.get("variant"), dict):
        other = "variant"
    elif not found[other] or any(k in data for k in TELLING_KEYS[kind]):
        return None
    what, where = _KIND_WORDS[other]
    command = (_EXAMPLES.get() or {}).get(other, _DEFAULT_COMMAND.get(other, "simulate"))
    vary = (_EXAMPLES.get() or {}).get("vary-strategy")
    if kind == "variant" and other == "strategy" and vary:  # (a variant of the strategy alone)
        where, command = "give it to --vary-strategy (`bjsim {command} --vary-strategy {}`)", vary
    if kind == "plan" and other == "count":  # (`bjsim count` has no --count: the plan's key first)
        where = ("name it in a plan's count key (`count = \"{0}\"`), or give it to --count of "
                 "`bjsim {command} --count {0}`")
    return (f"{path}: {_a(other)} file{what}, not {_a(kind)} file: "
            + where.format(path, command=command))


def check_keys(data: dict, known, where, error, kind: str | None = None, table: str = "",
               limit: int = 40) -> None:
    """Refuse, as ``error(line)``, the table ``data`` of a file (``where`` begins the line): a
    ``kind`` file that is another kind's (`wrong_kind`), or a key not in ``known``, with the
    closest one (`did_you_mean`) or those allowed; a key of a ``table`` named with the table's
    (``wong.leave``). The plan, count, index and strategy loaders' one check of their keys."""
    other = wrong_kind(data, where, kind) if kind else None
    if other:
        raise error(other)
    for key in data:
        if key not in known:
            name = f"{table}.{key}" if table else key
            allowed = ", ".join(f"{table}.{k}" if table else k for k in known)
            raise error(f"{where}: unknown key '{_q(name, limit)}': "
                        + (did_you_mean(key, known, table) or "allowed " + allowed))


def _rules_of(data: dict, path: Path) -> tuple[Rules, dict]:
    """``(rules, meta)`` of the table ``data`` of the rule file ``path``, checked."""
    other = wrong_kind(data, path, "rule")
    if other:
        raise RuleError(other)
    try:
        return rules_from_dict(data, str(path))
    except RecursionError:  # a value nested too deeply to print or check
        raise RuleError(f"{path}: nested too deeply to be a rule file") from None


def rule_file_problems(path, data: dict | None = None) -> list[str]:
    """Every problem of a rule file, one line each, in the words `load_rule_file` gives the first
    (empty: the file loads); for ``bjsim rules check``.

    A file that is no table of keys (missing, not TOML, a variant or strategy file, nested too
    deeply) has its one line. Otherwise: first each key's own problem in the file's key order (a
    wrong type or value, an unknown key, a bad ``[meta]`` key), then each combination that cannot
    happen among the keys that are themselves good (`_clashes`; a key not given is its NZ value),
    e.g. ``r.toml: key 'decks' = 9 is out of range: allowed 1-8`` then ``r.toml: key
    'resplit_aces' = true needs at least 3 hands per box, but 'max_hands' = 1: ...``. ``data``:
    the file's table, where it was read already (it is read and parsed once).
    """
    try:
        if data is None:
            load_rule_file(path)
        else:
            _rules_of(data, Path(path))
        return []
    except RuleError as err:
        first = [str(err)]
    source = str(Path(path))  # (as load_rule_file names it)
    try:
        data = read_toml(path, "rule") if data is None else data
    except RuleError:
        return first
    if wrong_kind(data, source, "rule"):
        return first
    try:
        return dict_problems(data, source) or first
    except RecursionError:  # a value nested too deeply to print: the file's one line says so
        return first


def dict_problems(data: dict, source: str, base: dict | None = None,
                  origins: dict | None = None) -> list[str]:
    """Every problem of a rule set's ``data`` (`rule_file_problems`), each key over ``base``
    (a rule set's keys; default the NZ set's): each key's own problem in ``data``'s order, then
    each combination the good keys cannot make (`_clashes`; ``origins``: where each key of
    ``base`` was set, `besides` ``data``'s keys)."""
    problems, good, bad = [], dict(base or {}), set()
    for key, value in data.items():
        try:
            if key == "meta":
                _check_meta(value, source)
                for mkey, mvalue in value.items():
                    try:
                        _check_meta_key(mkey, mvalue, source)
                    except RuleError as err:
                        problems.append(str(err))
            elif key not in KIND:
                raise unknown_key(key, source, KEYS + ("meta",))
            else:
                checked = _check_type(key, value, source)
                _check_value(key, checked, source, _fmt(value))
                good[key] = checked
        except RuleError as err:
            problems.append(str(err))
            bad.add(key)
    return problems + [c.message for c in _clashes(Rules(**good), source, besides(origins, data))
                       if not bad & set(c.keys)]  # fmt: skip


def shipped_rule_file(path) -> str:
    """``path`` as given where it exists; else the shipped file it names, if there is one: a name
    in ``configs/`` with or without ``.toml`` (``nz1994-8deck``, ``variants/h17``), or a path
    under the checkout given from another folder (``configs/variants/h17.toml``)."""
    p = Path(path)
    if p.exists() or p.is_absolute():
        return str(path)
    configs = DEFAULT_RULES_PATH.parent
    for c in (configs.parent / p, configs / p, configs / f"{p}.toml"):
        if c.is_file():
            return str(c)
    return str(path)


def shown_rule_file(path) -> str:
    """How outputs name the rule file ``path`` (None: the default), or any shipped file (a
    variant, a counting plan): a shipped one relative to bjsim's folder, ``configs/...`` or
    ``strategies/...``, the name that finds it from any folder (``shipped_rule_file``); any
    other as given, but with ``./`` before a relative path that reads as a shipped file's name
    (a user's own ``configs/nz1994.toml``, not bjsim's, in another folder)."""
    if path is None:
        path = DEFAULT_RULES_PATH
    home = DEFAULT_RULES_PATH.parent.parent
    try:
        rel = Path(path).resolve().relative_to(home)
    except (ValueError, OSError, RuntimeError):  # (RuntimeError: a symlink loop, Python 3.11)
        rel = None
    if rel is not None and rel.parts[:1] in (("configs",), ("strategies",)):
        return rel.as_posix()
    given = str(path)
    shipped = Path(given).parts[:1] in (("configs",), ("strategies",)) and (home / given).is_file()
    mine = shipped and not Path(given).is_absolute() and Path(given).is_file()  # (else: bjsim's
    return f"./{given}" if mine else given  # is read, shipped_rule_file, named as above)


def load_rules(path=None) -> Rules:
    """Read a TOML rule file (None: ``configs/nz1994.toml``; a shipped one also by name, as
    ``--rules`` takes it: ``nz1994-8deck``), validate it and return the `Rules`.

    Raises
    ------
    RuleError
        One line naming the file: a missing file, malformed TOML (with its line), an unknown key
        (with the closest known key), a wrong type, a value out of range or a contradiction.
    """
    if path is not None and not isinstance(path, (str, os.PathLike)):
        raise RuleError(f"rules: {path!r} is not a path or a shipped rule set's name (a str)")
    return load_rule_file(None if path is None else shipped_rule_file(path))[0]


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


def _unquoted(text: str) -> str:
    """An override's value stripped of spaces and of one pair of quotes around it."""
    raw = text.strip()
    return raw[1:-1] if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'" else raw


class _NotFinite(ValueError):
    """A number that reads as a float but is infinite or NaN (``1e400``, ``inf``, ``nan``)."""


class _EmptyItem(ValueError):
    """A list with an item left out: two commas together, or one at an end (``3,,100``)."""


def _parse_text(kind: str, unq: str):
    """The value ``unq`` (an override's text, `_unquoted`) reads as for a key of ``kind``;
    ValueError (or ZeroDivisionError, OverflowError) where it reads as none; a number written
    in digits other than 0-9 (full-width, Arabic-Indic: Python reads them) is none."""
    if kind in ("int", "float", "pays") and not unq.isascii():
        raise ValueError
    if kind == "int":  # (digits grouped by _ as TOML, and Python, write them: 1_000)
        if not re.fullmatch(r"[+-]?\d+(?:_\d+)*", unq):
            raise ValueError
        return int(unq)
    if kind == "float":
        if "_" in unq:  # (Python reads 1_5 as 15: a slip for 1.5, no float key is that large)
            raise ValueError
        try:
            value = _parse_number(unq)
        except OverflowError:  # (a fraction beyond a float's range: 10**400/3)
            raise _NotFinite from None
        if not math.isfinite(value):
            raise _NotFinite
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
    body = unq.strip()
    for open_, close in ("[]", "()"):  # brackets in pairs, or none
        if body[:1] == open_ or body[-1:] == close:
            if body[:1] != open_ or body[-1:] != close:
                raise ValueError
            body = body[1:-1]
    chunks = [c.strip() for c in body.split(",")]
    if len(chunks) > 1 and "" in chunks:  # (two commas together, or one at an end: an item
        raise _EmptyItem  # left out)
    parts = [p for c in chunks for p in c.split()]  # (spaces separate too)
    if not all(re.fullmatch(r"[+-]?\d+(?:_\d+)*", p) for p in parts):
        raise ValueError
    return tuple(int(p) for p in parts)


def _reads_as_value(text: str) -> bool:
    """True if ``text`` (`_unquoted`) reads as a number, true/false (also yes/no, on/off) or a
    list of integers, as ``--set`` takes them; False for any other text."""
    for kind in ("float", "bool", "pays"):
        try:
            if _parse_text(kind, text) != ():
                return True
        except (ValueError, ZeroDivisionError, OverflowError):
            pass
    return False


def _parse_override_value(key: str, text: str, source: str):
    kind = KIND[key]
    try:
        return _parse_text(kind, _unquoted(text))
    except (ValueError, ZeroDivisionError, OverflowError) as err:
        whole = _unquoted(text).strip().lstrip("+-").replace("_", "").isdigit()
        what = ("out of range" if whole else "not a finite number") if isinstance(
            err, _NotFinite) else (
            "a list with an item left out (two commas together, or one at an end)"
        ) if isinstance(err, _EmptyItem) else {
            "int": "not an integer",
            "float": "not a number (a decimal, or a fraction such as 6/5 or 6:5 with a "
                     "denominator above 0)",
            "bool": "not true or false",
            "pays": "not a list of integers",
        }[kind]
        also = " (also yes/no, on/off, 1/0)" if kind == "bool" else ""
        raise RuleError(
            f"{source}: key '{key}' = {_short(as_written(key, text))} is {what}: allowed "
            f"{_allowed(key)}{also}"
        ) from None


def parse_overrides(overrides: list[str], source: str = "--set") -> dict:
    """``KEY=VALUE`` overrides as ``{key: value}``, each value typed by its key and checked
    alone (a later item of a key wins): ``["decks=08", "penetration=4/5"]`` -> ``{"decks": 8,
    "penetration": 0.8}``.

    Values: integers (digits grouped by _ as in a rule file: ``1_000``); numbers as decimals
    or fractions (``blackjack_pays=6/5``); booleans as
    ``true/false`` (also yes/no, on/off, 1/0); strings bare or quoted; ``super_sevens_pays`` as
    five integers separated by commas (``3,50,100,500,5000``; brackets allowed) or spaces;
    an item left out (``3,,100``) is refused.

    Raises
    ------
    RuleError
        ``--set: ...`` naming the override, the key and what is allowed.
    """
    if isinstance(overrides, str) or not isinstance(overrides, (list, tuple)):
        raise RuleError(f"{source}: overrides must be a list of KEY=VALUE strings, e.g. "
                        f"['decks=8'], not a {type(overrides).__name__}: '{_q(overrides)}'")
    changes = {}
    for item in overrides:
        if not isinstance(item, str) or "=" not in item:
            raise RuleError(f"{source}: '{_q(item)}' is not KEY=VALUE: e.g. decks=8")
        key, text = item.split("=", 1)
        key = key.strip()
        if key not in KIND:
            raise unknown_key(key, source)
        if source == "--set" and re.search(r",\s*\w+\s*=", text):  # decks=8,penetration=0.8
            raise RuleError(f"{source}: '{_q(item)}': one KEY=VALUE each: repeat it, e.g. --set "
                            "decks=8 --set penetration=0.8")
        value = _parse_override_value(key, text, source)
        value = _check_type(key, value, source)
        written = _q(_unquoted(text)) if KIND[key] == "float" else None  # 0 as 0, 4/3 as 4/3
        _check_value(key, value, source, written)
        changes[key] = value
    return changes


def apply_overrides(rules: Rules, overrides: list[str], source: str = "--set",
                    base: str | dict | None = None) -> Rules:
    """Apply ``KEY=VALUE`` overrides (`parse_overrides`), validate and return the new rules.
    ``base``: where ``rules`` came from (a rule file; or, key by key, `origins_of`), named
    with the key it set in a combination that cannot happen with a key the overrides set.

    Raises
    ------
    RuleError
        ``--set: ...`` naming the override, the key and what is allowed; for a combination of an
        override's key with one of ``base``'s, ``r.toml and --set: key 'resplit_aces' = true
        (r.toml) needs ..., but 'max_hands' = 2 (--set): ...``.
    """
    rule_set(rules, "rules")  # (an AttributeError for None)
    changes = parse_overrides(overrides, source)
    origins = origins_of(base) if isinstance(base, str) else base
    return validate(rules.replace(**changes), source, besides(origins, changes))


def origins_of(base: str, *placed) -> dict:
    """Where each key of a rule set was set, for `validate`'s ``origins``: ``base`` (the rule
    file, as outputs name it), but for the keys of each ``(place, keys)`` in ``placed``, a later
    one winning: ``origins_of("r.toml", ("--set", ["decks"]))``."""
    out = dict.fromkeys(KEYS, base)
    for place, keys in placed:
        out.update((k, place) for k in keys if k in out)
    return out


def besides(origins: dict | None, keys) -> dict | None:
    """``origins`` (`origins_of`) without ``keys``, the keys the source at hand sets over them."""
    return None if origins is None else {k: w for k, w in origins.items() if k not in keys}


# ---------------------------------------------------------------------------------------------
# The rules in words


def _words(r: Rules, key: str) -> str:
    return DECLARED[key].words(r)


def describe(rules: Rules) -> list[tuple[str, str, str]]:
    """Every key in words: (Gazette rule number, ``key = value``, the rule in plain words).

    ``"n/a"`` marks a key with no Gazette rule (surrender). Example:
    ``("12.3", "dealer_hits_soft_17 = false", "The dealer draws to 17 and stands on all 17s,
    soft or hard")``. ``rules`` is checked first (`validate`), as a run checks it.
    """
    rules = validate(rules, "rules")  # (99 decks had been described as 5148 cards)
    return [(k.rule, f"{k.name} = {_fmt(getattr(rules, k.name))}", k.words(rules)
             + (f" (no effect: {why})" if (why := no_effect(rules, k.name)) else ""))
            for k in DECLARATIONS]


def no_effect(rules: Rules, key: str) -> str | None:
    """Why ``key`` changes nothing under the other keys of ``rules`` (in words), or None."""
    if rules.max_hands == 1 and key in ("double_after_split", "resplit_aces", "hit_split_aces"):
        return "max_hands = 1, pairs are not split"
    if rules.max_hands == 2 and key == "resplit_aces":
        return "max_hands = 2, a box splits once"
    if not rules.super_sevens and key in ("super_sevens_bet", "super_sevens_pays"):
        return "super_sevens = false, no Super Sevens wager"
    if rules.hole_card == "peek" and key == "dealer_blackjack_takes":
        return ('hole_card = "peek", a dealer blackjack ends the round before any double or '
                "split")
    if rules.shuffle == "every-round" and key == "penetration":
        return 'shuffle = "every-round", no cut card'
    return None


def no_effect_changes(rules: Rules, changes) -> dict[str, str]:
    """``{key: why}`` (`no_effect`) for each key of ``changes`` (``key=value``, as
    `changes_made` writes them) that changes nothing under the other keys of ``rules``."""
    keys = dict.fromkeys(c.split("=", 1)[0].strip() for c in changes)
    return {k: why for k in keys if k in KIND and (why := no_effect(rules, k))}


def marked_changes(changes, no_effects: dict) -> list[str]:
    """``changes`` with each of no effect (``no_effects``: `no_effect_changes`) marked as
    `bjsim rules show` marks it: ``penetration=0.5 (no effect: shuffle = "every-round", no cut
    card)``."""
    return [c + (f" (no effect: {why})" if (why := no_effects.get(c.split("=", 1)[0].strip()))
                 else "") for c in changes]


WITHIN_GAZETTE, OUTSIDE_GAZETTE, CHANGED = "within gazette", "outside gazette", "changed"
# `origin`'s words for a value off the NZ default, as `bjsim rules show` and the report say them
ORIGIN_WORDS = {
    WITHIN_GAZETTE: "not the NZ value, but within the range the Gazette allows ("
                    + "; ".join(k.gazette_allows() for k in DECLARATIONS if k.gazette_range)
                    + ")",
    OUTSIDE_GAZETTE: "a value the Gazette does not allow (one outside its range, not the "
                     "value the Gazette text in hand sets, or one that text rules out)",
    CHANGED: "not the NZ value, of a rule whose Gazette text is not in hand",
}


def origin_legend(choice: str = "a setting of the simulation") -> str:
    """What each word of `origin` means, as `bjsim rules show` and the report say it."""
    return ("gazette = the NZ value, as the Gazette text in hand gives it; inferred = the NZ "
            "value, from elsewhere than the Gazette (configs/nz1994.toml says where); choice = "
            f"{choice}; " + "; ".join(f"{k} = {w}" for k, w in ORIGIN_WORDS.items()))


def origin_note(rules: Rules, key: str) -> str:
    """What the Gazette allows, after a value it allows in a range or does not allow (`origin`):
    `` (within the Gazette's range, 3.1: 6-8 decks)``, `` (outside what the Gazette allows,
    12.3: false only)``; else ""."""
    where = origin(rules, key)
    if where not in (WITHIN_GAZETTE, OUTSIDE_GAZETTE):
        return ""
    said = "within the Gazette's range" if where == WITHIN_GAZETTE else \
        "outside what the Gazette allows"
    return f" ({said}, {DECLARED[key].gazette_allows()})"


def origin(rules: Rules, key: str) -> str:
    """Where a key's value comes from: its NZ default's source (``gazette``, ``inferred`` or
    ``choice``) when the value is the default; else `WITHIN_GAZETTE` where the Gazette allows a
    range the value is in (``decks`` = 8: 3.1 allows six to eight decks), `OUTSIDE_GAZETTE`
    where it is outside that range or the Gazette text in hand sets the value (``decks`` = 1,
    ``dealer_hits_soft_17`` = true) or rules it out (``gazette_refuses``), `CHANGED` where that
    text is not in hand (an inferred key). A choice (the boxes, the Super Sevens bet: a
    setting, not a rule of the game) is ``choice`` whatever its value."""
    k = DECLARED[key]
    if k.source == "choice":
        return "choice"
    value = getattr(rules, key)
    if value == k.default:
        return k.source
    if value in k.gazette_refuses:
        return OUTSIDE_GAZETTE
    if k.gazette_range is not None:
        lo, hi = k.gazette_range
        return WITHIN_GAZETTE if lo <= value <= hi else OUTSIDE_GAZETTE
    return OUTSIDE_GAZETTE if k.source == "gazette" else CHANGED


GAZETTE_WORDS = (
    "what the Gazette says of the values a variant changes, with the rule: outside, a value it "
    "does not allow; inferred rule, a rule whose NZ value is "
    "inferred, its text not in hand; within, a value within a range it allows; a choice, a "
    "setting of the table, not a rule; the NZ value, a rule set's departure from the NZ game "
    "undone.")


def gazette_word(rules, keys) -> str:
    """What the Gazette says of a variant's values of the keys it changes (`origin`), for the
    report's variants table and compare's variants (a regulator's review: the rules table marked
    them, these did not): ``outside (12.3)`` for a value it does not allow, ``inferred rule
    (10)`` for a rule whose NZ value is inferred, its text not in hand, ``within (3.1)``, ``a
    choice`` (the boxes, the side bet), ``the NZ value`` (a table that departs from it, back to
    it); each that holds of the keys changed, the worst first ("outside (12.3); inferred rule
    (10)"); "" for none."""
    if rules is None or not keys:
        return ""
    where = {k: origin(rules, k) for k in keys}
    out = []
    for kinds, word in (((OUTSIDE_GAZETTE,), "outside"), ((CHANGED,), "inferred rule"),
                        ((WITHIN_GAZETTE,), "within"), (("choice",), "a choice"),
                        (("gazette", "inferred"), "the NZ value")):
        hit = [k for k, w in where.items() if w in kinds]
        numbers = [n for n in dict.fromkeys(DECLARED[k].rule for k in hit) if n != "n/a"]
        if hit:  # (surrender has no Gazette rule number: the word alone)
            out.append(word + (f" ({', '.join(numbers)})" if numbers and word not in (
                "a choice", "the NZ value") else ""))
    return "; ".join(out)


def _range_text(k: Key) -> str:
    if k.kind == "bool":
        return "true, false"
    if k.kind == "choice":
        return ", ".join(f'`"{c}"`' for c in k.choices)
    if k.kind == "pays":
        return f"each {k.lo}-{k.hi}"
    text = f"above {k.lo:g} up to {k.hi:g}" if k.lo_open else f"{k.lo:g}-{k.hi:g}"
    return text + (f", a multiple of {1 / k.steps:g}" if k.steps else "")


def keys_markdown() -> str:
    """The table of keys in docs/rules-format.md, made from the declarations (a test checks the
    docs hold exactly this)."""
    rows = ["| key | type | allowed | default | rule | NZ value from | Gazette allows | meaning |",
            "|---|---|---|---|---|---|---|---|"]
    for k in DECLARATIONS:
        default = _fmt(list(k.default) if k.kind == "pays" else k.default)
        rows.append(f"| `{k.name}` | {k.type_name()} | {_range_text(k)} | `{default}` | {k.rule} "
                    f"| {k.source} | {k.gazette_allows('`').replace(k.rule + ': ', '') or '-'} "
                    f"| {k.meaning} |")
    return "\n".join(rows) + "\n"


def rules_dict(rules: Rules) -> dict:
    """Every rule-set key and its value, JSON-ready (lists for tuples)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(rules).items()}


def dumps_rules(rules: Rules, meta: dict | None = None) -> str:
    """The rule set as TOML text (every key; loads back equal)."""
    lines = []
    if meta:
        lines.append("[meta]")
        lines += [f"{k} = {_fmt(v)}" for k, v in meta.items()]
        lines.append("")
    head = [f"{k} = {_fmt(getattr(rules, k))}" for k in KEYS]
    return "\n".join(head + [""] + lines) if meta else "\n".join(head) + "\n"


def changes_made(file_rules: Rules, rules: Rules, keys) -> list[str]:
    """The changes the command line made to a rule file, as ``key=value`` for each of ``keys``
    (in their order) whose value in ``rules`` is not the file's (``file_rules``), the value as
    a rule file writes it (`rule_change`): ``--set blackjack_pays=6:5`` is
    ``blackjack_pays=1.2``, and ``--set decks=6`` on a 6-deck file no change."""
    return [rule_change(k, getattr(rules, k)) for k in dict.fromkeys(keys)
            if getattr(rules, k) != getattr(file_rules, k)]


def as_written(key: str, text: str) -> str:
    """The value ``text`` a user gave ``key`` (after ``--set KEY=``) as every message and list
    of changes quotes it: as they wrote it, without the spaces and the one pair of quotes around
    it, but text in double quotes as a rule file writes it, so that it can be typed again after
    ``--set`` or in a rule file: ``2`` (not ``2.0``), ``6:5``, ``yes``; ``"peek"`` for ``peek``
    or ``'peek'`` (a key of choices), ``"nine"`` (for a number: text that reads as no number,
    true/false or list of integers)."""
    value = _unquoted(text)
    if KIND.get(key) == "str" or not _reads_as_value(value):
        return _q(_fmt(value))
    return _q(value)


def written_item(item) -> str:
    """A ``--set`` item ``KEY=VALUE`` as every message quotes it: ``KEY=`` and the value as
    `as_written` shows it (``hole_card="peek"``); an item of no known key as typed."""
    key, sep, text = str(item).partition("=")
    key = key.strip()
    return f"{key}={as_written(key, text)}" if sep and key in KIND else _q(str(item).strip())


def changes_written(file_rules: Rules, rules: Rules, items) -> list[str]:
    """The changes ``items`` (``KEY=VALUE`` as ``--set`` takes them, in order; a later item of
    a key wins) made to a rule file, as `changes_made` finds them (a key left at the file's
    value is no change), each value as the user wrote it (`as_written`):
    ``--set blackjack_pays=6:5`` is ``blackjack_pays=6:5`` where `changes_made` writes
    ``blackjack_pays=1.2``."""
    said = {item.split("=", 1)[0].strip(): written_item(item) for item in items}
    return [c for k, c in said.items() if getattr(rules, k) != getattr(file_rules, k)]


def canonical_change(change: str) -> str:
    """A change ``key=value`` (as ``--set`` takes it) with its value as a rule file writes it
    (`changes_made`): ``blackjack_pays=6:5`` -> ``blackjack_pays=1.2``, so that a game has one
    name however its changes are spelt; ``change`` itself where it is no such change."""
    key, sep, text = change.partition("=")
    key = key.strip()
    if not sep or key not in KIND:
        return change
    try:
        value = parse_overrides([f"{key}={text}"], source="a change")[key]
    except RuleError:
        return change
    return rule_change(key, value)


def nz_changes(rules: dict) -> list[str]:
    """``key=value`` (as `changes_made` writes it) for every key in which ``rules`` (a
    `rules_dict`) differs from the NZ rule set (`Rules()`, configs/nz1994.toml), in the rule
    set's key order, whether a rule file or the command line made it."""
    nz = rules_dict(Rules())
    return [rule_change(k, v) for k, v in rules.items() if k in nz and v != nz[k]]


def short_change(rules: Rules, keys) -> list[str]:
    """Each of ``keys`` in which ``rules`` differ from the NZ rules (`Rules()`) and that has an
    effect under the others (`no_effect`), in the rule set's key order, as its declaration's
    ``short`` words: ``["1 deck", "H17"]``."""
    nz = Rules()
    return [DECLARED[k].short(rules) for k in KEYS
            if k in keys and getattr(rules, k) != getattr(nz, k) and not no_effect(rules, k)]


def unlike_nz_line(rules: dict, named: str = "") -> str | None:
    """The tables' ``Unlike nz1994: decks=2, ...`` line for ``rules`` (a `rules_dict`): every key
    unlike the NZ rules (`nz_changes`); None where there is none, or where ``named`` (the text
    beside it: a title, the command line's changes) already names each."""
    unlike = nz_changes(rules) if rules else []
    named += "".join(", " + canonical_change(c)  # (a change as written: 6:5 names 1.2)
                     for c in re.split(r",\s*(?=[A-Za-z_]\w*\s*=)", named))
    if not unlike or all(u in named for u in unlike):
        return None
    return "Unlike nz1994: " + ", ".join(unlike)


def nz_gazette_word(rules: dict) -> str:
    """What the Gazette says of the values of ``rules`` (a `rules_dict`) that are not the NZ
    game's (`gazette_word`), where one is outside it, within a range it allows or an inferred
    rule's; "" where every value is the NZ game's or a choice (the boxes, the side bet). A key
    of no effect under the others (`no_effect`) is left out: said so, not judged."""
    if not rules:
        return ""
    values = SimpleNamespace(**{k: tuple(v) if isinstance(v, list) else v
                                for k, v in rules.items()})
    keys = [k for c in nz_changes(rules) if (k := c.split("=", 1)[0]) in DECLARED
            and not no_effect(values, k)]
    word = gazette_word(values, keys)
    return "" if word == "a choice" else word


def gazette_line(rules: dict) -> str | None:
    """The tables' ``Gazette:   outside (14.3)`` line for ``rules`` (a `rules_dict`:
    `nz_gazette_word`), or None (a designer's review: only compare and the report said a pay
    table was outside the Gazette)."""
    word = nz_gazette_word(rules)
    return f"Gazette:   {word}" if word else None


def modified_name(name: str, changes) -> str:
    """A rule set's name with the command line's changes named: ``nz1994 (modified: decks=8)``;
    a name that already says so (a file `bjsim rules show` wrote) has the changes added to its
    list: ``nz1994 (modified: decks=8, boxes=7)``. Each value is as a rule file writes it
    (`canonical_change`) and the changes are in the rule set's key order (`in_rule_order`), so
    that one game has one name however ``changes`` spell and order it."""
    changes = [canonical_change(c) for c in changes]
    if not changes:
        return name
    before = re.fullmatch(r"(.*) \(modified: (.*)\)", name)
    if before:  # (by key: a key changed again shows its new value)
        done = {c.split("=", 1)[0]: c for c in before.group(2).split(", ")}
        name, changes = before.group(1), list((done | {c.split("=", 1)[0]: c
                                                      for c in changes}).values())
    return f"{name} (modified: {', '.join(in_rule_order(changes))})"


def in_rule_order(changes) -> list[str]:
    """The changes ``key=value`` in the order of the rule set's keys (`KEYS`, as rule files,
    `rules show` and compare's labels give them), whatever order they were typed in; a change
    of no rule-set key after them, as given."""
    def place(change: str) -> int:
        key = change.split("=", 1)[0].strip()
        return KEYS.index(key) if key in DECLARED else len(KEYS)
    return sorted(changes, key=place)


def modified_meta(meta: dict | None, changes, unnamed: str = "rules") -> dict | None:
    """A rule file's ``[meta]`` after ``changes`` (``KEY=VALUE``): the name (``unnamed`` where it
    has none: the file, as every command names it) says it was modified and the description what
    changed, so a dumped file does not pass for the original."""
    changes = list(changes)
    if not changes:
        return meta
    meta = dict(meta or {})
    name = meta.get("name") or unnamed
    meta["name"] = modified_name(name, changes)
    was = meta.get("description")
    meta["description"] = f"{name} changed by {', '.join(changes)}" + (
        f". Before the change: {was}" if was else "")
    return meta
