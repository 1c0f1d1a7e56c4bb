"""The importer."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from warroom.importers.chat._mapping import conversation_to_drill_data
from warroom.importers.chat._parse import read_conversations
from warroom.importers.kit import ImportReport, Progress, TraceOptions, import_files


def convert_file(path: Path, options: TraceOptions | None = None) -> list[tuple[dict[str, Any], str]]:
    """Every conversation in the file at ``path`` as ``(drill data, header comment)``; raises TraceError."""
    return [conversation_to_drill_data(c, Path(path), options) for c in read_conversations(Path(path))]


def import_chats(paths: Iterable[Path], out_dir: Path, options: TraceOptions | None = None, *,
                 force: bool = False, progress: Progress | None = None) -> ImportReport:
    """Convert every chat transcript (``*.json``, ``*.jsonl``) under ``paths`` into drills in ``out_dir`` (see
    :func:`warroom.importers.tracekit.import_files`)."""
    return import_files(paths, out_dir, lambda p: convert_file(p, options), suffixes=(".json", ".jsonl"), force=force,
                        redactor=options.redactor if options else None, progress=progress)
