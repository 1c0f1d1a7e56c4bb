"""OTLP/JSON files read into spans (shared by ``otel`` and ``openinference``, which classify the spans by their
own attribute conventions): a ``{"resourceSpans": [...]}`` document or JSON Lines of them (the Collector's file
exporter), Grafana Tempo's answers, a Jaeger export, the OpenTelemetry SDK's console exporter and Phoenix's span
JSON (:func:`read_spans`); each trace made a drill (:func:`convert_otlp_file`); and which convention a file's
spans use (:func:`span_convention`), which tells the two importers' files apart.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
