"""Card counting: count systems as data (``strategies/counts/*.toml``), the true count, the
advantage-player figures (SCORE, N0, risk of ruin), and the pieces of the optimal (Kelly) bet by
count: the advantage made non-decreasing (`isotonic`), the Kelly bet, and the bet played.

A count system tags each card value A, 2, ..., 9, T (every ten-valued card alike); the running
count is the sum of the tags of the cards seen, from ``irc_constant + irc_per_deck * decks``
(zero for a balanced count). The true count is the running count per deck remaining, with the
decks remaining estimated exactly, to the half deck or to the whole deck. docs/counting.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simulator import HOME
from simulator.rules import (
    _fmt,
    check_keys,
    checked_name,
    checked_text,
    file_named,
    read_toml,
    shipped_or_path,
    shown,
)
from simulator.streams import inert

COUNT_DIR = HOME / "strategies" / "counts"
RESOLUTIONS = {"exact": 0.0, "half": 0.5, "whole": 1.0}  # deck-estimation step, in decks
KEYS = ("name", "description", "source", "tags", "irc_per_deck", "irc_constant")
MAX_TAG = 100


class CountError(ValueError):
    """A count system that cannot be used: one line naming the file, the key and what is allowed."""


@dataclass(frozen=True)
class CountSystem:
    """Tags by card value (index 0 = ace ... 9 = ten-valued) and the initial running count."""

    name: str
    tags: tuple[int, ...]
    description: str = ""
    source: str = ""
    irc_per_deck: int = 0
    irc_constant: int = 0

    @property
    def per_deck(self) -> int:
        """The sum of the tags of one 52-card deck (0 for a balanced count)."""
        return 4 * sum(self.tags[:9]) + 16 * self.tags[9]

    @property
    def balanced(self) -> bool:
        return self.per_deck == 0

    def initial_running_count(self, decks: int) -> int:
        return self.irc_constant + self.irc_per_deck * decks


def count_from_dict(data: dict, source: str = "<count>", name: str = "") -> CountSystem:
    """Build and check a count system from a TOML-like dict."""
    if not isinstance(data, dict):
        raise CountError(f"{source}: a count system must be a table of keys")
    check_keys(data, KEYS, source, CountError, "count")
    tags = data.get("tags")
    if tags is None:
        raise CountError(f"{source}: key 'tags' is missing: allowed a list of 10 integers, the "
                         "tags of A 2 3 4 5 6 7 8 9 T")
    if (not isinstance(tags, list) or len(tags) != 10
            or not all(isinstance(t, int) and not isinstance(t, bool) for t in tags)):
        raise CountError(f"{source}: key 'tags' = {shown(tags, 60)} is not a list of 10 "
                         "integers: allowed the tags of A 2 3 4 5 6 7 8 9 T, e.g. [-1, 1, 1, 1, "
                         "1, 1, 0, 0, 0, -1]")
    if any(abs(t) > MAX_TAG for t in tags) or not any(tags):
        raise CountError(f"{source}: key 'tags' = {_fmt(tags)}: allowed integers -{MAX_TAG} to "
                         f"{MAX_TAG}, not all zero")
    out = {}
    for key in ("name", "description", "source"):
        value = data.get(key, name if key == "name" else "")
        if key == "name" and "name" in data:
            checked_name(value, source, "name", CountError)
        if not isinstance(value, str):
            raise CountError(f"{source}: key '{key}' = {shown(value)} is not a string: allowed "
                             "a string")
        out[key] = checked_text(value, source, key, CountError)
    for key in ("irc_per_deck", "irc_constant"):
        value = data.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10_000:
            why = "is out of range" if isinstance(value, int) and not isinstance(
                value, bool) else "is not an integer"
            raise CountError(f"{source}: key '{key}' = {shown(value)} {why}: allowed an "
                             "integer -10000 to 10000")
        out[key] = value
    count = CountSystem(tags=tuple(tags), **out)
    if not count.balanced and "irc_per_deck" not in data and "irc_constant" not in data:
        raise CountError(f"{source}: an unbalanced count (its tags sum to {count.per_deck:+d} a "
                         "deck) needs its initial running count: irc_per_deck, irc_constant or "
                         "both (KO: -4 and 4, so that it starts at 4 - 4 x decks; 0 to start at "
                         "0)")
    starts = [f"{k} = {out[k]}" for k in ("irc_per_deck", "irc_constant") if out[k]]
    if count.balanced and starts:  # (a balanced count starts at 0: this shifts every true count)
        raise CountError(f"{source}: " + " and ".join(starts) + ": a balanced count (its tags "
                         "sum to 0 a deck) starts at 0: allowed 0 or left out (irc_per_deck "
                         "and irc_constant are for an unbalanced count)")
    return count


def _not_passing_for_a_shipped_count(count: CountSystem, source: str, named: bool) -> None:
    """A count file named as a shipped count (by its ``name``, or by its file name where it has
    none: ``named`` False) must be that count: index plays and reports know a count by its name."""
    shipped = load_count(count.name)
    differ = [(key, getattr(count, key), getattr(shipped, key))
              for key in ("tags", "irc_per_deck", "irc_constant")
              if getattr(count, key) != getattr(shipped, key)]
    if differ:
        key, mine, theirs = differ[0]
        raise CountError(f"{source}: name = {_fmt(count.name)}"
                         + ("" if named else " (the file's name: it has no 'name' key)")
                         + f" names the shipped count {count.name}, but its {key} = "
                         f"{_fmt(mine)} {'are' if key == 'tags' else 'is'} not "
                         f"{count.name}'s {_fmt(theirs)}: allowed another name for another "
                         "count (index plays and reports know a count by its name)")


def list_counts() -> list[str]:
    """Names of the shipped count systems, sorted."""
    return sorted(p.stem for p in COUNT_DIR.glob("*.toml"))


def count_path(name_or_path) -> Path:
    """The file of a shipped count system's name, or the given path (`rules.names_a_file`)."""
    return file_named(name_or_path, "count", list_counts(), COUNT_DIR, CountError, "count system")


def load_count(name_or_path) -> CountSystem:
    """A count system by shipped name (``hi-lo``, ``ko``, ``sevens``, ...) or from a TOML file
    (of any name: `rules.names_a_file`)."""
    path = count_path(name_or_path)
    allowed = shipped_or_path("count", list_counts(), what="count system", toml=False,
                              given=path)
    data = read_toml(path, "count", CountError, allowed=allowed)
    count = count_from_dict(data, str(path), name=inert(path.stem))
    if count.name in list_counts() and path.resolve() != (COUNT_DIR / f"{count.name}.toml"
                                                          ).resolve():
        _not_passing_for_a_shipped_count(count, str(path), isinstance(data.get("name"), str))
    return count


def decks_remaining(cards_left: int, resolution: str = "exact") -> float:
    """The decks remaining as a counter estimates them: exactly (cards / 52), or rounded to the
    nearest half or whole deck (never below one step)."""
    step = RESOLUTIONS[resolution]
    exact = cards_left / 52
    if step == 0.0:
        return exact
    return max(step, round(exact / step) * step)


def true_count(running: int, cards_left: int, resolution: str = "exact") -> float:
    """The running count per deck remaining (`decks_remaining`)."""
    return running / decks_remaining(cards_left, resolution)


def start_counts(count: CountSystem, resolution: str, decks: int, starts: int) -> tuple:
    """The lowest and highest count a round can start at (the true count for a balanced count,
    else the running count): in a shoe of ``decks`` decks whose rounds start with 0 to
    ``starts - 1`` cards dealt (``rules.cut``; 1 for a shuffle every round), the decks left
    estimated to ``resolution`` as the engine estimates them (`kernel.count.Counter`)."""
    tags = np.sort(np.repeat(np.array(count.tags), [4 * decks] * 9 + [16 * decks]))
    seen = np.arange(starts)  # the cards dealt: the lowest and highest tags of so many
    low = count.initial_running_count(decks) + np.concatenate([[0], np.cumsum(tags)])[seen]
    high = count.initial_running_count(decks) + np.concatenate([[0], np.cumsum(tags[::-1])])[seen]
    if not count.balanced:
        return int(low.min()), int(high.max())
    left, step = 52 * decks - seen, 52 * RESOLUTIONS[resolution]
    cards = left if step == 0 else np.maximum(step, np.rint(left / step) * step)
    return float((low * 52.0 / cards).min()), float((high * 52.0 / cards).max())


# ---------------------------------------------------------------------------------------------
# Advantage-player figures, from the mean and SD of the net result per round (in units)


def score(mean: float, sd: float) -> float | None:
    """SCORE: the expected win per 100 rounds, in units, of these bets scaled to a bankroll of
    10,000 units as Kelly scales them (times ``10**4 * mean / sd**2``): ``10**6 * (mean /
    sd)**2`` (Schlesinger's SCORE is that of the optimal bets, the highest any ramp has); None
    without an edge, where it does not apply (the square would read a loss as a win; Kelly bets
    nothing), as `n0`."""
    return 1e6 * (mean / sd) ** 2 if mean > 0 and sd > 0 else None


def n0(mean: float, sd: float) -> float | None:
    """N0 (Schlesinger): rounds until the expected win equals one SD of the result,
    ``(sd / mean)**2``; None without an edge."""
    return (sd / mean) ** 2 if mean > 0 and sd > 0 else None


def risk_of_ruin(mean: float, sd: float, bankroll: float) -> float:
    """Chance of ever losing ``bankroll`` units, playing on forever (the diffusion
    approximation): ``exp(-2 mean bankroll / sd**2)``; 1 without an edge."""
    if mean <= 0:
        return 1.0
    return math.exp(-2.0 * mean * bankroll / sd**2)


def net_values() -> np.ndarray:
    """The net per round (units) that each bin of a counter's nets (``layout.N_NETS``,
    `layout.net_bin`) stands for: its own net below ``NET_EXACT`` tenths either way, else
    the middle of its bin (within 0.4% of every net in it)."""
    from simulator import layout as L

    exact = np.arange(1 - L.NET_EXACT, L.NET_EXACT, dtype=np.float64)
    k = np.arange(L.NET_STEPS * L.NET_OCTAVES)
    width = L.NET_EXACT / L.NET_STEPS
    middle = (L.NET_EXACT + (k % L.NET_STEPS + 0.5) * width) * 2.0 ** (k // L.NET_STEPS)
    return np.concatenate([exact, np.stack([middle, -middle], axis=1).reshape(-1)]) / L.UNIT


def adjustment(nets, mean: float | None = None) -> float | None:
    """Lundberg's adjustment coefficient of rounds whose nets (units) are distributed as the
    counts ``nets`` (by bin, `net_values`), all moved alike to the ``mean`` given (the tally's,
    exact where the bins are not; a mean at an end of its interval): the ``R > 0`` at which the
    mean of ``exp(-R x)`` over the rounds is 1, so that ``exp(-R B)`` is the chance of ever
    losing ``B`` units, the rounds independent (for normal rounds ``R = 2 m / s^2``, the
    diffusion formula's). 0 without an edge (ruin certain), ``inf`` where no round loses; None
    without a round."""
    counts = np.asarray(nets, dtype=np.float64)
    at = np.flatnonzero(counts)
    if at.size == 0:
        return None
    x, p = net_values()[at], counts[at] / counts[at].sum()
    x = x if mean is None else x + (mean - float(p @ x))
    mean = float(p @ x)
    if mean <= 0:
        return 0.0
    if x.min() >= 0:
        return math.inf

    def above(r):  # the mean of exp(-r x) above 1 (convex in r: below 1 from 0 to R, then above)
        with np.errstate(over="ignore"):
            return float(p @ np.expm1(-r * x)) > 0

    high = 2 * mean / float(p @ (x - mean) ** 2)  # (the normal rounds' R)
    while not above(high):
        high *= 2
    low = 0.0
    for _ in range(200):  # bisection, to the last bits of a float
        middle = (low + high) / 2
        if not low < middle < high:
            break
        low, high = (low, middle) if above(middle) else (middle, high)
    return low


# ---------------------------------------------------------------------------------------------
# Optimal (Kelly) bets by count, from the advantage and variance at each count (docs/counting.md,
# "Optimal bets")


def isotonic(values, weights) -> np.ndarray:
    """The non-decreasing sequence nearest ``values`` in weighted least squares (``weights`` > 0):
    pool adjacent violators, each pool the weighted mean of the values it holds."""
    x = np.asarray(values, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    if x.shape != w.shape or x.ndim != 1 or (w <= 0).any():
        raise ValueError("isotonic: values and weights of one length, weights above 0")
    means, sizes, spans = [], [], []  # the pools: weighted mean, total weight, values held
    for v, u in zip(x, w, strict=True):
        means.append(float(v))
        sizes.append(float(u))
        spans.append(1)
        while len(means) > 1 and means[-2] > means[-1]:  # pool the last two
            m, s, n = means.pop(), sizes.pop(), spans.pop()
            total = sizes[-1] + s
            means[-1] = (means[-1] * sizes[-1] + m * s) / total
            sizes[-1], spans[-1] = total, spans[-1] + n
    return np.repeat(means, spans)


def kelly_bet(bankroll: float, fraction: float, mean: float, variance) -> float | None:
    """The Kelly bet in units, ``bankroll x fraction x mean / variance`` (``mean`` and
    ``variance`` of a round's net at one unit): the bet that maximises the bankroll's growth
    (``fraction`` of it: 0.5 for half Kelly); None without an edge or a variance."""
    if mean is None or mean <= 0 or not variance:
        return None
    return bankroll * fraction * mean / variance


def bet_to_play(kelly: float | None, table_min: int, table_max: int) -> int:
    """A Kelly bet (`kelly_bet`) as a bet a counter makes: a whole number of units (halves up),
    within ``table_min..table_max``; ``table_min`` where there is none (no edge)."""
    if kelly is None:
        return table_min
    return min(max(math.floor(kelly + 0.5), table_min), table_max)
