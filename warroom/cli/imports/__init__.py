"""``warroom import``: one subcommand per importer of the registry (:mod:`warroom.importers.kit`), made in
:mod:`.commands` from what each importer declares (its name, help and own options, beside the options every import
takes), and run by :mod:`.run` (progress, summary, exit status)."""
