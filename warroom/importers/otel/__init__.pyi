# The API of warroom.importers.otel (its __init__.py loads each name on first use, from the module named here).
# keep: IMPORTER, import_otel

from ._classify import classify
from ._importer import IMPORTER, import_otel
from ._messages import messages_text

__all__ = [
    "IMPORTER",
    "classify",
    "import_otel",
    "messages_text",
]
