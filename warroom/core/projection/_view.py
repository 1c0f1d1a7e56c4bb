"""What the projection templates read of a healthy run: each tool result with its call and its output as data
(:class:`ResultView`), and the run's text (:class:`RunText`): what each event says, which events the agent wrote,
the currency the run speaks of and the latest date in it.

A template changes one result and leaves the rest of the trace as it was, so it must not take away anything the
agent used later: :meth:`RunText.needed_later` tells whether a value of a result shows up in what the agent did
after it without appearing anywhere else it could have come from.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from warroom.core.projection._output import OutputForm, read_output

#: Event kinds the agent itself writes (its later behaviour is what a projection keeps).
AGENT_KINDS = frozenset({"tool_call", "executor_message", "executor_report", "planner_call"})
#: The fields of an event that hold what it says.
_TEXT_FIELDS = ("content", "output", "stdout", "stderr", "arguments", "tool")
_DATE = re.compile(r"\b(20\d\d-[01]\d-[0-3]\d)")
_CURRENCIES = (("USD", re.compile(r"\$|\bUSD\b|\bdollars?\b")), ("EUR", re.compile(r"€|\bEUR\b|\beuros?\b")),
               ("GBP", re.compile(r"£|\bGBP\b|\bpounds? sterling\b")))


def _is_date(text: str) -> bool:
    """Whether ``text`` (``YYYY-MM-DD``) is a day of the calendar."""
    from datetime import date

    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _text_of(event: dict[str, Any]) -> str:
    parts = []
    for name in _TEXT_FIELDS:
        value = event.get(name)
        if value is None:
            continue
        parts.append(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))
    return "\n".join(parts)


@dataclass
class RunText:
    """The text of a healthy run's trace (plain data), event by event, with what the templates ask of it."""

    events: list[dict[str, Any]]
    texts: list[str] = field(init=False)
    agent: list[bool] = field(init=False)
    #: The currency the run's text names most ("USD" for ``$``), or "" when it names none.
    currency: str = field(init=False)
    #: The latest ISO date (``2026-03-20``) in the run's text, or None (text shaped like one that is no date, such as
    #: ``2026-02-30``, is not one).
    latest_date: str | None = field(init=False)

    def __post_init__(self) -> None:
        self.texts = [_text_of(e) for e in self.events]
        self.agent = [e.get("kind") in AGENT_KINDS for e in self.events]
        whole = "\n".join(self.texts)
        counts = [(len(rx.findall(whole)), name) for name, rx in _CURRENCIES]
        best = max(counts)
        self.currency = best[1] if best[0] else ""
        dates = [d for d in set(_DATE.findall(whole)) if _is_date(d)]  # 2026-02-30 or a build 2026-19-39 is none
        self.latest_date = max(dates) if dates else None

    def later_agent_text(self, index: int) -> str:
        """What the agent wrote after event ``index`` (its calls' arguments, messages and reports)."""
        return "\n".join(t for j, t in enumerate(self.texts) if j > index and self.agent[j])

    def needed_later(self, index: int, values: list[str], rest: str) -> bool:
        """Whether one of ``values`` (texts taken from result ``index``) shows up in what the agent did after it
        and nowhere else it could have come from: not in ``rest`` (what the changed result still says) and in no
        other event before the agent first used it."""
        later = self.later_agent_text(index)
        for value in dict.fromkeys(v for v in values if v in later and v not in rest):
            first_use = next(j for j in range(index + 1, len(self.texts)) if self.agent[j] and value in self.texts[j])
            if not any(value in self.texts[k] for k in range(first_use) if k != index):
                return True  # the agent's first use of it can only have come from this result
        return False


@dataclass(frozen=True)
class ResultView:
    """One tool (or command) result of the healthy run as a template reads it: its ``index`` in the trace, the
    event and its call (plain data; the call None when the trace has none), the ``tool``'s name, the output as data
    (``value``) and the ``form`` it was written in, and the run's text."""

    index: int
    event: dict[str, Any]
    call: dict[str, Any] | None
    tool: str
    value: Any
    form: OutputForm
    run: RunText

    @property
    def id(self) -> str:
        """The result event's id."""
        return str(self.event["id"])

    @property
    def call_id(self) -> str | None:
        """Its tool call's id (None when there is none)."""
        return None if self.call is None else str(self.call["id"])

    @property
    def arguments(self) -> dict[str, Any]:
        """The call's arguments (empty when there is no call)."""
        args = self.call.get("arguments") if self.call is not None else None
        return args if isinstance(args, dict) else {}


def result_views(events: list[dict[str, Any]], run: RunText | None = None) -> list[ResultView]:
    """Every result of ``events`` (a trace as plain data) that a template could change: a tool result or command
    result whose output is JSON data (a mapping or a list), with its call; events that repeat or show the model
    something else than their output (``repeat``, ``shown``) are left out."""
    run = run if run is not None else RunText(events)
    calls = {e["id"]: e for e in events if e.get("kind") == "tool_call"}
    out = []
    for i, event in enumerate(events):
        if event.get("kind") not in ("tool_result", "command_result") or event.get("repeat") or event.get("shown"):
            continue
        read = read_output(event)
        if read is None:
            continue
        call = calls.get(event.get("call"))
        tool = str(call.get("tool")) if call is not None else str(event.get("call") or "tool")
        out.append(ResultView(i, event, call, tool, read[0], read[1], run))
    return out
