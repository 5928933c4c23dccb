"""Count systems as data, the true count, and the advantage-player figures."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator import counting as C

# One deck by value: four of each A..9, sixteen ten-valued cards.
DECK = [4] * 9 + [16]


def test_every_shipped_count_loads_and_its_balance_is_what_its_description_says():
    names = C.list_counts()
    assert {"hi-lo", "ko", "hi-opt-ii", "zen", "omega-ii", "sevens"} <= set(names)
    for name in names:
        system = C.load_count(name)
        assert system.name == name and len(system.tags) == 10
        assert system.per_deck == sum(n * t for n, t in zip(DECK, system.tags, strict=True))
        assert ("Unbalanced" in system.description) == (not system.balanced), name


def test_a_full_pass_through_the_shoe_ends_on_the_balanced_count():
    # Every card of a 6-deck shoe seen: a balanced count ends at zero, KO at +4 (its pivot).
    for name in C.list_counts():
        s = C.load_count(name)
        rc = s.initial_running_count(6) + 6 * sum(n * t for n, t in zip(DECK, s.tags, strict=True))
        assert rc == (4 if name == "ko" else 0), name


def test_hi_lo_tags_as_published():
    assert C.load_count("hi-lo").tags == (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)
    assert C.load_count("ko").initial_running_count(6) == -20


def test_sevens_true_count_is_linear_in_the_sevens_left():
    # With s sevens among R cards left, the running count is 13 s - R (balanced), so the true
    # count t per deck remaining means 4 + t / 13 sevens a deck.
    s = C.load_count("sevens")
    decks, seen_sevens, seen_other = 6, 10, 90  # 100 cards seen, 10 of them sevens
    rc = seen_sevens * s.tags[6] + seen_other * 1
    left = 312 - 100
    sevens_left = 24 - seen_sevens
    assert rc == 13 * sevens_left - left
    tc = C.true_count(rc, left)
    assert 52 * sevens_left / left == pytest.approx(4 + tc / 13)
    assert decks == 6


@pytest.mark.parametrize("cards, resolution, want", [
    (312, "exact", 6.0), (100, "exact", 100 / 52), (100, "half", 2.0), (80, "half", 1.5),
    (100, "whole", 2.0), (10, "whole", 1.0), (10, "half", 0.5), (77, "whole", 1.0),
])
def test_decks_remaining_by_resolution(cards, resolution, want):
    assert C.decks_remaining(cards, resolution) == pytest.approx(want)


@pytest.mark.parametrize("data, words", [
    ({}, "key 'tags' is missing"),
    ({"tags": [1] * 9}, "not a list of 10 integers"),
    ({"tags": [1.5] * 10}, "not a list of 10 integers"),
    ({"tags": [True] * 10}, "not a list of 10 integers"),
    ({"tags": [0] * 10}, "not all zero"),
    ({"tags": [1000] * 10}, "-100 to 100"),
    ({"tags": [1] * 10, "colour": "red"}, "unknown key 'colour'"),
    ({"tags": [1] * 10, "irc_constant": 1.5}, "key 'irc_constant' = 1.5 is not an integer"),
    # (a review: "= 20000 is not an integer", where rule files say "is out of range")
    ({"tags": [1] * 10, "irc_per_deck": 20000}, "key 'irc_per_deck' = 20000 is out of range: "
     "allowed an integer -10000 to 10000"),
    ({"tags": [1] * 10, "name": 3}, "key 'name' = 3 is not a string: allowed a name"),
    ({"tags": [1] * 10, "description": 3}, "key 'description' = 3 is not a string: allowed a "
     "string"),
    # shown as TOML writes them, not as Python's True and 1.5 in a repr cut at 40 characters
    ({"tags": [True] * 10}, "key 'tags' = \\[true, true, true"),
    ({"tags": [1] * 10, "irc_constant": {"n": 6}}, "key 'irc_constant' = {n = 6} is not an "),
    # an unbalanced count's running count silently started at 0 (KO's pivot 24 counts off)
    ({"tags": [-1, 1, 1, 1, 1, 1, 1, 0, 0, -1]}, "an unbalanced count \\(its tags sum to \\+4 a "
     "deck\\) needs its initial running count: irc_per_deck, irc_constant or both"),
])
def test_bad_count_systems_give_one_line_naming_the_key(data, words):
    with pytest.raises(C.CountError, match=words) as err:
        C.count_from_dict(data, "x.toml")
    assert "\n" not in str(err.value) and str(err.value).startswith("x.toml: ")


ZEN_TAGS = "[-1, 1, 1, 2, 2, 2, 1, 0, 0, -2]"


@pytest.mark.parametrize("text, words", [
    # Zen's tags under Hi-Lo's name: a plan playing hi-lo-nz ran Hi-Lo's indices on a Zen count
    (f'name = "hi-lo"\ntags = {ZEN_TAGS}\n', 'name = "hi-lo" names the shipped count hi-lo, '
     f"but its tags = {ZEN_TAGS} are not hi-lo's [-1, 1, 1, 1, 1, 1, 0, 0, 0, -1]: allowed "
     "another name for another count (index plays and reports know a count by its name)"),
    ('name = "ko"\ntags = [-1, 1, 1, 1, 1, 1, 1, 0, 0, -1]\nirc_per_deck = -4\n',
     'name = "ko" names the shipped count ko, but its irc_constant = 0 is not ko\'s 4'),
])
def test_a_count_file_cannot_pass_for_a_shipped_count_of_another_tally(tmp_path, text, words):
    path = tmp_path / "mine.toml"
    path.write_text(text)
    with pytest.raises(C.CountError) as err:
        C.load_count(path)
    assert str(err.value).startswith(f"{path}: {words}") and "\n" not in str(err.value)


def test_a_count_file_named_by_its_file_name_cannot_pass_for_a_shipped_count(tmp_path):
    path = tmp_path / "hi-lo.toml"  # no name key: its name is the file's
    path.write_text(f"tags = {ZEN_TAGS}\n")
    with pytest.raises(C.CountError, match=r"hi-lo.toml: name = \"hi-lo\" \(the file's name: it "
                       r"has no 'name' key\) names the shipped count hi-lo, but its tags"):
        C.load_count(path)


def test_a_copy_of_a_shipped_count_or_another_name_loads(tmp_path):
    for name in C.list_counts():  # the same count under its own name: the same system
        path = tmp_path / f"{name}.toml"
        path.write_text((C.COUNT_DIR / f"{name}.toml").read_text())
        assert C.load_count(path) == C.load_count(name)
    path = tmp_path / "myzen.toml"
    path.write_text(f'name = "my-zen"\ntags = {ZEN_TAGS}\n')
    assert C.load_count(path).name == "my-zen"


def test_a_balanced_count_with_a_starting_count_is_refused_naming_the_keys():
    # It was taken, and every true count shifted by the start over the decks left.
    hi_lo = [-1, 1, 1, 1, 1, 1, 0, 0, 0, -1]
    with pytest.raises(C.CountError) as err:
        C.count_from_dict({"tags": hi_lo, "irc_per_deck": 3, "irc_constant": 2}, "x.toml")
    assert str(err.value) == (
        "x.toml: irc_per_deck = 3 and irc_constant = 2: a balanced count (its tags sum to 0 a "
        "deck) starts at 0: allowed 0 or left out (irc_per_deck and irc_constant are for an "
        "unbalanced count)")
    with pytest.raises(C.CountError, match="x.toml: irc_constant = -1: a balanced count"):
        C.count_from_dict({"tags": hi_lo, "irc_constant": -1}, "x.toml")
    assert C.count_from_dict({"tags": hi_lo, "irc_per_deck": 0, "irc_constant": 0}).balanced


def test_unknown_and_malformed_count_files(tmp_path):
    with pytest.raises(C.CountError,
                       match="unknown count system 'hilo': did you mean 'hi-lo'\\? allowed "
                             ".*hi-lo"):
        C.load_count("hilo")
    bad = tmp_path / "bad.toml"
    bad.write_text("tags = [1, 2")
    with pytest.raises(C.CountError, match="not valid TOML"):
        C.load_count(bad)
    bad.write_bytes(b"\xff\xfe tags")
    with pytest.raises(C.CountError, match="line 1: not valid UTF-8 text"):
        C.load_count(bad)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text(max_size=8), st.one_of(st.integers(), st.text(max_size=5),
       st.lists(st.integers(-200, 200), max_size=12), st.floats(allow_nan=True)), max_size=5))
def test_random_count_dicts_load_or_fail_with_one_line(data):
    try:
        s = C.count_from_dict(data, "r.toml")
    except C.CountError as err:
        assert "\n" not in str(err)
    else:
        assert len(s.tags) == 10


def test_score_n0_and_risk_of_ruin():
    # A 1% edge with an SD of 1.15 per round: N0 = 13,225 rounds, SCORE = 75.6.
    assert C.n0(0.01, 1.15) == pytest.approx(13_225)
    assert C.score(0.01, 1.15) == pytest.approx(1e6 * (0.01 / 1.15) ** 2)
    assert C.score(0.01, 1.15) == pytest.approx(100 * 0.01 * 10_000 * 0.01 / 1.15**2)
    assert C.risk_of_ruin(0.01, 1.15, 0) == 1.0
    assert C.risk_of_ruin(0.01, 1.15, 500) == pytest.approx(math.exp(-10 / 1.3225))
    assert C.risk_of_ruin(-0.005, 1.15, 10_000) == 1.0 and C.n0(-0.01, 1) is None
    # SCORE without an edge does not apply (it read 0, a figure), as N0
    assert C.score(-0.01, 1) is None and C.score(0.0, 1) is None


# ---------------------------------------------------------------------------------------------
# The risk of ruin from the distribution of a round's net (`adjustment`, the engine's nets)


def _nets(pairs) -> np.ndarray:
    """A counter's nets (``layout.N_NETS``) from ``(net in tenths, rounds)`` pairs."""
    from simulator import layout as L
    from simulator.kernel.count import net_bin

    out = np.zeros(L.N_NETS, np.int64)
    for x, n in pairs:
        out[net_bin.py_func(x)] += n
    return out


def test_a_net_has_its_own_bin_below_409_units_and_its_bins_middle_within_0_4_percent_above():
    from simulator import layout as L
    from simulator.kernel.count import net_bin

    values, bin_of = C.net_values(), net_bin.py_func
    assert values.size == L.N_NETS
    for x in (0, 1, -1, 15, -80, 4095, -4095):  # tenths: each its own bin, its value exact
        assert values[bin_of(x)] * 10 == x
    rng = np.random.default_rng(5)
    big = np.concatenate([rng.integers(4096, 10**7, 2000), 10 ** np.arange(4, 19),
                          2 ** np.arange(12, 63), 2 ** np.arange(13, 63) - 1])
    for x in big:
        for signed in (int(x), -int(x)):
            i = bin_of(signed)
            assert 2 * L.NET_EXACT - 1 <= i < L.N_NETS
            assert abs(values[i] * 10 - signed) <= 0.0040 * abs(signed), signed
            assert np.sign(values[i]) == np.sign(signed)
    # bins in order of their nets, each side: a larger net never in a lower bin
    ups = sorted(int(x) for x in big)
    assert [bin_of(x) for x in ups] == sorted(bin_of(x) for x in ups)


def test_the_adjustment_coefficient_gives_the_exact_ruin_of_a_two_point_walk():
    # +1 with chance p, -1 with chance q: the chance of ever losing B units is (q / p)^B, and
    # exp(-R) = q / p exactly (Lundberg's bound holds with equality: no overshoot)
    for p, bankroll in ((0.6, 10), (0.51, 100), (0.9, 3)):
        nets = _nets([(10, round(p * 1000)), (-10, round((1 - p) * 1000))])
        assert math.exp(-C.adjustment(nets) * bankroll) == pytest.approx(
            ((1 - p) / p) ** bankroll, rel=1e-9)
    assert C.adjustment(_nets([(10, 1), (-10, 1)])) == 0.0  # no edge: ruin certain
    assert C.adjustment(_nets([(10, 1), (0, 3)])) == math.inf  # no round loses
    assert C.adjustment(_nets([])) is None
    # the mean given moves every net alike: +1/-1 moved by +0.2 is +1.2/-0.8 at even chances
    moved = C.adjustment(_nets([(10, 1), (-10, 1)]), mean=0.2)
    assert 0.5 * math.exp(-1.2 * moved) + 0.5 * math.exp(0.8 * moved) == pytest.approx(1.0)


def test_the_adjustment_coefficient_of_near_normal_rounds_is_the_diffusion_formulas():
    # rounds of a discretized normal (tenths): R within 0.5% of 2 m / s^2
    x = np.arange(-200, 201)
    for m, s in ((1.0, 30.0), (0.3, 12.0)):
        weights = np.exp(-0.5 * ((x - m) / s) ** 2)
        nets = _nets(zip(x.tolist(), np.rint(weights * 1e9).astype(np.int64).tolist(),
                         strict=True))
        mean, var = (x @ weights) / weights.sum() / 10, ((x / 10) ** 2 @ weights) / weights.sum()
        assert C.adjustment(nets) == pytest.approx(2 * mean / (var - mean**2), rel=0.005)


def test_the_risk_of_ruin_from_the_nets_bounds_a_simulated_walk_with_rare_big_wins():
    # A round like a Super Sevens bettor's: mostly -1 or +1, rarely a big win. Independent
    # rounds simulated here (the test's own walk) are ruined in a share of walks between the
    # bounds exp(-R (B + 1)) and exp(-R B), within 4 SEs of that share.
    pairs = [(-10, 5200), (10, 4700), (500, 95), (5000, 5)]  # mean +0.675 units, SD 12.2
    nets = _nets(pairs)
    values = np.array([x / 10 for x, _ in pairs])
    chances = np.array([n for _, n in pairs], float) / sum(n for _, n in pairs)
    bankroll, walks, horizon = 10, 4000, 4000  # (a walk past 4,000 rounds: 2,700 units up)
    r = C.adjustment(nets)
    diffusion = math.exp(-2 * (chances @ values) * bankroll / (
        chances @ values**2 - (chances @ values) ** 2))
    rng = np.random.default_rng(2026)
    steps = rng.choice(values, size=(walks, horizon), p=chances)
    ruined = ((bankroll + np.cumsum(steps, axis=1)) <= 0).any(axis=1).mean()
    se = math.sqrt(ruined * (1 - ruined) / walks)
    assert math.exp(-r * (bankroll + 1)) - 4 * se <= ruined <= math.exp(-r * bankroll) + 4 * se
    assert 0.33 < math.exp(-r * bankroll) < 0.37 and diffusion > 0.9  # (far above it)
