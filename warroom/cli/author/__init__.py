"""The commands for drill authors: ``warroom new`` (a skeleton drill), ``validate`` (the format and its rules, every
problem as ``path:line:col: message``), ``check`` (played headless by scripted trainees: winnable and fair),
``cost`` (what the trace costs against the flat loop), ``schema`` (the JSON Schema for editors), ``migrate`` (format
1 to 2) and ``annotate`` (mark up an imported drill's answer key in the author mode). One private module per
command; the registry in :mod:`warroom.cli` names each command object of this API.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
