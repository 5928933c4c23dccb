"""Strategies as data: the file format, its loader and validation, and the int8 tables.

A strategy decides what the rules leave to the player: hit, stand, double, split, surrender
(rules 10, 11, 12.1), insurance (9), even money (8.3) and the 7-7 play with a Super Sevens bet up
(14.4). The tables are indexed as in `docs/design.md`; the file format is `docs/strategy-format.md`.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simulator import HOME
from simulator import layout as L
from simulator.rules import (
    STRATEGY_CHARTS,
    Rules,
    check_keys,
    checked_name,
    checked_text,
    closest_name,
    names_a_file,
    pays_text,
    read_text,
    refuse_empty,
    shipped_or_path,
    shown,
    toml_error_line,
)
from simulator.streams import inert


@dataclass(frozen=True, eq=False)
class Strategy:
    """A strategy as int8 tables (codes in `simulator.layout`).

    hard, soft : (22, 10) int8, row = total, column = up-card index (value - 2; ace = 9)
    pairs : (10, 10) int8, row = pair value - 1 (A = 0, ten-valued = 9)
    sevens : (10,) int8, the first decision on 7-7 with a Super Sevens bet up
    insurance, even_money : take insurance (9) / even money (8.3) when offered
    """

    name: str
    hard: np.ndarray
    soft: np.ndarray
    pairs: np.ndarray
    sevens: np.ndarray
    insurance: bool = False
    even_money: bool = False
    description: str = ""
    source: str = ""

    @property
    def flags(self) -> np.ndarray:
        return np.array([int(self.insurance), int(self.even_money)], dtype=np.int8)


def checked(s, name: str = "strategies", allowed: str = "load_strategy(NAME or FILE)'s"):
    """``s`` if it is a `Strategy` as a strategy file makes one (a strategy made in code checked
    as a file's): text for its name, description and source, True or False for insurance and
    even money, each chart an integer array of its shape holding only the actions it allows;
    else a `StrategyError` naming the argument ``name``, or the strategy and its field."""
    if not isinstance(s, Strategy):
        raise StrategyError(f"{name}: {s!r:.40} is not a Strategy: allowed {allowed}")
    where = f"strategy '{_q(s.name)}'"
    for field, kinds in FIELD_TYPES.items():  # (insurance = "no" had been taken as True)
        if not isinstance(getattr(s, field), kinds):
            raise StrategyError(f"{where}: field '{field}' = {getattr(s, field)!r:.40}: allowed "
                                + ("text" if kinds is str else "True or False"))
    for chart, actions in CHART_ACTIONS.items():
        table = getattr(s, chart)
        if (not isinstance(table, np.ndarray) or table.dtype.kind not in "iu"
                or table.shape != CHART_SHAPES[chart]):  # (1.5 had been played as a cell index)
            got = (f"has shape {table.shape} ({table.dtype})" if isinstance(table, np.ndarray)
                   else f"is a {type(table).__name__}")
            raise StrategyError(f"{where}: chart '{chart}' {got}: allowed an integer numpy "
                                f"array of shape {CHART_SHAPES[chart]} of action codes")
        bad = sorted(set(np.unique(table).tolist()) - set(actions))
        if bad:
            shown = ", ".join(L.ACTION_NAMES[c] if 0 <= c < len(L.ACTION_NAMES) else str(c)
                              for c in bad)
            raise StrategyError(f"{where}: chart '{chart}' holds {shown}: "
                                f"allowed {_names(actions)}")
    return s


def stack(strategies: list[Strategy]):
    """Stack per-box strategies on a leading box axis: (hard, soft, pairs, sevens, flags), int8;
    each one's charts checked as a strategy file's are (a Strategy made in code too)."""
    if not isinstance(strategies, (list, tuple)):  # (one Strategy had raised TypeError, and a
        # text was read letter by letter: the tables hold one a box, and no rules say how many)
        raise StrategyError(f"strategies: not a list ({type(strategies).__name__}): allowed a "
                            "list of Strategy, one a box ([s]; one for every box: "
                            "stack_for(rules, s))")
    if len(strategies) == 0:
        raise StrategyError("strategies: none given: allowed one or more, one a box")
    for s in strategies:
        checked(s)
    return (
        np.ascontiguousarray(np.stack([s.hard for s in strategies]).astype(np.int8)),
        np.ascontiguousarray(np.stack([s.soft for s in strategies]).astype(np.int8)),
        np.ascontiguousarray(np.stack([s.pairs for s in strategies]).astype(np.int8)),
        np.ascontiguousarray(np.stack([s.sevens for s in strategies]).astype(np.int8)),
        np.ascontiguousarray(np.stack([s.flags for s in strategies]).astype(np.int8)),
    )


def tables_hash(tables) -> str:
    """SHA-256 (hex) of stacked strategy tables (`stack`): shapes, dtypes and bytes."""
    h = hashlib.sha256()
    for a in tables:
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype.str}{a.shape};".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def charts_sha256(strategy: Strategy) -> str:
    """SHA-256 (hex) of ``strategy``'s charts as the engine plays them: `tables_hash` of its
    `stack` alone (hard, soft, pairs, sevens, insurance and even money), so the same charts
    give the same hash whatever the file's name, comments or layout, and a changed cell
    another. Every output's ``strategy_sha256``."""
    return tables_hash(stack([strategy]))


def stack_for(rules, strategies) -> tuple:
    """``stack`` of ``strategies`` (one Strategy, or one per box) for ``rules.boxes``."""
    strategies = list(strategies) if isinstance(strategies, (list, tuple)) else [strategies]
    if len(strategies) == 1:
        strategies = strategies * rules.boxes
    if len(strategies) != rules.boxes:
        raise ValueError(f"strategies: {len(strategies)} given for boxes = {rules.boxes}: "
                         "give one, or one per box")  # fmt: skip
    return stack(strategies)


# ---------------------------------------------------------------------------------------------
# The file format (docs/strategy-format.md)

STRATEGY_DIR = HOME / "strategies"

COLUMNS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")  # up-card index 0..9
HARD_ROWS = range(4, 21)  # rows a file must give; 21 always stands (rule 12.1 (a))
SOFT_ROWS = range(12, 21)
PAIR_LABELS = ("A,A", "2,2", "3,3", "4,4", "5,5", "6,6", "7,7", "8,8", "9,9", "10,10")
SEVENS_LABEL = "7,7"
# Cells the file never gives: totals that cannot be played (hard below 4, soft below 12) draw,
# and 21 stands (rule 12.1 (a): no card may be drawn on 21).
FILL_LOW = L.H
FILL_21 = L.S

CHARTS = STRATEGY_CHARTS  # (declared with the rule keys: each kind of file tells the other)
CHART_ACTIONS = {
    "hard": L.HARD_ACTIONS,
    "soft": L.HARD_ACTIONS,
    "pairs": L.PAIR_ACTIONS,
    "sevens": L.SEVENS_ACTIONS,
}
CHART_SHAPES = {"hard": (L.N_TOTALS, L.N_UP), "soft": (L.N_TOTALS, L.N_UP),
                "pairs": (L.N_PAIRS, L.N_UP), "sevens": (L.N_UP,)}
FIELD_TYPES = {"name": str, "description": str, "source": str,
               "insurance": (bool, np.bool_), "even_money": (bool, np.bool_)}
FILE_KEYS = ("name", "description", "source", "insurance", "even_money") + CHARTS
REQUIRED_KEYS = ("insurance", "even_money") + CHARTS
_CODE_OF = {name.lower(): code for name, code in L.ACTION_CODES.items()}


class StrategyError(ValueError):
    """A strategy file that cannot be used: one line naming the file, chart, row and column."""


def _q(text, limit: int = 80) -> str:
    """Text made safe for a one-line message (control characters escaped, at most ``limit``
    characters shown)."""
    text = str(text)
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[:limit])
    return shown + ("..." if len(text) > limit else "")


def _names(codes) -> str:
    return ", ".join(L.ACTION_NAMES[c] for c in codes)


def _soft_total_of(label: str) -> str | None:
    """The soft total of a row written as an ace and a card (``A,2``: ``13``, ``A,A``: ``12``,
    ``A,2-A,5``: ``13-16``), or None."""
    card = r"[Aa][,+/]?\s*(10|[1-9AaTtJjQqKk])"
    m = re.fullmatch(rf"{card}(?:-{card})?", label.strip())
    if not m:
        return None
    totals = [11 + (1 if c in "Aa" else 10 if c in "TtJjQqKk" else int(c))
              for c in m.groups() if c]
    return "-".join(map(str, totals))


def _parse_total_label(label: str, chart: str, lo: int, src: str) -> list[int]:
    """Row totals of a hard or soft row label: ``"16"`` or a range ``"4-8"``."""
    m = re.fullmatch(r"(\d+)(?:-(\d+))?", label)
    if not m:
        soft = _soft_total_of(label) if chart == "soft" else None
        hint = f" (write soft rows by total: {_q(label)} is soft {soft})" if soft else ""
        raise StrategyError(
            f"{src}: chart '{chart}', row '{_q(label)}': not a row: allowed a total {lo}-21 "
            f"or a range such as {lo}-{lo + 4}{hint}"
        )
    first = int(m.group(1))
    last = int(m.group(2)) if m.group(2) else first
    if not (lo <= first <= 21 and lo <= last <= 21):
        raise StrategyError(
            f"{src}: chart '{chart}', row '{label}': out of range: allowed totals {lo}-21 "
            "(ranges low-high)"
        )
    if first > last:
        raise StrategyError(
            f"{src}: chart '{chart}', row '{label}': a reversed range: allowed low-high "
            f"({last}-{first})"
        )
    return list(range(first, last + 1))


def _pair_index(label: str, chart: str, src: str) -> int:
    a, sep, b = label.upper().replace("T", "10").partition(",")
    names = [p.upper() for p in PAIR_LABELS]
    key = f"{a},{b}"
    if not sep or a != b or key not in names:
        allowed = SEVENS_LABEL if chart == "sevens" else " ".join(PAIR_LABELS)
        raise StrategyError(
            f"{src}: chart '{chart}', row '{_q(label)}': not a pair row: allowed {allowed}"
        )
    return names.index(key)


def _parse_chart(text, chart: str, src: str) -> dict:
    """Parse one chart string into {row key: [10 codes]}; row keys are totals or pair indices."""
    if not isinstance(text, str):
        raise StrategyError(
            f"{src}: key '{chart}' = {shown(text)} is not a string: allowed a multi-line "
            f"string chart: a header line '{' '.join(COLUMNS)}' then one row per line"
        )
    allowed = CHART_ACTIONS[chart]
    rows: dict = {}
    header_seen = False
    for line in text.splitlines():
        line = line.split("#", 1)[0].replace("|", " ")
        tokens = line.split()
        if not tokens:
            continue
        if not header_seen:
            cols = [t.upper().replace("T", "10") for t in tokens]
            if cols and cols[0] not in COLUMNS:  # an optional label such as "hard" or "dealer"
                cols = cols[1:]
            if tuple(cols) != COLUMNS:
                raise StrategyError(
                    f"{src}: chart '{chart}': the first line must name the dealer's up cards "
                    f"'{' '.join(COLUMNS)}', not '{_q(line.strip())}'"
                )
            header_seen = True
            continue
        # a label spaced round its - or , ("13 - 16", "A, A") read as written without them
        tokens = re.sub(r"^(\s*\S+?)\s*([-,])\s*", r"\1\2", line).split()
        label, cells = tokens[0], tokens[1:]
        if chart in ("hard", "soft"):
            keys = _parse_total_label(label, chart, 4 if chart == "hard" else 12, src)
        else:
            keys = [_pair_index(label, chart, src)]
            if chart == "sevens" and keys[0] != PAIR_LABELS.index(SEVENS_LABEL):
                raise StrategyError(
                    f"{src}: chart 'sevens', row '{_q(label)}': not the sevens row: allowed 7,7"
                )
        if len(cells) != len(COLUMNS):  # (which cell is missing or extra cannot be told)
            raise StrategyError(
                f"{src}: chart '{chart}', row {label}: {len(cells)} cells, needs {len(COLUMNS)}: "
                f"one action for each dealer up card {' '.join(COLUMNS)}"
            )
        codes = []
        for col, cell in zip(COLUMNS, cells, strict=True):
            code = _CODE_OF.get(cell.lower())
            where = f"{src}: chart '{chart}', row {label}, column {col}"
            if code is None:
                raise StrategyError(
                    f"{where}: unknown action '{_q(cell)}': allowed {_names(allowed)}"
                )
            if code not in allowed:
                raise StrategyError(
                    f"{where}: action '{L.ACTION_NAMES[code]}' is not allowed in the {chart} "
                    f"chart: allowed {_names(allowed)}"
                )
            codes.append(code)
        for key in keys:
            if key in rows:
                label = PAIR_LABELS[key] if chart in ("pairs", "sevens") else key
                raise StrategyError(f"{src}: chart '{chart}', row {label}: given twice")
            rows[key] = codes
    if not header_seen:
        raise StrategyError(
            f"{src}: chart '{chart}' is empty: needs a header line '{' '.join(COLUMNS)}' and "
            "its rows"
        )
    return rows


def _total_table(rows: dict, chart: str, needed: range, src: str) -> np.ndarray:
    missing = [t for t in needed if t not in rows]
    if missing:
        raise StrategyError(
            f"{src}: chart '{chart}': missing row{'s' if len(missing) > 1 else ''} "
            f"{', '.join(map(str, missing))}: needs every total {needed[0]}-{needed[-1]}"
        )
    if 21 in rows and any(c != FILL_21 for c in rows[21]):
        raise StrategyError(
            f"{src}: chart '{chart}', row 21: 21 always stands (rule 12.1 (a)): allowed S only"
        )
    table = np.full((L.N_TOTALS, L.N_UP), FILL_LOW, dtype=np.int8)
    for total, codes in rows.items():
        table[total] = codes
    table[21] = FILL_21
    return table


def _check_text(data: dict, key: str, src: str, default: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise StrategyError(f"{src}: key '{key}' = {shown(value)} is not a string: allowed "
                            "a string")
    return checked_text(value, src, key, StrategyError)


def strategy_from_dict(data: dict, source: str = "<strategy>", name: str = "") -> Strategy:
    """Build a `Strategy` from a parsed strategy file (a dict as read by tomllib)."""
    src = source
    check_keys(data, FILE_KEYS, src, StrategyError, "strategy", limit=80)
    table = next((k for k in data if k in CHARTS and isinstance(data[k], dict)), None)
    if table:  # ([hard] takes every key after it: they would be named as missing)
        took = f": [{table}] took the keys after it ({', '.join(map(_q, data[table]))})" \
            if data[table] else ""
        raise StrategyError(
            f"{src}: key '{table}' must be a multi-line string chart, not a table{took}: "
            f"allowed {table} = \"\"\" then a header line '{' '.join(COLUMNS)}' and one row per "
            "line"
        )
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        raise StrategyError(
            f"{src}: missing key{'s' if len(missing) > 1 else ''} {', '.join(missing)}: a "
            f"strategy needs {', '.join(REQUIRED_KEYS)}"
        )
    for key in ("insurance", "even_money"):
        if not isinstance(data[key], bool):
            shown = repr(data[key]).replace("'", '"') if isinstance(data[key], str) else data[key]
            raise StrategyError(f"{src}: key '{key}' = {shown} is not true or false: allowed "
                                "true or false (TOML booleans, unquoted)")
    hard = _total_table(_parse_chart(data["hard"], "hard", src), "hard", HARD_ROWS, src)
    soft = _total_table(_parse_chart(data["soft"], "soft", src), "soft", SOFT_ROWS, src)
    pair_rows = _parse_chart(data["pairs"], "pairs", src)
    missing = [PAIR_LABELS[i] for i in range(L.N_PAIRS) if i not in pair_rows]
    if missing:
        raise StrategyError(
            f"{src}: chart 'pairs': missing row{'s' if len(missing) > 1 else ''} "
            f"{', '.join(missing)}: needs {' '.join(PAIR_LABELS)}"
        )
    pairs = np.array([pair_rows[i] for i in range(L.N_PAIRS)], dtype=np.int8)
    sevens_rows = _parse_chart(data["sevens"], "sevens", src)
    if not sevens_rows:
        raise StrategyError(f"{src}: chart 'sevens': missing row 7,7")
    sevens = np.array(next(iter(sevens_rows.values())), dtype=np.int8)
    return Strategy(
        name=checked_name(data["name"], src, "name", StrategyError) if "name" in data else name,
        hard=hard,
        soft=soft,
        pairs=pairs,
        sevens=sevens,
        insurance=data["insurance"],
        even_money=data["even_money"],
        description=_check_text(data, "description", src, ""),
        source=_check_text(data, "source", src, ""),
    )


def loads_strategy(text: str, source: str = "<strategy>", name: str = "") -> Strategy:
    """Parse strategy file text (see `load_strategy`); ``name`` is used if the file has none."""
    try:
        data = tomllib.loads(text)
        return strategy_from_dict(data, source, name)
    except tomllib.TOMLDecodeError as err:
        raise StrategyError(f"{source}: {toml_error_line(err, text)}") from None
    except RecursionError:
        raise StrategyError(f"{source}: nested too deeply to be a strategy file") from None


def list_strategies() -> list[str]:
    """Names of the shipped strategies (the files in ``strategies/``), sorted."""
    return sorted(p.stem for p in STRATEGY_DIR.glob("*.toml"))


def looks_like_path(name_or_path, folder=".") -> bool:
    """Is ``name_or_path`` a file's path, not a shipped name: a Path, a separator, ``.toml``, or
    a file in ``folder`` of any other name that no shipped strategy has (``mine.txt``)?"""
    return names_a_file(name_or_path, list_strategies(), folder)


def strategy_path(name_or_path) -> Path:
    """The file of a shipped strategy name, or the given path."""
    refuse_empty(name_or_path, "strategy", StrategyError)
    text = str(name_or_path)
    if looks_like_path(name_or_path):
        return Path(name_or_path)
    path = STRATEGY_DIR / f"{text}.toml"
    if not path.is_file():
        shipped = list_strategies()
        raise StrategyError(
            f"unknown strategy '{_q(text)}': {closest_name(text, shipped)}allowed a shipped "
            f"strategy ({', '.join(shipped)}) or the path of a strategy file"
        )
    return path


def shown_names(given, strategies) -> tuple[list[str], dict[str, str]]:
    """The names every output shows ``strategies`` by, one for each of ``given`` (a shipped name
    or a file's path, as the user gave it), and the files behind them (``{name: path}``, for the
    metadata, where a reader finds them).

    A shipped strategy is shown by its name; a file by its own ``name`` (its file name where it
    gives none), as a shipped one is, but by its path where that name is a shipped strategy's
    (an edited copy of basic says ``name = "basic"``) or another file's of ``given``: one name,
    one chart in every table."""
    names, files, owner = [], {}, {}
    for g, s in zip(given, strategies, strict=True):
        g = str(g)
        path = strategy_path(g).resolve()
        shipped = path == (STRATEGY_DIR / f"{s.name}.toml").resolve()
        name = s.name if looks_like_path(g) else g
        if looks_like_path(g) and not shipped and (
                not name or name in list_strategies() or owner.get(name, path) != path):
            name = g
        owner.setdefault(name, path)
        if name != g and not shipped:
            files[name] = g
        names.append(name)
    return names, files


def load_strategy(name_or_path) -> Strategy:
    """A strategy by shipped name (``basic``, ``mimic-dealer``, ...) or from a TOML file.

    Raises
    ------
    StrategyError
        One line naming the file, and the chart, row and column at fault: a missing file,
        malformed TOML, an unknown key, a missing chart, row or cell, an unknown action code or
        one not allowed in that chart.
    """
    path = strategy_path(name_or_path)
    shown = str(name_or_path) if looks_like_path(name_or_path) else str(path)  # (./x as typed)
    text = read_text(path, "strategy", StrategyError, source=shown,
                     allowed=shipped_or_path("strategy", list_strategies(), toml=False,
                                             given=path))
    return loads_strategy(text, shown, name=inert(path.stem))  # (a file name: shown as text)


# ---------------------------------------------------------------------------------------------
# Writing a strategy back as a file


def _toml_string(text: str) -> str:
    """A TOML string holding exactly ``text``: multi-line literal where possible, else basic."""
    if (
        "\n" in text
        and "'''" not in text
        and not text.endswith("'")
        and all(c in "\n\t" or c.isprintable() for c in text)
    ):
        return "'''\n" + text + "'''"
    return json.dumps(text, ensure_ascii=False)


def _row_line(label: str, codes) -> str:
    return f"{label:<7}" + "".join(f"{L.ACTION_NAMES[c]:<4}" for c in codes).rstrip()


def _header() -> str:
    return " " * 7 + "".join(f"{c:<4}" for c in COLUMNS).rstrip()


def _dump_totals(table: np.ndarray, rows: range) -> str:
    lines = [_header()]
    start = rows[0]
    for t in range(rows[0], rows[-1] + 2):
        if t > rows[-1] or not np.array_equal(table[t], table[start]):
            label = str(start) if t - 1 == start else f"{start}-{t - 1}"
            lines.append(_row_line(label, table[start]))
            start = t
    return "\n".join(lines)


def _check_tables(s: Strategy) -> None:
    """Raise StrategyError if the tables hold something the file format cannot say."""
    for chart, shape in CHART_SHAPES.items():
        table = np.asarray(getattr(s, chart))
        if table.shape != shape:
            raise StrategyError(f"strategy '{s.name}': table '{chart}' has shape {table.shape}, "
                                f"not {shape}")
        bad = ~np.isin(table, CHART_ACTIONS[chart])
        if bad.any():
            raise StrategyError(f"strategy '{s.name}': table '{chart}' holds codes not allowed "
                                f"there: allowed {_names(CHART_ACTIONS[chart])}")
    for chart, low in (("hard", HARD_ROWS[0]), ("soft", SOFT_ROWS[0])):
        table = np.asarray(getattr(s, chart))
        if (table[:low] != FILL_LOW).any() or (table[21] != FILL_21).any():
            raise StrategyError(f"strategy '{s.name}': table '{chart}' rows below {low} must be H "
                                "and row 21 S")


def dumps_strategy(strategy: Strategy) -> str:
    """The strategy as file text; `loads_strategy` of it gives equal tables and fields
    (`strategies_equal`; not ``==``, which is identity for a Strategy).

    Consecutive equal hard or soft rows are written as one range row (``13-16``).
    """
    checked(strategy, "strategy")  # (a name such as 'basic' had raised AttributeError)
    _check_tables(strategy)
    s = strategy
    pairs = "\n".join([_header()] + [_row_line(PAIR_LABELS[i], s.pairs[i])
                                     for i in range(L.N_PAIRS)])
    sevens = "\n".join([_header(), _row_line(SEVENS_LABEL, s.sevens)])
    parts = [
        f"name = {_toml_string(s.name)}",
        f"description = {_toml_string(s.description)}",
        f"source = {_toml_string(s.source)}",
        f"insurance = {'true' if s.insurance else 'false'}",
        f"even_money = {'true' if s.even_money else 'false'}",
        "",
        "# Hard totals; 21 always stands.",
        f'hard = """\n{_dump_totals(np.asarray(s.hard), HARD_ROWS)}\n"""',
        "",
        "# Soft totals (an ace counted 11): 13 = A,2 ... 20 = A,9; 21 always stands.",
        f'soft = """\n{_dump_totals(np.asarray(s.soft), SOFT_ROWS)}\n"""',
        "",
        "# Pairs: P split, N play the total, Pd split if double after split, Rp surrender.",
        f'pairs = """\n{pairs}\n"""',
        "",
        "# The first decision on 7,7 with a Super Sevens bet up.",
        f'sevens = """\n{sevens}\n"""',
    ]
    return "\n".join(parts) + "\n"


def strategies_equal(a: Strategy, b: Strategy) -> bool:
    """True if two strategies have the same name, texts, flags and tables."""
    return (
        (a.name, a.description, a.source, a.insurance, a.even_money)
        == (b.name, b.description, b.source, b.insurance, b.even_money)
        and all(np.array_equal(getattr(a, t), getattr(b, t)) for t in CHARTS)
    )


SEVENS_BEST = re.compile(r"Sevens row: best 7,7 play for the main wager plus a Super Sevens bet "
                         r"of ([\d.]+) times it(?: \(pays ([\d.e+/]+)\))?(\.?)$")


def sevens_row_for(sentence: str, rules) -> str:
    """A generated chart's "Sevens row: best 7,7 play ... a Super Sevens bet of B times it" (pays
    not named: the NZ pays), saying for which bet and pays it is best where this table's differ
    (a review: `basic-super-sevens`, derived for the NZ pays, read as best for pays whose third
    seven pays less, where hitting cost the player 18 pp)."""
    m = SEVENS_BEST.match(sentence)
    if m is None:
        return sentence
    pays = pays_text(rules.super_sevens_pays)
    bet, of = float(m[1]), m[2] or pays_text(Rules().super_sevens_pays)  # (none named: NZ)
    if bet == rules.super_sevens_bet and of == pays:
        return sentence
    return (f"Sevens row: best 7,7 play for the main wager plus a Super Sevens bet of {bet:g} "
            f"times it paying {of}, not for this table's bet of {rules.super_sevens_bet:g} "
            f"paying {pays}{m[3]}")
