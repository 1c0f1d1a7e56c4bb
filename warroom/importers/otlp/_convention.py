"""Which attribute convention a file's spans use, ``otel`` (OpenTelemetry's GenAI conventions, and the
instrumentations that write around them) or ``openinference``: what tells the two importers' files apart, since
their containers are the same. Each OpenInference span names its kind (``openinference.span.kind``; Phoenix's span
JSON ``span_kind``); a file is OpenInference's when more of its spans say so than carry GenAI attributes
(``gen_ai.*``, OpenLLMetry's ``traceloop.*``, Pydantic AI's), and otherwise OpenTelemetry's, whose importer names
the other when it finds nothing to play."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from warroom.importers.kit import TraceError
from warroom.importers.otlp._document import spans_of_document
from warroom.importers.otlp._jaeger import is_jaeger, jaeger_spans
from warroom.importers.otlp._sdkjson import is_sdk_span, sdk_spans
from warroom.importers.spans import Span

#: The attribute in which an OpenInference span names its kind.
OPENINFERENCE_KIND = "openinference.span.kind"
#: Attribute names (and their prefixes) of GenAI spans, as ``otel`` reads them.
GENAI_PREFIXES = ("gen_ai.", "traceloop.", "pydantic_ai.")
#: The attribute in which the Langfuse SDK (v3 and later) names each span's observation type.
LANGFUSE_TYPE = "langfuse.observation.type"
#: Most JSON nodes looked at to find the convention of spans that do not read (:func:`_names_openinference`).
_MAX_NODES = 200_000


def is_span_container(value: Any) -> bool:
    """Whether ``value`` (a file's first JSON value) holds spans: an OTLP/JSON document (``resourceSpans``), a
    Tempo answer (``batches``, ``trace.resourceSpans``), a Jaeger export, or span objects as the SDK's console
    exporter and Phoenix write them (one, or an array)."""
    if isinstance(value, list):
        return bool(value) and is_sdk_span(value[0])
    if not isinstance(value, dict):
        return False
    trace = value.get("trace")
    return ("resourceSpans" in value or isinstance(value.get("batches"), list) or is_jaeger(value)
            or is_sdk_span(value) or (isinstance(trace, dict) and "resourceSpans" in trace))


def _spans(values: Sequence[Any]) -> list[Span] | None:
    """The spans of ``values`` as the importers read them, or None when they do not read."""
    try:
        found = sdk_spans(list(values))
        if found is None and len(values) == 1 and is_jaeger(values[0]):
            found = jaeger_spans(values[0])
        return found if found is not None else [s for v in values for s in spans_of_document(v, "")]
    except TraceError:
        return None


def _names_openinference(values: Sequence[Any]) -> bool:
    """Whether an OpenInference span kind is named anywhere in ``values`` (a key, or an OTLP attribute's ``key``),
    within :data:`_MAX_NODES` nodes: the convention of spans that do not read."""
    stack, seen = list(values), 0
    while stack and seen < _MAX_NODES:
        node = stack.pop()
        seen += 1
        if isinstance(node, dict):
            if OPENINFERENCE_KIND in node or "span_kind" in node or node.get("key") == OPENINFERENCE_KIND:
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def span_convention(values: Sequence[Any]) -> str | None:
    """``"openinference"``, ``"otel"`` or ``"langfuse"`` (the Langfuse SDK's spans, each naming its observation
    type in ``langfuse.observation.type``, as the SDK sends them or a Collector forwards them) for a file of spans
    whose JSON values are ``values`` (see the module's docstring), None when they are not spans. Worked out once
    for values that can keep it (``kit.RecognisedValues``: the importers recognising a file each ask)."""
    known = getattr(values, "_span_convention", _UNKNOWN)
    if known is not _UNKNOWN:
        return cast("str | None", known)
    found = _convention(values)
    try:
        values._span_convention = found  # type: ignore[attr-defined]
    except AttributeError:  # a plain list or tuple keeps nothing
        pass
    return found


#: Not worked out yet (a convention may be None).
_UNKNOWN = object()


def _convention(values: Sequence[Any]) -> str | None:
    """:func:`span_convention`, worked out."""
    if not values or not is_span_container(values[0]):
        return None
    spans = _spans(values)
    if spans is None:
        return "openinference" if _names_openinference(values) else "otel"
    return spans_convention(spans)


def spans_convention(spans: Sequence[Span]) -> str:
    """The convention of ``spans`` (a file's, or one trace's): ``langfuse``, ``openinference`` or ``otel``, by how
    many spans carry each one's attributes (see the module's docstring)."""
    named = sum(1 for s in spans if OPENINFERENCE_KIND in s.attributes)
    genai = sum(1 for s in spans if any(k.startswith(GENAI_PREFIXES) for k in s.attributes))
    langfuse = sum(1 for s in spans if LANGFUSE_TYPE in s.attributes)
    if langfuse and langfuse >= max(named, genai):
        return "langfuse"
    return "openinference" if named > genai else "otel"
