# The API of warroom.importers.langfuse (its __init__.py loads each name on first use, from the module named here).
# keep: IMPORTER, import_langfuse

from ._importer import IMPORTER, import_langfuse
from ._values import user_text

__all__ = [
    "IMPORTER",
    "import_langfuse",
    "user_text",
]
