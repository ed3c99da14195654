"""The ``local_llm`` session fixture: a real small model behind llama.cpp's OpenAI-compatible server.

It fetches the sha256-pinned model with ``scripts/local_llm.py`` (cached after the first run) within
``LOCAL_LLM_FETCH_BUDGET`` seconds (default 300), starts ``local_llm.py serve`` on a free loopback
port in a subprocess, waits for its READY line and ``/health``, and yields
``{"base_url", "model", "url", "env", "timings", "log", "report"}`` (``env``: the settings
``local_llm.py env`` prints for users). The server stops after its last user; other suites may
import this fixture and still share the one server (see ``server.py``). Tests append one dict per
question to ``report``; the terminal summary prints them with the fetch/load timings.

When a prerequisite is missing (``REAL_LLM=0``, no AVX2, xllamacpp not installed, the fetch fails
or overruns its budget) every test using it is skipped with one reason naming the cause. A server
that has everything it needs and still fails to start is an error, not a skip.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.real_llm.server import FIGURES, requests_by_test, shared_server


# The order the real-model tests run in (``make test`` runs them one at a time on one server): the raw-server and
# script checks first, then the copilot questions, the agent's last. The server saves its slot when it stops and
# restores it at the next start (``scripts/local_llm.py``); ending on a copilot question leaves the prompt prefix
# every copilot question shares (system prompt and tool schemas) in that slot, so the next run's first question
# starts warm. Modules not listed keep their place after these.
RUN_ORDER = ("real_llm/test_local_llm_script.py", "real_llm/test_local_server.py", "e2e/test_copilot_e2e.py",
             "real_llm/test_eval_local.py", "real_llm/test_agent_real_model.py")


def _rank(item: pytest.Item) -> int:
    path = Path(str(item.path)).as_posix()
    return next((i for i, suffix in enumerate(RUN_ORDER) if path.endswith("/tests/" + suffix)), len(RUN_ORDER))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the real-model tests in ``RUN_ORDER`` among their own places; every other test keeps its place."""
    places = [i for i, item in enumerate(items) if item.get_closest_marker("real_llm")]
    ordered = sorted((items[i] for i in places), key=_rank)  # stable: a module's tests keep their order
    for i, item in zip(places, ordered):
        items[i] = item


@pytest.fixture(scope="session")
def local_llm(tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config):
    """A running local model server (see the module docstring)."""
    with shared_server(lambda: tmp_path_factory.mktemp("local_llm"), pytestconfig) as info:
        yield info


def pytest_terminal_summary(terminalreporter) -> None:
    """Print the real-model figures (fetch, load, per question) when the tier ran."""
    if "timings" not in FIGURES:
        return
    write = terminalreporter.write_line
    terminalreporter.section("real_llm figures")
    write("  " + ", ".join(f"{k} {v:.1f} s" for k, v in FIGURES["timings"].items())
          + f"; server up for the tests {FIGURES.get('tier_s', 0):.1f} s")
    write("  " + FIGURES.get("ready", ""))
    for row in FIGURES["report"]:
        write(f"  {row['seconds']:6.1f} s  rounds={row['rounds']} in={row['input_tokens']} "
              f"out={row['output_tokens']}  {row['question']!r} (try {row['attempt']})")
        write(f"           tools: {'; '.join(row['tools']) or 'none'}"
              + (f"  error: {row['error']}" if row["error"] else ""))
    write("  requests per test (prompt tokens evaluated + taken from the server's cache; generated; llama.cpp logs"
          " asynchronously, so a request at a test's edge may be listed under its neighbour):")
    for nodeid, rows in requests_by_test():
        write(f"  {nodeid}")
        for r in rows:
            write(f"    prompt {r['prompt_n']:>5} + cached {r['cache_n']:>5} in {r['prompt_s']:6.1f} s;"
                  f" generated {r['gen_n']:>4} in {r['gen_s']:5.1f} s")
