"""The engine's count mode and the reference game's counter play the same random shoes and must
write identical records: the count, the true count's estimate, index plays at the count as each
decision is taken (the first on the dealt cards at the count after the deal), insurance and
even money by count, rule 11.5 under a count, and the index plays themselves (the reference
applies the index file cell by cell; the engine plays the band strategies
`counter.counter_strategies` makes of it). Each shoe is a fresh permutation of
``52 * decks`` cards, dealt to a cut card near its end; random index files change cells of every
chart at counts around zero, so that decisions flip within rounds. Then the bets: random plans
(ramps, wonging, boxes by count) bet by both, and the counting tallies must be equal.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
from helpers import basic_strategy, describe_record

from simulator import kernel as K
from simulator import layout as L
from simulator import reference
from simulator.counter import counter_strategies, exact_plays, seven_seven_play
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
        if chart == "hard" and int(row) <= 11:  # (a plain S there is refused, rule 12.1 (d):
            # the draw it forces is reached by Ds's and Rs's stand instead)
            below, above = (("Rs" if other == "Ds" else "Ds") if a == "S" else a
                            for a, other in ((below, above), (above, below)))
        index = rng.choice([-1, -0.5, 0, 0.5, 1]) if pairs_only else rng.integers(-3, 4) + \
            rng.choice([0, 0.5])
        lines += ["[[play]]", f'chart = "{chart}"', f'row = "{row}"', f'up = "{up}"',
                  f'below = "{below}"', f'at_or_above = "{above}"', f"index = {index}"]
    path.write_text("\n".join(lines) + "\n")
    return str(path)



def both_play(name, cards, rules, base, counter, counting, nets=None):
    """The engine's count mode (``counter``: `counter.counter_strategies`' tables, counter and
    insurance) and the reference's ``counting`` play ``cards`` to a cut near the end: their
    records must be the same round for round (the first that differs is shown, with the
    reference's bets). Returns ``(records, the engine's counting tally, the reference's
    rounds)``; the engine's nets added to ``nets``."""
    cut = len(cards) - 3 * rules.boxes - 12
    got, tally = K.play_stacked(cards, rules, base, cut=cut, counter=counter, nets=nets)
    played = reference.play_stacked(cards, rules, base, cut=cut, counting=counting)
    want = reference.records(played, rules.boxes)
    assert got.shape == want.shape, (name, got.shape, want.shape)
    for i in np.flatnonzero((got != want).any(axis=1))[:1]:
        pytest.fail(f"{name}: round {i}, {played[i].bets}\nengine:    "
                    f"{describe_record(got[i])}\nreference: {describe_record(want[i])}\n"
                    + reference.format_round(played[i], int(i)))
    return want, tally, played

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
    # 6 to 5: even money taken at every count, insurance by the count (not the same bet now)
    ("bj65-even-money-1deck-2box", NZ.replace(decks=1, boxes=2, blackjack_pays=1.2), "hi-lo",
     "exact", "basic-even-money", 8, 400),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_the_engines_counter_plays_as_the_reference_game(case, tmp_path):
    name, rules, count, estimation, base_name, seed, shoes = case
    rng = np.random.default_rng(seed)
    base = basic_strategy() if base_name == "textbook" else load_strategy(
        "basic" if base_name in ("pairs", "basic-even-money") else base_name)
    base = replace(base, even_money=True) if base_name == "basic-even-money" else base
    indices = _random_indices(tmp_path / "idx.toml", rng, count, 100 if base_name == "pairs"
                              else 40, pairs_only=base_name == "pairs")  # fmt: skip
    plan = SimpleNamespace(count=load_count(count), resolution=estimation, indices=indices,
                           plays=load_indices(indices), bet=_ramp(1), super_sevens=_ramp(0),
                           boxes=_ramp(rules.boxes),
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
        want, _, _ = both_play(name, cards, rules, base, tables, counting)
        rounds += len(want)
        hands = want[:, [L.R_FIXED + b * L.R_BOX + L.B_HANDS for b in range(rules.boxes)]]
        splits += int((hands > 1).sum())
        plain = K.play_stacked(cards, rules, base, cut=n - 3 * rules.boxes - 12)  # no count
        changed += len(plain) != len(want) or bool((plain != want).any())
    assert rounds >= 500 and splits >= 10 and changed >= shoes // 2, (rounds, splits, changed)


# The bets: random plans (main, Super Sevens and box ramps, wonging) bet by the count before
# each deal, the counting tally (every C_ field, the exact Super Sevens moments included: the
# engine carries them whenever the rules' side bet is on) compared whole. (id, rules, count,
# deck estimation, base strategy, random index plays, seed, shoes, (centre, spread) of the
# plans' counts: around where the count goes, KO's running count from its IRC 4 - 4 x decks up.)
BET_CASES = [
    ("hilo-1deck-exact-3box", NZ.replace(decks=1, boxes=3), "hi-lo", "exact", "basic", True, 11,
     150, (0, 4)),
    ("hilo-2deck-whole-4box-ss-off", NZ.replace(decks=2, boxes=4, super_sevens=False), "hi-lo",
     "whole", "basic", False, 12, 60, (0, 4)),
    ("ko-2deck-running-peek-3box", NZ.replace(decks=2, boxes=3, hole_card="peek"), "ko", "exact",
     "textbook", True, 13, 60, (0, 6)),
    ("sevens-6deck-half-7box", NZ.replace(boxes=7), "sevens", "half", "basic-super-sevens",
     False, 14, 24, (0, 10)),
    ("zen-4deck-half-peek-2box-ss-off", NZ.replace(decks=4, boxes=2, hole_card="peek",
                                                   super_sevens=False, surrender="late"),
     "zen", "half", "textbook", True, 15, 20, (0, 5)),
    ("omega-8deck-whole-1box", NZ.replace(decks=8, boxes=1), "omega-ii", "whole",
     "basic-super-sevens", False, 16, 8, (0, 5)),
]  # fmt: skip


def _random_plan_ramps(rng, rules, centre: float, spread: float) -> dict:
    """Random ramps and wonging: counts on the half-unit grid within ``centre +- spread`` (so
    that counts land on them exactly), a ramp's amounts in any order; wonging two times in
    three, boxes by count up to the rules' boxes, Super Sevens bets only with the side bet on."""

    def counts(k):
        grid = centre + np.arange(-2 * spread, 2 * spread + 1) / 2
        return sorted(float(x) for x in rng.choice(grid, k, replace=False))

    def ramp(low, high, most):
        steps = counts(rng.integers(most + 1))
        return int(rng.integers(low, high + 1)), tuple(
            (c, int(rng.integers(low, high + 1))) for c in steps)

    plan = {"bet": ramp(1, 20, 5), "boxes": ramp(1, rules.boxes, 3), "wong": None,
            "super_sevens": ramp(0, 5, 3) if rules.super_sevens else (0, ())}
    if rng.random() < 2 / 3:
        leave, enter = counts(2) if rng.random() < 0.8 else counts(1) * 2
        plan["wong"] = (enter, leave)
    return plan


@pytest.mark.parametrize("case", BET_CASES, ids=[c[0] for c in BET_CASES])
def test_the_engines_counter_bets_as_the_reference_game(case, tmp_path):
    """The engine's bets, wonging and boxes by count (``count.round_start``, ``add_box``,
    ``add_round``, ``add_exact``) against the reference's (``Counting.bets``,
    ``reference.counting_tally``): the records, whose boxes follow the plan, and the counting
    tally, exactly; a new random plan every shoe."""
    name, rules, count, estimation, base_name, with_plays, seed, shoes, (centre, spread) = case
    rng = np.random.default_rng(seed)
    base = basic_strategy() if base_name == "textbook" else load_strategy(base_name)
    indices = _random_indices(tmp_path / "idx.toml", rng, count) if with_plays else None
    system = load_count(count)
    plays = load_indices(indices).plays if indices else ()
    n = 52 * rules.decks
    seen = {"watched": 0, "played": 0, "bets": set(), "boxes": set(), "ss": 0, "ties": 0,
            "exact": 0, "staked exact": 0, "nets": set()}
    for _ in range(shoes):
        ramps = _random_plan_ramps(rng, rules, centre, spread)
        wong = ramps["wong"] or (None, None)
        plan = SimpleNamespace(
            count=system, resolution=estimation, indices=indices,
            plays=load_indices(indices) if indices else None,
            **{k: SimpleNamespace(base=r[0], steps=r[1]) for k, r in ramps.items() if k != "wong"},
            wong_enter=wong[0], wong_leave=wong[1])  # fmt: skip
        strategies, counter, insurance = counter_strategies(rules, base, plan)
        counting = reference.Counting(
            tags=tuple(system.tags), irc=int(system.initial_running_count(rules.decks)),
            step={"exact": 0, "half": 26, "whole": 52}[estimation], true=bool(system.balanced),
            plays=plays, bet=ramps["bet"], super_sevens=ramps["super_sevens"],
            boxes=ramps["boxes"], wong=ramps["wong"])  # fmt: skip
        got_nets, want_nets = np.zeros((2, L.N_NETS), np.int64)
        _, got_tally, played = both_play(name, rng.permutation(n) % L.N_CODES, rules, base,
                                         (stack(strategies), counter, insurance), counting,
                                         got_nets)  # fmt: skip
        want_tally = reference.counting_tally(
            played, rules, exact_plays(rules, seven_seven_play(rules, strategies)), want_nets)
        differ = np.flatnonzero(got_nets != want_nets)  # the rounds played by their net
        assert differ.size == 0, (name, [(i, got_nets[i], want_nets[i]) for i in differ[:5]])
        seen["nets"] |= set(np.flatnonzero(got_nets))
        for row, field in np.argwhere(got_tally != want_tally)[:1]:
            at = [r for r in played if np.floor(r.bets.count) == row + L.TC_MIN]
            pytest.fail(f"{name}: plan {ramps}: count row {row + L.TC_MIN}, "
                        f"{L.COUNT_NAMES[field]}: engine {got_tally[row, field]}, reference "
                        f"{want_tally[row, field]}; the reference's rounds there: "
                        + "; ".join(str(r.bets) for r in at[:5]))
        seen["exact"] += int((got_tally[:, L.C_SS_EXACT_SQ] > 0).any())
        seen["staked exact"] += int((got_tally[:, L.C_SS_EXACT_BET] != 0).any())
        thresholds = {c for k in ("bet", "super_sevens", "boxes") for c, _ in ramps[k][1]}
        thresholds |= set(ramps["wong"] or ())
        for r in played:
            b = r.bets
            seen["played" if b.seated else "watched"] += 1
            seen["bets"].add(b.bet)
            seen["boxes"].add(b.boxes)
            seen["ss"] += b.super_sevens > 0
            seen["ties"] += b.count in thresholds
    # the plans did what they are there for: watched and played rounds, several bets and box
    # counts, Super Sevens bets with the side bet on, and counts exactly at a step or wong count
    assert seen["watched"] >= 20 and seen["played"] >= 250 and len(seen["bets"]) >= 6, seen
    assert len(seen["boxes"]) >= min(rules.boxes, 3) and seen["ties"] >= 10, seen
    assert len(seen["nets"]) >= 20, len(seen["nets"])  # (many nets: bets times results)
    assert seen["ss"] >= 20 and seen["exact"] == shoes or not rules.super_sevens, seen
    assert seen["staked exact"] >= shoes // 2 or not rules.super_sevens, seen  # (what it bet)


def test_a_counter_on_fewer_boxes_plays_the_whole_stacked_shoe():
    # One box by the plan at a table of four: the ordered deck makes 8 one-box rounds (as the
    # one-box game plays them); the engine's records had held 52 // 9 + 1 = 6, for rounds that
    # deal every box.
    rules, base = NZ.replace(decks=1, boxes=4), load_strategy("basic")
    flat = SimpleNamespace(base=1, steps=())
    plan = SimpleNamespace(count=load_count("hi-lo"), resolution="exact", indices=None,
                           plays=None, bet=flat,
                           super_sevens=_ramp(0), boxes=flat, wong_enter=None, wong_leave=None)
    strategies, counter, insurance = counter_strategies(rules, base, plan)
    cards = np.arange(52)
    got, tally = K.play_stacked(cards, rules, base, counter=(stack(strategies), counter,
                                                             insurance))  # fmt: skip
    one_box = K.play_stacked(cards, NZ.replace(decks=1, boxes=1), base)
    assert len(one_box) == 8
    assert len(got) == tally[:, L.C_ROUNDS].sum() == 8


def test_the_insurance_results_se_is_the_one_its_rounds_give(tmp_path):
    """count's SE of the insurance result per unit of initial main bet (`counting_report.figures`
    from the engine's counting tally: ``ins_sq``) against the SE computed here from the rounds:
    the sample SD of each round played's insurance result at the counter's bet (the reference's
    boxes, which share the dealer's cards, so that their insurance bets win or lose together),
    times the square root of the rounds played, over the initial bets; and the insurance bets
    won and lost (``ins_won``, ``ins_lost``) as the boxes', with simulate's rule for an interval
    on them. Three boxes, a bet ramp, wonging, and insurance at a Hi-Lo true count of 0 or more;
    seed 21."""
    import dataclasses
    import math
    import statistics

    from simulator import counting_report as CR
    from simulator.plans import Ramp, load_plan
    from simulator.tally import MIN_WINS, TOO_FEW

    rules, base = NZ.replace(decks=2, boxes=3), load_strategy("basic")
    rng = np.random.default_rng(21)
    path = tmp_path / "ins.toml"
    path.write_text('count = "hi-lo"\n[[play]]\nchart = "insurance"\nrow = "insurance"\n'
                    'up = "A"\nbelow = "N"\nat_or_above = "Y"\nindex = 0\n')
    system, ramp = load_count("hi-lo"), (1, ((1.0, 2), (3.0, 5)))
    plan = SimpleNamespace(count=system, resolution="half", indices=str(path),
                           plays=load_indices(path),
                           bet=SimpleNamespace(base=ramp[0], steps=ramp[1]), super_sevens=_ramp(0),
                           boxes=_ramp(3), wong_enter=-1.0, wong_leave=-2.0)  # fmt: skip
    strategies, counter, insurance = counter_strategies(rules, base, plan)
    counting = reference.Counting(
        tags=tuple(system.tags), irc=int(system.initial_running_count(rules.decks)), step=26,
        true=True, plays=load_indices(str(path)).plays, bet=ramp, boxes=(3, ()),
        wong=(-1.0, -2.0))  # fmt: skip
    tally, ins, per_box, bets = np.zeros((L.N_TC, L.N_COUNT), np.int64), [], [], 0
    for _ in range(120):
        _, got, played = both_play("insurance-se", rng.permutation(104) % L.N_CODES, rules, base,
                                   (stack(strategies), counter, insurance), counting)
        tally += got
        for r in (r for r in played if r.bets.seated):
            ins.append(sum(b.insurance_net for b in r.boxes) * r.bets.bet / L.UNIT)
            per_box += [b.insurance_net * r.bets.bet / L.UNIT for b in r.boxes]
            bets += r.bets.bet * len(r.boxes)
    won, lost = sum(x > 0 for x in ins), sum(x < 0 for x in ins)
    assert won >= 5 and lost >= 10 and len(ins) < tally[:, L.C_ROUNDS].sum(), (won, lost)
    assert tally[:, L.C_INS_SQ].sum() == sum(round(x * L.UNIT) ** 2 for x in ins)
    # The insurance bets won and lost, one a box insured (not every box of a round insures: a
    # blackjack takes even money), which simulate's rule for an interval counts.
    n_won, n_lost = tally[:, L.C_INS_WON].sum(), tally[:, L.C_INS_LOST].sum()
    assert won <= n_won == sum(x > 0 for x in per_box) <= 3 * won
    assert lost <= n_lost == sum(x < 0 for x in per_box) <= 3 * lost
    # By this plan's 3 boxes they are at least ceil(bets / 3) rounds, too few for an interval
    # (simulate's words); by a one-box plan's, bets are rounds, enough for one.
    few = dataclasses.replace(load_plan("hi-lo-1-12"), boxes=Ramp(3))
    assert math.ceil(n_won / 3) <= won < MIN_WINS <= n_won < n_lost
    assert CR.figures(tally, few, rules)["insurance_per_initial_bet_interval_note"] == (
        f"{TOO_FEW}: {n_won} winning insurance bet(s), in at least {math.ceil(n_won / 3)} "
        "round(s) (the boxes of a round settle insurance together), fewer than 30 rounds")
    f = CR.figures(tally, load_plan("hi-lo-1-12"), rules)
    se = statistics.stdev(ins) * math.sqrt(len(ins)) / bets
    assert f["insurance_per_initial_bet"] == pytest.approx(sum(ins) / bets, rel=1e-12)
    assert f["insurance_per_initial_bet_se"] == pytest.approx(se, rel=1e-9)
    # Each box's square alone, as though its insurance bet were independent of the others',
    # would understate it: the boxes insure together, so about 1 / sqrt(3) of it.
    by_box = statistics.stdev(per_box) * math.sqrt(len(per_box)) / bets
    assert by_box < 0.75 * se, (by_box, se)
