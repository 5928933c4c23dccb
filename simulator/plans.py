"""Counting plans: how a counter plays (``strategies/plans/*.toml``): the count system and its
deck estimation, the index plays, the main and Super Sevens bets by count (rule 14), wonging,
the boxes played by count (rule 13) and the table limits. docs/counting.md.

For an unbalanced count every count in a plan is the running count; for a balanced one the true
count. A bad file ends in one line (`PlanError`) naming the file, the key and what is allowed.
`plan_toml` writes a plan back as a file, its ``[bet]`` replaced (``bjsim count --optimal-plan``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import numbers
import os
import shlex
from dataclasses import dataclass
from pathlib import Path

from simulator import HOME
from simulator.counting import (
    COUNT_DIR,
    RESOLUTIONS,
    CountError,
    CountSystem,
    list_counts,
    load_count,
    start_counts,
)
from simulator.index_plays import (
    INDEX_DIR,
    IndexFileError,
    IndexSet,
    alike_under,
    list_indices,
    load_indices,
)
from simulator.rules import (
    DECLARED,
    _fmt,
    check_keys,
    checked_name,
    checked_text,
    closest_name,
    file_named,
    names_a_file,
    read_toml,
    shipped_or_path,
    shown,
)
from simulator.source import file_sha256
from simulator.strategy import (
    STRATEGY_DIR,
    StrategyError,
    list_strategies,
    load_strategy,
    strategy_path,
)
from simulator.streams import inert

PLAN_DIR = HOME / "strategies" / "plans"
KEYS = ("name", "description", "count", "deck_estimation", "indices", "strategy", "table_min",
        "table_max", "bankroll", "tuned_penetration", "bet", "super_sevens", "wong", "boxes")
RAMP_KEYS = ("base", "steps")
WONG_KEYS = ("enter", "leave")
MAX_UNITS = 10_000  # the largest bet, table limit or Super Sevens bet a plan may name (units)
MAX_COUNT = 1_000.0  # counts in steps and wonging lie within +-this
MAX_STEPS = 255  # steps of a ramp (the engine's count table holds a step in 8 bits)
MAX_BANKROLL = 1e12


class PlanError(ValueError):
    """A counting plan that cannot be used: one line naming the file, the key and what is
    allowed."""


@dataclass(frozen=True)
class Ramp:
    """A bet (or box count) by count: ``base`` below the first step, else the units of the last
    step whose count is at or below the count. ``steps``: (count at or above, units), counts
    ascending."""

    base: int
    steps: tuple[tuple[float, int], ...] = ()

    def at(self, count: float) -> int:
        units = self.base
        for at_or_above, step_units in self.steps:
            if count < at_or_above:
                break
            units = step_units
        return units

    def values(self) -> tuple[int, ...]:
        """Every amount the ramp can give: the base and each step's."""
        return (self.base, *(u for _, u in self.steps))


@dataclass(frozen=True)
class CountingPlan:
    """A counter's play: see the module docstring and docs/counting.md."""

    name: str
    count: CountSystem
    resolution: str
    indices: str | None
    bet: Ramp
    super_sevens: Ramp
    boxes: Ramp
    wong_enter: float | None = None
    wong_leave: float | None = None
    table_min: int = 1
    table_max: int = 1
    bankroll: float | None = None
    tuned_penetration: float | None = None  # the penetration its counts were chosen at
    description: str = ""
    source: str = ""
    plays: IndexSet | None = None  # the index plays ``indices`` names, read with the plan
    files: tuple[tuple[str, Path], ...] = ()  # (what, path) of each file read (`plan_files`)
    keys: frozenset[str] = frozenset()  # the keys the file gives (a default left out is not)
    sha256: tuple[str | None, ...] = ()  # each of ``files``' SHA-256 as read (`load_plan`)
    texts: tuple[str | None, ...] = ()  # and its text, those bytes (None: not UTF-8, unread)
    count_file: str = ""  # ``count`` as written: a shipped count's name or a path
    strategy: str | None = None  # the chart it plays unless told another: a shipped name or path

    @property
    def count_kind(self) -> str:
        """What the plan's counts are: ``true count`` (balanced) or ``running count``."""
        return "true count" if self.count.balanced else "running count"


# ---------------------------------------------------------------------------------------------
# Checking a parsed file


def _integer(src: str, key: str, value, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PlanError(f"{src}: key '{key}' = {shown(value)}: allowed a whole number "
                        f"{low} to {high:,}")
    return value


def _number(src: str, key: str, value, low: float, high: float, above: bool = False) -> float:
    """``value`` if a number in ``low..high`` (``above``: over ``low``, not at it)."""
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not math.isfinite(value) or not low <= value <= high or above and value == low):
        raise PlanError(f"{src}: key '{key}' = {shown(value)}: allowed a number "
                        + (f"above {low:g}, at most {high:g}" if above else
                           f"{low:g} to {high:g}"))
    return float(value) if isinstance(value, float) else value


def check_bankroll(value, table_min: float, where: str, typed: str | None = None) -> float:
    """``value`` as a bankroll in units if a number from one table-minimum bet to
    ``MAX_BANKROLL`` (below one bet the risk of ruin would be a meaningless 100%); else a
    PlanError, one sentence whatever the fault, beginning ``where`` (``--bankroll``), the value
    shown as ``typed`` if given."""
    x = value if isinstance(value, numbers.Real) and not isinstance(value, bool) else math.nan
    if not table_min <= x <= MAX_BANKROLL:  # (nan: never)
        raise PlanError(f"{where} {typed or shown(value)}: allowed a number {table_min:g} to "
                        f"{MAX_BANKROLL:g} units, at least one table-minimum bet (table_min = "
                        f"{table_min:g})")
    return float(x) if isinstance(x, float) else x


def _text(src: str, key: str, value, allowed: str = "a string") -> str:
    if not isinstance(value, str):
        raise PlanError(f"{src}: key '{key}' = {shown(value)} is not a string: allowed {allowed}")
    return checked_text(value, src, key, PlanError)


def _table(src: str, key: str, value, keys: tuple[str, ...]) -> dict:
    if not isinstance(value, dict):
        raise PlanError(f"{src}: key '{key}' is not a table: allowed a table of "
                        + ", ".join(keys))
    check_keys(value, keys, src, PlanError, table=key)
    return value


def _ramp(src: str, key: str, value, low: int, high: int, default: int | None) -> Ramp:
    """A ramp table ``{base, steps}``; every amount within low..high."""
    if value is None:
        return Ramp(default)
    value = _table(src, key, value, RAMP_KEYS)
    if "base" not in value and default is None:
        raise PlanError(f"{src}: key '{key}.base' is missing: allowed a whole number {low} to "
                        f"{high:,}, the {key} below the first step")
    base = _integer(src, f"{key}.base", value.get("base", default), low, high)
    raw = value.get("steps", [])
    if not isinstance(raw, list):
        raise PlanError(f"{src}: key '{key}.steps' is not a list: allowed a list of [count, "
                        "units] pairs, counts ascending, e.g. [[2, 2], [3, 4]]")
    if len(raw) > MAX_STEPS:
        raise PlanError(f"{src}: key '{key}.steps' has {len(raw)} steps: allowed at most "
                        f"{MAX_STEPS}")
    steps = []
    for i, step in enumerate(raw):
        where = f"{key}.steps[{i}]"
        if not isinstance(step, list) or len(step) != 2:
            raise PlanError(f"{src}: key '{where}' = {shown(step)}: allowed a pair "
                            "[count at or above, units], e.g. [2, 4]")
        count = _number(src, f"{where}[0]", step[0], -MAX_COUNT, MAX_COUNT)
        units = _integer(src, f"{where}[1]", step[1], low, high)
        if steps and count <= steps[-1][0]:
            raise PlanError(f"{src}: key '{where}': count {count:g} is not above the step "
                            f"before it ({steps[-1][0]:g}): allowed counts in ascending order")
        steps.append((count, units))
    return Ramp(base, tuple(steps))


NAMED = {"count": ("count system", COUNT_DIR, list_counts),
         "indices": ("index plays", INDEX_DIR, list_indices),
         "strategy": ("strategy", STRATEGY_DIR, list_strategies)}  # a plan's keys naming a file
FILE_WORD = {"count": ("count", "count system"), "indices": ("index", "index set"),
             "strategy": ("strategy", "strategy")}


def _is_path(key: str, value: str, folder: str | None = None) -> bool:
    """Whether a plan's ``count``, ``indices`` or ``strategy`` names a file
    (`rules.names_a_file`, read from ``folder``), else a shipped name."""
    return names_a_file(value, NAMED[key][2](), "." if folder is None else folder)


def named_file(key: str, value: str, folder: str | None = None) -> Path:
    """The file a plan's ``count``, ``indices`` or ``strategy`` names: a path (a relative one
    read from ``folder``: the working directory where None, else the one a resumed run was
    started in), or a shipped name's file (which may not exist)."""
    if _is_path(key, value, folder):
        return Path(value) if folder is None else Path(folder) / value
    return NAMED[key][1] / f"{value}.toml"


def read_path(key: str, value: str, folder: str | None = None) -> str:
    """The path a plan's ``count``, ``indices`` or ``strategy`` that names a file is read from
    (`named_file`), written as a path: ``./basic``, not ``basic``, which is a shipped name."""
    return _as_path(named_file(key, value, folder))


def _as_path(path) -> str:
    path = os.path.normpath(path)
    return path if os.path.dirname(path) else os.path.join(".", path)


def played_strategy(plan: CountingPlan) -> str | None:
    """The plan's own strategy as --strategy takes it: a shipped name as written, else the path
    its file was read from (`read_path`); None where it names none."""
    if plan.strategy is None:
        return None
    path = dict(plan.files)["strategy"]
    shipped = path == STRATEGY_DIR / f"{plan.strategy}.toml"
    return plan.strategy if shipped else _as_path(path)


def plays_own(plan: CountingPlan, given: str | None) -> bool:
    """Does ``given`` (a --strategy, None: not given) play the plan's own strategy (none given,
    or its very file)?"""
    if plan.strategy is None:
        return False
    if given is None:
        return True
    try:
        return strategy_path(given).resolve() == strategy_path(played_strategy(plan)).resolve()
    except StrategyError:
        return False


def _no_such_file(src: str, key: str, written: str, folder: str | None) -> None:
    """Refuse a plan's ``count``, ``indices`` or ``strategy`` path (as ``written``) that names
    no file, saying which folder a relative one was read from (`named_file`) and, where the
    plan's own folder holds a file of that name, how to name it."""
    read = named_file(key, written, folder)
    if read.exists():  # (a folder: the loader says so)
        return
    where = ("the working directory, " + str(Path.cwd()) if folder is None else
             f"the folder the run was started in, {folder}")
    beside = Path(os.path.normpath(Path(src).parent / written))
    hint = ("" if not beside.is_file() else
            f"; the plan's folder holds {beside}: {key} = {_fmt(beside.as_posix())}")
    word, what = FILE_WORD[key]
    names = NAMED[key][2]()
    near = (f"did you mean {key} = {_fmt(Path(written).stem)}, the shipped {what}? "
            if Path(written).stem in names and not hint else "")
    raise PlanError(f"{src}: key '{key}' = {shown(written, 200)}: no such {word} file"
                    + ("" if Path(written).is_absolute() else
                       f" (a relative path is read from {where}, not the plan's folder{hint})")
                    + f": {near}allowed a shipped {what} by name ({', '.join(names)}) or "
                    f"the path of {'an' if word == 'index' else 'a'} {word} file")


def plan_from_dict(data: dict, source: str = "<plan>", name: str = "",
                   folder: str | None = None) -> CountingPlan:
    """Build and check a counting plan from a TOML-like dict (``source`` names it in errors). A
    relative path in ``count``, ``indices`` or ``strategy`` is read from ``folder``
    (`named_file`)."""
    def read_from(key: str, value: str) -> str:
        return (read_path(key, value, folder) if value and _is_path(key, value, folder)
                else value)  # ("" is refused as empty by load_count or load_indices)

    src = source
    if not isinstance(data, dict):
        raise PlanError(f"{src}: a counting plan must be a table of keys")
    check_keys(data, KEYS, src, PlanError, "plan")
    for key in ("count", "bet"):
        if key not in data:
            raise PlanError(f"{src}: key '{key}' is missing: a plan needs count (a count "
                            "system) and bet (the main bet by count)")
    count_name = _text(src, "count", data["count"], "a shipped count system's name ("
                       + ", ".join(list_counts()) + ") or the path of a count file")
    if count_name and _is_path("count", count_name, folder):
        _no_such_file(src, "count", count_name, folder)
    try:
        count = load_count(read_from("count", count_name))
    except CountError as err:
        raise PlanError(f"{src}: key 'count': {err}") from None
    resolution = _text(src, "deck_estimation", data.get("deck_estimation", "exact"),
                       ", ".join(f'"{r}"' for r in RESOLUTIONS))
    if resolution not in RESOLUTIONS:
        case = resolution.lower() if resolution.lower() in RESOLUTIONS else None
        raise PlanError(f"{src}: key 'deck_estimation' = {shown(resolution)} is not a choice: "
                        "allowed " + ", ".join(f'"{r}"' for r in RESOLUTIONS)
                        + (f' (lower case: did you mean "{case}"?)' if case else ""))
    indices, plays = data.get("indices"), None
    if indices is not None:
        indices = _text(src, "indices", indices, "a shipped index set ("
                        + ", ".join(list_indices()) + ") or the path of an index file")
        plays = _check_indices(src, indices, folder)
    strategy = data.get("strategy")
    if strategy is not None:
        strategy = _check_strategy(src, _text(src, "strategy", strategy, "a shipped strategy ("
                                              + ", ".join(list_strategies()) + ") or the path "
                                              "of a strategy file"), folder)
    table_min = _integer(src, "table_min", data.get("table_min", 1), 1, MAX_UNITS)
    table_max = _integer(src, "table_max", data.get("table_max", table_min), 1, MAX_UNITS)
    if table_max < table_min:
        raise PlanError(f"{src}: key 'table_max' = {table_max} is below table_min = "
                        f"{table_min}: allowed table_min to {MAX_UNITS:,}")
    bet = _ramp(src, "bet", data["bet"], 1, MAX_UNITS, None)
    for key, units in [("bet.base", bet.base)] + [
            (f"bet.steps[{i}]", s[1]) for i, s in enumerate(bet.steps)]:
        if not table_min <= units <= table_max:
            raise PlanError(f"{src}: key '{key}': a bet of {units} unit{'s' * (units != 1)} is "
                            f"outside the table limits: allowed table_min {table_min} to "
                            f"table_max {table_max}"
                            + ("" if "table_max" in data else
                               " (table_max not given: it is table_min)"))
    super_sevens = _ramp(src, "super_sevens", data.get("super_sevens"), 0, MAX_UNITS, 0)
    boxes = _ramp(src, "boxes", data.get("boxes"), 1, 7, 1)
    bankroll = data.get("bankroll")
    if bankroll is not None:
        bankroll = check_bankroll(bankroll, table_min, f"{src}: key 'bankroll' =")
    tuned = data.get("tuned_penetration")
    if tuned is not None:  # (the rule key's range; 75 taken for a percent, as the key's)
        pen = DECLARED["penetration"]
        try:
            tuned = float(_number(src, "tuned_penetration", tuned, pen.lo, pen.hi))
        except PlanError as e:
            pct = (not isinstance(tuned, bool) and isinstance(tuned, int | float)
                   and pen.lo <= tuned / 100 <= pen.hi)
            raise PlanError(f"{e} (a fraction: did you mean {tuned / 100:g}?)" if pct
                            else str(e)) from None
    wong_enter = wong_leave = None
    if "wong" in data:
        wong = _table(src, "wong", data["wong"], WONG_KEYS)
        for key in WONG_KEYS:
            if key not in wong:
                raise PlanError(f"{src}: key 'wong.{key}' is missing: wonging needs enter (come "
                                "back at this count or above) and leave (sit out below it)")
        wong_enter = _number(src, "wong.enter", wong["enter"], -MAX_COUNT, MAX_COUNT)
        wong_leave = _number(src, "wong.leave", wong["leave"], -MAX_COUNT, MAX_COUNT)
        if wong_leave > wong_enter:
            raise PlanError(f"{src}: key 'wong.leave' = {wong_leave:g} is above wong.enter = "
                            f"{wong_enter:g}: allowed leave at or below enter")
    return CountingPlan(
        name=checked_name(data["name"], src, "name", PlanError) if "name" in data else name,
        count=count, resolution=resolution,
        indices=indices, bet=bet, super_sevens=super_sevens, boxes=boxes,
        wong_enter=wong_enter, wong_leave=wong_leave, table_min=table_min,
        table_max=table_max, bankroll=bankroll, tuned_penetration=tuned,
        description=_text(src, "description", data.get("description", "")), source=src,
        plays=plays, count_file=count_name, strategy=strategy,
        files=tuple((NAMED[k][0], named_file(k, data[k], folder))
                    for k in NAMED if data.get(k) is not None),
        keys=frozenset(data))


def _check_strategy(src: str, strategy: str, folder: str | None = None) -> str:
    """The strategy a plan names, as written, checked (read here, a bad one refused as the
    plan's ``strategy``; `played_strategy` is what plays it)."""
    read = strategy
    if strategy and _is_path("strategy", strategy, folder):
        _no_such_file(src, "strategy", strategy, folder)
        read = read_path("strategy", strategy, folder)
    elif strategy not in list_strategies():
        raise PlanError(f"{src}: key 'strategy' = {shown(strategy)}: "
                        f"{closest_name(strategy, list_strategies())}allowed a shipped strategy "
                        f"({', '.join(list_strategies())}) or the path of a strategy file")
    try:
        load_strategy(read)
    except StrategyError as err:
        raise PlanError(f"{src}: key 'strategy': {err}") from None
    return strategy


def _check_indices(src: str, indices: str, folder: str | None = None) -> IndexSet:
    """The index plays a plan names: a shipped set or a file (a relative path read from
    ``folder``, `plan_from_dict`), loaded and checked here, a bad one refused as the plan's
    ``indices`` (`index_plays.load_indices`)."""
    if indices and _is_path("indices", indices, folder):
        _no_such_file(src, "indices", indices, folder)
        indices = read_path("indices", indices, folder)
    elif indices and not (INDEX_DIR / f"{indices}.toml").is_file():  # ("": load_indices says)
        raise PlanError(f"{src}: key 'indices' = {shown(indices)}: "
                        f"{closest_name(indices, list_indices())}allowed a shipped index set "
                        f"({', '.join(list_indices())}) or the path of an index file")
    try:
        return load_indices(indices)
    except IndexFileError as err:
        raise PlanError(f"{src}: key 'indices': {err}") from None


# ---------------------------------------------------------------------------------------------
# What a plan says that is odd, but may be meant

RAMP_WORDS = {"bet": ("the bet", "unit"), "super_sevens": ("the Super Sevens bet", "unit"),
              "boxes": ("the boxes played", "box")}


def _amount(n: int, unit: str) -> str:
    return f"{n} {unit}" + ("" if n == 1 else "es" if unit == "box" else "s")


def plan_warnings(plan: CountingPlan, games) -> list[str]:
    """A line for each thing ``plan`` says that changes nothing or runs against the count, which
    a user may still mean (the command line prints each as a warning and plays on), naming the
    plan's file and key: a main or Super Sevens bet that falls as the count rises, a step that
    changes nothing, a step at a count no round of ``games`` (the rule sets it is played under)
    starts at, and a ``wong.enter`` no round starts at (`counting.start_counts`); for an
    unbalanced count, a ``deck_estimation`` (no effect: there is no true count) and a step,
    wonging count or index play at a count the running count never equals (2.5: it acts as
    +3, `_off_grid`); an index play whose two actions play alike at every count under the rules
    (`_alike`); a game dealt to a cut card at a penetration other than the plan's
    ``tuned_penetration``. (A shuffle
    every round starts every round at a fresh shoe's count, as the command line says: its
    steps are not named one by one, but a counter who never sits down is.)"""
    def top(rules_seq):
        return max((start_counts(plan.count, plan.resolution, r.decks,
                                 r.cut if r.shuffle == "cut-card" else 1)[1] for r in rules_seq),
                   default=math.inf)

    def never(count, most):
        return (f"no round of this game starts at a {plan.count_kind} of {count:g} or more (at "
                f"most {most:+.4g})")

    dealt = top([r for r in games if r.shuffle == "cut-card"])  # (the count builds)
    off_grid, taken = _off_grid(plan, games)
    out = []
    if not plan.count.balanced and "deck_estimation" in plan.keys:
        out.append(f"{plan.source}: key 'deck_estimation' = {shown(plan.resolution)} has no "
                   f"effect under this count ({plan.count.name} is unbalanced: the plan's counts "
                   "are running counts, with no true count and no decks left to estimate): "
                   "every value of deck_estimation gives the same figures")
    for key, (what, unit) in RAMP_WORDS.items():
        ramp = getattr(plan, key)
        before = ramp.base
        for i, (count, units) in enumerate(ramp.steps):
            where = f"{plan.source}: key '{key}.steps[{i}]' = {shown([count, units])}"
            if units == before:
                out.append(f"{where}: {_amount(units, unit)} at this count and below it too: the "
                           "step changes nothing")
            elif units < before and key != "boxes":
                out.append(f"{where}: {what} falls from {before} to {_amount(units, unit)} as "
                           f"the count rises to {count:g}: a counter bets more as the count rises")
            if count > dealt:
                out.append(f"{where}: {never(count, dealt)}, so the step is never taken")
            elif (off := off_grid(count)) is not None:
                nxt = ramp.steps[i + 1][0] if i + 1 < len(ramp.steps) else None
                out.append(f"{where}: {off}, so the step is taken from {taken(count)}"
                           + ("" if nxt is None or taken(nxt) != taken(count) else
                              f", as is the next one ({nxt:g}): this step is never taken"))
            before = units
    if plan.super_sevens.steps and any(r.super_sevens for r in games):
        out += _blind_to_sevens(plan)
    for i, q in enumerate(plan.plays.plays if plan.plays is not None else ()):
        if (off := off_grid(q.index)) is not None:
            out.append(f"{plan.source}: key 'indices' = {shown(plan.indices)}: play {i + 1} "
                       f"({q.name}) index {q.index:g}: {off}, so the play changes at "
                       f"{taken(q.index)}")
    out += _alike(plan, games)
    most = top(games)
    if plan.wong_enter is not None and plan.wong_enter > most:
        out.append(f"{plan.source}: key 'wong.enter' = {plan.wong_enter:g}: "
                   f"{never(plan.wong_enter, most)}, so the counter, who begins sitting out "
                   "(each chunk), never plays a round")
    elif plan.wong_enter is not None and (off := off_grid(plan.wong_enter)) is not None:
        out.append(f"{plan.source}: key 'wong.enter' = {plan.wong_enter:g}: {off}, so the "
                   f"counter comes back at {taken(plan.wong_enter)} or above")
    if plan.wong_leave is not None and (off := off_grid(plan.wong_leave)) is not None:
        out.append(f"{plan.source}: key 'wong.leave' = {plan.wong_leave:g}: {off}, so the "
                   f"counter sits out below {taken(plan.wong_leave)}")
    other = sorted({r.penetration for r in games if r.shuffle == "cut-card"
                    and abs(r.penetration - (plan.tuned_penetration or r.penetration)) > 1e-9})
    if other:
        at = ", ".join(f"{p:g}" for p in other)
        out.append(f"{plan.source}: key 'tuned_penetration' = {plan.tuned_penetration:g}: played "
                   f"at penetration {at}: its counts were chosen at {plan.tuned_penetration:g} "
                   "and are played unchanged, not re-tuned: the figures are this plan's as "
                   "written, not a counter's best there")
    return out


def _blind_to_sevens(plan: CountingPlan) -> list[str]:
    """A line where ``plan``'s Super Sevens bet steps with a count that tells little of the
    sevens left, on which alone the side bet's return turns, or that falls as they rise: its
    tags' correlation with the sevens left (Pearson over the 13 ranks, `removal.correlation`,
    against -1 for the seven and 0 for the others: a seven seen is one fewer left) below 0.5."""
    from simulator.exact.removal import correlation

    r = correlation(plan.count.tags, [0, 0, 0, 0, 0, 0, -1, 0, 0, 0])
    if r is not None and r >= 0.5:
        return []
    said = "none: its tags are the same for every card" if r is None else f"{r:+.2f}"
    tells, follow = ("which tells little of the sevens left", "hardly the bet's return")
    if r is not None and r <= -0.5:
        tells, follow = ("which falls as the sevens left rise", "against the bet's return: "
                         "it is bet most where the sevens left are fewest")
    return [f"{plan.source}: key 'super_sevens.steps' = {shown(plan.super_sevens.steps)}: the "
            f"Super Sevens bet steps with the {plan.count.name} count, {tells}, on which the "
            f"side bet's return turns (its tags' correlation with the sevens left, each rank "
            f"against -1 for a seven, a seven seen being one fewer left, and 0 for the others: "
            f"{said}; the sevens count's +1.00): its Super Sevens bets follow the count, "
            f"{follow} (`bjsim exact --removal --count {_count_arg(plan)}` gives its correlation "
            "with the side bet's effects of removal)"]


def _count_arg(plan: CountingPlan) -> str:
    """The plan's count as ``--count`` takes it: a shipped count's name, else its file's path
    as read (a count file's own name is no shipped count's: `bjsim exact` would refuse it)."""
    path = dict(plan.files).get("count system")
    if path is None or plan.count_file == plan.count.name and "/" not in plan.count_file:
        return plan.count.name
    return shlex.quote(os.path.relpath(path) if not os.path.isabs(plan.count_file) else str(path))


def _alike(plan: CountingPlan, games) -> list[str]:
    """A line for each index play of ``plan`` whose two actions play alike at every count under
    some of ``games`` (`index_plays.alike_under`: ``H`` below and ``Rh`` from the index without
    surrender, ``D`` and ``H`` on a soft total under ``double_on = "hard"``, ``Pd`` and ``N``
    without double after split). The loader refuses a play the same at every count as written;
    this one is kept, as it plays under other rules."""
    out = []
    for i, q in enumerate(plan.plays.plays if plan.plays is not None else ()):
        for why in dict.fromkeys(filter(None, (alike_under(q, r) for r in games))):
            out.append(f"{plan.plays.source}: play {i + 1} ({q.name}): below = "
                       f"{shown(q.below)}, at_or_above = {shown(q.at_or_above)}: {why}")
    return out


def _running_counts(count: CountSystem, games) -> tuple[int, set[int]]:
    """What the running count of an unbalanced ``count`` can take in ``games``: a whole number,
    its start (`CountSystem.initial_running_count`) plus a multiple of the tags' greatest
    common divisor: ``(divisor, {start modulo it, a game each})`` (no games: ``{0}``)."""
    step = math.gcd(*count.tags)
    return step, {count.initial_running_count(r.decks) % step for r in games} or {0}


def _off_grid(plan: CountingPlan, games):
    """For a plan of an unbalanced count, ``(off_grid, taken)``: ``off_grid(c)`` says why a count
    ``c`` the running count never equals acts as the next it can take (None where it can take
    ``c``: always for a balanced count, whose true count takes any value), ``taken(c)`` that
    count (several, one a game, joined by "or")."""
    if plan.count.balanced:
        return (lambda count: None), str
    step, starts = _running_counts(plan.count, games)

    def up(count: float) -> list[int]:  # the least count taken at or above ``count``, a game each
        return sorted({s + step * math.ceil((count - s) / step) for s in starts})

    def off_grid(count: float) -> str | None:
        if up(count) == [count]:
            return None
        what = ("a whole number" if step == 1 else
                " or ".join(f"{s:+d} plus a multiple of {step}" if s else
                            f"a multiple of {step}" for s in sorted(starts)))
        return (f"the running count ({plan.count.name}, unbalanced) is {what}, never "
                f"{count:g}")

    return off_grid, lambda count: " or ".join(f"{v:+d}" if v else "0" for v in up(count))


# ---------------------------------------------------------------------------------------------
# Files


def list_plans() -> list[str]:
    """Names of the shipped counting plans, sorted."""
    return sorted(p.stem for p in PLAN_DIR.glob("*.toml"))


def plan_path(name_or_path) -> Path:
    """The file of a shipped plan name, or the given path (a file of any name:
    `rules.names_a_file`)."""
    return file_named(name_or_path, "plan", list_plans(), PLAN_DIR, PlanError, "counting plan")


def files_named(path, folder: str | None = None) -> list[Path]:
    """The count system, index and strategy files a plan file names by path, read from ``folder`` as
    `load_plan` reads them (none if it cannot be read: loading it says why)."""
    try:
        data = read_toml(Path(path), "plan", PlanError)
    except PlanError:
        return []
    return [named_file(k, v, folder) for k, v in data.items()
            if k in NAMED and isinstance(v, str) and v
            and _is_path(k, v, folder)]


def plan_files(name_or_path, folder: str | None = None) -> list[tuple[str, Path]]:
    """The files a plan's figures depend on, ``(what, path)``: the plan file, then the count
    system, the index plays and the strategy it names, each the file `load_plan` reads (a
    shipped name's, or a path read from ``folder``; none named, no entry), for the SHA-256 of
    each in the report's manifest."""
    return list(load_plan(name_or_path, folder).files)


# What a plan plays, by the key that says it (a plan named as a shipped plan must play as it).
PLAYED = {"count": lambda p: (p.count.name, p.count.tags, p.count.irc_per_deck,
                              p.count.irc_constant),
          "deck_estimation": lambda p: p.resolution,
          "indices": lambda p: p.plays and (p.plays.count, p.plays.plays),
          **{key: (lambda k: lambda p: getattr(p, k))(key)
             for key in ("bet", "super_sevens", "boxes", "table_min", "table_max", "bankroll",
                         "tuned_penetration")},
          "wong": lambda p: (p.wong_enter, p.wong_leave),
          "strategy": lambda p: p.strategy and file_sha256(dict(p.files)["strategy"])}


def _not_passing_for_a_shipped_plan(plan: CountingPlan, source: str, named: bool) -> None:
    """A plan file named as a shipped plan (by its ``name``, or by its file name where it has
    none: ``named`` False) must play as that plan, as a count file named as a shipped count
    must be that count: reports know a plan by its name (and show the shipped one's
    description)."""
    shipped = load_plan(plan.name)
    differ = [key for key, of in PLAYED.items() if of(plan) != of(shipped)]
    if differ:
        raise PlanError(f"{source}: name = {_fmt(plan.name)}"
                        + ("" if named else " (the file's name: it has no 'name' key)")
                        + f" names the shipped plan {plan.name}, but its "
                        + ", ".join(differ) + f" {'differ' if len(differ) > 1 else 'differs'} "
                        f"from {plan.name}'s: allowed another name for another plan (reports "
                        "know a plan by its name)")


def loaded(plan, name: str = "plan") -> CountingPlan:
    """``plan`` if it is a `plans.CountingPlan`, else a `plans.PlanError` naming the argument
    ``name`` and how to load one (a plan's name had raised AttributeError)."""
    if not isinstance(plan, CountingPlan):
        raise PlanError(f"{name}: {plan!r:.40} is not a counting plan: allowed "
                        "plans.load_plan(NAME or FILE)'s")
    return plan


def load_plan(name_or_path, folder: str | None = None) -> CountingPlan:
    """A counting plan by shipped name (``hi-lo-1-12``, ...) or from a TOML file; ``folder``:
    where a relative path in its ``count`` or ``indices`` is read from (`plan_from_dict`)."""
    path = plan_path(name_or_path)
    data = read_toml(path, "plan", PlanError,
                     allowed=shipped_or_path("plan", list_plans(), toml=False, given=path))
    plan = plan_from_dict(data, str(path), name=inert(path.stem), folder=folder)
    if plan.name in list_plans() and path.resolve() != plan_path(plan.name).resolve():
        _not_passing_for_a_shipped_plan(plan, str(path), "name" in data)
    files = (("plan", path), *plan.files)
    read = [_bytes(p) for _, p in files]
    return dataclasses.replace(plan, files=files, texts=tuple(_text_of(b) for b in read),
                               sha256=tuple(b if b is None else hashlib.sha256(b).hexdigest()
                                            for b in read))


def _bytes(path) -> bytes | None:
    try:
        return Path(path).read_bytes()
    except OSError:
        return None


def _text_of(data: bytes | None) -> str | None:
    try:
        return None if data is None else data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _whole(x):
    """``x`` as an int where it is a whole number (``bankroll = 1000``, not ``1000.0``)."""
    return int(x) if isinstance(x, float) and x.is_integer() else x


def plan_toml(plan: CountingPlan, bet: Ramp, name: str, description: str,
              bankroll: float | None = None, strategy: str | None | bool = True) -> str:
    """``plan`` as a plan file (TOML) with its ``[bet]`` replaced by ``bet``, named ``name`` and
    described by ``description``; its ``bankroll`` replaced where one is given, its
    ``strategy`` by the chart played where one is given (a shipped name or an absolute path;
    None: none, the rules' basic; True: the plan's own). The count, index plays and strategy it
    read are named as shipped names, or by their absolute paths (read from any folder); every
    other key as the plan has it (`load_plan` reads the file back as ``plan`` but for those)."""
    def named(what: str, folder: Path) -> str:
        path = dict(plan.files)[what].resolve()
        return path.stem if path.parent == folder.resolve() else str(path)

    def ramp(key: str, r: Ramp) -> list[str]:
        return ["", f"[{key}]", f"base = {r.base}",
                *([f"steps = {_fmt([list(s) for s in r.steps])}"] if r.steps else [])]

    keys = {"name": name, "description": description,
            "count": named(NAMED["count"][0], COUNT_DIR),
            "deck_estimation": plan.resolution  # (a KO plan without it: no warning of it)
            if "deck_estimation" in plan.keys or plan.resolution != "exact" else None,
            "indices": None if plan.indices is None else named(NAMED["indices"][0], INDEX_DIR),
            "strategy": strategy if strategy is not True else None if plan.strategy is None
            else named("strategy", STRATEGY_DIR),
            "table_min": plan.table_min, "table_max": plan.table_max,
            "bankroll": _whole(plan.bankroll if bankroll is None else bankroll),
            "tuned_penetration": plan.tuned_penetration}
    lines = [f"{k} = {_fmt(v)}" for k, v in keys.items() if v is not None]
    lines += ramp("bet", bet)
    if any(plan.super_sevens.values()):
        lines += ramp("super_sevens", plan.super_sevens)
    if plan.wong_enter is not None:
        lines += ["", "[wong]", f"enter = {_fmt(plan.wong_enter)}",
                  f"leave = {_fmt(plan.wong_leave)}"]
    if plan.boxes.steps or plan.boxes.base != 1:
        lines += ramp("boxes", plan.boxes)
    return "\n".join(lines) + "\n"
