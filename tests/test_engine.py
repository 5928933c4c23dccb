"""The engine: chunk seeding and determinism across workers, the lazy bounded schedule, the in-order
precision stopping rule, and the simulate options that drive them (--precision, --max-rounds).

Runs are tiny (thousands of rounds, chunks of a few hundred) so the whole file takes seconds.
"""

from __future__ import annotations

import json
import threading
import time

import numpy as np
import pytest
from click.testing import CliRunner

from simulator import chunks, engine
from simulator import kernel as K
from simulator import layout as L
from simulator import tally as T
from simulator.cli import cli
from simulator.rules import Rules
from simulator.strategy import load_strategy

NZ = Rules()
BASIC = load_strategy("basic")


def run_cli(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def chunk_tallies(rules, rounds, seed, chunk_rounds):
    """Every chunk's tally, played one by one straight on the kernel (the oracle)."""
    params, tables = rules.to_params(), engine.stack_tables(rules, BASIC)
    return [
        K.simulate_chunk(params, tables, engine.chunk_size(i, rounds, chunk_rounds),
                         engine.chunk_state(seed, i))
        for i in range(engine.chunk_count(rounds, chunk_rounds))
    ]


# ---------------------------------------------------------------------------------------------
# Seeding and determinism


def test_chunk_state_is_the_seed_sequence_spawn_key():
    want = np.random.SeedSequence(5, spawn_key=(3,)).generate_state(4, np.uint64)
    assert np.array_equal(engine.chunk_state(5, 3), want)
    assert not np.array_equal(engine.chunk_state(5, 3), engine.chunk_state(5, 4))


def test_result_does_not_depend_on_workers_and_equals_the_chunks_summed():
    rules = NZ.replace(boxes=2)
    one = engine.run(rules, BASIC, 9_500, seed=12, chunk_rounds=1_000, workers=1)
    two = engine.run(rules, BASIC, 9_500, seed=12, chunk_rounds=1_000, workers=2)
    assert np.array_equal(one, two)
    assert np.array_equal(one, sum(chunk_tallies(rules, 9_500, 12, 1_000)))
    assert one[L.T_ROUNDS] == 9_500


def test_chunks_run_on_several_threads_at_once(monkeypatch):
    # The kernel releases the GIL; here we only check the engine really uses `workers` threads.
    seen, lock = set(), threading.Lock()
    real = chunks.simulate_chunk

    def spy(*args):
        with lock:
            seen.add((threading.current_thread().name, args[2] > 0))
        time.sleep(0.02)
        return real(*args)

    monkeypatch.setattr(chunks, "simulate_chunk", spy)
    engine.run(NZ, BASIC, 2_000, seed=1, chunk_rounds=100, workers=2)
    played = {name for name, rounds in seen if rounds}
    assert len(played) == 2 and all(name.startswith("bjsim") for name in played)
    # the kernel compiled (or loaded) first in the calling thread, where Ctrl-C can stop it
    assert (threading.current_thread().name, False) in seen


def test_skip_leaves_out_finished_chunks():
    parts = chunk_tallies(NZ, 5_000, 4, 500)
    got = {i: t for i, _, t in engine.iter_chunks(NZ, BASIC, 5_000, 4, 500, 2, skip={0, 3, 4})}
    assert sorted(got) == [1, 2, 5, 6, 7, 8, 9]
    for i, t in got.items():
        assert np.array_equal(t, parts[i])


def test_schedule_is_lazy_and_bounded_by_the_lookahead(monkeypatch):
    # Chunk 0 is slow: the others finish past it, but no chunk starts more than `lookahead`
    # indices past the lowest unfinished one, so the chunks waiting to join the prefix stay few.
    real = chunks.simulate_chunk
    slow = engine.chunk_state(2, 0)

    def slow_first(params, tables, n, state):
        if np.array_equal(state, slow):
            time.sleep(0.5)
        return real(params, tables, n, state)

    monkeypatch.setattr(chunks, "simulate_chunk", slow_first)
    state = engine.RunState(10**12, 10, None)  # 10^11 chunks: never materialised
    bound = engine.lookahead_for(engine.IN_FLIGHT_PER_WORKER * 2)
    most = highest = 0
    gen = engine.advance(state, NZ, BASIC, seed=2, workers=2)
    for i, _ in gen:
        most = max(most, len(state.extra))
        highest = max(highest, i)
        if state.prefix_end >= 3 * bound:
            break
    gen.close()
    assert 0 < most <= bound
    assert highest < 5 * bound  # nothing ran far ahead


# ---------------------------------------------------------------------------------------------
# RunState and the precision stopping rule


def test_half_width_is_what_summarize_reports():
    t = engine.run(NZ.replace(boxes=3), BASIC, 3_000, seed=9, chunk_rounds=1_000, workers=2)
    se = T.summarize(t, NZ.replace(boxes=3))["house_edge"]["se"]
    assert engine.half_width(t) == pytest.approx(T.Z95 * se, rel=1e-12)
    assert engine.half_width(T.empty_tally()) is None


def test_run_state_merges_in_index_order_whatever_the_finishing_order():
    parts = chunk_tallies(NZ, 6_000, 8, 300)
    rng = np.random.default_rng(0)
    results = []
    for order in (np.arange(len(parts)), rng.permutation(len(parts)), rng.permutation(len(parts))):
        state = engine.RunState(6_000, 300, precision=0.05)
        for i in order:
            state.add(int(i), parts[i])
        results.append((state.stop_chunk, state.total().tolist()))
    assert results[0] == results[1] == results[2]
    k = results[0][0]
    assert k is not None
    # the first k whose prefix meets the target, and the result is exactly chunks 0..k
    assert engine.half_width(sum(parts[: k + 1])) <= 0.05 < engine.half_width(sum(parts[:k]))
    assert results[0][1] == sum(parts[: k + 1]).tolist()


def test_a_partial_result_holds_the_chunks_finished_past_a_gap():
    # chunks 2 and 3 of 4 finished, 0 not: the partial result is theirs (a run-machinery audit:
    # a total dropping them passed, every stopped run in the tests having a whole prefix)
    parts = chunk_tallies(NZ, 4_000, 5, 1_000)
    state = engine.RunState(4_000, 1_000)
    state.add(2, parts[2])
    state.add(3, parts[3])
    assert not state.finished and state.rounds_done == 2_000
    assert state.total().tolist() == (parts[2] + parts[3]).tolist()


def test_chunk_seeds_are_distinct_for_thousands_of_chunks():
    # a run of 1e9 rounds in chunks of 200,000 has 5,000 chunks (a run-machinery audit: seeds
    # repeating every 1,024 chunks passed, no test using as many)
    for seed in (0, 1, 2**64 - 1):
        states = {tuple(int(w) for w in engine.chunk_state(seed, i)) for i in range(2048)}
        assert len(states) == 2048, seed


@pytest.mark.parametrize("workers", [1, 2])
def test_precision_stops_at_the_same_chunk_for_any_workers(workers):
    target = 0.06
    ref = chunk_tallies(NZ, 40_000, 21, 250)
    state = engine.RunState(40_000, 250, precision=target)
    for _ in engine.advance(state, NZ, BASIC, seed=21, workers=workers):
        pass
    k = state.stop_chunk
    assert state.target_met and state.finished
    hw = engine.half_width(state.total())
    assert hw <= target < engine.half_width(sum(ref[:k]))
    assert np.array_equal(state.total(), sum(ref[: k + 1]))
    assert state.total()[L.T_ROUNDS] == 250 * (k + 1)


def test_precision_not_met_plays_every_chunk_up_to_the_cap():
    state = engine.RunState(3_000, 1_000, precision=1e-6)
    for _ in engine.advance(state, NZ, BASIC, seed=1, workers=2):
        pass
    assert state.finished and state.target_met is False and state.stop_chunk is None
    assert state.total()[L.T_ROUNDS] == 3_000


def test_precision_is_not_met_on_the_spread_of_a_few_rounds():
    # Chunks of one round: two rounds alike have an SD of 0, hence a half-width of 0. The target
    # is checked only from MIN_TARGET_ROUNDS rounds on, where an SD means something.
    parts = chunk_tallies(NZ, 40, 1, 1)
    alike = next(i for i in range(39) if parts[i][L.T_RTOTAL_SUM] == parts[i + 1][L.T_RTOTAL_SUM])
    assert engine.half_width(parts[alike] + parts[alike + 1]) == 0.0  # what the rule once took
    state = engine.RunState(10_000, 1, precision=1e-6)
    state.add(0, parts[alike])
    state.add(1, parts[alike + 1])
    assert not state.finished and state.stop_chunk is None
    halves = chunk_tallies(NZ, 1_000, 2, 500)
    few = engine.RunState(10_000, 500, precision=1.0)  # any half-width meets it ...
    few.add(0, halves[0])
    assert not few.finished  # ... but not on 500 rounds
    few.add(1, halves[1])
    assert few.finished and few.stop_chunk == 1 and engine.MIN_TARGET_ROUNDS == 1_000


# ---------------------------------------------------------------------------------------------
# simulate --precision / --max-rounds


def test_cli_precision_same_stop_for_workers_1_and_2_and_meets_the_target():
    args = ["simulate", "--precision", "0.06", "--max-rounds", "100k", "--chunk-rounds", "250",
            "--seed", "21", "-q", "-f", "json"]
    one = run_cli(*args, "--workers", "1")
    two = run_cli(*args, "--workers", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert a["results"] == b["results"] and a["run"] == b["run"]
    p = a["run"]["precision"]
    assert p["met"] is True and p["half_width"] <= 0.06 and p["target"] == 0.06
    assert T.Z95 * a["results"]["house_edge"]["se"] == pytest.approx(p["half_width"])
    assert a["results"]["rounds"] == 250 * (p["stop_chunk"] + 1) < 100_000
    assert "met after" in one.stderr


def test_cli_precision_reports_a_target_not_met():
    r = run_cli("simulate", "--precision", "1e-6", "--max-rounds", "2000", "--chunk-rounds",
                "500", "-q", "-f", "json")
    assert r.exit_code == 0
    doc = json.loads(r.stdout)
    assert doc["run"]["precision"]["met"] is False and doc["results"]["rounds"] == 2000
    assert "NOT met" in r.stderr


@pytest.mark.parametrize(
    "args, words",
    [
        (["--precision", "0"], ["--precision"]),
        (["--precision", "-1"], ["--precision"]),
        (["--precision", "abc"], ["--precision"]),
        (["--precision", "nan"], ["--precision", "'nan' is not a number"]),
        (["--max-rounds", "1000"], ["--max-rounds", "--precision"]),
        (["--precision", "0.01", "--rounds", "1000"], ["--rounds", "--max-rounds"]),
        (["--precision", "0.01", "--max-rounds", "0"], ["--max-rounds"]),
        # a target is judged from 1,000 rounds on: it said "NOT met" beside a half-width within
        (["--precision", "0.9", "--max-rounds", "500"],
         ["--max-rounds 500: a precision target is judged from 1,000 rounds on"]),
        (["--scheduler", "nowhere"], ["--scheduler", "tcp://HOST:PORT"]),
        (["--resume"], ["--resume", "--checkpoint"]),
    ],
)
def test_cli_bad_values_exit_2_with_one_line(args, words):
    r = run_cli("simulate", "-q", *args)
    assert r.exit_code == 2, r.output
    last = [ln for ln in r.stderr.splitlines() if ln.strip()][-1]
    assert last.startswith("Error:") and "Traceback" not in r.output
    for w in words:
        assert w in last, (w, last)


def test_cli_help_lists_the_scale_options():
    out = run_cli("simulate", "--help").stdout
    for opt in ("--precision", "--max-rounds", "--scheduler", "--checkpoint", "--resume"):
        assert opt in out


def test_a_job_is_warmed_in_the_calling_thread_only_when_a_chunk_is_left():
    """``iter_jobs`` compiles (``job.warm()``) in the calling thread before its pool, where Ctrl-C
    stops it, and not at all when every chunk is finished (a resumed, complete run)."""
    warmed = []

    class Job:
        def warm(self):
            warmed.append(threading.current_thread().name)

        def __call__(self, i):
            return i, 1, np.zeros(1)

    assert list(chunks.iter_jobs(Job(), iter([]), 2)) == []
    assert warmed == []
    assert sorted(r[0] for r in chunks.iter_jobs(Job(), iter([0, 1, 2]), 2)) == [0, 1, 2]
    assert warmed == [threading.current_thread().name]
