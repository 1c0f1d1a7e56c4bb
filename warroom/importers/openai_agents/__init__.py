"""OpenAI Agents SDK traces to drills (``warroom import openai-agents``).

A file holds what the SDK's tracing exports (``trace.export()`` and ``span.export()`` objects, as the backend
exporter posts them, a JSON list, one object, or JSON Lines). Each trace's spans are read into classified steps
(agent spans agents, handoff spans handoffs, generation and response spans model calls, function spans tool calls,
a triggered guardrail a failure) and made a drill by the span importers' builder (:mod:`warroom.importers.spans`).
docs/importing.md has the mapping field by field.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
