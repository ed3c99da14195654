"""Issue 39's walk (``bench/conversation_walk.py``) with the scripted model, in Chromium, on this worker's copy of
the demo store: every step passes (a tool call was made, numbers are the data's, stop leaves the chat clean, exports
redo the chat, failure messages are quoted, labels as the tables write them, a dead model server and a wrong
database address get messages that name them)."""

from __future__ import annotations

import importlib.util
import sys
import threading
from collections.abc import Callable
from typing import TypeVar

from tests.e2e.conftest import ROOT


def _walk_module():
    spec = importlib.util.spec_from_file_location("conversation_walk", ROOT / "bench" / "conversation_walk.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


T = TypeVar("T")


def _in_own_thread(work: Callable[[], T]) -> T:
    """Run ``work`` on a thread of its own: the walk drives Chromium with Playwright's sync API, which refuses a
    thread whose asyncio loop is already running (the page tests' Playwright fixture leaves one on this worker)."""
    out: dict[str, object] = {}

    def target() -> None:
        try:
            out["value"] = work()
        except BaseException as exc:  # noqa: BLE001  (re-raised on the test's thread)
            out["error"] = exc

    thread = threading.Thread(target=target, name="conversation-walk")
    thread.start()
    thread.join()
    if "error" in out:
        raise out["error"]  # type: ignore[misc]
    return out["value"]  # type: ignore[return-value]


def test_the_issue_walk_finds_no_defect_with_the_scripted_model(seeded_data_dir) -> None:
    walk = _walk_module()
    results = _in_own_thread(lambda: walk.run(scripted=True, answer_timeout=180.0, data_dir=seeded_data_dir))
    assert [r.step.split()[0] for r in results] == [str(n) for n in range(1, 12)]
    problems = [(r.step, p) for r in results for p in r.problems]
    assert problems == [], walk.table(results)
