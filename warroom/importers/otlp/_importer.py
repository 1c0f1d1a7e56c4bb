"""The base of the importers of OTLP/JSON spans read by an attribute convention (``otel``, ``openinference``)."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.importers.kit import GROUND_TRUTH_OPTION, PRICE_OPTION, READING_TIME_OPTION, TRACE_ID_OPTION, TraceImporter

if TYPE_CHECKING:
    from warroom.importers.kit import DrillData, Refused, TraceOptions


class ConventionImporter(TraceImporter):
    """An importer of OTLP/JSON traces whose spans follow one attribute convention: one drill per trace. A subclass
    names its format (``name``, also the convention :func:`~warroom.importers.otlp.span_convention` tells from a
    file's spans), ``convention`` (the attribute set's name in each drill's text) and ``classifier`` (the module
    whose ``classify`` says what each span is; imported only when a file is read, with the convention's package)."""

    convention: str
    classifier: str
    options = (PRICE_OPTION, TRACE_ID_OPTION, READING_TIME_OPTION, GROUND_TRUTH_OPTION)

    def recognises(self, values: Sequence[Any]) -> bool:
        from warroom.importers.otlp._convention import span_convention

        return span_convention(values) == self.name

    def check_annotations(self, path: Path) -> None:
        from warroom.importers.spans import read_trail

        read_trail(path)

    def read(self, path: Path, options: TraceOptions) -> Sequence[DrillData | Refused]:
        from warroom.importers.otlp._convert import convert_otlp_file

        classify = importlib.import_module(self.classifier).classify
        return convert_otlp_file(path, classify, self.name, self.convention, options)
