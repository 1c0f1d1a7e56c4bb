"""The features a drill uses, computed from the drill itself, and a small set of drills that together use every
feature the bundled drills use (:func:`covering_drills`): the terminal-UI tests that play or render a drill do so on
that set, while a fast test of the drill data checks the same property on every bundled drill. A new drill with a
feature no other drill has joins the set by itself; a new feature of the format is found by the walk over the model
(each field set anywhere in the drill), not by a list kept by hand."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

from library_support import load_bundled
from pydantic import BaseModel
from rich.cells import cell_len

from warroom.core.model import Drill


def features(drill: Drill) -> frozenset[str]:
    """What ``drill`` uses: its format (``format 2``), each model field it sets to a value that is not empty,
    anywhere in the drill (``Drill.probes``, ``ToolCall.batch``, ``DamageEntry.note``...: probes, twins, all-clear,
    approvals, distractors, damage meters...), each kind of trace event (``event ToolResult``), and whether its
    title is the longest of its format (the widest header and picker row)."""
    out = {f"format {drill.schema_version}"}
    out |= {f"event {type(e).__name__}" for e in drill.trace}
    _walk(drill, out)
    return frozenset(out)


def _walk(value: object, out: set[str]) -> None:
    if isinstance(value, BaseModel):
        for name in value.model_fields_set:
            field = getattr(value, name)
            if field is None or field == [] or field == {} or field == "":
                continue
            out.add(f"{type(value).__name__}.{name}")
            _walk(field, out)
    elif isinstance(value, list | tuple):
        for item in value:
            _walk(item, out)
    elif isinstance(value, dict):
        for item in value.values():
            _walk(item, out)


def covering_drills(paths: Iterable[Path], cost: str = "duration") -> list[Path]:
    """A greedy set cover of the features of the drills at ``paths`` (:func:`features`), plus the drill with the
    longest title and the one with the longest trace: at each turn the drill that adds the most features not yet
    covered per unit of ``cost`` (``duration``: seconds of drill time, what a test that plays the drill spends;
    ``one``: each drill costs the same), ties broken by file name. Sorted by path."""
    return list(_cover(tuple(sorted(paths)), cost))


@cache
def _cover(paths: Sequence[Path], cost: str) -> tuple[Path, ...]:
    drills = {p: load_bundled(p) for p in paths}
    wanted = {p: features(d) for p, d in drills.items()}
    chosen = {max(paths, key=lambda p: (cell_len(drills[p].title), p.name)),
              max(paths, key=lambda p: (len(drills[p].trace), p.name))}
    covered = set().union(*(wanted[p] for p in chosen))

    def price(p: Path) -> float:
        return max(drills[p].duration, 1.0) if cost == "duration" else 1.0

    while missing := set().union(*wanted.values()) - covered:
        best = max((p for p in paths if p not in chosen),
                   key=lambda p: (len(wanted[p] & missing) / price(p), p.name))
        chosen.add(best)
        covered |= wanted[best]
    return tuple(p for p in paths if p in chosen)
