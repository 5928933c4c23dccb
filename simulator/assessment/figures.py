"""Every figure of ``bjsim report``, computed once into one JSON-ready dict (``report.json``).

The runs are `simulator.run.simulate` (what ``bjsim simulate`` prints) and the exact figures are
`simulator.exact.compare.exact_figures` (what ``bjsim exact`` prints), both kept whole in the
dict; the report's tables (wagers, the Super Sevens pay table of rule 14, hit frequencies, the
volatility index, the 7-7 question of rule 14.4, the player's choices) are derived from them here
and nowhere else. With a counting plan, the counting section's runs are ``bjsim count``'s
(`simulator.count_runs`) and its figures `simulator.counting_report`'s.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
import math
import platform
import re
import shlex
import sys
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist

import numpy as np

from simulator import __version__, engine, kernel, run, stops
from simulator import layout as L
from simulator.cards import fresh_shoe
from simulator.derived import DERIVED_BASIC, chart_change, strategy_note
from simulator.exact.analyze import INSURANCE_WORDS, UPS, worth_taking
from simulator.exact.cache import UNSEEN
from simulator.exact.compare import (
    SIDE_BETS,
    cut_card_effect,
    cut_card_z,
    exact_figures,
    exact_figures_all,
    exact_json,
    valued_charts,
)
from simulator.exact.sevens import convention, sevens_plays, super_sevens
from simulator.processes import processes_for
from simulator.report import (
    SS_LINE_TEXT,
    document,
    plays_by_up_text,
    sevens_convention,
    sevens_player_edge,
)
from simulator.rules import (
    CHANGED,
    DECLARATIONS,
    DEFAULT_RULES_PATH,
    OUTSIDE_GAZETTE,
    WITHIN_GAZETTE,
    Rules,
    canonical_change,
    describe,
    gazette_word,
    no_effect,
    no_effect_changes,
    origin,
    origin_note,
    plural,
    rules_dict,
    shown_rule_file,
)
from simulator.source import file_sha256, provenance_columns
from simulator.strategy import (
    charts_sha256,
    list_strategies,
    load_strategy,
    sevens_row_for,
    shown_names,
    strategy_path,
)
from simulator.tally import MIN_ROUNDS, Z95, dealer_note, house_edge_of, per, splits_se_note
from simulator.variants import changes_of

ROUND_COUNTS = (100, 1_000, 10_000, 100_000)  # the volatility table's columns
CONFIDENCES = (0.90, 0.95, 0.99)
SAMPLE_STREAM = 2**32  # spawn key of the distribution sample's shoes (chunk indices stay below)


@dataclass(frozen=True)
class Spec:
    """What to assess. ``rules`` is the loaded rule set (file plus ``overrides``); ``strategy`` a
    shipped name or a file; ``choices`` the strategies set against it (None: every shipped one);
    ``variants`` the variant files compared with it (None: every shipped one; empty: none).
    ``rounds`` is the main run's length, or with ``precision`` its cap. ``count_plan``: a
    counting plan played ``count_rounds`` rounds (and at each of ``count_penetrations``) for
    the counting section (None: no section), its risk of ruin for ``count_bankroll`` units
    (None: the plan's bankroll). ``out_dir`` only goes into the rebuild command,
    and ``rules_given`` and ``variants_given`` only into the manifest's commands: ``--rules`` and
    each ``--variant`` as the user gave them (a shipped one by its name, not by the path on this
    machine it was found at; None: ``rules_file`` and ``variants``)."""

    rules: Rules
    strategy: str = "basic"
    strategy_given: bool = True
    rules_file: str | None = None
    rules_name: str | None = None
    overrides: tuple[str, ...] = ()
    rounds: int = 10_000_000
    precision: float | None = None
    seed: int = 1994
    chunk_rounds: int = 100_000
    workers: int | None = None
    sample_rounds: int = 1_000_000
    choices: tuple[str, ...] | None = None
    variants: tuple[str, ...] | None = None
    variant_rounds: int = 10_000_000
    out_dir: str = "report"
    count_plan: str | None = None
    count_rounds: int = 1_000_000
    count_penetrations: tuple[float, ...] | None = None
    count_bankroll: float | None = None
    count_rounds_per_hour: int | None = None
    rules_given: str | None = None
    variants_given: tuple[str, ...] | None = None
    rules_description: str | None = None


Say = Callable[[str], None]


def _plain(x):
    """JSON-ready: numpy scalars to Python, dict keys to str (a round trip through json)."""
    return json.loads(json.dumps(x, default=lambda v: v.item() if hasattr(v, "item") else str(v)))




# ---------------------------------------------------------------------------------------------
# Runs


def _plan(spec: Spec, strategy, name: str, rounds: int, precision,
          files: dict | None = None, note: str | None = None) -> run.Plan:
    """The run of ``strategy``, named ``name``, as simulate plays it (``files``: the report's
    strategy files, `_shown_all`: its own, where it is one, in the run's metadata; ``note``:
    the words beside it, `_notes`)."""
    boxes = spec.rules.boxes
    return run.Plan(
        spec.rules, (strategy,) * boxes, (name,) * boxes, rounds=rounds, seed=spec.seed,
        chunk_rounds=spec.chunk_rounds, workers=spec.workers, precision=precision,
        rules_file=spec.rules_file, rules_name=spec.rules_name, overrides=spec.overrides,
        strategy_note=note, strategy_files=_own(files, name),
    )


def _notes(rules, names) -> dict:
    """``{name: the words beside it}`` for the strategies ``names`` (as shown) played under
    ``rules``, as every command says them (`derived.strategy_note`), by the chart the exact
    analyzer derives for ``rules`` (`exact_figures`, computed once: a cache that cannot be
    written, or holds no strategy file, says the same)."""
    theirs = exact_figures(rules, None)[1] if chart_change(rules) else None
    return {n: strategy_note(rules, n, theirs) for n in names}


def _own(files: dict | None, name: str) -> dict | None:
    """``{name: its file}`` of ``files`` where ``name`` is a strategy read from a file, else
    None."""
    return {name: files[name]} if files and name in files else None


DERIVED_NAME = DERIVED_BASIC  # (as every command names it)
CHOICE_KEYS = tuple(k.name for k in DECLARATIONS if k.source == "choice")  # boxes, Super Sevens


def shown_name(name: str, overrides) -> str:
    """A rule set's name with the command line's changes, as the report's title and its
    variant table give it: changes of the rules as every command names them (``nz1994
    (modified: decks=8)``), but the choices (`CHOICE_KEYS`: the boxes, the Super Sevens bet, a
    setting and no rule of the game) apart, not as a modification: ``nz1994 (choices:
    boxes=3)``, ``nz1994 (modified: decks=8; choices: boxes=3)``."""
    chosen = [o for o in overrides if o.split("=", 1)[0].strip() in CHOICE_KEYS]
    changed = [o for o in overrides if o not in chosen]
    parts = ([f"modified: {', '.join(changed)}"] if changed else []) + (
        [f"choices: {', '.join(chosen)}"] if chosen else [])
    return f"{name} ({'; '.join(parts)})" if parts else name


def set_form(change: str) -> str:
    """A change ``key=value``, its value as a rule file writes it (every command's rule-set
    name: ``super_sevens_pays=[3, 50, 100, 500, 2500]``, ``hole_card="peek"``), in the form a
    user types after --set, which the report's sentences and commands use (its rule-set names
    are every command's): ``super_sevens_pays=3,50,100,500,2500``, ``hole_card=peek``; a change
    as the user wrote it (``blackjack_pays=6:5``) is first written as a rule file writes it
    (`rules.canonical_change`: ``blackjack_pays=1.2``)."""
    key, value = canonical_change(change).split("=", 1)
    try:
        (v,) = tomllib.loads(f"v = {value}").values()
    except tomllib.TOMLDecodeError:
        return change
    if isinstance(v, bool):
        return f"{key}={'true' if v else 'false'}"
    if isinstance(v, list):
        return f"{key}={','.join(str(x) for x in v)}"
    return f"{key}={v}"


def reader_name(name: str, rules, overrides) -> str:
    """A rule set's name with its departures from the NZ game in the words of the rules table
    (`changes_words`): ``nz1994, changed from the NZ game: the shoe holds 8 decks of 52 cards
    (416 cards) (within the Gazette's range, 3.1: 6-8 decks) (with the choice: 3 boxes in play
    each round, all played by the simulation)``. `shown_name` is
    the label every command prints."""
    return name + changes_words(rules, overrides)


def departures(rules) -> list[str]:
    """The keys of ``rules`` that depart from the NZ game, as the rules table marks them (its
    ``from``: within gazette, outside gazette or changed; `rules.origin`), in its order, whether
    the rule file or the command line set them; the choices (`CHOICE_KEYS`) are none. A key of
    no effect under the other keys is one (the table marks it so, and says why)."""
    return [k.name for k in DECLARATIONS
            if origin(rules, k.name) in (WITHIN_GAZETTE, OUTSIDE_GAZETTE, CHANGED)]


def changes_words(rules, overrides) -> str:
    """The departures from the NZ game (`departures`: the rule file's and the command line's)
    in the words of the rules table (its ``in words`` column, with what the Gazette allows and
    any "no effect"), in the table's order, and the command line's choices (`CHOICE_KEYS`)
    apart: ``, changed from the NZ game: the shoe holds 8 decks of 52 cards (416 cards) (within
    the Gazette's range, 3.1: 6-8 decks) (with the choice: 3 boxes in play each round, all
    played by the simulation)``, as the summary gives them after the game; empty without
    either."""
    keys = {o.split("=", 1)[0].strip() for o in overrides}
    words = {r[1].split(" = ")[0]: r[2] for r in describe(rules)}
    changed = [_in_line(words[k]) + origin_note(rules, k) for k in departures(rules)]
    chosen = [_in_line(k.words(rules)) for k in DECLARATIONS
              if k.name in keys and k.source == "choice"]
    return ((f", changed from the NZ game: {'; '.join(changed)}" if changed else "")
            + (f" (with the choice{'s' if len(chosen) > 1 else ''}: {'; '.join(chosen)})"
               if chosen else ""))


GAME_WORDS = 60  # the longest rule-file description taken as the game's name (`game_name`)


def game_name(name: str, description: str | None) -> str:
    """The game a rule file describes, as the report's title names it: its ``[meta]``
    description up to a colon or a bracket (``New Zealand Gazette 1994 No. 112 blackjack``),
    where that is at most `GAME_WORDS` characters; else the rule set's name. Named
    mid-sentence, its leading article is lowered: ``the NZ 1994 rules with an eight-deck
    shoe``."""
    head = (description or "").split(":", 1)[0].split(" (", 1)[0].strip().rstrip(".")
    game = head if head and len(head) <= GAME_WORDS else name
    # (named mid-sentence, "assessment of the NZ 1994 rules ...": a leading article lowered)
    return re.sub(r"^(The|An?) (?=\S)", lambda m: m.group(1).lower() + " ", game)


def report_title(game: str, rules, overrides) -> str:
    """The report's title: the game, and how many of its rules depart from the NZ game
    (`departures`: the rule file's and the command line's, as the rules table marks them), each
    in words in the summary's first sentence (`changes_words`), with the command line's choices
    (`CHOICE_KEYS`) briefly: ``Mathematical assessment of New Zealand Gazette 1994 No. 112
    blackjack, with 3 rules changed (3 boxes)``; short enough for the page foot."""
    keys = list(dict.fromkeys(o.split("=", 1)[0].strip() for o in overrides))
    chosen = [_choice_words(k, rules) for k in keys if k in CHOICE_KEYS]
    n = len(departures(rules))
    return (f"Mathematical assessment of {game}"
            + (f", with {n} rule{'s' if n > 1 else ''} changed" if n else "")
            + (f" ({', '.join(chosen)})" if chosen else ""))


def _choice_words(key: str, rules) -> str:
    """A choice (`CHOICE_KEYS`) in two or three words, for the title."""
    if key == "boxes":
        return f"{rules.boxes} box{'es' if rules.boxes > 1 else ''}"
    if key == "super_sevens":
        return "Super Sevens bet" if rules.super_sevens else "no Super Sevens"
    return f"Super Sevens at {rules.super_sevens_bet:g} times the wager"


def _in_line(words: str) -> str:
    """A rule's words (a sentence of the rules table) inside a line: the first letter lowered
    but in the name Super Sevens."""
    return words if words.startswith("Super Sevens") else words[:1].lower() + words[1:]


def nz_game(rules):
    """The NZ rules (configs/nz1994.toml's, `Rules()`) with the choices of ``rules``: its boxes
    and Super Sevens bet, which are no rule of the game."""
    return dataclasses.replace(Rules(), **{k: getattr(rules, k) for k in CHOICE_KEYS})


def against_nz(rules) -> dict | None:
    """What the departures of ``rules`` from the NZ game cost together: the keys other than
    the choices in which they differ from `nz_game`, and the exact house edge (and Super
    Sevens') of each game's own basic strategy (derived by the exact analyzer for it, a full
    shoe every round) with the difference; None where no such key differs. The penetration
    and the shuffle the exact figures do not see (``unseen``): with only they changed, no
    figure. A key of no effect under the other keys (`rules.no_effect`: the penetration with a
    shuffle every round) is no departure, as the rules table marks it, nor in the command."""
    nz = nz_game(rules)
    changes = [set_form(c) for c in changes_of(nz, rules)  # (the report's words: as --set)
               if not no_effect(rules, c.split("=", 1)[0])]
    if not changes:
        return None
    unseen = [c for c in changes if c.split("=", 1)[0] in UNSEEN]
    out = {"changes": changes, "unseen": unseen,
           # each change the Gazette allows (a value in its range: decks=8), with its range
           "within_gazette": {c: origin_note(rules, c.split("=", 1)[0]).strip(" ()")
                              for c in changes
                              if origin(rules, c.split("=", 1)[0]) == WITHIN_GAZETTE},
           # each change the Gazette does not allow, with its clause and what it allows
           # (dealer_hits_soft_17=true: "12.3: false only"), as the rules table says it
           "outside_gazette": {c: origin_note(rules, c.split("=", 1)[0]).strip(" ()")
                               .removeprefix("outside what the Gazette allows, ")
                               for c in changes
                               if origin(rules, c.split("=", 1)[0]) == OUTSIDE_GAZETTE},
           # the changes of the main game, and those of the Super Sevens bet alone (its pays),
           # which leave the main game's house edge as it is
           "main_changes": [c for c in changes if not c.startswith("super_sevens")],
           "side_changes": [c for c in changes if c.startswith("super_sevens")],
           # the command that measures the unseen changes against the NZ game, by simulation
           "measure_command": "bjsim compare" + "".join(
               f" --set {set_form(c)}" for c in changes_of(Rules(), nz)) + " --vary "
           + ",".join(set_form(c) for c in unseen) if unseen else None,
           "nz_house_edge": None, "house_edge": None,
           "difference": None, "nz_super_sevens_house_edge": None,
           "super_sevens_house_edge": None, "super_sevens_difference": None}
    if len(unseen) == len(changes):
        return out
    (nz_fig, _), (fig, _) = exact_figures(nz, None), exact_figures(rules, None)
    out |= {"nz_house_edge": nz_fig["house_edge"], "house_edge": fig["house_edge"],
            "difference": fig["house_edge"] - nz_fig["house_edge"]}
    if nz_fig["super_sevens"] and fig["super_sevens"]:
        a, b = nz_fig["super_sevens"]["house_edge"], fig["super_sevens"]["house_edge"]
        out |= {"nz_super_sevens_house_edge": a, "super_sevens_house_edge": b,
                "super_sevens_difference": b - a}
    return out


def _derived(spec: Spec) -> bool:
    """Does the report play the chart derived for its rules (its default, not the NZ one)?"""
    return not spec.strategy_given and spec.strategy != "basic"


def _name(spec: Spec) -> str:
    """The report's strategy as every output names it: a derived one not by its cache file, a
    file by its own name, as simulate names it (`_shown_all`)."""
    return _shown(spec)[0]


def _shown(spec: Spec) -> tuple[str, dict | None]:
    """The report's strategy as every output names it (`_name`), and ``{name: its file}`` where
    it is read from a file given, else None."""
    shown_of, files = _shown_all(spec, {spec.strategy: load_strategy(spec.strategy)})
    return shown_of[spec.strategy], files or None


def _shown_all(spec: Spec, strategies: dict) -> tuple[dict, dict]:
    """The name each of ``strategies`` (by the name or file given, the report's own first) is
    shown by, as every command shows it (`strategy.shown_names`: a file by its own name), and
    the files behind them (``{name: path}``); the report's own, where derived, `DERIVED_NAME`,
    not its cache file."""
    given = list(strategies)
    names, files = shown_names(given, list(strategies.values()))
    if _derived(spec):
        files.pop(names[0], None)
        names[0] = DERIVED_NAME
    return dict(zip(given, names, strict=True)), files


def _exact_doc(spec: Spec, strategy, name: str | None = None, files: dict | None = None,
               note: str | None = None):
    """`bjsim exact --strategy NAME -f json`'s document, and the figures behind it; ``name``:
    the strategy's as the commands name it (`_shown_all`; a derived one's, `DERIVED_NAME`),
    ``files``: where the report's strategy files are, ``note``: the words beside it
    (`_notes`: as exact says them)."""
    fig, strat = exact_figures(spec.rules, strategy)
    source = run.rules_source(spec.rules_file, spec.rules_name, spec.overrides)
    name = name or fig["strategy"]
    own = _own(files, name)
    meta = {"version": __version__, "rules": rules_dict(spec.rules),
            "run": source | {"strategy": name, "strategy_note": note, "play": fig["play"],
                             "seed": None, "partial": False} | (
                {"strategy_files": own} if own else {}), "strategy_sha256": valued_charts(strat)}
    shown = name if note is None else f"{name} ({note})"  # (as bjsim exact's; files: run)
    return _plain(exact_json(fig | {"strategy": shown}, meta)), fig


def _running(chunks: dict, rounds_played: int, total) -> dict:
    """The running house edge and its 95% half-width after each chunk, in chunk order."""
    acc = np.zeros(L.N_TALLY, np.int64)
    out = {"rounds": [], "house_edge": [], "half_width": []}
    for i in sorted(chunks):
        if int(acc[L.T_ROUNDS]) >= rounds_played:
            break  # chunks past a precision stop are not part of the result
        acc += chunks[i]
        box_rounds = int(acc[L.T_BOX_ROUNDS])
        out["rounds"].append(int(acc[L.T_ROUNDS]))
        out["house_edge"].append(house_edge_of(per(int(acc[L.T_TOTAL_SUM]), box_rounds,
                                                   L.UNIT)))  # (simulate's figure, bit for bit)
        out["half_width"].append(engine.half_width(acc))
    if not np.array_equal(acc, total):
        raise RuntimeError("report: the chunks seen do not add up to the run's tally")
    return out


SAMPLE_CARDS = 32  # cards a fresh shoe is shuffled to at first for a sampled round, and 16 a box


def _sample(rules, strategy, n: int, seed: int) -> np.ndarray:
    """Net result (main game and insurance, every box, in initial wagers) of ``n`` rounds dealt
    by the kernel's stacked mode from shoes shuffled by ``SeedSequence(seed, SAMPLE_STREAM)``."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(SAMPLE_STREAM,)))
    shoe = fresh_shoe(rules.decks)
    cols = [L.R_FIXED + b * L.R_BOX + k for b in range(rules.boxes) for k in (L.B_MAIN, L.B_INS)]
    parts, got = [], 0
    while got < n:  # (rows of shoes, each dealt to the cut card, 256 a call)
        if rules.shuffle == "every-round":
            rec = _fresh_shoe_rounds(rng, shoe, min(n - got, 20_000), rules, strategy)
        else:
            cards = np.array([rng.permutation(shoe) for _ in range(256)])
            rec = kernel.play_stacked(cards, rules, strategy, cut=rules.cut, shoes=True)
        parts.append(rec[:, cols].sum(axis=1))
        got += len(rec)
    return np.concatenate(parts)[:n]


def _fresh_shoe_rounds(rng, shoe, rows: int, rules, strategy) -> np.ndarray:
    """The records of ``rows`` rounds, each off a fresh shoe: each shoe shuffled (Fisher-Yates)
    only as far as a round mostly needs; a round that needs more gets its shoe's rest shuffled
    on and is dealt again from the whole shoe."""
    cards = np.asfortranarray(np.tile(shoe.astype(np.int8), (rows, 1)))  # (a place at once)
    first = min(shoe.size, SAMPLE_CARDS + 16 * rules.boxes)
    _shuffle(rng, cards, 0, first)
    parts, at = [], 0
    while at < rows:  # (stacked mode stops at a round short of cards: its row is ``at``)
        rec = kernel.play_stacked(cards[at:, :first], rules, strategy)
        parts.append(rec)
        at += len(rec)
        if at < rows:
            _shuffle(rng, cards[at : at + 1], first, shoe.size)
            parts.append(kernel.play_stacked(cards[at : at + 1], rules, strategy))
            at += 1  # (a round a whole shoe cannot deal is no round of the game: none)
    return np.concatenate(parts)


def _shuffle(rng, cards, lo: int, hi: int) -> None:
    """Fisher-Yates steps ``lo`` to ``hi - 1`` on each row of ``cards``, in place: those places
    become a uniform draw, in order, from the row's cards in places ``lo`` and on."""
    r, n = np.arange(len(cards)), cards.shape[1]
    picks = np.arange(lo, hi) + rng.integers(0, n - np.arange(lo, hi), size=(len(cards), hi - lo))
    for i in range(lo, hi):
        j = picks[:, i - lo]
        cards[r, i], cards[r, j] = cards[r, j], cards[r, i].copy()


# ---------------------------------------------------------------------------------------------
# Derived tables


def _z(sim, exact, se):
    if sim is None or exact is None or not se:
        return None
    return (sim - exact) / se


def _cut_card(row: dict, rules) -> dict:
    """``row`` with its z as every output gives it against a full-shoe exact value
    (`cut_card_z`): under a cut card with ``z_caveat`` (it includes the cut-card effect: sized
    for the tables it was measured for, `effect_measured`, else said not measured), or withheld
    with ``z_note`` where its se
    is below half the effect; a side wager's (Super Sevens, insurance) with its own caveat, its
    cut-card effect not measured (`unmeasured_caveat`)."""
    side = SIDE_WAGERS.get(row.get("wager"))
    z, note, said = cut_card_z(rules, row["z"], row["se"], wager=side, plain=True)
    return row | {"z": z, "z_note": note, "z_caveat": said}


SIDE_WAGERS = {"super_sevens": "Super Sevens", "insurance": "insurance"}  # (`_cut_card`)


def _wager(key, label, per, exact, derivation, fig: dict, strategy: str, rules) -> dict:
    """A wager's row: its returns, and the z of its house edge (as every z of the report: the
    exact return minus the simulated one, over the se); no z where the simulated interval is
    withheld (its se means nothing)."""
    note = fig.get("interval_note")
    return _cut_card({
        "wager": key, "label": label, "per": per, "strategy": strategy, "exact": exact,
        "derivation": derivation, "simulated": fig["mean"], "se": fig["se"],
        "ci95_low": fig["ci95_low"], "ci95_high": fig["ci95_high"],
        "z": None if note else _z(exact, fig["mean"], fig["se"]), "interval_note": note,
        "sd_bet": fig.get("sd_box_round", fig.get("sd_bet")), "sd_round": fig.get("sd_round"),
        "bets": fig.get("bets")}, rules)


def _wagers(rules, name, res, fig, ins) -> list[dict]:
    """Each wager: exact return, derivation, simulated return with its 95% CI and z, SDs."""
    s = res["results"]
    shuffle = ("every round from a full shoe" if rules.shuffle == "every-round" else
               "every round from a full shoe, while the simulation deals to a cut card (so its "
               "difference from the exact figure also holds the cut-card effect)")
    main_how = ("card-removal analysis (docs/exact.md, steps 1-7): every dealer up card and "
                "two-card hand weighted by its exact probability, the strategy's play valued by "
                "recursion over the next card, splits by the published tables' convention; "
                f"{shuffle}")
    out = [
        _wager("total", "Main game and insurance", "initial wager",
               fig["ev"], "The main game's and the insurance's return added, per initial wager "
               f"(rules 8-12); {main_how}.", s["total"], name, rules),
        _wager("main", "Main game (even money included)", "initial wager", fig["main_ev"],
               "Rules 8, 10-12 and 8.3; by the same analysis as the row above.", s["main"],
               name, rules),
    ]
    for w in out:
        w["bets"] = s["box_rounds"]  # one initial wager a box-round
        w["rounds"] = s["rounds"]
    # The exact SD per initial wager (bjsim exact's sd_box_round) is the main game's with the
    # insurance the strategy takes: the main game alone's too where it takes none.
    out[0]["exact_sd_bet"] = fig["sd_box_round"]
    out[1]["exact_sd_bet"] = None if fig["insurance"]["taken"] else fig["sd_box_round"]
    if ins is not None:
        ins_name, ins_res, ins_fig = ins
        pays = rules.insurance_pays
        out.append(_wager(
            "insurance", "Insurance", "unit staked", ins_fig["insurance"]["per_unit_staked"],
            f"Rule 9: up to half the wager (bjsim stakes half), paid {pays:g} to 1 when the "
            "dealer's second card is ten-valued. Each hand offered it (the dealer's ace up, "
            "the box's two cards not a blackjack, which is offered even money) wins with "
            "P(ten) = the ten-valued cards unseen over the cards unseen (the box's two cards "
            "and the dealer's ace out), "
            f"averaged over those hands from a full shoe (bjsim exact --strategy {ins_name}: "
            "insurance per unit staked).", ins_res["results"]["insurance"], ins_name, rules))
        out[-1]["rounds"] = ins_res["results"]["rounds"]
        # its exact SD from the exact return (a regulator's review: "-" beside it, and the
        # volatility ranges from one run's simulated SD)
        out[-1]["exact_sd_bet"] = insurance_sd(ins_fig["insurance"]["per_unit_staked"], pays)
    else:  # rule 9's wager is offered at the table all the same: its exact return
        out.append(_exact_insurance(rules, fig, s["rounds"]))
    if rules.super_sevens:
        out.append(_wager(
            "super_sevens", "Super Sevens", "unit staked", fig["super_sevens"]["ev"],
            "Rule 14: exact enumeration of the box's first card, the dealer's up card, the box's "
            "second card and, when 7-7 is hit or doubled (14.3 (d), (e); split, the bet is paid "
            "at once: 14.4), its third card, suits included "
            "(docs/exact.md step 8), with the strategy's 7-7 play.",
            by_exact_sd(s["super_sevens"], fig["super_sevens"]["sd_bet"]), name, rules))
        # its SD is exact too (a few big pays make the simulated one rough: 14.15 against 17.14),
        # so its SE, 95% interval and z, in every table and sentence, are by the exact SD
        # (`by_exact_sd`; simulate's, by the simulated SD, kept as ``*_simulated_sd``)
        w = out[-1]
        w["exact_sd_bet"] = fig["super_sevens"]["sd_bet"]
        w["rounds"] = s["rounds"]
        w["half_width_exact_sd"] = (w["ci95_high"] - w["simulated"]
                                    if w["ci95_high"] is not None else None)
        for k in ("se", "ci95_low", "ci95_high"):
            w[f"{k}_simulated_sd"] = s["super_sevens"][k]
    return out


def insurance_sd(exact: float, pays: float) -> float:
    """The exact SD per unit staked of insurance (rule 9) of exact return ``exact``: each bet wins
    ``pays`` or loses 1, so with p = (exact + 1) / (pays + 1) its mean square is
    pays^2 p + (1 - p), whatever P(ten) each hand had."""
    p = (exact + 1) / (pays + 1)
    return math.sqrt(pays * pays * p + (1 - p) - exact * exact)


def _exact_insurance(rules, fig: dict, rounds: int) -> dict:
    """Insurance's row where no strategy simulated takes it (``exact_only``): rule 9's wager is
    offered at the table whatever a strategy does, so its exact return per unit staked is given
    (bjsim exact's ``insurance.per_unit_staked``, the same for every strategy), with its exact
    SD (`insurance_sd`) and no simulated figure."""
    pays = rules.insurance_pays
    exact = fig["insurance"]["per_unit_staked"]
    return {
        "wager": "insurance", "label": "Insurance", "per": "unit staked",
        "strategy": "(exact only)", "exact_only": True, "exact": exact,
        "derivation": f"Rule 9: up to half the wager (bjsim stakes half), paid {pays:g} to 1 "
        "when the dealer's second card is ten-valued. Each hand offered it (the dealer's ace "
        "up, the box's two cards not a blackjack, which is offered even money) wins with "
        "P(ten) = the ten-valued cards unseen over the cards unseen (the box's two cards and "
        "the dealer's ace out), averaged over those hands from a full shoe (bjsim exact: "
        "insurance per unit staked, the same whichever strategy is named); its exact SD per "
        f"unit staked from that return, as each bet wins {pays:g} or loses 1.",
        "simulated": None, "se": None, "ci95_low": None, "ci95_high": None, "z": None,
        "interval_note": None, "z_note": None, "z_caveat": None, "sd_bet": None,
        "exact_sd_bet": insurance_sd(exact, pays), "sd_round": None, "bets": None,
        "rounds": rounds}


def by_exact_sd(fig: dict, exact_sd: float | None) -> dict:
    """A simulated Super Sevens figure (simulate's: ``mean``, ``se``, ``ci95_*``, ``bets``,
    and ``house_edge``) with its SE and 95% interval by the exact SD per bet, ``exact_sd /
    sqrt(bets)``, rather than by the simulated SD, which rests on a few of the biggest pays and
    most often runs below it: the report's one interval of the figure. Unchanged where the
    interval is withheld (``interval_note``) or there is no exact SD."""
    if fig.get("interval_note") or not exact_sd or not fig.get("bets") or fig["se"] is None:
        return fig
    se = exact_sd / math.sqrt(fig["bets"])
    return fig | {"se": se, "ci95_low": fig["mean"] - Z95 * se,
                  "ci95_high": fig["mean"] + Z95 * se}


def _per_unit_wagered(main: dict) -> dict:
    """The main game's result per unit wagered on it (simulate's ``main.mean_per_unit_wagered``
    and its SE; `report.PER_UNIT_WAGERED`), with its 95% interval."""
    mean, se = main["mean_per_unit_wagered"], main["se_per_unit_wagered"]
    ok = mean is not None and se is not None
    return {"mean": mean, "se": se, "ci95_low": mean - Z95 * se if ok else None,
            "ci95_high": mean + Z95 * se if ok else None,
            # (why none, as simulate says it: the main game's own, too few rounds)
            "interval_note": None if ok or mean is None else main.get("interval_note"),
            "wagered_per_initial": main["wagered_per_initial"]}


def _even_money(rules, strategy, name: str, summary: dict) -> dict | None:
    """Even money (rule 8.3) against declining it, per initial wager: exact from the shoe.
    ``cost``: what taking it gives up each time (declining's worth less 1: + where taking
    loses, - where it gains, as at 6 to 5); whether the assessed ``strategy`` (named ``name``)
    takes it, and the offers it took in the main run (``summary``'s frequencies)."""
    tens = 16 * rules.decks - 1  # the box's blackjack holds a ten
    left = 52 * rules.decks - 3  # less the box's ace and ten and the dealer's ace
    p_bj = tens / left
    declined = rules.blackjack_pays * (1 - p_bj)  # a dealer blackjack stands off (8.2)
    took = summary["frequencies"].get("even_money_taken") or {}
    return {"p_dealer_blackjack": p_bj, "declined": declined, "taken": 1.0,
            "cost": declined - 1.0, "strategy": name,
            "strategy_takes": bool(strategy.even_money),
            "offers": took.get("n"), "offers_taken": took.get("count"),
            "derivation": f"A blackjack against an ace: even money pays 1 at once; declined, it "
            f"pays {rules.blackjack_pays:g} unless the dealer's second card is one of the "
            f"{tens} ten-valued cards among the {left} unseen, P = {tens}/{left}; so declining is "
            f"worth {rules.blackjack_pays:g} x {left - tens}/{left}."}


def _pay_table(rules, fig, summary) -> list[dict]:
    """Super Sevens (rule 14) line by line: combinations, probability, pays, contribution."""
    cards = 5 if rules.hole_card == "peek" else 4
    n = 52 * rules.decks
    deals = math.prod(range(n - cards + 1, n + 1))
    rows = []
    for k, v in fig["super_sevens"]["lines"].items():
        combos = v["probability"] * deals
        sim = summary["super_sevens"]["lines"][k]
        rows.append({
            "line": k, "cards": SS_LINE_TEXT[k], "pays": v["pays"],
            "combinations": round(combos) if abs(combos - round(combos)) < 1e-3 else None,
            "of": deals, "probability": v["probability"], "contribution": v["contribution"],
            "count": sim["count"], "freq": sim["freq"], "freq_se": sim["freq_se"],
            "sim_contribution": sim["contribution"],
            "sim_contribution_se": sim["contribution_se"]})
    return rows


# Each hit frequency (simulate's key) and its denominator in plain words, as the report shows
# them (its CSV keeps the keys beside them).
EVENT_WORDS = {
    "player_blackjack": "player blackjack", "splits": "split", "hands_per_box_round":
    "hands played (after splits)", "wins": "won", "losses": "lost", "pushes": "pushed",
    "doubles": "doubled", "busts": "busted", "surrenders": "surrendered",
    "insurance_offered": "insurance offered", "insurance_taken": "insurance taken",
    "insurance_won": "insurance won", "even_money_offered": "even money offered",
    "even_money_taken": "even money taken", "dealer_blackjack": "dealer blackjack",
    "dealer_bust": "dealer busts", "dealer_17": "dealer ends on 17",
    "dealer_18": "dealer ends on 18", "dealer_19": "dealer ends on 19",
    "dealer_20": "dealer ends on 20", "dealer_21": "dealer ends on 21 (not a blackjack)",
    "dealer_not_finished": "dealer's hand not completed (rule 12.4)",
    "super_sevens_win": "Super Sevens bet won"}
PER_WORDS = {"box_round": "box-round", "hand": "hand", "round": "round",
             "insurance_offered": "insurance offer", "insurance_taken": "insurance bet",
             "even_money_offered": "even-money offer",
             "completed_dealer_hand": "completed dealer hand", "bet": "Super Sevens bet"}


def _frequencies(summary, rules=None, strategy=None) -> list[dict]:
    """The hit frequencies (simulate's), each with its words (``label``, ``per_words``) and,
    where the rules or the ``strategy`` leave it nothing to count, why (``left_out``): the
    report leaves such a row out of its table, saying which."""
    rows = [{"event": k} | v for k, v in summary["frequencies"].items()]
    ss = summary["super_sevens"]
    if ss["bets"]:
        f = ss["lines"]["f"]
        rows.append({"event": "super_sevens_win", "per": "bet", "count": ss["bets"] - f["count"],
                     "n": ss["bets"], "rate": 1 - f["freq"], "se": f["freq_se"],
                     "se_upper_bound": False})  # (the lines' binomial SE, as simulate's)
    never = {}
    if rules is not None and rules.surrender == "none":
        never["surrenders"] = "surrender is not offered"
    if strategy is not None and not strategy.insurance:
        never |= dict.fromkeys(("insurance_taken", "insurance_won"),
                               "the strategy takes no insurance")
    if strategy is not None and not strategy.even_money:
        never["even_money_taken"] = "the strategy takes no even money"
    for r in rows:
        r["label"] = EVENT_WORDS.get(r["event"], r["event"].replace("_", " "))
        r["per_words"] = PER_WORDS.get(r["per"], r["per"].replace("_", " "))
        r["left_out"] = (never.get(r["event"]) if not r["count"] else None) or (
            "none to count" if not r["n"] else None)
    return rows


SS_DRAWS = 400_000  # sets of N Super Sevens bets drawn for the volatility table's range


def _drawn_range(lines: dict, n: int) -> dict:
    """The central range of the casino's result per unit staked over ``n`` Super Sevens bets at
    each confidence: quantiles of ``SS_DRAWS`` sets of ``n`` bets drawn (seed 1994) from the
    exact line chances (each tail's chance within about 0.07 percentage points at 95%). A few
    big pays decide it, so the normal approximation fails there (for the NZ game its 95% range
    over 100 bets reached +359%, more than the casino can win: the volatility table's
    ``normal_high_95``)."""
    p = np.array([v["probability"] for v in lines.values()])
    pays = np.array([v["pays"] for v in lines.values()], np.float64)
    counts = np.random.default_rng(1994).multinomial(n, p / p.sum(), size=SS_DRAWS)
    result = -(counts @ pays) / n
    out = {}
    for c in CONFIDENCES:
        lo, hi = np.quantile(result, [(1 - c) / 2, (1 + c) / 2], method="inverted_cdf")
        out[f"low_{round(100 * c)}"], out[f"high_{round(100 * c)}"] = float(lo), float(hi)
    return out


def _round_sd(w: dict, boxes: int) -> tuple[float | None, float | None]:
    """(SD per round, bets per round) of a wager whose bets share a round with ``boxes`` > 1
    boxes: the main game's from its per-round sums (a bet a box), insurance's from its SE (the
    boxes of a round settle it together; a round holds ``bets / rounds`` of its bets on
    average); (None, None) with one box, or for Super Sevens (each box's bet rests on its own
    cards: all but independent of the others')."""
    if boxes <= 1 or w["wager"] == "super_sevens":
        return None, None
    if w["wager"] in ("total", "main"):
        return w["sd_round"], float(boxes)
    if not w.get("se") or not w.get("bets") or not w.get("rounds"):
        return None, None
    per_round = w["bets"] / w["rounds"]
    return w["se"] * w["bets"] / math.sqrt(w["rounds"]), per_round


def _edge_of(w: dict, rules) -> tuple[float, str]:
    """(house edge, its source) a volatility row is centred on and its expected casino win
    taken from: for the main game (with and without insurance), dealt to a cut card (rule 7.1
    (1999)), the simulated one, the game as dealt, where the run measured it more closely than
    the cut-card effect it holds (its 95% half-width at most `cut_card_effect` for the decks and
    boxes, one box's where several are not measured):
    ``"simulated"``; else the exact one, a full shoe every round: ``"exact"``."""
    if (rules is not None and rules.shuffle == "cut-card" and w["wager"] in ("total", "main")
            and w.get("simulated") is not None and w.get("ci95_high") is not None
            and w["ci95_high"] - w["simulated"] <= cut_card_effect(rules.decks, rules.boxes)):
        return -w["simulated"], "simulated"
    return -w["exact"], "exact"


def _volatility(wagers: list[dict], ss_lines: dict | None = None, boxes: int = 1,
                rules=None) -> list[dict]:
    """The casino's result over N bets at each confidence (the PAR sheet's volatility index):
    house edge +- z SD / sqrt(N) per bet (its ``per``: an initial wager, or for insurance and
    Super Sevens a unit staked), from the exact house edge and the SD per bet: exact for Super
    Sevens and insurance (``exact_sd_bet``), simulated for the others (``sd_source`` says which:
    the main
    game's exact SD is for a full shoe every round, its split rounds approximated, while the
    simulated one is the game as dealt, and measured closely). Super
    Sevens' range is drawn from its exact line chances ``ss_lines`` (`_drawn_range`;
    ``range_source``).

    With ``boxes`` > 1 the bets of a round are not independent (the boxes share the dealer's
    cards: 7 boxes of the NZ game give an SD per round of 5.3 initial wagers, not sqrt(7) x 1.13
    = 3.0): N bets are N / (bets per round) rounds (N / boxes for the main game), and the range
    is house edge +- z SD per round sqrt(rounds) / N (`_round_sd`; ``sd_round``,
    ``bets_per_round``); ``sd_range`` is the SD per bet that gives it as z sd_range / sqrt(N),
    ``sd_bet`` with one box."""
    rows = []
    total = next(w for w in wagers if w["wager"] == "total")
    for w in wagers:
        exact_sd = (w.get("exact_sd_bet") if w["wager"] == "super_sevens" or w.get("exact_only")
                    or w["wager"] == "insurance" and boxes == 1 else None)  # (several boxes:
        # insurance ranged by its SD per round, from its simulated SE, `_round_sd`)
        # insurance simulated from too few bets for an interval (its SE withheld): its SD too
        # rests on them (6 bets of a 100-round run), so the exact one, as where none is simulated
        few = (w["wager"] == "insurance" and not w.get("exact_only") and w.get("se") is None
               and w.get("exact") is not None and rules is not None)
        if few:
            exact_sd = insurance_sd(w["exact"], rules.insurance_pays)
        short = (w["wager"] in ("total", "main") and w.get("se") is None  # (fewer than 30
                 and w.get("exact_sd_bet") is not None  # rounds: no SE, and no SD to trust;
                 and boxes == 1)  # several boxes: their ranges are of the SD per round)
        if short:
            exact_sd = w["exact_sd_bet"]
        if (w.get("exact_only") or few) and boxes > 1:
            continue  # (no SD per round of the boxes' insurance bets settled together)
        sd = exact_sd or w["sd_bet"]
        if w["exact"] is None or sd is None:
            continue
        if w["wager"] == "main" and (w["exact"], w["sd_bet"]) == (total["exact"],
                                                                  total["sd_bet"]):
            continue  # no insurance taken: the main game is the total
        edge, edge_source = _edge_of(w, rules)
        sd_round, per_round = _round_sd(w, boxes)
        for n in ROUND_COUNTS:
            row = {"wager": w["wager"], "label": w["label"], "per": w["per"], "bets": n,
                   "house_edge": edge, "sd_bet": sd, "expected_win": n * edge,
                   # the house edge's: the simulated one (the game as dealt) or the exact one
                   "edge_source": edge_source, "exact_house_edge": -w["exact"],
                   "sd_source": "exact" if exact_sd else "simulated",
                   "sd_few_rounds": short,
                   # insurance's exact SD taken as its simulated bets are too few
                   "sd_few_bets": w.get("bets") if few else None,
                   "range_source": "drawn" if w["wager"] == "super_sevens" else "normal",
                   "boxes": boxes, "sd_round": sd_round, "bets_per_round": per_round,
                   "sd_range": sd if sd_round is None else sd_round / math.sqrt(per_round)}
            for c in CONFIDENCES:
                z = NormalDist().inv_cdf(0.5 + c / 2)
                if sd_round is None:  # independent bets: one box
                    half = z * sd / math.sqrt(n)
                else:  # N bets dealt in N / (bets per round) rounds
                    half = z * sd_round * math.sqrt(n / per_round) / n
                row[f"low_{round(100 * c)}"] = edge - half
                row[f"high_{round(100 * c)}"] = edge + half
                row[f"vi_{round(100 * c)}"] = z * row["sd_range"]
            if w["wager"] == "super_sevens":  # (the normal one kept, to say why not)
                row["normal_high_95"] = row["high_95"]
                row |= _drawn_range(ss_lines, n)
            rows.append(row)
    return rows


def plays_text(plays: dict) -> str:
    """{up value: play} as runs in chart order: ``split v 2-7, hit v 8-A``
    (`report.plays_by_up_text`)."""
    return plays_by_up_text([plays[up] for up in (*range(2, 11), 1)])


def _rule_value(line: str):
    """The value of a rule file's ``key = value`` line with its type, as every command's json
    gives the rules: a number, ``true``, a string, a list (``[3, 50, 100, 500, 5000]``); the
    rules table writes it as the file does (`sections.fmt`)."""
    (v,) = tomllib.loads(line).values()
    return v


def _sevens(rules, fig, runs: dict, exacts: dict | None = None) -> dict:
    """The Super Sevens return under each 7-7 play (rule 14.4) and the published convention;
    a simulated figure's SE by its strategy's exact SD (``exacts``: {name: (doc, figures)};
    `by_exact_sd`), as everywhere in the report."""
    q = fig["sevens_question"]
    own = q["strategy_plays"]
    by_up, p77 = q["by_up"], q["p_sevens"]
    # the side bets valued: bjsim exact's, and this table's own (super_sevens_bet) beside them
    bet = float(rules.super_sevens_bet)
    bets = sorted({*SIDE_BETS, bet})
    own_edge = fig["super_sevens"]["house_edge"]

    def combined(d_main: float, ss_edge: float, given: dict | None = None) -> dict:
        """The change of the main game with each side bet: bjsim exact's where it gives it,
        else main + bet x the Super Sevens change (its return's: the house edges' reversed)."""
        return {f"{b:g}": (given or {}).get(b, d_main + b * (own_edge - ss_edge)) for b in bets}

    simulated = {}
    for name, (res, strat) in runs.items():
        ss = res["results"]["super_sevens"]
        key = tuple(sorted(sevens_plays(rules, strat).items()))
        if ss["bets"] and key not in simulated:
            exact_ss = (exacts or {}).get(name, (None, {}))[1].get("super_sevens") or {}
            simulated[key] = (name, by_exact_sd(ss, exact_ss.get("sd_bet")))

    def row(label, plays, ss_edge, d_main, combined):
        sim = simulated.get(tuple(sorted(plays.items())))
        return {"label": label, "plays": plays_text(plays), "super_sevens_house_edge": ss_edge,
                "main_ev_change": d_main, "combined_change": combined,
                # the same changes as the house edge's (the table's): minus the return's
                # (0.0 - x: the strategy's own play, no change, is +0, not -0)
                "main_house_edge_change": 0.0 - d_main,
                "combined_house_edge_change": {b: 0.0 - v for b, v in combined.items()},
                "simulated_by": sim and sim[0],
                "simulated": sim and sim[1]["house_edge"], "se": sim and sim[1]["se"]}

    rows = []
    for r in q["plays"]:
        plays = own if r["play"] == "strategy" else {
            up: (r["play"] if r["play"] in by_up[up] else own[up]) for up in UPS}
        label = ("the strategy's own 7-7 play" if r["play"] == "strategy"
                 else f"{r['play']} every 7-7")
        rows.append(row(label, plays, r["super_sevens_house_edge"], r["main_ev_change"],
                        combined(r["main_ev_change"], r["super_sevens_house_edge"],
                                 r["combined_change"])))
    # the best play for the main wager and this table's side bet (bjsim exact's, where it is
    # one of its side bets; else each up card's play of the most main + bet x Super Sevens)
    best = q["best"][bet] if bet in q["best"] else {
        up: max(by_up[up], key=lambda k, u=up: by_up[u][k]["main"]
                + bet * by_up[u][k]["super_sevens"]) for up in UPS}
    ss_best = super_sevens(rules, best)
    d_main = sum(p77[up] * (by_up[up][best[up]]["main"] - by_up[up][own[up]]["main"])
                 for up in UPS)
    d_ss = ss_best["ev"] - fig["super_sevens"]["ev"]
    rows.append(row(f"the best play with this table's side bet ({bet:g} x the main wager)", best,
                    ss_best["house_edge"], d_main,
                    {f"{b:g}": d_main + b * d_ss for b in bets}))
    published = super_sevens(rules, "hit", guaranteed_third=True)
    hit = super_sevens(rules, "hit")
    # a figure is published for these decks and pays (`sevens.PUBLISHED`), or ours alone
    game = convention(rules.decks, rules.super_sevens_pays)["published"] is not None
    fig_word = "the published figure" if game else "the convention's figure"
    rows.append({"label": ("published convention" if game else "the published figures' "
                           "convention") + ": the first three cards always settle the bet",
                 "plays": "third card always dealt",
                 "convention": True,
                 "super_sevens_house_edge": published["house_edge"], "main_ev_change": None,
                 "combined_change": None, "main_house_edge_change": None,
                 "combined_house_edge_change": None, "simulated_by": None, "simulated": None,
                 "se": None})
    same = abs(published["house_edge"] - hit["house_edge"]) < 1e-12
    own_is_published = abs(own_edge - published["house_edge"]) < 1e-12
    peeked = ("which no 7-7 play achieves here (a peeked dealer blackjack ends the round before "
              "the third card)")
    d, e = rules.super_sevens_pays[3], rules.super_sevens_pays[4]
    if rules.decks > 1:  # (the pays of three sevens, in a sentence and in brackets; its verb)
        three = (f"{d:g} and {e:g} pays of three sevens, lines d and e",
                 f"{d:g} and {e:g} pays of three sevens (lines d and e)", "need")
    else:  # one seven of a suit: no (c) or (e)
        one = "line e, three of one suit, cannot be dealt from one deck"
        three = (f"{d:g} pay of three sevens, line d ({one})",
                 f"{d:g} pay of three sevens (line d; {one})", "needs")
    # the two figures compared, each named: the strategy's own and the convention's
    pair = (f"The strategy's own 7-7 play's {100 * own_edge:.3f}% and {fig_word}'s "
            f"{100 * published['house_edge']:.3f}% (a third card always dealt)")
    if own_is_published:  # the strategy takes a third card to every 7-7: nothing to explain
        why = (f"The strategy's own 7-7 play's {100 * own_edge:.3f}% and {fig_word}'s agree: "
               "it takes a third card "
               "to every 7-7 (a hit or a double), which is what the published convention "
               "assumes. (The bet is settled on the first two cards when 7-7 is split (14.4) "
               "or stood on (lines (b) and (c): no third card), so a strategy that does either "
               f"gives up part of the {three[0]}.)")
    elif abs(own_edge - hit["house_edge"]) < 1e-12:
        why = (f"{pair} differ because {fig_word} assumes the third card is always "
               f"dealt, {peeked}; the strategy's own 7-7 play, a third card to every 7-7, "
               "gives the return of hitting every 7-7.")
    elif own_edge < published["house_edge"]:  # (a third seven worth less than none here)
        b, c = rules.super_sevens_pays[1], rules.super_sevens_pays[2]
        why = (f"{pair} differ because the bet is settled on the first two cards when 7-7 is "
               f"split (14.4) or stood on (lines (b) and (c): no third card), which keeps the "
               f"pays of two sevens, while {fig_word} assumes the third card is always dealt, "
               + ("as when every 7-7 is hit" if same else peeked) + ": with these pays a third "
               "card is worth less to the bet than none, three sevens paying "
               + (f"{d:g} and {e:g} (lines d and e) against two sevens' {b:g} and {c:g} (lines b "
                  "and c)" if rules.decks > 1 else f"{d:g} (line d) against two sevens' {b:g} "
                  "(line b; one deck deals neither c nor e)")
               + ", so the strategy's own figure is the lower.")
    else:
        why = (f"{pair} differ because the bet is settled on the first two cards when 7-7 is "
               "split (14.4) or stood on (lines (b) and (c): no third card), so the "
               f"{three[1]} {three[2]} a hit or a double, while {fig_word} assumes the third "
               "card is "
               "always dealt, " + ("which is exactly the return when every 7-7 is hit." if same
                                   else peeked + "."))
    return {"rows": rows, "why": why, "side_bets": [f"{b:g}" for b in bets],
            "bet": bet, "published_equals_hit": same, "published_game": game,
            "convention_note": sevens_convention(rules_dict(rules)),
            "player_edge": sevens_player_edge(rules_dict(rules)),
            "strategy_equals_published": own_is_published}


# What a strategy generated by `bjsim strategy generate` says of insurance and even money, for
# the rules it was derived for: its words for other rules are `_insurance_words`.
INSURANCE_SENTENCES = tuple(INSURANCE_WORDS.values())


def _insurance_words(strat, rules, assessed=None) -> str:
    """What ``strat`` does with insurance and even money under ``rules``, each said to lose or
    gain there (`worth_taking`), and where even money gains, whether the ``assessed`` strategy
    takes it too (None, or ``strat`` itself: not said)."""
    own = assessed is None or assessed is strat
    ins_gains, em_gains = worth_taking(rules)
    if strat.insurance and strat.even_money and not ins_gains and not em_gains:
        return INSURANCE_SENTENCES[0] + "."  # (as shipped: the NZ rules')
    ins_taken = ("insurance (it gains here)" if ins_gains else
                 "insurance (a losing bet here, to measure its cost)")
    ins_not = "no insurance, though it gains here" if ins_gains else "no insurance"
    assessed_em = "" if own else (" and the assessed strategy takes it too" if assessed.even_money
                                  else "; the assessed strategy declines it")
    em_taken = (f"even money (it gains here{assessed_em})" if em_gains else
                "even money (a losing bet here)")
    em_not = (f"no even money, though it gains here{assessed_em.replace(' too', '')}"
              if em_gains else "no even money")
    if strat.insurance and strat.even_money:
        return f"Takes {ins_taken} as well as {em_taken}."
    if strat.insurance:
        return f"Takes {ins_taken}; {em_not}."
    if strat.even_money:
        return f"Takes {em_taken}; {ins_not}."
    both = ("; " if "," in ins_not + em_not else ", ").join((ins_not, em_not))
    return both[:1].upper() + both[1:] + "."


def _describe(strat, rules, assessed=None) -> str:
    """What a strategy does, for the player's choices: its description without the first
    sentence where it has several (the rules it was derived for), nor its 7-7 play with a Super
    Sevens bet up in a game without them; insurance and even money in words for these rules
    (`_insurance_words`); and a strategy that plays like the dealer (stands on soft 17) said
    not to play like this one where the dealer hits soft 17 (rule 12.3 changed)."""
    sentences = strat.description.strip().split(". ")
    said = [sevens_row_for(t, rules) for t in (sentences[1:] if len(sentences) > 1 else sentences)
            if rules.super_sevens or not t.startswith("Sevens row")]
    said = [_insurance_words(strat, rules, assessed).rstrip(".") + t[len(t.rstrip(".")):]
            if t.rstrip(".") in INSURANCE_SENTENCES else t for t in said]
    desc = ". ".join(said)
    if rules.dealer_hits_soft_17 and _plays_like_s17_dealer(strat):
        desc += (" It stands on soft 17, as a dealer who stands on all 17s; this table's dealer "
                 "hits soft 17 (rule 12.3 changed), so it does not play like this dealer.")
    return desc


def _plays_like_s17_dealer(strat) -> bool:
    """Does ``strat`` draw as a dealer who stands on all 17s (12.3): hit hard and soft 16,
    stand on hard and soft 17, against every up card?"""
    return bool((strat.hard[16] == L.H).all() and (strat.soft[16] == L.H).all()
                and (strat.hard[17] == L.S).all() and (strat.soft[17] == L.S).all())


def _choice_row(name, strat, res, fig, main_fig, rules, assessed=None) -> dict:
    """A strategy's row of the player's choices, its z as `_cut_card` gives it; ``assessed``:
    the report's strategy (`_describe`)."""
    s = res["results"]
    he = s["house_edge"]
    exact_ss = fig["super_sevens"]["house_edge"] if fig["super_sevens"] else None
    # the Super Sevens interval by the exact SD, as the wagers table's (`by_exact_sd`)
    ss = by_exact_sd(s["super_sevens"], (fig["super_sevens"] or {}).get("sd_bet"))
    desc = _describe(strat, rules, assessed)
    row = {"strategy": name, "description": desc, "exact": fig["house_edge"],
           "simulated": he["mean"], "se": he["se"], "ci95_low": he["ci95_low"],
           "ci95_high": he["ci95_high"], "z": _z(he["mean"], fig["house_edge"], he["se"]),
           "cost": fig["house_edge"] - main_fig["house_edge"],
           "ss_exact": exact_ss, "ss_simulated": ss["house_edge"], "ss_se": ss["se"],
           # the house edge's interval: the return's, negated
           "ss_ci95_low": None if ss["ci95_high"] is None else -ss["ci95_high"],
           "ss_ci95_high": None if ss["ci95_low"] is None else -ss["ci95_low"],
           # (none without a bet, as the variants' rows: nothing to measure)
           "ss_interval_note": None if ss.get("bets") == 0 else ss.get("interval_note")}
    return _cut_card(row, rules)


def plays_alike(rules, a, b) -> bool:
    """Do strategies ``a`` and ``b`` play every hand alike under ``rules``: the same machine
    the game is played by (`kernel.machine_for`: every decision, insurance and even money, and
    the sevens row only where a Super Sevens bet is up), so that the same seed deals them the
    same rounds to the same results (``basic-super-sevens`` is ``basic`` without Super Sevens)?"""
    p = rules.to_params()
    ta, tb = engine.stack_tables(rules, a), engine.stack_tables(rules, b)
    return all(np.array_equal(x, y) for x, y in zip(ta[-1:], tb[-1:], strict=True)) and all(
        np.array_equal(x, y) for x, y in zip(kernel.machine_for(p, ta), kernel.machine_for(p, tb),
                                             strict=True))


def _same_play(rules, rows: list[dict], strategies: dict) -> list[dict]:
    """The choices' rows, each with ``same_play_as``: the first earlier row's strategy that
    plays every hand alike under ``rules`` (`plays_alike`), whose figures it repeats; None."""
    out = []
    for r in rows:
        twin = next((o["strategy"] for o in out if o["same_play_as"] is None and plays_alike(
            rules, strategies[o["strategy"]], strategies[r["strategy"]])), None)
        out.append(r | {"same_play_as": twin})
    return out


def _distribution(rules, strat, spec, summary, n) -> dict:
    values = _sample(rules, strat, n, spec.seed) / L.UNIT
    v, c = np.unique(values, return_counts=True)
    sd = float(values.std(ddof=1)) if n > 1 else None
    out = {"main": {
        "rounds": int(n), "values": v.tolist(), "counts": c.tolist(),
        "mean": float(values.mean()) if n else None, "sd": sd,
        # the means' SEs: SD / sqrt(rounds), each round taken as one draw (as the run's SE)
        "mean_se": None if sd is None or n < MIN_ROUNDS else sd / math.sqrt(n),  # (as the
        # run's: none from fewer than 30 rounds)
        "run_mean": summary["total"]["mean"] * summary["boxes"],
        "run_mean_se": None if summary["total"]["se"] is None else
        summary["total"]["se"] * summary["boxes"],
        "run_sd": summary["total"]["sd_round"],
        "source": f"{n:,} rounds dealt apart by the simulation's own game code from shuffled "
                  f"full shoes, with random numbers of their own from the seed {spec.seed}, "
                  "apart from the main run's (the manifest names the stream): the run's tally "
                  "keeps sums and sums of squares, not a histogram. Its mean and SD are shown "
                  "beside the run's."}}
    ss = summary["super_sevens"]
    if ss["bets"]:
        lines = ss["lines"]
        out["super_sevens"] = {
            "bets": ss["bets"], "lines": list(lines), "values": [lines[k]["pays"] for k in lines],
            "counts": [lines[k]["count"] for k in lines],
            "source": "the run's tally: the count of every line (a)-(f), each a fixed pay"}
    return out


# ---------------------------------------------------------------------------------------------
# Rule variants (bjsim compare)


def _variant_files(given) -> list[str]:
    """The variant files of the report: ``given`` (`Spec.variants`), None every shipped one."""
    from simulator import variants

    if given is None:
        return [str(p) for p in variants.shipped()]
    return list(given)


def variant_notes(rules, rules_file, given, origins=None) -> tuple[list, list[str], list[str]]:
    """The rule variants the report compares with ``rules`` (`variants.from_files` of the
    variant files ``given``; None: every shipped one), the lines of the shipped ones left out
    (`variants.left_out_line`), and every note on them in the report's words, one a line: a
    shipped variant left out, its changes not applying to these rules; the baseline a variant
    file names, set aside for the report's rule file (``rules_file``). One function for what
    stderr says before any run and the variant table's note. A file given that cannot apply
    raises (`rules.RuleError`), naming where each key of ``rules`` was set (``origins``,
    `rules.origins_of`)."""
    from simulator import variants

    files = _variant_files(given)
    asked, left = variants.from_files(rules, files, whole=files if given is None else (),
                                      origins=origins)
    aside = variants.baselines_set_aside(rules_file, () if given is None else files,
                                         f"the report's rule set, {shown_rule_file(rules_file)},")
    return asked, left, [f"the shipped variant {line}" for line in left] + aside


def variant_effects(spec: Spec, say: Say, quiet: bool) -> dict:
    """The rule-variant effect table: ``bjsim compare`` of the report's rules and strategy (the
    baseline) against each variant file (``spec.variants``; None: every file in
    configs/variants/), ``spec.variant_rounds`` a game on common random numbers, with the exact
    differences. Its json document (what the manifest's compare command prints) is kept whole."""
    from simulator import compare as cmp
    from simulator import compare_report, variants

    files = _variant_files(spec.variants)
    if not files:
        return {"available": False, "baseline": None, "rows": [], "document": None,
                "reason": "no rule variant was compared: the report was asked to leave them out"
                if spec.variants == () else
                "no rule variant compared: configs/variants/ holds none"}
    rules_file = shown_rule_file(spec.rules_file)  # as compare --rules FILE
    label = spec.rules_name or Path(rules_file).stem
    source = rules_file + "".join(f" --set {o}" for o in spec.overrides)
    boxes = spec.rules.boxes
    # The rules' basic (the report's default) as compare's default: each variant its own rules'
    base = ((load_strategy(spec.strategy),) * boxes, (_name(spec),) * boxes) if \
        spec.strategy_given else None
    # A shipped variant that cannot apply to these rules is left out of the default set, said
    # in the note; a file given (--variant) must apply (the command line checked it first).
    asked, left, notes = variant_notes(spec.rules, spec.rules_file, spec.variants)
    if not asked:
        return {"available": False, "baseline": None, "rows": [], "document": None,
                "reason": "no rule variant compared: " + "; ".join(left)}
    games = cmp.build_games(spec.rules, label, source, base, asked, False, say, spec.workers,
                            base_changes=spec.overrides)  # (its label as compare prints it)
    # blocks as compare's default (a shoe of every game), refused as compare refuses too many,
    # in the report's words: its --chunk-rounds, no option for the blocks' size
    pair = min(cmp.default_pair_rounds(games), spec.chunk_rounds)
    too_many = cmp.too_many_blocks(spec.chunk_rounds, pair, spec.variant_rounds,
                                   ("--chunk-rounds", None))
    if too_many is not None:
        raise ValueError(too_many)
    say(f"exact figures of the {len(games)} games (cached after the first time)")
    exact = cmp.exact_figures(games)
    plan = cmp.Plan(games, rounds=spec.variant_rounds, seed=spec.seed,
                    chunk_rounds=spec.chunk_rounds, workers=spec.workers, exact=True)
    result = cmp.compare(plan, quiet=quiet, exact=exact)
    stops.deliver(result.stopped_after)
    if result.partial:
        raise KeyboardInterrupt
    own = _shown(spec)[1]
    if own:  # (as compare's json says where a strategy file is)
        result.meta["run"]["strategy_files"] = own
    result.meta["notes"] = (  # as the manifest's compare command says them
        [f"--all-variants: {line}" for line in left]
        + variants.baselines_set_aside(spec.rules_file, () if spec.variants is None else files,
                                       f"--rules {rules_file}"))
    doc = _plain(json.loads(compare_report.render_json(result.stats, result.meta)))
    by_label = {v.label: v for v in asked}
    sds = {g.label: ss_exact_sd(g.rules, g.strategies) for g in games}
    base, *rows = _in_report_words(
        [_variant_row(doc["baseline"], sds.get(doc["baseline"]["label"]))]
        + [_no_effect_here(_variant_row(v, sds.get(v["label"])) | _in_rule_set(
            v, by_label.get(v["label"]), spec.rules), v, by_label.get(v["label"]))
            for v in doc["variants"]],
        result.stats["blocks"])
    played = {g.label: g.rules for g in games}
    for r, v in zip(rows, doc["variants"], strict=True):
        r["gazette"] = gazette_word(played.get(v["label"]), r.get("changed_keys") or ())
    base["gazette"] = ""
    shown = base["variant"] = shown_name(  # (as every command names the rule set)
        label, [canonical_change(o) for o in spec.overrides])
    pairing = compare_report.pairing_text(doc["run"]["pair_rounds"], result.stats["blocks"],
                                          columns=False)
    return {"available": True, "baseline": base, "rows": rows, "document": doc, "reason": None,
            "strategy_files": _derived_files(games[1:]),
            "note": (f"bjsim compare: {len(rows)} variant{'s' if len(rows) != 1 else ''} of "
                     f"{shown}, {spec.variant_rounds:,} rounds a game. The first row, {shown} "
                     "(baseline), is the rule set as the "
                     "comparison played it: its own run, in the paired blocks of every game "
                     "(docs/compare.md), which deals other cards than the main run, so its "
                     "simulated house edge differs from the summary's by chance"
                     + (", and, each block starting from a fresh shuffle, by the cut-card "
                        "effect of its shoes cut short (as said next)"
                        if spec.rules.shuffle == "cut-card" else "")
                     + "; each variant's difference is from this row, dealt alike. "
                     f"{pairing} House edge difference: the variant's house edge "
                     "minus this rule set's, in percentage points (pp) of house edge ("
                     + _pp_example(base) + "; + is worse for the player), with the 95% interval "
                     "of the paired difference; variance reduction: how many times smaller its "
                     "variance is than that of two unpaired runs; exact: the exact analyzer's "
                     "figure and difference (a "
                     "full shoe every round; scope 'cut-card': the decks, penetration or "
                     "shuffle differ with a cut card, so the simulated difference also holds the "
                     "change of the cut-card effect; scope 'none': only the penetration, the "
                     "shuffle or the boxes differ, which the exact analyzer does not see, so no "
                     "exact figure, difference or z, '-')."
                     + "".join(" " + n for n in (
                         compare_report.unused_rules_note(result.stats, ""),
                         compare_report.cut_card_note(result.stats,
                                                      "the rows of exact scope cut-card"),
                         compare_report.sized_note(result.stats),
                         compare_report.multiple_note(result.stats)) if n)
                     + _few_blocks_text(result.stats["blocks"])
                     + "".join(" " + n for n in compare_report.shoe_note(
                         result.stats, doc["run"]["pair_rounds"], option=False))
                     + "".join(f" {n[:1].upper()}{n[1:]}." for n in notes))}



def _pp_example(base: dict) -> str:
    """What +0.200 pp does to the baseline row's own house edge (its exact one where given):
    ``+0.200 pp takes this rule set's 0.764% (exact) to 0.964%``."""
    exact = base.get("exact_house_edge") is not None
    edge = base["exact_house_edge"] if exact else base["house_edge"]
    return (f"+0.200 pp takes this rule set's {100 * edge:.3f}%"
            + (" (exact)" if exact else " (simulated)") + f" to {100 * (edge + 0.002):.3f}%")


def _in_rule_set(game: dict, variant, rules) -> dict:
    """A variant row's word on a variant the rule set already plays (compare's ``changes``
    empty): ``in_rule_set``, and ``nz_departure``, the keys of it (``key=value``) that are this
    table's departures from the NZ game (`nz_game`), so that the row changes nothing here but
    the table does against the NZ game; its ``changes`` say so, with the NZ value."""
    if game["changes"] or variant is None or variant.strategy:
        return {"in_rule_set": False, "nz_departure": []}
    keys = set(variant.sets)
    nz = nz_game(rules)
    ours = [c for c in changes_of(nz, rules) if c.split("=", 1)[0] in keys]
    theirs = [c for c in changes_of(rules, nz) if c.split("=", 1)[0] in keys]
    idle = no_effect_changes(rules, ours)  # (not departures: the summary's cost leaves them out)
    return {"in_rule_set": True, "nz_departure": [
        c for c in ours if c.split("=", 1)[0] not in idle]} | ({"changes": (
            f"(none: the rule set has it already, in place of the NZ game's {', '.join(theirs)}"
            + "".join(f"; {k}: no effect here: {why}" for k, why in idle.items()) + ")")}
        if ours else {})


def _no_effect_here(row: dict, game: dict, variant) -> dict:
    """A variant row whose every change has no effect under its rules (`rules.no_effect`, as
    ``bjsim rules show`` says it: dealer_blackjack_takes under a peek, the penetration with a
    shuffle every round): ``no_effect`` says why, and its ``changes`` say so, so that its
    difference of 0 is not read as a rule measured to cost nothing; None for any other row."""
    keys = [c.split("=", 1)[0] for c in game["changes"]]
    why = [no_effect(variant.rules, k) for k in keys] if variant is not None and keys and \
        not variant.strategy else []
    row = row | {"changed_keys": keys}
    if not why or not all(why):
        return row | {"no_effect": None}
    said = "; ".join(dict.fromkeys(why))
    return row | {"no_effect": said, "changes": f"{row['changes']} (no effect: {said})"}


MORE_BLOCKS = "more rounds: --variant-rounds"  # (the report has no --pair-rounds)


def _few_blocks_text(blocks: int) -> str:
    """The variant table's word on differences without an interval for too few blocks."""
    from simulator.compare import _few_blocks

    few = _few_blocks(blocks, MORE_BLOCKS)
    return "" if few is None else " No difference has an interval ('-'): " + few + "."


def _in_report_words(rows: list[dict], blocks: int) -> list[dict]:
    """The variant rows with compare's reason for too few blocks (in its document, as compare
    prints it) in the report's words: its own option for more of them (`MORE_BLOCKS`)."""
    from simulator.compare import _few_blocks

    theirs, ours = _few_blocks(blocks), _few_blocks(blocks, MORE_BLOCKS)
    if theirs is None:
        return rows
    return [r | {k: r[k].replace(theirs, ours) for k in ("ss_interval_note",) if r.get(k)}
            for r in rows]


def _derived_files(games) -> list[dict]:
    """The basic strategy files derived for the rule variants ``games`` (`compare.Game`) that
    play one, as the manifest hashes the main run's: ``{"variant", "name", "file", "sha256"}``,
    one a file (its first variant; the file is the derived strategy's cache file, named by the
    rules, `derived.basic_path`). One not cached (a cache folder that cannot be written) has
    ``file`` None and the SHA-256 of the strategy as its file would write it."""
    from simulator import derived
    from simulator.strategy import dumps_strategy

    out, seen = [], set()
    for g in games:
        if DERIVED_BASIC not in g.names:
            continue
        path, key = derived.kept_basic(g.rules), str(derived.basic_path(g.rules))
        if key in seen:
            continue
        seen.add(key)
        strat = g.strategies[list(g.names).index(DERIVED_BASIC)]
        out.append({"variant": g.label, "name": DERIVED_BASIC} | (
            {"file": key, "sha256": file_sha256(path)} if path is not None else
            {"file": None, "sha256": hashlib.sha256(dumps_strategy(strat).encode()).hexdigest()}))
    return out


def ss_exact_sd(rules, strategies) -> float | None:
    """The exact Super Sevens SD per unit staked of a game whose boxes play ``strategies`` (one
    a box), as `bjsim exact` gives it (`exact.sevens.super_sevens`: the strategy's 7-7 play, a
    full shoe every round); of boxes of several strategies, the SD of their bets pooled. None
    where the game bets no Super Sevens."""
    if not rules.super_sevens or not strategies:
        return None
    figs = [super_sevens(rules, s) for s in strategies]
    mean = sum(f["ev"] for f in figs) / len(figs)
    square = sum(f["sd"] ** 2 + f["ev"] ** 2 for f in figs) / len(figs)
    return math.sqrt(max(square - mean * mean, 0.0))


def _variant_row(game: dict, ss_sd: float | None = None) -> dict:
    """A row of the rule-variant table from a game of compare's json document: its house edge
    with the 95% half-width and its exact figure, and for a variant (not the baseline) the
    paired difference from the baseline; ``ss_sd``: the game's exact Super Sevens SD per bet
    (`ss_exact_sd`), which its Super Sevens interval is by."""
    from simulator.compare_report import same_text

    he, exact = game["house_edge"], game.get("exact") or {}
    d = (game.get("difference") or {}).get("house_edge") or {}
    baseline = "difference" not in game
    shown_exact = baseline or d.get("exact") is not None  # none where the analyzer is blind
    return {"variant": game["label"],
            "changes": "(baseline)" if baseline else (", ".join(game["changes"])
            or "(none: the rule set has it already)") + (same_text(
                game.get("same_game_as"), game.get("same_main_game_as"))
                if game["changes"] else ""),
            # "the baseline's" (its strategy played under the variant's rules), else the names
            # (a note of what a derived chart is derived for stays in compare's json)
            "strategy": "the baseline's" if game["strategy_note"] == "the baseline's" else
            ", ".join(sorted(set(game["strategy"]))),
            "house_edge": he["mean"],
            "house_edge_half_width": None if he["ci95_high"] is None else
            he["ci95_high"] - he["mean"],
            "exact_house_edge": exact.get("house_edge") if shown_exact else None,
            "difference": d.get("mean"), "se": d.get("se"), "ci95_low": d.get("ci95_low"),
            "ci95_high": d.get("ci95_high"), "variance_reduction": d.get("variance_reduction"),
            "exact": d.get("exact"), "exact_scope": d.get("exact_scope"), "z": d.get("z"),
            # the earlier variant whose game it is (compare's same_game_as), or None
            "same_game_as": game.get("same_game_as"),
            **_variant_sevens(game, exact, shown_exact, ss_sd)}


def _variant_sevens(game: dict, exact: dict, shown_exact: bool,
                    ss_sd: float | None = None) -> dict:
    """A variant row's Super Sevens fields (``ss_*``, house edges per unit staked; None where
    the game has no Super Sevens): the simulated figure with its half-width, by the game's
    exact SD per bet ``ss_sd`` as every Super Sevens interval of the report (`by_exact_sd`;
    compare's, by the simulated SD, kept as ``ss_half_width_simulated_sd``; ``ss_sd_source``
    says which SD the half-width is by), the exact one, and the paired difference from the
    baseline with its interval (the paired blocks', as compare's) and exact value."""
    ss = game.get("super_sevens")
    d = ((game.get("difference") or {}).get("super_sevens") or {}) if ss else {}
    simulated = None if not ss or ss["ci95_high"] is None else ss["ci95_high"] - ss["house_edge"]
    by_exact = None if simulated is None or not ss_sd or not ss.get("bets") else \
        Z95 * ss_sd / math.sqrt(ss["bets"])
    return {"ss_touched": "difference" not in game or bool(game.get("super_sevens_touched")),
            "ss_house_edge": ss and ss["house_edge"],
            "ss_half_width": simulated if by_exact is None else by_exact,
            "ss_half_width_simulated_sd": simulated,
            "ss_exact_sd": ss_sd if ss else None,
            "ss_sd_source": None if simulated is None else
            "simulated" if by_exact is None else "exact",
            "ss_exact_house_edge": exact.get("super_sevens_house_edge") if ss and shown_exact
            else None,
            "ss_difference": d.get("mean"), "ss_ci95_low": d.get("ci95_low"),
            "ss_ci95_high": d.get("ci95_high"), "ss_exact": d.get("exact"),
            # (as the house-edge table: where the exact difference is of a full shoe and the
            # simulated one carries the cut card's effect too, and z; a regulator's review)
            "ss_exact_scope": d.get("exact_scope"), "ss_z": d.get("z"),
            "ss_interval_note": (ss or {}).get("interval_note") if not d else
            d.get("interval_note")}


# ---------------------------------------------------------------------------------------------
# Card counting (bjsim count)


def counting_figures(spec: Spec, say: Say, quiet: bool, plan=None) -> dict:
    """The counting section: ``bjsim count`` of ``plan`` (``spec.count_plan`` as read; None: read
    now) with the report's rules, strategy and seed, ``spec.count_rounds`` rounds at the rules'
    penetration, and at each of ``spec.count_penetrations`` when asked (`simulator.count_runs`)."""
    from simulator import count_runs, counting_report
    from simulator.plans import load_plan, played_strategy

    plan = load_plan(spec.count_plan) if plan is None else plan
    own = _plans_strategy(spec, plan)
    spec = (dataclasses.replace(spec, strategy=played_strategy(plan), strategy_given=True) if own
            else spec)
    strategy = load_strategy(spec.strategy)
    kwargs = {"rounds": spec.count_rounds, "seed": spec.seed, "chunk_rounds": spec.chunk_rounds,
              "workers": spec.workers, "rules_file": spec.rules_file,
              "rules_name": spec.rules_name, "overrides": spec.overrides, "quiet": quiet,
              "strategy_files": _shown(spec)[1]}
    say(f"card counting: plan {plan.name}, {spec.count_rounds:,} rounds (bjsim count)")
    runs = count_runs.play(count_runs.check(spec.rules, plan), plan, strategy, _name(spec),
                           **kwargs)
    stops.deliver(runs.stopped_after)
    if runs.partial:
        raise KeyboardInterrupt
    ((_, fig),) = count_runs.figures(runs, plan, spec.count_bankroll, spec.count_rounds_per_hour)
    fig = counting_report.document(fig, runs.runs[0][2].meta)["results"]  # as bjsim count's json
    sweep = None
    if spec.count_penetrations:
        games = count_runs.check(spec.rules, plan, spec.count_penetrations)
        say(f"card counting by penetration: {', '.join(f'{p:g}' for p in spec.count_penetrations)}")
        runs = count_runs.play(games, plan, strategy, _name(spec), say=say, **kwargs)
        stops.deliver(runs.stopped_after)
        if runs.partial:
            raise KeyboardInterrupt
        sweep = counting_report.sweep_rows(count_runs.figures(
            runs, plan, spec.count_bankroll, spec.count_rounds_per_hour))
    return {"plan": spec.count_plan, "figures": fig, "sweep": sweep,
            "indices_note": count_runs.indices_note(spec.rules, plan),
            "strategy": _name(spec) if own else None,
            "plan_strategy": plan.strategy,  # (its own: played, or the report's in its place)
            "warnings": counting_warnings(spec.rules, plan, spec.count_penetrations, strategy)}


def counting_warnings(rules, plan, penetrations, strategy) -> list[str]:
    """What bjsim count warns of a plan (`counting_report.count_warnings`) for the games a report
    plays it in: the rules' penetration and each of ``penetrations``."""
    from simulator import count_runs
    from simulator.counting_report import count_warnings

    games = [r for pens in (None, penetrations) if pens or pens is None
             for _, r in count_runs.check(rules, plan, pens)]
    return count_warnings(plan, games, strategy)


def _plans_strategy(spec: Spec, plan) -> bool:
    """Does the counter play the strategy its plan names (the report's own not given), as bjsim
    count plays it?"""
    from simulator.plans import plays_own

    return plays_own(plan, spec.strategy if spec.strategy_given else None)


# ---------------------------------------------------------------------------------------------
# The manifest


def _argv(spec: Spec, played: int, choices=()) -> dict:
    rules = [] if spec.rules_file is None else ["--rules", spec.rules_given or spec.rules_file]
    sets = [x for o in spec.overrides for x in ("--set", set_form(o))]
    length = (["--precision", repr(spec.precision), "--max-rounds", str(spec.rounds)]
              if spec.precision is not None else ["--rounds", str(spec.rounds)])
    common = rules + sets + ["--seed", str(spec.seed), "--chunk-rounds", str(spec.chunk_rounds)]
    # A derived default is every command's default too (derived again where it is not cached):
    # no machine's cache path in the commands.
    strat = [] if _derived(spec) else ["--strategy", spec.strategy]
    own = strat if spec.strategy_given else []  # (the report's default: it derives it again)
    choose = [x for c in (spec.choices or ()) for x in ("--choice", c)]
    if spec.variants is None:
        vary, compare_vary = [], ["--all-variants"]
    else:
        given = spec.variants_given or spec.variants
        vary = [x for f in given for x in ("--variant", f)] or ["--no-variants"]
        compare_vary = [x for f in given for x in ("--variant", f)]
    if spec.variants != ():  # (--no-variants: no variant played, no rounds of theirs)
        vary += ["--variant-rounds", str(spec.variant_rounds)]

    def line(*words):
        return " ".join(shlex.quote(w) for w in words)

    count = []
    bankroll = [] if spec.count_bankroll is None else ["--bankroll", _number(spec.count_bankroll)]
    if spec.count_rounds_per_hour is not None:  # (count's option of the same figures)
        bankroll += ["--rounds-per-hour", str(spec.count_rounds_per_hour)]
    if spec.count_plan is not None:
        count = ["--count", spec.count_plan, "--count-rounds", str(spec.count_rounds)]
        if spec.count_penetrations:
            count += ["--count-penetrations", ",".join(repr(p) for p in spec.count_penetrations)]
        count += bankroll
    count_strat = strat
    if spec.count_plan is not None:
        from simulator.plans import load_plan

        if _plans_strategy(spec, load_plan(spec.count_plan)):
            count_strat = []  # (bjsim count plays the plan's own)
    count_line = None if spec.count_plan is None else line(
        "bjsim", "count", "--plan", spec.count_plan, *common, *count_strat, "--rounds",
        str(spec.count_rounds), *bankroll, "-f", "json")
    sweep_line = None if not spec.count_penetrations else line(
        "bjsim", "count", "--plan", spec.count_plan, *common, *count_strat, "--rounds",
        str(spec.count_rounds), *bankroll, "--penetrations",
        ",".join(repr(p) for p in spec.count_penetrations), "-f", "json")
    return {
        "report": line("bjsim", "report", *rules, *sets, *own, *choose, *vary, *count, *length,
                       "--seed", str(spec.seed), "--chunk-rounds", str(spec.chunk_rounds),
                       "--sample-rounds", str(spec.sample_rounds), "-o", rebuilt(spec.out_dir)),
        "count": count_line,
        "count_sweep": sweep_line,
        # (a precision run's own options: it stops at the same chunk, and prints the document
        # kept under `simulation` whole; --rounds of those played gave its figures alone)
        "simulate": line("bjsim", "simulate", *common, *strat,
                         *(length if spec.precision is not None else ["--rounds", str(played)]),
                         "-f", "json"),
        "choices": {n: line("bjsim", "simulate", *common, "--strategy", n, "--rounds",
                            str(played), "-f", "json") for n in choices},
        "exact": line("bjsim", "exact", *rules, *sets, *strat, "-f", "json"),
        "choices_exact": {n: line("bjsim", "exact", *rules, *sets, "--strategy", n, "-f",
                                  "json") for n in choices},
        "compare": line("bjsim", "compare", *_compare_rules(spec),
                        *sets, *strat, *compare_vary, "--rounds", str(spec.variant_rounds),
                        "--seed", str(spec.seed), "--chunk-rounds", str(spec.chunk_rounds),
                        "-f", "json") if compare_vary else None,
    }


def rebuilt(out_dir: str) -> str:
    """The folder the manifest's report command writes: beside the report's own, which the
    command run as printed would have replaced (a regulator's review): ``rep1`` ->
    ``rep1-rebuilt``."""
    import os

    out = os.path.normpath(str(out_dir))
    if os.path.basename(out) in (".", "..", ""):  # (-o . : beside the working folder)
        out = os.path.abspath(out)
    return out + "-rebuilt"


def _number(x: float) -> str:
    """A number as a command line gives it: ``500``, not ``500.0``; else its repr (exact)."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _compare_rules(spec: Spec) -> list[str]:
    """``--rules`` of the manifest's compare command, which must work from where the report
    was run: the file as the user gave it (a shipped one by its name); without one, none
    (compare's default baseline is the report's), unless the variant files name another
    baseline, which compare would take: then the default rule file by its full path."""
    from simulator import variants

    if spec.rules_file is not None:
        return ["--rules", spec.rules_given or spec.rules_file]
    default = Path(DEFAULT_RULES_PATH).resolve()
    try:
        named = variants.baseline_file(None, spec.variants or ())
    except ValueError:  # the files name different baselines: compare needs --rules
        return ["--rules", str(default)]
    return [] if named is None or Path(named).resolve() == default else ["--rules", str(default)]


def _shown_path(path) -> str:
    """A shipped file relative to the checkout (configs/..., strategies/...), else as given."""
    root = Path(DEFAULT_RULES_PATH).resolve().parent.parent
    try:
        return str(Path(path).resolve().relative_to(root))
    except ValueError:
        return str(path)


def sample_size(spec: Spec, played: int) -> int:
    """The rounds of the distribution sample: ``--sample-rounds``, at most the rounds played."""
    return min(spec.sample_rounds, played)


def _count_files(plan, spec: Spec | None = None) -> list[dict] | None:
    """The counting plan's file and the count system, index and strategy files it names, each
    ``{"what", "file", "sha256"}`` as read (`plans.load_plan`), as the rule and strategy files
    are given (its strategy's where the counter plays it: not where the report's --strategy
    takes its place); None without a counting section."""
    if plan is None:
        return None
    return [{"what": what, "file": _shown_path(path), "sha256": sha}
            for (what, path), sha in zip(plan.files, plan.sha256, strict=True)
            if what != "strategy" or spec is None or _plans_strategy(spec, plan)]


def _kept(spec: Spec, given: str) -> bool:
    """Whether strategy ``given`` (a name or file) is a file kept after the report: not the
    report's derived default played from a file of the run's own (a cache folder that cannot be
    written), whose ``file`` the manifest gives as None, as a variant's not cached
    (`_derived_files`): its SHA-256 is of its text as a file would hold it."""
    from simulator import derived

    return not (given == spec.strategy and _derived(spec)) or \
        Path(given).resolve() == derived.basic_path(spec.rules).resolve()


def _hashed(spec: Spec, given: dict, plan) -> dict:
    """The SHA-256 of every file the report reads, taken as it starts (the files read then),
    not when it ends: ``given`` as `_manifest`'s, ``plan`` the counting plan as read, or None."""
    return {"rules": file_sha256(spec.rules_file or DEFAULT_RULES_PATH),
            "strategies": {n: file_sha256(strategy_path(g)) for n, g in given.items()},
            "variants": [file_sha256(f) for f in _variant_files(spec.variants)],
            "count": _count_files(plan, spec)}


def _manifest(spec: Spec, given: dict, played: int, seconds: float, hashed: dict,
              charts: dict | None = None) -> dict:
    """The reproducibility manifest; ``given``: each strategy's name (`_shown_all`) -> the name or
    file given (the report's own, where derived, its cache file; `_kept`); ``hashed``:
    `_hashed`'s; ``charts``: each one's name -> its charts as played (`strategy.charts_sha256`,
    as simulate's json gives it)."""
    import numba

    shown = shown_rule_file(spec.rules_file)
    return {
        "bjsim": __version__,
        # which code: bjsim's source fingerprint and git commit (`source.provenance`)
        **provenance_columns(),
        # when (UTC, ISO 8601): the one figure of report.json that differs between two builds
        "written": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "rules_file": shown, "rules_sha256": hashed["rules"],
        "overrides": [set_form(o) for o in spec.overrides],  # (as --set takes them)
        # the rule set's name as every command's output gives it (simulate's run.rules_name):
        # its changes as a rule file writes them, hole_card="peek", a line of a rule file
        "rules_name": run.rules_source(spec.rules_file, spec.rules_name,
                                       spec.overrides)["rules_name"],
        "strategies": [{"name": n, "file": _shown_path(strategy_path(g)) if _kept(spec, g)
                        else None,
                        "sha256": hashed["strategies"][n],
                        "charts_sha256": (charts or {}).get(n)} for n, g in given.items()],
        "seed": spec.seed, "rounds": spec.rounds, "rounds_played": played,
        "precision": spec.precision, "chunk_rounds": spec.chunk_rounds,
        "sample_rounds": sample_size(spec, played), "sample_rounds_asked": spec.sample_rounds,
        "sample_stream": f"numpy SeedSequence({spec.seed}, spawn_key=({SAMPLE_STREAM},)), dealt "
                         "by the simulation's own game code from shuffled full shoes",
        "variant_files": [_shown_path(f) for f in _variant_files(spec.variants)],
        "variant_sha256": hashed["variants"],
        "variant_rounds": None if spec.variants == () else spec.variant_rounds,
        "count_plan": spec.count_plan,
        "count_rounds": spec.count_rounds if spec.count_plan else None,
        "count_penetrations": list(spec.count_penetrations or ()) or None,
        "count_bankroll": spec.count_bankroll if spec.count_plan else None,
        "count_rounds_per_hour": spec.count_rounds_per_hour if spec.count_plan else None,
        "count_files": hashed["count"],
        "bjsim_folder": str(Path(DEFAULT_RULES_PATH).resolve().parent.parent),
        "platform": platform.platform(), "machine": platform.machine(),
        "python": sys.version.split()[0], "numpy": np.__version__, "numba": numba.__version__,
        "seconds": seconds,
        "commands": _argv(spec, played, [g for g in given.values() if g != spec.strategy]),
    }


# ---------------------------------------------------------------------------------------------
# Everything


def compute(spec: Spec, say: Say = lambda _msg: None, quiet: bool = False) -> dict:
    """Run the simulations and the exact analysis of ``spec``; every figure of the report.

    ``say(message)`` reports each step (the CLI prints it on stderr); ``quiet`` turns off the
    simulation's progress bar. Raises ValueError (one line) for a strategy or run that cannot
    be used.
    """
    start = time.perf_counter()
    rules = spec.rules
    main = load_strategy(spec.strategy)
    choices = list(spec.choices) if spec.choices is not None else list_strategies()
    strategies = {spec.strategy: main} | {n: load_strategy(n) for n in choices
                                          if n != spec.strategy}

    n = processes_for(len(strategies), spec.workers)
    shown_of, files = _shown_all(spec, strategies)
    plan = None
    if spec.count_plan is not None:
        from simulator.plans import load_plan

        plan = load_plan(spec.count_plan)  # (read once, as its files are hashed)
    hashed = _hashed(spec, {shown_of[g]: g for g in strategies}, plan)
    shown = shown_of[spec.strategy]
    say(f"exact analysis of {shown}" + (
        f" and {len(strategies) - 1} other "
        f"{plural(len(strategies) - 1, 'strategy', 'strategies')} (the player's choices), side "
        f"by side on {n} processes"
        if n > 1 else "") + " (bjsim exact)")
    # (with the NZ game's and this table's basic strategy, where it departs from the NZ game:
    # `against_nz`)
    departs = any(c.split("=", 1)[0] not in UNSEEN for c in changes_of(nz_game(rules), rules))
    exact_figures_all([(rules, s) for s in strategies.values()]
                      + ([(nz_game(rules), None), (rules, None)] if departs else []),
                      spec.workers)
    notes = _notes(rules, shown_of.values())
    exact_doc, fig = _exact_doc(spec, main, shown, files, notes[shown])

    say(f"simulation of {shown} (bjsim simulate)")
    chunks: dict = {}
    result = run.simulate(_plan(spec, main, shown, spec.rounds, spec.precision, files,
                                notes[shown]),
                          quiet=quiet, on_chunk=lambda i, n, t: chunks.__setitem__(i, t.copy()))
    stops.deliver(result.stopped_after)  # (noted after the run's last chunk: it stops here)
    if result.partial:
        raise KeyboardInterrupt
    for m in result.messages:
        say(m.removeprefix("bjsim: "))
    played = result.meta["run"]["rounds_played"]
    main_res = _plain(document(result.summary, result.meta))
    running = _running(chunks, played, result.tally)

    runs = {shown: (main_res, main)}
    exacts = {shown: (exact_doc, fig)}
    for given, strat in strategies.items():
        if given == spec.strategy:
            continue
        name = shown_of[given]
        say(f"player's choice {name}: exact analysis and {played:,} rounds")
        exacts[name] = _exact_doc(spec, strat, name, files, notes[name])
        res = run.simulate(_plan(spec, strat, name, played, None, files, notes[name]),
                           quiet=quiet)
        stops.deliver(res.stopped_after)
        if res.partial:
            raise KeyboardInterrupt
        runs[name] = (_plain(document(res.summary, res.meta)), strat)

    say("derived tables: wagers, pay table, frequencies, volatility, 7-7, choices")
    ins = None
    for name, (res, strat) in runs.items():
        if strat.insurance and res["results"]["insurance"]["bets"]:
            ins = (name, res, exacts[name][1])
            break
    takers = [name for name, (_, strat) in runs.items() if strat.insurance]
    no_insurance = None if ins is not None else (
        "no strategy in this report takes it, so it is not simulated: the wagers table gives "
        "its exact return alone" if not takers else
        f"{takers[0]} takes it, but its run of {runs[takers[0]][0]['results']['rounds']:,} "
        "rounds made no insurance bet, so it is not simulated: the wagers table gives its "
        "exact return alone")
    summary = main_res["results"]
    wagers = _wagers(rules, shown, main_res, fig, ins)
    label = run.rules_source(spec.rules_file, spec.rules_name, ())["rules_name"]
    game = game_name(label, spec.rules_description)
    data = {
        "title": report_title(game, rules, spec.overrides),
        "game": game,  # (the rule file's description, else its name: `game_name`)
        # the command line's changes in the rules table's words ("" without): the summary's
        "changes_in_words": changes_words(rules, spec.overrides),
        # the rule set's name, each change as every command names it (`canonical_change`)
        "rules_label": shown_name(label, [canonical_change(o) for o in spec.overrides]),
        "strategy": shown,
        "strategy_derived": _derived(spec),
        # what simulate says beside the strategy (its run.strategy_note), or None
        "strategy_note": main_res["run"].get("strategy_note"),
        # --precision: the target, whether the main run met it and the half-width it reached
        # (simulate's run.precision); None for a run of fixed length
        "precision": main_res["run"].get("precision"),
        "rules": [{"rule": r, "key": kv.split(" = ")[0], "value": _rule_value(kv),
                   "from": origin(rules, kv.split(" = ")[0]),
                   "words": w + origin_note(rules, kv.split(" = ")[0]),
                   # (a key of no effect under the others: the penetration without a cut card)
                   "no_effect": bool(no_effect(rules, kv.split(" = ")[0]))}
                  for r, kv, w in describe(rules)],
        # what the departures from the NZ game cost together (exact), or None: no departure
        "against_nz": against_nz(rules),
        "wagers": wagers,
        "insurance_missing": no_insurance,  # why no insurance wager is shown, or None
        "even_money": _even_money(rules, main, shown, summary),
        "main_per_unit_wagered": _per_unit_wagered(summary["main"]),
        "super_sevens_pays": _pay_table(rules, fig, summary) if rules.super_sevens else None,
        "frequencies": _frequencies(summary, rules, main),
        "frequencies_note": summary.get("frequencies_note"),
        "few_events": summary.get("few_events") or [],  # (simulate's: no SE, too few events)
        # why splits have no SE, or None (in words)
        "splits_note": summary.get("splits_note") and splits_se_note(rules.max_hands, plain=True),
        # simulate's note on the dealer's rows, in the report's words for them
        "dealer_note": summary.get("dealer_note") and dealer_note(
            rules, summary["frequencies"]["dealer_blackjack"]["count"], summary["rounds"],
            plain=True),
        "volatility": _volatility(wagers, (fig.get("super_sevens") or {}).get("lines"),
                                  summary["boxes"], rules),
        "sevens": _sevens(rules, fig, runs, exacts) if rules.super_sevens else None,
        "choices": _same_play(rules, [_choice_row(n, runs[n][1], runs[n][0], exacts[n][1],
                                                  fig, rules, main) for n in runs],
                              {n: strat for n, (_, strat) in runs.items()}),
        # only where a key that decides the basic strategy's chart differs from the NZ rules'
        "choices_note": ("The shipped strategies were derived for configs/nz1994.toml; under "
                         f"these rules ({chart_change(rules)}) they are fixed charts, not the "
                         "basic strategy of these rules." if chart_change(rules) else ""),
        "running": running,
    }
    sample = sample_size(spec, played)
    capped = "" if sample == spec.sample_rounds else (
        f": --sample-rounds {spec.sample_rounds:,} capped at the rounds played")
    say(f"distribution of the net result per round ({sample:,} rounds{capped})")
    data["distribution"] = _distribution(rules, main, spec, summary, sample)
    if spec.variants != ():  # (--no-variants: none)
        say("rule-variant effects (bjsim compare)")
    data["variants"] = variant_effects(spec, say, quiet)
    data["counting"] = None if plan is None else counting_figures(spec, say, quiet, plan)
    data["simulation"] = {n: r for n, (r, _) in runs.items()}
    data["exact"] = {n: d for n, (d, _) in exacts.items()}
    data["manifest"] = _manifest(spec, {shown_of[g]: g for g in strategies}, played,
                                 time.perf_counter() - start, hashed,
                                 {shown_of[g]: charts_sha256(s) for g, s in strategies.items()})
    data["manifest"]["variant_strategies"] = data["variants"].pop("strategy_files", None) or []
    return _plain(data)


__all__ = ["CONFIDENCES", "ROUND_COUNTS", "Spec", "compute", "counting_figures", "plays_text",
           "variant_effects"]
