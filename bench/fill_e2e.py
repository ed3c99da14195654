"""Dev questions of ``tests/dev_fill10.py`` asked through ``Copilot.ask`` with the model fill off and on, scored
as the eval scores them: ``python bench/fill_e2e.py --base-url http://127.0.0.1:P ID [ID ...]``.  Figures:
``docs/benchmarks-fill.md``."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("ids", nargs="+")
    args = parser.parse_args(argv)
    import local_llm

    from bench.eval_copilot import outcome_kind
    from copilot_core.agent import provider_from_settings
    from copilot_core.chat.state import ChatState
    from copilot_core.data.connection import open_memory_database
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.demo.seed import chip_specs, demo_clock, seed_database
    from copilot_core.session import Copilot
    from copilot_core.settings import load_settings
    from tests import dev_fill10
    from tests.eval_score import problems
    from tests.public_eval import CHIP

    db = open_memory_database(f"fill-e2e-{os.getpid()}")
    seed_database(db, chip_specs(), seed=7, now=demo_clock())
    repo = CalibrationRepository(db)
    wanted = {q.id: q for q, _ in [*dev_fill10.planned(db), *dev_fill10.after(db)]}
    port = int(args.base_url.rsplit(":", 1)[1].split("/")[0])
    for fill in ("off", "on"):
        env = {**local_llm.parse_env("\n".join(local_llm.env_lines(port))), "COPILOT_MEMORY": "off",
               "DATA_DIR": tempfile.mkdtemp(prefix="fill-e2e-"), "COPILOT_FILL_UNROUTED": fill}
        settings = load_settings(env=env, secrets_path=Path("/nonexistent/secrets.toml"))
        provider = provider_from_settings(settings)
        copilot = Copilot.from_settings(settings, repo, memory=False)
        for qid in args.ids:
            q = wanted[qid]
            state = ChatState(username="eval", provider=provider, chip_id=CHIP)
            started = time.perf_counter()
            turn = copilot.ask(state, q.text, clarify=True)
            seconds = time.perf_counter() - started
            answer = turn.answer.text if turn.answer is not None else (turn.notice or "")
            why = problems(q.truth, answer, len(turn.answer.charts()) if turn.answer is not None else 0)
            print(f"fill {fill:3s} {'pass' if not why else 'FAIL'} {qid:14s} {seconds:6.1f} s {outcome_kind(turn):9s} "
                  f"{'; '.join(why)[:100]} | {answer[:160]!r}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
