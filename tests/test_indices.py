"""Index plays by exact analysis of shoes depleted to a true count (simulator.exact.indices)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import numpy as np
import pytest

from simulator.counting import load_count
from simulator.exact import indices as X
from simulator.rules import Rules, load_rules

HI_LO = load_count("hi-lo")
SHIPPED = Path(__file__).resolve().parent.parent / "strategies" / "indices" / "hi-lo-nz.toml"


@pytest.mark.parametrize("t", [-6, -1, 0, 2.5, 7])
@pytest.mark.parametrize("d", [1.0, 3.0, 5.5])
def test_depleted_shoe_holds_the_decks_left_and_the_count(t, d):
    comp = X.depleted_shoe(d, HI_LO.tags, t)
    assert comp.sum() == pytest.approx(52 * d)
    assert (comp * np.array(HI_LO.tags)).sum() == pytest.approx(-t * d)  # the cards seen: +t d
    # Within each tag group the values keep their proportions (2-6 alike, 7-9 untouched).
    assert np.allclose(comp[1:6], comp[1]) and np.allclose(comp[6:9], 4 * d)


def test_insurance_crossing_is_where_a_third_of_the_cards_left_are_tens():
    # On the shoe before the deal whose count, the ace up and the box's two cards (any) seen,
    # is the crossing, less the ace: insurance at 2 to 1 breaks even at P(ten) = 1/3.
    d = 3.0
    x = X.crossing(Rules(), HI_LO.tags, None, 1, "no insurance", "insurance", d)
    comp = X.depleted_shoe(d, HI_LO.tags, X.pre_deal_count(HI_LO.tags, d, x, (1, None, None)))
    comp[0] -= 1
    # Linear interpolation between integer counts of a ratio: equal to a part in 10^4.
    assert comp[9] / comp.sum() == pytest.approx(1 / 3, rel=1e-4)
    assert X.find_index(Rules(), HI_LO.tags, None, 1, "no insurance", "insurance", d) == 3


def test_the_count_of_a_play_is_the_count_at_the_decision():
    # A review: the indices were the count before the deal, played at the count after it (the
    # up card and the hand seen), 0.3-0.9 apart: 12 v 3, derived at +1, stood at +1 where
    # hitting was worth more. The shoe before the deal that a hand and up card bring to a count
    # at the decision: its running count less their tags, over its decks.
    g = HI_LO.tags  # (10 and 2 and 3 up: tags -1, +1, +1: seen +1)
    assert X.pre_deal_count(g, 3.0, 1.0, (3, 10, 2)) == pytest.approx(((153 / 52) - 1) / 3)
    # the ace up seen (tag -1), the two cards of the box any (their tags the average of what
    # the ace leaves): a count of 0 after the ace stays 0 after them, so +1 / 3 decks before
    assert X.pre_deal_count(g, 3.0, 0.0, (1, None, None)) == pytest.approx(1 / 3)
    assert X.pre_deal_count(g, 3.0, 0.0, (1,)) == pytest.approx(1 / 3)
    # (cards of the average tag leave the true count as it was)
    assert X.pre_deal_count(g, 3.0, 2.0, (1, None, None)) == pytest.approx(
        X.pre_deal_count(g, 3.0, 2.0, (1,)))
    # at the index, by the analyzer, the play at or above it is the better one
    for hand, up, low, high, index in (((10, 2), 3, "hit", "stand", 2),
                                       ((6, 4), 10, "hit", "double", 4)):
        at = X.action_values(Rules(), g, 3.0, index, hand, up)
        below = X.action_values(Rules(), g, 3.0, index - 1, hand, up)
        assert at[high] > at[low] and below[high] < below[low], (hand, up)


def test_a_stiff_total_is_valued_over_its_two_card_hands():
    # 13 v 3 on a full-shoe-like depleted shoe at count 0: basic stands (published -2).
    v = X.action_values(Rules(), HI_LO.tags, 3.0, 0, (10, 3), 3)
    assert v["stand"] > v["hit"]
    assert X.find_index(Rules(), HI_LO.tags, (10, 3), 3, "hit", "stand") == -2


def _half_deck_brute_force(a: int, b: int) -> tuple[float, float]:
    """Stand and hit (then play on best) on a, b against a ten, from a 26-card half deck (two of
    each A-9, eight tens) less the three cards, under the NZ rules (no hole card, S17, a
    dealer blackjack takes the bet): every card order enumerated, apart from the analyzer."""
    from functools import cache

    def total(cards):
        t = sum(cards)
        return t + 10 if 1 in cards and t + 10 <= 21 else t

    @cache
    def dealer(comp, cards):  # {final: chance}: "bj", "bust" or 17-21
        t = total(cards)
        if len(cards) == 2 and t == 21:
            return {"bj": 1.0}
        if t > 21 or t >= 17:
            return {"bust" if t > 21 else t: 1.0}
        out, n = {}, sum(comp)
        for v in (v for v in range(10) if comp[v]):
            c = comp[:v] + (comp[v] - 1,) + comp[v + 1:]
            for k, q in dealer(c, cards + (v + 1,)).items():
                out[k] = out.get(k, 0.0) + comp[v] / n * q
        return out

    def stand(comp, t):
        return sum(p * (-1 if k == "bj" else 1 if k == "bust" or t > k else -1 if t < k else 0)
                   for k, p in dealer(comp, (10,)).items())

    @cache
    def hit(comp, cards):
        n = sum(comp)
        return sum(comp[v] / n * best(comp[:v] + (comp[v] - 1,) + comp[v + 1:], cards + (v + 1,))
                   for v in range(10) if comp[v])

    def best(comp, cards):
        t = total(cards)
        return -1.0 if t > 21 else max(stand(comp, t), hit(comp, cards))

    comp = [2] * 9 + [7]  # (the ten up dealt)
    comp[a - 1] -= 1
    comp[b - 1] -= 1
    return stand(tuple(comp), a + b), hit(tuple(comp), (a, b))


def test_half_a_deck_left_16_v_10_crosses_above_15_v_10_by_card_removal():
    # `bjsim strategy indices --decks-left 0.5` gives 16 v 10 at +6 and 15 v 10 at +2, the
    # reverse of the usual order. Not a fault: 10,6 takes one of the half deck's two sixes (a
    # card that busts 16), 10,5 one of its two fives (which makes 20 from 15), so hitting 10,6
    # is worth more than hitting 10,5. The analyzer's values on the half deck at a true count
    # of 0 before the deal (whole cards: two of each value) are those of an enumeration of its
    # 26 cards.
    from simulator.exact.analyze import _Box
    from simulator.exact.player import UpCard

    shoe = X.depleted_shoe(0.5, HI_LO.tags, 0)
    assert list(shoe) == [2] * 9 + [8]
    for hand in ((10, 6), (7, 9), (10, 5), (6, 9), (7, 8)):
        options = _Box(UpCard(Rules(), 10, None, shoe=shoe)).options(*sorted(hand))
        stand, hit = _half_deck_brute_force(*hand)
        assert float(options["stand"][0]) == pytest.approx(stand, abs=1e-9), hand
        assert float(options["hit"][0]) == pytest.approx(hit, abs=1e-9), hand
    assert _half_deck_brute_force(10, 6)[1] > _half_deck_brute_force(10, 5)[1]  # hit 16 > hit 15
    x16 = X.crossing(Rules(), HI_LO.tags, (10, 6), 10, "hit", "stand", 0.5)
    x15 = X.crossing(Rules(), HI_LO.tags, (10, 5), 10, "hit", "stand", 0.5)
    assert round(x16, 2) == 5.76 and round(x15, 2) == 2.02
    # three decks left: the usual order
    assert X.crossing(Rules(), HI_LO.tags, (10, 6), 10, "hit", "stand", 3.0) < X.crossing(
        Rules(), HI_LO.tags, (10, 5), 10, "hit", "stand", 3.0)


def test_shipped_nz_index_file_is_well_formed():
    doc = tomllib.loads(SHIPPED.read_text())
    assert doc["count"] == "hi-lo" and len(doc["play"]) == len(X.ILLUSTRIOUS_18)
    for play in doc["play"]:
        assert play["chart"] in ("hard", "soft", "pairs", "insurance")
        assert isinstance(play["index"], int) and play["index"] == X.index_of(play["crossing"])
        # at a true count of exactly 0 the play is the better one there (the crossing's side)
        assert (play["index"] <= 0) == (play["crossing"] <= 0), play


def test_an_index_is_the_nearest_count_but_keeps_count_zero_on_the_crossings_side():
    # 11 v A crosses at +0.499 in the NZ game and 12 v 4 at +0.29 (before the counts were at
    # the decision, 11 v A at +0.41 and 9 v 2 at +0.07): rounded to 0, the counter would play
    # them at a true count of exactly 0 (every running count of 0: about a fifth of decisions),
    # where the play below is the better one and the chart's
    assert [X.index_of(x) for x in (0.499, 0.29, 0.407, 0.067, 0.5, 1.317, 2.5, 4.961)] == [
        1, 1, 1, 1, 1, 1, 3, 5]
    assert [X.index_of(x) for x in (0.0, -0.193, -0.5, -1.023, -2.495)] == [0, 0, 0, -1, -2]


@pytest.mark.slow
def test_illustrious_18_re_derived_agree_with_the_published_indices():
    # US 6-deck S17 peek (the published game): every crossing within 0.95 of the published index
    # but 16 v 10, where the published 0 counts multi-card 16s (their small cards leave the shoe
    # richer in tens, so standing wins sooner) and the two-card hands here cross at +1.0 (+1.3
    # before the counts were at the decision, when 12 v 3 crossed at +1.5 for a published +2).
    us = Rules(hole_card="peek", double_on="any", max_hands=4, super_sevens=False)
    for name, hand, up, low, high, published in X.ILLUSTRIOUS_18:
        x = X.crossing(us, HI_LO.tags, hand, up, low, high)
        if name == "16 v 10":
            assert 0.9 < x < 1.1
        else:
            assert abs(x - published) <= 0.95, (name, x, published)


@pytest.mark.slow
def test_shipped_nz_index_file_is_what_the_generator_makes():
    r = load_rules()
    plays = X.derive_indices(r, HI_LO)
    text = X.dumps_indices(plays, "hi-lo-nz", r, HI_LO, r.decks / 2,
                           "bjsim strategy indices --name hi-lo-nz")
    assert text == SHIPPED.read_text()


# ---------------------------------------------------------------------------------------------
# Super Sevens by the sevens left (what a sevens count tracks)


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_super_sevens_by_sevens_left_is_the_published_convention_on_a_full_shoe(decks):
    from simulator.exact.sevens import super_sevens, value_by_sevens_left

    r = Rules(decks=decks)
    assert value_by_sevens_left(r, 52 * decks, 4 * decks) == pytest.approx(
        super_sevens(r, guaranteed_third=True)["ev"], abs=1e-12)


@pytest.mark.parametrize("n, s", [(12, 3), (9, 4), (14, 2), (10, 0)])
def test_super_sevens_by_sevens_left_against_enumeration(n, s):
    # Two decks: the s sevens left are any s of the 8 (two of each suit), the other n - s cards
    # are not sevens; every ordered draw of three cards settles the bet (lines (a)-(f)).
    from itertools import combinations, permutations

    from simulator.exact.sevens import value_by_sevens_left

    r = Rules(decks=2)
    a, b, c, d, e = r.super_sevens_pays
    sevens = [suit for suit in range(4) for _ in range(2)]
    total = ways = 0.0
    for left in combinations(range(8), s):
        shoe = [sevens[i] for i in left] + [None] * (n - s)
        for x, y, z in permutations(range(n), 3):
            c1, c2, c3 = shoe[x], shoe[y], shoe[z]
            if c1 is None:
                pay = -1
            elif c2 is None:
                pay = a
            elif c3 is None:
                pay = c if c1 == c2 else b
            else:
                pay = e if c1 == c2 == c3 else d
            total += pay
            ways += 1
    assert value_by_sevens_left(r, n, s) == pytest.approx(total / ways, rel=1e-12)


@pytest.mark.parametrize("args, words", [
    # (a review: it did not name --count, the option given)
    (["--count", "ko"], "Error: --count ko: count 'ko' is unbalanced: index plays are derived "
                        "for balanced counts "
                          "(true counts): allowed hi-lo, hi-opt-ii, omega-ii, sevens, zen, or a "
                          "balanced count file"),
    (["--count", "hilo"], "unknown count system 'hilo'"),  # (as --strategy's and --plan's)
    (["--count", "/nonexistent/c.toml"], "Error: --count /nonexistent/c.toml: no such count file"),
    (["--decks-left", "7"], "--decks-left 7: allowed at most the shoe's 6 decks"),
])
def test_strategy_indices_command_refuses_bad_input_in_one_line(args, words):
    from click.testing import CliRunner

    from simulator.cli import cli

    result = CliRunner().invoke(cli, ["strategy", "indices", *args])
    assert result.exit_code == 2
    assert words in result.output and len(result.output.strip().splitlines()) == 1


def test_an_unreadable_index_file_is_one_line_naming_it(tmp_path):
    from simulator.index_plays import IndexFileError, load_indices

    bad = tmp_path / "idx.toml"
    bad.write_text('name = "x"\n[[play]]\nchart = "hard\n')
    with pytest.raises(IndexFileError, match=r"idx.toml: line 3, column \d+: not valid TOML"):
        load_indices(bad)
    bad.write_bytes(b'name = "x"\n\xff')
    with pytest.raises(IndexFileError, match="idx.toml: line 2: not valid UTF-8 text"):
        load_indices(bad)


@pytest.mark.parametrize("text, words", [
    # index = nan was taken, and the play then never made; no plays, or no count, passed unsaid
    ('count = "hi-lo"\n[[play]]\nchart = "hard"\nrow = "16"\nup = "10"\nbelow = "H"\n'
     'at_or_above = "S"\nindex = nan\n', "play 1: index = nan: allowed a number -100 to 100"),
    ('count = "hi-lo"\n', "no play: allowed one [[play]] table or more (for no index plays, "
     "leave the plan's 'indices' out)"),
    ('[[play]]\nchart = "hard"\nrow = "16"\nup = "10"\nbelow = "H"\nat_or_above = "S"\n'
     'index = 0\n', "key 'count' is missing: the count system the indices are for (as bjsim "
     "strategy indices writes it)"),
    # each of these was taken and then played as something else, or never
    ('count = "hi-lo"\n[[play]]\nchart = "pairs"\nrow = "8,8"\nup = "10"\nbelow = "S"\n'
     'at_or_above = "P"\nindex = 0\n', 'play 1: below = "S": allowed P Pd Rp N (N: not split, '
     "the hard or soft chart then plays the hand)"),
    ('count = "hi-lo"\n[[play]]\nchart = "hard"\nrow = "21"\nup = "10"\nbelow = "H"\n'
     'at_or_above = "S"\nindex = 0\n', "play 1: row 21 stands at every count (rule 12.1 (a)), "
     "so no play changes it: allowed a total 4-20"),
    ('count = "hi-lo"\n[[play]]\nchart = "soft"\nrow = "21"\nup = "10"\nbelow = "S"\n'
     'at_or_above = "S"\nindex = 0\n', "play 1: row 21 stands at every count (rule 12.1 (a)), "
     "so no play changes it: allowed a total 12-20"),
    ('count = "hi-lo"\n[[play]]\nchart = "soft"\nrow = "5"\nup = "10"\nbelow = "H"\n'
     'at_or_above = "S"\nindex = 0\n', 'play 1: row = "5": allowed a total 12-20 (soft rows by '
     "total: A,7 is 18)"),
])
def test_an_index_file_without_plays_a_count_or_a_finite_index_is_refused(tmp_path, text, words):
    from simulator.index_plays import IndexFileError, load_indices

    bad = tmp_path / "idx.toml"
    bad.write_text(text)
    with pytest.raises(IndexFileError) as err:
        load_indices(bad)
    assert str(err.value) == f"{bad}: {words}"


def test_an_index_file_with_more_counts_than_bands_the_engine_holds_is_refused(tmp_path):
    from simulator.index_plays import MAX_INDEX_COUNTS, IndexFileError, load_indices

    cells = [(chart, str(t), up) for chart, low in (("hard", 4), ("soft", 12))
             for t in range(low, 21) for up in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")]
    plays = "".join(f'[[play]]\nchart = "{c}"\nrow = "{r}"\nup = "{u}"\nbelow = "H"\n'
                    f'at_or_above = "{"D" if c == "hard" and int(r) <= 11 else "S"}"\n'
                    f'index = {i / 10}\n\n'  # (no S on hard 11 or less: rule 12.1 (d))
                    for i, (c, r, u) in enumerate(cells[:MAX_INDEX_COUNTS + 1]))
    bad = tmp_path / "many.toml"
    bad.write_text('name = "many"\ncount = "hi-lo"\n\n' + plays)
    with pytest.raises(IndexFileError, match=r"many.toml: 255 different index counts: allowed at "
                       r"most 254 \(each one splits the count into another band\)"):
        load_indices(bad)
    bad.write_text('name = "many"\ncount = "hi-lo"\n\n' + plays.rsplit("[[play]]", 1)[0])
    assert len(load_indices(bad).cells) == MAX_INDEX_COUNTS


def test_index_plays_valued_side_by_side_are_those_valued_one_by_one():
    r = load_rules().replace(decks=2)
    plays = X.ILLUSTRIOUS_18[:3]
    assert X.derive_indices(r, HI_LO, plays, workers=2) == X.derive_indices(r, HI_LO, plays,
                                                                          workers=1)


@pytest.mark.parametrize("args, name", [
    ([], "hi-lo-nz1994"),
    (["--set", "decks=2"], "hi-lo-nz1994-decks-2"),  # not the 6-deck set's name
    (["--rules", "us-6deck-s17-das-peek", "--set", "decks=2", "--set", "surrender=late"],
     "hi-lo-us-6deck-s17-das-peek-decks-2-surrender-late"),
    (["--set", "decks=2", "--name", "mine"], "mine"),
])
def test_the_default_index_set_name_holds_the_rules_changes(monkeypatch, args, name):
    import tomllib

    from click.testing import CliRunner

    from simulator.cli import cli
    from simulator.exact import indices

    monkeypatch.setattr(indices, "derive_indices", lambda *_a, **_k: [])  # (the name alone)
    result = CliRunner().invoke(cli, ["strategy", "indices", "-q", *args])
    assert result.exit_code == 0, result.output
    assert tomllib.loads(result.stdout)["name"] == name


def test_a_count_too_narrow_for_the_scan_is_refused_saying_what_is_allowed(tmp_path):
    """A count tagging two values empties one of them in the average shoe of true count 10:
    refused in one line naming the count and what a count needs, not a bare ValueError."""
    from click.testing import CliRunner

    from simulator.cli import cli

    narrow = tmp_path / "narrow.toml"
    narrow.write_text('name = "narrow"\ntags = [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0]\n')
    result = CliRunner().invoke(cli, ["strategy", "indices", "-q", "--count", str(narrow)])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "Error: count 'narrow': index plays are valued at true counts -10 to +10, and at one of "
        "them its average shoe holds no card of value A: allowed a count whose tags squared, "
        "over a deck (8), exceed 10 times its largest tag (1), as every shipped one's do (tag "
        "more card values)"]


def test_a_level_two_count_and_the_sevens_count_give_index_files_count_can_load(tmp_path):
    """Scanned at -10 to +10 only, Zen's 16 v 9 (about +12) was written without an index, and
    `bjsim count` refused the file: a level-2 count is scanned twice as far, and a play whose
    better action does not change in the scan is left out, with a comment saying so."""
    from simulator.index_plays import load_indices

    zen, sevens = load_count("zen"), load_count("sevens")
    assert [X.scan_top(c.tags) for c in (HI_LO, zen, sevens)] == [10, 20, 51]
    r = load_rules()
    plays = X.ILLUSTRIOUS_18[12:13]  # 16 v 9
    (zen_169,) = X.derive_indices(r, zen, plays)
    assert zen_169["index"] is not None and 10 < zen_169["crossing"] < 20
    for system in (zen, sevens):
        got = X.derive_indices(r, system, X.ILLUSTRIOUS_18[:3] + plays)
        path = tmp_path / f"{system.name}.toml"
        path.write_text(X.dumps_indices(got, system.name, r, system, 3.0))
        loaded = load_indices(path)
        assert len(loaded.plays) == sum(p["index"] is not None for p in got)
        missing = [p["name"] for p in got if p["index"] is None]
        assert (f"# Not written: {', '.join(missing)}:" in path.read_text()) == bool(missing)
        # the published indices are Hi-Lo's: beside no other count's (a plan author's review:
        # the sevens count's 16 v 9 at +25 beside "published_hi_lo_s17_peek = 5")
        assert "published_hi_lo" not in path.read_text()
        assert (f"published for Hi-Lo, derived for these rules and the {system.name} count"
                in path.read_text())
    assert missing  # (the sevens count moves few of these plays)
    hi_lo = X.derive_indices(r, HI_LO, plays)
    assert hi_lo[0]["published_hi_lo_s17_peek"] == 5
    assert "re-derived for these rules)" in X.dumps_indices(hi_lo, "h", r, HI_LO, 3.0)


# ---------------------------------------------------------------------------------------------
# The index file format (simulator.index_plays, docs/counting.md "Index files")

DOCS = Path(__file__).resolve().parent.parent / "docs" / "counting.md"


def test_the_documented_index_file_loads_as_it_says(tmp_path):
    from simulator.index_plays import PLAY_KEYS, load_indices
    from simulator.plans import plan_from_dict

    section = DOCS.read_text().split("### Index files\n", 1)[1].split("\n## ", 1)[0]
    for key in PLAY_KEYS + ("count", "description", "source", "[[play]]"):
        assert f"`{key}`" in section, key  # every key the loader reads is documented
    path = tmp_path / "mine.toml"
    path.write_text(section.split("```toml\n", 1)[1].split("```", 1)[0])
    plays = load_indices(path)
    assert (plays.name, plays.count) == ("my-hi-lo", "hi-lo")
    assert [(q.chart, q.row, q.up, q.below, q.at_or_above, q.index) for q in plays.plays] == [
        ("insurance", "insurance", "A", "N", "Y", 3.0), ("hard", "16", "10", "H", "S", 0.0),
        ("pairs", "10,10", "6", "N", "P", 4.5)]
    plan = plan_from_dict({"count": "hi-lo", "indices": str(path), "bet": {"base": 1}})
    assert plan.indices == str(path)


def _one_play(tmp_path, **cell) -> str:
    play = {"chart": "hard", "row": "16", "up": "10", "below": "H", "at_or_above": "S",
            "index": 0} | cell
    path = tmp_path / "idx.toml"
    path.write_text('count = "hi-lo"\n[[play]]\n' + "".join(
        f"{k} = {json.dumps(v)}\n" for k, v in play.items()))
    return str(path)


@pytest.mark.parametrize("cell, as_read", [
    # as the strategy files take them: T for 10, action codes in any case (both were refused)
    ({"up": "T"}, ("hard", "16", "10", "H", "S")),
    ({"up": "t", "below": "h", "at_or_above": "s"}, ("hard", "16", "10", "H", "S")),
    ({"row": "11", "up": "a", "below": "h", "at_or_above": "d"}, ("hard", "11", "A", "H", "D")),
    ({"chart": "soft", "row": 18, "up": 2, "below": "s", "at_or_above": "ds"},
     ("soft", "18", "2", "S", "Ds")),
    ({"chart": "hard", "row": "15", "below": "rh", "at_or_above": "RS"},
     ("hard", "15", "10", "Rh", "Rs")),
    ({"chart": "pairs", "row": "T,T", "up": "5", "below": "n", "at_or_above": "pd"},
     ("pairs", "10,10", "5", "N", "Pd")),
    ({"chart": "pairs", "row": "a,a", "up": "T", "below": "rp", "at_or_above": "p"},
     ("pairs", "A,A", "10", "Rp", "P")),
    ({"chart": "insurance", "row": "insurance", "up": "a", "below": "n", "at_or_above": "y"},
     ("insurance", "insurance", "A", "N", "Y")),
])
def test_an_index_play_is_written_as_a_strategy_file_writes_it(tmp_path, cell, as_read):
    from simulator.index_plays import load_indices

    (q,) = load_indices(_one_play(tmp_path, **cell)).plays
    assert (q.chart, q.row, q.up, q.below, q.at_or_above) == as_read


@pytest.mark.parametrize("cell, words", [
    ({"up": "11"}, 'up = "11": allowed 2 3 4 5 6 7 8 9 10 A (T for 10)'),
    ({"up": True}, "up = true: allowed 2 3 4 5 6 7 8 9 10 A"),
    ({"row": True}, "row = true: allowed a total 4-20"),
    # (16 is in range: the type is the fault, a review)
    ({"row": 16.0}, 'row = 16.0: allowed a total 4-20, a whole number or a string (row = 16 or '
     '"16")'),
    ({"chart": "pairs", "row": "J,J", "below": "N", "at_or_above": "P"},
     'row = "J,J": allowed A,A 2,2'),
    ({"at_or_above": "sS"}, 'at_or_above = "sS": allowed S H D Ds Rh Rs'),
    ({"name": 16}, "key 'name' = 16 is not a string: allowed a name: printable text"),
    ({"crossing": "1.3"}, 'crossing = "1.3": allowed a number'),
])
def test_a_bad_index_play_is_refused_naming_the_play_and_key(tmp_path, cell, words):
    from simulator.index_plays import IndexFileError, load_indices

    path = _one_play(tmp_path, **cell)
    with pytest.raises(IndexFileError) as err:
        load_indices(path)
    assert str(err.value).startswith(f"{path}: play 1: {words}"), str(err.value)


@pytest.mark.parametrize("head, words", [
    ('count = ""', "key 'count' = \"\": allowed the name of the count system the indices are "
     "for, a string"),
    ("count = 5", "key 'count' = 5: allowed the name of the count system"),
    ('count = "hi-lo"\nname = [1]', "key 'name' = [1] is not a string: allowed a name: printable "
     "text"),
    ('count = "hi-lo"\ndescription = 2', "key 'description' = 2: allowed a string"),
])
def test_an_index_file_s_count_and_name_are_strings(tmp_path, head, words):
    # count = "" was taken, and a plan of any count then played the file
    from simulator.index_plays import IndexFileError, load_indices

    path = tmp_path / "idx.toml"
    path.write_text(head + '\n[[play]]\nchart = "hard"\nrow = "16"\nup = "10"\nbelow = "H"\n'
                    'at_or_above = "S"\nindex = 0\n')
    with pytest.raises(IndexFileError) as err:
        load_indices(path)
    assert str(err.value).startswith(f"{path}: {words}")


@pytest.mark.parametrize("cell, words", [
    # each was taken, a play that plays the chart's own action or none at every count
    ({"below": "H", "at_or_above": "H"}, 'below = at_or_above = "H": the play is the same at '
     "every count, so it changes nothing: allowed two different actions (to play one action at "
     "every count: the strategy's chart)"),
    ({"below": "ds", "at_or_above": "Ds"}, 'below = at_or_above = "Ds": the play is the same'),
    ({"chart": "pairs", "row": "8,8", "below": "P", "at_or_above": "P"},
     'below = at_or_above = "P": the play is the same at every count'),
    ({"chart": "insurance", "row": "insurance", "up": "A", "below": "Y", "at_or_above": "Y"},
     'below = at_or_above = "Y": the play is the same at every count, so it changes nothing: '
     "allowed two different actions (to insure at every count: the strategy's insurance = true)"),
    ({"chart": "insurance", "row": "insurance", "up": "A", "below": "N", "at_or_above": "N"},
     'below = at_or_above = "N": the play is the same at every count'),
])
def test_an_index_play_the_same_either_side_of_its_index_is_refused(tmp_path, cell, words):
    from simulator.index_plays import IndexFileError, load_indices

    path = _one_play(tmp_path, **cell)
    with pytest.raises(IndexFileError) as err:
        load_indices(path)
    assert str(err.value).startswith(f"{path}: play 1: {words}"), str(err.value)


def _strategy_play_by_enumeration(rules, n, s, plays):
    """The Super Sevens return from every shoe of ``n`` cards holding ``s`` sevens of one deck,
    each weighted by its chance as what is left of a shuffled deck (its sevens any ``s`` of
    the four, its other cards any ``n - s`` of the 48), every ordered deal enumerated: the box's
    first card, the up card, the box's second card, in the peek game the hole card (a dealer
    blackjack settles the bet on two cards), then the third card where the 7-7 play hits."""
    from itertools import combinations
    from math import comb

    a, b, c, d, e = rules.super_sevens_pays
    values = [v for v in range(1, 11) if v != 7]
    full = {v: 16 if v == 10 else 4 for v in values}
    peek = rules.hole_card == "peek"

    def multisets(k, vs):
        if not vs:
            yield {} if k == 0 else None
            return
        for j in range(min(k, full[vs[0]]) + 1):
            for rest in multisets(k - j, vs[1:]):
                if rest is not None:
                    yield {vs[0]: j} | rest

    total = 0.0
    weight = 0.0
    for suits in combinations(range(4), s):
        for others in multisets(n - s, values):
            w = 1.0
            for v, k in others.items():
                w *= comb(full[v], k)
            shoe = {("7", x): 1 for x in suits} | {v: k for v, k in others.items() if k}

            def draw(cards):
                left = sum(cards.values())
                for card, k in cards.items():
                    if k:
                        yield card, k / left, cards | {card: k - 1}

            value = 0.0
            for c1, p1, r1 in draw(shoe):
                if not isinstance(c1, tuple):
                    value += p1 * -1
                    continue
                for up, pu, r2 in draw(r1):
                    u = 7 if isinstance(up, tuple) else up
                    for c2, p2, r3 in draw(r2):
                        p = p1 * pu * p2
                        if not isinstance(c2, tuple):
                            value += p * a
                            continue
                        two = c if c1[1] == c2[1] else b
                        if plays[u] in ("split", "stand", "surrender"):  # (no third card)
                            value += p * two
                            continue
                        holes = list(draw(r3)) if peek and u in (1, 10) else [(None, 1.0, r3)]
                        for hole, ph, r4 in holes:
                            if hole == (10 if u == 1 else 1):
                                value += p * ph * two
                                continue
                            for c3, p3, _ in draw(r4):
                                if isinstance(c3, tuple):
                                    pay = e if c1[1] == c2[1] == c3[1] else d
                                else:
                                    pay = two
                                value += p * ph * p3 * pay
            total += w * value
            weight += w
    return total / weight


@pytest.mark.parametrize("hole_card", ["none", "peek"])
@pytest.mark.parametrize("n, s", [(6, 3), (7, 4)])
def test_super_sevens_by_sevens_left_of_a_7_7_play_against_enumeration(n, s, hole_card):
    # The strategy's own 7-7 play (basic: split against 2-7, hit against 8-A), the cards other
    # than sevens any of the deck's: the exact return a counter playing basic gets by the cards
    # and sevens left (the convention's deals every box a third card).
    from simulator.exact.sevens import value_by_sevens_left

    r = Rules(decks=1, hole_card=hole_card)
    plays = {u: "split" if 2 <= u <= 7 else "hit" for u in range(1, 11)}
    want = _strategy_play_by_enumeration(r, n, s, plays)
    assert value_by_sevens_left(r, n, s, plays) == pytest.approx(want, rel=1e-12)
    assert value_by_sevens_left(r, n, s) != pytest.approx(want, rel=1e-3)


@pytest.mark.parametrize("hole_card", ["none", "peek"])
@pytest.mark.parametrize("strategy", ["basic", "basic-super-sevens"])
def test_super_sevens_by_sevens_left_of_a_7_7_play_is_exact_on_a_full_shoe(strategy, hole_card):
    from simulator.exact.sevens import moment_by_sevens_left, sevens_plays, super_sevens
    from simulator.strategy import load_strategy

    r = Rules(hole_card=hole_card, super_sevens=True)
    st = load_strategy(strategy)
    ex = super_sevens(r, st)
    plays = sevens_plays(r, st)
    assert moment_by_sevens_left(r, 312, 24, 1, plays) == pytest.approx(ex["ev"], abs=1e-12)
    assert moment_by_sevens_left(r, 312, 24, 2, plays) == pytest.approx(
        sum(x["probability"] * x["pays"] ** 2 for x in ex["lines"].values()), rel=1e-12)


@pytest.mark.parametrize("hole_card", ["none", "peek"])
def test_a_surrendered_7_7_is_settled_on_its_two_sevens_by_the_sevens_left(hole_card):
    # Under surrender a chart may surrender 7-7 (against 10 and A under early surrender): no
    # third card, as a stand; it had been valued as a hit, a third card dealt.
    from simulator.exact.sevens import super_sevens, value_by_sevens_left

    plays = {u: "split" if 2 <= u <= 7 else "hit" if u in (8, 9) else "surrender"
             for u in range(1, 11)}
    r = Rules(decks=1, hole_card=hole_card, surrender="early")
    for n, s in ((6, 3), (7, 4)):
        want = _strategy_play_by_enumeration(r, n, s, plays)
        assert value_by_sevens_left(r, n, s, plays) == pytest.approx(want, rel=1e-12)
    six = Rules(hole_card=hole_card, surrender="early", super_sevens=True)
    assert value_by_sevens_left(six, 312, 24, plays) == pytest.approx(
        super_sevens(six, plays)["ev"], abs=1e-12)


def test_a_count_whose_shoe_cannot_hold_the_hand_is_not_valued():
    # An index reviewer: at half a deck 10,2 v 2 was valued at +5 to +10 on shoes holding -0.12
    # to -0.34 twos once the hand and up card were dealt, and the 1-deck 12 v 2 index (+6) was
    # read between them. Such a count is not valued: the scan stops below it.
    with pytest.raises(X.NoSuchShoe):
        X.action_values(Rules(), HI_LO.tags, 0.5, 6, (10, 2), 2)
    X.action_values(Rules(), HI_LO.tags, 0.5, 0, (10, 2), 2)  # (within: valued)
    assert X.crossing(Rules(decks=1), HI_LO.tags, (10, 2), 2, "hit", "stand", 0.5) is None
    plays = X.derive_indices(Rules(decks=1), HI_LO, workers=1)
    gone = [p["name"] for p in plays if p["index"] is None]
    assert "12 v 2" in gone and "16 v 10" not in gone
    text = X.dumps_indices(plays, "one", Rules(decks=1), HI_LO, 0.5)
    assert ("true count from -10 to +10 (as far as a shoe of 0.5 decks holds the play's "
            "cards)") in text
    one = X.dumps_indices(plays, "one", Rules(decks=2), HI_LO, 1.0)
    assert "1 deck left" in one and "1 decks" not in one


def test_an_index_files_description_names_the_rule_keys_that_move_its_plays():
    # An index reviewer: files for insurance paying 3 to 1 (insurance index -8) and for the NZ
    # game (+3) had the same description; the US file's left out its four hands
    from simulator.exact.indices import rules_words

    words = rules_words(HI_LO, Rules(insurance_pays=3.0))
    assert words.endswith("S17, double hard, insurance_pays 3"), words
    us = rules_words(HI_LO, Rules(hole_card="peek", double_on="any", max_hands=4,
                                   super_sevens=False))
    assert us == "hi-lo index plays for 6 decks, hole card peek, S17, double any, max_hands 4"
    assert rules_words(HI_LO, Rules()).endswith("S17, double hard")  # (the shipped file's)


def test_a_scan_cut_short_below_0_does_not_say_always():
    # A last read: at a quarter deck the counts below 0 hold no 10,3 v 3, and stand, the better
    # play from the run's start (0) up, was written "index -99, played at every count"
    assert X.crossing(Rules(decks=1), HI_LO.tags, (10, 3), 3, "hit", "stand", 0.25) is None


def test_an_index_file_named_as_a_shipped_set_must_be_that_set(tmp_path):
    """As a count or plan file: a file named hi-lo-nz holding another count's plays was played
    and shown as "index plays: hi-lo-nz" (a plan author's review); one holding the shipped
    plays, as `bjsim strategy indices --name hi-lo-nz` writes them, is that set."""
    from simulator.index_plays import IndexFileError, load_indices

    shipped = (Path(__file__).resolve().parent.parent / "strategies" / "indices" /
               "hi-lo-nz.toml").read_text()
    same = tmp_path / "same.toml"
    same.write_text(shipped)
    assert set(load_indices(same).plays) == set(load_indices("hi-lo-nz").plays)
    other = tmp_path / "other.toml"
    other.write_text(shipped.replace('count = "hi-lo"', 'count = "zen"'))
    with pytest.raises(IndexFileError) as e:
        load_indices(other)
    assert str(e.value) == (f'{other}: name = "hi-lo-nz" names the shipped index set hi-lo-nz, '
                            "but its count = \"zen\" is not hi-lo: allowed another name for "
                            "other index plays (plans and reports know an index set by its "
                            "name)")
    moved = tmp_path / "moved.toml"
    moved.write_text(shipped.replace("index = 4\n", "index = 5\n", 1))
    with pytest.raises(IndexFileError, match="but its plays are not hi-lo-nz.s: allowed another"):
        load_indices(moved)
    unnamed = tmp_path / "hi-lo-nz.toml"  # (by its file's name, it having no name key)
    unnamed.write_text(shipped.replace('name = "hi-lo-nz"\n', "").replace("index = 4\n",
                                                                           "index = 5\n", 1))
    with pytest.raises(IndexFileError, match=r"\(the file's name: it has no 'name' key\)"):
        load_indices(unnamed)
    renamed = tmp_path / "mine.toml"
    renamed.write_text(shipped.replace('name = "hi-lo-nz"', 'name = "mine"'))
    assert load_indices(renamed).name == "mine"


def test_strategy_indices_refuses_a_shipped_set_s_name_for_other_plays(monkeypatch, tmp_path):
    """`strategy indices --name hi-lo-nz --set decks=2` wrote a file its own loader refused (a
    review): the name is refused where the plays are not the shipped set's, before any file."""
    from click.testing import CliRunner

    from simulator import rules as rules_module
    from simulator.cli import cli
    from simulator.exact import indices
    from simulator.index_plays import name_refused

    shipped = (Path(__file__).resolve().parent.parent / "strategies" / "indices" /
               "hi-lo-nz.toml").read_text()
    assert name_refused(shipped, "hi-lo-nz") is None
    assert name_refused(shipped.replace("index = 4\n", "index = 5\n", 1), "mine") is None
    assert name_refused(shipped.replace("index = 4\n", "index = 5\n", 1), "hi-lo-nz") == (
        "--name hi-lo-nz: names the shipped index set hi-lo-nz, whose plays these are not (its "
        "plays are others): allowed another name (plans and reports know an index set by its "
        "name, and would refuse the file)")
    assert "(its count is hi-lo, theirs zen)" in name_refused(
        shipped.replace('count = "hi-lo"', 'count = "zen"'), "hi-lo-nz")
    # the shipped file itself may be made again with other plays of its count, not another's
    moved = shipped.replace("index = 4\n", "index = 5\n", 1)
    assert name_refused(moved, "hi-lo-nz", own_file=True) is None
    assert "(its count is hi-lo, theirs zen)" in name_refused(
        shipped.replace('count = "hi-lo"', 'count = "zen"'), "hi-lo-nz", own_file=True)
    from simulator.index_plays import INDEX_DIR, is_shipped_file

    assert is_shipped_file(str(INDEX_DIR / "hi-lo-nz.toml"), "hi-lo-nz")
    assert not is_shipped_file(str(INDEX_DIR / "mine.toml"), "hi-lo-nz")  # (a review)
    monkeypatch.setattr(indices, "derive_indices", lambda *_a, **_k: [])  # (no play: others)
    out = tmp_path / "x.toml"
    result = CliRunner().invoke(cli, ["strategy", "indices", "-q", "--set", "decks=2", "--name",
                                      "hi-lo-nz", "-o", str(out)])
    assert result.exit_code == 2 and not out.exists()
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]  # (one line, no usage)
    assert lines == ["Error: --name hi-lo-nz: names the shipped index set hi-lo-nz, whose plays "
                     "these are not (its plays are others): allowed another name (plans and "
                     "reports know an index set by its name, and would refuse the file)"]
    # no --name: the default from a rule file named "nz" is the shipped set's name, said so
    nz = tmp_path / "nz.toml"
    text = rules_module.DEFAULT_RULES_PATH.read_text()
    nz.write_text(text.replace('name = "nz1994"', 'name = "nz"').replace("decks = 6", "decks = 2"))
    result = CliRunner().invoke(cli, ["strategy", "indices", "-q", "--rules", str(nz)])
    assert result.exit_code == 2 and "Error: the default name hi-lo-nz (the count's and the " \
        "rule set's) names the shipped index set" in result.stderr, result.stderr
    assert "allowed another name, by --name" in result.stderr


def test_an_index_row_out_of_range_as_a_float_is_not_suggested_as_a_whole_number(tmp_path):
    # (a last read: row = 25.0 suggested row = 25, itself refused)
    from simulator.index_plays import IndexFileError, load_indices

    path = _one_play(tmp_path, row=25.0)
    with pytest.raises(IndexFileError) as err:
        load_indices(path)
    assert str(err.value) == f"{path}: play 1: row = 25.0: allowed a total 4-20"
