# The API of warroom.importers.otel (its __init__.py loads each name on first use, from the module named here).
# keep: convert_file, import_otel

from ._classify import classify
from ._importer import convert_file, import_otel
from ._messages import messages_text

__all__ = [
    "classify",
    "convert_file",
    "import_otel",
    "messages_text",
]
