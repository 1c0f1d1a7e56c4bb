"""OpenTelemetry GenAI traces to drills (``warroom import otel``).

OTLP/JSON read by :mod:`warroom.importers.otlp`; spans classified by the GenAI semantic conventions, current and
older, and by what OpenLLMetry and Pydantic AI write where they leave the conventions' names out. One drill per
trace, on the spans' own clock, with no answer key. docs/importing.md has the mapping field by field.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
