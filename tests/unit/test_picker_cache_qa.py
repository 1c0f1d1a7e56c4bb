"""The drill picker's cache against what a user does to a drill folder: a folder given twice, a symbolic link loop
among the drills, a file edited while it is being read to be opened. Each start is a new Services, as each
`warroom` is a new process."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from picker_cache_support import drill_copy, record_reads, small_bundled_library

import warroom.tui.logic._services as services_module
from warroom.core.files import real_path
from warroom.core.library import DrillCard, FolderCache, find_drill_files
from warroom.core.library import _cache as cardcache
from warroom.core.load import DrillReadError
from warroom.core.load import _loader as loader
from warroom.tui.logic import Services, load_entry


@pytest.fixture(autouse=True)
def _small_bundled(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    small_bundled_library(monkeypatch, tmp_path_factory.mktemp("bundled") / "drills")


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the drill files the catalog reads from here on (bundled drills left out)."""
    return record_reads(monkeypatch)

@pytest.fixture
def library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(cardcache, "RECENT_NS", -1)  # the files were written a moment ago: cache them anyway
    folder = tmp_path / "library"
    folder.mkdir()
    for stem in ("alpha", "beta"):
        drill_copy(folder, stem)
    return folder


def _services(tmp_path: Path, *folders: Path) -> Services:
    return Services(trainee="t", data_dir=tmp_path / "data", drill_dirs=folders, cache_dir=tmp_path / "cache")


def _mine(entries, library: Path) -> list[str]:
    return [e.path.name for e in entries if os.path.realpath(e.path.parent) == os.path.realpath(library)]


@pytest.mark.parametrize("again", ["same", "absolute", "dot-dot", "symlink"])
def test_a_folder_given_twice_keeps_its_cache(tmp_path, library, reads, again, monkeypatch):
    """`--drills lib --drills lib` (or another spelling of it) listed the drills once but then wrote the folder's
    cache file again with no records: every later start read every drill."""
    monkeypatch.chdir(tmp_path)
    other = {
        "same": Path("library"),
        "absolute": library,
        "dot-dot": Path("library") / ".." / "library",
        "symlink": tmp_path / "link",
    }[again]
    if again == "symlink":
        other.symlink_to(library, target_is_directory=True)
    assert _mine(_services(tmp_path, Path("library"), other).catalog(), library) == ["alpha.yaml", "beta.yaml"]
    assert sorted(Path(p).name for p in FolderCache(tmp_path / "cache", library).read()) == ["alpha.yaml", "beta.yaml"]
    reads.clear()
    again_listed = _services(tmp_path, Path("library"), other).catalog()
    assert _mine(again_listed, library) == ["alpha.yaml", "beta.yaml"]
    assert reads == []  # listed from the cache, not read again


def test_a_symbolic_link_loop_among_the_drills_is_listed_as_a_problem_not_a_crash(tmp_path, library):
    """`a.yaml -> b.yaml -> a.yaml` in a --drills folder: Path.resolve raised RuntimeError (Python 3.11, 3.12) and
    the picker's worker crashed warroom with a traceback."""
    (library / "a.yaml").symlink_to("b.yaml")
    (library / "b.yaml").symlink_to("a.yaml")
    assert real_path(library / "a.yaml") == library / "a.yaml"
    assert find_drill_files([library]) == [library / name for name in ("a.yaml", "alpha.yaml", "b.yaml", "beta.yaml")]
    for _ in range(2):  # the first start and one listed from the cache
        entries = {e.path.name: e for e in _services(tmp_path, library).catalog() if e.path.parent == library}
        assert sorted(entries) == ["a.yaml", "alpha.yaml", "b.yaml", "beta.yaml"]
        assert entries["a.yaml"].card is None
        assert entries["a.yaml"].problems == (f"{library / 'a.yaml'}:1:1: a symbolic link that leads round in a "
                                              "loop, to no file: point it at a drill file or remove it",)  # fmt: skip
        assert entries["alpha.yaml"].ok and entries["beta.yaml"].ok


def test_a_drill_edited_while_it_is_read_to_be_opened_is_read_again(tmp_path, library, monkeypatch):
    """open_entry took the file's stamp after reading it: an edit landing during the read was recorded as read, so
    this process (and, once settled, the cache file) kept listing the old title for the edited file."""
    path = library / "alpha.yaml"
    services = _services(tmp_path, library)
    entry = next(e for e in services.catalog() if e.path == path)
    real = services_module.load_entry

    def load_then_edited(p: Path):
        read = real(p)
        drill_copy(library, "alpha", title="Edited meanwhile")  # saved by an editor just after the read
        return read

    monkeypatch.setattr(services_module, "load_entry", load_then_edited)
    assert services.open_entry(entry).card.title == entry.card.title
    monkeypatch.setattr(services_module, "load_entry", real)
    listed = next(e for e in services.catalog() if e.path == path)
    assert listed.card.title.startswith("Edited meanwhile")
    later = next(e for e in _services(tmp_path, library).catalog() if e.path == path)
    assert later.card.title.startswith("Edited meanwhile")


@pytest.mark.parametrize(
    ("field", "value"),
    [("difficulty", 10**9), ("difficulty", 0), ("version", 0), ("version", 10**12), ("duration", 1e300),
     ("duration", 10**7)],
)  # fmt: skip
def test_a_cache_file_edited_to_numbers_no_drill_has_is_ignored(tmp_path, library, reads, field, value):
    """A record whose difficulty was edited to 10**9 was used: the picker drew "★" * 10**9 and hung, eating GBs."""
    first = {e.path.name: e.card for e in _services(tmp_path, library).catalog() if e.path.parent == library}
    cache = FolderCache(tmp_path / "cache", library)
    data = json.loads(cache.path.read_text(encoding="utf-8"))
    data["files"][0]["card"][field] = value
    cache.path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match=field):
        DrillCard.from_json(data["files"][0]["card"])
    assert cache.read() == {}
    reads.clear()
    now = {e.path.name: e.card for e in _services(tmp_path, library).catalog() if e.path.parent == library}
    assert sorted(reads) == ["alpha.yaml", "beta.yaml"] and now == first  # read again, as they are
    assert now["alpha.yaml"].difficulty == 2 and now["alpha.yaml"].version == 2
    assert [r.card for r in cache.read().values()] == [first["alpha.yaml"], first["beta.yaml"]]  # rewritten true


@pytest.mark.parametrize("failure", ["I/O error", "out of memory"])
def test_a_read_that_failed_for_a_while_is_not_kept(tmp_path, library, reads, monkeypatch, failure):
    """A drill file that could not be read once (an I/O error, too many open files, the loader out of memory) was
    listed as "cannot load" at every later start, and at `r`, though the file never changed."""
    alpha = library / "alpha.yaml"
    real_open = os.open

    def failing_open(file, *args, **kwargs):  # every drill file is opened by core.files.open_regular's os.open
        if isinstance(file, (str, os.PathLike)) and os.fspath(file) == str(alpha):
            raise OSError(errno.EIO, "Input/output error")
        return real_open(file, *args, **kwargs)

    def failing_load(text, path="<string>"):
        if Path(path) == alpha:
            raise MemoryError()
        return real_load(text, path)

    real_load = loader.load_drill_text_with_warnings
    with monkeypatch.context() as patch:
        if failure == "I/O error":
            patch.setattr(os, "open", failing_open)
        else:
            patch.setattr(loader, "load_drill_text_with_warnings", failing_load)
        services = _services(tmp_path, library)
        broken = next(e for e in services.catalog() if e.path == alpha)
        assert broken.card is None and not broken.lasting
        why = "cannot read the file: Input/output error" if failure == "I/O error" else "cannot load this drill (Memory"
        assert broken.problems[0].startswith(f"{alpha}:1:1: {why}")
    assert [Path(p).name for p in FolderCache(tmp_path / "cache", library).read()] == ["beta.yaml"]
    reads.clear()
    again = next(e for e in services.catalog() if e.path == alpha)  # `r` in the same picker
    assert reads == ["alpha.yaml"] and again.ok and again.card.id == "alpha"
    later = next(e for e in _services(tmp_path, library).catalog() if e.path == alpha)  # the next start
    assert later.ok and later.card == again.card


def test_a_file_that_cannot_be_read_raises_drill_read_error(tmp_path, monkeypatch):
    path = drill_copy(tmp_path, "alpha")
    real_open = os.open

    def too_many_open(file, *args, **kwargs):  # every drill file is opened by core.files.open_regular's os.open
        if isinstance(file, (str, os.PathLike)) and os.fspath(file) == str(path):
            raise OSError(errno.EMFILE, "Too many open files")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", too_many_open)
    with pytest.raises(DrillReadError, match="cannot read the file: Too many open files"):
        loader.load_drill(path)
    assert not load_entry(path).lasting and load_entry(tmp_path / "missing.yaml").lasting


@pytest.mark.parametrize("what", ["python", "pydantic", "yaml"])
def test_a_cache_written_under_another_python_or_library_is_a_miss(tmp_path, library, reads, monkeypatch, what):
    """The same checkout run by another virtualenv (another Python, with other Unicode tables, another pydantic or
    PyYAML) kept the verdicts of the other loader: the code stamp covered only warroom.core's files."""
    import pydantic
    import yaml

    _services(tmp_path, library).catalog()
    before = cardcache.code_stamp()
    target, name, value = {
        "python": (cardcache.sys, "version", "3.99.0 (another interpreter)"),
        "pydantic": (pydantic, "VERSION", "9.9.9"),
        "yaml": (yaml, "__version__", "9.9"),
    }[what]
    monkeypatch.setattr(target, name, value)
    cardcache.code_stamp.cache_clear()
    try:
        assert cardcache.code_stamp() != before
        reads.clear()
        _services(tmp_path, library).catalog()
        assert sorted(reads) == ["alpha.yaml", "beta.yaml"]
    finally:
        monkeypatch.undo()
        cardcache.code_stamp.cache_clear()
    assert cardcache.code_stamp() == before


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="no user ids on this system")
def test_a_cache_file_of_another_user_is_not_read(tmp_path, library, reads, monkeypatch):
    """In a shared cache folder (WARROOM_CACHE_DIR=/tmp/...), another user's cache file, planted with a lying title
    and the drill files' stamps, was listed as the drills' titles and previews."""
    _services(tmp_path, library).catalog()
    cache = FolderCache(tmp_path / "cache", library)
    assert len(cache.read()) == 2
    me = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: me + 1)  # the file is now someone else's
    assert cache.read() == {}
    reads.clear()
    entries = {e.path.name: e for e in _services(tmp_path, library).catalog() if e.path.parent == library}
    assert sorted(reads) == ["alpha.yaml", "beta.yaml"] and all(e.drill is not None for e in entries.values())
    monkeypatch.setattr(os, "getuid", lambda: me)
    assert len(cache.read()) == 2
