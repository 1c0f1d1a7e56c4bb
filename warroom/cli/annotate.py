"""``warroom annotate FILE``: mark up an imported drill's answer key in the war room's author mode."""

from __future__ import annotations

import os
from pathlib import Path

import click

from warroom.core.format import clean


@click.command("annotate")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option("--speed", type=click.FloatRange(min=0.5, max=32), default=1.0, show_default=True,
              help="Initial playback speed of the drill clock (drill seconds per real second).")
def annotate(file: Path, speed: float) -> None:
    """Mark up FILE's answer key in the war room's author mode: replay and scrub the trace, mark the fault's origin,
    the evidence, distractors, damage and the deadline, write the debrief, and save into FILE (its comments and
    layout kept); then see what `warroom validate` and `warroom check` say of it. A drill that has an answer key
    already opens with it, for editing. Nothing is scored and no session is kept (docs/importing.md)."""
    from warroom.core.annotatefile import AnnotateError, open_for_annotation

    try:
        opened = open_for_annotation(file)
    except AnnotateError as exc:
        for line in exc.problems:
            click.echo(clean(line), err=True)
        click.echo(clean(f"{file}: cannot be marked up until the problems above are fixed"), err=True)
        raise SystemExit(1) from None

    from warroom.tui.launch import color_environment

    os.environ.update(color_environment(os.environ))  # before Textual reads its settings at import
    from warroom.tui.annotate_app import AnnotateApp

    app = AnnotateApp(opened, speed=speed)
    app.run()
    if app.return_code:
        raise SystemExit(app.return_code)
