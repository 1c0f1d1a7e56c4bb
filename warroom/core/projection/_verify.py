"""Whether a projection is a drill fit to play: ``warroom validate``'s rules and ``warroom check``'s scripted
trainees on the fault drill, and, when the drill format has twins, on its twin as an all-clear drill
(:func:`verify`). ``warroom project`` writes only projections with no problem.

Every check of a drill runs, but not the engine's self-test (each trainee's run re-scored from its action log and
compared with the live replay): it tests the scoring engine, not the drill, and doubles the work of ``--all``,
whose hundreds of drills all play on one engine. ``warroom check`` on the drills written still runs it."""

from __future__ import annotations

from typing import Any

from warroom.core.projection._engine import Projection

__all__ = ["verify"]


def _where(loc: tuple[Any, ...]) -> str:
    return "".join(f"[{x}]" if isinstance(x, int) else f".{x}" for x in loc).lstrip(".")


def _problems_of(data: dict[str, Any], what: str) -> tuple[Any, list[str]]:
    """``data`` as a drill and its problems (validation and check), each starting with ``what``."""
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
    return drill, [f"{what}: warroom check: {p}" for p in run_checks(drill, self_test=False).problems]


def verify(projection: Projection) -> list[str]:
    """Every problem ``warroom validate`` and ``warroom check`` would report of the projected drill and of its twin
    (played as an all-clear drill; empty: fit to play). Never raises for a projection
    :func:`~warroom.core.projection.build` made."""
    from warroom.core.author import check_twin

    drill, problems = _problems_of(projection.data, "the fault drill")
    if drill is None or problems:
        return problems
    twin = check_twin(drill, self_test=False)
    return [f"the fault drill: warroom check: {p}" for p in twin.problems] if twin is not None else []
