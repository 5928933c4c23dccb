"""From the integer tally to the reported figures: means, standard deviations, standard errors,
95% confidence intervals and frequencies.

Every figure is derived from the kernel's integer sums (layout ``TALLY_NAMES``; main-game money in
tenths of the initial wager, Super Sevens in stakes), variances with Python integers, so there is
no cancellation however many rounds. Standard errors of the total, the main game, insurance and
Super Sevens come from per-round sums over the boxes (boxes share the dealer's hand). A figure
whose interval would mislead (too few bets to expect ``MIN_WINS`` big wins) has an
``interval_note``; one that cannot be computed is ``None``, never NaN. What each figure means:
README "How the figures are computed" and "JSON output"; docs/api.md.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from simulator import layout as L
from simulator.exact.sevens import sevens_plays, super_sevens
from simulator.rules import validate

Z95 = 1.959963984540054  # two-sided 95% normal quantile
MIN_WINS = 30  # wins of each big Super Sevens pay before its interval means anything
MIN_ROUNDS = 30  # rounds before the house edge's interval does (at 10, 95% intervals held 89%)
SS_LINES = ("a", "b", "c", "d", "e", "f")
SS_LINE_TALLY = (L.T_SS_A, L.T_SS_B, L.T_SS_C, L.T_SS_D, L.T_SS_E, L.T_SS_F)
# Sevens of one suit a line needs (rule 14 (c): a suited 7-7, (e): three sevens of one suit); a
# shoe of ``decks`` decks holds ``decks`` sevens of each suit.
SS_SUITED_SEVENS = {"c": 2, "e": 3}

# The dealer's rows (dealer_*) are rates over the rounds the dealer completed its hand: the
# dealer draws no further when no box is left for the cards to decide (rule 12.4), and those
# rounds are ``dealer_not_finished``, a rate per round. `dealer_note` says what that means.
DEALER_PER = "completed_dealer_hand"

# Frequencies: (key, tally index, denominator name). Denominators: see `_denominators`.
FREQUENCIES = (
    ("player_blackjack", L.T_PLAYER_BJ, "box_round"),
    ("splits", L.T_SPLITS, "box_round"),
    ("hands_per_box_round", L.T_HANDS, "box_round"),
    ("wins", L.T_WINS, "hand"),
    ("losses", L.T_LOSSES, "hand"),
    ("pushes", L.T_PUSHES, "hand"),
    ("doubles", L.T_DOUBLES, "hand"),
    ("busts", L.T_BUSTS, "hand"),
    ("surrenders", L.T_SURRENDERS, "hand"),
    ("insurance_offered", L.T_INS_OFFERED, "box_round"),
    ("insurance_taken", L.T_INS_TAKEN, "insurance_offered"),
    ("insurance_won", L.T_INS_WON, "insurance_taken"),
    ("even_money_offered", L.T_EM_OFFERED, "box_round"),
    ("even_money_taken", L.T_EM_TAKEN, "even_money_offered"),
    ("dealer_blackjack", L.T_DEALER_BJ, DEALER_PER),
    ("dealer_bust", L.T_DEALER_BUST, DEALER_PER),
    ("dealer_17", L.T_DEALER_17, DEALER_PER),
    ("dealer_18", L.T_DEALER_18, DEALER_PER),
    ("dealer_19", L.T_DEALER_19, DEALER_PER),
    ("dealer_20", L.T_DEALER_20, DEALER_PER),
    ("dealer_21", L.T_DEALER_21, DEALER_PER),
)


def empty_tally() -> np.ndarray:
    """A zero tally (int64, ``layout.N_TALLY``): one chunk's, as the kernel adds into."""
    return np.zeros(L.N_TALLY, dtype=np.int64)


def run_total() -> np.ndarray:
    """A zero run total: Python integers in a numpy object array, so that adding the int64
    tallies of any number of chunks (`add_into`) is exact and can never overflow."""
    return np.array([0] * L.N_TALLY, dtype=object)


def add_into(total: np.ndarray, tally) -> np.ndarray:
    """``total += tally`` in Python integers (``total`` from `run_total`); returns ``total``."""
    total += _check(tally).astype(object)
    return total


def merge(tallies) -> np.ndarray:
    """Add tallies (of chunks, threads or machines) exactly: the result does not depend on the
    order, and is a run total (`run_total`)."""
    out = run_total()
    for t in tallies:
        add_into(out, t)
    return out


def _check(tally) -> np.ndarray:
    t = np.asarray(tally)
    if t.shape != (L.N_TALLY,):
        raise ValueError(f"tally: expected {L.N_TALLY} integer sums, got shape {t.shape}")
    if t.dtype == object:  # a run total: Python integers
        if not all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in t):
            raise ValueError("tally: expected integer sums")
        return t
    if not np.issubdtype(t.dtype, np.integer):
        raise ValueError(f"tally: expected integer sums, got dtype {t.dtype}")
    return t.astype(np.int64, copy=False)


INT64_MAX = 2**63 - 1


def max_per_round(rules) -> dict[str, int]:
    """The most any one round can add to each tally field (in absolute value) under ``rules``.

    With B boxes, H hands at most per box (``max_hands``), U = ``layout.UNIT`` tenths:

    - a hand's main net is at most a doubled wager, 2U, so a box's is m = max(blackjack win,
      2U x H) and its stake 2U x H; its insurance net i = max(insurance win, the 5-tenth stake);
    - a Super Sevens bet's net is s = max(pays) stakes (5000 to 1 on the NZ table); with
      ``super_sevens`` off no bet is made and its fields add nothing;
    - a sum adds at most B times the per-box figure a round, a per-box sum of squares B times
      its square, a per-round sum of squares the square of B times it;
    - counts: one a round, or one a box, or one a hand (B x H); a hand holds at most 22 cards
      (21 aces are still 21), the dealer's too, so a round deals at most 22 (B x H + 1) cards
      and shuffles at most that often.
    """
    b, h, u = int(rules.boxes), int(rules.max_hands), L.UNIT
    m = max(int(round(rules.blackjack_pays * u)), 2 * u * h)
    i = max(int(round(rules.insurance_pays * L.INSURANCE_STAKE)), L.INSURANCE_STAKE)
    ss = 1 if rules.super_sevens else 0
    s = max(max(int(p) for p in rules.super_sevens_pays), 1) * ss
    cards = 22 * (b * h + 1)
    per = {
        "rounds": 1, "box_rounds": b,
        "main_sum": b * m, "main_sq": b * m * m,
        "total_sum": b * (m + i), "total_sq": b * (m + i) ** 2,
        "round_total_sum": b * (m + i), "round_total_sq": (b * (m + i)) ** 2,
        "ins_offered": b, "ins_taken": b, "ins_won": b, "ins_sum": b * i,
        "em_offered": b, "em_taken": b,
        "hands": b * h, "wins": b * h, "losses": b * h, "pushes": b * h, "player_bj": b,
        "doubles": b * h, "splits": b * (h - 1), "busts": b * h, "surrenders": b * h,
        "ss_bets": b * ss, "ss_sum": b * s, "ss_sq": b * s * s,
        "ss_round_sum": b * s, "ss_round_sq": (b * s) ** 2,
        "main_wagered": b * 2 * u * h, "shuffles": cards, "cards_dealt": cards, "refills": cards,
        "round_main_sum": b * m, "round_main_sq": (b * m) ** 2,
        "round_ins_sum": b * i, "round_ins_sq": (b * i) ** 2,
    }
    per |= {name: 1 for name in L.TALLY_NAMES if name.startswith("dealer_")}
    per |= {f"ss_{k}": b * ss for k in SS_LINES}
    per |= {f"strategy{k + 1}_{f}": per[f] for k in range(7) for f in L.BY_STRATEGY}  # its boxes'
    return {name: per[name] for name in L.TALLY_NAMES}


def max_chunk_rounds(rules) -> int:
    """The most rounds a chunk may play under ``rules`` with no int64 tally field able to
    overflow (the kernel adds a chunk into int64; a run adds chunks in Python integers)."""
    return min(INT64_MAX // v for v in max_per_round(rules).values() if v > 0)  # (no splits: 0)


def per(total: int, n: int, scale: float = 1.0) -> float:
    """``total / n / scale`` in one division, of integers where ``scale`` is a whole number (money
    in tenths of a unit), so correctly rounded: the same sums give the same float in every report
    (simulate's mean and count's advantage of a flat bet, byte for byte)."""
    return total / (n * int(scale)) if float(scale).is_integer() else total / n / scale


def _mean_sd(total: int, sq: int, n: int, scale: float = 1.0):
    """Mean and sample standard deviation (ddof=1) of n values from their integer sum and sum
    of squares, each divided by ``scale``. None where undefined."""
    if n <= 0:
        return None, None
    mean = per(total, n, scale)
    if n < 2:
        return mean, None
    num = n * sq - total * total  # exact: Python integers
    var = max(num, 0) / (n * (n - 1))
    return mean, math.sqrt(var) / scale


def house_edge_of(ret):
    """The house edge of a mean return: minus it, 0.0 for an even game (``-ret`` gives -0.0,
    which every format would print as -0), None for None."""
    return None if ret is None else 0.0 - ret


def _figure(mean, se, df: int | None = None) -> dict:
    """mean, se and the 95% confidence interval: normal, or Student's t with ``df`` degrees of
    freedom (an SE from the spread of ``df + 1`` batches: `t95`)."""
    if mean is None or se is None:
        return {"mean": mean, "se": se, "ci95_low": None, "ci95_high": None}
    q = Z95 if df is None else t95(df)
    return {"mean": mean, "se": se, "ci95_low": mean - q * se, "ci95_high": mean + q * se}


@functools.cache
def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` >= 1 degrees of freedom: where its
    distribution function reaches 0.975, by bisection on Simpson's rule over the density."""
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)

    def above_median(t: float) -> float:  # P(0 < T < t)
        x = np.linspace(0.0, t, 4001)
        y = c * (1 + x * x / df) ** (-(df + 1) / 2)
        return (x[1] / 3) * (y[0] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum() + y[-1])

    lo, hi = Z95, 13.0  # (1 degree of freedom: 12.706)
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if above_median(mid) < 0.475 else (lo, mid)
    return (lo + hi) / 2


TOO_FEW = "too few rounds for a meaningful interval"  # an interval_note's start (`_too_short`)
NO_INSURANCE = "no insurance taken: no bet to measure"  # insurance's, where no box insured
NO_SUPER_SEVENS = "no Super Sevens bet: the side bet is off"  # where no box bet it
ONE_ROUND = "a standard error needs two rounds or more"  # a figure's from one round


def _too_short(figure: dict, note: str | None) -> dict:
    """``figure`` with its interval replaced by ``note`` (when there is one)."""
    if note is not None:
        note = f"{TOO_FEW}: {note}"
    elif figure["mean"] is not None and figure["se"] is None:
        note = ONE_ROUND
    if note is None or figure["mean"] is None:
        return figure | {"interval_note": None}
    return figure | {"se": None, "ci95_low": None, "ci95_high": None, "interval_note": note}


def _few_rounds(rounds: int) -> str | None:
    """Why a house edge over ``rounds`` has no interval, from 2 to `MIN_ROUNDS` - 1 (a normal
    interval covers too seldom there: 2 rounds alike have an SD of 0); else None."""
    return f"{rounds:,} rounds, fewer than {MIN_ROUNDS}" if 2 <= rounds < MIN_ROUNDS else None


def fewer(wins: float) -> float:
    """Expected wins below `MIN_WINS` to one decimal, rounded down where rounding would reach it
    (29.97 is "29.9", not "30.0")."""
    return round(wins, 1) if round(wins, 1) < MIN_WINS else math.floor(wins * 10) / 10


def few_insurance_bets(won: int, lost: int, boxes: int) -> str | None:
    """Why ``won`` and ``lost`` insurance bets, in rounds of ``boxes`` boxes at most, are too
    few for a normal interval: fewer than `MIN_WINS` rounds of the rarer result (the boxes of a
    round win or lose their insurance together, so at least ceil(bets / boxes) rounds); None
    when they are enough. `summarize`'s rule for insurance, and `bjsim count`'s."""
    few = min(won, lost)
    few_rounds = -(-few // boxes)
    what = "winning" if few == won else "losing"
    return None if few_rounds >= MIN_WINS else (
        f"{few:,} {what} insurance bet(s), fewer than {MIN_WINS}" if boxes == 1 else
        f"{few:,} {what} insurance bet(s), in at least {few_rounds:,} round(s) (the boxes of a "
        f"round settle insurance together), fewer than {MIN_WINS} rounds")


def _ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def splits_se_note(max_hands: int, plain: bool = False) -> str:
    """Why ``splits`` and ``hands_per_box_round`` have no SE where a box can split more than
    once (``max_hands`` above 2): a count a box-round, not a proportion, so no binomial SE, and
    the tally keeps no sum of its squares for one of its own. ``plain``: the rows in words, not
    by key (the report)."""
    rows = "splits and hands played a box-round" if plain else "splits and hands_per_box_round"
    cap = f"up to {max_hands} hands a box" if plain else f"max_hands = {max_hands}"
    return (f"{rows}: no SE, as a box can split up to {max_hands - 1} times ({cap}), so they "
            "count events a box-round, not a proportion (no binomial SE), and the tally keeps no "
            "sum of their squares")


def _rate(count: int, n: int) -> dict:
    if n <= 0:
        return {"count": count, "n": n, "rate": None, "se": None}
    p = count / n
    # binomial standard error; for counts that can exceed one per unit (splits, hands) it is the
    # same normal approximation with p(1-p) floored at zero
    return {"count": count, "n": n, "rate": p, "se": math.sqrt(max(p * (1.0 - p), 0.0) / n)}


def summarize(tally, rules, ss_lines_possible=SS_LINES, strategies=None, names=None) -> dict:
    """Every reported figure, from an integer tally.

    Parameters
    ----------
    tally : array of int64, ``layout.N_TALLY``
        The sums of one run (or of several runs merged by addition).
    rules : simulator.rules.Rules
        The rule set the tally was played under (Super Sevens pays, boxes).
    ss_lines_possible : container of str
        The Super Sevens lines the strategies can make (default all; see `ss_lines_possible`).
        Lines the shoe cannot make (`ss_lines_dealable`) are left out whatever is given.
    strategies : Strategy or sequence of Strategy, optional
        The boxes' strategies, as `engine.run` takes them (one Strategy, or a list of one, for
        every box; or one a box): the Super Sevens interval waits for the wins of each
        line the bets are expected to hold by each one's 7-7 play (else every 7-7 hit), and
        each strategy's (``by_strategy``) is judged by the lines it can make, and each one's
        entry gives its boxes (``box_numbers``: the boxes playing its charts).
    names : sequence of str, optional
        The boxes' strategy names, one a box: where they are more than one, ``by_strategy`` is
        given even if every box plays the same charts (boxes of two names, one set of charts,
        are one strategy to the engine: `kernel.tables.first_boxes`).

    Returns
    -------
    dict
        JSON-ready (ints, floats, None, str, lists, dicts), under stable keys documented in
        README.md ("JSON output"), but for those that name strategies (each ``by_strategy``
        entry's ``strategy`` and ``strategies``, ``super_sevens``' ``seven_seven_play``), which
        `simulator.run.render` adds from the run's strategies. Money figures are fractions of
        the stake they are per (1.0 = one initial wager, or one unit staked on the side bet), not
        percents. Without ``strategies`` the Super Sevens interval is judged as for every 7-7
        hit (more wins of lines (d) and (e) than a strategy that splits some), so its note may
        differ from the command line's.
    """
    t, rules = [int(x) for x in _check(tally)], validate(rules, "rules")
    strategies = _one_a_box(rules, strategies)
    _check_names(rules, names)
    _check_lines(ss_lines_possible)
    rounds, box_rounds, hands = t[L.T_ROUNDS], t[L.T_BOX_ROUNDS], t[L.T_HANDS]
    boxes = box_rounds // rounds if rounds else int(rules.boxes)
    u = float(L.UNIT)

    # --- main + insurance: the house edge. Per box-round moments and per-round moments.
    total_mean, total_sd = _mean_sd(t[L.T_TOTAL_SUM], t[L.T_TOTAL_SQ], box_rounds, u)
    _, round_sd = _mean_sd(t[L.T_RTOTAL_SUM], t[L.T_RTOTAL_SQ], rounds, u)
    total_se = None if round_sd is None else round_sd / math.sqrt(rounds) / boxes
    short = _few_rounds(rounds)
    total = _too_short(_figure(total_mean, total_se), short) | {
        "sd_box_round": total_sd, "sd_round": round_sd}
    if total_mean is None:
        house_edge = _too_short(_figure(None, None), None)
    else:
        house_edge = _too_short(_figure(house_edge_of(total_mean), total_se), short)

    # --- main wagers alone (even money included)
    main_mean, main_sd = _mean_sd(t[L.T_MAIN_SUM], t[L.T_MAIN_SQ], box_rounds, u)
    if boxes == 1:
        main_sd_round = main_sd  # a round is a box-round
    else:
        _, main_sd_round = _mean_sd(t[L.T_RMAIN_SUM], t[L.T_RMAIN_SQ], rounds, u)
    main_se = None if main_sd_round is None else main_sd_round / math.sqrt(rounds) / boxes
    main = _too_short(_figure(main_mean, main_se), short)
    main |= {
        "sd_box_round": main_sd,
        "sd_round": main_sd_round,
        "se_exact": True,
        "wagered_per_initial": _ratio(t[L.T_MAIN_WAGERED] / u, box_rounds),
        # the main game's result (insurance apart) over all it wagered: initial bets, doubles,
        # splits; its SE the main game's scaled by initial over all wagered (the wagers' own
        # variation left out), as `bjsim count`'s ``total_bet``
        "mean_per_unit_wagered": _ratio(t[L.T_MAIN_SUM], t[L.T_MAIN_WAGERED]),
        "se_per_unit_wagered": None if main["se"] is None or not t[L.T_MAIN_WAGERED]  # (none
        # where the main game's own is withheld: too few rounds)
        else main_se * box_rounds * u / t[L.T_MAIN_WAGERED],
    }

    # --- insurance, per unit staked (rule 9). A bet wins w tenths or loses the 5-tenth stake.
    taken, won, ins_sum = t[L.T_INS_TAKEN], t[L.T_INS_WON], t[L.T_INS_SUM]
    stake = L.INSURANCE_STAKE
    lost = taken - won
    if won:
        win_amount = (ins_sum + lost * stake) // won
    else:
        win_amount = int(round(rules.insurance_pays * stake))
    ins_sq = won * win_amount**2 + lost * stake**2
    ins_mean, ins_sd = _mean_sd(ins_sum, ins_sq, taken, float(stake))
    ins_se = None
    if ins_sd is not None:
        if boxes == 1:
            ins_se = ins_sd / math.sqrt(taken)  # one bet a round at most: independent bets
        else:
            # bets in one round share the dealer's card: the variance of the insurance result
            # summed over all rounds, from the per-round sums over boxes
            _, ins_sd_round = _mean_sd(t[L.T_RINS_SUM], t[L.T_RINS_SQ], rounds)
            if ins_sd_round is not None:
                ins_se = ins_sd_round * math.sqrt(rounds) / taken / stake
    insurance = _too_short(_figure(ins_mean, ins_se), few_insurance_bets(won, lost, boxes)) | (
        {"interval_note": NO_INSURANCE} if not taken else {}) | {
        "sd_bet": ins_sd,
        "bets": taken,
        # with several boxes the SE treats the number of insurance bets as fixed (not a full
        # ratio-estimator variance), so it is flagged as approximate
        "se_exact": boxes == 1,
        "per_initial_wager": _ratio(ins_sum / u, box_rounds),
    }

    # --- Super Sevens, per unit staked (rule 14)
    bets = t[L.T_SS_BETS]
    ss_mean, ss_sd = _mean_sd(t[L.T_SS_SUM], t[L.T_SS_SQ], bets)
    _, ss_round_sd = _mean_sd(t[L.T_SS_RSUM], t[L.T_SS_RSQ], rounds)
    ss_se = None
    if bets and ss_round_sd is not None:
        ss_se = ss_round_sd / math.sqrt(rounds) / (bets / rounds)
    pays = list(rules.super_sevens_pays) + [-1]
    dealable = ss_lines_dealable(rules)
    chances = line_chances(rules, strategies)
    by_slot = [t[L.T_BY + k * L.N_BY + L.BY_BOX_ROUNDS] for k in range(len(chances))]
    if strategies is None or not sum(by_slot):
        by_slot = [bets] + [0] * (len(chances) - 1)
    expected = {k: sum(n * c[k] for n, c in zip(by_slot, chances, strict=True))
                for k in SS_LINES}  # (each line's deals expected in the run)
    lines = {}
    for name, idx, pay in zip(SS_LINES, SS_LINE_TALLY, pays, strict=True):
        r = _rate(t[idx], bets)
        # no normal interval from few deals: as the house edge's, by the deals expected, not
        # those seen (a lucky run's line would have one where an unlucky one's has none)
        se = r["se"] if expected[name] >= MIN_WINS and r["count"] else None
        lines[name] = {
            "pays": int(pay),
            "count": r["count"],
            "freq": r["rate"],
            "freq_se": se,
            "contribution": None if r["rate"] is None else pay * r["rate"],
            "contribution_se": None if se is None else abs(pay) * se,
        }
    few_wins = None if not bets else _few_wins(
        {k: expected[k] for k in lines if k in ss_lines_possible and k in dealable},
        {k: v["pays"] for k, v in lines.items()}, bets_words(bets), bets)
    super_sevens = _too_short(_figure(ss_mean, ss_se), few_wins) | (
        {"interval_note": NO_SUPER_SEVENS} if not bets else {})
    super_sevens |= {
        "house_edge": house_edge_of(ss_mean),
        "sd_bet": ss_sd,
        "sd_round": ss_round_sd if bets else None,  # (no bets: no figure, as the others)
        "bets": bets,
        "lines": lines,
    }

    # --- frequencies
    finished = sum(t[L.T_DEALER_BJ + o] for o in range(7))  # the dealer's hands it completed
    denominators = {
        DEALER_PER: finished,
        "box_round": box_rounds,
        "hand": hands,
        "round": rounds,
        "insurance_offered": t[L.T_INS_OFFERED],
        "insurance_taken": taken,
        "even_money_offered": t[L.T_EM_OFFERED],
    }
    frequencies = {  # (se_upper_bound: its se a bound, not an estimate: several boxes below)
        key: {"per": per} | _rate(t[idx], denominators[per]) | {"se_upper_bound": False}
        for key, idx, per in FREQUENCIES
    }
    # The rounds whose dealer drew no further (12.4: no box left for the cards to decide); its
    # blackjacks there are not seen.
    frequencies["dealer_not_finished"] = {"per": "round"} | _rate(rounds - finished, rounds) | {
        "se_upper_bound": False}
    splits_note = None
    if int(rules.max_hands) > 2:  # a box splits up to max_hands - 1 times: no proportion
        frequencies["splits"]["se"] = None
        splits_note = splits_se_note(int(rules.max_hands))
    frequencies_note = None
    if boxes > 1:  # the boxes of a round share the dealer's cards; no per-round counts are kept
        for f in frequencies.values():
            if f["se"] is not None and f["per"] == "box_round":
                f["se"] *= math.sqrt(boxes)  # Var(sum of B boxes) <= B * sum of their variances
                f["se_upper_bound"] = True  # (the table marks it <=)
            elif f["per"] not in ("round", DEALER_PER):  # (one a round: binomial)
                f["se"] = None
        frequencies_note = (f"the {boxes} boxes of a round share the dealer's cards: an SE per "
                            f"box-round is an upper bound (the binomial one x sqrt({boxes})); "
                            "per hand, insurance or even-money bet there is none (per-round "
                            "counts are not kept)")
    # (those with an SE still: too few events for one, said once, beside the other notes)
    few = [k for k, f in frequencies.items() if f["se"] is not None and k != HANDS
           and few_events(k, f["count"], f["n"])]
    for k in few:  # (no normal interval from so few events)
        frequencies[k] |= {"se": None, "se_upper_bound": False}
    few_events_note = None if not few else (
        f"none where fewer than {MIN_WINS} events were seen, or, of a proportion, fewer than "
        f"{MIN_WINS} not ({', '.join(few)}): the normal approximation does not hold")
    # Hands a box-round are one and its splits: the splits' SE (p(1 - p) of a mean above 1 is 0).
    frequencies[HANDS] |= {k: frequencies["splits"][k] for k in ("se", "se_upper_bound")}

    shoe = {
        "shuffles": t[L.T_SHUFFLES],
        "cards_dealt": t[L.T_CARDS_DEALT],
        "cards_per_round": _ratio(t[L.T_CARDS_DEALT], rounds),
        "rounds_per_shuffle": _ratio(rounds, t[L.T_SHUFFLES]),
        "refills": t[L.T_REFILLS],
    }

    return {
        "rounds": rounds,
        "boxes": boxes,
        "box_rounds": box_rounds,
        "hands": hands,
        "house_edge": house_edge,
        "total": total,
        "main": main,
        "insurance": insurance,
        "super_sevens": super_sevens,
        "by_strategy": _by_strategy(t, lines, dealable,
                                    _possible_by_slot(strategies, rules, ss_lines_possible),
                                    chances, _box_groups(rules, strategies),
                                    names is not None and len(set(names)) > 1),
        "frequencies": frequencies,
        "frequencies_note": frequencies_note,
        "few_events_note": few_events_note,
        "few_events": few,  # (the frequencies it names)
        "splits_note": splits_note,
        "dealer_note": dealer_note(rules, t[L.T_DEALER_BJ], rounds) if rounds > finished else None,
        "shoe": shoe,
        "tally": dict(zip(L.TALLY_NAMES, t, strict=True)),
    }


def pct_digits(se: float) -> int:
    """The decimals of a percentage and its SE ``se`` (a fraction): the SE's two significant
    figures, at least two decimals (``3.40% (SE 0.081%)``, ``3.4012% (SE 0.0013%)``), so that a
    small SE never reads ``0.00%``."""
    if not se > 0 or not math.isfinite(se):
        return 2
    return max(2, 1 - math.floor(math.log10(100 * se)))


def wins_words(x: float) -> str:
    """``1.7 wins``, ``1.0 win``, ``0.00012 wins``: an expected number of wins in words (`fewer`;
    below 0.1 to two significant figures: not ``0.0``)."""
    return f"{wins_number(x)} win" + ("" if wins_number(x) == "1.0" else "s")


def wins_number(x: float) -> str:
    """An expected number of wins below `MIN_WINS`: to one decimal (`fewer`), or below 0.1 to
    two significant figures (``0.00012``), never ``0.0`` for some."""
    if x >= 0.1 or x <= 0:
        return f"{fewer(x):,.1f}"
    return np.format_float_positional(x, precision=2, unique=False, fractional=False, trim="-")


SKEW_SHARE = 0.1  # a step of pay bringing less of the bet's skew than this share is not a big pay


def rarest_pay(chances: dict, pays: dict, weigh: dict | None = None):
    """The big pay of the Super Sevens lines in ``chances`` (each one's chance per bet, or wins
    expected) whose wins are fewest: ``(the lines paying it or more, the pay, their chances
    summed)``, or None where none is. A bet's result is its pay, whichever line pays it, so
    the pays are taken as steps, each won by every line paying it or more, its rise the pay
    less the one below (a loss's -1 below the lowest); lines paying alike are one step (13 on
    every line: won on every first seven). A big pay is a step that brings
    `SKEW_SHARE` of every step's skew or more, its rise cubed times its chance (by
    ``weigh``'s chances, where given: a full shoe's for a count's rows): what makes the mean
    of a few bets far from normal. A line paying a little more than others (14 against 13, 13
    against 11 against 9 ...) brings almost none, and is no big pay of its own; under pays far
    apart (3, 50, 100, 500, 5000) the top pay brings nearly all, and the rarest line decides.
    An interval needs `MIN_WINS` wins of every big pay."""
    weigh = chances if weigh is None else weigh
    levels = sorted({pays[k] for k in chances})
    steps = []  # every step above the loss
    for i, pay in enumerate(levels):
        lines = tuple(k for k in chances if pays[k] >= pay)
        rise = pay - (levels[i - 1] if i else -1)
        steps.append((lines, pay, sum(chances[k] for k in lines),
                      max(rise, 0) ** 3 * sum(weigh[k] for k in lines)))
    total = sum(s[3] for s in steps)
    big = [s[:3] for s in steps if s[3] > 0 and s[3] >= SKEW_SHARE * total]
    return min(big, key=lambda x: (x[2], x[0])) if big else None


def _few_wins(expected: dict, pays: dict, bets: str, n: int) -> str | None:
    """Why a Super Sevens interval is withheld, or None: the ``n`` bets (``bets`` in words) are
    expected to hold fewer than `MIN_WINS` wins of a big pay (`rarest_pay` of ``expected``,
    each line's wins expected; lines of none left out), and about how many bets would hold
    them (a designer's review: no output said how many rounds an interval needs)."""
    rare = rarest_pay({k: x for k, x in expected.items() if x > 0}, pays)
    if rare is None or rare[2] >= MIN_WINS:
        return None
    return (f"about {wins_words(rare[2])} of {pay_words(rare[0], rare[1], pays)} expected in "
            f"{bets}, fewer than {MIN_WINS}; {bets_for_wins(rare[2] / n)}")


def bets_for_wins(chance: float) -> str:
    """About how many bets, of a big pay's ``chance`` a bet, would hold `MIN_WINS` wins of it, in
    words, to two figures (the chance is a full shoe's): ``about 3,500,000 bets would hold
    30``; where the chance is 0 (a count's least, where it leaves too few sevens for the line),
    that none would at it."""
    if chance <= 0:
        return f"no number of bets would hold {MIN_WINS} at that chance, 0"
    return f"about {float(f'{MIN_WINS / chance:.2g}'):,.0f} bets would hold {MIN_WINS}"


def pay_words(lines, pay: int, pays: dict) -> str:
    """A `rarest_pay` step in words: ``line (e) paying 5000 to 1``, ``lines (d) and (e) paying
    500 to 1``, ``lines (a), (b), (c), (d) and (e) paying 13 to 1 or more``."""
    more = any(pays[k] != pay for k in lines)
    return f"{lines_words(lines)} paying {pay} to 1" + (" or more" if more else "")


def lines_words(lines) -> str:
    """``line (e)``, ``lines (b) and (e)``, ``lines (b), (d) and (e)``."""
    named = [f"({k})" for k in lines]
    if len(named) == 1:
        return "line " + named[0]
    return "lines " + ", ".join(named[:-1]) + " and " + named[-1]


def bets_words(n: int) -> str:
    """``1 bet``, ``3 bets``."""
    return f"{n:,} bet" + ("" if n == 1 else "s")


HANDS = "hands_per_box_round"  # (one a box-round and its splits: the splits' SE)
# Frequencies that count events a unit can hold more than one of (no proportion: no complement;
# splits a proportion only where a box splits once, max_hands = 2: taken as a count alike).
MANY_A_UNIT = ("splits", HANDS)


def few_events(key: str, count: int, n: int) -> bool:
    """Whether the frequency ``key``, ``count`` events in ``n``, is too few for a normal interval
    (none given): fewer than `MIN_WINS` events, or of a proportion fewer than that not events,
    as the Super Sevens lines' and insurance's rule (2 doubles in 34 hands gave 0.059 ± 0.079,
    and a count of 0 an SE of 0)."""
    return count < MIN_WINS or (key not in MANY_A_UNIT and n - count < MIN_WINS)


def dealer_note(rules, blackjacks: int, rounds: int, plain: bool = False) -> str:
    """What the dealer's rows (dealer_*) are over, said where some round left the dealer's hand
    unfinished (rule 12.4), with the two per-round figures a reader may want instead: the
    dealer blackjacks seen per round, and the chance of one had the dealer always drawn its
    second card from a full shoe, 2 a t / (n (n - 1)) for a aces and t tens in n cards (the
    up card and the second card are two cards of the shuffled shoe). ``plain``: the rows named
    in words, as the assessment report's table names them (`figures.EVENT_WORDS`), not by key."""
    a, ten, n = 4 * int(rules.decks), 16 * int(rules.decks), 52 * int(rules.decks)
    full = 2 * a * ten / (n * (n - 1))
    seen = blackjacks / rounds
    se = math.sqrt(seen * (1 - seen) / rounds)  # binomial: at most one a round
    few = few_events("dealer_blackjack", blackjacks, rounds)
    digits = 2 if few or not se else pct_digits(se)
    rows, unfinished, bj = (("the dealer's rows (dealer blackjack to dealer ends on 21) are",
                             "the row 'dealer's hand not completed', per round",
                             "the dealer blackjack row") if plain else
                            ("dealer_*:", "dealer_not_finished, per round", "dealer_blackjack"))
    return (f"{rows} rates per completed dealer hand, not per round: "
            "the dealer draws no further when no box is left for the cards to decide (rule "
            "12.4: every box busted, a blackjack paid at once or surrendered), and those rounds "
            f"({unfinished}) are not a random sample of rounds, so "
            f"{bj} is not the dealer's chance of a blackjack: dealer blackjacks were "
            f"seen in {100 * seen:.{digits}f}% ("
            + ((f"no SE: {blackjacks:,} seen, fewer than {MIN_WINS}" if blackjacks < MIN_WINS
                else f"no SE: {rounds - blackjacks:,} rounds without one, fewer than "
                f"{MIN_WINS}") if few else
               f"SE {100 * se:.{digits}f}%") + ") of all rounds"
            + (" (the peek sees every one: this is its chance)" if rules.hole_card == "peek"
               else "") + ", and a dealer always "
            f"drawing its second card from a full shoe of {int(rules.decks)} "
            f"deck{'s' if int(rules.decks) != 1 else ''} has a blackjack {100 * full:.2f}% of "
            f"the time (2 × {a} aces × {ten} tens / ({n} × {n - 1}))")


def _one_a_box(rules, strategies) -> list | None:
    """``strategies`` one a box, taken as `engine.run` takes them (one Strategy, or a list of
    one, for every box; or one a box), each checked (`strategy.stack_for`: a name such as
    ``'basic'`` had been read letter by letter as 7-7 plays); None stays None."""
    if strategies is None:
        return None
    from simulator.strategy import stack_for

    given = list(strategies) if isinstance(strategies, (list, tuple)) else [strategies]
    stack_for(rules, given)  # (refuses a non-Strategy, or neither one nor one a box)
    return given * int(rules.boxes) if len(given) == 1 else given


def _check_names(rules, names) -> None:
    """``names`` None, or one strategy name (text) a box, as `run.Plan` takes them (a text had
    been read letter by letter, one name given for three boxes taken)."""
    n = int(rules.boxes)
    if names is not None and (not isinstance(names, (list, tuple)) or len(names) != n
                              or not all(isinstance(x, str) for x in names)):
        raise ValueError(f"names: {names!r:.60}: allowed None, or a tuple of {n} strategy "
                         f"names, one a box (boxes = {n})")


def _check_lines(possible) -> None:
    """``possible`` (`summarize`'s ``ss_lines_possible``) a collection of Super Sevens lines
    (None had raised TypeError, and a text is no collection of lines)."""
    if not isinstance(possible, (list, tuple, set, frozenset)) or not set(possible) <= set(
            SS_LINES):
        raise ValueError(f"ss_lines_possible = {possible!r:.60}: allowed a tuple of Super "
                         f"Sevens lines among {', '.join(SS_LINES)} (tally.ss_lines_possible's)")


def _box_groups(rules, strategies) -> list[int] | None:
    """Each box's strategy as the engine keeps its figures: the first box with its charts
    (`kernel.tables.first_boxes`); None without ``strategies``."""
    if strategies is None:
        return None
    from simulator.kernel.tables import first_boxes
    from simulator.strategy import stack_for

    return first_boxes(stack_for(rules, list(strategies)))


def _by_strategy(t: list, lines: dict, dealable, possible: list, chances: list,
                 groups: list[int] | None = None, named: bool = False) -> list[dict]:
    """Each strategy's house edge and Super Sevens return when the boxes play more than one
    (``layout.T_BY``; else none, unless ``named``: boxes of more than one name), the SE from its
    per-round sums (its boxes share the dealer's cards), and with ``groups`` (`_box_groups`) its
    boxes, ``box_numbers``. Its Super Sevens interval is withheld where its bets are expected to
    hold fewer than ``MIN_WINS`` wins of a big pay of the lines it can make (``possible[k]``:
    of the strategy of first box ``k + 1``; ``chances[k]``, `line_chances`), so wherever the
    whole game's is for such a line, and the note quotes its own bets."""
    rounds, u, bets = t[L.T_ROUNDS], float(L.UNIT), t[L.T_SS_BETS]
    by = [t[L.T_BY + k * L.N_BY: L.T_BY + (k + 1) * L.N_BY] for k in range(7)]
    used = sum(1 for f in by if f[L.BY_BOX_ROUNDS])
    if not rounds or used < 2 and not named:
        return []
    if used == 1:  # one set of charts on every box: its per-round squares are the game's (the
        by = [list(f) for f in by]  # engine keeps none by strategy then)
        for f in by:
            f[L.BY_RTOTAL_SQ], f[L.BY_SS_RSQ] = t[L.T_RTOTAL_SQ], t[L.T_SS_RSQ]
    out = []
    for k, f in enumerate(by):
        n = f[L.BY_BOX_ROUNDS]
        boxes = n // rounds
        if not boxes:
            continue
        short = _few_rounds(rounds)
        edge, sd, sd_round = _boxes_figure(-f[L.BY_TOTAL_SUM], f[L.BY_TOTAL_SQ],
                                           f[L.BY_RTOTAL_SQ], rounds, boxes, u, short)
        entry = {"first_box": k + 1, "boxes": boxes, "box_rounds": n,
                 "house_edge": edge | {"sd_box_round": sd, "sd_round": sd_round},
                 "super_sevens": None}  # fmt: skip
        if groups is not None:
            entry["box_numbers"] = [b + 1 for b, g in enumerate(groups) if g == k]
        if bets:  # (its bets are some of the game's: where the game's is withheld, so is its)
            chance = chances[min(k, len(chances) - 1)]
            note = _few_wins({name: n * chance[name] for name in lines
                              if name in possible[k] and name in dealable},
                             {name: v["pays"] for name, v in lines.items()},
                             f"its {bets_words(n)}", n)
            ss, sd, sd_round = _boxes_figure(f[L.BY_SS_SUM], f[L.BY_SS_SQ], f[L.BY_SS_RSQ],
                                             rounds, boxes, 1.0, note)
            entry["super_sevens"] = ss | {"house_edge": house_edge_of(ss["mean"]), "sd_bet": sd,
                                          "sd_round": sd_round, "bets": n}
        out.append(entry)
    return out


def line_chances(rules, strategies) -> list[dict]:
    """Each strategy's chance per bet of each Super Sevens line from a full shoe, by its 7-7 play
    (the exact analyzer's, rule 14), or one of a strategy hitting every 7-7 without
    ``strategies``: what decides how many wins a run can be expected to hold."""
    if not rules.super_sevens:
        return [dict.fromkeys(SS_LINES, 0.0)]
    plays = [("hit",) * 10] if strategies is None else [
        tuple(sevens_plays(rules, s)[up] for up in range(1, 11)) for s in strategies]
    return [_chances(rules, p) for p in plays]


@functools.lru_cache(maxsize=64)
def _chances(rules, plays) -> dict:
    lines = super_sevens(rules, dict(zip(range(1, 11), plays, strict=True)))["lines"]
    return {k: float(v["probability"]) for k, v in lines.items()}


def _possible_by_slot(strategies, rules, possible) -> list:
    """The Super Sevens lines the strategy of each first box can make (`ss_lines_possible`) of
    ``possible`` (compare's: the lines whose pay differs); ``possible`` without
    ``strategies``."""
    if strategies is None:
        return [possible] * 7
    return [tuple(k for k in ss_lines_possible([s], rules) if k in possible) for s in strategies]


def _boxes_figure(total, sq, round_sq, rounds, boxes, scale, note=None) -> tuple:
    """``(figure, sd per box-round, sd per round)`` of a mean per box-round over ``boxes`` boxes
    a round, from the sum, the sum of squares by box-round and by round; its SE from the
    per-round sums (the boxes share the dealer's cards). ``note``: why its interval is withheld."""
    mean, sd = _mean_sd(total, sq, rounds * boxes, scale)
    _, sd_round = _mean_sd(total, round_sq, rounds, scale)
    se = None if sd_round is None else sd_round / math.sqrt(rounds) / boxes
    return _too_short(_figure(mean, se), note), sd, sd_round


def ss_lines_dealable(rules) -> tuple[str, ...]:
    """The Super Sevens lines the shoe can make: a line needing k sevens of one suit
    (`SS_SUITED_SEVENS`: (c) 2, (e) 3) is left out when ``rules.decks`` < k (one deck: neither
    (c) nor (e); two decks: not (e)). Such a line never wins, so adds nothing to the variance."""
    return tuple(k for k in SS_LINES if int(rules.decks) >= SS_SUITED_SEVENS.get(k, 0))


def ss_lines_possible(strategies, rules) -> tuple[str, ...]:
    """The Super Sevens lines some strategy can make with the shoe (`ss_lines_dealable`): (d)
    and (e) need a third card on 7-7, so they are left out when every sevens row only stands,
    splits or surrenders (with ``max_hands`` = 1 a split is played from the hard table, which
    may hit; ``Rh`` hits where surrender is not allowed)."""
    surrender = rules.surrender != "none"
    third = ({L.H, L.D, L.DS} | (set() if surrender else {L.RH})
             | (set() if rules.max_hands >= 2 else {L.P} | (set() if surrender else {L.RP})))
    dealable = ss_lines_dealable(rules)
    from simulator.strategy import checked

    # (one Strategy too, as `summarize` takes it; each checked: a name had raised AttributeError)
    strategies = [checked(s) for s in (
        strategies if isinstance(strategies, (list, tuple)) else [strategies])]
    if any(int(c) in third for s in strategies for c in s.sevens):
        return dealable
    return tuple(k for k in dealable if k not in ("d", "e"))


def running_house_edge(tally) -> float | None:
    """Minus the mean net per initial wager so far (for a progress bar); None before any round."""
    box_rounds = int(tally[L.T_BOX_ROUNDS])
    if box_rounds == 0:
        return None
    return -int(tally[L.T_TOTAL_SUM]) / box_rounds / L.UNIT
