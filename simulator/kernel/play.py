"""The round loop (every game, simulation and stacked mode) and the one-box walks: each box's hands
walk the machine's table (``tables``) a card at a time. docs/design.md: "One round, in order"."""

from __future__ import annotations

import numpy as np

from simulator import layout as L
from simulator.jit import njit
from simulator.kernel import count as C
from simulator.kernel import rng as R
from simulator.kernel import tables as M
from simulator.kernel import tally as T
from simulator.kernel.rng import SLACK, take, value

MAX_HANDS = 4  # rule-set limit on hands per box
# At most the cards of a one-box round that does not split: the deal and the hole card, 21 hits
# of an ace (a hand hits at a hard sum of 20 or less), 16 of the dealer's; rounded up.
WALK_CARDS = 49
WALK_DONE, WALK_NEAR, WALK_EXIT = 0, 1, 2  # why ``walk`` returned
SS_B, SS_C, SS_D, SS_E, SS_F = 1, 2, 3, 4, 5


@njit(inline="always")
def _round_start(ws, pos, end, need_full, cut_at, n_cards):
    """7.1 at a round's start: shuffle when the cut card came out (or every round, or for a
    fresh chunk). Returns ``(pos, end, need_full)``."""
    if need_full != 0 or pos >= cut_at:
        ws[R.WS_SHUFFLES] += 1
        return 0, n_cards, 0
    return pos, end, need_full


@njit(_nrt=False)
def _add_rounds(rec, n, cx, cs, wtid, end, decks, ss_on, shoe):
    """Bet the ``n`` rounds ``walk`` recorded (``rec[i]``: round ``i``'s running count, sevens
    marked, above bit 24, its first card's place above bit 15 and, in ``rec[i + 1]``, its terminal
    below: places < 512, 8 decks at most; states < 2**15) by ``count.bet_table`` into ``walked``."""
    ci, ctab, tg, ramp_v, ct, ev, walked, bt, nets = cx
    seated, lo, top = cs[C.CS_SEATED], ci[C.CI_RC_LO], bt.shape[0] - 1
    exact = ss_on and ev.size > 0
    staked = False  # a plan staking Super Sevens at some count
    for v in ramp_v[C.R_SS]:
        staked = staked or (exact and v > 0)
    for i in range(n):
        w = rec[i]
        rc, sevens = C.running(w >> 24)
        at = (w >> 15) & 511
        left = end - at
        a, b = np.uint64(min(max(left, 1), top)), np.uint64(rc - lo)
        x0, x1 = np.int64(bt[a, b, 0]), np.int64(bt[a, b, 1])
        x = x0 + seated * (x1 - x0)  # (both read: no round waits on the last one's lookup)
        seated = x & 1
        seven = np.int64((shoe[np.uint64(at)] >> 2) == L.SEVEN_RANK)
        walked[np.uint64((x >> 7) + wtid[np.uint64(rec[i + 1] & 32767)] * 2 + seven)] += 1
        if exact:  # (the counter's stake: its ramp's step at the count, 0 sitting out)
            ss_bet = 0
            if staked:
                k = C.field(C.said(ci, ctab, w >> 24, left), C.E_RAMP + 8 * C.R_SS)
                ss_bet = ramp_v[C.R_SS, k] * seated
            C.add_exact(ct, np.uint64((x >> 1) & 0x3F), ev, C.exact_at(left, sevens, decks), 1,
                        ss_bet)  # fmt: skip
    cs[C.CS_SEATED] = seated


@njit(_nrt=False)
def walk(wtrans, wflags, wcounts, wtid, walt, rec, shoe, ws, r, n_rounds, cut_at, peek, start, pos,
         end, s0, s1, s2, s3, cx, cs, ss_on, decks):  # fmt: skip
    """One box, simulation: rounds walk ``tables.walk_tables``, a lazy Fisher-Yates step and a
    table read a card, visits counted in ``wcounts``. Returns ``(r, pos, end, s0, s1, s2, s3,
    why, state)``: ``WALK_DONE`` (``n_rounds`` played), or the loop plays the round: ``WALK_NEAR``
    (under ``WALK_CARDS`` left), ``WALK_EXIT`` (dealt to ``state``, uncounted). A counter (``cx``,
    ``cs``; no peek): the count card by card, ``DECIDE`` states by it (``walt``), rounds in
    ``rec``, bet (``_add_rounds``) before a shuffle and on return."""
    n_cards = shoe.size - SLACK
    need_full = ws[R.WS_NEED_FULL]
    lim = -1 if need_full != 0 else min(cut_at, end - WALK_CARDS + 1)
    s = start
    n = np.int64(0)  # rounds played (a counter's: recorded) since the last shuffle
    room = n_rounds - r  # rounds to play
    why = WALK_DONE
    if cx is not None:
        ci, ctab, tg, ramp_v, ct, ev, walked, bt, nets = cx
        nt = walt.size // wflags.size
        C.count_now(ci, ctab, tg, cs, shoe, ws, pos, end)  # (the count's shuffles are the shoe's)
        rcp = cs[C.CS_RC]  # the running count (sevens marked), card by card
        rec[0] = (rcp << 24) | (pos << 15)
    while n < room:
        if pos >= lim and (wflags[np.uint64(s)] & M.BOUNDARY) != 0:  # shuffle, or too few cards
            if cx is not None:
                _add_rounds(rec, n, cx, cs, wtid, end, decks, ss_on, shoe)
            r, room, n = r + n, room - n, 0
            shuffles = ws[R.WS_SHUFFLES]
            pos, end, need_full = _round_start(ws, pos, end, need_full, cut_at, n_cards)
            lim = min(cut_at, end - WALK_CARDS + 1)
            if cx is not None:
                rcp = ci[C.CI_IRC] if ws[R.WS_SHUFFLES] != shuffles else rcp  # a fresh count
                rec[0] = (rcp << 24) | (pos << 15)
            if end - pos < WALK_CARDS:
                why = WALK_NEAR
                break
        # Rounds take 3 cards at least (the one under way, 1): those left cannot end before ``stop``
        stop = min(lim, pos + 3 * (room - n) - 2)
        while True:  # to a decision, an exit, ``stop``
            code, pos, end, s0, s1, s2, s3 = take(shoe, None, False, pos, end, s0, s1, s2, s3)
            v = np.uint64(value(code) - 1)
            s = np.int64(wtrans[np.uint64(s * 10) + v])
            wcounts[np.uint64(s)] += 1
            f = np.int64(wflags[np.uint64(s)])
            if cx is not None:
                rcp += tg[v]
                rec[np.uint64(n + 1)] = (rcp << 24) | (pos << 15) | s  # the next round's start
            n += f & M.TERMINAL
            if (f & (M.W_EXIT | M.SS77 | M.DECIDE)) != 0 or pos >= stop:
                break
        if cx is None and (f & M.SS77) != 0:  # 14: 7-7 walked on: (b), or (c) suited, moved
            mv = wcounts.size - len(M.MOVES)  # (the moves' states, in MOVES' order)
            suited = np.int64((shoe[pos - 3] & 3) == (shoe[pos - 1] & 3))
            wcounts[np.uint64(mv + suited)] += 1
            if (f & M.HIT3) != 0:  # its third card: a seven moves it on to (d), or (e) suited
                code, pos, end, s0, s1, s2, s3 = take(shoe, None, False, pos, end, s0, s1, s2, s3)
                s = np.int64(wtrans[np.uint64(s * 10 + value(code) - 1)])
                wcounts[np.uint64(s)] += 1
                f = np.int64(wflags[np.uint64(s)])
                n += f & M.TERMINAL
                if (code >> 2) == L.SEVEN_RANK:
                    e = suited & np.int64((code & 3) == (shoe[pos - 4] & 3))
                    wcounts[np.uint64(mv + 2 + suited + e)] += 1
            continue
        if cx is not None and (f & M.DECIDE) != 0:  # the count decides (its visit the card's)
            e = C.said(ci, ctab, rcp, end - pos)
            if (f & M.FIRST) != 0:
                C.decided(ci, cs, e)
            wcounts[np.uint64(s)] -= 1
            s = np.int64(walt[s * nt + cs[C.CS_FAM] * ci[C.CI_BANDS] + C.field(e, C.E_BAND)])
            wcounts[np.uint64(s)] += 1
            f = np.int64(wflags[np.uint64(s)])
            rec[n + 1] = (rcp << 24) | (pos << 15) | s  # the next round's start
            n += f & M.TERMINAL
        if (f & M.W_EXIT) != 0:  # left to the loop after its deal: its visits taken back
            t = start
            for i in range(pos - 4 if peek else pos - 3, pos - 1):
                t = np.int64(wtrans[t * 10 + value(np.int64(shoe[i])) - 1])
                wcounts[t] -= 1
            wcounts[s] -= 1
            why = WALK_EXIT
            break
    ws[R.WS_NEED_FULL] = need_full
    if cx is not None:
        _add_rounds(rec, n, cx, cs, wtid, end, decks, ss_on, shoe)
        cs[C.CS_SHUFFLES] = ws[R.WS_SHUFFLES]
        if why == WALK_EXIT:  # the bets of the round left to the loop, at the count at its start
            cs[C.CS_RC], cs[C.CS_SEEN] = rec[n] >> 24, (rec[n] >> 15) & 511
            C.round_start(ci, ctab, tg, ramp_v, cs, shoe, ws, cs[C.CS_SEEN], end, decks)
        cs[C.CS_RC], cs[C.CS_SEEN] = rcp, pos
    return r + n, pos, end, s0, s1, s2, s3, why, s


@njit
def work_arrays(p):
    """``play_rounds``' work arrays (it allocates none: no reference counts): by box and hand, a
    box's tally, Super Sevens lines and rounds by strategy, a counter's state and walk records."""
    return (np.zeros((10, p[L.P_BOXES] * MAX_HANDS + 1), np.int64), np.zeros(L.N_TALLY, np.int64),
            np.zeros((7, 6), np.int64), np.zeros((2, 7), np.int64), np.zeros(C.N_CS, np.int64),
            np.zeros(52 * p[L.P_DECKS] // 3 + 4, np.int64))  # fmt: skip


@njit(_nrt=False)
def play_rounds(p, m, cx, ins_flags, shoe, ws, rng, n_rounds, cut, tally, counts, wcounts, out,
                trace, wk):  # fmt: skip
    """Up to ``n_rounds`` rounds (design: "One round, in order") off a new shoe (``ws``); returns
    the rounds played. Simulation (``out`` None): lazy Fisher-Yates from the xoshiro256** ``rng``;
    unsplit boxes counted by (final state, outcome) in ``counts``, the rest into ``tally``; one box
    walks (``walk``, visits in ``wcounts``). Stacked: ``shoe`` in order while ``pos < cut``, a
    record a round into ``out``. ``trace`` (tests): the rounds' cards, but a round's dealt partly
    from reshuffled discards. ``m``: ``tuple(tables.Machine)``; ``cx``: a counter's arrays, or
    None; ``ins_flags``: each box insures; ``wk``: ``work_arrays(p)``."""
    (trans, flags, link, kind, total, wager, peek_t, net, insn, rows, start, wtrans, wflags,
     _, alt, walt, wtid, _, d_stands, ss_pay, slot, deal) = m  # fmt: skip
    nb = p[L.P_BOXES]
    stacked = out is not None  # (``out is None``: the records' code left out when compiled)
    peek = p[L.P_HOLE] == L.HOLE_PEEK
    ss_on = p[L.P_SS] != 0
    cut_at = 0 if p[L.P_SHUFFLE] == L.SHUFFLE_EVERY_ROUND else cut  # 7.1: shuffle from there
    box, scratch, lines, by_round, cs, rec = wk  # rec: a counter's walk's round records
    box[:], lines[:], by_round[:], cs[:] = 0, 0, 0, 0
    # Box b's hands' states: hs[b * MAX_HANDS + h]; todo[:n_play]: the hands to play this round in
    # order, then the last, not played (its state 0, a final state: not PLAYER). By box: st its
    # state after the deal, nsp a split box's hands (else 0), c1 and c2 its first two cards, line
    # its Super Sevens line, insb it insures, fam its strategies' family (a counter's, insured),
    # declined it refused a split.
    # (Rows by index: unpacked, numba types them as arrays of any layout, slower to index.)
    hs, todo, st, nsp, c1, c2 = box[0], box[1], box[2], box[3], box[4], box[5]
    line, insb, fam, declined = box[6], box[7], box[8], box[9]
    for b in range(nb):
        line[b], insb[b] = -1, ins_flags[b]
    # lines: boxes moved from Super Sevens line (f), by strategy; by_round: this round's total
    # and Super Sevens, by strategy (boxes of several strategies: each one's per-round squares).
    multi = slot.sum() > 0  # (slots >= 0)
    pos, end = np.int64(0), shoe.size - SLACK  # (np.int64: a literal 0 compiles callees twice)
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    nbr = nb  # boxes this round
    walking = not stacked and wtrans.size > 0 and trace.size == 0
    if cx is not None:  # (``cx is None``: the counter's code is left out when compiled)
        ci, ctab, tg, ramp_v, ct, ev, walked, bt, nets = cx
        nt = alt.size // flags.size  # the counter's strategies
        cs[C.CS_SHUFFLES] = -1
        walking = walking and walked.size > 0
    s_dealt = traced = r = np.int64(0)
    while r < n_rounds:
        why = WALK_NEAR
        if walking:
            r, pos, end, s0, s1, s2, s3, why, s_dealt = walk(wtrans, wflags, wcounts, wtid, walt,
                rec, shoe, ws, r, n_rounds, cut_at, peek, start[0], pos, end, s0, s1, s2, s3, cx,
                cs, ss_on, p[L.P_DECKS])  # fmt: skip
            if why == WALK_DONE:
                break
        ws[R.WS_BEFORE] = 0  # (a refill mid-round sets it)
        if why == WALK_EXIT:  # the walk dealt this round (in place from its start) and left it
            rs = pos - 4 if peek else pos - 3
            ws[R.WS_ROUND_START] = rs
            c1[0] = shoe[rs]
            uv = value(np.int64(shoe[rs + 1]))
            c2[0] = shoe[rs + 2]
            st[0] = s_dealt
            if cx is not None:  # the walk's bets and insurance for this round
                fam[0] = cs[C.CS_FAM]
                insb[0] = fam[0] if ci[C.CI_INS] != 0 else ins_flags[0]
        else:
            if stacked and pos >= cut:
                break
            if not stacked:
                pos, end, ws[R.WS_NEED_FULL] = _round_start(ws, pos, end, ws[R.WS_NEED_FULL],
                                                            cut_at, shoe.size - SLACK)
            ws[R.WS_ROUND_START] = pos
            if cx is not None:  # the counter's bets and boxes, at the count before the deal
                nbr = C.round_start(ci, ctab, tg, ramp_v, cs, shoe, ws, pos, end, p[L.P_DECKS])
            for b in range(nbr):  # 1. The deal: a card a box, the up card, a card a box
                c1[b], pos, end, s0, s1, s2, s3 = take(shoe, ws, stacked, pos, end, s0, s1, s2, s3)
            code, pos, end, s0, s1, s2, s3 = take(shoe, ws, stacked, pos, end, s0, s1, s2, s3)
            uv = value(code)
            for b in range(nbr):  # the box's state after its two cards and the up card: one read
                code, pos, end, s0, s1, s2, s3 = take(shoe, ws, stacked, pos, end, s0, s1, s2, s3)
                c2[b] = code
                st[b] = deal[np.uint64(slot[b] * 1000 + value(np.int64(c1[b])) * 100 + uv * 10
                                       + value(code) - 111)]
            if cx is not None:  # the first decisions and insurance, at the count after the deal
                t = C.decided(ci, cs, C.count_now(ci, ctab, tg, cs, shoe, ws, pos, end))
                for b in range(nbr):
                    fam[b] = cs[C.CS_FAM]
                    insb[b] = fam[b] if ci[C.CI_INS] != 0 else ins_flags[b]
                    if (flags[st[b]] & M.INDEX) != 0:
                        st[b] = alt[st[b] * nt + t]
        d_hard = uv
        d_ace = np.int64(uv == 1)
        d_n = 1
        if peek:
            if why == WALK_EXIT:
                code = np.int64(shoe[pos - 1])
            else:
                code, pos, end, s0, s1, s2, s3 = take(shoe, ws, stacked, pos, end, s0, s1, s2, s3)
            d_hard += value(code)
            d_ace |= np.int64(code < 4)
            d_n = 2
            if cx is not None:  # not seen until the dealer's play
                cs[C.CS_HID_TAG], cs[C.CS_HID_N] = tg[value(code) - 1], 1
        d_bj = peek and T.blackjack(d_hard, d_ace)
        need = M.NEED2 | M.STOOD if p[L.P_DRAW_NO_LIVE] != 0 else 0  # what step 7 draws for
        n_play, ssr = 0, nbr * ss_pay[SS_F] if ss_on else 0  # ssr: the round's Super Sevens
        for b in range(nbr):
            s = np.int64(st[b])
            f = flags[np.uint64(s)]
            need |= f  # a final state's NEED2 and STOOD (the other flags are not read)
            hs[b * MAX_HANDS] = s
            todo[np.uint64(n_play)] = b * MAX_HANDS
            n_play += (f & (M.PLAYER | M.EXIT)) != 0
            if (f & M.EXIT) != 0 and (flags[link[s]] & M.SPLIT_HAND) != 0 and not d_bj:
                hs[b * MAX_HANDS] = hs[b * MAX_HANDS + 1] = link[s]  # 11: two hands, in turn
                todo[n_play] = b * MAX_HANDS + 1
                n_play += 1
                nsp[b] = 2
            if ss_on:  # 14: (a) a first seven, (f) none; 7-7 (b) or (c) until a third card
                line[b] = SS_F
                if (c1[b] >> 2) == L.SEVEN_RANK:
                    x2 = np.int64((c2[b] >> 2) == L.SEVEN_RANK)
                    line[b] = x2 * (SS_B + np.int64((c1[b] & 3) == (c2[b] & 3)))
                    lines[slot[b], SS_F] -= 1  # (the box's tally row has it on (f))
                    lines[slot[b], line[b]] += 1
                    ssr += ss_pay[line[b]] - ss_pay[SS_F]
        todo[n_play] = nb * MAX_HANDS
        if d_bj:  # 4. A peeked dealer blackjack ends the round before play.
            for b in range(nbr):
                hs[b * MAX_HANDS] = peek_t[st[b]]
        else:
            # 6. Each box in turn, each hand to its end: one loop takes the cards of ``todo``'s
            # hands without a branch on the cards, leaving it at 7-7 (14) or a split pair again.
            j = 0
            while j < n_play:
                q = todo[np.uint64(j)]
                b = q // MAX_HANDS
                s = np.int64(hs[np.uint64(q)])
                if (flags[np.uint64(s)] & M.PAIR) != 0:  # split again (a hand after the last)?
                    if nsp[b] < p[L.P_MAX_HANDS] and declined[b] == 0:  # (declined: a counter's)
                        for i in range(n_play, j + nsp[b] - q % MAX_HANDS - 1, -1):
                            todo[i + 1] = todo[i]
                        todo[j + nsp[b] - q % MAX_HANDS] = b * MAX_HANDS + nsp[b]
                        n_play += 1
                        s = np.int64(link[st[b]])
                        hs[b * MAX_HANDS + nsp[b]] = s
                        nsp[b] += 1
                    else:
                        s = np.int64(link[s])  # played on as it is
                elif (flags[np.uint64(s)] & M.EXIT) != 0:
                    s = np.int64(link[s])
                    if (flags[s] & M.PLAYER) != 0:  # 7-7 played on: its third card (14)
                        code, pos, end, s0, s1, s2, s3 = take(shoe, ws, stacked, pos, end, s0,
                                                              s1, s2, s3)  # fmt: skip
                        if (code >> 2) == L.SEVEN_RANK:  # (d), (e) if all three one suit
                            suited = line[b] == SS_C and (code & 3) == (c1[b] & 3)
                            lines[slot[b], line[b]] -= 1
                            ssr -= ss_pay[line[b]]
                            line[b] = SS_E if suited else SS_D
                            lines[slot[b], line[b]] += 1
                            ssr += ss_pay[line[b]]
                        s = np.int64(trans[s * 10 + value(code) - 1])
                        if cx is not None and (flags[s] & M.INDEX) != 0:
                            s = np.int64(alt[s * nt + C.table_at(ci, ctab, tg, cs, shoe, ws,
                                                                 pos, end, fam[b])])  # fmt: skip
                hs[np.uint64(q)] = s
                need |= flags[np.uint64(s)]
                if (flags[np.uint64(s)] & M.PLAYER) == 0:
                    j += 1
                    continue
                while True:
                    code, pos, end, s0, s1, s2, s3 = take(shoe, ws, stacked, pos, end, s0, s1, s2,
                                                          s3)  # fmt: skip
                    s = np.int64(trans[np.uint64(s * 10 + value(code) - 1)])
                    f = flags[np.uint64(s)]
                    if cx is not None and (f & M.INDEX) != 0:
                        b, x = todo[j] // MAX_HANDS, s
                        s = np.int64(alt[x * nt + C.table_at(ci, ctab, tg, cs, shoe, ws, pos,
                                                             end, fam[b])])  # fmt: skip
                        f = flags[np.uint64(s)]
                        if (f & M.PAIR) == 0 and link[x] >= 0:  # a pair declined (11.5)
                            declined[b] = 1
                    need |= f
                    hs[np.uint64(todo[np.uint64(j)])] = s
                    done = np.int64((f & (M.PLAYER | M.PAIR)) == 0)  # a PAIR leaves the loop
                    nxt = np.int64(hs[np.uint64(todo[np.uint64(j + 1)])])
                    j += done
                    s += done * (nxt - s)
                    if (flags[np.uint64(s)] & M.PLAYER) == 0:
                        break
        if cx is not None:
            cs[C.CS_HID_TAG] = cs[C.CS_HID_N] = 0  # the hole card is turned
        # 7. The dealer draws only as far as something depends on it (12.4), unless told to.
        # 12.3: to 17 (H17 hits soft 17; a blackjack, 21, stands); no-hole: card 2
        while M.dealer_draws(need, d_n, d_stands[np.uint64(d_ace * 32 + d_hard)] != 0):
            code, pos, end, s0, s1, s2, s3 = take(shoe, ws, stacked, pos, end, s0, s1, s2, s3)
            d_hard += value(code)
            d_ace |= np.int64(code < 4)
            d_n += 1
            d_bj = d_n == 2 and T.blackjack(d_hard, d_ace)
        d_total = T.total(d_hard, d_ace)
        o = T.outcome(d_bj, d_total)
        if ws[R.WS_FAIL] != 0:
            break
        drawn = ws[R.WS_BEFORE] + pos - ws[R.WS_ROUND_START]
        # 8. Settle, and add the round to the tally (or write its record).
        round_main = round_ins = counted = np.int64(0)  # counted: the counter's net
        for b in range(nbr):
            if nsp[b] != 0:
                bits = (T.X_INS_OFFERED | T.X_INS_TAKEN * (insb[b] != 0)) if uv == 1 else 0
                main, ins = T.settle_box(scratch, hs, b * MAX_HANDS, nsp[b], kind, total, wager,
                                         o, bits, p, slot[b])  # fmt: skip
                tally += scratch
                i = -1
                nsp[b] = declined[b] = 0
                if out is not None:
                    T.write_box(out[r], b, scratch, line[b], p)
            else:
                i = np.int64(hs[b * MAX_HANDS]) * T.N_OUTCOMES + o  # (finals first)
                main, ins = net[np.uint64(i)], insn[np.uint64(i)]
                if out is not None:
                    T.write_box(out[r], b, rows[i], line[b], p)
                else:
                    counts[np.uint64(i)] += 1
            round_main += main
            round_ins += ins
            ss = ss_pay[line[b]] if ss_on and (multi or cx is not None) else 0
            if multi:
                by_round[0, slot[b]] += main + ins
                by_round[1, slot[b]] += ss
            if cx is not None:
                wagered = scratch[L.T_MAIN_WAGERED] if i < 0 else rows[i, L.T_MAIN_WAGERED]
                counted += C.add_box(ct, cs[C.CS_ROW], cs[C.CS_SEATED], cs[C.CS_BET],
                                     cs[C.CS_SS_BET], main + ins, ins, wagered, ss, ss_on, 1)
        if cx is not None:
            if ss_on and ev.size > 0:  # the round's start shoe's exact Super Sevens return
                C.add_exact(ct, cs[C.CS_ROW], ev, cs[C.CS_SS_AT], nbr, cs[C.CS_SS_BET])
            C.add_round(ct, nets, cs[C.CS_ROW], cs[C.CS_SEATED], counted, cs[C.CS_BET],
                        round_main + round_ins, round_ins, 1)  # fmt: skip
        if multi:
            for k in range(7):
                for f, x in ((L.BY_RTOTAL_SQ, by_round[0, k]), (L.BY_SS_RSQ, by_round[1, k])):
                    tally[L.T_BY + k * L.N_BY + f] += x * x
            by_round[:] = 0
        if out is not None:
            out[r, L.R_CARDS], out[r, L.R_DEALER_CARDS] = drawn, d_n
            out[r, L.R_DEALER_TOTAL], out[r, L.R_DEALER_BJ] = d_total, o == T.O_BJ
        else:
            T.add_round(tally, drawn, o, round_main, round_ins, ssr)
            if trace.size > traced and ws[R.WS_NEED_FULL] == 0:  # (tests) the round's cards
                for i in range(min(drawn, trace.size - traced)):
                    trace[traced] = shoe[ws[R.WS_ROUND_START] + i]
                    traced += 1
        r += 1
    for k in range(7):  # each box's Super Sevens bet (14)
        for i in range(6):
            T.add_ss(tally, i, lines[k, i], ss_pay[i], k)
    return r
