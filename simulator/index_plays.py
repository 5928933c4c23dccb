"""Index plays as data (``strategies/indices/*.toml``, written by ``bjsim strategy indices``) and
the strategies they make: one per band of the count between consecutive indices, the base
strategy with each play's cell set to its ``below`` or ``at_or_above`` action (docs/counting.md).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simulator import HOME
from simulator import layout as L
from simulator.reference import can_double
from simulator.rules import (
    check_keys,
    checked_name,
    checked_text,
    file_named,
    read_toml,
    shipped_or_path,
    shown,
)
from simulator.streams import inert

INDEX_DIR = HOME / "strategies" / "indices"
CHARTS = ("hard", "soft", "pairs", "insurance")
PLAY_KEYS = ("name", "chart", "row", "up", "below", "at_or_above", "index", "crossing",
             "published_hi_lo_s17_peek")  # fmt: skip
FILE_KEYS = ("name", "count", "description", "source", "play")
MAX_INDEX_COUNTS = 254  # distinct index counts (the engine's count table holds a band in 8 bits)
UPS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")  # up-card index 0..9
PAIR_ROWS = ("A,A", "2,2", "3,3", "4,4", "5,5", "6,6", "7,7", "8,8", "9,9", "10,10")


class IndexFileError(ValueError):
    """An index file that cannot be used: one line naming the file, the play and the key."""


@dataclass(frozen=True)
class IndexPlay:
    """Chart cell (``chart``, ``row``, ``up``) plays ``below`` under the count ``index`` and
    ``at_or_above`` from it; insurance is the cell (insurance, insurance, A), Y or N."""

    name: str
    chart: str
    row: str
    up: str
    below: str
    at_or_above: str
    index: float


@dataclass(frozen=True)
class IndexSet:
    name: str
    count: str
    plays: tuple[IndexPlay, ...]
    description: str = ""
    source: str = ""

    @property
    def insurance(self) -> IndexPlay | None:
        return next((q for q in self.plays if q.chart == "insurance"), None)

    @property
    def cells(self) -> tuple[IndexPlay, ...]:
        return tuple(q for q in self.plays if q.chart != "insurance")


def list_indices() -> list[str]:
    return sorted(p.stem for p in INDEX_DIR.glob("*.toml"))


def _text(where: str, key: str, value, what: str, empty: bool = False) -> str:
    """``value`` if a string (not empty, unless ``empty``), else one line saying ``what``."""
    if not isinstance(value, str) or not (value or empty):
        raise IndexFileError(f"{where}: key '{key}' = {shown(value)}: allowed {what}"
                             + ", a string" * (not empty))
    return checked_text(value, where, key, IndexFileError)


def _action(where: str, key: str, value, chart: str) -> str:
    """An action code of ``chart`` as the layout names it, given in any case (``ds`` = ``Ds``)."""
    allowed = {"insurance": ("Y", "N"), "pairs": ("P", "Pd", "Rp", "N")}.get(
        chart, tuple(L.ACTION_NAMES[c] for c in L.HARD_ACTIONS))
    code = next((a for a in allowed if isinstance(value, str) and value.lower() == a.lower()),
                None)
    if code is None:
        why = " (N: not split, the hard or soft chart then plays the hand)" * (chart == "pairs")
        raise IndexFileError(f"{where}: {key} = {shown(value)}: allowed " + " ".join(allowed)
                             + why)
    return code


def _play(d, src: str, i: int) -> IndexPlay:
    """Play ``i`` of an index file, its cell and actions written as the strategy files write
    them (``up`` 2-10 or A, T for 10; action codes in any case), kept in one spelling."""
    where = f"{src}: play {i + 1}"
    if not isinstance(d, dict):
        raise IndexFileError(f"{where}: not a table: allowed [[play]] tables")
    check_keys(d, PLAY_KEYS, where, IndexFileError)
    for key in ("chart", "row", "up", "below", "at_or_above", "index"):
        if key not in d:
            raise IndexFileError(f"{where}: key '{key}' is missing")
    chart = d["chart"]
    if chart not in CHARTS:
        raise IndexFileError(f"{where}: chart = {shown(chart)}: allowed " + ", ".join(CHARTS))
    up = str(d["up"]).upper()
    up = "10" if up == "T" else up
    if isinstance(d["up"], bool) or up not in UPS:
        raise IndexFileError(f"{where}: up = {shown(d['up'])}: allowed " + " ".join(UPS)
                             + " (T for 10)")
    index = d["index"]
    if (isinstance(index, bool) or not isinstance(index, (int, float))
            or not math.isfinite(index) or abs(index) > 100):
        raise IndexFileError(f"{where}: index = {shown(index)}: allowed a number -100 to 100")
    for key in ("crossing", "published_hi_lo_s17_peek"):  # (notes: not read)
        x = d.get(key, 0)
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            raise IndexFileError(f"{where}: {key} = {shown(x)}: allowed a number")
    below, above = (_action(where, key, d[key], chart) for key in ("below", "at_or_above"))
    row = d["row"] if isinstance(d["row"], str) else str(d["row"])
    if chart == "insurance" and (row != "insurance" or up != "A"):
        raise IndexFileError(f"{where}: the insurance play's row = {shown(d['row'])} and up = "
                             f"{shown(d['up'])}: allowed row = \"insurance\", up = \"A\"")
    if chart == "insurance" and (below, above) == ("Y", "N"):
        raise IndexFileError(f"{where}: insurance taken below the index and not from it: allowed "
                             'below = "N", at_or_above = "Y"')
    if chart == "pairs":
        row = row.upper().replace("T", "10")  # (T,T: any two ten-valued cards, as 10,10)
        if isinstance(d["row"], bool) or row not in PAIR_ROWS:
            raise IndexFileError(f"{where}: row = {shown(d['row'])}: allowed "
                                 + " ".join(PAIR_ROWS) + " (T for 10)")
    lo = 12 if chart == "soft" else 4  # (a soft hand holds an ace counted 11: 12 at least)
    if chart in ("hard", "soft") and (isinstance(d["row"], bool) or not (
            row.isdigit() and lo <= int(row) <= 21)):
        raise IndexFileError(f"{where}: row = {shown(d['row'])}: allowed a total {lo}-20"
                             + " (soft rows by total: A,7 is 18)" * (chart == "soft")
                             + (f", a whole number or a string (row = {int(d['row'])} or "
                                f"\"{int(d['row'])}\")" if isinstance(d["row"], float)
                                and d["row"].is_integer() and lo <= d["row"] <= 20 else ""))
    if chart in ("hard", "soft") and int(row) == 21:
        raise IndexFileError(f"{where}: row 21 stands at every count (rule 12.1 (a)), so no play "
                             f"changes it: allowed a total {lo}-20")
    if chart == "hard" and int(row) <= 11 and "S" in (below, above):
        key = "below" if below == "S" else "at_or_above"
        raise IndexFileError(f"{where}: {key} = \"S\" on hard {row}: a hand of 11 or less must "
                             "draw (rule 12.1 (d)), so it would play as H under every rule set: "
                             "allowed H, D, Ds, Rh or Rs there")
    if below == above:
        raise IndexFileError(f"{where}: below = at_or_above = {shown(below)}: the play is the "
                             "same at every count, so it changes nothing: allowed two different "
                             "actions" + (" (to insure at every count: the strategy's insurance = "
                                          "true)" if chart == "insurance" else " (to play one "
                                          "action at every count: the strategy's chart)"))
    name = (checked_name(d["name"], where, "name", IndexFileError) if "name" in d
            else f"{row} v {up}")
    return IndexPlay(name, chart, row, up, below, above, float(index))


def load_indices(name_or_path) -> IndexSet:
    """An index file by shipped name (``hi-lo-nz``) or path (of any name:
    `rules.names_a_file`)."""
    path = file_named(name_or_path, "index", list_indices(), INDEX_DIR, IndexFileError,
                      "index plays")
    data = read_toml(path, "index", IndexFileError,
                     allowed=shipped_or_path("index", list_indices(), what="index set",
                                             toml=False, given=path))
    check_keys(data, FILE_KEYS, path, IndexFileError, "index")
    if "count" not in data:
        raise IndexFileError(f"{path}: key 'count' is missing: the count system the indices "
                             "are for (as bjsim strategy indices writes it)")
    count = _text(str(path), "count", data["count"], "the name of the count system the "
                  "indices are for")
    name = (checked_name(data["name"], str(path), "name", IndexFileError) if "name" in data
            else inert(path.stem))
    description, _ = (_text(str(path), key, data.get(key, ""), "a string", empty=True)
                      for key in ("description", "source"))
    plays = data.get("play", [])
    if not isinstance(plays, list):
        raise IndexFileError(f"{path}: key 'play': allowed [[play]] tables")
    if not plays:
        raise IndexFileError(f"{path}: no play: allowed one [[play]] table or more (for no "
                             "index plays, leave the plan's 'indices' out)")
    out = tuple(_play(d, str(path), i) for i, d in enumerate(plays))
    cells = [(q.chart, q.row, q.up) for q in out]
    for i, c in enumerate(cells):
        if c in cells[:i]:
            raise IndexFileError(f"{path}: play {i + 1}: the cell chart = {shown(c[0])}, row = "
                                 f"{shown(c[1])}, up = {shown(c[2])} has a play already: "
                                 "allowed one play a cell")
    counts = {q.index for q in out if q.chart != "insurance"}
    if len(counts) > MAX_INDEX_COUNTS:
        raise IndexFileError(f"{path}: {len(counts)} different index counts: allowed at most "
                             f"{MAX_INDEX_COUNTS} (each one splits the count into another band)")
    got = IndexSet(name, count, out, description, str(path))
    if name in list_indices() and not is_shipped_file(path, name):
        _not_passing_for_a_shipped_set(got, "name" in data)
    return got


def is_shipped_file(path, name: str) -> bool:
    """Is ``path`` the shipped index set ``name``'s own file (strategies/indices/NAME.toml)?"""
    return Path(path).resolve() == (INDEX_DIR / f"{name}.toml").resolve()


def _unlike_shipped(got: IndexSet) -> tuple[IndexSet, str | None]:
    """The shipped set of ``got``'s name, and how ``got`` differs from it: ``count`` (another
    count's plays), ``plays`` (other plays of its count) or None (the same set)."""
    shipped = load_indices(got.name)
    return shipped, ("count" if got.count != shipped.count else
                     None if set(got.plays) == set(shipped.plays) else "plays")


def _not_passing_for_a_shipped_set(got: IndexSet, named: bool) -> None:
    """An index file named as a shipped set (by its ``name``, or its file name where it has
    none) must hold that set's plays for its count, as a count or plan file named as a shipped
    one must be it: plans and reports know an index set by its name."""
    shipped, differs = _unlike_shipped(got)
    what = {"count": f"count = {shown(got.count)} is not {shipped.count}",
            "plays": f"plays are not {shipped.name}'s", None: None}[differs]
    if what is not None:
        raise IndexFileError(f"{got.source}: name = {shown(got.name)}"
                             + ("" if named else " (the file's name: it has no 'name' key)")
                             + f" names the shipped index set {got.name}, but its {what}: "
                             "allowed another name for other index plays (plans and reports "
                             "know an index set by its name)")


def name_refused(text: str, name: str, given: bool = True,
                 own_file: bool = False) -> str | None:
    """Why an index file ``text`` (as `exact.indices.dumps_indices` writes it) may not be named
    ``name`` (``given`` by --name, else the default from the count and the rule set's name), or
    None: a shipped set's name over other plays, which `load_indices` would refuse the file
    for; ``own_file``: written as that shipped set's own file, whose plays may change (the set
    made again), but not its count, which plans name it for."""
    if name not in list_indices():
        return None
    import tomllib

    data = tomllib.loads(text)
    got = IndexSet(name, data["count"],
                   tuple(_play(d, "--name", i) for i, d in enumerate(data.get("play", []))))
    shipped, differs = _unlike_shipped(got)
    if differs is None or differs == "plays" and own_file:
        return None
    why = (f"its count is {shipped.count}, theirs {got.count}" if differs == "count"
           else "its plays are others")
    named = f"--name {name}: names" if given else (
        f"the default name {name} (the count's and the rule set's) names")
    return (f"{named} the shipped index set {name}, whose plays these are not ({why}): allowed "
            f"another name{'' if given else ', by --name'} (plans and reports know an index set "
            "by its name, and would refuse the file)")


def play_words(plays: IndexSet | None) -> dict | None:
    """What a checkpoint keeps of index plays (`run`'s identity): the count they are for and
    each play by its cell, in words (``{"count": "hi-lo", "hard 16 v 10": "H below 0, S at or
    above"}``), so that a resume refuses plays changed and names the one; None for none."""
    if plays is None:
        return None
    return {"count": plays.count} | {
        "insurance" if q.chart == "insurance" else f"{q.chart} {q.row} v {q.up}":
        f"{q.below} below {q.index:g}, {q.at_or_above} at or above" for q in plays.plays}


SURRENDERS = ("Rh", "Rs", "Rp")


def _double_here(q: IndexPlay, rules) -> bool:
    """May a two-card hand of the row of play ``q`` (hard or soft: an ace and the rest) double
    under ``rules`` (`reference.can_double`)?"""
    r = int(q.row)
    values = (1, r - 11) if q.chart == "soft" else (2, r - 2) if r <= 12 else (10, r - 10)
    return can_double([4 * (v - 1) for v in values], False, False, rules)


def _as_played(q: IndexPlay, code: str, rules) -> tuple:
    """What ``code`` in the cell of play ``q`` does under ``rules``, hand by hand (the first two
    cards, two cards after a split, three cards or more): "D" double, "R" surrender, "P" split,
    else the action played instead (`reference.Game.decide`, `pair_decision`)."""
    surrender = rules.surrender != "none"
    if q.chart == "insurance":
        return (code,)
    if q.chart == "pairs":
        split = rules.max_hands > 1
        first = {"P": "P" if split else "N", "Pd": "P" if split and rules.double_after_split
                 else "N", "Rp": "R" if surrender else "P" if split else "N", "N": "N"}[code]
        later = {"Rp": "P" if split else "N"}.get(code, first)
        return first, later
    double = _double_here(q, rules)
    low = q.chart == "hard" and int(q.row) <= 11  # (11 or less must draw: rule 12.1 (d))

    def plain(a: str) -> str:
        return "H" if a == "S" and low else a

    fallback = {"D": "H", "Ds": "S", "Rh": "H", "Rs": "S"}.get(code, code)
    first = ("D" if double else plain(fallback)) if code in ("D", "Ds") else (
        "R" if surrender else plain(fallback)) if code in ("Rh", "Rs") else plain(code)
    split = ("D" if double and rules.double_after_split else plain(fallback)
             ) if code in ("D", "Ds") else plain(fallback)
    return first, split, plain(fallback)


def alike_under(q: IndexPlay, rules) -> str | None:
    """Why play ``q``'s two actions play alike at every count under ``rules`` (a double the rules
    do not allow is a hit or a stand, a surrender a hit, stand or split, ``Pd`` without double
    after split ``N``, a stand on 11 or less a hit), in words ending "so it plays as H at every
    count"; None where they differ somewhere. The loader refuses a play the same at every count
    as written; this one is kept, as it plays under other rules."""
    below, above = (_as_played(q, a, rules) for a in (q.below, q.at_or_above))
    if below != above:
        return None
    codes = {q.below, q.at_or_above}
    why = []
    if codes & {"D", "Ds"} and not _double_here(q, rules):
        why.append(f"do not allow a double on {q.chart} {q.row} (double_on = "
                   f"{shown(rules.double_on)})")
    if codes & {"Pd"} and not rules.double_after_split:
        why.append("do not allow a double after a split (double_after_split = false)")
    if codes == {"P", "Pd"} and rules.double_after_split:
        why.append("allow a double after a split, where Pd is P (double_after_split = true)")
    if codes & {"P", "Pd", "Rp"} and rules.max_hands == 1:
        why.append("do not allow a split (max_hands = 1)")
    if codes & set(SURRENDERS) and rules.surrender == "none":
        why.append('do not allow surrender (surrender = "none")')
    words = "the rules " + " and ".join(why) if why else ""
    if q.chart == "hard" and int(q.row) <= 11 and codes & {"S", "Ds", "Rs"}:
        words += (", and " if words else "") + "a hand of 11 or less must draw (rule 12.1 (d))"
    what = f"it plays as {below[0]}" if len(set(below)) == 1 else "the two play alike"
    return f"{words or 'the two actions are one play under these rules'}, so {what} at every count"


def _set_cell(strategy, q: IndexPlay, action: str) -> dict:
    """The tables of ``strategy`` with the cell of play ``q`` set to ``action``. A play that
    does not surrender either side keeps the chart's surrender where the chart has one, its
    action then what is played where surrender is not allowed (H as Rh, S as Rs, P as Rp)."""
    up = UPS.index(q.up)
    keep = not {q.below, q.at_or_above} & set(SURRENDERS)
    if q.chart in ("hard", "soft"):
        table = getattr(strategy, q.chart).copy()
        row = int(q.row)
        code = L.ACTION_CODES[action]
        if keep and table[row, up] in (L.RH, L.RS):
            code = {L.H: L.RH, L.S: L.RS}.get(code, code)
        table[row, up] = code
        return {q.chart: table}
    table = strategy.pairs.copy()
    row = PAIR_ROWS.index(q.row)
    code = {"P": L.P, "Pd": L.PD, "Rp": L.RP}.get(action, L.N)
    table[row, up] = L.RP if keep and code == L.P and table[row, up] == L.RP else code
    return {"pairs": table}


def bands(plays: IndexSet | None) -> np.ndarray:
    """The counts at which some chart play changes (insurance apart), ascending: band ``j`` is
    the counts from ``bands[j - 1]`` (or below all) up to ``bands[j]``."""
    if plays is None:
        return np.zeros(0)
    return np.unique([q.index for q in plays.cells]).astype(np.float64)


def band_strategies(base, plays: IndexSet | None, insured: bool) -> list:
    """The base strategy with the chart plays of each band applied, insurance taken or not."""
    thr = bands(plays)
    out = []
    for j in range(thr.size + 1):
        s = dataclasses.replace(base, name=f"{base.name}@{j}", insurance=insured)
        lo = -np.inf if j == 0 else thr[j - 1]
        for q in plays.cells if plays is not None else ():
            s = dataclasses.replace(s, **_set_cell(s, q, q.at_or_above if lo >= q.index
                                                   else q.below))
        out.append(s)
    return out
