"""Only the question parse reads the question's words: no other module of the copilot's packages applies a pattern
to the question's text (a scan of the source), and the modules that read only the question compile no pattern."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.test_layers import FLOORS

CORE = Path(__file__).resolve().parents[2] / "copilot_core"
PARSE = {"language/question.py", "language/question_words.py"}
# Modules whose functions take the question and must read it through the parse only: none compiles a pattern.
QUESTION_READERS = {"routing/router.py", "routing/prefetch.py", "agent/lookups.py", "routing/followups.py",
                    "routing/clarify.py", "language/scope.py", "agent/prompts.py"}
# Calls that apply a pattern to their text argument (besides ``re.*`` and a compiled pattern's methods).
TEXT_MATCHERS = {"metrics_named", "chip_named", "threshold_metrics", "is_below", "words", "number_spans",
                 "answer_numbers", "unverified_numbers", "numbers_read", "date_mentions", "mentions", "qubits_in"}
PATTERN_METHODS = {"search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split"}
# (module, callee) allowed to take the question's text, and why.
ALLOWED = {
    # the question's numbers back the answer's numbers like a tool result's do: one number grammar for all sources
    ("checking/verify.py", "unverified_numbers"),
}


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _callee(call: ast.Call) -> tuple[str, str | None]:
    """(called name, receiver name when it is ``receiver.name(...)``)."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr, func.value.id if isinstance(func.value, ast.Name) else None
    return (func.id, None) if isinstance(func, ast.Name) else ("", None)


def pattern_calls_on_question(source: str, module: str) -> list[str]:
    """``line: call`` for every call in a function taking ``question`` that applies a pattern to the question."""
    found = []
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if "question" not in {a.arg for a in (*fn.args.args, *fn.args.kwonlyargs)}:
            continue
        for call in ast.walk(fn):
            if not isinstance(call, ast.Call):
                continue
            args = [*call.args, *(k.value for k in call.keywords)]
            if not any("question" in _names(a) for a in args):
                continue
            name, receiver = _callee(call)
            regex = receiver == "re" or (name in PATTERN_METHODS and receiver is not None and receiver.isupper()
                                         or name in PATTERN_METHODS and (receiver or "").startswith("_"))
            if (regex or name in TEXT_MATCHERS) and (module, name) not in ALLOWED:
                found.append(f"{module}:{call.lineno}: {receiver + '.' if receiver else ''}{name}")
    return found


def compiles_patterns(source: str) -> bool:
    """The module calls ``re.*`` or ``words(...)`` anywhere."""
    for call in ast.walk(ast.parse(source)):
        if isinstance(call, ast.Call):
            name, receiver = _callee(call)
            if receiver == "re" or (name == "words" and receiver is None):
                return True
    return False


MODULES = sorted(m for m in (p.relative_to(CORE).as_posix() for package in FLOORS for p in (CORE / package).glob("*.py"))
                 if m not in PARSE)


@pytest.mark.parametrize("module", MODULES)
def test_no_module_but_the_parse_applies_a_pattern_to_the_question(module):
    assert pattern_calls_on_question((CORE / module).read_text(), module) == []


@pytest.mark.parametrize("module", sorted(QUESTION_READERS))
def test_the_modules_that_read_the_question_compile_no_pattern(module):
    assert not compiles_patterns((CORE / module).read_text())


def test_the_scan_sees_a_pattern_on_the_question():
    """The scan itself: each way of matching the question's text by hand is found."""
    for body in ("_RULE.search(question)", "re.search(r'q\\d', question.lower())", "metrics_named(question)",
                 "RULE.sub(' ', question)"):
        source = f"def route(question: str):\n    return {body}\n"
        assert pattern_calls_on_question(source, "x.py"), body
    assert not pattern_calls_on_question("def route(question: str):\n    return parse(question).has('map')\n", "x.py")
    assert compiles_patterns("import re\n_X = re.compile('a')\n")
