"""``bjsim compare``: what a rule or a playing choice is worth, by common random numbers.

A comparison plays a baseline (``games[0]``) and its variants on the same random numbers: block
``j`` of chunk ``i`` of every game starts from the same xoshiro256** state (`block_states`), and
the paired statistics come from the blocks (`paired`). Method and formulas: docs/compare.md,
"Pairing (common random numbers)" and "Statistics".
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import itertools
import math
import operator
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from simulator import __version__, derived, engine, run, source, stops, tally
from simulator import layout as L
from simulator.checkpoint import CODE, check_past_prefix, tally_problem
from simulator.chunks import chunk_size
from simulator.kernel import machine_for, simulate_blocks
from simulator.kernel.tables import Builder, first_boxes
from simulator.rules import KEYS, modified_name, no_effect, plural, rules_dict
from simulator.strategy import Strategy, load_strategy, shown_names, tables_hash

DEFAULT_PAIR_ROUNDS = None  # one shoe of the comparison's games: `default_pair_rounds`
PAIR_STEP = 16  # a default block is a multiple of this many rounds
SHOE_PROBE_ROUNDS = 20_000
MIN_BLOCKS = 30  # paired blocks before a difference's se holds: fewer, and it has no interval
Z95 = tally.Z95
N_MOMENTS = 6  # per game: sum a^2, sum a*a_0, sum a*n, the same for Super Sevens (s)
A2, A0, AN, S2, S0, SN = range(N_MOMENTS)
SLOTS = 7  # a game's strategies' figures (``layout.T_BY``), then their moments, by first box


@dataclass(frozen=True)
class Game:
    """One row of a comparison: its rules, one strategy per box and how they were chosen."""

    label: str
    rules: object
    strategies: tuple
    names: tuple[str, ...]
    changes: tuple[str, ...] = ()
    source: str = ""
    strategy_note: str = ""
    description: str = ""


@dataclass(frozen=True)
class Plan:
    """What to compare: ``games[0]`` is the baseline. ``rounds`` per game (with ``precision``:
    the cap). ``exact``: the exact differences beside the simulated ones."""

    games: tuple[Game, ...]
    rounds: int = 10_000_000
    seed: int = 1994
    chunk_rounds: int = 100_000
    pair_rounds: int | None = DEFAULT_PAIR_ROUNDS  # None: `default_pair_rounds`
    workers: int | None = None
    precision: float | None = None
    scheduler: str | None = None
    checkpoint: str | None = None
    resume: bool = False
    exact: bool = True
    checkpoint_option: str = "--checkpoint"  # the option that named ``checkpoint`` (--resume)
    command: dict | None = None  # the command line's options, kept in the checkpoint (`cli`)

    def __post_init__(self):
        if not isinstance(self.games, (tuple, list)) or not all(
                isinstance(g, Game) for g in self.games):
            raise ValueError(f"games = {self.games!r:.40}: allowed a tuple of Game "
                             "(build_games), the baseline first")
        object.__setattr__(self, "games", tuple(self.games))
        run.check_shared(self)  # (rounds, seed, chunk_rounds, precision, checkpoint)
        if (pair := self.pair_rounds) is not None:
            object.__setattr__(self, "pair_rounds", engine.whole("pair_rounds", pair, 1))
            # (a block longer than the chunk or the run would play only that many rounds while
            # the report says blocks of pair_rounds: the smaller limit named; rounds = 0 plays
            # no block)
            limit = min((self.chunk_rounds, "chunk_rounds", "the chunk"),
                        (self.rounds or self.chunk_rounds, "rounds", "the rounds"))
            if self.pair_rounds > limit[0]:
                raise ValueError(f"pair_rounds = {self.pair_rounds} is larger than {limit[1]} "
                                 f"= {limit[0]}: allowed at most {limit[2]}")


# ---------------------------------------------------------------------------------------------
# Pairing: the blocks of a chunk, every game of a chunk in one job


def block_states(seed: int, chunk: int, n_blocks: int) -> np.ndarray:
    """The xoshiro256** states (``n_blocks`` x 4 uint64) of the blocks of chunk ``chunk``: the
    first ``4 * n_blocks`` words of ``SeedSequence(seed, spawn_key=(chunk,))``."""
    words = np.random.SeedSequence(seed, spawn_key=(chunk,)).generate_state(
        4 * n_blocks, np.uint64
    )
    states = words.reshape(n_blocks, 4)
    if not states.any(axis=1).all():
        raise ValueError(f"seed {seed}, chunk {chunk}: an all-zero xoshiro state; use another seed")
    return states


def payload_size(n_games: int) -> int:
    return n_games * (L.N_TALLY + (1 + SLOTS) * N_MOMENTS) + 2


def _moment(n_games: int, g: int, k: int, slot: int | None = None) -> int:
    """Where moment ``k`` of game ``g`` is in a payload: the whole game's, or (``slot``) that of
    the strategy whose first box is ``slot + 1``."""
    if slot is None:
        return n_games * L.N_TALLY + g * N_MOMENTS + k
    return n_games * (L.N_TALLY + N_MOMENTS) + (g * SLOTS + slot) * N_MOMENTS + k


def _groups(g) -> list[int]:
    """Each box of game ``g``'s strategy as the engine keeps its figures: the first box (less 1)
    with its charts (`kernel.tables.first_boxes`)."""
    return first_boxes(engine.stack_tables(g.rules, list(g.strategies)))


def strategy_slots(g) -> list[int]:
    """The strategies of game ``g`` reported one by one (first boxes less 1): every one, where
    its boxes play more than one set of charts or carry more than one name (boxes of two names
    with the same charts are one strategy to the engine, reported under both names); else
    none."""
    groups = _groups(g)
    return sorted(set(groups)) if len(set(groups)) > 1 or len(set(g.names)) > 1 else []


def paired_slots(games) -> list[list[int]]:
    """For each game, the strategies (`strategy_slots`) whose differences from the baseline's
    same boxes are paired: a game of the baseline's boxes, names and charts, where the
    baseline's are reported one by one; the baseline's when some game's are."""
    base, shown = _groups(games[0]), strategy_slots(games[0])
    out = [shown if shown and g.names == games[0].names and _groups(g) == base else []
           for g in games]
    out[0] = out[0] if any(out[1:]) else []
    return out


class PlayVariants:
    """The job of a comparison: ``job(i) -> (i, n_rounds, payload)``, every game of chunk ``i``
    block by block (picklable, for Dask). The payload (Python integers) holds each game's tally,
    each game's moments over the blocks (`N_MOMENTS`), the number of blocks and the sum of
    their squared sizes."""

    def __init__(self, params, tables, seed: int, rounds: int, chunk_rounds: int,
                 pair_rounds: int, slots=None):
        self.params, self.tables = list(params), list(tables)
        self.slots = [list(x) for x in slots] if slots else [[] for _ in self.params]
        self.seed, self.rounds = int(seed), int(rounds)
        self.chunk_rounds, self.pair_rounds = int(chunk_rounds), int(pair_rounds)

    def __call__(self, i: int) -> tuple[int, int, np.ndarray]:
        v = len(self.params)
        n = chunk_size(i, self.rounds, self.chunk_rounds)
        n_blocks = -(-n // self.pair_rounds)
        states = block_states(self.seed, i, n_blocks)
        sizes = [min(self.pair_rounds, n - j * self.pair_rounds) for j in range(n_blocks)]
        # each game's block nets (house edge, Super Sevens), then each paired strategy's
        fields = [[L.T_RTOTAL_SUM, L.T_SS_RSUM] + [L.T_BY + k * L.N_BY + f for k in self.slots[g]
                                                   for f in (L.BY_TOTAL_SUM, L.BY_SS_SUM)]
                  for g in range(v)]  # fmt: skip
        tallies, nets = zip(*(simulate_blocks(self.params[g], self.tables[g], sizes, states,
                                              fields[g]) for g in range(v)), strict=True)
        nets = [x.T.tolist() for x in nets]  # (Python integers: the sums of products are exact)
        mom = [0] * (v * (1 + SLOTS) * N_MOMENTS)
        for g in range(v):
            for c, k in enumerate([None, *self.slots[g]]):
                a, s = nets[g][2 * c], nets[g][2 * c + 1]
                a0, s0 = nets[0][2 * c], nets[0][2 * c + 1]
                at = _moment(v, g, 0, k) - v * L.N_TALLY
                for x, y, to in ((a, a, A2), (a, a0, A0), (a, sizes, AN), (s, s, S2), (s, s0, S0),
                                 (s, sizes, SN)):  # fmt: skip
                    mom[at + to] = sum(map(operator.mul, x, y))
        out = [int(x) for x in np.ravel(tallies)] + mom + [n_blocks, sum(x * x for x in sizes)]
        return i, n, np.array(out, dtype=object)

    def warm(self) -> None:
        """Compile (or load) the kernel the job calls, playing no round."""
        simulate_blocks(self.params[0], self.tables[0], [], [], [])


class PairedState(engine.RunState):
    """`engine.RunState` of a comparison: the payload is `PlayVariants`'s (Python integers); the
    precision target is the largest 95% half-width of a house-edge difference."""

    payload = "compare"

    def __init__(self, rounds, chunk_rounds, precision, games, pair_rounds: int):
        self.games = tuple(games)
        self.pair_rounds = int(pair_rounds)
        super().__init__(rounds, chunk_rounds, precision)

    def zero(self) -> np.ndarray:
        return np.array([0] * payload_size(len(self.games)), dtype=object)

    def coerce(self, payload) -> np.ndarray:
        return np.array([int(x) for x in payload], dtype=object)

    def add_into(self, total, payload) -> np.ndarray:
        total += payload
        return total

    def measure(self, prefix) -> float | None:
        """`widest` (None before `MIN_BLOCKS` paired blocks)."""
        return widest(prefix, self.games)

    def read_checkpoint(self, prefix_end: int, prefix, extra: dict, stop) -> tuple:
        """The prefix and finished chunks of a checkpoint (`simulator.checkpoint.resume`),
        checked against this comparison: sizes, chunk indices, each game's tally
        (`checkpoint.tally_problem`), the rounds, blocks and squared block sizes the chunks
        played, and the block moments' signs and Cauchy-Schwarz bounds; ValueError if not."""
        if not 0 <= prefix_end <= self.n_chunks:
            raise ValueError(f"prefix_end = {prefix_end}: allowed 0-{self.n_chunks}")
        chunks = {"prefix": (prefix, range(prefix_end))}
        for i, values in extra.items():
            i = int(i)
            check_past_prefix(i, prefix_end, self.n_chunks)
            chunks[f"chunk {i}"] = (values, [i])
        out = {}
        for name, (values, idx) in chunks.items():
            out[name] = p = self._read_payload(name, values)
            sizes = [chunk_size(i, self.rounds, self.chunk_rounds) for i in idx]
            blocks = sum(-(-n // self.pair_rounds) for n in sizes)
            n2 = sum(min(self.pair_rounds, n - j * self.pair_rounds) ** 2
                     for n in sizes for j in range(-(-n // self.pair_rounds)))
            if int(p[-2]) != blocks or int(p[-1]) != n2:
                raise ValueError(f"{name}: {p[-2]} blocks there, its chunks played {blocks}")
            v = len(self.games)
            for g, game in enumerate(self.games):
                t = tally_of(p, v, g)
                if int(t[L.T_ROUNDS]) != sum(sizes):
                    raise ValueError(f"{name}: game {game.label} played {int(t[L.T_ROUNDS])} "
                                     f"rounds there: its chunks play {sum(sizes)}")
                bad = tally_problem(t, rules_dict(game.rules))
                if bad:
                    raise ValueError(f"{name}: game {game.label}: {bad}")
                for (k2, k0), slot in itertools.product(((A2, A0), (S2, S0)),
                                                        [None, *range(SLOTS)]):
                    sq, cross = p[_moment(v, g, k2, slot)], p[_moment(v, g, k0, slot)]
                    if sq < 0 or cross * cross > sq * p[_moment(v, 0, k2, slot)]:
                        raise ValueError(f"{name}: game {game.label}: block moments that no "
                                         "blocks can give")
        prefix = out.pop("prefix")
        if stop is not None:
            hw = self.measure(prefix)
            if self.precision is None or stop != prefix_end - 1 or extra or hw is None \
                    or hw > self.precision:
                raise ValueError(f"stop_chunk = {stop}: the precision target was not met there")
        return prefix, {int(k.split()[1]): v for k, v in out.items()}

    def _read_payload(self, name: str, values) -> np.ndarray:
        size = payload_size(len(self.games))
        if not isinstance(values, list) or any(
                isinstance(x, bool) or not isinstance(x, int) for x in values):
            raise ValueError(f"{name}: a comparison's payload is a list of {size} whole numbers")
        if len(values) != size:
            raise ValueError(f"{name}: {len(values)} numbers where this bjsim's comparison "
                             f"keeps {size} (written by another version?): remove it and start "
                             "the comparison again")
        return np.array(values, dtype=object)


def tally_of(payload, n_games: int, g: int) -> np.ndarray:
    """Game ``g``'s summed tally out of a payload (a run total: Python integers)."""
    return np.array([int(x) for x in payload[g * L.N_TALLY : (g + 1) * L.N_TALLY]],
                    dtype=object)


# ---------------------------------------------------------------------------------------------
# Paired statistics


def _pair_moments(payload, n_games: int, g: int, money: str, slot: int | None = None):
    """Block sums for game ``g`` against the baseline: (sum_g, sum_0, sum g^2, sum g*0, sum 0^2,
    sum g*n, sum 0*n) as integers, for ``money`` "total" (house edge, tenths) or "ss"; of the
    whole games, or of the strategy of first box ``slot + 1`` in each."""
    if slot is None:
        idx_sum = L.T_RTOTAL_SUM if money == "total" else L.T_SS_RSUM
    else:
        idx_sum = L.T_BY + slot * L.N_BY + (L.BY_TOTAL_SUM if money == "total" else L.BY_SS_SUM)
    k2, k0, kn = (A2, A0, AN) if money == "total" else (S2, S0, SN)
    p = payload

    def at(game, k):
        return int(p[_moment(n_games, game, k, slot)])

    return (int(p[g * L.N_TALLY + idx_sum]), int(p[idx_sum]), at(g, k2), at(g, k0), at(0, k2),
            at(g, kn), at(0, kn))


def paired_difference(sums, rounds: int, blocks: int, n2: int, scale_g: int, scale_0: int):
    """The paired difference of means per unit and its statistics, from block sums.

    Game ``g``'s block ``j`` nets ``x_j / scale_g`` per unit (``scale``: boxes x money unit), the
    baseline's ``y_j / scale_0``; blocks have ``n_j`` rounds. With ``d_j = x_j / scale_g - y_j /
    scale_0``, ``D = sum d_j / N`` and its variance is ``m / (m - 1) sum (d_j - D n_j)^2 / N^2``
    (the ratio estimator over ``m`` blocks). Returns ``{"mean", "se", "correlation"}`` (mean: game
    minus baseline, per unit; se and correlation None with fewer than two blocks; correlation of
    the blocks' nets, None if a game does not vary).
    """
    sx, sy, sxx, sxy, syy, sxn, syn = sums
    if rounds <= 0:
        return {"mean": None, "se": None, "correlation": None}
    fx, fy = Fraction(1, scale_g), Fraction(1, scale_0)
    n = rounds
    mx, my = sx * fx / n, sy * fy / n  # means per round per unit
    d = mx - my
    if blocks < 2:
        return {"mean": float(d), "se": None, "correlation": None}
    # centred sums of squares over blocks: sum (u_j - mean * n_j)^2 and the cross term
    cxx = sxx * fx * fx - 2 * mx * sxn * fx + mx * mx * n2
    cyy = syy * fy * fy - 2 * my * syn * fy + my * my * n2
    cxy = sxy * fx * fy - mx * syn * fy - my * sxn * fx + mx * my * n2
    cdd = cxx + cyy - 2 * cxy
    var = Fraction(blocks, blocks - 1) * cdd / (n * n)
    corr = None
    if cxx > 0 and cyy > 0:
        corr = float(cxy) / math.sqrt(float(cxx) * float(cyy))
    return {"mean": float(d), "se": math.sqrt(max(float(var), 0.0)), "correlation": corr}


def _boxes(rules) -> int:
    return int(rules.boxes)


def differences(payload, games, slots=None) -> list[dict | None]:
    """For each game: None for the baseline, else ``{"house_edge": ..., "super_sevens": ...}``
    with the paired difference of the house edge (game minus baseline, per initial wager) and
    of the Super Sevens house edge (per unit staked; None unless both games bet it): ``mean``,
    ``se``, ``ci95_low``, ``ci95_high``, ``correlation`` (of the blocks' nets). With ``slots``
    (`paired_slots`), ``"by_strategy"``: the same for each paired strategy's boxes (its
    ``first_box``, ``boxes`` and ``box_numbers``), or None where the game's strategies are not
    the baseline's."""
    v = len(games)
    rounds = int(payload[L.T_ROUNDS])
    blocks, n2 = int(payload[-2]), int(payload[-1])
    out: list[dict | None] = [None]
    both_ss = [games[g].rules.super_sevens and games[0].rules.super_sevens for g in range(v)]

    def pair(g, b0, bg, slot=None):
        he = paired_difference(_pair_moments(payload, v, g, "total", slot), rounds, blocks, n2,
                               bg * L.UNIT, b0 * L.UNIT)
        ss = None if not both_ss[g] else _negate(paired_difference(
            _pair_moments(payload, v, g, "ss", slot), rounds, blocks, n2, bg, b0))
        return {"house_edge": _negate(he), "super_sevens": ss}

    for g in range(1, v):
        out.append(pair(g, _boxes(games[0].rules), _boxes(games[g].rules)))
        if slots is not None:
            first = _groups(games[g])
            out[g]["by_strategy"] = [
                {"first_box": k + 1, "boxes": first.count(k),
                 "box_numbers": [b + 1 for b, x in enumerate(first) if x == k]}
                | pair(g, first.count(k), first.count(k), k) for k in slots[g]] or None
    return out


def _negate(diff: dict) -> dict:
    """A difference of returns as a difference of house edges, with its 95% interval."""
    mean = tally.house_edge_of(diff["mean"])
    se = diff["se"]
    low = high = None
    if mean is not None and se is not None:
        low, high = mean - Z95 * se, mean + Z95 * se
    return {"mean": mean, "se": se, "ci95_low": low, "ci95_high": high,
            "correlation": diff["correlation"]}


def widest(payload, games) -> float | None:
    """The largest 95% half-width of a house-edge difference (None if one is not known, or
    before `MIN_BLOCKS` paired blocks: the intervals are withheld)."""
    if int(payload[-2]) < MIN_BLOCKS:
        return None
    worst = 0.0
    for game, row in zip(games[1:], differences(payload, games)[1:], strict=True):
        se = row["house_edge"]["se"]
        if se is None or se == 0 and not same_game(games[0], game, "house_edge"):
            return None  # (se 0 of another game: not measured yet, `_withhold`)
        worst = max(worst, Z95 * se)
    return worst


CARDS_ONLY = ("dealer_draws_when_no_live_box",)  # keys that change the cards a round uses, not
# its money: from a full shoe every round nothing; under a cut card only the cut-card effect


def exact_scope(base, rules, same_play: bool = True) -> str:
    """How far the exact analyzer (one box, a full shoe every round) covers the difference
    between two rule sets: ``"full"``; ``"none"`` when only keys it does not read
    (`derived.UNSEEN`: penetration, the shuffle, the boxes) differ, with a cut card in either
    game and ``same_play`` (the same charts at the boxes, `same_play`): its difference is 0
    whatever the change does; ``"cut-card"`` when the decks, the penetration, the shuffle or the
    boxes differ with a cut card in either game otherwise (the simulated difference also holds
    the change of the cut-card effect, which the exact analyzer does not see)."""
    if base.shuffle == rules.shuffle == "every-round":
        return "full"
    a, b = rules_dict(base), rules_dict(rules)
    unseen = (*derived.UNSEEN, *CARDS_ONLY)
    if same_play and a != b and all(a[k] == b[k] for k in a if k not in unseen):
        return "none"
    keys = ("shuffle", "penetration", "decks", "boxes", *CARDS_ONLY)  # (the boxes: the rounds
    # a shoe deals)
    same_shoe = all(a[k] == b[k] for k in keys)
    return "full" if same_shoe else "cut-card"


def same_play(base: Game, game: Game) -> bool:
    """Whether two games' boxes play the same charts and insurance choices: box by box, or one
    chart at every box of both."""
    def chart(s):
        return (s.hard.tobytes(), s.soft.tobytes(), s.pairs.tobytes(), s.sevens.tobytes(),
                s.insurance, s.even_money)

    a, b = [chart(s) for s in base.strategies], [chart(s) for s in game.strategies]
    return a == b or len(set(a) | set(b)) == 1


IDENTICAL = "identical game: the same cards and decisions, difference 0"


def _same_tables(base: Game, game: Game) -> bool:
    """Whether two games play the same engine tables (charts, insurance) at the same boxes."""
    return base.rules.boxes == game.rules.boxes and all(
        np.array_equal(a, b) for a, b in zip(
            engine.stack_tables(base.rules, list(base.strategies)),
            engine.stack_tables(game.rules, list(game.strategies)), strict=True))


# The rule parameters the round loop reads itself; the rest it reads only through the tables
# `kernel.tables.build` makes of them.
LOOP_PARAMS = (L.P_BJ_WIN, L.P_BOXES, L.P_CUT, L.P_DBJ, L.P_DECKS, L.P_DRAW_NO_LIVE, L.P_HOLE,
               L.P_INS_WIN, L.P_MAX_HANDS, L.P_SHUFFLE, L.P_SS, *range(L.P_SS_PAY_A,
                                                                         L.P_SS_PAY_E + 1))


def _sevens_alike(rules, strategies) -> bool:
    """Whether each of ``strategies`` plays 7-7 under ``rules`` with a Super Sevens bet up (its
    sevens row, 14.4) as without one (its pair and hard rows), against every up card."""
    on = rules.replace(super_sevens=True)
    tables = engine.stack_tables(on, list(strategies))
    bld = Builder(on.to_params(), tables, first_boxes(tables))
    late = on.surrender != "none"
    return all(bld.decide(si, 14, 0, 2, u, pair=7, surrender=late, sevens=True)
               == bld.decide(si, 14, 0, 2, u, pair=7, surrender=late)
               for si in range(len(strategies)) for u in range(1, 11))


def identical(base: Game, game: Game) -> bool:
    """Whether ``game`` has the baseline's rules and strategy tables (not merely plays alike)."""
    return game.rules == base.rules and all(
        np.array_equal(a, b) for a, b in zip(engine.stack_tables(base.rules, base.strategies),
                                             engine.stack_tables(game.rules, game.strategies),
                                             strict=True))


def same_game(base: Game, game: Game, key: str) -> bool:
    """Whether ``game`` plays the baseline's game for the figure ``key`` ("house_edge" or
    "super_sevens") on every shoe: with the other figure's pays (`PAYS`) set to the baseline's,
    the engine's tables and the parameters its round loop reads are the same (a rule that no
    chart cell reaches, as doubling on 9-11 for a chart doubling no lower hard total, changes
    neither). Its difference is then exactly 0 however few the rounds; another game's se of 0
    means only that no round yet reached what it changes."""
    if base.rules.boxes != game.rules.boxes:
        return False
    other = PAYS["super_sevens" if key == "house_edge" else "house_edge"]
    rules = game.rules.replace(**{k: getattr(base.rules, k) for k in other})
    # a key with no effect in either game (`rules.no_effect`: dealer_blackjack_takes under peek,
    # whose outcome against a dealer blackjack a table holds but no round reaches) as the base's
    rules = rules.replace(**{k: getattr(base.rules, k) for k in KEYS
                             if no_effect(base.rules, k) and no_effect(rules, k)})
    if key == "house_edge":  # the main game alone: the side bet off, or no insurance to pay
        if rules.super_sevens != base.rules.super_sevens and all(
                _sevens_alike(r, g.strategies) for r, g in ((base.rules, base), (rules, game))):
            rules = rules.replace(super_sevens=base.rules.super_sevens)
        if not any(s.insurance for g in (base, game) for s in g.strategies):
            rules = rules.replace(insurance_pays=base.rules.insurance_pays)
    # the round loop reads its parameters, the machine and each box's insurance flag (a chart
    # cell whose code plays as another's under the rules, S on hard 11 or less, which draws
    # (12.1 (d)), makes the same machine)
    (pb, tb), (pg, tg) = [(r.to_params(), engine.stack_tables(r, list(g.strategies)))
                          for r, g in ((base.rules, base), (rules, game))]
    if any(pb[i] != pg[i] for i in LOOP_PARAMS) or not np.array_equal(tb[4][:, 0], tg[4][:, 0]):
        return False
    return all(np.array_equal(a, b) for a, b in zip(machine_for(pb, tb), machine_for(pg, tg),
                                                    strict=True))


def pairing_note(base: Game, game: Game) -> str:
    """How the random numbers of ``game`` are paired with the baseline's, in words."""
    if rules_dict(base.rules) == rules_dict(game.rules) and _same_tables(base, game):
        return IDENTICAL
    if base.rules.decks != game.rules.decks:
        return "different shoes (decks differ): seeds shared, cards not"
    if base.rules.hole_card != game.rules.hole_card:
        return ("same shuffle in each block, but the hole card is dealt at another point: the "
                "deals differ from the first round")
    if base.rules.shuffle != game.rules.shuffle:
        return "same shuffle in each block; paired until the first reshuffle (after round 1)"
    if base.rules.boxes != game.rules.boxes:
        return ("same shuffle in each block, but more or fewer boxes take the cards: the deals "
                "differ from the first round")
    drift = ("same shuffle in each block; the deals drift apart once the games take different "
             "numbers of cards")
    if base.rules.penetration != game.rules.penetration:
        return drift + ", and from the first cut card"
    return drift


STAKE_KEYS = ("super_sevens_bet",)  # the side bet's stake: no play changes, the take a round does


def unused_note(base: Game, game: Game) -> str | None:
    """Why a variant whose rules differ from the baseline's plays identically to it, where it
    does: the chart played makes no play that the changed keys touch (surrender under a chart
    with no ``R`` cell), so the change is worth exactly nothing to a player of this chart, and,
    where the variant kept the baseline's chart (``--same-strategy``, a ``--strategy`` other
    than ``basic``), not to a player who adapts to it. None where no key of effect differs."""
    keys = [k for k in KEYS if getattr(base.rules, k) != getattr(game.rules, k)
            and not no_effect(game.rules, k) and k not in STAKE_KEYS]
    if not keys:  # (a stake changes no play, and is worth something: `compare_report.stake_note`)
        return None
    changes = [c for c in game.changes if c.split("=", 1)[0].strip() in keys] or keys
    chart = " and ".join(dict.fromkeys(game.names))
    kept = game.strategy_note == "the baseline's" or set(game.names) == {derived.BASELINE_BASIC}
    own = not kept and set(game.names) <= {"basic", derived.DERIVED_BASIC}
    them = "it" if len(changes) == 1 else "they"
    return (f"the chart played ({chart}) makes no play that {', '.join(changes)} "
            f"{'changes' if len(changes) == 1 else 'change'}, so {them} "
            f"{'is' if len(changes) == 1 else 'are'} worth exactly nothing to a player of this "
            "chart" + (", not to a player who adapts to the rule: without --same-strategy and "
                       "--strategy (or with --strategy basic) each game plays the basic strategy "
                       "of its own rules, with the exact difference for it" if kept else
                       ", which is the basic strategy of the variant's rules: a player who "
                       "adapts to the rule plays it too" if own else ""))


SAME_MAIN = ("plays the baseline's main game identically on every shoe, the same cards and "
             "decisions: only the Super Sevens differs (its main-game difference is exactly 0)")


def precision_note(stats: dict) -> str | None:
    """Where a variant's main game is the baseline's on every shoe (`same_game`: it changes the
    Super Sevens only), what a ``--precision`` target, of the house-edge differences alone,
    says of it: nothing; the line names each such variant and its Super Sevens difference's
    state, its 95% interval or why it has none. None where every variant's main game
    differs (or is the baseline's whole game)."""
    parts = []
    for row in stats["rows"][1:]:
        same = row.get("same") or {}
        if not same.get("house_edge") or same.get("super_sevens"):
            continue
        label, ss = row["game"].label, (row["difference"] or {}).get("super_sevens")
        if ss is None or ss["mean"] is None:
            parts.append(f"{label}: no Super Sevens difference (one game bets none)")
        elif ss["ci95_low"] is not None:
            parts.append(f"{label}: Super Sevens difference {100 * ss['mean']:+.3f} pp, 95% "
                         f"interval [{100 * ss['ci95_low']:+.3f}, {100 * ss['ci95_high']:+.3f}] "
                         f"pp (±{100 * Z95 * ss['se']:.4f} pp), not held to the target")
        else:
            parts.append(f"{label}: Super Sevens difference {100 * ss['mean']:+.3f} pp with no "
                         f"interval yet ({ss['interval_note']})")
    if not parts:
        return None
    return ("the target is of the main game's house-edge differences only; a variant that "
            "changes only the Super Sevens has a main-game difference of exactly 0 and is not "
            "measured by it: " + "; ".join(parts))


def statistics(payload, games, exact: list | None = None, pair_rounds: int | None = None,
               block_option: str = "--pair-rounds") -> dict:
    """Everything a comparison reports: per game its summary (`tally.summarize`), its paired
    difference from the baseline (and by strategy, `differences`), the independent-runs
    standard error, the variance reduction, the exact figures and z-scores. ``pair_rounds``:
    the blocks' rounds, where a variant differing only at the cut card is not measured in
    blocks too short to reach it (`no_cut_card`, naming ``block_option``: the option that set
    the blocks, ``--chunk-rounds`` where a chunk shorter than the default block is one)."""
    v = len(games)
    diffs = differences(payload, games, paired_slots(games))
    rows = []
    for g in range(v):
        game = games[g]
        t = tally_of(payload, v, g)
        summary = tally.summarize(t, game.rules,
                                  tally.ss_lines_possible(game.strategies, game.rules),
                                  game.strategies, game.names)
        row = {"game": game, "summary": summary, "difference": diffs[g],
               "pairing": None if g == 0 else pairing_note(games[0], game)}
        same = {k: g > 0 and same_game(games[0], game, k) for k in PAYS}  # on every shoe
        _zero_if_same(diffs[g], same)
        identical = g > 0 and (row["pairing"] == IDENTICAL or all(same.values()))
        row["same"] = same
        if g > 0 and diffs[g]["house_edge"]["se"] == 0 and diffs[g]["house_edge"]["mean"] == 0:
            row["pairing"] = ("plays identically to the baseline: the same cards and decisions"
                              if identical else SAME_MAIN if same["house_edge"] else
                              "played identically to the baseline in these rounds: the same "
                              "cards and decisions in every block")
        row["note"] = unused_note(games[0], game) if g > 0 and identical else None
        if exact is not None:
            row["exact"] = exact[g]
        if g > 0:
            base = rows[0]
            ex = (row["exact"], base["exact"]) if exact is not None else None
            few = _few_blocks(int(payload[-2]))
            few = None if identical else few  # (exactly 0 however few the blocks)
            lines = _pays_lines(payload, games, g) if same["house_edge"] else None
            unreached = None
            if pair_rounds and cut_card_only(games[0], game) and pair_rounds < min(
                    rounds_per_shoe(games[0]), rounds_per_shoe(game)) and pair_rounds < (
                    least := cut_card_block([games[0], game])):  # (a shoe's mean first: cached)
                unreached = no_cut_card(pair_rounds, least, block_option)
            _add_figures(diffs[g], summary, base["summary"], (base, row), ex, games[0], game,
                         same, few, lines, unreached)
            for d in diffs[g].get("by_strategy") or []:
                mine, theirs = (_strategy_entry(r["summary"], d) for r in (row, base))
                ex_k = None if ex is None else tuple(_strategy_entry(e, d) for e in ex)
                lines_k = None if lines is None else tuple(_strategy_entry(x, d) for x in lines)
                if mine is not None and theirs is not None:
                    _add_figures(d, mine, theirs, (base, row), ex_k, games[0], game, same, few,
                                 lines_k, unreached)
        rows.append(row)
    return {"rows": rows, "rounds": int(payload[L.T_ROUNDS]), "blocks": int(payload[-2]),
            "block_option": block_option, "pair_rounds": pair_rounds}


def _strategy_entry(figures: dict | None, d: dict) -> dict | None:
    """The figures of the strategy of ``d["first_box"]`` in ``figures``' ``by_strategy``
    (`tally.summarize`'s, or `exact_figures`'), or None."""
    entries = (figures or {}).get("by_strategy") or []
    return next((e for e in entries if e["first_box"] == d["first_box"]), None)


MORE_BLOCKS = "more rounds, or a smaller --pair-rounds"  # compare's way to more blocks


def _few_blocks(blocks: int, more: str = MORE_BLOCKS) -> str | None:
    """Why a paired difference's se, from the variance over ``blocks`` blocks, is too rough to
    give an interval (fewer than `MIN_BLOCKS`), or None; ``more``: how the command run gets
    more blocks, in its options."""
    if blocks >= MIN_BLOCKS:
        return None
    return (f"only {paired_blocks(blocks)}, fewer than {MIN_BLOCKS}: too few for the se "
            f"({more})")


def paired_blocks(n: int) -> str:
    """``n`` paired blocks in words: ``1 paired block``, ``16 paired blocks``."""
    return f"{n:,} paired {plural(n, 'block', 'blocks')}"


def _pays_lines(payload, games, g: int) -> tuple:
    """Where game ``g`` plays the baseline's main game on every shoe (`same_game`: the same
    cards and decisions, so the same Super Sevens lines come up on the same rounds), its Super
    Sevens difference is each line's change of pay times that line's wins: it rests on the
    lines whose pay differs, not on the rarest big pay either game can make. The baseline's and
    the game's figures (`tally.summarize`) with their Super Sevens intervals judged by those
    lines alone (a big pay of those lines in either game with fewer than `tally.MIN_WINS` wins
    expected withholds it, as `tally.summarize` does)."""
    v, base, game = len(games), games[0], games[g]
    differ = {k for k, a, b in zip(tally.SS_LINES, base.rules.super_sevens_pays,
                                   game.rules.super_sevens_pays, strict=False) if a != b}
    return tuple(tally.summarize(
        tally_of(payload, v, i), x.rules,
        tuple(k for k in tally.ss_lines_possible(x.strategies, x.rules) if k in differ),
        x.strategies, x.names) for i, x in ((0, base), (g, game)))


def _add_figures(diff: dict, fig: dict, fig0: dict, rows: tuple, ex, base, game, same: dict,
                 few=None, lines=None, unreached=None) -> None:
    """Beside each paired difference in ``diff`` (of the game's figures ``fig``, the baseline's
    ``fig0``): the independent runs' se and what pairing saves (`_add_independent`), the exact
    difference and z (``ex``: the game's and the baseline's exact figures, or None), and no
    interval where it rests on a withheld one or on ``few`` blocks (`_withhold`; ``same``:
    `same_game` by figure). ``lines``: the baseline's and the game's figures judged by the
    Super Sevens lines whose pay differs (`_pays_lines`), where the same lines come up on the
    same rounds: the Super Sevens difference rests on those, not on ``fig0`` and ``fig``.
    ``unreached``: why an se of 0 is not measured where it is not `NOT_REACHED`'s."""
    for key in ("house_edge", "super_sevens"):
        d = diff[key]
        if d is None:
            continue
        _add_independent(d, fig[key]["se"], fig0[key]["se"])
        if ex is not None:
            _add_exact(d, key, ex, exact_scope(base.rules, game.rules, same_play(base, game)))
        else:  # (--no-exact: the same keys, null)
            d |= {"exact_scope": None, "exact": None, "z": None}
        judged = lines if key == "super_sevens" and lines is not None else (fig0, fig)
        _withhold(d, [f"{r['game'].label}: {f[key]['interval_note']}"
                      for r, f in zip(rows, judged, strict=True)
                      if f[key].get("interval_note")], same[key], few, unreached)


# The rule keys that pay a figure's wagers and change nothing else: a game that changes only
# the other figure's is that figure's baseline game (`same_game`).
PAYS = {"house_edge": ("blackjack_pays", "insurance_pays", "dealer_blackjack_takes"),
        "super_sevens": ("super_sevens_pays", "super_sevens_bet")}
NOT_REACHED = ("every round played as in the baseline, but the rules or charts differ where no "
               "round reached yet: the difference is not measured (more rounds)")


def _zero_if_same(d: dict | None, same: dict) -> None:
    """A difference of a game that plays the baseline's for a figure on every shoe (``same``,
    `same_game` by figure) is exactly 0 with an se of 0 however few the blocks: from one block,
    which gives no se, too (neither withheld, nor its pairing said to drift apart)."""
    for key, alike in same.items():
        x = (d or {}).get(key)
        if alike and x is not None and x["se"] is None and x["mean"] == 0:
            x |= {"se": 0.0, "ci95_low": x["mean"], "ci95_high": x["mean"]}
    for s in (d or {}).get("by_strategy") or []:
        _zero_if_same(s, same)


def _withhold(d: dict, notes: list[str], same: bool = False, few=None, unreached=None
              ) -> None:
    """A difference resting on a figure whose interval `tally.summarize` withholds (too few wins
    of a big Super Sevens line, in the variant or the baseline: ``notes``), on too few blocks
    (``few``), or with an se of 0 in a game not the baseline's (``same``, `same_game`: no round
    reached what it changes, `NOT_REACHED`) gets no se, interval, variance reduction, se ratio
    or z either: ``interval_note`` says why (None where they stand; the baseline's own game is
    exactly 0 however few its blocks); with too few blocks, no correlation either (from 2 it is
    -1 or +1). ``unreached``: the words for an se of 0 in place of
    `NOT_REACHED`'s (`no_cut_card`)."""
    if same and d.get("se") == 0 and d.get("mean") == 0:
        notes, few = [], None  # the same cards, decisions and pays: exactly 0
    elif d.get("se") == 0:
        notes = notes + [unreached or NOT_REACHED]
    notes = notes + ([few] if few else [])
    d["interval_note"] = "; ".join(notes) or None
    if notes:
        d |= {"se": None, "ci95_low": None, "ci95_high": None, "variance_reduction": None,
              "se_ratio": None}
        if few:  # (a correlation of a few blocks says nothing: of 2 it is -1 or +1)
            d["correlation"] = None
        if "z" in d:
            d["z"] = None


def _add_independent(d: dict, se_game, se0) -> None:
    """se of two independent runs of the same length, and what pairing saves against it."""
    ind = None if se_game is None or se0 is None else math.sqrt(se_game**2 + se0**2)
    d["se_independent"] = ind
    d["variance_reduction"] = None
    d["se_ratio"] = None
    if ind is not None and d["se"]:
        d["variance_reduction"] = ind**2 / d["se"] ** 2
        d["se_ratio"] = ind / d["se"]


def _add_exact(d: dict, key: str, ex: tuple, scope: str) -> None:
    """The exact difference (the game's exact figure ``ex[0]`` less the baseline's ``ex[1]``,
    as house edges) and the simulated one's z; ``scope``: `exact_scope` (``"none"``: neither)."""
    field_ = "house_edge" if key == "house_edge" else "super_sevens_ev"
    d["exact_scope"] = scope
    d["exact"] = d["z"] = None
    if scope == "none" or None in ex or ex[0][field_] is None or ex[1][field_] is None:
        return
    exact_diff = ex[0][field_] - ex[1][field_]
    if key == "super_sevens":
        exact_diff = tally.house_edge_of(exact_diff)  # a return: the edge is minus it
    d["exact"] = exact_diff
    if d["mean"] is not None and d["se"]:
        d["z"] = (d["mean"] - exact_diff) / d["se"]


# ---------------------------------------------------------------------------------------------
# Running a comparison


@dataclass
class Result:
    """What a comparison gave: the summed payload, its statistics, metadata, stderr lines."""

    payload: np.ndarray
    stats: dict
    meta: dict
    partial: bool
    messages: list[str] = field(default_factory=list)
    stopped_after: int | None = None  # a stop signal noted after the last chunk (`stops`)
    stopped_compiling: bool = False  # Ctrl-C while the kernel compiled: no chunk, no bar drawn
    failure: str | None = None  # the cluster failed the run (`distributed.ClusterError`)

    @property
    def nothing_played(self) -> bool:
        """A stop (or the cluster's failure) came before any chunk finished: no round to
        report."""
        return self.partial and self.stats["rounds"] == 0


def identity(plan: Plan) -> dict:
    """Everything a comparison's result depends on (for its checkpoint)."""
    tables = [engine.stack_tables(g.rules, list(g.strategies)) for g in plan.games]
    h = hashlib.sha256()
    for t in tables:
        h.update(tables_hash(t).encode())
    # games of one set of charts under several names, whose strategy is paired on its own
    # (`strategy_slots`): named here, so that a checkpoint that keeps none of its moments is
    # refused
    by_name = [g.label for g in plan.games if len(set(_groups(g))) == 1 and len(set(g.names)) > 1]
    return {
        "bjsim": __version__,
        CODE: source.sha256(),
        "kind": "compare",
        "games": [g.label for g in plan.games],  # (said first where they differ)
        "rules": {f"{i}:{g.label}.{k}": (list(v) if isinstance(v, tuple) else v)
                  for i, g in enumerate(plan.games) for k, v in rules_dict(g.rules).items()},
        "strategies_sha256": h.hexdigest(),
        "seed": int(plan.seed),
        "chunk_rounds": int(plan.chunk_rounds),
        "pair_rounds": int(plan.pair_rounds),
        "rounds": int(plan.rounds),
        "precision": None if plan.precision is None else float(plan.precision),
    } | ({"one_chart_several_names": by_name} if by_name else {})


def exact_figures(games, progress=None) -> list[dict | None]:
    """Exact house edge and Super Sevens return of each game (`simulator.derived`, cached); of a
    game of several strategies (`strategy_slots`), each strategy's one-box figures too
    (``by_strategy``, by ``first_box``)."""
    out = []
    for g in games:
        if progress is not None:
            progress(g)
        figures = derived.exact_for(g.rules, g.strategies)
        first = strategy_slots(g)
        if first:
            one = g.rules.replace(boxes=1)
            figures = figures | {"by_strategy": [
                {"first_box": k + 1} | derived.exact_for(one, [g.strategies[k]]) for k in first]}
        out.append(figures)
    return out


def _progress_text(state: PairedState) -> str:
    """The progress bar's running differences (the first three variants) and target."""
    total = state.total()
    rows = differences(total, state.games)[1:]
    few = int(total[-2]) < MIN_BLOCKS  # (no interval yet, as the result gives none)
    parts = []
    for game, row in zip(state.games[1:4], rows[:3], strict=False):
        d = row["house_edge"]
        if d["mean"] is None:
            continue
        hw = "" if d["se"] is None or few else f" ± {100 * Z95 * d['se']:.3f}"
        parts.append(f"{game.label} {100 * d['mean']:+.3f}{hw} pp")  # (percentage points)
    if len(rows) > 3:
        parts.append(f"+{len(rows) - 3} more")
    hw = widest(total, state.games)
    if state.precision is not None:
        parts.append(f"widest ±{'-' if hw is None else f'{100 * hw:.4f}'} pp "
                     f"(target ±{100 * state.precision:.4f} pp)")
    return "; ".join(parts)


@functools.lru_cache(maxsize=128)
def rounds_per_shoe(game: Game) -> float:
    """The mean rounds a shoe of ``game`` lasts (1 with a shuffle every round), measured on
    `SHOE_PROBE_ROUNDS` rounds of a fixed seed (so a plan's default block is reproducible);
    measured once a game in a process (the default block and the short-blocks note ask it)."""
    if game.rules.shuffle == "every-round":
        return 1.0
    params = game.rules.to_params()
    tables = engine.stack_tables(game.rules, list(game.strategies))
    t, _ = simulate_blocks(params, tables, [SHOE_PROBE_ROUNDS], [engine.chunk_state(0, 0)], [])
    return int(t[L.T_ROUNDS]) / max(int(t[L.T_SHUFFLES]) - int(t[L.T_REFILLS]), 1)


SHOE_PROBE_BLOCKS = 2_000  # fresh shoes of a fixed seed whose shortest `shortest_shoe` gives


@functools.lru_cache(maxsize=128)
def shortest_shoe(game: Game) -> int:
    """The fewest rounds after which ``game`` reshuffles at its cut card, from a fresh shuffle:
    the shortest first shoe of `SHOE_PROBE_BLOCKS` fresh shoes of a fixed seed, so the least
    block in which the cut card can come out (1 with a shuffle every round)."""
    if game.rules.shuffle == "every-round":
        return 1
    params = game.rules.to_params()
    tables = engine.stack_tables(game.rules, list(game.strategies))
    states = block_states(0, 0, SHOE_PROBE_BLOCKS)

    def reached(k):  # (a block's start is its first shuffle: one more, the cut card came out)
        _, per_block = simulate_blocks(params, tables, [k] * SHOE_PROBE_BLOCKS, states,
                                       [L.T_SHUFFLES])
        return bool((per_block[:, 0] > 1).any())

    lo, hi = 1, max(2, math.ceil(rounds_per_shoe(game)))
    while not reached(hi):
        lo, hi = hi, 2 * hi
    while hi - lo > 1:  # (the first shoe is the same whatever the block's length: monotone)
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if reached(mid) else (mid, hi)
    return hi


def cut_card_only(base: Game, game: Game) -> bool:
    """Whether ``game`` differs from the baseline only where a cut card comes out: both dealt
    to a cut card, the same charts at the same boxes, and rules differing only in the
    penetration or the cards a round uses (`CARDS_ONLY`). Until a block reaches a cut card
    the two deal and play alike, so their difference is 0 in every block that does not."""
    a, b = rules_dict(base.rules), rules_dict(game.rules)
    return (base.rules.shuffle == game.rules.shuffle == "cut-card" and a != b
            and all(a[k] == b[k] for k in a if k not in ("penetration", *CARDS_ONLY))
            and _same_tables(base, game))


def cut_card_block(games) -> int | None:
    """The least block (rounds) in which every variant of ``games[1:]`` that differs only at
    the cut card (`cut_card_only`) can differ from the baseline: the shorter of the two games'
    `shortest_shoe`, the largest over such variants; None without such a variant."""
    least = [min(shortest_shoe(games[0]), shortest_shoe(g)) for g in games[1:]
             if cut_card_only(games[0], g)]
    return max(least) if least else None


def short_of_cut_card(games, block: int) -> list:
    """The variants of ``games[1:]`` that differ from the baseline only at the cut card
    (`cut_card_only`) and in no block of ``block`` rounds: ``block`` is shorter than the
    shorter of the two games' `shortest_shoe` (`cut_card_block`, the largest of those)."""
    return [g for g in games[1:] if cut_card_only(games[0], g)
            and block < min(shortest_shoe(games[0]), shortest_shoe(g))]


def no_cut_card(pair_rounds: int, least: int, option: str = "--pair-rounds") -> str:
    """Why a variant differing only at the cut card (`cut_card_only`) has no measured
    difference in blocks of ``pair_rounds`` rounds, shorter than ``least`` (`cut_card_block`)."""
    return (f"{NO_CUT_CARD} {pair_rounds:,} rounds reaches the cut card: the difference is not "
            f"measured, and more rounds do not change that (a larger {option}: at least "
            f"{least:,}, the shortest shoe of {SHOE_PROBE_BLOCKS:,} fresh ones)")


NO_CUT_CARD = ("every round played as in the baseline: the games differ only from a cut card "
               "on, and no block of")


MAX_BLOCKS = 1 << 20  # blocks a chunk (each one's seed, size and figures held while it plays)


def too_many_blocks(chunk_rounds: int, pair_rounds: int, rounds: int,
                    options=("chunk_rounds =", "pair_rounds =")) -> str | None:
    """Why chunks of ``chunk_rounds`` (at most ``rounds``) cut into blocks of ``pair_rounds``
    hold too many blocks (`MAX_BLOCKS`: a chunk's memory grows with them), naming the
    ``options`` (the chunk's, and the blocks' or None where the command has none); None if
    they do not."""
    blocks = -(-min(int(chunk_rounds), int(rounds)) // int(pair_rounds))
    if blocks <= MAX_BLOCKS:
        return None
    chunk, pair = options  # (pair None: the command has no option for the blocks' size)
    return (f"{chunk} {int(chunk_rounds):,} makes {blocks:,} blocks of {int(pair_rounds):,} "
            f"rounds{f' ({pair} {int(pair_rounds):,})' if pair else ''} a chunk: allowed at most "
            f"{MAX_BLOCKS:,}, whose seeds and figures are held in memory while the chunk plays: "
            f"give {chunk} {MAX_BLOCKS * int(pair_rounds):,} or fewer"
            + (", or larger blocks" if pair else ""))


def rounds_for_blocks(blocks: int, chunk_rounds: int, pair_rounds: int) -> int:
    """The fewest rounds a game plays in ``blocks`` paired blocks: each chunk of
    ``chunk_rounds`` (the last one shorter) is cut into blocks of ``pair_rounds``, its last
    block shorter, so a block begins at every ``pair_rounds``-th round of a chunk."""
    per_chunk = -(-int(chunk_rounds) // int(pair_rounds))
    chunks, more = divmod(int(blocks) - 1, per_chunk)  # whole chunks, then blocks begun after
    return chunks * int(chunk_rounds) + more * int(pair_rounds) + 1


def too_few_blocks(max_rounds: int, chunk_rounds: int, pair_rounds: int, block: str,
                   options=("--max-rounds", "--pair-rounds")) -> str | None:
    """Why a precision run capped at ``max_rounds`` rounds can never be judged: its chunks of
    ``chunk_rounds`` cut into blocks of ``pair_rounds`` (``block``: why that size, in words)
    reach fewer than `MIN_BLOCKS` paired blocks, from which a difference has an se; None if
    they reach them. The line names the rounds `MIN_BLOCKS` blocks take (`rounds_for_blocks`)
    and the ``options`` (the cap's, and the blocks' or None where the command has none)."""
    least = rounds_for_blocks(MIN_BLOCKS, chunk_rounds, pair_rounds)
    if int(max_rounds) >= least:
        return None
    cap, pair = options
    whole, rest = divmod(int(max_rounds), int(chunk_rounds))
    made = whole * -(-int(chunk_rounds) // int(pair_rounds)) + -(-rest // int(pair_rounds))
    return (f"{cap} {int(max_rounds):,} makes {paired_blocks(made)} of {int(pair_rounds):,} "
            f"rounds ({block}): a precision target is checked from {MIN_BLOCKS} paired blocks "
            f"on, and {MIN_BLOCKS} take {least:,} rounds: allowed at least {least:,} with "
            "--precision" + (f", or a smaller {pair}" if pair else ""))


def default_pair_rounds(games) -> int:
    """The default block: the shortest multiple of `PAIR_STEP` rounds that holds a whole shoe
    (its mean length and 5%) of every game, so that each block plays its first shoe to the cut
    card; at least `PAIR_STEP`. NZ (6 decks, 75%): 48 rounds; with an 8-deck game: 64."""
    longest = max(rounds_per_shoe(g) for g in games)
    return max(PAIR_STEP, PAIR_STEP * math.ceil(1.05 * longest / PAIR_STEP))


def check_blocks(games, chunk_rounds: int, pair_rounds: int | None, precision, most: int) -> int:
    """The default block (`default_pair_rounds`: a shoe of every game; a first run compiles the
    kernel to measure it), blocks of ``pair_rounds`` (None: that default, or a shorter chunk)
    checked for a run of at most ``most`` rounds a game: not too many a chunk; with a
    ``precision`` target, enough to check it and each reaching the cut card where a game is
    dealt to one. Raises ValueError naming the option to change."""
    shoe_rounds = default_pair_rounds(games)
    blocks_of = pair_rounds or min(shoe_rounds, chunk_rounds)
    too_many = too_many_blocks(chunk_rounds, blocks_of, most, ("--chunk-rounds",
                                                               "--pair-rounds"))
    if too_many is not None:
        raise ValueError(too_many)
    block = ("--pair-rounds" if pair_rounds else f"--chunk-rounds {chunk_rounds:,}"
             if chunk_rounds < shoe_rounds else "the default: a shoe of every game")
    too_few = precision is not None and too_few_blocks(most, chunk_rounds, blocks_of, block)
    if too_few:  # (a target never checked: refused, as --max-rounds below 1,000 is)
        raise ValueError(too_few)
    least = precision is not None and cut_card_block(games)
    if least and blocks_of < least:  # (a variant's difference 0 in every block: never met)
        option = "--pair-rounds" if pair_rounds else "--chunk-rounds"
        short = [g.label for g in short_of_cut_card(games, blocks_of)]  # (not all of them)
        raise ValueError(
            f"{option} {blocks_of if pair_rounds else chunk_rounds:,}: no block of "
            f"{blocks_of:,} rounds reaches the cut card, from which " + ", ".join(short)
            + (" differs from the baseline, so its difference is" if len(short) == 1 else
               " differ from the baseline, so their differences are")
            + " 0 in every block and a "
            f"precision target is never met: allowed {option} {least:,} or more with "
            f"--precision (the shortest shoe of {SHOE_PROBE_BLOCKS:,} fresh ones; "
            f"the default block, {shoe_rounds:,} rounds, holds a shoe of every game)")
    return shoe_rounds


def compare(plan: Plan, quiet: bool = False, exact: list | None = None) -> Result:
    """Play ``plan``: every chunk not in its checkpoint, all games of a chunk together, with one
    progress bar on stderr (rounds per game and the running differences) unless ``quiet``.
    Ctrl-C stops it: the finished chunks make a partial result, kept in the checkpoint.
    ``exact``: the games' exact figures (`exact_figures`), reported beside the differences;
    None: computed here if ``plan.exact``."""
    if len(plan.games) < 2:
        raise ValueError("compare: give at least one variant (--vary, --variant, "
                         "--vary-strategy or --all-variants)")
    block_option = "--pair-rounds" if plan.pair_rounds is not None else "--chunk-rounds"
    if plan.pair_rounds is None:  # (a block is then the default, or a shorter chunk or run,
        # the one block it plays; on a copy: -n 1 plays one block of 1 round)
        plan = dataclasses.replace(plan)
        object.__setattr__(plan, "pair_rounds", min(default_pair_rounds(plan.games),
                                                    plan.chunk_rounds, plan.rounds or math.inf))
    if (why := too_many_blocks(plan.chunk_rounds, plan.pair_rounds, plan.rounds)) is not None:
        raise ValueError(why)
    for game in plan.games:
        engine.check_headroom(game.rules, plan.chunk_rounds, rounds=plan.rounds)
    if exact is None and plan.exact:  # (the command line computes them first, saying so)
        exact = exact_figures(plan.games)
    def open_writer(state):
        return None if plan.checkpoint is None else run.open_checkpoint(
            plan.checkpoint, plan.resume, identity(plan), state, plan.command)

    def job():
        return PlayVariants([g.rules.to_params() for g in plan.games],
                            [engine.stack_tables(g.rules, list(g.strategies))
                             for g in plan.games],
                            plan.seed, plan.rounds, plan.chunk_rounds, plan.pair_rounds,
                            paired_slots(plan.games))

    def played(state, job, timing, ready):
        return engine.advance_job(state, job, plan.workers, scheduler=plan.scheduler,
                                  timing=timing, say=run.tell, ready=ready)

    ran = run.play_chunks(lambda: PairedState(plan.rounds, plan.chunk_rounds, plan.precision,
                                              plan.games, plan.pair_rounds),
                          open_writer, job, played, _progress_text, plan.checkpoint_option,
                          quiet, plan.scheduler, plan.precision, plan.rounds,
                          f"bjsim: compare {len(plan.games)} games")
    state, resumed, partial, failure = ran.state, ran.resumed, ran.partial, ran.failure
    with stops.held() as later:  # (to the result: a stop here loses nothing)
        seconds, timing = ran.seconds, ran.timing
        payload = state.total()
        stats = statistics(payload, plan.games, exact, plan.pair_rounds, block_option)
        done = stats["rounds"]
        meta = {
            "version": __version__,
            "run": {"seed": plan.seed, "rounds": plan.rounds, "rounds_played": done,
                    "chunk_rounds": plan.chunk_rounds, "pair_rounds": plan.pair_rounds,
                    "blocks": stats["blocks"], "games": len(plan.games), "partial": partial},
            "timing": {"seconds": seconds,
                       "game_rounds_per_second": (done - resumed) * len(plan.games) / seconds
                       if seconds > 0 and done > resumed else None,
                       "workers": run.timing_workers(plan.workers, plan.scheduler,
                                                     timing.get("threads"), done > resumed),
                       "scheduler": plan.scheduler,
                       "cluster_startup_seconds": timing.get("startup"),
                       "checkpoint": plan.checkpoint, "resumed_rounds": resumed},
        }
        if failure is not None:  # (the table's words for the stop: not in json or csv)
            meta["failure"] = failure
        if plan.precision is not None:
            meta["run"]["precision"] = {"target": plan.precision, "max_rounds": plan.rounds,
                                        "half_width": widest(payload, plan.games),
                                        "met": bool(state.target_met),
                                        "stop_chunk": state.stop_chunk,
                                        "note": precision_note(stats)}
        result = Result(payload, stats, meta, partial,
                        run.with_save_failed(_messages(plan, meta, partial, quiet, resumed,
                                                       failure), ran.save)
                        + ([run.STOPPED_WHOLE] if ran.stopped and not partial else []),
                        failure=failure)
    result.stopped_after = (ran.late + later + [None])[0]
    result.stopped_compiling = ran.compiling
    return result


def _messages(plan: Plan, meta: dict, partial: bool, quiet: bool, resumed: int,
              failure: str | None = None) -> list[str]:
    run_ = meta["run"]
    done, seconds = run_["rounds_played"], meta["timing"]["seconds"]
    out = [] if quiet else [run.rounds_line(
        done, resumed, seconds,
        f"({meta['timing']['game_rounds_per_second'] or 0:,.0f} game-rounds/s)",
        plan.checkpoint, partial, f"{len(plan.games)} games x ",
        meta["timing"].get("cluster_startup_seconds"))]  # (as simulate's: its wait said)
    if run_["blocks"] < MIN_BLOCKS and not partial:
        out.append(f"bjsim: only {paired_blocks(run_['blocks'])}: no interval for the differences "
                   f"({MORE_BLOCKS})")
    note = (run_.get("precision") or {}).get("note")
    out += run.end_lines(run_.get("precision"), done, partial, plan.checkpoint,
                         "widest main-game half-width" if note else "widest half-width",
                         "rounds per game", unit=" pp", failure=failure)
    return out + ([f"bjsim: {note}"] if note and not partial else [])


# ---------------------------------------------------------------------------------------------
# Planning: the games of a comparison and the strategy each plays


def _basic(rules, made) -> tuple[tuple, tuple[str, ...]]:
    """The basic strategy of ``rules`` for every box and its names, as every command plays it by
    default: the shipped ``basic`` (the NZ rules' chart) where no chart key differs from the NZ
    rules or the chart derived for them (``made``: `derived.basic_for_all`'s) is the same, else
    the derived one, named `derived.DERIVED_BASIC` (the same on every machine: not its file)."""
    theirs = made[derived.rules_key(rules)][0] if derived.chart_change(rules) else None
    strat = derived.rules_basic(rules, theirs)
    return (strat,) * rules.boxes, (strat.name,) * rules.boxes


def _strategies_and_names(pair) -> bool:
    """Whether ``pair`` is ``(strategies, names)``: as many Strategy as names, one or more."""
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        return False
    strats, names = pair
    return (isinstance(strats, (tuple, list)) and isinstance(names, (tuple, list))
            and 0 < len(strats) == len(names) and all(isinstance(s, Strategy) for s in strats)
            and all(isinstance(n, str) for n in names))


def build_games(base_rules, base_label: str, base_source: str, base_strategies,
                variants, same_strategy: bool = False, log=None,
                workers: int | None = None, base_changes=()) -> tuple[Game, ...]:
    """The baseline and one `Game` per `simulator.variants.Variant`.

    ``base_changes``: the command line's changes to the baseline's rule file (``KEY=VALUE``,
    `rules.changes_made`), its ``changes`` and named in its label as every command names a
    changed rule set (`rules.modified_name`: ``nz1994 (modified: decks=8)``).

    ``base_strategies``: ``(strategies, names)`` from ``--strategy`` (one per box), or None for
    the basic strategy of the baseline's rules (`_basic`). A rule variant plays the basic
    strategy of its own rules where the baseline plays basic, else (a strategy other than
    ``basic`` given: a fixed chart, not one a rule adapts), or with ``same_strategy``, the
    baseline's; a variant naming a strategy plays it on every box. The strategies not yet
    derived are derived side by side on up to ``workers`` processes (`derived.basic_for_all`);
    ``log(text)`` names them first, in one line (slow once).
    """
    from simulator.rules import rule_set
    from simulator.strategy import checked
    from simulator.variants import Variant

    rule_set(base_rules, "base_rules")  # (dataclasses' TypeError for a dict)
    if base_strategies is not None and not _strategies_and_names(base_strategies):
        raise ValueError(f"base_strategies = {base_strategies!r:.40}: allowed None (the rules' "
                         "basic strategy) or a pair (strategies, names): the Strategy of each box "
                         "and its name")
    for s in base_strategies[0] if base_strategies is not None else ():
        checked(s, "base_strategies")
    if not isinstance(variants, (list, tuple)) or not all(isinstance(v, Variant)
                                                          for v in variants):
        raise ValueError(f"variants = {variants!r:.40}: allowed a list of Variant "
                         "(variants.from_vary, from_file, from_strategy), or [] for none")
    wanted = [base_rules] if base_strategies is None else []
    same_strategy = same_strategy or base_strategies is not None and set(base_strategies[1]) != {
        "basic"}  # (a chart of its own: a variant keeps it)
    if not same_strategy:
        wanted += [v.rules for v in variants if v.strategy is None]
    wanted = [r for r in wanted if derived.chart_change(r)]  # (the others play the NZ chart)

    def say(todo, processes):
        if log is not None:
            # (each as the chart it is derived for: `derived.chart_change`, no-effect keys out)
            names = "; ".join(derived.chart_change(r) for r in todo)
            many = f"{len(todo)} rule sets on {processes} processes, " if processes > 1 else ""
            log(f"deriving the basic strategy for {names} (exact analyzer, {many}a few seconds "
                "each; cached)")

    def done(k, n):
        if log is not None and n > 1:
            log(f"derived {k} of {n} basic strategies")

    made = derived.basic_for_all(wanted, workers, say, done)
    if base_strategies is None:
        strats, names = _basic(base_rules, made)
    else:
        strats, names = tuple(base_strategies[0]), tuple(base_strategies[1])
    games = [Game(modified_name(base_label, base_changes), base_rules, strats, names,
                  tuple(base_changes), base_source)]
    for v in variants:
        if v.strategy is not None:
            s = load_strategy(v.strategy)
            shown = v.shown or shown_names([v.strategy], [s])[0][0]
            g_strats, g_names = (s,) * v.rules.boxes, (shown,) * v.rules.boxes
            g_note = ""
        elif same_strategy:
            g_strats, g_names, g_note = strats, names, "the baseline's"
            if v.rules.boxes != len(strats) and len(set(names)) == 1:
                g_strats, g_names = (strats[0],) * v.rules.boxes, (names[0],) * v.rules.boxes
            if set(g_names) == {derived.DERIVED_BASIC}:  # not "derived for these rules"
                g_names, g_note = (derived.BASELINE_BASIC,) * len(g_names), ""
        else:
            (g_strats, g_names), g_note = _basic(v.rules, made), ""
        if len(g_strats) != v.rules.boxes:
            where = v.source if v.source.startswith("--") else f"--variant {v.source}"
            raise ValueError(f"{where} {v.label}: the baseline plays {len(g_strats)} strategies, "
                             f"one a box, and this variant {v.rules.boxes} boxes: allowed the "
                             "baseline's boxes, or one --strategy for every box")
        games.append(Game(v.label, v.rules, tuple(g_strats), tuple(g_names), v.changes,
                          v.source, g_note, v.description))
    return tuple(games)
