"""Arithmetic headroom: no tally can overflow before 10^13 rounds, and the engine refuses a chunk
size whose 64-bit tally could.

The kernel adds a chunk's rounds into int64; a run adds its chunks in Python integers
(`tally.run_total`). `tally.max_per_round` bounds what one round can add to each field, reasoned
from the money and counts of layout.TALLY_NAMES (Super Sevens' 5000 to 1 and the sums of squares
included), so a chunk is safe up to `tally.max_chunk_rounds` rounds and a run for ever.
"""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

from simulator import engine, kernel, tally
from simulator import layout as L
from simulator.rules import Rules
from simulator.strategy import load_strategy

INT64_MAX = 2**63 - 1
NZ7 = dataclasses.replace(Rules(), boxes=7, max_hands=4)  # the largest magnitudes of the NZ game


def test_the_bounds_cover_every_field_and_are_what_the_money_says():
    per = tally.max_per_round(NZ7)
    assert list(per) == list(L.TALLY_NAMES)
    assert all(v >= 1 for v in per.values())
    assert per["ss_sq"] == 7 * 5000**2  # a 5000 to 1 win on every box
    assert per["ss_round_sq"] == (7 * 5000) ** 2  # the largest: 1.2e9 a round
    assert per["main_sq"] == 7 * (2 * 10 * 4) ** 2  # four doubled hands, in tenths
    assert max(per.values()) == per["ss_round_sq"]
    # int64 alone would hold the NZ game for only 7.5e9 rounds, short of 10^13
    assert INT64_MAX // per["ss_round_sq"] < 10**13


def test_a_chunk_at_the_limit_cannot_overflow_int64():
    for rules in (Rules(), NZ7, Rules(max_hands=1),
                  dataclasses.replace(NZ7, super_sevens_pays=(3, 50, 100, 500, 1_000_000))):
        n = tally.max_chunk_rounds(rules)
        assert all(v * n <= INT64_MAX for v in tally.max_per_round(rules).values())
        assert any(v * (n + 1) > INT64_MAX for v in tally.max_per_round(rules).values())
    assert tally.max_chunk_rounds(NZ7) > 7 * 10**9  # far above any useful chunk


def test_no_tally_overflows_before_10_to_the_13_rounds():
    # 10^4 chunks of 10^9 rounds, each with every field at its largest possible value: the run's
    # total is exact (Python integers), where int64 would have wrapped (ss_round_sq, ss_sq, ...).
    per = tally.max_per_round(NZ7)
    chunk_rounds, chunks = 10**9, 10**4
    worst = np.array([v * chunk_rounds for v in per.values()], np.int64)
    assert all(int(x) == v * chunk_rounds for x, v in zip(worst, per.values(), strict=True))
    state = engine.RunState(chunk_rounds * chunks, chunk_rounds)
    for i in range(chunks):
        state.add(i, worst)
    total = state.total()
    assert state.finished
    assert [int(x) for x in total] == [v * 10**13 for v in per.values()]
    assert int(total[L.T_SS_RSQ]) > INT64_MAX  # beyond int64, still exact
    merged = tally.merge([worst] * 3)
    assert int(merged[L.T_SS_SQ]) == 3 * int(worst[L.T_SS_SQ])
    summary = tally.summarize(total, NZ7)  # the figures come out of a total that size
    assert summary["rounds"] == 10**13


def test_the_engine_refuses_a_chunk_size_that_could_overflow():
    rich = dataclasses.replace(NZ7, super_sevens_pays=(3, 50, 100, 500, 1_000_000))
    limit = tally.max_chunk_rounds(rich)
    assert limit < 1_000_000  # (7 x 10^6)^2 a round: the default chunk would be unsafe
    with pytest.raises(ValueError, match=r"chunk_rounds = 1,000,000 could overflow .* allowed "
                                         r"at most"):
        next(engine.iter_chunks(rich, load_strategy("basic"), 2_000_000, 1, 1_000_000, 1))
    engine.check_headroom(rich, limit)  # at the limit: accepted


def test_the_cli_says_so_in_one_line():
    from click.testing import CliRunner

    from simulator.cli import cli

    result = CliRunner().invoke(cli, ["simulate", "--boxes", "7", "--set", "max_hands=4",
                                      "--set", "super_sevens_pays=3,50,100,500,1000000", "-q"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "--chunk-rounds 1,000,000 could overflow" in result.stderr
    assert "'ss_round_sq'" in result.stderr and "1,000,000 to 1" in result.stderr


def test_without_super_sevens_the_limit_and_its_reason_are_the_main_game():
    off = dataclasses.replace(NZ7, super_sevens=False)
    per = tally.max_per_round(off)
    assert all(v == 0 for k, v in per.items() if k.startswith("ss_"))
    assert tally.max_chunk_rounds(off) == INT64_MAX // per["round_total_sq"]
    with pytest.raises(ValueError, match="'round_total_sq'") as err:
        engine.check_headroom(off, tally.max_chunk_rounds(off) + 1, "--chunk-rounds")
    assert "Super Sevens" not in str(err.value)
    assert str(err.value).startswith("--chunk-rounds ")


def test_real_chunks_stay_within_the_bounds():
    # The bounds are bounds: seven boxes, four hands, a kind strategy mix, 20,000 rounds.
    rules = dataclasses.replace(NZ7, double_on="any", resplit_aces=True, surrender="late")
    strategies = [load_strategy(n) for n in ("basic", "basic-super-sevens", "insurance-taker",
                                             "never-bust", "mimic-dealer", "basic", "basic")]
    n = 20_000
    t = kernel.simulate_chunk(rules.to_params(), engine.stack_tables(rules, strategies), n,
                              engine.chunk_state(3, 0))
    per = tally.max_per_round(rules)
    for name, value in zip(L.TALLY_NAMES, t, strict=True):
        assert abs(int(value)) <= per[name] * n, name


def test_a_game_without_splits_runs():
    # max_hands = 1: no round can split, so the splits field's bound is 0 (it was divided by,
    # and `bjsim simulate --set max_hands=1` stopped with a ZeroDivisionError traceback)
    t = engine.run(Rules(max_hands=1), load_strategy("basic"), 20_000, 1)
    assert t[L.T_ROUNDS] == 20_000 and t[L.T_SPLITS] == 0 and t[L.T_HANDS] == 20_000


RICH_FILE = "boxes = 7\nsuper_sevens_pays = [3, 50, 100, 500, 1000000]\n"  # at most 188,232
SMALL = {  # each command's options for a run of 1,000 rounds a game
    "simulate": ["--rounds", "1000"],
    "compare": ["--rounds", "1000", "--vary", "decks=8", "--no-exact", "--strategy", "basic",
                "--same-strategy"],
    "count": ["--rounds", "1000"],
    "report": ["--rounds", "1000", "--variant-rounds", "1000", "--strategy", "basic"],
}


class _Checked(Exception):
    """Raised in place of the report's runs: the options passed every check before them."""


@pytest.mark.parametrize("command", list(SMALL))
def test_the_chunk_check_takes_the_rounds_a_chunk_can_hold(tmp_path, monkeypatch, command):
    """A run of 1,000 rounds plays chunks of 1,000 rounds whatever --chunk-rounds says: under
    rules that allow at most 188,232 rounds a chunk it is not refused (it was, for the default
    --chunk-rounds 1,000,000); one of 200,000 rounds is, saying what to give."""
    from click.testing import CliRunner

    import simulator.assessment
    from simulator.cli import cli

    path = tmp_path / "rich.toml"
    path.write_text(RICH_FILE)
    assert tally.max_chunk_rounds(dataclasses.replace(Rules(), boxes=7, super_sevens_pays=(
        3, 50, 100, 500, 1_000_000))) == 188_232

    def checked(*args, **kwargs):
        raise _Checked

    monkeypatch.setattr(simulator.assessment, "compute", checked)
    args = [command, "--rules", str(path), "-q", "--chunk-rounds", "1_000_000", *SMALL[command]]
    if command == "report":
        args += ["-o", str(tmp_path / "out")]
    runner = CliRunner()
    small = runner.invoke(cli, args)
    if command == "report":
        assert isinstance(small.exception, _Checked), small.output
    else:
        assert small.exit_code == 0, small.output
    big = [a if a != "1000" else "200000" for a in args]
    refused = runner.invoke(cli, big)
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    assert ("Error: --chunk-rounds 1,000,000 with --rounds 200,000 could overflow a chunk's "
            "64-bit tally field 'ss_round_sq'") in refused.stderr
    assert "allowed at most 188,232 rounds a chunk: give --chunk-rounds 188,232 or fewer" \
        in refused.stderr


def test_a_precision_run_is_checked_by_its_max_rounds_and_the_engine_by_its_rounds():
    rich = dataclasses.replace(NZ7, super_sevens_pays=(3, 50, 100, 500, 1_000_000))
    limit = tally.max_chunk_rounds(rich)
    engine.check_headroom(rich, 1_000_000, rounds=limit)  # a chunk holds the limit: accepted
    next(engine.iter_chunks(rich, load_strategy("basic"), 1000, 1, 1_000_000, 1))
    with pytest.raises(ValueError, match=r"--chunk-rounds 1,000,000 with --max-rounds "
                                         rf"{limit + 1:,} could overflow"):
        engine.check_headroom(rich, 1_000_000, "--chunk-rounds", limit + 1, "--max-rounds")


# The counting tally (`bjsim count`): a plan's bets multiply it, so no bound before the run can be
# both safe and not refuse ordinary plans; `headroom.counting_bounds` proves each chunk exact.
def _count(rules, pl, rounds, seed=5):
    from simulator.counter import counter_for

    tables, counter, ins = counter_for(rules, load_strategy("basic-super-sevens"), pl)
    nets = np.zeros(L.N_NETS, np.int64)
    t, ct = kernel.count_chunk(rules.to_params(), tables, rounds, engine.chunk_state(seed, 0),
                               counter, ins, nets=nets)  # fmt: skip
    return rules.to_params(), counter, t, ct, nets


def _plan(count, bet=(1,), ss=(0,), boxes=(1,)):
    from types import SimpleNamespace

    from simulator.counting import load_count

    def ramp(values):  # the first value the base, then one a true count from +1 up
        return SimpleNamespace(base=values[0], steps=tuple((k + 1, v) for k, v in
                                                           enumerate(values[1:])))
    return SimpleNamespace(count=load_count(count), resolution="exact", indices=None, plays=None,
                           bet=ramp(bet), super_sevens=ramp(ss), boxes=ramp(boxes),
                           wong_enter=None, wong_leave=None)


@pytest.mark.parametrize("rules, pl", [
    (Rules(), _plan("hi-lo", bet=(1, 2, 4, 8, 12))),
    (NZ7, _plan("sevens", bet=(5, 50, 500), ss=(0, 0, 25, 100), boxes=(1, 3, 7))),
    (dataclasses.replace(NZ7, super_sevens_pays=(300, 50, 1000, 5000, 100_000), decks=2,
                         penetration=0.9), _plan("sevens", bet=(3,), ss=(1, 2, 10), boxes=(7,))),
])
def test_the_counting_bounds_bound_real_chunks(rules, pl):
    # Every field of real chunks (nothing near the limit, so their sums are exact) within its
    # bound, and no chunk refused: a bound below a real sum would let an overflow through.
    from simulator.headroom import counting_bounds, counting_overflow

    args = _count(rules, pl, 30_000)
    bounds = counting_bounds(*args)
    sums = np.asarray(args[3]).astype(object).sum(axis=0)
    assert list(bounds) == list(L.COUNT_NAMES)
    for name, value in zip(L.COUNT_NAMES, sums, strict=True):
        assert abs(int(value)) <= bounds[name], name
    assert int(sums[L.C_ROUND_SQ]) > 0 and counting_overflow(*args) is None


def test_the_nets_bins_bound_every_net_in_them():
    # C_ROUND_SQ's bound: each bin's largest |net| (tenths) at least every net `net_bin` puts
    # there, and within one step of its octave (a bound 1.6% above the net at most).
    from simulator.headroom import _net_edges

    edges = _net_edges()
    assert len(edges) == L.N_NETS
    rng = np.random.default_rng(1)
    xs = [0, 1, -1, 4095, -4095, 4096, -4096, 8191, 8192, 2**62, -(2**62), 2**63 - 1,
          *rng.integers(-(2**40), 2**40, 2000), *rng.integers(-(10**6), 10**6, 2000)]
    for x in map(int, xs):
        top = edges[kernel.count.net_bin.py_func(x)]
        assert abs(x) <= top <= max(abs(x) * (1 + 1 / 64), abs(x) + 1), x


def test_a_chunk_that_could_overflow_is_refused_not_reported():
    # 10,000-unit bets on 7 boxes: the counter's round_sq passed 2^63 in 1M rounds and count
    # printed an SD of 0 and an interval of no width. Each chunk is now cleared or refused.
    from simulator.headroom import INT64_MAX, counting_overflow

    big = _plan("sevens", bet=(10_000,), ss=(10_000,), boxes=(7,))
    args = _count(NZ7, big, 500_000)
    field, bound = counting_overflow(*args)
    assert field == "round_sq" and bound > INT64_MAX
    # the bound is not loose: the true sum of squares (from the nets' least values) is beyond
    # the limit too, so the refused chunk had overflowed
    nets = args[4]
    least = sum(int(nets[k]) * _least(int(k)) ** 2 for k in np.flatnonzero(nets))
    assert least > INT64_MAX
    assert counting_overflow(*_count(NZ7, big, 2_000)) is None  # a chunk small enough passes


def _least(k: int) -> int:
    """The smallest |net| of nets bin ``k`` (the bins above NET_EXACT: an octave's steps)."""
    if k < 2 * L.NET_EXACT - 1:
        return abs(k - (L.NET_EXACT - 1))
    e, j = divmod((k - (2 * L.NET_EXACT - 1)) // 2, L.NET_STEPS)
    return (L.NET_EXACT + j * (L.NET_EXACT // L.NET_STEPS)) << e


def test_count_refuses_the_chunk_size_in_one_line(tmp_path):
    from click.testing import CliRunner

    from simulator.cli import cli

    def plan(ss):  # 10,000-unit main bets on 7 boxes, Super Sevens ``ss`` units
        path = tmp_path / f"big{ss}.toml"
        path.write_text('name = "big"\ncount = "sevens"\nstrategy = "basic-super-sevens"\n'
                        "table_min = 1\ntable_max = 10000\n[bet]\nbase = 10000\n"
                        f"[super_sevens]\nbase = {ss}\n[boxes]\nbase = 7\n")
        return str(path)

    def last(*args):
        r = CliRunner().invoke(cli, ["count", "--boxes", "7", "--quiet", *args])
        assert r.exit_code != 0 and "Traceback" not in r.output
        return r.output.strip().splitlines()[-1]

    # a round's square within int64, a 2M-round chunk's sum of them not: refused after it, with
    # a chunk size that then plays (found by a review: its first advice had failed again)
    said = last("--plan", plan(4000), "--rounds", "2000000", "--chunk-rounds", "2000000")
    assert re.match(r"Error: --chunk-rounds 2,000,000: chunk 0's counting tally field "
                    r"'round_sq' could have passed the 64-bit limit", said), said
    size = re.search(r"give --chunk-rounds ([\d,]+)$", said).group(1).replace(",", "")
    r = CliRunner().invoke(cli, ["count", "--boxes", "7", "--quiet", "--plan", plan(4000),
                                 "--rounds", "2000000", "--chunk-rounds", size])
    assert r.exit_code == 0, r.output
    # a round whose own square can pass it: refused before any round, saying why
    said = last("--plan", plan(10_000), "--rounds", "1000")
    assert said.startswith("Error: --plan ") and "a round of it can net up to 350,490,000 units" \
        in said and "to 301,345,785 units or less" in said, said


def test_the_exact_mean_squares_bound_is_the_chunks_not_the_worst_shoes():
    # 8 decks, a 100,000 to 1 top pay: the deepest shoe's mean square times every bet passed
    # 2^63 in a 1M-round chunk and count refused a plan staking 1 unit (a review); bounded now by
    # the top pay times the chunk's exact returns (a mean square is at most pay x (mean + 2))
    from simulator.headroom import INT64_MAX, counting_bounds

    rules = dataclasses.replace(Rules(), decks=8, super_sevens_pays=(3, 50, 100, 500, 100_000))
    args = _count(rules, _plan("sevens", ss=(0, 0, 0, 0, 0, 0, 1)), 100_000)
    bounds = counting_bounds(*args)
    real = int(np.asarray(args[3])[:, L.C_SS_EXACT_SQ].astype(object).sum())
    assert real <= bounds["ss_exact_sq"] < 10 * real
    assert bounds["ss_exact_sq"] * 10 < INT64_MAX  # (a 1M chunk: well within)


@pytest.mark.parametrize("decks", [6, 8])
def test_the_default_chunk_holds_the_sevens_plan_on_seven_boxes_deep(decks):
    # The exact Super Sevens fields' bounds (the largest a round's starting shoe can give) leave
    # the default chunk of 1,000,000 rounds for seven boxes at 0.9 penetration (about 2.4M).
    from simulator.counter import super_sevens_by_sevens_left
    from simulator.headroom import reachable_ev

    rules = dataclasses.replace(NZ7, decks=decks, penetration=0.9)
    e0, e1 = reachable_ev(super_sevens_by_sevens_left(rules), decks,
                          int(rules.to_params()[L.P_CUT]), False)
    assert 0 < e0 and 0 < e1
    assert INT64_MAX // (7 * max(e0, e1)) > 2 * engine.DEFAULT_CHUNK_ROUNDS
