"""The drill format and what play records: the pydantic models of a drill (its shared field types and vocabularies,
briefing, models and prices, agents, plan, trace events, answer key with its evidence items and fault origins,
all clear, distractors, probes, the variants section), the escalation targets, trainee actions and session
outcomes, and the one rule of what a trainee may see before the debrief (answer-key hygiene). Everything else reads
drills through these classes; no module here loads a file, plays a drill or scores one.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
