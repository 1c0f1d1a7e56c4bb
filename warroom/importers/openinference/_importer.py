"""``warroom import openinference``: the OpenInference importer as the registry lists it."""

from __future__ import annotations

from functools import partial

from warroom.importers.kit import run_import
from warroom.importers.otlp import ConventionImporter


class OpenInference(ConventionImporter):
    """OTLP/JSON traces whose spans follow the OpenInference conventions (Arize Phoenix): one drill per trace."""

    name = "openinference"
    title = "OpenInference traces"
    shape = "spans with `openinference.span.kind`"
    needs = ("openinference.semconv", "the OpenInference attribute names")
    help = """Convert OpenInference traces (Arize Phoenix and others; OTLP/JSON *.json or JSON Lines *.jsonl) into
    drills.

    One drill per trace: span times are the drill clock, AGENT spans agents, LLM spans model calls, TOOL and
    RETRIEVER spans tool calls and results, error statuses error results. No answer key is written. Exit status:
    0 when every file imported, 1 when any failed, 2 on usage errors.

    Example: warroom import openinference phoenix-export.jsonl --out drills/imported
    """

    convention = "OpenInference"
    classifier = "warroom.importers.openinference._classify"


#: The OpenInference importer (the registry finds it in this package's API).
IMPORTER = OpenInference()
#: Import every file under ``paths`` into drills in ``out_dir``: :func:`warroom.importers.kit.run_import`.
import_openinference = partial(run_import, IMPORTER)
