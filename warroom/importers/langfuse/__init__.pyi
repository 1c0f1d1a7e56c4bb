# The API of warroom.importers.langfuse (its __init__.py loads each name on first use, from the module named here).

from ._observations import convert_file, import_langfuse
from ._values import user_text

__all__ = [
    "convert_file",
    "import_langfuse",
    "user_text",
]
