"""What a small model evaluates per question: the eval subset's prompts, the part they share, and the rest.

On a CPU-served model the prompt cache keeps the prefix every question shares (system prompt and tool schemas), so
a question's cost is its fresh tokens: the context message, the question, the router's call and its result.  For
each question of ``LOCAL_SUBSET`` this prints the whole prompt and its fresh part (tokens after the longest prefix
all the questions share), with the fresh part split by message, for ``--base`` (default ``main``) and this tree
side by side in one run.  The requests are the ones the turn service sends (router on, as for the local 1.5B
model), captured from a client that records them and answers nothing, so no model runs; a llama.cpp server
renders them with its chat template (``/apply-template``) and counts with the model's tokenizer (``/tokenize``).

    python scripts/local_llm.py serve --port 8089 --no-keep-state &
    .venv/bin/python bench/fresh_tokens.py --server http://127.0.0.1:8089 [--base main]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import urllib.request
from pathlib import Path
from types import SimpleNamespace
from typing import cast

ROOT = Path(__file__).resolve().parents[1]


def dump() -> list[dict]:
    """The first request of each subset question, as sent (messages and tools), for the tree on ``sys.path``."""
    from copilot_core.agent import provider_from_settings
    from copilot_core.data.connection import open_memory_database
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.demo.seed import chip_specs, seed_database
    from copilot_core.evals import load_questions, make_runner, resolve_all
    from copilot_core.evals.facts import EvalContext
    from copilot_core.evals.harness import LOCAL_SUBSET, Question
    from openai import OpenAI
    from copilot_core.settings import load_settings

    sent: list[dict] = []

    def create(**kwargs: object) -> object:
        sent.append(kwargs)
        return iter(())  # an empty stream: the turn ends without a model answer

    client = SimpleNamespace(chat=SimpleNamespace(completions=SimpleNamespace(create=create)))
    db = open_memory_database("bench-fresh-tokens")
    seed_database(db, chip_specs(), seed=7)
    repo = CalibrationRepository(db)
    with tempfile.TemporaryDirectory(prefix="bench-fresh-") as tmp:
        settings = load_settings(env={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_API_KEY": "bench",
                                      "COPILOT_MODEL": "qwen2.5-coder-1.5b-instruct",
                                      "COPILOT_API_STYLE": "chat_completions", "COPILOT_TEMPERATURE": "0",
                                      "DATA_DIR": tmp, "COPILOT_MEMORY": "off"},
                                 secrets_path=Path(tmp) / "none.toml")
        provider = provider_from_settings(settings)
        assert provider is not None, "the settings above name a provider"
        run = make_runner(repo=repo, provider=provider, settings=settings,
                          client=cast(OpenAI, client))
        out = []
        for question in resolve_all([s for s in load_questions() if s["id"] in LOCAL_SUBSET], EvalContext(repo)):
            if not isinstance(question, Question):  # a question whose facts cannot be resolved here
                continue
            before = len(sent)
            run(question)
            if len(sent) > before:  # a declined question sends nothing
                body = sent[before]
                extra = cast(dict, body["extra_body"])
                out.append({"id": question.id, "messages": extra["messages"], "tools": body.get("tools")})
    return out


def _post(url: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(url.rstrip("/").removesuffix("/v1") + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)


def measure(url: str, requests: list[dict]) -> dict[str, dict]:
    """Per question: total and fresh tokens of the rendered prompt, and the fresh part's tokens per message."""
    tokens = {r["id"]: _post(url, "/tokenize", {"content": _post(url, "/apply-template", {
        "messages": r["messages"], "tools": r["tools"]})["prompt"]})["tokens"] for r in requests}
    lists = list(tokens.values())
    shared = min(len(os.path.commonprefix([a, b])) for a in lists for b in lists if a is not b) if len(lists) > 1 else 0
    out = {}
    for r in requests:
        parts: dict[str, int] = {}
        for m in r["messages"][1:]:
            label = "context" if m["role"] == "system" else {"assistant": "call", "tool": "tool result"}.get(
                m["role"], m["role"])
            text = m.get("content") or json.dumps(m.get("tool_calls"))
            parts[label] = parts.get(label, 0) + len(_post(url, "/tokenize", {"content": text})["tokens"])
        out[r["id"]] = {"total": len(tokens[r["id"]]), "fresh": len(tokens[r["id"]]) - shared, "parts": parts,
                        "shared": shared}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="llama.cpp server URL (its template and tokenizer)")
    parser.add_argument("--base", default="main", help="git ref measured side by side (default: main)")
    args = parser.parse_args()
    from bench.prompt_budget import dump_of

    now, before = measure(args.server, dump()), dump_of(args.base, Path(__file__))
    old = measure(args.server, before) if before else {}
    print(f"Prompt tokens per question of the eval subset ('{args.base}' -> this tree; fresh = after the prefix "
          "every question shares)\n")
    print(f"{'question':20} {'total':>13} {'fresh':>13}  fresh part now: tokens per message")
    for qid, row in now.items():
        was = old.get(qid)
        total = f"{was['total']} -> {row['total']}" if was else str(row["total"])
        fresh = f"{was['fresh']} -> {row['fresh']}" if was else str(row["fresh"])
        print(f"{qid:20} {total:>13} {fresh:>13}  " + ", ".join(f"{k} {v}" for k, v in row["parts"].items()))
    total_now = sum(r["fresh"] for r in now.values())
    line = f"\nshared prefix {next(iter(now.values()))['shared']} tokens; fresh tokens, all questions: {total_now}"
    if old:
        total_old = sum(r["fresh"] for r in old.values())
        line += f" ({args.base}: {total_old}; {total_old / total_now:.2f}x fewer)"
    print(line)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, os.environ.get("PROMPT_BUDGET_SOURCE") or str(ROOT))  # the tree measured: a ref's, or this
    if sys.argv[1:] == ["--dump"]:
        print(json.dumps(dump(), ensure_ascii=False))
        raise SystemExit(0)
    raise SystemExit(main())
