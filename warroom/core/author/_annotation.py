"""An answer key being marked up (``warroom annotate``): what is set so far, what is still missing, as drill data.

:class:`KeyDraft` holds an author's answer key while they mark up an imported trace: the fault's origin (a plan
step; format 2: or the planner's call or a set-up event, ``origin_event``), kind and summary, the evidence items
(event ids; format 2: also ``{event, path}`` fields, ``{event, absent}`` absences and ``{all_of}`` comparisons, as
plain data), the cascade steps, the damage (unit and entries), the deadline, the debrief, the habit that would
have caught the fault, the re-plan after a containment and the drill's distractors; and, when the author sets them
in author mode, the drill's title, difficulty and briefing (:attr:`KeyDraft.meta`). It is read from a drill file's
plain YAML data (:func:`draft_from_data`, tolerant of a partial key, so a file saved half-done opens again) and
turned back into the ``answer_key`` and ``distractors`` data (:meth:`KeyDraft.answer_key_data`), which
:mod:`warroom.core.author._keywrite` writes into the file. No UI, no file access.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: The fault origins a draft may have (``answer_key.fault.origin``): a plan step, the plan, the set-up, a handoff.
ORIGINS = ("step", "plan", "setup", "handoff")
#: The drill's top-level fields the author mode may set (:attr:`KeyDraft.meta`), in the format's order.
META = ("title", "difficulty", "briefing")
#: Drill seconds after the escalation at which a re-plan written in author mode plays.
REPLAN_AFTER = 3.0


def item_events(item: Any) -> list[str]:
    """The trace event ids an evidence item names: a bare id, the ``event`` of a mapping, or its ``all_of``; empty
    for an item of the wrong shape (left for ``warroom validate`` to report)."""
    if isinstance(item, str):
        return [item]
    if isinstance(item, dict):
        if isinstance(item.get("all_of"), list):
            return [e for e in item["all_of"] if isinstance(e, str)]
        if isinstance(item.get("event"), str):
            return [item["event"]]
    return []


@dataclass
class DamageMark:
    """One damage entry: the trace event that does it, the amount (> 0, in the draft's unit), an optional note."""

    event: str
    amount: float
    note: str = ""


@dataclass
class DeadlineMark:
    """The deadline: ``after`` drill seconds after trace event ``event`` (written ``{event: ID, after: S}``), or,
    with ``event`` None, ``after`` drill seconds from the start (written as a number)."""

    after: float
    event: str | None = None

    def data(self) -> Any:
        """The YAML value: a number of seconds, or ``{event: ID, after: S}``."""
        if self.event is None:
            return _number(self.after)
        if self.after == 0:
            return {"event": self.event}  # at the event (``after`` defaults to 0)
        return {"event": self.event, "after": _number(self.after)}

    def describe(self) -> str:
        """``at 42 s`` or ``m006 + 10 s``."""
        if self.event is None:
            return f"at {_number(self.after)} s"
        return f"{self.event} + {_number(self.after)} s"


@dataclass
class KeyDraft:
    """An answer key so far. Empty strings and lists mean "not set yet"; see :meth:`missing`. ``origin`` is one
    of :data:`ORIGINS`: ``step`` names ``origin_step``, ``plan``, ``setup`` and ``handoff`` name ``origin_event``. Each
    ``evidence`` item is an event id or a format-2 evidence mapping (``{event, path}``, ``{event, absent}``,
    ``{all_of: [...]}``, each with an optional ``note``), as written in the file."""

    origin_step: str = ""
    kind: str = ""
    summary: str = ""
    evidence: list[Any] = field(default_factory=list)
    cascade: list[str] = field(default_factory=list)
    damage_unit: str = ""
    damage: list[DamageMark] = field(default_factory=list)
    deadline: DeadlineMark | None = None
    debrief: str = ""
    #: The habit that would have caught the fault (``answer_key.habit``; not required, but validate warns without).
    habit: str = ""
    #: event id -> why it is harmless (the drill's ``distractors``)
    distractors: dict[str, str] = field(default_factory=dict)
    #: Keys of the file's ``answer_key`` the annotator does not edit (``accepted_evidence``, ``replan``, ...): kept.
    extra: dict[str, Any] = field(default_factory=dict)
    origin: str = "step"
    origin_event: str = ""
    #: The distractors' events in the file's order (kept in that order when written).
    file_distractors: list[str] = field(default_factory=list)
    #: Keys of the file's ``answer_key.damage`` the annotator does not edit (``spend``, a runaway loop's damage): kept.
    damage_extra: dict[str, Any] = field(default_factory=dict)
    #: The file's deadline when it is a form the annotator does not edit (a budget, ``{budget: 0.50}``): written as
    #: it is until the author marks another deadline (:attr:`deadline`).
    kept_deadline: Any = None
    #: Top-level fields of the drill the author mode may set (:data:`META`: ``title``, ``difficulty``,
    #: ``briefing``), as read from the file (:func:`draft_from_data`) or set anew; written where the file has them
    #: (a value the author did not change keeps its text byte for byte).
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def replan(self) -> list[Any]:
        """The re-plan after a containment (``answer_key.replan``, events as plain data; empty: none)."""
        value = self.extra.get("replan")
        return value if isinstance(value, list) else []

    def replan_text(self) -> str:
        """What the planner says first in the re-plan (its first planner call's ``content``), or ""."""
        first = next((e for e in self.replan if isinstance(e, dict) and e.get("kind") == "planner_call"), None)
        return first.get("content", "") if first is not None and isinstance(first.get("content"), str) else ""

    def set_replan(self, text: str, taken: set[str], after: float = REPLAN_AFTER) -> None:
        """Set what the planner says after a containment: the content of the re-plan's first planner call (the
        re-plan's other events are kept), or a new re-plan of one planner call ``after`` seconds after the
        escalation, with an id not in ``taken`` (the drill's event and probe ids). An empty ``text`` removes a
        re-plan of one planner call."""
        text = text.strip()
        events = [dict(e) if isinstance(e, dict) else e for e in self.replan]
        first = next((e for e in events if isinstance(e, dict) and e.get("kind") == "planner_call"), None)
        if first is not None and (text or len(events) > 1):
            first["content"] = text or first.get("content", "")
        elif text:
            used = taken | {e.get("id") for e in events if isinstance(e, dict)}
            ident = next(f"r{n:02d}" for n in range(1, 1000) if f"r{n:02d}" not in used)
            events = [{"id": ident, "t": _number(after), "kind": "planner_call", "content": text}, *events]
        else:
            events = []
        if events:
            self.extra["replan"] = events
        else:
            self.extra.pop("replan", None)

    def missing(self) -> list[str]:
        """The answer key's required fields not set yet, as their paths (``answer_key.fault.kind``), in file
        order; empty when the key is complete (it may still break a drill rule: ``warroom validate`` says)."""
        where = ("answer_key.fault.origin_step", self.origin_step) if self.origin == "step" else (
            "answer_key.fault.origin_event", self.origin_event)
        wanted = [
            where,
            ("answer_key.fault.kind", self.kind),
            ("answer_key.fault.summary", self.summary.strip()),
            ("answer_key.evidence", self.evidence),
            ("answer_key.damage.unit", self.damage_unit.strip()),
            ("answer_key.damage.entries", self.damage or self.damage_extra.get("spend")),
            ("answer_key.deadline", self.deadline or self.kept_deadline),
            ("answer_key.debrief", self.debrief.strip()),
        ]
        return [path for path, value in wanted if not value]

    def toggle(self, items: list[str], item: str) -> bool:
        """Add ``item`` to ``items`` (evidence or cascade) or remove it; True when it is now in."""
        if item in items:
            items.remove(item)
            return False
        items.append(item)
        return True

    def set_origin(self, origin: str, where: str) -> None:
        """The fault happened at plan step ``where`` (``origin`` ``step``) or at trace event ``where`` (``plan``
        or ``setup``); the other field is cleared. Raises ValueError for an origin not in :data:`ORIGINS`."""
        if origin not in ORIGINS:
            raise ValueError(f"unknown fault origin {origin!r}; one of {', '.join(ORIGINS)}")
        self.origin = origin
        self.origin_step, self.origin_event = (where, "") if origin == "step" else ("", where)

    def origin_label(self) -> str:
        """The origin in words: ``s2``, ``the plan at e01``, ``set-up at e02``; empty when not set."""
        if self.origin == "step":
            return self.origin_step
        if not self.origin_event:
            return ""
        words = {"plan": "the plan", "setup": "set-up", "handoff": "the handoff"}
        return f"{words.get(self.origin, self.origin)} at {self.origin_event}"

    def evidence_events(self) -> set[str]:
        """Every trace event some evidence item names (an event that is evidence cannot be a distractor)."""
        return {e for item in self.evidence for e in item_events(item)}

    def toggle_item(self, item: Any) -> bool:
        """Add evidence ``item`` (an event id or an evidence mapping) or remove an equal one (its ``note`` aside: a
        field, absence or comparison already marked is removed whatever its note); True when it is now in."""
        for old in self.evidence:
            if _same_item(old, item):
                self.evidence.remove(old)
                return False
        self.evidence.append(item)
        return True

    def damage_of(self, event: str) -> DamageMark | None:
        """The damage entry of trace event ``event``, or None."""
        return next((d for d in self.damage if d.event == event), None)

    def set_damage(self, event: str, amount: float | None, note: str = "") -> None:
        """Set the damage ``event`` does (``amount`` > 0), or remove its entry (``amount`` None)."""
        self.damage = [d for d in self.damage if d.event != event]
        if amount is not None:
            self.damage.append(DamageMark(event, amount, note))

    def answer_key_data(self, event_order: dict[str, int]) -> dict[str, Any]:
        """The ``answer_key`` mapping to write: the fields set so far, in the format's order (fault, evidence,
        cascade, damage, deadline, debrief, habit, then the keys kept from the file: the re-plan). Evidence and damage
        entries follow the trace order given by ``event_order`` (event id -> index)."""
        key: dict[str, Any] = {}
        fault = {k: v for k, v in (("origin", "" if self.origin == "step" else self.origin),
                                   ("origin_step", self.origin_step), ("origin_event", self.origin_event),
                                   ("kind", self.kind), ("summary", self.summary.strip())) if v}
        if fault:
            key["fault"] = fault
        if self.evidence:
            key["evidence"] = sorted(self.evidence, key=lambda item: _item_order(item, event_order))
        key.update({k: v for k, v in self.extra.items() if k == "accepted_evidence"})
        if self.cascade:
            key["cascade"] = list(self.cascade)
        damage = self._damage_data(event_order)
        if damage:
            key["damage"] = damage
        if self.deadline is not None:
            key["deadline"] = self.deadline.data()
        elif self.kept_deadline is not None:
            key["deadline"] = self.kept_deadline
        if self.debrief.strip():
            key["debrief"] = self.debrief.strip()
        if self.habit.strip():
            key["habit"] = self.habit.strip()
        key.update({k: v for k, v in self.extra.items() if k not in key})
        return key

    def _damage_data(self, event_order: dict[str, int]) -> dict[str, Any]:
        damage: dict[str, Any] = {}
        if self.damage_unit.strip():
            damage["unit"] = self.damage_unit.strip()
        if self.damage:
            entries = []
            for d in sorted(self.damage, key=lambda d: event_order.get(d.event, len(event_order))):
                entry: dict[str, Any] = {"event": d.event, "amount": _number(d.amount)}
                if d.note.strip():
                    entry["note"] = d.note.strip()
                entries.append(entry)
            damage["entries"] = entries
        damage.update({k: v for k, v in self.damage_extra.items() if k not in damage})
        return damage

    def distractors_data(self, event_order: dict[str, int]) -> list[dict[str, str]]:
        """The ``distractors`` list to write: those read from the file in its order, then those marked since in
        trace order."""
        known = [e for e in self.file_distractors if e in self.distractors]
        added = sorted((e for e in self.distractors if e not in known),
                       key=lambda e: event_order.get(e, len(event_order)))
        ids = known + added
        return [{"event": e, "why_harmless": self.distractors[e].strip()} for e in ids]


def item_label(item: Any) -> str:
    """An evidence item in a few words: ``e03``, ``e07 data.next_cursor``, ``e14 absent: no approval``,
    ``e03 + e09``. Drill text is returned raw (callers clean it)."""
    if isinstance(item, str):
        return item
    events = item_events(item)
    head = " + ".join(events) if events else "?"
    if isinstance(item, dict) and isinstance(item.get("path"), str):
        return f"{head} {item['path']}"
    if isinstance(item, dict) and isinstance(item.get("absent"), str):
        return f"{head} absent: {item['absent']}"
    return head


def _same_item(a: Any, b: Any) -> bool:
    """Two evidence items that say the same thing (a mapping's ``note`` aside; a comparison's events in any
    order)."""
    if isinstance(a, dict) and isinstance(b, dict):
        def bare(item: dict[str, Any]) -> dict[str, Any]:
            out = {k: v for k, v in item.items() if k != "note"}
            if isinstance(out.get("all_of"), list):
                out["all_of"] = sorted(map(str, out["all_of"]))
            return out
        return bare(a) == bare(b)
    return bool(a == b)


def _item_order(item: Any, event_order: dict[str, int]) -> int:
    """Where an evidence item goes in trace order: at its event, a comparison at its last event."""
    events = item_events(item)
    return max((event_order.get(e, len(event_order)) for e in events), default=len(event_order))


def _number(value: float) -> int | float:
    """A whole number of seconds or units as an int (``10``, not ``10.0``), else the float."""
    return int(value) if float(value).is_integer() else float(value)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _ids(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _evidence(value: Any) -> list[Any]:
    """The evidence items of a file: event ids and format-2 mappings, kept as written (validate judges them)."""
    return [v for v in value if isinstance(v, (str, dict))] if isinstance(value, list) else []


def draft_from_data(data: dict[str, Any]) -> KeyDraft:
    """The draft of a drill's plain YAML data (``answer_key`` and ``distractors``; either may be absent or partial:
    values of the wrong type are left out, for the author to set again). Never raises."""
    key = _dict(data.get("answer_key"))
    fault, damage = _dict(key.get("fault")), _dict(key.get("damage"))
    draft = KeyDraft(
        origin_step=_text(fault.get("origin_step")), kind=_text(fault.get("kind")),
        summary=_text(fault.get("summary")), evidence=_evidence(key.get("evidence")),
        cascade=_ids(key.get("cascade")), origin_event=_text(fault.get("origin_event")),
        damage_unit=_text(damage.get("unit")), debrief=_text(key.get("debrief")), habit=_text(key.get("habit")),
        extra={k: v for k, v in key.items() if k not in _EDITED},
    )
    for entry in _list(damage.get("entries")):
        if isinstance(entry, dict) and isinstance(entry.get("event"), str) and _is_number(entry.get("amount")):
            draft.damage.append(DamageMark(entry["event"], float(entry["amount"]), _text(entry.get("note"))))
    draft.deadline = _deadline(key.get("deadline"))
    if draft.deadline is None and isinstance(key.get("deadline"), dict) and _is_number(key["deadline"].get("budget")):
        draft.kept_deadline = key["deadline"]
    draft.damage_extra = {k: v for k, v in damage.items() if k not in ("unit", "entries")}
    if fault.get("origin") in ORIGINS:
        draft.origin = str(fault["origin"])
    for item in _list(data.get("distractors")):
        if isinstance(item, dict) and isinstance(item.get("event"), str):
            draft.distractors[item["event"]] = _text(item.get("why_harmless"))
    draft.file_distractors = list(draft.distractors)
    draft.meta = {name: data[name] for name in META if name in data}  # written back unchanged unless set anew
    return draft


_EDITED = frozenset({"fault", "evidence", "cascade", "damage", "deadline", "debrief", "habit"})


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _deadline(value: Any) -> DeadlineMark | None:
    if _is_number(value):
        return DeadlineMark(float(value))
    if isinstance(value, dict) and isinstance(value.get("event"), str):
        after = value.get("after", 0)
        return DeadlineMark(float(after) if _is_number(after) else 0.0, value["event"])
    return None
