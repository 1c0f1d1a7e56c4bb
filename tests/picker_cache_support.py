"""Shared by the picker-cache tests (tests/unit/test_picker_cache*.py): copies of a bundled drill under new ids, and
a record of the drill files the catalog reads."""

from __future__ import annotations

from pathlib import Path

import pytest

import warroom.tui.logic._services as services_module
from warroom.core.library import bundled_drills_dir

SOURCE = bundled_drills_dir() / "duplicate-charge-refunds.yaml"


def drill_copy(folder: Path, stem: str, title: str | None = None) -> Path:
    """A copy of a bundled drill as ``folder/stem.yaml`` with the id ``stem`` (and ``title``, when given)."""
    text = SOURCE.read_text(encoding="utf-8").replace("\nid: duplicate-charge-refunds\n", f"\nid: {stem}\n", 1)
    if title is not None:
        text = text.replace("\ntitle: ", f"\ntitle: {title} # was: ", 1)
    path = folder / f"{stem}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def record_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the drill files read (loaded) by the catalog from here on, the bundled drills left out (the
    list fills as they are read)."""
    import warroom.core.library as library

    seen: list[str] = []
    real = services_module.load_entry

    def load(path: Path):
        if Path(path).parent != library.bundled_drills_dir():  # looked up now: small_bundled_library may replace it
            seen.append(Path(path).name)
        return real(path)

    monkeypatch.setattr(services_module, "load_entry", load)
    return seen


def small_bundled_library(monkeypatch: pytest.MonkeyPatch, folder: Path) -> Path:
    """The bundled library seen by the catalog as ``folder`` holding two of the bundled drills: the picker-cache tests
    are about the folders given (the bundled drills are left out of what they assert), and reading all of the
    bundled drills on every cache miss cost most of their time. ``folder`` is created; returns it."""
    import warroom.core.library as library

    folder.mkdir()
    for stem in ("duplicate-charge-refunds", "held-orders-release"):
        (folder / f"{stem}.yaml").write_bytes((bundled_drills_dir() / f"{stem}.yaml").read_bytes())
    monkeypatch.setattr(library, "bundled_drills_dir", lambda: folder)
    return folder
