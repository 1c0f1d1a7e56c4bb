"""``warroom annotate FILE``: mark up an imported drill's answer key in the war room's author mode."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import click

from warroom.core.text import clean


@click.command("annotate")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option("--speed", type=click.FloatRange(min=0.5, max=32), default=1.0, show_default=True,
              help="Initial playback speed of the drill clock (drill seconds per real second).")
def annotate(file: Path, speed: float) -> None:
    """Mark up FILE's answer key in the war room's author mode: replay and scrub the trace, mark the fault's origin,
    the evidence, distractors, damage and the deadline, write the debrief, and save into FILE (its comments and
    layout kept); then see what `warroom validate` and `warroom check` say of it. A drill that has an answer key
    already opens with it, for editing. Nothing is scored and no session is kept (docs/importing.md)."""
    from warroom.core.author import AnnotateError, open_for_annotation

    try:
        opened = open_for_annotation(file)
    except AnnotateError as exc:
        trace = trace_kind(file)
        if trace is not None:  # a trace given for the drill imported from it: say which import to run first
            click.echo(clean(f"{file}: {trace}"), err=True)
            raise SystemExit(1) from None
        for line in exc.problems:
            click.echo(clean(line), err=True)
        click.echo(clean(f"{file}: cannot be marked up until the problems above are fixed"), err=True)
        raise SystemExit(1) from None

    from warroom.core.author import discard_recovery, recover
    from warroom.tui.app import color_environment

    os.environ.update(color_environment(os.environ))  # before Textual reads its settings at import
    from warroom.tui.app import AnnotateApp

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
        click.echo(clean(line), err=True)


def trace_kind(path: Path) -> str | None:
    """When ``path`` holds a JSON or JSON Lines trace (given to ``annotate`` instead of the drill imported from it):
    what it is and the command that imports it (``this is a chat transcript, not a drill: import it first ...``);
    None for anything else (a YAML drill, a file that cannot be read, JSON of another shape)."""
    import json
    import shlex

    from warroom.core.load import limits
    from warroom.importers.unsupported import unsupported_format

    try:
        if not path.is_file() or path.stat().st_size > limits.MAX_FILE_BYTES:
            return None
        text = path.read_text(encoding="utf-8-sig").strip()
        doc, _ = json.JSONDecoder().raw_decode(text)  # the first value: of JSON Lines, of objects one after another
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    known = unsupported_format(doc)
    if known is not None:
        return f"this is not a drill: it looks like {known}"
    out = shlex.quote(str(path))
    item = doc[0] if isinstance(doc, list) and doc else doc
    if not isinstance(item, dict) or "schema_version" in item or "plan" in item:  # a drill written as JSON
        return None
    data, trace, context = item.get("data"), item.get("trace"), item.get("context")
    if ("resourceSpans" in item or "batches" in item or "span_kind" in item
            or (isinstance(trace, dict) and "resourceSpans" in trace)
            or (isinstance(context, dict) and "span_id" in context)
            or (isinstance(data, list) and data and isinstance(data[0], dict) and "spans" in data[0])):
        how = f"`warroom import otel {out} --out DIR` (OpenTelemetry GenAI spans; `openinference` for OpenInference)"
        return _import_first("a trace of spans", how)
    if "history" in item and "mistake_step" in item:
        return _import_first("a Who&When record", f"`warroom import who-and-when {out} --out DIR`")
    if any(k in item for k in ("messages", "traj", "conversations", "role")):
        return _import_first("a chat transcript", f"`warroom import chat {out} --out DIR`")
    return None


def _import_first(what: str, how: str) -> str:
    return (f"this is {what}, not a drill: import it first with {how}, then `warroom annotate` the drill it writes in "
            "DIR (docs/importing.md)")
