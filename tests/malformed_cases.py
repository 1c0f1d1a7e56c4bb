"""The malformed drill corpus (tests/malformed/): what each file must report, shared by the loader's tests, every
command's test and the picker's test."""

from __future__ import annotations

from locations import MALFORMED

__all__ = ["BASE", "EXPECTED", "MALFORMED"]

BASE = (MALFORMED / "unknown-key-typo.yaml").read_text().replace("  evidnce: [e3]", "  evidence: [e3]")

#: Each malformed drill (file stem) -> (line, column, fragment of the message) of the problem it must report.
#: Lines count the header comment each file starts with ("# Malformed drill: ..."), which says what is wrong.
EXPECTED: dict[str, tuple[int, int, str]] = {
    "answer-key-and-all-clear": (75, 1, "either an answer_key (a fault) or all_clear"),
    "bad-id": (17, 9, "`s 2` is not a valid id"),
    "bad-indentation": (19, 4, "indentation does not match the keys above it"),
    "billion-laughs": (8, 7, "'billion laughs' file?"),
    "binary-junk": (2, 1, "control character ('\\x00', U+0000 NULL) that YAML does not allow in a file"),
    "bool-as-number": (
        5, 13, "`difficulty` must be a whole number, got `yes`; `yes` is text in YAML 1.2, which warroom reads (YAML "
        "1.1 read it as the boolean true)"
    ),
    "colon-in-plain-text": (61, 24, "a colon followed by a space inside unquoted text: put the whole text in quotes"),
    "damage-before-evidence": (
        67, 17, "damage event `e2` (t=5 s) comes before the earliest evidence `e3` (t=8 s): no trainee could escalate"
    ),
    "deadline-before-evidence": (68, 13, "the deadline (t=6 s) comes before the earliest evidence (t=8 s)"),
    "difficulty-out-of-range": (5, 13, "`difficulty` must be at most 5, got `7`"),
    "distractor-is-evidence": (76, 12, "event `e3` is evidence of the fault, so it cannot also be a distractor"),
    "duplicate-event-id": (71, 11, "duplicate event id `e4`"),
    "duplicate-key": (35, 5, "duplicate key `t`: it is already on line 34 (this one is on line 35)"),
    "duplicate-step-id": (17, 9, "duplicate plan step id `s1`: plan step #1 has it too (see line 14)"),
    "empty-file": (1, 1, "the file is empty"),
    "empty-plan": (13, 7, "`plan` needs at least 1 item"),
    "empty-title": (4, 8, "`title` must not be empty"),
    "empty-value": (8, 8, "`briefing.goal` must be text, got nothing (the value is empty)"),
    "evidence-before-origin": (62, 14, "evidence event `e1` (t=0 s) comes before the fault's origin step `s1` starts"),
    "evidence-is-replan-event": (62, 18, "evidence event `r1` is a re-plan event"),
    "fractional-tokens": (32, 48, "`usage.output_tokens` of trace event `e2` must be a whole number, got `150.5`"),
    "huge-damage-amount": (
        67, 29, "`amount` of damage entry #1 must be at most 1,000,000,000,000 (the drill format's limit for one damage"
    ),
    "huge-tokens": (
        25, 27, "`usage.input_tokens` of trace event `e1` must be at most 10,000,000 (the drill format's limit for tokens"
    ),
    "infinite-time": (51, 8, "`t` of trace event `e6` must be a finite number, got `.inf`"),
    "key-of-another-kind": (
        38, 5, "unknown key `tool` in a `tool_result` event; `tool` is a key of `tool_call` events, not of this one; "
        "allowed keys: agent, call, duration_ms"
    ),
    "missing-event-kind": (39, 5, "trace event `e4` has no `kind`; add one of: planner_call"),
    "missing-required-key": (7, 1, "`briefing` is missing the required key `goal`"),
    "multiple-documents": (75, 1, "a second YAML document"),
    "negative-price": (12, 47, "`models.executor.input_usd_per_mtok` must be at least 0, got `-1`"),
    "negative-tokens": (25, 27, "`usage.input_tokens` of trace event `e1` must be at least 0, got `-3000`"),
    "no-answer-key": (2, 1, "the drill needs an answer_key"),
    "not-utf8": (4, 11, "not UTF-8 text (byte 0xe9 here)"),
    "over-indented-key": (
        18, 7, "this line is indented deeper than the key `id` above it (line 17, column 5): indent `title` like `id`; "
        "if `title: ...` was meant as part of the text above, put that whole text in quotes",
    ),
    "python-tag": (31, 16, "the tag `!!python/object/apply:os.system` is not supported"),
    "recursive-alias": (31, 16, "a recursive alias"),
    "replan-time-goes-backwards": (76, 10, "re-plan event `r2` at t=1 s is earlier than the event before it, `r1` at t=2 s"),
    "result-before-call": (30, 11, "the tool_call `e2` comes after this result"),
    "result-of-non-call": (37, 11, "`e1` is a planner_call event, not a tool_call"),
    "tab-indentation": (15, 1, "YAML indentation must use spaces, not tabs"),
    "time-goes-backwards": (46, 8, "trace event `e5` at t=9 s is earlier than the event before it, `e4` at t=10 s"),
    "too-deep": (5, 70, "nested too deeply"),
    "top-level-list": (2, 1, "must be a mapping of keys"),
    "unclosed-quote": (56, 14, 'this quoted text is never closed: add the closing "'),
    "unclosed-quote-runs-on": (
        15, 12, 'this quoted text is never closed: add the closing " where the text ends (without it, the text runs on '
        'to the next ", on line 56, column 14)',
    ),
    "undefined-alias": (32, 12, "the alias *call_usage names no anchor (&call_usage)"),
    "unknown-cascade-step": (63, 17, "cascade step `s9` is not a plan step; the plan steps are: s1, s2"),
    "unknown-damage-event": (67, 17, "damage event `e50` is not a trace event (did you mean `e5`?)"),
    "unknown-distractor-event": (76, 12, "distractor event `e7` is not a trace event"),
    "unknown-event-kind": (29, 11, "unknown event kind `tool_cal` in trace event `e2`; did you mean `tool_call`?"),
    "unknown-evidence-event": (62, 18, "evidence event `e33` is not a trace event (did you mean `e3`?)"),
    "unknown-fault-kind": (60, 11, "unknown fault kind `rate_limited`; did you mean `rate_limit_swallowed`?"),
    "unknown-key-typo": (62, 3, "unknown key `evidnce` in `answer_key`; did you mean `evidence`?"),
    "unknown-log-level": (55, 12, "unknown value `warn` for `level` of trace event `e6`; did you mean `warning`?"),
    "unknown-origin-step": (59, 18, "the fault's origin_step `search` is not a plan step"),
    "unknown-report-status": (43, 13, "unknown value `done` for `status` of trace event `e4`; allowed: success, partial"),
    "unknown-step-reference": (52, 11, "step `s3` is not a plan step"),
    "unknown-top-level-key": (7, 1, "unknown key `tag` in the drill; did you mean `tags`?"),
    "unsupported-tag": (38, 13, "the tag `!!binary` is not supported"),
    "wrong-schema-version": (2, 17, "schema_version must be 1 or 2, got `3`"),
    "wrong-type-list": (7, 7, "`tags` must be a list, got `support`"),
    "wrong-type-mapping": (10, 1, "`models` must be a mapping (key: value lines), got a list"),
    "wrong-type-number": (5, 13, "`difficulty` must be a whole number, got `hard`"),
    # YAML 1.2 meanings, overflowing numbers, explicit tags that do not fit (issues 11.2, 12.1, 12.10)
    "overflowing-duration": (38, 18, "`duration_ms` of trace event `e3` must be a finite number, got `1e400`"),
    "overflowing-deadline": (68, 13, "`answer_key.deadline` must be a finite number, got `2E308`"),
    "overflowing-price": (11, 44, "`models.planner.input_usd_per_mtok` must be a finite number, got `9e999`"),
    "huge-whole-number": (25, 48, "is too long: a whole number has at most 4,000 digits"),
    "nan-time": (51, 8, "`t` of trace event `e6` must be a finite number, got `.NaN`"),
    "bool-tag-maybe": (25, 64, "`maybe` is not a valid !!bool (YAML 1.2 booleans are true and false)"),
    "bool-tag-yaml11-word": (25, 64, "`yes` is not a valid !!bool (YAML 1.2 booleans are true and false)"),
    "bool-tag-on-number": (5, 13, "`maybe` is not a valid !!bool"),
    "int-tag-text": (25, 27, "`lots` is not a valid !!int (a whole number is digits, 0x... or 0o...)"),
    "float-tag-text": (27, 8, "`soon` is not a valid !!float"),
    "null-tag-text": (4, 8, "`Minimal drill` is not a valid !!null (null is written null, ~ or nothing)"),
    "timestamp-tag-text": (49, 14, "`yesterday` is not a valid !!timestamp"),
    "leading-zero-amount": (
        67, 29, "`04413` has a leading zero: YAML 1.1 reads it as the octal number 2,315, YAML 1.2 as the number "
        "4,413; write 4413 without the leading zero"
    ),
    "leading-zero-difficulty": (5, 13, "`02` has a leading zero"),
    "sexagesimal-number": (
        68, 13, "`answer_key.deadline` must be a number, got `1:30`; `1:30` is text in YAML 1.2, which warroom reads "
        "(YAML 1.1 read it as the base-60 number 90): write 90 if you meant that number"
    ),
    "underscore-number": (67, 29, "got `1_150`; YAML 1.2 numbers have no `_` (YAML 1.1 read `1_150` as 1150)"),
    "yes-as-boolean": (25, 64, "must be true or false, got `yes`; `yes` is text in YAML 1.2"),
    "on-as-boolean": (25, 64, "must be true or false, got `on`; `on` is text in YAML 1.2"),
    # a comma inside {...} (issue 11.22)
    "comma-in-flow-mapping": (
        67, 46, "`000 deleted` has no value: inside {...} a comma separates entries, so the text `first 1,000 deleted` "
        'was cut at the comma into `first 1` and a key `000 deleted`; put text with a comma in quotes: "first 1,000 '
        'deleted"'
    ),
    "comma-and-space-in-flow-mapping": (38, 35, "the text `rate limited, retry later` was cut at the comma"),
    # control characters and message grammar (issue 11.23)
    "raw-escape-character": (
        4, 16, "a control character ('\\x1b', U+001B ESCAPE) that YAML does not allow in a file: to put it in a "
        'text, write it as "\\x1b" inside a double-quoted string'
    ),
    "raw-delete-character": (54, 16, 'write it as "\\x7f" inside a double-quoted string'),
    "quoted-unknown-status": (43, 13, "unknown value `done` for `status` of trace event `e4`; allowed:"),
    # directives, aliases, nulls, positions (issues 12.11, 12.12)
    "yaml-1-1-directive": (2, 1, "`%YAML 1.1`: warroom reads drill files as YAML 1.2 only"),
    "yaml-2-directive": (2, 1, "`%YAML 2.0`: warroom reads drill files as YAML 1.2 only"),
    "answer-key-null": (57, 1, "the drill needs an answer_key"),
    "duplicate-id-through-alias": (58, 5, "duplicate event id `e5`"),
    "duplicate-key-through-alias": (31, 36, "duplicate key `customer`: it is already at column 17 of this line"),
    "line-separator-in-text": (68, 3, "unknown key `dedline` in `answer_key`"),
    "next-line-character-in-text": (51, 8, "trace event `e6` at t=14 s is earlier than the event before it"),
    # blank required text (issue 12.13)
    "blank-title": (4, 8, "`title` must not be blank: write some text, not only spaces or line breaks"),
    "blank-debrief": (69, 12, "`answer_key.debrief` must not be blank"),
    "blank-objective": (19, 16, "`objective` of plan step `s2` must not be blank"),
    "yaml-number-as-id": (47, 11, "`step` of trace event `e5` must be text, got `2`; YAML reads an unquoted `2` as a number"),
    # Semantic rules: entries listed twice, ids shown as they are, every rule run on what did load.
    "duplicate-damage-entry": (68, 17, "damage event `e5` is listed twice: damage entry #1 has it too; keep one"),
    "duplicate-evidence-entry": (
        62, 18, "evidence event `e3` is listed twice: evidence item #1 has it too; keep one (see line 62, column 14)"
    ),
    "duplicate-cascade-step": (63, 17, "cascade step `s2` is listed twice: cascade item #1 has it too"),
    "duplicate-distractor": (78, 12, "distractor event `e6` is listed twice: distractor #1 has it too; keep one (see line 76)"),
    "cyrillic-letter-in-id": (17, 9, "`\\u04552` (Cyrillic \u0455 U+0455) is not a valid id"),
    "zero-width-space-in-reference": (
        62, 14, "`e3\\u200b` (zero width space U+200B) is not a valid id for evidence item #1"
    ),
    "look-alike-unknown-key": (62, 3, "unknown key `ev\\u0456dence` (Cyrillic \u0456 U+0456) in `answer_key`"),
    "typo-hides-nothing": (52, 11, "step `s7` is not a plan step; the plan steps are: s1, s2"),
    "typo-and-time-backwards": (46, 8, "trace event `e5` at t=9 s is earlier than the event before it, `e4` at t=10 s"),
    "typo-in-required-key-is-one-problem": (
        68, 3, "did you mean `deadline`? (`deadline` is required and missing, so this is the one to fix)"
    ),
    "bad-value-and-unknown-call": (37, 11, "there is no tool_call `e9` before it (did you mean `e2`?)"),
    "bad-amount-and-unknown-evidence": (62, 14, "evidence event `e33` is not a trace event (did you mean `e3`?)"),
    "answer-key-typo": (57, 1, "unknown key `answer_kye` in the drill; did you mean `answer_key`?"),
    "bad-difficulty-and-damage-before-evidence": (
        67, 17, "damage event `e2` (t=5 s) comes before the earliest evidence `e3` (t=8 s)"
    ),
    "bad-plan-title-and-duplicate-step-id": (17, 9, "duplicate plan step id `s1`: plan step #1 has it too"),
    "bad-evidence-time-blocks-deadline-rule": (34, 8, "`t` of trace event `e3` must be a number, got `soon`"),
    # A new author's slips, in format-2 files (built from `warroom new`'s skeleton)
    "no-space-after-colon": (
        8, 7, "`author:your name` has no space after the colon, so YAML reads it as text, not as the key `author`: "
        "write `author: your name`"
    ),
    "missing-colon-in-mapping": (16, 3, "is not a `key: value` line: add `: ` after the key"),
    "no-break-space-indentation": (
        27, 1, "a no-break space (U+00A0) in the indentation: YAML indents with plain spaces only"
    ),
    "usage-on-human-message": (
        75, 5, "unknown key `usage` in a `human_message` event; `usage` is a key of `planner_call`, "
        "`executor_message`, `tool_call` and `executor_report` events, not of this one; allowed keys: agent,"
    ),
    "command-result-with-output": (111, 5, "`output` is a key of `tool_result` events, not of this one"),
    "comparison-of-one-event": (138, 14, "`all_of` names `e03` twice: a comparison is of two or more different events"),
    "plan-origin-with-origin-step": (136, 5, "a fault with `origin: plan` has no `origin_step`; give `origin_event`"),
    "negative-deadline-after": (147, 33, "`answer_key.deadline.after` must be at least 0, got `-30`"),
    "format-1-with-agents": (20, 1, "`agents` is format 2: set `schema_version: 2`"),
    "handoff-to-itself": (74, 15, "handoff `e045` passes work from `executor` to itself"),
    "unknown-agent-on-event": (48, 12, "agent `exec` is not an agent; the agents are: `planner`, `executor`"),
    "agent-role-typo": (22, 28, "unknown value `exector` for `role` of item of `agents` #2; did you mean `executor`?"),
    "agent-model-typo": (22, 45, "model `executor-smal` is not a model in `models` (did you mean `executor-small`?)"),
    "retry-of-later-call": (49, 15, "tool_call `e02` retries `e06`, but there is no tool_call `e06` before it"),
    "deadline-unknown-event": (147, 21, "the deadline's event `e99` is not a trace event (did you mean `e09`?)"),
    "evidence-path-nowhere": (138, 33, "the field path `output.rows` leads nowhere in the output of `e03`"),
    "repeat-once": (75, 21, "`repeat.count` of trace event `e05` must be at least 2, got `1`"),
    "truncated-yes": (51, 16, "must be true or false, got `yes`; `yes` is text in YAML 1.2"),
    "output-over-max-tokens": (
        52, 48, "output_tokens (120) exceed the call's max_tokens (100): a model writes at most its cap; raise "
        "`max_tokens` or lower `output_tokens`"
    ),
    "date-as-version": (5, 10, "`version` must be a whole number, got `2026-11-20`"),
    "octal-difficulty": (6, 13, "`difficulty` must be at most 5, got `0o17`"),
    "list-item-without-dash": (
        30, 5, "duplicate key `id`: it is already on line 27 (this one is on line 30); keep only one; if this line "
        "starts another item of a list, begin it with `- `"
    ),
    "windows-1252-quotes": (16, 12, "not UTF-8 text (byte 0x93 here); save it as UTF-8"),
    "crlf-and-bom": (6, 13, "`difficulty` must be at most 5, got `9`"),
    "probe-of-unknown-step": (161, 20, "probe `p1` verifies `s9`, which is not a plan step"),
    "approval-decision-typo": (74, 15, "unknown value `approved` for `decision` of trace event `e045`; allowed:"),
    "negative-time-of-first-event": (38, 8, "`t` of trace event `e01` must be at least 0, got `-1`"),
    "all-clear-true": (
        133, 12, "`all_clear` must be a mapping (key: value lines), got `true`; write `all_clear: {debrief: ...}`"
    ),
    "only-document-markers": (1, 1, "the file is empty: a drill needs schema_version, id, title, plan, trace..."),
    "step-origin-with-origin-event": (136, 5, "`origin_event` goes with `origin: plan`, `setup` or `handoff`"),
}
