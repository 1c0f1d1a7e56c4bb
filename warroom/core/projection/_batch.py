"""Every applicable projection of a healthy run (``warroom project --all``), deduplicated and checked.

Two sites of one run are the same projection when the same template would change results of the same shape in
the same place (the same tool, the same keys, the same field, list indexes left out: :attr:`Site.shape`): only the
first of them that makes a drill fit to play is kept (:func:`project_all`), the others are counted as duplicates.
A projection that ``warroom validate`` or ``warroom check`` would fail is not kept: the next site of its shape is
tried, and when none works the problems are reported. :func:`project_files` does it for many files, in worker
processes when asked (checking is most of the work, and each file is projected on its own).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field

from warroom.core.projection._damage import DamageRule
from warroom.core.projection._engine import Options, Projection, build
from warroom.core.projection._problems import ProjectionError
from warroom.core.projection._sites import Site, Survey, sites_of, survey
from warroom.core.projection._source import read_source
from warroom.core.projection._verify import verify


@dataclass
class Outcome:
    """What :func:`project_all` made of one healthy run: the ``projections`` fit to play, the shapes that made
    none (``failed``: the last site tried and its problems), how many sites were ``duplicates`` of a kept one and
    the sites that cannot be projected at all (``unprojectable``)."""

    projections: list[Projection] = field(default_factory=list)
    failed: list[tuple[Site, list[str]]] = field(default_factory=list)
    #: Projections kept although a blind *newest guess* wins more often than ``warroom check`` allows: no other site
    #: of their template and shape did better.
    guessable: int = 0
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
        _project_shape(survey, sites, options, outcome)
    return outcome


def _project_shape(survey: Survey, sites: list[Site], options: Options, outcome: Outcome) -> None:
    """The projection kept for one template and result shape, added to ``outcome``: the first of ``sites`` that is
    fit to play and that a blind *newest guess* does not win too often; else the first fit to play (counted in
    ``outcome.guessable``); else none (the last site's problems in ``outcome.failed``)."""
    problems: list[str] = []
    fallback = None
    unfit = 0  # (sites tried and not fit to play: neither kept nor duplicates)
    for site in sites:
        projection = build(survey, site, options)
        warnings: list[str] = []
        problems = verify(projection, warnings)
        if not problems and not warnings:
            outcome.projections.append(projection)
            outcome.duplicates += len(sites) - 1 - unfit
            return
        unfit += bool(problems)
        if not problems and fallback is None:
            fallback = projection
    if fallback is not None:
        outcome.projections.append(fallback)
        outcome.guessable += 1
        outcome.duplicates += len(sites) - 1 - unfit
    else:
        outcome.failed.append((sites[-1], problems))


def _project_file(path: str, rules: list[DamageRule], options: Options,
                  templates: list[str] | None) -> Outcome | ProjectionError:
    """:func:`project_all` of the healthy run in the file at ``path``, or the ProjectionError that refused it (a
    top-level function, so that a worker process can run it)."""
    try:
        return project_all(survey(read_source(path), rules), options, templates)
    except ProjectionError as exc:
        return exc


def workers(jobs: int, files: int) -> int:
    """The worker processes that project ``files`` files when ``jobs`` are asked for: no more than the files, nor
    than the CPUs this process may run on (the work is all CPU: more processes add only memory, about 50 MB each;
    ``--jobs 1000`` started 1,000)."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(jobs, files, cpus))


def project_files(paths: list[str], rules: list[DamageRule], options: Options, templates: list[str] | None = None,
                  jobs: int = 1) -> Iterator[tuple[str, Outcome | ProjectionError]]:
    """:func:`project_all` of each healthy run in ``paths``, in that order: ``(path, outcome)``, or ``(path,
    error)`` for a file that is not a healthy run. With ``jobs`` above 1 the files are projected by that many worker
    processes (the outcomes are the same, and come in the same order)."""
    if jobs <= 1 or len(paths) < 2:
        for path in paths:
            yield path, _project_file(path, rules, options, templates)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers(jobs, len(paths))) as pool:
        done = pool.map(_project_file, paths, *([x] * len(paths) for x in (rules, options, templates)))
        yield from zip(paths, done, strict=True)
