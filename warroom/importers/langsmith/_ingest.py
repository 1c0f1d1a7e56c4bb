"""LangSmith's ingest payloads, what a team capturing its own LangSmith traffic has: the SDK's ``/runs/batch`` body
(``{"post": [runs], "patch": [runs]}``: a run posted when it starts, patched with its outputs, end time and error
when it ends) and its ``/runs/multipart`` body (parts named ``post.<id>``, ``post.<id>.inputs``,
``patch.<id>.outputs``, ...). Each is read as the runs it ends with: a patch's fields over its post's
(docs/importing.md, "`warroom import langsmith`")."""

from __future__ import annotations

from typing import Any

from warroom.importers.kit import TraceError

#: The operations of an ingest payload, in the order they apply.
OPERATIONS = ("post", "patch")


def is_batch(value: Any) -> bool:
    """Whether ``value`` is a ``/runs/batch`` body: an object whose only keys are ``post`` and ``patch`` (lists)."""
    return (isinstance(value, dict) and bool(value) and set(value) <= set(OPERATIONS)
            and all(isinstance(v, list) for v in value.values()))


def from_multipart(parts: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """A ``/runs/multipart`` body's parts as a batch: ``post.<id>`` and ``patch.<id>`` the runs, ``<op>.<id>.<field>``
    (``inputs``, ``outputs``, ``events``, ``extra``, ...) that run's field; other parts (attachments, feedback)
    are left out."""
    runs: dict[str, dict[str, dict[str, Any]]] = {op: {} for op in OPERATIONS}
    for name, value in parts.items():
        op, _, rest = name.partition(".")
        if op not in OPERATIONS or not rest:
            continue
        run_id, _, key = rest.partition(".")
        run = runs[op].setdefault(run_id, {"id": run_id})
        if key:
            run[key] = value
        elif isinstance(value, dict):
            run.update(value)
    return {op: list(found.values()) for op, found in runs.items()}


def merged_runs(batches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The runs that ingest ``batches`` end with, in order of first post: each run's posts, then its patches, field
    by field (a patch's fields over the post's; a patch of a run never posted is a run of its own)."""
    runs: dict[str, dict[str, Any]] = {}
    posted: dict[str, dict[str, Any]] = {}
    for op in OPERATIONS:
        for batch in batches:
            for run in batch.get(op, []):
                if isinstance(run, dict):
                    key = str(run.get("id", len(runs)))
                    if op == "post":
                        _same_post(posted.setdefault(key, run), run)
                    runs[key] = {**runs.get(key, {}), **{k: v for k, v in run.items() if v is not None or op == "post"}}
    return list(runs.values())


def _same_post(first: dict[str, Any], again: dict[str, Any]) -> None:
    """Nothing, when a run posted again (an exporter's retry) is the same post; else a TraceError naming the first
    field that differs: the importer does not choose between two versions of one run (a patch is what changes a run
    after its post)."""
    for name in sorted(first.keys() | again.keys()):
        if first.get(name) != again.get(name):
            raise TraceError(f"run {str(first.get('id'))[:80]!r} is posted twice with a different `{name}`: keep "
                             "one post of each run (a run's later fields come in a patch; export the trace again)")
