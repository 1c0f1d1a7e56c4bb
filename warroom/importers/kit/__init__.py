"""The importer kit: what every trace importer shares, and the registry of importers.

An :class:`Importer` is one trace format: its name (the ``warroom import NAME`` subcommand, with its help and its
own options), how it recognises a file of its format by content, how it reads a file into drills and how it
checks each drill before it is written. :func:`importers` is the registry: every folder of
:mod:`warroom.importers` whose API names an ``IMPORTER`` registers itself by doing so. :func:`recognise` is the
one place that says which importer reads a file, so that every refusal names the right one (:func:`refusal`).
Shared by every importer: the import loop (:func:`import_files`: each file whole or not at all, written
atomically, one result per drill or file, progress), the report, reading JSON within limits, the estimates of
what a trace lacks (pacing, tokens, prices), drill ids, redaction, the unmarked drill's header and check, and a
fast YAML emitter.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
