"""Seconds for a one-tool question on the project's local model, cold and warm, router prefetch on vs off.

Run: ``.venv/bin/python bench/one_tool_latency.py [--question "..."] [--chip 144Qv2]`` (the model must be fetched:
``scripts/local_llm.py fetch``; the demo seeded: ``make seed``).  Starts ``local_llm.py serve`` on a free port, then
asks the question through the turn service (as the chat page does, readiness probe off so only the question is
timed) three times in one run: *cold* (the server's first request, router on), *warm* (again, router on) and
*warm, router off* (the model chooses and calls the tool itself).  Prints per run the seconds, model rounds,
prompt tokens, tokens the server reused from its prompt cache, the tools called and the answer's first line,
then the off/on ratio.  Targets on a 2-core machine: cold <= 45 s, warm <= 20 s.  Timings depend on the
machine's load (printed): compare the columns of one run, not runs on different days.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import local_llm  # noqa: E402

from copilot_core.agent import provider_from_settings  # noqa: E402
from copilot_core.chat import ChatState  # noqa: E402
from copilot_core.data.connection import open_database  # noqa: E402
from copilot_core.data.repository import CalibrationRepository  # noqa: E402
from copilot_core.session import Copilot  # noqa: E402
from copilot_core.settings import load_settings  # noqa: E402


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def local_model_server() -> Iterator[int | None]:
    """``local_llm.py serve`` on a free port: yields the port, or None when the server did not start.  Without the
    saved prompt state, so "cold" is a first request on an empty cache."""
    port = _free_port()
    server = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "local_llm.py"), "serve", "--port", str(port),
                               "--stop-on-eof", "--no-keep-state"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE"},
                              cwd=ROOT)
    try:
        assert server.stdout is not None
        if not server.stdout.readline().startswith("READY "):
            print("the local model server did not start; run scripts/local_llm.py fetch", file=sys.stderr)
            yield None
        else:
            yield port
    finally:
        if server.stdin:
            server.stdin.close()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--question", default="What is the median T1 on 144Qv2?")
    parser.add_argument("--chip", default="144Qv2")
    args = parser.parse_args()
    rows = []
    with local_model_server() as port:
        if port is None:
            return 1
        base = {**local_llm.parse_env("\n".join(local_llm.env_lines(port))), "COPILOT_MEMORY": "off",
                "COPILOT_READINESS": "off"}
        for label, router in (("cold, router on", "on"), ("warm, router on", "on"), ("warm, router off", "off")):
            settings = load_settings(env={**os.environ, **base, "COPILOT_TOOL_ROUTER": router})
            repo = CalibrationRepository(open_database(settings), project_id=settings.project_id)
            state = ChatState(username="bench", provider=provider_from_settings(settings), chip_id=args.chip)
            load = os.getloadavg()[0]
            started = time.perf_counter()
            turn = Copilot.from_settings(settings, repo, memory=False, gate=False).ask(state, args.question)
            seconds = time.perf_counter() - started
            result = turn.result
            usage = result.usage if result else {}
            tools = ", ".join(f"{c.name}{'*' if c.origin == 'router' else ''}" for c in (result.tool_calls if result
                                                                                         else []))
            first = (result.answer if result else turn.notice or "").strip().splitlines()[0][:90] if result else ""
            rows.append((label, seconds, usage.get("rounds", 0), usage.get("input_tokens", 0),
                         usage.get("cached_tokens", 0), tools, load, first))
    print(f"question: {args.question!r} on {args.chip} (* = made by the router before the model's first round)")
    print(f"{'run':<18} {'seconds':>8} {'rounds':>6} {'prompt':>7} {'cached':>7} {'load':>5}  tools / answer")
    for label, seconds, rounds, prompt, cached, tools, load, first in rows:
        print(f"{label:<18} {seconds:>8.1f} {rounds:>6} {prompt:>7} {cached:>7} {load:>5.1f}  {tools} | {first}")
    if len(rows) == 3 and rows[1][1] > 0:
        print(f"warm: router off / router on = {rows[2][1] / rows[1][1]:.1f}x the time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
