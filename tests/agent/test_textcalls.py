"""Which model texts are tool calls rather than answers: a hand-written table of what small models write."""

from __future__ import annotations

import pytest

from copilot_core.llm.textcalls import is_call_shaped

FENCE = "```"
CASES = [
    (f'{FENCE}json\n{{"name": "chip-health-report", "arguments": {{"chip_id": "64Qv3"}}}}\n{FENCE}', True),
    ('{"name": "x", "parameters": {}}', True),
    ('<tool_call>\n{"name": "x", "arguments": {}}\n</tool_call>', True),
    (f'<tool_call>{FENCE}json\n{{"name": "x", "arguments": {{}}}}\n{FENCE}</tool_call>', True),
    ('<tool_call>{"name": "x", "arguments": {}}', True),  # the closing tag cut off
    ('<tool_call>{"name": "a", "arguments": {}}</tool_call>\n<tool_call>{"name": "b", "arguments": {}}</tool_call>',
     True),
    # answers, even with JSON in them
    (f'The median is 5.\n{FENCE}json\n{{"name": "x", "arguments": {{}}}}\n{FENCE}', False),
    (f'{FENCE}json\n{{"name": "Q5", "t1": 42}}\n{FENCE}', False),
    ('{"name": "Q5"}', False),
    ('Q5 has the name "x".', False),
    ("", False),
    (None, False),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_call_shaped_texts(text, expected):
    assert is_call_shaped(text) is expected
