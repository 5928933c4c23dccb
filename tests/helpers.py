"""Test utilities: card tokens, stacked shoes, strategies from small tables, record views.

- ``cards("7h Kd As")`` -> int8 codes (``code = rank_index * 4 + suit``; ranks ``A23456789TJQK``
  (``10`` too), suits ``cdhs``). Uses ``simulator.cards.parse_cards`` when that module exists.
- ``deal(["7h Kd", "As Ts"], up="9c", hole=None, then="5c 6d")`` stacks one round in dealing
  order: first cards of every box, the up card, second cards, the hole card (peek game), then the
  cards drawn afterwards in order.
- ``make_strategy(hard={12: "S", (16, "10"): "Rh"}, pairs={"8": "P"}, ...)`` builds a `Strategy`
  from a base table plus overrides; ``basic_strategy()`` and ``random_strategy(rng)`` for the
  agreement test.
- ``box_view(record, i)`` / ``round_view(record)``: named fields of a per-round record.
- ``play_records(impl, cards, rules, strategies, cut)``: records of the reference game or kernel.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np

from simulator import layout as L
from simulator.strategy import Strategy

UP_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")
_TOKEN = re.compile(r"^(10|[A2-9TJQK])([CDHS])$", re.IGNORECASE)


# ---------------------------------------------------------------------------------------------
# Cards
def _parse_token(token: str) -> int:
    m = _TOKEN.match(token)
    if not m:
        raise ValueError(f"card token {token!r}: expected rank A 2-9 T 10 J Q K then suit c d h s")
    rank = m.group(1).upper()
    rank = "T" if rank == "10" else rank
    return L.RANKS.index(rank) * 4 + L.SUITS.index(m.group(2).lower())


def _own_parse_cards(text: str) -> np.ndarray:
    tokens = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        tokens.extend(t for t in re.split(r"[\s,]+", line) if t)
    return np.array([_parse_token(t) for t in tokens], dtype=np.int8)


try:  # the project's parser, when it exists
    from simulator.cards import parse_cards as _project_parse_cards
except ImportError:  # pragma: no cover - depends on the other module being written
    _project_parse_cards = None


def cards(text: str) -> np.ndarray:
    """Card tokens -> int8 codes: ``cards("7h Kd As")`` -> ``[26, 49, 3]``."""
    if _project_parse_cards is not None:
        return np.asarray(_project_parse_cards(text), dtype=np.int8)
    return _own_parse_cards(text)


def deal(boxes, up: str, hole: str | None = None, then: str = "") -> np.ndarray:
    """One round stacked in dealing order (docs/design.md step 1).

    ``boxes``: one two-card string per box (``"8c 8d"``); ``up``: the dealer's first card;
    ``hole``: the dealer's hole card (peek game only); ``then``: every later card in the order
    it is drawn (split hands' second cards, hits, doubles, the dealer's second and further cards).
    """
    pairs = [cards(b) for b in boxes]
    for p in pairs:
        assert len(p) == 2, "each box needs exactly two cards"
    seq = [p[0] for p in pairs] + [cards(up)[0]] + [p[1] for p in pairs]
    if hole:
        seq.append(cards(hole)[0])
    out = np.array(seq, dtype=np.int8)
    return np.concatenate([out, cards(then)]) if then.strip() else out


def shoe(*rounds) -> np.ndarray:
    """Concatenate stacked rounds (arrays or token strings) into one card sequence."""
    parts = [cards(r) if isinstance(r, str) else np.asarray(r, dtype=np.int8) for r in rounds]
    return np.concatenate(parts).astype(np.int8)


# ---------------------------------------------------------------------------------------------
# Strategies
def _up_col(label) -> int:
    label = str(label).upper()
    if label in ("A", "11", "1"):
        return 9
    if label in ("T", "J", "Q", "K"):
        return 8
    return UP_LABELS.index(label)


def _pair_row(label) -> int:
    label = str(label).upper()
    if label in ("A", "1", "11"):
        return 0
    if label in ("T", "10", "J", "Q", "K"):
        return 9
    return int(label) - 1


def _apply(table: np.ndarray, overrides, row_of) -> None:
    for key, action in (overrides or {}).items():
        code = L.ACTION_CODES[action]
        if isinstance(key, tuple):
            row, up = key
            table[row_of(row), _up_col(up)] = code
        else:
            table[row_of(key), :] = code


def make_strategy(
    hard=None,
    soft=None,
    pairs=None,
    sevens=None,
    insurance: bool = False,
    even_money: bool = False,
    name: str = "test",
) -> Strategy:
    """A strategy from the 'mimic the dealer' base plus overrides.

    Base: hit hard totals below 17, stand 17+; hit soft totals below 17, stand soft 17+; never
    split (pairs all ``N``); sevens row ``H`` (as hard 14). Overrides: ``{total: action}`` for a
    whole row, ``{(total, up): action}`` for one cell (up ``"2"``..``"10"`` or ``"A"``); pairs are
    keyed by the pair's rank (``"A"``, ``"2"``..``"9"``, ``"10"``/``"T"``); sevens by up card
    (``{"10": "S"}``) or ``"*"`` for the whole row.
    """
    hard_t = np.full((L.N_TOTALS, L.N_UP), L.H, dtype=np.int8)
    hard_t[17:, :] = L.S
    soft_t = np.full((L.N_TOTALS, L.N_UP), L.H, dtype=np.int8)
    soft_t[17:, :] = L.S
    pairs_t = np.full((L.N_PAIRS, L.N_UP), L.N, dtype=np.int8)
    sevens_t = np.full(L.N_UP, L.H, dtype=np.int8)
    _apply(hard_t, hard, int)
    _apply(soft_t, soft, int)
    _apply(pairs_t, pairs, _pair_row)
    for key, action in (sevens or {}).items():
        if key == "*":
            sevens_t[:] = L.ACTION_CODES[action]
        else:
            sevens_t[_up_col(key)] = L.ACTION_CODES[action]
    return Strategy(
        name=name,
        hard=hard_t,
        soft=soft_t,
        pairs=pairs_t,
        sevens=sevens_t,
        insurance=insurance,
        even_money=even_money,
    )


# A textbook multi-deck basic strategy (stand on soft 17), enough to exercise realistic play.
_BASIC_HARD = {  # rows 4..21; columns 2..10, A
    **{t: "H H H H H H H H H H" for t in range(4, 9)},
    9: "H D D D D H H H H H",
    10: "D D D D D D D D H H",
    11: "D D D D D D D D D H",
    12: "H H S S S H H H H H",
    **{t: "S S S S S H H H H H" for t in (13, 14)},
    15: "S S S S S H H H Rh Rh",
    16: "S S S S S H H Rh Rh Rh",
    **{t: "S S S S S S S S S S" for t in range(17, 22)},
}
_BASIC_SOFT = {  # rows 12..21
    12: "H H H D D H H H H H",
    13: "H H H D D H H H H H",
    14: "H H H D D H H H H H",
    15: "H H D D D H H H H H",
    16: "H H D D D H H H H H",
    17: "H D D D D H H H H H",
    18: "Ds Ds Ds Ds Ds S S H H H",
    19: "S S S S S S S S S S",
    20: "S S S S S S S S S S",
    21: "S S S S S S S S S S",
}
_BASIC_PAIRS = {  # rows A, 2..10
    "A": "P P P P P P P P P P",
    "2": "Pd Pd P P P P N N N N",
    "3": "Pd Pd P P P P N N N N",
    "4": "N N N Pd Pd N N N N N",
    "5": "N N N N N N N N N N",
    "6": "Pd P P P P N N N N N",
    "7": "P P P P P P N N N N",
    "8": "P P P P P P P P Rp Rp",
    "9": "P P P P P N P P N N",
    "10": "N N N N N N N N N N",
}


def basic_strategy(
    insurance: bool = False, even_money: bool = False, name: str = "basic-test"
) -> Strategy:
    """A textbook basic strategy (with surrender codes and ``Pd``), sevens row as hard 14."""
    hard_t = np.full((L.N_TOTALS, L.N_UP), L.H, dtype=np.int8)
    soft_t = np.full((L.N_TOTALS, L.N_UP), L.H, dtype=np.int8)
    pairs_t = np.full((L.N_PAIRS, L.N_UP), L.N, dtype=np.int8)
    for t, row in _BASIC_HARD.items():
        hard_t[t] = [L.ACTION_CODES[a] for a in row.split()]
    for t, row in _BASIC_SOFT.items():
        soft_t[t] = [L.ACTION_CODES[a] for a in row.split()]
    for p, row in _BASIC_PAIRS.items():
        pairs_t[_pair_row(p)] = [L.ACTION_CODES[a] for a in row.split()]
    sevens_t = hard_t[14].copy()
    sevens_t[:] = np.where(sevens_t == L.S, L.S, L.H)
    sevens_t[[0, 1, 2, 3, 4, 5]] = L.P  # split 7-7 against 2-7 (14.4 pays at once)
    return Strategy(
        name=name,
        hard=hard_t,
        soft=soft_t,
        pairs=pairs_t,
        sevens=sevens_t,
        insurance=insurance,
        even_money=even_money,
    )


def random_strategy(rng: np.random.Generator, name: str = "random") -> Strategy:
    """Random legal codes in every cell (and random insurance / even-money flags)."""
    hard_t = rng.choice(np.array(L.HARD_ACTIONS, dtype=np.int8), size=(L.N_TOTALS, L.N_UP))
    soft_t = rng.choice(np.array(L.HARD_ACTIONS, dtype=np.int8), size=(L.N_TOTALS, L.N_UP))
    pairs_t = rng.choice(np.array(L.PAIR_ACTIONS, dtype=np.int8), size=(L.N_PAIRS, L.N_UP))
    sevens_t = rng.choice(np.array(L.SEVENS_ACTIONS, dtype=np.int8), size=L.N_UP)
    return Strategy(
        name=name,
        hard=hard_t.astype(np.int8),
        soft=soft_t.astype(np.int8),
        pairs=pairs_t.astype(np.int8),
        sevens=sevens_t.astype(np.int8),
        insurance=bool(rng.integers(2)),
        even_money=bool(rng.integers(2)),
    )


# ---------------------------------------------------------------------------------------------
# Records
_BOX_FIELDS = (
    "main",
    "ins",
    "ss",
    "ss_line",
    "hands",
    "doubles",
    "busts",
    "bj",
    "even_money",
    "ins_taken",
    "surrenders",
    "wins",
    "losses",
    "pushes",
)
_ROUND_FIELDS = ("cards", "dealer_cards", "dealer_total", "dealer_bj")
assert len(_BOX_FIELDS) == L.R_BOX and len(_ROUND_FIELDS) == L.R_FIXED


def box_view(record, i: int) -> SimpleNamespace:
    """The B_* fields of box ``i`` (0-based) of one round's record, by name."""
    base = L.R_FIXED + L.R_BOX * i
    return SimpleNamespace(**{f: int(record[base + k]) for k, f in enumerate(_BOX_FIELDS)})


def round_view(record) -> SimpleNamespace:
    """The R_* fields of one round's record, by name."""
    return SimpleNamespace(**{f: int(record[k]) for k, f in enumerate(_ROUND_FIELDS)})


def describe_record(record) -> str:
    """A record as ``name=value`` text (for assertion messages)."""
    boxes = (len(record) - L.R_FIXED) // L.R_BOX
    parts = [" ".join(f"{k}={v}" for k, v in vars(round_view(record)).items())]
    for i in range(boxes):
        parts.append(
            f"box {i + 1}: " + " ".join(f"{k}={v}" for k, v in vars(box_view(record, i)).items())
        )
    return "\n    ".join(parts)


# ---------------------------------------------------------------------------------------------
# The two implementations
IMPLEMENTATIONS = ("reference", "kernel")


def play_records(impl: str, cards_, rules, strategies, cut=None) -> np.ndarray:
    """Per-round records (rounds, R_FIXED + boxes * R_BOX) from the reference game or the kernel.

    The kernel is imported here on purpose: if it is missing the kernel tests fail (not skip).
    """
    if isinstance(strategies, Strategy):
        strategies = [strategies] * rules.boxes
    cards_ = np.asarray(cards_, dtype=np.int8)
    if impl == "reference":
        from simulator import reference

        return reference.records(
            reference.play_stacked(cards_, rules, strategies, cut=cut), rules.boxes
        )
    if impl == "kernel":
        from simulator import kernel

        out = kernel.play_stacked(cards_, rules, list(strategies), cut=cut)
        return np.asarray(out, dtype=np.int64).reshape(-1, L.R_FIXED + L.R_BOX * rules.boxes)
    raise ValueError(impl)


def interrupt_after_first_chunk(monkeypatch, module, name: str) -> None:
    """Make ``module.name`` (a chunk generator, e.g. ``engine.iter_chunks``) yield its first
    chunk and then raise KeyboardInterrupt, as Ctrl-C during a run would."""
    real = getattr(module, name)

    def interrupted(*args, **kwargs):
        gen = real(*args, **kwargs)
        yield next(gen)
        gen.close()
        raise KeyboardInterrupt

    monkeypatch.setattr(module, name, interrupted)


def noting(x: str) -> str:
    """A task for `processes.map_spawned` (tests): a `processes.note` line naming ``x``."""
    from simulator import processes

    processes.note(f"bjsim: noted {x}")
    return x


def ctrl_c_reaches_the_caller(chunks) -> list:
    """Take ``chunks``' first item, check that while the generator is suspended at its yield
    SIGINT is the caller's (Python's default handler, set by the caller) and a Ctrl-C is raised
    in the caller at once, then take the rest; closes ``chunks``. Returns every item."""
    import os
    import signal
    import time

    import pytest

    try:
        got = [next(chunks)]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        began = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(2.0)
        assert time.monotonic() - began < 1.0  # (at once, in the caller)
        got += list(chunks)  # (the generator goes on)
    finally:
        chunks.close()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    return got


def random_value(rng: np.random.Generator, key):
    """A value of the rule key declared by ``key`` (`rules.Key`) drawn from what it allows: a
    new key is played at its other values by the tests that draw random rule sets."""
    if key.kind == "bool":
        return bool(rng.integers(2))
    if key.kind == "choice":
        return str(rng.choice(list(key.choices)))
    if key.kind == "int":
        return int(rng.integers(key.lo, key.hi + 1))
    if key.kind == "pays":
        return tuple(int(x) for x in rng.integers(key.lo, min(key.hi, 10_000) + 1, 5))
    if key.steps:  # (money in tenths and the like: a whole number of 1/steps)
        lo = int(np.ceil(key.lo * key.steps)) + (1 if key.lo_open else 0)
        return int(rng.integers(lo, int(key.hi * key.steps) + 1)) / key.steps
    return float(rng.uniform(key.lo, key.hi)) or float(key.hi)  # (lo itself: open or not)
