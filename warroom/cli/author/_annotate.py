"""``warroom annotate FILE``: mark up an imported drill's answer key in the war room's author mode."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import click

from warroom.cli.common import FiniteFloat, GivenPath
from warroom.core.text import clean, clean_name, shown_path


@click.command("annotate")
@click.argument("file", type=GivenPath(path_type=Path, dir_okay=False, exists=True))
@click.option("--speed", type=FiniteFloat(min=0.5, max=32), default=1.0, show_default=True,
              help="Initial playback speed of the drill clock (drill seconds per real second).")
@click.option("--reading-time", type=FiniteFloat(min=1, max=120), default=None, metavar="S",
              help="On save, move the events after the earliest evidence later, so that the next one comes S "
                   "seconds after it (a comment above `trace:` says by how much).")
def annotate(file: Path, speed: float, reading_time: float | None) -> None:
    """Mark up FILE's answer key in the war room's author mode: replay and scrub the trace, mark the fault's origin,
    the evidence, distractors, damage and the deadline, write the debrief, the habit and the re-plan, set the title,
    difficulty and briefing, and save into FILE (its comments and layout kept); then see what `warroom validate` and
    `warroom check` say of it. A drill that has an answer key already opens with it, for editing. Nothing is scored
    and no session is kept (docs/importing.md)."""
    from warroom.core.author import AnnotateError, open_for_annotation

    try:
        opened = open_for_annotation(file)
    except AnnotateError as exc:
        trace = trace_kind(file)
        if trace is not None:  # a trace given for the drill imported from it: say which import to run first
            click.echo(f"{shown_path(file)}: {clean_name(trace)}", err=True)  # one line: a newline forges none
            raise SystemExit(1) from None
        for line in exc.problems:
            click.echo(clean(line), err=True)
        click.echo(f"{shown_path(file)}: cannot be marked up until the problems above are fixed", err=True)
        raise SystemExit(1) from None

    from warroom.core.author import discard_recovery, recover
    from warroom.tui.app import color_environment

    os.environ.update(color_environment(os.environ))  # before Textual reads its settings at import
    from warroom.tui.app import AnnotateApp

    opened.reading_time = reading_time
    recovered = recover(opened)
    app = AnnotateApp(opened, speed=speed, recovered=recovered, handle_signals=True)
    app.run()
    if app.stopped:
        _say_what_was_kept(app)
    elif recovered.draft is not None:  # the author saved the recovered marks, or chose to quit without them
        discard_recovery(file)
    if app.return_code:
        raise SystemExit(app.return_code)


def _say_what_was_kept(app: Any) -> None:
    """After a signal or a lost terminal stopped the author mode: where the unsaved marks are (on stderr, which may
    be gone with the terminal)."""
    import signal

    why = signal.Signals(app.stopped_by).name if app.stopped_by is not None else "the terminal closing"
    if app.kept is not None:
        line = (f"warroom annotate: stopped by {why}; the unsaved marks are in {app.kept}: "
                f"`warroom annotate {app.file.path}` loads them again")
    elif app.not_kept is not None:
        line = f"warroom annotate: stopped by {why}; the unsaved marks could not be kept: {app.not_kept}"
    else:
        return
    with contextlib.suppress(OSError):  # no terminal left to tell
        click.echo(clean_name(line), err=True)


def trace_kind(path: Path) -> str | None:
    """When ``path`` holds a trace an importer reads (given to ``annotate`` instead of the drill imported from it,
    recognised by the importers' registry: :func:`warroom.importers.kit.recognise`): what it is and the command that
    imports it (``this is a chat transcript, not a drill: import it first ...``); None for anything else (a YAML
    drill, a file that cannot be read, JSON of another shape)."""
    import shlex

    from warroom.importers.kit import recognise

    importer = recognise(path)
    if importer is None:
        return None
    how = f"`warroom import {importer.name} {shlex.quote(str(path))} --out DIR`"
    return (f"this is {importer.title}, not a drill: import it first with {how}, then `warroom annotate` the drill it "
            "writes in DIR (docs/importing.md)")
