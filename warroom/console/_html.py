"""The console's pages: Jinja2 templates (``templates/``) with autoescaping, so every value from a drill, a trace,
the roster or the store is shown literally (never as HTML), and the filters the templates format figures with."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from warroom.core.text import clean, clock, number, percent, seconds

TEMPLATES = Path(__file__).parent / "templates"


def share(k: int | None, n: int | None) -> str:
    """A rate with its counts: ``3 of 4 (75%)``; ``- (0 of 0)`` when there is nothing to count."""
    if k is None or not n:
        return f"- ({k or 0} of {n or 0})"
    return f"{k} of {n} ({percent(k / n)})"


def when(text: str | None) -> str:
    """An ISO 8601 UTC time as ``2026-12-01 14:10 UTC`` (``-`` for none)."""
    return "-" if not text else text[:16].replace("T", " ") + " UTC"


def outcome_of(session: Any) -> str:
    """A stored session's outcome as `warroom scores` says it (``contained late``; ``early escalation`` for an
    escalation only before the evidence of a drill with a fault, which the store keeps as ``false_alarm``)."""
    from warroom.core.model import outcome_label

    return outcome_label(str(session.outcome or ""), getattr(session, "all_clear", None))


def trainee_page(name: str) -> str:
    """The address of a trainee's page: the name as one path segment (``/`` written ``%2F``); ``.`` and ``..``, which
    a browser takes for the folder and its parent whatever their spelling, go in the query (``?name=``)."""
    from urllib.parse import quote

    if name.strip(".") == "":
        return "/console/trainees?name=" + quote(name, safe="")
    return "/console/trainees/" + quote(name, safe="")


def set_page(set_id: str) -> str:
    """The address of a drill set's completion grid, as :func:`trainee_page` writes a trainee's: the id one path
    segment (``/`` written ``%2F``), or in the query (``?id=``) when it is ``.`` or ``..`` (an id stored by SQL:
    warroom's own ids hold neither a ``/`` nor only dots, and such a set's grid could not be opened)."""
    from urllib.parse import quote

    if set_id.strip(".") == "":
        return "/console/sets?id=" + quote(set_id, safe="")
    return "/console/sets/" + quote(set_id, safe="")


@cache
def environment() -> Any:
    """The Jinja2 environment of the console's templates (autoescaped)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, trim_blocks=True, lstrip_blocks=True
    )
    from warroom.core.stats import d_prime_cell, estimate_cell, median_cell, rate_cell

    env.filters.update(
        clean=clean, clock=clock, number=number, percent=percent, seconds=seconds, share=share, when=when,
        rate=rate_cell, estimate=estimate_cell, d_prime=d_prime_cell, trainee_page=trainee_page, set_page=set_page,
        outcome=outcome_of,
        median=median_cell,
    )
    return env


def render(template: str, **context: Any) -> str:
    """The HTML of ``template`` with ``context``."""
    return str(environment().get_template(template).render(**context))
