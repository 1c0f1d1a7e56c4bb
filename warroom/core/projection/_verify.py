"""Whether a projection is a drill fit to play: ``warroom validate``'s rules and ``warroom check``'s scripted
trainees on the fault drill, and, when the drill format has twins, on its twin as an all-clear drill
(:func:`verify`), and check's warning that a blind *newest guess* wins too often (``--all`` then prefers another
site of the same template and shape). ``warroom project`` writes only projections with no problem.

Every check of a drill runs, but not the engine's self-test (each trainee's run re-scored from its action log and
compared with the live replay): it tests the scoring engine, not the drill, and doubles the work of ``--all``,
whose hundreds of drills all play on one engine. ``warroom check`` on the drills written still runs it."""

from __future__ import annotations

from typing import Any

from warroom.core.projection._engine import Projection


def _where(loc: tuple[Any, ...]) -> str:
    return "".join(f"[{x}]" if isinstance(x, int) else f".{x}" for x in loc).lstrip(".")


def _problems_of(data: dict[str, Any], what: str, warnings: list[str] | None) -> tuple[Any, list[str]]:
    """``data`` as a drill and its problems (validation and check), each starting with ``what``; check's blind-guess
    warning (:func:`_blind_guess`) is added to ``warnings`` (None: not asked)."""
    from pydantic import ValidationError

    from warroom.core.author import run_checks
    from warroom.core.model import Drill
    from warroom.core.rules import validate_drill

    try:
        drill = Drill.model_validate(data)
    except ValidationError as exc:
        return None, [f"{what}: {_where(tuple(e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False)]
    issues = validate_drill(drill)
    if issues:
        return drill, [f"{what}: {_where(i.loc)}: {i.message}" for i in issues]
    report = run_checks(drill, self_test=False)
    problems = [f"{what}: warroom check: {p}" for p in report.problems]
    if warnings is not None:
        warnings += _blind_guess(report, what)
    return drill, problems


def _blind_guess(report: Any, what: str) -> list[str]:
    """check's *newest-guess* warning as a problem (a projection is written only when a guess that reads nothing
    wins at most :data:`~warroom.core.author.NEWEST_GUESS_WARN` of the time; its twin, with no fault, is never
    at risk)."""
    from warroom.core.author import NEWEST_GUESS_WARN, newest_guess_sentence

    if report.newest_guess_share <= NEWEST_GUESS_WARN:
        return []
    return [f"{what}: warroom check: {newest_guess_sentence(report.newest_guess_share, report.newest_guess)[0]}"]


def verify(projection: Projection, warnings: list[str] | None = None) -> list[str]:
    """Every problem ``warroom validate`` and ``warroom check`` would report of the projected drill and of its twin
    (played as an all-clear drill; empty: fit to play). Given a ``warnings`` list, check's warning that a blind
    *newest guess* would win too often is added to it (``warroom project --all`` then prefers another site of the
    same shape). Never raises for a projection :func:`~warroom.core.projection.build` made."""
    from warroom.core.author import check_twin

    drill, problems = _problems_of(projection.data, "the fault drill", warnings)
    if drill is None or problems:
        return problems
    twin = check_twin(drill, self_test=False)
    return [f"the fault drill: warroom check: {p}" for p in twin.problems] if twin is not None else []
