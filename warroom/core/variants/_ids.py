"""The ids a trainee sees: a drill with a twin is played with its trace events renamed by position (docs/authoring.md,
"The ids trainees see").

A twin adds events with ids of its own (``h1``) and removes others, so authored ids would tell a noise trial from a
signal trial before any content does. :func:`ids_by_position` renames the trace events of the drill a session plays
``e01``, ``e02``, ... in release order, the width fixed for the drill (:func:`warroom.core.model.id_width`: the
digits of the most events either trial can have, at least 2), and every reference to them with them: the tool
results' and retries' calls, approvals' requests, the answer key (the fault's ``origin_event``, evidence and accepted
evidence, the deadline by event, the damage's entries and ``spend``, the re-plan events), the distractors, the
probes' ``until_event``, the variants section's phrasings and shuffle groups and the twin section, and the ids the
texts read after the trial name (the debriefs, the fault's summary and the habit, the evidence's notes and absences,
the distractors' reasons: :data:`DEBRIEF_TEXTS`), each a whole word equal to an authored event id. What is shown
before the debrief (the events' content, the briefing, a probe's answer) is never changed: it is shown literally. The
re-plan events (a signal trial's, released after a containment) are numbered on after the trace, so that no id is
longer in one trial than in the other (the trace table sizes its id column by the drill's ids). Whatever the trial,
the k-th event released shows ``e<k>``: only the events' content differs.

Pure: no file, no play.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from warroom.core.variants._apply import VariantError

if TYPE_CHECKING:
    from warroom.core.model import Drill

#: The texts read in the debrief that name events by id (beside the references, renamed in them): the answer key's
#: ``debrief``, ``habit`` and ``fault.summary``, an evidence item's ``note`` and ``absent``, an accepted evidence
#: item's ``note``, a distractor's ``why_harmless``, the all-clear (and twin) ``debrief``.
DEBRIEF_TEXTS = ("debrief", "habit", "summary", "note", "absent", "why_harmless")

def ids_by_position(drill: Drill, width: int) -> tuple[Drill, dict[str, str]]:
    """``drill`` with its trace events renamed ``e<position>`` (``width`` digits) in release order and every
    reference renamed alike (the module docstring), and the map from each authored id to its played id. Raises
    :class:`~warroom.core.variants.VariantError` when a plan step or a probe has an id an event is shown as (an
    escalation or a citation could not tell them apart)."""
    from pydantic import ValidationError

    from warroom.core.model import Drill

    data = drill.model_dump(mode="json")
    names = rename_data(data, width, drill.id)
    try:
        return Drill.model_validate(data), names
    except ValidationError as exc:  # a drill that passed `warroom validate` never gets here
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        raise VariantError(f"drill {drill.id} with its ids by position is not valid: {where}: {first['msg']}") from None


def rename_data(data: dict[str, Any], width: int, drill_id: str) -> dict[str, str]:
    """:func:`ids_by_position` on a drill's data (``model_dump(mode="json")``, renamed in place): the map from each
    authored id to its played id. A variant renamed this way before it is validated is validated once, not twice.
    Raises :class:`~warroom.core.variants.VariantError` as :func:`ids_by_position` does."""
    names = {e["id"]: f"e{k:0{width}d}" for k, e in enumerate(data["trace"], start=1)}
    key = data.get("answer_key")
    replan = key.get("replan") or [] if key else []
    for n, event in enumerate(replan, start=len(data["trace"]) + 1):
        names[event["id"]] = f"e{n:0{width}d}"
    others = {s["id"]: "plan step" for s in data["plan"]} | {p["id"]: "probe" for p in data.get("probes") or []}
    clash = sorted(set(names.values()) & set(others))
    if clash:
        raise VariantError(
            f"drill {drill_id}: {others[clash[0]]} {clash[0]!r} has an id that a trace event is shown as (a drill "
            "with a twin is played with its events' ids by position, e01, e02, ...): give it another id"
        )
    for event in [*data["trace"], *replan]:
        _rename_event(event, names)
    if key:
        _rename_key(key, names)
    _rename_distractors(data.get("distractors") or [], names)
    _rename_texts(data, {k: v for k, v in names.items() if k != v})
    for probe in data.get("probes") or []:
        for answer in probe.get("answers") or []:
            _rename(answer, "until_event", names)
    if data.get("variants"):
        _rename_variants(data["variants"], names)
    if data.get("twin"):
        _rename_twin(data["twin"], names)
    return names


def _rename(obj: dict[str, Any], field: str, names: dict[str, str]) -> None:
    """``obj[field]`` renamed when it is an id of ``names``."""
    value = obj.get(field)
    if isinstance(value, str):
        obj[field] = names.get(value, value)


def _ids(values: list[Any], names: dict[str, str]) -> list[Any]:
    return [names.get(v, v) if isinstance(v, str) else v for v in values]


def _rename_event(event: dict[str, Any], names: dict[str, str]) -> None:
    for field in ("id", "call", "retry_of", "request"):
        _rename(event, field, names)


def _rename_key(key: dict[str, Any], names: dict[str, str]) -> None:
    if key.get("fault"):
        _rename(key["fault"], "origin_event", names)
    for field in ("evidence", "accepted_evidence"):
        items = key.get(field) or []
        for i, item in enumerate(items):
            if isinstance(item, str):
                items[i] = names.get(item, item)
            elif isinstance(item, dict):
                _rename(item, "event", names)
                if item.get("all_of"):
                    item["all_of"] = _ids(item["all_of"], names)
    if isinstance(key.get("deadline"), dict):
        _rename(key["deadline"], "event", names)
    damage = key.get("damage")
    if damage:
        for entry in damage.get("entries") or []:
            _rename(entry, "event", names)
        if damage.get("spend"):
            damage["spend"] = _ids(damage["spend"], names)


def _rename_distractors(distractors: list[dict[str, Any]], names: dict[str, str]) -> None:
    for d in distractors:
        _rename(d, "event", names)


def _rename_variants(spec: dict[str, Any], names: dict[str, str]) -> None:
    for phrasing in spec.get("phrasings") or []:
        _rename(phrasing, "event", names)
    spec["shuffle"] = [_ids(group, names) for group in spec.get("shuffle") or []]


def _rename_twin(twin: dict[str, Any], names: dict[str, str]) -> None:
    """The twin section of a signal trial's drill, kept naming the played events (it is not played again: a noise
    trial is built from the fault drill before its ids are renamed)."""
    twin["replace"] = {names.get(k, k): v for k, v in (twin.get("replace") or {}).items()}
    for field in ("remove", "harmless"):
        twin[field] = _ids(twin.get(field) or [], names)
    for event in twin.get("add") or []:
        _rename_event(event, names)
    _rename_distractors(twin.get("distractors") or [], names)


def _rename_texts(data: dict[str, Any], names: dict[str, str]) -> None:
    """Every id of ``names`` written as a whole word in the debrief's texts (:data:`DEBRIEF_TEXTS`) of the answer
    key, its evidence and fault, the distractors (and the twin's), the all-clear and the twin, renamed in one pass."""
    if not names:
        return
    word = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")(?![\w-])")
    key = data.get("answer_key") or {}
    twin = data.get("twin") or {}
    holders = [key, key.get("fault") or {}, data.get("all_clear") or {}, twin]
    holders += [i for i in [*(key.get("evidence") or []), *(key.get("accepted_evidence") or [])] if isinstance(i, dict)]
    holders += [*(data.get("distractors") or []), *(twin.get("distractors") or [])]
    for holder in holders:
        for field in DEBRIEF_TEXTS:
            if isinstance(holder.get(field), str):
                holder[field] = word.sub(lambda m: names[m.group(1)], holder[field])
