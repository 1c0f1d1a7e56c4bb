"""The drill picker's cache between starts (warroom.core.library._cache, Services.catalog): each start is a new
Services, as
each `warroom` is a new process. A changed file is read again; a broken, foreign, old or unwritable cache is
ignored (and rewritten where it can be), never a crash nor a wrong drill; a drill is read from its file to be
opened."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from picker_cache_support import drill_copy, record_reads, small_bundled_library

from warroom.core.library import CachedFile, DrillCard, FolderCache, file_stamp
from warroom.core.library import _cache as cardcache
from warroom.tui.logic import Services


@pytest.fixture(autouse=True)
def _small_bundled(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    small_bundled_library(monkeypatch, tmp_path_factory.mktemp("bundled") / "drills")


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the drill files the catalog reads from here on (bundled drills left out)."""
    return record_reads(monkeypatch)

@pytest.fixture
def settled_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file counts as settled (a test's files were all written a moment ago)."""
    monkeypatch.setattr(cardcache, "RECENT_NS", -1)


@pytest.fixture
def library(tmp_path: Path, settled_now: None) -> Path:
    folder = tmp_path / "library"
    folder.mkdir()
    for stem in ("alpha", "beta", "gamma"):
        drill_copy(folder, stem)
    return folder


def start(tmp_path: Path, library: Path, cache: Path | None = None) -> dict[str, object]:
    """One `warroom` start's catalog of ``library`` (the bundled drills left out): file name -> entry."""
    services = Services(trainee="t", data_dir=tmp_path / "data", drill_dirs=(library,),
                        cache_dir=tmp_path / "cache" if cache is None else cache)  # fmt: skip
    return {e.path.name: e for e in services.catalog() if e.path.parent == library}


def _cache_file(tmp_path: Path, library: Path) -> Path:
    return FolderCache(tmp_path / "cache", library).path


def test_a_second_start_reads_no_drill_file_and_lists_the_same_drills(tmp_path, library, reads):
    first = start(tmp_path, library)
    assert sorted(reads) == ["alpha.yaml", "beta.yaml", "gamma.yaml"] and all(e.drill for e in first.values())
    reads.clear()
    second = start(tmp_path, library)
    assert reads == []
    assert {n: (e.card, e.problems) for n, e in second.items()} == {n: (e.card, e.problems) for n, e in first.items()}
    assert all(e.drill is None and e.ok for e in second.values())  # listed from the cache: no drill held


def test_edited_added_removed_and_renamed_files_show_as_they_are_now(tmp_path, library, reads):
    start(tmp_path, library)
    reads.clear()
    drill_copy(library, "beta", title="Edited")
    drill_copy(library, "delta")
    (library / "gamma.yaml").unlink()
    (library / "alpha.yaml").rename(library / "omega.yaml")
    now = start(tmp_path, library)
    assert sorted(reads) == ["beta.yaml", "delta.yaml", "omega.yaml"]  # only what changed is read
    assert sorted(now) == ["beta.yaml", "delta.yaml", "omega.yaml"]
    assert now["beta.yaml"].card.title == "Edited"
    assert any("does not match the file name `omega.yaml`" in p for p in now["omega.yaml"].problems)
    stored = FolderCache(tmp_path / "cache", library).read()
    assert sorted(Path(p).name for p in stored) == ["beta.yaml", "delta.yaml", "omega.yaml"]  # gamma is gone
    reads.clear()
    assert start(tmp_path, library)["beta.yaml"].card.title == "Edited" and reads == []


def test_a_broken_drills_problems_are_cached_too(tmp_path, library, reads):
    broken = library / "broken.yaml"
    broken.write_text("id: broken\ntitle: [unclosed\n", encoding="utf-8")
    first = start(tmp_path, library)["broken.yaml"]
    assert first.card is None and first.problems and first.problems[0].startswith(f"{broken}:")
    reads.clear()
    second = start(tmp_path, library)["broken.yaml"]
    assert reads == [] and second.card is None and second.problems == first.problems


@pytest.mark.parametrize(
    "damage",
    ["garbage", "truncated", "not a cache", "bad record", "a folder", "a fifo", "huge"],
)
def test_a_damaged_or_foreign_cache_is_ignored_and_rewritten(tmp_path, library, reads, damage, monkeypatch):
    start(tmp_path, library)
    path = _cache_file(tmp_path, library)
    good = path.read_text(encoding="utf-8")
    path.unlink()
    if damage == "garbage":
        path.write_bytes(b"\xff\x00\x9c not json at all")
    elif damage == "truncated":
        path.write_text(good[: len(good) // 2], encoding="utf-8")
    elif damage == "not a cache":
        path.write_text(json.dumps({"files": [], "something": "else"}), encoding="utf-8")
    elif damage == "bad record":
        data = json.loads(good)
        data["files"][0]["card"]["difficulty"] = True
        path.write_text(json.dumps(data), encoding="utf-8")
    elif damage == "a folder":
        path.mkdir()
    elif damage == "a fifo":
        os.mkfifo(path)
    else:
        monkeypatch.setattr(cardcache, "MAX_CACHE_BYTES", len(good) - 1)
        path.write_text(good, encoding="utf-8")
    reads.clear()
    now = start(tmp_path, library)
    assert sorted(reads) == ["alpha.yaml", "beta.yaml", "gamma.yaml"]  # everything read again
    assert sorted(now) == ["alpha.yaml", "beta.yaml", "gamma.yaml"] and all(e.ok and e.drill for e in now.values())
    if damage in ("a folder", "a fifo"):
        return  # nothing can be renamed over it: the picker works without a cache
    assert path.is_file() and path.read_text(encoding="utf-8") == good  # rewritten whole


def test_a_cache_of_another_version_is_not_used(tmp_path, library, reads, monkeypatch):
    installed = cardcache.__version__
    monkeypatch.setattr(cardcache, "__version__", "0.0.1")  # the cache an older warroom wrote
    start(tmp_path, library)
    monkeypatch.setattr(cardcache, "__version__", installed)
    reads.clear()
    start(tmp_path, library)
    assert sorted(reads) == ["alpha.yaml", "beta.yaml", "gamma.yaml"]
    assert json.loads(_cache_file(tmp_path, library).read_text())["warroom"] == installed


def test_a_cache_written_by_other_code_of_the_same_version_is_not_used(tmp_path, library, reads, monkeypatch):
    """A checkout updated in place keeps warroom's version number; the loader or the card may have changed."""
    current = cardcache.code_stamp
    monkeypatch.setattr(cardcache, "code_stamp", lambda: "code-before-git-pull")
    start(tmp_path, library)
    monkeypatch.setattr(cardcache, "code_stamp", current)
    reads.clear()
    start(tmp_path, library)
    assert sorted(reads) == ["alpha.yaml", "beta.yaml", "gamma.yaml"]
    assert json.loads(_cache_file(tmp_path, library).read_text())["code"] == cardcache.code_stamp()


def test_the_code_stamp_follows_the_core_modules(tmp_path, monkeypatch):
    core = tmp_path / "core"
    core.mkdir()
    (core / "loader.py").write_text("x = 1\n")
    monkeypatch.setattr(cardcache, "__file__", str(core / "cardcache.py"))
    cardcache.code_stamp.cache_clear()
    try:
        before = cardcache.code_stamp()
        cardcache.code_stamp.cache_clear()
        assert cardcache.code_stamp() == before  # nothing changed: the same stamp
        (core / "loader.py").write_text("x = 22\n")  # edited (another size)
        cardcache.code_stamp.cache_clear()
        assert cardcache.code_stamp() != before
    finally:
        cardcache.code_stamp.cache_clear()


def test_an_unwritable_cache_is_no_problem_and_a_read_only_cache_file_is_replaced(tmp_path, library):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache directory would be")
    assert sorted(start(tmp_path, library, cache=blocked)) == ["alpha.yaml", "beta.yaml", "gamma.yaml"]
    start(tmp_path, library)
    path = _cache_file(tmp_path, library)
    path.chmod(0o444)
    drill_copy(library, "delta")
    assert "delta.yaml" in start(tmp_path, library)
    assert len(FolderCache(tmp_path / "cache", library).read()) == 4


def test_a_file_modified_in_the_last_seconds_is_not_cached(tmp_path, monkeypatch):
    # "The last seconds" stretched to ten minutes: on a loaded machine more than the real 2 s passed between the copy
    # and the catalog's look at it, and the file was then rightly cached (a timing this test must not depend on).
    monkeypatch.setattr(cardcache, "RECENT_NS", 600 * 1_000_000_000)
    folder = tmp_path / "library"
    folder.mkdir()
    fresh = drill_copy(folder, "fresh")
    start(tmp_path, folder)
    assert FolderCache(tmp_path / "cache", folder).read() == {}  # just written: its times may not change again
    stamp = file_stamp(fresh)
    assert stamp is not None and not cardcache.settled(stamp)
    assert cardcache.settled(stamp, now_ns=max(stamp[1], stamp[2]) + cardcache.RECENT_NS + 1)


def test_a_cache_that_lies_never_makes_a_wrong_drill_played(tmp_path, library):
    """A record with the file's stamp but another card (a forged or stale cache) may list a wrong title; opening
    the drill reads the file, sees that it is not the drill listed, and refuses it (the picker reads again)."""
    start(tmp_path, library)
    cache = FolderCache(tmp_path / "cache", library)
    records = cache.read()
    alpha = records[str(library / "alpha.yaml")]
    forged = DrillCard.from_json({**alpha.card.to_json(), "title": "Forged"})
    cache.write([*(r for r in records.values() if r is not alpha), CachedFile(alpha.path, alpha.stamp, forged, ())])
    services = Services(trainee="t", data_dir=tmp_path / "data", drill_dirs=(library,), cache_dir=tmp_path / "cache")
    entry = next(e for e in services.catalog() if e.path.name == "alpha.yaml")
    assert entry.card.title == "Forged" and entry.drill is None and not services.is_current(entry)
    opened = services.open_entry(entry)
    assert not opened.ok and "changed since the list was read" in opened.problems[0]
    beta = next(e for e in services.catalog() if e.path.name == "beta.yaml")
    opened = services.open_entry(beta)
    assert opened.ok and opened.drill is not None and opened.drill.id == "beta" and opened.card == beta.card


def test_an_edit_after_listing_is_read_when_the_drill_is_opened(tmp_path, library):
    services = Services(trainee="t", data_dir=tmp_path / "data", drill_dirs=(library,), cache_dir=tmp_path / "cache")
    entry = next(e for e in services.catalog() if e.path.name == "gamma.yaml")
    assert services.is_current(entry)  # read by this start, unchanged
    text = entry.path.read_text(encoding="utf-8")
    entry.path.write_text(text.replace("\nauthor: ", "\nauthor: Someone else # ", 1), encoding="utf-8")
    assert not services.is_current(entry)
    opened = services.open_entry(entry)
    assert not opened.ok  # the author changed: not the drill listed


_WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from warroom.core.library._cache import CachedFile, FolderCache
    cache_dir, folder, tag, rounds = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    cache = FolderCache(cache_dir, folder)
    records = [CachedFile(f"{tag}-{i}.yaml", (i, 1, 2, 3), None, (f"{tag} problem {i} " + "x" * 2000,))
               for i in range(40)]
    for _ in range(rounds):
        assert cache.write(records)
    """
)


def test_two_starts_writing_the_cache_at_once_leave_one_whole_file(tmp_path):
    """Two processes rewrite one folder's cache file over and over while this one reads it: every read finds all
    of one writer's records (the last writer wins), never a mix or half a file; no temporary file is left."""
    folder, cache_dir = tmp_path / "library", tmp_path / "cache"
    folder.mkdir()
    writers = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(cache_dir), str(folder), tag, "150"])
        for tag in ("a", "b")
    ]
    cache = FolderCache(cache_dir, folder)
    seen = set()
    while any(w.poll() is None for w in writers):
        records = cache.read()
        tags = {Path(p).name.split("-")[0] for p in records}
        assert len(records) in (0, 40) and len(tags) <= 1, (len(records), tags)
        seen |= tags
    assert [w.wait() for w in writers] == [0, 0]
    final = cache.read()
    assert len(final) == 40 and {Path(p).name.split("-")[0] for p in final} in ({"a"}, {"b"})
    assert sorted(p.name for p in cache_dir.iterdir()) == [cache.path.name]
    assert seen  # the reader saw whole files while they were written
