"""Card tokens and card files (simulator.cards); rule 3.1 (decks), 14 (suits for Super Sevens)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulator import layout as L
from simulator.cards import (
    CardError,
    card_token,
    format_cards,
    fresh_shoe,
    parse_card,
    parse_cards,
    read_cards,
)


def test_all_52_tokens_round_trip():
    tokens = [card_token(code) for code in range(52)]
    assert len(set(tokens)) == 52
    assert [parse_card(t) for t in tokens] == list(range(52))
    assert tokens[:4] == ["Ac", "Ad", "Ah", "As"] and tokens[-1] == "Ks"


def test_codes_follow_the_layout():
    assert parse_card("7h") == 6 * 4 + 2
    assert L.RANK_INDEX[parse_card("7h")] == L.SEVEN_RANK
    assert L.VALUE[parse_card("As")] == 1 and L.VALUE[parse_card("Qd")] == 10


@pytest.mark.parametrize("token", ["10c", "Tc", "tc", "10C", "TC", " Tc "])
def test_ten_spellings_and_any_case(token):
    assert parse_card(token) == parse_card("Tc") == 9 * 4 + 0
    assert card_token(parse_card(token)) == "Tc"


@pytest.mark.parametrize("token", ["ah", "AH", "Ah", "aH"])
def test_case_insensitive(token):
    assert parse_card(token) == 2


@pytest.mark.parametrize(
    "token, message",
    [
        ("Xh", "card 'Xh': rank 'X' is not one of A 2-9 T 10 J Q K"),
        ("1c", "card '1c': rank '1' is not one of A 2-9 T 10 J Q K"),
        ("11c", "card '11c': rank '11' is not one of A 2-9 T 10 J Q K"),
        ("7x", "card '7x': suit 'x' is not one of c d h s"),
        ("10", "card '10': a card is a rank (A 2-9 T 10 J Q K) then a suit (c d h s), e.g. 7h"),
        ("7", "card '7': a card is a rank (A 2-9 T 10 J Q K) then a suit (c d h s), e.g. 7h"),
        ("", "card '': a card is a rank (A 2-9 T 10 J Q K) then a suit (c d h s), e.g. 7h"),
    ],
)
def test_bad_tokens(token, message):
    # a lone 10 said "suit '0' is not one of c d h s": it is a rank, as a lone 7 is
    with pytest.raises(CardError) as info:
        parse_card(token)
    assert str(info.value) == message


WHAT = "a card is a rank (A 2-9 T 10 J Q K) then a suit (c d h s), e.g. 7h"
SEPARATED = "cards are separated by spaces, tabs, line breaks or commas"


@pytest.mark.parametrize("text, card, message", [
    # each said a rank or a suit was not one, of a token that is not a rank then a suit:
    ("Th 9c 7s 8d As 5d Kh 7hh", 8, f"'7hh' is not a card: {WHAT}"),  # rank '7h' is not one
    ("Th 9c 7s Kh7", 4, f"'Kh7' is not a card: {WHAT}"),  # suit '7' is not one
    ("Th;9c 7s 8d", 1,  # rank 'Th;9' is not one
     f"'Th;9c' is not a card: ';' is neither part of a card nor a separator: {SEPARATED}"),
    ("Th 9c 7s 8d As 5d Kh\x00", 7,  # suit '\x00' is not one
     f"'Kh\\x00' is not a card: '\\x00' is neither part of a card nor a separator: "
     f"{SEPARATED}"),
    ("7h|8d", 1, f"'7h|8d' is not a card: '|' is neither part of a card nor a separator: "
     f"{SEPARATED}"),
    ("As Kd7h", 2, f"'Kd7h' is not a card: cards run together: {SEPARATED}"),  # rank 'Kd7'
    ("10h10d", 1, f"'10h10d' is not a card: cards run together: {SEPARATED}"),
    # a rank then a suit in form: the one that is not, named
    ("7h Xh", 2, "'Xh' is not a card: rank 'X' is not one of A 2-9 T 10 J Q K"),
    ("7h 12c", 2, "'12c' is not a card: rank '12' is not one of A 2-9 T 10 J Q K"),
    ("7h 10x", 2, "'10x' is not a card: suit 'x' is not one of c d h s"),
])
def test_a_token_that_is_not_a_rank_then_a_suit_says_what_a_card_is(text, card, message):
    with pytest.raises(CardError) as info:
        parse_cards(text + "\n", source="b.txt")
    assert str(info.value) == f"b.txt: line 1, card {card}: {message}"


def test_the_separators_the_message_names_are_the_ones_taken():
    assert format_cards(parse_cards("7h 8d\t9c,Ts\nJh , Qd")) == "7h 8d 9c Ts Jh Qd"


def test_parse_cards_separators_and_comments():
    text = "# a stacked shoe\n7h, 7d 7s   # three sevens\n\n Kd,,As\t10c\n# end\n"
    codes = parse_cards(text)
    assert codes.dtype == np.int8
    assert format_cards(codes) == "7h 7d 7s Kd As Tc"
    assert parse_cards("").shape == (0,) and parse_cards("# only a comment").shape == (0,)


def test_parse_cards_error_names_line_and_position():
    with pytest.raises(CardError) as info:
        parse_cards("7h 7d\n# comment\nKd, Zz, As\n", source="deal.txt")
    assert str(info.value) == (
        "deal.txt: line 3, card 2: 'Zz' is not a card: suit 'z' is not one of c d h s"
    )


def test_read_cards(tmp_path):
    path = tmp_path / "shoe.txt"
    path.write_text("As Kd # blackjack\n7h,7h\n")
    assert format_cards(read_cards(path)) == "As Kd 7h 7h"
    path.write_text("As\nKd Q\n")
    with pytest.raises(CardError, match=r"shoe\.txt: line 2, card 2: 'Q' is not a card"):
        read_cards(path)
    with pytest.raises(CardError, match="no such card file"):
        read_cards(tmp_path / "missing.txt")
    path.write_bytes(b"\xff\xfe")
    # (the line, as every other kind of file says it: rules.read_text)
    with pytest.raises(CardError, match=r"shoe\.txt: line 1: not valid UTF-8 text"):
        read_cards(path)


def test_card_token_rejects_non_codes():
    for bad in (-1, 52, 2.0, True, "7h"):
        with pytest.raises(CardError):
            card_token(bad)
    assert card_token(np.int8(51)) == "Ks"


def test_fresh_shoe():
    shoe = fresh_shoe(6)
    assert shoe.dtype == np.int8 and shoe.shape == (312,)
    assert (np.bincount(shoe, minlength=52) == 6).all()
    assert list(shoe[:52]) == list(range(52))
    assert (L.VALUE[shoe] == 10).sum() == 6 * 16
    for bad in (0, -1, 1.5, True):
        with pytest.raises(CardError):
            fresh_shoe(bad)


@given(st.text(max_size=40))
def test_any_text_parses_or_raises_card_error(text):
    try:
        codes = parse_cards(text, source="t")
    except CardError as err:
        assert str(err).startswith("t: line ") and "\n" not in str(err)
    else:
        assert ((codes >= 0) & (codes < 52)).all()


@given(st.lists(st.integers(0, 51), max_size=30), st.sampled_from([" ", ",", ", ", "\n", "\t"]))
def test_formatted_cards_parse_back(codes, sep):
    text = sep.join(card_token(c) for c in codes)
    assert list(parse_cards(text)) == codes
