"""Every applicable projection of a healthy run (``warroom project --all``), deduplicated and checked.

Two sites of one run are the same projection when the same template would change results of the same shape in
the same place (the same tool, the same keys, the same field, list indexes left out: :attr:`Site.shape`): only the
first of them that makes a drill fit to play is kept (:func:`project_all`), the others are counted as duplicates.
A projection that ``warroom validate`` or ``warroom check`` would fail is not kept: the next site of its shape is
tried, and when none works the problems are reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warroom.core.projection._engine import Options, Projection, build
from warroom.core.projection._sites import Site, Survey, sites_of
from warroom.core.projection._verify import verify

__all__ = ["Outcome", "project_all"]


@dataclass
class Outcome:
    """What :func:`project_all` made of one healthy run: the ``projections`` fit to play, the shapes that made
    none (``failed``: the last site tried and its problems), how many sites were ``duplicates`` of a kept one and
    the sites that cannot be projected at all (``unprojectable``)."""

    projections: list[Projection] = field(default_factory=list)
    failed: list[tuple[Site, list[str]]] = field(default_factory=list)
    duplicates: int = 0
    unprojectable: list[Site] = field(default_factory=list)


def project_all(survey: Survey, options: Options, templates: list[str] | None = None) -> Outcome:
    """Every applicable projection of ``survey``'s run (of the named ``templates``; None: all), one per template
    and result shape, each checked (:func:`~warroom.core.projection.verify`)."""
    from warroom.core.projection._templates import TEMPLATES

    chosen = [TEMPLATES[t] for t in templates] if templates else None
    outcome = Outcome()
    by_shape: dict[tuple[str, str], list[Site]] = {}
    for site in sites_of(survey, chosen):
        if site.ok:
            by_shape.setdefault((site.template, site.shape), []).append(site)
        else:
            outcome.unprojectable.append(site)
    for sites in by_shape.values():
        problems: list[str] = []
        for tried, site in enumerate(sites):
            projection = build(survey, site, options)
            problems = verify(projection)
            if not problems:
                outcome.projections.append(projection)
                outcome.duplicates += len(sites) - tried - 1
                break
        else:
            outcome.failed.append((sites[-1], problems))
    return outcome
