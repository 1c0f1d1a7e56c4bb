"""What the span-based importers share (``otel``, ``openinference``, ``langsmith``, ``langfuse``,
``openai-agents``): a trace as :class:`Span` objects, each classified into a :class:`Step` (agent, model call,
tool call or other) by its format's reader, and the drill made of them (:func:`trace_to_drill`): span start and
end times are the drill clock, agent spans agents, model spans model calls, tool spans calls and results, error
statuses error results and logs; one drill per trace, with no answer key (:func:`span_drill`).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
