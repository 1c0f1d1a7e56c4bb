"""Importers: turn real agent traces from public corpora into drills.

Each importer maps one corpus format onto the drill format (:mod:`warroom.core.model`) and fills in, openly, what
the corpus lacks (the drill clock, token counts, prices, damage, the deadline). See docs/importing.md.
"""
