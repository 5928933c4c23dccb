"""Strategies as data (simulator.strategy): the file format, validation, shipped strategies."""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator import layout as L
from simulator.strategy import (
    STRATEGY_DIR,
    Strategy,
    StrategyError,
    dumps_strategy,
    list_strategies,
    load_strategy,
    loads_strategy,
    shown_names,
    stack,
    strategies_equal,
)

SHIPPED = ["basic", "basic-super-sevens", "insurance-taker", "mimic-dealer", "never-bust"]
UP = {str(v): v - 2 for v in range(2, 11)} | {"A": 9}  # up card -> column index
A = L.ACTION_CODES


def cell(table, row, up):
    return L.ACTION_NAMES[table[row, UP[up]]]


def error_of(text, source="s.toml") -> str:
    with pytest.raises(StrategyError) as info:
        loads_strategy(text, source)
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith(source)
    return msg


HEADER = "       2  3  4  5  6  7  8  9  10 A"


def chart(rows: dict) -> str:
    return '"""\n' + HEADER + "\n" + "\n".join(f"{k:<6} {v}" for k, v in rows.items()) + '\n"""'


ALL = {
    "H": "H  H  H  H  H  H  H  H  H  H",
    "S": "S  S  S  S  S  S  S  S  S  S",
    "N": "N  N  N  N  N  N  N  N  N  N",
}
GOOD = {
    "hard": {"4-16": ALL["H"], "17-20": ALL["S"]},
    "soft": {"12-17": ALL["H"], "18-20": ALL["S"]},
    "pairs": {p: ALL["N"] for p in ("A,A", "2,2", "3,3", "4,4", "5,5", "6,6", "7,7", "8,8",
                                    "9,9", "10,10")},
    "sevens": {"7,7": ALL["H"]},
}


def make(charts=None, head='name = "t"\ninsurance = false\neven_money = false\n', drop=()):
    charts = {k: dict(v) for k, v in GOOD.items()} | (charts or {})
    return head + "".join(f"{k} = {chart(v)}\n" for k, v in charts.items() if k not in drop)


# ---------------------------------------------------------------------------------------------
# Shipped strategies


def test_list_strategies():
    assert list_strategies() == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_strategy_loads_and_round_trips(name):
    s = load_strategy(name)
    assert s.name == name and s.description and s.source
    for table in (s.hard, s.soft, s.pairs, s.sevens):
        assert table.dtype == np.int8
    assert s.hard.shape == s.soft.shape == (L.N_TOTALS, L.N_UP)
    assert (s.hard[21] == L.S).all() and (s.soft[21] == L.S).all()
    assert (s.hard[:4] == L.H).all() and (s.soft[:12] == L.H).all()
    text = dumps_strategy(s)
    again = loads_strategy(text, "dump")
    assert strategies_equal(s, again)
    assert dumps_strategy(again) == text
    assert strategies_equal(load_strategy(STRATEGY_DIR / f"{name}.toml"), s)
    assert strategies_equal(load_strategy(str(STRATEGY_DIR / f"{name}.toml")), s)


@pytest.mark.parametrize(
    "table, row, up, action",
    [
        ("hard", 16, "10", "H"),
        ("hard", 16, "6", "S"),
        ("hard", 15, "10", "H"),
        ("hard", 12, "2", "H"),
        ("hard", 12, "4", "S"),
        ("hard", 11, "6", "D"),
        ("hard", 11, "10", "D"),  # original-and-busted: the double risks no extra to a blackjack
        ("hard", 11, "A", "H"),
        ("hard", 10, "9", "D"),
        ("hard", 10, "10", "H"),
        ("hard", 9, "2", "H"),
        ("hard", 9, "3", "D"),
        ("hard", 8, "6", "H"),
        ("soft", 18, "3", "S"),  # no soft doubles: A,7 v 3 stands
        ("soft", 18, "9", "H"),
        ("soft", 17, "4", "H"),  # no soft doubles: A,6 v 4 hits
        ("soft", 13, "5", "H"),
        ("soft", 19, "6", "S"),
    ],
)
def test_basic_well_known_plays(table, row, up, action):
    assert cell(getattr(load_strategy("basic"), table), row, up) == action


def test_basic_pairs_and_sevens():
    s = load_strategy("basic")
    pair = {p: i for i, p in enumerate(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"])}
    assert cell(s.pairs, pair["8"], "6") == "P"
    # exact derivation (tests/test_exact.py): under original-and-busted 8,8 v A hits (a dealer
    # blackjack also takes busted split hands), 8,8 v 10 still splits
    assert cell(s.pairs, pair["8"], "10") == "P" and cell(s.pairs, pair["8"], "A") == "N"
    assert cell(s.pairs, pair["A"], "A") == "P"
    assert cell(s.pairs, pair["10"], "6") == "N" and cell(s.pairs, pair["5"], "6") == "N"
    assert cell(s.pairs, pair["9"], "7") == "N" and cell(s.pairs, pair["9"], "8") == "P"
    # derived for these rules (double after split allowed): written P, not Pd
    assert cell(s.pairs, pair["4"], "5") == "P" and cell(s.pairs, pair["2"], "2") == "P"
    # the sevens row is the pairs 7,7 row with "not split" played as hard 14
    seven = s.pairs[pair["7"]]
    expected = np.where(seven == L.P, L.P, s.hard[14])
    assert np.array_equal(s.sevens, expected)
    assert not s.insurance and not s.even_money
    # no D or Ds anywhere in the soft table: soft doubles are not allowed (double_on = "hard")
    assert not np.isin(s.soft, [L.D, L.DS]).any()
    assert not np.isin(s.hard, [L.RH, L.RS]).any()


def test_insurance_taker_is_basic_plus_insurance():
    basic, taker = load_strategy("basic"), load_strategy("insurance-taker")
    assert taker.insurance and taker.even_money
    for t in ("hard", "soft", "pairs", "sevens"):
        assert np.array_equal(getattr(basic, t), getattr(taker, t))


def test_mimic_dealer_and_never_bust():
    m = load_strategy("mimic-dealer")
    assert (m.hard[4:17] == L.H).all() and (m.hard[17:] == L.S).all()
    assert (m.soft[12:17] == L.H).all() and (m.soft[17:] == L.S).all()
    assert (m.pairs == L.N).all() and not m.insurance
    n = load_strategy("never-bust")
    assert (n.hard[4:12] == L.H).all() and (n.hard[12:] == L.S).all()
    assert (n.soft[12:18] == L.H).all() and (n.soft[18:] == L.S).all()
    assert (n.pairs == L.N).all() and (n.sevens == L.S).all()
    for s in (m, n):
        assert not np.isin(s.hard, [L.D, L.DS]).any() and not np.isin(s.soft, [L.D, L.DS]).any()


def test_stack_of_loaded_strategies():
    hard, soft, pairs, sevens, flags = stack([load_strategy("basic"),
                                             load_strategy("insurance-taker")])
    assert hard.shape == (2, 22, 10) and pairs.shape == (2, 10, 10) and sevens.shape == (2, 10)
    assert flags.tolist() == [[0, 0], [1, 1]]


# ---------------------------------------------------------------------------------------------
# The format


def test_minimal_file_and_name_default(tmp_path):
    s = loads_strategy(make(), "t.toml")
    assert s.name == "t" and s.description == "" and s.source == ""
    path = tmp_path / "mine.toml"
    path.write_text(make(head="insurance = true\neven_money = false\n"))
    s = load_strategy(path)
    assert s.name == "mine" and s.insurance and not s.even_money


def test_a_strategy_file_is_shown_by_its_own_name_and_its_path_kept(tmp_path, monkeypatch):
    """A file was shown by its path in every output, where a shipped strategy is shown by its
    name: now by its own name, its path kept apart (``files``) for the metadata; by its path
    where its name is a shipped strategy's (an edited copy of basic) or another file's."""
    basic = (STRATEGY_DIR / "basic.toml").read_text()
    mine, other, copy = tmp_path / "mine.toml", tmp_path / "b" / "mine.toml", tmp_path / "c.toml"
    other.parent.mkdir()
    mine.write_text(basic.replace('name = "basic"', 'name = "my-chart"'))
    other.write_text(basic.replace('name = "basic"', 'name = "my-chart"'))
    copy.write_text(basic)  # (name = "basic": an edited copy would pass for the shipped one)
    given = ["basic", str(mine), str(other), str(copy), str(mine), str(STRATEGY_DIR / "basic.toml")]
    names, files = shown_names(given, [load_strategy(g) for g in given])
    assert names == ["basic", "my-chart", str(other), str(copy), "my-chart", "basic"]
    assert files == {"my-chart": str(mine)}
    nameless = tmp_path / "nameless.toml"  # (no name key: its file name)
    nameless.write_text(basic.replace('name = "basic"\n', ""))
    monkeypatch.chdir(tmp_path)
    assert shown_names(["nameless.toml"], [load_strategy("nameless.toml")]) == (
        ["nameless"], {"nameless": "nameless.toml"})
    # the file name without its suffix, whatever the suffix (docs/strategy-format.md)
    (tmp_path / "noname.txt").write_text(basic.replace('name = "basic"\n', ""))
    assert load_strategy("noname.txt").name == "noname"


def test_format_conveniences():
    pairs = {k: v for k, v in GOOD["pairs"].items() if k != "10,10"} | {"t,t": ALL["N"]}
    text = make({
        "hard": {"4-8": ALL["H"], "9": "h d d d d h h h h h  # lower case, a comment",
                 "10 | ": "| D D D D D D D D H H |", "11-16": ALL["H"], "17-21": ALL["S"]},
        "pairs": pairs,
    })
    text = text.replace(HEADER, "hard | 2 3 4 5 6 7 8 9 T A", 1)
    s = loads_strategy(text)
    assert cell(s.hard, 9, "3") == "D" and cell(s.hard, 10, "A") == "H"
    assert (s.pairs[9] == L.N).all()


def test_dumps_is_canonical_and_exact():
    s = loads_strategy(make({"hard": {"4-10": ALL["H"], "11": "Ds " * 9 + "Rh",
                                      "12-20": ALL["S"]}}))
    s = Strategy(name="x 'y' \"z\"", hard=s.hard, soft=s.soft, pairs=s.pairs, sevens=s.sevens,
                 description="a 'quoted' \"text\"\nwith two lines\n", source="tab\there '''")
    text = dumps_strategy(s)
    assert strategies_equal(loads_strategy(text), s)
    assert "11     Ds  Ds" in text and "4-10 " in text


def test_dumps_refuses_tables_the_format_cannot_say():
    s = load_strategy("basic")
    bad = Strategy(name="b", hard=s.hard.copy(), soft=s.soft, pairs=s.pairs, sevens=s.sevens)
    bad.hard[21, 0] = L.H
    with pytest.raises(StrategyError, match="row 21"):
        dumps_strategy(bad)
    bad = Strategy(name="b", hard=s.hard, soft=s.soft, pairs=s.hard, sevens=s.sevens)
    with pytest.raises(StrategyError, match="shape"):
        dumps_strategy(bad)
    bad = Strategy(name="b", hard=s.hard, soft=s.soft, pairs=s.pairs, sevens=s.sevens + 0)
    bad.sevens[0] = L.N
    with pytest.raises(StrategyError, match="sevens"):
        dumps_strategy(bad)


# ---------------------------------------------------------------------------------------------
# Each kind of bad file: one line naming the file, the chart, the row/column, what is allowed


def test_missing_row():
    msg = error_of(make({"hard": {"4-15": ALL["H"], "17-20": ALL["S"]}}))
    assert msg == "s.toml: chart 'hard': missing row 16: needs every total 4-20"
    msg = error_of(make({"soft": {"12": ALL["H"], "18-20": ALL["S"]}}))
    assert "chart 'soft': missing rows 13, 14, 15, 16, 17" in msg
    pairs = dict(GOOD["pairs"])
    del pairs["9,9"]
    assert "chart 'pairs': missing row 9,9" in error_of(make({"pairs": pairs}))
    assert "chart 'sevens': missing row 7,7" in error_of(make({"sevens": {}}))


def test_missing_cell():
    msg = error_of(make({"hard": {"4-16": "H " * 9, "17-20": ALL["S"]}}))
    assert msg == ("s.toml: chart 'hard', row 4-16: 9 cells, needs 10: one action for each "
                   "dealer up card 2 3 4 5 6 7 8 9 10 A")
    assert "11 cells, needs 10: " in error_of(make({"sevens": {"7,7": "H " * 11}}))


def test_a_short_row_names_no_column_it_cannot_tell():
    # A cell dropped under 6 was called "missing column A": the count is all a row tells.
    row = "H  H  S  S  S  H  H  H  H  H".split()
    msg = error_of(make({"hard": {"4-11": ALL["H"], "12": " ".join(row[:4] + row[5:]),
                                  "13-16": ALL["H"], "17-20": ALL["S"]}}))
    assert msg == ("s.toml: chart 'hard', row 12: 9 cells, needs 10: one action for each "
                   "dealer up card 2 3 4 5 6 7 8 9 10 A")


def test_unknown_action():
    msg = error_of(make({"hard": {"4-16": ALL["H"], "17-20": "S S S S S S S X S S"}}))
    assert msg == ("s.toml: chart 'hard', row 17-20, column 9: unknown action 'X': allowed S, H, "
                   "D, Ds, Rh, Rs")


@pytest.mark.parametrize(
    "charts, words",
    [
        ({"hard": {"4-16": "P " * 10, "17-20": ALL["S"]}},
         "chart 'hard', row 4-16, column 2: action 'P' is not allowed in the hard chart: allowed "
         "S, H, D, Ds, Rh, Rs"),
        ({"soft": {"12-17": "H " * 9 + "N", "18-20": ALL["S"]}},
         "chart 'soft', row 12-17, column A: action 'N' is not allowed in the soft chart"),
        ({"pairs": GOOD["pairs"] | {"8,8": "S " * 10}},
         "chart 'pairs', row 8,8, column 2: action 'S' is not allowed in the pairs chart: allowed "
         "P, N, Pd, Rp"),
        ({"sevens": {"7,7": "N " * 10}},
         "chart 'sevens', row 7,7, column 2: action 'N' is not allowed in the sevens chart: "
         "allowed S, H, D, Ds, Rh, Rs, P, Rp"),
        ({"sevens": {"7,7": "Pd " * 10}}, "action 'Pd' is not allowed in the sevens chart"),
    ],
)
def test_action_not_allowed_in_that_chart(charts, words):
    assert words in error_of(make(charts))


def test_sevens_row_holds_the_surrender_codes():
    """The sevens row takes Rh, Rs and Rp as the hard and pair charts do (surrender where the
    rules allow it, else hit, stand, split): a file with them loads, with no rules in sight (as
    Rh in the hard chart does), and round-trips; a made Strategy with them stacks."""
    text = make({"sevens": {"7,7": "P  P  P  P  P  P  H  Rp Rh Rs"},
                 "hard": {"4-13": ALL["H"], "14": "H  H  H  H  H  H  H  H  Rh Rs",
                          "15-16": ALL["H"], "17-20": ALL["S"]}})
    s = loads_strategy(text, "s.toml")
    assert [L.ACTION_NAMES[c] for c in s.sevens] == ["P"] * 6 + ["H", "Rp", "Rh", "Rs"]
    again = loads_strategy(dumps_strategy(s), "again.toml")
    assert strategies_equal(s, again)
    assert stack([s])[3].tolist() == [list(s.sevens)]


@pytest.mark.parametrize(
    "charts, words",
    [
        ({"hard": {"3-16": ALL["H"], "17-20": ALL["S"]}},
         "chart 'hard', row '3-16': out of range: allowed totals 4-21"),
        # (it was "out of range: allowed totals 4-21", both ends in range)
        ({"hard": {"4-12": ALL["H"], "16-13": ALL["H"], "17-20": ALL["S"]}},
         "chart 'hard', row '16-13': a reversed range: allowed low-high (13-16)"),
        ({"soft": {"12-17": ALL["H"], "20-18": ALL["S"]}},
         "chart 'soft', row '20-18': a reversed range: allowed low-high (18-20)"),
        ({"hard": {"4-16": ALL["H"], "22-17": ALL["S"]}},
         "chart 'hard', row '22-17': out of range: allowed totals 4-21"),
        ({"hard": {"4-16": ALL["H"], "16-20": ALL["S"]}}, "chart 'hard', row 16: given twice"),
        ({"hard": {"4-16": ALL["H"], "17-21": "S " * 9 + "H"}},
         "chart 'hard', row 21: 21 always stands (rule 12.1 (a)): allowed S only"),
        ({"hard": {"four": ALL["H"]}}, "chart 'hard', row 'four': not a row"),
        ({"soft": {"A,2": ALL["H"]}}, "write soft rows by total: A,2 is soft 13"),
        # (A,A, A,T and other ace-and-card forms had no hint)
        ({"soft": {"A,A": ALL["H"]}}, "row 'A,A': not a row: allowed a total 12-21 or a range "
                                      "such as 12-16 (write soft rows by total: A,A is soft 12)"),
        ({"soft": {"a,t": ALL["S"]}}, "(write soft rows by total: a,t is soft 21)"),
        ({"soft": {"A7": ALL["S"]}}, "(write soft rows by total: A7 is soft 18)"),
        ({"soft": {"A,2-A,6": ALL["H"]}}, "(write soft rows by total: A,2-A,6 is soft 13-17)"),
        ({"pairs": {"8,9": ALL["N"]}}, "chart 'pairs', row '8,9': not a pair row: allowed A,A"),
        ({"pairs": GOOD["pairs"] | {"8,8 ": ALL["N"]}}, "row 8,8: given twice"),
        ({"sevens": {"8,8": ALL["H"]}}, "chart 'sevens', row '8,8': not the sevens row"),
    ],
)
def test_bad_rows(charts, words):
    assert words in error_of(make(charts))


def test_bad_header_and_empty_chart():
    text = make().replace(HEADER, "   2 3 4 5 6 7 8 9 A 10", 1)
    assert "chart 'hard': the first line must name the dealer's up cards" in error_of(text)
    text = make(drop=("soft",)) + 'soft = """\n# nothing\n"""\n'
    assert "chart 'soft' is empty" in error_of(text)
    assert "key 'soft' = 3 is not a string: allowed a multi-line string chart" in error_of(
        make(drop=("soft",)) + "soft = 3\n")


def test_a_chart_written_as_a_table_is_named():
    # [hard] takes the charts after it: it said "missing keys soft, pairs, sevens".
    text = ('name = "t"\ninsurance = false\neven_money = false\n[hard]\nx = 1\n'
            'soft = "a"\npairs = "b"\nsevens = "c"\n')
    assert error_of(text) == (
        "s.toml: key 'hard' must be a multi-line string chart, not a table: [hard] took the keys "
        "after it (x, soft, pairs, sevens): allowed hard = \"\"\" then a header line '2 3 4 5 6 7 "
        "8 9 10 A' and one row per line")
    text = make(drop=("soft",)) + "soft = {}\n"
    assert "key 'soft' must be a multi-line string chart, not a table: allowed" in error_of(text)


def test_bad_keys():
    assert error_of(make(head='insurance = false\neven_money = false\nnme = "x"\n')) == (
        "s.toml: unknown key 'nme': did you mean 'name'?")
    assert "missing key even_money" in error_of(make(head="insurance = false\n"))
    assert "missing keys insurance, even_money, sevens" in error_of(make(head="",
                                                                         drop=("sevens",)))
    assert ("key 'insurance' = \"no\" is not true or false: allowed true or false (TOML "
            "booleans, unquoted)") in error_of(make(head='insurance = "no"\neven_money = false\n'))
    assert "key 'even_money' = 1 is not true or false" in error_of(
        make(head='insurance = false\neven_money = 1\n'))
    assert "key 'name' = 1 is not a string: allowed a name" in error_of(
        make(head="name = 1\ninsurance = false\neven_money = false\n"))
    # a review: "key 'description' must be a string", without the value or what is allowed
    assert "key 'description' = 5 is not a string: allowed a string" in error_of(
        make(head="description = 5\ninsurance = false\neven_money = false\n"))


def test_malformed_files(tmp_path):
    msg = error_of("insurance = false\nhard = ", "m.toml")
    assert msg.startswith("m.toml: line 2 (end of file): not valid TOML")
    msg = error_of("insurance = false\nhard = = 3\n", "m.toml")
    assert msg.startswith("m.toml: line 2, column 8: not valid TOML")
    with pytest.raises(StrategyError, match=r"nope\.toml: no such strategy file"):
        load_strategy(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"name = 'x'\n\xff\n")
    with pytest.raises(StrategyError, match=r"bad\.toml: line 2: not valid UTF-8"):
        load_strategy(bad)
    with pytest.raises(StrategyError) as info:
        load_strategy("bassic")
    assert str(info.value) == ("unknown strategy 'bassic': did you mean 'basic'? allowed a "
                               "shipped strategy (basic, basic-super-sevens, "
                               "insurance-taker, mimic-dealer, never-bust) or the path of a "
                               "strategy file")


def test_a_chart_given_twice_is_named_at_its_second_line():
    # tomllib points at the end of the second multi-line string, and the key was read from that
    # line: "line 50, column 4: not valid TOML: key '\"\"\"' given twice".
    text = make() + 'hard = """\n' + HEADER + "\n4-20 " + ALL["S"] + '\n"""\n'
    line = text.splitlines().index('hard = """', text.splitlines().index('hard = """') + 1) + 1
    assert error_of(text) == (f"s.toml: line {line}, column 1: not valid TOML: key 'hard' given "
                              "twice")


def test_a_rule_or_variant_file_as_a_strategy_says_where_it_goes():
    # It said "unknown key 'decks': allowed name, description, ...".
    assert error_of("decks = 2\n", "two.toml") == (
        "two.toml: a rule file, not a strategy file: give it to --rules (`bjsim simulate --rules "
        "two.toml`)")
    assert "a rule file, not a strategy file" in error_of('[meta]\nname = "x"\n', "m.toml")
    assert error_of('[variant]\nname = "x"\n[changes]\ndecks = 8\n', "v.toml") == (
        "v.toml: a variant file (a baseline and its changes), not a strategy file: give it to "
        "--variant (`bjsim compare --variant v.toml`)")
    # a strategy file with a stray key is still a strategy file, its key unknown
    assert "unknown key 'decks'" in error_of(make(head="decks = 2\n"))


def test_an_existing_file_of_any_suffix_loads_by_its_path(tmp_path, monkeypatch):
    # `--strategy mine.txt` said "unknown strategy 'mine.txt'" where ./mine.txt loaded.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.txt").write_text(make())
    (tmp_path / "plain").write_text(make())
    assert load_strategy("mine.txt").name == "t" and load_strategy("plain").name == "t"
    (tmp_path / "basic").write_text(make())  # a shipped name is the shipped strategy
    assert load_strategy("basic").name == "basic" and load_strategy("./basic").name == "t"
    with pytest.raises(StrategyError, match=r"^unknown strategy 'nope\.txt': allowed a shipped "
                       r"strategy \(basic, .*\) or the path of a strategy file$"):
        load_strategy("nope.txt")
    with pytest.raises(StrategyError, match=r"x/nope\.txt: no such strategy file: .* or the path "
                       r"of a strategy file$"):
        load_strategy("x/nope.txt")
    # a path is named as typed (./nope was named nope), in a file's own errors too
    with pytest.raises(StrategyError, match=r"^\./nope: no such strategy file: "):
        load_strategy("./nope")
    (tmp_path / "bad.toml").write_text("name = 1\n")
    with pytest.raises(StrategyError, match=r"^\./bad\.toml: "):
        load_strategy("./bad.toml")


@settings(max_examples=200)
@given(st.text(max_size=120))
def test_any_text_gives_a_strategy_or_strategy_error(text):
    try:
        loads_strategy(text, "p")
    except StrategyError as err:
        assert str(err).startswith("p: ") and "\n" not in str(err)


@settings(max_examples=100)
@given(st.lists(st.sampled_from(["S", "H", "D", "Ds", "P", "N", "X", "Rp", "", "S S"]),
                min_size=10, max_size=10))
def test_random_cells_give_a_strategy_or_strategy_error(cells):
    try:
        loads_strategy(make({"sevens": {"7,7": " ".join(cells)}}), "p")
    except StrategyError as err:
        assert "chart 'sevens'" in str(err)


def test_a_row_label_spaced_round_its_dash_or_comma_is_read_as_written_without_the_spaces():
    # "13 - 16  S ..." was refused as "row 13: 12 cells, needs 10", and "A, A  P ..." as
    # "row 'A,': not a pair row": neither said what was wrong with the label
    basic = load_strategy("basic")
    text = dumps_strategy(basic)
    spaced = re.sub(r"^13-16 ", "13 - 16 ", re.sub(r"^A,A ", "A, A ", text, flags=re.M),
                    flags=re.M)
    assert spaced != text and "13 - 16 " in spaced and "A, A " in spaced
    got = loads_strategy(spaced, "s.toml")
    assert all(np.array_equal(getattr(got, t), getattr(basic, t))
               for t in ("hard", "soft", "pairs", "sevens"))
