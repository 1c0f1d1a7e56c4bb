"""What the importers of tracing platforms' JSON exports share (``langsmith``, ``langfuse``,
``openai-agents``): the file read as JSON values (one document or JSON Lines, within a larger limit), times as
nanoseconds, recorded costs as prices, tool arguments and errors as the drill shows them, the record tree
(roots, the agent above a record, tool calls given the agent that asked for them), the one reader of a chat
message (LangChain's, OpenAI's, Anthropic's, Gemini's, Ollama's: ``chat`` and OpenInference read with it too) and
of OpenAI Responses API items, and the conversion of the classified steps into drills
(:func:`convert_steps_file`).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
