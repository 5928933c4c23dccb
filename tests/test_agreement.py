"""The kernel and the reference game play the same random shoes and must write identical records.

Shoes are full permutations of ``52 * decks`` card codes drawn from numpy Generators with fixed
seeds; several shoes are concatenated and played in stacked mode (docs/design.md), so the two
implementations see exactly the same cards. Over all rule sets together more than 100,000 rounds
are compared, round by round. A mismatch prints the round's cards, both records and the
reference game's account of the round.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import basic_strategy, describe_record, make_strategy, play_records, random_strategy

from simulator import layout as L
from simulator import reference
from simulator.rules import Rules

NZ = Rules()


def _strategies(kind: str, boxes: int, rng: np.random.Generator):
    """Per-box strategies: a cycle of basic, random, insurance/even-money takers, mimic."""
    makers = {
        "basic": lambda i: basic_strategy(),
        "random": lambda i: random_strategy(rng, name=f"random-{i}"),
        "insure": lambda i: basic_strategy(insurance=True, even_money=True, name="insure"),
        "mimic": lambda i: make_strategy(name="mimic"),
    }
    cycle = {
        "basic": ["basic"],
        "random": ["random"],
        "mixed": ["basic", "random", "insure", "random", "mimic", "random", "insure"],
    }[kind]
    return [makers[cycle[i % len(cycle)]](i) for i in range(boxes)]


# (id, rules, strategy kind, rounds to compare at least, seed)
CASES = [
    ("nz-1box-basic", NZ, "basic", 8000, 1),
    ("nz-1box-random", NZ, "random", 8000, 2),
    ("nz-3box-mixed", NZ.replace(boxes=3), "mixed", 6000, 3),
    ("nz-7box-mixed", NZ.replace(boxes=7), "mixed", 4000, 4),
    (
        "peek-late-any-h17",
        NZ.replace(
            hole_card="peek", surrender="late", double_on="any", dealer_hits_soft_17=True, boxes=3
        ),
        "mixed",
        6000,
        5,
    ),
    (
        "peek-late-random",
        NZ.replace(hole_card="peek", surrender="late", boxes=3),
        "random",
        6000,
        6,
    ),
    ("dbj-all", NZ.replace(dealer_blackjack_takes="all", boxes=3), "random", 6000, 7),
    ("dbj-original", NZ.replace(dealer_blackjack_takes="original", boxes=3), "random", 6000, 8),
    ("one-deck", NZ.replace(decks=1, boxes=1), "random", 6000, 9),
    ("eight-decks-7box", NZ.replace(decks=8, boxes=7), "mixed", 4000, 10),
    (
        "rsa-hsa-max4",
        NZ.replace(resplit_aces=True, hit_split_aces=True, max_hands=4, boxes=3),
        "random",
        6000,
        11,
    ),
    (
        "rsa-only-max4",
        NZ.replace(resplit_aces=True, max_hands=4, double_on="any", boxes=3),
        "random",
        6000,
        12,
    ),
    ("max-hands-2", NZ.replace(max_hands=2, boxes=3), "random", 5000, 13),
    ("max-hands-1", NZ.replace(max_hands=1, boxes=3), "random", 4000, 14),
    ("super-sevens-off", NZ.replace(super_sevens=False, boxes=3), "mixed", 5000, 15),
    ("early-surrender-nohole", NZ.replace(surrender="early", boxes=3), "random", 5000, 16),
    (
        "early-surrender-peek",
        NZ.replace(surrender="early", hole_card="peek", boxes=3),
        "random",
        5000,
        17,
    ),
    ("late-surrender-nohole", NZ.replace(surrender="late", boxes=3), "mixed", 5000, 18),
    (
        "double-9-11-no-das",
        NZ.replace(double_on="9-11", double_after_split=False, boxes=3),
        "random",
        4000,
        19,
    ),
    (
        "double-10-11-6to5",
        NZ.replace(double_on="10-11", blackjack_pays=1.2, boxes=3),
        "random",
        4000,
        20,
    ),
    (
        "dealer-draws-always",
        NZ.replace(dealer_draws_when_no_live_box=True, boxes=3),
        "random",
        4000,
        21,
    ),
    (
        "insurance-3to2-orig-busted-h17",
        NZ.replace(insurance_pays=1.0, dealer_hits_soft_17=True, boxes=7),
        "mixed",
        3000,
        22,
    ),
]


def _mismatch_message(case_id, i, ref_results, ref, ker) -> str:
    lines = [f"{case_id}: kernel and reference disagree at round {i}"]
    if i < len(ref_results):
        r = ref_results[i]
        lines.append(f"  round cards (from position {r.start}): {reference.cards_text(r.cards)}")
    if i < len(ref):
        lines.append("  reference: " + describe_record(ref[i]))
    else:
        lines.append("  reference: (no such round)")
    if i < len(ker):
        lines.append("  kernel:    " + describe_record(ker[i]))
    else:
        lines.append("  kernel:    (no such round)")
    if i < len(ref_results):
        lines.append(reference.format_round(ref_results[i], i))
    return "\n".join(lines)


@pytest.mark.parametrize("case_id, rules, kind, min_rounds, seed", CASES, ids=[c[0] for c in CASES])
def test_kernel_agrees_with_reference(case_id, rules, kind, min_rounds, seed):
    rng = np.random.default_rng(seed)
    strategies = _strategies(kind, rules.boxes, rng)
    fresh = np.repeat(np.arange(L.N_CODES, dtype=np.int8), rules.decks)
    compared = 0
    while compared < min_rounds:
        # 20 shoes at a time, concatenated: stacked mode deals them in order with no shuffle
        cards = np.concatenate([rng.permutation(fresh) for _ in range(20)])
        ref_results = reference.play_stacked(cards, rules, strategies)
        ref = reference.records(ref_results, rules.boxes)
        ker = play_records("kernel", cards, rules, strategies)
        n = max(len(ref), len(ker))
        for i in range(n):
            if i >= len(ref) or i >= len(ker) or not np.array_equal(ref[i], ker[i]):
                pytest.fail(_mismatch_message(case_id, i, ref_results, ref, ker))
        compared += len(ref)
    assert compared >= min_rounds


# Shoes rich in a few ranks make the rare paths common: three sevens (Super Sevens (d), (e)),
# deep resplits, split aces, dealer blackjacks against split and doubled hands.
RICH_CASES = [
    ("rich-sevens-nz", NZ.replace(boxes=3), "A78TK", "random", 4000, 31),
    (
        "rich-sevens-max4-rsa",
        NZ.replace(boxes=3, max_hands=4, resplit_aces=True),
        "A7T",
        "random",
        4000,
        32,
    ),
    (
        "rich-pairs-all-late",
        NZ.replace(
            boxes=3, max_hands=4, dealer_blackjack_takes="all", surrender="late", double_on="any"
        ),
        "A8TK",
        "random",
        4000,
        33,
    ),
    (
        "rich-pairs-original-hsa",
        NZ.replace(
            boxes=2,
            max_hands=4,
            resplit_aces=True,
            hit_split_aces=True,
            dealer_blackjack_takes="original",
        ),
        "A238T",
        "random",
        4000,
        34,
    ),
    (
        "rich-peek-early-draws",
        NZ.replace(
            boxes=3, hole_card="peek", surrender="early", dealer_draws_when_no_live_box=True
        ),
        "A567T",
        "mixed",
        4000,
        35,
    ),
]


@pytest.mark.parametrize(
    "case_id, rules, ranks, kind, min_rounds, seed", RICH_CASES, ids=[c[0] for c in RICH_CASES]
)
def test_kernel_agrees_with_reference_on_rank_rich_shoes(
    case_id, rules, ranks, kind, min_rounds, seed
):
    rng = np.random.default_rng(seed)
    strategies = _strategies(kind, rules.boxes, rng)
    codes = np.array([L.RANKS.index(r) * 4 + s for r in ranks for s in range(4)], dtype=np.int8)
    fresh = np.repeat(codes, 8)
    compared = 0
    while compared < min_rounds:
        cards = np.concatenate([rng.permutation(fresh) for _ in range(40)])
        ref_results = reference.play_stacked(cards, rules, strategies)
        ref = reference.records(ref_results, rules.boxes)
        ker = play_records("kernel", cards, rules, strategies)
        for i in range(max(len(ref), len(ker))):
            if i >= len(ref) or i >= len(ker) or not np.array_equal(ref[i], ker[i]):
                pytest.fail(_mismatch_message(case_id, i, ref_results, ref, ker))
        compared += len(ref)


def test_agreement_covers_100k_rounds():
    assert sum(c[3] for c in CASES) >= 100_000


GAMES, SHOES = 48, 12


def test_kernel_agrees_with_reference_on_random_rule_sets():
    """Random rule sets, every key drawn from its declaration (`test_kernel._random_rules`, the
    keys it leaves at the NZ value too), random strategies a box, on full shoes and on shoes
    rich in a few ranks (split aces, three sevens): the engine and the reference game write
    identical records round by round. A contributor's review: a new key the engine ignored
    passed every agreement case, which are fixed rule sets written before it."""
    from helpers import random_value
    from test_kernel import LEFT_AT_NZ, _random_rules

    from simulator.rules import DECLARATIONS

    rng = np.random.default_rng(20261207)
    every = {k.name: k for k in DECLARATIONS}
    compared = 0
    for game in range(GAMES):
        boxes = int(rng.integers(1, 8))
        rules = _random_rules(rng, boxes, max(1, boxes // 2), (0.5, 0.9))
        rules = rules.replace(**{k: random_value(rng, every[k]) for k in LEFT_AT_NZ})
        strategies = _strategies("random", boxes, rng)
        if game % 2:  # (aces, sevens and tens with two or three ranks drawn, eight decks)
            ranks = ["A", "7", "T", *rng.choice(list("2345689JQK"), int(rng.integers(2, 4)),
                                                replace=False)]
            fresh = np.repeat(np.array([L.RANKS.index(r) * 4 + s for r in ranks
                                        for s in range(4)], dtype=np.int8), 8)
        else:
            fresh = np.repeat(np.arange(L.N_CODES, dtype=np.int8), rules.decks)
        cards = np.concatenate([rng.permutation(fresh) for _ in range(SHOES)])
        ref_results = reference.play_stacked(cards, rules, strategies)
        ref = reference.records(ref_results, rules.boxes)
        ker = play_records("kernel", cards, rules, strategies)
        for i in range(max(len(ref), len(ker))):
            if i >= len(ref) or i >= len(ker) or not np.array_equal(ref[i], ker[i]):
                pytest.fail(_mismatch_message(f"random game {game}: {rules}", i, ref_results,
                                              ref, ker))
        compared += len(ref)
    assert compared > 10_000, compared
