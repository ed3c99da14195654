"""The policy's depth limits refuse, by name, what they cannot check: a nested argument hiding a ``__`` string
below the scan depth, a returned container nested past it.  Each asserts which guard refused (not just that
something failed), so a limit that failed open would let the call run and the test would fail."""

from __future__ import annotations

from copilot_core.sandbox import run_analysis

NEST = "x = {inner}\nfor i in range(30):\n    x = [x]\n"


def test_an_argument_nested_past_the_scan_depth_is_refused_by_the_argument_guard(store, planted):
    hidden = NEST.format(inner="'__class__'") + "print(len(json.dumps(x)))"
    result = run_analysis(hidden, store)
    assert "SecurityError: arguments nested this deeply cannot be checked in the sandbox" in (result.error or "")
    shallow = "x = [[['a']]]\nprint(len(json.dumps(x)))"
    assert run_analysis(shallow, store).output == "9"  # '[[["a"]]]': the same call with a checkable argument runs


def test_a_value_nested_past_the_scan_depth_is_refused_by_the_value_guard(store, planted):
    result = run_analysis("v = json.loads('[' * 30 + ']' * 30)\nprint('got it')", store)
    assert "SecurityError: containers nested this deeply cannot be checked in the sandbox" in (result.error or "")
    assert result.output == ""
    assert run_analysis("v = json.loads('[' * 5 + ']' * 5)\nprint(len(v))", store).output == "1"
