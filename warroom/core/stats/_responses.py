"""A session's trial response when its scorecard does not record one (scoring rules before version 4): the
approximation from the stored outcome, what the session was played as and its false escalations (docs/sessions.md,
"Cohort statistics": responses of older sessions).

Scoring rules version 4 record the trial's response, read from the first escalation (``hit``, ``miss``,
``localisation_error``, ``false_alarm``, ``correct_rejection``, ``abandoned``: docs/scoring.md). Older scorecards
record only the outcome, which reads the *containing* escalation, so the response is approximated:

- a signal trial: ``contained`` is a hit when the session made no false escalation, else a localisation error (a
  false escalation came first: nothing may be escalated after a containment); ``contained_late`` and ``missed``
  are misses (the first escalation, if any, came too late, or none came); ``right_step_unsupported``,
  ``wrong_step`` and ``false_alarm`` (an escalation before the evidence) are localisation errors; ``abandoned`` is
  a localisation error when the session escalated before quitting, else a miss;
- a noise trial: ``all_clear_held`` is a correct rejection; ``false_alarm`` a false alarm; ``abandoned`` a false
  alarm when the session escalated before quitting, else ``abandoned``.

What older rules cannot tell: the time of a false escalation (one before the deadline in a ``contained_late`` or
``missed`` session makes the true response a localisation error, not a miss) and whether citations were specific
(version 4's rule). ``warroom scores rescore --rules N`` (N: 4 or later) replaces the approximation by the
recorded response.
:data:`APPROXIMATED` gives the SQL of the same table (schema migration 12 fills the stored sessions' ``response``
column with it).
"""

from __future__ import annotations

from warroom.core.model import Outcome, PlayedAs, Response

#: (played as, outcome) -> (response without a false escalation, response with one).
APPROXIMATED: dict[tuple[PlayedAs, Outcome], tuple[Response, Response]] = {
    (PlayedAs.SIGNAL, Outcome.CONTAINED): (Response.HIT, Response.LOCALISATION_ERROR),
    (PlayedAs.SIGNAL, Outcome.CONTAINED_LATE): (Response.MISS, Response.MISS),
    (PlayedAs.SIGNAL, Outcome.MISSED): (Response.MISS, Response.MISS),
    (PlayedAs.SIGNAL, Outcome.RIGHT_STEP_UNSUPPORTED): (Response.LOCALISATION_ERROR, Response.LOCALISATION_ERROR),
    (PlayedAs.SIGNAL, Outcome.WRONG_STEP): (Response.LOCALISATION_ERROR, Response.LOCALISATION_ERROR),
    (PlayedAs.SIGNAL, Outcome.FALSE_ALARM): (Response.LOCALISATION_ERROR, Response.LOCALISATION_ERROR),
    (PlayedAs.SIGNAL, Outcome.ABANDONED): (Response.MISS, Response.LOCALISATION_ERROR),
    (PlayedAs.NOISE, Outcome.ALL_CLEAR_HELD): (Response.CORRECT_REJECTION, Response.FALSE_ALARM),
    (PlayedAs.NOISE, Outcome.FALSE_ALARM): (Response.FALSE_ALARM, Response.FALSE_ALARM),
    (PlayedAs.NOISE, Outcome.ABANDONED): (Response.ABANDONED, Response.FALSE_ALARM),
}

#: The responses of a signal trial (the others are a noise trial's): what a trial was played as follows from its
#: response.
SIGNAL_RESPONSES: frozenset[Response] = frozenset({Response.HIT, Response.MISS, Response.LOCALISATION_ERROR})


def approximate_response(outcome: Outcome | str, played_as: PlayedAs | str, false_escalations: int) -> Response | None:
    """The response of a session scored by rules that do not record one (see the module docstring); None for an
    outcome that does not fit what the session was played as (a containment in a noise trial)."""
    try:
        pair = APPROXIMATED.get((PlayedAs(played_as), Outcome(outcome)))
    except ValueError:
        return None
    if pair is None:
        return None
    return pair[1] if false_escalations > 0 else pair[0]


def approximated_sql(played_as_sql: str) -> str:
    """The SQL ``CASE`` of :func:`approximate_response` over the columns ``outcome`` and ``false_escalations``, with
    ``played_as_sql`` the SQL expression of what the session was played as (``'signal'`` or ``'noise'``)."""
    whens = []
    for (played, outcome), (plain, escalated) in APPROXIMATED.items():
        where = f"{played_as_sql} = '{played.value}' AND outcome = '{outcome.value}'"
        if plain is escalated:
            whens.append(f"WHEN {where} THEN '{plain.value}'")
        else:
            whens.append(f"WHEN {where} AND false_escalations > 0 THEN '{escalated.value}'")
            whens.append(f"WHEN {where} THEN '{plain.value}'")
    return "CASE " + " ".join(whens) + " END"
