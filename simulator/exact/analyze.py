"""Whole-game figures and the derived basic strategy (rules 4.1, 8.2, 8.3, 9, 10, 11, 12.1, 14).

`analyze` weights every first two cards and up card by their exact probability from the full
shoe and plays each by a policy; `basic_strategy` derives the optimal total-dependent tables.
"""

from __future__ import annotations

import copy
import pickle
from dataclasses import replace

import numpy as np

from simulator import layout as L
from simulator.exact.cache import one_box
from simulator.exact.dealer import BJ
from simulator.exact.player import (
    EV,
    EX2,
    G0,
    MODE_ORIGINAL,
    N_STATS,
    Tables,
    UpCard,
    hand_of,
    hand_total,
)
from simulator.exact.shoe import flag, full_shoe
from simulator.rules import pays_text, plural, validate
from simulator.strategy import Strategy, checked

UPS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)  # strategy column order
STRATEGY_ALLOWED = "None (the rules' basic strategy) or load_strategy(NAME or FILE)'s"
ANALYSES_KEPT = 8  # the analyses a process keeps (``remembered``), the least recently used go
_ANALYSES: dict = {}
TREES_KEPT = 4  # the hand trees a process keeps (``trees``, ``derive``)
_TREES: dict = {}


def _two_card_hands(comp):
    """Unordered two-card hands (a <= b) with their probability from ``comp``."""
    n = comp.sum()
    out = []
    for a in range(1, 11):
        for b in range(a, 11):
            if a == b:
                p = comp[a - 1] * (comp[a - 1] - 1) / (n * (n - 1))
            else:
                p = 2 * comp[a - 1] * comp[b - 1] / (n * (n - 1))
            if p > 0:
                out.append((a, b, p))
    return out


class _Box:
    """Box-level option values for the two-card hands against one up card."""

    def __init__(self, uc: UpCard):
        self.uc = uc
        self.rules = uc.rules

    def pbj0(self, h):
        return self.uc.p_bj(self.uc.comp(h))

    def options(self, a, b, resplit=True):
        """Box stats of each legal first decision on a non-natural hand (a, b)."""
        uc, r = self.uc, self.rules
        h = hand_of(a, b)
        pbj = self.pbj0(h)
        opts = dict(uc.two_card_options(h))
        if uc.mode == MODE_ORIGINAL:  # the box loses exactly its initial wager to a blackjack
            for k, s in opts.items():
                s = s.copy()
                s[EV] -= pbj
                s[EX2] += pbj
                s[G0 + BJ] -= pbj
                opts[k] = s
        if a == b and r.max_hands >= 2:
            s = uc.split(a, resplit)
            if uc.mode == MODE_ORIGINAL:
                s = s.copy()
                s[EV] -= pbj
                s[EX2] += pbj
                s[G0 + BJ] -= pbj
            opts["split"] = s
        if r.surrender != "none":
            s = np.zeros(N_STATS)
            nobj = uc.dealer(h)[:BJ]
            if r.surrender == "early":
                s[EV], s[EX2] = -0.5, 0.25
                s[G0:G0 + BJ] = -0.5 * nobj
                s[G0 + BJ] = -0.5 * pbj
            else:  # late: in the no-hole game the whole wager is lost to a blackjack
                s[EV] = -0.5 * (1 - pbj) - pbj
                s[EX2] = 0.25 * (1 - pbj) + pbj
                s[G0:G0 + BJ] = -0.5 * nobj
                s[G0 + BJ] = -pbj
            opts["surrender"] = s
        return opts

    def natural(self, even_money):
        pbj = self.pbj0(hand_of(1, 10))
        s = np.zeros(N_STATS)
        if even_money and self.uc.up == 1:
            s[EV], s[EX2] = 1.0, 1.0
        else:
            bp = self.rules.blackjack_pays
            s[EV], s[EX2] = bp * (1 - pbj), bp * bp * (1 - pbj)
        return s

    def insurance(self, a, b, main):
        """(EV, EX2 increment) of a half-wager insurance beside a main result ``main``."""
        pbj = self.pbj0(hand_of(a, b))
        win = 0.5 * self.rules.insurance_pays
        ev = win * pbj - 0.5 * (1 - pbj)
        e2 = win * win * pbj + 0.25 * (1 - pbj)
        g_bj = main[G0 + BJ]
        cross = win * g_bj - 0.5 * (main[EV] - g_bj)
        return ev, e2 + 2 * cross

    def table_choice(self, a, b, opts, tables: Tables):
        """The option the tables take on hand (a, b) (design.md step 6)."""
        r, uc = self.rules, self.uc
        ui = uc.ui
        code = None
        if a == b == 7 and r.super_sevens:  # the sevens row decides (14.4), as in the kernel
            code = int(tables.sevens[ui])
            if code == L.RP and "surrender" in opts:
                return "surrender"
            if code in (L.P, L.RP):
                if "split" in opts:
                    return "split"
                code = None  # no split allowed: the hard total's cell
        elif a == b:  # the pair table: Rp surrenders where allowed, split or not (as the kernel)
            pc = int(tables.pairs[a - 1, ui])
            if pc == L.RP and "surrender" in opts:
                return "surrender"
            if "split" in opts and (pc in (L.P, L.RP) or pc == L.PD and r.double_after_split):
                return "split"  # (else, or no split allowed: the hard or soft cell)
        if code is None:
            code = uc.table_code(hand_of(a, b))
        if code in (L.RH, L.RS) and "surrender" in opts:
            return "surrender"
        return uc.choose({k: v for k, v in opts.items() if k in ("stand", "hit", "double")},
                         hand_of(a, b), code)


def _resplit(tables, p, ui, r):
    """Whether a resplit of ``p`` is taken (the pair table's cell; optimal play: yes)."""
    if tables is None:
        return True
    pc = int(tables.pairs[p - 1, ui])
    return pc == L.P or (pc == L.PD and r.double_after_split) or pc == L.RP


def _ups(rules, policy):
    return {up: UpCard(rules, up, policy) for up in range(1, 11)}


def _kept_trees(key, make):
    """``make()``'s hand trees, made once for ``key`` while the process keeps its last
    ``TREES_KEPT`` (each some hundred MB)."""
    key = pickle.dumps(key)
    hit = _TREES.pop(key, None) or make()
    _TREES[key] = hit
    while len(_TREES) > TREES_KEPT:
        del _TREES[next(iter(_TREES))]
    return hit


def trees(rules, policy):
    """The hand trees ``{up: UpCard}`` of ``policy`` (a `Tables`, or None: optimal play), one set
    for every policy with its hit/stand rows (an `UpCard` reads no other) under rules that differ
    only in keys the analyzer does not read (`cache.one_box`)."""
    rows = None if policy is None else (policy.hard.tobytes(), policy.soft.tobytes())
    return _kept_trees(("trees", one_box(rules), rows), lambda: _ups(rules, policy))


def evaluate(rules, policy, ups=None, ss_value=None, shoe=None):
    """Expected return, SD per round and the per-hand option table under ``policy``.

    ``policy``: a `Tables` (the kernel's semantics) or None (composition-dependent optimal play,
    the combinatorial analyzers' convention; no insurance, even money where it gains).
    ``shoe``: None, the full shoe of ``rules.decks``; else the composition the round is dealt
    from (counts by value, A..T; may be fractional), its up cards' trees made for it unless
    ``ups`` gives them (`simulator.exact.removal`).
    """
    if shoe is None:
        ups = ups or trees(rules, policy)
        shoe = full_shoe(rules.decks)
    else:
        shoe = np.array(shoe, dtype=np.float64)
        ups = ups or {up: UpCard(rules, up, policy, shoe=shoe) for up in range(1, 11)
                      if shoe[up - 1] > 0}
    n = shoe.sum()
    ev = ex2 = ins_ev = 0.0
    hands = []
    for up in range(1, 11):
        pu = shoe[up - 1] / n
        if pu == 0:  # (no card of that value left to be the up card)
            continue
        uc = ups[up]
        box = _Box(uc)
        comp = shoe.copy()
        comp[up - 1] -= 1
        for a, b, ph in _two_card_hands(comp):
            w = pu * ph
            if (a, b) == (1, 10):
                s = box.natural(policy is not None and policy.even_money)
                if policy is None:  # optimal play: even money where it gains (under 6:5)
                    s = max(s, box.natural(True), key=lambda x: x[EV])
                ev += w * s[EV]
                ex2 += w * s[EX2]
                hands.append({"up": up, "hand": (a, b), "prob": w, "choice": "blackjack",
                              "ev": float(s[EV])})
                continue
            opts = box.options(a, b, _resplit(policy, a, uc.ui, rules) if a == b else True)
            if policy is None:
                choice = max(opts, key=lambda k: opts[k][EV])
            else:
                choice = box.table_choice(a, b, opts, policy)
            s = opts[choice]
            e, e2 = s[EV], s[EX2]
            if policy is not None and policy.insurance and up == 1:
                ie, ie2 = box.insurance(a, b, s)
                pbj = box.pbj0(hand_of(a, b))
                ins_ev += w * (0.5 * rules.insurance_pays * pbj - 0.5 * (1 - pbj))
                e, e2 = e + ie, e2 + ie2
            ev += w * e
            ex2 += w * e2
            hands.append({"up": up, "hand": (a, b), "prob": w, "choice": choice,
                          "ev": float(s[EV]),
                          "options": {k: float(v[EV]) for k, v in opts.items()}})
    return {"ev": ev, "sd": float(np.sqrt(max(ex2 - ev * ev, 0.0))), "ex2": ex2,
            "insurance_ev": ins_ev, "hands": hands}, ups


# ---------------------------------------------------------------------------------------------
# Basic strategy: the optimal total-dependent tables


def _row_hands(total, soft, comp):
    """Two-card hands of a table row, with probability: non-pairs, else the pair of that total."""
    hands = [(a, b, p) for a, b, p in _two_card_hands(comp) if (a, b) != (1, 10)
             and hand_total(hand_of(a, b)) == (total, soft)]
    nonpair = [x for x in hands if x[0] != x[1]]
    return nonpair or hands


def _best_code(sums, hs_hit):
    best = max(sums, key=sums.get)
    if best == "double":
        return L.D if hs_hit else L.DS
    if best == "surrender":
        return L.RH if hs_hit else L.RS
    return L.H if hs_hit else L.S


def derive_tables(rules, ss_values=None):
    """Derive the total-dependent basic strategy; returns (Tables, {up: UpCard}).

    Order (each step only reads rows already final): hit/stand rows hard 20..12 then soft
    20..13, by the sum over the row's two-card hands of their exact composition-dependent
    values with later play by the rows already set; then double/surrender codes; then pairs;
    then the sevens row (main game plus ``super_sevens_bet`` times the Super Sevens value of the
    play when the rule set has Super Sevens).
    """
    hard = np.full((L.N_TOTALS, L.N_UP), L.H, dtype=np.int8)
    soft = np.full((L.N_TOTALS, L.N_UP), L.H, dtype=np.int8)
    hard[21, :] = L.S
    soft[21, :] = L.S
    pairs = np.full((L.N_PAIRS, L.N_UP), L.N, dtype=np.int8)
    sevens = np.full(L.N_UP, L.H, dtype=np.int8)
    tables = Tables(hard, soft, pairs, sevens)
    hard, soft, pairs, sevens = tables.hard, tables.soft, tables.pairs, tables.sevens
    ups = _ups(rules, tables)
    shoe = full_shoe(rules.decks)
    for up in range(1, 11):
        uc = ups[up]
        ui = uc.ui
        comp = shoe.copy()
        comp[up - 1] -= 1
        zero = (0,) * 10
        rows = [(t, False) for t in range(20, 11, -1)] + [(t, True) for t in range(20, 12, -1)]
        for t, is_soft in rows:  # hit / stand
            st = ht = 0.0
            for a, b, p in _row_hands(t, is_soft, comp):
                h = hand_of(a, b)
                st += p * uc.stand(h, zero, 1.0, False)[EV]
                ht += p * uc.hit(h, zero, False)[EV]
            (soft if is_soft else hard)[t, ui] = L.S if st >= ht else L.H
        box = _Box(uc)
        all_rows = [(t, False) for t in range(4, 21)] + [(t, True) for t in range(12, 21)]
        for t, is_soft in all_rows:  # double / surrender on two cards
            hands = _row_hands(t, is_soft, comp)
            if not hands:
                continue
            sums: dict = {}
            for a, b, p in hands:
                opts = box.options(a, b)
                opts.pop("split", None)
                for k, v in opts.items():
                    sums[k] = sums.get(k, 0.0) + p * v[EV]
            tab = soft if is_soft else hard
            hs_hit = tab[t, ui] == L.H
            tab[t, ui] = _best_code(sums, hs_hit)
        if rules.max_hands >= 2:  # pairs
            for pv in range(1, 11):
                if comp[pv - 1] < 2:
                    continue
                opts = box.options(pv, pv, True)
                nosplit = opts[box.table_choice(pv, pv, {k: v for k, v in opts.items()
                                                         if k != "split"}, _NoPairs(tables))]
                sp = opts["split"][EV]
                sur = opts.get("surrender")
                if sp > nosplit[EV]:
                    code = L.P
                    if sur is not None and sur[EV] > sp:
                        code = L.RP
                else:
                    code = L.N
                pairs[pv - 1, ui] = code
        # sevens row: the first decision on 7-7 with a Super Sevens bet up (a surrender settles
        # the side bet on the two sevens, as a stand does)
        if comp[6] >= 2:
            opts = box.options(7, 7, _resplit(tables, 7, ui, rules))
            val = {k: v[EV] for k, v in opts.items()}
            if rules.super_sevens and ss_values is not None:
                for k in val:
                    val[k] += rules.super_sevens_bet * ss_values[up][k]
            best = max(val, key=val.get)
            hs_hit = val.get("hit", -9) >= val.get("stand", -9)
            if best == "surrender":  # its fallback where surrender is not allowed: split or
                split = val.get("split", -9) > max(val.get("hit", -9), val.get("stand", -9))
                sevens[ui] = L.RP if split else L.RH if hs_hit else L.RS  # (hit or stand)
            else:
                sevens[ui] = {"split": L.P, "stand": L.S, "hit": L.H}.get(
                    best, L.D if hs_hit else L.DS)
    return tables, ups


class _NoPairs:
    """A view of tables whose pair decisions are 'no split' (for the no-split value)."""

    def __init__(self, t):
        self.hard, self.soft, self.sevens = t.hard, t.soft, t.sevens
        self.pairs = np.full_like(t.pairs, L.N)
        self.insurance = self.even_money = False


SOURCE = ("Generated by `bjsim strategy generate` (simulator.exact.basic_strategy): every "
          "decision derived by exact card-removal analysis of the full shoe for the rule set "
          "(docs/exact.md).")


def tables_to_strategy(tables, name="exact-basic", description=""):
    return Strategy(name=name, hard=tables.hard.copy(), soft=tables.soft.copy(),
                    pairs=tables.pairs.copy(), sevens=tables.sevens.copy(),
                    insurance=False, even_money=False, description=description,
                    source=SOURCE)


# ---------------------------------------------------------------------------------------------
# Public entry points


def _ss_values(rules):
    if not rules.super_sevens:
        return None
    from simulator.exact.sevens import super_sevens

    return super_sevens(rules, "stand")["by_up"]


def _main_sevens_row(tables):
    """The sevens row of the main game alone: the pair table's 7,7 play (``P`` split, ``Rp``
    surrender else split), or the hard 14 play where 7,7 is not split (its surrender codes
    ``Rh`` and ``Rs`` kept: a surrendered 7-7 settles the side bet on its two sevens), so the
    main game is played the same whether a Super Sevens bet is up or not."""
    for ui in range(L.N_UP):
        pair = int(tables.pairs[6, ui])
        tables.sevens[ui] = pair if pair in (L.P, L.RP) else int(tables.hard[14, ui])


def derive(rules, with_super_sevens: bool = False):
    """(Tables, {up: UpCard}) of the derived basic strategy.

    ``with_super_sevens=False``: the sevens row is the pair table's 7,7 play, best for the main
    wager alone. True (and the rule set has Super Sevens): the sevens row maximises the main
    wager plus ``super_sevens_bet`` times the side bet's value of each 7-7 play.
    """
    if with_super_sevens and rules.super_sevens:
        return derive_tables(rules, _ss_values(rules))
    one = one_box(rules)
    derived, ups = _kept_trees(("derive", one), lambda: derive_tables(rules, None))
    rows = (derived.hard.tobytes(), derived.soft.tobytes())  # its trees: any policy's of its rows
    _kept_trees(("trees", one, rows), lambda: ups)
    tables = Tables(derived.hard, derived.soft, derived.pairs, derived.sevens)  # (copies)
    _main_sevens_row(tables)
    return tables, ups


def basic_strategy(rules, with_super_sevens: bool = False, name: str | None = None,
                   insurance: bool = False) -> Strategy:
    """The optimal total-dependent basic strategy for ``rules``.

    Insurance and even money each where it gains (`worth_taking`: neither under the Gazette's
    pays), or both with ``insurance`` (the insurance-taker).
    ``with_super_sevens``: the sevens row maximises main wager + side bet (see `derive`).
    The name, description and source are fixed texts, so a generated file is reproducible.
    """
    rules = validate(rules, "rules")
    with_super_sevens, insurance = flag("with_super_sevens", with_super_sevens), flag(
        "insurance", insurance)
    if name is not None and not isinstance(name, str):
        raise ValueError(f"name = {name!r:.40}: allowed None (the usual name) or a text")
    tables, _ = derive(rules, with_super_sevens)
    return strategy_from_tables(rules, tables, with_super_sevens, name, insurance)


def worth_taking(rules) -> tuple[bool, bool]:
    """Whether insurance, and even money, gain the player from a full shoe less the dealer's ace
    and the player's two cards: insurance on average over the hands it is offered to (one choice
    a strategy), even money (+1) against the blackjack's pay where the dealer has none."""
    shoe = full_shoe(rules.decks).astype(float)
    shoe[0] -= 1
    n, ins = shoe.sum(), 0.0
    for a, b, p in _two_card_hands(shoe):
        if (a, b) != (1, 10):
            pbj = (shoe[9] - (a == 10) - (b == 10)) / (n - 2)
            ins += p * (0.5 * rules.insurance_pays * pbj - 0.5 * (1 - pbj))
    pbj = (shoe[9] - 1) / (n - 2)
    return bool(ins > 0), bool(rules.blackjack_pays * (1 - pbj) < 1)


def base_name(with_super_sevens: bool = False, insurance: bool = False) -> str:
    """A derived strategy's name before its rules' changes: the shipped one it is under the NZ
    rules (``basic``, ``basic-super-sevens``, ``insurance-taker``), and with both flags
    ``insurance-taker-super-sevens``, which no shipped strategy is (``insurance-taker``'s sevens
    row is ``basic``'s)."""
    if insurance:
        return "insurance-taker-super-sevens" if with_super_sevens else "insurance-taker"
    return "basic-super-sevens" if with_super_sevens else "basic"


def strategy_from_tables(rules, tables, with_super_sevens=False, name=None, insurance=False):
    """The `Strategy` `basic_strategy` makes of derived tables (names and texts included):
    insurance and even money each taken where it gains (`worth_taking`), or both (``insurance``,
    to measure their cost)."""
    if name is None:
        name = base_name(with_super_sevens, insurance)
    worth = worth_taking(rules)
    strat = tables_to_strategy(tables, name=name,
                               description=_describe(rules, with_super_sevens, insurance, worth))
    taken = (True, True) if insurance else worth
    return replace(strat, insurance=taken[0], even_money=taken[1])


def _describe(rules, with_super_sevens=False, insurance=False, worth=(False, False)):
    """Every rule the chart was derived for in words (those the NZ rules' description leaves
    out only where they differ from them; a key of no effect under these rules left out)."""
    from simulator.rules import Rules, no_effect

    nz = Rules()
    decks = f"{rules.decks} {plural(rules.decks, 'deck', 'decks')}"
    takes = ("" if no_effect(rules, "dealer_blackjack_takes") else
             f"dealer blackjack takes {rules.dealer_blackjack_takes}, ")
    hsa = (f", hit split aces {str(rules.hit_split_aces).lower()}"
           if rules.hit_split_aces != nz.hit_split_aces
           and not no_effect(rules, "hit_split_aces") else "")
    ins = (f", insurance pays {rules.insurance_pays:g}"
           if rules.insurance_pays != nz.insurance_pays else "")
    text = (f"Exact total-dependent basic strategy: {decks}, "
            f"{'H17' if rules.dealer_hits_soft_17 else 'S17'}, hole card {rules.hole_card}, "
            f"{takes}double {rules.double_on}, "
            f"DAS {str(rules.double_after_split).lower()}, max hands {rules.max_hands}, "
            f"resplit aces {str(rules.resplit_aces).lower()}{hsa}, surrender {rules.surrender}, "
            f"blackjack pays {rules.blackjack_pays:g}{ins}.")
    if with_super_sevens and rules.super_sevens:
        pays = ("" if tuple(rules.super_sevens_pays) == tuple(nz.super_sevens_pays) else
                f" (pays {pays_text(rules.super_sevens_pays)})")
        text += (f" Sevens row: best 7,7 play for the main wager plus a Super Sevens bet of "
                 f"{rules.super_sevens_bet:g} times it{pays}.")
    else:
        text += " Sevens row: the pair table's 7,7 play (main wager only)."
    key = ("taker" if worth == (False, False) else "every") if insurance else worth
    return text + " " + INSURANCE_WORDS[key] + "."


# A generated strategy's words on insurance and even money (`_describe`): the insurance-taker's
# where they lose, or where one gains; else each taken where it gains (`worth_taking`).
INSURANCE_WORDS = {
    "taker": "Takes insurance and even money (a losing bet, to measure its cost)",
    "every": "Takes insurance and even money every time (to measure them)",
    (False, False): "No insurance, no even money",
    (True, True): "Takes insurance and even money (each gains here)",
    (True, False): "Takes insurance (it gains here); no even money",
    (False, True): "Takes even money (it gains here); no insurance"}


def analyze(rules, strategy=None, optimal: bool = False) -> dict:
    """Exact figures of the main game (and Super Sevens when the rule set has it).

    Parameters
    ----------
    rules : Rules
    strategy : Strategy or None
        The strategy to evaluate; None derives `basic_strategy` and evaluates it.
    optimal : bool
        Evaluate composition-dependent optimal play instead (the convention of the published
        combinatorial analyzers; no insurance, and even money where it gains, as under 6:5);
        ``strategy`` is then ignored.

    Returns
    -------
    dict
        ``ev`` (player's expected return per initial wager, insurance and even money included),
        ``house_edge`` (= -ev), ``sd`` (per box-round), ``insurance_ev``, ``strategy`` (the
        Strategy evaluated, None when optimal), ``hands`` (per two-card hand and up card:
        probability, the option values, the choice), ``super_sevens`` (or None). The process
        keeps its last ``ANALYSES_KEPT`` analyses: asked again, it returns a copy.
    """
    rules = validate(rules, "rules")  # (a Rules built in code: valued only as a file could say)
    if strategy is not None:
        checked(strategy, "strategy", STRATEGY_ALLOWED)
    optimal = flag("optimal", optimal)
    one = one_box(rules)  # (its figures are those of any boxes and cut card)
    return remembered(("analyze", one, None if optimal else strategy, optimal),
                      lambda: _analyze(one, strategy, optimal))


def remembered(key, compute):
    """A copy of ``compute()``, computed once for ``key`` (picklable) while the process keeps
    its last ``ANALYSES_KEPT`` results."""
    key = pickle.dumps(key)
    hit = _ANALYSES.pop(key, None)
    if hit is None:
        hit = compute()
        while len(_ANALYSES) >= ANALYSES_KEPT:
            del _ANALYSES[next(iter(_ANALYSES))]
    _ANALYSES[key] = hit
    return copy.deepcopy(hit)


def kept(key) -> bool:
    """Whether the process keeps a result for ``key`` (``remembered``)."""
    return pickle.dumps(key) in _ANALYSES


def _analyze(rules, strategy, optimal) -> dict:
    if optimal:
        res, _ = evaluate(rules, None)
        strat = None
    elif strategy is None:
        tables, ups = derive(rules)
        strat = strategy_from_tables(rules, tables)
        res, _ = evaluate(rules, Tables.of(strat), ups)
    else:
        strat = strategy
        res, _ = evaluate(rules, Tables.of(strategy))
    res["house_edge"] = -res["ev"]
    res["strategy"] = strat
    res["super_sevens"] = None
    if rules.super_sevens:
        from simulator.exact.sevens import super_sevens

        res["super_sevens"] = super_sevens(rules, strat if strat is not None else "split")
    return res
