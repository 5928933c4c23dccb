"""A counter in the engine: the running count (card by card in the walk, caught up from the shoe
in the round loop), what the true count says (strategy band, insurance, bets, wonging) and the
counting tally (``layout`` C_*). docs/counting.md."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator import layout as L
from simulator.jit import njit
from simulator.kernel import tally as T
from simulator.kernel.rng import WS_BEFORE, WS_SHUFFLES, value

# ci: the counter's integers; cs: the count as play goes.
CI_IRC, CI_RC_LO, CI_BANDS, CI_INS, CI_LEVELS, CI_SS_LEVELS = range(6)
SEVEN = 1 << 32  # a seven's mark in each tag: the running count carries the sevens seen above it
# cs: the count, then the round's bets, tally row and exact Super Sevens moments.
(CS_RC, CS_SEEN, CS_SHUFFLES, CS_SEATED, CS_HID_TAG, CS_HID_N, CS_BET, CS_SS_BET, CS_ROW,
 CS_SS_AT, CS_FAM, N_CS) = range(12)
R_MAIN, R_SS, R_BOXES = range(3)  # the ramps
# What the count says, by (cards left, running count): the fields of an entry of ``ctab``.
E_BAND, E_INS, E_ENTER, E_LEAVE, E_ROW, E_RAMP = 0, 8, 9, 10, 16, 24  # E_RAMP + 8 * ramp
COPIES = np.array([4] * 9 + [16])  # cards of each value A..T in a deck
WALKED_MAX = 1 << 21  # the walk's round counts (``add_walked``) at most: 16 MB; else the loop bets


@dataclass(frozen=True)
class Counter:
    """A counter: ``tags`` by value A..T; ``step``: the deck estimate's step in cards (0 exact);
    ``true``: the true count, else the running count, decides; ``bands``: the counts where the
    strategy changes (insurance at ``insurance``, or None); ``ramps``: ``(steps, values)`` of the
    main bet, the Super Sevens bet, the boxes; ``ev``: Super Sevens return and mean square by
    (cards left, sevens left), or empty."""

    tags: tuple
    irc: int
    step: int
    true: bool
    bands: np.ndarray
    insurance: float | None
    enter: float
    leave: float
    ramps: tuple
    ev: np.ndarray

    def running_counts(self, decks: int) -> tuple[int, int]:
        """The lowest and highest running count a shoe of ``decks`` decks can give."""
        tags = np.array(self.tags)
        return tuple(self.irc + decks * int((f(tags, 0) * COPIES).sum())
                     for f in (np.minimum, np.maximum))

    def count_table(self, decks: int) -> np.ndarray:
        """``ctab[left, rc - lowest]``: what the true count says (fields ``E_*``) with ``left``
        cards left (1 at least) and running count ``rc``."""
        lo, hi = self.running_counts(decks)
        left = np.maximum(np.arange(52 * decks + 2), 1)
        if not self.true:
            per, cards = 1.0, np.ones(left.size)
        else:  # (rc * 52 / cards, one rounding: a whole true count is exact, as +13 at 23 / 92)
            per = 52.0
            cards = left if self.step == 0 else np.maximum(
                self.step, np.rint(left / self.step) * self.step)
        tc = np.arange(lo, hi + 1)[None, :] * per / cards[:, None]
        ins = np.inf if self.insurance is None else self.insurance
        bands = np.asarray(self.bands, np.float64)
        fields = [(E_BAND, np.searchsorted(bands, tc, "right")), (E_INS, tc >= ins),
                  (E_ENTER, tc >= self.enter), (E_LEAVE, tc >= self.leave),
                  (E_ROW, np.clip(np.floor(tc), L.TC_MIN, L.TC_MAX) - L.TC_MIN)]  # fmt: skip
        fields += [(E_RAMP + 8 * r, np.searchsorted(np.asarray(steps, np.float64), tc, "right"))
                   for r, (steps, _) in enumerate(self.ramps)]  # fmt: skip
        assert self.bands.size < 255 and max(len(r[0]) for r in self.ramps) < 256, (
            "plans and index files are held to 255 steps and 254 counts where they are read")
        ctab = np.zeros(tc.shape, np.int64)
        for at, v in fields:
            ctab |= v.astype(np.int64) << at
        return ctab

    def arrays(self, decks: int, classes: int = 0) -> tuple:
        """``play_rounds``' ``cx`` for ``decks`` decks: a fresh counting tally, walk counts
        (``add_walked``) for ``classes`` terminal classes (``wtid``; none: the round loop bets)
        and nets (``add_round``)."""
        width = max(len(r[0]) for r in self.ramps) + 2  # each ramp's values, the last repeated
        ramp_v = np.array([list(v) + [v[-1]] * (width - len(v)) for _, v in self.ramps], np.int64)
        main, ss = len(self.ramps[R_MAIN][0]) + 1, len(self.ramps[R_SS][0]) + 1
        ci = np.array([self.irc, self.running_counts(decks)[0], self.bands.size + 1,
                       int(self.insurance is not None), 1 + main * ss, ss], np.int64)  # fmt: skip
        if 2 * L.N_TC * ci[CI_LEVELS] * classes > WALKED_MAX:  # ramps of many steps each
            classes = 0
        tags = np.array(self.tags, np.int64) + SEVEN * (np.arange(1, 11) == 7)
        ev = np.array(self.ev, np.float64).reshape(2, -1)[[0, 1, 0]]
        scale = np.array([[L.SS_EXACT_SCALE], [L.SS_EXACT_SQ_SCALE], [L.SS_EXACT_BET_SCALE]])
        ctab = self.count_table(decks)
        return (ci, ctab, tags, ramp_v, np.zeros((L.N_TC, L.N_COUNT), np.int64),
                np.rint(ev * scale).astype(np.int64),
                np.zeros(2 * L.N_TC * ci[CI_LEVELS] * classes, np.int64),
                bet_table(ctab, ci, classes), np.zeros(L.N_NETS, np.int64))  # fmt: skip


def bet_table(ctab, ci, classes: int) -> np.ndarray:
    """The walk's bets (``play._add_rounds``) by (cards left, running count less its lowest,
    seated before): ``round_start``'s as the place in ``walked`` but for the terminal class and
    first card (shifted 7), the tally row (shifted 1) and seated."""
    if not classes:
        return np.zeros((1, 1, 2), np.int32)
    levels = int(ci[CI_LEVELS])
    assert 2 * L.N_TC * levels * classes < 1 << 24 and L.N_TC <= 64  # (int32 entries)

    f = field.py_func
    seated = np.stack([f(ctab, E_ENTER, 1), f(ctab, E_LEAVE, 1)], axis=-1)
    row = f(ctab, E_ROW)[..., None]
    steps = 1 + f(ctab, E_RAMP + 8 * R_MAIN) * ci[CI_SS_LEVELS] + f(ctab, E_RAMP + 8 * R_SS)
    level = seated * steps[..., None]
    return (((row * levels + level) * classes * 2) << 7 | row << 1 | seated).astype(np.int32)


@njit(inline="always")
def running(rcp):
    """The running count and the sevens seen of a count with sevens marked (``SEVEN``)."""
    sevens = (rcp + (1 << 31)) >> 32
    return rcp - sevens * SEVEN, sevens


@njit(inline="always")
def said(ci, ctab, rcp, left):
    """``Counter.count_table``'s entry at running count ``rcp`` (sevens marked), ``left`` left."""
    return ctab[min(max(left, 1), ctab.shape[0] - 1), running(rcp)[0] - ci[CI_RC_LO]]


@njit(inline="always")
def field(e, at, bits=8):
    return (e >> at) & ((1 << bits) - 1)


@njit
def count_now(ci, ctab, tg, cs, shoe, ws, pos, end):
    """``said`` after the cards seen since the shuffle (``shoe[:pos]``; after a refill, the round's
    on the table) less a card not turned (``cs[CS_HID_*]``: the peek game's hole card)."""
    if cs[CS_SHUFFLES] != ws[WS_SHUFFLES]:
        cs[CS_SHUFFLES] = ws[WS_SHUFFLES]
        cs[CS_RC] = ci[CI_IRC]
        for i in range(end, end + ws[WS_BEFORE]):  # the round's cards before a refill
            cs[CS_RC] += tg[value(np.int64(shoe[i])) - 1]
        cs[CS_SEEN] = 0
    for i in range(cs[CS_SEEN], pos):
        cs[CS_RC] += tg[value(np.int64(shoe[i])) - 1]
    cs[CS_SEEN] = pos
    return said(ci, ctab, cs[CS_RC] - cs[CS_HID_TAG], end - pos + cs[CS_HID_N])


@njit
def table_at(ci, ctab, tg, cs, shoe, ws, pos, end, fam):
    """The counter's strategy now: the band of the count, in insurance family ``fam``."""
    return fam * ci[CI_BANDS] + field(count_now(ci, ctab, tg, cs, shoe, ws, pos, end), E_BAND)


@njit
def round_start(ci, ctab, tg, ramp_v, cs, shoe, ws, pos, end, decks):
    """At a round's start, into ``cs``: seated (wonging), the bets, the tally row, the shoe's
    place in the exact Super Sevens table (``exact_at``). Returns the boxes dealt."""
    e = count_now(ci, ctab, tg, cs, shoe, ws, pos, end)
    seated = field(e, E_LEAVE if cs[CS_SEATED] != 0 else E_ENTER, 1)
    cs[CS_SEATED] = seated
    j, k = field(e, E_RAMP + 8 * R_MAIN), field(e, E_RAMP + 8 * R_SS)
    boxes = ramp_v[R_BOXES, field(e, E_RAMP + 8 * R_BOXES) * seated]  # the base when out
    cs[CS_BET], cs[CS_SS_BET] = ramp_v[R_MAIN, j] * seated, ramp_v[R_SS, k] * seated
    cs[CS_SS_AT] = exact_at(end - pos, running(cs[CS_RC])[1], decks)
    cs[CS_ROW] = field(e, E_ROW)
    return boxes


@njit(inline="always")
def exact_at(left, sevens, decks):
    """``ev``'s column for a shoe of ``decks`` decks, ``left`` cards left, ``sevens`` seen."""
    return np.uint64(left * (4 * decks + 1) + 4 * decks - sevens)


@njit(inline="always")
def add_exact(ct, row, ev, at, boxes, bet):
    """``boxes`` Super Sevens bets at ``ev``'s column ``at`` into the counting tally's ``row``:
    their exact return and mean square, whether it favours the player, and the return of the
    counter's ``bet`` on each."""
    ct[row, L.C_SS_EXACT] += boxes * ev[0, at]
    ct[row, L.C_SS_EXACT_SQ] += boxes * ev[1, at]
    ct[row, L.C_SS_PLUS] += ev[0, at] > 0
    if bet != 0:
        ct[row, L.C_SS_EXACT_BET] += boxes * bet * ev[2, at]


@njit(inline="always")
def decided(ci, cs, e):
    """The strategy after the deal where the count says ``e``: its family (insured) in ``cs``."""
    cs[CS_FAM] = ci[CI_INS] & field(e, E_INS, 1)
    return cs[CS_FAM] * ci[CI_BANDS] + field(e, E_BAND)


@njit(inline="always")
def add_box(ct, row, seated, bet, ss_bet, main, ins, wagered, ss_pay, ss_on, n):
    """``n`` boxes alike into the counting tally's ``row`` (the counter's when ``seated``, at
    ``bet`` and ``ss_bet``; ``main`` the box's main and insurance net at one unit, ``ins`` its
    insurance part, won or lost by its sign); returns one box's part of the counter's round."""
    ct[row, L.C_FLAT_BOXES] += n
    ct[row, L.C_FLAT_NET] += n * main
    ct[row, L.C_FLAT_SQ] += n * main * main
    if ss_on:
        ct[row, L.C_SS_FLAT_BETS] += n
        ct[row, L.C_SS_FLAT_NET] += n * ss_pay
        ct[row, L.C_SS_FLAT_SQ] += n * ss_pay * ss_pay
    if not seated:
        return 0
    ct[row, L.C_BOXES] += n
    ct[row, L.C_BET] += n * bet
    ct[row, L.C_WAGERED] += n * wagered * bet
    ct[row, L.C_NET] += n * main * bet
    ct[row, L.C_INS_NET] += n * ins * bet
    ct[row, L.C_INS_WON + (ins < 0)] += n * (ins != 0)  # won, or lost: the next column
    if ss_on and ss_bet > 0:
        ct[row, L.C_SS_BET] += n * ss_bet
        ct[row, L.C_SS_NET] += n * ss_pay * ss_bet
        return main * bet + L.UNIT * ss_pay * ss_bet
    return main * bet


net_bin = njit(inline="always")(L.net_bin)  # (the bins: layout's)


@njit(inline="always")
def add_round(ct, nets, row, seated, net, bet, flat, flat_ins, n):
    """``n`` rounds alike into the counting tally (and, played, ``nets``: `net_bin`): ``net``
    the counter's (tenths); ``flat`` its boxes' net and ``flat_ins`` its insurance part at one
    unit (the counter's: ``bet`` times)."""
    ct[row, L.C_ROUNDS] += n
    ct[row, L.C_FLAT_RSQ] += n * flat * flat
    if seated:
        nets[np.uint64(net_bin(net))] += n
        ct[row, L.C_PLAYED] += n
        ct[row, L.C_ROUND_SQ] += n * net * net
        ct[row, L.C_MAIN_SQ] += n * bet * bet * flat * flat
        ct[row, L.C_CROSS] += n * bet * flat * flat
        ct[row, L.C_MAIN_ALONE_SQ] += n * bet * bet * (flat - flat_ins) * (flat - flat_ins)
        ct[row, L.C_INS_SQ] += n * bet * bet * flat_ins * flat_ins


@njit
def add_walked(cx, p, trows):
    """The walk's rounds into the counting tally: ``cx[6][((row * levels + level) * classes + t)
    * 2 + seven]`` at tally row ``row``, bets' level ``level``, terminal class ``t`` (tally row
    ``trows[t]``), the first card a seven or not."""
    ci, ramp_v, ct, walked, nets = cx[0], cx[3], cx[4], cx[6], cx[8]
    ss_on, pay_a = p[L.P_SS] != 0, T.ss_net(0, p)
    levels, n_ss, n_term = ci[CI_LEVELS], ci[CI_SS_LEVELS], trows.shape[0]
    for i in range(walked.size):
        n = walked[i]
        if n == 0:
            continue
        t, c = trows[i // 2 % n_term], i // 2 // n_term
        row, level = c // levels, c % levels
        seated = level > 0
        bet = ramp_v[R_MAIN, (level - 1) // n_ss] if seated else 0
        ss_bet = ramp_v[R_SS, (level - 1) % n_ss] if seated else 0
        ss = (pay_a if i % 2 else -1) if ss_on else 0
        net = add_box(ct, row, seated, bet, ss_bet, t[L.T_RTOTAL_SUM], t[L.T_RINS_SUM],
                      t[L.T_MAIN_WAGERED], ss, ss_on, n)  # fmt: skip
        add_round(ct, nets, row, seated, net, bet, t[L.T_RTOTAL_SUM], t[L.T_RINS_SUM], n)
