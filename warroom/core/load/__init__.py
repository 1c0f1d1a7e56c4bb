"""Reading files into the model: a drill's YAML text to a validated :class:`~warroom.core.model.Drill`, with every
problem at its ``path:line:col`` (YAML 1.2 read with a position on every node, the type problems said in the
drill's terms, the semantic rules run on whatever did load), within the :mod:`~warroom.core.load.limits` of a drill
file, and the fast path that loads a valid drill without positions; and a drill set's file to a
:class:`DrillSet` the same way.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
