"""Tools for drill authors, none of them needed to play a drill: ``warroom check`` (six scripted trainees play each
drill and the fairness rules judge what they scored), ``warroom new`` (the skeleton of a drill file and the full
examples), ``warroom migrate`` (a version-1 file rewritten as version 2), ``warroom schema`` (the drill format as a
JSON Schema) and the generated field reference of docs/authoring.md, and ``warroom annotate``: marking up an answer
key in the war room (the draft key, the file it is written back to with its comments kept, and the recovery file
of an unsaved draft).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
