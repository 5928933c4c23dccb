"""Settlement and the tally: what a hand wins against the dealer (4.1, 8.2, 9 and the rule
``dealer_blackjack_takes``), what a finished box and round add to the tally (layout ``T_*``),
and a box's fields of the per-round record (``B_*``)."""

from __future__ import annotations

import numpy as np

from simulator import layout as L
from simulator.jit import njit

# How a hand finished (``kind`` of a final state of the machine).
K_NONE = 0  # not finished (a state the player walks through)
K_STOOD = 1  # stood, unbusted: settled against the dealer's hand
K_BUST = 2  # lost at once (12.2)
K_BJ = 3  # player blackjack (8.2)
K_EM = 4  # blackjack, even money taken (8.3): +10 at once
K_ES = 5  # early surrender: -5 whatever the dealer has
K_LS = 6  # late surrender: -5, or the whole wager against a no-hole dealer blackjack
K_LIVE = 7  # in play when a peeked dealer blackjack ended the round

# The dealer's outcome: 0 blackjack, 1 bust, 2..6 a total of 17..21, 7 below 17 (nothing stood).
N_OUTCOMES = 8
O_BJ, O_BUST, O_NONE = 0, 1, 7

# Bits of a box's round beside its hands.
X_BJ, X_EM, X_INS_TAKEN, X_INS_OFFERED, X_EM_OFFERED = 1, 2, 4, 8, 16


@njit
def total(hard, ace):
    """Best total (3.2): ``hard + 10`` if the hand holds an ace and that is <= 21."""
    return hard + 10 if ace and hard + 10 <= 21 else hard


@njit
def blackjack(hard, ace):
    """Two cards (the caller knows) of hard sum ``hard`` and ``ace`` are a blackjack."""
    return hard == 11 and ace != 0


@njit
def outcome(d_bj, d_total):
    """The dealer's outcome (``O_*``, 2..6 for 17..21) from blackjack and the final total."""
    if d_bj:
        return O_BJ
    if d_total > 21:
        return O_BUST
    return d_total - 15 if d_total >= 17 else O_NONE


@njit
def dealer_stands(total, soft, h17):
    """Does the dealer stand (12.3) on ``total`` (best total; ``soft``: an ace counted 11)? On
    17 or more, but a soft 17 with ``dealer_hits_soft_17`` (``h17``) draws."""
    return total > 17 or (total == 17 and not (h17 and soft))


@njit
def hand_net(kind, total, wager, o, dbj, bj_win, h, first_live):
    """The net of a finished hand in tenths (step 8 of "One round, in order"): hand ``h`` of its
    box (``first_live``: no unbusted hand before it in the box), against dealer outcome ``o``."""
    if kind == K_EM:
        return L.UNIT
    if kind == K_ES or kind == K_LS:
        return -L.UNIT if kind == K_LS and o == O_BJ else -L.INSURANCE_STAKE
    if kind == K_BJ:
        return 0 if o == O_BJ else bj_win
    if o == O_BJ:
        if dbj == L.DBJ_ORIGINAL:
            return -L.UNIT if h == 0 else 0  # the box's net is exactly -10
        if kind == K_BUST or dbj == L.DBJ_ALL:
            return -wager
        return -L.UNIT if first_live else 0  # original-and-busted: 10 from the unbusted hands
    if kind != K_STOOD:
        return -wager  # busted (a live hand never meets any other outcome)
    if o == O_BUST:
        return wager
    dt = o + 15 if o != O_NONE else 16
    return wager if total > dt else (-wager if total < dt else 0)


@njit
def settle_box(row, hs, at, nh, kind, total, wager, o, bits, p, slot):
    """Settle a box's ``nh`` hands (final states ``hs[at:at + nh]``, ``kind``, ``total``,
    ``wager`` by state) and its insurance (``bits``) against dealer outcome ``o``: its round (one
    initial wager, its Super Sevens bet on (f)) into ``row``, cleared first, its strategy's
    figures at ``slot`` (``layout.T_BY``). Returns ``(main, ins)``."""
    main = wins = losses = pushes = doubles = busts = surrs = 0
    first_live = nh > 0  # (True, not typed as a literal: hand_net compiled once)
    for h in range(nh):
        s = hs[at + h]
        k, w = np.int64(kind[s]), np.int64(wager[s])
        net = hand_net(k, np.int64(total[s]), w, o, p[L.P_DBJ], p[L.P_BJ_WIN], h, first_live)
        first_live = first_live and k != K_STOOD
        main += net
        wins += net > 0
        losses += net < 0
        pushes += net == 0
        doubles += w == 2 * L.UNIT
        busts += k == K_BUST
        surrs += k == K_ES or k == K_LS
    ins = 0  # the insurance wager (9.1, 9.5, 9.6): settled by the dealer's blackjack
    if (bits & X_INS_TAKEN) != 0:
        ins = p[L.P_INS_WIN] if o == O_BJ else -L.INSURANCE_STAKE
    tot = main + ins
    row[:] = 0
    for at in (L.T_BOX_ROUNDS, L.T_BY + slot * L.N_BY):  # the box's figures, then its strategy's
        for i, x in enumerate((1, main, main * main, tot, tot * tot)):
            row[at + i] += x
    for at, x in ((L.T_INS_OFFERED, int((bits & X_INS_OFFERED) != 0)), (L.T_INS_SUM, ins),
                  (L.T_INS_TAKEN, int((bits & X_INS_TAKEN) != 0)), (L.T_INS_WON, int(ins > 0)),
                  (L.T_EM_OFFERED, int((bits & X_EM_OFFERED) != 0)), (L.T_HANDS, nh),
                  (L.T_EM_TAKEN, int((bits & X_EM) != 0)), (L.T_PLAYER_BJ, int((bits & X_BJ) != 0)),
                  (L.T_SPLITS, nh - 1), (L.T_WINS, wins), (L.T_LOSSES, losses), (L.T_BUSTS, busts),
                  (L.T_PUSHES, pushes), (L.T_DOUBLES, doubles), (L.T_SURRENDERS, surrs),
                  (L.T_MAIN_WAGERED, L.UNIT * (nh + doubles))):  # fmt: skip
        row[at] += x
    if p[L.P_SS] != 0:
        add_ss(row, np.int64(5), np.int64(1), ss_net(np.int64(5), p), slot)  # (f) until moved
    return main, ins


# ``add_round`` and ``add_ss`` add each square at its sum's place + 1; ``settle_box`` a box's
# first five figures in the order of its strategy's.
assert all(sq == sm + 1 for sm, sq in ((L.T_RMAIN_SUM, L.T_RMAIN_SQ), (L.T_RINS_SUM, L.T_RINS_SQ),
           (L.T_RTOTAL_SUM, L.T_RTOTAL_SQ), (L.T_SS_RSUM, L.T_SS_RSQ), (L.T_SS_SUM, L.T_SS_SQ),
           (L.BY_SS_SUM, L.BY_SS_SQ))), "tally layout"  # fmt: skip
assert L.TALLY_NAMES[L.T_BOX_ROUNDS : L.T_BOX_ROUNDS + 5] == L.BY_STRATEGY[:5], "tally layout"


@njit
def add_round(t, cards, o, main, ins, ss):
    """Add a round's own fields to the tally ``t`` (its boxes' are ``settle_box``'s): its cards, the
    dealer's outcome ``o``, the sums and squares of its main, insurance, total and Super Sevens."""
    t[L.T_ROUNDS] += 1
    t[L.T_CARDS_DEALT] += cards
    if o != O_NONE:
        t[L.T_DEALER_BJ + o] += 1  # blackjack, bust, 17 .. 21 (layout)
    for at, x in ((L.T_RMAIN_SUM, main), (L.T_RINS_SUM, ins), (L.T_RTOTAL_SUM, main + ins),
                  (L.T_SS_RSUM, ss)):  # fmt: skip
        t[at] += x
        t[at + 1] += x * x


@njit
def add_ss(t, line, n, pay, slot):
    """Add ``n`` Super Sevens bets on ``line`` (0..5 for (a)..(f)) paying ``pay`` into ``t``,
    by boxes of the strategy at ``slot``."""
    t[L.T_SS_BETS] += n
    t[L.T_SS_A + line] += n
    for at in (L.T_SS_SUM, L.T_BY + slot * L.N_BY + L.BY_SS_SUM):  # all boxes', its strategy's
        t[at] += n * pay
        t[at + 1] += n * pay * pay


@njit
def ss_net(line, p):
    """The Super Sevens result of a box on ``line`` (0..5 for (a)..(f), -1 no bet), in stakes:
    the line's pay (rule 14), or the stake lost on (f)."""
    if line < 0:
        return 0
    return -1 if line == 5 else p[L.P_SS_PAY_A + line]


# A box's record fields from its own tally (``write_box``).
BOX_FIELDS = ((L.B_MAIN, L.T_MAIN_SUM), (L.B_INS, L.T_INS_SUM), (L.B_HANDS, L.T_HANDS),
              (L.B_DOUBLES, L.T_DOUBLES), (L.B_BUSTS, L.T_BUSTS), (L.B_BJ, L.T_PLAYER_BJ),
              (L.B_EVEN_MONEY, L.T_EM_TAKEN), (L.B_INS_TAKEN, L.T_INS_TAKEN),
              (L.B_SURRENDERS, L.T_SURRENDERS), (L.B_WINS, L.T_WINS), (L.B_LOSSES, L.T_LOSSES),
              (L.B_PUSHES, L.T_PUSHES))  # fmt: skip


@njit
def write_box(rec, b, t, line, p):
    """Box ``b``'s fields of its round's record, from the box's own tally ``t`` (``settle_box`` of
    that box alone) and its Super Sevens ``line``."""
    o = L.R_FIXED + b * L.R_BOX
    for at, f in BOX_FIELDS:
        rec[o + at] = t[f]
    rec[o + L.B_SS] = ss_net(line, p)
    rec[o + L.B_SS_LINE] = line
