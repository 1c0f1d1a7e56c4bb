"""The seeded-variants section of the drill format (``variants``: docs/authoring.md, "Seeded variants"): what a
variant of a drill may change. :mod:`warroom.core.variants` applies it; :mod:`warroom.core.rules` checks it.
Also what the section's texts mean: where a variant may rewrite (:func:`variable_texts`), how a name or an amount
is found in a text (:func:`name_pattern`, :func:`amount_pattern`), and the orders of a shuffle group."""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import permutations
from typing import Annotated, Any

from pydantic import Field

from warroom.core.model._fields import TEXT_PATTERN, Identifier, _Strict

#: Most seconds a variant's timing jitter may move an event.
MAX_JITTER_SECONDS = 60


#: Largest amount a variant draws (``min`` and ``max``, either sign), and most decimals an amount is written with:
#: an amount is drawn in steps of its last decimal, as a whole number of them, which must stay an exact float
#: (``max: 1e308`` with one decimal overflowed to infinity and ended `warroom validate` in a traceback).
MAX_AMOUNT = 1_000_000_000_000_000
MAX_AMOUNT_DECIMALS = 6


class NameVariant(_Strict):
    """A name (a person, a customer, a host) that each variant may replace in the trace and the answer key."""

    text: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="The name as written in the trace (matched as a whole word, case as written).",
    )
    choices: list[Annotated[str, Field(min_length=1, pattern=TEXT_PATTERN)]] = Field(
        min_length=1,
        description="Other names that may stand in its place; a variant shows `text` or one of these.",
    )


class AmountVariant(_Strict):
    """A number that each variant may replace, in text and in tool data, by one drawn between bounds."""

    text: str = Field(
        pattern=r"^-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$",
        description=(
            "The number as written in the trace, e.g. '412', '1,742,906', '48.50'. A variant writes its number the "
            "same way (thousands separators, decimals)."
        ),
    )
    min: Annotated[float, Field(strict=True, allow_inf_nan=False, ge=-MAX_AMOUNT, le=MAX_AMOUNT)] = Field(
        description="Smallest number drawn."
    )
    max: Annotated[float, Field(strict=True, allow_inf_nan=False, ge=-MAX_AMOUNT, le=MAX_AMOUNT)] = Field(
        description="Largest number drawn."
    )


class Jitter(_Strict):
    """Timing jitter: each trace event moves by up to max_seconds either way, the trace's order kept."""

    max_seconds: Annotated[float, Field(strict=True, allow_inf_nan=False, gt=0, le=MAX_JITTER_SECONDS)] = Field(
        description=(
            f"Most seconds of drill time an event moves (more than 0, at most {MAX_JITTER_SECONDS}); at most the "
            "time between the earliest evidence and the deadline less 5 s, and less than the time from the "
            "deadline to the first damage."
        )
    )


class PhrasingVariant(_Strict):
    """Equivalent phrasings of one trace event (the evidence, say): each variant shows the event as written or
    with one of the choices' fields in place of its own."""

    event: Identifier = Field(description="The trace event that has other phrasings.")
    choices: list[dict[str, Any]] = Field(
        min_length=1,
        description=(
            "Each a mapping of the event's fields to write instead: `content` (planner_call, executor_message, "
            "executor_report, log), `output` and `status` (tool_result), `arguments` (tool_call)."
        ),
    )


class Variants(_Strict):
    """What a seeded variant of the drill may change (docs/authoring.md, "Seeded variants")."""

    names: list[NameVariant] = Field(default_factory=list, description="Names that may be replaced.")
    amounts: list[AmountVariant] = Field(default_factory=list, description="Numbers that may be replaced.")
    jitter: Jitter | None = Field(default=None, description="Timing jitter of the trace events.")
    shuffle: list[Annotated[list[Identifier], Field(min_length=2)]] = Field(
        default_factory=list,
        description=(
            "Groups of independent distractor events whose order may change: a variant deals the group's release "
            "times out among its events."
        ),
    )
    phrasings: list[PhrasingVariant] = Field(
        default_factory=list, description="Events with other, equivalent phrasings."
    )


#: Most events in one ``shuffle`` group (every order of a group is checked: 4 events have 24 orders).
MAX_SHUFFLE_GROUP = 4

#: Most characters a variant's names may add to a drill's text (each place a name is found, times how much longer
#: its longest choice is): a name found 5,000 times in a drill of 160 KB with a choice of 20,000 characters made
#: every variant 100 MB of text, as billion laughs does with aliases.
MAX_NAME_GROWTH = 1_000_000


#: Seconds between the earliest evidence and the deadline that jitter must leave (``warroom check``'s
#: reaction window, :data:`warroom.core.author.MIN_REACTION_WINDOW`).
REACTION_WINDOW = 5.0


def amount_format(text: str) -> tuple[float, int, bool]:
    """``(value, decimals, thousands separators)`` of an amount as written (``1,742,906.50``)."""
    decimals = len(text.split(".", 1)[1]) if "." in text else 0
    return float(text.replace(",", "")), decimals, "," in text


def name_pattern(text: str) -> str:
    return r"(?<!\w)" + re.escape(text) + r"(?!\w)"


def amount_pattern(text: str) -> str:
    return r"(?<![\w.,])" + re.escape(text) + r"(?![\w]|[.,]\d)"


#: Free-text fields of trace and re-plan events that a variant rewrites (ids, tools and sources never change): a
#: text event's content, a command's stdout and stderr.
_EVENT_TEXT = ("content", "stdout", "stderr")


#: The fields of a trace event whose data (not only text) a variant rewrites.
EVENT_DATA_FIELDS = ("output", "shown", "arguments")


def variable_texts(data: dict[str, Any]) -> Iterable[tuple[tuple[str | int, ...], dict[str, Any], str]]:
    """Every place of a drill's data (as dumped) that a variant may rewrite: ``(loc, container, key)``. The trace
    and re-plan events' ``content``, ``stdout``, ``stderr``, ``output``, ``shown`` and ``arguments``; each probe's
    ``ask`` and answers; the fault summary, the debrief, the habit, the evidence's and accepted evidence's notes and
    absences, the damage notes, the all-clear debrief and each distractor's ``why_harmless``. (A text left as
    written beside a rewritten one read as two runs: `next_cursor: c7` in a result, `next_cursor c2` in the probe
    answering for it.)"""
    key = data.get("answer_key") or {}
    for where, events in (("trace", data.get("trace") or []), ("replan", key.get("replan") or [])):
        for i, event in enumerate(events):
            loc: tuple[str | int, ...] = ("trace", i) if where == "trace" else ("answer_key", "replan", i)
            for field in (*_EVENT_TEXT, *EVENT_DATA_FIELDS):
                if field in event:
                    yield (*loc, field), event, field
    yield from _probe_texts(data)
    if key:
        yield ("answer_key", "fault", "summary"), key["fault"], "summary"
        yield ("answer_key", "debrief"), key, "debrief"
        if key.get("habit") is not None:
            yield ("answer_key", "habit"), key, "habit"
        yield from _evidence_texts(key)
        for i, entry in enumerate(key["damage"]["entries"]):
            if entry.get("note") is not None:
                yield ("answer_key", "damage", "entries", i, "note"), entry, "note"
    if data.get("all_clear"):
        yield ("all_clear", "debrief"), data["all_clear"], "debrief"
    for i, d in enumerate(data.get("distractors") or []):
        yield ("distractors", i, "why_harmless"), d, "why_harmless"


def _probe_texts(data: dict[str, Any]) -> Iterable[tuple[tuple[str | int, ...], dict[str, Any], str]]:
    """Each probe's question and what it reveals (now and by time), as :func:`variable_texts` yields them."""
    for i, probe in enumerate(data.get("probes") or []):
        for field in ("ask", "reveals"):
            if isinstance(probe.get(field), str):
                yield ("probes", i, field), probe, field
        for j, answer in enumerate(probe.get("answers") or []):
            yield ("probes", i, "answers", j, "reveals"), answer, "reveals"


def _evidence_texts(key: dict[str, Any]) -> Iterable[tuple[tuple[str | int, ...], dict[str, Any], str]]:
    """The notes and absences of the evidence and accepted evidence items, as :func:`variable_texts` yields them."""
    for where in ("evidence", "accepted_evidence"):
        for i, item in enumerate(key.get(where) or []):
            if isinstance(item, dict):
                for field in ("note", "absent"):
                    if isinstance(item.get(field), str):
                        yield ("answer_key", where, i, field), item, field


def _leaves(value: Any) -> list[Any]:
    """Every value inside ``value`` that is no list or mapping (``value`` itself when it is none)."""
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    return [value]


def rewritten(data: dict[str, Any], pattern: str, number: float | None = None) -> bool:
    """Whether the regular expression ``pattern`` matches a text, or ``number`` is a number in tool data, anywhere
    a variant rewrites in ``data`` (a drill's data, as dumped: :func:`variable_texts`)."""
    regex = re.compile(pattern)
    for _, container, field in variable_texts(data):
        leaves = _leaves(container[field])
        if any(isinstance(s, str) and regex.search(s) for s in leaves) or (number is not None and any(
                _same_number(n, number) for n in leaves if isinstance(n, int | float) and not isinstance(n, bool))):
            return True
    return False


def _same_number(n: float, number: float) -> bool:
    """Whether the number ``n`` of tool data is ``number`` as a float; a whole number past what a float holds (tool
    data may hold one) is none."""
    try:
        return float(n) == number
    except OverflowError:
        return False


def rewritten_count(data: dict[str, Any], pattern: str) -> int:
    """How many times the regular expression ``pattern`` matches the texts a variant rewrites in ``data`` (a drill's
    data, as dumped: :func:`variable_texts`)."""
    regex = re.compile(pattern)
    texts = (s for _, container, field in variable_texts(data) for s in _leaves(container[field]) if isinstance(s, str))
    return sum(len(regex.findall(s)) for s in texts)


def orders(group: list[str]) -> Iterable[tuple[str, ...]]:
    """Every order of a shuffle group but the one written."""
    return (p for p in permutations(group) if list(p) != group)
