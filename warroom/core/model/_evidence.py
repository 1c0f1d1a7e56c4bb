"""Evidence beyond one event (format 2, docs/authoring.md "Evidence by comparison and by absence").

An item of ``answer_key.evidence`` is an event id, or an :class:`EvidenceRef`:

- ``{event: e07, path: data.next_cursor}``: a field inside a large result (the inspector can jump to it, the
  debrief highlights it);
- ``{event: e14, absent: "no approval of s3 before the wire at e14"}``: an absence made visible at a checkpoint
  event (the fault shows because something did *not* happen before it);
- ``{all_of: [e03, e09], note: "e09's total contradicts e03's"}``: a comparison, evidence only as a whole: it
  counts once all its events are out, and an escalation cites it by citing all of them.

The helpers here read the items of an answer key the same way for every view: :func:`refs` (every item as an
:class:`EvidenceRef`), :func:`evidence_ids` (every event named, in order), :func:`detection_events` (per item, the
event whose release makes it visible) and :func:`value_at` (the value at a field path). No Textual, no store.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

from pydantic import Discriminator, Field, Tag, model_validator
from pydantic_core import PydanticCustomError

from warroom.core.model._fields import TEXT_PATTERN, Identifier, _Strict
from warroom.core.text import is_valid_id

#: A field path inside an event's output: keys joined by ``.``, list indexes as ``[n]`` (``data.items[3].id``).
PATH_PATTERN = r"^[^.\[\]\s]+(\[\d+\])*(\.[^.\[\]\s]+(\[\d+\])*)*$"
_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


class EvidenceRef(_Strict):
    """One evidence item beyond a bare event id: a field of an event, an absence at a checkpoint, or a comparison
    of several events (see the module docstring). Give exactly one of ``event`` and ``all_of``."""

    event: Identifier | None = Field(
        default=None, description="The trace event that shows the fault (with `path`, `absent` or neither)."
    )
    all_of: list[Identifier] | None = Field(
        default=None, min_length=2,
        description=(
            "A comparison: two or more trace events that show the fault only together (B contradicts A). It counts "
            "once all of them are out; an escalation cites it by citing all of them."
        ),
    )
    path: Annotated[str, Field(pattern=PATH_PATTERN, max_length=400)] | None = Field(
        default=None,
        description=(
            "A field path inside the event's output (`data.next_cursor`, `items[3].id`): where in a large result "
            "the fault shows. The inspector jumps to it; the debrief highlights it."
        ),
    )
    absent: Annotated[str, Field(min_length=1, pattern=TEXT_PATTERN)] | None = Field(
        default=None,
        description=(
            "An absence made visible at `event`, a checkpoint: what did not happen before it (\"no approval of s3 "
            "before the wire at e14\")."
        ),
    )
    note: Annotated[str, Field(min_length=1, pattern=TEXT_PATTERN)] | None = Field(
        default=None, description="What this evidence shows (shown in the debrief)."
    )

    @model_validator(mode="after")
    def _one_form(self) -> EvidenceRef:
        if (self.event is None) == (self.all_of is None):
            raise PydanticCustomError("evidence_form", "an evidence item needs exactly one of `event` and `all_of`")
        if self.all_of is not None and (self.path is not None or self.absent is not None):
            raise PydanticCustomError("evidence_form", "`path` and `absent` go with `event`, not with `all_of`")
        if self.path is not None and self.absent is not None:
            raise PydanticCustomError("evidence_form", "an absence has no field: give `path` or `absent`, not both")
        if self.all_of is not None and len(set(self.all_of)) < len(self.all_of):
            twice = next(e for i, e in enumerate(self.all_of) if e in self.all_of[:i])
            raise PydanticCustomError("evidence_form", "`all_of` names `{twice}` twice: a comparison is of two or more "
                                      "different events", {"twice": twice})
        return self

    @property
    def events(self) -> list[str]:
        """The event ids this item names, in order."""
        return list(self.all_of) if self.all_of is not None else [str(self.event)]


def _item_tag(value: Any) -> str:
    return "EvidenceRef" if isinstance(value, (dict, EvidenceRef)) else "str"


#: An item of ``answer_key.evidence``: an event id, or (format 2) an :class:`EvidenceRef` mapping.
EvidenceItem = Annotated[
    # The tags are the members' type names, which the error-location walk strips (warroom.core.load._loctypes).
    Annotated[Identifier, Tag("str")] | Annotated[EvidenceRef, Tag("EvidenceRef")],
    Discriminator(_item_tag),
]


class FieldRef(_Strict):
    """An event, or a field of its output (format 2): an item of ``accepted_evidence`` given as a mapping
    (``{event: e06, path: data.total}``)."""

    event: Identifier = Field(description="The trace event (or probe).")
    path: Annotated[str, Field(pattern=PATH_PATTERN, max_length=400)] | None = Field(
        default=None,
        description="A field path inside the event's output (`data.total`, `items[3].id`): the field that counts.",
    )
    note: Annotated[str, Field(min_length=1, pattern=TEXT_PATTERN)] | None = Field(
        default=None, description="What this shows (shown in the debrief)."
    )

    @model_validator(mode="before")
    @classmethod
    def _no_evidence_form(cls, data: Any) -> Any:
        """An ``all_of`` or ``absent`` (forms of ``evidence`` only) said as what to write instead: it was "missing
        the required key `event`" and "unknown key `all_of`", which left the author to guess."""
        if not isinstance(data, dict):
            return data
        if "all_of" in data:
            named = data["all_of"]
            ids = ", ".join(named) if isinstance(named, list) and named and all(
                isinstance(i, str) and is_valid_id(i) for i in named) else "ID, ID"  # fmt: skip
            raise PydanticCustomError(
                "accepted_form", "`all_of` (a comparison) is a form of `evidence`, not of `accepted_evidence`, whose "
                "items are single events: to accept a citation of any of these events, list them "
                "(`accepted_evidence: [{ids}]`); to count them only together, move the comparison to `evidence`",
                {"at": "all_of", "ids": ids})  # fmt: skip
        if "absent" in data:
            raise PydanticCustomError(
                "accepted_form", "`absent` (an absence at a checkpoint) is a form of `evidence`, not of "
                "`accepted_evidence`, whose items are an event or a field of one (`event` with a `path`): "
                "move the absence to `evidence`", {"at": "absent"})  # fmt: skip
        return data


def _accepted_tag(value: Any) -> str:
    return "FieldRef" if isinstance(value, (dict, FieldRef)) else "str"


#: An item of ``answer_key.accepted_evidence``: an event id, or (format 2) a :class:`FieldRef` mapping.
AcceptedItem = Annotated[
    Annotated[Identifier, Tag("str")] | Annotated[FieldRef, Tag("FieldRef")],
    Discriminator(_accepted_tag),
]

#: Between an event id and a field path in a citation of a field (``e03:data.stale_after``): no id holds it.
CITE_FIELD_SEP = ":"


def accepted_refs(key: Any) -> list[FieldRef]:
    """Every item of ``key.accepted_evidence`` as a :class:`FieldRef` (a bare id as ``{event: id}``)."""
    return [item if isinstance(item, FieldRef) else FieldRef(event=item) for item in key.accepted_evidence]


def accepted_ids(key: Any) -> list[str]:
    """The event ids ``key.accepted_evidence`` names, in order, each once."""
    return list(dict.fromkeys(ref.event for ref in accepted_refs(key)))


def split_cite(cite: str) -> tuple[str, str | None]:
    """A citation as ``(event id, field path or None)``: ``e03`` is ``("e03", None)``, a citation of a field
    ``e03:data.stale_after`` is ``("e03", "data.stale_after")``."""
    event_id, sep, path = cite.partition(CITE_FIELD_SEP)
    return (event_id, path) if sep and path else (event_id, None)


def field_cite(event_id: str, path: str | None) -> str:
    """The citation of the field ``path`` of ``event_id`` (of the whole event when ``path`` is None)."""
    return event_id if path is None else f"{event_id}{CITE_FIELD_SEP}{path}"


def path_covers(outer: str | None, inner: str | None) -> bool:
    """True when the field ``inner`` is ``outer`` or lies inside it (None: the whole event, which covers every
    field): ``data`` covers ``data.items[3].id``; ``data.items`` does not cover ``data.total``."""
    if outer is None:
        return True
    if inner is None:
        return False
    a, b = path_parts(outer), path_parts(inner)
    return b[:len(a)] == a


def refs(key: Any) -> list[EvidenceRef]:
    """Every item of ``key.evidence`` (an answer key) as an :class:`EvidenceRef` (a bare id as ``{event: id}``)."""
    return [item if isinstance(item, EvidenceRef) else EvidenceRef(event=item) for item in key.evidence]


def evidence_ids(key: Any) -> list[str]:
    """Every event id the evidence items of ``key`` name (comparison members included), in order, each once."""
    return list(dict.fromkeys(e for ref in refs(key) for e in ref.events))


def is_plain(key: Any) -> bool:
    """True when every evidence item of ``key`` is a bare event id (format 1's evidence)."""
    return all(isinstance(item, str) for item in key.evidence)


def detection_events(drill: Any) -> list[tuple[EvidenceRef, Any]]:
    """Per evidence item of ``drill``'s answer key, the trace event whose release makes it visible: its event, or
    the member of a comparison released last (latest ``t``, then latest in the trace). Items naming an unknown event
    are left out; empty in an all-clear drill."""
    key = drill.answer_key
    if key is None:
        return []
    items = refs(key)
    named = {e for ref in items for e in ref.events}
    index = {e.id: (i, e) for i, e in enumerate(drill.trace) if e.id in named}  # no tuple per event of a long trace
    out = []
    for ref in items:
        found = [index[e] for e in ref.events if e in index]
        if len(found) == len(ref.events):
            out.append((ref, max(found, key=lambda p: (p[1].t, p[0]))[1]))
    return out


_MISSING = object()


def structured(output: Any) -> Any:
    """``output`` as data: a string holding a JSON object or array is parsed, anything else comes back as it is."""
    if isinstance(output, str) and output.lstrip()[:1] in ("{", "["):
        try:
            return json.loads(output)
        except ValueError:
            return output
    return output


def is_field_path(text: str) -> bool:
    """True when ``text`` is a field path (keys joined by ``.``, list indexes as ``[n]``)."""
    return re.fullmatch(PATH_PATTERN, text) is not None


def _digits(text: str) -> bool:
    """Whether ``text`` is ASCII digits, which ``int`` reads (``str.isdigit`` also takes ``²``, which it refuses)."""
    return text.isascii() and text.isdigit()


def path_parts(path: str) -> list[str | int]:
    """The keys (str) and list indexes (int) of a field path: ``data.items[3].id`` is ``["data", "items", 3,
    "id"]``."""
    return [int(m.group(2)) if m.group(2) is not None else m.group(1) for m in _PART.finditer(path)]


def value_at(output: Any, path: str) -> tuple[bool, Any]:
    """The value at the field ``path`` of an event's ``output`` (a JSON string is parsed first): ``(True, value)``,
    or ``(False, None)`` when the path leads nowhere."""
    node = structured(output)
    for part in path_parts(path):
        in_list = isinstance(part, int) and isinstance(node, list) and part < len(node)
        if in_list or (isinstance(part, str) and isinstance(node, dict) and part in node):
            node = node[part]
        elif isinstance(part, str) and isinstance(node, dict) and _digits(part) and int(part) in node:
            node = node[int(part)]
        else:
            return False, None
    return True, node


def path_miss(output: Any, path: str) -> str | None:
    """Why the field ``path`` leads nowhere in ``output`` (an event's output; a JSON string is parsed first), or None
    when it leads to a value. The first part that is not there and where it was looked for, both as the author wrote
    the path (``data[0].cursor``, never ``data.0``), then the help every path error gives: a did-you-mean and the
    keys there, and, where the path meets a list, that its items are reached by index (``data[0].next_cursor``,
    items counted from 0)."""
    from warroom.core.text import Suggester

    node = structured(output)
    for m in _PART.finditer(path):
        part: str | int = int(m.group(2)) if m.group(2) is not None else m.group(1)
        at = path[: m.start()].rstrip(".")
        where = f"`{at}`" if at else "the top level"
        if isinstance(node, list):
            if isinstance(part, int) and part < len(node):
                node = node[part]
                continue
            return _list_miss(node, path, m, where)
        if isinstance(node, dict):
            key = str(part)
            if key in node or (_digits(key) and int(key) in node):
                node = node[key] if key in node else node[int(key)]
                continue
            keys = [str(k) for k in node]
            listed = f"; the keys there: {', '.join(keys[:12])}" + (" …" if len(keys) > 12 else "") if keys else ""
            if isinstance(part, int):
                return f"{where} is a mapping, not a list: `[{part}]` names no item of it; name a key{listed}"
            return f"`{key}` is not at {where}{Suggester(keys)(key)}{listed}"
        shown = ("text" if isinstance(node, str) else "null" if node is None else "a boolean"
                 if isinstance(node, bool) else "a number")
        return f"{where} is {shown}, with no fields: the path ends before `{path[m.start():].lstrip('.')}`"
    return None


def _list_miss(node: list[Any], path: str, m: re.Match[str], where: str) -> str:
    """:func:`path_miss` where the path meets the list ``node`` at the part matched by ``m``."""
    from warroom.core.text import Suggester, plural

    at = path[: m.start()].rstrip(".")
    size = plural(len(node), "item")
    if m.group(2) is not None:  # an index past the end
        last = f" (`{at}[0]` to `{at}[{len(node) - 1}]`)" if node else ""
        return f"{where} is a list of {size}{last}: there is no `[{m.group(2)}]`"
    key = m.group(1)
    rest = path[m.start():]
    if not at:
        return (f"the output is a list of {size}: a field path starts with a key, so it cannot reach into a list at "
                "the top level; cite the whole event instead")
    if key.isdigit():
        return f"{where} is a list of {size}: write an index in brackets, `{at}[{key}]`, not `{at}.{key}`"
    first = node[0] if node else None
    keys = [str(k) for k in first] if isinstance(first, dict) else []
    listed = f"; the keys of its first item: {', '.join(keys[:12])}" + (" …" if len(keys) > 12 else "") if keys else ""
    hint = Suggester(keys)(key) if key not in keys else ""
    return (f"{where} is a list of {size}, not a mapping: reach a field of one of its items with an index, e.g. "
            f"`{at}[0].{rest}` (items count from 0){hint}{listed}")


def event_output(event: Any) -> Any:
    """What a field path of ``event`` walks: a tool result's ``output``, a command result's ``stdout`` (parsed when
    it holds JSON), a log's ``content``; ``_MISSING`` for an event with none."""
    for name in ("output", "stdout", "content"):
        if name in type(event).model_fields:
            return getattr(event, name)
    return _MISSING


def cited_roots(event: Any) -> list[Any]:
    """What a cited field path of ``event`` may walk (format 2's citation of a field, ``e05:currency``): every
    field the inspector shows as data: the event's output (:func:`event_output`), a tool call's ``arguments`` and
    what the model was shown of a tool result (``shown``); empty for an event with none (a probe's answer, a
    handoff's text that is not JSON still counts: it is walked as text and holds no fields)."""
    out = [event_output(event)] if has_output(event) else []
    for name in ("arguments", "shown"):
        if name in type(event).model_fields and getattr(event, name) is not None:
            out.append(getattr(event, name))
    return out


def cited_field_miss(event: Any | None, path: str) -> str | None:
    """Why the citation of the field ``path`` of ``event`` (a trace or re-plan event; None: a probe's answer, which
    has no fields) names nothing, or None when the path leads to a value in one of :func:`cited_roots`. The
    message names the fields the event has (its top-level keys), or says it has none."""
    roots = [structured(r) for r in cited_roots(event)] if event is not None else []
    if any(value_at(root, path)[0] for root in roots):
        return None
    keys = list(dict.fromkeys(str(k) for root in roots if isinstance(root, dict) for k in root))
    if not keys:
        return "it has no fields"
    first = path_parts(path)[0]
    for root in roots:  # the path starts at a key that is there: say where it stops
        if isinstance(root, dict) and str(first) in {str(k) for k in root}:
            return path_miss(root, path)
    listed = ", ".join(keys[:12]) + (" …" if len(keys) > 12 else "")
    from warroom.core.text import Suggester

    return f"`{first}` is not one of its fields{Suggester(keys)(str(first))}; its fields: {listed}"


def has_output(event: Any) -> bool:
    """True when ``event`` has something a field path can walk (:func:`event_output`)."""
    return event_output(event) is not _MISSING


def describe_item(drill: Any, ref: EvidenceRef) -> tuple[str, str]:
    """One evidence item in words, as ``(head, detail)``: ``("e03", "")``; a field
    ``("e03 data.next_cursor", '= "c_8f2a"')``; an absence ``("e08", "absent: no approval ...")``; a comparison
    ``("e03 + e07", "compared")``.
    The ``note``, if any, follows the detail after ``; ``. Drill text is returned raw (callers clean it)."""
    head = " + ".join(ref.events)
    detail = ""
    if ref.all_of is not None:
        detail = "compared"
    elif ref.absent is not None:
        detail = f"absent: {ref.absent}"
    elif ref.path is not None:
        head = f"{ref.event} {ref.path}"
        event = next((e for e in drill.trace if e.id == ref.event), None)
        found, value = value_at(event_output(event), ref.path) if event is not None else (False, None)
        detail = f"= {json.dumps(value, ensure_ascii=False)}" if found else ""
    if ref.note:
        detail = f"{detail}; {ref.note}" if detail else ref.note
    return head, detail
