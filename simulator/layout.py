"""Shared numeric layouts: cards, money units, actions, and the parameter, record and tally indices.

Every array that crosses a module boundary (rule set -> kernel, strategy -> kernel, kernel ->
tally -> report, kernel <-> reference game) is laid out here, once; what the codes and units mean
is in docs/design.md ("Cards", "Money"). Nothing here computes anything.
"""

import numpy as np

# ---------------------------------------------------------------------------------------------
# Cards
RANKS = "A23456789TJQK"  # rank_index 0..12
SUITS = "cdhs"  # suit 0..3
N_CODES = 52
RANK_INDEX = np.arange(N_CODES, dtype=np.int8) // 4
SUIT_OF = np.arange(N_CODES, dtype=np.int8) % 4
VALUE = np.minimum(RANK_INDEX + 1, 10).astype(np.int8)  # ace = 1, tens and faces = 10
SEVEN_RANK = 6  # rank_index of a seven

# Dealer up-card index used by every strategy table: 0..8 for 2..10 (value - 2), 9 for an ace.
N_UP = 10

# ---------------------------------------------------------------------------------------------
# Money
UNIT = 10  # tenth-units of the initial wager
INSURANCE_STAKE = UNIT // 2  # rule 9.3: half the original wager

# ---------------------------------------------------------------------------------------------
# Strategy action codes (int8). Tables restrict which codes are legal (see docs/strategy-format.md).
S, H, D, DS, RH, RS, P, N, PD, RP = range(10)
ACTION_NAMES = ("S", "H", "D", "Ds", "Rh", "Rs", "P", "N", "Pd", "Rp")
ACTION_CODES = {name: code for code, name in enumerate(ACTION_NAMES)}
HARD_ACTIONS = (S, H, D, DS, RH, RS)  # hard and soft tables
PAIR_ACTIONS = (P, N, PD, RP)  # pair table
SEVENS_ACTIONS = (S, H, D, DS, RH, RS, P, RP)  # 7-7 with a Super Sevens bet up
N_TOTALS = 22  # hard and soft tables are indexed by total 0..21
N_PAIRS = 10  # pair table index: value - 1 (A=0, 2=1, ..., ten-valued=9)

# ---------------------------------------------------------------------------------------------
# Rule-set parameter vector (int64), built by simulator.rules.Rules.to_params().
SHUFFLE_CUT_CARD, SHUFFLE_EVERY_ROUND = 0, 1
HOLE_NONE, HOLE_PEEK = 0, 1
DOUBLE_ANY, DOUBLE_HARD, DOUBLE_9_11, DOUBLE_10_11 = 0, 1, 2, 3
DBJ_ALL, DBJ_ORIGINAL_AND_BUSTED, DBJ_ORIGINAL = 0, 1, 2
SURRENDER_NONE, SURRENDER_LATE, SURRENDER_EARLY = 0, 1, 2

(
    P_DECKS,  # 1..8
    P_CUT,  # cut-card position: cards dealt before the cut card, round(penetration * 52 * decks)
    P_SHUFFLE,  # SHUFFLE_*
    P_HOLE,  # HOLE_*
    P_BJ_WIN,  # player blackjack win in tenth-units (15 for 3 to 2)
    P_INS_WIN,  # winning insurance pays this many tenth-units on a 5-unit stake (10 for 2 to 1)
    P_DOUBLE_ON,  # DOUBLE_*
    P_DAS,  # 0/1 double after split
    P_MAX_HANDS,  # 1..4 hands per box
    P_RSA,  # 0/1 resplit aces
    P_HSA,  # 0/1 hit split aces
    P_H17,  # 0/1 dealer hits soft 17
    P_DRAW_NO_LIVE,  # 0/1 dealer completes the hand even when nothing depends on it
    P_DBJ,  # DBJ_*
    P_SURRENDER,  # SURRENDER_*
    P_BOXES,  # 1..7
    P_SS,  # 0/1 Super Sevens bet on every box
    P_SS_PAY_A,  # Super Sevens pays, lines (a)..(e), in multiples of the stake
    P_SS_PAY_B,
    P_SS_PAY_C,
    P_SS_PAY_D,
    P_SS_PAY_E,
    N_PARAMS,
) = range(23)

# ---------------------------------------------------------------------------------------------
# Per-round record (int64) written by the kernel's stacked mode and by the reference game;
# the agreement test requires the two to be identical. Length R_FIXED + boxes * R_BOX.
(
    R_CARDS,  # cards taken from the shoe this round
    R_DEALER_CARDS,  # number of cards in the dealer's final hand (1 if no second card was drawn)
    R_DEALER_TOTAL,  # dealer's best total (soft counted high when <= 21); > 21 for a bust
    R_DEALER_BJ,  # 0/1
    R_FIXED,
) = range(5)
(
    B_MAIN,  # net of the main wagers (initial, doubles, splits; even money included), tenths
    B_INS,  # net of the insurance wager, tenths (0 if none)
    B_SS,  # net of the Super Sevens bet in Super Sevens stakes (0 if no bet)
    B_SS_LINE,  # 0..5 for lines (a)..(f), -1 when no Super Sevens bet
    B_HANDS,  # hands the box ended with (1 + splits)
    B_DOUBLES,  # hands doubled
    B_BUSTS,  # hands busted
    B_BJ,  # 0/1 player blackjack
    B_EVEN_MONEY,  # 0/1 even money taken
    B_INS_TAKEN,  # 0/1 insurance taken
    B_SURRENDERS,  # hands surrendered
    B_WINS,  # hands whose main wager won (even money and blackjack included)
    B_LOSSES,  # hands whose main wager lost (busts and surrenders included)
    B_PUSHES,  # hands that stood off (and wagers returned by the dealer-blackjack rule)
    R_BOX,
) = range(15)

# ---------------------------------------------------------------------------------------------
# Tally vector (int64). Integer counts and sums only: tallies of chunks merge by addition.
# "box-round" = one box in one round (one initial wager).
TALLY_NAMES = (
    "rounds",
    "box_rounds",
    "main_sum",  # sum over box-rounds of B_MAIN (tenths)
    "main_sq",  # sum of squares of B_MAIN
    "total_sum",  # sum over box-rounds of B_MAIN + B_INS
    "total_sq",
    "round_total_sum",  # sum over rounds of the round's (B_MAIN + B_INS) over all boxes
    "round_total_sq",
    "ins_offered",  # box-rounds offered insurance (dealer ace, no player blackjack)
    "ins_taken",
    "ins_won",
    "ins_sum",  # sum of B_INS (tenths)
    "em_offered",  # box-rounds offered even money (player blackjack, dealer ace)
    "em_taken",
    "hands",
    "wins",
    "losses",
    "pushes",
    "player_bj",
    "doubles",
    "splits",
    "busts",
    "surrenders",
    "dealer_bj",  # rounds
    "dealer_bust",  # rounds in which the dealer completed a hand over 21
    "dealer_17",  # rounds in which the dealer's final hand was 17 (not blackjack) ...
    "dealer_18",
    "dealer_19",
    "dealer_20",
    "dealer_21",
    "ss_bets",
    "ss_a",
    "ss_b",
    "ss_c",
    "ss_d",
    "ss_e",
    "ss_f",
    "ss_sum",  # sum of B_SS (stakes)
    "ss_sq",
    "ss_round_sum",  # per-round sums of B_SS over boxes
    "ss_round_sq",
    "main_wagered",  # tenths staked on main wagers (initial + doubles + splits)
    "shuffles",
    "cards_dealt",
    "round_main_sum",  # sum over rounds of the round's B_MAIN over all boxes
    "round_main_sq",
    "round_ins_sum",  # sum over rounds of the round's B_INS over all boxes
    "round_ins_sq",
    "refills",  # rounds the shoe ran out in: the discards shuffled mid-round (among "shuffles")
)
# Then the same box-round figures per strategy: ``strategyK_*`` over the boxes that play box K's
# strategy, K the first such box (the boxes of one strategy share them; a counter's are box 1's);
# the per-round squares (the square of the strategy's boxes' sum in a round) only when the boxes
# play more than one strategy.
BY_STRATEGY = ("box_rounds", "main_sum", "main_sq", "total_sum", "total_sq", "ss_sum", "ss_sq",
               "round_total_sq", "ss_round_sq")
(BY_BOX_ROUNDS, BY_MAIN_SUM, BY_MAIN_SQ, BY_TOTAL_SUM, BY_TOTAL_SQ, BY_SS_SUM, BY_SS_SQ,
 BY_RTOTAL_SQ, BY_SS_RSQ, N_BY) = range(len(BY_STRATEGY) + 1)  # fmt: skip
T_BY = len(TALLY_NAMES)  # strategy k's (k = 0..6) at T_BY + k * N_BY
TALLY_NAMES += tuple(f"strategy{k + 1}_{f}" for k in range(7) for f in BY_STRATEGY)
T = {name: i for i, name in enumerate(TALLY_NAMES)}
N_TALLY = len(TALLY_NAMES)
(
    T_ROUNDS, T_BOX_ROUNDS, T_MAIN_SUM, T_MAIN_SQ, T_TOTAL_SUM, T_TOTAL_SQ, T_RTOTAL_SUM,
    T_RTOTAL_SQ, T_INS_OFFERED, T_INS_TAKEN, T_INS_WON, T_INS_SUM, T_EM_OFFERED, T_EM_TAKEN,
    T_HANDS, T_WINS, T_LOSSES, T_PUSHES, T_PLAYER_BJ, T_DOUBLES, T_SPLITS, T_BUSTS,
    T_SURRENDERS, T_DEALER_BJ, T_DEALER_BUST, T_DEALER_17, T_DEALER_18, T_DEALER_19, T_DEALER_20,
    T_DEALER_21, T_SS_BETS, T_SS_A, T_SS_B, T_SS_C, T_SS_D, T_SS_E, T_SS_F, T_SS_SUM, T_SS_SQ,
    T_SS_RSUM, T_SS_RSQ, T_MAIN_WAGERED, T_SHUFFLES, T_CARDS_DEALT, T_RMAIN_SUM, T_RMAIN_SQ,
    T_RINS_SUM, T_RINS_SQ, T_REFILLS,
) = range(T_BY)

# ---------------------------------------------------------------------------------------------
# Counting tally (int64, shape (N_TC, N_COUNT)): one row per true-count bucket, the count at the
# round's start floored and clamped to TC_MIN..TC_MAX (the running count for an unbalanced count).
# Main amounts are tenths (UNIT) times the bet in units; Super Sevens amounts are stakes times the
# bet. "Flat" fields are every box dealt at one unit, seated or not: the advantage at the count.
TC_MIN, TC_MAX = -30, 30
N_TC = TC_MAX - TC_MIN + 1
COUNT_NAMES = (
    "rounds",  # rounds begun at this count (the counter watching or playing)
    "played",  # rounds the counter bet (seated)
    "boxes",  # boxes the counter bet
    "bet",  # main initial bets, units
    "wagered",  # main wagers in tenths x units (initial, doubles, splits)
    "net",  # the counter's main and insurance net, tenths x units
    "ss_bet",  # Super Sevens bets, units
    "ss_net",  # the counter's Super Sevens net, stakes x units
    "round_sq",  # sum over rounds of (the round's net in tenths, Super Sevens included)^2
    "flat_boxes",  # boxes dealt
    "flat_net",  # their main and insurance net at one unit, tenths
    "flat_sq",
    "ss_flat_bets",  # boxes dealt with a Super Sevens bet (the rules' side bet on)
    "ss_flat_net",  # their Super Sevens net at one stake
    "ss_flat_sq",
    "ss_exact",  # the exact Super Sevens return of those bets from the round's start shoe, x 1e9
    "ss_plus",  # rounds whose start shoe gives the Super Sevens bet a positive return
    "ss_exact_sq",  # the exact mean square of those bets' results from that shoe, x 1e6
    "flat_rsq",  # sum over rounds of (the round's flat net: its boxes' "flat_net")^2
    "main_sq",  # sum over rounds played of (the counter's main and insurance net, tenths x units)^2
    "cross",  # sum over rounds played of the counter's main net x the round's flat net
    "ins_net",  # the counter's insurance net (also in "net"), tenths x units
    "main_alone_sq",  # sum over rounds played of (the counter's main net less insurance)^2
    "ins_sq",  # sum over rounds played of (the counter's insurance net, tenths x units)^2
    "ins_won",  # the counter's insurance bets won (one a box insured; "ins_lost" next to it)
    "ins_lost",  # and lost: `tally.few_insurance_bets` holds back the interval of too few
    "ss_exact_bet",  # the counter's Super Sevens stakes times their exact return, x 1e6
)
N_COUNT = len(COUNT_NAMES)
SS_EXACT_SCALE = 10**9
SS_EXACT_SQ_SCALE = 10**6
SS_EXACT_BET_SCALE = 10**6
# The counter's nets: rounds played by their net (tenths, Super Sevens included), for the risk of
# ruin from their distribution. A bin each below NET_EXACT either way; above it NET_STEPS bins of
# equal width an octave, each sign (`net_bin`; `counting.net_values`).
NET_EXACT, NET_STEPS, NET_OCTAVES = 1 << 12, 128, 52
N_NETS = 2 * NET_EXACT - 1 + 2 * NET_STEPS * NET_OCTAVES


def net_bin(x):
    """The bin of a round's net ``x`` (tenths) in the nets: its own below NET_EXACT either way,
    else NET_STEPS of each octave above it (integers alone: the same bins on every machine; the
    engine compiles it, `kernel.count.net_bin`)."""
    a, e = abs(x), 0
    if a < NET_EXACT:
        return x + NET_EXACT - 1
    while (a >> e) >= 2 * NET_EXACT and e < NET_OCTAVES - 1:
        e += 1
    k = e * NET_STEPS + min((a >> e) - NET_EXACT, NET_EXACT - 1) * NET_STEPS // NET_EXACT
    return 2 * NET_EXACT - 1 + 2 * k + (x < 0)

(
    C_ROUNDS, C_PLAYED, C_BOXES, C_BET, C_WAGERED, C_NET, C_SS_BET, C_SS_NET, C_ROUND_SQ,
    C_FLAT_BOXES, C_FLAT_NET, C_FLAT_SQ, C_SS_FLAT_BETS, C_SS_FLAT_NET, C_SS_FLAT_SQ, C_SS_EXACT,
    C_SS_PLUS, C_SS_EXACT_SQ, C_FLAT_RSQ, C_MAIN_SQ, C_CROSS, C_INS_NET, C_MAIN_ALONE_SQ,
    C_INS_SQ, C_INS_WON, C_INS_LOST, C_SS_EXACT_BET,
) = range(N_COUNT)
