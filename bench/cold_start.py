"""The first answers on a fresh install: a cold local-model server (new process, no saved prompt state), then the
eval's ten-question small-model subset asked one after another through the turn service, as the chat page asks.

Per question it prints the seconds and the prompt tokens the server evaluated (llama.cpp's ``timings.prompt_n``,
read from every response the real openai SDK received) against those it reused from its prompt cache
(``timings.cache_n``).  Only the first question of a server's life should pay for the part of the prompt every
question shares (system prompt, then the tool list); the summary prints the cold question's figures beside the
warm ones' median, measured in the same run.

    make install-dev && .venv/bin/python scripts/local_llm.py fetch
    .venv/bin/python bench/cold_start.py [--questions 10]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx2 as httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


@dataclass
class Timings:
    """What the server said it evaluated and reused, summed over the responses of one question."""

    evaluated: int = 0
    reused: int = 0
    requests: int = 0

    def add(self, timings: dict) -> None:
        self.evaluated += int(timings.get("prompt_n", 0))
        self.reused += int(timings.get("cache_n", 0))
        self.requests += 1


class Recording(httpx.HTTPTransport):
    """Passes every byte through unchanged and reads llama.cpp's ``timings`` off each response on the way."""

    def __init__(self, sink: list[Timings]) -> None:
        super().__init__()
        self.sink = sink

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        sink = self.sink

        class Stream(httpx.SyncByteStream):
            def __iter__(self) -> Iterator[bytes]:
                pending = b""
                for chunk in response.stream:
                    pending += chunk
                    *lines, pending = pending.split(b"\n")
                    for line in lines:
                        read_timings(line, sink)
                    yield chunk  # the SDK may stop reading at [DONE]: every line before it is read first
                read_timings(pending, sink)

            def close(self) -> None:
                response.close()

        return httpx.Response(response.status_code, headers=response.headers, stream=Stream(),
                              extensions=response.extensions, request=request)


def read_timings(line: bytes, sink: list[Timings]) -> None:
    """Adds the ``timings`` of one response line (an SSE ``data:`` line or a whole JSON body) to the open question."""
    text = line.decode("utf-8", "replace").strip().removeprefix("data:").strip()
    if '"timings"' not in text or not sink:
        return
    try:
        timings = json.loads(text).get("timings")
    except ValueError:
        return
    if isinstance(timings, dict):
        sink[-1].add(timings)


def start_server(port: int) -> subprocess.Popen[str]:
    """``local_llm.py serve`` without saved prompt state: the cold server a fresh install starts."""
    proc = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "local_llm.py"), "serve", "--port", str(port),
                             "--no-keep-state", "--stop-on-eof"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE"})
    for line in proc.stdout or ():
        if line.startswith("READY"):
            print(line.strip(), flush=True)
            return proc
    raise SystemExit("the local model server did not start; run `python scripts/local_llm.py fetch` first")


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=10, help="how many subset questions (default 10)")
    args = parser.parse_args()

    from openai import OpenAI

    from copilot_core.agent import provider_from_settings
    from copilot_core.data.connection import open_memory_database
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.demo.seed import chip_specs, seed_database
    from copilot_core.evals import load_questions, make_runner, resolve_all
    from copilot_core.evals.facts import EvalContext
    from copilot_core.evals.harness import LOCAL_SUBSET, Question
    from copilot_core.settings import load_settings

    db = open_memory_database("bench-cold-start")
    seed_database(db, chip_specs(), seed=7)
    repo = CalibrationRepository(db)
    questions = [q for q in resolve_all([s for s in load_questions() if s["id"] in LOCAL_SUBSET], EvalContext(repo))
                 if isinstance(q, Question)][:args.questions]
    port = _free_port()
    server = start_server(port)
    rows: list[tuple[str, str | None, float, Timings]] = []
    try:
        with tempfile.TemporaryDirectory(prefix="bench-cold-") as tmp:
            settings = load_settings(env={"OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1", "OPENAI_API_KEY": "local",
                                          "COPILOT_MODEL": "qwen2.5-coder-1.5b-instruct",
                                          "COPILOT_API_STYLE": "chat_completions", "COPILOT_TEMPERATURE": "0",
                                          "COPILOT_TIMEOUT_S": "600", "DATA_DIR": tmp, "COPILOT_MEMORY": "off"},
                                     secrets_path=Path(tmp) / "none.toml")
            provider = provider_from_settings(settings)
            assert provider is not None, "the settings above name a provider"
            sink: list[Timings] = []
            client = OpenAI(base_url=settings_url(port), api_key="local", timeout=600, max_retries=0,
                            http_client=httpx.Client(transport=Recording(sink), timeout=600))
            run = make_runner(repo=repo, provider=provider, settings=settings, client=client)
            for question in questions:
                sink.append(Timings())
                started = time.perf_counter()
                run(question)
                rows.append((question.id, question.chip_id, time.perf_counter() - started, sink[-1]))
                t = sink[-1]
                print(f"  {question.id:20} {rows[-1][2]:6.1f} s  evaluated {t.evaluated:5}  reused {t.reused:5}  "
                      f"({t.requests} requests)", flush=True)
    finally:
        if server.stdin:
            server.stdin.close()
        server.wait(60)
    report(rows)
    return 0


def settings_url(port: int) -> str:
    return f"http://127.0.0.1:{port}/v1"


def report(rows: list[tuple[str, str | None, float, Timings]]) -> None:
    print("\nCold server, then the rest of the subset (prompt tokens: evaluated / reused from the cache)\n")
    print(f"{'#':>2} {'question':20} {'chip':8} {'seconds':>8} {'evaluated':>10} {'reused':>8} {'requests':>8}")
    for i, (qid, chip, seconds, t) in enumerate(rows, 1):
        print(f"{i:>2} {qid:20} {chip or '-':8} {seconds:8.1f} {t.evaluated:10} {t.reused:8} {t.requests:8}")
    if len(rows) < 2:
        return
    first, rest = rows[0], [r for r in rows[1:] if r[3].requests]  # a declined question asks no model
    warm_s = statistics.median(r[2] for r in rest)
    warm_eval = statistics.median(r[3].evaluated for r in rest)
    print(f"\ncold (question 1): {first[2]:.1f} s, {first[3].evaluated} prompt tokens evaluated, "
          f"{first[3].reused} reused")
    print(f"warm (the {len(rest)} of questions 2-{len(rows)} that asked the model, median): {warm_s:.1f} s, "
          f"{warm_eval:.0f} prompt tokens evaluated, {statistics.median(r[3].reused for r in rest):.0f} reused")
    print(f"cold/warm: {first[2] / warm_s:.2f}x the seconds, {first[3].evaluated / max(warm_eval, 1):.2f}x the "
          "tokens evaluated")


if __name__ == "__main__":
    raise SystemExit(main())
