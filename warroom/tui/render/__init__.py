"""Rich text of drill data, with no Textual (an import-linter contract keeps it so): drill text shown literally (never
as
markup, control characters escaped), tool arguments and output as structured blocks, each trace event kind's
label, summary, marks and body (dispatched on the event's class), an event in full for the inspector, and the
terminal's character set (ASCII stand-ins where it is not UTF-8).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
