"""The editions of the scoring rules, as data: each version of the rules is one frozen :class:`Edition` (its point
values and its switches), and :data:`EDITIONS` maps each version to its edition, oldest first. The scoring code
reads an edition's fields; it never asks which version it applies. A scorecard records the version it was computed
with, and a stored session is re-scored by its own edition unless another is asked for, so an edition once
released never changes: tests/unit/test_scoring_editions.py pins every released edition's values.

Adding an edition (version 6, say) touches:

- this module: one more :class:`Edition` in :data:`EDITIONS`, the last one with what changes (a new field, when the
  new rule needs a switch or a value no edition had: give it to version 1 with the old behaviour, and the new
  value to the new edition), and :data:`SCORING_VERSION`;
- the code of a new switch, if any (:mod:`warroom.core.scoring._points` for points, ``_outcome`` for outcomes and
  verdicts, ``_score`` for what the scorecard records);
- tests/unit/test_scoring_editions.py: the new edition's values pinned;
- docs/scoring.md: the rules of the new version;
- only for an edition whose scorecards record no distractor figures: ``NO_DISTRACTOR_FIGURES`` in
  warroom/store/distractors.py (the versions the store reads no figures of).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType


@dataclass(frozen=True, kw_only=True)
class Edition:
    """One edition of the scoring rules: its ``version`` (as scorecards record it), its point values and its
    switches. No field has a default: version 1 gives every one, and each later edition is the one before it with
    the fields it changes (``dataclasses.replace``), so that a field added for a new edition must be given to
    version 1 and no change made for a new edition can reach an old one.

    Points of a faulted drill: the outcome's (``contained``, ``contained_late``, ``right_step_unsupported``; 0 for
    an outcome the edition does not have), the most for speed (``speed``) and for damage avoided (``damage``), the
    penalty per false escalation (``false_escalation_penalty``) and per needless verification probe
    (``needless_probe_penalty``; 0 when probes do not count). Points of an all-clear drill: ``all_clear_held`` and
    ``all_clear_false_alarm``.

    Switches: ``cites_count`` (what an escalation cites decides whether it contains: a containment citing no
    evidence is "right step, unsupported"), ``probes_count`` (the scorecard has a "Needless probes" component in a
    drill with probes), ``distractor_figures`` (the scorecard records ``distractors_shown`` and
    ``distractor_escalations`` for the cohort statistics) and ``records_response`` (the scorecard records the
    trial: ``played_as`` and the ``response`` read from the first escalation) and ``early_escalation`` (the
    scorecard's lines call the outcome ``false_alarm`` of a drill with a fault, every escalation before the
    evidence, an "early escalation": a false alarm is an escalation on a noise trial only; the stored value is the
    same).

    Citations, when they count: an escalation is supported when it cites evidence, and also, from version 4, when
    at least ``min_citation_precision`` of the events it cites are evidence or accepted evidence and it cites at
    most ``max_cited`` events (0 and 0: no such condition); with ``evidence_event_once`` (version 5) an event cited
    whole and by its evidence field (or by several) counts once as evidence in that share, else each distinct
    citation counts.

    Version 5's switches: ``accepted_evidence_detects`` (a released accepted-evidence event, or a probe listed as
    accepted evidence that gave its own answer, makes the fault detectable as evidence does, once the drill clock
    has reached the earliest evidence's time: the replay contains an escalation of the origin after it; the earliest
    evidence and the speed window are unchanged) and
    ``drops_float_noise`` (speed and damage points drop float noise below 1e-9 before rounding halves up, so a
    spend that is exactly half the full damage gives 12.5 points, 13); and, true up to version 4,
    ``distractor_fields_compare`` (a cited field of an event cites that event for a comparison, ``all_of``, even a
    distractor's field: ``e05:stale_after`` beside ``e10`` completes ``all_of [e05, e10]``; version 5 counts only
    fields that are not a distractor's, or that hold an evidence field).

    Version 6's switches: ``ids_by_position`` (a session of a drill with a twin plays, and its action log names, the
    trace events renamed by position: :func:`warroom.core.variants.session_drill`); not a rule of the points, but
    recorded with the session by its edition so that a session played before is rebuilt as it was played; and
    ``cited_fields_checked`` (the replay refuses a citation of a field its event does not have, ``e03:nosuchfield``,
    the Replay's switch of that name; an earlier edition's log holding one is judged as released: by the whole
    event, or the declared field around it).
    """

    version: str
    contained: int
    contained_late: int
    right_step_unsupported: int
    speed: int
    damage: int
    false_escalation_penalty: int
    needless_probe_penalty: int
    all_clear_held: int
    all_clear_false_alarm: int
    cites_count: bool
    probes_count: bool
    distractor_figures: bool
    records_response: bool
    early_escalation: bool
    min_citation_precision: float
    max_cited: int
    evidence_event_once: bool
    accepted_evidence_detects: bool
    drops_float_noise: bool
    distractor_fields_compare: bool
    ids_by_position: bool
    cited_fields_checked: bool


#: Version 1: the escalated step alone decides; citations are not judged.
_VERSION_1 = Edition(
    version="1",
    contained=50, contained_late=20, right_step_unsupported=0, speed=25, damage=25,
    false_escalation_penalty=10, needless_probe_penalty=0, all_clear_held=100, all_clear_false_alarm=50,
    cites_count=False, probes_count=False, distractor_figures=False, records_response=False,
    early_escalation=False, min_citation_precision=0.0, max_cited=0,
    evidence_event_once=False, accepted_evidence_detects=False, drops_float_noise=False,
    distractor_fields_compare=True, ids_by_position=False, cited_fields_checked=False,
)  # fmt: skip
#: Version 2: an escalation cites the events that show the fault; a containment that cites none of the evidence
#: (or of the events the author accepts) is "right step, unsupported", worth 10 points. The scorecard records the
#: distractor figures.
_VERSION_2 = replace(_VERSION_1, version="2", right_step_unsupported=10, cites_count=True, distractor_figures=True)
#: Version 3: a requested verification probe that does not find the fault costs 2 points (format 2 probes).
_VERSION_3 = replace(_VERSION_2, version="3", needless_probe_penalty=2, probes_count=True)
#: Version 4: the trial and its response (the first escalation decides: hit, miss, localisation error, false
#: alarm, correct rejection; a session quit with no escalation is a miss, or on a noise trial abandoned), and
#: citations must be specific: at least half of the cited events are evidence or accepted evidence, and at most 4 are
#: cited. An escalation only before the evidence of a fault is an "early escalation", no longer a "false alarm".
_VERSION_4 = replace(
    _VERSION_3, version="4", records_response=True, early_escalation=True, min_citation_precision=0.5, max_cited=4
)
#: Version 5: version 4's points and citations, and four switches (issue 34): a released accepted-evidence event
#: makes the fault detectable (in a drill whose fault only a probe's answer shows, escalating the origin after the
#: accepted symptom contains instead of being an early escalation); an event cited whole and by its evidence field
#: counts once as evidence; float noise below 1e-9 is dropped before a half is rounded up; a distractor's field does
#: not complete a comparison.
_VERSION_5 = replace(
    _VERSION_4, version="5", evidence_event_once=True, accepted_evidence_detects=True, drops_float_noise=True,
    distractor_fields_compare=False,
)
#: Version 6: version 5's points and citations; a session of a drill with a twin plays its trace events renamed by
#: position (``e01``, ``e02``, ... in release order, in signal and noise trials alike: issue 30's twin-id tell), so
#: its action log names those ids and re-scoring rebuilds the drill so (a session of an earlier edition is rebuilt
#: with the authored ids it was played with); a citation of a field its event does not have is refused, never
#: judged as the whole event (a log of an earlier edition is judged as it was).
_VERSION_6 = replace(_VERSION_5, version="6", ids_by_position=True, cited_fields_checked=True)

#: Every edition of the rules :func:`~warroom.core.scoring.score` can apply, by version, oldest first.
EDITIONS: Mapping[str, Edition] = MappingProxyType(
    {e.version: e for e in (_VERSION_1, _VERSION_2, _VERSION_3, _VERSION_4, _VERSION_5, _VERSION_6)}
)
#: The current edition's version: what a new session is scored by (a scorecard records the one it was computed
#: with).
SCORING_VERSION = "6"
#: Every version in :data:`EDITIONS`, oldest first.
SCORING_VERSIONS: tuple[str, ...] = tuple(EDITIONS)


def edition_of(rules: str) -> Edition:
    """The :class:`Edition` of the scoring rules version ``rules``; raises ValueError naming the known versions
    for one this code does not apply."""
    edition = EDITIONS.get(rules)
    if edition is None:
        raise ValueError(
            f"scoring rules version {rules!r} is not known to this warroom (it applies {', '.join(SCORING_VERSIONS)})"
        )
    return edition


def check_rules(rules: str) -> str:
    """``rules`` when it is a version of the scoring rules this code applies (:data:`SCORING_VERSIONS`); raises
    ValueError naming the known versions otherwise."""
    return edition_of(rules).version


def newer_rules(recorded: str | None) -> bool:
    """Whether ``recorded`` names scoring rules newer than every version this code applies: a whole number (in ASCII
    digits, leading zeros allowed) past the newest of :data:`SCORING_VERSIONS`, a newer warroom's. Compared as digits,
    never converted: a number of thousands of digits (a forged row) is past the newest too, and Python refuses to
    convert it (``int`` stops at 4,300 digits)."""
    if recorded is None or not (recorded.isascii() and recorded.isdecimal()):
        return False
    digits, newest = recorded.lstrip("0"), max(SCORING_VERSIONS, key=lambda v: (len(v), v))
    return (len(digits), digits) > (len(newest), newest)


def ids_by_position(recorded: str | None) -> bool:
    """Whether a session that recorded the scoring rules version ``recorded`` played a drill with a twin with its
    trace events renamed by position (:attr:`Edition.ids_by_position`): its edition's switch; False for a session
    that recorded no version (played before any edition renamed ids); True for a version this code does not know
    (a newer warroom's)."""
    if recorded is None:
        return False
    edition = EDITIONS.get(recorded)
    return edition.ids_by_position if edition is not None else True
