"""The exact analyzer's results kept: once for every cut card, shuffle and number of boxes, one
process computing a kept result at a time, and hand trees shared by strategies with the same
hit/stand rows giving the figures that fresh trees give."""

import importlib
import threading
import time

from simulator.exact import cache
from simulator.exact.player import Tables
from simulator.rules import Rules
from simulator.strategy import load_strategy

A = importlib.import_module("simulator.exact.analyze")
X = importlib.import_module("simulator.exact.compare")


def test_figures_are_computed_once_for_every_cut_card_shuffle_and_number_of_boxes(
        monkeypatch, tmp_path):
    monkeypatch.setenv("BJSIM_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(A, "_ANALYSES", {})
    made = []
    real = X._exact_figures
    monkeypatch.setattr(X, "_exact_figures", lambda r, s: made.append(r) or real(r, s))
    never_bust = load_strategy("never-bust")  # (a strategy no other test values at 1 deck)
    one, _ = X.exact_figures(Rules(decks=1, super_sevens=False), never_bust)
    three, _ = X.exact_figures(Rules(decks=1, super_sevens=False, penetration=0.6,
                                     shuffle="every-round", boxes=3), never_bust)
    assert len(made) == 1 and made[0].boxes == 1
    assert three["house_edge"] == one["house_edge"] and three["sd_box_round"] == one["sd_box_round"]
    assert (one["boxes"], three["boxes"]) == (1, 3)
    assert one["sd_round"] == one["sd_box_round"] and three["sd_round"] is None
    assert one["per_box_note"] is None and "3 boxes" in three["per_box_note"]
    monkeypatch.setattr(A, "_ANALYSES", {})  # a new process: from the disk, under one key
    X.exact_figures(Rules(decks=1, super_sevens=False, boxes=7), never_bust)
    assert len(made) == 1 and len(list(tmp_path.glob("figures-*.pickle"))) == 1


def test_a_second_process_waits_for_the_first_to_compute_a_kept_result(tmp_path):
    # flock locks an open file, so two threads opening the lock file exclude each other as two
    # processes would
    path, order, inside = tmp_path / "figures-x.pickle", [], threading.Event()

    def first():
        with cache.one_at_a_time(path):
            inside.set()
            time.sleep(0.3)
            order.append("first done")

    t = threading.Thread(target=first)
    t.start()
    inside.wait(5)
    with cache.one_at_a_time(path):
        order.append("second in")
    t.join()
    assert order == ["first done", "second in"]


def test_strategies_with_one_hit_stand_chart_share_trees_and_get_fresh_trees_figures(
        monkeypatch):
    monkeypatch.setattr(A, "_TREES", {})
    rules = Rules(decks=2, dealer_hits_soft_17=True)
    derived, _ = A.derive(rules)
    kept, ups = A.evaluate(rules, derived)
    insurer = Tables(derived.hard, derived.soft, derived.pairs, derived.sevens, insurance=True)
    assert A.evaluate(rules, insurer)[1] is ups  # the same rows: the same trees
    monkeypatch.setattr(A, "_TREES", {})
    fresh, fresh_ups = A.evaluate(rules, derived)
    assert fresh_ups is not ups
    assert repr(fresh) == repr(kept)  # every figure and hand, bit for bit


def test_a_cache_folder_that_cannot_be_written_is_said_once(tmp_path, monkeypatch, capsys):
    # BJSIM_CACHE_DIR naming a file: nothing can be kept, and stderr says so once a process
    not_a_folder = tmp_path / "cachefile"
    not_a_folder.write_text("")
    monkeypatch.setenv(cache.CACHE_ENV, str(not_a_folder))
    monkeypatch.setattr(cache, "_WARNED", [])
    assert not cache.write_atomic(cache.cache_dir() / "a" / "x.json", "{}")
    assert not cache.write_atomic(cache.cache_dir() / "b" / "y.json", "{}")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"bjsim: the cache folder {not_a_folder} "
                                                   "cannot be written (")
    assert "results are not kept" in err and cache.CACHE_ENV in err
    ok = tmp_path / "ok"
    monkeypatch.setenv(cache.CACHE_ENV, str(ok))
    assert cache.write_atomic(cache.cache_dir() / "x.json", "{}")
    assert capsys.readouterr().err == ""


def test_a_cache_folder_that_is_a_file_is_said_to_be_one(tmp_path, monkeypatch, capsys):
    # It said "the cache folder somefile cannot be written (File exists)".
    somefile = tmp_path / "somefile"
    somefile.write_text("")
    for folder, why in ((somefile, "it is a file, not a folder"),
                        (somefile / "sub", f"{somefile}, above it, is a file, not a folder")):
        monkeypatch.setenv(cache.CACHE_ENV, str(folder))
        monkeypatch.setattr(cache, "_WARNED", [])
        assert not cache.write_atomic(cache.cache_dir() / "x.json", "{}")
        assert capsys.readouterr().err.startswith(
            f"bjsim: the cache folder {folder} cannot be written ({why}): results are not kept")


def test_a_folder_in_a_cache_files_place_is_named_not_the_cache_folder(tmp_path, monkeypatch,
                                                                        capsys):
    """An environment review: a folder where a cache file goes was said as the cache folder
    being unwritable (Is a directory), though the folder can be written."""
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(cache, "_WARNED", [])
    (tmp_path / "basic-x.toml").mkdir()
    assert not cache.write_atomic(tmp_path / "basic-x.toml", "x")
    assert capsys.readouterr().err == (
        f"bjsim: the cache file {tmp_path / 'basic-x.toml'} cannot be written (a folder is in "
        "its place): this result is not kept (remove that folder)\n")
    assert cache.write_atomic(tmp_path / "other.toml", "x")  # (the folder itself is fine)


def test_a_slow_results_line_says_it_is_not_kept_where_the_cache_cannot_be_written(
        tmp_path, monkeypatch):
    # "deriving ... (exact analyzer, a few seconds; then cached)" under a cache folder that is a
    # file, the next line saying nothing can be kept there
    from click.testing import CliRunner

    from simulator.cli import cli

    somefile = tmp_path / "somefile"
    somefile.write_text("")
    monkeypatch.setattr(cache, "_WARNED", [])
    for folder, said in ((somefile, "not kept: the cache folder cannot be written"),
                         (tmp_path / "fresh", "then cached")):
        monkeypatch.setenv(cache.CACHE_ENV, str(folder))
        assert cache.then_kept() == said
        result = CliRunner().invoke(cli, ["simulate", "--set", "decks=2", "-n", "2000"])
        assert result.exit_code == 0, result.output
        assert f"(exact analyzer, a few seconds; {said})" in result.stderr, result.stderr
