"""Card tokens and card files: ``7h``, ``Kd``, ``As``, ``10c``, ``Tc`` <-> card codes.

Rule 3.1: a shoe of 52-card decks; rule 3.2: an ace counts 1 or 11 (values in
`simulator.layout.VALUE`). Suits matter only to Super Sevens (rule 14), but every card carries one.

A token is a rank ``A 2 3 4 5 6 7 8 9 T 10 J Q K`` followed by a suit ``c d h s``, either in any
case. ``code = rank_index * 4 + suit`` (`simulator.layout`). A card file holds tokens separated by
whitespace or commas; ``#`` starts a comment that runs to the end of the line.
"""

from __future__ import annotations

import re

import numpy as np

from simulator import layout as L
from simulator.rules import read_text

RANK_TOKENS = "A 2-9 T 10 J Q K"
SUIT_TOKENS = "c d h s"
_SEPARATORS = re.compile(r"[\s,]+")
SEPARATED = "cards are separated by spaces, tabs, line breaks or commas"
_RUN_TOGETHER = re.compile(r"(?:(?:10|[A2-9TJQK])[CDHS]){2,}", re.IGNORECASE)  # "AsKd"


class CardError(ValueError):
    """A card token or card file that cannot be read: one line naming the token and where it is."""


def _shown(token: str) -> str:
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in token)


def _card_code(token: str) -> int | None:
    """The code of a token, or None if it is not one."""
    if len(token) < 2:
        return None
    rank, suit = token[:-1].upper(), token[-1].lower()
    if rank == "10":
        rank = "T"
    if len(rank) != 1 or rank not in L.RANKS or suit not in L.SUITS:
        return None
    return L.RANKS.index(rank) * 4 + L.SUITS.index(suit)


def _why(token: str) -> str:
    """Why a token is not a card (for the error message): a character no card has that does not
    separate cards (``Th;9c``); cards run together (``AsKd``); a rank or a suit that is not one,
    where the token is a rank then a suit in form (``Xh``, ``7x``, ``11c``); else what a card is
    (``7``, ``10``, ``7hh``)."""
    odd = next((c for c in token if not c.isalnum() and not _SEPARATORS.match(c)), None)
    if odd is not None:
        return f"'{_shown(odd)}' is neither part of a card nor a separator: {SEPARATED}"
    if _RUN_TOGETHER.fullmatch(token):
        return f"cards run together: {SEPARATED}"
    rank, suit = token[:-1], token[-1:]
    if len(token) == 2 and token != "10" or len(token) > 2 and rank.isdigit():
        if suit.lower() not in L.SUITS:
            return f"suit '{_shown(suit)}' is not one of {SUIT_TOKENS}"
        return f"rank '{_shown(rank)}' is not one of {RANK_TOKENS}"
    return f"a card is a rank ({RANK_TOKENS}) then a suit ({SUIT_TOKENS}), e.g. 7h"


def parse_card(token: str) -> int:
    """The card code (0..51) of one token such as ``7h``, ``Kd``, ``as`` or ``10C``.

    Raises
    ------
    CardError
        ``card 'Xh': rank 'X' is not one of A 2-9 T 10 J Q K``.
    """
    if not isinstance(token, str):
        raise CardError(f"card {token!r}: not a string token such as 7h")
    t = token.strip()
    code = _card_code(t)
    if code is None:
        raise CardError(f"card '{_shown(t)}': {_why(t)}")
    return code


def parse_cards(text: str, source: str = "<cards>") -> np.ndarray:
    """Card codes (int8, in order) from text: tokens between whitespace or commas, ``#`` comments.

    Raises
    ------
    CardError
        ``SOURCE: line 3, card 2: 'Zh' is not a card: rank 'Z' is not one of A 2-9 T 10 J Q K``.
    """
    if not isinstance(text, str):  # (an AttributeError for None)
        raise CardError(f"{source}: {text!r:.40} is not text: allowed a string of card tokens "
                        "such as '7h Kd As'")
    codes = []
    for lineno, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = line.split("#", 1)[0]
        tokens = [t for t in _SEPARATORS.split(line) if t]
        for position, token in enumerate(tokens, start=1):
            code = _card_code(token)
            if code is None:
                raise CardError(
                    f"{source}: line {lineno}, card {position}: '{_shown(token)}' is not a card: "
                    f"{_why(token)}"
                )
            codes.append(code)
    return np.array(codes, dtype=np.int8)


def read_cards(path, source: str | None = None) -> np.ndarray:
    """Card codes (int8) from a card file (see `parse_cards`); errors name the file, after
    ``source`` where given (``--cards shoe.txt``: the option it was given to)."""
    source = str(path) if source is None else source
    return parse_cards(read_text(path, "card", CardError, source=source), source=source)


def card_token(code: int) -> str:
    """The token of a card code: ``"7h"``, ``"Td"``, ``"As"`` (rank upper case, suit lower)."""
    if isinstance(code, bool) or not isinstance(code, (int, np.integer)) or not 0 <= code < 52:
        raise CardError(f"card code {code!r} is not a card: allowed 0-51")
    code = int(code)
    return L.RANKS[code // 4] + L.SUITS[code % 4]


def format_cards(codes) -> str:
    """Tokens of several codes separated by spaces (parses back with `parse_cards`)."""
    return " ".join(card_token(int(c)) for c in codes)


def fresh_shoe(decks: int) -> np.ndarray:
    """Every card code ``decks`` times, in order (int8): ``[0..51, 0..51, ...]``."""
    if isinstance(decks, bool) or not isinstance(decks, (int, np.integer)) or decks < 1:
        raise CardError(f"decks = {decks!r}: allowed a positive integer")
    return np.tile(np.arange(L.N_CODES, dtype=np.int8), int(decks))
