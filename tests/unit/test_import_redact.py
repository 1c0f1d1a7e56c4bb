"""Redaction on import (warroom.importers.redact): what is replaced, by which placeholder, what is left alone."""

from __future__ import annotations

import pytest

from warroom.importers.kit import Redactor, read_names


@pytest.mark.parametrize(("text", "expected"), [
    ("mail alice.b+x@mail.example.co.uk now", "mail <email-1> now"),
    ("key sk-proj-abcdefghijklmnop1234 here", "key <key-1> here"),
    ("sk-ant-api03-ABCDEFGHIJKLMNOPQRST", "<key-1>"),
    ("token ghp_abcdefghijklmnopqrstuvwxyz0123", "token <key-1>"),
    ("github_pat_11ABCDEFG0123456789_abcdefghijkl", "<key-1>"),
    ("AKIAIOSFODNN7EXAMPLE", "<key-1>"),
    ("xoxb-1234567890-abcdefghij", "<key-1>"),
    ("Authorization: Bearer abc.def-ghi123", "Authorization: Bearer <key-1>"),
    ("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig_nature", "jwt <key-1>"),
    ('{"api_key": "s3cr3t-value"}', '{"api_key": "<key-1>"}'),
    ("password=hunter2hunter2", "password=<key-1>"),
    ("from 10.0.0.12.", "from <ip-1>."),
    ("host 2001:db8::1 and ::1", "host <ip-1> and <ip-2>"),
    ("mapped ::ffff:192.168.1.1", "mapped <ip-1>"),
    ("call +1 202-555-0143", "call <phone-1>"),
    ("call (555) 123-4567 or 555.123.4567", "call <phone-1> or <phone-2>"),
    ("+442079460958", "<phone-1>"),
    ("+44 20 7946 0958", "<phone-1>"),
])
def test_each_kind_is_replaced(text, expected):
    assert Redactor().text(text) == expected


@pytest.mark.parametrize("text", [
    "version 1.2.3.4.5", "999.1.1.1", "on 2024-01-15 at 12:30:45", "std::vector<int>", "100 000 000",
    "card 4111 1111 1111 1111", "order #W2378156", "sk-short", "e0012 t: 3.5", "a :: b", "Bearer x",
])
def test_lookalikes_are_left_alone(text):
    assert Redactor().text(text) == text


def test_the_same_input_gets_the_same_placeholder_and_counts_are_per_replacement():
    r = Redactor(["Alice Smith", "Bob"])
    first = r.text("Alice Smith (alice@example.com) asked BOB; alice smith again, ALICE@EXAMPLE.COM")
    second = r.text("bob wrote to alice@example.com from 10.1.1.1 and carol@example.com")
    assert first == "<name-1> (<email-1>) asked <name-2>; <name-1> again, <email-1>"
    assert second == "<name-2> wrote to <email-1> from <ip-1> and <email-2>"
    r.commit()
    assert r.counts == {"name": 4, "email": 4, "ip": 1}
    assert r.summary() == "redacted 4 e-mail addresses, 1 IP address, 4 names"


def test_names_are_whole_words_and_not_found_inside_placeholders():
    r = Redactor(["Ann", "email"])
    assert r.text("Anna met Ann; mail ann@x.org") == "Anna met <name-1>; mail <email-1>"


def test_discarded_replacements_are_not_counted():
    r = Redactor()
    r.text("a@example.com")
    r.discard()
    r.text("a@example.com b@example.com")
    r.commit()
    assert r.counts == {"email": 2}
    assert Redactor().summary() == "redacted nothing"


def test_drill_data_keeps_ids_and_references_but_redacts_arguments_and_outputs():
    r = Redactor(["Ann"])
    data = {"id": "chat-ann", "title": "Ann's refund", "agents": [{"name": "Ann", "role": "executor"}],
            "trace": [{"id": "e1", "agent": "Ann", "kind": "tool_call", "tool": "mail",
                       "arguments": {"id": "ann@example.com", "to": ["Ann"]}},
                      {"id": "e2", "call": "e1", "kind": "tool_result", "output": {"name": "Ann"}, "t": 1.5}]}
    out = r.data(data)
    assert out["id"] == "chat-ann" and out["agents"] == data["agents"] and out["trace"][0]["agent"] == "Ann"
    assert out["title"] == "<name-1>'s refund"
    assert out["trace"][0]["arguments"] == {"id": "<email-1>", "to": ["<name-1>"]}
    assert out["trace"][1] == {"id": "e2", "call": "e1", "kind": "tool_result", "output": {"name": "<name-1>"},
                               "t": 1.5}
    assert data["title"] == "Ann's refund"  # a copy: the input is unchanged


def test_names_file(tmp_path):
    f = tmp_path / "names.txt"
    f.write_text("\ufeff# people\nAlice Smith\n\n  Bob  \n", encoding="utf-8")
    assert read_names(f) == ["Alice Smith", "Bob"]
    f.write_bytes(b"caf\xe9\n")
    with pytest.raises(ValueError, match="not UTF-8"):
        read_names(f)
