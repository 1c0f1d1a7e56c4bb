"""The twin section (format 2): what a fault drill's healthy run looks like, played as a noise trial.

Airport threat image projection (TIP) gives a screener's hit and false-alarm rates their meaning because the bags
with a projected threat and the clean bags come from one stream: nothing but the threat tells them apart. A fault
drill's **twin** is the same incident with nothing wrong: the same briefing, plan and trace up to the moment the
fault would have shown, then the events of a healthy run (the evidence event's healthy content, the executor's
reports that are then true, the cascade's calls as they would have been, no damage). A session plays a drill as a
**signal** trial (its fault) or a **noise** trial (its twin, an all-clear control), drawn from the session's seed
(:mod:`warroom.core.variants`), so a trainee who has played a drill before still cannot know which one is coming.

The section (:class:`Twin`) lists what differs, by event id:

- ``replace``: events of the trace whose fields differ in the healthy run (:data:`EventChange`: the fields given
  replace the event's fields of the same name, each as a whole value, never merged; ``id`` and ``kind`` never
  change: to change an event's kind, remove it and add another);
- ``remove``: events that would not happen (a harmful call the healthy run never makes);
- ``harmless``: damage events of the fault that the healthy run does as written (the same call on the right data),
  so that every damage event is accounted for: replaced, removed or harmless;
- ``add``: events only the healthy run has (whole trace events, with new ids), released in time order: an added
  event comes after the trace's events of the same time;
- ``probes``: what a verification probe reveals in the healthy run (:class:`ProbeChange`; what the trainee asks
  and the step it verifies never change: they are read before the result);
- ``debrief``: the all-clear debrief shown after a noise trial;
- ``distractors``: the twin's own distractor list (absent: the fault drill's distractors, kept, as a clean bag
  keeps its odd-looking but harmless items).

:func:`twin_of` builds the twin as a :class:`~warroom.core.model.Drill`: the fault drill with those changes, no
``answer_key``, an ``all_clear`` with the twin's debrief, the fault drill's domain tags only (the other tags name
the fault), the same probes (with their changes) and the same ``variants`` section less what the twin leaves it
nothing to vary (the phrasings of the events the twin changes or removes, the names and amounts that no longer
appear anywhere a variant rewrites), applied after the twin is built. :func:`build_twin` gives the twin's plain
data with where each of its trace events comes from, for the rules (:mod:`warroom.core.rules`) that report every
problem of a twin at its place in the twin section.

Pure: no file, no play, no rules (the rules check a twin: ``warroom validate``).
"""

from __future__ import annotations

import copy
import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field, SerializerFunctionWrapHandler, ValidationError, create_model, model_serializer

from warroom.core.model._agents import Usage
from warroom.core.model._answerkey import Distractor
from warroom.core.model._events import EVENT_CLASSES, EVENT_KINDS, TraceEvent
from warroom.core.model._fields import TEXT_PATTERN, Identifier, _Strict
from warroom.core.model._probes import ProbeSeconds
from warroom.core.model._variants import amount_format, amount_pattern, name_pattern, rewritten
from warroom.core.text import ID_PATTERN
from warroom.errors import WarroomError

if TYPE_CHECKING:
    from warroom.core.model._drill import Drill


#: The fields a projection's twin adds to the result it replaces to say that result is sound (docs/authoring.md,
#: "Projection"), with the one value each has there: the templates (:mod:`warroom.core.projection`) write these
#: values, and the run fingerprint (:mod:`warroom.core.library`) leaves them out of a result a twin's ``replace``
#: gives, never out of a run's own results. Besides these: ``<list>_timed_out: false``, ``<list>_error: null``,
#: ``<list>_next_cursor: null`` with its ``<list>_total_count``, the counts beside an empty ``write_errors``, the
#: ``as_of`` beside a zero ``cache_age_s`` and the run's ``currency``.
SOUND_FIELDS: dict[str, Any] = {
    "partial": False, "errors": [], "warnings": [], "write_errors": [], "has_more": False, "next_cursor": None,
    "timed_out": False, "error": None, "source": "primary", "cache_age_s": 0}


#: Fields of a trace event that a twin's ``replace`` never changes: the key names the event, and an event of
#: another kind is another event (remove it and add the new one).
FIXED_EVENT_FIELDS = ("id", "kind")


class TwinError(WarroomError, ValueError):
    """A drill's twin cannot be built (the drill has no twin section, or the twin is not a valid drill: ``warroom
    validate`` says why, at the twin section's line)."""


class _Change(_Strict):
    """A set of field values that replace those of the same name elsewhere: only the fields given count, so only they
    are dumped (a field written ``null`` is given, and replaces with null); a drill dumped and loaded again keeps
    what its twin changes."""

    @model_serializer(mode="wrap")
    def _only_given(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        return {k: v for k, v in data.items() if k in self.model_fields_set}


def _event_change_model() -> type[_Change]:
    """The model of one ``twin.replace`` entry: every field of every trace event kind but ``id`` and ``kind``,
    each optional (only the fields given replace the event's), typed as the first event kind that has it."""
    fields: dict[str, Any] = {}
    for cls in EVENT_CLASSES:
        for name, info in cls.model_fields.items():
            if name in FIXED_EVENT_FIELDS or name in fields:
                continue
            having = [c for c in EVENT_CLASSES if name in c.model_fields]
            of = "every event" if len(having) == len(EVENT_CLASSES) else ", ".join(EVENT_KINDS[c] for c in having)
            said = dict.fromkeys(str(c.model_fields[name].description) for c in having)
            what = next(iter(said)) if len(said) == 1 else "As the field of this name of the event's kind (above)."
            annotation: Any = info.annotation
            optional = type(None) in typing.get_args(annotation)
            if any(getattr(m, "pattern", None) == ID_PATTERN for m in info.metadata):
                annotation = Identifier  # an id, as the reference and the schema name it
            elif info.metadata:  # the field's constraints (a number's bounds, a text's pattern)
                annotation = Annotated[annotation, *info.metadata]
            if not optional:
                annotation = annotation | None
            described = f"The healthy run's `{name}` ({of}). {what}"
            fields[name] = (annotation, Field(default=None, description=described))
    model: type[_Change] = create_model("EventChange", __base__=_Change, __module__=__name__, **fields)
    model.__doc__ = (
        "The fields of one trace event that differ in the healthy run: each field given replaces the event's field "
        "of the same name, as a whole value (a mapping is not merged); `id` and `kind` never change."
    )
    return model


if TYPE_CHECKING:

    class EventChange(_Change):
        """The fields of one trace event that differ in the healthy run (built from the event classes)."""

else:
    EventChange = _event_change_model()


class ProbeChange(_Change):
    """What a verification probe shows in the healthy run. What the trainee asks (``ask``) and the plan step it
    verifies never change: the trainee reads them before requesting the probe."""

    reveals: str | None = Field(
        default=None, min_length=1, pattern=TEXT_PATTERN,
        description="What the executor's verification shows in the healthy run (a finding probe must change it).",
    )
    seconds: ProbeSeconds | None = Field(
        default=None, description="Seconds of drill time from the request to the result, when they differ."
    )
    usage: Usage | None = Field(default=None, description="Token usage of the verifying call, when it differs.")


class Twin(_Strict):
    """The fault drill's healthy run (format 2): the events that differ when nothing went wrong, played as a noise
    trial (docs/authoring.md, "Twins: signal and noise trials")."""

    replace: dict[Identifier, EventChange] = Field(
        default_factory=dict,
        description=(
            "Trace events that differ in the healthy run, by id: the fields given replace the event's fields of the "
            "same name (whole values, not merged); `id` and `kind` never change. Typically the evidence event's "
            "healthy content and the executor's reports, then true."
        ),
    )
    remove: list[Identifier] = Field(
        default_factory=list,
        description="Trace events that would not happen in the healthy run (e.g. a harmful call it never makes).",
    )
    harmless: list[Identifier] = Field(
        default_factory=list,
        description=(
            "Damage events of the fault that the healthy run does as written, harmless without the fault (the same "
            "call on the right data: the replies sent, the batch queued); every other damage event must be replaced "
            "or removed."
        ),
    )
    add: list[TraceEvent] = Field(
        default_factory=list,
        description=(
            "Events only the healthy run has: whole trace events with new ids, released in time order (after the "
            "trace's events of the same time)."
        ),
    )
    probes: dict[Identifier, ProbeChange] = Field(
        default_factory=dict,
        description=(
            "What a verification probe reveals in the healthy run, by probe id (a probe that finds the fault must "
            "change)."
        ),
    )
    debrief: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="The all-clear debrief after a noise trial: why this run was healthy despite what looked odd.",
    )
    distractors: list[Distractor] | None = Field(
        default=None,
        description=(
            "The twin's distractors; absent: the fault drill's distractors, kept (their events must still be in the "
            "healthy run)."
        ),
    )


# ---------------------------------------------------------------------------------------------------------------
# Building the twin
# ---------------------------------------------------------------------------------------------------------------

#: Where a trace event of a twin comes from in the fault drill's data: ``("trace", i)`` as written, ``("twin",
#: "replace", id)`` replaced, ``("twin", "add", k)`` added.
Source = tuple[str | int, ...]


@dataclass(frozen=True)
class TwinBuild:
    """A twin as plain data (``data``: a drill's data, not yet validated) and where each of its trace events comes
    from in the fault drill's file (``sources``, one :data:`Source` per event of ``data["trace"]``)."""

    data: dict[str, Any]
    sources: list[Source]


def build_twin(drill: Drill) -> TwinBuild:
    """The twin of ``drill`` (which has a ``twin`` section) as plain data, with where each of its trace events
    comes from. Ids the section names that the drill does not have are passed over (the rules report them)."""
    twin = drill.twin
    assert twin is not None, "build_twin needs a drill with a twin section"
    data = drill.model_dump(mode="json", exclude={"answer_key", "all_clear", "twin"})
    removed = set(twin.remove)
    rows: list[tuple[float, int, int, dict[str, Any], Source]] = []
    for i, event in enumerate(data["trace"]):
        event_id = event["id"]
        if event_id in removed:
            continue
        source: Source = ("trace", i)
        change = twin.replace.get(event_id)
        if change is not None:
            event.update(change.model_dump(mode="json", exclude_unset=True))
            source = ("twin", "replace", event_id)
        rows.append((event["t"], 0, i, event, source))
    for k, added in enumerate(twin.add):
        event = added.model_dump(mode="json")
        rows.append((event["t"], 1, k, event, ("twin", "add", k)))
    rows.sort(key=lambda r: (_time(r[0]), r[1], r[2]))  # stable: the trace's events first at one time
    data["trace"] = [r[3] for r in rows]
    data["all_clear"] = {"debrief": twin.debrief}
    from warroom.core.model._hygiene import is_domain_tag

    data["tags"] = [t for t in data["tags"] if is_domain_tag(t)]
    if twin.distractors is not None:
        data["distractors"] = [d.model_dump(mode="json") for d in twin.distractors]
    for probe in data["probes"]:
        shown = twin.probes.get(probe["id"])
        if shown is not None:
            probe.update(shown.model_dump(mode="json", exclude_unset=True))
    if data.get("variants") is not None:
        data["variants"] = _twin_variants(data, changed=removed | set(twin.replace))
    return TwinBuild(data, [r[4] for r in rows])


def id_width(drill: Drill) -> int:
    """The digits of a played id for ``drill`` (the fault drill, whichever trial is played; docs/authoring.md, "The
    ids trainees see"): the count of events its trace, its re-plan and its twin's added events could hold together,
    at least 2, so that both trials number alike."""
    added = len(drill.twin.add) if drill.twin is not None else 0
    replan = len(drill.answer_key.replan) if drill.answer_key is not None else 0
    return max(2, len(str(len(drill.trace) + added + replan)))


def shown_ids(drill: Drill) -> set[str]:
    """The ids the events of a session of ``drill`` (which has a twin) can be shown as, in either trial: ``e<k>``
    (:func:`id_width` digits) for each event a signal trial releases (its trace, then its re-plan) or a noise trial
    does (the twin's trace). A plan step or probe with one of these ids could not be told from the event."""
    replan = len(drill.answer_key.replan) if drill.answer_key is not None else 0
    count = len(drill.trace) + replan
    if drill.twin is not None:
        count = max(count, len(drill.trace) - len(set(drill.twin.remove)) + len(drill.twin.add))
    width = id_width(drill)
    return {f"e{k:0{width}d}" for k in range(1, count + 1)}


def _time(t: Any) -> float:
    """A trace time to sort by (a value of the wrong type sorts last; the twin's validation reports it)."""
    return float(t) if isinstance(t, int | float) and not isinstance(t, bool) else float("inf")


def twin_of(drill: Drill) -> Drill:
    """The twin of ``drill`` as a :class:`~warroom.core.model.Drill`: an all-clear drill (see the module
    docstring). Raises :class:`TwinError` when ``drill`` has no twin section or its twin is not a valid drill (a
    drill that passed ``warroom validate`` always has a valid twin)."""
    from warroom.core.model._drill import Drill

    if drill.twin is None:
        raise TwinError(f"drill {drill.id} has no twin: it plays only as written")
    build = build_twin(drill)
    try:
        return Drill.model_validate(build.data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        raise TwinError(f"the twin of drill {drill.id} is not a valid drill: {where}: {first['msg']}") from None


def _twin_variants(data: dict[str, Any], changed: set[str]) -> dict[str, Any] | None:
    """The twin's ``variants`` section: the fault drill's without the phrasings of the events the twin changes or
    removes (the healthy content replaces them) and without the names and amounts the twin no longer has anywhere
    a variant rewrites (nothing to vary). None when nothing is left."""
    spec: dict[str, Any] = copy.deepcopy(data["variants"])
    spec["phrasings"] = [p for p in spec.get("phrasings") or [] if p["event"] not in changed]
    spec["names"] = [n for n in spec.get("names") or [] if rewritten(data, name_pattern(n["text"]))]
    spec["amounts"] = [
        a for a in spec.get("amounts") or []
        if rewritten(data, amount_pattern(a["text"]), amount_format(a["text"])[0])
    ]
    if not any(spec.get(k) for k in ("names", "amounts", "jitter", "shuffle", "phrasings")):
        return None
    return spec
