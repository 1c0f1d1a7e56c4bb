"""An answer key being marked up (``warroom annotate``): what is set so far, what is still missing, as drill data.

:class:`KeyDraft` holds an author's answer key while they mark up an imported trace: the fault's origin step, kind
and summary, the evidence events, the cascade steps, the damage (unit and entries), the deadline, the debrief and the
drill's distractors. It is read from a drill file's plain YAML data (:func:`draft_from_data`, tolerant of a partial
key, so a file saved half-done opens again) and turned back into the ``answer_key`` and ``distractors`` data
(:meth:`KeyDraft.answer_key_data`), which :mod:`warroom.core.keywrite` writes into the file. No UI, no file access.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["DamageMark", "DeadlineMark", "KeyDraft", "draft_from_data"]


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
        return {"event": self.event, "after": _number(self.after)}

    def describe(self) -> str:
        """``at 42 s`` or ``m006 + 10 s``."""
        if self.event is None:
            return f"at {_number(self.after)} s"
        return f"{self.event} + {_number(self.after)} s"


@dataclass
class KeyDraft:
    """An answer key so far. Empty strings and lists mean "not set yet"; see :meth:`missing`."""

    origin_step: str = ""
    kind: str = ""
    summary: str = ""
    evidence: list[str] = field(default_factory=list)
    cascade: list[str] = field(default_factory=list)
    damage_unit: str = ""
    damage: list[DamageMark] = field(default_factory=list)
    deadline: DeadlineMark | None = None
    debrief: str = ""
    #: event id -> why it is harmless (the drill's ``distractors``)
    distractors: dict[str, str] = field(default_factory=dict)
    #: Keys of the file's ``answer_key`` the annotator does not edit (``accepted_evidence``, ``replan``, ...): kept.
    extra: dict[str, Any] = field(default_factory=dict)

    def missing(self) -> list[str]:
        """The answer key's required fields not set yet, as their paths (``answer_key.fault.kind``), in file
        order; empty when the key is complete (it may still break a drill rule: ``warroom validate`` says)."""
        wanted = [
            ("answer_key.fault.origin_step", self.origin_step),
            ("answer_key.fault.kind", self.kind),
            ("answer_key.fault.summary", self.summary.strip()),
            ("answer_key.evidence", self.evidence),
            ("answer_key.damage.unit", self.damage_unit.strip()),
            ("answer_key.damage.entries", self.damage),
            ("answer_key.deadline", self.deadline),
            ("answer_key.debrief", self.debrief.strip()),
        ]
        return [path for path, value in wanted if not value]

    @property
    def complete(self) -> bool:
        """True when every required field is set."""
        return not self.missing()

    def toggle(self, items: list[str], item: str) -> bool:
        """Add ``item`` to ``items`` (evidence or cascade) or remove it; True when it is now in."""
        if item in items:
            items.remove(item)
            return False
        items.append(item)
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
        cascade, damage, deadline, debrief, then the keys kept from the file). Evidence and damage entries follow
        the trace order given by ``event_order`` (event id -> index)."""
        key: dict[str, Any] = {}
        fault = {k: v for k, v in (("origin_step", self.origin_step), ("kind", self.kind),
                                   ("summary", self.summary.strip())) if v}
        if fault:
            key["fault"] = fault
        if self.evidence:
            key["evidence"] = sorted(self.evidence, key=lambda e: event_order.get(e, len(event_order)))
        key.update({k: v for k, v in self.extra.items() if k == "accepted_evidence"})
        if self.cascade:
            key["cascade"] = list(self.cascade)
        damage = self._damage_data(event_order)
        if damage:
            key["damage"] = damage
        if self.deadline is not None:
            key["deadline"] = self.deadline.data()
        if self.debrief.strip():
            key["debrief"] = self.debrief.strip()
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
        return damage

    def distractors_data(self, event_order: dict[str, int]) -> list[dict[str, str]]:
        """The ``distractors`` list to write, in trace order."""
        ids = sorted(self.distractors, key=lambda e: event_order.get(e, len(event_order)))
        return [{"event": e, "why_harmless": self.distractors[e].strip()} for e in ids]


def _number(value: float) -> int | float:
    """A whole number of seconds or units as an int (``10``, not ``10.0``), else the float."""
    return int(value) if float(value).is_integer() else float(value)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _ids(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def draft_from_data(data: dict[str, Any]) -> KeyDraft:
    """The draft of a drill's plain YAML data (``answer_key`` and ``distractors``; either may be absent or partial:
    values of the wrong type are left out, for the author to set again). Never raises."""
    key = _dict(data.get("answer_key"))
    fault, damage = _dict(key.get("fault")), _dict(key.get("damage"))
    draft = KeyDraft(
        origin_step=_text(fault.get("origin_step")), kind=_text(fault.get("kind")),
        summary=_text(fault.get("summary")), evidence=_ids(key.get("evidence")), cascade=_ids(key.get("cascade")),
        damage_unit=_text(damage.get("unit")), debrief=_text(key.get("debrief")),
        extra={k: v for k, v in key.items() if k not in _EDITED},
    )
    for entry in _list(damage.get("entries")):
        if isinstance(entry, dict) and isinstance(entry.get("event"), str) and _is_number(entry.get("amount")):
            draft.damage.append(DamageMark(entry["event"], float(entry["amount"]), _text(entry.get("note"))))
    draft.deadline = _deadline(key.get("deadline"))
    for item in _list(data.get("distractors")):
        if isinstance(item, dict) and isinstance(item.get("event"), str):
            draft.distractors[item["event"]] = _text(item.get("why_harmless"))
    return draft


_EDITED = frozenset({"fault", "evidence", "cascade", "damage", "deadline", "debrief"})


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
