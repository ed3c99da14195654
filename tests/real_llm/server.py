"""One local model server per test session, however many fixture definitions ask for it.

``tests/real_llm/conftest.py`` defines the ``local_llm`` fixture and other suites import it (the
browser tests do); pytest then holds one fixture definition per importer, each "session-scoped".
Keeping the server here, in a plain module with a reference count, means they all share one process
(2 GB of RAM and a warm prompt cache) instead of each starting its own.
"""

from __future__ import annotations

import importlib.util
import os
import re
import selectors
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "local_llm.py"
READY_TIMEOUT_S = 180.0
FIGURES: dict = {}  # timings and per-question rows, printed by the conftest's terminal summary
_PROMPT = re.compile(r"task (\d+) \| prompt eval time =\s*([\d.]+) ms /\s*(\d+) tokens")
_DECODE = re.compile(r"task (\d+) \|\s+eval time =\s*([\d.]+) ms /\s*(\d+) tokens")
_RELEASE = re.compile(r"task (\d+) \| stop processing: n_tokens = (\d+)")


def log_requests(text: str) -> list[dict]:
    """One row per request the server finished, from llama.cpp's log: prompt tokens evaluated (``prompt_n``) and
    taken from its cache (``cache_n``: the slot's tokens minus those evaluated and generated; the last generated
    token is never evaluated), and the seconds spent on each."""
    rows: dict[str, dict] = {}
    for m in _PROMPT.finditer(text):
        rows[m[1]] = {"prompt_n": int(m[3]), "prompt_s": float(m[2]) / 1000}
    for m in _DECODE.finditer(text):
        rows.get(m[1], {}).update(gen_n=int(m[3]), gen_s=float(m[2]) / 1000)
    for m in _RELEASE.finditer(text):
        row = rows.get(m[1])
        if row is not None and "gen_n" in row:
            row["cache_n"] = max(0, int(m[2]) - row["prompt_n"] - max(0, row["gen_n"] - 1))
    return [r for r in rows.values() if "cache_n" in r]


class _LogMarks:
    """Where each test starts in the server log, so the summary can say which test sent which request."""

    def __init__(self, log: Path) -> None:
        self.log, self.marks = log, [("(server start)", 0)]

    def pytest_runtest_logstart(self, nodeid: str, location: tuple) -> None:
        self.marks.append((nodeid, self.log.stat().st_size if self.log.exists() else 0))


def requests_by_test() -> list[tuple[str, list[dict]]]:
    """The finished requests of each test that sent any, in run order (read once the server has stopped)."""
    marks: _LogMarks | None = FIGURES.get("marks")
    if marks is None or not marks.log.exists():
        return []
    data = marks.log.read_bytes()
    bounds = [offset for _, offset in marks.marks[1:]] + [len(data)]
    out = []
    for (nodeid, start), end in zip(marks.marks, bounds):
        rows = log_requests(data[start:end].decode(errors="replace"))
        if rows:
            out.append((nodeid, rows))
    return out


def load_script() -> ModuleType:
    """Import scripts/local_llm.py by path (scripts/ is not a package), once."""
    if "local_llm_script" in sys.modules:
        return sys.modules["local_llm_script"]
    spec = importlib.util.spec_from_file_location("local_llm_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _skip_reason(script: ModuleType) -> str | None:
    """The one reason this machine cannot run the tier, or None."""
    if os.environ.get("REAL_LLM", "").strip().lower() in {"0", "no", "off", "false"}:
        return "real_llm tier disabled by REAL_LLM=0"
    if not script.cpu_supports_avx2():
        return "real_llm: this CPU lacks AVX2, which xllamacpp's prebuilt wheel needs"
    for module in ("xllamacpp", "gguf"):
        if importlib.util.find_spec(module) is None:
            return f"real_llm: {module} is not installed (pip install -r requirements-dev.txt)"
    return None


def _wait_ready(proc: subprocess.Popen, log: Path) -> str:
    """Block until the server prints ``READY <url> (...)``; return that line; fail with its log tail if it dies
    or stalls."""
    deadline = time.monotonic() + READY_TIMEOUT_S
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while (left := deadline - time.monotonic()) > 0:
            if not sel.select(timeout=left):
                break
            line = proc.stdout.readline()
            if line.startswith("READY "):
                return line.strip()
            if not line:  # EOF: the server exited
                break
    tail = "\n".join(log.read_text(errors="replace").splitlines()[-15:])
    pytest.fail(f"local model server did not become ready (exit code {proc.poll()}); log tail:\n{tail}",
                pytrace=False)


def parse_env_lines(text: str) -> dict[str, str]:
    """``local_llm.py env`` output -> {KEY: VALUE}, read by the script's own parser."""
    return load_script().parse_env(text)


class _Skip(Exception):
    """A missing prerequisite: every user of the server skips with this one reason."""


class _Shared:
    """The one server of this test process: its info dict, its process, and how many users hold it."""

    info: dict | None = None
    proc: subprocess.Popen | None = None
    skip: str | None = None
    users = 0


def _start(log_dir: Path, config: pytest.Config) -> dict:
    """Fetch within the budget, start the server and wait for it (skips with one reason when it cannot)."""
    script = load_script()
    reason = _skip_reason(script)
    if reason:
        raise _Skip(reason)
    files = script.ModelFiles(script.cache_dir())
    budget = float(os.environ.get("LOCAL_LLM_FETCH_BUDGET", "300"))
    timings: dict[str, float] = {}
    started = time.monotonic()
    try:
        script.fetch(files, budget_s=budget)
        timings["fetch_s"] = time.monotonic() - started
        started = time.monotonic()
        script.write_template(files)
        timings["template_s"] = time.monotonic() - started
    except script.LocalLLMError as exc:
        raise _Skip(f"real_llm: could not fetch the local model: {exc}") from exc

    port = _free_port()
    log = log_dir / "server.log"
    FIGURES["marks"] = _LogMarks(log)
    config.pluginmanager.register(FIGURES["marks"], "local_llm_log_marks")
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE", "LOCAL_LLM_CACHE": str(files.cache)}
    started = time.monotonic()
    with log.open("w") as log_fh:
        _Shared.proc = subprocess.Popen(
            [sys.executable, str(SCRIPT), "serve", "--port", str(port), "--stop-on-eof"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log_fh, text=True, env=env, cwd=ROOT)
    ready = _wait_ready(_Shared.proc, log)
    url = ready.split()[1]
    timings["load_s"] = time.monotonic() - started
    with urllib.request.urlopen(f"{url}/health", timeout=10) as resp:
        assert resp.status == 200, f"/health answered {resp.status}"
    env_out = subprocess.run([sys.executable, str(SCRIPT), "env", "--port", str(port)],
                             capture_output=True, text=True, check=True).stdout
    FIGURES.update(timings=timings, report=[], started=time.monotonic(), ready=ready)
    return {"base_url": f"{url}/v1", "model": script.MODEL_NAME, "url": url, "env": parse_env_lines(env_out),
            "timings": timings, "log": log, "report": FIGURES["report"]}


def _stop() -> None:
    proc, _Shared.proc, _Shared.info = _Shared.proc, None, None
    if "started" in FIGURES:
        FIGURES["tier_s"] = time.monotonic() - FIGURES["started"]
    if proc is None:
        return
    proc.stdin.close()  # --stop-on-eof: the server exits when its stdin closes
    try:
        proc.wait(timeout=60)  # it saves its prompt state first (a few hundred MB at most)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    proc.stdout.close()


def _skip_or_fail(reason: str) -> None:
    """A missing prerequisite skips with its reason on a developer machine, and fails where
    ``REQUIRE_REAL_LLM=1`` (CI), so a model that cannot be fetched is never counted as passing."""
    if os.environ.get("REQUIRE_REAL_LLM") == "1":
        pytest.fail(f"REQUIRE_REAL_LLM=1 but the real model is unavailable: {reason}", pytrace=False)
    pytest.skip(reason)


@contextmanager
def shared_server(log_dir_factory: Callable[[], Path], config: pytest.Config) -> Iterator[dict]:
    """Yield the server info, starting the server for the first user and stopping it after the last."""
    if _Shared.skip:
        _skip_or_fail(_Shared.skip)
    if _Shared.info is None:
        try:
            _Shared.info = _start(log_dir_factory(), config)
        except _Skip as exc:
            _Shared.skip = str(exc)
            _skip_or_fail(_Shared.skip)
        except BaseException:
            _stop()
            raise
    _Shared.users += 1
    try:
        yield _Shared.info
    finally:
        _Shared.users -= 1
        if _Shared.users == 0:
            _stop()
