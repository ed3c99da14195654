"""How deep and how chatty one copilot turn is, from the page's entry point to the saved chat: a scripted one-tool
turn through ``ui.chat_turn.run_turn`` (Streamlit in bare mode, the real worker thread, the real openai SDK over
HTTP to the scripted server, the demo database) traced with ``sys.setprofile``, on the base commit and on this
tree, side by side in one run.

    .venv/bin/python bench/turn_depth.py                 # base = merge-base of HEAD and main
    .venv/bin/python bench/turn_depth.py --base <commit>

Figures (project code = copilot_core/, ui/, pages/):
- hops: distinct project functions on the path a reader follows from the page to the saved chat, i.e. on the stack
  at any database read, any model request or the chat's save (the worker thread's stack continues the page
  thread's stack at the point the worker was started);
- cross-module calls: distinct (caller function, callee function) pairs in different project modules, whole turn;
- depth to the database: most project frames on the stack at a database read, from the page's entry;
- turn layers: the units (a class, or a function) whose frames stand between the page's entry and the model loop
  object at the first model request (lambdas, the glue that hands a unit to a thread, are not units);
- repository reads: reads sent to the database (find, find_one, count_documents, distinct, aggregate), counted by
  the same wrapper the tests use (``tests/fakes/counting_db.py``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHIP = "64Qv3"
QUESTION = f"What are the parameters of Q05 on {CHIP}?"
PROJECT = ("copilot_core", "ui", "pages")
LOOP_CLASSES = ("_Run", "ModelLoop")  # the model loop's state object, by its name before and after


def _load(name: str, path: Path) -> ModuleType:
    """A helper file of this tree, whichever tree's code is measured (the base may not have it)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class Trace:
    """The profile hook: project frames, cross-module calls and the stacks at the events that matter."""

    def __init__(self, tree: Path) -> None:
        self.tree = str(tree) + "/"
        self.pairs: set[tuple[str, str]] = set()
        self.spine: set[str] = set()
        self.deepest_read = 0
        self.layers: list[str] | None = None
        self.started: dict[int, list[str]] = {}  # a thread object's id -> the stack that started it

    def name(self, frame: FrameType) -> str | None:
        path = frame.f_code.co_filename
        if not path.startswith(self.tree):
            return None
        rel = path[len(self.tree):]
        if not rel.startswith(PROJECT):
            return None
        return rel[:-3].replace("/", ".") + ":" + frame.f_code.co_qualname

    def stack(self, frame: FrameType | None) -> list[str]:
        names: list[str] = []
        while frame is not None:
            if (n := self.name(frame)) is not None:
                names.append(n)
            frame = frame.f_back
        names.reverse()
        return self.started.get(id(threading.current_thread()), []) + names

    def hook(self, frame: FrameType, event: str, arg: object) -> None:
        if event != "call":
            return
        code = frame.f_code
        callee = self.name(frame)
        if callee is not None:
            caller = frame.f_back
            while caller is not None and self.name(caller) is None:
                caller = caller.f_back
            if caller is not None and (n := self.name(caller)) is not None and n.split(":")[0] != callee.split(":")[0]:
                self.pairs.add((n, callee))
            if callee.startswith("copilot_core.data.chat_sessions:") and code.co_name == "save":
                self.spine.update(self.stack(frame))
            return
        path = code.co_filename
        if code.co_name == "start" and path.endswith("threading.py"):
            thread = frame.f_locals.get("self")
            self.started[id(thread)] = self.stack(frame)
        elif code.co_name == "counted" and path.endswith("counting_db.py"):
            names = self.stack(frame)
            self.spine.update(names)
            self.deepest_read = max(self.deepest_read, len(names))
        elif code.co_name == "create" and "/openai/resources/" in path:
            names = self.stack(frame)
            self.spine.update(names)
            if self.layers is None:
                self.layers = names


def measure(tree: Path) -> dict[str, Any]:
    """One traced turn on ``tree``'s code (on ``sys.path`` first)."""
    sys.path.insert(0, str(tree))
    counting = _load("_counting_db", ROOT / "tests" / "fakes" / "counting_db.py")
    scripted = _load("_scripted_openai", ROOT / "tests" / "fakes" / "scripted_openai.py")
    from copilot_core.agent import provider_from_settings
    from copilot_core.chat import ChatState
    from copilot_core.data.chat_sessions import ChatSessionStore
    from copilot_core.data.connection import open_memory_database
    from copilot_core.data.plans import plan_for
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.demo.seed import chip_specs, seed_database
    from copilot_core.session import Copilot
    from copilot_core.settings import load_settings
    from ui.chat_turn import ChatResources, run_turn

    db = open_memory_database("turn-depth")
    seed_database(db, chip_specs(), seed=7)
    counted = counting.CountingDatabase(db)
    repo = CalibrationRepository(counted, plan=plan_for(db))
    script = [scripted.call("get_qubit_params", {"chip_id": CHIP, "qid": "Q05"}),
              scripted.answer("Qubit 5: values from the tool.")]
    with tempfile.TemporaryDirectory() as data_dir, scripted.ScriptedOpenAI(script=script) as server:
        env = {"OPENAI_BASE_URL": server.base_url, "COPILOT_MODEL": "m", "COPILOT_MAX_RETRIES": "0",
               "COPILOT_MEMORY": "off", "COPILOT_READINESS": "off", "DATA_DIR": data_dir}
        settings = load_settings(env=env, secrets_path=Path("/nonexistent/secrets.toml"))
        copilot = Copilot.from_settings(settings, repo)
        state = ChatState(username="bench", provider=provider_from_settings(settings))
        state.chip_id = CHIP
        sessions = ChatSessionStore(db)
        trace = Trace(tree)
        counted.reads.clear()
        threading.setprofile(trace.hook)
        sys.setprofile(trace.hook)
        try:
            run_turn(state, QUESTION, ChatResources(repo=repo, sessions=sessions, copilot=copilot))
        finally:
            sys.setprofile(None)
            threading.setprofile(None)  # type: ignore[arg-type]
        saved = sessions.get("bench", state.session_id)
    reads = [r for r in counted.reads if r[0] != "copilot_chat_session"]
    return {"hops": len(trace.spine), "cross_module_calls": len(trace.pairs), "depth_to_database": trace.deepest_read,
            "turn_layers": _layers(trace.layers or []), "repository_reads": len(reads),
            "reads": [f"{c}.{op}" for c, op in reads], "answer": state.messages[-1].text[:60] if state.messages else "",
            "saved": saved is not None, "spine": sorted(trace.spine)}


def _layers(stack: list[str]) -> list[str]:
    """The units between the page's entry (the stack's first frame) and the model loop object."""
    units: list[str] = []
    for name in stack[1:]:
        unit = name.split(":")[1].split(".")[0]
        if unit in LOOP_CLASSES:
            break
        if "<lambda>" not in name and unit not in units:
            units.append(unit)
    return units


def _export(commit: str) -> Path:
    out = Path(tempfile.mkdtemp(prefix="turn-depth-base-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    return out


def _run(tree: Path) -> dict[str, Any]:
    done = subprocess.run([sys.executable, __file__, "--measure", str(tree)], capture_output=True, text=True,
                          cwd=tree)
    if done.returncode != 0:
        raise SystemExit(f"measuring {tree} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="the commit to compare with (default: merge-base of HEAD and main)")
    parser.add_argument("--spine", action="store_true", help="list the functions counted as hops")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.measure:
        print(json.dumps(measure(Path(opts.measure))))
        return
    base = opts.base or subprocess.run(["git", "-C", str(ROOT), "merge-base", "HEAD", "main"], check=True,
                                       capture_output=True, text=True).stdout.strip()
    before, after = _run(_export(base)), _run(ROOT)
    print(f"one scripted one-tool turn, page (ui.chat_turn.run_turn) -> saved chat; base {base[:9]} vs this tree")
    print(f"{'':24}{'before':>10}{'after':>10}{'ratio':>8}")
    for key in ("hops", "cross_module_calls", "depth_to_database", "repository_reads"):
        b, a = before[key], after[key]
        print(f"{key:24}{b:>10}{a:>10}{(a / b if b else 0):>8.2f}")
    print(f"{'turn layers':24}{len(before['turn_layers']):>10}{len(after['turn_layers']):>10}")
    for label, figures in (("before", before), ("after", after)):
        print(f"\n{label}: layers {' -> '.join(figures['turn_layers'])}")
        print(f"{label}: reads {', '.join(figures['reads'])}")
        print(f"{label}: answer {figures['answer']!r}, chat saved: {figures['saved']}")
        if opts.spine:
            print(f"{label}: hops\n  " + "\n  ".join(figures["spine"]))


if __name__ == "__main__":
    main()
