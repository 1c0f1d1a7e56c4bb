"""``warroom import chat|otel|openinference``: real traces in, unmarked drills out (see docs/importing.md).

The importers are imported inside the command bodies so ``warroom --help`` stays fast.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from warroom.cli.output import say

if TYPE_CHECKING:
    from warroom.importers.who_and_when import ImportReport, Price


def _price(ctx: click.Context, param: click.Parameter, value: str | None) -> Price | None:
    if value is None:
        return None
    from warroom.importers.who_and_when import Price

    try:
        return Price.parse(value)
    except ValueError as e:
        raise click.BadParameter(str(e), ctx=ctx, param=param) from None


def _trace_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The options every trace importer takes: --out, --price, --force, -v."""
    f = click.option("-v", "--verbose", is_flag=True, help="List every drill written, not only failures.")(f)
    f = click.option("--force", is_flag=True, help="Overwrite drill files that already exist in --out.")(f)
    f = click.option("--price", metavar="IN/OUT", callback=_price,
                     help="Prices of every model, USD per million input/output tokens (default 2.5/10).")(f)
    f = click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
                     help="Folder for the drill files (created if missing), one <id>.yaml per trace.")(f)
    return click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))(f)


def _run(run: Callable[[], ImportReport], paths: tuple[Path, ...], suffixes: tuple[str, ...], verbose: bool) -> None:
    """Run an import, print a ``path: message`` line per failed file and the summary; exit 1 if any failed."""
    from warroom.cli.import_cmd import _unreadable_folders
    from warroom.core.format import clean
    from warroom.core.words import plural

    try:
        report = run()
    except (FileNotFoundError, NotADirectoryError, FileExistsError, PermissionError) as e:
        raise click.UsageError(clean(e)) from None
    except OSError as e:
        raise click.UsageError(clean(f"{e.filename}: {e.strerror or e}")) from None
    unreadable = _unreadable_folders(paths)
    if not report.results:
        kinds = ", ".join(f"*{s}" for s in suffixes)
        raise click.UsageError(clean(f"no trace files ({kinds}) found in " + ", ".join(str(p) for p in paths)))
    for result in report.results:  # control characters in paths and messages shown as \xNN
        if result.error is not None:
            say(f"{result.source}: {result.error}", err=True)
        elif verbose:
            say(f"{result.source} -> {result.output}")
    failed = len({r.source for r in report.failed})
    files = len({r.source for r in report.results})
    say(f"{plural(len(report.imported), 'drill')} imported into {report.out_dir} from {plural(files, 'file')}, "
        f"{failed} failed" + (f"; {plural(len(unreadable), 'folder')} could not be read" if unreadable else ""))
    say("Each drill has no answer key yet: mark up the incident (docs/importing.md), then `warroom validate`.")
    if report.failed or unreadable:
        raise SystemExit(1)


@click.command("chat")
@_trace_options
def chat(paths: tuple[Path, ...], out_dir: Path, price: Price | None, force: bool, verbose: bool) -> None:
    """Convert chat transcripts (OpenAI-style message lists, *.json) into drills, one per conversation.

    A file holds one conversation (an array of messages, or an object with `messages`) or an array of them
    (tau-bench trajectories). The drill clock and token counts are estimated; no answer key is written: the
    author marks up the incident. A bad file is reported as `path: message` and the rest still import. Exit
    status: 0 when every file imported, 1 when any failed, 2 on usage errors.

    Example: warroom import chat runs/incident.json --out drills/imported
    """
    from warroom.importers.chat import import_chats
    from warroom.importers.tracekit import DEFAULT_PRICE, TraceOptions

    options = TraceOptions(price=price or DEFAULT_PRICE)
    _run(lambda: import_chats(paths, out_dir, options, force=force), paths, (".json",), verbose)


@click.command("otel")
@_trace_options
def otel(paths: tuple[Path, ...], out_dir: Path, price: Price | None, force: bool, verbose: bool) -> None:
    """Convert OpenTelemetry GenAI traces (OTLP/JSON *.json, Collector JSON Lines *.jsonl) into drills.

    One drill per trace: span times are the drill clock, invoke_agent spans agents, chat spans model calls,
    execute_tool spans tool calls and results, error statuses error results. Both the current GenAI attributes
    and the older ones (gen_ai.system, prompt/completion events) are read. No answer key is written. Exit status:
    0 when every file imported, 1 when any failed, 2 on usage errors.

    Example: warroom import otel traces.jsonl --out drills/imported
    """
    try:
        from warroom.importers.otel import import_otel
    except ImportError:  # the optional extra is missing
        raise click.UsageError("`warroom import otel` needs the GenAI attribute names: pip install 'warroom[import]'"
                               ) from None
    from warroom.importers.otlp import SUFFIXES
    from warroom.importers.tracekit import DEFAULT_PRICE, TraceOptions

    options = TraceOptions(price=price or DEFAULT_PRICE)
    _run(lambda: import_otel(paths, out_dir, options, force=force), paths, SUFFIXES, verbose)


@click.command("openinference")
@_trace_options
def openinference(paths: tuple[Path, ...], out_dir: Path, price: Price | None, force: bool, verbose: bool) -> None:
    """Convert OpenInference traces (Arize Phoenix and others; OTLP/JSON *.json or JSON Lines *.jsonl) into drills.

    One drill per trace: span times are the drill clock, AGENT spans agents, LLM spans model calls, TOOL and
    RETRIEVER spans tool calls and results, error statuses error results. No answer key is written. Exit status:
    0 when every file imported, 1 when any failed, 2 on usage errors.

    Example: warroom import openinference phoenix-export.jsonl --out drills/imported
    """
    try:
        from warroom.importers.openinference import import_openinference
    except ImportError:  # the optional extra is missing
        raise click.UsageError("`warroom import openinference` needs the OpenInference attribute names: "
                               "pip install 'warroom[import]'") from None
    from warroom.importers.otlp import SUFFIXES
    from warroom.importers.tracekit import DEFAULT_PRICE, TraceOptions

    options = TraceOptions(price=price or DEFAULT_PRICE)
    _run(lambda: import_openinference(paths, out_dir, options, force=force), paths, SUFFIXES, verbose)
