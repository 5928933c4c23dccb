"""Numba kernels: random numbers, the lazy shuffle, one round of blackjack, chunks, stacked shoes.

Implements the game procedure of ``docs/design.md`` ("One round, in order"): dealing (with or
without a hole card), blackjack (8.2), even money (8.3), insurance (9), early and late surrender,
splitting (11, 11 (b), 11 (c), 11.5), doubling (10), the drawing rules 12.1 (a), (b), (d), busts
(12.2), the dealer's draw (12.3, 12.4), settlement (4.1 and the dealer-blackjack variants), Super
Sevens (14, 14.4) and the cut card (7.1, 1999 amendment).

The round function is ``_play_rounds``: its loop body is one round (the general path), and for
one box it hands the common rounds to ``_fast_rounds`` (the fast path, below). The simulation
mode (``simulate_chunk``) feeds them cards by a lazy Fisher-Yates shuffle driven by xoshiro256**
and adds each round into the tally; the stacked mode (``play_stacked``) feeds them the given
cards in order and writes each round's record. Both take cards through ``_pick`` (lazy
Fisher-Yates step, or the next card in order) and play the same code, so the stacked mode (which
the tests hold to the reference game) checks exactly the code that simulates.

The lean game (no hole card, no surrender, no insurance or even money taken, the dealer not
drawing to dead hands; boxes with the same or different strategies) is simulated by a state machine
(``simulator.machine``; ``_machine_rounds`` for one box, ``_machine_boxes_rounds`` for several):
one table read per card in place of the fast path's branches, the same cards in the same order,
a box that splits or holds 7-7 under Super Sevens played by the machine too (in code, rare: one
round in 30 with one box). It has no stacked mode; the tests hold
its tally to the fast path's (one box) and the general path's (several boxes), field by field,
on the same seeds, for many games and strategies.

Speed notes. The hot state (shoe position, end of the undealt region, the four xoshiro words) lives
in local variables of ``_play_rounds``. Cards are taken at a few written-out places with scalar
helpers only (``_pick``, ``_bounded``, ``_next_u64``, inlined at numba IR level): passing an array
to a helper, even an inlined one, costs a reference-count pair per call, so on the common path no
array is passed to any function. The strategy's hard and soft tables are resolved in advance
(``_resolve_tables``) into one table of actions per (box, soft, total, up card, doubling allowed,
surrender allowed), with the rule fallbacks (``D`` -> hit when doubling is not allowed, ...) and
the forced draw of 12.1 (d) applied, and re-indexed by (ace, hard sum) with 21 and busts folded in
(``_by_hard_sum``). One box in the no-hole game without early surrender has a fast path,
``_fast_rounds``: a round loop of its own (called from ``_play_rounds``, which it returns to when
a pair to split is dealt, about one round in twenty), for rounds whose first two cards are not a
pair, or a pair the strategy does not split (10-10 above all): the hand and the dealer in locals,
sums kept in locals and added into the tally on return; the dealer draws while one read of a
stand table (by ace, hard sum) says so. A fast round starts only with at least
``MAX_ROUND_CARDS`` cards left, so it takes cards with no refill check (stacked mode reads on
into the slack of tens and fails the round). It is compiled in four versions chosen by argument
types (simulation or stacked; lean or full, the lean one for strategies that take no insurance
or even money, no surrender, the dealer not drawing to dead hands, no trace), so no version
carries code it cannot run. Everything else (more boxes, pairs that split, 7-7 under Super
Sevens, peek, early surrender) takes the general path, which keeps hands in small arrays.
Both paths run in both modes, so the agreement tests check both; a test checks that the lean and
full versions give the same tally.
The shoe, and the fast path's small tables, are indexed with ``np.uint64``: numba then omits
the negative-index wraparound of signed indices (the three shoe accesses of every card above all).
Together with fewer running sums (the round total and the wager are derived at the end), 1.10x
for one box over the kernel before these changes (measured side by side, pinned to one core,
identical tallies). The fast path's loop of its own, with no refill checks and its four versions,
a further 1.18x (20.1 to 23.7 M rounds a second side by side, identical tallies): with the fast
path inside ``_play_rounds``, code it never ran (the general path, the rare tallies, stacked
records) cost registers and speed; leaving out only rare, never-taken branches measured 5%.

The state machine: one box 46 M rounds a second against 24 M for the fast path (bench.py, one
core, 854 states, a 17 KB table of int16). A stripped one-box loop of the fast path's kind ran at
30 M: the branches, not the work, were the cost. Seven boxes: 19-20 M box-rounds a second while a
round needed 179 cards left to start in the machine (two cards and 21 hits a box, the dealer's 17)
and any split went to the general path: in a 6-deck shoe cut at 234 the rounds after card 133 and
one round in six besides were the general path's. With the split boxes played by the machine and
only the deal's cards needed to start (later cards check for the end of the shoe), 5.7 M rounds a
second (Super Sevens on) and 6.9 M (off) against 2.7 M and 2.8 M, side by side, identical tallies.
One box with its split rounds played by the machine in place of the general path: 1.10x (47.4 to
52.2 M, side by side; a strategy that never splits runs at 59 M). 7-7 under Super Sevens played
by the machine too: seven boxes 1.10x (5.6 to 6.2 M), one box unchanged. Seven boxes playing four
different strategies, which had the general path: 2.1 to 6.3 M (one table, a start a box). Tried
and not kept: the take-a-card blocks of the machine's rounds played in code (split boxes, 7-7,
the one-box dealer) as calls of one helper, 0.88x for one box and 0.95x for seven, though those
rounds are rare.

Where the time went (NZ game, one box, fast path, measured by leaving parts out): dealing the
three cards of the deal plus the round's bookkeeping about 45%, the player's draws about 25%, the
dealer's draws about 30%. The random numbers are not the cost (the lazy draws alone of 5.3 cards
a round run at floor.py's speed); unpredictable branches are (hit or stand, the dealer's last
card, stood or bust). Tried and measured slower, so not kept: dealing ahead in a tight loop with the
unused cards undone at the shuffle (0.85x), and the fast path as a jitted function of its own
(0.91x, 0.98x without reference counting): the calls cost more than the registers won. Also
measured and not kept: one lookup of a (card 1, card 2, up card) 'case' byte in place of the
pair, blackjack and ace-up checks (0.88x; for the pair check alone 0.99x), the stood / bust /
surrender outcome written without branches (0.97x), the dealer's need for a second card as a
table (0.99x), the hit decisions from a table indexed [up, ace, hard] (0.99x), the shoe as uint8
(1.00x), wins and losses in locals (no gain), the Lemire rejection out of line (0.96x), the rare
counts (doubles, busts, blackjacks) added inside their branches (1.00x). Tried on the fast loop
of its own, not kept: seven cards drawn ahead at the start of a round (lazy steps, the unused ones
drawn again by the next round) with the player's first card and the dealer's first three taken
from them with no branch (0.90x; the window alone 1.02x), the dealer's draw as a 0/1 flag (0.98x).
A stripped one-box loop (no pair exit, blackjack and settlement simplified, no records) ran at
30 M rounds a second, 0.36 of floor: the gap from 23.7 M is in what the game needs, spread over
many small pieces (each measured at 1-6%). The branches that remain
are well predicted or correlated with the ones before them; taking them out lengthens the chain
of dependent operations that speculation would otherwise run past.

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

# Shoe workspace ``ws`` (int64): the cold part of the shoe state (pos and end are locals).
WS_POS = 0  # next position to deal (written back when the driver returns)
WS_END = 1  # end of the undealt region (written back when the driver returns)
WS_ROUND_START = 2  # position of the first card of this round (discards are 0..ROUND_START-1)
WS_STACKED = 3  # 1: deal shoe[pos] in order; 0: lazy Fisher-Yates draw
WS_FAIL = 4  # 1: ran out of cards (stacked: incomplete round; simulation: no discards left)
WS_SHUFFLES = 5  # shuffles made (the chunk's first, cut-card, every-round, mid-round fallbacks)
WS_BEFORE = 6  # cards of this round dealt before a mid-round reshuffle of the discards
WS_NEED_FULL = 7  # 1: the next round must start with a full shuffle
WS_TRACED = 8  # cards written into ``trace`` so far
WS_C1 = 9  # a pair dealt by ``_fast_rounds`` for ``_play_rounds`` to play on: first card
WS_UV = 10  # ... the dealer's up card's value
WS_C2 = 11  # ... second card
N_WS = 12

# What ``_fast_rounds`` stopped for.
FR_DONE, FR_PAIR, FR_STOP, FR_GENERAL = 0, 1, 2, 3
# State flags of the machine (``simulator.machine``).
M_TERMINAL, M_BOUNDARY, M_PLAYER, M_DEALER, M_STOOD, M_PAIR, M_SPLIT_HAND = (
    1, 2, 4, 8, 16, 32, 64
)
M_OUTCOMES = 8  # the dealer's outcomes of ``Machine.settle``
# At most the cards of a round of one hand: the deal, 21 hits of an ace (a hand hits at a hard
# sum of 20 or less) and 16 of the dealer's (who draws at a hard sum of 16 or less), rounded up.
MAX_ROUND_CARDS = 48

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
A_BUST = 5  # only in the table by hard sum: the hand is over 21

# Resolved action table ``act[box, soft, total, up, variant]`` (int8), flattened; variant =
# 2 * (doubling allowed on this hand's cards) + (surrender allowed here).
N_VARIANTS = 4
ACT_BOX = 2 * L.N_TOTALS * L.N_UP * N_VARIANTS
# The same, indexed by the hand as held ``[box, ace, hard sum, up, variant]`` (fast path): totals of
# 21 resolve to ``A_STAND`` and hands over 21 to ``A_BUST``, so one read settles a decision.
HARD_MAX = 32  # hard sums 0..31 (a hand hits at 20 or less, so it holds at most 30)
HX_BOX = 2 * HARD_MAX * L.N_UP * N_VARIANTS

TEN_CODE = 36  # ten of clubs: dealt after the cards have run out, only to finish a doomed round

MASK32 = np.uint64(0xFFFFFFFF)
TWO32 = np.uint64(0x100000000)
U5 = np.uint64(5)
U7 = np.uint64(7)
U9 = np.uint64(9)
U17 = np.uint64(17)
U19 = np.uint64(19)
U32 = np.uint64(32)
U45 = np.uint64(45)
U57 = np.uint64(57)


# ---------------------------------------------------------------------------------------------
# Random numbers: xoshiro256** and Lemire's bounded draw with rejection. The state is four
# uint64 scalars passed in and returned, so the caller keeps it in registers.
@njit(inline="always")
def _next_u64(s0, s1, s2, s3):
    """One xoshiro256** step: ``(output, s0, s1, s2, s3)``."""
    x = s1 * U5
    result = ((x << U7) | (x >> U57)) * U9
    t = s1 << U17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << U45) | (s3 >> U19)
    return result, s0, s1, s2, s3


@njit(inline="always")
def _bounded(n, s0, s1, s2, s3):
    """Exactly uniform integer in ``0..n-1`` (1 <= n <= 2**32), Lemire's multiply-shift.

    The upper 32 bits of a draw times ``n`` give the result; draws whose low product falls below
    ``2**32 mod n`` are rejected, which removes the bias exactly. Returns ``(k, s0, s1, s2, s3)``.
    """
    nn = np.uint64(n)
    r, s0, s1, s2, s3 = _next_u64(s0, s1, s2, s3)
    m = (r >> U32) * nn
    low = m & MASK32
    if low < nn:
        threshold = (TWO32 - nn) % nn
        while low < threshold:
            r, s0, s1, s2, s3 = _next_u64(s0, s1, s2, s3)
            m = (r >> U32) * nn
            low = m & MASK32
    return np.int64(m >> U32), s0, s1, s2, s3


@njit
def _draw_bounded_many(state, n, count):
    """``count`` bounded draws in ``0..n-1`` from ``state`` (for tests)."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    out = np.empty(count, np.int64)
    for i in range(count):
        out[i], s0, s1, s2, s3 = _bounded(n, s0, s1, s2, s3)
    return out


@njit
def _next_u64_many(state, count):
    """``count`` raw xoshiro256** outputs from ``state`` (for tests)."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    out = np.empty(count, np.uint64)
    for i in range(count):
        out[i], s0, s1, s2, s3 = _next_u64(s0, s1, s2, s3)
    return out


# ---------------------------------------------------------------------------------------------
# The shoe. Its array holds the real cards followed by ``SLACK`` tens: after the cards have run
# out (stacked: an incomplete round; simulation: no discards left) the doomed round is dealt tens
# from there so that it can run to its end (every draw loop terminates), and is then discarded.
SLACK = 256


@njit
def _fresh_shoe(decks):
    """Every card code ``decks`` times, ordered (the lazy shuffle makes the order irrelevant),
    then the ``SLACK`` tens."""
    n = 52 * decks
    shoe = np.full(n + SLACK, TEN_CODE, np.int8)
    for i in range(n):
        shoe[i] = i % 52
    return shoe


@njit
def _refill(ws, pos, n_cards):
    """The undealt region ran out mid-round (``pos >= end``): returns the new ``(pos, end)``.

    Simulation: the discards ``0..round_start-1`` become the shoe (``pos = 0, end =
    round_start``) and the next round starts with a full shuffle. With no discards (or in stacked
    mode) ``WS_FAIL`` is set and the slack of tens is dealt from instead.
    """
    if ws[WS_STACKED] != 0 or ws[WS_ROUND_START] == 0:
        ws[WS_FAIL] = 1
        return n_cards, n_cards + SLACK
    ws[WS_BEFORE] = pos - ws[WS_ROUND_START]
    end = ws[WS_ROUND_START]
    ws[WS_ROUND_START] = 0
    ws[WS_SHUFFLES] += 1
    ws[WS_NEED_FULL] = 1
    return 0, end


@njit(inline="always")
def _pick(stacked, pos, end, s0, s1, s2, s3):
    """Position of the next card (design: "Shoe and shuffle"): stacked, ``pos`` itself; else
    uniform in ``pos..end-1`` (one lazy Fisher-Yates step; the caller swaps it into ``pos``).
    Returns ``(k, s0, s1, s2, s3)``."""
    if stacked:
        return pos, s0, s1, s2, s3
    k, s0, s1, s2, s3 = _bounded(end - pos, s0, s1, s2, s3)
    return pos + k, s0, s1, s2, s3


@njit(inline="always")
def _pick_masked(mask, pos, end, s0, s1, s2, s3):
    """``_pick`` without a branch: position ``pos + (k & mask)``, ``k`` uniform in
    ``0..end-pos-1``; mask all ones for a lazy Fisher-Yates step, 0 to deal in order (the draw is
    then discarded). Returns ``(k, s0, s1, s2, s3)``."""
    k, s0, s1, s2, s3 = _bounded(end - pos, s0, s1, s2, s3)
    return pos + np.int64(np.uint64(k) & mask), s0, s1, s2, s3


@njit
def _deal_shoe(state, decks):
    """Shuffle a fresh shoe lazily and deal every card of it, in order (for tests)."""
    shoe = _fresh_shoe(decks)
    n = shoe.size - SLACK
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    out = np.empty(n, np.int64)
    for pos in range(n):
        k, s0, s1, s2, s3 = _pick(False, pos, n, s0, s1, s2, s3)
        code = shoe[k]
        shoe[k] = shoe[pos]
        shoe[pos] = code
        out[pos] = code
    return out


# ---------------------------------------------------------------------------------------------
# Hands and decisions.
@njit(inline="always")
def _value(code):
    """Blackjack value of a card code, ace = 1, ten-valued = 10."""
    return min((code >> 2) + 1, 10)


@njit(inline="always")
def _total(hard, ace):
    """Best total: ``hard + 10`` when the hand holds an ace and that is <= 21 (3.2)."""
    if ace != 0 and hard + 10 <= 21:
        return hard + 10
    return hard


@njit
def _sevens_line(c1, c2, c3):
    """Super Sevens line of an unsplit 7-7 (cards ``c1``, ``c2``) given its third card ``c3``:
    (e) three sevens of one suit, (d) three sevens, else (c) 7-7 suited or (b) unsuited (14)."""
    if (c3 >> 2) == L.SEVEN_RANK:
        if (c1 & 3) == (c2 & 3) and (c2 & 3) == (c3 & 3):
            return SS_E
        return SS_D
    if (c1 & 3) == (c2 & 3):
        return SS_C
    return SS_B


@njit
def _split_hands(hand, bx, b, h):
    """Split hand ``h`` of box ``b`` (11): its second card moves to a new hand inserted right
    after it with an equal wager. The caller then deals the current hand its second card."""
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


@njit
def _double_on_allows(rule, soft, total):
    """Rule ``double_on`` (10) for a two-card hand: may it double? (A two-card hand holding an ace
    is always soft, so 'hard' = 'no ace' here.)"""
    if rule == L.DOUBLE_ANY:
        return True
    if rule == L.DOUBLE_HARD:
        return not soft
    if rule == L.DOUBLE_9_11:
        return (not soft) and 9 <= total <= 11
    return (not soft) and 10 <= total <= 11


@njit
def _resolve(code, can_double, can_surrender, total):
    """A hard/soft/sevens table code filtered by the rules: ``D`` doubles if allowed else hits,
    ``Ds`` doubles else stands, ``Rh``/``Rs`` surrender else hit/stand; 12.1 (d): a hand of 11 or
    less that would stand draws instead."""
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
    return act


@njit
def _resolve_tables(p, hard_t, soft_t):
    """The resolved action table (layout ``ACT_BOX``): one cell per situation, fallbacks applied."""
    nb = hard_t.shape[0]
    act = np.empty(nb * ACT_BOX, np.int8)
    rule = p[L.P_DOUBLE_ON]
    i = 0
    for b in range(nb):
        for soft in range(2):
            for total in range(L.N_TOTALS):
                for up in range(L.N_UP):
                    code = soft_t[b, total, up] if soft else hard_t[b, total, up]
                    for variant in range(N_VARIANTS):
                        can_double = variant >= 2 and _double_on_allows(rule, soft != 0, total)
                        act[i] = _resolve(code, can_double, (variant & 1) != 0, total)
                        i += 1
    return act


@njit
def _by_hard_sum(act_t):
    """The resolved table re-indexed by (ace, hard sum); 21 and busts folded in (``HX_BOX``)."""
    nb = act_t.size // ACT_BOX
    hx = np.empty(nb * HX_BOX, np.int8)
    i = 0
    for b in range(nb):
        for ace in range(2):
            for hard in range(HARD_MAX):
                total = _total(hard, ace)
                soft = 1 if total != hard else 0
                for up in range(L.N_UP):
                    for variant in range(N_VARIANTS):
                        if total > 21:
                            hx[i] = A_BUST
                        elif total == 21:
                            hx[i] = A_STAND
                        else:
                            j = b * ACT_BOX + ((soft * L.N_TOTALS + total) * L.N_UP + up)
                            hx[i] = act_t[j * N_VARIANTS + variant]
                        i += 1
    return hx


@njit
def _decide(hand6, cells, can_surrender, rules4):
    """The strategy's decision for a hand, filtered by the rules (scalars only: no array is
    passed, so a call costs no reference counting).

    ``hand6`` = (hard, ace, n, split_ace, v1, v2) of the hand; ``cells`` = (box's hands, box has
    declined a split, box has split aces, 7-7 pending, sevens-row code, pair-table code, hard-table
    code for the hand's total, resolved-table action for the hand) read by the caller;
    ``rules4`` = (max_hands, das, rsa, hsa, double_on). Returns ``(action, declined)``: ``action``
    is one of ``A_*``; ``declined`` is 1 when the pair cell said not to split (``N``, or ``Pd``
    without double after split), which is a declined split under 11.5 (the caller records it; the
    early-surrender look-ahead ignores it).
    """
    max_hands, das, rsa, hsa, double_on = rules4
    hard, ace, n, split_ace, v1, v2 = hand6
    nh, box_declined, aces_split, ss_pending, sevens_code, pair_cell, hard_code, table_act = cells
    total = _total(hard, ace)
    soft = total != hard
    two = n == 2
    elig = two and (split_ace == 0 or hsa != 0) and (nh == 1 or das != 0)
    declined = 0
    if two:
        if ss_pending:
            # Super Sevens up and the box's first two cards 7-7: the sevens row decides (14.4).
            code = sevens_code
            if code == L.P:
                if nh < max_hands:
                    return A_SPLIT, 0
                code = hard_code  # no split possible: played from the hard table
            can_double = elig and _double_on_allows(double_on, soft, total)
            return _resolve(code, can_double, can_surrender, total), 0
        if (
            v1 == v2
            and nh < max_hands
            and box_declined == 0
            and (v1 != 1 or aces_split == 0 or rsa != 0)
        ):
            if pair_cell == L.P:
                return A_SPLIT, 0
            if pair_cell == L.PD:
                if das != 0:
                    return A_SPLIT, 0
                declined = 1
            elif pair_cell == L.RP:
                if can_surrender:
                    return A_SURRENDER, 0
                return A_SPLIT, 0
            else:
                declined = 1
    return table_act, declined


@njit
def _decide_hand(act_t, hard_t, pairs_t, sevens_t, b, h, up, hand, bx, can_surrender, rules4):
    """``_decide`` for hand ``h`` of box ``b`` read from the arrays (the early-surrender look-ahead;
    the round loop reads the cells itself)."""
    hard = hand[b, h, HF_HARD]
    ace = hand[b, h, HF_ACE]
    n = hand[b, h, HF_N]
    v1 = hand[b, h, HF_V1]
    nh = bx[b, BF_NH]
    hand6 = (hard, ace, n, hand[b, h, HF_SPLIT_ACE], v1, hand[b, h, HF_V2])
    total = _total(hard, ace)
    soft = 1 if total != hard else 0
    elig = n == 2 and (hand6[3] == 0 or rules4[3] != 0) and (nh == 1 or rules4[1] != 0)
    variant = (2 if elig else 0) + (1 if can_surrender else 0)
    i = b * ACT_BOX + ((soft * L.N_TOTALS + total) * L.N_UP + up) * N_VARIANTS + variant
    cells = (
        nh, bx[b, BF_DECLINED], bx[b, BF_ACES_SPLIT], bx[b, BF_SS] == SS_PENDING,
        np.int64(sevens_t[b, up]), np.int64(pairs_t[b, max(v1, 1) - 1, up]),
        np.int64(hard_t[b, total, up]), np.int64(act_t[i]),
    )  # fmt: skip
    return _decide(hand6, cells, can_surrender, rules4)


# ---------------------------------------------------------------------------------------------
# The round function and its two drivers.
@njit
def _trace_round(trace, traced, shoe, ws, drawn):
    """Append this round's cards to ``trace`` (tests only); a round dealt partly from reshuffled
    discards is not traced. Returns the new length."""
    if ws[WS_NEED_FULL] == 0:
        start = ws[WS_ROUND_START]
        for i in range(drawn):
            if traced < trace.size:
                trace[traced] = shoe[start + i]
                traced += 1
    return traced


@njit
def _fast_rounds(
    p,
    hx_t,
    d_stands,
    d_outcome,
    pair_plays_fast,
    flags_t,
    shoe,
    ws,
    rng,
    r,
    n_rounds,
    cut,
    out,
    tally,
    trace,
    f_dealer,
    full,
):
    """The fast path: rounds for one box in the no-hole game without early surrender, from round
    ``r`` on, in a loop of their own (few live values, so they stay in registers).

    It plays every round whose first two cards are not a pair, or a pair its strategy does not
    split (10-10 above all; a declined split, 11.5, matters only to later pairs of the box, and
    this path has none): the hand and the dealer in locals, sums in locals added into ``tally``
    on return (simulation) or each round's record in ``out`` (stacked). It returns ``(r,
    FR_*)``: ``FR_DONE`` at ``n_rounds``, ``FR_STOP`` when play stops (stacked: the cut; out of
    cards), ``FR_PAIR`` when a pair to split (or 7-7 under Super Sevens) has been dealt: its
    cards are in ``ws[WS_C1]``, ``ws[WS_UV]``, ``ws[WS_C2]`` and ``_play_rounds`` plays the
    round on. Shoe position, end and random state come in and go out through ``ws`` and
    ``rng``; ``f_dealer`` is scratch (8 counts).

    Compiled in four versions, chosen by the types of two arguments (numba prunes ``if x is None``
    branches on an argument's type): ``out`` is None in simulation mode, the record array in
    stacked mode; ``full`` is None for the lean version (no insurance or even money taken, no
    surrender, the dealer does not draw to dead hands, no trace), an int for the full one. So no
    version carries code it cannot run: each branch that remains is one the game needs. A lean game
    is simulated by the state machine (``_machine_rounds``) instead: the lean simulation version
    runs only when ``_simulate_chunk`` is given no machine, which the tests do to hold the machine
    to it, tally for tally.
    """
    ss_on = p[L.P_SS] != 0
    late = p[L.P_SURRENDER] == L.SURRENDER_LATE
    draw_no_live = p[L.P_DRAW_NO_LIVE] != 0
    dbj_rule = p[L.P_DBJ]
    dbj_orig = np.int64(dbj_rule == L.DBJ_ORIGINAL)
    bj_win = p[L.P_BJ_WIN]
    ins_win = p[L.P_INS_WIN]
    every_round = p[L.P_SHUFFLE] == L.SHUFFLE_EVERY_ROUND
    n_cards = shoe.size - SLACK
    unit = L.UNIT
    stake = L.INSURANCE_STAKE
    tracing = trace.size > 0
    traced = ws[WS_TRACED]
    ss_pay_a = p[L.P_SS_PAY_A]
    f_rounds = 0
    f_cards = 0
    f_main = 0
    f_main_sq = 0
    f_doubles = 0
    f_ss_a = 0
    f_busts = 0
    f_bj = 0
    for i in range(8):
        f_dealer[i] = 0
    pos = ws[WS_POS]
    end = ws[WS_END]
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    result = FR_DONE
    need_full = ws[WS_NEED_FULL]
    rstart = pos  # the round's first card
    # Lazy Fisher-Yates steps ``pos + (draw & mask)``: stacked mode deals in order (mask 0).
    if out is None:
        mask = ~np.uint64(0)
        fy_end = end
    else:
        mask = np.uint64(0)
        fy_end = shoe.size
    f_ins_offered = 0
    f_em_offered = 0
    # Simulation: one test a round, ``pos >= lim``, stands for the three below (shuffle first,
    # at the cut card or every round; too few cards left for a fast round).
    cut_at = 0 if every_round else cut
    lim = -1 if need_full != 0 else min(cut_at, end - MAX_ROUND_CARDS + 1)
    while r < n_rounds:
        if out is not None:
            if pos >= cut:
                result = FR_STOP
                break
        elif pos >= lim:
            if need_full != 0 or pos >= cut_at:
                # 7.1: the cut card came out as the first card of this round or in the last one.
                pos = 0
                end = n_cards
                fy_end = end
                ws[WS_SHUFFLES] += 1
                need_full = 0
                lim = min(cut_at, end - MAX_ROUND_CARDS + 1)
            if end - pos < MAX_ROUND_CARDS:
                rstart = pos  # the round starts here, on the general path
                result = FR_GENERAL  # too few cards left to play the round with no refill check
                break
        rstart = pos
        c1 = 0
        c2 = 0
        uv = 0
        # The deal: no refill check (enough cards are left, see above).
        k, s0, s1, s2, s3 = _pick_masked(mask, pos, fy_end, s0, s1, s2, s3)
        uk = np.uint64(k)
        upos = np.uint64(pos)
        code = shoe[uk]
        shoe[uk] = shoe[upos]
        shoe[upos] = code
        pos += 1
        c1 = np.int64(code)
        k, s0, s1, s2, s3 = _pick_masked(mask, pos, fy_end, s0, s1, s2, s3)
        uk = np.uint64(k)
        upos = np.uint64(pos)
        code = shoe[uk]
        shoe[uk] = shoe[upos]
        shoe[upos] = code
        pos += 1
        uv = _value(np.int64(code))
        k, s0, s1, s2, s3 = _pick_masked(mask, pos, fy_end, s0, s1, s2, s3)
        uk = np.uint64(k)
        upos = np.uint64(pos)
        code = shoe[uk]
        shoe[uk] = shoe[upos]
        shoe[upos] = code
        pos += 1
        c2 = np.int64(code)
        v1 = _value(c1)
        v2 = _value(c2)
        up = 9 if uv == 1 else uv - 2
        fast_round = v1 != v2 or pair_plays_fast[np.uint64((v1 - 1) * L.N_UP + up)] != 0
        if not fast_round:
            if out is not None and pos > end:
                ws[WS_FAIL] = 1  # the deal ran past the stacked cards
            ws[WS_C1] = c1
            ws[WS_UV] = uv
            ws[WS_C2] = c2
            result = FR_PAIR
            break
        # Flags as 0/1 integers combined with & and |: Python's ``and``/``or`` would compile to
        # branches, and these are coin tosses to the branch predictor.
        ten_or_ace = np.int64(uv == 1) | np.int64(uv == 10)
        # Super Sevens (14): 7-7 is a pair, so only (f), (a) or no bet here.
        line = -1
        if ss_on:
            line = SS_A if (c1 >> 2) == L.SEVEN_RANK else SS_F
        hard = v1 + v2
        ace = np.int64(v1 == 1) | np.int64(v2 == 1)
        bj = np.int64(hard == 11) & ace
        em = 0
        ins = 0
        em_offered = 0
        ins_offered = 0
        wager = unit
        net = 0
        doubled = 0
        if bj != 0:
            status = HS_BJ
            if uv == 1:
                em_offered = 1
                if full is not None and flags_t[0, 1] != 0:
                    em = 1  # 8.3: settled at once
                    status = HS_DONE
                    net = unit
            if status == HS_BJ and ten_or_ace == 0:
                status = HS_DONE  # 8.2: paid at once against 2-9
                net = bj_win
        else:
            status = HS_PLAY
            if uv == 1:
                ins_offered = 1
                if full is not None and flags_t[0, 0] != 0:
                    ins = 1
            # One cell by (ace, hard sum): 21 stands (12.1 (a)), over 21 busts (12.2). The
            # first decision may double or surrender; after a hit only hit, stand or bust.
            variant = 2
            if full is not None and late:
                variant = 3
            i = ((ace * HARD_MAX + hard) * L.N_UP + up) * N_VARIANTS + variant
            act = np.int64(hx_t[np.uint64(i)])
            if act == A_HIT:
                while True:
                    k, s0, s1, s2, s3 = _pick_masked(mask, pos, fy_end, s0, s1, s2, s3)
                    uk = np.uint64(k)
                    upos = np.uint64(pos)
                    code = shoe[uk]
                    shoe[uk] = shoe[upos]
                    shoe[upos] = code
                    pos += 1
                    v = _value(np.int64(code))
                    hard += v
                    ace |= np.int64(v == 1)
                    i = ((ace * HARD_MAX + hard) * L.N_UP + up) * N_VARIANTS
                    act = np.int64(hx_t[np.uint64(i)])
                    if act != A_HIT:
                        break
            elif act == A_DOUBLE:
                wager *= 2  # 12.1 (b): the wager doubles, exactly one card
                doubled = 1
                k, s0, s1, s2, s3 = _pick_masked(mask, pos, fy_end, s0, s1, s2, s3)
                uk = np.uint64(k)
                upos = np.uint64(pos)
                code = shoe[uk]
                shoe[uk] = shoe[upos]
                shoe[upos] = code
                pos += 1
                v = _value(np.int64(code))
                hard += v
                ace |= np.int64(v == 1)
                act = A_BUST if _total(hard, ace) > 21 else A_STAND
            if act == A_STAND:
                status = HS_STOOD
            elif full is None or act == A_BUST:
                status = HS_BUST
                net = -wager
            else:
                status = HS_SURR  # late surrender
                net = -stake
        # 7. Dealer (12.3, 12.4).
        stood = np.int64(status == HS_STOOD)
        bust_orig = np.int64(status == HS_BUST) & ten_or_ace & dbj_orig  # 'original': bj decides
        need_second = stood | np.int64(status == HS_BJ) | bust_orig
        need_more = stood
        if full is not None:
            need_second |= (
                np.int64(draw_no_live) | ins | (ten_or_ace & np.int64(status == HS_SURR))
            )  # fmt: skip
            need_more |= np.int64(draw_no_live)
        d_hard = uv
        d_ace = np.int64(uv == 1)
        d_n = 1
        d_bj = 0
        if stood != 0:
            # The common case: the hand stood, the dealer plays out (12.3: one read of the stand
            # table per card, h17 folded in). Written apart from the rare cases below so that the
            # stood-or-bust branch leads straight here.
            k, s0, s1, s2, s3 = _pick_masked(mask, pos, fy_end, s0, s1, s2, s3)
            uk = np.uint64(k)
            upos = np.uint64(pos)
            code = shoe[uk]
            shoe[uk] = shoe[upos]
            shoe[upos] = code
            pos += 1
            v = _value(np.int64(code))
            d_hard += v
            d_ace |= np.int64(v == 1)
            d_n = 2
            d_bj = np.int64(d_hard == 11) & d_ace
            if d_bj == 0:
                while d_stands[np.uint64(d_ace * HARD_MAX + d_hard)] == 0:
                    k, s0, s1, s2, s3 = _pick_masked(mask, pos, fy_end, s0, s1, s2, s3)
                    uk = np.uint64(k)
                    upos = np.uint64(pos)
                    code = shoe[uk]
                    shoe[uk] = shoe[upos]
                    shoe[upos] = code
                    pos += 1
                    v = _value(np.int64(code))
                    d_hard += v
                    d_ace |= np.int64(v == 1)
                    d_n += 1
        elif need_second != 0:
            # Rare: only the second card (a blackjack waiting against a ten or an ace, a bust
            # under 'original', insurance, surrender), or every card (the dealer draws to dead
            # hands, full version).
            k, s0, s1, s2, s3 = _pick_masked(mask, pos, fy_end, s0, s1, s2, s3)
            uk = np.uint64(k)
            upos = np.uint64(pos)
            code = shoe[uk]
            shoe[uk] = shoe[upos]
            shoe[upos] = code
            pos += 1
            v = _value(np.int64(code))
            d_hard += v
            d_ace |= np.int64(v == 1)
            d_n = 2
            d_bj = np.int64(d_hard == 11) & d_ace
            if (need_more & (1 - d_bj)) != 0:
                while d_stands[np.uint64(d_ace * HARD_MAX + d_hard)] == 0:
                    k, s0, s1, s2, s3 = _pick_masked(mask, pos, fy_end, s0, s1, s2, s3)
                    uk = np.uint64(k)
                    upos = np.uint64(pos)
                    code = shoe[uk]
                    shoe[uk] = shoe[upos]
                    shoe[upos] = code
                    pos += 1
                    v = _value(np.int64(code))
                    d_hard += v
                    d_ace |= np.int64(v == 1)
                    d_n += 1
        dealer_bj = d_bj != 0
        d_total = d_hard + 10 * (d_ace & np.int64(d_hard <= 11))
        ins_net = 0
        if full is not None and ins != 0:
            ins_net = ins_win if dealer_bj else -stake  # 9
        # 8. Settle (4.1, 8.2).
        if dealer_bj:
            if em != 0:
                pass
            elif status == HS_BJ:
                status = HS_DONE  # stands off
            elif status == HS_SURR:
                net = -unit
            elif dbj_rule == L.DBJ_ALL:
                if status == HS_STOOD:
                    net = -wager
            elif dbj_rule == L.DBJ_ORIGINAL_AND_BUSTED:
                if status == HS_STOOD:
                    net = -unit
            else:
                net = -unit
        elif status == HS_BJ:
            net = bj_win
        else:
            # Written without branches (stood or bust, and the outcome, are coin tosses).
            t = hard + 10 * (ace & np.int64(hard <= 11))
            sign = np.int64(t > d_total) - np.int64(t < d_total)
            sign = 1 if d_total > 21 else sign
            net = sign * wager if stood != 0 else net
        drawn = pos - rstart
        if out is not None and pos > end:
            ws[WS_FAIL] = 1  # the round ran past the stacked cards (into the slack of tens)
            result = FR_STOP
            break
        win_loss_push = np.int64(net < 0) + 2 * np.int64(net == 0)
        if out is not None:
            ss = 0 if line < 0 else (-1 if line == SS_F else ss_pay_a)
            out[r, L.R_CARDS] = drawn
            out[r, L.R_DEALER_CARDS] = d_n
            out[r, L.R_DEALER_TOTAL] = d_total
            out[r, L.R_DEALER_BJ] = 1 if dealer_bj else 0
            o = L.R_FIXED
            out[r, o + L.B_MAIN] = net
            out[r, o + L.B_INS] = ins_net
            out[r, o + L.B_SS] = ss
            out[r, o + L.B_SS_LINE] = line
            out[r, o + L.B_HANDS] = 1
            out[r, o + L.B_DOUBLES] = doubled
            out[r, o + L.B_BUSTS] = 1 if status == HS_BUST else 0
            out[r, o + L.B_BJ] = bj
            out[r, o + L.B_EVEN_MONEY] = em
            out[r, o + L.B_INS_TAKEN] = ins
            out[r, o + L.B_SURRENDERS] = 1 if status == HS_SURR else 0
            out[r, o + L.B_WINS] = 1 if win_loss_push == 0 else 0
            out[r, o + L.B_LOSSES] = 1 if win_loss_push == 1 else 0
            out[r, o + L.B_PUSHES] = 1 if win_loss_push == 2 else 0
        else:
            # Sums in locals, added into the tally when the loop ends; counts that are
            # rarely non-zero go straight in. Insurance is only taken against an ace, so the
            # round's total differs from its main net only in the branch below; the wager is
            # one unit, two when doubled: both are added at the end from these sums.
            f_rounds += 1
            f_cards += drawn
            f_main += net
            f_main_sq += net * net
            f_doubles += doubled
            f_ss_a += np.int64(line == SS_A)
            f_busts += np.int64(status == HS_BUST)
            f_bj += bj
            f_ins_offered += ins_offered
            f_em_offered += em_offered
            # Wins, losses, pushes are consecutive in the tally.
            tally[np.uint64(L.T_WINS + win_loss_push)] += 1
            # Dealer outcome 0 blackjack, 1 bust, 2..6 for 17..21, 7 none of these.
            di = 0 if dealer_bj else np.int64(d_outcome[np.uint64(d_total)])
            f_dealer[np.uint64(di)] += 1
            if full is not None and (ins != 0 or em != 0 or status == HS_SURR):
                tally[L.T_INS_TAKEN] += ins
                tally[L.T_INS_SUM] += ins_net
                tally[L.T_RINS_SUM] += ins_net
                tally[L.T_RINS_SQ] += ins_net * ins_net
                tot = net + ins_net
                tally[L.T_TOTAL_SUM] += ins_net
                tally[L.T_RTOTAL_SUM] += ins_net
                tally[L.T_TOTAL_SQ] += tot * tot - net * net
                tally[L.T_RTOTAL_SQ] += tot * tot - net * net
                if ins_net > 0:
                    tally[L.T_INS_WON] += 1
                tally[L.T_EM_TAKEN] += em
                tally[L.T_SURRENDERS] += 1 if status == HS_SURR else 0
            if full is not None and tracing:
                ws[WS_ROUND_START] = rstart
                ws[WS_NEED_FULL] = need_full
                traced = _trace_round(trace, traced, shoe, ws, drawn)
        r += 1
    if out is None and f_rounds > 0:
        # The fast path's sums: one box, so a round's sums are its box's.
        for i in (L.T_ROUNDS, L.T_BOX_ROUNDS, L.T_HANDS):
            tally[i] += f_rounds
        tally[L.T_CARDS_DEALT] += f_cards
        tally[L.T_MAIN_SUM] += f_main
        tally[L.T_RMAIN_SUM] += f_main
        tally[L.T_MAIN_SQ] += f_main_sq
        tally[L.T_RMAIN_SQ] += f_main_sq
        tally[L.T_TOTAL_SUM] += f_main
        tally[L.T_RTOTAL_SUM] += f_main
        tally[L.T_TOTAL_SQ] += f_main_sq
        tally[L.T_RTOTAL_SQ] += f_main_sq
        tally[L.T_MAIN_WAGERED] += (f_rounds + f_doubles) * unit
        tally[L.T_DOUBLES] += f_doubles
        tally[L.T_BUSTS] += f_busts
        tally[L.T_PLAYER_BJ] += f_bj
        tally[L.T_INS_OFFERED] += f_ins_offered
        tally[L.T_EM_OFFERED] += f_em_offered
        tally[L.T_DEALER_BJ] += f_dealer[0]
        tally[L.T_DEALER_BUST] += f_dealer[1]
        for i in range(5):
            tally[L.T_DEALER_17 + i] += f_dealer[2 + i]
        if ss_on:
            f_ss_f = f_rounds - f_ss_a  # (f) loses the stake
            ss_sum = f_ss_a * ss_pay_a - f_ss_f
            ss_sq = f_ss_a * ss_pay_a * ss_pay_a + f_ss_f
            tally[L.T_SS_BETS] += f_rounds
            tally[L.T_SS_A] += f_ss_a
            tally[L.T_SS_F] += f_ss_f
            tally[L.T_SS_SUM] += ss_sum
            tally[L.T_SS_RSUM] += ss_sum
            tally[L.T_SS_SQ] += ss_sq
            tally[L.T_SS_RSQ] += ss_sq
    ws[WS_POS] = pos
    ws[WS_END] = end
    ws[WS_TRACED] = traced
    ws[WS_ROUND_START] = rstart
    ws[WS_NEED_FULL] = need_full
    ws[WS_BEFORE] = 0
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3
    return r, result


@njit
def _machine_rounds(
    m_trans, m_flags, m_counts, m_start, m_x_base, m_link, m_hand, m_net, m_settle, p, shoe, ws,
    rng, r, n_rounds, cut, sp, tally, d_stands,
):
    """The lean fast path as a state machine (``simulator.machine``): from round ``r`` on, one
    lazy Fisher-Yates step and one table read per card, each visit counted in ``m_counts``.

    Same cards in the same order as ``_fast_rounds`` (simulation, lean version), the same
    shuffles; returns ``(r, FR_DONE)``, or ``FR_GENERAL`` before a round that has too few cards
    left, for ``_play_rounds`` to play. A pair to split, or 7-7 under Super Sevens, is played on
    here in code (``_machine_exit_box``, ``_machine_dealer``, ``_settle_split_box``: the round's
    three visits count its first three cards, the rest is tallied in code).
    """
    max_hands = p[L.P_MAX_HANDS]
    dbj_rule = p[L.P_DBJ]
    ss_on = p[L.P_SS] != 0
    every_round = p[L.P_SHUFFLE] == L.SHUFFLE_EVERY_ROUND
    n_cards = shoe.size - SLACK
    pos = ws[WS_POS]
    end = ws[WS_END]
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    need_full = ws[WS_NEED_FULL]
    cut_at = 0 if every_round else cut
    lim = -1 if need_full != 0 else min(cut_at, end - MAX_ROUND_CARDS + 1)
    s = m_start
    rstart = pos
    result = FR_DONE
    while r < n_rounds:
        # One test a step; at a round's start past ``lim``: shuffle, or too few cards left.
        if pos >= lim and (m_flags[np.uint64(s)] & M_BOUNDARY) != 0:
            if need_full != 0 or pos >= cut_at:
                pos = 0  # 7.1: the cut card came out, or every round
                end = n_cards
                ws[WS_SHUFFLES] += 1
                need_full = 0
                lim = min(cut_at, end - MAX_ROUND_CARDS + 1)
            if end - pos < MAX_ROUND_CARDS:
                rstart = pos
                result = FR_GENERAL
                break
        k, s0, s1, s2, s3 = _bounded(end - pos, s0, s1, s2, s3)
        uk = np.uint64(pos + k)
        upos = np.uint64(pos)
        code = shoe[uk]
        shoe[uk] = shoe[upos]
        shoe[upos] = code
        pos += 1
        s = np.int64(m_trans[np.uint64(s * 10 + _value(np.int64(code)) - 1)])
        m_counts[np.uint64(s)] += 1
        r += np.int64(m_flags[np.uint64(s)] & M_TERMINAL)
        if s >= m_x_base:
            # A pair to split, or 7-7 under Super Sevens: the round is played on in code (rare:
            # about one round in 30). The deal is at pos - 3 (card 1, the up card, card 2).
            rs = pos - 3
            c1 = np.int64(shoe[np.uint64(rs)])
            uv = _value(np.int64(shoe[np.uint64(rs + 1)]))
            c2 = np.int64(shoe[np.uint64(rs + 2)])
            sevens = ss_on and _value(c1) == 7
            pos, end, s0, s1, s2, s3, nh, w, sd, refilled, line = _machine_exit_box(
                m_trans, m_flags, m_link, shoe, ws, sp, 0, s, max_hands, n_cards, rs, sevens, c1,
                c2, pos, end, s0, s1, s2, s3,
            )  # fmt: skip
            pos, end, s0, s1, s2, s3, d_hard, d_ace, _, o, rf = _machine_dealer(
                d_stands, shoe, ws, n_cards, rs, uv, w, sd, pos, end, s0, s1, s2, s3
            )
            net = _settle_split_box(
                m_settle, m_net, m_hand, sp, nh, 0, o, o == 0, dbj_rule, uv, L.UNIT, tally
            )
            if refilled or rf:
                if ws[WS_FAIL] != 0:
                    rstart = rs
                    break
                drawn = ws[WS_BEFORE] + pos - ws[WS_ROUND_START]
                ws[WS_BEFORE] = 0
                need_full = 1
                lim = -1
            else:
                drawn = pos - rs
            # The three visits counted the deal's cards, and a first card seven on line (a).
            _tally_machine_round(
                tally, drawn - 3, o == 0, _total(d_hard, d_ace), net, ss_on, 1, 0, 0, 0
            )
            if line >= 0:
                d = _sevens_fix(tally, line, p)
                pay_a = p[L.P_SS_PAY_A]
                tally[L.T_SS_RSUM] += d
                tally[L.T_SS_RSQ] += (pay_a + d) * (pay_a + d) - pay_a * pay_a
            r += 1
            s = m_start
            continue
    ws[WS_POS] = pos
    ws[WS_END] = end
    ws[WS_ROUND_START] = rstart
    ws[WS_NEED_FULL] = need_full
    ws[WS_BEFORE] = 0
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3
    return r, result


@njit
def _machine_boxes_rounds(
    m_trans, m_flags, m_net, m_settle, m_counts, m_start, m_x_base, m_link, m_hand, p, shoe, ws,
    rng, r, n_rounds, cut, st, sp, nsp, tally, d_stands,
):
    """The lean game with several boxes, each walking the one-box state machine
    (``simulator.machine``): the deal in the general path's order, each box's hits, then the
    dealer's draw, then every waiting hand settled by one read of ``m_settle``.
    ``st``: each box's state, from ``m_start[b]`` (boxes may play different strategies, each
    with its own states in the one table). Each box's final state is counted in ``m_counts``;
    the round's own tallies (rounds, cards, the dealer's outcome, round sums, Super Sevens) are
    added here.

    A box dealt a pair to split, or 7-7 under a Super Sevens bet, is played here too, in code
    (``_machine_exit_box``): its hands one after another, each from the split hand's state
    (``m_link``), splitting again while the box may (``PAIR`` states); its hands' states are kept
    in ``sp`` (``MAX_HANDS`` a box, ``nsp``: hands, 0 for a box tallied by its final state) and
    settled and tallied here, box rules for a dealer blackjack included. A round starts with at
    least its deal's cards left (so the deal lies in place from the round's start); every later
    card checks for the end of the undealt region and reshuffles the discards as ``_refill``
    does. Returns ``(r, FR_DONE)``, or ``FR_GENERAL`` before a round with fewer cards left than
    its deal, for ``_play_rounds`` to play.
    """
    nb = p[L.P_BOXES]
    every_round = p[L.P_SHUFFLE] == L.SHUFFLE_EVERY_ROUND
    ss_on = p[L.P_SS] != 0
    pay_a = p[L.P_SS_PAY_A]
    max_hands = p[L.P_MAX_HANDS]
    dbj_rule = p[L.P_DBJ]
    unit = L.UNIT
    n_cards = shoe.size - SLACK
    max_cards = 2 * nb + 1  # the deal, in place from the round's start (exit boxes read it there)
    pos = ws[WS_POS]
    end = ws[WS_END]
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    need_full = ws[WS_NEED_FULL]
    cut_at = 0 if every_round else cut
    lim = -1 if need_full != 0 else min(cut_at, end - max_cards + 1)
    rstart = pos
    result = FR_DONE
    refilled = False
    while r < n_rounds:
        if pos >= lim:
            if need_full != 0 or pos >= cut_at:
                pos = 0  # 7.1: the cut card came out, or every round
                end = n_cards
                ws[WS_SHUFFLES] += 1
                need_full = 0
                lim = min(cut_at, end - max_cards + 1)
            if end - pos < max_cards:
                rstart = pos
                result = FR_GENERAL
                break
        rstart = pos
        # The deal: a card to each box, the up card, a second card to each box.
        n7 = 0
        for b in range(nb):
            k, s0, s1, s2, s3 = _bounded(end - pos, s0, s1, s2, s3)
            uk = np.uint64(pos + k)
            upos = np.uint64(pos)
            code = shoe[uk]
            shoe[uk] = shoe[upos]
            shoe[upos] = code
            pos += 1
            v = _value(np.int64(code))
            st[b] = m_trans[np.uint64(m_start[b] * 10 + v - 1)]
            n7 += np.int64(v == 7)
        k, s0, s1, s2, s3 = _bounded(end - pos, s0, s1, s2, s3)
        uk = np.uint64(pos + k)
        upos = np.uint64(pos)
        code = shoe[uk]
        shoe[uk] = shoe[upos]
        shoe[upos] = code
        pos += 1
        v = _value(np.int64(code))
        uv = v
        for b in range(nb):
            st[b] = m_trans[np.uint64(st[b] * 10 + v - 1)]
        exits = 0
        for b in range(nb):
            k, s0, s1, s2, s3 = _bounded(end - pos, s0, s1, s2, s3)
            uk = np.uint64(pos + k)
            upos = np.uint64(pos)
            code = shoe[uk]
            shoe[uk] = shoe[upos]
            shoe[upos] = code
            pos += 1
            v = _value(np.int64(code))
            st[b] = m_trans[np.uint64(st[b] * 10 + v - 1)]
            exits += np.int64(st[b] >= m_x_base)
        # Each box in turn (12.1).
        any_wait = 0
        any_stood = 0
        ss_adj = 0
        for b in range(nb):
            s = np.int64(st[b])
            if exits != 0 and s >= m_x_base:
                # A pair to split (11), or 7-7 under Super Sevens: played on in code.
                c1 = np.int64(shoe[np.uint64(rstart + b)])
                c2 = np.int64(shoe[np.uint64(rstart + nb + 1 + b)])
                sevens = ss_on and _value(c1) == 7
                pos, end, s0, s1, s2, s3, nh, w, sd, rf, line = _machine_exit_box(
                    m_trans, m_flags, m_link, shoe, ws, sp, b, s, max_hands, n_cards, rstart,
                    sevens, c1, c2, pos, end, s0, s1, s2, s3,
                )  # fmt: skip
                nsp[b] = nh
                any_wait |= w
                any_stood |= sd
                refilled = refilled or rf
                if line >= 0:
                    ss_adj += _sevens_fix(tally, line, p)  # counted on line (a) below
                continue
            while (m_flags[np.uint64(s)] & M_PLAYER) != 0:
                if pos >= end:
                    ws[WS_ROUND_START] = rstart
                    pos, end = _refill(ws, pos, n_cards)
                    refilled = True
                k, s0, s1, s2, s3 = _bounded(end - pos, s0, s1, s2, s3)
                uk = np.uint64(pos + k)
                upos = np.uint64(pos)
                code = shoe[uk]
                shoe[uk] = shoe[upos]
                shoe[upos] = code
                pos += 1
                v = _value(np.int64(code))
                s = np.int64(m_trans[np.uint64(s * 10 + v - 1)])
            st[b] = s
            f = np.int64(m_flags[np.uint64(s)])
            any_wait |= f & M_DEALER
            any_stood |= f & M_STOOD
        # The dealer (12.3): the second card if any hand waits for it, on while any hand stood;
        # then every waiting hand settles by one read of ``m_settle``.
        d_hard = uv
        d_ace = np.int64(uv == 1)
        d_n = 1
        o = 7
        if any_wait != 0:
            if pos >= end:
                ws[WS_ROUND_START] = rstart
                pos, end = _refill(ws, pos, n_cards)
                refilled = True
            k, s0, s1, s2, s3 = _bounded(end - pos, s0, s1, s2, s3)
            uk = np.uint64(pos + k)
            upos = np.uint64(pos)
            code = shoe[uk]
            shoe[uk] = shoe[upos]
            shoe[upos] = code
            pos += 1
            v = _value(np.int64(code))
            d_hard += v
            d_ace |= np.int64(v == 1)
            d_n = 2
            if any_stood != 0 and not (d_hard == 11 and d_ace != 0):
                while d_stands[np.uint64(d_ace * HARD_MAX + d_hard)] == 0:
                    if pos >= end:
                        ws[WS_ROUND_START] = rstart
                        pos, end = _refill(ws, pos, n_cards)
                        refilled = True
                    k, s0, s1, s2, s3 = _bounded(end - pos, s0, s1, s2, s3)
                    uk = np.uint64(pos + k)
                    upos = np.uint64(pos)
                    code = shoe[uk]
                    shoe[uk] = shoe[upos]
                    shoe[upos] = code
                    pos += 1
                    v = _value(np.int64(code))
                    d_hard += v
                    d_ace |= np.int64(v == 1)
                    d_n += 1
            t = _total(d_hard, d_ace)
            if d_n == 2 and d_hard == 11 and d_ace != 0:
                o = 0
            elif t > 21:
                o = 1
            elif t >= 17:
                o = t - 15
            for b in range(nb):
                st[b] = m_settle[np.uint64(st[b] * M_OUTCOMES + o)]
        d_bj = o == 0
        if refilled:
            # The shoe ran out mid-round (``_refill``): the next round starts with a shuffle.
            refilled = False
            if ws[WS_FAIL] != 0:
                break
            drawn = ws[WS_BEFORE] + pos - ws[WS_ROUND_START]
            ws[WS_BEFORE] = 0
            need_full = 1
            lim = -1
        else:
            drawn = pos - rstart
        # Settle: every unsplit box's hand is in a terminal state.
        round_net = 0
        for b in range(nb):
            if nsp[b] != 0:
                round_net += _settle_split_box(
                    m_settle, m_net, m_hand, sp, nsp[b], b, o, d_bj, dbj_rule, uv, unit, tally
                )
                nsp[b] = 0
                continue
            m_counts[np.uint64(st[b])] += 1
            round_net += m_net[np.uint64(st[b])]
        _tally_machine_round(
            tally, drawn, d_bj, _total(d_hard, d_ace), round_net, ss_on, nb, n7, pay_a, ss_adj
        )
        r += 1
    ws[WS_POS] = pos
    ws[WS_END] = end
    ws[WS_ROUND_START] = rstart
    ws[WS_NEED_FULL] = need_full
    ws[WS_BEFORE] = 0
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3
    return r, result


@njit
def _machine_split_box(
    m_trans, m_flags, m_link, shoe, ws, sp, b, s_x, max_hands, n_cards, rstart, pos, end, s0, s1,
    s2, s3,
):
    """Box ``b`` of the machine, dealt a pair to split (exit state ``s_x``), plays its hands one
    after another, each dealt its second card as it comes into play, each walking the table from
    the split hand's state (``m_link[s_x]``); the same value again splits again while the box has
    fewer than ``max_hands`` hands (``PAIR`` states), else is played on as it is. Every card checks
    for the end of the undealt region (``_refill``; ``rstart``: the round's first card). The
    hands' states go to ``sp[b * MAX_HANDS + h]``. Returns ``(pos, end, s0, s1, s2, s3, hands,
    waits for the dealer (M_DEALER or 0), stood (M_STOOD or 0), refilled)``."""
    refilled = False
    any_wait = 0
    any_stood = 0
    s_split = np.int64(m_link[np.uint64(s_x)])
    nh = 2
    h = 0
    while h < nh:
        s = s_split
        while True:
            if pos >= end:
                ws[WS_ROUND_START] = rstart
                pos, end = _refill(ws, pos, n_cards)
                refilled = True
            k, s0, s1, s2, s3 = _bounded(end - pos, s0, s1, s2, s3)
            uk = np.uint64(pos + k)
            upos = np.uint64(pos)
            code = shoe[uk]
            shoe[uk] = shoe[upos]
            shoe[upos] = code
            pos += 1
            v = _value(np.int64(code))
            s = np.int64(m_trans[np.uint64(s * 10 + v - 1)])
            f = m_flags[np.uint64(s)]
            if (f & M_PLAYER) != 0:
                continue
            if (f & M_PAIR) == 0:
                break
            if nh < max_hands:
                nh += 1
                s = s_split
                continue
            s = np.int64(m_link[np.uint64(s)])  # no more hands: played as it is
            if (m_flags[np.uint64(s)] & M_PLAYER) == 0:
                break
        sp[b * MAX_HANDS + h] = s
        f = np.int64(m_flags[np.uint64(s)])
        any_wait |= f & M_DEALER
        any_stood |= f & M_STOOD
        h += 1
    return pos, end, s0, s1, s2, s3, nh, any_wait, any_stood, refilled


@njit
def _machine_exit_box(
    m_trans, m_flags, m_link, shoe, ws, sp, b, s_x, max_hands, n_cards, rstart, sevens, c1, c2,
    pos, end, s0, s1, s2, s3,
):
    """Box ``b`` of the machine at an exit state ``s_x``: a pair the strategy splits, or, with
    ``sevens``, 7-7 under a Super Sevens bet (cards ``c1``, ``c2``), which the sevens row decides
    (``m_link[s_x]``: the split hand's state, or the hand of 14 played on). Plays the box's hands
    (``_machine_split_box``; an unsplit 7-7 as one hand into ``sp[b * MAX_HANDS]``) and returns
    ``_machine_split_box``'s values and the Super Sevens line (-1 when not ``sevens``): split, (b)
    or (c) at once (14.4); else the third card decides (``_sevens_line``), or no third card."""
    line = -1
    s = np.int64(m_link[np.uint64(s_x)])
    if sevens:
        line = SS_C if (c1 & 3) == (c2 & 3) else SS_B
        if (m_flags[np.uint64(s)] & M_SPLIT_HAND) == 0:
            refilled = False
            third = True
            while (m_flags[np.uint64(s)] & M_PLAYER) != 0:
                if pos >= end:
                    ws[WS_ROUND_START] = rstart
                    pos, end = _refill(ws, pos, n_cards)
                    refilled = True
                k, s0, s1, s2, s3 = _bounded(end - pos, s0, s1, s2, s3)
                uk = np.uint64(pos + k)
                upos = np.uint64(pos)
                code = shoe[uk]
                shoe[uk] = shoe[upos]
                shoe[upos] = code
                pos += 1
                if third:
                    line = _sevens_line(c1, c2, np.int64(code))
                    third = False
                s = np.int64(m_trans[np.uint64(s * 10 + _value(np.int64(code)) - 1)])
            sp[b * MAX_HANDS] = s
            f = np.int64(m_flags[np.uint64(s)])
            return pos, end, s0, s1, s2, s3, 1, f & M_DEALER, f & M_STOOD, refilled, line
    pos, end, s0, s1, s2, s3, nh, w, sd, refilled = _machine_split_box(
        m_trans, m_flags, m_link, shoe, ws, sp, b, s_x, max_hands, n_cards, rstart, pos, end, s0,
        s1, s2, s3,
    )  # fmt: skip
    return pos, end, s0, s1, s2, s3, nh, w, sd, refilled, line


@njit
def _sevens_fix(tally, line, p):
    """A box tallied on Super Sevens line (a) (its first card a seven) is on ``line``: move it,
    and return what that adds to the box's Super Sevens result (the caller adds it to the
    round's)."""
    pay_a = p[L.P_SS_PAY_A]
    pay = p[L.P_SS_PAY_A + line]
    tally[L.T_SS_A] -= 1
    tally[L.T_SS_A + line] += 1
    tally[L.T_SS_SUM] += pay - pay_a
    tally[L.T_SS_SQ] += pay * pay - pay_a * pay_a
    return pay - pay_a


@njit
def _machine_dealer(
    d_stands, shoe, ws, n_cards, rstart, uv, any_wait, any_stood, pos, end, s0, s1, s2, s3
):
    """The dealer of a machine round played in code (12.3, 12.4): the second card if a hand waits
    for it, on to 17 if a hand stood; every card checks for the end of the undealt region. Returns
    ``(pos, end, s0, s1, s2, s3, hard, ace, cards, outcome, refilled)``, the outcome as
    ``Machine.settle`` takes it (0 blackjack, 1 bust, 2..6 for 17..21, 7 none)."""
    refilled = False
    d_hard = uv
    d_ace = np.int64(uv == 1)
    d_n = 1
    o = 7
    while any_wait != 0:
        if d_n >= 2 and (any_stood == 0 or d_stands[np.uint64(d_ace * HARD_MAX + d_hard)] != 0):
            break
        if pos >= end:
            ws[WS_ROUND_START] = rstart
            pos, end = _refill(ws, pos, n_cards)
            refilled = True
        k, s0, s1, s2, s3 = _bounded(end - pos, s0, s1, s2, s3)
        uk = np.uint64(pos + k)
        upos = np.uint64(pos)
        code = shoe[uk]
        shoe[uk] = shoe[upos]
        shoe[upos] = code
        pos += 1
        v = _value(np.int64(code))
        d_hard += v
        d_ace |= np.int64(v == 1)
        d_n += 1
        if d_n == 2 and d_hard == 11 and d_ace != 0:
            o = 0  # blackjack: the dealer draws no more
            break
    t = _total(d_hard, d_ace)
    if o != 0 and d_n >= 2:
        if t > 21:
            o = 1
        elif t >= 17:
            o = t - 15
    return pos, end, s0, s1, s2, s3, d_hard, d_ace, d_n, o, refilled


@njit
def _tally_machine_round(tally, drawn, d_bj, d_total, round_net, ss_on, nb, n7, pay_a, ss_adj):
    """The round's own tallies of a machine round with its boxes tallied apart (several boxes; a
    split box): cards, the dealer's outcome, round sums, Super Sevens (``n7`` boxes on line (a),
    the rest on (f); ``ss_adj``: what boxes moved off (a) by ``_sevens_fix`` add to the round's
    Super Sevens result)."""
    tally[L.T_ROUNDS] += 1
    tally[L.T_CARDS_DEALT] += drawn
    if d_bj:
        tally[L.T_DEALER_BJ] += 1
    elif d_total > 21:
        tally[L.T_DEALER_BUST] += 1
    elif d_total >= 17:
        tally[L.T_DEALER_17 + d_total - 17] += 1
    tally[L.T_RMAIN_SUM] += round_net
    tally[L.T_RMAIN_SQ] += round_net * round_net
    tally[L.T_RTOTAL_SUM] += round_net
    tally[L.T_RTOTAL_SQ] += round_net * round_net
    if ss_on:
        ss = n7 * pay_a - (nb - n7)
        tally[L.T_SS_BETS] += nb
        tally[L.T_SS_A] += n7
        tally[L.T_SS_F] += nb - n7
        tally[L.T_SS_SUM] += ss
        tally[L.T_SS_SQ] += n7 * pay_a * pay_a + (nb - n7)
        tally[L.T_SS_RSUM] += ss + ss_adj
        tally[L.T_SS_RSQ] += (ss + ss_adj) * (ss + ss_adj)


@njit
def _settle_split_box(m_settle, m_net, m_hand, sp, nh, b, o, d_bj, dbj_rule, uv, unit, tally):
    """Settle and tally box ``b`` of a machine round, which split: its ``nh`` hands' states
    ``sp[b * MAX_HANDS + h]`` against the dealer's outcome ``o``, a dealer blackjack by the box
    rule (step 8, as the general path settles it). Returns the box's net."""
    main = 0
    wins = 0
    losses = 0
    pushes = 0
    doubles = 0
    busts = 0
    first = True
    for h in range(nh):
        t = m_settle[np.uint64(sp[b * MAX_HANDS + h] * M_OUTCOMES + o)]
        info = m_hand[np.uint64(t)]
        doubled = np.int64(info & 1)
        bust = np.int64(info >> 1)
        net = m_net[np.uint64(t)]  # rule 'all' for a dealer blackjack: every wager lost
        if d_bj and dbj_rule == L.DBJ_ORIGINAL:
            net = -unit if h == 0 else 0  # the box's net is -10; every other wager returned
        elif d_bj and dbj_rule == L.DBJ_ORIGINAL_AND_BUSTED and bust == 0:
            net = -unit if first else 0  # the first unbusted hand loses 10, the rest returned
            first = False
        main += net
        doubles += doubled
        busts += bust
        if net > 0:
            wins += 1
        elif net < 0:
            losses += 1
        else:
            pushes += 1
    tally[L.T_BOX_ROUNDS] += 1
    tally[L.T_HANDS] += nh
    tally[L.T_SPLITS] += nh - 1
    tally[L.T_MAIN_SUM] += main
    tally[L.T_MAIN_SQ] += main * main
    tally[L.T_TOTAL_SUM] += main
    tally[L.T_TOTAL_SQ] += main * main
    tally[L.T_MAIN_WAGERED] += unit * (nh + doubles)
    tally[L.T_WINS] += wins
    tally[L.T_LOSSES] += losses
    tally[L.T_PUSHES] += pushes
    tally[L.T_DOUBLES] += doubles
    tally[L.T_BUSTS] += busts
    tally[L.T_INS_OFFERED] += np.int64(uv == 1)  # a split box has no blackjack
    return main


@njit
def _dealer_stands(h17):
    """Does the dealer stand (12.3) on (ace, hard sum), index ``ace * HARD_MAX + hard``: 17 or
    more, soft 17 too unless ``h17``; busts too."""
    d_stands = np.zeros(2 * HARD_MAX, np.int8)
    for i in range(2 * HARD_MAX):
        t = _total(i % HARD_MAX, i // HARD_MAX)
        if t > 17 or (t == 17 and not (h17 and t != i % HARD_MAX)):
            d_stands[i] = 1
    return d_stands


@njit
def _play_rounds(
    p,
    act_t,
    hx_t,
    hard_t,
    pairs_t,
    sevens_t,
    flags_t,
    shoe,
    ws,
    rng,
    n_rounds,
    cut,
    out,
    tally,
    trace,
    m_trans,
    m_flags,
    m_counts,
    m_start,
    m_x_base,
    m_net,
    m_settle,
    m_link,
    m_hand,
):
    """Play up to ``n_rounds`` rounds; the loop body is one round (design: "One round, in order").

    Stacked mode (``ws[WS_STACKED] == 1``): cards are dealt from ``shoe`` in order, rounds start
    while ``pos < cut``, each complete round writes its record (layout ``R_*``/``B_*``) into
    ``out[r]``; a round that runs out of cards sets ``WS_FAIL`` and stops play. Simulation mode:
    lazy Fisher-Yates dealing from ``shoe`` with the xoshiro256** state ``rng`` (advanced in
    place), the cut card (7.1), and each round added into ``tally`` (layout ``T_*``); ``out`` is
    unused. ``shoe`` ends with ``SLACK`` tens after its real cards (see ``_refill``). ``trace``
    (int8) is empty in production; if it is not, simulated rounds' cards are appended to it in
    dealing order (for tests; a round dealt partly from reshuffled discards is not traced).
    Returns the number of complete rounds played.

    Cards are taken at three places only (the deal, the player's hands, the dealer's hand), each
    written out in full: ``if pos >= end: _refill``, one ``_pick``, one swap. No array is passed
    to a function on the common path, so the loop has no reference-count operations.
    """
    nb = p[L.P_BOXES]
    stacked = ws[WS_STACKED] != 0
    peek = p[L.P_HOLE] == L.HOLE_PEEK
    ss_on = p[L.P_SS] != 0
    early = p[L.P_SURRENDER] == L.SURRENDER_EARLY
    late = p[L.P_SURRENDER] == L.SURRENDER_LATE
    max_hands = p[L.P_MAX_HANDS]
    das = p[L.P_DAS]
    rsa = p[L.P_RSA]
    hsa = p[L.P_HSA]
    h17 = p[L.P_H17] != 0
    draw_no_live = p[L.P_DRAW_NO_LIVE] != 0
    dbj_rule = p[L.P_DBJ]
    bj_win = p[L.P_BJ_WIN]
    ins_win = p[L.P_INS_WIN]
    rules4 = (max_hands, das, rsa, hsa, p[L.P_DOUBLE_ON])
    every_round = p[L.P_SHUFFLE] == L.SHUFFLE_EVERY_ROUND
    n_cards = shoe.size - SLACK
    n_deal = 2 * nb + (2 if peek else 1)  # cards of the deal (step 1)
    fast = nb == 1 and not peek and not early  # see the fast path below
    mboxes = nb > 1 and m_trans.size > 0  # several boxes, the lean game: the state machine
    m_st = np.zeros(nb, np.int64)  # each box's state (``_machine_boxes_rounds``)
    m_sp = np.zeros(nb * MAX_HANDS, np.int64)  # ... a split box's hands' states
    m_nsp = np.zeros(nb, np.int64)  # ... a split box's hands
    unit = L.UNIT
    stake = L.INSURANCE_STAKE
    tracing = trace.size > 0
    traced = 0
    f_dealer = np.zeros(8, np.int64)  # scratch of _fast_rounds
    # The lean version of the fast path (see ``_fast_rounds``) serves this game.
    lean = (
        flags_t[0, 0] == 0 and flags_t[0, 1] == 0 and not late and not draw_no_live
        and trace.size == 0
    )  # fmt: skip

    d_stands = _dealer_stands(h17)

    # Dealer outcome by final total (blackjack apart): 1 bust, 2..6 for 17..21, 7 none of these.
    d_outcome = np.full(2 * HARD_MAX, 7, np.int8)
    for t in range(17, 2 * HARD_MAX):
        d_outcome[t] = t - 15 if t <= 21 else 1

    # The fast path also plays a pair that its strategy does not split (10-10 above all): the pair
    # cell says N (or Pd without double after split), or no split is possible (max_hands 1); the
    # hand is then played from the hard or soft table like any other (a declined split, 11.5,
    # matters only to later pairs of the box, and the fast path has none). 7-7 under a Super Sevens
    # bet is left to the general path (the sevens row decides).
    pair_plays_fast = np.zeros(L.N_PAIRS * L.N_UP, np.int8)
    for v in range(1, L.N_PAIRS + 1):
        for u in range(L.N_UP):
            cell = pairs_t[0, v - 1, u]
            no_split = max_hands < 2 or cell == L.N or (cell == L.PD and das == 0)
            if no_split and not (ss_on and v == 7):
                pair_plays_fast[(v - 1) * L.N_UP + u] = 1

    hand = np.zeros((nb, MAX_HANDS, N_HF), np.int64)
    bx = np.zeros((nb, N_BF), np.int64)

    pos = ws[WS_POS]
    end = ws[WS_END]
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    r = 0
    while r < n_rounds:
        dealt = False
        c1 = 0
        c2 = 0
        uv = 0
        v1 = 0
        v2 = 0
        if fast:
            # Fast rounds (``_fast_rounds``) until a round needs this path (a pair to split, dealt
            # already) or play ends.
            ws[WS_POS] = pos
            ws[WS_END] = end
            ws[WS_TRACED] = traced
            rng[0] = s0
            rng[1] = s1
            rng[2] = s2
            rng[3] = s3
            # One of four compiled versions (see ``_fast_rounds``): simulation or stacked, lean
            # or full.
            if m_trans.size > 0:
                # The lean game as a state machine (``simulator.machine``).
                r, res = _machine_rounds(
                    m_trans, m_flags, m_counts, m_start[0], m_x_base, m_link, m_hand, m_net,
                    m_settle, p, shoe, ws, rng, r, n_rounds, cut, m_sp, tally, d_stands,
                )  # fmt: skip
            elif stacked:
                if lean:
                    r, res = _fast_rounds(
                        p, hx_t, d_stands, d_outcome, pair_plays_fast, flags_t, shoe, ws, rng, r,
                        n_rounds, cut, out, tally, trace, f_dealer, None,
                    )  # fmt: skip
                else:
                    r, res = _fast_rounds(
                        p, hx_t, d_stands, d_outcome, pair_plays_fast, flags_t, shoe, ws, rng, r,
                        n_rounds, cut, out, tally, trace, f_dealer, 1,
                    )  # fmt: skip
            elif lean:
                r, res = _fast_rounds(
                    p, hx_t, d_stands, d_outcome, pair_plays_fast, flags_t, shoe, ws, rng, r,
                    n_rounds, cut, None, tally, trace, f_dealer, None,
                )  # fmt: skip
            else:
                r, res = _fast_rounds(
                    p, hx_t, d_stands, d_outcome, pair_plays_fast, flags_t, shoe, ws, rng, r,
                    n_rounds, cut, None, tally, trace, f_dealer, 1,
                )  # fmt: skip
            pos = ws[WS_POS]
            end = ws[WS_END]
            traced = ws[WS_TRACED]
            s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
            if res == FR_PAIR:
                dealt = True
                c1 = ws[WS_C1]
                c2 = ws[WS_C2]
                uv = ws[WS_UV]
                v1 = _value(c1)
                v2 = _value(c2)
            elif res != FR_GENERAL:
                break
        elif mboxes:
            # Several boxes of the lean game: the state machine (``_machine_boxes_rounds``).
            ws[WS_POS] = pos
            ws[WS_END] = end
            rng[0] = s0
            rng[1] = s1
            rng[2] = s2
            rng[3] = s3
            r, res = _machine_boxes_rounds(
                m_trans, m_flags, m_net, m_settle, m_counts, m_start, m_x_base, m_link, m_hand, p,
                shoe, ws, rng, r, n_rounds, cut, m_st, m_sp, m_nsp, tally, d_stands,
            )  # fmt: skip
            pos = ws[WS_POS]
            end = ws[WS_END]
            s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
            if res != FR_GENERAL:
                break
        else:
            if stacked:
                if pos >= cut:
                    break
            elif ws[WS_NEED_FULL] != 0 or every_round or pos >= cut:
                # 7.1: the cut card came out as the first card of this round or during the last one.
                pos = 0
                end = n_cards
                ws[WS_SHUFFLES] += 1
                ws[WS_NEED_FULL] = 0
            ws[WS_ROUND_START] = pos
            ws[WS_BEFORE] = 0

        for b in range(nb):
            for f in range(N_BF):
                bx[b, f] = 0
            for f in range(N_HF):
                hand[b, 0, f] = 0
            bx[b, BF_NH] = 1
            hand[b, 0, HF_WAGER] = unit

        # 1. Deal: a card to each box, the dealer's up card, a second card to each box; in the
        # peek game the hole card.
        d_hard = 0
        d_ace = 0
        if dealt:
            # The fast path dealt a pair to its one box: carry on from those cards.
            bx[0, BF_C1] = c1
            bx[0, BF_C2] = c2
            hand[0, 0, HF_HARD] = v1 + v2
            hand[0, 0, HF_ACE] = 1 if v1 == 1 else 0
            hand[0, 0, HF_V1] = v1
            hand[0, 0, HF_V2] = v2
            hand[0, 0, HF_N] = 2
            d_hard = uv
            d_ace = 1 if uv == 1 else 0
        for i in range(0 if dealt else n_deal):
            if pos >= end:
                pos, end = _refill(ws, pos, n_cards)
            k, s0, s1, s2, s3 = _pick(stacked, pos, end, s0, s1, s2, s3)
            uk = np.uint64(k)
            upos = np.uint64(pos)
            code = shoe[uk]
            shoe[uk] = shoe[upos]
            shoe[upos] = code
            pos += 1
            c = np.int64(code)
            v = _value(c)
            if i < nb or (nb < i <= 2 * nb):
                b = i if i < nb else i - nb - 1
                hand[b, 0, HF_HARD] += v
                if v == 1:
                    hand[b, 0, HF_ACE] = 1
                if i < nb:
                    bx[b, BF_C1] = c
                    hand[b, 0, HF_V1] = v
                    hand[b, 0, HF_N] = 1
                else:
                    bx[b, BF_C2] = c
                    hand[b, 0, HF_V2] = v
                    hand[b, 0, HF_N] = 2
            else:
                d_hard += v
                if v == 1:
                    d_ace = 1
                if i == nb:
                    uv = v
        d_n = 2 if peek else 1
        up = 9 if uv == 1 else uv - 2
        ten_or_ace = uv == 1 or uv == 10

        for b in range(nb):
            # Super Sevens line from the first two cards (14); 7-7 waits for a split or card 3.
            if not ss_on:
                bx[b, BF_SS] = -1
            elif (bx[b, BF_C1] >> 2) != L.SEVEN_RANK:
                bx[b, BF_SS] = SS_F
            elif (bx[b, BF_C2] >> 2) != L.SEVEN_RANK:
                bx[b, BF_SS] = SS_A
            else:
                bx[b, BF_SS] = SS_PENDING
            # 2. Blackjack, even money (8.3), insurance (9).
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
        if early:
            for b in range(nb):
                if bx[b, BF_BJ] == 0:
                    act, _ = _decide_hand(
                        act_t, hard_t, pairs_t, sevens_t, b, 0, up, hand, bx, True, rules4
                    )
                    if act == A_SURRENDER:
                        bx[b, BF_EARLY] = 1
                        hand[b, 0, HF_STATUS] = HS_SURR
                        hand[b, 0, HF_NET] = -stake

        # 4. Peek.
        ended = False
        dealer_bj = False
        if peek and ten_or_ace:
            if d_hard == 11 and d_ace != 0:
                dealer_bj = True
                ended = True
                for b in range(nb):
                    if bx[b, BF_INS] != 0:
                        bx[b, BF_INS_NET] = ins_win
                    st = hand[b, 0, HF_STATUS]
                    if st == HS_BJ:
                        hand[b, 0, HF_STATUS] = HS_DONE  # stands off
                    elif st == HS_PLAY:
                        hand[b, 0, HF_STATUS] = HS_DONE
                        hand[b, 0, HF_NET] = -unit
            else:
                for b in range(nb):
                    if bx[b, BF_INS] != 0:
                        bx[b, BF_INS_NET] = -stake

        if not ended:
            # 5. Player blackjacks paid at once unless they wait for the second card (8.2).
            if peek or not ten_or_ace:
                for b in range(nb):
                    if hand[b, 0, HF_STATUS] == HS_BJ:
                        hand[b, 0, HF_STATUS] = HS_DONE
                        hand[b, 0, HF_NET] = bj_win

            # 6. Boxes play, each in turn, each hand in turn, each hand to its end. Each pass of
            # the inner loop decides an action, and every action that takes a card (a split
            # hand's second card, hit, double, split) takes it at the one place below.
            for b in range(nb):
                h = 0
                while h < bx[b, BF_NH]:
                    while hand[b, h, HF_STATUS] == HS_PLAY:
                        n = hand[b, h, HF_N]
                        if n == 1:
                            act = A_HIT  # a split hand's second card, dealt as it comes into play
                        else:
                            hard = hand[b, h, HF_HARD]
                            total = _total(hard, hand[b, h, HF_ACE])
                            if total > 21:
                                hand[b, h, HF_STATUS] = HS_BUST  # 12.2: lost at once
                                hand[b, h, HF_NET] = -hand[b, h, HF_WAGER]
                                break
                            if total == 21:
                                # 12.1 (a); two-card 21 after a split is 21 (11 (c)).
                                hand[b, h, HF_STATUS] = HS_STOOD
                                break
                            nh = bx[b, BF_NH]
                            two = n == 2
                            if hand[b, h, HF_SPLIT_ACE] != 0 and hsa == 0:
                                # 11 (b), 12.1 (c): one card to a split ace; another ace may be
                                # resplit per the pair table when the rules allow it.
                                act = A_STAND
                                if (
                                    two
                                    and hand[b, h, HF_V2] == 1
                                    and rsa != 0
                                    and nh < max_hands
                                    and bx[b, BF_DECLINED] == 0
                                ):
                                    cell = pairs_t[b, 0, up]
                                    if cell == L.N or (cell == L.PD and das == 0):
                                        bx[b, BF_DECLINED] = 1
                                    else:
                                        act = A_SPLIT
                            elif two and (
                                bx[b, BF_SS] == SS_PENDING or hand[b, h, HF_V1] == hand[b, h, HF_V2]
                            ):
                                # A pair, or 7-7 under a Super Sevens bet: the full decision.
                                can_surrender = late and nh == 1
                                # Cells read here: an array passed to a function
                                # would cost reference counting on every call.
                                total = _total(hard, hand[b, h, HF_ACE])
                                soft = 1 if total != hard else 0
                                split_ace = hand[b, h, HF_SPLIT_ACE]
                                elig = (split_ace == 0 or hsa != 0) and (nh == 1 or das != 0)
                                variant = (2 if elig else 0) + (1 if can_surrender else 0)
                                i = (
                                    b * ACT_BOX
                                    + ((soft * L.N_TOTALS + total) * L.N_UP + up) * N_VARIANTS
                                    + variant
                                )
                                v1 = hand[b, h, HF_V1]
                                hand6 = (
                                    hard,
                                    hand[b, h, HF_ACE],
                                    n,
                                    split_ace,
                                    v1,
                                    hand[b, h, HF_V2],
                                )
                                cells = (
                                    nh,
                                    bx[b, BF_DECLINED],
                                    bx[b, BF_ACES_SPLIT],
                                    bx[b, BF_SS] == SS_PENDING,
                                    np.int64(sevens_t[b, up]),
                                    np.int64(pairs_t[b, max(v1, 1) - 1, up]),
                                    np.int64(hard_t[b, total, up]),
                                    np.int64(act_t[i]),
                                )
                                act, declined = _decide(hand6, cells, can_surrender, rules4)
                                if declined != 0:
                                    bx[b, BF_DECLINED] = 1
                            else:
                                # Hard or soft table: one cell of the resolved table.
                                variant = 0
                                if two:
                                    if (hand[b, h, HF_SPLIT_ACE] == 0 or hsa != 0) and (
                                        nh == 1 or das != 0
                                    ):
                                        variant = 2
                                    if late and nh == 1:
                                        variant += 1
                                soft = 1 if total != hard else 0
                                i = (
                                    b * ACT_BOX
                                    + ((soft * L.N_TOTALS + total) * L.N_UP + up) * N_VARIANTS
                                    + variant
                                )
                                act = np.int64(act_t[i])
                            if act == A_STAND:
                                hand[b, h, HF_STATUS] = HS_STOOD
                                break
                            if act == A_SURRENDER:
                                # Late surrender: half the wager; the no-hole game may take the
                                # rest (step 8).
                                hand[b, h, HF_STATUS] = HS_SURR
                                hand[b, h, HF_NET] = -stake
                                bx[b, BF_LATE] = 1
                                break
                            if act == A_SPLIT:
                                _split_hands(hand, bx, b, h)  # the current hand's card follows
                            elif act == A_DOUBLE:
                                # 12.1 (b): the wager doubles, the hand gets exactly one card.
                                hand[b, h, HF_WAGER] *= 2
                                hand[b, h, HF_DOUBLED] = 1
                        # Take a card for hand h.
                        if pos >= end:
                            pos, end = _refill(ws, pos, n_cards)
                        k, s0, s1, s2, s3 = _pick(stacked, pos, end, s0, s1, s2, s3)
                        uk = np.uint64(k)
                        upos = np.uint64(pos)
                        code = shoe[uk]
                        shoe[uk] = shoe[upos]
                        shoe[upos] = code
                        pos += 1
                        c = np.int64(code)
                        v = _value(c)
                        hard = hand[b, h, HF_HARD] + v
                        hand[b, h, HF_HARD] = hard
                        if v == 1:
                            hand[b, h, HF_ACE] = 1
                        n = hand[b, h, HF_N] + 1
                        hand[b, h, HF_N] = n
                        if n == 2:
                            hand[b, h, HF_V2] = v
                        elif n == 3 and bx[b, BF_SS] == SS_PENDING:
                            # 14 (d)/(e): the third card of an unsplit 7-7 (hand 0 only).
                            bx[b, BF_SS] = _sevens_line(bx[b, BF_C1], bx[b, BF_C2], c)
                        if act == A_DOUBLE:
                            if _total(hard, hand[b, h, HF_ACE]) > 21:
                                hand[b, h, HF_STATUS] = HS_BUST
                                hand[b, h, HF_NET] = -hand[b, h, HF_WAGER]
                            else:
                                hand[b, h, HF_STATUS] = HS_STOOD
                    h += 1

            # 7. Dealer: draw only as far as something depends on it (12.4), unless told to.
            need_second = draw_no_live
            need_more = draw_no_live
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
                        elif st == HS_BUST and dbj_rule == L.DBJ_ORIGINAL:
                            need_second = True
            while True:
                if d_n == 1:
                    if not need_second:
                        break  # the no-hole game's second card is not needed
                elif dealer_bj or not need_more:
                    break
                elif d_stands[d_ace * HARD_MAX + d_hard] != 0:
                    break  # 12.3: stand on 17 (hit soft 17 with dealer_hits_soft_17)
                if pos >= end:
                    pos, end = _refill(ws, pos, n_cards)
                k, s0, s1, s2, s3 = _pick(stacked, pos, end, s0, s1, s2, s3)
                uk = np.uint64(k)
                upos = np.uint64(pos)
                code = shoe[uk]
                shoe[uk] = shoe[upos]
                shoe[upos] = code
                pos += 1
                v = _value(np.int64(code))
                d_hard += v
                if v == 1:
                    d_ace = 1
                d_n += 1
                if d_n == 2:
                    dealer_bj = d_hard == 11 and d_ace != 0  # no-hole game: the second card
            d_total = _total(d_hard, d_ace)

            # Insurance is settled on the second card (9.1, 9.5, 9.6); peek games did it above.
            if not peek:
                for b in range(nb):
                    if bx[b, BF_INS] != 0:
                        bx[b, BF_INS_NET] = ins_win if dealer_bj else -stake

            # 8. Settle (4.1, 8.2).
            for b in range(nb):
                nh = bx[b, BF_NH]
                if dealer_bj:
                    if bx[b, BF_EARLY] != 0 or bx[b, BF_EM] != 0:
                        continue  # settled already
                    if hand[b, 0, HF_STATUS] == HS_BJ:
                        hand[b, 0, HF_STATUS] = HS_DONE  # two blackjacks stand off
                        continue
                    if bx[b, BF_LATE] != 0:
                        hand[b, 0, HF_NET] = -unit  # a late surrender loses its whole wager
                        continue
                    if dbj_rule == L.DBJ_ALL:
                        for h in range(nh):
                            if hand[b, h, HF_STATUS] == HS_STOOD:
                                hand[b, h, HF_NET] = -hand[b, h, HF_WAGER]
                    elif dbj_rule == L.DBJ_ORIGINAL_AND_BUSTED:
                        # The box loses its initial wager from its unbusted hands (charged to
                        # the first of them); their other wagers are returned.
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
                            hand[b, h, HF_NET] = bj_win
                        elif st == HS_STOOD:
                            t = _total(hand[b, h, HF_HARD], hand[b, h, HF_ACE])
                            if d_total > 21 or t > d_total:
                                hand[b, h, HF_NET] = hand[b, h, HF_WAGER]
                            elif t < d_total:
                                hand[b, h, HF_NET] = -hand[b, h, HF_WAGER]
                            else:
                                hand[b, h, HF_NET] = 0
        d_total = _total(d_hard, d_ace)

        if ws[WS_FAIL] != 0:
            break
        drawn = ws[WS_BEFORE] + pos - ws[WS_ROUND_START]

        # The round's outcome: a record (stacked mode) or added into the tally (simulation).
        if stacked:
            out[r, L.R_CARDS] = drawn
            out[r, L.R_DEALER_CARDS] = d_n
            out[r, L.R_DEALER_TOTAL] = d_total
            out[r, L.R_DEALER_BJ] = 1 if dealer_bj else 0
        else:
            tally[L.T_ROUNDS] += 1
            tally[L.T_BOX_ROUNDS] += nb
            tally[L.T_CARDS_DEALT] += drawn
            if dealer_bj:
                tally[L.T_DEALER_BJ] += 1
            elif d_total > 21:
                tally[L.T_DEALER_BUST] += 1
            elif d_total >= 17:
                tally[L.T_DEALER_17 + d_total - 17] += 1
        round_main = 0
        round_ins = 0
        round_ss = 0
        for b in range(nb):
            nh = bx[b, BF_NH]
            main = 0
            doubles = 0
            busts = 0
            surrs = 0
            wins = 0
            losses = 0
            pushes = 0
            wagered = 0
            for h in range(nh):
                net = hand[b, h, HF_NET]
                main += net
                doubles += hand[b, h, HF_DOUBLED]
                wagered += hand[b, h, HF_WAGER]
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
            if line < 0:
                ss = 0
            elif line == SS_F:
                ss = -1
            else:
                ss = p[L.P_SS_PAY_A + line]
            ins = bx[b, BF_INS_NET]
            if stacked:
                o = L.R_FIXED + b * L.R_BOX
                out[r, o + L.B_MAIN] = main
                out[r, o + L.B_INS] = ins
                out[r, o + L.B_SS] = ss
                out[r, o + L.B_SS_LINE] = line
                out[r, o + L.B_HANDS] = nh
                out[r, o + L.B_DOUBLES] = doubles
                out[r, o + L.B_BUSTS] = busts
                out[r, o + L.B_BJ] = bx[b, BF_BJ]
                out[r, o + L.B_EVEN_MONEY] = bx[b, BF_EM]
                out[r, o + L.B_INS_TAKEN] = bx[b, BF_INS]
                out[r, o + L.B_SURRENDERS] = surrs
                out[r, o + L.B_WINS] = wins
                out[r, o + L.B_LOSSES] = losses
                out[r, o + L.B_PUSHES] = pushes
            else:
                tot = main + ins
                round_main += main
                round_ins += ins
                tally[L.T_MAIN_SUM] += main
                tally[L.T_MAIN_SQ] += main * main
                tally[L.T_TOTAL_SUM] += tot
                tally[L.T_TOTAL_SQ] += tot * tot
                tally[L.T_INS_OFFERED] += bx[b, BF_INS_OFFERED]
                tally[L.T_INS_TAKEN] += bx[b, BF_INS]
                if ins > 0:
                    tally[L.T_INS_WON] += 1
                tally[L.T_INS_SUM] += ins
                tally[L.T_EM_OFFERED] += bx[b, BF_EM_OFFERED]
                tally[L.T_EM_TAKEN] += bx[b, BF_EM]
                tally[L.T_HANDS] += nh
                tally[L.T_WINS] += wins
                tally[L.T_LOSSES] += losses
                tally[L.T_PUSHES] += pushes
                tally[L.T_PLAYER_BJ] += bx[b, BF_BJ]
                tally[L.T_DOUBLES] += doubles
                tally[L.T_SPLITS] += nh - 1
                tally[L.T_BUSTS] += busts
                tally[L.T_SURRENDERS] += surrs
                tally[L.T_MAIN_WAGERED] += wagered
                if line >= 0:
                    tally[L.T_SS_BETS] += 1
                    tally[L.T_SS_A + line] += 1
                    tally[L.T_SS_SUM] += ss
                    tally[L.T_SS_SQ] += ss * ss
                    round_ss += ss
        if not stacked:
            round_total = round_main + round_ins
            tally[L.T_RTOTAL_SUM] += round_total
            tally[L.T_RTOTAL_SQ] += round_total * round_total
            tally[L.T_RMAIN_SUM] += round_main
            tally[L.T_RMAIN_SQ] += round_main * round_main
            tally[L.T_RINS_SUM] += round_ins
            tally[L.T_RINS_SQ] += round_ins * round_ins
            if ss_on:
                tally[L.T_SS_RSUM] += round_ss
                tally[L.T_SS_RSQ] += round_ss * round_ss
            if tracing:
                traced = _trace_round(trace, traced, shoe, ws, drawn)
        r += 1

    ws[WS_POS] = pos
    ws[WS_END] = end
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3
    return r


@njit
def _simulate_chunk(
    p, hard_t, soft_t, pairs_t, sevens_t, flags_t, n_rounds, rng, tally, trace, m_trans, m_flags,
    m_rows, m_start, m_x_base, m_net, m_settle, m_link, m_hand,
):
    """Play ``n_rounds`` rounds from a fresh shuffle, adding into ``tally``; ``rng`` advances.

    ``trace`` (int8) is empty in production; if it is not, the cards of each round are appended to
    it in dealing order (for tests; a round dealt partly from reshuffled discards is not traced).
    Returns 0, or 1 if the shoe ran out mid-round with no discards to reshuffle. ``m_*``: the
    state machine of the lean game (``machine_for``; ``m_start``: each box's start state), or
    empty arrays for none; its visit counts are added into the tally at the end (``m_rows``: what
    one visit adds).
    """
    shoe = _fresh_shoe(p[L.P_DECKS])
    ws = np.zeros(N_WS, np.int64)
    ws[WS_END] = shoe.size - SLACK
    ws[WS_NEED_FULL] = 1  # a chunk starts with a fresh shuffle
    act_t = _resolve_tables(p, hard_t, soft_t)
    hx_t = _by_hard_sum(act_t)
    out = np.zeros((0, 0), np.int64)
    m_counts = np.zeros(m_flags.size, np.int64)
    _play_rounds(
        p, act_t, hx_t, hard_t, pairs_t, sevens_t, flags_t, shoe, ws, rng, n_rounds, p[L.P_CUT],
        out, tally, trace, m_trans, m_flags, m_counts, m_start, m_x_base, m_net, m_settle, m_link,
        m_hand,
    )  # fmt: skip
    for s in range(m_counts.size):
        if m_counts[s] != 0:
            for f in range(L.N_TALLY):
                tally[f] += m_counts[s] * m_rows[s, f]
    tally[L.T_SHUFFLES] += ws[WS_SHUFFLES]
    return 1 if ws[WS_FAIL] != 0 else 0


@njit
def _play_stacked(p, hard_t, soft_t, pairs_t, sevens_t, flags_t, cards, cut, out):
    """Play rounds off ``cards`` in order while ``pos < cut``; write complete rounds to ``out``.

    Returns the number of complete rounds.
    """
    shoe = np.full(cards.size + SLACK, TEN_CODE, np.int8)
    shoe[: cards.size] = cards
    ws = np.zeros(N_WS, np.int64)
    ws[WS_END] = cards.size
    ws[WS_STACKED] = 1
    # Stacked mode discards its draws (``_pick_masked``), but they must not be the all-zero
    # state, from which xoshiro256** yields zeros and the rejection loop would never end.
    rng = np.arange(1, 5).astype(np.uint64)
    act_t = _resolve_tables(p, hard_t, soft_t)
    hx_t = _by_hard_sum(act_t)
    tally = np.zeros(0, np.int64)
    trace = np.zeros(0, np.int8)
    return _play_rounds(
        p, act_t, hx_t, hard_t, pairs_t, sevens_t, flags_t, shoe, ws, rng, out.shape[0], cut, out,
        tally, trace,
        np.zeros(0, np.int16), np.zeros(0, np.int8), np.zeros(0, np.int64), np.zeros(0, np.int64),
        0, np.zeros(0, np.int64), np.zeros(0, np.int16), np.zeros(0, np.int16),
        np.zeros(0, np.int8),
    )  # fmt: skip


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


def deal_shoe(state, decks: int) -> np.ndarray:
    """Every card of a fresh shoe of ``decks`` decks, shuffled from the xoshiro256** ``state``
    (four uint64, not all zero; not modified) as a chunk shuffles it, in dealing order (card
    codes, int64)."""
    rng = np.array(state, dtype=np.uint64).reshape(-1).copy()
    if rng.shape != (4,) or not rng.any():
        raise ValueError("kernel: state must be four uint64 words, not all zero")
    if isinstance(decks, bool) or not 1 <= int(decks) <= 8:
        raise ValueError(f"kernel: decks = {decks!r} is out of range: allowed 1-8")
    return _deal_shoe(rng, int(decks))


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
    m = machine_for(p, hard, soft, pairs, sevens, flags)
    status = _simulate_chunk(
        p, hard, soft, pairs, sevens, flags, n_rounds, rng, tally, np.empty(0, np.int8), *m
    )
    if status != 0:
        raise ValueError(
            f"kernel: the shoe ran out mid-round with no discards to reshuffle "
            f"(decks = {p[L.P_DECKS]}, boxes = {p[L.P_BOXES]}): use more decks or fewer boxes"
        )
    return tally


_MACHINES: dict = {}


def no_machine() -> tuple:
    """The ``m_*`` arguments of ``_simulate_chunk`` for no state machine."""
    return (
        np.zeros(0, np.int16), np.zeros(0, np.int8), np.zeros((0, L.N_TALLY), np.int64),
        np.zeros(0, np.int64), 0, np.zeros(0, np.int64), np.zeros(0, np.int16),
        np.zeros(0, np.int16), np.zeros(0, np.int8),
    )  # fmt: skip


def machine_for(p, hard, soft, pairs, sevens, flags) -> tuple:
    """The ``m_*`` arguments of ``_simulate_chunk``: the state machine of the lean game
    (``simulator.machine``) when the rules and strategies are that game, else ``no_machine()``.
    Boxes that play different strategies share one table (``machine.combine``), each starting
    from its own strategy's start state (``m_start``: one a box). Built once per rules and
    strategies in a process."""
    from simulator import machine

    if not machine.eligible(p, flags):
        return no_machine()
    key = (p.tobytes(), hard.tobytes(), soft.tobytes(), pairs.tobytes(), sevens.tobytes())
    if key not in _MACHINES:
        first_box: dict = {}  # a strategy's tables -> the first box that plays it
        of_box = []  # each box's strategy, as an index into first_box
        for b in range(hard.shape[0]):
            k = b"".join(t[b].tobytes() for t in (hard, soft, pairs, sevens))
            first_box.setdefault(k, b)
            of_box.append(list(first_box).index(k))
        built = []
        for b in first_box.values():
            hx_t = _by_hard_sum(_resolve_tables(p, hard[b : b + 1], soft[b : b + 1]))
            built.append(machine.build(p, hx_t, pairs[b : b + 1], sevens[b : b + 1]))
        if len(built) == 1:
            m, starts = built[0], [built[0].start]
        elif sum(x.flags.size for x in built) >= 2**15:
            _MACHINES[key] = no_machine()  # too many states for int16: the general path
            return _MACHINES[key]
        else:
            m, starts = machine.combine(built)
        rows = m.rows if p[L.P_BOXES] == 1 else m.box_rows()
        box_starts = np.array([starts[i] for i in of_box], np.int64)
        _MACHINES[key] = (
            m.trans, m.flags, rows, box_starts, m.x_base, m.net, m.settle, m.link, m.hand
        )
    return _MACHINES[key]


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
