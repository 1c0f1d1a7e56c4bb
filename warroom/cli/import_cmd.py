"""``warroom import``: turn real agent traces from public corpora into drills (see docs/importing.md).

Heavy modules (the importer, pydantic, PyYAML) are imported inside the command bodies so ``warroom --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from warroom.cli.import_options import ImportProgress, import_options, make_redactor, price_option
from warroom.cli.output import say

if TYPE_CHECKING:
    from warroom.importers.kit import Price


@click.group("import")
def import_group() -> None:
    """Turn real agent traces into drills.

    Each subcommand reads one trace format and writes one drill YAML file per record or trace. What the source
    does not record (the drill clock, token counts, prices) is estimated and said so in each drill. who-and-when
    records carry their answer key; chat, otel, openinference, langsmith, langfuse and openai-agents traces do
    not, and their drills say what the author must add (docs/importing.md).
    """


@import_group.command("who-and-when")
@import_options("Folder for the drill files (created if missing). Each drill is <out>/ww-<subset>-<record>.yaml.")
@price_option("--planner-price", help="Planner prices, USD per million input/output tokens (default 5/25).")
@price_option("--executor-price", help="Executor prices, USD per million input/output tokens (default 1/5).")
def who_and_when(
    paths: tuple[Path, ...], out_dir: Path, redact: bool, redact_names: Path | None, planner_price: Price,
    executor_price: Price, force: bool, verbose: bool
) -> None:
    """Convert Who&When records (JSON files, or folders searched recursively for *.json) into drills.

    Both record kinds are read: magentic-one (an Orchestrator plans and instructs agents) and captain-agent (a
    manager's plan, then expert turns). A record that cannot be imported is reported as `path: message` and the
    rest still import. Exit status: 0 when every record imported, 1 when any failed, 2 on usage errors.

    Example: warroom import who-and-when path/to/who-and-when --out ~/ww-drills
    """
    from warroom.core.text import clean, plural
    from warroom.importers.who_and_when import (
        DEFAULT_EXECUTOR_PRICE,
        DEFAULT_PLANNER_PRICE,
        ImportOptions,
        import_records,
    )

    options = ImportOptions(
        planner_price=planner_price or DEFAULT_PLANNER_PRICE,
        executor_price=executor_price or DEFAULT_EXECUTOR_PRICE,
        redactor=make_redactor(redact, redact_names),
    )
    progress = ImportProgress(verbose)
    try:
        report = import_records(paths, out_dir, options, force=force, progress=progress)
    except (FileNotFoundError, NotADirectoryError, FileExistsError, PermissionError) as e:
        raise click.UsageError(clean(e)) from None
    except OSError as e:
        raise click.UsageError(clean(f"{out_dir}: {e.strerror or e}")) from None
    finally:
        progress.finish()
    unreadable = _unreadable_folders(paths)
    if not report.results:
        raise click.UsageError(clean("no record files (*.json) found in " + ", ".join(str(p) for p in paths)))
    say(report.summary() + (f"; {plural(len(unreadable), 'folder')} could not be read" if unreadable else ""))
    if options.redactor is not None:
        say(options.redactor.summary())
    if report.failed or unreadable:
        raise SystemExit(1)


def _unreadable_folders(paths: tuple[Path, ...]) -> list[OSError]:
    """The folders under ``paths`` that could not be listed (their records were not imported), each reported on
    stderr as ``folder: cannot read this folder (permission denied)``."""
    from warroom.core.library import find_drill_files

    errors: list[OSError] = []
    find_drill_files(paths, (".json",), errors=errors)
    for e in errors:
        why = "permission denied" if isinstance(e, PermissionError) else (e.strerror or str(e))
        say(f"{e.filename}: cannot read this folder ({why}); its records were not imported", err=True)
    return errors


def _add_trace_importers() -> None:
    from warroom.cli.import_traces import chat, langfuse, langsmith, openai_agents, openinference, otel

    for command in (chat, otel, openinference, langsmith, langfuse, openai_agents):
        import_group.add_command(command)


_add_trace_importers()
