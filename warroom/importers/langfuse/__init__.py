"""Langfuse exports to drills (``warroom import langfuse``).

A file holds what Langfuse's public API and SDKs give: a trace with its ``observations``, a list of observations
or traces, ``{"data": [...]}`` of either, or JSON Lines of any of these. Each trace's observations are read into
spans and classified steps (AGENT observations agents, GENERATION ones model calls whose recorded costs set the
models' prices, TOOL and RETRIEVER ones tool calls) and made a drill by the span importers' builder
(:mod:`warroom.importers.spans`). docs/importing.md has the mapping field by field.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
