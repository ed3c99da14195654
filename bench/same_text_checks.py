"""Same decisions, same checked answers: the copilot's text readers give identical results on two trees.

Two parts:

- a pytest plugin that records what the tests feed the question parse and the answer checks (the claim check, its
  repair and marks, dated values, grounding, the qubit review's check, stream markup, the answer parse)::

      SAME_TEXT_CORPUS=/tmp/corpus .venv/bin/python -m pytest -q -p bench.same_text_checks tests/agent tests/chat

- a replay that runs every recorded input through a tree and compares: for every question recorded, ``route``,
  ``plan_prefetch`` (with and without a qubit), ``lookup_plan``, ``needs_data``, ``window_days``,
  ``out_of_scope`` and the whole parsed ``Question``; for every answer-side call, its result::

      .venv/bin/python bench/same_text_checks.py --corpus /tmp/corpus --root /tmp/base   # prints both, diffs
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import importlib
import json
import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

# (module, function) recorded: the answer side's entry points and the question parse.
WATCHED = (
    ("copilot_core.language.question", "parse"),
    ("copilot_core.checking.claims", "check_claims"),
    ("copilot_core.checking.claims", "repair_answer"),
    ("copilot_core.checking.marks", "mark_claims"),
    ("copilot_core.checking.marks", "states_something"),
    ("copilot_core.checking.verify", "checked_blocks"),
    ("copilot_core.checking.dated_values", "complete_dates"),
    ("copilot_core.checking.dated_values", "date_mentions"),
    ("copilot_core.checking.dated_values", "judge_dates"),
    ("copilot_core.checking.grounding", "unverified_numbers"),
    ("copilot_core.checking.claim_reading", "read_numbers"),
    ("copilot_core.review.review_check", "check_review"),
    ("copilot_core.review.review_problems", "unnamed"),
    ("copilot_core.review.review_problems", "invented"),
    ("copilot_core.llm.streaming", "without_markup"),
    ("copilot_core.llm.streaming", "draft_text"),
    ("copilot_core.answer.parse", "parse_answer"),
    ("copilot_core.answer.parse", "holds_no_answer"),
    ("copilot_core.answer.parse", "strip_chart_json"),
    ("copilot_core.llm.textcalls", "text_tool_calls"),
    ("copilot_core.llm.textcalls", "is_call_shaped"),
    ("copilot_core.agent.finish", "_without_questions"),
    ("copilot_core.language.numbers", "answer_numbers"),
    ("copilot_core.language.numbers", "number_spans"),
)

_calls: list[tuple[str, str, bytes]] = []


def _recording(module: str, name: str, fn: Callable) -> Callable:
    @functools.wraps(fn)
    def wrapper(*args: object, **kwargs: object) -> object:
        try:
            _calls.append((module, name, pickle.dumps((args, kwargs))))
        except Exception:  # noqa: BLE001 - an input that cannot be pickled is not replayed
            pass
        return fn(*args, **kwargs)
    return wrapper


def _install() -> None:
    for module, name in WATCHED:
        mod = importlib.import_module(module)
        setattr(mod, name, _recording(module, name, getattr(mod, name)))


def pytest_unconfigure(config: object) -> None:
    folder = Path(os.environ["SAME_TEXT_CORPUS"])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"calls-{os.getpid()}.pickle").write_bytes(pickle.dumps(_calls))


if os.environ.get("SAME_TEXT_CORPUS") and __name__ != "__main__":
    _install()


def _canon(obj: object) -> str:
    """``repr`` with sets in a fixed order (a set of tuples holding None is ordered by address)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        inner = ", ".join(f"{f.name}={_canon(getattr(obj, f.name))}" for f in dataclasses.fields(obj))
        return f"{type(obj).__name__}({inner})"
    if isinstance(obj, (set, frozenset)):
        return "{" + ", ".join(sorted(_canon(x) for x in obj)) + "}"
    if isinstance(obj, (list, tuple)):
        return "[" + ", ".join(_canon(x) for x in obj) + "]"
    if isinstance(obj, dict):
        return "{" + ", ".join(f"{_canon(k)}: {_canon(v)}" for k, v in obj.items()) + "}"
    return repr(obj)


def _decisions(question: str) -> dict[str, str]:
    from copilot_core.agent.lookups import lookup_plan, needs_data, window_days
    from copilot_core.language.question import parse
    from copilot_core.language.scope import out_of_scope
    from copilot_core.routing.prefetch import plan_prefetch
    from copilot_core.routing.router import route

    out: dict[str, str] = {}
    for key, call in (("route", lambda: route(question)),
                      ("plan_prefetch", lambda: plan_prefetch(question, chip_id="64Qv3")),
                      ("plan_prefetch qubit", lambda: plan_prefetch(question, chip_id="64Qv3", qid="5")),
                      ("lookup_plan", lambda: lookup_plan(question, "64Qv3")),
                      ("needs_data", lambda: needs_data(question)),
                      ("window_days", lambda: window_days(question)),
                      ("out_of_scope", lambda: out_of_scope(question)),
                      ("parse", lambda: parse(question, ("64Qv3", "144Qv2")))):
        try:
            out[key] = _canon(call())
        except Exception as exc:  # noqa: BLE001 - an error is a result to compare too
            out[key] = f"raised {type(exc).__name__}: {exc}"
    return out


def replay(corpus: Path) -> dict[str, object]:
    """Every recorded input run through this interpreter's ``copilot_core``: question -> decisions, call -> result."""
    calls: list[tuple[str, str, bytes]] = []
    for path in sorted(corpus.glob("calls-*.pickle")):
        calls.extend(pickle.loads(path.read_bytes()))
    questions = sorted({args[0] for module, name, blob in calls if name == "parse"
                        for args, _ in [pickle.loads(blob)] if args and isinstance(args[0], str)})
    answers: dict[str, str] = {}
    for module, name, blob in calls:
        if name == "parse":
            continue
        args, kwargs = pickle.loads(blob)
        fn = getattr(importlib.import_module(module), name)
        key = f"{module}.{name}{args!r}{kwargs!r}"
        try:
            answers[key] = _canon(fn(*args, **kwargs))
        except Exception as exc:  # noqa: BLE001
            answers[key] = f"raised {type(exc).__name__}: {exc}"
    return {"questions": {q: _decisions(q) for q in questions}, "answers": answers}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--root", type=Path, help="the other tree (default: only this one)")
    parser.add_argument("--dump", type=Path, help="(internal) write this tree's replay here")
    args = parser.parse_args()
    if args.dump:
        args.dump.write_text(json.dumps(replay(args.corpus), sort_keys=True))
        return
    here = Path(__file__).resolve().parents[1]
    results = {}
    for label, root in (("before", args.root), ("after", here)):
        if root is None:
            continue
        out = args.corpus / f"replay-{label}.json"
        subprocess.run([sys.executable, str(here / "bench" / "same_text_checks.py"), "--corpus", str(args.corpus),
                        "--dump", str(out)], cwd=root, check=True,
                       env={**os.environ, "PYTHONPATH": str(root.resolve()), "SAME_TEXT_CORPUS": "", "PYTHONHASHSEED": "0"})
        results[label] = json.loads(out.read_text())
    after = results["after"]
    print(f"questions: {len(after['questions'])} (x {len(next(iter(after['questions'].values()), {}))} decisions)   "
          f"answer-side calls: {len(after['answers'])}")
    if "before" not in results:
        return
    before = results["before"]
    differ = 0
    for part in ("questions", "answers"):
        for key in sorted(set(before[part]) | set(after[part])):
            if before[part].get(key) != after[part].get(key):
                differ += 1
                if differ <= 20:
                    print(f"DIFFERS {part}: {key[:200]}\n  before: {str(before[part].get(key))[:400]}\n"
                          f"  after:  {str(after[part].get(key))[:400]}")
    print(f"differences: {differ}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
