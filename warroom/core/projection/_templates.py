"""The fault templates of ``warroom project``: each changes ONE tool result of a healthy run so that it shows a
silent failure, leaving everything after it as it was (the agent did not notice: that is what makes the failure
silent, and why the rest of the trace stays consistent).

A template says its fault kind (from the format's vocabulary), where it applies (the shapes of result it can
change: :attr:`Template.shapes`), the evidence it creates (field paths: :attr:`Template.evidence`) and the habit
that would have caught it (:attr:`Template.habit`, the answer key's habit). :meth:`Template.place` finds where in
one result it would apply (None: it does not), :meth:`Template.change` makes the change: the new output and the
answer-key texts (:class:`Change`). The numbers it makes up (a total, an age, a cursor) come from a seeded
generator, so a projection is the same every time it is made.

The templates, by name (docs/authoring.md, "Projection", shows an example of each): pagination-truncated,
error-flag-ignored, stale-data, wrong-record, partial-write, unit-confusion, timeout-as-empty,
rate-limit-swallowed (:data:`TEMPLATES`).
"""

from __future__ import annotations

import base64
import copy
import json
import random
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from warroom.core.model import SOUND_FIELDS, FaultKind
from warroom.core.projection._damage import is_write_like
from warroom.core.projection._output import (
    Place,
    collections_in,
    free_key,
    get_at,
    insert_after,
    path_text,
    records_in,
    scalar_fields,
    with_changed,
)
from warroom.core.projection._view import ResultView

#: Keys that say a result is already paged (a real cursor or total): pagination does not apply there.
_PAGED = frozenset({"next_cursor", "next_page", "next_page_token", "has_more", "total", "total_count", "cursor",
                    "nextpagetoken", "next", "page", "offset", "more"})
#: Keys that already say whether a result is complete or fresh: the templates that add them stay away.
_FLAGGED = frozenset({"errors", "error", "warnings", "warning", "partial", "timed_out", "status_code"})
_STALE = frozenset({"as_of", "cached_at", "cache_age_s", "source", "served_from", "stale"})
_MONEY = re.compile(r"price|amount|total|balance|cost|fee|refund|charge|subtotal|paid|usd|eur|gbp|credit", re.I)


def _sound(*keys: str) -> dict[str, Any]:
    """The fields ``keys`` with the value each has in a twin's result, saying it is sound (the one table of them:
    :data:`~warroom.core.model.SOUND_FIELDS`, which the run fingerprint leaves out of a twin's result too)."""
    return {k: copy.deepcopy(SOUND_FIELDS[k]) for k in keys}


@dataclass(frozen=True)
class Change:
    """A template's change to one result: the new ``value`` of its output, the ``field`` it changed (a path, for
    ``--list``), the evidence (``evidence_path``: a field path, None for the whole result; ``note``), the fault's
    ``summary``, the ``debrief``'s first part (what happened and where it shows), what the twin's debrief says of
    the healthy result (``healthy``), how deep the evidence is (``depth``), ``cues``: texts whose appearance in
    what the agent wrote later contradicts the changed result (a second place to see the fault), and ``sound``: the
    twin's result, the source's with every field the change added saying the result is sound (the whole list and
    its total, the run's currency, a live read, no error), so that a field's name never tells the trial, only its
    value; None when the change added no field (the twin's result is the source's)."""

    value: Any
    field: str
    evidence_path: str | None
    note: str
    summary: str
    debrief: str
    healthy: str
    depth: int
    cues: tuple[str, ...] = ()
    sound: Any = None


class Template:
    """One fault template (see the module docstring). Subclasses set the class attributes and the two methods."""

    name: ClassVar[str]
    kind: ClassVar[FaultKind]
    #: Where it applies: the shapes of result it can change, in words.
    shapes: ClassVar[str]
    #: The evidence it creates: the field paths, in words.
    evidence: ClassVar[str]
    #: The habit that would have caught the fault (the answer key's habit).
    habit: ClassVar[str]
    #: The failure's names in the public taxonomies (TRAIL, MAST), tags shown only in the debrief.
    taxonomy: ClassVar[tuple[str, ...]]

    def place(self, view: ResultView) -> Place | None:
        """Where in ``view``'s result this template would change it, or None when it does not apply."""
        raise NotImplementedError

    def change(self, view: ResultView, place: Place, rng: random.Random) -> Change:
        """The change at ``place`` (from :meth:`place`), its numbers drawn from ``rng``."""
        raise NotImplementedError

    def replan(self, view: ResultView, change: Change) -> str:
        """What the planner says after a correct escalation (after "Re-plan after the escalation: "): the fault
        named and what to do instead."""
        raise NotImplementedError


def _q(value: Any) -> str:
    """A value as the debrief quotes it: JSON (text in double quotes)."""
    return json.dumps(value, ensure_ascii=False)


def _label(parts: tuple[str | int, ...]) -> str:
    """A place as ``--list`` and the debriefs name it: its field path, ``the result`` at the top, or its last key
    when no path can spell it."""
    if not parts:
        return "the result"
    return path_text(parts) or str(parts[-1])


def _leaves(value: Any, limit: int = 200) -> list[str]:
    """Texts and numbers inside ``value`` that would identify it if the agent used them later (texts of 4
    characters or more, numbers of 3 digits or more), at most ``limit``."""
    out: list[str] = []
    stack = [value]
    while stack and len(out) < limit:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
            out.extend(k for k in item if len(k) >= 6 and any(c.isdigit() for c in k))
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and len(item) >= 4:
            out.append(item)
        elif isinstance(item, (int, float)) and not isinstance(item, bool) and len(str(item)) >= 3:
            out.append(str(item))
    return out


def _rest_text(view: ResultView, parts: tuple[str | int, ...]) -> str:
    """What ``view``'s result still says once the collection at ``parts`` is emptied."""
    emptied = with_changed(view.value, parts, lambda old: [] if isinstance(old, list) else {})
    return json.dumps(emptied, ensure_ascii=False)


def _seq_name(key: str | int | None) -> str:
    """A collection's name in a sentence (``orders``; ``the list`` at the top of a result)."""
    return str(key).replace("_", " ") if isinstance(key, str) else "the list"


# ---------------------------------------------------------------------------------------------------------------
# Lists: one page of many, a timeout read as empty, a swallowed rate limit
# ---------------------------------------------------------------------------------------------------------------


class PaginationTruncated(Template):
    """A list result gains a next-page cursor and a total larger than its length."""

    name = "pagination-truncated"
    kind = FaultKind.PAGINATION_TRUNCATED
    shapes = ("a list result of a tool that reads, or a list or a map of records (by id) inside one, with at least "
              "one item, not already paged")
    evidence = ("`<list>_total_count` (larger than the list's length) and `<list>_next_cursor` beside the list; a "
                "top-level list becomes `{data, total_count, has_more, next_cursor}`")
    habit = ("when a list result carries a total or a cursor, compare the total with what came back before acting on "
             "the list as if it were all of it.")
    taxonomy = ("TRAIL: poor retrieval", "MAST: no or incomplete verification")

    def replan(self, view: ResultView, change: Change) -> str:
        return (f"{view.tool} at {view.id} returned one page of {change.field}. Page through it "
                f"with the cursor until the total is in, redo the check on the whole list, then go on.")

    def place(self, view: ResultView) -> Place | None:
        if is_write_like(view.tool):
            return None  # a write's answer is not a page of a list
        found = []
        for place in collections_in(view.value):
            parent = get_at(view.value, place.parts[:-1]) if place.parts else None
            if len(place.value) < 1 or (parent is not None and _PAGED & {str(k).lower() for k in parent}):
                continue
            if isinstance(place.value, list) and not place.parts and not isinstance(place.value[0], dict):
                continue  # a bare list of scalars at the top: no record shape to page
            if place.parts and path_text(place.parts) is None:
                continue
            found.append(place)
        return max(found, key=lambda p: (len(p.value), -p.depth), default=None)

    def change(self, view: ResultView, place: Place, rng: random.Random) -> Change:
        shown = len(place.value)
        total = shown + rng.randint(max(2, shown // 2), max(3, shown * 2 + 3))
        cursor = base64.b64encode(json.dumps({"offset": shown, "limit": shown}).encode()).decode()
        name = _seq_name(place.key)
        if not place.parts:
            value = {"data": place.value, "total_count": total, "has_more": True, "next_cursor": cursor}
            sound = {"data": place.value, "total_count": shown, **_sound("has_more", "next_cursor")}
            total_path, cursor_path, depth = "total_count", "next_cursor", 1
        else:
            parent_parts, key = place.parts[:-1], str(place.key)
            parent = get_at(view.value, parent_parts)
            total_key = free_key(parent, f"{key}_total_count")
            cursor_key = free_key(parent, f"{key}_next_cursor")
            value = with_changed(view.value, parent_parts, lambda old: insert_after(
                old, key, {total_key: total, cursor_key: cursor}))
            sound = with_changed(view.value, parent_parts, lambda old: insert_after(
                old, key, {total_key: shown, cursor_key: None}))
            total_path = path_text((*parent_parts, total_key)) or total_key
            cursor_path = path_text((*parent_parts, cursor_key)) or cursor_key
            depth = len(parent_parts) + 1
        return Change(
            value, _label(place.parts), total_path,
            f"{total} {name} in all, {shown} returned; the next page ({cursor_path}) was never fetched",
            f"{view.tool} at {view.id} returned one page of {name} ({shown} of {total}, with a cursor for the rest), "
            "and the executor worked from that page as if it were all of them.",
            f"The result of {view.tool} at {view.id} is one page: {_label(place.parts)} holds {shown} of the {total} "
            f"{name} ({total_path} = {total}, and a next-page cursor in {cursor_path}). Nothing fetched the next "
            "page; the executor went on as if the first page were the whole list.",
            f"{view.tool} at {view.id} returned the whole of {name} ({shown}, no next page).",
            depth, sound=sound,
        )


class _Emptied(Template):
    """The templates that empty a collection the agent did not use later (or an empty one) and say why inside."""

    def place(self, view: ResultView) -> Place | None:
        if is_write_like(view.tool):
            return None  # what a write answers is its own outcome, not data read for later
        found = []
        for place in collections_in(view.value):
            parent = get_at(view.value, place.parts[:-1]) if place.parts else None
            if parent is not None and _FLAGGED & {str(k).lower() for k in parent}:
                continue
            if place.parts and path_text(place.parts) is None:
                continue
            leaves = _leaves(place.value)
            if place.value and view.run.needed_later(view.index, leaves, _rest_text(view, place.parts)):
                continue  # the agent used what is in it: emptying it would change what follows
            found.append(place)
        return min(found, key=lambda p: (len(p.value) > 0, p.depth), default=None)

    def marker(self, rng: random.Random) -> tuple[str, Any, str]:
        """The field that says why the collection is empty: ``(key suffix, value, its words)``."""
        raise NotImplementedError

    def emptied(self, view: ResultView, place: Place, rng: random.Random) -> tuple[Any, str, int, str, Any]:
        """The result with the collection at ``place`` emptied and the marker beside it: ``(value, the marker's
        path, its depth, its words, the twin's result)``: the twin's keeps the collection and says beside it that
        the call finished (``timed_out: false``, ``error: null``)."""
        suffix, marker, words = self.marker(rng)
        fine = False if marker is True else None
        empty: Any = [] if isinstance(place.value, list) else {}
        if not place.parts:
            return ({"data": empty, suffix: marker}, suffix, 1, words, {"data": place.value, suffix: fine})
        parent_parts, key = place.parts[:-1], str(place.key)
        parent = get_at(view.value, parent_parts)
        marker_key = free_key(parent, f"{key}_{suffix}")
        value = with_changed(view.value, parent_parts, lambda old: insert_after(
            {**old, key: empty}, key, {marker_key: marker}))
        sound = with_changed(view.value, parent_parts, lambda old: insert_after(old, key, {marker_key: fine}))
        return value, path_text((*parent_parts, marker_key)) or marker_key, len(parent_parts) + 1, words, sound


class TimeoutAsEmpty(_Emptied):
    """An empty list with ``timed_out: true`` or a 504 inside the body."""

    name = "timeout-as-empty"
    kind = FaultKind.TIMEOUT_AS_EMPTY
    shapes = ("a list result of a tool that reads, or a list or a map of records inside one, that the agent did not "
              "use later (or that was empty already)")
    evidence = "`<list>_timed_out: true` or `<list>_error: {status: 504, ...}` beside the emptied list"
    habit = ("an empty result is an answer only when the call finished: look for a timeout, a 504 or an error beside "
             "it before treating empty as none.")
    taxonomy = ("TRAIL: timeout", "MAST: no or incomplete verification")

    def replan(self, view: ResultView, change: Change) -> str:
        return (f"{view.tool} at {view.id} timed out on {change.field}: empty is not none. "
                "Call it again and act only on a complete answer.")

    def marker(self, rng: random.Random) -> tuple[str, Any, str]:
        ms = rng.choice((5000, 10000, 15000, 30000))
        if rng.random() < 0.5:
            return "timed_out", True, f"a timeout after {ms // 1000} s"
        return "error", {"status": 504, "message": f"Gateway Timeout: upstream did not answer within {ms} ms"}, \
            f"a 504 Gateway Timeout after {ms // 1000} s"

    def change(self, view: ResultView, place: Place, rng: random.Random) -> Change:
        value, marker, depth, words, sound = self.emptied(view, place, rng)
        name = _seq_name(place.key)
        if marker.endswith("_error") or marker == "error":
            marker, depth = f"{marker}.status", depth + 1
        return Change(
            value, _label(place.parts), marker, f"{name} is empty because of {words}",
            f"{view.tool} at {view.id} timed out on {name} and returned it empty; the executor took the empty "
            f"{name} for 'none'.",
            f"The result of {view.tool} at {view.id} has an empty {name}, but not because there are none: {marker} "
            f"shows {words}. The executor read the empty {name} as a real answer and went on.",
            f"{view.tool} at {view.id} returned {name} in full.",
            depth, ("no " + name, "none", "empty"), sound,
        )


class RateLimitSwallowed(_Emptied):
    """A 429 inside a 200 body with empty data."""

    name = "rate-limit-swallowed"
    kind = FaultKind.RATE_LIMIT_SWALLOWED
    shapes = ("a list result of a tool that reads, or a list or a map of records inside one, that the agent did not "
              "use later (or that was empty already); the transport status stays a success")
    evidence = ("`<list>_error: {status: 429, message, retry_after_s}` beside the emptied list (a top-level list: "
                "`error`)")
    habit = ("look inside a result's body for an error status even when the call itself succeeded: a 429 means 'try "
             "again later', never 'nothing'.")
    taxonomy = ("TRAIL: rate limit", "MAST: no or incomplete verification")

    def replan(self, view: ResultView, change: Change) -> str:
        return (f"{view.tool} at {view.id} was rate limited, so {change.field} came back "
                "empty. Wait as it asks (retry_after_s), call it again, and act only on its real answer.")

    def marker(self, rng: random.Random) -> tuple[str, Any, str]:
        after = rng.choice((15, 30, 60))
        return "error", {"status": 429, "message": "Too Many Requests: rate limit exceeded", "retry_after_s": after}, \
            f"HTTP 429 Too Many Requests (retry after {after} s)"

    def change(self, view: ResultView, place: Place, rng: random.Random) -> Change:
        value, marker, depth, words, sound = self.emptied(view, place, rng)
        name = _seq_name(place.key)
        return Change(
            value, _label(place.parts), f"{marker}.status",
            f"{name} is empty because the call was rate limited: {words}",
            f"{view.tool} at {view.id} was rate limited (a 429 inside a successful response) and returned {name} "
            "empty; the executor took it as 'none'.",
            f"The result of {view.tool} at {view.id} came back as a success, but its body says {words} at {marker}, "
            f"and {name} is empty. Nothing retried; the executor read the empty {name} as the answer.",
            f"{view.tool} at {view.id} answered in full, with no rate limit.",
            depth + 1, ("no " + name, "none"), sound,
        )


# ---------------------------------------------------------------------------------------------------------------
# Records: an error flag inside a success, data from a stale cache, another record than the one asked for
# ---------------------------------------------------------------------------------------------------------------


def _subject(record: dict[str, Any]) -> str | None:
    """The field of a record an error message blames: its largest list or mapping, else its first field."""
    nested = [k for k, v in record.items() if isinstance(v, (list, dict)) and v]
    if nested:
        return max(nested, key=lambda k: len(json.dumps(record[k])))
    return next(iter(record), None)


class ErrorFlagIgnored(Template):
    """An ``errors`` list, ``partial: true`` or a warning inside a success."""

    name = "error-flag-ignored"
    kind = FaultKind.ERROR_FLAG_IGNORED
    shapes = "a result that is a mapping (a record), with no error or warning field of its own"
    evidence = ("`partial: true` and `errors[0].message` at the top of the result, or `warnings[0]` inside one of its "
                "records")
    habit = ("read a result's error, warning and partial fields before its data: a success only says the call "
             "returned.")
    taxonomy = ("TRAIL: tool-output misinterpretation", "MAST: no or incomplete verification")

    def replan(self, view: ResultView, change: Change) -> str:
        return (f"{view.tool} at {view.id} said its result was incomplete ({change.field}). "
                f"Call it again and act only on a complete answer; hold every change until then.")

    def place(self, view: ResultView) -> Place | None:
        records = [r for r in records_in(view.value) if r.value and not _FLAGGED & {str(k).lower() for k in r.value}
                   and (not r.parts or path_text(r.parts) is not None)]
        if not records or records[0].parts:
            return None
        nested = [r for r in records[1:] if r.depth <= 2]
        rng = random.Random(view.id)
        return nested[0] if nested and rng.random() < 0.4 else records[0]

    def change(self, view: ResultView, place: Place, rng: random.Random) -> Change:
        subject = _subject(place.value) or "the record"
        reason = rng.choice((
            f"upstream timeout after {rng.choice((3, 5, 8))} s; served from a fallback snapshot",
            "the backing service returned 503; the value shown may be incomplete",
            "read from a degraded shard; some entries may be missing",
        ))
        message = f"{subject} could not be loaded in full ({reason})"
        if not place.parts:
            value = {**view.value, "partial": True,
                     "errors": [{"code": "PARTIAL_RESULT", "field": subject, "message": message}]}
            sound = {**view.value, **_sound("partial", "errors")}
            path, depth, shows = "errors[0].message", 2, "partial = true and errors[0].message"
        else:
            value = with_changed(view.value, place.parts, lambda old: {**old, "warnings": [message]})
            sound = with_changed(view.value, place.parts, lambda old: {**old, **_sound("warnings")})
            path = f"{path_text(place.parts)}.warnings[0]"
            depth, shows = place.depth + 1, path
        return Change(
            value, path, path, f"the result says it is incomplete: {message}",
            f"{view.tool} at {view.id} returned a success with an error inside ({message}), and the executor used "
            "the result as if it were complete.",
            f"The result of {view.tool} at {view.id} looks like a success, but it says otherwise inside ({shows}): "
            f"{_q(message)}. The executor read past it and used {subject} as complete.",
            f"{view.tool} at {view.id} returned a complete result, with no errors or warnings.",
            depth, (), sound,
        )


class StaleData(Template):
    """An ``as_of`` / ``cached_at`` / ``source: replica-cache`` far older than the task."""

    name = "stale-data"
    kind = FaultKind.STALE_DATA
    shapes = "a mapping result of a tool that reads (not a write), with no source or age field of its own"
    evidence = "`source: replica-cache` and `cache_age_s` (and `as_of`, when the run's text has dates) at the top"
    habit = ("check where a result comes from and how old it is (source, as_of, cached_at) before acting on it as the "
             "current state.")
    taxonomy = ("TRAIL: poor retrieval", "MAST: incorrect verification")

    def replan(self, view: ResultView, change: Change) -> str:
        return (f"{view.tool} at {view.id} was answered from a replica cache. Read it again "
                "from the live system, compare, and act only on the live state.")

    def place(self, view: ResultView) -> Place | None:
        if not isinstance(view.value, dict) or not view.value or is_write_like(view.tool):
            return None
        if _STALE & {str(k).lower() for k in view.value}:
            return None
        return Place((), view.value)

    def change(self, view: ResultView, place: Place, rng: random.Random) -> Change:
        from datetime import date, timedelta

        days = rng.randint(9, 40)
        hours = rng.randint(1, 22)
        age = days * 86400 + hours * 3600
        added: dict[str, Any] = {"source": "replica-cache", "cache_age_s": age}
        live: dict[str, Any] = _sound("source", "cache_age_s")
        latest = view.run.latest_date
        if latest is not None:
            added["as_of"] = (date.fromisoformat(latest) - timedelta(days=days)).isoformat()
            live["as_of"] = latest
        return Change(
            {**view.value, **added}, "source, cache_age_s", "cache_age_s",
            f"served from the replica cache, {days} days {hours} h old",
            f"{view.tool} at {view.id} was answered from a replica cache {days} days old, and the executor acted on "
            "that old state as current.",
            f"The result of {view.tool} at {view.id} came from a cache, not the live system: source = "
            f"\"replica-cache\", cache_age_s = {age} ({days} days {hours} h old). Whatever changed since is not in "
            "it, and the executor acted on it as the current state.",
            f"{view.tool} at {view.id} was read from the live system.",
            1, (), {**view.value, **live},
        )


def _near_miss(value: str) -> str | None:
    """Another id one slip away from ``value``: its last two different adjacent digits swapped (``#W2378156`` ->
    ``#W2378165``), else its last digit changed; None when it has fewer than three digits."""
    digits = [i for i, c in enumerate(value) if c.isdigit()]
    if len(digits) < 3:
        return None
    chars = list(value)
    for a, b in zip(reversed(digits[:-1]), reversed(digits[1:]), strict=True):
        if b == a + 1 and chars[a] != chars[b]:
            chars[a], chars[b] = chars[b], chars[a]
            return "".join(chars)
    last = digits[-1]
    chars[last] = str((int(chars[last]) + 3) % 10)
    return "".join(chars)


class WrongRecord(Template):
    """The returned id, name or account differs from the one asked for."""

    name = "wrong-record"
    kind = FaultKind.WRONG_RECORD
    shapes = ("a mapping result that repeats an id the call asked for (an argument's value, with three digits or "
              "more, found in the result)")
    evidence = "the id field of the result (`order_id`, `id`, `account` ...), now one slip away from the one asked for"
    habit = "before using a result, check that the id in it is the one you asked for."
    taxonomy = ("TRAIL: tool-output misinterpretation", "MAST: incorrect verification")

    def replan(self, view: ResultView, change: Change) -> str:
        return (f"{view.tool} at {view.id} returned another record than the one asked for. "
                "Call it again, check the id in the answer, and redo what was built on the wrong record.")

    def place(self, view: ResultView) -> Place | None:
        asked = {str(v): k for k, v in view.arguments.items()
                 if isinstance(v, (str, int)) and not isinstance(v, bool) and _near_miss(str(v)) is not None}
        if not asked:
            return None
        whole = "\n".join(view.run.texts)
        for record in records_in(view.value):
            for field in scalar_fields(record):
                if str(field.value) in asked and path_text(field.parts) is not None \
                        and type(field.value) in (str, int) and str(_near_miss(str(field.value))) not in whole:
                    return field
        return None

    def change(self, view: ResultView, place: Place, rng: random.Random) -> Change:
        asked = str(place.value)
        other_text = str(_near_miss(asked))
        other: Any = int(other_text) if isinstance(place.value, int) else other_text
        arg = next(k for k, v in view.arguments.items() if str(v) == asked)
        path = str(path_text(place.parts))
        value = with_changed(view.value, place.parts[:-1], lambda old: {**old, str(place.key): other})
        return Change(
            value, path, path, f"asked for {asked} (the call's {arg}), got {other_text}",
            f"{view.tool} at {view.id} returned the record of {other_text} instead of the {arg} {asked} it was asked "
            f"for, and the executor used it as {asked}.",
            f"The call at {view.call_id} asked for {arg} = {_q(place.value)}; the result at {view.id} is the record "
            f"of {_q(other)} ({path}), a neighbouring record. The executor did not compare them and used the record "
            f"as if it were {asked}.",
            f"{view.tool} at {view.id} returned the record asked for ({asked}).",
            place.depth, (asked,),
        )


# ---------------------------------------------------------------------------------------------------------------
# Writes and amounts: a partial write, a unit or currency confused
# ---------------------------------------------------------------------------------------------------------------


def _batch(arguments: dict[str, Any]) -> tuple[str, list[Any]] | None:
    """The first list argument of a call with two or more scalar items: ``(name, items)``."""
    for key, value in arguments.items():
        if isinstance(value, list) and len(value) >= 2 and all(isinstance(v, (str, int)) for v in value):
            return key, value
    return None


class PartialWrite(Template):
    """Matched and modified counts differ, or ``write_errors`` > 0."""

    name = "partial-write"
    kind = FaultKind.PARTIAL_WRITE
    shapes = ("the mapping result of a write-like tool (cancel*, modify*, update*, return* ...) called on a batch: "
              "a list argument of two or more ids")
    evidence = "`matched_count`, `modified_count` (one less) and `write_errors[0]` at the top of the result"
    habit = ("after a write, compare the matched, modified and error counts with what you meant to change: a response "
             "without an exception is not proof of a complete write.")
    taxonomy = ("TRAIL: tool-output misinterpretation", "MAST: no or incomplete verification")

    def replan(self, view: ResultView, change: Change) -> str:
        return (f"{view.tool} at {view.id} changed fewer records than it matched. Retry what "
                "write_errors lists, confirm the counts match, and say what was and was not done before going on.")

    def place(self, view: ResultView) -> Place | None:
        if not isinstance(view.value, dict) or not is_write_like(view.tool) or _batch(view.arguments) is None:
            return None
        if {"write_errors", "modified_count", "matched_count"} & set(view.value):
            return None
        return Place((), view.value)

    def change(self, view: ResultView, place: Place, rng: random.Random) -> Change:
        batch = _batch(view.arguments)
        assert batch is not None
        arg, items = batch
        failed_at = rng.randrange(len(items))
        failed = items[failed_at]
        parallel = [v for v in view.arguments.values() if isinstance(v, list) and len(v) == len(items)]
        dropped = {json.dumps(lst[failed_at]) for lst in parallel}

        def without_failed(old: Any) -> Any:
            if isinstance(old, dict):
                return {k: without_failed(v) for k, v in old.items()}
            if isinstance(old, list) and any(json.dumps(v) in dropped for v in old):
                return [v for v in old if json.dumps(v) not in dropped]
            return old

        message = f"{failed}: not applied (the record changed while the batch was written; version conflict)"
        value = {**without_failed(view.value), "matched_count": len(items), "modified_count": len(items) - 1,
                 "write_errors": [{"index": failed_at, "id": failed, "code": "VERSION_CONFLICT", "message": message}]}
        return Change(
            value, "matched_count, modified_count, write_errors", "write_errors[0].message",
            f"{len(items)} matched, {len(items) - 1} modified: {failed} was not written",
            f"{view.tool} at {view.id} changed only {len(items) - 1} of the {len(items)} records in {arg} ({failed} "
            "failed), and the executor treated the write as done.",
            f"The write at {view.call_id} ({view.tool}) matched {len(items)} but modified {len(items) - 1}: "
            f"modified_count = {len(items) - 1}, and write_errors[0] says {_q(message)}. The executor read the call as "
            "done and carried on.",
            f"{view.tool} at {view.id} changed everything it was asked to ({len(items)} of {len(items)}).",
            2, (str(failed),),
            {**view.value, "matched_count": len(items), "modified_count": len(items), **_sound("write_errors")},
        )


def _money_in(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` holds an amount of money: a positive number under a key that names one (price, amount,
    total, balance ...), down to three levels (list items included)."""
    if depth > 3:
        return False
    if isinstance(value, dict):
        return any((_MONEY.search(str(k)) and type(v) in (int, float) and v > 0) or _money_in(v, depth + 1)
                   for k, v in value.items())
    if isinstance(value, list):
        return any(_money_in(v, depth + 1) for v in value[:20])
    return False


def _currency_fields(value: Any, parts: tuple[str | int, ...] = (), depth: int = 0) -> list[tuple[str | int, ...]]:
    """The paths of the text fields named ``currency`` (any case) inside ``value``, down to three levels (every
    list item), in order: the records of a result that say their own currency."""
    if depth > 3:
        return []
    out: list[tuple[str | int, ...]] = []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, v in items:
        if isinstance(k, str) and k.lower() == "currency" and isinstance(v, str):
            out.append((*parts, k))
        else:
            out += _currency_fields(v, (*parts, k), depth + 1)
    return out


def _with_currency(value: Any, old: str, new: str, depth: int = 0) -> Any:
    """``value`` with each currency field :func:`_currency_fields` finds that says ``old`` (any case) saying
    ``new`` instead (a copy; the rest as it was)."""
    if depth > 3:
        return value
    if isinstance(value, list):
        return [_with_currency(v, old, new, depth + 1) for v in value]
    if not isinstance(value, dict):
        return value
    return {k: (new if v.upper() == old.upper() else v) if isinstance(k, str) and k.lower() == "currency"
            and isinstance(v, str) else _with_currency(v, old, new, depth + 1) for k, v in value.items()}


class UnitConfusion(Template):
    """Amounts in another currency (or unit) than the one the agent reads them in."""

    name = "unit-confusion"
    kind = FaultKind.UNIT_CONFUSION
    shapes = "a mapping result holding amounts of money (price, amount, total, balance ...), at any depth"
    evidence = ("`currency` beside the amounts: another currency than the run speaks of (or a changed `currency`; "
                "where the records say their own, every one that said the old currency says the new one)")
    habit = "read the unit or currency of an amount from the result itself before quoting, comparing or charging it."
    taxonomy = ("TRAIL: tool-output misinterpretation", "MAST: incorrect verification")

    def replan(self, view: ResultView, change: Change) -> str:
        return (f"the amounts of {view.tool} at {view.id} are in another currency ({change.field}). "
                "Put every amount in one currency, redo the comparison, and only then quote or charge.")

    def place(self, view: ResultView) -> Place | None:
        if not isinstance(view.value, dict) or not _money_in(view.value):
            return None
        return Place((), view.value)

    def change(self, view: ResultView, place: Place, rng: random.Random) -> Change:
        spoken = view.run.currency
        existing = next((k for k in view.value if str(k).lower() == "currency"), None)
        nested = [] if existing is not None else _currency_fields(view.value)
        old = (view.value[existing] if existing is not None else get_at(view.value, nested[0]) if nested
               else (spoken or "USD"))
        new = next(c for c in ("EUR", "CAD", "GBP", "USD") if c != str(old).upper())
        sound = None  # a currency field the source has: the twin's result is the source's
        if existing is not None:
            value = {**view.value, existing: new}
            key = existing
        elif nested:  # the records say their own currency: change what they say, never contradict it beside them
            value = _with_currency(view.value, str(old), new)
            key = path_text(nested[0]) or str(nested[0][-1])
        else:
            after = next((k for k, v in view.value.items() if _money_in({k: v})), None)
            key = "currency"
            value = insert_after(view.value, after, {key: new})
            sound = insert_after(view.value, after, {key: str(old)})
        read_as = spoken or str(old)
        return Change(
            value, key, key, f"the amounts are in {new}; the executor read them as {read_as}",
            f"{view.tool} at {view.id} gave its amounts in {new}, and the executor quoted and used them as {read_as}.",
            f"The amounts in the result of {view.tool} at {view.id} are in {new} ({key} = {_q(new)}), not {read_as}. "
            f"The executor took the numbers as {read_as} and went on with them.",
            f"{view.tool} at {view.id} gave its amounts in {read_as}, as everything else in the run.",
            len(nested[0]) if nested else 1, ("$", read_as) if read_as == "USD" else (read_as,), sound,
        )


#: Every fault template, by name, in the order ``--list`` and the documentation give them.
TEMPLATES: dict[str, Template] = {t.name: t for t in (
    PaginationTruncated(), ErrorFlagIgnored(), StaleData(), WrongRecord(), PartialWrite(), UnitConfusion(),
    TimeoutAsEmpty(), RateLimitSwallowed(),
)}
