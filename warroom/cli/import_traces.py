"""``warroom import chat|otel|openinference|langsmith|langfuse|openai-agents``: real traces in, unmarked drills out.

The importers are imported inside the command bodies so ``warroom --help`` stays fast.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from warroom.cli.import_options import ImportProgress, import_options, make_redactor, price_option
from warroom.cli.output import say

if TYPE_CHECKING:
    from warroom.importers.kit import ImportReport, Price, Progress, TraceOptions


def _trace_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The options every trace importer takes: the shared ones (warroom.cli.import_options) and --price."""
    f = price_option("--price", help="Prices of every model, USD per million input/output tokens (default 2.5/10).")(f)
    return import_options("Folder for the drill files (created if missing), one <id>.yaml per trace.")(f)


def _check_trace_id(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--trace-id`` as given, or a usage error (exit 2) when it can name no trace: empty, only spaces, or only
    zeros (OTLP's "no trace id")."""
    if value is None:
        return None
    if not value.strip():
        raise click.BadParameter("is empty; give the id of the trace to import (the ids a file holds are "
                                 "in each drill's `source` when you import it without --trace-id)")
    if not value.strip().strip("0"):
        raise click.BadParameter(f"{value.strip()!r} is all zeros, which OTLP uses for no trace id")
    return value


def _trace_id_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--trace-id", metavar="ID", callback=_check_trace_id,
                        help="Import only this trace (its id, as each drill's `source` names it) of a file that "
                             "holds several; without it, every trace is a drill.")(f)


def _options(price: Price | None, redact: bool, redact_names: Path | None, trace_id: str | None = None
             ) -> TraceOptions:
    from warroom.importers.kit import DEFAULT_PRICE, TraceOptions

    return TraceOptions(price=price or DEFAULT_PRICE, trace_id=trace_id, redactor=make_redactor(redact, redact_names))


def _run(run: Callable[[Progress], ImportReport], paths: tuple[Path, ...], suffixes: tuple[str, ...], verbose: bool,
         options: TraceOptions) -> None:
    """Run an import, printing a ``path: message`` line per failed file and a ``path:line: warning: message`` line
    per warning as it goes (and the progress, on a terminal), then the summary with the number of warnings (and
    what was redacted); exit 1 if any failed (warnings alone leave it 0)."""
    from warroom.cli.import_cmd import _unreadable_folders
    from warroom.core.text import clean, plural

    progress = ImportProgress(verbose)
    try:
        report = run(progress)
    except (FileNotFoundError, NotADirectoryError, FileExistsError, PermissionError) as e:
        raise click.UsageError(clean(e)) from None
    except OSError as e:
        raise click.UsageError(clean(f"{e.filename}: {e.strerror or e}")) from None
    finally:
        progress.finish()
    unreadable = _unreadable_folders(paths)
    if not report.results:
        kinds = ", ".join(f"*{s}" for s in suffixes)
        raise click.UsageError(clean(f"no trace files ({kinds}) found in " + ", ".join(str(p) for p in paths)))
    failed = len({r.source for r in report.failed})
    files = len({r.source for r in report.results})
    warned = f", {plural(len(report.warnings), 'warning')}" if report.warnings else ""
    say(f"{plural(len(report.imported), 'drill')} imported into {report.out_dir} from {plural(files, 'file')}, "
        f"{failed} failed{warned}" + (f"; {plural(len(unreadable), 'folder')} could not be read" if unreadable else ""))
    if options.redactor is not None:
        say(options.redactor.summary())
    if report.imported:
        say(annotate_hint([r.output for r in report.imported if r.output is not None]))
    if report.failed or unreadable:
        raise SystemExit(1)


def annotate_hint(written: list[Path]) -> str:
    """The closing hint after an import wrote the drill files ``written``: mark each up with ``warroom annotate``
    (naming the file, shell-quoted, when there is one), then ``warroom validate``."""
    import shlex

    from warroom.core.text import clean

    what = f"`warroom annotate {shlex.quote(str(written[0]))}`" if len(written) == 1 else "`warroom annotate FILE`"
    return clean(f"Each drill has no answer key yet: mark up the incident with {what} (the war room's author mode, "
                 "docs/importing.md), then `warroom validate`.")


@click.command("chat")
@_trace_options
def chat(paths: tuple[Path, ...], out_dir: Path, redact: bool, redact_names: Path | None, price: Price | None,
         force: bool, verbose: bool) -> None:
    """Convert chat transcripts (OpenAI-style message lists, *.json or JSON Lines *.jsonl) into drills.

    A file holds one conversation (an array of messages, or an object with `messages`), an array of them
    (tau-bench trajectories), or JSON Lines of them (*.jsonl), one drill per conversation; Anthropic content
    blocks and legacy function calls are read too. The drill clock and token counts are estimated; no answer
    key is written: the author marks up the incident. A bad file is reported as `path: message` and the rest
    still import. Exit status: 0 when every file imported, 1 when any failed, 2 on usage errors.

    Example: warroom import chat runs/incident.json --out drills/imported
    """
    from warroom.importers.chat import import_chats

    options = _options(price, redact, redact_names)
    _run(lambda progress: import_chats(paths, out_dir, options, force=force, progress=progress), paths,
         (".json", ".jsonl"), verbose, options)


@click.command("otel")
@_trace_options
@_trace_id_option
def otel(paths: tuple[Path, ...], out_dir: Path, redact: bool, redact_names: Path | None, price: Price | None,
         trace_id: str | None, force: bool, verbose: bool) -> None:
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

    options = _options(price, redact, redact_names, trace_id)
    _run(lambda progress: import_otel(paths, out_dir, options, force=force, progress=progress), paths, SUFFIXES,
         verbose, options)


@click.command("openinference")
@_trace_options
@_trace_id_option
def openinference(paths: tuple[Path, ...], out_dir: Path, redact: bool, redact_names: Path | None, price: Price | None,
         trace_id: str | None, force: bool, verbose: bool) -> None:
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

    options = _options(price, redact, redact_names, trace_id)
    _run(lambda progress: import_openinference(paths, out_dir, options, force=force, progress=progress), paths,
         SUFFIXES, verbose, options)


@click.command("langsmith")
@_trace_options
@_trace_id_option
def langsmith(paths: tuple[Path, ...], out_dir: Path, redact: bool, redact_names: Path | None, price: Price | None,
              trace_id: str | None, force: bool, verbose: bool) -> None:
    """Convert LangSmith runs (a JSON list, {"runs": [...]}, nested child_runs, or JSON Lines *.jsonl) into drills.

    One drill per trace: run times are the drill clock, llm runs model calls, tool and retriever runs tool calls
    and results (an error a failed result), LangGraph nodes and AgentExecutor chains that call a model agents.
    --trace-id takes a run's trace_id (a UUID). No answer key is written. Exit status: 0 when every file
    imported, 1 when any failed, 2 on usage errors.

    Example: warroom import langsmith runs.json --out drills/imported
    """
    from warroom.importers.exports import SUFFIXES
    from warroom.importers.langsmith import import_langsmith

    options = _options(price, redact, redact_names, trace_id)
    _run(lambda progress: import_langsmith(paths, out_dir, options, force=force, progress=progress), paths, SUFFIXES,
         verbose, options)


@click.command("langfuse")
@_trace_options
@_trace_id_option
def langfuse(paths: tuple[Path, ...], out_dir: Path, redact: bool, redact_names: Path | None, price: Price | None,
             trace_id: str | None, force: bool, verbose: bool) -> None:
    """Convert Langfuse exports (a trace with its observations, a list of observations or traces, {"data": [...]},
    or JSON Lines *.jsonl) into drills.

    One drill per trace: observation times are the drill clock, AGENT observations agents, GENERATION ones model
    calls (their recorded costs set the models' prices), TOOL and RETRIEVER ones (and a SPAN without children that
    has an input or output) tool calls and results, level ERROR a failed result. No answer key is written. Exit
    status: 0 when every file imported, 1 when any failed, 2 on usage errors.

    Example: warroom import langfuse trace.json --out drills/imported
    """
    from warroom.importers.exports import SUFFIXES
    from warroom.importers.langfuse import import_langfuse

    options = _options(price, redact, redact_names, trace_id)
    _run(lambda progress: import_langfuse(paths, out_dir, options, force=force, progress=progress), paths, SUFFIXES,
         verbose, options)


@click.command("openai-agents")
@_trace_options
@_trace_id_option
def openai_agents(paths: tuple[Path, ...], out_dir: Path, redact: bool, redact_names: Path | None,
                  price: Price | None, trace_id: str | None, force: bool, verbose: bool) -> None:
    """Convert OpenAI Agents SDK traces (trace and span exports: {"data": [...]}, a JSON list, or JSON Lines
    *.jsonl) into drills.

    One drill per trace: span times are the drill clock, agent spans agents, handoff spans handoffs, generation
    and response spans model calls, function spans tool calls and results (an error a failed result), a triggered
    guardrail a log event. --trace-id takes a trace's id (trace_...). No answer key is written. Exit status: 0
    when every file imported, 1 when any failed, 2 on usage errors.

    Example: warroom import openai-agents traces.jsonl --out drills/imported
    """
    from warroom.importers.exports import SUFFIXES
    from warroom.importers.openai_agents import import_openai_agents

    options = _options(price, redact, redact_names, trace_id)
    _run(lambda progress: import_openai_agents(paths, out_dir, options, force=force, progress=progress), paths,
         SUFFIXES, verbose, options)
