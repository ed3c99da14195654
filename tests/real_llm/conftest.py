"""The ``local_llm`` session fixture: a real small model behind llama.cpp's OpenAI-compatible server.

It fetches the sha256-pinned model with ``scripts/local_llm.py`` (cached after the first run) within
``LOCAL_LLM_FETCH_BUDGET`` seconds (default 300), starts ``local_llm.py serve`` on a free loopback
port in a subprocess, waits for its READY line and ``/health``, yields
``{"base_url", "model", "url", "env", "timings", "log", "report"}``, and stops the server
afterwards. Tests append one dict per question to ``report``; the terminal summary prints them with
the fetch/load timings, so every run shows the tier's measured figures.

When a prerequisite is missing (``REAL_LLM=0``, no AVX2, xllamacpp not installed, the fetch fails
or overruns its budget) every test using it is skipped with one reason naming the cause. A server
that has everything it needs and still fails to start is an error, not a skip.
"""

from __future__ import annotations

import importlib.util
import os
import selectors
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "local_llm.py"
READY_TIMEOUT_S = 180.0
_FIGURES: dict = {}  # filled by the fixture, printed by pytest_terminal_summary


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
    """Block until the server prints ``READY <url>``; fail with its log tail if it dies or stalls."""
    deadline = time.monotonic() + READY_TIMEOUT_S
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while (left := deadline - time.monotonic()) > 0:
            if not sel.select(timeout=left):
                break
            line = proc.stdout.readline()
            if line.startswith("READY "):
                return line.split()[1]
            if not line:  # EOF: the server exited
                break
    tail = "\n".join(log.read_text(errors="replace").splitlines()[-15:])
    proc.kill()
    pytest.fail(f"local model server did not become ready (exit code {proc.poll()}); log tail:\n{tail}",
                pytrace=False)


@pytest.fixture(scope="session")
def local_llm(tmp_path_factory: pytest.TempPathFactory):
    """A running local model server for the session (see the module docstring)."""
    script = load_script()
    reason = _skip_reason(script)
    if reason:
        pytest.skip(reason)
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
        pytest.skip(f"real_llm: could not fetch the local model: {exc}")

    port = _free_port()
    log = tmp_path_factory.mktemp("local_llm") / "server.log"
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE", "LOCAL_LLM_CACHE": str(files.cache)}
    started = time.monotonic()
    with log.open("w") as log_fh:
        proc = subprocess.Popen([sys.executable, str(SCRIPT), "serve", "--port", str(port), "--stop-on-eof"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log_fh, text=True,
                                env=env, cwd=ROOT)
    try:
        url = _wait_ready(proc, log)
        timings["load_s"] = time.monotonic() - started
        with urllib.request.urlopen(f"{url}/health", timeout=10) as resp:
            assert resp.status == 200, f"/health answered {resp.status}"
        env_out = subprocess.run([sys.executable, str(SCRIPT), "env", "--port", str(port)],
                                 capture_output=True, text=True, check=True).stdout
        _FIGURES.update(timings=timings, report=[], started=time.monotonic())
        yield {"base_url": f"{url}/v1", "model": script.MODEL_NAME, "url": url,
               "env": parse_env_lines(env_out), "timings": timings, "log": log, "report": _FIGURES["report"]}
    finally:
        if "started" in _FIGURES:
            _FIGURES["tier_s"] = time.monotonic() - _FIGURES["started"]
        proc.stdin.close()  # --stop-on-eof: the server exits when its stdin closes
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()


def parse_env_lines(text: str) -> dict[str, str]:
    """``export KEY=VALUE  # comment`` lines -> {KEY: VALUE}."""
    out = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("export ") and "=" in line:
            key, value = line[len("export "):].split("=", 1)
            out[key.strip()] = value.strip()
    return out


def pytest_terminal_summary(terminalreporter) -> None:
    """Print the real-model figures (fetch, load, per question) when the tier ran."""
    if "timings" not in _FIGURES:
        return
    write = terminalreporter.write_line
    terminalreporter.section("real_llm figures")
    write("  " + ", ".join(f"{k} {v:.1f}" for k, v in _FIGURES["timings"].items())
          + f", server up for tests {_FIGURES.get('tier_s', 0):.1f} s")
    for row in _FIGURES["report"]:
        write(f"  {row['seconds']:6.1f} s  rounds={row['rounds']} in={row['input_tokens']} "
              f"out={row['output_tokens']}  {row['question']!r} (try {row['attempt']})")
        write(f"           tools: {'; '.join(row['tools']) or 'none'}" + (f"  error: {row['error']}" if row["error"] else ""))
