"""OpenInference traces to drills (``warroom import openinference``).

The same OTLP/JSON containers as ``otel`` (:mod:`warroom.importers.otlp`), spans classified by their
``openinference.span.kind``; an LLM span that records only its raw request and response has the messages in them
read. One drill per trace, on the spans' own clock, with no answer key. docs/importing.md has the mapping field by
field.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
