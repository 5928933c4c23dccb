"""Random numbers and the shoe: xoshiro256**, Lemire's exactly uniform bounded draw, the lazy
Fisher-Yates shuffle (one swap per card dealt) and the refill of a shoe that ran out mid-round."""

from __future__ import annotations

import numpy as np

from simulator.jit import njit

MASK32 = np.uint64(0xFFFFFFFF)
TWO32 = np.uint64(0x100000000)
U5, U7, U9, U17, U19, U32, U45, U57 = (np.uint64(k) for k in (5, 7, 9, 17, 19, 32, 45, 57))

# The shoe array: its cards, then SLACK tens to end a round that ran out of them (``WS_FAIL``).
SLACK = 256
TEN_CODE = 36  # ten of clubs

# Shoe workspace ``ws`` (int64, zeros for a new shoe): the cold part of the shoe state.
WS_ROUND_START = 0  # position of this round's first card (discards are 0..ROUND_START-1)
WS_FAIL = 1  # 1: ran out of cards (stacked: incomplete round; simulation: no discards left)
WS_SHUFFLES = 2  # shuffles made
WS_BEFORE = 3  # cards of this round dealt before a mid-round reshuffle of the discards
WS_NEED_FULL = 4  # 1: the next round starts with a full shuffle
WS_REFILLS = 5  # mid-round shuffles of the discards (among WS_SHUFFLES)
N_WS = 6


@njit(inline="always")
def value(code):
    """Blackjack value of a card code, ace = 1, ten-valued = 10."""
    return min((code >> 2) + 1, 10)


@njit(inline="always")
def next_u64(s0, s1, s2, s3):
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
def bounded(n, s0, s1, s2, s3):
    """Exactly uniform integer in ``0..n-1`` (1 <= n <= 2**32), Lemire's multiply-shift with
    rejection of the draws whose low product falls below ``2**32 mod n``."""
    nn = np.uint64(n)
    r, s0, s1, s2, s3 = next_u64(s0, s1, s2, s3)
    m = (r >> U32) * nn
    if (m & MASK32) < nn:  # (only then can it fall below 2**32 mod n: no division otherwise)
        while (m & MASK32) < (TWO32 - nn) % nn:
            r, s0, s1, s2, s3 = next_u64(s0, s1, s2, s3)
            m = (r >> U32) * nn
    return np.int64(m >> U32), s0, s1, s2, s3


@njit
def fresh_shoe(decks):
    """Every card code ``decks`` times in order (the lazy shuffle needs no other), then the tens."""
    shoe = np.full(52 * decks + SLACK, TEN_CODE, np.int8)
    for i in range(52 * decks):  # (a loop: an array assigned here compiles numba's error text)
        shoe[i] = i % 52
    return shoe


@njit
def refill(ws, stacked, pos, n_cards):
    """The undealt region ran out mid-round (``pos >= end``): returns the new ``(pos, end)``.
    Simulation: the discards ``0..round_start-1`` become the shoe and the next round starts with
    a full shuffle. With no discards, or ``stacked``, ``WS_FAIL`` is set and the slack of tens
    is dealt from instead."""
    if stacked or ws[WS_ROUND_START] == 0:
        ws[WS_FAIL] = 1
        return n_cards, n_cards + SLACK
    ws[WS_BEFORE] = pos - ws[WS_ROUND_START]
    end = ws[WS_ROUND_START]
    ws[WS_ROUND_START] = 0
    ws[WS_SHUFFLES] += 1
    ws[WS_REFILLS] += 1
    ws[WS_NEED_FULL] = 1
    return 0, end


@njit(inline="always")
def take(shoe, ws, stacked, pos, end, s0, s1, s2, s3):
    """A card dealt (design: "Shoe and shuffle"): the shoe refilled if it ran out (``refill``;
    ``ws`` None: the caller knows it has not, and the test is left out when compiled), then the
    card at ``pos`` (stacked) or one uniform in ``pos..end-1`` swapped into ``pos`` (one lazy
    Fisher-Yates step; the shoe indexed unsigned: no negative-index wraparound). Returns
    ``(code, pos + 1, end, s0, s1, s2, s3)``."""
    if ws is not None and pos >= end:
        pos, end = refill(ws, stacked, pos, shoe.size - SLACK)
    k = np.uint64(pos)
    if not stacked:
        j, s0, s1, s2, s3 = bounded(end - pos, s0, s1, s2, s3)
        k = np.uint64(pos + j)
    code = np.int64(shoe[k])
    shoe[k] = shoe[np.uint64(pos)]
    shoe[np.uint64(pos)] = code
    return code, pos + 1, end, s0, s1, s2, s3


@njit
def deal_shoe(state, decks):
    """A fresh shoe of ``decks`` decks dealt whole from the xoshiro256** ``state``: its codes."""
    shoe, n = fresh_shoe(decks), 52 * decks
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for pos in range(n):  # each card dealt is swapped into ``pos``: the shoe in dealing order
        _, _, _, s0, s1, s2, s3 = take(shoe, None, False, pos, n, s0, s1, s2, s3)
    return shoe[:n].astype(np.int64)
