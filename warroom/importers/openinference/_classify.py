"""What a span is under the OpenInference conventions (Arize Phoenix and others): ``openinference.span.kind``.

Attribute names come from the ``openinference-semantic-conventions`` package. List attributes are flattened
in OTLP (``llm.output_messages.0.message.content``), and are read back by index.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from openinference.semconv import trace as semconv_trace
from openinference.semconv.trace import (
    DocumentAttributes,
    ImageAttributes,
    MessageAttributes,
    MessageContentAttributes,
    OpenInferenceSpanKindValues,
    SpanAttributes,
    ToolCallAttributes,
)

from warroom.importers.exports import Message, part_text, returned_value
from warroom.importers.openinference._haystack import haystack_messages
from warroom.importers.openinference._values import failed_results, json_value, value_messages
from warroom.importers.spans import (
    MODEL,
    OTHER,
    Span,
    Step,
    as_arguments,
    as_text,
    as_tokens,
    begin_step,
    command_handoff,
    langgraph_subgraph,
    mark_agent,
    mark_tool,
    unwrap_arguments,
)

_KINDS = OpenInferenceSpanKindValues
#: Every attribute class the package has (span, message, tool call, document, embedding, reranker, ...).
_CLASSES = [cls for name, cls in vars(semconv_trace).items() if name.endswith("Attributes") and isinstance(cls, type)]
_CONSTANTS = [v for cls in _CLASSES for k, v in vars(cls).items() if k.isupper() and isinstance(v, str)]
#: Attributes the importer reads or knows (the package's names, and anything under them: flattened lists).
KNOWN = frozenset(_CONSTANTS)
_KNOWN_PREFIXES = (*(f"{v}." for v in _CONSTANTS), "exception.", "error.")


def _is_index(text: str) -> bool:
    """Whether ``text`` is the index of a flattened list (``0`` to ``999999999``, ASCII digits: ``str.isdigit``
    also takes ``²``, which ``int`` refuses, and 5,000 digits, which it will not convert)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def _indexed(attrs: dict[str, Any], prefix: str, suffix: str) -> list[tuple[int, Any]]:
    """Values of the flattened ``<prefix>.<N>.<suffix>`` attributes, by N."""
    pattern = re.compile(rf"^{re.escape(prefix)}\.([0-9]{{1,9}})\.{re.escape(suffix)}$")  # (int() takes no ²)
    return sorted((int(m.group(1)), v) for k, v in attrs.items() if (m := pattern.match(k)))


def _flat_messages(attrs: dict[str, Any], prefix: str) -> dict[int, dict[str, Any]]:
    """The flattened ``<prefix>.<N>.message.*`` attributes as one mapping per message N (keys after ``message.``;
    ``contents.K.message_content.text``, ``tool_calls.M.tool_call.id`` and the like kept flat)."""
    out: dict[int, dict[str, Any]] = {}
    head = f"{prefix}."
    for key, value in attrs.items():
        if not key.startswith(head):
            continue
        n, _, rest = key[len(head):].partition(".")
        if _is_index(n) and rest.startswith("message."):
            out.setdefault(int(n), {})[rest[len("message."):]] = value
    return dict(sorted(out.items()))


def _numbered(message: dict[str, Any], group: str) -> list[dict[str, Any]]:
    """The ``<group>.<K>.*`` keys of one flattened message as one mapping per K, in order of K."""
    items: dict[int, dict[str, Any]] = {}
    for key, value in message.items():
        k, _, rest = key.removeprefix(f"{group}.").partition(".") if key.startswith(f"{group}.") else ("", "", "")
        if _is_index(k):
            items.setdefault(int(k), {})[rest] = value
    return [items[k] for k in sorted(items)]


def _calls(message: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The tool calls one flattened message asks for, as ``(id, name, arguments)``: its ``tool_calls``, else the
    tool-use parts of its ``contents`` (Anthropic's instrumentation writes both), else the legacy
    ``function_call_name`` / ``function_call_arguments_json``."""
    fn, args = ToolCallAttributes.TOOL_CALL_FUNCTION_NAME, ToolCallAttributes.TOOL_CALL_FUNCTION_ARGUMENTS_JSON
    calls = [c for c in _numbered(message, "tool_calls") if as_text(c.get(fn))]
    calls = calls or [c for c in _numbered(message, "contents") if as_text(c.get(fn))]
    out = [(as_text(c.get(ToolCallAttributes.TOOL_CALL_ID)), as_text(c[fn]), as_text(c.get(args))) for c in calls]
    legacy = as_text(message.get("function_call_name"))
    if not out and legacy:
        out.append(("", legacy, as_text(message.get("function_call_arguments_json"))))
    return out


#: Content part types shown as ``[image part URL]`` (the others are text, tool calls or tool results).
_MEDIA = ("image", "audio", "video", "document", "file")


def _media_part(part: dict[str, Any]) -> str:
    """A media content part by its type and URL (``message_content.image.image.url``) as the one reader of a
    content part names it (:func:`~warroom.importers.exports.part_text`: a ``data:`` URL by its media type and size
    only, never its bytes)."""
    url = part.get(f"{MessageContentAttributes.MESSAGE_CONTENT_IMAGE}.{ImageAttributes.IMAGE_URL}")
    return part_text({"type": as_text(part.get(MessageContentAttributes.MESSAGE_CONTENT_TYPE)),
                      "image_url": {"url": as_text(url)}}) or ""


def _message(message: dict[str, Any]) -> Message:
    """One flattened message as the exports' :class:`~warroom.importers.exports.Message` (shown as they show it):
    its ``content`` verbatim, else the text parts of its ``contents`` joined by newlines; its tool calls; a tool
    message's ``tool_call_id``."""
    text_key, type_key = MessageContentAttributes.MESSAGE_CONTENT_TEXT, MessageContentAttributes.MESSAGE_CONTENT_TYPE
    content = as_text(message.get("content"))
    if not content:
        content = "\n".join(as_text(p[text_key]) if p.get(type_key, "text") == "text" else _media_part(p)
                            for p in _numbered(message, "contents")
                            if (p.get(text_key) is not None and p.get(type_key, "text") == "text")
                            or p.get(type_key) in _MEDIA)
    return Message(as_text(message.get("role")), content, _calls(message),
                   call_id=as_text(message.get(MessageAttributes.MESSAGE_TOOL_CALL_ID.removeprefix("message."))))


#: Roles of messages that are not a model's output (a raw ``output.value`` holding a whole conversation).
_NOT_OUTPUT_ROLES = ("user", "system", "developer", "tool", "function")


def _span_messages(attrs: dict[str, Any], prefix: str, raw: str, mime: str) -> list[Message] | None:
    """The span's messages under ``prefix``; when it records none, those of its raw JSON value ``raw``
    (``output.value`` / ``input.value``, with its mime type attribute ``mime``: :func:`.values.value_messages`);
    None when it has neither (the caller then keeps the raw value as text). Haystack's raw value (its
    ``ChatMessage`` reprs: :func:`._haystack.haystack_messages`) is read before the flattened messages, which lose
    its tool calls' ids and its tool messages' results, when it holds as many messages."""
    messages = [_message(m) for m in _flat_messages(attrs, prefix).values()]
    haystack = haystack_messages(attrs.get(raw))
    if haystack is not None and (not messages or len(haystack) == len(messages)):
        return haystack
    return messages or value_messages(attrs.get(raw), attrs.get(mime))


def _text(messages: list[Message], keep: Callable[[str], bool]) -> str:
    """The text of the ``messages`` whose role ``keep`` accepts, each shown with its tool calls as ``[tool call
    NAME ARGS]`` (as ``otel`` and the exports show them), joined by newlines."""
    return "\n".join(t for m in messages if keep(m.role) and (t := m.shown()))


def _model(span: Span, step: Step) -> None:
    a = span.attributes
    step.kind = MODEL
    step.model = as_text(a.get(SpanAttributes.LLM_MODEL_NAME)) or None
    step.input_tokens = as_tokens(a.get(SpanAttributes.LLM_TOKEN_COUNT_PROMPT))
    step.output_tokens = as_tokens(a.get(SpanAttributes.LLM_TOKEN_COUNT_COMPLETION))
    # output.value / input.value hold the raw response / request (JSON): read only when the span records no
    # messages, for the messages in them; kept as text when they hold none (not JSON, or JSON of another shape)
    out = _span_messages(a, SpanAttributes.LLM_OUTPUT_MESSAGES, SpanAttributes.OUTPUT_VALUE,
                         SpanAttributes.OUTPUT_MIME_TYPE)
    if out is None:
        step.content = as_text(a.get(SpanAttributes.OUTPUT_VALUE))
    elif _flat_messages(a, SpanAttributes.LLM_OUTPUT_MESSAGES):
        step.content = _text(out, lambda role: True)
    else:  # a raw value may hold the request's messages too (a whole conversation): the model's are the output
        step.content = _text(out, lambda role: role not in _NOT_OUTPUT_ROLES)
        out = [m for m in out if m.role not in _NOT_OUTPUT_ROLES]
        if not step.content:  # no text and no tool call of the model's read from it: the value as written
            step.content = as_text(a.get(SpanAttributes.OUTPUT_VALUE))
    ins = _span_messages(a, SpanAttributes.LLM_INPUT_MESSAGES, SpanAttributes.INPUT_VALUE,
                         SpanAttributes.INPUT_MIME_TYPE)
    step.inputs = as_text(a.get(SpanAttributes.INPUT_VALUE)) if ins is None else _text(ins, lambda r: r == "user")
    step.tool_calls_asked = [(i, name) for m in out or [] for i, name, _ in m.calls]  # Gemini's have no ids
    step.asked_arguments = {i or f"#{j}": args for j, (i, _, args) in enumerate(c for m in out or [] for c in m.calls)}
    failed = failed_results(a.get(SpanAttributes.INPUT_VALUE))  # Anthropic's is_error, which the messages lose
    step.told = [(m.call_id, m.text, m.status == "error" or m.call_id in failed) for m in ins or [] if m.role == "tool"]
    reason = a.get(SpanAttributes.LLM_FINISH_REASON)
    step.finish_reason = reason if isinstance(reason, str) and reason.strip() else None


def _chain_input(span: Span) -> str:
    """A CHAIN span's input as a possible goal: ``input.value`` when it is text; a DSPy module's arguments
    (:func:`_dspy_arguments`); empty when it is other JSON (a framework's state, such as LangGraph's ``{"messages":
    [...]}``: the user's words then come from the LLM spans' messages)."""
    a = span.attributes
    value = as_text(a.get(SpanAttributes.INPUT_VALUE))
    if a.get(SpanAttributes.INPUT_MIME_TYPE) == "application/json" or value.lstrip()[:1] in ("{", "["):
        return _dspy_arguments(span)
    return value


#: The methods of a DSPy module that OpenInference's DSPy instrumentor names its CHAIN spans by (``ReAct.forward``).
_MODULE_CALLS = (".forward", ".aforward")


def _dspy_arguments(span: Span) -> str:
    """The text arguments a DSPy module was called with (its CHAIN span ``NAME.forward``, the input its bound
    arguments as JSON: ``{"request": ...}``, or ReAct's ``{"input_args": {"request": ...}}``), the user's words
    in its signature's input fields: the one text as it is, several each as ``field: text`` on a line of its own;
    empty for any other span (the LLM spans' messages wrap them in the adapter's ``[[ ## request ## ]]`` prompt)."""
    if not span.name.endswith(_MODULE_CALLS):
        return ""
    bound = json_value(span.attributes.get(SpanAttributes.INPUT_VALUE), "application/json")
    if isinstance(bound, dict) and len(bound) == 1 and isinstance(next(iter(bound.values())), dict):
        bound = next(iter(bound.values()))  # **input_args
    texts = {k: v for k, v in bound.items() if isinstance(v, str) and v.strip()} if isinstance(bound, dict) else {}
    if len(texts) == 1:
        return next(iter(texts.values()))
    return "\n".join(f"{k}: {v}" for k, v in texts.items())


#: LlamaIndex's FunctionCallingLLM method that formats a request without calling the model: its LLM spans are not
#: model calls (issue 33: thousands of estimated tokens each).
_PHANTOM_LLM = ("_prepare_chat_with_tools",)
#: The Agents SDK instrumentor's agent names and handoffs (``graph.node.id``, ``graph.node.parent_id``).
GRAPH_NODE_ID, GRAPH_NODE_PARENT_ID = "graph.node.id", "graph.node.parent_id"


def _langgraph_meta(span: Span) -> dict[str, Any]:
    """The LangGraph ``metadata`` (JSON) of ``span`` when it names a node (``langgraph_node``), else empty."""
    meta = span.attributes.get(SpanAttributes.METADATA)
    if isinstance(meta, str) and '"langgraph_node"' in meta:
        meta = json_value(meta, None)
    return meta if isinstance(meta, dict) and "langgraph_node" in meta else {}


#: The methods of a tool object that OpenInference's DSPy instrumentor names its TOOL spans by (``NAME.__call__``).
_CALLED = (".__call__", ".acall")


def _called_tool(span: Span, kind: str) -> str | None:
    """The tool of a TOOL span without ``tool.name`` named by the tool's method called (DSPy's instrumentor:
    ``list_charges.__call__``, ``list_charges.acall``): the name before it; else None (the span's name)."""
    if kind != _KINDS.TOOL.value:
        return None
    return next((span.name[: -len(m)] for m in _CALLED if span.name.endswith(m) and len(span.name) > len(m)), None)


def _langchain_agent(span: Span) -> str | None:
    """The agent a CHAIN span is the run of: LangChain 1's ``create_agent(..., name=NAME)`` graph, whose runs carry
    ``lc_agent_name`` in their ``metadata`` and whose own run is named NAME (its nodes, ``model`` and ``tools``,
    are not); else None."""
    meta = span.attributes.get(SpanAttributes.METADATA)
    if not isinstance(meta, str) or '"lc_agent_name"' not in meta:
        return None
    meta = json_value(meta, None)
    named = meta.get("lc_agent_name") if isinstance(meta, dict) else None
    return named if isinstance(named, str) and named == span.name and meta.get("langgraph_node") != named else None


def _langgraph_node(span: Span) -> bool:
    """Whether ``span`` is a LangGraph node: its ``metadata`` (JSON) names it as ``langgraph_node``."""
    return _langgraph_meta(span).get("langgraph_node") == span.name


def _agent_input(a: dict[str, Any]) -> str:
    """An AGENT span's input: its text, or the user's messages in it when it is JSON (LangGraph's state,
    ``{"messages": [...]}``); empty when the JSON holds none."""
    value = as_text(a.get(SpanAttributes.INPUT_VALUE))
    if a.get(SpanAttributes.INPUT_MIME_TYPE) != "application/json" and value.lstrip()[:1] not in ("{", "["):
        return value
    held = value_messages(value, "application/json")
    return value if held is None and json_value(value, "application/json") is None else _text(
        held or [], lambda role: role == "user")


def _smolagents_run(span: Span) -> tuple[str, str] | None:
    """``(agent name, task)`` of a smolagents agent span (openinference-instrumentation-smolagents: named
    ``NAME.run``, ``smolagents.*`` attributes, its input run()'s bound arguments as JSON, ``{"task": ..., "stream":
    ..., "reset": ...}``); None for any other span."""
    a = span.attributes
    if not span.name.endswith(".run") or not any(k.startswith("smolagents.") for k in a):
        return None
    bound = json_value(a.get(SpanAttributes.INPUT_VALUE), "application/json")
    task = bound.get("task") if isinstance(bound, dict) else None
    return span.name.removesuffix(".run"), task if isinstance(task, str) else as_text(a.get("smolagents.task"))


#: The agent an AgentWorkflow step runs, at the end of the step's event as LlamaIndex writes it (its repr).
_CURRENT_AGENT = re.compile(r"current_agent_name=(['\"])(?P<name>[^'\"]+)\1\)\Z")


def _workflow_agent(span: Span) -> str | None:
    """The agent whose turn a LlamaIndex ``AgentWorkflow.run_agent_step`` CHAIN span is (the model calls under it
    are that agent's): named by its input's ``ev``, ``AgentSetup(input=[...], current_agent_name='executor')``;
    None for any other span."""
    if not span.name.endswith(".run_agent_step"):
        return None
    bound = json_value(span.attributes.get(SpanAttributes.INPUT_VALUE), "application/json")
    ev = bound.get("ev") if isinstance(bound, dict) else None
    match = _CURRENT_AGENT.search(ev) if isinstance(ev, str) else None
    return match.group("name") if match else None


def _handoff_tool(step: Step) -> None:
    """LlamaIndex AgentWorkflow's ``handoff`` tool (``to_agent``, ``reason``): the call hands the run to the agent it
    names (:attr:`Step.hands_to`)."""
    args = unwrap_arguments(step.arguments)
    if step.tool == "handoff" and isinstance(args, dict) and isinstance(args.get("to_agent"), str):
        step.hands_to = (args["to_agent"], as_text(args.get("reason")))


def _crewai_task(span: Span) -> tuple[str, str] | None:
    """``(request, report)`` of a CrewAI agent span (openinference-instrumentation-crewai: ``ROLE._execute_core``
    with ``crew_id`` and ``task_id``, its output the task's output as JSON): the task's ``description`` (with the
    ``context`` of the tasks before it, from the span's input) and its ``raw`` output; None for any other span."""
    a = span.attributes
    if not span.name.endswith("._execute_core") or "crew_id" not in a or "task_id" not in a:
        return None
    out = json_value(a.get(SpanAttributes.OUTPUT_VALUE), "application/json")
    bound = json_value(a.get(SpanAttributes.INPUT_VALUE), "application/json")
    out, bound = (v if isinstance(v, dict) else {} for v in (out, bound))
    context = bound.get("context") if isinstance(bound.get("context"), str) else ""
    request = "\n\n".join(t for t in (as_text(out.get("description")), context) if t)
    return request, as_text(out.get("raw"))


def _agent(span: Span, step: Step) -> None:
    """An AGENT span: named by ``agent.name``, else the Agents SDK instrumentor's ``graph.node.id`` (its
    ``graph.node.parent_id`` the agent that handed off to it), else smolagents' ``NAME.run`` (its input the task
    given to run()), else the LangGraph subgraph it runs in (:func:`~warroom.importers.spans.langgraph_subgraph`);
    the instrumentor's ``Agent workflow`` root, which names no agent and records nothing, is other."""
    a = span.attributes
    node = as_text(a.get(GRAPH_NODE_ID))
    if not node and not as_text(a.get(SpanAttributes.AGENT_NAME)) and span.name == "Agent workflow" \
            and a.get(SpanAttributes.INPUT_VALUE) is None and a.get(SpanAttributes.OUTPUT_VALUE) is None:
        step.kind = OTHER
        return
    smolagents = None if a.get(SpanAttributes.AGENT_NAME) or node else _smolagents_run(span)
    if smolagents is not None:
        mark_agent(step, span, smolagents[0], smolagents[1])
        return
    name = a.get(SpanAttributes.AGENT_NAME) or node or langgraph_subgraph(_langgraph_meta(span), span.name)
    crewai = _crewai_task(span)
    mark_agent(step, span, name, _agent_input(a) if crewai is None else crewai[0])
    step.report = "" if crewai is None else crewai[1]
    parent = as_text(a.get(GRAPH_NODE_PARENT_ID))
    step.graph_parent = parent or None  # its own name: none (spans' _graph_parents)
    step.graph_id = node or None


#: What OpenInference's instrumentations write in place of a value their ``TraceConfig`` hides
#: (``OPENINFERENCE_HIDE_INPUTS`` / ``OPENINFERENCE_HIDE_OUTPUTS`` and the like): the value is not recorded.
REDACTED = "__REDACTED__"


def classify(span: Span) -> Step:
    """The :class:`Step` of one span by its ``openinference.span.kind``: AGENT an agent, LLM a model call, TOOL and
    RETRIEVER a tool (a retriever's documents are its result), CHAIN and the rest other (a CHAIN's input may be
    the goal; a LangGraph node or a LlamaIndex AgentWorkflow step is an agent). What each reads is in
    docs/importing.md."""
    masked = {k for k, v in span.attributes.items() if v == REDACTED}
    if masked:  # masked by the instrumentation's TraceConfig: not recorded
        span.attributes = {k: v for k, v in span.attributes.items() if v != REDACTED}
    a = span.attributes
    kind = str(a.get(SpanAttributes.OPENINFERENCE_SPAN_KIND) or "").upper()
    step = begin_step(span, KNOWN, _KNOWN_PREFIXES)
    if kind == _KINDS.AGENT.value:
        _agent(span, step)
    elif kind == _KINDS.LLM.value and span.name.endswith(_PHANTOM_LLM):
        step.kind = OTHER
    elif kind == _KINDS.TOOL.value and span.name.startswith("handoff to ") and not a.get(SpanAttributes.TOOL_NAME):
        step.kind = OTHER  # the Agents SDK instrumentor's handoff: the agents' graph ids make the handoff event
    elif kind == _KINDS.LLM.value:
        _model(span, step)
    elif kind in (_KINDS.TOOL.value, _KINDS.RETRIEVER.value):
        mark_tool(step, span, a.get(SpanAttributes.TOOL_NAME) or _called_tool(span, kind),
                  a.get(ToolCallAttributes.TOOL_CALL_ID))
        raw = a.get(SpanAttributes.TOOL_PARAMETERS) if kind == _KINDS.TOOL.value else None
        value = a.get(SpanAttributes.INPUT_VALUE)
        step.arguments = as_arguments(value) if kind == _KINDS.TOOL.value else (
            {"query": value} if value is not None else {})
        if not step.arguments and raw is not None:
            step.arguments = as_arguments(raw)
        step.arguments_hidden = SpanAttributes.INPUT_VALUE in masked and raw is None  # HIDE_INPUTS
        docs = _indexed(a, SpanAttributes.RETRIEVAL_DOCUMENTS, DocumentAttributes.DOCUMENT_CONTENT)
        output = a.get(SpanAttributes.OUTPUT_VALUE)
        step.result = [v for _, v in docs] if docs else returned_value(output, json_text=False)
        step.not_recorded = (((value is None and raw is None) or SpanAttributes.OUTPUT_VALUE in masked)
                             and step.result is None and not step.error and not span.error)  # HIDE_OUTPUTS alone too
        _handoff_tool(step)
        command_handoff(step, step.result)
    elif kind == _KINDS.CHAIN.value and (agent := _workflow_agent(span)) is not None:
        mark_agent(step, span, agent, "")
    elif kind == _KINDS.CHAIN.value and (agent := _langchain_agent(span)) is not None:
        mark_agent(step, span, agent, _agent_input(a))
    elif kind == _KINDS.CHAIN.value and _langgraph_node(span):
        mark_agent(step, span, span.name, _chain_input(span))
        step.graph_node = True
    else:
        step.kind = OTHER
        step.inputs = _chain_input(span) if kind == _KINDS.CHAIN.value else ""
    return step
