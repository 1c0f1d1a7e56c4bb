"""LangSmith runs to drills (``warroom import langsmith``).

A file holds runs as LangSmith's SDK and API give them (``Client.list_runs``, a run's JSON in the UI): a JSON list
of runs, ``{"runs": [...]}``, one run, or JSON Lines of any of these; a run may nest its children in
``child_runs``. Each trace's run tree is read into spans and classified steps (llm runs model calls, tool and
retriever runs tool calls, LangGraph nodes and AgentExecutor chains that call a model agents) and made a drill by
the span importers' builder (:mod:`warroom.importers.spans`). docs/importing.md has the mapping field by field.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
