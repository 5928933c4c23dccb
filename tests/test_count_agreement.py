"""The engine's count mode and the reference game's counter play the same random shoes and must
write identical records: the count, the true count's estimate, index plays at the count as each
decision is taken (the first on the dealt cards at the count after the deal), insurance and
even money by count, rule 11.5 under a count, and the index plays themselves (the reference
applies the index file cell by cell; the engine plays the band strategies
`counter.counter_strategies` makes of it). Each shoe is a fresh permutation of
``52 * decks`` cards, dealt to a cut card near its end; random index files change cells of every
chart at counts around zero, so that decisions flip within rounds.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from helpers import basic_strategy, describe_record

from simulator import kernel as K
from simulator import layout as L
from simulator import reference
from simulator.counter import counter_strategies
from simulator.counting import load_count
from simulator.index_plays import PAIR_ROWS, UPS, load_indices
from simulator.rules import Rules
from simulator.strategy import load_strategy, stack

NZ = Rules()
HARD = ("S", "H", "D", "Ds", "Rh", "Rs")


def _ramp(base):
    return SimpleNamespace(base=base, steps=())


def _random_indices(path, rng, count: str, plays: int = 40, pairs_only: bool = False) -> str:
    """An index file of ``plays`` random cells (hard, soft, pairs; or pairs only, split below
    or from a count near 0) and an insurance count."""
    lines = [f'count = "{count}"', "[[play]]", 'chart = "insurance"', 'row = "insurance"',
             'up = "A"', 'below = "N"', 'at_or_above = "Y"', f"index = {rng.integers(-1, 4)}"]
    cells = set()
    while len(cells) < plays:
        chart = "pairs" if pairs_only else str(rng.choice(["hard", "soft", "pairs"],
                                                          p=[0.45, 0.25, 0.3]))
        row = str(rng.choice(PAIR_ROWS)) if chart == "pairs" else str(
            rng.integers(12 if chart == "soft" else 8, 21))
        cells.add((chart, row, str(rng.choice(UPS))))
    for chart, row, up in sorted(cells):
        actions = ("P", "N") if pairs_only else ("P", "N", "Pd") if chart == "pairs" else HARD
        below, above = rng.choice(actions, 2, replace=False)
        index = rng.choice([-1, -0.5, 0, 0.5, 1]) if pairs_only else rng.integers(-3, 4) + \
            rng.choice([0, 0.5])
        lines += ["[[play]]", f'chart = "{chart}"', f'row = "{row}"', f'up = "{up}"',
                  f'below = "{below}"', f'at_or_above = "{above}"', f"index = {index}"]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


# (id, rules, count, deck estimation, base strategy, seed, shoes); "pairs": every pair cell
# split or not by the count (rule 11.5: a box that declined splits no later pair)
CASES = [
    ("pairs-1deck-max4", NZ.replace(decks=1, boxes=3, max_hands=4, resplit_aces=True), "hi-lo",
     "exact", "pairs", 7, 1500),
    ("nz-6deck-half", NZ, "hi-lo", "half", "basic", 1, 40),
    ("nz-1deck-3box-exact", NZ.replace(decks=1, boxes=3), "hi-lo", "exact", "basic", 2, 600),
    ("peek-late-h17-2box", NZ.replace(decks=2, boxes=2, hole_card="peek", surrender="late",
                                      dealer_hits_soft_17=True), "zen", "exact", "textbook", 3,
     80),  # fmt: skip
    ("ko-whole-resplit", NZ.replace(decks=2, max_hands=4, resplit_aces=True, double_on="any"),
     "ko", "whole", "basic", 4, 80),
    ("early-dbj-all-2box", NZ.replace(decks=1, boxes=2, surrender="early",
                                      dealer_blackjack_takes="all"), "omega-ii", "exact",
     "textbook", 5, 200),  # fmt: skip
    ("sevens-ss-7box", NZ.replace(decks=6, boxes=7), "sevens", "half", "basic-super-sevens", 6,
     60),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_the_engines_counter_plays_as_the_reference_game(case, tmp_path):
    name, rules, count, estimation, base_name, seed, shoes = case
    rng = np.random.default_rng(seed)
    base = basic_strategy() if base_name == "textbook" else load_strategy(
        "basic" if base_name == "pairs" else base_name)
    indices = _random_indices(tmp_path / "idx.toml", rng, count, 100 if base_name == "pairs"
                              else 40, pairs_only=base_name == "pairs")  # fmt: skip
    plan = SimpleNamespace(count=load_count(count), resolution=estimation, indices=indices,
                           bet=_ramp(1), super_sevens=_ramp(0), boxes=_ramp(rules.boxes),
                           wong_enter=None, wong_leave=None)  # fmt: skip
    strategies, counter, insurance = counter_strategies(rules, base, plan)  # the engine's
    tables = (stack(strategies), counter, insurance)
    # the reference applies the index file itself, decision by decision
    counting = reference.Counting(
        tags=tuple(plan.count.tags), irc=int(plan.count.initial_running_count(rules.decks)),
        step={"exact": 0, "half": 26, "whole": 52}[estimation], true=bool(plan.count.balanced),
        plays=load_indices(indices).plays)
    n = 52 * rules.decks
    rounds = splits = changed = 0
    for _ in range(shoes):
        cards = rng.permutation(n) % L.N_CODES
        cut = n - 3 * rules.boxes - 12
        got, _ = K.play_stacked(cards, rules, base, cut=cut, counter=tables)
        played = reference.play_stacked(cards, rules, base, cut=cut, counting=counting)
        want = reference.records(played, rules.boxes)
        assert got.shape == want.shape, (name, got.shape, want.shape)
        for i in np.flatnonzero((got != want).any(axis=1))[:1]:
            pytest.fail(f"{name}: round {i}\nengine:    {describe_record(got[i])}\n"
                        f"reference: {describe_record(want[i])}\n"
                        + reference.format_round(played[i], int(i)))
        rounds += len(want)
        hands = want[:, [L.R_FIXED + b * L.R_BOX + L.B_HANDS for b in range(rules.boxes)]]
        splits += int((hands > 1).sum())
        plain = K.play_stacked(cards, rules, base, cut=cut)  # the base strategy without a count
        changed += len(plain) != len(got) or bool((plain != got).any())
    assert rounds >= 500 and splits >= 10 and changed >= shoes // 2, (rounds, splits, changed)
