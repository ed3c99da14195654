"""Seconds to the first streamed word of the answer vs seconds to the whole answer, on the project's local model.

Run: ``.venv/bin/python bench/stream_first_word.py [--question "..."] [--chip 64Qv3]`` (the model fetched with
``scripts/local_llm.py fetch``; DATA_DIR seeded with the demo).  Starts ``local_llm.py serve`` on a free port, asks
once to warm the server's prompt cache, then asks again with streaming on, as the chat page does, and records when
the first non-empty answer text reached the page's stream callback and when the turn ended.  Both numbers come
from the same run; the machine's load is printed with them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

import local_llm  # noqa: E402
from one_tool_latency import local_model_server  # noqa: E402

from copilot_core.agent import provider_from_settings  # noqa: E402
from copilot_core.chat import ChatState  # noqa: E402
from copilot_core.data.connection import open_database  # noqa: E402
from copilot_core.data.repository import CalibrationRepository  # noqa: E402
from copilot_core.session import Copilot  # noqa: E402
from copilot_core.settings import load_settings  # noqa: E402


def _first_word(first: list[float], started: float):
    def on_text(text: str) -> None:
        if text.strip() and not first:
            first.append(time.perf_counter() - started)

    return on_text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--question", default="What is the median T1 on 64Qv3?")
    parser.add_argument("--chip", default="64Qv3")
    args = parser.parse_args()
    with local_model_server() as port:
        if port is None:
            return 1
        env = {**os.environ, **local_llm.parse_env("\n".join(local_llm.env_lines(port))), "COPILOT_MEMORY": "off",
               "COPILOT_READINESS": "off"}
        settings = load_settings(env=env)
        repo = CalibrationRepository(open_database(settings), project_id=settings.project_id)
        copilot = Copilot.from_settings(settings, repo, memory=False, gate=False)
        for label in ("warm-up", "measured"):
            state = ChatState(username="bench", provider=provider_from_settings(settings), chip_id=args.chip)
            first: list[float] = []
            load = os.getloadavg()[0]
            started = time.perf_counter()
            turn = copilot.ask(state, args.question, stream=_first_word(first, started))
            total = time.perf_counter() - started
            answer = (turn.answer.text if turn.answer else "").strip().splitlines()
            rounds = turn.result.usage.get("rounds", 0) if turn.result else 0
            shown = f"{first[0]:.1f}" if first else "-"
            print(f"{label:<9} first word {shown:>6} s  full answer {total:6.1f} s  rounds {rounds}  load {load:4.1f}"
                  f"  | {(answer[0] if answer else '')[:80]}")
            if label == "measured" and first:
                print(f"first word / full answer = {first[0] / total:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
