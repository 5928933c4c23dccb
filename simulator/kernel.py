"""Numba kernels: random numbers, the lazy shuffle, one round of blackjack, chunks, stacked shoes.

Implements the game procedure of ``docs/design.md`` ("One round, in order"): dealing (with or
without a hole card), blackjack (8.2), even money (8.3), insurance (9), early and late surrender,
splitting (11, 11 (b), 11 (c), 11.5), doubling (10), the drawing rules 12.1 (a), (b), (d), busts
(12.2), the dealer's draw (12.3, 12.4), settlement (4.1 and the dealer-blackjack variants), Super
Sevens (14, 14.4) and the cut card (7.1, 1999 amendment).

There is exactly one round function, ``_play_round``. The simulation mode (``simulate_chunk``)
feeds it cards by a lazy Fisher-Yates shuffle driven by xoshiro256**; the stacked mode
(``play_stacked``) feeds it the given cards in order. Both read cards through ``_draw``, so the
stacked mode checks exactly the code that simulates.

Public functions carry no decorator: they validate, cast dtypes, allocate outputs and call the
private ``_verb_noun`` kernels.
"""

from __future__ import annotations

import numpy as np

from simulator import layout as L
from simulator.jit import njit

# ---------------------------------------------------------------------------------------------
# Constants private to the kernel (module-level ints are frozen into the compiled code).
MAX_HANDS = 4  # rule-set limit on hands per box
MAX_BOXES = 7

# Shoe state vector ``sh`` (int64).
SH_POS = 0  # next position to deal
SH_END = 1  # end of the undealt region
SH_ROUND_START = 2  # position of the first card of this round (discards are 0..ROUND_START-1)
SH_STACKED = 3  # 1: deal shoe[pos] in order; 0: lazy Fisher-Yates draw
SH_FAIL = 4  # 1: ran out of cards (stacked: incomplete round; simulation: no discards left)
SH_N = 5  # cards in the shoe
SH_SHUFFLES = 6  # shuffles made (the chunk's first, cut-card, every-round, mid-round fallbacks)
SH_DRAWN = 7  # cards taken from the shoe this round
SH_NEED_FULL = 8  # 1: the next round must start with a full shuffle
N_SH = 9

# Per-hand fields ``hand[box, hand, field]`` (int64).
HF_HARD = 0  # hard sum, aces as 1
HF_ACE = 1  # 0/1 holds an ace
HF_N = 2  # cards in the hand
HF_V1 = 3  # value of the first card
HF_V2 = 4  # value of the second card
HF_WAGER = 5  # tenths
HF_STATUS = 6  # HS_*
HF_NET = 7  # net result of the hand so far, tenths
HF_SPLIT_ACE = 8  # 0/1 the hand was made by splitting aces
HF_DOUBLED = 9  # 0/1
N_HF = 10

# Hand status.
HS_PLAY = 0  # still to be played (or in play)
HS_STOOD = 1  # finished, unbusted: settled against the dealer's hand
HS_BUST = 2  # lost at once (12.2)
HS_SURR = 3  # surrendered (box flag BF_EARLY / BF_LATE says which)
HS_BJ = 4  # player blackjack waiting for the dealer's second card (8.2)
HS_DONE = 5  # settled already (even money, blackjack paid at once, peek outcome)

# Per-box fields ``bx[box, field]`` (int64).
BF_NH = 0  # hands on the layout
BF_DECLINED = 1  # 0/1 declined a split this round (11.5)
BF_ACES_SPLIT = 2  # 0/1 aces have been split
BF_INS = 3  # 0/1 insurance taken
BF_INS_NET = 4  # tenths
BF_EM = 5  # 0/1 even money taken
BF_BJ = 6  # 0/1 player blackjack
BF_EARLY = 7  # 0/1 early surrender
BF_LATE = 8  # 0/1 late surrender
BF_C1 = 9  # code of the box's first card
BF_C2 = 10  # code of the box's second card
BF_SS = 11  # Super Sevens line 0..5 = (a)..(f), SS_PENDING, or -1 for no bet
BF_INS_OFFERED = 12
BF_EM_OFFERED = 13
N_BF = 14

SS_A, SS_B, SS_C, SS_D, SS_E, SS_F = 0, 1, 2, 3, 4, 5
SS_PENDING = 6  # 7-7 dealt, not split, no third card yet

# Resolved actions (what the hand does, after the rules have filtered the strategy's code).
A_STAND, A_HIT, A_DOUBLE, A_SPLIT, A_SURRENDER = 0, 1, 2, 3, 4

TEN_CODE = 36  # ten of clubs: dealt after the cards have run out, only to finish a doomed round

MASK32 = np.uint64(0xFFFFFFFF)
TWO32 = np.uint64(0x100000000)


# ---------------------------------------------------------------------------------------------
# Random numbers: xoshiro256** and Lemire's bounded draw with rejection.
@njit
def _next_u64(rng):
    """Advance the xoshiro256** state ``rng`` (uint64[4]) and return the next 64-bit output."""
    s0 = rng[0]
    s1 = rng[1]
    s2 = rng[2]
    s3 = rng[3]
    x = s1 * np.uint64(5)
    result = ((x << np.uint64(7)) | (x >> np.uint64(57))) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3
    return result


@njit
def _bounded(rng, n):
    """Exactly uniform integer in ``0..n-1`` (1 <= n <= 2**32), Lemire's multiply-shift.

    The upper 32 bits of a draw times ``n`` give the result; draws whose low product falls below
    ``2**32 mod n`` are rejected, which removes the bias exactly.
    """
    nn = np.uint64(n)
    m = (_next_u64(rng) >> np.uint64(32)) * nn
    low = m & MASK32
    if low < nn:
        threshold = (TWO32 - nn) % nn
        while low < threshold:
            m = (_next_u64(rng) >> np.uint64(32)) * nn
            low = m & MASK32
    return np.int64(m >> np.uint64(32))


@njit
def _draw_bounded_many(state, n, count):
    """``count`` bounded draws in ``0..n-1`` from a copy of ``state`` (for tests)."""
    rng = state.copy()
    out = np.empty(count, np.int64)
    for i in range(count):
        out[i] = _bounded(rng, n)
    return out


@njit
def _next_u64_many(state, count):
    """``count`` raw xoshiro256** outputs from a copy of ``state`` (for tests)."""
    rng = state.copy()
    out = np.empty(count, np.uint64)
    for i in range(count):
        out[i] = _next_u64(rng)
    return out


# ---------------------------------------------------------------------------------------------
# The shoe.
@njit
def _fresh_shoe(decks):
    """Every card code ``decks`` times, ordered (the lazy shuffle makes the order irrelevant)."""
    shoe = np.empty(52 * decks, np.int8)
    for i in range(52 * decks):
        shoe[i] = i % 52
    return shoe


@njit
def _draw(shoe, sh, rng):
    """Take the next card from the shoe (design: "Shoe and shuffle").

    Simulation: the card at ``pos`` is chosen uniformly from ``pos..end-1`` and swapped into
    ``pos`` (one Fisher-Yates step). If the undealt region is empty mid-round, the discards
    ``0..round_start-1`` become the shoe (``pos = 0, end = round_start``) and the next round
    starts with a full shuffle; with no discards ``SH_FAIL`` is set. Stacked: ``shoe[pos]`` in
    order; running out sets ``SH_FAIL`` (an incomplete round). After a failure a ten is returned so
    the doomed round can run to its end (every draw loop terminates), and is then discarded.
    """
    pos = sh[SH_POS]
    end = sh[SH_END]
    if pos >= end:
        if sh[SH_STACKED] == 1 or sh[SH_ROUND_START] == 0:
            sh[SH_FAIL] = 1
            return TEN_CODE
        end = sh[SH_ROUND_START]
        sh[SH_END] = end
        sh[SH_ROUND_START] = 0
        sh[SH_SHUFFLES] += 1
        sh[SH_NEED_FULL] = 1
        pos = 0
    if sh[SH_STACKED] == 0:
        k = pos + _bounded(rng, end - pos)
        c = shoe[k]
        shoe[k] = shoe[pos]
        shoe[pos] = c
    else:
        c = shoe[pos]
    sh[SH_POS] = pos + 1
    sh[SH_DRAWN] += 1
    return np.int64(c)


@njit
def _deal_shoe(state, decks):
    """Shuffle a fresh shoe lazily and deal every card of it, in order (for tests)."""
    shoe = _fresh_shoe(decks)
    sh = np.zeros(N_SH, np.int64)
    sh[SH_N] = shoe.size
    sh[SH_END] = shoe.size
    rng = state.copy()
    out = np.empty(shoe.size, np.int64)
    for i in range(shoe.size):
        out[i] = _draw(shoe, sh, rng)
    return out


# ---------------------------------------------------------------------------------------------
# Hands.
@njit
def _value(code):
    """Blackjack value of a card code, ace = 1, ten-valued = 10."""
    r = code >> 2
    if r >= 9:
        return 10
    return r + 1


@njit
def _total(hard, ace):
    """Best total: ``hard + 10`` when the hand holds an ace and that is <= 21 (3.2)."""
    if ace != 0 and hard + 10 <= 21:
        return hard + 10
    return hard


@njit
def _deal_to_hand(hand, bx, b, h, code):
    """Add a card to hand ``h`` of box ``b``; settle a pending 7-7 (Super Sevens) on card 3."""
    v = _value(code)
    hand[b, h, HF_HARD] += v
    if v == 1:
        hand[b, h, HF_ACE] = 1
    n = hand[b, h, HF_N] + 1
    hand[b, h, HF_N] = n
    if n == 1:
        hand[b, h, HF_V1] = v
    elif n == 2:
        hand[b, h, HF_V2] = v
    elif n == 3 and bx[b, BF_SS] == SS_PENDING:
        # 14 (d)/(e): only hand 0 of an unsplit 7-7 box can be pending.
        c1 = bx[b, BF_C1]
        c2 = bx[b, BF_C2]
        if (code >> 2) == L.SEVEN_RANK:
            if (c1 & 3) == (c2 & 3) and (c2 & 3) == (code & 3):
                bx[b, BF_SS] = SS_E
            else:
                bx[b, BF_SS] = SS_D
        elif (c1 & 3) == (c2 & 3):
            bx[b, BF_SS] = SS_C
        else:
            bx[b, BF_SS] = SS_B


@njit
def _split(hand, bx, b, h, shoe, sh, rng):
    """Split hand ``h`` of box ``b`` (11): its second card moves to a new hand inserted right
    after it with an equal wager; the current hand gets its second card at once."""
    nh = bx[b, BF_NH]
    for k in range(nh - 1, h, -1):
        for f in range(N_HF):
            hand[b, k + 1, f] = hand[b, k, f]
    v1 = hand[b, h, HF_V1]
    v2 = hand[b, h, HF_V2]
    wager = hand[b, h, HF_WAGER]
    for f in range(N_HF):
        hand[b, h + 1, f] = 0
    hand[b, h + 1, HF_HARD] = v2
    hand[b, h + 1, HF_ACE] = 1 if v2 == 1 else 0
    hand[b, h + 1, HF_N] = 1
    hand[b, h + 1, HF_V1] = v2
    hand[b, h + 1, HF_WAGER] = wager
    hand[b, h + 1, HF_STATUS] = HS_PLAY
    hand[b, h + 1, HF_SPLIT_ACE] = 1 if v2 == 1 else 0
    hand[b, h, HF_HARD] = v1
    hand[b, h, HF_ACE] = 1 if v1 == 1 else 0
    hand[b, h, HF_N] = 1
    hand[b, h, HF_V2] = 0
    hand[b, h, HF_SPLIT_ACE] = 1 if v1 == 1 else 0
    bx[b, BF_NH] = nh + 1
    if v1 == 1:
        bx[b, BF_ACES_SPLIT] = 1
    if bx[b, BF_SS] == SS_PENDING:
        # 14.4: 7-7 split: paid at once under (b) or (c) by the suits of the two sevens.
        if (bx[b, BF_C1] & 3) == (bx[b, BF_C2] & 3):
            bx[b, BF_SS] = SS_C
        else:
            bx[b, BF_SS] = SS_B
    _deal_to_hand(hand, bx, b, h, _draw(shoe, sh, rng))


@njit
def _decide(p, hard_t, soft_t, pairs_t, sevens_t, b, h, up, hand, bx, can_surrender):
    """The strategy's decision for hand ``h`` of box ``b``, filtered by the rules.

    Returns ``(action, declined)``: ``action`` is one of ``A_*``; ``declined`` is 1 when the pair
    cell said not to split (``N``, or ``Pd`` without double after split), which is a declined
    split under 11.5 (the caller records it; the early-surrender look-ahead ignores it).
    """
    hard = hand[b, h, HF_HARD]
    ace = hand[b, h, HF_ACE]
    n = hand[b, h, HF_N]
    total = _total(hard, ace)
    soft = total != hard
    nh = bx[b, BF_NH]
    two = n == 2
    max_hands = p[L.P_MAX_HANDS]
    das = p[L.P_DAS]

    can_double = False
    if two and (hand[b, h, HF_SPLIT_ACE] == 0 or p[L.P_HSA] != 0) and (nh == 1 or das != 0):
        rule = p[L.P_DOUBLE_ON]
        if rule == L.DOUBLE_ANY:
            can_double = True
        elif rule == L.DOUBLE_HARD:
            can_double = ace == 0
        elif rule == L.DOUBLE_9_11:
            can_double = (not soft) and 9 <= total <= 11
        else:
            can_double = (not soft) and 10 <= total <= 11

    declined = 0
    code = -1
    v1 = hand[b, h, HF_V1]
    if bx[b, BF_SS] == SS_PENDING and two:
        # Super Sevens up and the box's first two cards 7-7: the sevens row decides (14.4).
        code = sevens_t[b, up]
        if code == L.P:
            if nh < max_hands:
                return A_SPLIT, 0
            code = hard_t[b, total, up]  # no split possible: played from the hard table
    elif (
        two
        and v1 == hand[b, h, HF_V2]
        and nh < max_hands
        and bx[b, BF_DECLINED] == 0
        and (v1 != 1 or bx[b, BF_ACES_SPLIT] == 0 or p[L.P_RSA] != 0)
    ):
        cell = pairs_t[b, v1 - 1, up]
        if cell == L.P:
            return A_SPLIT, 0
        if cell == L.PD:
            if das != 0:
                return A_SPLIT, 0
            declined = 1
        elif cell == L.RP:
            if can_surrender:
                return A_SURRENDER, 0
            return A_SPLIT, 0
        else:
            declined = 1
    if code < 0:
        if soft:
            code = soft_t[b, total, up]
        else:
            code = hard_t[b, total, up]

    if code == L.H:
        act = A_HIT
    elif code == L.D:
        act = A_DOUBLE if can_double else A_HIT
    elif code == L.DS:
        act = A_DOUBLE if can_double else A_STAND
    elif code == L.RH:
        act = A_SURRENDER if can_surrender else A_HIT
    elif code == L.RS:
        act = A_SURRENDER if can_surrender else A_STAND
    else:
        act = A_STAND
    if act == A_STAND and total <= 11:
        act = A_HIT  # 12.1 (d): a hand of 11 or less must draw
    return act, declined


@njit
def _play_hand(p, hard_t, soft_t, pairs_t, sevens_t, b, h, up, shoe, sh, rng, hand, bx):
    """Play hand ``h`` of box ``b`` to its end (design step 6)."""
    if hand[b, h, HF_STATUS] != HS_PLAY:
        return
    late = p[L.P_SURRENDER] == L.SURRENDER_LATE
    while True:
        if hand[b, h, HF_N] == 1:
            # A split hand's second card is dealt when it comes into play.
            _deal_to_hand(hand, bx, b, h, _draw(shoe, sh, rng))
        total = _total(hand[b, h, HF_HARD], hand[b, h, HF_ACE])
        if total > 21:
            hand[b, h, HF_STATUS] = HS_BUST  # 12.2: lost at once
            hand[b, h, HF_NET] = -hand[b, h, HF_WAGER]
            return
        if total == 21:
            hand[b, h, HF_STATUS] = HS_STOOD  # 12.1 (a); two-card 21 after a split is 21 (11 (c))
            return
        nh = bx[b, BF_NH]
        if hand[b, h, HF_SPLIT_ACE] != 0 and p[L.P_HSA] == 0:
            # 11 (b), 12.1 (c): one card to a split ace; another ace may be resplit per the pair
            # table when the rules allow it.
            if (
                hand[b, h, HF_N] == 2
                and hand[b, h, HF_V2] == 1
                and p[L.P_RSA] != 0
                and nh < p[L.P_MAX_HANDS]
                and bx[b, BF_DECLINED] == 0
            ):
                cell = pairs_t[b, 0, up]
                if cell == L.N or (cell == L.PD and p[L.P_DAS] == 0):
                    bx[b, BF_DECLINED] = 1
                else:
                    _split(hand, bx, b, h, shoe, sh, rng)
                    continue
            hand[b, h, HF_STATUS] = HS_STOOD
            return
        can_surrender = late and nh == 1 and hand[b, h, HF_N] == 2
        act, declined = _decide(
            p, hard_t, soft_t, pairs_t, sevens_t, b, h, up, hand, bx, can_surrender
        )
        if declined != 0:
            bx[b, BF_DECLINED] = 1
        if act == A_HIT:
            _deal_to_hand(hand, bx, b, h, _draw(shoe, sh, rng))
        elif act == A_STAND:
            hand[b, h, HF_STATUS] = HS_STOOD
            return
        elif act == A_SPLIT:
            _split(hand, bx, b, h, shoe, sh, rng)
        elif act == A_DOUBLE:
            # 12.1 (b): the wager doubles and the hand gets exactly one card.
            hand[b, h, HF_WAGER] *= 2
            hand[b, h, HF_DOUBLED] = 1
            _deal_to_hand(hand, bx, b, h, _draw(shoe, sh, rng))
            if _total(hand[b, h, HF_HARD], hand[b, h, HF_ACE]) > 21:
                hand[b, h, HF_STATUS] = HS_BUST
                hand[b, h, HF_NET] = -hand[b, h, HF_WAGER]
            else:
                hand[b, h, HF_STATUS] = HS_STOOD
            return
        else:  # late surrender: half the wager; the no-hole game may take the rest (step 8)
            hand[b, h, HF_STATUS] = HS_SURR
            hand[b, h, HF_NET] = -L.INSURANCE_STAKE
            bx[b, BF_LATE] = 1
            return


# ---------------------------------------------------------------------------------------------
# One round.
@njit
def _play_round(p, hard_t, soft_t, pairs_t, sevens_t, flags_t, shoe, sh, rng, hand, bx, rec):
    """Play one round from the shoe and write its record ``rec`` (layout ``R_*``/``B_*``).

    ``hand`` (boxes, MAX_HANDS, N_HF) and ``bx`` (boxes, N_BF) are scratch, overwritten here.
    Also leaves ``bx[:, BF_INS_OFFERED]``, ``bx[:, BF_EM_OFFERED]`` and the final hand wagers
    for the tally.
    """
    nb = p[L.P_BOXES]
    peek = p[L.P_HOLE] == L.HOLE_PEEK
    ss_on = p[L.P_SS] != 0
    unit = L.UNIT

    for b in range(nb):
        for f in range(N_BF):
            bx[b, f] = 0
        for f in range(N_HF):
            hand[b, 0, f] = 0
        bx[b, BF_NH] = 1
        hand[b, 0, HF_WAGER] = unit
        hand[b, 0, HF_STATUS] = HS_PLAY

    # 1. Deal: a card to each box, the dealer's up card, a second card to each box.
    for b in range(nb):
        c = _draw(shoe, sh, rng)
        bx[b, BF_C1] = c
        _deal_to_hand(hand, bx, b, 0, c)
    upc = _draw(shoe, sh, rng)
    uv = _value(upc)
    for b in range(nb):
        c = _draw(shoe, sh, rng)
        bx[b, BF_C2] = c
        _deal_to_hand(hand, bx, b, 0, c)
    d_hard = uv
    d_ace = 1 if uv == 1 else 0
    d_n = 1
    if peek:
        v = _value(_draw(shoe, sh, rng))
        d_hard += v
        if v == 1:
            d_ace = 1
        d_n = 2
    up = 9 if uv == 1 else uv - 2
    ten_or_ace = uv == 1 or uv == 10

    # Super Sevens line from the first two cards (14); 7-7 waits for a split or a third card.
    for b in range(nb):
        if not ss_on:
            bx[b, BF_SS] = -1
        elif (bx[b, BF_C1] >> 2) != L.SEVEN_RANK:
            bx[b, BF_SS] = SS_F
        elif (bx[b, BF_C2] >> 2) != L.SEVEN_RANK:
            bx[b, BF_SS] = SS_A
        else:
            bx[b, BF_SS] = SS_PENDING

    # 2. Blackjack, even money (8.3), insurance (9).
    for b in range(nb):
        if hand[b, 0, HF_HARD] == 11 and hand[b, 0, HF_ACE] != 0:
            bx[b, BF_BJ] = 1
            hand[b, 0, HF_STATUS] = HS_BJ
            if uv == 1:
                bx[b, BF_EM_OFFERED] = 1
                if flags_t[b, 1] != 0:
                    bx[b, BF_EM] = 1
                    hand[b, 0, HF_STATUS] = HS_DONE
                    hand[b, 0, HF_NET] = unit
        elif uv == 1:
            bx[b, BF_INS_OFFERED] = 1
            if flags_t[b, 0] != 0:
                bx[b, BF_INS] = 1

    # 3. Early surrender (before any peek), on the first two cards, not a blackjack.
    if p[L.P_SURRENDER] == L.SURRENDER_EARLY:
        for b in range(nb):
            if bx[b, BF_BJ] == 0:
                act, _ = _decide(p, hard_t, soft_t, pairs_t, sevens_t, b, 0, up, hand, bx, True)
                if act == A_SURRENDER:
                    bx[b, BF_EARLY] = 1
                    hand[b, 0, HF_STATUS] = HS_SURR
                    hand[b, 0, HF_NET] = -L.INSURANCE_STAKE

    # 4. Peek.
    ended = False
    dealer_bj = False
    if peek and ten_or_ace:
        if d_hard == 11 and d_ace != 0:
            dealer_bj = True
            ended = True
            for b in range(nb):
                if bx[b, BF_INS] != 0:
                    bx[b, BF_INS_NET] = p[L.P_INS_WIN]
                st = hand[b, 0, HF_STATUS]
                if st == HS_BJ:
                    hand[b, 0, HF_STATUS] = HS_DONE  # stands off
                elif st == HS_PLAY:
                    hand[b, 0, HF_STATUS] = HS_DONE
                    hand[b, 0, HF_NET] = -unit
        else:
            for b in range(nb):
                if bx[b, BF_INS] != 0:
                    bx[b, BF_INS_NET] = -L.INSURANCE_STAKE

    if not ended:
        # 5. Player blackjacks paid at once unless they must wait for the second card (8.2).
        if peek or not ten_or_ace:
            for b in range(nb):
                if hand[b, 0, HF_STATUS] == HS_BJ:
                    hand[b, 0, HF_STATUS] = HS_DONE
                    hand[b, 0, HF_NET] = p[L.P_BJ_WIN]

        # 6. Boxes play, each in turn, each hand in turn.
        for b in range(nb):
            h = 0
            while h < bx[b, BF_NH]:
                _play_hand(p, hard_t, soft_t, pairs_t, sevens_t, b, h, up, shoe, sh, rng, hand, bx)
                h += 1

        # 7. Dealer: draw only as far as something depends on it (12.4), unless told to.
        need_second = p[L.P_DRAW_NO_LIVE] != 0
        need_more = need_second
        for b in range(nb):
            if bx[b, BF_INS] != 0:
                need_second = True
            for h in range(bx[b, BF_NH]):
                st = hand[b, h, HF_STATUS]
                if st == HS_STOOD:
                    need_second = True
                    need_more = True
                elif st == HS_BJ:
                    need_second = True
                elif ten_or_ace and not peek:
                    if st == HS_SURR and bx[b, BF_LATE] != 0:
                        need_second = True
                    elif st == HS_BUST and p[L.P_DBJ] == L.DBJ_ORIGINAL:
                        need_second = True
        if not peek and need_second:
            v = _value(_draw(shoe, sh, rng))
            d_hard += v
            if v == 1:
                d_ace = 1
            d_n = 2
            dealer_bj = d_hard == 11 and d_ace != 0
        if need_more and not dealer_bj:
            h17 = p[L.P_H17] != 0
            while True:
                t = _total(d_hard, d_ace)
                if t < 17 or (t == 17 and h17 and t != d_hard):
                    v = _value(_draw(shoe, sh, rng))
                    d_hard += v
                    if v == 1:
                        d_ace = 1
                    d_n += 1
                else:
                    break
        d_total = _total(d_hard, d_ace)

        # Insurance is settled on the second card (9.1, 9.5, 9.6); peek games settled it above.
        if not peek:
            for b in range(nb):
                if bx[b, BF_INS] != 0:
                    if dealer_bj:
                        bx[b, BF_INS_NET] = p[L.P_INS_WIN]
                    else:
                        bx[b, BF_INS_NET] = -L.INSURANCE_STAKE

        # 8. Settle (4.1, 8.2).
        dbj_rule = p[L.P_DBJ]
        for b in range(nb):
            nh = bx[b, BF_NH]
            if dealer_bj:
                if bx[b, BF_EARLY] != 0 or bx[b, BF_EM] != 0:
                    continue  # settled already
                if hand[b, 0, HF_STATUS] == HS_BJ:
                    hand[b, 0, HF_STATUS] = HS_DONE  # two blackjacks stand off
                    continue
                if bx[b, BF_LATE] != 0:
                    hand[b, 0, HF_NET] = -unit  # a late surrender loses its whole wager here
                    continue
                if dbj_rule == L.DBJ_ALL:
                    for h in range(nh):
                        if hand[b, h, HF_STATUS] == HS_STOOD:
                            hand[b, h, HF_NET] = -hand[b, h, HF_WAGER]
                elif dbj_rule == L.DBJ_ORIGINAL_AND_BUSTED:
                    # The box loses its initial wager from its unbusted hands (charged to the
                    # first of them); their other wagers are returned.
                    first = True
                    for h in range(nh):
                        if hand[b, h, HF_STATUS] == HS_STOOD:
                            hand[b, h, HF_NET] = -unit if first else 0
                            first = False
                else:
                    # The box's net is exactly -10: charged to its first hand, every other
                    # wager (busted ones too) returned.
                    for h in range(nh):
                        hand[b, h, HF_NET] = -unit if h == 0 else 0
            else:
                for h in range(nh):
                    st = hand[b, h, HF_STATUS]
                    if st == HS_BJ:
                        hand[b, h, HF_NET] = p[L.P_BJ_WIN]
                    elif st == HS_STOOD:
                        t = _total(hand[b, h, HF_HARD], hand[b, h, HF_ACE])
                        if d_total > 21 or t > d_total:
                            hand[b, h, HF_NET] = hand[b, h, HF_WAGER]
                        elif t < d_total:
                            hand[b, h, HF_NET] = -hand[b, h, HF_WAGER]
                        else:
                            hand[b, h, HF_NET] = 0
    d_total = _total(d_hard, d_ace)

    # Record.
    rec[L.R_CARDS] = sh[SH_DRAWN]
    rec[L.R_DEALER_CARDS] = d_n
    rec[L.R_DEALER_TOTAL] = d_total
    rec[L.R_DEALER_BJ] = 1 if dealer_bj else 0
    for b in range(nb):
        o = L.R_FIXED + b * L.R_BOX
        nh = bx[b, BF_NH]
        main = 0
        doubles = 0
        busts = 0
        surrs = 0
        wins = 0
        losses = 0
        pushes = 0
        for h in range(nh):
            net = hand[b, h, HF_NET]
            main += net
            doubles += hand[b, h, HF_DOUBLED]
            st = hand[b, h, HF_STATUS]
            if st == HS_BUST:
                busts += 1
            elif st == HS_SURR:
                surrs += 1
            if net > 0:
                wins += 1
            elif net < 0:
                losses += 1
            else:
                pushes += 1
        line = bx[b, BF_SS]
        if line == SS_PENDING:
            # No third card (stood, or the round ended by a peek): (b) or (c) by suits.
            line = SS_C if (bx[b, BF_C1] & 3) == (bx[b, BF_C2] & 3) else SS_B
            bx[b, BF_SS] = line
        if line < 0:
            ss = 0
        elif line == SS_F:
            ss = -1
        else:
            ss = p[L.P_SS_PAY_A + line]
        rec[o + L.B_MAIN] = main
        rec[o + L.B_INS] = bx[b, BF_INS_NET]
        rec[o + L.B_SS] = ss
        rec[o + L.B_SS_LINE] = line
        rec[o + L.B_HANDS] = nh
        rec[o + L.B_DOUBLES] = doubles
        rec[o + L.B_BUSTS] = busts
        rec[o + L.B_BJ] = bx[b, BF_BJ]
        rec[o + L.B_EVEN_MONEY] = bx[b, BF_EM]
        rec[o + L.B_INS_TAKEN] = bx[b, BF_INS]
        rec[o + L.B_SURRENDERS] = surrs
        rec[o + L.B_WINS] = wins
        rec[o + L.B_LOSSES] = losses
        rec[o + L.B_PUSHES] = pushes


@njit
def _add_tally(p, rec, hand, bx, tally):
    """Add one round's record (and its scratch) into the tally vector (layout ``T_*``)."""
    nb = p[L.P_BOXES]
    tally[L.T_ROUNDS] += 1
    tally[L.T_BOX_ROUNDS] += nb
    round_total = 0
    ss_round = 0
    for b in range(nb):
        o = L.R_FIXED + b * L.R_BOX
        main = rec[o + L.B_MAIN]
        ins = rec[o + L.B_INS]
        tot = main + ins
        tally[L.T_MAIN_SUM] += main
        tally[L.T_MAIN_SQ] += main * main
        tally[L.T_TOTAL_SUM] += tot
        tally[L.T_TOTAL_SQ] += tot * tot
        round_total += tot
        tally[L.T_INS_OFFERED] += bx[b, BF_INS_OFFERED]
        tally[L.T_INS_TAKEN] += rec[o + L.B_INS_TAKEN]
        if ins > 0:
            tally[L.T_INS_WON] += 1
        tally[L.T_INS_SUM] += ins
        tally[L.T_EM_OFFERED] += bx[b, BF_EM_OFFERED]
        tally[L.T_EM_TAKEN] += rec[o + L.B_EVEN_MONEY]
        nh = rec[o + L.B_HANDS]
        tally[L.T_HANDS] += nh
        tally[L.T_WINS] += rec[o + L.B_WINS]
        tally[L.T_LOSSES] += rec[o + L.B_LOSSES]
        tally[L.T_PUSHES] += rec[o + L.B_PUSHES]
        tally[L.T_PLAYER_BJ] += rec[o + L.B_BJ]
        tally[L.T_DOUBLES] += rec[o + L.B_DOUBLES]
        tally[L.T_SPLITS] += nh - 1
        tally[L.T_BUSTS] += rec[o + L.B_BUSTS]
        tally[L.T_SURRENDERS] += rec[o + L.B_SURRENDERS]
        line = rec[o + L.B_SS_LINE]
        if line >= 0:
            ss = rec[o + L.B_SS]
            tally[L.T_SS_BETS] += 1
            tally[L.T_SS_A + line] += 1
            tally[L.T_SS_SUM] += ss
            tally[L.T_SS_SQ] += ss * ss
            ss_round += ss
        for h in range(nh):
            tally[L.T_MAIN_WAGERED] += hand[b, h, HF_WAGER]
    tally[L.T_RTOTAL_SUM] += round_total
    tally[L.T_RTOTAL_SQ] += round_total * round_total
    if p[L.P_SS] != 0:
        tally[L.T_SS_RSUM] += ss_round
        tally[L.T_SS_RSQ] += ss_round * ss_round
    if rec[L.R_DEALER_BJ] != 0:
        tally[L.T_DEALER_BJ] += 1
    else:
        t = rec[L.R_DEALER_TOTAL]
        if t > 21:
            tally[L.T_DEALER_BUST] += 1
        elif t >= 17:
            tally[L.T_DEALER_17 + t - 17] += 1
    tally[L.T_CARDS_DEALT] += rec[L.R_CARDS]


# ---------------------------------------------------------------------------------------------
# Drivers.
@njit
def _simulate_chunk(p, hard_t, soft_t, pairs_t, sevens_t, flags_t, n_rounds, rng, tally, trace):
    """Play ``n_rounds`` rounds from a fresh shuffle, adding into ``tally``; ``rng`` advances.

    ``trace`` (int8) is empty in production; if it is not, the cards of each round are appended to
    it in dealing order (for tests; a round dealt partly from reshuffled discards is not traced).
    Returns 0, or 1 if the shoe ran out mid-round with no discards to reshuffle.
    """
    nb = p[L.P_BOXES]
    shoe = _fresh_shoe(p[L.P_DECKS])
    n_cards = shoe.size
    sh = np.zeros(N_SH, np.int64)
    sh[SH_N] = n_cards
    sh[SH_END] = n_cards
    sh[SH_NEED_FULL] = 1  # a chunk starts with a fresh shuffle
    hand = np.zeros((nb, MAX_HANDS, N_HF), np.int64)
    bx = np.zeros((nb, N_BF), np.int64)
    rec = np.zeros(L.R_FIXED + nb * L.R_BOX, np.int64)
    cut = p[L.P_CUT]
    every_round = p[L.P_SHUFFLE] == L.SHUFFLE_EVERY_ROUND
    tracing = trace.size > 0
    traced = 0
    for _ in range(n_rounds):
        # 7.1: the cut card came out as the first card of this round or during the last one.
        if sh[SH_NEED_FULL] != 0 or every_round or sh[SH_POS] >= cut:
            sh[SH_POS] = 0
            sh[SH_END] = n_cards
            sh[SH_SHUFFLES] += 1
            sh[SH_NEED_FULL] = 0
        sh[SH_ROUND_START] = sh[SH_POS]
        sh[SH_DRAWN] = 0
        _play_round(p, hard_t, soft_t, pairs_t, sevens_t, flags_t, shoe, sh, rng, hand, bx, rec)
        if sh[SH_FAIL] != 0:
            return 1
        _add_tally(p, rec, hand, bx, tally)
        if tracing and sh[SH_NEED_FULL] == 0:
            start = sh[SH_ROUND_START]
            for i in range(sh[SH_DRAWN]):
                if traced < trace.size:
                    trace[traced] = shoe[start + i]
                    traced += 1
    tally[L.T_SHUFFLES] += sh[SH_SHUFFLES]
    return 0


@njit
def _play_stacked(p, hard_t, soft_t, pairs_t, sevens_t, flags_t, cards, cut, out):
    """Play rounds off ``cards`` in order while ``pos < cut``; write complete rounds to ``out``.

    Returns the number of complete rounds.
    """
    nb = p[L.P_BOXES]
    shoe = cards.copy()
    sh = np.zeros(N_SH, np.int64)
    sh[SH_N] = shoe.size
    sh[SH_END] = shoe.size
    sh[SH_STACKED] = 1
    rng = np.zeros(4, np.uint64)  # unused in stacked mode
    hand = np.zeros((nb, MAX_HANDS, N_HF), np.int64)
    bx = np.zeros((nb, N_BF), np.int64)
    r = 0
    while sh[SH_POS] < cut and r < out.shape[0]:
        sh[SH_ROUND_START] = sh[SH_POS]
        sh[SH_DRAWN] = 0
        _play_round(p, hard_t, soft_t, pairs_t, sevens_t, flags_t, shoe, sh, rng, hand, bx, out[r])
        if sh[SH_FAIL] != 0:
            break
        r += 1
    return r


# ---------------------------------------------------------------------------------------------
# Public wrappers.
def _check_params(params) -> np.ndarray:
    p = np.ascontiguousarray(params, dtype=np.int64)
    if p.shape != (L.N_PARAMS,):
        raise ValueError(
            f"kernel: params has shape {p.shape}: expected ({L.N_PARAMS},) from Rules.to_params()"
        )
    if not 1 <= p[L.P_DECKS] <= 8:
        raise ValueError(f"kernel: params decks = {p[L.P_DECKS]} is out of range: allowed 1-8")
    if not 1 <= p[L.P_BOXES] <= MAX_BOXES:
        raise ValueError(f"kernel: params boxes = {p[L.P_BOXES]} is out of range: allowed 1-7")
    if not 1 <= p[L.P_MAX_HANDS] <= MAX_HANDS:
        raise ValueError(
            f"kernel: params max_hands = {p[L.P_MAX_HANDS]} is out of range: allowed 1-4"
        )
    return p


def _check_tables(tables, boxes: int) -> tuple:
    if len(tables) != 5:
        raise ValueError(
            "kernel: tables must be (hard, soft, pairs, sevens, flags) from strategy.stack"
        )
    shapes = ((L.N_TOTALS, L.N_UP), (L.N_TOTALS, L.N_UP), (L.N_PAIRS, L.N_UP), (L.N_UP,), (2,))
    names = ("hard", "soft", "pairs", "sevens", "flags")
    out = []
    for name, shape, table in zip(names, shapes, tables, strict=True):
        t = np.ascontiguousarray(table, dtype=np.int8)
        if t.shape != (boxes,) + shape:
            raise ValueError(
                f"kernel: table '{name}' has shape {t.shape}: expected {(boxes,) + shape} "
                f"(one strategy per box, boxes = {boxes})"
            )
        out.append(t)
    for name, t in zip(names[:4], out[:4], strict=True):
        if t.min() < 0 or t.max() >= len(L.ACTION_NAMES):
            raise ValueError(
                f"kernel: table '{name}' holds a code outside 0-{len(L.ACTION_NAMES) - 1}"
            )
    return tuple(out)


def simulate_chunk(params, tables, n_rounds: int, state) -> np.ndarray:
    """Play ``n_rounds`` rounds from a fresh shuffle and return their tally.

    Parameters
    ----------
    params : array of int64, shape (N_PARAMS,)
        From ``Rules.to_params()``.
    tables : tuple
        ``(hard, soft, pairs, sevens, flags)`` from ``strategy.stack``, one strategy per box.
    n_rounds : int
        Rounds to play (>= 0).
    state : array of uint64, shape (4,)
        xoshiro256** state (not all zero); not modified.

    Returns
    -------
    np.ndarray of int64, shape (N_TALLY,)
        The tally (layout ``TALLY_NAMES``).
    """
    p = _check_params(params)
    hard, soft, pairs, sevens, flags = _check_tables(tables, int(p[L.P_BOXES]))
    n_rounds = int(n_rounds)
    if n_rounds < 0:
        raise ValueError(f"kernel: n_rounds = {n_rounds} is out of range: allowed >= 0")
    rng = np.array(state, dtype=np.uint64).reshape(-1).copy()
    if rng.shape != (4,) or not rng.any():
        raise ValueError("kernel: state must be four uint64 words, not all zero")
    tally = np.zeros(L.N_TALLY, np.int64)
    status = _simulate_chunk(
        p, hard, soft, pairs, sevens, flags, n_rounds, rng, tally, np.empty(0, np.int8)
    )
    if status != 0:
        raise ValueError(
            f"kernel: the shoe ran out mid-round with no discards to reshuffle "
            f"(decks = {p[L.P_DECKS]}, boxes = {p[L.P_BOXES]}): use more decks or fewer boxes"
        )
    return tally


def _as_strategy_list(strategies, boxes: int) -> list:
    if not isinstance(strategies, (list, tuple)):
        strategies = [strategies]
    strategies = list(strategies)
    if len(strategies) == 1 and boxes > 1:
        strategies = strategies * boxes
    if len(strategies) != boxes:
        raise ValueError(
            f"strategies: {len(strategies)} given for boxes = {boxes}: give one, or one per box"
        )
    return strategies


def stack_for(rules, strategies) -> tuple:
    """``strategy.stack`` of ``strategies`` (one Strategy, or one per box) for ``rules.boxes``."""
    from simulator.strategy import stack

    return stack(_as_strategy_list(strategies, rules.boxes))


def play_stacked(cards, rules, strategies, cut=None) -> np.ndarray:
    """Play rounds off ``cards`` in the given order (no shuffling), one record per complete round.

    Parameters
    ----------
    cards : sequence of int
        Card codes 0..51 (``layout``), dealt in order.
    rules : Rules
    strategies : Strategy or list of Strategy
        One strategy for every box, or one per box.
    cut : int, optional
        Rounds are started while ``pos < cut``; default ``len(cards)``. A round that runs out of
        cards part way is incomplete: not reported, and play stops.

    Returns
    -------
    np.ndarray of int64, shape (rounds, R_FIXED + boxes * R_BOX)
    """
    p = _check_params(rules.to_params())
    boxes = int(p[L.P_BOXES])
    tables = _check_tables(stack_for(rules, strategies), boxes)
    c = np.asarray(cards)
    if c.ndim != 1:
        raise ValueError(f"cards: expected a flat sequence of card codes, got shape {c.shape}")
    if c.size and (c.min() < 0 or c.max() >= L.N_CODES):
        raise ValueError(f"cards: card codes must be 0-{L.N_CODES - 1}")
    c = np.ascontiguousarray(c, dtype=np.int8)
    cut = c.size if cut is None else int(cut)
    if cut < 0:
        raise ValueError(f"cut = {cut} is out of range: allowed >= 0")
    width = L.R_FIXED + boxes * L.R_BOX
    out = np.zeros((c.size // (2 * boxes + 1) + 1, width), np.int64)
    n = _play_stacked(p, *tables, c, np.int64(cut), out)
    return out[:n].copy()
