"""warroom's domain core, one sub-package per job (docs/architecture.md has the map). Each sub-package's
``__init__`` is its API (``__all__``; its names are loaded on first use); its ``_private`` modules are imported by
nothing outside it (``lint-imports`` refuses it).

From the bottom layer up:

- :mod:`warroom.core.files`: regular-file checks before anything is opened, real paths, the atomic write.
- :mod:`warroom.core.text`: drill text made safe, one format per number, plurals, ids and did-you-mean.
- :mod:`warroom.core.settings`: the settings of one invocation (trainee, data directory, drill folders).
- :mod:`warroom.core.model`: the drill format (pydantic models: field types, vocabularies, trace events, agents,
  answer key, evidence items, probes, variants section), trainee actions, outcomes, and what a trainee may see
  before the debrief.
- :mod:`warroom.core.rules`: the semantic rules of a drill beyond its types (plan and events, answer key, format 2).
- :mod:`warroom.core.load`: YAML text to a validated drill, with ``path:line:col`` problems, the limits and the fast
  path; drill-set files.
- :mod:`warroom.core.variants`: seeded variants of a drill.
- :mod:`warroom.core.play`: the Replay on an injected drill clock (release queue, step states, escalations,
  probes), the cost meter and cost math, citations judged.
- :mod:`warroom.core.scoring`: the scorecard, a pure function of the drill and the action log, by an edition of the
  rules (each edition one frozen value).
- :mod:`warroom.core.stats`: cohort statistics.
- :mod:`warroom.core.library`: where drills are found, the picker's cards and cache, a drill set's drills, the
  adaptive chooser.
- :mod:`warroom.core.author`: scripted trainees and fairness, skeletons, migrate, schema, annotation.
- :mod:`warroom.core.projection`: fault drills and their twins projected into healthy traces (``warroom project``).
"""
