"""Answer-key hygiene: the one rule of what a trainee may see before the debrief (docs/authoring.md).

Every surface shown before a session's debrief (the drill picker and its preview, the briefing, the war room,
``warroom scores`` for a session that never reached its debrief, ``warroom cost`` without ``--answers``) takes
what it shows of a drill from here, never from the drill's fields directly:

- :func:`visible_tags`: only the tags the author marked as domain tags (``domain:billing`` is shown as
  ``billing``); every other tag (fault kinds, MAST/TRAIL/AgentRx terms, ``all-clear``) stays hidden until the
  debrief (:func:`debrief_tags`).
- :data:`ESCALATION_INSTRUCTION`: the one neutral sentence about escalating that every briefing carries (added by
  the app, never copied into drill files); :func:`briefing_hints` finds briefing text that hints at the answer
  (``warroom validate`` warns about it).
- :func:`damage_meter_text`: the damage accrued so far as a bare amount, without the damage unit.
- :func:`session_reached_debrief` and :data:`ANSWER_SESSION_FIELDS`: which stored fields of a session are
  answer-key figures, blanked until the session reached its debrief.
- :data:`ANSWER_COST_KEYS`: the keys of ``warroom cost --format json`` that come from the answer key.

Pure: imports only the drill model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from warroom.core.model._drill import ANSWER_TAG_PREFIXES, CONTROL_TAGS, Drill
from warroom.core.model._vocab import FaultKind

#: The prefix that marks a tag as a domain tag, shown before the debrief (without the prefix).
DOMAIN_TAG_PREFIX = "domain:"

#: The neutral instruction about escalating that the app adds to every drill's briefing (fault and all-clear alike).
ESCALATION_INSTRUCTION = (
    "Not every drill has a fault: escalate only if a plan step has really gone wrong, and name that step."
)

#: Outcomes of a session that never reached its debrief (the trainee quit, or the session was lost).
_PRE_DEBRIEF_OUTCOMES = frozenset({"abandoned"})

#: Stored session fields that come from the answer key: shown only for a session that reached its debrief. The
#: trial's ``response`` too: ``miss`` (a signal trial quit) or ``abandoned`` (a noise trial quit) said which trial a
#: session hiding ``played_as`` was; and its ``seed``, which draws that trial (``warroom run --seed N`` replays it).
ANSWER_SESSION_FIELDS = ("damage_unit", "full_damage", "all_clear", "played_as", "response", "seed")

#: Keys of a stored scorecard that come from the answer key or explain it (the debrief's lines).
ANSWER_SCORECARD_KEYS = ("outcome_text", "components", "full_damage", "damage_unit", "lines", "first_evidence_at",
                         "deadline", "played_as", "response")

#: Keys of ``warroom cost --format json`` that come from the answer key: only with ``--answers``.
ANSWER_COST_KEYS = ("all_clear", "cascade", "replan", "spend")


def without_answer_keys(cost: dict[str, Any]) -> dict[str, Any]:
    """``warroom cost``'s JSON document (:meth:`warroom.core.play.TraceCost.to_dict`) without the keys that come
    from the answer key (:data:`ANSWER_COST_KEYS`), key order kept."""
    return {k: v for k, v in cost.items() if k not in ANSWER_COST_KEYS}


def is_domain_tag(tag: str) -> bool:
    """True when ``tag`` is marked as a domain tag (``domain:...`` with some text after the prefix)."""
    t = tag.strip()
    return t.lower().startswith(DOMAIN_TAG_PREFIX) and bool(t[len(DOMAIN_TAG_PREFIX):].strip())


def visible_tags(drill: Drill) -> list[str]:
    """The tags a trainee may see before the debrief: the domain tags, without their ``domain:`` prefix, in the
    order written (a tag written twice shown once). Every other tag is shown only in the debrief."""
    out: list[str] = []
    for tag in drill.tags:
        if is_domain_tag(tag):
            shown = tag.strip()[len(DOMAIN_TAG_PREFIX):].strip()
            if shown not in out:
                out.append(shown)
    return out


def debrief_tags(drill: Drill) -> list[str]:
    """Every tag, as the debrief shows them: domain tags without their ``domain:`` prefix, the others as written."""
    return [t.strip()[len(DOMAIN_TAG_PREFIX):].strip() if is_domain_tag(t) else t for t in drill.tags]


def damage_meter_text(amount: float) -> str:
    """The war room's damage meter before the debrief: ``amount`` (in the drill's damage unit) as a bare number
    (``4,413``, ``12.5``), never with the unit, which names the fault's consequence."""
    from warroom.core.text import amount as fmt_amount

    return fmt_amount(amount)


def session_reached_debrief(outcome: str | None) -> bool:
    """True when a session with this stored ``outcome`` reached its debrief (every outcome but ``abandoned``)."""
    return outcome not in _PRE_DEBRIEF_OUTCOMES


def hidden_session_fields(outcome: str | None) -> tuple[str, ...]:
    """The stored fields of a session with this ``outcome`` that ``warroom scores`` must show as empty: the
    answer-key fields (:data:`ANSWER_SESSION_FIELDS`) of a session that never reached its debrief, else none."""
    return () if session_reached_debrief(outcome) else ANSWER_SESSION_FIELDS


def pre_debrief_session(row: dict[str, Any]) -> dict[str, Any]:
    """A stored session as ``warroom scores`` exports it (the dict of ``SessionRow.to_dict()`` or
    ``StoredSession.to_dict()``) with what the trainee had not seen set to None: for a session that never reached
    its debrief, the :data:`ANSWER_SESSION_FIELDS` and, in its ``scorecard``, the :data:`ANSWER_SCORECARD_KEYS`.
    A session that reached its debrief is returned unchanged. Never changes ``row``."""
    hidden = hidden_session_fields(row.get("outcome"))
    if not hidden:
        return row
    out = {**row, **dict.fromkeys(hidden)}
    card = row.get("scorecard")
    if isinstance(card, dict):
        out["scorecard"] = {**card, **dict.fromkeys(k for k in ANSWER_SCORECARD_KEYS if k in card)}
    return out


# ---------------------------------------------------------------------------------------------------------------
# What would give the answer away
# ---------------------------------------------------------------------------------------------------------------


def fault_kind_phrases(kind: FaultKind) -> list[str]:
    """The ways a fault kind is written: ``stale_data``, ``stale-data``, ``stale data``."""
    v = kind.value
    return sorted({v, v.replace("_", "-"), v.replace("_", " ")})


@dataclass(frozen=True)
class Hint:
    """Briefing text that gives something away: ``loc`` is the data path of the field (``("briefing",
    "watching")``), ``message`` says what and how to fix it."""

    loc: tuple[str | int, ...]
    message: str


_ESCALATE = re.compile(r"\bescalat\w*", re.IGNORECASE)
_CONTROL = re.compile(r"\b(all[- ]?clear|control drill|no fault|nothing (?:is |has )?(?:wrong|gone wrong))\b", re.I)


def _phrase_in(phrase: str, text: str) -> bool:
    return re.search(r"(?<![\w-])" + re.escape(phrase) + r"(?![\w-])", text, re.IGNORECASE) is not None


def briefing_hints(drill: Drill) -> list[Hint]:
    """Where the briefing (``goal``, ``watching``, ``context``), the title, a plan step's title or objective, a
    probe's question (:func:`_shown_before_play`: all shown before the debrief) or a domain tag hints at the answer: an
    instruction about escalating (the app adds :data:`ESCALATION_INSTRUCTION` to every briefing), words that say
    whether the drill has a fault (``all clear``, ``no fault``), a fault kind's name (``stale data``), or the
    drill's damage unit. One :class:`Hint` per field and reason, in field order."""
    key = drill.answer_key
    unit = key.damage.unit.strip() if key is not None else ""
    hints: list[Hint] = []
    briefing = drill.briefing
    fields: list[tuple[str, tuple[str | int, ...], str]] = [
        (f"briefing.{n}", ("briefing", n), t)
        for n, t in (("goal", briefing.goal), ("watching", briefing.watching), ("context", briefing.context)) if t]
    fields += _shown_before_play(drill)
    for name, loc, text in fields:
        match = _ESCALATE.search(text)
        if match:
            hints.append(Hint(loc, (
                f"{name} says when to escalate ({match.group(0)!r}); remove it: every briefing ends with "
                f"the same instruction, added by warroom: {ESCALATION_INSTRUCTION!r}")))
        match = _CONTROL.search(text)
        if match:
            hints.append(Hint(loc, (
                f"{name} says whether the drill has a fault ({match.group(0)!r}); remove it, so that "
                "fault drills and all-clear drills read alike")))
        for kind in FaultKind:
            if kind is not FaultKind.OTHER and any(_phrase_in(p, text) for p in fault_kind_phrases(kind)):
                hints.append(Hint(loc, (
                    f"{name} names the fault kind {kind.value!r}; describe the task and the stakes, not "
                    "what can go wrong")))
        if len(unit) >= 4 and _phrase_in(unit, text):
            hints.append(Hint(loc, (
                f"{name} names the damage unit {unit!r}; describe the stakes in other words")))
    for i, tag in enumerate(drill.tags):
        if is_domain_tag(tag) and _tag_names_answer(tag.strip()[len(DOMAIN_TAG_PREFIX):]):
            hints.append(Hint(("tags", i), (
                f"the domain tag {tag!r} names a fault kind or a control drill, and domain tags are shown before "
                "the debrief; drop the `domain:` prefix to show it only in the debrief")))
    return hints


def _shown_before_play(drill: Drill) -> list[tuple[str, tuple[str | int, ...], str]]:
    """The texts besides the briefing that a trainee reads before the debrief, which the author writes for the
    drill: the title (the picker), each plan step's title and objective (the plan), each probe's question (the
    escalation dialog's verifications, format 2), as ``(name, loc, text)``."""
    out: list[tuple[str, tuple[str | int, ...], str]] = [("title", ("title",), drill.title)]
    for i, step in enumerate(drill.plan):
        out += [(f"plan step {step.id}'s title", ("plan", i, "title"), step.title),
                (f"plan step {step.id}'s objective", ("plan", i, "objective"), step.objective)]
    out += [(f"probe {p.id}'s question", ("probes", i, "ask"), p.ask) for i, p in enumerate(drill.probes)]
    return out


def _tag_names_answer(text: str) -> bool:
    t = text.strip().lower()
    return t in CONTROL_TAGS or t.startswith(ANSWER_TAG_PREFIXES) or any(t in fault_kind_phrases(k) for k in FaultKind)

