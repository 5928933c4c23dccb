"""The golden tallies: a matrix of games and seeds whose kernel tallies are kept as test data.

Recorded from the kernel of commit c75f11d (three engines: general path, fast path, state
machine) before the kernel became one engine; ``test_golden.py`` requires the kernel to
reproduce them bit for bit. The no-hole games' tallies (138 of 175 cases) were recorded again
when rule 8.2 was read whole (the dealer completes the hand for a waiting blackjack, so such
rounds deal more cards): each from its stored case, the rest of the data unchanged. Each case
is stored whole (rule parameters, the stacked strategy tables, the xoshiro state, the rounds),
so the data does not depend on rule files or strategy files that may change. The parameters
are read by their slots' names (``layout.P_*``): a slot added since takes the NZ rules' value,
so a new rule key at its default is held to the recorded tallies without recording them
again. Regenerate only on purpose (a change of dealing order, said in the commit):

    python tests/golden.py          # writes tests/data/golden_tallies.npz
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "golden_tallies.npz"
TABLES = ("hard", "soft", "pairs", "sevens", "flags")


def cases() -> list[tuple[str, object, list, int, int]]:
    """``(name, rules, strategies, seed, rounds)`` for every case of the matrix."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "tests"))
    from helpers import basic_strategy, random_strategy

    from simulator.rules import Rules
    from simulator.strategy import load_strategy

    nz = Rules()
    basic = load_strategy("basic")
    ss = load_strategy("basic-super-sevens")
    ins = load_strategy("insurance-taker")
    mimic = load_strategy("mimic-dealer")
    never = load_strategy("never-bust")
    textbook = basic_strategy()  # surrender codes and Pd
    rng = np.random.default_rng(20261201)
    rand = [random_strategy(rng, f"random{i}") for i in range(7)]
    out = []

    def add(name, rules, strategies, seeds=(1,), rounds=3000):
        for seed in seeds:
            out.append((f"{name}/seed{seed}", rules, list(strategies), seed, rounds))

    # Every shipped strategy on the NZ game, one box; two seeds each.
    for s in (basic, ss, ins, mimic, never, textbook):
        add(f"nz_1box_{s.name}", nz, [s], seeds=(1, 2))
    # Every rule key at a non-default value (NZ otherwise), with strategies that reach it.
    variants = {
        "decks2": dict(decks=2),
        "decks8": dict(decks=8),
        "deck1_deep": dict(decks=1, penetration=0.95),
        "pen_low": dict(penetration=0.3),
        "every_round": dict(shuffle="every-round"),
        "peek": dict(hole_card="peek"),
        "bj_6to5": dict(blackjack_pays=1.2),
        "ins_pays3": dict(insurance_pays=3.0),
        "double_any": dict(double_on="any"),
        "double_9_11": dict(double_on="9-11"),
        "double_10_11": dict(double_on="10-11"),
        "no_das": dict(double_after_split=False),
        "max_hands1": dict(max_hands=1),
        "max_hands2": dict(max_hands=2),
        "max_hands4": dict(max_hands=4),
        "rsa": dict(resplit_aces=True, max_hands=4),
        "hsa": dict(hit_split_aces=True),
        "h17": dict(dealer_hits_soft_17=True),
        "draw_dead": dict(dealer_draws_when_no_live_box=True),
        "dbj_all": dict(dealer_blackjack_takes="all"),
        "dbj_original": dict(dealer_blackjack_takes="original"),
        "late": dict(surrender="late"),
        "early": dict(surrender="early"),
        "ss_off": dict(super_sevens=False),
        "ss_pays": dict(super_sevens_pays=(2, 20, 40, 200, 1000)),
        "peek_late_h17": dict(hole_card="peek", surrender="late", dealer_hits_soft_17=True),
        "peek_early_orig": dict(
            hole_card="peek", surrender="early", dealer_blackjack_takes="original"
        ),
    }
    for key, change in variants.items():
        rules = nz.replace(**change)
        for s in (ss, ins, textbook, rand[0]):
            add(f"{key}_1box_{s.name}", rules, [s])
        add(f"{key}_3box_mixed", rules.replace(boxes=3), [ss, ins, rand[1]])
    # Several boxes: 3 and 7, one strategy or one each, Super Sevens on and off.
    for boxes in (3, 7):
        for ss_on in (True, False):
            rules = nz.replace(boxes=boxes, super_sevens=ss_on)
            add(f"nz_{boxes}box_ss{int(ss_on)}_basic", rules, [ss], seeds=(1, 2))
            add(f"nz_{boxes}box_ss{int(ss_on)}_mixed", rules, rand[:boxes], seeds=(1, 2))
    seven = [ss, ins, mimic, never, textbook, basic, rand[2]]
    add("nz_7box_shipped", nz.replace(boxes=7), seven, seeds=(1, 2, 3))
    add("deck1_deep_7box", nz.replace(decks=1, penetration=0.95, boxes=7), seven)
    add("deck1_deep_7box_rand", nz.replace(decks=1, penetration=0.95, boxes=7), rand)
    add("every_round_7box", nz.replace(shuffle="every-round", boxes=7), seven)
    add("peek_7box", nz.replace(hole_card="peek", boxes=7), seven)
    add("late_7box", nz.replace(surrender="late", boxes=7), seven)
    add("early_7box_rand", nz.replace(surrender="early", boxes=7), rand)
    add("deep_draw_dead_7box", nz.replace(dealer_draws_when_no_live_box=True, boxes=7), seven)
    add("nz_1box_long", nz, [ss], seeds=(5,), rounds=20000)
    add("nz_7box_long", nz.replace(boxes=7), [ss], seeds=(5,), rounds=5000)
    return out


def param_names() -> list[str]:
    """The engine's parameter slots by index, by their ``layout.P_*`` names."""
    from simulator import layout as L

    return [k for _, k in sorted((v, k) for k, v in vars(L).items()
                                 if k.startswith("P_") and isinstance(v, int))]


def _params(recorded: np.ndarray, names) -> np.ndarray:
    """A recorded parameter vector (slots ``names``) as the engine's parameters now: each slot
    by its name, one added since at the NZ rules' value; a slot gone is an error."""
    from simulator.rules import Rules

    now = param_names()
    gone = [n for n in names if n not in now]
    if gone:
        raise ValueError(f"golden data holds parameter slots the engine no longer has: {gone}: "
                         "record it again on purpose (python tests/golden.py)")
    params = Rules().to_params()
    params[[now.index(n) for n in names]] = recorded
    return params


def record() -> None:
    sys.path.insert(0, str(ROOT))
    from simulator import engine, kernel
    from simulator.strategy import stack

    arrays = {}
    names = []
    for i, (name, rules, strategies, seed, rounds) in enumerate(cases()):
        params = rules.to_params()
        tables = stack(strategies * (rules.boxes if len(strategies) == 1 else 1))
        state = engine.chunk_state(seed, 0)
        tally = kernel.simulate_chunk(params, tables, rounds, state)
        names.append(name)
        arrays[f"{i}_params"] = params
        arrays[f"{i}_state"] = state
        arrays[f"{i}_rounds"] = np.array(rounds, np.int64)
        arrays[f"{i}_tally"] = tally
        for t, a in zip(TABLES, tables, strict=True):
            arrays[f"{i}_{t}"] = a
    arrays["names"] = np.array(names)
    arrays["param_names"] = np.array(param_names())
    DATA.parent.mkdir(exist_ok=True)
    np.savez_compressed(DATA, **arrays)
    print(f"{len(names)} cases written to {DATA}")


def load() -> list[tuple[str, np.ndarray, tuple, np.ndarray, int, np.ndarray]]:
    """``(name, params, tables, state, rounds, tally)`` of every recorded case."""
    with np.load(DATA) as z:
        slots = [str(n) for n in z["param_names"]]
        return [
            (
                str(name),
                _params(z[f"{i}_params"], slots),
                tuple(z[f"{i}_{t}"] for t in TABLES),
                z[f"{i}_state"],
                int(z[f"{i}_rounds"]),
                z[f"{i}_tally"],
            )  # fmt: skip
            for i, name in enumerate(z["names"])
        ]


if __name__ == "__main__":
    record()
