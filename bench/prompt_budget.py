"""What every copilot round sends before the conversation: system prompt and tool schemas, in tokens.

Per mode (chat, analysis), API style (responses, chat_completions) and a few typical questions, it
prints the tokens of the system prompt and of the tool schemas exactly as the provider sends them
(``llm/budget.py: sent_tools_text`` captures ``llm/conversation.py``'s request), for this tree and for the
``main`` branch side by side in one run (main's sources are exported with ``git archive`` and
measured by this same script in a subprocess).

Tokens come from the served model's own tokenizer when ``--server`` names a llama.cpp server
(``POST /tokenize``), else from the estimate in ``copilot_core.llm.budget`` (its rule is printed,
and with a server its error against the real count is printed too).  What is counted is the tool list as
sent, one JSON line per tool, which is what Qwen's chat template prints; with a server the bench also
asks the server to render the full set with its own template (``POST /apply-template``, Chat Completions
form) and prints what the tools add to the prompt, the template's fixed tool instructions included.

    .venv/bin/python bench/prompt_budget.py [--server http://127.0.0.1:8089] [--base main]
    (local model: python scripts/local_llm.py serve --port 8089)
Targets: full tool set <= 1,500 tokens; chat-mode system prompt <= 1,200 tokens.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHIP, QID = "64Qv3", "5"
# (label, mode, qid, question, context): chat questions of the kinds the eval asks, and one analysis review.
SCENARIOS: tuple[tuple[str, str, str | None, str, dict], ...] = (
    ("chat: chip-wide metric", "chat", None, "What is the median T1 on 64Qv3?", {}),
    ("chat: runs, no metric", "chat", None, "List the last five calibration runs.", {}),
    ("chat: one qubit's health", "chat", QID, "Is Q05 healthy?", {}),
    ("analysis: review CheckT1", "analysis", QID, "Review this result.", {"task_name": "CheckT1"}),
)
API_STYLES = ("responses", "chat_completions")


def dump() -> dict:
    """System prompts and neutral tool schemas of the tree on ``sys.path`` (this one, or main's in a subprocess)."""
    import inspect

    from copilot_core.agent.prompts import build_system_prompt
    from copilot_core.data.connection import open_database
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.demo.seed import chip_specs, seed_database
    from copilot_core.settings import load_settings
    from copilot_core.tools.registry import TOOLS

    asks_question = "question" in inspect.signature(build_system_prompt).parameters
    out: dict = {"prompts": {}}
    with tempfile.TemporaryDirectory(prefix="bench-prompt-") as tmp:
        settings = load_settings(env={"DATA_DIR": tmp}, secrets_path=Path(tmp) / "none.toml")
        db = open_database(settings)
        seed_database(db, chip_specs((64,), days=7))
        repo = CalibrationRepository(db)
        for label, mode, qid, question, context in SCENARIOS:
            for style in API_STYLES:
                extra = {"question": question} if asks_question else {}
                out["prompts"][f"{label}|{style}"] = build_system_prompt(
                    mode=mode, repo=repo, chip_id=CHIP, qid=qid, context=context, api_style=style, **extra)
        db.close()
    out["schemas"] = {f"{len(TOOLS)} tools": [s.schema() for s in TOOLS],
                      f"{sum(s.reduced for s in TOOLS)} tools, reduced set": [s.schema() for s in TOOLS if s.reduced]}
    return out


def _bare(value: Any) -> Any:
    """The JSON structure alone, descriptions removed: what no wording can save."""
    if isinstance(value, dict):
        return {k: _bare(v) for k, v in value.items() if k != "description"}
    return [_bare(v) for v in value] if isinstance(value, list) else value


def tool_texts(dumped: dict) -> dict[str, str]:
    """Each tool set wrapped as this tree's ``llm/conversation.py`` sends it, per API style."""
    from copilot_core.llm.budget import sent_tools_text

    sets = dict(dumped["schemas"])
    full = next(iter(sets))
    sets[f"{full}, structure only"] = _bare(sets[full])
    return {f"{label}|{style}": sent_tools_text(style, schemas) for label, schemas in sets.items()  # type: ignore[arg-type]
            for style in API_STYLES}


def dump_of(ref: str, script: Path = Path(__file__)) -> Any:
    """``script --dump`` (default: this script's ``dump()``) run on a git ref's sources in a subprocess, its JSON
    output parsed; None when git cannot export it.  The script puts ``$PROMPT_BUDGET_SOURCE`` first on ``sys.path``."""
    with tempfile.TemporaryDirectory(prefix="bench-prompt-ref-") as tmp:
        archive = Path(tmp) / "src.tar"
        try:
            subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), ref, "copilot_core"],
                           check=True, capture_output=True)
        except (OSError, subprocess.CalledProcessError) as exc:
            print(f"(cannot export {ref}: {exc}; showing this tree only)")
            return None
        with tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
        env = {**os.environ, "PROMPT_BUDGET_SOURCE": tmp}
        done = subprocess.run([sys.executable, str(script), "--dump"], env=env, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"(measuring {ref} failed: {done.stderr.strip().splitlines()[-1:]})")
            return None
        return json.loads(done.stdout)


def server_tokens(url: str, text: str) -> int:
    request = urllib.request.Request(url.rstrip("/").removesuffix("/v1") + "/tokenize",
                                     data=json.dumps({"content": text}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return len(json.load(response)["tokens"])


def rendered_tool_tokens(url: str, tools_text: str) -> int:
    """Tokens the tools add to a prompt as the server's chat template renders them (its tool preamble included)."""
    tools = [json.loads(line) for line in tools_text.splitlines()]
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "q"}]
    base = url.rstrip("/").removesuffix("/v1")

    def prompt(body: dict) -> str:
        request = urllib.request.Request(base + "/apply-template", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return str(json.load(response)["prompt"])

    return (server_tokens(url, prompt({"messages": messages, "tools": tools}))
            - server_tokens(url, prompt({"messages": messages})))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", help="llama.cpp server URL: count with the served model's tokenizer")
    parser.add_argument("--base", default="main", help="git ref measured side by side (default: main)")
    args = parser.parse_args()

    from copilot_core.llm.budget import CHAT_PROMPT_BUDGET, ESTIMATE_RULE, TOOL_SCHEMAS_TARGET, estimate_tokens

    now, before = dump(), dump_of(args.base)
    now["tools"] = tool_texts(now)
    if before:
        before["tools"] = tool_texts(before)
    pairs: list[tuple[int, int]] = []  # (estimate, real) over every text counted

    def count(text: str) -> int:
        estimate = estimate_tokens(text)
        if not args.server:
            return estimate
        real = server_tokens(args.server, text)
        pairs.append((estimate, real))
        return real

    unit = "tokens (served model's tokenizer)" if args.server else f"tokens (estimate: {ESTIMATE_RULE})"
    print(f"Prompt budget, {unit}; '{args.base}' and this tree measured in one run\n")
    print(f"{'system prompt':44} {args.base:>8} {'now':>8} {'ratio':>7}")
    worst_chat = 0
    for key, text in now["prompts"].items():
        label, style = key.split("|")
        new = count(text)
        old = count(before["prompts"][key]) if before else None
        if label.startswith("chat"):
            worst_chat = max(worst_chat, new)
        ratio = f"{old / new:6.1f}x" if old else ""
        print(f"{label + ' · ' + style:44} {old if old is not None else '-':>8} {new:>8} {ratio:>7}")
    print(f"\n{'tool schemas as sent':44} {args.base:>8} {'now':>8} {'ratio':>7}")
    worst_tools = 0
    for key, text in now["tools"].items():
        label, style = key.split("|")
        new = count(text)
        old_text = before["tools"].get(key) if before else None
        old = count(old_text) if old_text else None
        if "," not in label:
            worst_tools = max(worst_tools, new)
        ratio = f"{old / new:6.1f}x" if old else ""
        print(f"{label + ' · ' + style:44} {old if old is not None else '-':>8} {new:>8} {ratio:>7}")
    if args.server:
        full = next(k for k in now["tools"] if k.endswith("|chat_completions"))
        old_full = before["tools"].get(full) if before else None
        new = rendered_tool_tokens(args.server, now["tools"][full])
        old = rendered_tool_tokens(args.server, old_full) if old_full else None
        ratio = f"{old / new:6.1f}x" if old else ""
        print(f"{'rendered by the served template (+preamble)':44} {old if old is not None else '-':>8} {new:>8} "
              f"{ratio:>7}")
    print(f"\nchat-mode system prompt: at most {worst_chat} tokens (target <= {CHAT_PROMPT_BUDGET}: "
          f"{'meets' if worst_chat <= CHAT_PROMPT_BUDGET else 'MISSES'})")
    print(f"full tool set: at most {worst_tools} tokens (target <= {TOOL_SCHEMAS_TARGET}: "
          f"{'meets' if worst_tools <= TOOL_SCHEMAS_TARGET else 'MISSES'})")
    if pairs:
        errors = [(e - r) / r for e, r in pairs]
        print(f"estimate ({ESTIMATE_RULE}) vs the served tokenizer over {len(pairs)} texts: "
              f"{min(errors):+.0%} .. {max(errors):+.0%} (positive: the estimate over-counts)")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.environ.get("PROMPT_BUDGET_SOURCE") or str(ROOT))
    if sys.argv[1:] == ["--dump"]:
        print(json.dumps(dump()))
        raise SystemExit(0)
    raise SystemExit(main())
