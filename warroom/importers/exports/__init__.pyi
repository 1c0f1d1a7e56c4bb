# The API of warroom.importers.exports (its __init__.py loads each name on first use, from the module named here).

from ._convert import Recorded, convert_export
from ._messages import (
    Message,
    generation_info,
    message,
    messages,
    model_messages,
    model_said,
    reasoning_text,
    tool_answer,
)
from ._tree import ancestors, attach_tools, root_ids
from ._values import (
    MAX_EXPORT_BYTES,
    UNFINISHED,
    error_text,
    first_record,
    python_literal,
    read_values,
    recorded_prices,
    time_ns,
    token_pair,
    tool_arguments,
)

__all__ = [
    "MAX_EXPORT_BYTES",
    "Message",
    "Recorded",
    "UNFINISHED",
    "ancestors",
    "attach_tools",
    "convert_export",
    "error_text",
    "first_record",
    "generation_info",
    "message",
    "messages",
    "model_messages",
    "model_said",
    "python_literal",
    "read_values",
    "reasoning_text",
    "recorded_prices",
    "root_ids",
    "time_ns",
    "token_pair",
    "tool_answer",
    "tool_arguments",
]
