"""The distractor templates of ``warroom project``: harmless oddities added to a projected drill and to its twin
alike, as a real trace has them (TIP's clutter in the bag): a retried 429, a slow call, a deprecation warning.

Each is placed in a plan step other than the fault's origin (the fairness rules: a trainee who escalates every odd
event must not land on the origin step, and a distractor must not share the kind and step of the evidence) and
never on the changed result or a damage call. An added event takes an id made from the event it sits beside
(``call_7-1``); where it needs drill time the events from there on are released later, and the drill says so.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from warroom.core.projection._damage import is_write_like
from warroom.core.projection._output import read_output
from warroom.core.projection._timing import shift_from


@dataclass(frozen=True)
class Added:
    """One distractor added: its template's ``name``, the distractor ``event`` (its id), ``why_harmless`` (for the
    debrief) and ``note`` (what was added or stretched, for the drill's ``source``)."""

    name: str
    event: str
    why_harmless: str
    note: str


#: Tools that are the model's own scratchpad, not a call to anything: no distractor goes on them.
_NOT_TOOLS = frozenset({"think", "reason", "plan", "scratchpad", "note"})


def _new_id(base: str, taken: set[str]) -> str:
    """An event id made from ``base`` that ``taken`` does not hold (``base``, ``base-b``, ``base-c`` ...)."""
    base = base[:76].rstrip("-._") or "e"
    candidate, n = base, 0
    while candidate in taken:
        n += 1
        candidate = f"{base}-{chr(ord('a') + n) if n < 26 else n}"
    taken.add(candidate)
    return candidate


class Distractor:
    """One distractor template: where it may go (:meth:`sites`: indexes of the trace) and what it adds there."""

    name: ClassVar[str]
    description: ClassVar[str]

    def sites(self, events: list[dict[str, Any]], allowed: set[str], protected: set[str]) -> list[int]:
        raise NotImplementedError

    def apply(self, events: list[dict[str, Any]], index: int, rng: random.Random,
              taken: set[str]) -> tuple[list[dict[str, Any]], Added]:
        raise NotImplementedError


def _tool_of(events: list[dict[str, Any]], result: dict[str, Any]) -> str:
    return next((str(e.get("tool")) for e in events if e.get("id") == result.get("call")), "the tool")


def _reads(events: list[dict[str, Any]], allowed: set[str], protected: set[str]) -> list[int]:
    """The results of reading calls in ``allowed`` steps that returned something (an empty result beside an
    oddity would look like a fault), none of them ``protected`` (nor their call), none of a thinking tool."""
    return [i for i, e in enumerate(events) if e.get("kind") == "tool_result" and e.get("step") in allowed
            and e["id"] not in protected and e.get("call") not in protected and not e.get("repeat")
            and e.get("output") not in (None, "", [], {}, "[]", "{}") and i > 0
            and not is_write_like(tool := _tool_of(events, e)) and tool.lower() not in _NOT_TOOLS]


class Retried429(Distractor):
    """A first attempt answered HTTP 429, retried by the client a moment later, successfully."""

    name = "retried-429"
    description = "a tool call's first attempt answered HTTP 429, then retried and answered in full"

    def sites(self, events: list[dict[str, Any]], allowed: set[str], protected: set[str]) -> list[int]:
        out = []
        for i in _reads(events, allowed, protected):
            call = next((j for j, e in enumerate(events) if e.get("id") == events[i].get("call")), None)
            if call is not None and call > 0 and not events[call].get("retry_of") and not events[call].get("batch"):
                out.append(call)
        return out

    def apply(self, events: list[dict[str, Any]], index: int, rng: random.Random,
              taken: set[str]) -> tuple[list[dict[str, Any]], Added]:
        call = events[index]
        result = events[next((i for i, e in enumerate(events) if e.get("kind") == "tool_result"
                              and e.get("call") == call["id"]), None) or index]
        wait = rng.choice((1, 2, 2, 3))
        first: dict[str, Any] = {k: call[k] for k in ("id", "t", "step", "agent", "kind", "tool", "arguments")
                                 if k in call}
        first["id"] = _new_id(f"{call['id']}-1", taken)
        body = {"error": {"type": "rate_limit_error", "message": f"Too Many Requests: retry after {wait} s"}}
        form = read_output(result)
        output: Any = form[1].dump(body) if form is not None else f"429 Too Many Requests: retry after {wait} s"
        refused = {"id": _new_id(f"{result['id']}-1", taken), "t": call["t"] + 0.3, "step": call.get("step"),
                   **({"agent": result["agent"]} if "agent" in result else {}), "kind": "tool_result",
                   "call": first["id"], "status": "HTTP 429", "output": output, "duration_ms": 41}
        stretch = wait + 0.5
        later = shift_from(events, index, stretch)
        later[index] = {**later[index], "retry_of": first["id"]}
        tool = call.get("tool", "the tool")
        added = Added(
            self.name, refused["id"],
            f"The first attempt of {tool} ({first['id']}) was rate limited (HTTP 429 at {refused['id']}); the client "
            f"waited {wait} s and retried at {call['id']}, and the retry's result ({result['id']}) is complete. A 429 "
            "that is retried and then answered is back-pressure handled, not a failure.",
            f"a first attempt of {tool} answered HTTP 429 ({first['id']}, {refused['id']}) before {call['id']}, which "
            f"retries it; the events from {call['id']} on are released {stretch:g} s later",
        )
        return [*later[:index], first, refused, *later[index:]], added


class SlowCall(Distractor):
    """A call that takes many seconds to answer, and answers in full."""

    name = "slow-call"
    description = "a tool result that took 8 to 15 s to come back (duration_ms), complete"

    def sites(self, events: list[dict[str, Any]], allowed: set[str], protected: set[str]) -> list[int]:
        return [i for i in _reads(events, allowed, protected) if (events[i].get("duration_ms") or 0) < 3000]

    def apply(self, events: list[dict[str, Any]], index: int, rng: random.Random,
              taken: set[str]) -> tuple[list[dict[str, Any]], Added]:
        result = events[index]
        took = rng.randrange(800, 1500) * 10
        call_t = next((e["t"] for e in events if e.get("id") == result.get("call")), result["t"])
        stretch = round(max(0.0, took / 1000 - (result["t"] - call_t)), 1)
        later = shift_from(events, index, stretch) if stretch else list(events)
        later[index] = {**later[index], "duration_ms": took}
        tool = _tool_of(events, result)
        note = f"{result['id']} took {took / 1000:g} s (duration_ms)"
        if stretch:
            note += f"; the events from {result['id']} on are released {stretch:g} s later"
        added = Added(
            self.name, result["id"],
            f"{tool} took {took / 1000:g} s to answer at {result['id']} (duration_ms = {took}), far slower than the "
            "other calls, but it answered in full: slowness alone is not a failure.",
            note,
        )
        return later, added


class Deprecation(Distractor):
    """A warning from the tool's client that the endpoint is deprecated; the call was served as usual."""

    name = "deprecation-warning"
    description = "a log warning that the tool's v1 endpoint is deprecated, right after a complete result"

    def sites(self, events: list[dict[str, Any]], allowed: set[str], protected: set[str]) -> list[int]:
        # after any complete result, a write's too (the log is an event of its own, never the damage call)
        return [i for i, e in enumerate(events) if e.get("kind") == "tool_result" and e.get("step") in allowed
                and e["id"] not in protected and not e.get("repeat") and i > 0
                and e.get("output") not in (None, "", [], {}, "[]", "{}")
                and _tool_of(events, e).lower() not in _NOT_TOOLS]

    def apply(self, events: list[dict[str, Any]], index: int, rng: random.Random,
              taken: set[str]) -> tuple[list[dict[str, Any]], Added]:
        result = events[index]
        tool = _tool_of(events, result)
        removal = rng.choice(("in API version 3", "at the end of the quarter", "in the next major release"))
        log = {"id": _new_id(f"{result['id']}-w", taken), "t": result["t"], "step": result.get("step"),
               **({"agent": result["agent"]} if "agent" in result else {}), "kind": "log", "source": "tool-sdk",
               "level": "warning",
               "content": f"DeprecationWarning: {tool} v1 is deprecated and will be removed {removal}; move to the "
                          f"v2 endpoint (api_version=2). This request was served by v1 as usual."}
        added = Added(
            self.name, log["id"],
            f"A deprecation notice about {tool}'s v1 endpoint: the call was served as usual and its result "
            f"({result['id']}) is complete; the notice is for the people who maintain the integration, not a fault "
            "in this run.",
            f"a deprecation warning ({log['id']}) after {result['id']}",
        )
        return [*events[: index + 1], log, *events[index + 1:]], added


#: Every distractor template, by name.
DISTRACTORS: dict[str, Distractor] = {d.name: d for d in (Retried429(), SlowCall(), Deprecation())}


def add_distractors(events: list[dict[str, Any]], count: int, allowed: set[str], protected: set[str],
                    rng: random.Random) -> tuple[list[dict[str, Any]], list[Added]]:
    """``events`` with up to ``count`` distractors added, each of another template (drawn with ``rng``), at sites in
    the ``allowed`` plan steps away from the ``protected`` event ids. Returns the new trace and what was added."""
    taken = {str(e["id"]) for e in events}
    added: list[Added] = []
    names = list(DISTRACTORS)
    rng.shuffle(names)
    for name in names:
        if len(added) >= count:
            break
        template = DISTRACTORS[name]
        sites = template.sites(events, allowed, protected | {a.event for a in added})
        if not sites:
            continue
        events, one = template.apply(events, rng.choice(sites), rng, taken)
        added.append(one)
    return events, added
