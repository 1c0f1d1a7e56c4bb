"""Which sessions the cohort figures count, said on every console page: once any assessment session exists,
``warroom scores summary``, ``warroom report`` and the console count only assessment sessions (``--mode auto``,
:func:`warroom.store.cohort.counted_modes`)."""

from __future__ import annotations

from warroom.core.text import plural


def counting_sentence(assessment: int, practice: int, tutorial: int = 0, unverified: int = 0) -> str:
    """The sentence for a store holding ``assessment``, ``practice`` and ``tutorial`` sessions (the tutorial's never
    count, and the sentence says how many there are: the sessions page lists them), ``unverified`` of them not
    verified (left out of every figure, as ``warroom scores summary`` leaves them out and says so)."""
    return _counted(assessment, practice) + (
        f" {plural(tutorial, 'tutorial session')} (warroom tutorial) {plural(tutorial, 'is', 'are', count=False)} "
        "listed but never counted." if tutorial else ""
    ) + _unverified(unverified)


def _unverified(n: int) -> str:
    if not n:
        return ""
    are, they = plural(n, "is", "are", count=False), plural(n, "it is", "they are", count=False)
    return (
        f" {plural(n, 'session')} not verified (stored by a trainee's own client, imported, or found wrong by "
        f"warroom scores verify) {are} left out of every figure, marked ! where {they} listed; warroom scores verify "
        "says why."
    )


def _counted(assessment: int, practice: int) -> str:
    if assessment:
        left = f"; {plural(practice, 'practice session')} left out" if practice else ""
        return (
            f"The figures count assessment sessions only: {assessment:,} of the {assessment + practice:,} stored "
            f"sessions are assessments{left} (as warroom scores summary and warroom report do; their --mode all "
            "counts every session)."
        )
    return (
        f"The figures count every session ({plural(practice, 'practice session')}; no assessment session yet). Once "
        "an assessment session is stored, they count only assessment sessions, as warroom scores summary and "
        "warroom report do."
    )
