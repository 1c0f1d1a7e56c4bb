# The API of warroom.importers.openai_agents (its __init__.py loads each name on first use, from the module named here).

from ._spans import convert_file, import_openai_agents

__all__ = [
    "convert_file",
    "import_openai_agents",
]
