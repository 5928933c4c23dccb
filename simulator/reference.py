"""The reference game: slow, readable, pure-Python blackjack of NZ Gazette 1994 No. 112.

The oracle the kernel is tested against (both play the same stacked shoes and must write
identical per-round records) and the engine of ``bjsim replay``, so it says *why* it does what it
does, citing the Gazette rule. It shares nothing with the kernel but the layout constants, `Rules`
and `Strategy`. The procedure, step by step, with every rule it implements: docs/design.md.
Money is kept in tenths of the initial wager (``layout.UNIT``) and shown in units (``+1.5``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from simulator import layout as L
from simulator.rules import Rules, rule_set
from simulator.strategy import Strategy

__all__ = [
    "Event",
    "HandResult",
    "BoxResult",
    "RoundResult",
    "play_stacked",
    "Counting",
    "Bets",
    "counting_tally",
    "ramp_at",
    "format_round",
    "card_token",
    "card_value",
    "hard_sum",
    "hand_total",
    "is_soft",
    "is_blackjack",
    "is_pair",
    "is_seven",
    "up_index",
    "can_split",
    "can_double",
    "dealer_should_draw",
    "dealer_has_blackjack",
    "settle",
    "super_sevens_line",
]

SS_LINE_NAMES = ("(a)", "(b)", "(c)", "(d)", "(e)", "(f)")
SS_A, SS_B, SS_C, SS_D, SS_E, SS_F = range(6)


# =============================================================================================
# Cards and hands: small pure functions
# =============================================================================================
def card_token(code: int) -> str:
    """The token of a card code: ``"7h"``, ``"Td"``, ``"As"`` (rank then suit; rule 3.1)."""
    return L.RANKS[code // 4] + L.SUITS[code % 4]


def cards_text(cards) -> str:
    """Card tokens separated by spaces."""
    return " ".join(card_token(int(c)) for c in cards)


def card_value(code: int) -> int:
    """Blackjack value of a card with an ace as 1; tens and faces are 10 (rule 3.2)."""
    return min(code // 4 + 1, 10)


def is_seven(code: int) -> bool:
    """True for a seven of any suit (rule 14.3)."""
    return code // 4 == L.SEVEN_RANK


def hard_sum(cards) -> int:
    """Sum of the cards with every ace counted as 1."""
    return sum(card_value(c) for c in cards)


def hand_total(cards) -> int:
    """Best total (rule 3.2): an ace counts 11 if that does not take the hand over 21."""
    hard = hard_sum(cards)
    if any(card_value(c) == 1 for c in cards) and hard + 10 <= 21:
        return hard + 10
    return hard


def is_soft(cards) -> bool:
    """True when an ace is being counted as 11 (rule 3.2)."""
    return hand_total(cards) != hard_sum(cards)


def is_blackjack(cards, after_split: bool = False) -> bool:
    """An ace and a ten-valued card as the first two cards of a box (rule 4.1).

    Two cards of 21 on a hand formed by splitting are 21, not a blackjack (rule 11 (c)).
    """
    if after_split or len(cards) != 2:
        return False
    values = sorted(card_value(c) for c in cards)
    return values == [1, 10]


def is_pair(cards) -> bool:
    """Two cards of equal value (any two ten-valued cards are a pair; rule 11)."""
    return len(cards) == 2 and card_value(cards[0]) == card_value(cards[1])


def up_index(code: int) -> int:
    """Strategy-table column of a dealer up card: value - 2 for 2..10, 9 for an ace."""
    value = card_value(code)
    return 9 if value == 1 else value - 2


def up_label(code: int) -> str:
    """The up card as a column label: ``2``..``10`` or ``A``."""
    value = card_value(code)
    return "A" if value == 1 else str(value)


def dealer_has_blackjack(cards) -> bool:
    """The dealer's first two cards are an ace and a ten-valued card (rules 8.2, 9.1)."""
    return is_blackjack(cards[:2]) if len(cards) >= 2 else False


def dealer_should_draw(cards, hits_soft_17: bool) -> bool:
    """Rule 12.3: the dealer draws below 17 and stands on all 17s (hard or soft).

    With ``dealer_hits_soft_17`` (a variant) the dealer also draws to a soft 17.
    """
    total = hand_total(cards)
    if total < 17:
        return True
    return total == 17 and hits_soft_17 and is_soft(cards)


def can_split(
    cards, hands_in_box: int, declined: bool, aces_split_before: bool, rules: Rules
) -> bool:
    """May this two-card hand be split now? (rules 11, 11 (b), 11.5)

    A pair may be split while the box has fewer than ``max_hands`` hands (rule 11: at most three
    hands per box), if the box has not declined to split a pair this round (11.5), and aces only
    once unless ``resplit_aces`` (11 (b)).
    """
    if not is_pair(cards):
        return False
    if hands_in_box >= rules.max_hands or declined:
        return False
    if card_value(cards[0]) == 1 and aces_split_before and not rules.resplit_aces:
        return False
    return True


def can_double(cards, split_hand: bool, split_aces: bool, rules: Rules) -> bool:
    """May this hand double down? (rule 10, its variants, and 12.1 (c))

    Two cards only; never on split aces unless ``hit_split_aces``; on a split hand only with
    ``double_after_split``; and the two-card total per ``double_on``: ``any``; ``hard`` (no ace);
    ``9-11`` or ``10-11`` (hard totals only).
    """
    if len(cards) != 2:
        return False
    if split_aces and not rules.hit_split_aces:
        return False
    if split_hand and not rules.double_after_split:
        return False
    has_ace = any(card_value(c) == 1 for c in cards)
    total = hard_sum(cards)
    if rules.double_on == "any":
        return True
    if has_ace:
        return False
    if rules.double_on == "hard":
        return True
    if rules.double_on == "9-11":
        return 9 <= total <= 11
    if rules.double_on == "10-11":
        return 10 <= total <= 11
    raise ValueError(
        f"rules: key 'double_on' = {rules.double_on!r}: allowed any, hard, 9-11, 10-11"
    )


def settle(
    player_cards, wager: int, player_blackjack: bool, dealer_cards, bj_win: int
) -> tuple[int, str, str]:
    """Settle one unbusted hand against the dealer's finished hand (rules 4.1, 8.2, 11.6).

    Returns ``(net in tenths, why, rule)``. A dealer blackjack is handled by the caller (it
    depends on the rule set); here the dealer has no blackjack.
    """
    dealer = hand_total(dealer_cards)
    if player_blackjack:
        return bj_win, "blackjack paid " + _odds(bj_win), "8.2"
    player = hand_total(player_cards)
    if dealer > 21:
        return wager, f"dealer busts ({dealer}), {player} wins", "4.1"
    if player > dealer:
        return wager, f"{player} beats {dealer}", "4.1"
    if player < dealer:
        return -wager, f"{dealer} beats {player}", "4.1"
    return 0, f"stand-off, {player} equals {dealer}", "4.1"


def super_sevens_line(first_two, third, split: bool) -> int:
    """The Super Sevens line (0..5 for (a)..(f)) decided by a box's cards (rule 14.3, 14.4).

    ``first_two`` are the box's first two cards, ``third`` the third card dealt to that hand (None
    if there was none), ``split`` whether the box split its 7-7 (14.4: paid at once by suits).
    """
    c1, c2 = first_two
    if not is_seven(c1):
        return SS_F
    if not is_seven(c2):
        return SS_A
    same_suit = c1 % 4 == c2 % 4
    if split or third is None or not is_seven(third):
        return SS_C if same_suit else SS_B
    if same_suit and third % 4 == c1 % 4:
        return SS_E
    return SS_D


def units(tenths: int) -> str:
    """Tenths of a wager as signed units: 15 -> ``+1.5``, -10 -> ``-1.0``."""
    return f"{tenths / L.UNIT:+.1f}"


def _odds(win: int) -> str:
    """A win in tenths of a wager as odds: 15 -> ``3 to 2``, 10 -> ``1 to 1``."""
    from math import gcd

    g = gcd(win, L.UNIT)
    return f"{win // g} to {L.UNIT // g}"


# =============================================================================================
# Round state and results
# =============================================================================================
@dataclass(frozen=True)
class Event:
    """One thing that happened: who, what, why and the Gazette rule (or variant) behind it."""

    who: str
    what: str
    why: str
    rule: str

    def to_dict(self) -> dict:
        return {"who": self.who, "what": self.what, "why": self.why, "rule": self.rule}


@dataclass
class HandResult:
    """One hand of a box: its cards and wager (tenths), and how it ended."""

    cards: list[int]
    wager: int = L.UNIT
    split_hand: bool = False  # formed by a split (so no blackjack, rule 11 (c))
    split_aces: bool = False  # a hand of a split ace (rule 11 (b))
    doubled: bool = False
    busted: bool = False
    surrendered: str = ""  # "", "early" or "late"
    blackjack: bool = False
    even_money: bool = False
    settled: bool = False  # net is final (even money, paid blackjack, bust, surrender)
    net: int = 0
    outcome: str = ""  # "win", "loss", "push"

    @property
    def total(self) -> int:
        return hand_total(self.cards)

    def to_dict(self) -> dict:
        return {
            "cards": [card_token(c) for c in self.cards],
            "total": self.total,
            "soft": is_soft(self.cards),
            "wager": self.wager / L.UNIT,
            "split_hand": self.split_hand,
            "doubled": self.doubled,
            "busted": self.busted,
            "surrendered": self.surrendered or None,
            "blackjack": self.blackjack,
            "even_money": self.even_money,
            "net": self.net / L.UNIT,
            "outcome": self.outcome,
        }


@dataclass
class BoxResult:
    """One box in one round: hands, insurance, even money and the Super Sevens bet."""

    index: int
    strategy: str
    hands: list[HandResult] = field(default_factory=list)
    first_two: list[int] = field(default_factory=list)
    blackjack: bool = False
    insurance_stake: int = 0  # tenths (5 when taken)
    insurance_net: int = 0
    even_money: bool = False
    declined_split: bool = False  # rule 11.5
    aces_split: bool = False
    sevens_split: bool = False
    ss_bet: bool = False
    ss_line: int = -1  # 0..5 for (a)..(f), -1 without a bet
    ss_net: int = 0  # in Super Sevens stakes
    early_surrender: bool = False

    @property
    def main_net(self) -> int:
        return sum(h.net for h in self.hands)

    def to_dict(self) -> dict:
        return {
            "box": self.index + 1,
            "strategy": self.strategy,
            "hands": [h.to_dict() for h in self.hands],
            "blackjack": self.blackjack,
            "even_money": self.even_money,
            "insurance": None
            if not self.insurance_stake
            else {"stake": self.insurance_stake / L.UNIT, "net": self.insurance_net / L.UNIT},
            "super_sevens": None
            if not self.ss_bet
            else {"line": SS_LINE_NAMES[self.ss_line], "net_stakes": self.ss_net},
            "main_net": self.main_net / L.UNIT,
        }


@dataclass
class RoundResult:
    """One complete round: its record (``layout`` R_*/B_* layout), cards, boxes and events."""

    record: np.ndarray
    start: int  # position of the round's first card in the stacked cards
    cards: list[int]  # every card taken from the shoe this round, in order
    dealer_cards: list[int]
    boxes: list[BoxResult]
    events: list[Event]
    rules: Rules
    bets: Bets | None = None  # a counter's (``Counting``), decided before the deal

    def to_dict(self) -> dict:
        return {
            "start": self.start,
            "cards": [card_token(c) for c in self.cards],
            "dealer": {
                "cards": [card_token(c) for c in self.dealer_cards],
                "total": int(self.record[L.R_DEALER_TOTAL]),
                "blackjack": bool(self.record[L.R_DEALER_BJ]),
            },
            "boxes": [b.to_dict() for b in self.boxes],
            "events": [e.to_dict() for e in self.events],
            "record": [int(x) for x in self.record],
        }


class _OutOfCards(Exception):
    """The stacked cards ran out part way through a round (the round is incomplete)."""


@dataclass(frozen=True)
class Counting:
    """A card counter at every box (docs/counting.md, "How the engine plays a plan"). The count:
    ``tags`` by value A..T, from ``irc`` at the shoe's first card, of every card dealt but a
    hole card not yet turned; the true count is the running count per deck left, the decks left
    estimated to ``step`` cards (0: exact), or with ``true`` False the running count itself.
    ``plays``: index plays (``chart``, ``row``, ``up``, ``below``, ``at_or_above``, ``index``:
    `simulator.index_plays.IndexPlay`'s fields), each deciding its cell of the strategy by the
    count as the decision is taken (the first decision on a box's two dealt cards, and insurance
    with even money, by the count after the deal)."""

    tags: tuple
    irc: int
    step: int
    true: bool
    plays: tuple

    bet: tuple = (1, ())  # the main bet's ramp: (base, ((count at or above, units), ...))
    super_sevens: tuple = (0, ())  # the Super Sevens bet's ramp (units, 0: no bet)
    boxes: tuple | None = None  # the boxes' ramp; None: every box of the rules at every count
    wong: tuple | None = None  # (enter, leave); None: seated at every round

    def true_count(self, running: int, left: int) -> float:
        left = max(left, 1)
        if not self.true:
            return float(running)
        if self.step == 0:  # (one rounding: a whole true count is exact, as +13 at 23 / 92)
            return running * 52.0 / left
        return running * 52.0 / max(self.step, round(left / self.step) * self.step)

    def bets(self, cards, pos: int, decks: int, boxes: int, seated_before: bool) -> Bets:
        """The counter's bets for the round that starts at ``cards[pos]``, by the count of the
        cards before it (docs/counting.md, "How the engine plays a plan"); ``boxes``: the
        rules'; ``seated_before``: whether the counter played the round before."""
        seen = cards[:pos]
        running = self.irc + sum(self.tags[card_value(c) - 1] for c in seen)
        count = self.true_count(running, len(cards) - pos)
        if self.wong is None:
            seated = True
        else:  # sit out below leave; come back at enter or above
            enter, leave = self.wong
            seated = count >= (leave if seated_before else enter)
        base_boxes = boxes if self.boxes is None else self.boxes[0]
        return Bets(
            count=count, seated=seated,
            bet=ramp_at(self.bet, count) if seated else 0,
            super_sevens=ramp_at(self.super_sevens, count) if seated else 0,
            boxes=(boxes if self.boxes is None else ramp_at(self.boxes, count)) if seated
            else base_boxes,
            cards_left=len(cards) - pos, sevens_left=4 * decks - sum(map(is_seven, seen)))


def ramp_at(ramp: tuple, count: float) -> int:
    """A ramp's amount at ``count``: its base below the first step, else the units of the last
    step whose count is at or below ``count`` (steps ascending)."""
    base, steps = ramp
    at = [units for at_or_above, units in steps if count >= at_or_above]
    return at[-1] if at else base


@dataclass(frozen=True)
class Bets:
    """A counter's bets for one round, decided before the deal: the count then (true, or running
    for an unbalanced count), whether the counter plays the round (seated) or watches it (bets
    0, wonged out), the main and Super Sevens bets in units, the boxes dealt (the plan's base
    when watching), and the shoe then (cards and sevens left) for the exact Super Sevens
    return."""

    count: float
    seated: bool
    bet: int
    super_sevens: int
    boxes: int
    cards_left: int
    sevens_left: int


# =============================================================================================
# One round
# =============================================================================================
class _Round:
    """Plays one round from ``cards[pos:]``; the steps are those of docs/design.md."""

    def __init__(self, cards, pos: int, rules: Rules, strategies: list[Strategy],
                 counting: Counting | None = None):
        self.counting = counting
        self.deal_count = 0.0  # a counter's true count after the deal
        self.hole_at = -1  # where a peeked hole card was dealt
        self.shoe = cards
        self.start = pos
        self.pos = pos
        self.rules = rules
        self.strategies = strategies
        self.events: list[Event] = []
        self.dealer: list[int] = []
        self.bj_win = int(round(rules.blackjack_pays * L.UNIT))
        self.ins_win = int(round(rules.insurance_pays * L.INSURANCE_STAKE))
        self.peek = rules.hole_card == "peek"
        self.boxes = [
            BoxResult(index=i, strategy=s.name, ss_bet=bool(rules.super_sevens))
            for i, s in enumerate(strategies)
        ]
        self.dealer_bj = False
        self.bust_waits: set[tuple[int, int]] = set()  # busted hands a dealer blackjack returns

    # --- plumbing ---------------------------------------------------------------------------
    def draw(self) -> int:
        if self.pos >= len(self.shoe):
            raise _OutOfCards
        card = int(self.shoe[self.pos])
        self.pos += 1
        return card

    def log(self, who: str, what: str, why: str = "", rule: str = "") -> None:
        self.events.append(Event(who, what, why, rule))

    @staticmethod
    def who(box: BoxResult, hand_index: int | None = None) -> str:
        if hand_index is None:
            return f"box {box.index + 1}"
        return f"box {box.index + 1} hand {hand_index + 1}"

    @property
    def up(self) -> int:
        return self.dealer[0]

    def true_count(self) -> float:
        """A counter's true count now: the cards dealt but a peeked hole card, which is among
        the cards left until the dealer plays."""
        c = self.counting
        hole = self.dealer[1:2] if self.peek else []
        seen = [x for i, x in enumerate(self.shoe[:self.pos])
                if not (hole and i == self.hole_at)]  # fmt: skip
        running = c.irc + sum(c.tags[card_value(x) - 1] for x in seen)
        return c.true_count(running, len(self.shoe) - self.pos + len(hole))

    def count_play(self, box, hi: int, chart: str, row: str) -> tuple[str, bool] | None:
        """A counter's index play on cell (``chart``, ``row``, the up card) of hand ``hi``: its
        action at the count now (after the deal for the first decision on the box's two dealt
        cards) and whether either of its actions is a surrender; None where no play is."""
        if self.counting is None:
            return None
        cell = (chart, row, up_label(self.up))
        play = next((q for q in self.counting.plays if (q.chart, q.row, q.up) == cell), None)
        if play is None:
            return None
        hand = box.hands[hi]
        first = hi == 0 and len(box.hands) == 1 and len(hand.cards) == 2 and not hand.split_hand
        tc = self.deal_count if first else self.true_count()
        return (play.at_or_above if tc >= play.index else play.below,
                play.below in ("Rh", "Rs", "Rp") or play.at_or_above in ("Rh", "Rs", "Rp"))

    def counted(self, box, hi: int, chart: str, row: str, code: int) -> int:
        """The chart's ``code`` for this cell, or a counter's index play there. A play that
        names no surrender leaves a chart's surrender standing: its action is then what is
        played where surrender is not allowed (docs/counting.md)."""
        said = self.count_play(box, hi, chart, row)
        if said is None:
            return code
        action, surrenders = said
        if chart == "pairs":
            if action == "P" and code == L.RP and not surrenders:
                return L.RP
            return {"P": L.P, "Pd": L.PD, "Rp": L.RP}.get(action, L.N)
        if code in (L.RH, L.RS) and action in ("H", "S") and not surrenders:
            return L.RH if action == "H" else L.RS
        return L.ACTION_CODES[action]

    @property
    def ten_or_ace_up(self) -> bool:
        return card_value(self.up) in (1, 10)

    def settle_hand(self, box, hi, net, outcome_why, rule, what=None):
        hand = box.hands[hi]
        hand.net = net
        hand.settled = True
        hand.outcome = "win" if net > 0 else "loss" if net < 0 else "push"
        if hand.split_hand and len(hand.cards) == 2 and hand_total(hand.cards) == 21:
            outcome_why += "; a two-card 21 after a split is 21, not a blackjack" + (
                ", paid 1 to 1" if net > 0 else "")
            rule += "; 11 (c)"
        if what is None:
            what = {"win": "wins", "loss": "loses", "push": "stands off"}[
                hand.outcome
            ] + f" {units(net)}"
        self.log(self.who(box, hi), what, outcome_why, rule)

    # --- the round --------------------------------------------------------------------------
    def play(self) -> RoundResult:
        self.deal()
        self.offer_even_money_and_insurance()
        if self.rules.surrender == "early":
            self.early_surrender()
        if self.peek and self.ten_or_ace_up:
            if self.peek_for_blackjack():
                return self.finish()
        self.pay_blackjacks_at_once()
        for box in self.boxes:
            self.play_box(box)
        self.dealer_plays()
        self.settle_all()
        return self.finish()

    # step 1
    def deal(self) -> None:
        for box in self.boxes:
            box.hands.append(HandResult(cards=[self.draw()]))
        self.dealer.append(self.draw())
        for box in self.boxes:
            box.hands[0].cards.append(self.draw())
            box.first_two = list(box.hands[0].cards)
            box.blackjack = box.hands[0].blackjack = is_blackjack(box.first_two)
            self.log(
                self.who(box),
                f"dealt {cards_text(box.first_two)}",
                "blackjack" if box.blackjack else f"{self.describe(box.first_two)}",
                "4.1" if box.blackjack else "3.2",
            )
        self.log("dealer", f"up card {card_token(self.up)}", "", "dealing")
        if self.counting is not None:
            self.deal_count = self.true_count()
        if self.peek:
            self.hole_at = self.pos
            self.dealer.append(self.draw())
            self.log(
                "dealer",
                "takes a hole card",
                "peek game (variant): hole card dealt at once",
                "hole_card = peek",
            )

    @staticmethod
    def describe(cards) -> str:
        total = hand_total(cards)
        kind = "soft" if is_soft(cards) else "hard"
        return f"{kind} {total}" if total <= 21 else f"{total}, bust"

    # step 2
    def offer_even_money_and_insurance(self) -> None:
        if card_value(self.up) != 1:
            return
        for box in self.boxes:
            strategy = self.strategies[box.index]
            said = self.count_play(box, 0, "insurance", "insurance")  # a counter's, Y or N
            if said is not None:  # even money with it (8.3: a blackjack insured), or always
                taken = said[0] == "Y"  # where the strategy takes it anyway (6 to 5)
                strategy = replace(strategy, insurance=taken,
                                   even_money=taken or strategy.even_money)
            if box.blackjack:
                if strategy.even_money:
                    box.even_money = True
                    hand = box.hands[0]
                    hand.even_money = True
                    self.settle_hand(
                        box,
                        0,
                        L.UNIT,
                        "blackjack against an ace: even money taken (strategy)",
                        "8.3",
                        what=f"takes even money {units(L.UNIT)}",
                    )
                else:
                    self.log(self.who(box), "declines even money", "strategy", "8.3")
            elif strategy.insurance:
                box.insurance_stake = L.INSURANCE_STAKE
                self.log(
                    self.who(box),
                    f"insures ({units(L.INSURANCE_STAKE)[1:]})",
                    "strategy: dealer ace up",
                    "9.3",
                )
            else:  # (said as a declined even money is)
                self.log(self.who(box), "declines insurance", "strategy: dealer ace up", "9.1")

    # the first decision of a two-card hand (used by early surrender and by play)
    def first_decision_code(self, box, hi) -> tuple[str, int, str]:
        """(table, code, label) of the cell that decides this two-card hand now."""
        hand = box.hands[hi]
        strategy = self.strategies[box.index]
        col = up_index(self.up)
        up = up_label(self.up)
        cards = hand.cards
        if self.sevens_row_applies(box, hi):
            code = int(strategy.sevens[col])
            surrenders = code == L.RP and self.rules.surrender != "none"
            if code not in (L.P, L.RP) or surrenders or self.split_possible(box, hi):
                return "sevens", code, f"sevens v {up}"
            # sevens row says P (or Rp, no surrender) where no split is possible: the hard table
            # decides
        elif self.split_possible(box, hi):
            return "pairs", self.pair_code(box, hi), f"pair of {_pair_name(cards[0])} v {up}"
        elif is_pair(cards) and self.rules.surrender != "none" and self.pair_code(box, hi) == L.RP:
            # Rp surrenders where surrender is allowed, whether or not the pair may be split
            return "pairs", L.RP, f"pair of {_pair_name(cards[0])} v {up}"
        return self.table_code(box, hi)

    def pair_code(self, box, hi) -> int:
        """The pair table's cell for this pair (or a counter's index play there)."""
        cards = box.hands[hi].cards
        row = card_value(cards[0]) - 1
        return self.counted(box, hi, "pairs", _pair_row(cards[0]),
                            int(self.strategies[box.index].pairs[row, up_index(self.up)]))

    def no_split_words(self, box, hi) -> str:
        """``, no split possible (max_hands = 1)``: why a pair's ``Rp`` surrenders where
        surrender is allowed though the pair may not be split ('' where it may be)."""
        if self.split_possible(box, hi):
            return ""
        n = self.rules.max_hands
        return f", no split possible (max_hands = {n})" if len(box.hands) >= n else (
            ", no split possible")

    def table_code(self, box, hi) -> tuple[str, int, str]:
        hand = box.hands[hi]
        strategy = self.strategies[box.index]
        col = up_index(self.up)
        total = hand_total(hand.cards)
        if is_soft(hand.cards):
            code = self.counted(box, hi, "soft", str(total), int(strategy.soft[total, col]))
            return "soft", code, f"soft {total} v {up_label(self.up)}"
        code = self.counted(box, hi, "hard", str(total), int(strategy.hard[total, col]))
        return "hard", code, f"hard {total} v {up_label(self.up)}"

    def sevens_row_applies(self, box, hi) -> bool:
        """Rule 14.4 play: Super Sevens bet up, the box's first two cards 7-7, first decision."""
        hand = box.hands[hi]
        return (
            box.ss_bet
            and hi == 0
            and len(box.hands) == 1
            and len(hand.cards) == 2
            and not hand.split_hand
            and is_seven(hand.cards[0])
            and is_seven(hand.cards[1])
        )

    def split_possible(self, box, hi) -> bool:
        return can_split(
            box.hands[hi].cards, len(box.hands), box.declined_split, box.aces_split, self.rules
        )

    # step 3
    def early_surrender(self) -> None:
        for box in self.boxes:
            hand = box.hands[0]
            if box.blackjack or hand.settled:
                continue
            table, code, label = self.first_decision_code(box, 0)
            if code == L.PD and not self.rules.double_after_split:
                table, code, label = self.table_code(box, 0)  # Pd without DAS is N
            elif code == L.N:
                table, code, label = self.table_code(box, 0)
            if code in (L.RH, L.RS, L.RP):
                box.early_surrender = True
                hand.surrendered = "early"
                no_split = self.no_split_words(box, 0) if table == "pairs" else ""
                self.settle_hand(
                    box,
                    0,
                    -L.INSURANCE_STAKE,
                    f"strategy: {label} = {L.ACTION_NAMES[code]}{no_split}; early surrender "
                    "loses half",
                    "surrender = early",
                    what=f"surrenders early {units(-L.INSURANCE_STAKE)}",
                )

    # step 4
    def peek_for_blackjack(self) -> bool:
        self.dealer_bj = dealer_has_blackjack(self.dealer)
        if not self.dealer_bj:
            self.log("dealer", "peeks: no blackjack", "peek game (variant)", "hole_card = peek")
            for box in self.boxes:
                if box.insurance_stake:
                    self.settle_insurance(box)
            return False
        self.log(
            "dealer",
            f"peeks: blackjack ({cards_text(self.dealer)})",
            "the round ends",
            "hole_card = peek",
        )
        for box in self.boxes:
            if box.insurance_stake:
                self.settle_insurance(box)
            hand = box.hands[0]
            if hand.settled:
                continue  # even money or early surrender: settled already
            if box.blackjack:
                self.settle_hand(box, 0, 0, "blackjack against dealer blackjack", "8.2")
            else:
                self.settle_hand(
                    box, 0, -L.UNIT, "dealer blackjack takes the initial wager (peek game)", "4.1"
                )
        return True

    def settle_insurance(self, box) -> None:
        second = self.dealer[1]
        if card_value(second) == 10:
            box.insurance_net = self.ins_win
            self.log(
                self.who(box),
                f"insurance wins {units(self.ins_win)}",
                f"dealer's second card {card_token(second)} is ten-valued, "
                f"paid {_odds(self.ins_win * 2)}",
                "9.5",
            )
        else:
            box.insurance_net = -box.insurance_stake
            self.log(
                self.who(box),
                f"insurance loses {units(-box.insurance_stake)}",
                f"dealer's second card {card_token(second)} is not ten-valued",
                "9.6",
            )

    # step 5
    def pay_blackjacks_at_once(self) -> None:
        if not self.peek and self.ten_or_ace_up:
            for box in self.boxes:
                if box.blackjack and not box.hands[0].settled:
                    self.log(
                        self.who(box, 0),
                        "blackjack waits",
                        f"dealer's up card is {card_token(self.up)}",
                        "8.2",
                    )
            return
        for box in self.boxes:
            if box.blackjack and not box.hands[0].settled:
                why = "blackjack paid " + _odds(self.bj_win)
                if self.peek and self.ten_or_ace_up:
                    why += " after the peek"
                # 8.2 is the blackjack that waits for a ten or ace; against 2-9 it wins at once
                self.settle_hand(box, 0, self.bj_win, why, "8.2" if self.ten_or_ace_up else "4.1")

    # step 6
    def play_box(self, box: BoxResult) -> None:
        hi = 0
        while hi < len(box.hands):
            self.play_hand(box, hi)
            hi += 1
        if box.ss_bet:
            self.settle_super_sevens(box)

    def late_surrender_allowed(self, box, hi) -> bool:
        hand = box.hands[hi]
        return (
            self.rules.surrender == "late"
            and len(box.hands) == 1
            and not hand.split_hand
            and len(hand.cards) == 2
        )

    def play_hand(self, box: BoxResult, hi: int) -> None:
        hand = box.hands[hi]
        who = self.who(box, hi)
        if hand.blackjack or hand.settled:
            return
        if len(hand.cards) == 1:
            card = self.draw()
            hand.cards.append(card)
            self.log(
                who,
                f"dealt {card_token(card)} to the split hand",
                self.describe(hand.cards),
                "11.6",
            )
        rules = self.rules
        while True:
            total = hand_total(hand.cards)
            if total > 21:
                hand.busted = True
                if self.bust_waits_for_dealer():
                    # lost (12.2) unless the dealer makes blackjack: said once, at settlement
                    hand.net, hand.settled, hand.outcome = -hand.wager, True, "loss"
                    self.bust_waits.add((box.index, hi))
                    self.log(who, f"busts with {total}",
                             "the wager waits for the dealer's second card: a dealer blackjack "
                             "returns it", "dealer_blackjack_takes = original, not 12.2")
                    return
                self.settle_hand(
                    box,
                    hi,
                    -hand.wager,
                    f"busts with {total}",
                    "12.2",
                    what=f"busts, loses {units(-hand.wager)}",
                )
                return
            if hand.split_aces and not rules.hit_split_aces:
                if self.split_possible(box, hi):
                    # resplit aces (11 (b) variant): the pair table decides
                    if self.pair_decision(box, hi):
                        continue
                    self.log(who, "stands", "split ace gets one card only", "12.1 (c)")
                    return
                if is_pair(hand.cards):
                    self.log(who, "may not split", *self.no_split_reason(box))
                self.log(
                    who,
                    f"stands on {self.describe(hand.cards)}",
                    "split ace gets one card only",
                    "12.1 (c)",
                )
                return
            if total == 21:
                self.log(who, "stands on 21", "no card may be drawn on 21", "12.1 (a)")
                return
            if hand.doubled:
                self.log(
                    who,
                    f"stands on {self.describe(hand.cards)}",
                    "a doubled hand gets one card only",
                    "12.1 (b)",
                )
                return
            action = None
            if self.sevens_row_applies(box, hi):
                strategy = self.strategies[box.index]
                code = int(strategy.sevens[up_index(self.up)])
                label = f"sevens v {up_label(self.up)}"
                name = L.ACTION_NAMES[code]
                if code == L.RP and self.late_surrender_allowed(box, hi):
                    self.surrender_late(box, hi, f"strategy: {label} = Rp")
                    return
                if code in (L.P, L.RP):
                    why = f"strategy: {label} = {name}"
                    if code == L.RP:
                        why += ", surrender not allowed here, so split"
                    if self.split_possible(box, hi):
                        self.split(box, hi, why, "11")
                        continue
                    # no split possible (max_hands = 1): the hard table decides
                    table, code, label = self.table_code(box, hi)
                    label += f" (sevens row says {name}, no split possible)"
                action = self.resolve_table_code(box, hi, code, label)
            elif self.split_possible(box, hi):
                if self.pair_decision(box, hi):
                    continue
                if hand.surrendered:  # Rp: surrendered from the pair table
                    return
            elif is_pair(hand.cards):
                if self.late_surrender_allowed(box, hi) and self.pair_code(box, hi) == L.RP:
                    # Rp surrenders where surrender is allowed, whether or not a split may be
                    label = f"pair of {_pair_name(hand.cards[0])} v {up_label(self.up)}"
                    self.surrender_late(box, hi, f"strategy: {label} = Rp"
                                        + self.no_split_words(box, hi))
                    return
                self.log(who, "may not split", *self.no_split_reason(box))
            if action is None:
                table, code, label = self.table_code(box, hi)
                action = self.resolve_table_code(box, hi, code, label)
            kind, why, rule = action
            if kind == "surrender":
                self.surrender_late(box, hi, why)
                return
            if kind == "stand":
                self.log(who, f"stands on {self.describe(hand.cards)}", why, rule)
                return
            if kind == "double":
                hand.wager *= 2
                hand.doubled = True
                card = self.draw()
                hand.cards.append(card)
                self.log(
                    who,
                    f"doubles, draws {card_token(card)}: {self.describe(hand.cards)}",
                    why,
                    rule,
                )
                continue
            # hit
            card = self.draw()
            hand.cards.append(card)
            self.log(who, f"hits, draws {card_token(card)}: {self.describe(hand.cards)}", why, rule)

    def resolve_table_code(self, box, hi, code, label) -> tuple[str, str, str]:
        """Turn a hard/soft/sevens cell into an action (rule 10, 12.1 (d), surrender variants)."""
        hand = box.hands[hi]
        name = L.ACTION_NAMES[code]
        why = f"strategy: {label} = {name}"
        rule = "12.1"
        double_ok = can_double(hand.cards, hand.split_hand, hand.split_aces, self.rules)
        if code == L.S:
            kind = "stand"
        elif code == L.H:
            kind = "hit"
        elif code in (L.D, L.DS):
            if double_ok:
                kind, rule = "double", "10"
            else:
                kind = "hit" if code == L.D else "stand"
                why += f", double not allowed here ({self.double_refusal(hand)}), so {kind}"
        elif code in (L.RH, L.RS):
            if self.late_surrender_allowed(box, hi):
                kind, rule = "surrender", "surrender = late"
            else:
                kind = "hit" if code == L.RH else "stand"
                why += f", surrender not allowed here, so {kind}"
        else:
            raise ValueError(
                f"strategy {self.strategies[box.index].name!r}: code {name} "
                f"is not allowed in the {label} cell"
            )
        if kind == "stand" and hand_total(hand.cards) <= 11:
            kind = "hit"
            why += "; 11 or less must draw"
            rule = "12.1 (d)"
        return kind, why, rule

    def double_refusal(self, hand) -> str:
        if len(hand.cards) != 2:
            return "more than two cards"
        if hand.split_hand and not self.rules.double_after_split:
            return "no double after split"
        return f'double_on = "{self.rules.double_on}"'  # (text quoted, as a rule file writes it)

    def pair_decision(self, box, hi) -> bool:
        """The pair table decides a splittable pair; True if the hand was split.

        ``P`` split; ``Pd`` split with double after split, else as ``N``; ``Rp`` surrender when
        allowed, else split; ``N`` decline: no further split in this box (11.5).
        """
        hand = box.hands[hi]
        who = self.who(box, hi)
        strategy = self.strategies[box.index]
        code = self.pair_code(box, hi)
        label = f"pair of {_pair_name(hand.cards[0])} v {up_label(self.up)}"
        why = f"strategy: {label} = {L.ACTION_NAMES[code]}"
        if code == L.P:
            self.split(box, hi, why, "11")
            return True
        if code == L.PD:
            if self.rules.double_after_split:
                self.split(box, hi, why + " (double after split allowed)", "11")
                return True
            why += " (no double after split, so N)"
            code = L.N
        if code == L.RP:
            if self.late_surrender_allowed(box, hi):
                self.surrender_late(box, hi, why)
                return False
            self.split(box, hi, why + ", surrender not allowed here, so split", "11")
            return True
        if code == L.N:
            box.declined_split = True
            self.log(
                who, "declines to split", why + "; no further split in this box this round", "11.5"
            )
            return False
        raise ValueError(
            f"strategy {strategy.name!r}: code {L.ACTION_NAMES[code]} "
            "is not allowed in the pair table"
        )

    def no_split_reason(self, box) -> tuple[str, str]:
        """Why a pair may not be split: (why, rule). Played from the hard or soft table."""
        if len(box.hands) >= self.rules.max_hands:
            n = self.rules.max_hands
            return f"at most {n} hand{'s' if n > 1 else ''} per box (max_hands)", "11"
        if box.declined_split:
            return "a split was declined in this box this round", "11.5"
        return "aces may be split only once", "11 (b)"

    def split(self, box, hi, why, rule) -> None:
        hand = box.hands[hi]
        who = self.who(box, hi)
        aces = card_value(hand.cards[0]) == 1
        moved = hand.cards.pop()
        new = HandResult(cards=[moved], wager=hand.wager, split_hand=True, split_aces=aces)
        hand.split_hand = True
        hand.split_aces = aces
        if aces:
            box.aces_split = True
        box.hands.insert(hi + 1, new)
        if (
            hi == 0
            and len(box.hands) == 2
            and box.ss_bet
            and all(is_seven(c) for c in box.first_two)
        ):
            box.sevens_split = True
        card = self.draw()
        hand.cards.append(card)
        self.log(who, f"splits, draws {card_token(card)}: {self.describe(hand.cards)}", why, rule)
        if box.sevens_split and box.ss_line < 0:
            self.settle_super_sevens(box)

    def surrender_late(self, box, hi, why) -> None:
        hand = box.hands[hi]
        hand.surrendered = "late"
        net = -L.INSURANCE_STAKE
        self.settle_hand(
            box,
            hi,
            net,
            why + "; late surrender loses half the wager",
            "surrender = late",
            what=f"surrenders {units(net)}",
        )
        if not self.peek and self.ten_or_ace_up:
            hand.settled = False  # a dealer blackjack would still take the whole wager
            self.events[-1] = Event(
                self.events[-1].who,
                self.events[-1].what,
                self.events[-1].why + " (the whole wager if the dealer makes blackjack)",
                self.events[-1].rule,
            )

    def settle_super_sevens(self, box) -> None:
        """Rule 14.3 lines (a)-(f), 14.4 a split 7-7 paid at once."""
        if box.ss_line >= 0:
            return
        hand = box.hands[0]
        third = None
        if not box.sevens_split and len(hand.cards) >= 3:
            third = hand.cards[2]
        line = super_sevens_line(box.first_two, third, box.sevens_split)
        pays = self.rules.super_sevens_pays
        net = -1 if line == SS_F else int(pays[line])
        box.ss_line, box.ss_net = line, net
        rule = "14.4" if box.sevens_split else f"14.3 {SS_LINE_NAMES[line]}"
        if line == SS_F:
            why = "first card not a seven"
            what = "Super Sevens loses -1 stake"
        else:
            what = f"Super Sevens wins +{net} stakes ({net} to 1)"
            why = {
                SS_A: "first card a seven, second not",
                SS_B: "first two cards sevens of different suits",
                SS_C: "first two cards sevens of the same suit",
                SS_D: "three sevens, not all one suit",
                SS_E: "three sevens of one suit",
            }[line]
            if line in (SS_B, SS_C):
                if box.sevens_split:
                    why += ", split: paid at once"
                elif third is None:
                    why += ", no third card"
                else:
                    why += f", third card {card_token(third)} not a seven"
        self.log(self.who(box), what, why, rule)

    # step 7
    def bust_waits_for_dealer(self) -> bool:
        """Whether a bust now is settled only once the dealer's second card is seen: under
        ``dealer_blackjack_takes = original`` a dealer blackjack returns busted wagers, and the
        no-hole dealer with a ten or ace up may still make one."""
        return (self.rules.dealer_blackjack_takes == "original" and not self.peek
                and self.ten_or_ace_up)

    def live_hands(self) -> bool:
        return any(
            not h.busted and not h.surrendered and not h.settled and not h.blackjack
            for b in self.boxes
            for h in b.hands
        )

    def second_card_needed(self) -> tuple[bool, str]:
        for b in self.boxes:
            if b.insurance_stake:
                return True, "an insurance wager is settled on it"
            for h in b.hands:
                if not h.busted and not h.surrendered and not h.settled:
                    return (
                        True,
                        "a hand is still in play"
                        if not h.blackjack
                        else "a blackjack waits for it",
                    )
        if self.ten_or_ace_up:
            for b in self.boxes:
                for h in b.hands:
                    if h.surrendered == "late":
                        return True, "a late surrender depends on a dealer blackjack"
                    if h.busted and self.rules.dealer_blackjack_takes == "original":
                        return (
                            True,
                            "busted wagers come back on a dealer blackjack (rule original)",
                        )
        return False, ""

    def dealer_plays(self) -> None:
        rules = self.rules
        always = rules.dealer_draws_when_no_live_box
        if not self.peek:
            needed, why = self.second_card_needed()
            if always and not needed:
                needed, why = True, "the dealer completes the hand (dealer_draws_when_no_live_box)"
            if not needed:
                self.log("dealer", "draws no second card", "no wager depends on it", "12.4")
                return
            card = self.draw()
            self.dealer.append(card)
            self.dealer_bj = dealer_has_blackjack(self.dealer)
            self.log(
                "dealer",
                f"second card {card_token(card)}: "
                + ("blackjack" if self.dealer_bj else self.describe(self.dealer)),
                why,
                "dealing; 12.4",
            )
            for box in self.boxes:
                if box.insurance_stake:
                    self.settle_insurance(box)
            if self.dealer_bj:
                return
        else:
            self.log(
                "dealer",
                f"turns the hole card: {self.describe(self.dealer)}",
                "",
                "hole_card = peek",
            )
        waits = any(h.blackjack and not h.settled for b in self.boxes for h in b.hands)
        if not (always or self.live_hands() or waits):
            if dealer_should_draw(self.dealer, rules.dealer_hits_soft_17):
                self.log("dealer", "draws no more cards", "no hand left in play", "12.4")
            return
        if waits and not (always or self.live_hands()) and dealer_should_draw(
                self.dealer, rules.dealer_hits_soft_17):
            self.log("dealer", "completes the hand", "a blackjack waits for it to be paid", "8.2")
        while dealer_should_draw(self.dealer, rules.dealer_hits_soft_17):
            soft17 = hand_total(self.dealer) == 17
            card = self.draw()
            self.dealer.append(card)
            self.log(
                "dealer",
                f"draws {card_token(card)}: {self.describe(self.dealer)}",
                "hits soft 17" if soft17 else "draws below 17",
                "12.3",
            )
        total = hand_total(self.dealer)
        if total > 21:
            self.log("dealer", f"busts with {total}", "", "12.3")
        else:
            self.log(
                "dealer",
                f"stands on {self.describe(self.dealer)}",
                ("stands on 17 or more" if total > 17 else "hits soft 17, stands on hard 17"
                 if rules.dealer_hits_soft_17 else "stands on all 17s"),
                "12.3",
            )

    # step 8
    def settle_all(self) -> None:
        if self.dealer_bj:
            self.settle_against_dealer_blackjack()
            return
        dealer_complete = len(self.dealer) >= 2
        for box in self.boxes:
            for hi, hand in enumerate(box.hands):
                if (box.index, hi) in self.bust_waits:
                    self.log(self.who(box, hi), f"loses {units(hand.net)}",
                             "busted, and the dealer has no blackjack", "12.2")
                    continue
                if hand.settled:
                    continue
                if hand.surrendered == "late":  # no dealer blackjack: half the wager, as announced
                    hand.settled = True
                    self.log(
                        self.who(box, hi),
                        "surrender stands",
                        "dealer has no blackjack",
                        "surrender = late",
                    )
                    continue
                if hand.busted or hand.surrendered:
                    continue
                if not dealer_complete:
                    raise AssertionError("a hand in play but no dealer second card")
                net, why, rule = settle(
                    hand.cards, hand.wager, hand.blackjack, self.dealer, self.bj_win
                )
                self.settle_hand(box, hi, net, why, rule)

    def settle_against_dealer_blackjack(self) -> None:
        takes = self.rules.dealer_blackjack_takes
        rule_key = f"dealer_blackjack_takes = {takes}"
        for box in self.boxes:
            if box.early_surrender or box.even_money:
                continue  # settled already
            if box.blackjack:
                self.settle_hand(box, 0, 0, "blackjack against dealer blackjack", "8.2")
                continue
            hands = box.hands
            if hands[0].surrendered == "late":
                self.settle_hand(
                    box,
                    0,
                    -L.UNIT,
                    "late surrender against a dealer blackjack loses the whole wager",
                    "surrender = late",
                )
                continue
            if takes == "all":
                for hi, hand in enumerate(hands):
                    if not hand.busted:
                        self.settle_hand(
                            box,
                            hi,
                            -hand.wager,
                            "dealer blackjack beats every unbusted hand",
                            "4.1; " + rule_key,
                        )
            elif takes == "original-and-busted":
                taken = False
                for hi, hand in enumerate(hands):
                    if hand.busted:
                        continue
                    if not taken:
                        taken = True
                        returned = hand.wager - L.UNIT
                        why = "dealer blackjack takes the initial wager"
                        if returned:
                            why += f", {units(returned)[1:]} returned"
                        self.settle_hand(box, hi, -L.UNIT, why, "4.1; " + rule_key)
                    else:
                        self.settle_hand(
                            box,
                            hi,
                            0,
                            "wager returned: the initial wager is taken once only",
                            rule_key,
                        )
            else:  # original: the box's net is exactly -1 whatever happened
                for hi, hand in enumerate(hands):
                    if hi == 0:
                        why = "dealer blackjack takes the initial wager only"
                        if hand.busted and hand.wager > L.UNIT:
                            why += ", the rest of the busted wager returned"
                        self.settle_hand(box, hi, -L.UNIT, why, "4.1; " + rule_key)
                    elif hand.busted:
                        self.settle_hand(box, hi, 0, "dealer blackjack takes the initial wager "
                                         "only", rule_key,
                                         what=f"busted wager returned {units(0)}")
                    else:
                        self.settle_hand(box, hi, 0, "wager returned: dealer blackjack takes "
                                         "the initial wager only", rule_key)

    # the record
    def finish(self) -> RoundResult:
        rules = self.rules
        rec = np.zeros(L.R_FIXED + L.R_BOX * len(self.boxes), dtype=np.int64)
        rec[L.R_CARDS] = self.pos - self.start
        rec[L.R_DEALER_CARDS] = len(self.dealer)
        rec[L.R_DEALER_TOTAL] = hand_total(self.dealer)
        rec[L.R_DEALER_BJ] = int(self.dealer_bj)
        for box in self.boxes:
            if box.ss_bet and box.ss_line < 0:
                self.settle_super_sevens(box)  # a round ended by the peek
            b = L.R_FIXED + L.R_BOX * box.index
            hands = box.hands
            rec[b + L.B_MAIN] = box.main_net
            rec[b + L.B_INS] = box.insurance_net
            rec[b + L.B_SS] = box.ss_net if box.ss_bet else 0
            rec[b + L.B_SS_LINE] = box.ss_line if box.ss_bet else -1
            rec[b + L.B_HANDS] = len(hands)
            rec[b + L.B_DOUBLES] = sum(h.doubled for h in hands)
            rec[b + L.B_BUSTS] = sum(h.busted for h in hands)
            rec[b + L.B_BJ] = int(box.blackjack)
            rec[b + L.B_EVEN_MONEY] = int(box.even_money)
            rec[b + L.B_INS_TAKEN] = int(box.insurance_stake > 0)
            rec[b + L.B_SURRENDERS] = sum(bool(h.surrendered) for h in hands)
            rec[b + L.B_WINS] = sum(h.net > 0 for h in hands)
            rec[b + L.B_LOSSES] = sum(h.net < 0 for h in hands)
            rec[b + L.B_PUSHES] = sum(h.net == 0 for h in hands)
        return RoundResult(
            record=rec,
            start=self.start,
            cards=[int(c) for c in self.shoe[self.start : self.pos]],
            dealer_cards=list(self.dealer),
            boxes=self.boxes,
            events=self.events,
            rules=rules,
        )


def _pair_row(code: int) -> str:
    """The pair table's row of a pair of this card, as index plays name it: ``A,A``..``10,10``."""
    value = "A" if card_value(code) == 1 else str(card_value(code))
    return f"{value},{value}"


def _pair_name(code: int) -> str:
    value = card_value(code)
    return {1: "aces", 10: "tens"}.get(value, f"{value}s")


# =============================================================================================
# Public entry points
# =============================================================================================
def play_stacked(cards, rules: Rules, strategies, cut: int | None = None,
                 counting: Counting | None = None) -> list[RoundResult]:
    """Play stacked cards in the given order, no shuffling (docs/design.md, stacked mode).

    Rounds are played while the position is before ``cut`` at the start of a round (rule 7.1:
    the round in which the cut card comes out is finished); ``cut`` defaults to the number of
    cards. A round that runs out of cards part way is incomplete: it is not reported and play
    stops.

    Parameters
    ----------
    cards : sequence of int
        Card codes (``rank_index * 4 + suit``) in dealing order.
    rules : Rules
    strategies : Strategy or list of Strategy
        One per box (``rules.boxes``); a single Strategy plays every box.
    cut : int, optional
    counting : Counting, optional
        A card counter at every box, counting from the first card; its index plays change the
        cells of ``strategies`` as the count says, and it bets by the count before each deal
        (``RoundResult.bets``; the boxes dealt are the first ``bets.boxes``; `counting_tally`).

    Returns
    -------
    list of RoundResult, one per complete round.
    """
    rule_set(rules, "rules")  # (its values as given: the tests push the game past their ranges)
    array = np.asarray(cards)
    if array.ndim != 1 or array.size and not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"cards: expected one shoe, a sequence of whole card codes, got shape "
                         f"{array.shape} of {array.dtype} (the engine's play_stacked takes rows)")
    cards = [int(c) for c in array]
    for c in cards:
        if not 0 <= c < L.N_CODES:
            raise ValueError(f"cards: code {c} is out of range: allowed 0-{L.N_CODES - 1}")
    if cut is not None and (isinstance(cut, bool) or not isinstance(cut, (int, np.integer))
                            or cut < 0):
        raise ValueError(f"cut: {cut!r}: allowed a whole number of cards, 0 or more")
    if isinstance(strategies, Strategy):
        strategies = [strategies] * rules.boxes
    if not isinstance(strategies, (list, tuple)) or not all(
            isinstance(s, Strategy) for s in strategies):
        raise ValueError("strategies: a Strategy (load_strategy(NAME)) or one a box, not "
                         f"{strategies!r:.60}")
    strategies = list(strategies)
    if len(strategies) != rules.boxes:
        raise ValueError(
            f"strategies: {len(strategies)} given for boxes = {rules.boxes}: need one per box"
        )
    if cut is None:
        cut = len(cards)
    results = []
    pos = 0
    seated = False
    while pos < cut:
        bets, boxes = None, strategies
        if counting is not None:
            bets = counting.bets(cards, pos, rules.decks, rules.boxes, seated)
            boxes, seated = strategies[: bets.boxes], bets.seated
        try:
            result = _Round(cards, pos, rules, boxes, counting).play()
        except _OutOfCards:
            break
        results.append(replace(result, bets=bets))
        pos += int(result.record[L.R_CARDS])
    return results


def records(results: list[RoundResult], boxes: int | None = None) -> np.ndarray:
    """Stack the records of rounds into a (rounds, R_FIXED + boxes * R_BOX) int64 array, the
    boxes a round did not deal (a counter's boxes by count) all zero."""
    width = max([L.R_FIXED + L.R_BOX * (boxes or 0)] + [r.record.size for r in results])
    out = np.zeros((len(results), width), dtype=np.int64)
    for i, r in enumerate(results):
        out[i, : r.record.size] = r.record
    return out


def counting_tally(results: list[RoundResult], rules: Rules, plays=None,
                   nets=None) -> np.ndarray:
    """A counter's counting tally (``layout.COUNT_NAMES``, one row per count ``TC_MIN..TC_MAX``:
    the count before the deal, floored and clipped) of rounds played with ``Counting``: each
    round's boxes at one unit (flat, seated or not), at the counter's bets when seated, and the
    exact Super Sevens return and mean square of the shoe the round began from, one bet a box
    dealt, and that return times the counter's Super Sevens stakes (docs/counting.md, "The
    figures and how each is computed"). Those moments are `exact.sevens`' own, as the engine's
    table of them is, for the 7-7 play ``plays`` (None: the published convention;
    `counter.exact_plays`): what they check is which shoe the engine looks up (its cards and
    sevens left), how often and at what stake. ``nets``: an int64 array of
    ``layout.N_NETS`` each round played is added to, by its net (`layout.net_bin`)."""
    from simulator.exact.sevens import moment_by_sevens_left

    ct = np.zeros((L.N_TC, L.N_COUNT), dtype=np.int64)
    for result in results:
        bets = result.bets
        row = ct[min(max(math.floor(bets.count), L.TC_MIN), L.TC_MAX) - L.TC_MIN]
        row[L.C_ROUNDS] += 1
        round_net = main_net = ins_net = flat_net = 0  # the counter's and flat, tenths
        for box in result.boxes:
            net = box.main_net + box.insurance_net  # tenths at one unit
            flat_net += net
            row[L.C_FLAT_BOXES] += 1
            row[L.C_FLAT_NET] += net
            row[L.C_FLAT_SQ] += net * net
            if rules.super_sevens:
                row[L.C_SS_FLAT_BETS] += 1
                row[L.C_SS_FLAT_NET] += box.ss_net
                row[L.C_SS_FLAT_SQ] += box.ss_net**2
            if bets.seated:
                row[L.C_BOXES] += 1
                row[L.C_BET] += bets.bet
                row[L.C_WAGERED] += sum(h.wager for h in box.hands) * bets.bet
                row[L.C_NET] += net * bets.bet
                row[L.C_INS_NET] += box.insurance_net * bets.bet
                if box.insurance_stake:  # an insurance bet, won (9.5) or lost (9.6)
                    row[L.C_INS_WON if box.insurance_net > 0 else L.C_INS_LOST] += 1
                round_net += net * bets.bet
                main_net += net * bets.bet
                ins_net += box.insurance_net * bets.bet
                if rules.super_sevens and bets.super_sevens:
                    row[L.C_SS_BET] += bets.super_sevens
                    row[L.C_SS_NET] += box.ss_net * bets.super_sevens
                    round_net += L.UNIT * box.ss_net * bets.super_sevens
        row[L.C_FLAT_RSQ] += flat_net**2
        if bets.seated:
            if nets is not None:
                nets[L.net_bin(round_net)] += 1
            row[L.C_PLAYED] += 1
            row[L.C_ROUND_SQ] += round_net**2
            row[L.C_MAIN_SQ] += main_net**2
            row[L.C_CROSS] += main_net * flat_net
            row[L.C_MAIN_ALONE_SQ] += (main_net - ins_net) ** 2
            row[L.C_INS_SQ] += ins_net**2
        left, sevens = bets.cards_left, bets.sevens_left
        if rules.super_sevens and left >= 3 and sevens <= left:  # (else no such shoe: 0)
            mean = round(moment_by_sevens_left(rules, left, sevens, 1, plays) * L.SS_EXACT_SCALE)
            square = round(moment_by_sevens_left(rules, left, sevens, 2, plays)
                           * L.SS_EXACT_SQ_SCALE)
            row[L.C_SS_EXACT] += len(result.boxes) * mean
            row[L.C_SS_EXACT_SQ] += len(result.boxes) * square
            row[L.C_SS_PLUS] += mean > 0
            staked = bets.super_sevens if bets.seated else 0  # the counter's stake a box
            row[L.C_SS_EXACT_BET] += len(result.boxes) * staked * round(
                moment_by_sevens_left(rules, left, sevens, 1, plays) * L.SS_EXACT_BET_SCALE)
    return ct


def format_round(result: RoundResult, index: int | None = None) -> str:
    """A readable account of one round: cards, decisions and why, the dealer, settlements."""
    rec = result.record
    title = "Round" if index is None else f"Round {index + 1}"
    lines = [
        f"{title} (cards {result.start}-{result.start + len(result.cards) - 1}: "
        f"{cards_text(result.cards)})"
    ]
    width = max((len(e.who) for e in result.events), default=6)
    for e in result.events:
        text = f"  {e.who:<{width}}  {e.what}"
        if e.why:
            text += f"  ({e.why})"
        if e.rule:
            text += f"  [{e.rule}]"
        lines.append(text)
    dealer = cards_text(result.dealer_cards)
    dtotal = int(rec[L.R_DEALER_TOTAL])
    dtxt = (
        "blackjack" if rec[L.R_DEALER_BJ] else (f"{dtotal}, bust" if dtotal > 21 else str(dtotal))
    )
    lines.append(f"  dealer: {dealer} ({dtxt})")
    if result.bets is not None:
        b = result.bets
        lines.append(f"  counter: count {b.count:+.3f}, "
                     + (f"bets {b.bet}, Super Sevens {b.super_sevens}" if b.seated
                        else "watching (wonged out)") + f", {b.boxes} box" + "es" * (b.boxes != 1))
    for box in result.boxes:
        parts = []
        for hi, h in enumerate(box.hands):
            tag = []
            if h.doubled:
                tag.append("doubled")
            if h.surrendered:
                tag.append(f"{h.surrendered} surrender")
            if h.blackjack:
                tag.append("blackjack")
            if h.busted:
                tag.append("bust")
            tagtxt = f" [{', '.join(tag)}]" if tag else ""
            parts.append(
                f"hand {hi + 1}: {cards_text(h.cards)} = {h.total}{tagtxt}, "
                f"wager {h.wager / L.UNIT:.1f}, "
                f"{h.outcome or 'open'} {units(h.net)}"
            )
        summary = f"  box {box.index + 1} ({box.strategy}): main {units(box.main_net)}"
        if box.insurance_stake:
            summary += f", insurance {units(box.insurance_net)}"
        if box.even_money:
            summary += ", even money"
        if box.ss_bet:
            summary += f", Super Sevens {SS_LINE_NAMES[box.ss_line]} {box.ss_net:+d} stakes"
        lines.append(summary)
        lines.extend("      " + p for p in parts)
    return "\n".join(lines)
