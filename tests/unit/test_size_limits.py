"""Sizes are checked before reading, everywhere (issue 30, item 10): a 2 GiB drill set, a drill read through a set,
a roster, a file to migrate, a names file to redact, an export line: each is refused (or skipped) before its bytes
are read, so it costs no memory. The 2 GiB files are sparse (no disk used); memory is measured with tracemalloc."""

from __future__ import annotations

import json
import os
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from warroom.cli import main
from warroom.core.files import TooLarge, read_limited

GIB2 = 2 * 1024**3


def huge(path: Path, head: bytes = b"set: big\n") -> Path:
    """A sparse file of 2 GiB starting with ``head``."""
    with path.open("wb") as f:
        f.write(head)
        f.truncate(GIB2)
    return path


def peak_bytes(fn) -> tuple[object, int]:
    """``fn()``'s result (or the exception it raised) and the most memory Python allocated meanwhile."""
    tracemalloc.start()
    try:
        try:
            out: object = fn()
        except Exception as exc:
            out = exc
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_read_limited_refuses_before_reading_and_never_opens_a_fifo(tmp_path: Path):
    out, peak = peak_bytes(lambda: read_limited(huge(tmp_path / "big"), 1024))
    assert isinstance(out, TooLarge) and out.size == GIB2 and peak < 1_000_000
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="is a FIFO, not a regular file"):
        read_limited(fifo, 1024)
    (tmp_path / "ok").write_bytes(b"abc")
    assert read_limited(tmp_path / "ok", 3) == b"abc"


def test_a_2_gib_drill_set_is_refused_before_it_is_read(tmp_path: Path):
    from warroom.core.load import DrillSetError, load_drill_set

    path = huge(tmp_path / "week.set.yaml")
    out, peak = peak_bytes(lambda: load_drill_set(path))
    assert isinstance(out, DrillSetError) and "2,147,483,648 bytes; a drill set file is at most" in str(out)
    assert peak < 5_000_000
    for args in (["validate", str(path)], ["--set", str(path), "scores"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code != 0 and "Traceback" not in result.output, result.output


def test_a_huge_drill_read_through_a_set_is_refused_before_it_is_read(tmp_path: Path):
    """The set's rules that look across drill files find a drill's positions by reading it again (position_of):
    a 2 GiB drill is not read (and the loader refuses it before reading, as before)."""
    from warroom.core.load import DrillLoadError, load_drill, position_of

    drill = huge(tmp_path / "big.yaml", b"id: big\n")
    out, peak = peak_bytes(lambda: position_of(drill, ("id",)))
    assert out == (1, 1) and peak < 5_000_000
    out, peak = peak_bytes(lambda: load_drill(drill))
    assert isinstance(out, DrillLoadError) and peak < 5_000_000
    (tmp_path / "week.set.yaml").write_text("set: week\ntitle: A week\ndrills: [big]\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["--drills", str(tmp_path), "validate", str(tmp_path / "week.set.yaml")])
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_a_2_gib_roster_names_file_or_drill_to_migrate_is_refused_before_it_is_read(tmp_path: Path):
    from warroom.core.author import migrate_file
    from warroom.core.load import DrillLoadError
    from warroom.importers.kit import read_names
    from warroom.serve import Roster, RosterError

    out, peak = peak_bytes(lambda: Roster.load(huge(tmp_path / "roster.yaml", b"trainees:\n")))
    assert isinstance(out, RosterError) and "over the limit" in str(out) and peak < 5_000_000
    out, peak = peak_bytes(lambda: read_names(huge(tmp_path / "names.txt", b"Ada\n")))
    assert isinstance(out, OSError) and peak < 5_000_000
    out, peak = peak_bytes(lambda: migrate_file(huge(tmp_path / "old.yaml", b"schema_version: 1\n")))
    assert isinstance(out, DrillLoadError) and peak < 5_000_000


def test_store_import_reads_an_export_line_by_line_and_refuses_an_over_long_line(tmp_path: Path, monkeypatch):
    from store_support import add_session

    from warroom.cli import store_cmd
    from warroom.store.results import ResultsStore

    with ResultsStore(tmp_path / "a") as store:
        add_session(store, "s1", trainee="ann")
        add_session(store, "s2", trainee="bob")
    export = tmp_path / "x.jsonl"
    exported = CliRunner().invoke(main, ["store", "export", "--data-dir", str(tmp_path / "a"), "-o", str(export)])
    assert exported.exit_code == 0
    first, second = export.read_text(encoding="utf-8").splitlines()
    long_line = json.dumps({**json.loads(first), "notes": json.dumps(["x" * 5000])})
    export.write_text("\n".join([long_line, second]) + "\n", encoding="utf-8")
    monkeypatch.setattr(store_cmd, "MAX_EXPORT_LINE_BYTES", 4096)
    result = CliRunner().invoke(main, ["store", "import", "--all-trainees",
                                       str(export), "--data-dir", str(tmp_path / "b")])
    assert result.exit_code == 1
    assert f"{export}:1: a line longer than an export's line may be; not read" in result.output
    with ResultsStore(tmp_path / "b") as store:
        assert [r.session_id for r in store.query()] == ["s2"]
