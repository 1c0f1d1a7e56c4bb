"""Chat transcripts to drills: OpenAI-style message lists (``warroom import chat``).

A file holds one conversation (an array of messages, or an object with ``messages``) or several (an array of them;
tau-bench trajectories, objects with ``traj``, have this shape), or JSON Lines of them. Each conversation becomes
one format-2 drill: user messages are ``human_message`` events that each start a plan step, system prompts ``log``
events, assistant text ``executor_message`` events, assistant ``tool_calls`` ``tool_call`` events (one batch per
message) and tool messages ``tool_result`` events answering their call by ``tool_call_id``. Anthropic messages,
OpenAI's Responses API items, legacy function calls, ShareGPT turns and Gemini ``contents`` are read too. Message
text is verbatim; the drill clock and token counts are estimated; no answer key is written. docs/importing.md has
the mapping field by field.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
