"""The semantic rules of a drill, beyond what its types say: unique ids and references (plan steps, tool calls,
trace events), time order, the answer key (origin, evidence, deadline, damage), all clear and distractors, and
format 2's agents, models, calls, version, probes and variants section. :func:`validate_drill` checks a type-valid
drill; :func:`validate_data` runs the same rules on the plain data of one that is not, naming the rules a bad value
blocks. Each :class:`Issue` is located by its data path, so the loader can point at its line and column.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
