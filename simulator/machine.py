"""The lean game's round as a table-driven state machine: one table read per card, no branch.

For the lean game of the kernel's fast path (one box, no hole card, no surrender, a strategy
that takes no insurance or even money, the dealer not drawing to dead hands) every round is a walk
through a finite set of states, one card per step: the first card, the up card, the second card,
the player's hits or double, the dealer's cards. ``build`` enumerates the states reachable from
the start and writes ``next = trans[state * 10 + value - 1]``, so the kernel's machine loop
(``kernel._machine_rounds``) plays a round by drawing cards (the same lazy Fisher-Yates steps, in
the same order, as the fast path) and reading the table: the decisions that cost the fast path
mispredicted branches become table reads.

A round ends in a terminal state that records what the tally needs (the net, doubled, bust,
player blackjack, the dealer's outcome, an ace up); every state counts its visits, and the tally
is ``counts @ rows`` at the end of the chunk (``rows[state]``: what one visit adds; a visit is one
card, so cards dealt are counted too, and the first card seven adds Super Sevens line (a)). A
pair the strategy splits, or 7-7 under Super Sevens, leads to an exit state, from which the
kernel plays the round on in code (split hands walk the table, below; the exit's three visits
count the deal's cards). The rules are those of ``kernel._fast_rounds`` (lean version) and, for
those rounds, of the general path, which the tests hold the machine to, tally for tally, on the
same seeds.

Several boxes (``kernel._machine_boxes_rounds``) use the same table (boxes that play different
strategies: one table of all their machines, ``combine``, each box from its own start): each box
walks it through the deal and its hits (in the general path's order), the dealer plays once in
code, and each hand waiting for the dealer settles by one read of ``settle[state, dealer
outcome]``; the round's own tallies are counted by the kernel (``ROUND_FIELDS``,
``Machine.box_rows``). A box dealt a pair to split plays on: its exit state links to the split
hand's state (``("SH", value, up)``: one card, waiting for its second), which each of its hands
walks in turn; the same value again leads to a ``PAIR`` state, split again if the box has fewer
than ``max_hands`` hands, else linked to the hand played on as it is. Split hands take no
blackjack (11 (c)), split aces one card only (11 (b), unless ``hit_split_aces``), doubles only
with ``double_after_split``. The kernel settles a split box's hands itself (a dealer blackjack
is settled by box rules). 7-7 under Super Sevens links to the state its sevens row leads to
(the split hand's, flagged ``SPLIT_HAND``, or the hand of 14 played on); the kernel reads the
cards' suits for the line ((b), (c) at once if split, else the third card decides: 14, 14.4).
The tests hold all this to the general path's tally, on the same seeds.
"""

from __future__ import annotations

import numpy as np

from simulator import layout as L

# Flags of a state (``Machine.flags``).
TERMINAL = 1  # a round has just ended (a visit counts a round)
BOUNDARY = 2  # between rounds: the start state and every terminal
PLAYER = 4  # the next card is the player's (the deal, hits, the double's card)
DEALER = 8  # the hand is over and waits for the dealer's next card
STOOD = 16  # ... and it stood: the dealer plays on (12.3)
PAIR = 32  # a split hand was dealt its own value again: split again if the box may (11)
SPLIT_HAND = 64  # a split hand's first state (one card, its second next)

# The dealer's outcome, for settling hands at once (``Machine.settle``): 0 blackjack, 1 bust,
# 2..6 a total of 17..21, 7 stopped below 17 (no hand stood).
N_OUTCOMES = 8

# Tally fields of the round as a whole: with several boxes the kernel counts them per round.
ROUND_FIELDS = (
    L.T_ROUNDS, L.T_CARDS_DEALT, L.T_DEALER_BJ, L.T_DEALER_BUST, L.T_DEALER_17, L.T_DEALER_18,
    L.T_DEALER_19, L.T_DEALER_20, L.T_DEALER_21, L.T_RMAIN_SUM, L.T_RMAIN_SQ, L.T_RTOTAL_SUM,
    L.T_RTOTAL_SQ, L.T_SS_BETS, L.T_SS_A, L.T_SS_B, L.T_SS_C, L.T_SS_D, L.T_SS_E, L.T_SS_F,
    L.T_SS_SUM, L.T_SS_SQ, L.T_SS_RSUM, L.T_SS_RSQ,
)  # fmt: skip

_D_OUTCOME_NONE = 7


class Machine:
    """The tables of one (rules, strategy): ``trans`` (int16, n * 10), ``flags`` (int8, n),
    ``rows`` (int64, n x N_TALLY), ``net`` (int64, n: a terminal's net in tenths), ``settle``
    (int16, n x N_OUTCOMES: a waiting hand's terminal for each dealer outcome, any other state
    itself; several boxes), ``start`` and ``x_base`` (states from ``x_base`` on are exits: a pair
    to split, or 7-7 under Super Sevens, has been dealt), ``link`` (int16, n: an exit's first
    split hand, or for 7-7 under Super Sevens the state its sevens row leads to; a ``PAIR``
    state's hand played on unsplit, when the box has all its hands; -1 elsewhere) and ``hand``
    (int8, n: a terminal's 1 doubled + 2 bust)."""

    def __init__(self, trans, flags, rows, net, settle, start, x_base, link, hand):
        self.trans = trans
        self.settle = settle
        self.link = link
        self.hand = hand
        self.flags = flags
        self.rows = rows
        self.net = net
        self.start = start
        self.x_base = x_base

    def box_rows(self):
        """``rows`` for several boxes: only the terminals' per-box fields (a visit to a final
        state per box); the round's own fields (``ROUND_FIELDS``) the kernel counts itself."""
        rows = self.rows * (self.flags[:, None] & TERMINAL != 0)
        rows[:, list(ROUND_FIELDS)] = 0
        return rows


def _arrays(n):
    """A Machine's arrays for ``n`` states, empty: ``trans`` (n x 10), ``flags``, ``rows``,
    ``net``, ``settle`` (n x N_OUTCOMES), ``link`` (-1), ``hand``."""
    return (
        np.zeros((n, 10), np.int16), np.zeros(n, np.int8), np.zeros((n, L.N_TALLY), np.int64),
        np.zeros(n, np.int64), np.zeros((n, N_OUTCOMES), np.int16), np.full(n, -1, np.int16),
        np.zeros(n, np.int8),
    )  # fmt: skip


def eligible(p, flags_t) -> bool:
    """The lean game that the machine plays (see the module docstring), for the strategies' flags
    ``flags_t`` (insurance, even money: one row a box)."""
    return bool(
        p[L.P_HOLE] != L.HOLE_PEEK
        and p[L.P_SURRENDER] == L.SURRENDER_NONE
        and p[L.P_DRAW_NO_LIVE] == 0
        and not flags_t[:, 0].any()
        and not flags_t[:, 1].any()
    )


def _total(hard, ace):
    return hard + 10 if ace and hard + 10 <= 21 else hard


def build(p, hx_t, pairs_t, sevens_t) -> Machine:
    """The state machine for rule parameters ``p`` and the kernel's resolved action table by hard
    sum ``hx_t`` (``kernel._by_hard_sum``), pair table ``pairs_t`` and sevens row ``sevens_t``
    (one box's: shape (1, 10, 10) and (1, 10))."""
    from simulator import kernel as K
    from simulator.kernel import A_BUST, A_DOUBLE, A_HIT, A_STAND, HARD_MAX, N_VARIANTS

    unit = L.UNIT
    bj_win = int(p[L.P_BJ_WIN])
    h17 = bool(p[L.P_H17])
    dbj = int(p[L.P_DBJ])
    ss_on = bool(p[L.P_SS])
    pay_a = int(p[L.P_SS_PAY_A])
    max_hands = int(p[L.P_MAX_HANDS])
    das = int(p[L.P_DAS])
    rsa = int(p[L.P_RSA])
    hsa = int(p[L.P_HSA])

    def upi(u):
        return 9 if u == 1 else u - 2

    def act(ace, hard, u, variant):
        return int(hx_t[((ace * HARD_MAX + hard) * L.N_UP + upi(u)) * N_VARIANTS + variant])

    def splits(v, u):  # the pair table splits v-v (kernel: _decide)
        cell = pairs_t[0, v - 1, upi(u)]
        return not (max_hands < 2 or cell == L.N or (cell == L.PD and das == 0))

    def plays_pair(v, u):  # the fast path keeps the pair (kernel: pair_plays_fast)
        return not splits(v, u) and not (ss_on and v == 7)

    def sevens(u):
        # 7-7 under a Super Sevens bet: the sevens row's first decision (kernel: _decide), the
        # state it leads to (the split hand's, or the hand of 14 played on)
        code = int(sevens_t[0, upi(u)])
        if code == L.P:
            if max_hands >= 2:
                return sid(("SH", 7, u))
            a = act(0, 14, u, 2)  # no split possible: the hard table
        else:
            can_double = bool(K._double_on_allows(int(p[L.P_DOUBLE_ON]), False, 14))
            a = int(K._resolve(code, can_double, False, 14))
        if a == A_HIT:
            return sid(("P", 14, 0, u))
        if a == A_DOUBLE:
            return sid(("PD", 14, 0, u))
        assert a == A_STAND, a
        return dealer(14, unit, u)

    def stands(hard, ace):
        t = _total(hard, ace)
        return t > 17 or (t == 17 and not (h17 and t != hard))

    def outcome(hard, ace):
        t = _total(hard, ace)
        if t > 21:
            return 1
        return t - 15 if t >= 17 else _D_OUTCOME_NONE

    keys: dict = {}
    order: list = []

    def sid(key):
        if key not in keys:
            keys[key] = len(order)
            order.append(key)
        return keys[key]

    def terminal(net, doubled=0, bust=0, pbj=0, di=_D_OUTCOME_NONE, up_ace=0):
        return sid(("T", net, doubled, bust, pbj, di, up_ace))

    def dealer(t, w, u):
        # the player stood on total t with wager w; the dealer's second card is next
        return sid(("D", max(t, 16), w, int(u == 1), u, int(u == 1), 1))

    def bust(w, u):
        if u in (1, 10) and dbj == L.DBJ_ORIGINAL:
            return sid(("DBO", w, u))  # the dealer's second card decides (blackjack: -1 only)
        return terminal(-w, int(w == 2 * unit), 1, 0, outcome(u, u == 1), int(u == 1))

    def player(hard, ace, u, variant, w):
        a = act(ace, hard, u, variant)
        if a == A_HIT:
            return sid(("P", hard, ace, u))
        if a == A_DOUBLE:
            return sid(("PD", hard, ace, u))
        if a == A_STAND:
            return dealer(_total(hard, ace), w, u)
        assert a == A_BUST, a
        return bust(w, u)

    def split_hand(v, c, u):
        # the split hand v, c played on (not split again)
        hard, ace = v + c, int(v == 1 or c == 1)
        if v == 1 and not hsa:
            return dealer(_total(hard, ace), unit, u)  # 11 (b): no more cards
        return player(hard, ace, u, 2 if das else 0, unit)

    def trans(key, c):
        kind = key[0]
        if kind in ("S", "T"):
            return sid(("P1", c))
        if kind == "P1":
            return sid(("PU", key[1], c))
        if kind == "PU":
            v1, u = key[1], key[2]
            if v1 == c and not plays_pair(v1, u):
                return sid(("X", v1, u))
            hard = v1 + c
            ace = int(v1 == 1 or c == 1)
            if hard == 11 and ace:  # player blackjack (8.2)
                if u in (1, 10):
                    return sid(("BJ", u))
                return terminal(bj_win, pbj=1, di=outcome(u, False))
            return player(hard, ace, u, 2, unit)
        if kind == "SH":
            # A split hand (11) dealt its second card: no blackjack (11 (c)); a split ace takes
            # that one card (11 (b)); doubling only with double after split. The same value
            # again may be split again (``PAIR``: the kernel knows whether the box may).
            v, u = key[1], key[2]
            if c == v and (v != 1 or rsa) and splits(v, u):
                return sid(("SX", v, u))
            return split_hand(v, c, u)
        if kind == "BJ":
            u = key[1]
            dh, da = u + c, int(u == 1 or c == 1)
            if dh == 11 and da:
                return terminal(0, pbj=1, di=0, up_ace=int(u == 1))
            return terminal(bj_win, pbj=1, di=outcome(dh, da), up_ace=int(u == 1))
        if kind == "P":
            _, hard, ace, u = key
            hard += c
            ace = int(ace or c == 1)
            return player(hard, ace, u, 0, unit)
        if kind == "PD":
            _, hard, ace, u = key
            hard += c
            ace = int(ace or c == 1)
            if hard > 21:
                return bust(2 * unit, u)
            return dealer(_total(hard, ace), 2 * unit, u)
        if kind == "DBO":
            _, w, u = key
            dh, da = u + c, int(u == 1 or c == 1)
            if dh == 11 and da:
                return terminal(-unit, int(w == 2 * unit), 1, 0, 0, int(u == 1))
            return terminal(-w, int(w == 2 * unit), 1, 0, outcome(dh, da), int(u == 1))
        if kind == "D":
            _, t, w, up_ace, dh, da, n = key
            dh += c
            da = int(da or c == 1)
            doubled = int(w == 2 * unit)
            if n == 1 and dh == 11 and da:  # dealer blackjack on the second card
                net = -w if dbj == L.DBJ_ALL else -unit
                return terminal(net, doubled, 0, 0, 0, up_ace)
            if stands(dh, da):
                dt = _total(dh, da)
                sign = 1 if dt > 21 else (t > dt) - (t < dt)
                return terminal(sign * w, doubled, 0, 0, outcome(dh, da), up_ace)
            return sid(("D", t, w, up_ace, dh, da, 2))
        raise ValueError(f"machine: no transitions from {key}")

    def settle(key, o):
        # the terminal of a hand waiting for the dealer, given the dealer's outcome o
        kind = key[0]
        dbj = o == 0
        if kind == "BJ":
            u = key[1]
            return terminal(0 if dbj else bj_win, pbj=1, di=o, up_ace=int(u == 1))
        if kind == "DBO":
            _, w, u = key
            return terminal(-unit if dbj else -w, int(w == 2 * unit), 1, 0, o, int(u == 1))
        _, t, w, up_ace, dh, da, n = key  # a stood hand, the dealer to play out
        doubled = int(w == 2 * unit)
        if dbj:
            return terminal(-w if dbj_rule_all else -unit, doubled, 0, 0, 0, up_ace)
        if o == 1:
            return terminal(w, doubled, 0, 0, 1, up_ace)
        dt = o + 15 if o < _D_OUTCOME_NONE else 16
        return terminal(((t > dt) - (t < dt)) * w, doubled, 0, 0, o, up_ace)

    dbj_rule_all = dbj == L.DBJ_ALL
    sid(("S",))
    table = []
    settles = {}
    links = {}
    i = 0
    while i < len(order):
        key = order[i]
        if key[0] == "X":
            _, v, u = key
            links[key] = sevens(u) if ss_on and v == 7 else sid(("SH", v, u))
        elif key[0] == "SX":
            links[key] = split_hand(key[1], key[1], key[2])
        no_walk = key[0] in ("X", "SX")
        table.append([-1] * 10 if no_walk else [trans(key, c) for c in range(1, 11)])
        if key[0] in ("BJ", "DBO") or (key[0] == "D" and key[6] == 1):
            settles[key] = [settle(key, o) for o in range(N_OUTCOMES)]
        i += 1
    # Renumber: exits last.
    normal = [k for k in order if k[0] != "X"]
    exits = [k for k in order if k[0] == "X"]
    assert all(links[k] >= 0 for k in exits)  # the kernel plays every exit on from its link
    new = {k: j for j, k in enumerate(normal + exits)}
    n = len(order)
    assert n < 2**15, n  # int16 states: the table stays small (a few thousand states)
    trans_a, flags, rows, nets, settle_a, link, hand = _arrays(n)
    for k, old in keys.items():
        j = new[k]
        if k in links and links[k] >= 0:
            link[j] = new[order[links[k]]]
        if k[0] == "SX":
            flags[j] |= PAIR
        if k[0] == "SH":
            flags[j] |= SPLIT_HAND
        if k[0] not in ("X", "SX"):
            for c in range(10):
                trans_a[j, c] = new[order[table[old][c]]]
        rows[j, L.T_CARDS_DEALT] = 1
        settle_a[j] = [new[order[s]] for s in settles[k]] if k in settles else j
        if k[0] == "D" and k[6] == 1:
            flags[j] |= STOOD
        if k[0] in ("S", "T"):
            flags[j] |= BOUNDARY
        if k[0] in ("P1", "PU", "P", "PD", "SH"):
            flags[j] |= PLAYER
        if k[0] in ("D", "BJ", "DBO"):
            flags[j] |= DEALER
        if k[0] == "P1" and k[1] == 7 and ss_on:
            # Super Sevens (a): the first card a seven (the kernel moves a 7-7 to its line)
            rows[j, L.T_SS_A] += 1
            rows[j, L.T_SS_F] -= 1
            for f in (L.T_SS_SUM, L.T_SS_RSUM):
                rows[j, f] += pay_a + 1
            for f in (L.T_SS_SQ, L.T_SS_RSQ):
                rows[j, f] += pay_a * pay_a - 1
        if k[0] == "T":
            _, net, doubled, bust_, pbj, di, up_ace = k
            flags[j] |= TERMINAL
            nets[j] = net
            hand[j] = doubled + 2 * bust_
            row = rows[j]
            for f in (L.T_ROUNDS, L.T_BOX_ROUNDS, L.T_HANDS):
                row[f] += 1
            for f in (L.T_MAIN_SUM, L.T_RMAIN_SUM, L.T_TOTAL_SUM, L.T_RTOTAL_SUM):
                row[f] += net
            for f in (L.T_MAIN_SQ, L.T_RMAIN_SQ, L.T_TOTAL_SQ, L.T_RTOTAL_SQ):
                row[f] += net * net
            row[L.T_MAIN_WAGERED] += unit * (1 + doubled)
            row[L.T_WINS + int(net < 0) + 2 * int(net == 0)] += 1
            row[L.T_DOUBLES] += doubled
            row[L.T_BUSTS] += bust_
            row[L.T_PLAYER_BJ] += pbj
            if di == 0:
                row[L.T_DEALER_BJ] += 1
            elif di == 1:
                row[L.T_DEALER_BUST] += 1
            elif di < _D_OUTCOME_NONE:
                row[L.T_DEALER_17 + di - 2] += 1
            row[L.T_INS_OFFERED] += up_ace * (1 - pbj)
            row[L.T_EM_OFFERED] += up_ace * pbj
            if ss_on:  # (f) until the first card says (a)
                row[L.T_SS_BETS] += 1
                row[L.T_SS_F] += 1
                row[L.T_SS_SUM] -= 1
                row[L.T_SS_RSUM] -= 1
                row[L.T_SS_SQ] += 1
                row[L.T_SS_RSQ] += 1
    return Machine(
        trans_a.reshape(-1), flags, rows, nets, settle_a.reshape(-1), new[("S",)], len(normal),
        link, hand,
    )


def combine(machines: list) -> tuple:
    """One machine of several (boxes that play different strategies): each one's states
    renumbered into one table, the exits of all of them last (the kernel tells an exit by
    ``state >= x_base``). Returns ``(Machine, starts)``: ``starts[k]`` is machine ``k``'s start
    state in the table (the Machine's own ``start`` is the first's)."""
    total = sum(m.flags.size for m in machines)
    assert total < 2**15, total  # int16 states
    n_normal = sum(m.x_base for m in machines)
    maps = []
    off_normal, off_exit = 0, n_normal
    for m in machines:
        i = np.arange(m.flags.size)
        maps.append(np.where(i < m.x_base, off_normal + i, off_exit + i - m.x_base))
        off_normal += m.x_base
        off_exit += m.flags.size - m.x_base
    trans, flags, rows, nets, settle, link, hand = _arrays(total)
    for m, new in zip(machines, maps, strict=True):
        walks = np.arange(m.flags.size) < m.x_base  # exits have no transitions
        trans[new[walks]] = new[m.trans.reshape(-1, 10)[walks]]
        flags[new] = m.flags
        rows[new] = m.rows
        nets[new] = m.net
        settle[new] = new[m.settle.reshape(-1, N_OUTCOMES)]
        link[new] = np.where(m.link >= 0, new[np.maximum(m.link, 0)], -1)
        hand[new] = m.hand
    starts = [int(new[m.start]) for m, new in zip(machines, maps, strict=True)]
    combined = Machine(
        trans.reshape(-1), flags, rows, nets, settle.reshape(-1), starts[0], n_normal, link, hand
    )
    return combined, starts
