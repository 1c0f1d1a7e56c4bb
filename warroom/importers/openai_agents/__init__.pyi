# The API of warroom.importers.openai_agents (its __init__.py loads each name on first use, from the module named here).
# keep: IMPORTER, import_openai_agents

from ._importer import IMPORTER, import_openai_agents

__all__ = [
    "IMPORTER",
    "import_openai_agents",
]
