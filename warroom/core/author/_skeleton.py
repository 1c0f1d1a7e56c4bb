"""The commented skeleton drill that ``warroom new`` writes (``--example basic``, the default).

:func:`skeleton_text` returns a complete, small drill in format version 2 (its planner and executor declared as
agents; one silent failure, its evidence, a distractor, a cascade
with damage, a debrief and a re-plan) in YAML, with comments that explain each part. It validates and passes
``warroom check`` as written, so an author starts from something that works and edits it piece by piece.
"""

from __future__ import annotations

from warroom.core.text import is_valid_id

#: Schema reference used for a drill inside the repository's ``drills/`` folder.
REPO_SCHEMA_REF = "../schema/drill.schema.json"
#: Schema reference used for a drill anywhere else: a schema file next to the drill.
LOCAL_SCHEMA_REF = "drill.schema.json"


def skeleton_text(drill_id: str, schema_ref: str = LOCAL_SCHEMA_REF) -> str:
    """The skeleton drill as YAML text, with ``drill_id`` as its id and ``schema_ref`` in the schema line.

    Args:
        drill_id: the new drill's id (also the file stem); raises ValueError when it is not a valid id.
        schema_ref: path or URL of the JSON Schema for the ``# yaml-language-server: $schema=`` line.
    """
    if not is_valid_id(drill_id):
        raise ValueError(
            f"invalid drill id {drill_id!r}: use letters, digits, '-', '_' and '.', starting with a letter or "
            "digit, at most 80 characters"
        )
    if schema_ref == LOCAL_SCHEMA_REF:
        schema_note = (
            "# The line above lets VS Code (the YAML extension) check this file as you type. It points at\n"
            "# drill.schema.json next to this file: write it once with `warroom schema --output drill.schema.json`\n"
            "# in this folder (or change the path to where your copy of the schema is).\n"
        )
    else:
        schema_note = "# The line above lets VS Code (the YAML extension) check this file as you type.\n"
    id_line = f'id: "{drill_id}"'
    id_line += " " * max(2, _COMMENT_COLUMN - len(id_line))  # the comment in line with the others below it
    return _TEMPLATE.replace("@SCHEMA_REF@", schema_ref).replace("@SCHEMA_NOTE@", schema_note).replace(
        "@ID_LINE@", id_line
    )


#: The column (0-based) where the skeleton's comments on the top-level keys start.
_COMMENT_COLUMN = 36


_TEMPLATE = """\
# yaml-language-server: $schema=@SCHEMA_REF@
@SCHEMA_NOTE@#
# A warroom drill: one incident in a planner-executor agent, replayed for a trainee on a drill clock.
# This skeleton is a complete, working drill. Replace the example incident with yours, part by part, and run
#   warroom validate THIS_FILE   (the format and the cross-references)
#   warroom check THIS_FILE      (scripted trainees: the drill must be winnable and fair)
#   warroom run THIS_FILE        (play it yourself)
# The guide is docs/authoring.md (concepts, field reference, what makes a drill fair).
# Times (`t`, `deadline`) are seconds of drill time from the start. Prices are USD per million tokens.

schema_version: 2                   # the drill format version: 2 is current (1 still loads)
@ID_LINE@# must equal the file name without .yaml
title: "Weekly signup report"       # shown in the picker: name the task, never the fault
version: 1                          # bump when you edit a published drill
difficulty: 2                       # 1 (easy) to 5 (hard)
# Only tags marked domain: are shown before the debrief; the others (fault kind, MAST/TRAIL terms) in the debrief.
tags: [domain:growth-analytics, error_flag_ignored, "TRAIL: tool-output misinterpretation", "MAST: incorrect verification"]
author: your name

# What the trainee reads before the start. Never hint at the fault, nor say when to escalate (warroom adds that).
briefing:
  goal: >-
    Send the weekly signup report (signups per plan for the last 7 days) to the #growth channel and to the
    three regional leads by email.
  watching: >-
    A reporting agent. The planner wrote a four-step plan; the executor runs it against the analytics
    warehouse, the chart service, Slack and email. Watch the raw tool results, not only the executor's reports.
  context: Last week's report showed about 1,900 signups.

# The models the agents run on, and what their calls cost (USD per million input / output tokens).
models:
  planner: {name: planner-large, input_usd_per_mtok: 3.0, output_usd_per_mtok: 15.0}
  executor: {name: executor-small, input_usd_per_mtok: 0.8, output_usd_per_mtok: 4.0}

# The agents in the trace: here only the planner (writes the plan, re-plans on escalation) and the executor
# (runs the plan's tool calls). `model` names one of the models above. Events without an `agent` belong to the
# planner or the executor by their kind. Format 2 can also carry sub-agents, people who approve, handoffs, more
# models, batches, retries and repetition: `warroom new ID --example full` uses them all; docs/authoring.md
# ("Format version 2") explains each. Inside {...} a comma separates entries: keep text in quotes, as below.
agents:
  - {name: planner, role: planner, model: planner-large, description: "Writes the plan and re-plans on escalation."}
  - {name: executor, role: executor, model: executor-small, description: "Runs the plan's tool calls and reports."}

# The planner's ordered plan. Each objective must be checkable against the trace.
plan:
  - id: s1
    title: Query weekly signups
    objective: Signups per plan for the last 7 days from the warehouse, with a total.
  - id: s2
    title: Render the chart
    objective: A bar chart of signups per plan, uploaded, with a public URL.
  - id: s3
    title: Post to Slack
    objective: "The chart and totals posted to #growth."
  - id: s4
    title: Email the regional leads
    objective: The same report emailed to the three regional leads.

# The trace: timed events, in drill-time order. Kinds: planner_call, executor_message, tool_call,
# tool_result (answers a tool_call via `call`), executor_report (the *reported* status, which lies on the
# silent step) and log. Model calls carry `usage` (tokens), which the cost meter prices.
trace:
  - id: e01
    t: 0
    kind: planner_call
    content: |-
      Plan: s1 query signups per plan for the last 7 days; s2 render a bar chart; s3 post to #growth;
      s4 email the regional leads. Report counts after s1.
    usage: {input_tokens: 2400, output_tokens: 420}
  - id: e02
    t: 4
    step: s1
    kind: tool_call
    tool: warehouse.query
    arguments:
      sql: "SELECT plan, count(*) AS signups FROM analytics.signups WHERE created_at >= now() - interval '7 days' GROUP BY plan"
    usage: {input_tokens: 1100, output_tokens: 120}
  # The fault: the tool answered with an error flag (ok: false), an error message and no rows. This raw
  # result is the evidence: a careful trainee can read it here.
  - id: e03
    t: 8
    step: s1
    kind: tool_result
    call: e02
    status: ok
    duration_ms: 640
    output:
      ok: false
      error: "permission denied for schema analytics (role report_bot lost USAGE after the 2 June grant rotation)"
      rows: []
  # The executor reports success anyway: the silent failure. (It comes with the next event: were e01-e04 alone
  # on screen, citing all four would cite half evidence, which `warroom check` takes for a guess that wins. And it
  # comes soon after e03: the longer the evidence stays the newest event, the more often a blind guess at the
  # newest event wins, and `warroom check` warns above 10% of the trace.)
  - id: e04
    t: 12
    step: s1
    kind: executor_report
    status: success
    content: "s1 done: the query returned no rows, so there were 0 signups in the last 7 days (all plans)."
    usage: {input_tokens: 1300, output_tokens: 70}
  # A distractor: odd-looking but harmless (explained under `distractors` below). Keep distractors out of the
  # origin step, of another kind or step than the evidence, and off the damage events (`warroom check` says why).
  - id: e05
    t: 12
    step: s2
    kind: log
    source: chart-service
    level: warning
    content: "font cache rebuilt (fc-cache took 2.1 s); first render may be slow"
  - id: e06
    t: 18
    step: s2
    kind: tool_call
    tool: charts.render_bar
    arguments: {title: "Signups per plan, last 7 days", series: []}
    usage: {input_tokens: 1150, output_tokens: 110}
  - id: e07
    t: 24
    step: s2
    kind: tool_result
    call: e06
    status: HTTP 201
    output: {url: "https://charts.example.internal/c/9f31.png", bars: 0}
  - id: e08
    t: 27
    step: s2
    kind: executor_report
    status: success
    content: s2 done. Chart uploaded.
    usage: {input_tokens: 1200, output_tokens: 40}
  - id: e09
    t: 32
    step: s3
    kind: tool_call
    tool: slack.post_message
    arguments: {channel: "#growth", text: "Weekly signups: 0 (all plans). Chart: https://charts.example.internal/c/9f31.png"}
    usage: {input_tokens: 1250, output_tokens: 90}
  - id: e10
    t: 36
    step: s3
    kind: tool_result
    call: e09
    status: HTTP 200
    output: {ok: true, channel: C024GROWTH, ts: "1717400123.000200"}
  - id: e11
    t: 42
    step: s4
    kind: tool_call
    tool: email.send
    arguments: {to: [lead-emea@example.com, lead-amer@example.com, lead-apac@example.com], subject: "Weekly signups: 0"}
    usage: {input_tokens: 1300, output_tokens: 140}
  - id: e12
    t: 47
    step: s4
    kind: tool_result
    call: e11
    status: ok
    output: {accepted: 3, rejected: 0}
  - id: e13
    t: 50
    step: s4
    kind: executor_report
    status: success
    content: All steps complete. Report posted and emailed.
    usage: {input_tokens: 1200, output_tokens: 50}

# The answer key: hidden from the trainee until the debrief.
answer_key:
  fault:
    origin_step: s1               # the plan step to escalate: where the fault happened, not where it showed
    kind: error_flag_ignored      # from the fault-kind vocabulary (docs/authoring.md)
    summary: The warehouse query failed with a permission error (ok false); the executor read it as zero signups.
  evidence: [e03]                 # events that show the fault; the earliest makes it detectable
  accepted_evidence: [e04]        # optional: more events a trainee may cite as showing it (here the "0 signups")
  cascade: [s2, s3, s4]           # the plan steps that build on the bad result
  damage:
    unit: "wrong reports published" # a unit that matters in this domain
    entries:                      # damage done by cascade events released before containment
      - {event: e07, amount: 1, note: a chart of zero signups uploaded}
      - {event: e10, amount: 1, note: "a report of 0 signups posted to #growth"}
      - {event: e12, amount: 3, note: three regional leads emailed the wrong figure}
  deadline: 22                    # after the earliest evidence (8 s) with time to read it; before every damage event
  debrief: |-
    The fault was in s1. The warehouse tool answered "ok: false" with a permission error and no rows (e03, at
    8 s); the executor read the empty rows as "0 signups" and reported success. Escalating s1 after reading e03,
    before the deadline at 22 s (the chart went out at 24 s), would have stopped everything. The font-cache
    warning (e05) was harmless.
    The re-plan: fix the role's grant, rerun the query and refuse any result whose ok flag is false.
  # The habit that would have caught it: the check to make every time, for any drill like this one (the debrief
  # shows it in its own place; warroom validate warns when a fault drill has none).
  habit: >-
    Read a tool result's status fields before its data: "ok: false" or an error object means the rows are not an
    answer, and an empty result from a failed call is not zero.
  replan:                         # what plays after a correct escalation; t counts from the escalation
    - id: r01
      t: 3
      kind: planner_call
      content: "Escalation accepted: s1 failed with a permission error. Stop s2-s4; ask the data team to restore the grant, then rerun s1."
      usage: {input_tokens: 2600, output_tokens: 300}

# Odd-looking but harmless events, each with the reason (shown in the debrief).
distractors:
  - event: e05
    why_harmless: The chart service rebuilds its font cache after a deploy; it slows the first render, nothing else.
"""
