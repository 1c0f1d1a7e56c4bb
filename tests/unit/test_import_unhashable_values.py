"""A trace value of the wrong type where an importer expects a string (a list as a message's ``type``, a run's
``run_type``) is no crash: the importers compare such values with their known names, never hash them (found by the
fuzz campaign at 20 times its CI budget: ``TypeError: unhashable type: 'list'``)."""

from __future__ import annotations

from warroom.importers.exports._messages import message


def test_a_message_whose_type_is_a_list_is_read_as_a_message_or_not_at_all():
    for odd in ([], ["function_call"], {"a": 1}):
        item = {"type": odd, "content": [{"type": odd, "text": "hi"}, {"type": odd, "thinking": "x"}]}
        message(item)  # no TypeError
        message({**item, "role": "assistant"})
