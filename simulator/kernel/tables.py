"""The engine's tables from the rules and the strategies: a state machine of a box's hands, one
card a step (``trans[state * 10 + value - 1]``), every decision taken here once (``Builder.
decide``); a final state carries what it wins and adds to the tally by dealer outcome. For one
box ``walk_tables`` extends it to whole rounds. docs/design.md: "The engine"."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from simulator import layout as L
from simulator.jit import njit
from simulator.kernel import tally as T

# Flags of a state.
PLAYER = 1  # the next card is this hand's (a hit, the double's card, a split hand's second)
EXIT = 2  # a pair to split, or 7-7 under Super Sevens: played on from ``link``
NEED2 = 4  # the dealer's second card matters to this hand (or its box's insurance)
STOOD = 8  # the hand stood (or a blackjack waits, 8.2): the dealer draws to 17 (12.3)
PAIR = 16  # a split hand dealt its own value again: split again if the box may (11)
SPLIT_HAND = 32  # a split hand's first state (one card, its second next)
INDEX = 64  # a counter's hand the count's band decides: played on from ``alt`` (11.5: ``link``)
# Flags of the one-box round walk (``walk``).
TERMINAL = 1  # a round has just ended
BOUNDARY = 2  # between rounds: the start state and every terminal
DECIDE = 16  # a counter's ``INDEX`` state: played on from ``walt``
W_EXIT = 32  # a pair to split or 7-7 under Super Sevens: the round is played on in code
FIRST = 64  # DECIDE after the deal: insurance by the count too
SS77 = 4  # 7-7 under Super Sevens, not split, walked on: its line (b) or (c) by the suits
HIT3 = 8  # ... and its third card next: a seven moves the line to (d) or (e)
MOVES = ((0, 1), (0, 2), (1, 3), (2, 3), (2, 4))  # the line moves of a walked 7-7 (last states)

A_STAND, A_HIT, A_DOUBLE, A_SPLIT, A_SURRENDER, A_BUST = range(6)


@njit
def dealer_draws(needs, n, stands):
    """Does the dealer, holding ``n`` cards (``stands``: his total stands, 12.3), draw another
    against hands whose flags are ``needs`` (12.4): the second where one needs it (``NEED2``), a
    third or more where one stood (``STOOD``); with dealer_draws_when_no_live_box both always."""
    return (needs & NEED2) != 0 if n == 1 else (needs & STOOD) != 0 and not stands


total, blackjack = T.total.py_func, T.blackjack.py_func  # (3.2; settled in ``tally``)


class Builder:
    """Enumerates the states of every distinct strategy of the boxes under rules ``p``."""

    def __init__(self, p, tables, box_si, bands=0):
        self.p = p
        self.hard, self.soft, self.pairs, self.sevens, self.flags = tables
        self.keys: dict = {}
        self.order: list = []
        self.info: dict = {}  # key -> (kind, total, wager, flags, bits, link key)
        self.box_si = box_si  # each table's first copy (boxes with one strategy share states)
        self.bands = bands  # a counter's strategies a family (0: not a counter)
        self.alt: dict = {}  # an INDEX state's key -> its state under each strategy
        self.late = (1, 10) if p[L.P_HOLE] != L.HOLE_PEEK else ()  # up cards: blackjack seen late

    def decide(self, si, hard, ace, n, u, split=0, pair=0, surrender=False, sevens=False) -> int:
        """Strategy ``si``'s action for a hand (hard sum, ace, ``n`` cards, up ``u``; ``split``:
        the value its box split). Its first two cards: ``pair`` their value if a pair,
        ``surrender`` allowed, ``sevens`` 7-7 under a Super Sevens bet."""
        p = self.p
        t = total(hard, ace)
        if t > 21:
            return A_BUST
        if t == 21 or (split == 1 and not p[L.P_HSA]):
            return A_STAND  # 12.1 (a); 11 (b): one card to a split ace
        up = 9 if u == 1 else u - 2
        soft = t != hard
        rule = p[L.P_DOUBLE_ON]
        on_total = rule == L.DOUBLE_HARD or (9 if rule == L.DOUBLE_9_11 else 10) <= t <= 11
        can_double = (n == 2 and (not split or p[L.P_DAS])
                      and (rule == L.DOUBLE_ANY or not soft and on_total))
        code = (self.soft if soft else self.hard)[si, t, up]
        if sevens:  # 7-7 under a Super Sevens bet: the sevens row decides (14.4) ...
            code7 = self.sevens[si, up]
            if code7 == L.RP and surrender:
                return A_SURRENDER
            if code7 in (L.P, L.RP) and p[L.P_MAX_HANDS] > 1:
                return A_SPLIT
            code = code if code7 in (L.P, L.RP) else code7  # (... the hard row: may not split)
        elif pair:  # the pair chart: Rp surrenders where allowed, split or not (design.md)
            cell = self.pairs[si, pair - 1, up]
            if cell == L.RP and surrender:
                return A_SURRENDER
            if p[L.P_MAX_HANDS] > 1 and (cell in (L.P, L.RP) or cell == L.PD and p[L.P_DAS]):
                return A_SPLIT  # (else, or no split possible: the hard or soft row)
        act = {  # the table's code as the rules allow; 12.1 (d): 11 or less that would stand draws
            L.H: A_HIT,
            L.D: A_DOUBLE if can_double else A_HIT,
            L.DS: A_DOUBLE if can_double else A_STAND,
            L.RH: A_SURRENDER if surrender else A_HIT,
            L.RS: A_SURRENDER if surrender else A_STAND,
        }.get(int(code), A_STAND)
        return A_HIT if act == A_STAND and t <= 11 else act

    def canon(self, key):
        """A counter's hand is one state under every band's strategy, kept apart by its
        insurance family only when the up card is an ace (``step`` makes the choices)."""
        if not self.bands or key[0] == "I":
            return key
        u = 1 if key[0] == "EM" else 0 if key[0] in ("S", "P1") else key[-1]
        root = key[1] // self.bands * self.bands if u == 1 else 0
        return (key[0], self.box_si[root]) + key[2:]

    def state(self, key, kind=T.K_NONE, t=0, wager=0, flags=0, bits=0, link=None) -> int:
        """The number of state ``key``, numbered with its info when first seen."""
        key = self.canon(key)
        if key not in self.keys:
            self.keys[key] = len(self.order)
            self.order.append(key)
            self.info[key] = (kind, t, wager, flags, bits, link)
        return self.keys[key]

    def final(self, key, kind, t, w, need=0):
        """A final state (no blackjack; strategy ``key[1]``, up ``key[-1]``), ``NEED2`` if
        ``need`` or its box insured."""
        taken = key[-1] == 1 and bool(self.flags[key[1], 0])  # insurance, offered under an ace
        bits = (T.X_INS_OFFERED if key[-1] == 1 else 0) | (T.X_INS_TAKEN if taken else 0)
        return self.state(key, kind, t, w, need | (NEED2 if taken else 0), bits)

    def after(self, si, a, hard, ace, u, w=L.UNIT):
        """The state a decision leads to (a split: its first hand's, the pair half the hard sum)."""
        if a in (A_HIT, A_DOUBLE):
            return self.state(("P" if a == A_HIT else "PD", si, hard, ace, u), flags=PLAYER)
        if a == A_SPLIT:
            return self.state(("SH", si, hard // 2, u), flags=PLAYER | SPLIT_HAND)
        if a == A_STAND:
            t = max(total(hard, ace), 16)
            return self.final(("D", si, t, w, u), T.K_STOOD, t, w, STOOD | NEED2)
        if a == A_SURRENDER and self.p[L.P_SURRENDER] == L.SURRENDER_EARLY:
            return self.final(("ES", si, u), T.K_ES, 0, w)
        if a == A_SURRENDER:
            return self.final(("LS", si, u), T.K_LS, 0, w, NEED2 * (u in self.late))
        assert a == A_BUST, a
        need = self.p[L.P_DBJ] == L.DBJ_ORIGINAL and u in self.late
        return self.final(("BU", si, w, u), T.K_BUST, 0, w, NEED2 if need else 0)

    def dealt(self, si, v1, c, u):
        """The box's state after its first two cards (steps 2, 3 and the first decision)."""
        hard, ace = v1 + c, int(v1 == 1 or c == 1)
        if blackjack(hard, ace):  # blackjack (8.2); even money (8.3)
            bits = T.X_BJ | (T.X_EM_OFFERED if u == 1 else 0)
            if u == 1 and self.flags[si, 1]:
                return self.state(("EM", si), T.K_EM, 0, L.UNIT, 0, bits | T.X_EM)
            # 8.2: a blackjack waits for the dealer's second card, who then completes the hand
            need = NEED2 | STOOD if u in self.late else 0
            return self.state(("BJ", si, u), T.K_BJ, 0, L.UNIT, need, bits)
        sevens = bool(self.p[L.P_SS]) and v1 == 7 and c == 7
        a = self.decide(si, hard, ace, 2, u, pair=v1 if v1 == c else 0,
                        surrender=self.p[L.P_SURRENDER] != L.SURRENDER_NONE, sevens=sevens)
        s = self.after(si, a, hard, ace, u)
        if sevens or a == A_SPLIT:
            return self.state(("X", si, v1, self.order[s], u), flags=EXIT, link=self.order[s])
        return s

    def trans(self, key, c):
        kind, si = key[0], key[1]
        if kind == "S":
            return self.state(("P1", si, c))
        if kind == "P1":
            return self.state(("PU", si, key[2], c))
        if kind == "PU":
            return self.dealt(si, key[2], c, key[3])
        if kind == "SH":  # a split hand's second card: played on as it is, or split again
            v, u = key[2], key[3]
            hard, ace = v + c, int(v == 1 or c == 1)
            s = self.after(si, self.decide(si, hard, ace, 2, u, split=v), hard, ace, u)
            again = c == v and (v != 1 or self.p[L.P_RSA])  # the pair table decides (11, 11.5)
            if again and self.decide(si, hard, ace, 2, u, pair=v) == A_SPLIT:
                return self.state(("SX", si, v, self.order[s], u), flags=PAIR, link=self.order[s])
            return s
        _, _, hard, ace, u = key
        hard, ace = hard + c, int(ace or c == 1)
        if kind == "PD":  # 12.1 (b): one card to a doubled hand
            return self.after(si, A_BUST if hard > 21 else A_STAND, hard, ace, u, 2 * L.UNIT)
        return self.after(si, self.decide(si, hard, ace, 3, u), hard, ace, u)

    def step(self, key, c) -> int:
        """``trans``, or where a counter's strategies differ an ``INDEX`` state (``alt``: after
        the deal all strategies', later its family's)."""
        if not self.bands or key[0] not in ("PU", "P", "SH"):  # its next card brings a decision
            return self.trans(key, c)
        n = len(self.box_si)
        fam = 0 if key[0] == "PU" else key[1] // self.bands * self.bands
        sis = [self.box_si[j if key[0] == "PU" else fam + j % self.bands] for j in range(n)]
        alt = [self.trans((key[0], si) + key[2:], c) for si in sis]
        if len(set(alt)) == 1:
            return alt[0]
        self.alt[("I", key, c)] = alt
        pair = any(self.info[self.order[a]][3] & PAIR for a in alt)  # a pair to split or not
        return self.state(("I", key, c), flags=INDEX, link=("I", key, c) if pair else None)


# The engine's tables (``build``), in the order the compiled functions take them.
Machine = namedtuple("Machine", "trans flags link kind total wager peek net ins rows start "
                     "wtrans wflags wrows alt walt wtid wclass dstand sspay slot deal")  # fmt: skip


def first_boxes(tables) -> list[int]:
    """Each box's strategy as the first box of ``tables`` (``strategy.stack``) with its charts:
    where its figures are kept (``slot``)."""
    first: dict = {}
    return [first.setdefault(b"".join(t[b].tobytes() for t in tables), b)
            for b in range(tables[0].shape[0])]


def build(p, tables, bands: int = 0) -> Machine:
    """The machine for rules ``p`` and strategies ``tables`` (``strategy.stack``, one a box), or
    a counter's (``bands`` a family, then as many insured): ``INDEX`` state ``s`` under strategy
    ``j`` is ``alt[s * len(tables) + j]`` (walk: ``walt``). ``link``: an exit's or ``PAIR``'s state
    to play on; ``peek``: a box's final state after a peeked dealer blackjack; ``net``, ``ins``,
    ``rows`` (``tally.settle_box``) by ``s * N_OUTCOMES + o`` for final state ``s`` (final states
    numbered first); ``dstand[ace * 32 + hard]``: the dealer stands; ``sspay``: Super Sevens by
    line; ``wtid``: a walk terminal's class (its net and wager), ``wclass`` each class's ``wrows``
    row; ``slot``: each box's strategy's place in the tally (``layout.T_BY``)."""
    box_si = first_boxes(tables)
    bld = Builder(p, tables, box_si, bands)
    for si in dict.fromkeys(box_si):
        bld.state(("S", si))
        for u in range(1, 11):
            bld.final(("LIVE", si, u), T.K_LIVE, 0, L.UNIT)
    succ = {}
    for key in bld.order:  # every state reachable from the starts, breadth first (order grows)
        if key[0] not in ("X", "SX", "I") and bld.info[key][0] == T.K_NONE:
            succ[key] = [bld.step(key, c) for c in range(1, 11)]
    # Final states numbered first: a box's final state ``s`` is its settlement's row ``s * 8 + o``
    old = bld.order
    bld.order = sorted(old, key=lambda k: bld.info[k][0] == T.K_NONE)  # (stable)
    bld.keys = {k: i for i, k in enumerate(bld.order)}
    succ = {k: [bld.keys[old[s]] for s in v] for k, v in succ.items()}
    bld.alt = {k: [bld.keys[old[s]] for s in v] for k, v in bld.alt.items()}
    n = len(bld.order)
    assert n < 2**15, n  # int16 states
    info = [bld.info[k] for k in bld.order]
    kind, t, w, flags = np.array([i[:4] for i in info], np.int32).T.copy()  # each contiguous

    def peeked(k):
        """A peeked dealer blackjack (step 4): blackjack, even money and early surrender stand
        as they are (a 7-7 exit by its link); any other hand is live and loses 10."""
        k = bld.info[k][5] if k[0] == "X" else k
        stays = k[0] in ("S", "P1", "PU", "I", "BJ", "EM", "ES", "LIVE")
        return bld.keys[k if stays else ("LIVE", k[1], k[-1])]

    trans = np.array([succ.get(k, [0] * 10) for k in bld.order], np.int32)
    link = np.array([-1 if i[5] is None else bld.keys[i[5]] for i in info], np.int32)
    peek = np.array([peeked(k) for k in bld.order], np.int32)
    finals = [s for s, i in enumerate(info) if i[0] != T.K_NONE]
    assert finals and finals == list(range(len(finals))), "final states first"  # (state 0 a
    # final state: the round loop's hand after the last, never played, holds it)
    rows = np.zeros((len(finals) * T.N_OUTCOMES, L.N_TALLY), np.int64)
    net, ins = np.zeros((2, len(rows)), np.int64)
    for i in range(len(rows)):  # by (final state, outcome); its strategy's figures at its first box
        s, o = divmod(i, T.N_OUTCOMES)
        net[i], ins[i] = T.settle_box(rows[i], np.array([s]), 0, 1, kind, t, w, o, info[s][4], p,
                                     0 if bands else bld.order[s][1])  # fmt: skip
    slot = [0] * int(p[L.P_BOXES]) if bands else box_si  # a counter's boxes: the first's
    if not bands and len(box_si) == 1 or bands and p[L.P_BOXES] == 1 and p[L.P_HOLE] != L.HOLE_PEEK:
        wtrans, wflags, wrows, walt = walk_tables(bld, p, trans, rows, net, ins, peek)
    else:
        wtrans, wflags, walt = np.zeros(0, np.int16), np.zeros(0, np.int8), np.zeros(0, np.int16)
        wrows = np.zeros((0, L.N_TALLY), np.int64)
    wt = np.flatnonzero(wflags & TERMINAL)  # classed by what the counting tally adds:
    classed = wrows[wt][:, [L.T_RTOTAL_SUM, L.T_RINS_SUM, L.T_MAIN_WAGERED]]
    _, first, cls = np.unique(classed, axis=0, return_index=True, return_inverse=True)
    wtid = np.zeros(wflags.size, np.int64)
    wtid[wt] = cls.reshape(-1)
    start = np.array([bld.state(("S", si)) for si in slot], np.int64)
    v = np.arange(10)  # each box's state after the deal, by (first card, up card, second card)
    deal = trans.reshape(-1)[trans[trans[start[:, None], v][..., None], v][..., None] * 10 + v]
    sums = [total(i % 32, i // 32) for i in range(64)]  # the dealer's (ace, hard sum)
    dstand = [T.dealer_stands.py_func(t, t != i % 32, bool(p[L.P_H17])) for i, t in enumerate(sums)]
    return Machine(trans=trans.reshape(-1).astype(np.int16), flags=flags.astype(np.int8),
                   link=link, kind=kind, total=t, wager=w, peek=peek, net=net, ins=ins,
                   rows=rows, start=start,
                   wtrans=wtrans, wflags=wflags, wrows=wrows,
                   alt=alternatives(bld, bld.alt, n if bands else 0), walt=walt, wtid=wtid,
                   wclass=wrows[wt[first]], dstand=np.array(dstand, np.int8),
                   sspay=np.array([T.ss_net.py_func(i, p) for i in range(6)], np.int64),
                   slot=np.array(slot, np.int64), deal=deal.reshape(-1).astype(np.int16))


def alternatives(bld, alt, n):
    """``alt`` (an ``INDEX`` state's key -> its state by strategy) as ``n`` rows, flat."""
    out = np.zeros((n, len(bld.box_si)), np.int16)
    for k, a in alt.items():
        out[bld.keys[k]] = a
    return out.reshape(-1)


def walk_tables(bld, p, trans, rows, net, ins, peek_t) -> tuple:
    """``(wtrans, wflags, wrows, walt)`` of the one-box round walk (``play.walk``): the hand's
    states, then the dealer's cards, to a terminal per (settlement, outcome), then the next round.
    ``wrows[s]``: what a visit to ``s`` adds to the tally. Peek: the hole card a step (``HOLE``),
    carried along the hand (``WH``). A counter's ``INDEX`` states are ``DECIDE`` (``walt``). A
    7-7 not split under Super Sevens is its play's state, ``SS77``; the last states, ``MOVES``,
    move a Super Sevens bet between lines."""
    keys, order, hand = dict(bld.keys), list(bld.order), [bld.info[k] for k in bld.order]
    flags = {k: W_EXIT for k, i in bld.info.items() if i[3] & EXIT}  # and by kind, below
    peek, h17 = p[L.P_HOLE] == L.HOLE_PEEK, bool(p[L.P_H17])
    wants = NEED2 | STOOD if p[L.P_DRAW_NO_LIVE] else 0  # (what every hand needs, 12.4's key)
    draws = dealer_draws.py_func
    rep: dict = {}  # a settlement class's first final state

    def sid(key):  # a walk state's number, numbered when first seen
        if key not in keys:
            keys[key] = len(order)
            order.append(key)
        return keys[key]

    def cls(f):
        """What settles final state ``f`` (its hand and box), the same for many up cards."""
        rep.setdefault(hand[f][:5], f)
        return hand[f][:5]

    def dealer(c, dh, da, first=False):
        """The dealer holds ``dh`` (hard), ``da`` (ace; ``first``: 2 cards) against class ``c``."""
        if first and blackjack(dh, da):
            return sid(("T", c, T.O_BJ))
        t = total(dh, da)
        if draws(wants | c[3], 2, T.dealer_stands.py_func(t, t != dh, h17)):
            return sid(("DS", c, dh, da))
        return sid(("T", c, int(T.outcome.py_func(False, t))))

    def second(f, c, first=False):
        """The dealer's second card ``c`` against final state ``f`` (even money's up: an ace)."""
        u = 1 if order[f][0] == "EM" else order[f][-1]
        return dealer(cls(f), u + c, int(u == 1 or c == 1), first)

    def walk_of(s, hole=None):
        """The walk's state for the hand machine's state ``s`` (after the peek game's ``hole``
        card: the hand's state with the hole card carried along, or the dealer's play)."""
        if hand[s][0] == T.K_NONE:
            return s if hole is None else sid(("WH", s, hole))
        if hole is not None:
            return second(s, hole)
        if draws(wants | hand[s][3], 1, False):
            return sid(("W2", s))  # the dealer's second card is next
        return sid(("T", cls(s), T.O_NONE))  # settled by the up card alone

    def step(key, c):
        kind = key[0]
        if kind in ("T", "S"):  # the next round's first card (its first box's start)
            return int(trans[keys[("S", 0)], c - 1])
        if kind == "W2":
            return second(key[1], c, True)
        if kind == "DS":
            return dealer(key[1], key[2] + c, int(key[3] or c == 1))
        if kind == "HOLE":  # the hole card: a peeked blackjack ends the round (step 4)
            _, post, u = key
            if hand[post][3] & EXIT:
                return post  # the loop plays the peek itself
            if blackjack(u + c, u == 1 or c == 1):
                return sid(("T", cls(int(peek_t[post])), T.O_BJ))
            return walk_of(post, c)
        if kind == "WH":  # the peek game's hands, the hole card carried along
            return walk_of(int(trans[key[1], c - 1]), key[2])
        s = int(trans[keys[key], c - 1])
        return sid(("HOLE", s, key[3])) if kind == "PU" and peek else walk_of(s)

    walt = {k: [walk_of(s) for s in a] for k, a in bld.alt.items()}
    flags.update({k: DECIDE | (FIRST if k[1][0] == "PU" else 0) for k in walt})
    on = {}  # a 7-7 not split under Super Sevens (no peek, no counter): walked on as its link
    if p[L.P_SS] and not peek and not bld.bands:
        on = {k: walk_of(keys[i[5]]) for k, i in bld.info.items()
              if k[0] == "X" and not bld.info[i[5]][3] & SPLIT_HAND}
        flags.update({k: SS77 | (HIT3 if bld.info[k[3]][3] & PLAYER else 0) for k in on})
    table = []  # ten next states a state, flat
    for i, k in enumerate(order):  # (the order grows as the walk reaches new states)
        walks = k[0] in ("S", "P1", "PU", "P", "PD", "T", "W2", "DS", "HOLE", "WH")
        table += ([step(order[on[k]], c) for c in range(1, 11)] if k in on else
                  [step(k, c) for c in range(1, 11)] if walks else [i] * 10)
    order += [("MV", m) for m in MOVES]  # (no card leads to them: a walked 7-7's line moves)
    table += [0] * 10 * len(MOVES)
    n = len(order)
    assert n < 2**15, n  # int16 states: the table stays small (a few thousand states)
    by_kind = {"S": BOUNDARY, "T": TERMINAL | BOUNDARY}
    wflags = [flags.get(k, 0) | by_kind.get(k[0], 0) for k in order]
    wrows = np.zeros((n, L.N_TALLY), np.int64)
    wrows[:, L.T_CARDS_DEALT] = 1  # a visit is a card
    pay = [int(T.ss_net.py_func(i, p)) for i in range(6)]

    def move(row, a, b):  # a box's Super Sevens bet moved from line a to line b
        T.add_ss.py_func(row, a, -1, pay[a], 0)
        T.add_ss.py_func(row, b, 1, pay[b], 0)
        row[[L.T_SS_RSUM, L.T_SS_RSQ]] += (pay[b] - pay[a], pay[b] ** 2 - pay[a] ** 2)

    for (a, b), row in zip(MOVES, wrows[n - len(MOVES):], strict=True):  # a walked 7-7's
        row[L.T_CARDS_DEALT] = 0
        move(row, a, b)
    for row, k in zip(wrows, order, strict=True):
        if k[0] == "P1" and k[2] == 7 and p[L.P_SS]:  # Super Sevens (a): the first card a seven
            move(row, 5, 0)
        if k[0] == "T":  # the box's and the round's fields, Super Sevens (f) until (a) is seen
            i = rep[k[1]] * T.N_OUTCOMES + k[2]
            row += rows[i]
            T.add_round.py_func(row, 0, k[2], int(net[i]), int(ins[i]), pay[5] if p[L.P_SS] else 0)
    for k, c in on.items():  # a walked 7-7 is its link's state, its line moved in the walk
        wrows[keys[k]] = wrows[c]
        wflags[keys[k]] |= wflags[c]
    wflags = np.array(wflags, np.int8)
    return np.array(table, np.int16), wflags, wrows, alternatives(bld, walt, n if walt else 0)
