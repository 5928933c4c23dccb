"""The round loop: every game, in simulation (lazy shuffle, tally) and in stacked mode (the given
cards in order, one record per round), playing each box's hands by walking the machine's table
(``tables``) one card at a time. Design: "One round, in order" in ``docs/design.md``."""

from __future__ import annotations

import numpy as np

from simulator import layout as L
from simulator.jit import njit
from simulator.kernel import tally as T
from simulator.kernel.rng import (
    SLACK,
    WS_BEFORE,
    WS_END,
    WS_FAIL,
    WS_NEED_FULL,
    WS_POS,
    WS_ROUND_START,
    WS_SHUFFLES,
    WS_STACKED,
    take,
)  # fmt: skip
from simulator.kernel.tables import EXIT, NEED2, PAIR, PLAYER, SPLIT_HAND, STOOD

MAX_HANDS = 4  # rule-set limit on hands per box
SS_B, SS_C, SS_D, SS_E, SS_F = 1, 2, 3, 4, 5


@njit(inline="always")
def _value(code):
    """Blackjack value of a card code, ace = 1, ten-valued = 10."""
    return min((code >> 2) + 1, 10)


@njit(inline="always")
def _total(hard, ace):
    if ace != 0 and hard + 10 <= 21:
        return hard + 10
    return hard


@njit
def _walk_split(m, shoe, ws, stacked, n_cards, sp, b, s_x, max_hands, pos, end, s0, s1, s2, s3):
    """Box ``b``, which splits (exit ``s_x``), plays its hands in turn (11): each hand walks the
    table from the split hand's state (its second card dealt as it comes into play); its own
    value again splits again while the box has fewer than ``max_hands`` hands (``PAIR``), else
    is played on as it is. The hands' final states go to ``sp[b * MAX_HANDS + h]``; returns
    ``(hands, pos, end, s0, s1, s2, s3)``."""
    trans, flags, link = m[0], m[1], m[2]
    s_split = np.int64(link[s_x])
    nh = 2
    h = 0
    while h < nh:
        s = s_split
        while True:
            code, pos, end, s0, s1, s2, s3 = take(shoe, ws, stacked, n_cards, pos, end, s0, s1,
                                                  s2, s3)  # fmt: skip
            s = np.int64(trans[s * 10 + _value(code) - 1])
            f = flags[s]
            if (f & PAIR) != 0:
                if nh < max_hands:
                    nh += 1
                    s = s_split
                    continue
                s = np.int64(link[s])  # no more hands: played on as it is
                f = flags[s]
            if (f & PLAYER) == 0:
                break
        sp[b * MAX_HANDS + h] = s
        h += 1
    return nh, pos, end, s0, s1, s2, s3


@njit
def _settle_split(m, p, sp, b, nh, o, insured, uv, t, scratch):
    """Settle box ``b``'s ``nh`` split hands against dealer outcome ``o`` and add the box into
    ``t`` (``scratch`` too, zeroed first, for a record). Returns ``(main, ins)``."""
    kind, total, wager = m[4], m[5], m[6]
    main = 0
    wins = losses = pushes = doubles = busts = 0
    first_live = True
    for h in range(nh):
        s = sp[b * MAX_HANDS + h]
        k = np.int64(kind[s])
        w = np.int64(wager[s])
        net = T.hand_net(k, np.int64(total[s]), w, o, p[L.P_DBJ], p[L.P_BJ_WIN], h, first_live)
        if k == T.K_STOOD:
            first_live = False
        main += net
        wins += net > 0
        losses += net < 0
        pushes += net == 0
        doubles += w == 2 * L.UNIT
        busts += k == T.K_BUST
    ins = T.ins_net(insured, o, p[L.P_INS_WIN])
    bits = (T.X_INS_OFFERED if uv == 1 else 0) | (T.X_INS_TAKEN if insured else 0)
    wagered = L.UNIT * (nh + doubles)
    T.add_box(t, main, ins, bits, nh, wins, losses, pushes, doubles, busts, 0, wagered)
    scratch[:] = 0
    T.add_box(scratch, main, ins, bits, nh, wins, losses, pushes, doubles, busts, 0, wagered)
    return main, ins


@njit
def play_rounds(p, m, ins_flags, shoe, ws, rng, n_rounds, cut, tally, counts, out, trace):
    """Play up to ``n_rounds`` rounds (design: "One round, in order"); returns the rounds played.

    Simulation (``ws[WS_STACKED] == 0``): lazy Fisher-Yates dealing from ``shoe`` with the
    xoshiro256** state ``rng`` (advanced in place), the cut card or every-round shuffle (7.1);
    each box's final state and the dealer's outcome are counted in ``counts`` (the box's tally is
    ``counts @ rows`` at the end), the round's own fields and split boxes added to ``tally``.
    Stacked: ``shoe`` dealt in order while ``pos < cut``, one record a round into ``out``; a
    round that runs out of cards sets ``WS_FAIL`` and is not reported. ``trace`` (int8) is empty
    but in tests: simulated rounds' cards are appended to it in dealing order (a round dealt
    partly from reshuffled discards is not).
    ``m``: the machine's arrays (``tables.Machine.args``); ``ins_flags``: each box takes
    insurance (0/1)."""
    trans, flags, link, fin, net, insn, rows, start = (
        m[0], m[1], m[2], m[3], m[8], m[9], m[10], m[11]
    )  # fmt: skip
    peek_t = m[7]
    nb = p[L.P_BOXES]
    stacked = ws[WS_STACKED] != 0
    peek = p[L.P_HOLE] == L.HOLE_PEEK
    ss_on = p[L.P_SS] != 0
    max_hands = p[L.P_MAX_HANDS]
    h17 = p[L.P_H17] != 0
    draw_all = p[L.P_DRAW_NO_LIVE] != 0
    every_round = p[L.P_SHUFFLE] == L.SHUFFLE_EVERY_ROUND
    n_cards = shoe.size - SLACK
    no = T.N_OUTCOMES
    st = np.zeros(nb, np.int64)  # each box's state
    sp = np.zeros(nb * MAX_HANDS, np.int64)  # a split box's hands' states
    nsp = np.zeros(nb, np.int64)  # a split box's hands (0: not split)
    c1 = np.zeros(nb, np.int64)  # each box's first card
    line = np.full(nb, -1, np.int64)  # each box's Super Sevens line
    scratch = np.zeros(L.N_TALLY, np.int64)
    pos = ws[WS_POS]
    end = ws[WS_END]
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    traced = 0
    r = 0
    while r < n_rounds:
        if stacked:
            if pos >= cut:
                break
        elif ws[WS_NEED_FULL] != 0 or every_round or pos >= cut:
            pos = 0  # 7.1: the cut card came out, or every round, or a fresh chunk
            end = n_cards
            ws[WS_SHUFFLES] += 1
            ws[WS_NEED_FULL] = 0
        ws[WS_ROUND_START] = pos
        ws[WS_BEFORE] = 0
        # 1. The deal: a card to each box, the up card, a second card to each box (a hole card).
        for b in range(nb):
            code, pos, end, s0, s1, s2, s3 = take(shoe, ws, stacked, n_cards, pos, end, s0, s1,
                                                  s2, s3)  # fmt: skip
            c1[b] = code
            st[b] = trans[start[b] * 10 + _value(code) - 1]
        code, pos, end, s0, s1, s2, s3 = take(shoe, ws, stacked, n_cards, pos, end, s0, s1, s2,
                                              s3)  # fmt: skip
        uv = _value(code)
        d_hard = uv
        d_ace = np.int64(uv == 1)
        d_n = 1
        exits = 0
        for b in range(nb):
            st[b] = trans[st[b] * 10 + uv - 1]
        for b in range(nb):
            code, pos, end, s0, s1, s2, s3 = take(shoe, ws, stacked, n_cards, pos, end, s0, s1,
                                                  s2, s3)  # fmt: skip
            st[b] = trans[st[b] * 10 + _value(code) - 1]
            exits += flags[st[b]] & EXIT
            if ss_on:  # 14: (a) a first seven, (f) none; 7-7 (b) or (c) until a third card
                line[b] = SS_F
                if (c1[b] >> 2) == L.SEVEN_RANK:
                    line[b] = 0
                    if (code >> 2) == L.SEVEN_RANK:
                        line[b] = SS_C if (c1[b] & 3) == (code & 3) else SS_B
        if peek:
            code, pos, end, s0, s1, s2, s3 = take(shoe, ws, stacked, n_cards, pos, end, s0, s1,
                                                  s2, s3)  # fmt: skip
            d_hard += _value(code)
            d_ace |= np.int64(code < 4)
            d_n = 2
        d_bj = d_n == 2 and d_hard == 11 and d_ace != 0
        if d_bj:
            # 4. A peeked dealer blackjack ends the round before play.
            for b in range(nb):
                st[b] = peek_t[st[b]]
        else:
            # 6. Each box in turn, each hand to its end.
            for b in range(nb):
                s = np.int64(st[b])
                if exits != 0 and (flags[s] & EXIT) != 0:
                    s = np.int64(link[s])
                    if (flags[s] & SPLIT_HAND) != 0:
                        nsp[b], pos, end, s0, s1, s2, s3 = _walk_split(
                            m, shoe, ws, stacked, n_cards, sp, b, st[b], max_hands, pos, end,
                            s0, s1, s2, s3,
                        )  # fmt: skip
                        continue
                    if (flags[s] & PLAYER) != 0:  # 7-7 played on: its third card (14)
                        code, pos, end, s0, s1, s2, s3 = take(shoe, ws, stacked, n_cards, pos,
                                                              end, s0, s1, s2, s3)  # fmt: skip
                        if (code >> 2) == L.SEVEN_RANK:  # (d), (e) if all three one suit
                            suited = line[b] == SS_C and (code & 3) == (c1[b] & 3)
                            line[b] = SS_E if suited else SS_D
                        s = np.int64(trans[s * 10 + _value(code) - 1])
                while (flags[s] & PLAYER) != 0:
                    code, pos, end, s0, s1, s2, s3 = take(shoe, ws, stacked, n_cards, pos, end,
                                                          s0, s1, s2, s3)  # fmt: skip
                    s = np.int64(trans[s * 10 + _value(code) - 1])
                st[b] = s
        # 7. The dealer draws only as far as something depends on it (12.4), unless told to.
        need = 0
        for b in range(nb):
            if nsp[b] != 0:
                for h in range(nsp[b]):
                    need |= flags[sp[b * MAX_HANDS + h]]
            else:
                need |= flags[st[b]]
        if draw_all:
            need = NEED2 | STOOD
        if d_n == 1 and (need & NEED2) != 0:
            code, pos, end, s0, s1, s2, s3 = take(shoe, ws, stacked, n_cards, pos, end, s0, s1,
                                                  s2, s3)  # fmt: skip
            d_hard += _value(code)
            d_ace |= np.int64(code < 4)
            d_n = 2
            d_bj = d_hard == 11 and d_ace != 0
        if not d_bj and d_n == 2 and (need & STOOD) != 0:
            while True:  # 12.3: stand on 17 (hit soft 17 with dealer_hits_soft_17)
                t = _total(d_hard, d_ace)
                if t > 17 or (t == 17 and not (h17 and t != d_hard)):
                    break
                code, pos, end, s0, s1, s2, s3 = take(shoe, ws, stacked, n_cards, pos, end, s0,
                                                      s1, s2, s3)  # fmt: skip
                d_hard += _value(code)
                d_ace |= np.int64(code < 4)
                d_n += 1
        d_total = _total(d_hard, d_ace)
        o = T.outcome(d_bj, d_total)
        if ws[WS_FAIL] != 0:
            break
        drawn = ws[WS_BEFORE] + pos - ws[WS_ROUND_START]
        # 8. Settle, and add the round to the tally (or write its record).
        round_main = 0
        round_ins = 0
        for b in range(nb):
            if nsp[b] != 0:
                insured = uv == 1 and ins_flags[b] != 0
                main, ins = _settle_split(m, p, sp, b, nsp[b], o, insured, uv, tally, scratch)
                nsp[b] = 0
                if stacked:
                    T.write_box(out[r], b, scratch, line[b], p)
            else:
                i = np.int64(fin[st[b]]) * no + o
                main = net[i]
                ins = insn[i]
                if stacked:
                    T.write_box(out[r], b, rows[i], line[b], p)
                else:
                    counts[i] += 1
            round_main += main
            round_ins += ins
        if stacked:
            T.write_round(out[r], drawn, d_n, d_total, o)
        else:
            T.add_round(tally, p, nb, drawn, o, round_main, round_ins, line)
            if trace.size > 0 and ws[WS_NEED_FULL] == 0:
                for i in range(drawn):
                    if traced < trace.size:
                        trace[traced] = shoe[ws[WS_ROUND_START] + i]
                        traced += 1
        r += 1
    ws[WS_POS] = pos
    ws[WS_END] = end
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3
    return r
