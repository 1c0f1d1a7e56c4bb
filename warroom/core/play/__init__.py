"""A drill played on an injected drill clock: the :class:`Replay` (events released as the clock moves, the trainee's
actions applied, escalations judged as containments or false escalations, with verification probes as a component),
its release queue with repeated events laid out, each plan step's reported state, the cost meter and the cost math
of model calls and whole traces, what an escalation cites judged by the answer key, tool calls paired with their
results, and approvals a step went ahead without. Nothing here knows wall-clock time or terminals.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
