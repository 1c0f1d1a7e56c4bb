"""A path that names nothing as typed but is on disk with a name in another Unicode form: macOS writes accented
names decomposed (NFD: a letter and a combining accent), Linux keyboards type them composed (NFC), and the two look
alike in every terminal; a set written on macOS (names not case-sensitive) may name `Refunds.yaml` for
`refunds.yaml`. The messages of "no such file" name the difference instead of leaving it invisible."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

#: Most entries of one folder looked through for a name in another Unicode form.
MAX_ENTRIES = 10_000


def unicode_twin(path: str | os.PathLike[str]) -> tuple[str, str] | None:
    """``(as typed, as on disk)`` for the first part of ``path`` that is not on disk as written but is there in
    another Unicode form or letter case (the same text once both are composed, NFC, and case-folded); None when there
    is none (every part is there, a part is missing in every form, or a folder cannot be read)."""
    p = Path(path)
    here = Path(p.anchor) if p.is_absolute() else Path(".")
    for part in p.parts[1:] if p.is_absolute() else p.parts:
        if os.path.lexists(here / part):
            here = here / part
            continue
        wanted = unicodedata.normalize("NFC", part).casefold()
        try:
            with os.scandir(here) as entries:
                for n, entry in enumerate(entries):
                    if n >= MAX_ENTRIES:
                        break
                    if entry.name != part and unicodedata.normalize("NFC", entry.name).casefold() == wanted:
                        return part, entry.name
        except OSError:
            return None
        return None
    return None


def unicode_twin_message(typed: str, twin: tuple[str, str]) -> str:
    """The refusal of ``typed`` (a path) when :func:`unicode_twin` found ``twin``: what differs and what to do."""
    part, disk = twin
    if unicodedata.normalize("NFC", part) != unicodedata.normalize("NFC", disk):  # they differ in letter case
        return (f"no file {typed!r} as typed, but {disk!r} is on disk, its name in other letter case (names are "
                "case-sensitive here): type the name as it is on disk")
    form = ("decomposed (NFD: a letter and a combining accent, as macOS writes names)"
            if unicodedata.is_normalized("NFD", disk) else "composed (NFC)")
    other = "composed form (NFC)" if form.startswith("decomposed") else "form you typed"
    return (f"no file {typed!r} as typed, but {part!r} is on disk with its name written in another Unicode form, "
            f"{form}: type the name as it is on disk (tab completion does), or rename it to the {other}")
