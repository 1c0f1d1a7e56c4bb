"""The drill format: the pydantic models of a drill (plan, trace events, agents, answer key, probes, the variants
section), trainee actions and outcomes, and what a trainee may see before the debrief.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
