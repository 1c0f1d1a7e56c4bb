"""``warroom check`` of a drill's twin: the healthy run judged as the all-clear drill a noise trial plays.

A drill with a ``twin`` section is played twice by the scripted trainees (:func:`warroom.core.author.run_checks`):
as written (a signal trial) and as its twin (:func:`warroom.core.model.twin_of`, a noise trial), which must pass as
an all-clear drill: *never* holds the all clear with the top score and every trainee who escalated scores less (so
a trigger-happy trainee pays on it). With ``--variants N`` the twin's variants of seeds 0 to N-1 are played too,
each the twin of the fault drill with the variant of that seed applied after it (as a noise session plays it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warroom.core.author._check import CheckReport, VariantCheck, check_variants, run_checks
from warroom.core.model import Drill, TwinError, twin_of

#: What each problem of a twin starts with, in ``warroom check``'s report.
TWIN_PREFIX = "twin: "


@dataclass(frozen=True)
class TwinCheck:
    """The check of a drill's twin: the scripted trainees' ``report`` on it (None when it could not be built,
    ``error`` then says why) and its ``variants`` checked."""

    report: CheckReport | None
    variants: VariantCheck
    error: str | None = None

    @property
    def problems(self) -> list[str]:
        """Every problem of the twin, each starting ``twin:`` (a seed's with its seed after it)."""
        found = [self.error] if self.error else []
        found += self.report.problems if self.report is not None else []
        found += list(self.variants.problems)
        return [TWIN_PREFIX + p for p in found]

    @property
    def passed(self) -> bool:
        """True when the twin passed every check."""
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``passed``, ``problems``, the ``runs`` of the scripted trainees and ``variants``."""
        return {
            "passed": self.passed,
            "problems": self.problems,
            "runs": [r.to_dict() for r in self.report.runs] if self.report is not None else [],
            "variants": self.variants.to_dict(),
        }


def check_twin(drill: Drill, variants: int = 0, *, self_test: bool = True) -> TwinCheck | None:
    """Check the twin of ``drill`` as an all-clear drill (and the variants of seeds ``0 .. variants-1`` of it);
    None for a drill without a twin. Never raises for a valid drill. ``self_test``: as
    :func:`~warroom.core.author.run_checks`."""
    if drill.twin is None:
        return None
    try:
        twin = twin_of(drill)
    except TwinError as exc:
        return TwinCheck(None, VariantCheck((), ()), str(exc))
    return TwinCheck(run_checks(twin, self_test=self_test), check_variants(twin, variants))
