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

import pytest

from tests.real_llm.server import FIGURES, shared_server


@pytest.fixture(scope="session")
def local_llm(tmp_path_factory: pytest.TempPathFactory):
    """A running local model server (see the module docstring)."""
    with shared_server(lambda: tmp_path_factory.mktemp("local_llm")) as info:
        yield info


def pytest_terminal_summary(terminalreporter) -> None:
    """Print the real-model figures (fetch, load, per question) when the tier ran."""
    if "timings" not in FIGURES:
        return
    write = terminalreporter.write_line
    terminalreporter.section("real_llm figures")
    write("  " + ", ".join(f"{k} {v:.1f} s" for k, v in FIGURES["timings"].items())
          + f"; server up for the tests {FIGURES.get('tier_s', 0):.1f} s")
    for row in FIGURES["report"]:
        write(f"  {row['seconds']:6.1f} s  rounds={row['rounds']} in={row['input_tokens']} "
              f"out={row['output_tokens']}  {row['question']!r} (try {row['attempt']})")
        write(f"           tools: {'; '.join(row['tools']) or 'none'}"
              + (f"  error: {row['error']}" if row["error"] else ""))
