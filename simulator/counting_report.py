"""The counter's figures from a counting tally (`layout` "Counting tally", N_TC x N_COUNT), and
their table, markdown, json and csv renderings (``bjsim count``, the report's counting section).

`figures` derives everything from the tally's integer sums: the counter's advantage per unit of
initial main bet and of all wagered on the main game with 95% intervals, the SD and win rate per
round, SCORE, N0 and the risk of ruin (`simulator.counting`), the frequency of each count and the
flat advantage at it, and the Super Sevens return by count against its exact value (rule 14).
`sweep_rows` puts runs at several penetrations side by side. `optimal_bets` gives the Kelly main
bet at each count, the ramp they make and what it would win over the same rounds (``bjsim count
--optimal-bets``). How each figure is computed: docs/counting.md.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
from fractions import Fraction

import numpy as np

from simulator import __version__, batches, counting
from simulator import layout as L
from simulator.compare_report import _aligned, _markdown
from simulator.counter import counter_seven_seven_play, counter_strategies, exact_plays
from simulator.plans import check_bankroll
from simulator.report import (
    PER_UNIT_WAGERED,
    chunks_text,
    code_line,
    csv_cell,
    files_text,
    md_text,
    plays_by_up_text,
    with_note,
)
from simulator.rules import (
    _fmt,
    gazette_line,
    nz_gazette_word,
    pays_text,
    plural,
    shown,
    shown_rule_file,
    unlike_nz_line,
)
from simulator.source import file_sha256, provenance
from simulator.tally import (
    MIN_WINS,
    ONE_ROUND,
    SS_LINES,
    TOO_FEW,
    Z95,
    _few_rounds,
    _figure,
    _mean_sd,
    bets_for_wins,
    bets_words,
    few_insurance_bets,
    line_chances,
    pay_words,
    per,
    rarest_pay,
    ss_lines_dealable,
    ss_lines_possible,
    summarize,
    t95,
    wins_number,
    wins_words,
)

FORMATS = ("table", "markdown", "json", "csv")


def _columns(ctally) -> list[list[int]]:
    """The tally as Python integers, one list per field (``C_*``), one entry per bucket."""
    t = np.asarray(ctally)
    if t.shape != (L.N_TC, L.N_COUNT):
        raise ValueError(f"counting tally: expected shape ({L.N_TC}, {L.N_COUNT}), got "
                         f"{t.shape}")
    if t.dtype != object and not np.issubdtype(t.dtype, np.integer):
        raise ValueError(f"counting tally: expected integer sums, got dtype {t.dtype}")
    return [[int(x) for x in t[:, c]] for c in range(L.N_COUNT)]


def bucket_label(i: int) -> str:
    """Bucket ``i``'s count: ``+3``, ``-2``, and at the ends ``<=-30``, ``>=+30`` (clamped)."""
    count = L.TC_MIN + i
    text = f"{count:+d}" if count else "0"
    if i == 0:
        return "<=" + text
    if i == L.N_TC - 1:
        return ">=" + text
    return text


def _ratio(a, b):
    return None if not b else a / b


# What the SEs and intervals of SCORE, N0 and the risk of ruin are where the rounds' nets hold
# Super Sevens results (``score_n0_ruin_note``): the delta method holds the SD fixed, but the big
# pays move the mean and the SD together (correlation 0.89 over 40 runs of 15 million rounds of
# the sevens plan), so they are wider than the runs' spread: SCORE's and N0's 2.2 times, the risk
# of ruin's 1.4 times.
MOVED_TOGETHER = "conservative (the Super Sevens pays move the mean and SD together)"
# The risk of ruin (the diffusion formula) needs near-normal round results; with Super Sevens in
# the nets it comes from their distribution (`counting.adjustment`), or where a tally has none
# (a `figures` call without ``nets``) it is withheld: the pays add to the variance, never to a
# round's loss.
# SCORE and N0 where the mean net per round is not above 0 (``no_edge_note``): null, not 0 and
# not a number of rounds, in every format.
NO_EDGE = ("not applicable without an edge (the mean net per round is not above 0): SCORE, the "
           "win per 100 rounds of the bets scaled as Kelly would to a 10,000-unit bankroll, and "
           "N0, the rounds for the win to reach one SD, assume the counter wins")
RUIN_WITHHELD = ("not given where the counter bets Super Sevens: its pays (far above the main "
                 "game's) "
                 "make a round's net far from normal, and the diffusion formula exp(-2 m B / "
                 "s^2) would count their variance as risk, though they only ever win")
RUIN_FROM_NETS = ("worked out from the distribution of a round's net, as the Super Sevens pays "
                  "(far above the main game's) make it far from normal: exp(-R B), R the rate "
                  "at which "
                  "the mean of exp(-R x) over the rounds' nets x is 1 (for normal rounds R = "
                  "2 m / s^2, the diffusion formula's), the rounds taken as independent as that "
                  "formula takes them; a win many times 1 / R units adds almost nothing to that "
                  "mean whatever its size, so pay tables that differ in their top pays alone "
                  "give about the same risk")
# SCORE and N0 where the nets hold Super Sevens results (``score_sevens_note``): the pays'
# variance is in their SD, though they never lose (a casino manager's review: a smaller top pay
# raised SCORE while the win fell).
SS_SCORE = ("count as risk the SD of the net per round, which the Super Sevens pays swell "
            "though they only ever win: a smaller top pay can raise SCORE and lower N0 while the "
            "win falls, so compare pay tables by the win per 100 rounds and the risk of ruin")
SS_NOTE = f"SCORE and N0 {SS_SCORE}"  # (json's, a whole sentence)
RUIN_DIFFUSION = ("the diffusion formula's, exp(-2 m B / s^2): m and s the mean and SD of the net "
                  "per round, B the bankroll, the rounds taken as independent and near normal")
RUIN_METHODS = {"diffusion": RUIN_DIFFUSION, "net distribution": RUIN_FROM_NETS}
# The SD per round (``sd_note``): a sample SD with no SE, which would need the fourth moment.
SD_NO_SE = ("the sample SD of the net per round (n - 1 in the denominator), with no SE: its SE "
            "needs the fourth moment of a round's net, which the tally does not keep")


def _per_round(net: int, sq: int, n: int, bankroll, few: str | None = None,
               moved: bool = False, nets=None, batch: tuple | None = None) -> dict:
    """The counter's net per round (units; Super Sevens included) over ``n`` rounds: mean, SD,
    SE, win per 100 rounds, SCORE, N0 and the risk of ruin of ``bankroll`` units, each with its
    SE (``*_se``: from the mean's SE by the first-order delta method, the SD taken as known; for
    SCORE, N0 and the risk of ruin only with an edge, where they are smooth in the mean) and
    95% interval. ``few``: why the rounds' Super Sevens bets are too few for any SE or interval
    (`_few_counter_wins`); the figures stand without them and ``interval_note`` says why.
    ``moved``: the nets hold Super Sevens results, so SCORE's and N0's SEs and intervals are
    conservative (`MOVED_TOGETHER`, ``score_n0_ruin_note``) and the risk of ruin comes from the
    distribution of the rounds' nets, ``nets`` (`counting.adjustment`; `RUIN_FROM_NETS`,
    ``risk_of_ruin_method``), or without them is not given (`RUIN_WITHHELD`,
    ``risk_of_ruin_note``). Without an edge SCORE and N0 are None (`NO_EDGE`,
    ``no_edge_note``); their intervals stand where the mean's reaches an edge. ``batch``: the
    mean's SE by batch means over the chunks, its degrees of freedom and why it is none (a
    plan whose Super Sevens stake goes with the count: `ss_stake_varies`, `batches.whole_se`),
    for the SE from the rounds taken as independent; every interval is then Student's t
    (``se_kind`` says which)."""
    mean, sd = _mean_sd(net, sq, n, float(L.UNIT))
    ok = mean is not None and sd is not None and sd > 0
    se = sd / math.sqrt(n) if ok and few is None else None
    q = Z95
    if batch is not None and se is not None:
        se, df, why = batch
        few = few or why
        q = Z95 if se is None else t95(df)
    edge = se is not None and mean > 0
    by_nets = moved and nets is not None and ok and bankroll is not None
    if by_nets:  # the rounds not played (watched) at a net of 0
        nets = np.array(nets, dtype=np.float64)
        nets[L.NET_EXACT - 1] += n - nets.sum()

    def exponent(m):  # the risk of ruin's, -log(ruin), at the mean net per round ``m``
        if by_nets:  # (the rounds' nets moved to that mean)
            return counting.adjustment(nets, m) * bankroll
        return max(2.0 * m * bankroll / sd**2, 0.0)

    def ruin(m):
        return math.exp(-exponent(m))

    out = {
        "rounds": n, "mean": mean, "sd": sd, "se": se,
        "se_kind": None if mean is None else BATCH_SE if batch is not None else ROUNDS_SE,
        "sd_note": None if sd is None else SD_NO_SE,
        "win_per_100": None if mean is None else 100 * mean,
        "win_per_100_se": None if se is None else 100 * se,
        "interval_note": few if ok else None if mean is None else
        ONE_ROUND if n < 2 else NO_SPREAD,
        "score": counting.score(mean, sd) if ok else None,
        "n0": counting.n0(mean, sd) if ok else None,
        "no_edge_note": NO_EDGE if ok and mean <= 0 else None,
        "score_sevens_note": SS_NOTE if moved and ok else None,
        "risk_of_ruin": (ruin(mean) if ok and bankroll is not None and (not moved or by_nets)
                         else None),
        "risk_of_ruin_note": RUIN_WITHHELD if moved and not by_nets and bankroll is not None
        else None,
    }
    out["risk_of_ruin_method"] = (None if out["risk_of_ruin"] is None else
                                  "net distribution" if by_nets else "diffusion")
    # d SCORE / d mean = 2 SCORE / mean; d N0 / d mean = -2 N0 / mean;
    # d ruin / d mean = -2 bankroll ruin / sd^2 (from the nets: the mean moved by one SE each way)
    out["score_se"] = 2 * out["score"] * se / mean if edge else None
    out["n0_se"] = 2 * out["n0"] * se / mean if edge else None
    out["risk_of_ruin_se"] = (None if not edge or out["risk_of_ruin"] is None else
                              abs(ruin(mean - se) - ruin(mean + se)) / 2 if by_nets else
                              2 * bankroll * out["risk_of_ruin"] * se / sd**2)
    # 95% intervals, with or without an edge: each figure is monotone in the mean, so the
    # mean's interval carried through it, which stays in the figure's range (where the
    # interval reaches no edge SCORE's low end 0, ruin's high end 1, N0 without a bound: None;
    # an interval with no edge in it gives SCORE and N0 none).
    ci = se is not None
    low, high = (mean - q * se, mean + q * se) if ci else (None, None)
    given = ci and out["risk_of_ruin"] is not None
    spread = exponent(high) - exponent(low) if given else 0.0
    out["risk_of_ruin_interval_note"] = (_few_for_ruin(n, sd, bankroll, spread, by_nets,
                                                       batch is not None)
                                         if given and spread != 0 else None)
    if out["risk_of_ruin_interval_note"] is not None:
        out["risk_of_ruin_se"] = None
    interval = given and out["risk_of_ruin_interval_note"] is None
    out |= {
        "win_per_100_ci95_low": 100 * low if ci else None,
        "win_per_100_ci95_high": 100 * high if ci else None,
        "score_ci95_low": (counting.score(low, sd) or 0.0) if ci and high > 0 else None,
        "score_ci95_high": counting.score(high, sd) if ci else None,
        "n0_ci95_low": counting.n0(high, sd) if ci else None,
        "n0_ci95_high": counting.n0(low, sd) if ci else None,
        "risk_of_ruin_ci95_low": ruin(high) if interval else None,
        "risk_of_ruin_ci95_high": ruin(low) if interval else None,
        "score_n0_ruin_note": MOVED_TOGETHER if moved and ci else None,
    }
    return out


# What the SEs of the figures with Super Sevens are (their ``se_kind``): from the second moment
# of a round's whole net, the rounds taken as independent, or, where the plan's Super Sevens
# stake goes with the count (`ss_stake_varies`), by batch means over the chunks.
ROUNDS_SE = "rounds taken as independent"
BATCH_SE = ("batch means over the chunks (the Super Sevens stake goes with the count, and the "
            "rounds' results move together within a shoe)")
NO_WHOLE_MOMENTS = ("no SE: the plan's Super Sevens stake goes with the count, so this SE is by "
                    "batch means over the chunks, and the chunk moments of the round's whole net "
                    "are not kept for every chunk of this run")
# Why an SE by batch means is none where the tally came without its chunks' moments
# (`chunk_count`, ``chunk_se_note``; `figures` without ``moments``).
NO_CHUNK_MOMENTS = "no chunk moments kept with this tally"
# Why a figure over the rounds played has no SE: one round (`tally.ONE_ROUND`), or results all
# alike.
NO_SPREAD = "the results have no spread (SD 0)"


def ss_stake_varies(plan) -> bool:
    """Whether the plan's Super Sevens stake is not one fixed stake in every round dealt: it
    bets Super Sevens and its Super Sevens ramp or its boxes take more than one value, or it
    wongs (no stake in the rounds it sits out). Then the figures with Super Sevens have SEs by
    batch means over the chunks (`batches.whole_se`): stakes and return can rise together in a
    shoe rich in what the bet needs, and the rounds' results move together within a shoe."""
    ss = set(plan.super_sevens.values())
    return any(ss) and (len(ss) > 1 or len(set(plan.boxes.values())) > 1
                        or plan.wong_enter is not None)


def _few_for_ruin(n: int, sd: float, bankroll: float, spread: float,
                  by_nets: bool = False, batch: bool = False) -> str | None:
    """Why the risk of ruin of ``bankroll`` units has no SE or interval over ``n`` rounds of SD
    ``sd``, or None. The interval carries the mean's through ``exp(-2 m B / s^2)`` (``by_nets``:
    ``exp(-R B)``, `counting.adjustment`), whose exponent (0 without an edge) moves across it
    by ``spread`` (``2 B (high - max(low, 0)) / s^2``; its ends are that power of e apart).
    Where it moves by more than ``2 Z95`` (a factor of about 50), as an interval with an edge
    in it does over fewer rounds than ``4 (B / s)^2``, those for the run's own result (SD
    ``s sqrt(n)``) to spread twice as far as the bankroll, the bounds would be powers of ten apart,
    and an error of a few percent in the SE, or in the SD held fixed, would move them by more:
    over 1,000 rounds of the hi-lo plan with 1,000 units the exponent moved by 28 and the low
    end read 5e-11%. With ``batch`` (the mean's SE by batch means, its interval t) the rounds
    it needs are the played ones scaled by the spread, as from the nets, not ``4 (B / s)^2``."""
    if spread <= 2 * Z95:
        return None
    exponent = "R x bankroll" if by_nets else "2 x mean x bankroll / SD^2"
    if by_nets or batch:  # (the spread falls as one over the square root of the rounds, as the
        # mean's SE: from the rounds' nets, or by batch means with a t quantile)
        need = f"about {math.ceil(n * (spread / (2 * Z95)) ** 2):,}"
    else:
        need = f"4 x (bankroll / SD)^2 = {math.ceil(4 * (bankroll / sd) ** 2):,}"
    return (f"across the mean's 95% interval the formula's exponent {exponent} "
            f"moves by {spread:,.1f}, more than the {2 * Z95:.1f} (a factor of 50 in the risk) it "
            f"moves by over {need} rounds: the {n:,} played are too few "
            "for the run's own result to spread twice as far as the bankroll, and the interval's "
            "bounds would be powers of ten apart, an error of a few percent in the SE, or in the "
            "SD held fixed, moving them by more")


def _advantage(net: float, bet: float, round_sd, played: int, scale: float = 1.0) -> dict:
    """Net (over ``scale``: tenths for a net in tenths) per unit of ``bet`` with its 95%
    interval: the SE of the mean net per round played over the mean bet per round (the bet's
    own variation adds terms of order advantage^2). The mean is `tally.per`'s, as simulate's."""
    mean = per(net, bet, scale) if bet else None
    se = None
    if mean is not None and round_sd is not None and played:
        se = round_sd * math.sqrt(played) / bet
    return _figure(mean, se) | {"interval_note": None}


def _whole_se(moments, ctally, chunk_note: str | None):
    """For a plan whose Super Sevens stake goes with the count (`ss_stake_varies`): the figure
    with Super Sevens ``name`` (`batches.WHOLE`) -> (its SE by batch means over the chunks, the
    degrees of freedom, why the SE is none: ``chunk_note``, `chunk_count`, or the whole-net
    moments short of some chunks, `NO_WHOLE_MOMENTS`)."""
    def whole(name: str) -> tuple:
        if chunk_note is not None:
            return None, None, chunk_note
        k = batches.chunks_of(moments)
        if batches.whole_chunks(moments) != k:
            return None, None, NO_WHOLE_MOMENTS
        return batches.whole_se(moments, ctally, name), k - 1, None
    return whole


def _by_batches(fig: dict, whole, name: str) -> dict:
    """An advantage with Super Sevens (`_advantage`) with its ``se_kind``: where ``whole``
    (`_whole_se`; None: the rounds taken as independent) is given, its SE by batch means over
    the chunks and its interval Student's t, or none where ``whole`` says why."""
    if whole is None:
        return fig | {"se_kind": ROUNDS_SE}
    if fig["mean"] is None or fig["se"] is None:
        return fig | {"se_kind": BATCH_SE}
    se, df, why = whole(name)
    return _figure(fig["mean"], se, df) | {"interval_note": why, "se_kind": BATCH_SE}


def _without_interval(fig: dict, note: str | None) -> dict:
    """``fig`` with its SE and interval withheld where ``note`` says why (a figure with a mean)."""
    if note is None or fig["mean"] is None:
        return fig
    return fig | {"se": None, "ci95_low": None, "ci95_high": None, "interval_note": note}


def _flat(net: int, sq: int, n: int, scale: float, rsq: int | None = None,
          rounds: int = 0) -> dict:
    """Mean and SE of ``n`` values (one a box dealt) from their sum and sum of squares, or with
    ``rsq`` (each round's sum squared, over ``rounds``) the SE of the rounds' sums over the
    values: a round's boxes share the dealer's cards. ``sd``: of one value."""
    mean, sd = _mean_sd(net, sq, n, scale)
    if rsq is None:
        se = None if sd is None else sd / math.sqrt(n)
    else:
        rsd = _mean_sd(net, rsq, rounds, scale)[1]
        se = None if rsd is None or not n else rsd * math.sqrt(rounds) / n
    return _figure(mean, se) | {"n": n, "sd": sd, "interval_note": None}


def _gain_se(tot) -> float | None:
    """The SE of the gain over flat betting, the same rounds paired: of the counter's main net
    per unit bet less the flat net per box, from each round's ``d = N / B - F / K`` (``N``, ``F``
    its counter's and flat nets, ``B``, ``K`` the run's bets and boxes, taken as given as in
    `_advantage`) by the rounds' moments ``main_sq``, ``cross`` and ``flat_rsq``."""
    n, b, k = tot[L.C_ROUNDS], tot[L.C_BET], tot[L.C_FLAT_BOXES]
    if n < 2 or not b or not k:
        return None
    sq = (Fraction(tot[L.C_MAIN_SQ], b * b) - 2 * Fraction(tot[L.C_CROSS], b * k)
          + Fraction(tot[L.C_FLAT_RSQ], k * k))
    total = Fraction(tot[L.C_NET], b) - Fraction(tot[L.C_FLAT_NET], k)  # the rounds' d summed
    var = max(sq - total * total / n, 0) * n / (n - 1)  # the sum's: n times a round's (ddof 1)
    return math.sqrt(var) / L.UNIT


def _control(control, rules) -> dict:
    """The control run's figures (a simulate tally: the strategy alone at a flat bet) as
    `tally.summarize` gives them: the SE from the per-round moments (a round's boxes share the
    dealer's cards). ``n``: box-rounds; ``sd``: per box-round; ``sd_round``: per round."""
    s = summarize(control, rules)
    total = s["total"]
    return {k: total[k] for k in ("mean", "se", "ci95_low", "ci95_high")} | {
        "n": s["box_rounds"], "sd": total["sd_box_round"], "sd_round": total["sd_round"]}


def plan_dict(plan) -> dict:
    """A counting plan as plain data, as written (what the figures were played with); its
    ``bankroll`` the plan's own, the figures' ``bankroll`` the one their risk of ruin is for
    (``--bankroll`` where given)."""
    def ramp(r):
        return {"base": r.base, "steps": [list(s) for s in r.steps]}

    return {"name": plan.name, "description": plan.description,  # (a shipped one as the
            "source": shown_rule_file(plan.source),  # rules: strategies/plans/NAME.toml)
            "count": plan.count_file or plan.count.name, "count_name": plan.count.name,
            "count_kind": plan.count_kind,
            "deck_estimation": plan.resolution, "indices": plan.indices,
            "indices_name": None if plan.plays is None else plan.plays.name,
            "strategy": plan.strategy, "bet": ramp(plan.bet),
            "super_sevens": ramp(plan.super_sevens), "boxes": ramp(plan.boxes),
            "wong": None if plan.wong_enter is None else {"enter": plan.wong_enter,
                                                          "leave": plan.wong_leave},
            "table_min": plan.table_min, "table_max": plan.table_max, "bankroll": plan.bankroll,
            "tuned_penetration": plan.tuned_penetration,
            # (as read: each file's text too, to write it again from the json alone)
            "files": [{"what": what, "sha256": sha, "text": text} for (what, _), sha, text in
                      zip(plan.files, plan.sha256 or [file_sha256(p) for _, p in plan.files],
                          plan.texts or [None] * len(plan.files), strict=True)]}


# The sevens a Super Sevens line needs (rule 14: (a) one, (b) and (c) two, (d) and (e) three):
# the power of the density of sevens left that its chance goes with.
LINE_SEVENS = {"a": 1, "b": 2, "c": 2, "d": 3, "e": 3, "f": 0}


def makeable_lines(rules, strategy=None) -> list[tuple[str, float]]:
    """The Super Sevens lines (every one, (f) too: the levels the pays rise from, as
    `tally.summarize` takes them) that ``strategy`` can make (by its 7-7
    play; None: hitting every 7-7, the published convention; `tally.ss_lines_possible`) and the
    shoe can deal (`tally.ss_lines_dealable`), each with its chance per bet from a full shoe
    (rule 14)."""
    chances = line_chances(rules, None if strategy is None else [strategy])[0]
    possible = ss_lines_dealable(rules) if strategy is None else ss_lines_possible([strategy],
                                                                                   rules)
    return [(k, chances[k]) for k in possible if chances[k] > 0]


def rarest_line(rules, strategy=None) -> tuple[tuple[str, ...], float, int] | None:
    """The big pay (`tally.rarest_pay`: a step of pay, won by the `makeable_lines`
    lines paying it or more) that ``strategy`` makes least often from a full shoe: those lines,
    their chance per bet and the pay. A sample of bets says little of the return until it has
    seen a few tens of its wins."""
    rare = rarest_pay(dict(makeable_lines(rules, strategy)), line_pays(rules))
    return None if rare is None else (rare[0], rare[2], rare[1])


def rare_words(rare: dict) -> str:
    """json ``rarest_line`` in words: ``line (e) paying 5000 to 1, the rarest big pay the
    strategy can make``."""
    return f"{rare['words']}, the rarest big pay the strategy can make"


def _rare_pay_words(rare, check: dict) -> str:
    """``check["rare"]`` (`rarest_line`) in words (`tally.pay_words`)."""
    return pay_words(rare[0], rare[2], check["pays"])


def line_pays(rules) -> dict[str, int]:
    """Each Super Sevens line's pay to 1 (line (f), no seven first, loses its 1)."""
    return dict(zip(SS_LINES, list(rules.super_sevens_pays) + [-1], strict=True))


def sevens_density(plan):
    """For a plan counting sevens (a count tagging every card ``a`` > 0 but the seven, which is
    ``-12 a``, from 0; the shipped ``sevens`` count) with exact deck estimation: a function of a
    tally row ``i`` giving the fewest sevens a deck its rounds can begin with, over a full
    shoe's 4 (its true count ``t`` means ``4 + t / (13 a)`` sevens a deck, and the row holds
    ``t`` from its count to the next; the bottom row every ``t`` below, so 0), and at most 1.
    A shoe run down holds fewer sevens at the same density, which makes three less likely
    (`exact.sevens.moment_by_sevens_left`: ``s (s - 1) (s - 2)`` of ``s`` sevens left); so a
    count above 0 keeps the full shoe's chance, which at +7 and above is below the chance at
    the count even at the cut card (79 cards left at 75%). Else None: the count does not say
    how many sevens are left."""
    tags, a = plan.count.tags, plan.count.tags[0]
    if (plan.resolution != "exact" or a <= 0 or plan.count.irc_per_deck
            or plan.count.irc_constant
            or tags != tuple(-12 * a if v == 6 else a for v in range(10))):
        return None
    return lambda i: 0.0 if i == 0 else min(1.0, max(0.0, 1 + (L.TC_MIN + i) / (52 * a)))


# How the lines' chances are taken by count where the count tells the sevens left
# (`sevens_density`, `_too_few_bets`), in words count and the report share.
SEVENS_SCALING = ("below a count of 0, each line's chance is taken with s sevens a deck, the "
                  "fewest the count allows, among the cards left at the cut card, where it is "
                  "least: k sevens in a row, k the sevens the line needs")


NO_FAVOURABLE = ("no exact Super Sevens return: the side bet off, or the 7-7 play changing with "
                 "the count")


def plays_text(play) -> str:
    """A 7-7 play by up card (A, 2, ..., 10) in words, up cards grouped: ``split v 2-7, hit v
    8-A`` (`report.plays_by_up_text`, which takes them from 2 to A)."""
    return plays_by_up_text([play[i] for i in (*range(1, 10), 0)])


def _others_matter(rules, play) -> bool:
    """Whether the return of the 7-7 play ``play`` (by up card) depends on the cards other than
    sevens: a third card against some up cards and not others, or a peek (a dealer blackjack
    stops the third card) where it hits against an ace or a ten."""
    third = [p in ("hit", "double") for p in play]
    return len(set(third)) > 1 or rules.hole_card == "peek" and (third[0] or third[9])


def _count_of_sevens(plan) -> bool:
    """Whether the plan's count is a function of the cards and sevens left (every card but the
    seven tagged alike: the sevens count), so that its rows are too."""
    tags = plan.count.tags
    return len({t for v, t in enumerate(tags) if v != 6}) == 1


def sevens_check(rules, strategy=None, plan=None) -> dict:
    """What a Super Sevens z-score against the exact return needs. ``rare``: the `rarest_line` of
    the lines ``strategy`` can make; ``why_not``: None, or why no exact return can be set beside
    the simulated one at all: the index plays change the strategy's 7-7 play with the count
    (``plan``'s), and the exact table is of one play. The exact return is that of the
    strategy's own 7-7 play (``play``: its words) from the cards and sevens left at each round's
    start (`counter.exact_plays`: the published convention, a third card always dealt, where the
    strategy plays that). ``by_count_exact``: whether it is exact at each count too, or only
    overall: where the play's return depends on the cards other than sevens (`_others_matter`)
    and the count says something of them (any count but the sevens count), the rounds at a count
    hold other cards than the cards and sevens left say. ``strategy`` None: taken to play the
    convention."""
    shoe = {"decks": rules.decks, "left_min": 52 * rules.decks - (
        rules.cut if rules.shuffle == "cut-card" else 0)}  # (the fewest cards a round starts at)
    convention = {"play": CONVENTION, "by_count_exact": True, "by_count_note": None}
    if not rules.super_sevens:
        return {"rare": None, "lines": [], "pays": {}, "why_not": None} | convention | shoe
    if strategy is None:
        return {"rare": rarest_line(rules), "lines": makeable_lines(rules),
                "pays": line_pays(rules), "why_not": None} | convention | shoe
    play = counter_seven_seven_play(rules, strategy, plan)
    valued = exact_plays(rules, play)
    out = {"rare": rarest_line(rules, strategy), "lines": makeable_lines(rules, strategy),
           "pays": line_pays(rules), "why_not": None} | convention | shoe
    if play is None:
        return out | {"why_not": (
            "the index plays change the strategy's 7-7 play with the count, and the exact return "
            "is of one play: no exact return, z or favourable share"), "play": None}
    if valued is None:
        return out
    at_count = plan is None or _count_of_sevens(plan) or not _others_matter(rules, valued)
    return out | {"play": f"the strategy's 7-7 play ({plays_text(valued)})",
                  "by_count_exact": at_count, "by_count_note": None if at_count else (
                      "the exact return is by the cards and sevens left, and the count tells of "
                      "cards other than sevens, which move this 7-7 play's return at a count: "
                      "exact overall, not at each count, nor the share of rounds it favours "
                      "there")}


# The exact return's play where the strategy plays the published convention.
CONVENTION = "the published convention (a third card always dealt)"


def sevens_bet_warnings(plan, games, strategy) -> list[str]:
    """A line for each game (rule set) where ``plan``'s first Super Sevens bet, under a sevens
    count with exact deck estimation (`sevens_density`), is made at a count where the bet's
    exact return (`exact.sevens.value_by_sevens_left`, by ``strategy``'s 7-7 play) is below 0
    at some depth a round starts at, or where one count below it the return is above 0 at every
    depth (at each depth, the fewest whole sevens left that the count allows: a shoe holds no
    fraction of a seven, a card counter's review): the plan's counts were chosen for other
    pays, another 7-7 play or another cut card, and are played as written. None for a game
    shuffling every round (the count never builds) or a strategy whose 7-7 play changes with
    the count. A plan betting at every count (a ``base`` above 0) is checked at a count of 0, a
    full shoe's density of sevens."""
    from simulator.exact.sevens import value_by_sevens_left

    ramp = plan.super_sevens
    first = (("base", 0, ramp.base) if ramp.base > 0 else
             next(((f"steps[{i}]", c, u) for i, (c, u) in enumerate(ramp.steps) if u > 0), None))
    if sevens_density(plan) is None or first is None:
        return []
    key, count, units = first
    out = []
    for rules in dict.fromkeys(games):
        play = counter_seven_seven_play(rules, strategy, plan)
        if not rules.super_sevens or rules.shuffle != "cut-card" or play is None:
            continue
        plays, decks = exact_plays(rules, play), rules.decks

        def returns(t, rules=rules, plays=plays):  # (return, cards left) at a round's start
            per = (4 + Fraction(t) / (13 * plan.count.tags[0])) / 52  # sevens a card at count t
            fewest = ((n, math.ceil(n * per)) for n in range(  # (whole sevens: count t or more)
                max(3, 52 * rules.decks - (rules.cut - 1)), 52 * rules.decks + 1))
            return [(value_by_sevens_left(rules, n, s, plays), n) for n, s in fewest
                    if s <= min(n, 4 * rules.decks)]

        bottom, top = counting.start_counts(plan.count, plan.resolution, decks, rules.cut)
        whose = ("the published convention's 7-7 play (a third card always dealt)"
                 if plays is None else f"the strategy's 7-7 play ({plays_text(plays)})")
        where = (f"{plan.source}: key 'super_sevens.{key}' = "
                 + (f"{units}, a bet at every count" if key == "base" else shown([count, units]))
                 + f": at {decks} {plural(decks, 'deck', 'decks')}, penetration "
                 f"{rules.penetration:g}, pays "
                 f"{pays_text(rules.super_sevens_pays)} and {whose}")
        low = min(returns(count), default=None)
        if low is not None and low[0] < 0:
            best = next((t for t in range(math.ceil(count), math.floor(top) + 1)
                         if min(returns(t), default=(-1,))[0] > 0), None)
            out.append(f"{where}, the bet's exact return at a sevens count of "
                       f"{f'{count:+g}' if count else '0'} is "
                       f"below 0 where a round can start ({_pct(low[0], 2)} at {low[1]} cards "
                       "left): the plan makes some bets where the house has the edge; "
                       + (f"the return is above 0 at every depth from {best:+d}" if best is not
                          None else "at no count a round starts at is it above 0 at every depth"))
        below = None if key == "base" else min(returns(count - 1), default=None)
        if below is not None and below[0] > 0:
            lowest = math.ceil(count - 1)  # (the lowest whole count above 0 at every depth)
            while lowest - 1 >= bottom and min(returns(lowest - 1), default=(-1,))[0] > 0:
                lowest -= 1
            out.append(f"{where}, the bet's exact return at a sevens count of {count - 1:+g}, "
                       f"below the plan's first bet, is above 0 at every depth a round can start "
                       f"(at least {_pct(below[0], 2)}, at {below[1]} cards left): the plan "
                       f"passes up bets that favour the player; the return is above 0 at every "
                       f"depth from {lowest:+d}")
    return out


def count_warnings(plan, games, strategy) -> list[str]:
    """What bjsim count warns of ``plan`` in ``games`` (rule sets): its odd steps and wonging
    (`plans.plan_warnings`) and its Super Sevens bets (`sevens_bet_warnings`), each once, a
    shipped plan named as the outputs name a shipped file (`rules.shown_rule_file`), not by this
    checkout's path: count's stderr and ``run.warnings``, and the report's counting section."""
    from simulator.plans import plan_warnings

    plan = dataclasses.replace(plan, source=shown_rule_file(plan.source))
    return list(dict.fromkeys(plan_warnings(plan, games)
                              + sevens_bet_warnings(plan, games, strategy)))


def _falling(x: float, k: int) -> float:
    """``x (x - 1) ... (x - k + 1)``, 0 where ``x`` is below ``k - 1``."""
    out = 1.0
    for j in range(k):
        out *= max(x - j, 0.0)
    return out


def sevens_factor(density: float, k: int, check: dict) -> float:
    """How likely ``k`` given sevens are, in a row, at ``density`` (the sevens a deck the count
    leaves at least, over a full shoe's 4), against a full shoe: 1 from a count of 0 up (above
    it a full shoe's chance stays, `sevens_density`); below, the least over the shoe's depth,
    from a full shoe to the cut card (``check``'s ``left_min`` cards left), where a shoe run down
    holds fewer sevens at the same density."""
    if density >= 1:
        return 1.0
    n = 52 * check["decks"]
    full = _falling(4 * check["decks"], k) / _falling(n, k)
    return min(_falling(4 * density * r / 52, k) / _falling(r, k) / full
               for r in range(max(check["left_min"], k), n + 1))


def _exact_se(sum_sq: int, exact, n: int):
    """The SE of the mean of ``n`` Super Sevens bets from the exact variance of their starting
    shoes (``ss_exact_sq``: the sum of each bet's exact mean square), or None without it."""
    if not sum_sq or exact is None or not n:
        return None
    return math.sqrt(max(sum_sq / L.SS_EXACT_SQ_SCALE / n - exact * exact, 0.0) / n)


def _too_few_bets(sim: dict, check: dict, density: float | None = None) -> str | None:
    """Why a simulated Super Sevens return has no interval or z, or None: fewer bets than expect
    `MIN_WINS` wins of the rarest pay the strategy can make from a full shoe (``check["rare"]``,
    as simulate and compare withhold theirs). The mean of so few bets is a handful of big pays,
    far from normal, so no 95% interval or z holds, whichever SE (the sample's or the exact
    one): one 5000-to-1 win made z = -10.5 (of the house edge). ``density``: the sevens a deck
    the bets' count leaves at least, over a full shoe's (`sevens_density`): each line's chance
    is scaled by it for the sevens the line needs (`LINE_SEVENS`), and the rarest
    so scaled decides (`sevens_factor`); at a sevens count of -9 line (e) is 0.32 times as
    likely as from a full shoe with 78 cards left."""
    rare = check["rare"]
    if rare is None:
        return None
    if density is None:
        if sim["n"] * rare[1] < MIN_WINS:
            return (f"fewer than {MIN_WINS} wins of {_rare_pay_words(rare, check)} expected in "
                    f"{sim['n']:,} bets (about {wins_number(sim['n'] * rare[1])}; "
                    f"{bets_for_wins(rare[1])}): too few for a normal interval or z")
        return None
    if density == 0:  # (the bottom row, every count of -30 or less: `sevens_density`)
        return (f"no win of a Super Sevens line expected in {sim['n']:,} bets: the row's counts "
                "go down to a shoe with no sevens left, where no line can be made: too few "
                "for a normal interval or z")
    line, pay, p = rarest_pay({k: c * sevens_factor(density, LINE_SEVENS[k], check)
                               for k, c in check["lines"]}, check["pays"],
                              weigh=dict(check["lines"]))  # (the big pays a full shoe's)
    if sim["n"] * p < MIN_WINS:
        wins = wins_number(sim["n"] * p)
        chance = (f"at {4 * density:.2f} sevens a deck among the {check['left_min']} cards "
                  "left at the cut card: the fewest this count leaves" if density < 1 else
                  "a full shoe's: this count leaves at least a full shoe's 4 sevens a deck")
        return (f"fewer than {MIN_WINS} wins of {pay_words(line, pay, check['pays'])} expected "
                f"in {sim['n']:,} bets (about {wins}, {'its' if len(line) == 1 else 'their'} "
                f"chance {chance}; {bets_for_wins(p)} at this count): too few for a normal "
                "interval or z")
    return None


def bets_super_sevens(plan, rules) -> bool:
    """Whether the plan can bet Super Sevens: its ramp has a stake, with the side bet on."""
    return bool(rules.super_sevens) and max(plan.super_sevens.values()) > 0


def _few_counter_wins(ss_bet: int, plan, rules, check: dict) -> str | None:
    """Why the counter's figures that hold its Super Sevens results (the advantages with Super
    Sevens, the net per round's SE, win per 100 rounds, SCORE, N0 and the risk of ruin) have no
    SE or interval, or None: the plan bets Super Sevens and its bets, ``ss_bet`` units, are too
    few to expect `MIN_WINS` wins of the rarest pay the strategy can make from a full shoe
    (``check["rare"]``), the rule the flat Super Sevens return and `bjsim simulate` follow
    (`_too_few_bets`). Its bets are counted as its units over the ramp's largest stake, the
    fewest they can be. Over the sevens plan's 200,000 rounds (30,017 bets, 0.5 wins of line (e)
    expected) the "95%" interval of the advantage with Super Sevens held the true value in 83%
    of 400 runs. None too where the counter staked nothing on it (no pay of it in the nets)."""
    rare = check["rare"]
    if rare is None or not ss_bet or not bets_super_sevens(plan, rules):
        return None
    top = max(plan.super_sevens.values())
    n = -(-ss_bet // top)
    if n * rare[1] >= MIN_WINS:
        return None
    bets = (f"the counter's {bets_words(n).replace(' bet', ' Super Sevens bet')}" if top == 1 else
            f"the counter's Super Sevens bets (at least {n:,}: {ss_bet:,} units at up to {top})")
    return (f"about {wins_words(n * rare[1])} of {_rare_pay_words(rare, check)} expected in "
            f"{bets} at a full shoe's chance (more where the count leaves more sevens), fewer "
            f"than {MIN_WINS}; {bets_for_wins(rare[1])}: too few for a normal interval (the "
            "mean and SD are a handful of big pays)")



def _ss_z(sim: dict, exact, check: dict, exact_se=None, density=None) -> tuple:
    """z of the Super Sevens house edge, as every z bjsim prints: the simulated house edge less
    the exact one over the SE, ``(exact - simulated return) / SE`` (+ where the simulated house
    edge is higher), or None and the reason: the strategy does not play the exact return's
    convention (`sevens_check`), or too few bets (`_too_few_bets`, at ``density``). The SE is
    the exact one (``exact_se``) where the tally has it, else the sample's."""
    if check["why_not"] is not None:
        return None, check["why_not"]
    few = _too_few_bets(sim, check, density)
    if few is not None:
        return None, few
    return _z_house_edge(sim["mean"], exact, sim["se"] if exact_se is None else exact_se), None


def _ss_interval(sim: dict, check: dict, exact_se=None) -> dict:
    """``sim``, the simulated Super Sevens return (``se`` the sample's), with its 95% interval
    from the SE a z uses (`_ss_z`): the exact one (``exact_se``) where the tally has it, else
    the sample's; withheld (``interval_note`` says why) where too few bets were dealt
    (`_too_few_bets`). ``interval_se``: ``exact``, ``sample`` or None (no interval)."""
    few = None if sim["mean"] is None else _too_few_bets(sim, check)
    if exact_se is not None and check["why_not"] is not None:
        exact_se = None  # the convention's SE, not of the game the strategy plays
    if exact_se is not None and sim["mean"] is not None and few is None:
        ci = _figure(sim["mean"], exact_se)
        return sim | {"ci95_low": ci["ci95_low"], "ci95_high": ci["ci95_high"],
                      "interval_se": "exact", "interval_note": None}
    if few is not None:
        return sim | {"ci95_low": None, "ci95_high": None, "interval_se": None,
                      "interval_note": few}
    return sim | {"interval_se": None if sim["ci95_low"] is None else "sample",
                  "interval_note": None}


# What each gain's SE is (`figures`; the json's ``*_se_kind``).
GAIN_SE_KIND = {"gain_over_flat": "paired: the same rounds at both bets",
                "gain_over_basic": "the two runs taken as independent"}
SAME_BETS = "none: a flat main bet on every box dealt, so the same bets as the flat figure"
SAME_ROUNDS = ("none: no index plays and a flat main bet, so the same rounds and bets as the "
               "control run")
AS_FLAT = ("paired: no index plays and fixed boxes, so the control run's rounds are the flat "
           "figure's and the gain over it is the gain over flat betting")
NO_PLAY = "none: the counter played no round, so there is no gain and no SE"


def gain_none(f: dict, over: str) -> str | None:
    """The words for a gain over ``flat`` or ``basic`` (the control) that is none, the bets or
    rounds being the same (`SAME_BETS`, `SAME_ROUNDS`) or no round played (`NO_PLAY`); None
    for a gain with an SE."""
    if f.get(f"gain_over_{over}_se_kind") == NO_PLAY:
        return "none (the counter played no round)"
    if over == "flat" and f["gain_over_flat_se_kind"] == SAME_BETS:
        return "none (a flat main bet: the same bets)"
    if over == "basic" and f.get("gain_over_basic_se_kind") == SAME_ROUNDS:
        return "none (no index plays and a flat main bet: the same rounds and bets)"
    return None


def control_is_flat(plan, tot: list, control) -> bool:
    """Whether the control run played the very rounds of the flat figure: a plan without index
    plays on a fixed number of boxes plays the strategy as the control does on the same cards
    (wonged-out rounds are still dealt and count in the flat figure), and the two runs' sums of
    the flat net, its squares by box and by round, rounds and boxes are equal. Then the gain
    over the control is the gain over flat, with its paired SE (`_gain_se`)."""
    if control is None or plan.indices is not None or len(set(plan.boxes.values())) != 1:
        return False
    t = [int(x) for x in control]
    return (tot[L.C_ROUNDS], tot[L.C_FLAT_BOXES], tot[L.C_FLAT_NET], tot[L.C_FLAT_SQ],
            tot[L.C_FLAT_RSQ]) == (t[L.T_ROUNDS], t[L.T_BOX_ROUNDS], t[L.T_TOTAL_SUM],
                                   t[L.T_TOTAL_SQ], t[L.T_RTOTAL_SQ])


# The advantages with Super Sevens where the counter bet none: no figures (they would repeat
# the rows without, or add only insurance to the main game's per unit wagered).
NO_SS_BET = "the counter bet no Super Sevens"
NONE_BET = {"mean": None, "se": None, "ci95_low": None, "ci95_high": None,
            "interval_note": NO_SS_BET, "se_kind": None}
# The fixed notes an advantage's or a net per round's ``interval_note`` can be; besides them
# `_few_counter_wins`' and `chunk_count`'s, which name the run's numbers. docs/counting.md
# lists each (tests/test_counting_report.py checks it).
INTERVAL_NOTES = (ONE_ROUND, NO_SPREAD, NO_CHUNK_MOMENTS, NO_WHOLE_MOMENTS, NO_SS_BET)


def _insurance_note(tot: list[int], plan, mean, se) -> str | None:
    """Why the counter's insurance result (``mean``, ``se``) has no SE or interval, or None:
    fewer than two rounds played, no insurance bet, too few insurance bets won or lost for a
    normal interval (`tally.few_insurance_bets`: simulate's rule and words, the rounds at most
    the plan's most boxes), or results without spread."""
    won, lost = tot[L.C_INS_WON], tot[L.C_INS_LOST]
    if mean is None:
        return None
    if tot[L.C_PLAYED] < 2:
        return ONE_ROUND
    if not won + lost:
        return "no insurance bet in the rounds played"
    few = few_insurance_bets(won, lost, max(plan.boxes.values()))
    if few is not None:
        return f"{TOO_FEW}: {few}"
    return None if se is not None else NO_SPREAD


def _insures(rules, strategy, plan) -> bool | None:
    """Whether the counter can take insurance: some strategy it plays (the base strategy with
    the plan's index plays, `counter.counter_strategies`) insures; None without ``strategy``."""
    if strategy is None:
        return None
    return any(s.insurance for s in counter_strategies(rules, strategy, plan)[0])


def flat_main(plan) -> bool:
    """Whether the plan bets the main game flat on every box dealt in every round: then its
    main-game advantage is the flat figure's, the same bets' (Super Sevens bets aside)."""
    return plan.wong_enter is None and len(set(plan.bet.values())) == 1


def figures(ctally, plan, rules, bankroll: float | None = None, strategy=None,
            control=None, moments=None, nets=None, shoe=None,
            rounds_per_hour: int | None = None) -> dict:
    """Every figure of the counter's run from its counting tally (JSON-ready; fractions, not
    percents; money in the plan's units; ``tally``: the fields summed over the
    counts). ``bankroll`` (units) overrides the plan's for the risk of ruin; ``strategy``: the
    one played, which decides whether and from how many bets a Super Sevens z-score can be
    given (`sevens_check`); ``control``: the tally of the strategy alone at a flat bet
    (`count_runs`), for ``basic`` and ``gain_over_basic``; ``moments``: the run's chunk moments
    (`batches`), for the SEs of the shares played and favourable, the average bet and the boxes
    by batch means over the chunks (None: those SEs are not given); ``nets``: the rounds played
    by their net (``layout.N_NETS``), for the risk of ruin where Super Sevens pays are in them
    (None: it is not given there); ``shoe``: the run's ``shuffles`` and ``refills`` (its tally's,
    `tally.summarize`), kept as ``shoe`` (None: not known); ``rounds_per_hour``: the rounds
    dealt an hour, for ``per_hour`` (`per_hour`; None: not given)."""
    c = _columns(ctally)
    tot = [sum(col) for col in c]
    u = L.UNIT
    rounds, played = tot[L.C_ROUNDS], tot[L.C_PLAYED]
    bet, ss_bet, wagered = tot[L.C_BET], tot[L.C_SS_BET], tot[L.C_WAGERED]
    net, ss_net = tot[L.C_NET], tot[L.C_SS_NET]
    round_net = net + u * ss_net  # tenths
    if bankroll is not None:  # (as a plan's and --bankroll: one table-minimum bet at least)
        bankroll = check_bankroll(bankroll, plan.table_min, "figures: bankroll")
    bankroll = plan.bankroll if bankroll is None else bankroll
    check = sevens_check(rules, strategy, plan)
    few = _few_counter_wins(ss_bet, plan, rules, check)
    moved = ss_bet > 0 and check["rare"] is not None  # (its pays in the nets)
    chunks, chunk_note = chunk_count(moments)
    whole = _whole_se(moments, ctally, chunk_note) if ss_bet and ss_stake_varies(plan) else None
    per_played = _per_round(round_net, tot[L.C_ROUND_SQ], played, bankroll,
                            few or _too_few(played), moved, nets,
                            None if whole is None else whole("per_round_played"))
    per_watched = _per_round(round_net, tot[L.C_ROUND_SQ], rounds, bankroll,
                             few or _too_few(rounds), moved, nets,
                             None if whole is None else whole("per_round_watched"))
    sd = per_played["sd"]
    main_sd = _mean_sd(net, tot[L.C_MAIN_SQ], played, float(u))[1]  # (Super Sevens apart)
    game = net - tot[L.C_INS_NET]  # the main game's result alone (`PER_UNIT_WAGERED`)
    game_sd = _mean_sd(game, tot[L.C_MAIN_ALONE_SQ], played, float(u))[1]
    ins_sd = _mean_sd(tot[L.C_INS_NET], tot[L.C_INS_SQ], played, float(u))[1]  # (by round)
    insurance = _advantage(tot[L.C_INS_NET], bet, ins_sd or None, played, u)  # (SD 0: no SE)
    insurance = _without_interval(insurance, _insurance_note(tot, plan, insurance["mean"],
                                                             insurance["se"]))
    short = ONE_ROUND if played < 2 else _too_few(played)  # (as simulate)
    ss_few = few or _too_few(played)  # (the Super Sevens bets' rule, then the rounds')
    advantage = {
        "initial_bet": _without_interval(_advantage(net, bet, main_sd, played, u), short),
        "initial_bet_with_super_sevens": _without_interval(_by_batches(
            _advantage(net / u + ss_net, bet + ss_bet, sd, played), whole,
            "initial_bet_with_super_sevens"), ss_few) if ss_bet else NONE_BET,
        "total_bet": _without_interval(_advantage(game / u, wagered / u, game_sd, played), short),
        "total_bet_with_super_sevens": _without_interval(_by_batches(
            _advantage(round_net / u, wagered / u + ss_bet, sd, played), whole,
            "total_bet_with_super_sevens"), ss_few) if ss_bet else NONE_BET,
    }
    flat = _flat(tot[L.C_FLAT_NET], tot[L.C_FLAT_SQ], tot[L.C_FLAT_BOXES], float(u),
                 tot[L.C_FLAT_RSQ], rounds)
    if flat["mean"] is not None and flat["se"] is None and rounds < 2:  # (as the advantages)
        flat["interval_note"] = ONE_ROUND
    basic = None if control is None else _control(control, rules)
    adv = advantage["initial_bet"]["mean"]
    # (from the means, not the SE, which too few rounds withhold: the same bets at any rounds)
    same_bets = (flat_main(plan) and adv is not None and flat["mean"] is not None
                 and played > 0
                 and math.isclose(adv, flat["mean"], rel_tol=1e-9, abs_tol=1e-15))
    flat = _without_interval(flat, _too_few(rounds))
    same_rounds = (same_bets and basic is not None and plan.indices is None
                   and math.isclose(adv, basic["mean"], rel_tol=1e-9, abs_tol=1e-15))
    as_flat = not same_rounds and adv is not None and control_is_flat(plan, tot, control)
    # the gain over flat from the integer sums as fractions: the same bets give 0 exactly
    gain_flat = None if adv is None or flat["mean"] is None else float(
        Fraction(net, bet) - Fraction(tot[L.C_FLAT_NET], tot[L.C_FLAT_BOXES])) / u
    ss_flat = _flat(tot[L.C_SS_FLAT_NET], tot[L.C_SS_FLAT_SQ], tot[L.C_SS_FLAT_BETS], 1.0)
    ss_exact = _ratio(tot[L.C_SS_EXACT] / L.SS_EXACT_SCALE, tot[L.C_SS_FLAT_BETS])
    rare = check["rare"]
    ss_exact_se = _exact_se(tot[L.C_SS_EXACT_SQ], ss_exact, tot[L.C_SS_FLAT_BETS])
    # (none where no Super Sevens bet was dealt, the side bet off: not 0% of rounds)
    favourable = _ratio(tot[L.C_SS_PLUS], rounds) if tot[L.C_SS_FLAT_BETS] else None
    if check["why_not"] is not None:  # (another play's: none beside the simulated return)
        ss_exact = ss_exact_se = favourable = None
    seen = [i for i in range(L.N_TC) if c[L.C_ROUNDS][i]]

    def chunk_se(value, se):  # (no SE of a figure that is not given)
        return None if value is None or chunk_note is not None else se()
    ss_z, ss_note = _ss_z(ss_flat, ss_exact, check, ss_exact_se)
    ss_flat = _ss_interval(ss_flat, check, ss_exact_se)
    counter_ss = _counter_return(ss_net, ss_bet, few, chunk_note, lambda: batches.run_se(
        moments, ctally, "counter_super_sevens_return"), chunks)
    by_exact = _counter_exact(tot, moments, ctally, chunks, chunk_note, check["why_not"] or (
        None if check["by_count_exact"] else NOT_BY_STAKES))
    return _gain_intervals({
        "plan": plan_dict(plan),
        "count_kind": plan.count_kind,
        "rules": {"decks": rules.decks, "penetration": rules.penetration,
                  "shuffle": rules.shuffle, "super_sevens": rules.super_sevens},
        "rounds": rounds, "rounds_played": played, "shoe": shoe,
        "no_play_note": None if played or not rounds else (
            "the counter played no round"
            + ("" if plan.wong_enter is None else
               f" (its wonging in at {plan.wong_enter:+g} was never reached)")
            + ": the figures of its bets are empty; the flat figures (every box dealt at one "
            "unit) stand"),
        "played_share": _ratio(played, rounds),
        "played_share_se": chunk_se(_ratio(played, rounds),
                                    lambda: batches.run_se(moments, ctally, "played_share")),
        "boxes_per_round_played": _ratio(tot[L.C_BOXES], played),
        "boxes_per_round_played_se": chunk_se(_ratio(tot[L.C_BOXES], played),
                                              lambda: batches.boxes_se(moments, ctally, seen)),
        "average_bet": _ratio(bet, played),
        "average_bet_se": chunk_se(_ratio(bet, played),
                                   lambda: batches.run_se(moments, ctally, "average_bet")),
        "chunks": chunks, "chunk_se_note": chunk_note,
        "average_super_sevens_bet": _ratio(ss_bet, played),
        "average_super_sevens_bet_se": chunk_se(_ratio(ss_bet, played) or None, lambda: (
            batches.run_se(moments, ctally, "average_super_sevens_bet"))),
        "wagered_per_initial_bet": _ratio(wagered / u, bet),
        "insurance_per_initial_bet": insurance["mean"],
        "insurance_per_initial_bet_se": insurance["se"],
        "insurance_per_initial_bet_ci95_low": insurance["ci95_low"],
        "insurance_per_initial_bet_ci95_high": insurance["ci95_high"],
        "insurance_per_initial_bet_interval_note": insurance["interval_note"],
        "insures": _insures(rules, strategy, plan),
        "bankroll": bankroll,
        "advantage": advantage,
        "per_round_played": per_played,
        "per_round_watched": per_watched,
        "per_hour": per_hour(per_watched, rounds_per_hour),
        "flat": flat,
        "gain_over_flat": 0.0 if same_bets else gain_flat,
        "gain_over_flat_se": 0.0 if same_bets else None if adv is None or _too_few(rounds)
        else _gain_se(tot),
        # (no round played: no gain, and no kind of SE for it, whatever a played run's would be)
        "gain_over_flat_se_kind": NO_PLAY if not played else SAME_BETS if same_bets
        else GAIN_SE_KIND["gain_over_flat"],
        "basic": basic,
        "gain_over_basic": 0.0 if same_rounds else None if adv is None or basic is None
        else gain_flat if as_flat else adv - basic["mean"],
        # Where the control's rounds are the flat figure's (`control_is_flat`) the gain is the
        # gain over flat, paired. Else two runs: they share their seed, but the counter's cards
        # drift off the control's within a shoe, so their errors are close to independent (30
        # seeds: correlation -0.26, not significant). The SE takes them as independent; it is
        # no upper bound.
        "gain_over_basic_se": 0.0 if same_rounds else None if as_flat and _too_few(rounds)
        else _gain_se(tot) if as_flat
        else None if basic is None or None in (basic["se"], advantage["initial_bet"]["se"])
        else math.hypot(basic["se"], advantage["initial_bet"]["se"]),
        "gain_over_basic_se_kind": None if basic is None else NO_PLAY if not played
        else SAME_ROUNDS if same_rounds else AS_FLAT if as_flat
        else GAIN_SE_KIND["gain_over_basic"],
        "super_sevens": {
            "counter_bets": ss_bet, "counter_net": ss_net,
            "counter_bets_per_round": _ratio(ss_bet, rounds) or None,
            "counter_bets_per_round_se": chunk_se(_ratio(ss_bet, rounds) or None, lambda: (
                batches.run_se(moments, ctally, "super_sevens_staked_per_round"))),
            **{f"counter_return{k}": v for k, v in counter_ss.items()},
            **{f"{name}{k}": v for name, fig in by_exact.items() for k, v in fig.items()},
            "flat": ss_flat, "exact": ss_exact, "exact_se": ss_exact_se,
            "z_house_edge": ss_z,
            "z_note": ss_note,
            "rarest_line": None if rare is None else {
                "lines": list(rare[0]), "pays": rare[2], "probability": rare[1],
                "words": _rare_pay_words(rare, check)},
            "why_not": check["why_not"],
            "exact_play": check["play"],
            "by_count_exact": check["by_count_exact"],
            "by_count_note": check["by_count_note"],
            "favourable_rounds": None if favourable is None else tot[L.C_SS_PLUS],
            "favourable_share": favourable,
            "favourable_share_se": chunk_se(favourable, lambda: batches.run_se(
                moments, ctally, "favourable_share")),
            "by_count_chance": "full shoe" if sevens_density(plan) is None else "sevens left",
        },
        "by_count": _by_count(c, rounds, moments if chunk_note is None else None, ctally),
        "super_sevens_by_count": _ss_by_count(c, check, sevens_density(plan), plan, moments,
                                              ctally, chunk_note),
        "tally": dict(zip(L.COUNT_NAMES, tot, strict=True)),
    })


def per_hour(p: dict, rounds_per_hour: int | None) -> dict | None:
    """The counter's figures an hour at the table, ``rounds_per_hour`` rounds dealt an hour
    (whether it plays them or sits out), from those per round watched ``p`` (`_per_round`):
    the win and its SE and 95% interval (the mean's, times the rounds), the SD (a round's
    times the square root of the rounds: the rounds taken as independent, as the risk of ruin
    takes them) and N0 in hours (N0's rounds and its interval over the rounds an hour). None
    without ``rounds_per_hour``."""
    if rounds_per_hour is None:
        return None
    k = rounds_per_hour / 100  # (from the win per 100 rounds)

    def hours(x):
        return None if x is None else x / rounds_per_hour
    return {"rounds_per_hour": rounds_per_hour,
            **{f"win{s}": None if p[f"win_per_100{s}"] is None else k * p[f"win_per_100{s}"]
               for s in ("", "_se", "_ci95_low", "_ci95_high")},
            "sd": None if p["sd"] is None else p["sd"] * math.sqrt(rounds_per_hour),
            **{f"n0_hours{s}": hours(p[f"n0{s}"]) for s in ("", "_se", "_ci95_low",
                                                              "_ci95_high")},
            "sd_note": p["sd_note"], "interval_note": p["interval_note"],
            "no_edge_note": p["no_edge_note"]}


def per_hour_lines(h: dict | None) -> list[str]:
    """The lines of the counter's figures an hour (`per_hour`) under the net per round's table;
    none without them."""
    if h is None:
        return []
    n, lo, hi = h["rounds_per_hour"], h["n0_hours_ci95_low"], h["n0_hours_ci95_high"]
    said = [] if lo is None else [
        f"95% interval {_num(lo, 1)} to {'no bound' if hi is None else _num(hi, 1)}"]
    if h["n0_hours"] is not None:
        n0 = f"{_num(h['n0_hours'], 1)} hours"
    elif h["no_edge_note"]:
        n0, said = NOT_APPLICABLE, ["no edge", *said]
    else:
        n0 = "-"
    n0 += f" ({'; '.join(said)})" if said else ""
    d = hour_digits(h["win_se"])
    return ["", f"Per hour at {n:,} {plural(n, 'round', 'rounds')} dealt an hour: win "
            f"{_pm95(h['win'], h['win_se'], d, h['win_ci95_low'], h['win_ci95_high'])} units"
            + ("" if h["win_se"] is None else " (95%)")
            + f", SD {_num(h['sd'], 2)} units, N0 {n0}: {PER_HOUR_WORDS}."
            + (f" No SE or interval: {h['interval_note']}." if h["interval_note"] else "")]


def hour_digits(se) -> int:
    """The decimals of a win an hour with SE ``se``: its SE to two significant figures, two at
    least (at 1 round an hour, ``0.0074 ± 0.0198``, not ``0.01 ± 0.02``)."""
    if not se or not math.isfinite(se):
        return 2
    return max(2, 1 - math.floor(math.log10(se)))


def hour_words(n) -> str:
    """``100 rounds an hour``, ``1 round an hour``."""
    return f"{_num(n)} {plural(n or 0, 'round', 'rounds')} an hour"


PER_HOUR_WORDS = ("the rounds dealt at the table, the counter there throughout (it plays them "
                  "or sits out: the figures per round watched), the SD a round's times the "
                  "square root of the rounds, the rounds taken as independent")


def _too_few(rounds: int) -> str | None:
    """Why figures over ``rounds`` (2 to 29) have no SE or interval, as simulate's
    (`tally.MIN_ROUNDS`: a normal interval covers too seldom there); else None."""
    short = _few_rounds(rounds)
    return None if short is None else f"{TOO_FEW}: {short}"


def _gain_intervals(f: dict) -> dict:
    """``f`` (`figures`) with each gain's 95% interval from its SE, ``gain_over_*_ci95_low`` and
    ``_high`` after its ``_se`` (null without an SE; 0 to 0 where the gain is none, SE 0)."""
    out = {}
    for k, v in f.items():
        out[k] = v
        if k in ("gain_over_flat_se", "gain_over_basic_se"):
            ci = _figure(f[k.removesuffix("_se")], v)
            out[k.replace("_se", "_ci95_low")] = ci["ci95_low"]
            out[k.replace("_se", "_ci95_high")] = ci["ci95_high"]
    return out


NO_COUNTER_BET = "no bet: the counter staked nothing on Super Sevens"  # (its return's note)


def _counter_return(net: int, units: int, few: str | None, chunk_note: str | None,
                    se, chunks: int | None) -> dict:
    """The counter's own Super Sevens return, its net over its ``units`` staked (keys ``""``,
    ``_se``, ``_ci95_low``, ``_ci95_high``, ``_interval_note``): the SE (``se()``) by batch
    means over the chunks (`batches`: the stakes go with the count, which carries over within
    a shoe), its 95% interval Student's t over the ``chunks`` (`tally.t95`: 2.26 SEs each way
    from 10 chunks, where 1.96 had held 92%); both withheld where the bets are too few for the
    big pays to be more than a handful (``few``, `_few_counter_wins`, the rule of every Super Sevens
    interval) or the chunks too few (``chunk_note``)."""
    mean = _ratio(net, units)
    note = NO_COUNTER_BET if mean is None else few or chunk_note
    fig = _figure(mean, se() if mean is not None and note is None else None,
                  None if chunks is None else chunks - 1)
    return {"": mean, "_se": fig["se"], "_ci95_low": fig["ci95_low"],
            "_ci95_high": fig["ci95_high"], "_interval_note": note}


# Why the counter's figures by the exact return of its shoes are withheld where the count tells
# of cards other than sevens and the 7-7 play's return depends on them (`sevens_check`'s
# ``by_count_exact``): the stakes then go with cards the exact return of the cards and sevens
# left does not see, and it is biased (docs/counting.md gives the bias measured).
NOT_BY_STAKES = ("the counter stakes by a count that tells of cards other than sevens, which "
                 "move this 7-7 play's return: the exact return of the cards and sevens left "
                 "is not its stakes' expectation")
# The counter's figures by the exact return of its Super Sevens stakes' shoes (`_counter_exact`)
BY_EXACT = ("counter_exact_return", "counter_exact_per_100", "counter_win_per_100_with_exact")


def _counter_exact(tot: list, moments, ctally, chunks: int | None, chunk_note: str | None,
                   why_not: str | None) -> dict:
    """The counter's Super Sevens result by the exact return of the shoe each stake was made at
    (its cards and sevens left at the round's start: ``ss_exact_bet``), by `BY_EXACT`'s names,
    each keys ``""``, ``_se``, ``_ci95_low``, ``_ci95_high``, ``_interval_note``: its return a
    unit staked, its units won per 100 rounds played, and the counter's whole win per 100 rounds
    played with the main game as played and the Super Sevens bets by it. Their expectation is the
    simulated result's (each stake is set before its round's cards, from the shoe's), without
    the big pays' few wins in its spread. SEs by batch means over the chunks (the shoes' returns
    move together within a shoe), Student's t intervals; none without a stake, with too few
    chunks (``chunk_note``), or ``why_not``: the exact return is of another 7-7 play, or not the
    stakes' expectation (`NOT_BY_STAKES`)."""
    staked, played, x = tot[L.C_SS_BET], tot[L.C_PLAYED], tot[L.C_SS_EXACT_BET]
    sc = L.SS_EXACT_BET_SCALE
    note = NO_COUNTER_BET if not staked else why_not or chunk_note

    def fig(mean, name, scale, whole=False):
        if mean is None or why_not is not None:
            return {"": None, "_se": None, "_ci95_low": None, "_ci95_high": None,
                    "_interval_note": note}
        se = None if note is not None else (batches.whole_se if whole else batches.run_se)(
            moments, ctally, name)
        df = None if chunks is None else chunks - 1
        f = _figure(mean, None if se is None else se * scale, df)
        return {"": mean, "_se": f["se"], "_ci95_low": f["ci95_low"],
                "_ci95_high": f["ci95_high"], "_interval_note": note}
    if not staked or not played:
        return {name: fig(None, name, 1) for name in BY_EXACT}
    net = Fraction(tot[L.C_NET] * sc + L.UNIT * x, L.UNIT * sc)  # units, the whole round's
    return {
        BY_EXACT[0]: fig(x / sc / staked, "counter_super_sevens_exact_return", 1 / sc),
        BY_EXACT[1]: fig(100 * x / sc / played, "super_sevens_exact_per_round_played", 100 / sc),
        BY_EXACT[2]: fig(float(100 * net / played), "per_round_played_exact", 100, whole=True),
    }


def _z_house_edge(sim, exact, se):
    """z of the house edge from a simulated and an exact return: (exact - sim) / se."""
    return None if sim is None or exact is None or not se else (exact - sim) / se


def chunk_count(moments) -> tuple[int | None, str | None]:
    """The chunks the batch-means SEs are over (`batches`), and None or why there are none."""
    if moments is None:
        return None, NO_CHUNK_MOMENTS
    k = batches.chunks_of(moments)
    if k < batches.MIN_CHUNKS:
        return k, (f"no SE from fewer than {batches.MIN_CHUNKS} chunks (the run has {k}): "
                   "rounds of a shoe are correlated, so these SEs are from the spread between "
                   "chunks, each a fresh shoe sequence; more rounds or a smaller --chunk-rounds "
                   "give more")
    return k, None


MIN_SAMPLE = 30  # rounds (or bets) below which a count's SE is not given: too few to mean much
NO_SE = "no SE from fewer than 30 rounds at a count, or from results without spread"


def _by_count(c, rounds: int, moments=None, ctally=None) -> list[dict]:
    """Each bucket that saw a round (the ends merged until each holds `MIN_SAMPLE` rounds:
    `tail_groups`): its frequency, the flat advantage per box dealt at it and the counter's play
    there (each SE of the main game, from its rounds' sums: `_flat`); no SE from fewer than
    `MIN_SAMPLE` rounds. The boxes per round played have an SE by batch means over the chunks
    (`batches.boxes_se`, from ``moments`` of the counting tally ``ctally``; none without them or
    from fewer than `MIN_SAMPLE` rounds played). ``counts``: the lowest and highest count the
    row holds."""
    out = []
    groups = tail_groups(c[L.C_ROUNDS])
    for k, group in enumerate(groups):
        def add(field, g=group):
            return sum(c[field][i] for i in g)

        n = add(L.C_ROUNDS)
        flat = _flat(add(L.C_FLAT_NET), add(L.C_FLAT_SQ), add(L.C_FLAT_BOXES), float(L.UNIT),
                     add(L.C_FLAT_RSQ), n)
        played, bet = add(L.C_PLAYED), add(L.C_BET)
        sd = _mean_sd(add(L.C_NET), add(L.C_MAIN_SQ), played, float(L.UNIT))[1]
        counter = _advantage(add(L.C_NET), bet, sd, played, L.UNIT)
        if n < MIN_SAMPLE or not flat["sd"]:
            flat["se"] = None
        if played < MIN_SAMPLE or not sd:
            counter["se"] = None
        count, label = _group_label(group, k == 0, k == len(groups) - 1)
        out.append({
            "count": count, "label": label, "counts": _counts(group),
            "rounds": n, "frequency": n / rounds, "played": played, "played_share": played / n,
            "flat_boxes": flat["n"], "flat_advantage": flat["mean"], "flat_se": flat["se"],
            "average_bet": _ratio(bet, played),
            "boxes_per_round_played": _ratio(add(L.C_BOXES), played),
            "boxes_per_round_played_se": None if moments is None or played < MIN_SAMPLE
            else batches.boxes_se(moments, ctally, group),
            "counter_advantage": counter["mean"], "counter_se": counter["se"],
        })
    return out


def tail_groups(bets: list[int], least: int = MIN_SAMPLE) -> list[list[int]]:
    """The buckets with bets, in groups: one each, but for the ends, where a bucket with fewer
    than ``least`` bets is merged into the next one inward until the end group holds ``least``
    (or all of them): the figures of a few bets (one bet at -13 read -100%) say nothing."""
    groups = [[i] for i, n in enumerate(bets) if n]

    def total(g):
        return sum(bets[i] for i in g)

    while len(groups) > 1 and total(groups[0]) < least:
        groups[:2] = [groups[0] + groups[1]]
    while len(groups) > 1 and total(groups[-1]) < least:
        groups[-2:] = [groups[-2] + groups[-1]]
    return groups


def _group_label(group: list[int], first: bool, last: bool) -> tuple[int, str]:
    """A row's count and label: a bucket's own (`bucket_label`), or for end buckets merged
    (`tail_groups`) ``<=-10`` at the low end (its highest count), ``>=+12`` at the high end, and
    ``-2 to +3`` where one row holds every count seen."""
    if len(group) == 1:
        return L.TC_MIN + group[0], bucket_label(group[0])
    i = group[-1] if first else group[0]
    count = L.TC_MIN + i
    if first and last:
        return count, f"{bucket_label(group[0])} to {bucket_label(group[-1])}"
    return count, ("<=" if first else ">=") + (f"{count:+d}" if count else "0")


def _counts(group: list[int]) -> list[int | None]:
    """The lowest and highest count a row of buckets ``group`` holds, None at an end the tally
    clamps (its first bucket holds every count of `L.TC_MIN` or less, its last every count of
    `L.TC_MAX` or more): no bound, as the label's ``<=-30`` and ``>=+30`` say."""
    return [None if group[0] == 0 else L.TC_MIN + group[0],
            None if group[-1] == L.N_TC - 1 else L.TC_MIN + group[-1]]


def merged_text(what: str) -> str:
    """The note on end rows merged (`tail_groups`) of ``what`` (rounds, bets)."""
    return (f"end rows with fewer than {MIN_SAMPLE} {what} are merged into the next count inward, "
            "each end row holding every count beyond it")


MERGED_TAILS = merged_text("bets")


def _ss_by_count(c, check, density=None, plan=None, moments=None, ctally=None,
                 chunk_note: str | None = NO_CHUNK_MOMENTS) -> list[dict]:
    """Each bucket with a Super Sevens bet dealt (the ends merged until each holds
    `MIN_SAMPLE` bets: `tail_groups`): the simulated return per bet at one stake with its SE,
    the exact return of those bets from their rounds' start shoes, z (where enough bets were
    dealt: `_ss_z`, the lines' chances scaled by ``density`` of the row's lowest count,
    `sevens_density`, where the count tells the sevens left; else a full shoe's), how often the
    bet favoured the player there, and the counter's own bets. ``counts``: the lowest and
    highest count the row holds. The counter's return there has an SE and 95% interval by
    batch means over the chunks (``moments`` of the counting tally ``ctally``; none where
    ``chunk_note`` says why), withheld from fewer than `MIN_SAMPLE` units staked or where its
    bets (its units over ``plan``'s largest stake) are too few for the rarest big pay at the row's
    count (`_too_few_bets`)."""
    out = []
    top = max(plan.super_sevens.values()) if plan is not None else 1
    groups = tail_groups(c[L.C_SS_FLAT_BETS])
    for k, group in enumerate(groups):
        def add(field, g=group):
            return sum(c[field][i] for i in g)

        n = add(L.C_SS_FLAT_BETS)
        sim = _flat(add(L.C_SS_FLAT_NET), add(L.C_SS_FLAT_SQ), n, 1.0)
        exact = add(L.C_SS_EXACT) / L.SS_EXACT_SCALE / n
        exact_se = _exact_se(add(L.C_SS_EXACT_SQ), exact, n)
        at = None if density is None else density(group[0])  # (the fewest sevens)
        z, note = _ss_z(sim, exact, check, exact_se, at)
        favourable = _ratio(add(L.C_SS_PLUS), add(L.C_ROUNDS))
        if check["why_not"] is not None:
            exact = exact_se = favourable = None
        elif not check["by_count_exact"]:  # (exact overall only: `sevens_check`)
            exact = exact_se = z = favourable = None  # (its favourable share: by that return)
            note = check["by_count_note"]
        few = n < MIN_SAMPLE or not sim["sd"] or _too_few_bets(sim, check, at) is not None
        count, label = _group_label(group, k == 0, k == len(groups) - 1)
        units = add(L.C_SS_BET)
        bets = -(-units // max(top, 1))  # (the fewest its units can be)
        counter_few = (f"fewer than {MIN_SAMPLE} units staked" if units < MIN_SAMPLE else
                       _too_few_bets({"n": bets}, check, at))
        counter = _counter_return(
            add(L.C_SS_NET), units, counter_few, chunk_note,
            lambda g=group: batches.count_se(moments, ctally, g, "counter_super_sevens_return",
                                             L.C_SS_FLAT_BETS),
            None if moments is None else batches.chunks_of(moments))
        out.append({  # (a sample SE from fewer bets than the rarest big pay's 30 wins runs low)
            "count": count, "label": label, "counts": _counts(group), "bets": n,
            "return": sim["mean"], "se": None if few else sim["se"],
            "exact": exact, "exact_se": exact_se,
            "z_house_edge": z, "z_note": note,
            "favourable_share": favourable,
            "counter_bets": units,
            **{f"counter_return{k}": v for k, v in counter.items()},
        })
    return out


def merged_tails(rows: list[dict]) -> bool:
    """Whether a by-count row holds several buckets (`tail_groups`; a clamped end, ``counts``
    None, is one bucket)."""
    return any((L.TC_MIN if lo is None else lo) != (L.TC_MAX if hi is None else hi)
               for lo, hi in (r["counts"] for r in rows))


# ---------------------------------------------------------------------------------------------
# The penetration sweep


def sweep_rows(runs) -> list[dict]:
    """One row per run: ``runs`` is a list of (penetration, figures); ``bankroll`` the one the
    risk of ruin is for (each figures' own: ``--bankroll``, else the plan's)."""
    rows = []
    for pen, f in runs:
        a, p = f["advantage"]["initial_bet"], f["per_round_played"]
        ss = f["advantage"]["initial_bet_with_super_sevens"]  # (the single run's, as it is)
        rows.append({"penetration": pen, "rounds": f["rounds"],
                     "played_share": f["played_share"],
                     "played_share_se": f.get("played_share_se"),
                     "advantage": a["mean"], "se": a["se"],
                     "ci95_low": a["ci95_low"], "ci95_high": a["ci95_high"],
                     "interval_note": a["interval_note"],
                     "advantage_with_super_sevens": ss["mean"],
                     "advantage_with_super_sevens_se": ss["se"],
                     "advantage_with_super_sevens_ci95_low": ss["ci95_low"],
                     "advantage_with_super_sevens_ci95_high": ss["ci95_high"],
                     "advantage_with_super_sevens_interval_note": ss["interval_note"],
                     "flat_advantage": f["flat"]["mean"], "flat_advantage_se": f["flat"]["se"],
                     "flat_advantage_ci95_low": f["flat"]["ci95_low"],
                     "flat_advantage_ci95_high": f["flat"]["ci95_high"],
                     "flat_advantage_interval_note": f["flat"]["interval_note"],
                     "gain_over_flat": f["gain_over_flat"],
                     "gain_over_flat_se": f["gain_over_flat_se"],
                     "gain_over_flat_ci95_low": f.get("gain_over_flat_ci95_low"),
                     "gain_over_flat_ci95_high": f.get("gain_over_flat_ci95_high"),
                     "gain_over_flat_se_kind": f["gain_over_flat_se_kind"],
                     "average_bet": f["average_bet"],
                     "average_bet_se": f.get("average_bet_se"), "sd_round": p["sd"],
                     "sd_round_note": p.get("sd_note"),
                     "win_per_100": p["win_per_100"], "win_per_100_se": p["win_per_100_se"],
                     "win_per_100_ci95_low": p["win_per_100_ci95_low"],
                     "win_per_100_ci95_high": p["win_per_100_ci95_high"],
                     "per_round_se_kind": p["se_kind"],
                     "score": p["score"], "score_se": p["score_se"],
                     "score_ci95_low": p["score_ci95_low"],
                     "score_ci95_high": p["score_ci95_high"], "n0": p["n0"],
                     "n0_se": p["n0_se"], "n0_ci95_low": p["n0_ci95_low"],
                     "n0_ci95_high": p["n0_ci95_high"], "bankroll": f["bankroll"],
                     "risk_of_ruin": p["risk_of_ruin"], "risk_of_ruin_se": p["risk_of_ruin_se"],
                     "risk_of_ruin_ci95_low": p["risk_of_ruin_ci95_low"],
                     "risk_of_ruin_ci95_high": p["risk_of_ruin_ci95_high"],
                     "risk_of_ruin_interval_note": p.get("risk_of_ruin_interval_note"),
                     "per_round_interval_note": p["interval_note"],
                     "score_n0_ruin_note": p["score_n0_ruin_note"],
                     "no_edge_note": p["no_edge_note"],
                     "score_sevens_note": p["score_sevens_note"],
                     "risk_of_ruin_note": p["risk_of_ruin_note"],
                     "risk_of_ruin_method": p["risk_of_ruin_method"],
                     "super_sevens_favourable_share": f["super_sevens"]["favourable_share"],
                     "super_sevens_favourable_share_se":
                         f["super_sevens"].get("favourable_share_se"),
                     "super_sevens_exact_play": f["super_sevens"]["exact_play"],
                     # the counter's own Super Sevens bets: what the house loses on the side bet
                     "super_sevens_counter_bets": f["super_sevens"]["counter_bets"],
                     **{f"super_sevens_counter_bets_per_round{k}": f["super_sevens"].get(
                         f"counter_bets_per_round{k}") for k in ("", "_se")},
                     **{f"super_sevens_counter_return{k}": f["super_sevens"].get(
                         f"counter_return{k}") for k in ("", "_se", "_ci95_low", "_ci95_high",
                                                          "_interval_note")},
                     # and its win with them by the exact return of their shoes (`_counter_exact`)
                     **{f"super_sevens_{name}{k}": f["super_sevens"].get(f"{name}{k}")
                        for name in BY_EXACT for k in ("", "_se", "_ci95_low", "_ci95_high",
                                                       "_interval_note")},
                     "chunks": f.get("chunks"), "chunk_se_note": f.get("chunk_se_note"),
                     "shuffles": (f.get("shoe") or {}).get("shuffles"),
                     "refills": (f.get("shoe") or {}).get("refills")}
                    | ({} if f.get("per_hour") is None else {
                        ("" if k == "rounds_per_hour" else "per_hour_") + k: v
                        for k, v in f["per_hour"].items()
                        if k not in ("sd_note", "interval_note", "no_edge_note")}))
    # the advantage's change from the first penetration with an advantage (a casino manager's
    # review: no figure said what moving the cut card is worth to the counter, with its SE)
    first = next((r for r in rows if r["advantage"] is not None), None)
    for r in rows[rows.index(first) + 1:] if first else ():
        if r["advantage"] is None:
            continue
        d = r["advantage"] - first["advantage"]
        se = None if None in (r["se"], first["se"]) else math.hypot(r["se"], first["se"])
        r |= {"advantage_change": d, "advantage_change_from": first["penetration"],
              "advantage_change_se": se,
              "advantage_change_ci95_low": None if se is None else d - Z95 * se,
              "advantage_change_ci95_high": None if se is None else d + Z95 * se}
    # and of the sevens counter's win with its Super Sevens bets by exact return (a casino's
    # question: what a deeper cut card costs on the side bet), Welch's t over the two runs'
    # chunks (each SE by batch means)
    key = "super_sevens_counter_win_per_100_with_exact"
    given = [r for r in rows if r.get(key) is not None]
    for r in given[1:]:
        a, b = given[0], r
        d = b[key] - a[key]
        s1, s2 = a.get(key + "_se"), b.get(key + "_se")
        se = None if None in (s1, s2) else math.hypot(s1, s2)
        q = None if se is None else t95(max(1, round(se**4 / (
            s1**4 / (a["chunks"] - 1) + s2**4 / (b["chunks"] - 1)))))
        r |= {"super_sevens_exact_win_change": d,
              "super_sevens_exact_win_change_from": a["penetration"],
              "super_sevens_exact_win_change_se": se,
              "super_sevens_exact_win_change_ci95_low": None if se is None else d - q * se,
              "super_sevens_exact_win_change_ci95_high": None if se is None else d + q * se}
    return rows


# The runs of a sweep share their seed, but the cut card's place moves every shoe's deal after
# the first, so their errors are close to independent (docs/counting.md, "Penetration sweep").
CHANGE_WORDS = ("the runs taken as independent: they share a seed, but the cut card's place "
                "moves every shoe's deal after the first (measured for the shipped hi-lo-1-12 "
                "over 40 seeds: its advantages at 0.75 and 0.85 correlated +0.03)")


def change_line(rows: list[dict]) -> list[str]:
    """The sweep's line of the advantage's change from its first penetration with an advantage
    (`sweep_rows`), each with its 95% half-width; none without two such penetrations."""
    changed = [r for r in rows if r.get("advantage_change") is not None]
    if not changed:
        return []
    return [f"Change of the advantage (main + insurance, per unit of initial main bet) from "
            f"penetration {changed[0]['advantage_change_from']:.2f}"
            + (" (the first where the counter played)" if rows[0]["advantage"] is None else "")
            + ": "
            + ", ".join(f"{r['penetration']:.2f} {_pp95(r)}" for r in changed)
            + f" (95%, {CHANGE_WORDS})."]


def exact_why(rows: list[dict]) -> str:
    """Why a sweep's win with Super Sevens by exact return is none in every row: the reasons of
    the rows where the counter staked Super Sevens (a review: the first row's, where it staked
    nothing, had been said of them all), else that it staked none."""
    key = "super_sevens_counter_win_per_100_with_exact"
    notes = [r.get(key + "_interval_note") for r in rows if r.get("super_sevens_counter_bets")]
    return "; ".join(dict.fromkeys(n for n in notes if n)) or "no Super Sevens bet"


def exact_interval_line(rows: list[dict]) -> list[str]:
    """The sweep's line saying why its win with Super Sevens by exact return has no 95%
    half-width where it has a value, as the single run says it (too few chunks)."""
    key = "super_sevens_counter_win_per_100_with_exact"
    notes = [r.get(key + "_interval_note") for r in rows
             if r.get(key) is not None and r.get(key + "_se") is None]
    notes = list(dict.fromkeys(n for n in notes if n))
    return [f"win/100 SS exact: no 95% half-width ({'; '.join(notes)})."] if notes else []


def exact_change_line(rows: list[dict]) -> list[str]:
    """The sweep's line of the change of the counter's win per 100 rounds with its Super Sevens
    bets by exact return from its first penetration with one (`sweep_rows`), each with its 95%
    half-width; none without two such penetrations."""
    key = "super_sevens_exact_win_change"
    changed = [r for r in rows if r.get(key) is not None]
    if not changed:
        return []

    def shown(r):
        low, high = r.get(key + "_ci95_low"), r.get(key + "_ci95_high")
        half = "" if low is None else f" ± {(high - low) / 2:.3f}"
        return f"{r['penetration']:.2f} {r[key]:+.3f}{half}"
    return ["Change of the win per 100 rounds played with the Super Sevens bets by exact return "
            f"from penetration {changed[0][key + '_from']:.2f}: "
            + ", ".join(shown(r) for r in changed)
            + f" units (95%, Welch's t over the runs' chunks, {EXACT_CHANGE_WORDS})."]


EXACT_CHANGE_WORDS = ("the runs taken as independent (measured for the shipped sevens plan "
                      "over 20 seeds of 2 million rounds at 0.6 and 0.9: the two correlated "
                      "+0.23, not significant, and the change spread 0.86 times its SE)")


def _pp95(r: dict) -> str:
    d, se = r["advantage_change"], r.get("advantage_change_se")
    return f"{100 * d:+.3f} pp" + ("" if se is None else f" ± {100 * Z95 * se:.3f} pp")


# ---------------------------------------------------------------------------------------------
# Renderings


def _pct(x, d: int = 3, sign: bool = True) -> str:
    if x is None:
        return "-"
    return f"{100 * x:+.{d}f}%" if sign else f"{100 * x:.{d}f}%"


def _num(x, d: int = 2) -> str:
    if x is None:
        return "-"
    if isinstance(x, int):
        return f"{x:,}"
    return f"{x:,.{d}f}"


def _z_num(z) -> str:
    """A z with its sign (``+1.23``), as the report gives it; ``-`` for none."""
    return "-" if z is None else f"{z:+.2f}"


def _pm95(x, se, d: int = 2, low=None, high=None) -> str:
    """``x ± h`` (as ``_num``), ``h`` the 95% half-width: of the interval ``low`` to ``high``
    where given (Student's t for an SE by batch means), else ``Z95 se``; ``x`` alone without an
    SE."""
    h = None if se is None else Z95 * se if low is None else (high - low) / 2
    return _num(x, d) if h is None or x is None else f"{_num(x, d)} ± {_num(h, d)}"


NOT_APPLICABLE = "n/a"  # SCORE and N0 without an edge (`NO_EDGE`)


def _span(x, low, high, d: int = 2, fmt=None, none: str = "-") -> str:
    """``x (low to high)``: a figure with its 95% interval (``high`` None: no bound); ``x``
    alone without an interval; ``none`` for an ``x`` of None (`NOT_APPLICABLE`: no edge)."""
    fmt = fmt or (lambda v: _num(v, d))
    if x is None and low is not None:  # (no edge, its interval reaching one)
        return f"{none} ({fmt(low)} to {'no bound' if high is None else fmt(high)})"
    if x is None or low is None:
        return fmt(x) if x is not None else none
    return f"{fmt(x)} ({fmt(low)} to {'no bound' if high is None else fmt(high)})"


def sig3(x) -> str:
    """``x`` (a probability, a risk of ruin) to three significant figures in fixed notation,
    trailing zeros kept so that a figure and its interval's bounds show as many: ``0.140``,
    ``1.00``, and ``0.0000123`` where ``:.3g`` wrote ``1.23e-05``."""
    if not x or not math.isfinite(x):
        return f"{x:g}"
    decimals = max(0, 2 - math.floor(math.log10(abs(x))))
    text = f"{x:.{decimals}f}"
    if decimals and abs(float(text)) >= 10 ** (3 - decimals):  # rounded up a power of ten
        text = f"{x:.{decimals - 1}f}"  # (0.09996: 0.100, not 0.1000)
    return text


def _se3(se) -> str:
    """An SE to three significant figures (`sig3`: ``0.000411``, where three decimals wrote
    ``0.000`` and read as a figure the plan fixes); ``-`` for none or 0 (the plan fixes it)."""
    return sig3(se) if se else "-"


def ruin_pct(x) -> str:
    """A risk of ruin (a fraction, as json keeps it) as a percentage to three significant
    figures (`sig3` of the percent): ``33.0%``, ``100%``, ``0.00123%``; a bare ``0.330`` beside
    columns of percents read as 0.33%. Below a millionth of a percent, in powers of ten
    (``6.31e-83%``: fixed notation wrote 80 zeros)."""
    pct = 100 * x
    return f"{pct:.2e}%" if 0 < pct < 1e-6 else f"{sig3(pct)}%"



# What the gains' ± are (`figures`): over flat betting the same rounds paired (`_gain_se`);
# over the control run two runs whose cards drift apart, close to independent, so the SEs in
# quadrature, unless the control's rounds are the flat figure's (`AS_FLAT`: one gain, paired).
GAIN_OVER_FLAT_95 = "(95%, paired)"
GAIN_OVER_BASIC_95 = "(95%, the two runs taken as independent)"
NO_INTERVAL = "no interval: too few rounds"  # a gain without an SE (fewer than two rounds)


def _gain95(gain, se, label: str = "") -> str:
    """A gain ± the 95% half-width of its SE, in percentage points, and ``label``
    (`GAIN_OVER_FLAT_95`, `GAIN_OVER_BASIC_95`), "none" where the bets compared are the same (an
    SE of 0: `SAME_BETS`, `SAME_ROUNDS`), or the gain and `NO_INTERVAL` without an SE (no label:
    there is no half-width for it to name)."""
    if se == 0 and gain == 0:
        return "none"
    if gain is None:
        return "-"
    def pp(x, sign=True):  # (a difference of two advantages: percentage points, not %)
        return _pct(x, sign=sign).removesuffix("%") + " pp"

    if se is None:
        return f"{pp(gain)} ({NO_INTERVAL})"
    return f"{pp(gain)} ± {pp(Z95 * se, sign=False)}" + (f" {label}" if label else "")


def _interval(fig: dict) -> str:
    if fig["ci95_low"] is None:
        return "-"
    return f"{_pct(fig['ci95_low'])} to {_pct(fig['ci95_high'])}"


# A plan's deck estimation and shipped index plays in plain words (`plan_words`).
ESTIMATION_WORDS = {"exact": "the decks left counted exactly (cards left / 52)",
                    "half": "the decks left estimated to the nearest half deck",
                    "whole": "the decks left estimated to the nearest whole deck"}
INDEX_WORDS = {"hi-lo-nz": "the NZ Illustrious 18"}


def plan_words(p: dict, kind: str | None = None) -> str:
    """A plan's count (with ``kind``: ``true count``), deck estimation and index plays
    (`plan_dict`) in plain words: ``count hi-lo, the decks left estimated to the nearest half
    deck; index plays: the NZ Illustrious 18 (hi-lo-nz)``; a count file or index file by its
    name and the file as the plan names it (``count myhilo (c/cnt.toml)``)."""
    indices = p["indices"]
    name = None if not indices else str(indices)
    words = None if name is None else INDEX_WORDS.get(name)
    own = p.get("indices_name")  # (a file's own name, its file beside it, as a count's)
    if own and own != name and not words:
        words = own
    est = ("the running count decides (an unbalanced count: no deck estimate)"
           if p.get("count_kind") == "running count"
           else ESTIMATION_WORDS.get(p["deck_estimation"], p["deck_estimation"]))
    plays = "none" if name is None else f"{words} ({name})" if words else name
    count = p.get("count_name") or p["count"]  # (its file beside it where the plan named one)
    count += f" ({p['count']})" if p["count"] != count else ""
    return f"count {count}{'' if kind is None else f' ({kind})'}, {est}; index plays: {plays}"


def _head(f: dict, meta: dict) -> list[str]:
    run = meta.get("run", {})
    p = f["plan"]
    title = run.get("rules_name") or run.get("rules_file") or "rules"
    r = f["rules"]
    shoe = ("shuffle every round" if r.get("shuffle") == "every-round"
            else f"penetration {r['penetration']:g}")
    unlike = unlike_nz_line(meta.get("rules") or {}, ", ".join(run.get("overrides") or ()))
    lines = [f"bjsim {meta.get('version', __version__)}: card counting, plan {p['name']}",
             f"Rules:     {title}; {r['decks']} {plural(r['decks'], 'deck', 'decks')}, "
             f"{shoe}, Super Sevens "
             f"{'on' if r['super_sevens'] else 'off'}",
             *([unlike] if unlike else []), *filter(None, [gazette_line(meta.get("rules"))]),
             f"Plan:      {' '.join((p['description'] or p['name']).split())} ({plan_words(p)})",
             *[f"Note:      {run[k]}" for k in ("indices_note", "boxes_note") if run.get(k)],
             *[f"Warning:   {w}" for w in run.get("warnings") or ()],
             "Strategy:  " + with_note(", ".join(dict.fromkeys(meta.get("strategy") or ["?"])),
                                       run.get("strategy_note")),
             *([f"           {files_text(run['strategy_files'])}"]
               if run.get("strategy_files") else []),
             code_line(meta),
             f"Rounds:    {f['rounds']:,} dealt, {f['rounds_played']:,} played"
             + (f"; seed {run['seed']}" if "seed" in run else "")
             + (f"; {chunks_text(run['chunk_rounds'], run.get('rounds'))}"
                if "chunk_rounds" in run else "")]
    if run.get("control_interrupted"):
        lines.append("PARTIAL RESULT: interrupted in the control run (the strategy alone at a "
                     "flat bet): the counter's figures are whole, its gain over the control "
                     "is not given")
    elif run.get("partial"):
        lines.append(f"PARTIAL RESULT: interrupted after {f['rounds']:,} rounds; not "
                     "reproducible as it stands")
    return lines


# The advantages' rows, each saying what its net and its bet are: per initial bet the main +
# insurance result (the house edge's); per unit wagered the main game's result alone, as
# `bjsim simulate` gives it (`PER_UNIT_WAGERED`); with Super Sevens, their bets and result added.
ADVANTAGE_LABELS = (
    ("initial_bet", "per unit of initial main bet (main + insurance result)"),
    ("initial_bet_with_super_sevens", "  with Super Sevens (per unit of initial main and Super "
                                      "Sevens bets; both results)"),
    ("total_bet", PER_UNIT_WAGERED),
    ("total_bet_with_super_sevens",
     "  with Super Sevens (per unit wagered on both; both results, insurance in, unlike the row "
     "above)"),
)


NOTE_ROWS = {"initial_bet": "per unit of initial main bet"}


def _summary_rows(f: dict) -> list[list[str]]:
    a = f["advantage"]
    rows = [[label, _pct(a[k]["mean"]), _pct(a[k]["se"], sign=False), _interval(a[k])]
            for k, label in ADVANTAGE_LABELS
            if a[k]["interval_note"] != NO_SS_BET]  # (no rows: the line under says why)
    fl = f["flat"]
    rows.append(["flat 1 unit on every box dealt (the counter's play)", _pct(fl["mean"]),
                 _pct(fl["se"], sign=False), _interval(fl)])
    b = f.get("basic")
    if b is not None:
        rows.append(["the strategy alone, flat 1 unit (control run)", _pct(b["mean"]),
                     _pct(b["se"], sign=False), _interval(b)])
    return rows


def _insurance_text(f: dict) -> str:
    """The counter's insurance result with its SE and 95% interval, or why it has none."""
    mean, se = f["insurance_per_initial_bet"], f["insurance_per_initial_bet_se"]
    if se is not None:
        return (f"{_pct(mean)}, SE {_pct(se, sign=False)}, 95% interval "
                f"{_pct(f['insurance_per_initial_bet_ci95_low'])} to "
                f"{_pct(f['insurance_per_initial_bet_ci95_high'])}")
    if mean is None:
        return "-"
    return f"{_pct(mean)}, no SE ({f['insurance_per_initial_bet_interval_note']})"


def _round_rows(f: dict) -> list[list[str]]:
    out = []
    for key, label in (("per_round_played", "per round played"),
                       ("per_round_watched", "per round watched")):
        p = f[key]
        out.append([label, _num(p["rounds"]), _num(p["mean"], 4), _num(p["se"], 4),
                    _num(p["sd"], 3),
                    _pm95(p["win_per_100"], p["win_per_100_se"], 2, p.get("win_per_100_ci95_low"),
                          p.get("win_per_100_ci95_high")),
                    _span(p["score"], p["score_ci95_low"], p["score_ci95_high"], 1,
                          none=_no_edge(p)),
                    _span(p["n0"], p["n0_ci95_low"], p["n0_ci95_high"], 0, none=_no_edge(p)),
                    _span(p["risk_of_ruin"], p["risk_of_ruin_ci95_low"],
                          p["risk_of_ruin_ci95_high"], fmt=ruin_pct)])
    return out


def _no_edge(p: dict) -> str:
    """How SCORE and N0 of None are shown: `NOT_APPLICABLE` without an edge, else ``-``."""
    return NOT_APPLICABLE if p.get("no_edge_note") else "-"


def ruin_method_lines(rows) -> list[str]:
    """A line naming how the risk of ruin of ``rows`` (``risk_of_ruin_method``) is worked out,
    for each method any of them has."""
    return [f"The risk of ruin is {RUIN_METHODS[m]}."
            for m in dict.fromkeys(r.get("risk_of_ruin_method") for r in rows) if m]


def score_note_lines(rows) -> list[str]:
    """The line saying SCORE and N0 count the Super Sevens pays as risk, where any of ``rows``
    (``score_sevens_note``: nets holding Super Sevens results) says so."""
    return [f"{SS_NOTE}."] if any(r.get("score_sevens_note") for r in rows) else []


def no_edge_line(notes) -> list[str]:
    """The line saying SCORE and N0 are n/a, where any of ``notes`` (``no_edge_note``) is."""
    return ([f"SCORE and N0: {NOT_APPLICABLE}, {NO_EDGE}."] if any(notes) else [])


def _round_notes(p: dict) -> list[str]:
    """The lines under the net per round's table: why it has no SE or intervals, if so; that
    SCORE and N0 do not apply, without an edge."""
    edge = ["", *no_edge_line([p.get("no_edge_note")])] if p.get("no_edge_note") else []
    ruin = ["", f"The risk of ruin is {p['risk_of_ruin_note']}."] if p.get(
        "risk_of_ruin_note") else []
    ruin += ["", *ruin_method_lines([p])] if p.get("risk_of_ruin_method") else []
    edge += ["", *score_note_lines([p])] if p.get("score_sevens_note") else []
    ruin += ["", f"No SE or interval for the risk of ruin: {p['risk_of_ruin_interval_note']}."
             ] if p.get("risk_of_ruin_interval_note") else []
    if p.get("interval_note"):  # (a risk of ruin not given at all: said apart)
        return ["", "No SE of the mean and no interval for the win per 100 rounds, SCORE"
                + (" or N0" if p.get("risk_of_ruin_note") else ", N0 or the risk of ruin")
                + f": {p['interval_note']}.", *edge, *ruin]
    out = edge
    if p.get("score_n0_ruin_note"):
        out += ["", f"The intervals of SCORE and N0 are {p['score_n0_ruin_note']}: the mean's "
                "interval carried through each with the SD held fixed."]
    return out + ruin


# The by-count table's columns as a note names them (its heads repeat "SE").
COUNT_NAMES = ["count", "rounds", "frequency", "played", "flat adv.", "flat adv. SE", "avg bet",
               "counter adv.", "counter adv. SE"]
ROUND_HEAD = ["net per round, units", "rounds", "mean", "SE", "SD", "win/100 (95%)",
              "SCORE (95%)", "N0 (95%)", "risk of ruin (95%)"]


def _freq(x) -> str:
    """A count's frequency to three decimals of a percent, ``<0.001%`` for one seen less often
    (never ``0.000%`` for a count that was seen)."""
    return "<0.001%" if x and 100 * x < 0.0005 else _pct(x, 3, sign=False)


def boxes_vary(f: dict) -> bool:
    """Whether the plan's boxes change with the count (a `[boxes]` ramp): its average bet by
    count is then over more boxes at some counts, and the table by count (and the report's)
    gives the boxes beside it."""
    return bool(f["plan"]["boxes"]["steps"])


def sweep_columns_out(plan: dict) -> set[str]:
    """The sweep's columns (row keys, `sweep_rows`) that say nothing for ``plan`` (`plan_dict`),
    left out of its table (and the report's): the share of rounds played where the plan does
    not wong, the average bet where neither its bet nor its boxes change with the count."""
    out = set() if plan.get("wong") is not None else {"played_share"}
    if not any((plan.get(k) or {}).get("steps") for k in ("bet", "boxes")):
        out.add("average_bet")
    return out


def _count_rows(f: dict) -> list[list[str]]:
    boxes = boxes_vary(f)
    return [[b["label"], _num(b["rounds"]), _freq(b["frequency"]),
             _pct(b["played_share"], 1, sign=False), _pct(b["flat_advantage"], 2),
             _pct(b["flat_se"], 2, sign=False), _num(b["average_bet"], 2),
             *([_num(b["boxes_per_round_played"], 2),
                _se3(b.get("boxes_per_round_played_se"))] if boxes else []),
             _pct(b["counter_advantage"], 2), _pct(b["counter_se"], 2, sign=False)]
            for b in f["by_count"]]


def _exact_ses(f: dict) -> bool:
    """Whether the Super Sevens by-count table's SE is the exact one: the tally has it, and it is
    of the strategy's 7-7 play at each count (`sevens_check`); else the sample's."""
    ss = f["super_sevens"]
    return (ss["exact_se"] is not None and ss["why_not"] is None
            and ss.get("by_count_exact", True))


def _ss_se_head(f: dict) -> str:
    return "SE (exact SD)" if _exact_ses(f) else "SE (sample)"


def _ss_rows(f: dict) -> list[list[str]]:
    exact = _exact_ses(f)
    return [[b["label"], _num(b["bets"]), _pct(b["return"], 2),
             _pct(b["exact_se"] if exact and b["exact_se"] is not None else b["se"], 2,
                  sign=False),
             _pct(b["exact"], 2), _z_num(b["z_house_edge"]),
             _pct(b["favourable_share"], 1, sign=False),
             _num(b["counter_bets"])] for b in f["super_sevens_by_count"]]


# ---------------------------------------------------------------------------------------------
# Columns and rows that say nothing: left out of the tables shown, with a line saying which


EMPTY_CELLS = ("-", "", NOT_APPLICABLE)


def left_out(head: list[str], rows: list[list[str]], every: str, names=None, why=None,
             constant: bool = False, same_rows: bool = False) -> tuple[list, list, list]:
    """Which columns and rows of a table (its cells as shown) to show: (column indices, row
    indices, notes), ``notes`` a list of (what, why) left out. A column (not the first) is left
    out that has no value in any row (``why[i]`` says why, else "no value ``every``"), that
    repeats an earlier column shown (from two rows up: one row's cells can agree by chance),
    or (``constant``, from two rows up too) that holds one value in every row (the plan has no
    such feature: ``played`` 100.0% without wonging); with ``same_rows`` a row that repeats an
    earlier one (its cells after the label), or has no value, is left out too. ``names``: each
    column's name in a note (else its head)."""
    names, why = names or head, why or {}
    rows_kept, notes = [], []
    for r, row in enumerate(rows):
        if same_rows:
            twin = next((k for k in rows_kept if rows[k][1:] == row[1:]), None)
            if twin is not None:
                notes.append((row[0].strip(), f"the same as {rows[twin][0].strip()}"))
                continue
            if all(x.strip() in EMPTY_CELLS for x in row[1:]):
                notes.append((row[0].strip(), "no figures"))
                continue
        rows_kept.append(r)
    kept = [rows[r] for r in rows_kept]
    cols = [0]
    for c in range(1, len(head)):
        cells = [row[c].strip() for row in kept]
        twin = next((k for k in cols[1:] if [row[k].strip() for row in kept] == cells), None)
        if all(x in EMPTY_CELLS for x in cells):
            notes.append((names[c], why.get(c, f"no value {every.replace('every', 'any')}")))
        elif len(kept) < 2:  # (one row's cells can agree by chance)
            cols.append(c)
        elif twin is not None:
            notes.append((names[c], f"the same as {names[twin]} {every}"))
        elif constant and len(set(cells)) == 1:
            notes.append((names[c], f"{cells[0]} {every}"))
        else:
            cols.append(c)
    return cols, rows_kept, notes


def left_out_text(notes: list) -> str:
    """``notes`` of `left_out` in words: ``played (100.0% at every count); SCORE and N0 (...)``,
    those that share a reason joined."""
    joined: dict[str, list[str]] = {}
    for what, reason in notes:
        joined.setdefault(reason, []).append(what)

    def names(w):  # (labels holding "and" or commas quoted, so that two read as two; rows or
        if len(w) > 1 and any(" and " in x or "," in x for x in w):  # columns alike)
            w = [f'"{x}"' for x in w]
        return w[0] if len(w) == 1 else ", ".join(w[:-1]) + " and " + w[-1]

    return "; ".join(f"{names(w)} ({reason})" for reason, w in joined.items())


def _as_shown(head: str, cells: list[str]) -> str:
    """``head`` (``win/100 (95%)``) without its ``(95%...)`` where no cell under it shows an
    interval (a ± or a range): where the intervals are withheld the figures stand bare, and a
    head says what is under it."""
    if " (95%" not in head or any(m in x for x in cells for m in (" ± ", " to ")):
        return head
    return head.split(" (95%")[0]


def _pruned_grid(grid, head, rows, every, **kw) -> list[str]:
    """``grid`` (aligned text or markdown) of the table without the columns and rows that say
    nothing (`left_out`), and a line saying what was left out."""
    cols, kept, notes = left_out(head, rows, every, **kw)
    shown = [[rows[r][c] for c in cols] for r in kept]
    out = grid([_as_shown(head[c], [row[j] for row in shown]) for j, c in enumerate(cols)],
               shown)
    if notes:
        out += ["", f"Left out of the table: {left_out_text(notes)}."]
    return out


def _round_why(p: dict, bankroll, score: int, n0: int, ruin: int) -> dict:
    """Why the per-round (or sweep) columns of SCORE, N0 and the risk of ruin hold no value,
    by their indices: no edge; no bankroll; the risk withheld with Super Sevens bets."""
    why = {}
    if p.get("no_edge_note"):
        why |= {score: f"{NOT_APPLICABLE}: no edge, below", n0: f"{NOT_APPLICABLE}: no edge, below"}
    if bankroll is None:
        why[ruin] = "no bankroll given"
    elif p.get("risk_of_ruin_note"):
        why[ruin] = "not given where the counter bets Super Sevens, below"
    return why


def ss_spread(ss: dict) -> str:
    """The overall simulated Super Sevens return's ``± half-width (95%: low to high; exact SE
    x%)`` (its SE named: `_ss_interval`), or why it has no interval; ``ss``: the figures'
    ``super_sevens``. As count and the report give it."""
    fl = ss["flat"]
    if fl["ci95_low"] is None:
        return f" (no interval: {fl['interval_note'] or 'no SE'})"
    se = ss["exact_se"] if fl["interval_se"] == "exact" else fl["se"]
    return (f" ± {_pct(Z95 * se, sign=False)} (95%: {_interval(fl)}; "
            f"{fl['interval_se']} SE {_pct(se, sign=False)})")


def refill_words(shoe: dict) -> str:
    """What a counter's run's ``shoe`` (`figures`) says where the shoe ran out mid-round."""
    n = shoe["refills"]
    return (f"the shoe ran out in {n:,} {plural(n, 'round', 'rounds')} ({n:,} of "
            f"its {shoe['shuffles']:,} shuffles came mid-round): the discards were shuffled and "
            "dealt on, the count going on from the round's cards already dealt (not in the new "
            "shoe); too few cards behind the cut card for the boxes (a lower penetration or "
            "fewer boxes avoids it)")


def render_text(f: dict, meta: dict, markdown: bool = False) -> str:
    """The figures as aligned text, or as markdown tables."""
    grid = _markdown if markdown else _aligned
    kind = f["count_kind"]
    head = _head(f, meta)
    out = [ln + "  " for ln in head] if markdown else head
    if f.get("no_play_note"):
        out += ["", f"Note: {f['no_play_note']}."]
    if (f.get("shoe") or {}).get("refills"):
        out += ["", f"Note: {refill_words(f['shoe'])}."]
    out += ["", "The counter's advantage (units won per unit bet, 95% intervals)", ""]
    out += _pruned_grid(grid, ["advantage", "mean", "SE", "95% interval"], _summary_rows(f),
                        "in every row", same_rows=True)
    flat_gain = gain_none(f, "flat") or _gain95(f["gain_over_flat"], f["gain_over_flat_se"],
                                                GAIN_OVER_FLAT_95)
    gains = f"Gain over flat betting with the counter's play: {flat_gain} of the initial bet."
    if f.get("gain_over_basic_se_kind") == AS_FLAT:
        gains = ("Gain over the strategy alone at a flat bet (control run), the same as over "
                 f"flat betting with the counter's play (no index plays, fixed boxes: the same "
                 f"rounds): {flat_gain} of the initial bet.")
    elif f.get("gain_over_basic") is not None or gain_none(f, "basic"):
        basic_gain = gain_none(f, "basic") or (
            f"{_gain95(f['gain_over_basic'], f['gain_over_basic_se'], GAIN_OVER_BASIC_95)} of "
            "the initial bet")
        gains = (f"Gain over the strategy alone at a flat bet (control run): {basic_gain}; over "
                 f"flat betting with the counter's play: {flat_gain}.")
    out += ["", f"{gains} Rounds played "
            f"{_se_text(_pct(f['played_share'], 1, sign=False), f.get('played_share_se'), 1)}; "
            f"average bet {_se_text(_num(f['average_bet']) + ' units', f.get('average_bet_se'), 3)}"
            f" a round played ({_num(f['boxes_per_round_played'])} boxes"
            + ("" if not f.get("boxes_per_round_played_se") else
               f", SE {_se3(f['boxes_per_round_played_se'])}") + ")"
            + (", and " + _se_text(f"{_num(f['average_super_sevens_bet'], 3)} units",
                                   f.get("average_super_sevens_bet_se"), 3) + " of Super Sevens"
               if f.get("average_super_sevens_bet") else "") + "; "
            + ("no bankroll given for the risk of ruin (--bankroll, or the plan's bankroll)."
               if f["bankroll"] is None else
               f"bankroll for the risk of ruin: {_num(f['bankroll'], 0)} units.")]
    out += [chunk_se_line(f.get("chunks"), f.get("chunk_se_note"),
                          f["super_sevens"].get("favourable_share") is not None,
                          bool(f.get("average_super_sevens_bet"))), ""]
    if f.get("insures") is False:
        out += ["Insurance: no insurance taken (neither the strategy nor the index plays "
                "insure).", ""]
    else:
        out += [f"Insurance result per unit of initial main bet: {_insurance_text(f)} (in the "
                "main + insurance rows, apart from the main game result per unit wagered).", ""]
    notes = {k: a["interval_note"] for k, a in f["advantage"].items()
             if a.get("interval_note") and k in NOTE_ROWS}
    if len(set(notes.values())) == 1 and len(notes) > 1:
        out += [f"Main + insurance intervals: none ({next(iter(notes.values()))}).", ""]
    else:
        for k, note in notes.items():
            out += [f"The main + insurance interval {NOTE_ROWS[k]}: none ({note}).", ""]
    ss_note = f["advantage"]["initial_bet_with_super_sevens"].get("interval_note")
    if ss_note == NO_SS_BET:
        out += [f"With Super Sevens: no figures, {NO_SS_BET}.", ""]
    elif ss_note:
        out += [f"With Super Sevens: no SE or interval, {ss_note}.", ""]
    exact_line = win_by_exact_line(f)
    if exact_line:
        out += [exact_line, ""]
    whole = whole_se_line(f)
    if whole:
        out += [whole, ""]
    p = f["per_round_played"]
    out += _pruned_grid(grid, ROUND_HEAD, _round_rows(f), "in every row", same_rows=True,
                        why=_round_why(p, f["bankroll"], 6, 7, 8))
    out += _round_notes(f["per_round_played"])
    out += per_hour_lines(f.get("per_hour"))
    out += ["", f"By {kind} at the round's start ({floored_words(kind)}flat: 1 unit on every "
            "box dealt, the counter's play; each SE the main game's, from the rounds' sums; "
            f"{NO_SE}"
            + (f"; {merged_text('rounds')}" if merged_tails(f["by_count"]) else "")
            + ("; avg bet: the initial bets of a round played, all its boxes together; boxes: "
               "per round played, its SE by batch means over the chunks, none from fewer than "
               f"{MIN_SAMPLE} rounds played" if boxes_vary(f) else "") + ")", ""]
    boxes = ["boxes", "SE"] if boxes_vary(f) else []
    out += _pruned_grid(grid, [kind, "rounds", "frequency", "played", "flat adv.", "SE",
                               "avg bet", *boxes, "counter adv.", "SE"], _count_rows(f),
                        "at every count", constant=True,
                        names=[*COUNT_NAMES[:7], *(["boxes", "boxes SE"] if boxes else []),
                               *COUNT_NAMES[7:]],
                        why={8: f["chunk_se_note"]} if boxes and f.get(
                            "chunk_se_note") else None)
    ss = f["super_sevens"]
    if f["super_sevens_by_count"]:
        play = ss.get("exact_play")
        exact_what = ("" if play is None else f"exact: the return of {play} from the cards and "
                      "sevens left at each round's start; ")
        out += ["", f"Super Sevens by {kind} (return per unit staked; bets: a unit on every box "
                f"dealt at the count, whether the counter staked it or not; {exact_what}"
                f"no sample SE from fewer than 30 bets at a count, from fewer than 30 wins of the "
                "rarest big pay expected, or from results without spread"
                + (f"; {MERGED_TAILS}" if merged_tails(f["super_sevens_by_count"]) else "")
                + ")", ""]
        none_why = ss["why_not"] or ss.get("by_count_note")
        out += _pruned_grid(grid, [kind, "bets", "simulated", _ss_se_head(f), "exact",
                                   "z (of the house edge)", "favourable",
                                   "counter's units staked"], _ss_rows(f), "at every count",
                            constant=True, why={} if none_why is None else {
                                4: none_why, 5: none_why, 6: none_why})
        fl = ss["flat"]
        out += ["", f"Super Sevens overall, return per unit staked: simulated {_pct(fl['mean'])}"
                f"{ss_spread(ss)}"
                + (f"; no exact return ({ss['why_not']})" if ss["why_not"] is not None else
                   ", exact: mean over the rounds' starting shoes ("
                   + ("published convention" if play == CONVENTION else "the strategy's 7-7 play")
                   + f") {_pct(ss['exact'])}, "
                   + ("no z" if ss["z_house_edge"] is None else
                      f"z (of the house edge) {_z_num(ss['z_house_edge'])}") + "; by that "
                   "exact return (the cards and sevens left at the round's start) the bet "
                   "favoured the player in "
                   f"{_se_text(_pct(ss['favourable_share'], 2, sign=False), ss.get('favourable_share_se'), 2)}"  # noqa: E501
                   " of rounds")
                + f"; {counter_bets_text(ss)}{counter_exact_text(ss)}."]
        if meta.get("sevens_note"):  # as simulate's, exact's and report's
            out += [f"The Super Sevens return {meta['sevens_note']}."]
        if meta.get("sevens_player_edge"):  # (a paragraph of its own, in markdown too)
            out += ["", f"WARNING: {meta['sevens_player_edge']['note']}.", ""]
        if ss["why_not"] is None and (ss["exact_se"] is not None
                                      or ss["rarest_line"] is not None):
            r = ss["rarest_line"]
            enough = "" if r is None else (
                f" z and the interval only where the bets are enough to expect {MIN_WINS} wins "
                f"of {rare_words(r)} (one in "
                f"{1 / r['probability']:,.0f} bets from a full shoe): before that the mean is a "
                "handful of big pays, far from normal. "
                + (f"{SEVENS_SCALING[0].upper()}{SEVENS_SCALING[1:]}."
                   if ss["by_count_chance"] == "sevens left" else "By count the full shoe's "
                   "chance is used: the count does not say how many sevens are left."))
            out += [("SE: from the exact variance of the bets' starting shoes (the sample's "
                     "misses the rare big pays at most counts); z against it." if ss["exact_se"]
                     is not None else "SE: the sample's (it understates the spread of few "
                     "bets).") + enough + f" Exact: {play}."
                    + (f" By count: {ss['by_count_note']}; the SE by count is the sample's."
                       if ss.get("by_count_note") else "")]
    return "\n".join(out) + "\n"


def counter_bets_text(ss: dict) -> str:
    """What the counter staked on Super Sevens and its return (``ss``: the figures'
    ``super_sevens``), in words: ``the counter bet it 3,454 units for a return of ...``."""
    if not ss["counter_bets"]:
        return "the counter never bet it"
    return (f"the counter bet it {ss['counter_bets']:,} units for a return of "
            f"{counter_return_text(ss)}")


def _chunk_interval(fig: dict, name: str, show, unit: str = "") -> str:
    """``show(mean)`` and ``unit`` with its SE and 95% interval by batch means over the chunks,
    or why none (``fig``: a figures dict holding ``name``'s keys, as `_counter_exact` makes
    them)."""
    text = show(fig[name]) + unit
    if fig.get(name + "_se") is not None:
        return (f"{text} (SE {show(fig[name + '_se'], False)} by batch means over the chunks, "
                f"95% interval {show(fig[name + '_ci95_low'])} to "
                f"{show(fig[name + '_ci95_high'])})")
    note = fig.get(name + "_interval_note")
    return text if note is None else f"{text} ({_why_none(note)})"


def _why_none(note: str) -> str:
    """Why a figure has no SE or interval, in words (the chunks' notes say "no SE ..." or "no
    chunk moments ..." themselves)."""
    return note if note.startswith("no ") else f"no SE or interval: {note}"


def _pct_shown(x, sign: bool = True) -> str:
    return _pct(x, 3, sign)


def _units_shown(x, sign: bool = True) -> str:
    """Units to 3 decimals, or to 3 significant figures below 0.1 (never a figure shown as 0)."""
    d = 3 if x == 0 or abs(x) >= 0.1 else 2 - math.floor(math.log10(abs(x)))
    return f"{x:+.{d}f}" if sign else f"{x:.{d}f}"


def counter_exact_text(ss: dict) -> str:
    """The counter's Super Sevens return and units won per 100 rounds played by the exact
    return of the shoe each stake was made at (``ss``: the figures' ``super_sevens``), as words
    to follow `counter_bets_text`; "" where there is none."""
    note = ss.get("counter_exact_return_interval_note")
    if ss.get("counter_exact_return") is None:  # (said where the bets' exact return is given)
        return f"; none by the exact return of its shoes: {note}" if note == NOT_BY_STAKES else ""
    if note is not None and note == ss.get("counter_exact_per_100_interval_note"):  # (once)
        return ("; valued stake by stake at the exact return of the shoe each was made at, "
                f"{_pct(ss['counter_exact_return'])} a unit staked and "
                f"{_units_shown(ss['counter_exact_per_100'])} units per 100 rounds played "
                f"({_why_none(note)})")
    return ("; valued stake by stake at the exact return of the shoe each was made at, "
            + _chunk_interval(ss, "counter_exact_return", _pct_shown, " a unit staked")
            + " and " + _chunk_interval(ss, "counter_exact_per_100", _units_shown,
                                        " units per 100 rounds played"))


def win_by_exact_line(f: dict) -> str | None:
    """The counter's win per 100 rounds played with its Super Sevens bets by the exact return of
    their shoes and the main game as played (`_counter_exact`), where the counter staked Super
    Sevens and the figure is given: the win a regulator can quote where the big pays are too
    few for the simulated one's interval."""
    ss = f["super_sevens"] or {}
    if ss.get("counter_win_per_100_with_exact") is None:
        return None
    return ("With the Super Sevens bets by the exact return of the shoe each was staked at, "
            "valuing " + (ss.get("exact_play") or "the strategy's 7-7 play") + ", and the main "
            "game as played: win per 100 rounds played "
            + _chunk_interval(ss, "counter_win_per_100_with_exact", _units_shown)
            + ". Its expectation is the simulated win's (each stake is set before its round's "
            "cards), without the few big pays in its spread (docs/counting.md).")


def counter_return_text(ss: dict) -> str:
    """The counter's own Super Sevens return (``ss``: the figures' ``super_sevens``) with its SE
    and 95% interval, by batch means over the chunks, or why it has none."""
    return _chunk_interval(ss, "counter_return", _pct_shown)


def document(f: dict, meta: dict) -> dict:
    """The json document: bjsim version, rules, strategy (with ``strategy_sha256``, its charts as
    played: `strategy.charts_sha256`, and ``strategy_charts``, as simulate's), run, results (the
    figures), timing;
    ``results.super_sevens.seven_seven_play`` as simulate's."""
    if meta.get("sevens_note") and f["super_sevens_by_count"]:
        f = f | {"super_sevens": f["super_sevens"] | {"seven_seven_play": {
            "by_box": list(meta["sevens_play"]), "note": meta["sevens_note"]}}}
    f = f | {"super_sevens": f["super_sevens"] | {  # (as simulate's)
        "player_edge": meta.get("sevens_player_edge")}}
    return {"bjsim": meta.get("version", __version__), "source": provenance(),
            "rules": meta.get("rules", {}),
            "strategy": meta.get("strategy"), "strategy_sha256": meta.get("strategy_sha256"),
            "strategy_charts": meta.get("strategy_charts"),  # (as simulate's)
            "run": meta.get("run", {}), "results": f,
            "timing": meta.get("timing", {})}


def tidy_rows(f: dict) -> list[dict]:
    """Every figure as a row: section, item, count (the count's row, and as shown:
    ``count_label``, ``<=-30`` for the row that holds every count at or below -30), value, se,
    ci95_low, ci95_high."""
    rows = []

    def add(section, item, value, count=None, se=None, lo=None, hi=None, label=None):
        if label is None and count is not None:
            label = bucket_label(count - L.TC_MIN)
        rows.append({"section": section, "item": item, "count": count, "count_label": label,
                     "value": value, "se": se, "ci95_low": lo, "ci95_high": hi})

    for k, a in f["advantage"].items():
        add("advantage", k, a["mean"], se=a["se"], lo=a["ci95_low"], hi=a["ci95_high"])
        add("advantage", k + "_interval_note", a["interval_note"])
        if a.get("se_kind"):  # (the figures with Super Sevens: what their SE is)
            add("advantage", k + "_se_kind", a["se_kind"])
    fl = f["flat"]
    add("advantage", "flat", fl["mean"], se=fl["se"], lo=fl["ci95_low"], hi=fl["ci95_high"])
    add("advantage", "gain_over_flat", f["gain_over_flat"], se=f["gain_over_flat_se"],
        lo=f.get("gain_over_flat_ci95_low"), hi=f.get("gain_over_flat_ci95_high"))
    add("advantage", "gain_over_flat_se_kind", f["gain_over_flat_se_kind"])
    add("advantage", "flat_interval_note", fl["interval_note"])
    add("advantage", "flat_n", fl["n"])  # (the boxes it is of, and their SD: json's)
    add("advantage", "flat_sd", fl["sd"])
    b = f.get("basic")
    if b is not None:
        add("advantage", "basic", b["mean"], se=b["se"], lo=b["ci95_low"], hi=b["ci95_high"])
        add("advantage", "basic_n", b["n"])
        add("advantage", "basic_sd", b["sd"])
        add("advantage", "gain_over_basic", f["gain_over_basic"], se=f["gain_over_basic_se"],
            lo=f.get("gain_over_basic_ci95_low"), hi=f.get("gain_over_basic_ci95_high"))
        add("advantage", "gain_over_basic_se_kind", f["gain_over_basic_se_kind"])
    for key in ("per_round_played", "per_round_watched"):
        p = f[key]
        for k, v in p.items():
            if not k.endswith(("_se", "_ci95_low", "_ci95_high")):
                add(key, k, v, se=p["se"] if k == "mean" else p.get(k + "_se"),
                    lo=p.get(k + "_ci95_low"), hi=p.get(k + "_ci95_high"))
    h = f.get("per_hour")
    for k, v in (h or {}).items():
        if not k.endswith(("_se", "_ci95_low", "_ci95_high")):
            add("per_hour", k, v, se=h.get(k + "_se"), lo=h.get(k + "_ci95_low"),
                hi=h.get(k + "_ci95_high"))
    for k in ("rounds", "rounds_played", "played_share", "boxes_per_round_played",
              "average_bet", "average_super_sevens_bet", "wagered_per_initial_bet",
              "insurance_per_initial_bet", "bankroll"):  # (the shares, the average bet and
        add("counter", k, f[k], se=f.get(k + "_se"), lo=f.get(k + "_ci95_low"),  # boxes: by
            hi=f.get(k + "_ci95_high"))  # batch means; insurance's with an interval too)
    add("counter", "insurance_per_initial_bet_interval_note",
        f["insurance_per_initial_bet_interval_note"])
    add("counter", "chunks", f.get("chunks"))
    for k, v in (f.get("shoe") or {}).items():  # (the shuffles, and those made mid-round)
        add("shoe", k, v)
    add("counter", "chunk_se_note", f.get("chunk_se_note"))
    ss = f["super_sevens"]
    # Each return's se: the exact one where the tally has it for the strategy's 7-7 play (the
    # one its interval and z are from, or would be where withheld), by count only where it is
    # exact at each count (`_exact_ses`); else the sample's. The *_se_kind rows say which.
    fl = ss["flat"]
    add("super_sevens", "flat_return", fl["mean"],
        se=fl["se"] if ss["exact_se"] is None else ss["exact_se"], lo=fl["ci95_low"],
        hi=fl["ci95_high"])
    add("super_sevens", "flat_return_se_kind", "exact" if ss["exact_se"] is not None
        else "sample" if fl["se"] is not None else None)
    add("super_sevens", "flat_n", fl.get("n"))  # (its bets)
    add("super_sevens", "by_count_return_se_kind", None if not f["super_sevens_by_count"]
        else "exact" if _exact_ses(f) else "sample")
    add("super_sevens", "interval_se", fl["interval_se"])
    add("super_sevens", "interval_note", fl.get("interval_note"))  # (why none, where none)
    add("super_sevens", "exact_se", ss["exact_se"])
    add("super_sevens", "sample_se", fl["se"])
    for k in ("exact", "exact_play", "why_not", "z_house_edge", "favourable_share",
              "counter_bets", "counter_bets_per_round", "counter_return",
              "counter_return_interval_note", *(x + y for x in BY_EXACT
                                                 for y in ("", "_interval_note")),
              "by_count_chance", "by_count_note"):
        add("super_sevens", k, ss.get(k), se=ss.get(k + "_se") if k in (
            "favourable_share", "counter_bets_per_round", "counter_return", *BY_EXACT) else None,
            lo=ss.get(k + "_ci95_low"), hi=ss.get(k + "_ci95_high"))
    for b in f["by_count"]:  # (an end row may hold several counts: its label)
        at = {"count": b["count"], "label": b["label"]}
        for k in ("rounds", "frequency", "played", "played_share", "average_bet",
                  "boxes_per_round_played", "flat_boxes"):
            add("by_count", k, b[k], **at, se=b.get(k + "_se"))
        add("by_count", "counter_advantage", b["counter_advantage"], **at, se=b["counter_se"])
        add("by_count", "flat_advantage", b["flat_advantage"], **at, se=b["flat_se"])
    for b in f["super_sevens_by_count"]:  # (an end row may hold several counts: its label)
        at = {"count": b["count"], "label": b["label"]}
        for k in ("bets", "exact", "z_house_edge", "favourable_share", "counter_bets"):
            add("super_sevens_by_count", k, b[k], **at)
        add("super_sevens_by_count", "return", b["return"], **at,  # (the table's)
            se=b["exact_se"] if _exact_ses(f) and b["exact_se"] is not None else b["se"])
        add("super_sevens_by_count", "sample_se", b["se"], **at)
        add("super_sevens_by_count", "counter_return", b["counter_return"], **at,
            se=b.get("counter_return_se"), lo=b.get("counter_return_ci95_low"),
            hi=b.get("counter_return_ci95_high"))
        add("super_sevens_by_count", "counter_return_interval_note",
            b.get("counter_return_interval_note"), **at)
    return rows


class _CsvWriter(csv.DictWriter):
    """A csv.DictWriter writing each value as simulate's and compare's csv do: booleans
    ``true`` and ``false``, None empty."""

    def writerow(self, row):
        return super().writerow({k: csv_cell(v) for k, v in row.items()})

    def writerows(self, rows):
        for row in rows:
            self.writerow(row)


def _csv(rows: list[dict], meta: dict) -> str:
    out = io.StringIO()
    fields = list(rows[0]) if rows else ["section", "item", "value"]
    w = _CsvWriter(out, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    _meta_rows(w, meta)
    _sevens_rows(w, meta, any(r["section"] == "super_sevens_by_count" for r in rows))
    _rules_rows(w, meta)
    return out.getvalue()


def _sevens_rows(w, meta: dict, dealt: bool = True) -> None:
    """The csv's Super Sevens note and warning (section ``run``), as simulate's: the 7-7 play
    its figures depend on (where a Super Sevens bet was ``dealt``) and, where the pays give a
    player who plays 7-7 for the bet the edge, ``super_sevens_player_edge:*``."""
    if meta.get("sevens_note") and dealt:
        w.writerow({"section": "run", "item": "super_sevens_7_7_play",
                    "value": meta["sevens_note"]})
        w.writerow({"section": "run", "item": "super_sevens_7_7_play:by_box",
                    "value": "; ".join(meta.get("sevens_play") or ())})
    for k, v in (meta.get("sevens_player_edge") or {}).items():  # (as simulate's)
        w.writerow({"section": "run", "item": f"super_sevens_player_edge:{k}", "value": v})


def _meta_rows(w, meta: dict, more: tuple = ()) -> None:
    """The csv's run metadata (section ``run``): bjsim's version and source, plan, strategy,
    its ``strategy_sha256``, the run's keys as json's ``run`` has them (``overrides`` and
    ``no_effect`` as simulate's csv writes them: `report.meta_rows`), and ``more`` of them (the
    sweep's)."""
    run = meta.get("run", {})
    w.writerow({"section": "run", "item": "bjsim",  # (json's bjsim, first as simulate's csv)
                "value": meta.get("version", __version__)})
    for k, v in provenance().items():  # (json's source, key by key, as simulate's csv)
        w.writerow({"section": "run", "item": f"source:{k}", "value": v})
    if meta.get("plan"):
        w.writerow({"section": "run", "item": "plan", "value": meta["plan"].get("name")})
        if meta["plan"].get("source"):  # (json's plan.source: the file it was read from)
            w.writerow({"section": "run", "item": "plan_source", "value": meta["plan"]["source"]})
        for f in meta["plan"].get("files", ()):  # (json's plan.files: what each file read holds)
            w.writerow({"section": "run", "item": f"plan_file_sha256:{f['what']}",
                        "value": f["sha256"]})
    if meta.get("strategy"):  # (every box plays one)
        w.writerow({"section": "run", "item": "strategy",
                    "value": "; ".join(dict.fromkeys(meta["strategy"]))})
    if meta.get("strategy_sha256"):  # (its charts as played: json's, once as the strategy)
        w.writerow({"section": "run", "item": "strategy_sha256",
                    "value": "; ".join(dict.fromkeys(meta["strategy_sha256"]))})
    for k in ("strategy_files", "strategy_note", "indices_note", "boxes_note", "rules_name",
              "rules_file", "overrides", "no_effect", "seed", "rounds", "chunk_rounds", *more,
              "partial"):
        if k in run:  # (strategy_files: json's dict, written as simulate's csv writes it)
            w.writerow({"section": "run", "item": k, "value": run[k]})
    for line in run.get("warnings") or ():  # (json's run.warnings: a row each)
        w.writerow({"section": "run", "item": "warning", "value": line})


def _rules_rows(w, meta: dict) -> None:
    """The csv's rule set (section ``rules``): every key of json's ``rules``, as simulate's csv
    writes them (`report.meta_rows`)."""
    for k, v in (meta.get("rules") or {}).items():
        w.writerow({"section": "rules", "item": k, "value": v})


def _md(text: str) -> str:
    """Markdown ``text`` with the lines outside its tables (whose cells `_markdown` escapes) as
    `report.md_text` shows them: a plan's name, description or file written as it is."""
    return "\n".join(ln if ln.startswith("|") else md_text(ln) for ln in text.split("\n"))


def render(f: dict, fmt: str, meta: dict | None = None) -> str:
    """``bjsim count``'s output in ``fmt`` (`FORMATS`)."""
    meta = meta or {}
    optimal = f.get("optimal_bets")  # (``--optimal-bets``: a section of its own, at the end)
    if fmt in ("table", "markdown"):
        text = render_text(f, meta, markdown=fmt == "markdown") + ("" if optimal is None else (
            "\n".join(optimal_text(optimal, f["count_kind"], fmt == "markdown")) + "\n"))
        return _md(text) if fmt == "markdown" else text
    if fmt == "json":
        return json.dumps(document(f, meta), indent=2, allow_nan=False) + "\n"
    if fmt == "csv":
        return _csv(tidy_rows(f) + ([] if optimal is None else optimal_rows(optimal)), meta)
    raise ValueError(f"format {fmt!r} is not known: allowed {', '.join(FORMATS)}")


SWEEP_HEAD = ["penetration", "rounds", "advantage", "SE", "95% interval", "with SS", "SE",
              "95% interval", "flat", "SE", "95% interval", "gain (95%, paired)", "played", "SE",
              "avg bet", "SE", "SD/round", "win/100 (95%)", "SCORE (95%)", "N0 (95%)",
              "risk of ruin (95%)", "SS favourable", "SE", "SS staked/round", "SE",
              "counter SS return (95%)", "win/100 SS exact (95%)", "win/hour (95%)",
              "SD/hour", "N0 hours (95%)"]
# The sweep's columns as a note names them (its heads repeat "SE" and "95% interval").
SWEEP_NAMES = [*SWEEP_HEAD[:6], "with SS SE", "with SS 95% interval", "flat", "flat SE",
               "flat 95% interval", *SWEEP_HEAD[11:13], "played SE", "avg bet", "avg bet SE",
               *SWEEP_HEAD[16:22], "SS favourable SE", SWEEP_HEAD[23], "SS staked/round SE",
               *SWEEP_HEAD[25:]]
# The columns with an SE by batch means over the chunks (`batches`), by the sweep's names.
CHUNK_SE_NAMES = ("played SE", "avg bet SE", "SS favourable SE", "SS staked/round SE")


def _sweep_cells(r: dict) -> list[str]:
    ss = {k: r.get("advantage_with_super_sevens" + k) for k in ("_ci95_low", "_ci95_high")}
    return [f"{r['penetration']:.2f}", _num(r["rounds"]), _pct(r["advantage"]),
            _pct(r["se"], sign=False), _interval(r), _pct(r["advantage_with_super_sevens"]),
            _pct(r.get("advantage_with_super_sevens_se"), sign=False),
            _interval({"ci95_low": ss["_ci95_low"], "ci95_high": ss["_ci95_high"]}),
            _pct(r["flat_advantage"]), _pct(r.get("flat_advantage_se"), sign=False),
            _interval({"ci95_low": r.get("flat_advantage_ci95_low"),
                       "ci95_high": r.get("flat_advantage_ci95_high")}),
            _gain95(r["gain_over_flat"], r["gain_over_flat_se"]),
            _pct(r["played_share"], 1, sign=False),
            _se_figure(r.get("played_share_se"), 2, pct=True), _num(r["average_bet"], 2),
            _se_figure(r.get("average_bet_se"), 3), _num(r["sd_round"], 3),
            _pm95(r["win_per_100"], r["win_per_100_se"], 2, r.get("win_per_100_ci95_low"),
                  r.get("win_per_100_ci95_high")),
            _span(r["score"], r.get("score_ci95_low"), r.get("score_ci95_high"), 1,
                  none=_no_edge(r)),
            _span(r["n0"], r.get("n0_ci95_low"), r.get("n0_ci95_high"), 0, none=_no_edge(r)),
            _span(r.get("risk_of_ruin"), r.get("risk_of_ruin_ci95_low"),
                  r.get("risk_of_ruin_ci95_high"), fmt=ruin_pct),
            _pct(r["super_sevens_favourable_share"], 2, sign=False),
            _se_figure(r.get("super_sevens_favourable_share_se"), 3, pct=True),
            _num(r.get("super_sevens_counter_bets_per_round"), 3),
            _se_figure(r.get("super_sevens_counter_bets_per_round_se"), 4),
            "-" if r.get("super_sevens_counter_return") is None else _span(
                r["super_sevens_counter_return"], r.get("super_sevens_counter_return_ci95_low"),
                r.get("super_sevens_counter_return_ci95_high"), fmt=_pct),
            _pm95(r.get("super_sevens_counter_win_per_100_with_exact"),
                  r.get("super_sevens_counter_win_per_100_with_exact_se"), 3,
                  r.get("super_sevens_counter_win_per_100_with_exact_ci95_low"),
                  r.get("super_sevens_counter_win_per_100_with_exact_ci95_high")),
            _pm95(r.get("per_hour_win"), r.get("per_hour_win_se"),
                  hour_digits(r.get("per_hour_win_se")), r.get("per_hour_win_ci95_low"),
                  r.get("per_hour_win_ci95_high")),
            _num(r.get("per_hour_sd"), 2),
            _span(r.get("per_hour_n0_hours"), r.get("per_hour_n0_hours_ci95_low"),
                  r.get("per_hour_n0_hours_ci95_high"), 1, none=_no_edge(r))]


# What the SEs by batch means over the chunks are (`batches`), in the tables' notes.
CHUNK_SE_WORDS = ("by batch means over the run's chunks, each a fresh shoe sequence of its own "
                  "seed (rounds of a shoe are correlated: the count carries over, so a "
                  "per-round SE would understate it)")


def floored_words(kind: str) -> str:
    """What a row by true count holds (``kind``: the plan's ``count_kind``), ending ``; ``; ""
    by the running count, a whole number."""
    return ("each row the true count floored: +1 holds every count from +1 up to, not "
            "including, +2; "
            if kind == "true count" else "")


def whole_se_line(f: dict) -> str | None:
    """Where the plan's Super Sevens stake goes with the count (`ss_stake_varies`), the line
    saying that the figures with Super Sevens have SEs by batch means over the chunks and
    Student's t intervals; None otherwise or where they have no SE (their notes say why)."""
    p = f["per_round_played"]
    if p.get("se_kind") != BATCH_SE or p["se"] is None:
        return None
    return _whole_se_words([f["chunks"]])


def sweep_whole_se_line(rows: list[dict]) -> str | None:
    """`whole_se_line` for a sweep's ``rows``: said where some penetration's figures with Super
    Sevens have SEs by batch means (``per_round_se_kind``), over the chunks of those rows."""
    chunks = [r["chunks"] for r in rows if r.get("per_round_se_kind") == BATCH_SE
              and (r.get("win_per_100_se") is not None
                   or r.get("advantage_with_super_sevens_se") is not None)]
    if not chunks:
        return None
    return _whole_se_words(chunks, " a penetration" if len(rows) > 1 else "")


def _whole_se_words(chunks: list[int], each: str = "") -> str:
    """The line of `whole_se_line`, its intervals Student's t over each of ``chunks`` (``each``:
    the words after them, `` a penetration`` in a sweep)."""
    chunks = list(dict.fromkeys(chunks))
    return ("SE of the figures with Super Sevens (the advantages with Super Sevens and the net "
            "per round, and from it the win per 100 rounds, SCORE, N0 and the risk of ruin): by "
            "batch means over the run's chunks, the plan's Super Sevens stake going with the "
            "count (its stakes and return rise together where the shoe favours the bet, so the "
            "rounds' results move together within a shoe); 95% intervals Student's t over "
            + _and([f"{k:,}" for k in chunks]) + f" chunks{each} ("
            + _and([f"{t95(k - 1):.2f}" for k in chunks]) + " SEs each way).")


def chunk_se_line(chunks, note, favourable: bool = False, units: bool = False) -> str:
    """The line on the SEs of the single run's rounds played, average bet and boxes (with
    ``units``, where the counter bet Super Sevens, its Super Sevens units a round played; with
    ``favourable`` the Super Sevens favourable share): batch means over ``chunks`` chunks, or
    why there are none (``note``, `chunk_count`)."""
    what = _and(["rounds played", "average bet", "boxes",
                 *(["the counter's Super Sevens units a round played"] if units else []),
                 *(["the Super Sevens favourable share"] if favourable else [])])
    if note is not None:
        return f"{what[0].upper()}{what[1:]}: {note}."
    return (f"SE of the {what}: {CHUNK_SE_WORDS} ({chunks:,} chunks); none shown where it is 0 "
            "(a figure the plan fixes).")


def _se_text(text: str, se, d: int = 2) -> str:
    """``text (SE x)``, ``x`` as ``text`` shows its figure (a percent with ``%``, to ``d``
    decimals; an SE those would show as 0 to two significant figures), or ``text`` alone where
    there is no SE or it is 0 (the plan fixes the figure)."""
    if not se:
        return text
    shown = _se_figure(se, d, text.endswith("%"))
    return f"{text} (SE {shown})"


def _se_figure(se, d: int, pct: bool = False) -> str:
    """An SE to ``d`` decimals (of a percent, ``pct``), or to two significant figures where
    those would show it as 0, which reads as a figure the plan fixes; ``-`` for none or 0."""
    if not se:
        return "-"
    scaled = abs(se) * (100 if pct else 1)
    if scaled < 0.5 * 10.0**-d:
        d = 1 - math.floor(math.log10(scaled))
    return _pct(se, d, sign=False) if pct else _num(se, d)


def _and(words: list[str]) -> str:
    """``a, b and c``."""
    return " and ".join(filter(None, [", ".join(words[:-1]), *words[-1:]]))


def sweep_note(rows: list[dict], favourable: str = "SS favourable") -> str:
    """What every column of a sweep plays (the same plan, not re-tuned) and, where the rows have
    a Super Sevens favourable share (named ``favourable``), that it is the side bet's exposure
    at each penetration by the strategy's 7-7 play (the rows' ``super_sevens_exact_play``, as
    the counting section names it), whatever the plan bets, and, where that play is not the
    published convention's, the strategy that plays it."""
    note = ("Every penetration plays the same plan unchanged: its thresholds, chosen at one "
            "penetration, are not re-tuned for the others.")
    plays = list(dict.fromkeys(r.get("super_sevens_exact_play") for r in rows
                               if r.get("super_sevens_favourable_share") is not None))
    if plays:
        note += (f" The Super Sevens bet's own exposure at each penetration is {favourable}, "
                 "the share of rounds where it favours the player by "
                 + _and([p or "the strategy's 7-7 play" for p in plays]) + ", whatever the "
                 "plan bets: it depends on that 7-7 play (a strategy that splits or stands on "
                 "7-7 deals fewer third cards, and the bet favours the player no more often)")
        note += ("." if plays == [CONVENTION] else
                 f"; for {CONVENTION}, which a strategy hitting every 7-7 plays, run the sweep "
                 "with --strategy basic-super-sevens.")
    return note


def render_sweep(rows: list[dict], fmt: str, meta: dict | None = None) -> str:
    """The penetration sweep in ``fmt``: the counter's advantage (per unit of initial bet), SD,
    SCORE, N0 and the risk of ruin at each penetration."""
    meta = meta or {}
    if fmt == "json":
        doc = {"bjsim": meta.get("version", __version__), "source": provenance(),
               "rules": meta.get("rules", {}),
               "strategy": meta.get("strategy"),
               "strategy_sha256": meta.get("strategy_sha256"),
               "strategy_charts": meta.get("strategy_charts"), "run": meta.get("run", {}),
               "plan": meta.get("plan"), "sweep": rows,
               "sweep_note": sweep_note(rows, "super_sevens_favourable_share"),
               # (as the single run's super_sevens.seven_seven_play and .player_edge)
               "seven_seven_play": None if not meta.get("sevens_note") else {
                   "by_box": list(meta["sevens_play"]), "note": meta["sevens_note"]},
               "player_edge": meta.get("sevens_player_edge"),
               "timing": meta.get("timing", {})}
        return json.dumps(doc, indent=2, allow_nan=False) + "\n"
    if fmt == "csv":
        return _sweep_csv(rows, meta)
    if fmt not in ("table", "markdown"):
        raise ValueError(f"format {fmt!r} is not known: allowed {', '.join(FORMATS)}")
    markdown = fmt == "markdown"
    run = meta.get("run", {})
    plan = meta.get("plan") or {}
    asked = run.get("rounds", rows[0]["rounds"])  # (a row cut short holds fewer)
    head = [f"bjsim {meta.get('version', __version__)}: card counting by penetration, plan "
            f"{plan.get('name', '?')}",
            f"Rules: {run.get('rules_name') or run.get('rules_file') or 'rules'}; "
            f"{asked:,} rounds a penetration"
            + (f"; seed {run['seed']} (the same for every penetration)" if "seed" in run else "")
            + ("; no bankroll given for the risk of ruin (--bankroll, or the plan's bankroll)"
               if rows[0].get("bankroll") is None else
               f"; bankroll for the risk of ruin: {_num(rows[0]['bankroll'], 0)} units")]
    word = nz_gazette_word({k: v for k, v in (meta.get("rules") or {}).items()
                            if k != "penetration"})  # (each run's own: the sweep's)
    head += [f"Gazette: {word}"] if word else []
    head += [f"Note: {run[k]}" for k in ("indices_note", "boxes_note") if run.get(k)]
    head += [f"Warning: {w}" for w in run.get("warnings") or ()]
    head.append(code_line(meta))  # (as the single count's table)
    if run.get("partial"):
        head.append(partial_sweep_text(rows, run.get("penetrations") or [], asked,
                                       run.get("cut_short", "rows")))
    out = [ln + "  " for ln in head] if markdown else head
    # the share of rounds played where the plan wongs (what a penetration is worth per round
    # dealt), the average bet where its bet or boxes change with the count
    heads = {"played_share": ("played", "played SE"), "average_bet": ("avg bet", "avg bet SE")}
    cut = {n for k in sweep_columns_out(meta.get("plan") or {}) for n in heads[k]}
    cut |= {"rounds"} if all(r["rounds"] == asked for r in rows) else set()
    cut |= set(SWEEP_HEAD[-3:]) if rows[0].get("rounds_per_hour") is None else set()
    keep = [c for c, name in enumerate(SWEEP_NAMES) if name not in cut]
    sweep_head = [SWEEP_HEAD[c] for c in keep]
    names = [SWEEP_NAMES[c] for c in keep]
    cells = [[row[c] for c in keep] for row in (_sweep_cells(r) for r in rows)]
    at = names.index
    why = _round_why(rows[0], rows[0].get("bankroll"), at("SCORE (95%)"), at("N0 (95%)"),
                     at("risk of ruin (95%)"))
    staked = any(r.get("super_sevens_counter_bets") for r in rows)
    shares = [r.get("super_sevens_favourable_share") for r in rows]
    fixed = ("SE 0: the same share in every chunk" + (", no round favoured the bet"
                                                      if not any(shares) else ""))
    why |= {at("with SS"): "no Super Sevens bet", at("SS favourable"): NO_FAVOURABLE,
            at("SS favourable SE"): NO_FAVOURABLE if all(x is None for x in shares) else fixed,
            at("SS staked/round"): "no Super Sevens bet",
            at("SS staked/round SE"): "the plan fixes it" if staked else "no Super Sevens bet",
            at("counter SS return (95%)"): "no Super Sevens bet",
            at("win/100 SS exact (95%)"): exact_why(rows)}
    ss_notes = {r.get("advantage_with_super_sevens_interval_note") for r in rows}
    why |= {at(n): "no Super Sevens bet" if ss_notes == {NO_SS_BET} else
            "withheld at every penetration, as said below" for n in ("with SS SE",
                                                                   "with SS 95% interval")}
    for key, cols in (("interval_note", ("SE", "95% interval")),
                      ("flat_advantage_interval_note", ("flat SE", "flat 95% interval"))):
        few = _every_too_few([r.get(key) for r in rows])
        why |= {at(n): few for n in cols if few and n in names}
    notes = list(dict.fromkeys(r.get("chunk_se_note") for r in rows if r.get("chunk_se_note")))
    favourable = any(r.get("super_sevens_favourable_share") is not None for r in rows)
    why |= {at(n): notes[0] for n in CHUNK_SE_NAMES if n in names and notes
            and (n != "SS favourable SE" or favourable) and (n != "SS staked/round SE" or staked)}
    shown = {names[c] for c in left_out(sweep_head, cells, "in every row", names=names,
                                         why=why)[0]}
    out += [""] + _pruned_grid(_markdown if markdown else _aligned, sweep_head, cells,
                               "in every row", names=names, why=why)
    play = next((r.get("super_sevens_exact_play") for r in rows
                 if r.get("super_sevens_exact_play")), None)
    legend = [  # (each column's words, where the table shows it)
        ("advantage", "Advantage: per unit of initial main bet (main + insurance result), 95% "
         "interval"),
        ("rounds", "rounds: dealt at that penetration, where not the "
         f"{asked:,} asked"),
        ("with SS", "with SS: per unit of initial main and Super Sevens bets, both results"
         + (", its SE and 95% interval" if "with SS SE" in shown else "")),
        ("flat", "flat: 1 unit on every box dealt (the counter's play)"
         + (", its SE and 95% interval" if "flat SE" in shown else "")),
        ("gain (95%, paired)", "gain: over flat" + (
            ", ± its 95% half-width, the same rounds paired"
            if any(" ± " in r[at("gain (95%, paired)")] for r in cells) else "")
         + (f", {GAIN_NONE_WORDS}" if any(r[at("gain (95%, paired)")] == "none"
                                           for r in cells) else "")),
        ("played", "played: the share of rounds dealt the counter played (it wongs)"),
        ("avg bet", "avg bet: initial main bet per round played, units (every box)"),
        ("SD/round", _and([words for col, words in (
            ("SD/round", "SD"), ("win/100 (95%)", "win"), ("SCORE (95%)", "SCORE"),
            ("N0 (95%)", "N0"), ("risk of ruin (95%)", "the risk of ruin (of the bankroll above)"))
            if col in shown]) + " per round played, in units (with 95% intervals where the "
         "head says so)"),
        ("SS favourable", "SS favourable: the share of rounds whose starting shoe gives the "
         f"Super Sevens bet a positive return, by {play}"),
        ("SS staked/round", "SS staked/round: the counter's Super Sevens units staked per round "
         "dealt"),
        ("counter SS return (95%)", "counter SS return: its Super Sevens net over those units "
         "as simulated, what it takes from the house on the side bet (with a 95% interval where "
         "its bets are enough, by batch means over the chunks; by the exact return of its "
         "shoes, with its SE, in json and csv: super_sevens_counter_exact_return)"),
        ("win/100 SS exact (95%)", "win/100 SS exact: the counter's win per 100 rounds played "
         "with its Super Sevens bets by the exact return of the shoe each was staked at (the "
         "main game as played; the simulated win's expectation without the few big pays in its "
         "spread)" + (", ± its 95% half-width by batch means over the chunks" if any(
             " ± " in r[at("win/100 SS exact (95%)")] for r in cells) else "")),
        (next((c for c in SWEEP_HEAD[-3:] if c in shown), None), _and(  # (all three named:
            [c.removesuffix(" (95%)") for c in SWEEP_HEAD[-3:]])  # one left out, its twin shown)
         + ": in units and hours at " + hour_words(rows[0].get("rounds_per_hour"))
         + f", {PER_HOUR_WORDS}")]
    out += ["", "; ".join(words for col, words in legend if col in shown) + ".",
            *change_line(rows), *exact_change_line(rows), *exact_interval_line(rows),
            sweep_note(rows)]
    if meta.get("sevens_note"):  # (as the single run's, under its Super Sevens figures)
        out += [f"The Super Sevens return {meta['sevens_note']}."]
    if meta.get("sevens_player_edge"):  # (a paragraph of its own, in markdown too)
        out += ["", f"WARNING: {meta['sevens_player_edge']['note']}.", ""]
    by_chunks = [n.removesuffix(" SE") for n in CHUNK_SE_NAMES if n in shown]
    if by_chunks:
        chunks = list(dict.fromkeys(r.get("chunks") for r in rows))
        out += [f"SE of {_and(by_chunks)}: {CHUNK_SE_WORDS} (over "
                + _and([f"{k:,}" for k in chunks]) + " chunks"
                + (" a penetration" if len(rows) > 1 else "") + ")."]
    out += [x for x in [sweep_whole_se_line(rows)] if x]
    if any(r.get("score_n0_ruin_note") for r in rows):
        out += [f"SCORE and N0 intervals are {MOVED_TOGETHER} where given."]
    out += no_edge_line(r.get("no_edge_note") for r in rows)
    out += score_note_lines(rows)
    if any(r.get("risk_of_ruin_note") for r in rows):
        out += [f"The risk of ruin is {RUIN_WITHHELD}."]
    out += ruin_method_lines(rows)
    for r in rows:
        at_pen = f"At penetration {r['penetration']:.2f}:"
        if r.get("refills"):
            out.append(f"{at_pen} {refill_words(r)}.")
        ss_note = r.get("advantage_with_super_sevens_interval_note")
        counter = (r.get("super_sevens_counter_return_interval_note")
                   if r.get("super_sevens_counter_bets") else None)  # (its own SS return's)
        also = " or the counter's SS return" if counter and counter == ss_note else ""
        if counter and counter != ss_note:
            out.append(f"{at_pen} no interval for the counter's SS return, {counter}.")
        if r.get("per_round_interval_note") and ss_note == r["per_round_interval_note"]:
            out.append(f"{at_pen} no SE or interval for the advantage with SS{also}, nor an "
                       "interval for the win per 100 rounds, SCORE, N0 or the risk of ruin, "
                       f"{ss_note}.")
            continue
        if ss_note and ss_note != NO_SS_BET:
            out.append(f"{at_pen} no SE or interval for the advantage with SS{also}, {ss_note}.")
        if r.get("per_round_interval_note"):
            out.append(f"{at_pen} no interval for the win per 100 rounds, SCORE, N0 or the risk "
                       f"of ruin, {r['per_round_interval_note']}.")
        if r.get("risk_of_ruin_interval_note"):
            out.append(f"{at_pen} no SE or interval for the risk of ruin: "
                       f"{r['risk_of_ruin_interval_note']}.")
    text = "\n".join(out) + "\n"
    return _md(text) if markdown else text


def _every_too_few(notes: list) -> str | None:
    """Where every row's interval note (``notes``) is too few rounds (`_too_few`, or one round),
    the reason a sweep's column of SEs or intervals is empty: the note itself where the rows
    share it (the same rounds), else the first words of too few rounds; None otherwise."""
    if not notes or not all(n and (n.startswith(TOO_FEW) or n == ONE_ROUND) for n in notes):
        return None  # (one round: no SE at all, `ONE_ROUND`)
    return notes[0] if len(set(notes)) == 1 else TOO_FEW


# A gain over flat of "none" in words (`SAME_BETS`), in the sweep's legend and the report's.
GAIN_NONE_WORDS = ("none where the main bet is flat on every box dealt: the same bets as the "
                   "flat figure, so no gain")


def partial_sweep_text(rows: list[dict], penetrations: list, asked: int, cut="rows") -> str:
    """The PARTIAL RESULT line of a sweep stopped by Ctrl-C: which penetration was cut short
    (``cut``, json's ``run.cut_short``: None where Ctrl-C came between runs; by default a row
    with fewer than the ``asked`` rounds) and after how many rounds, and which of
    ``penetrations`` were not played."""
    short = [r for r in rows if (r["rounds"] < asked if cut == "rows" else
                                 r["penetration"] == cut)]
    left = penetrations[len(rows):]
    words = [f"interrupted at penetration {r['penetration']:.2f} after {r['rounds']:,} of "
             f"{asked:,} rounds" for r in short] or [
        f"interrupted after {len(rows)} of {len(penetrations) or len(rows)} penetrations, "
        "each of those whole"]
    if left:
        words.append(f"{_and([f'{p:.2f}' for p in left])} not played")
    return f"PARTIAL RESULT: {'; '.join(words)}; not reproducible as it stands"


def _sweep_csv(rows: list[dict], meta: dict) -> str:
    """The sweep as csv, as count's single run writes it: a row per figure and penetration
    (``section, item, penetration, value, se, ci95_low, ci95_high``; section ``sweep``, each
    figure's SE and interval in its row's ``se``, ``ci95_low``, ``ci95_high``), then the run's
    metadata (section ``run``: plan, strategy, rules, seed, rounds, penetrations, partial,
    cut_short) and the rule set (section ``rules``)."""
    out = io.StringIO()
    w = _CsvWriter(out, fieldnames=["section", "item", "penetration", "value", "se",
                                    "ci95_low", "ci95_high"], lineterminator="\n")
    w.writeheader()
    for r in rows:
        for k, v in r.items():
            if k in ("penetration", "se", "ci95_low", "ci95_high") or k.endswith(
                    ("_se", "_ci95_low", "_ci95_high")):  # (in their figure's row)
                continue
            base = "" if k == "advantage" else k
            w.writerow({"section": "sweep", "item": k, "penetration": r["penetration"],
                        "value": v, "se": r.get(f"{base}_se" if base else "se"),
                        "ci95_low": r.get(f"{base}_ci95_low" if base else "ci95_low"),
                        "ci95_high": r.get(f"{base}_ci95_high" if base else "ci95_high")})
    _meta_rows(w, meta, ("penetrations", "cut_short"))
    _sevens_rows(w, meta)
    _rules_rows(w, meta)
    return out.getvalue()


# ---------------------------------------------------------------------------------------------
# Optimal (Kelly) main bets by count (``bjsim count --optimal-bets``; docs/counting.md, "Optimal
# bets"): the bet at each count row from the run's own sums, the ramp they make, and what it
# would have won over the same rounds


# The fewest rounds an end row of the optimal bets holds (`optimal_bets`): over 10,000 rounds a
# row's advantage has an SE of about 1.1% (a round's SD at one unit about 1.15 units), where an
# end count's few hundred rounds give one of 5% to 20%, more than the edge the bets follow.
END_ROUNDS = 10_000
SMOOTHING = (f"the end rows are pooled inward until each holds at least {END_ROUNDS:,} rounds (an "
             "end count's few hundred rounds leave its advantage an SE of several percent, more "
             "than the edge the bets follow), and the advantage is "
             "then made non-decreasing in the count by weighted isotonic regression (pool "
             "adjacent violators, weights the rounds): noisy rows would otherwise give nonsense "
             "bets")
HELD = ("the bet to play is non-decreasing in the count: each row's at least the one below it "
        "(the running maximum of the rounded Kelly bets), though a row's variance, higher for "
        "its smoothed advantage (sampling noise, or more boxes a round, whose results move "
        "together), can make its Kelly bet less")
KELLY_WORDS = ("Kelly bet = bankroll x fraction x smoothed advantage x boxes a round / variance "
               "of a round's net at one unit a box (the counter's play, insurance in, as the flat "
               "figures); the bet is it rounded to a whole unit (the engine bets whole units) "
               "within the plan's table limits, table_min where the smoothed advantage is not "
               "above 0, and " + HELD)
MAIN_ONLY = ("the main bet only: the plan's wonging and boxes are kept as they are, and the "
             "figures are of the main + insurance net")
IN_SAMPLE = ("in-sample: the bets were chosen from these very rounds, so the figures flatter "
             "them, and their 95% intervals (the rounds' own spread, as the run's) do not allow "
             "for the bets having been chosen from the same rounds; the written plan played "
             "with another seed gives an out-of-sample figure")
EXACT_WORDS = ("exact: the same seed, rules and plan but the [bet] deal and play the same rounds, "
               "and the plan's bet was one amount a box at each count the tally keeps (the count "
               "floored: a flat bet, or steps at whole counts), as the optimal one is, so the "
               "counter's net is the sum over the counts of the bet times the count's net at one "
               "unit (bjsim count --plan with the written plan and the same seed gives these "
               "figures)")


def _bucket_bet(ramp, i: int, balanced: bool) -> int | None:
    """The bet ``ramp`` makes at every count of bucket ``i`` (the count floored; the ends clamped),
    or None where it changes within them (a step at +2.5). For an unbalanced count, whose running
    count is a whole number, a step acts from the whole count at or above it."""
    low = -math.inf if i == 0 else L.TC_MIN + i
    high = math.inf if i == L.N_TC - 1 else L.TC_MIN + i + 1
    bet = ramp.base
    for count, units in ramp.steps:
        at = count if balanced else math.ceil(count)
        if at <= low:
            bet = units
        elif at < high and units != bet:
            return None
    return bet


def _ramp_figures(net, sq, bet, played: int, bankroll) -> dict:
    """The counter's main + insurance figures from its (predicted) sums: ``net`` and ``sq``
    (tenths x units), ``bet`` (units) over the ``played`` rounds; ``per_round_played`` as the
    results' (`_per_round`)."""
    return {"bet": bet, "net": net, "main_sq": sq, "average_bet": _ratio(bet, played),
            "advantage": None if not bet else net / L.UNIT / bet,
            "per_round_played": _per_round(net, sq, played, bankroll)}


def optimal_bets(ctally, plan, bankroll: float, fraction: float = 1.0,
                 end_rounds: int = END_ROUNDS) -> dict:
    """The optimal (Kelly) main bet at each count row of the counting tally (the rows of
    ``by_count``, the ends merged until each holds ``end_rounds`` rounds: `tail_groups`), non-
    decreasing in the count (the running maximum), the ramp they make as a plan's ``[bet]``, and
    the counter's figures under it over the same rounds, from the tally's own sums: each count's
    net at one unit times its new bet, and its second moment times the bet squared
    (``predicted``; ``exact`` where the plan played one bet a box within each count,
    `_bucket_bet`), beside the plan's own (``as_played``). ``bankroll`` in units; ``fraction``
    of Kelly (0.5: half Kelly)."""
    c = _columns(ctally)
    u = L.UNIT
    groups = tail_groups(c[L.C_ROUNDS], end_rounds)
    rounds = sum(c[L.C_ROUNDS])
    rows = []
    for k, group in enumerate(groups):
        def add(field, g=group):
            return sum(c[field][i] for i in g)

        n, boxes, net, rsq = (add(L.C_ROUNDS), add(L.C_FLAT_BOXES), add(L.C_FLAT_NET),
                              add(L.C_FLAT_RSQ))
        count, label = _group_label(group, k == 0, k == len(groups) - 1)
        rows.append({"count": count, "label": label, "counts": _counts(group), "rounds": n,
                     "played": add(L.C_PLAYED), "frequency": n / rounds,
                     "advantage": net / u / boxes, "boxes_per_round": boxes / n,
                     "variance": None if n < 2 else max(n * rsq - net * net, 0)
                     / (n * (n - 1)) / u**2})
        v = rows[-1]["variance"]  # the advantage's SE: the mean net a round's, a box's share
        rows[-1]["advantage_se"] = (None if not v or n < MIN_SAMPLE else  # (as `_by_count`)
                                    math.sqrt(v / n) * n / boxes)
    smooth = counting.isotonic([r["advantage"] for r in rows], [r["rounds"] for r in rows])
    held, below = [], plan.table_min
    for r, adv in zip(rows, smooth, strict=True):
        kelly = counting.kelly_bet(bankroll, fraction, float(adv) * r["boxes_per_round"],
                                   r["variance"])
        bet = counting.bet_to_play(kelly, plan.table_min, plan.table_max)
        if bet < below:  # (the running maximum: never less than the row below)
            held.append(f"{r['label']} ({bet} held at {below})")
        below = max(bet, below)
        r |= {"advantage_smoothed": float(adv), "kelly_bet": kelly, "bet": below}
    steps = [[L.TC_MIN + g[0], r["bet"]]
             for g, r, before in zip(groups[1:], rows[1:], rows[:-1], strict=True)
             if r["bet"] != before["bet"]]
    # What the ramp makes over the same rounds: each count's net at one unit (its net over the
    # plan's bet there) times the new bet, exact where the plan's bet was one amount there.
    bet_of = {i: r["bet"] for g, r in zip(groups, rows, strict=True) for i in g}
    exact, off = True, None
    new_bet = new_net = new_sq = Fraction(0)
    for i in range(L.N_TC):
        boxes, bet = c[L.C_BOXES][i], c[L.C_BET][i]
        if not c[L.C_PLAYED][i]:
            continue
        was = _bucket_bet(plan.bet, i, plan.count.balanced)
        if was is None or was * boxes != bet:
            exact, off = False, off or bucket_label(i)
            was = Fraction(bet, boxes)  # (its average bet a box)
        scale = Fraction(bet_of[i]) / was
        new_bet += bet_of[i] * boxes
        new_net += scale * c[L.C_NET][i]
        new_sq += scale * scale * c[L.C_MAIN_SQ][i]
    whole = int if exact else float
    played = sum(c[L.C_PLAYED])
    edge = any(r["kelly_bet"] is not None for r in rows)
    as_played = _ramp_figures(sum(c[L.C_NET]), sum(c[L.C_MAIN_SQ]), sum(c[L.C_BET]), played,
                              bankroll)
    predicted = _ramp_figures(whole(new_net), whole(new_sq), int(new_bet), played, bankroll)
    scores = [x["per_round_played"]["score"] for x in (predicted, as_played)]
    return {
        "bankroll": bankroll, "kelly_fraction": fraction,
        "table_min": plan.table_min, "table_max": plan.table_max,
        "rows": rows, "bet": {"base": rows[0]["bet"] if rows else plan.table_min,
                              "steps": steps},
        "as_played": as_played, "predicted": predicted, "exact": exact,
        "exact_note": EXACT_WORDS if exact else (
            f"not exact: the plan's bet was not one amount a box at the count {off} (a step "
            "between whole counts, or at a count the tally's end holds with others), so there "
            "the net at one unit is taken at its average bet a box"),
        "smoothing_note": SMOOTHING, "kelly_note": KELLY_WORDS, "main_bet_note": MAIN_ONLY,
        "in_sample_note": IN_SAMPLE,
        "held_note": None if not held else (
            f"the rounded Kelly bet is below the row before's at {_and(held)} units, where the "
            "row's variance is higher for its smoothed advantage (sampling noise, or more boxes "
            "a round, whose results move together): the bet is held at the row before's, the "
            "running maximum"),
        "no_edge_note": None if edge else (
            "no count has an edge (the smoothed advantage is not above 0 at any count), so "
            f"Kelly bets nothing and the ramp is the table minimum, {plan.table_min} "
            f"{plural(plan.table_min, 'unit', 'units')}, at every count"),
        "score_note": None if not edge or None in scores or scores[0] >= scores[1] else (
            f"the optimal bets' SCORE ({scores[0]:.1f}) is below the plan's ({scores[1]:.1f}): "
            "they are Kelly bets on the smoothed advantages, rounded to whole units within the "
            "table limits for the bankroll and fraction given (bets of "
            f"{_and(_bet_spans(rows, plural(rows[0]['bet'], 'unit', 'units')))} for a bankroll "
            f"of {_num(bankroll, 0)} units at fraction {fraction:g}), not Schlesinger's optimal "
            "bets, in any amount and without limits, whose SCORE is the highest a ramp has; "
            "SCORE does not depend on the bankroll, but the rounded bets do, nearer those with "
            "a larger bankroll or fraction"),
        "limits_note": None if plan.table_max > plan.table_min else (
            f"the plan's table_max is its table_min, {plan.table_min} "
            f"{plural(plan.table_min, 'unit', 'units')}, so every bet is that: give the plan a "
            "table_max for a spread"),
    }


def _bet_spans(rows: list[dict], unit: str) -> list[str]:
    """The optimal rows' bets by the counts they span: ``1 unit at <=-7 to +3`` (the first
    with ``unit``), ``3 at +4 to +5``."""
    spans: list[list] = []
    for r in rows:
        if spans and spans[-1][0] == r["bet"]:
            spans[-1][2] = r["label"]
        else:
            spans.append([r["bet"], r["label"], r["label"]])
    return [f"{b}{f' {unit}' if i == 0 else ''} at {lo}" + (f" to {hi}" if hi != lo else "")
            for i, (b, lo, hi) in enumerate(spans)]


def ramp_text(bet: dict) -> str:
    """A ``[bet]`` ramp (``{"base", "steps"}``) as a plan file writes it."""
    return f"base = {bet['base']}" + (f", steps = {_fmt(bet['steps'])}" if bet["steps"] else "")


def _ramp_row(label: str, r: dict) -> list[str]:
    p = r["per_round_played"]
    return [label, _num(r["average_bet"], 3), _pct(r["advantage"]), _num(p["sd"], 3),
            _pm95(p["win_per_100"], p["win_per_100_se"], 2, p.get("win_per_100_ci95_low"),
                  p.get("win_per_100_ci95_high")),
            _span(p["score"], p["score_ci95_low"], p["score_ci95_high"], 1, none=_no_edge(p)),
            _span(p["n0"], p["n0_ci95_low"], p["n0_ci95_high"], 0, none=_no_edge(p)),
            _span(p["risk_of_ruin"], p["risk_of_ruin_ci95_low"], p["risk_of_ruin_ci95_high"],
                  fmt=ruin_pct)]


def optimal_text(o: dict, kind: str, markdown: bool = False) -> list[str]:
    """The section "Optimal main bets" (`optimal_bets`) as text lines, or markdown."""
    grid = _markdown if markdown else _aligned
    out = ["", f"Optimal main bets (Kelly, bankroll {_num(o['bankroll'], 0)} units, fraction "
           f"{o['kelly_fraction']:g}; table limits "
           + (f"{o['table_min']} unit{'s' * (o['table_min'] != 1)}"
              if o["table_min"] == o["table_max"] else
              f"{o['table_min']} to {o['table_max']} units") + "; "
           f"{o['main_bet_note'].split(':')[0]})", ""]
    out += grid([kind, "rounds", "frequency", "advantage", "advantage SE", "smoothed",
                 "variance", "Kelly bet", "bet"],
                [[r["label"], _num(r["rounds"]), _freq(r["frequency"]), _pct(r["advantage"], 2),
                  _pct(r["advantage_se"], 2, sign=False), _pct(r["advantage_smoothed"], 2),
                  _num(r["variance"], 3),
                  _num(r["kelly_bet"], 2), str(r["bet"])] for r in o["rows"]])
    out += ["", f"Advantage: per unit of initial bet at one unit on every box dealt (the counter's "
            f"play), as the table by count, with its SE (from the rounds' sums); "
            f"{o['smoothing_note']}. {o['kelly_note']}. The smoothed advantage and the Kelly "
            "bet are the fit's, of the advantages and their rounds: no SE of their own."]
    for note in filter(None, (o["no_edge_note"], o["limits_note"], o["held_note"],
                              o.get("score_note"))):
        out += ["", f"Note: {note}."]
    out += ["", f"As a plan's [bet]: {ramp_text(o['bet'])}.", "",
            f"Over the same rounds ({o['main_bet_note']}):", ""]
    optimal = "the table minimum, no edge" if o["no_edge_note"] else "the optimal bets"
    ramps = [("the plan as played", o["as_played"]),
             (optimal + (" (exact)" if o["exact"] else " (estimate)"), o["predicted"])]
    cells = [_ramp_row(label, r) for label, r in ramps]
    head = ["main bet", "avg bet", "advantage", "SD/round", "win/100 (95%)", "SCORE (95%)",
            "N0 (95%)", "risk of ruin (95%)"]
    out += grid([_as_shown(h, [row[j] for row in cells]) for j, h in enumerate(head)], cells)
    out += _ramp_notes([(label, r["per_round_played"]) for label, r in ramps])
    whose = "The table minimum's" if o["no_edge_note"] else "The optimal bets'"
    out += ["", f"{whose} figures are {o['exact_note']}; and {o['in_sample_note']}."]
    return out


def _ramp_notes(rows: list[tuple[str, dict]]) -> list[str]:
    """The lines under the section's table of the two ramps (``rows``: each row's label and
    ``per_round_played``), as the net per round's table has them (`_round_notes`): where SCORE
    and N0 do not apply, how the risk of ruin is worked out, and why a row has no SE or interval
    (of the risk of ruin alone, or of every figure)."""
    ps = [p for _, p in rows]
    out = [*no_edge_line([p.get("no_edge_note") for p in ps]), *score_note_lines(ps),
           *ruin_method_lines(ps)]
    for label, p in rows:
        if p.get("interval_note"):
            out.append(f"No SE of the mean and no interval for the win per 100 rounds, SCORE, N0 "
                       f"or the risk of ruin of {label}: {p['interval_note']}.")
        elif p.get("risk_of_ruin_interval_note"):
            out.append(f"No SE or interval for the risk of ruin of {label}: "
                       f"{p['risk_of_ruin_interval_note']}.")
    return [line for x in out for line in ("", x)]


def optimal_rows(o: dict) -> list[dict]:
    """The section as csv rows (section ``optimal_bets``), as `tidy_rows` writes the others."""
    rows = []

    def add(item, value, count=None, label=None, se=None, lo=None, hi=None):
        rows.append({"section": "optimal_bets", "item": item, "count": count,
                     "count_label": label, "value": value, "se": se, "ci95_low": lo,
                     "ci95_high": hi})

    for k in ("bankroll", "kelly_fraction", "table_min", "table_max"):
        add(k, o[k])
    for r in o["rows"]:
        for k in ("rounds", "played", "frequency", "advantage", "advantage_smoothed",
                  "boxes_per_round", "variance", "kelly_bet", "bet"):
            add(k, r[k], r["count"], r["label"], se=r["advantage_se"] if k == "advantage"
                else None)
    add("bet_base", o["bet"]["base"])
    add("bet_steps", json.dumps(o["bet"]["steps"]))
    for key in ("as_played", "predicted"):
        fig = o[key]
        for k in ("bet", "net", "main_sq", "average_bet", "advantage"):
            add(f"{key}:{k}", fig[k])
        p = fig["per_round_played"]
        for k in ("mean", "sd", "win_per_100", "score", "n0", "risk_of_ruin"):
            add(f"{key}:{k}", p[k], se=p["se"] if k == "mean" else p.get(k + "_se"),
                lo=p.get(k + "_ci95_low"), hi=p.get(k + "_ci95_high"))
        for k in ("interval_note", "no_edge_note", "risk_of_ruin_method",
                  "risk_of_ruin_interval_note"):
            add(f"{key}:{k}", p[k])
    for k in ("exact", "exact_note", "smoothing_note", "kelly_note", "main_bet_note",
              "in_sample_note", "no_edge_note", "limits_note", "held_note", "score_note"):
        add(k, o.get(k))
    return rows
