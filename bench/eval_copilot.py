"""The sealed eval through the page's path: each question asked by ``Copilot.ask`` with the page's flags.

``python bench/eval_copilot.py --split held-out|held-out-2|held-out-3|held-out-4|held-out-5|held-out-6|held-out-7|
held-out-8|held-out-9|held-out-10|held-out-11|held-out-12|held-out-13|held-out-14|held-out-15|held-out-16|held-out-17|held-out-18|held-out-19|held-out-20|held-out-21|dev|both
[--per-template N] [--out F.jsonl]``
starts the local model (``scripts/local_llm.py serve``), seeds the demo database in memory (seed 7, ending now), builds
the truths (``tests/public_eval.py`` for dev, ``tests/sealed/heldout.py`` for held-out, ``tests/sealed/heldout2.py``
for the second sealed set, held-out-2, ``tests/sealed/heldout3.py`` for the third, held-out-3,
``tests/sealed/heldout4.py`` for the fourth, held-out-4, ``tests/sealed/heldout5.py`` for the fifth, held-out-5,
``tests/sealed/heldout6.py`` for the sixth, held-out-6,
``tests/sealed/heldout7.py`` for the seventh, held-out-7, ``tests/sealed/heldout8.py`` for the eighth, held-out-8,
``tests/sealed/heldout9.py`` for the ninth, held-out-9,
``tests/sealed/heldout10.py`` for the tenth, held-out-10,
``tests/sealed/heldout11.py`` for the eleventh, held-out-11,
``tests/sealed/heldout12.py`` for the twelfth, held-out-12,
``tests/sealed/heldout13.py`` for the thirteenth, held-out-13,
``tests/sealed/heldout14.py`` for the fourteenth, held-out-14,
``tests/sealed/heldout15.py`` for the fifteenth, held-out-15,
``tests/sealed/heldout16.py`` for the sixteenth, held-out-16,
``tests/sealed/heldout17.py`` for the seventeenth, held-out-17,
``tests/sealed/heldout18.py`` for the eighteenth, held-out-18,
``tests/sealed/heldout19.py`` for the nineteenth, held-out-19,
``tests/sealed/heldout20.py`` for the twentieth, held-out-20,
``tests/sealed/heldout21.py`` for the twenty-first, held-out-21;
``both`` leaves these out) and asks every question in a fresh chat
with the 64-qubit chip in view, clarification on, memory off and readiness gating as configured (on by default, as
on the page).  Prints one line per question and, at the end, per shape: passed / asked, and what the answer was —
the model's own words (``own``), corrected/completed by the claim check, replaced by the deterministic answer,
the deterministic fallback (the model wrote nothing usable), a clarifying question, or an error.
Held-out is measured once at the start of a piece of work and once at its end: never tune on its output.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SCRIPT = ROOT / "scripts" / "local_llm.py"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def outcome_kind(turn) -> str:  # noqa: ANN001
    """What the person read: the model's own words, or which deterministic path wrote the answer."""
    from copilot_core.answer.blocks import AskBlock
    from copilot_core.checking.verify import NO_ANSWER

    answer = turn.answer
    if answer is None:
        return "not sent"
    if any(isinstance(b, AskBlock) for b in answer.blocks):
        return "clarify"
    if answer.error:
        return "error"
    claims = turn.result.claims if turn.result is not None else "kept"
    if claims == "computed" or answer.text.startswith(NO_ANSWER) or "model did not write" in answer.text:
        return "fallback"
    return "own" if claims == "kept" else claims


def _questions(split: str, per_template: int, db, now: datetime) -> list:  # noqa: ANN001
    from tests.public_eval import build, template
    from tests.sealed.heldout import build_heldout
    from tests.sealed.heldout2 import build_heldout2
    from tests.sealed.heldout3 import build_heldout3
    from tests.sealed.heldout4 import build_heldout4
    from tests.sealed.heldout5 import build_heldout5
    from tests.sealed.heldout6 import build_heldout6
    from tests.sealed.heldout7 import build_heldout7
    from tests.sealed.heldout8 import build_heldout8
    from tests.sealed.heldout9 import build_heldout9
    from tests.sealed.heldout10 import build_heldout10
    from tests.sealed.heldout11 import build_heldout11
    from tests.sealed.heldout12 import build_heldout12
    from tests.sealed.heldout13 import build_heldout13
    from tests.sealed.heldout14 import build_heldout14
    from tests.sealed.heldout15 import build_heldout15
    from tests.sealed.heldout16 import build_heldout16
    from tests.sealed.heldout17 import build_heldout17
    from tests.sealed.heldout18 import build_heldout18
    from tests.sealed.heldout19 import build_heldout19
    from tests.sealed.heldout20 import build_heldout20
    from tests.sealed.heldout21 import build_heldout21

    out = []
    if split in ("held-out", "both"):
        out += round_robin(build_heldout(db, now))
    if split == "held-out-2":
        out += round_robin(build_heldout2(db, now))
    if split == "held-out-3":
        out += round_robin(build_heldout3(db, now))
    if split == "held-out-4":
        out += round_robin(build_heldout4(db, now))
    if split == "held-out-5":
        out += round_robin(build_heldout5(db, now))
    if split == "held-out-6":
        out += round_robin(build_heldout6(db, now))
    if split == "held-out-7":
        out += round_robin(build_heldout7(db, now))
    if split == "held-out-8":
        out += round_robin(build_heldout8(db, now))
    if split == "held-out-9":
        out += round_robin(build_heldout9(db, now))
    if split == "held-out-10":
        out += round_robin(build_heldout10(db, now))
    if split == "held-out-11":
        out += round_robin(build_heldout11(db, now))
    if split == "held-out-12":
        out += round_robin(build_heldout12(db, now))
    if split == "held-out-13":
        out += round_robin(build_heldout13(db, now))
    if split == "held-out-14":
        out += round_robin(build_heldout14(db, now))
    if split == "held-out-15":
        out += round_robin(build_heldout15(db, now))
    if split == "held-out-16":
        out += round_robin(build_heldout16(db, now))
    if split == "held-out-17":
        out += round_robin(build_heldout17(db, now))
    if split == "held-out-18":
        out += round_robin(build_heldout18(db, now))
    if split == "held-out-19":
        out += round_robin(build_heldout19(db, now))
    if split == "held-out-20":
        out += round_robin(build_heldout20(db, now))
    if split == "held-out-21":
        out += round_robin(build_heldout21(db, now))
    if split in ("dev", "both"):
        seen: dict[tuple[str, str], int] = defaultdict(int)
        dev: list = []
        for q in build(db):
            key = template(q)
            if per_template and seen[key] >= per_template:
                continue
            seen[key] += 1
            dev.append(q)
        out += round_robin(dev)
    return out


def round_robin(questions: list) -> list:  # noqa: ANN001
    """One question of each shape in turn, so a run cut short still covers every shape."""
    by_shape: dict[str, list] = defaultdict(list)
    for q in questions:
        by_shape[q.shape].append(q)
    queues = list(by_shape.values())
    return [queue[i] for i in range(max(map(len, queues), default=0)) for queue in queues if i < len(queue)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", required=True,
                        choices=("held-out", "held-out-2", "held-out-3", "held-out-4", "held-out-5", "held-out-6",
                                 "held-out-7", "held-out-8", "held-out-9", "held-out-10", "held-out-11", "held-out-12",
                                 "held-out-13", "held-out-14", "held-out-15", "held-out-16", "held-out-17", "held-out-18",
                                 "held-out-19", "held-out-20", "held-out-21", "dev",
                                 "both"))
    parser.add_argument("--per-template", type=int, default=0, help="dev: at most N questions per template")
    parser.add_argument("--out", default="", help="append one JSON line per question here")
    parser.add_argument("--base-url", default="", help="use this running server instead of starting one")
    parser.add_argument("--shapes", default="", help="dev: only these shapes, comma-separated ('spread,correlation')")
    args = parser.parse_args(argv)

    sys.path.insert(0, str(SCRIPT.parent))
    import local_llm

    from copilot_core.agent import provider_from_settings
    from copilot_core.answer.blocks import ChartBlock
    from copilot_core.chat.state import ChatState
    from copilot_core.data.connection import open_memory_database
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.demo.seed import chip_specs, demo_clock, seed_database
    from copilot_core.session import Copilot
    from copilot_core.settings import load_settings
    from tests.eval_score import problems
    from tests.public_eval import CHIP

    now = demo_clock()
    db = open_memory_database(f"eval-{os.getpid()}")
    seed_database(db, chip_specs(), seed=7, now=now)
    repo = CalibrationRepository(db)
    questions = _questions(args.split, args.per_template, db, now)
    if args.shapes:
        wanted = {s.strip() for s in args.shapes.split(",")}
        questions = [q for q in questions if q.split == "dev" and q.shape in wanted]
    print(f"{len(questions)} questions ({args.split})", file=sys.stderr, flush=True)

    server = None
    if args.base_url:
        port = int(args.base_url.rsplit(":", 1)[1].split("/")[0])
    else:
        port = _free_port()
        server = subprocess.Popen([sys.executable, str(SCRIPT), "serve", "--port", str(port), "--stop-on-eof"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}, cwd=ROOT)
        assert server.stdout is not None
        line = server.stdout.readline()
        if not line.startswith("READY "):
            print(f"the local model server did not start ({server.poll()})", file=sys.stderr)
            return 1
    try:
        env = {**local_llm.parse_env("\n".join(local_llm.env_lines(port))), "COPILOT_MEMORY": "off",
               "DATA_DIR": tempfile.mkdtemp(prefix="eval-copilot-")}
        settings = load_settings(env=env, secrets_path=Path("/nonexistent/secrets.toml"))
        provider = provider_from_settings(settings)
        copilot = Copilot.from_settings(settings, repo, memory=False)
        table: dict[tuple[str, str], list[tuple[bool, str, float]]] = defaultdict(list)
        out = open(args.out, "a", encoding="utf-8") if args.out else None
        for q in questions:
            state = ChatState(username="eval", provider=provider, chip_id=CHIP)
            started = time.perf_counter()
            turn = copilot.ask(state, q.text, clarify=True)
            seconds = time.perf_counter() - started
            answer = turn.answer.text if turn.answer is not None else (turn.notice or "")
            charts = len(turn.answer.charts()) if turn.answer is not None else 0
            charts = charts or sum(1 for b in (turn.answer.blocks if turn.answer else []) if isinstance(b, ChartBlock))
            why = problems(q.truth, answer, charts)
            kind = outcome_kind(turn)
            table[(q.split, q.shape)].append((not why, kind, seconds))
            print(f"{'pass' if not why else 'FAIL'} {q.split:8s} {q.id:34s} {seconds:6.1f} s {kind:9s} "
                  f"{'; '.join(why)[:120]} | {answer[:300]!r}", flush=True)
            if out:
                out.write(json.dumps({"id": q.id, "split": q.split, "shape": q.shape, "text": q.text,
                                      "passed": not why, "problems": why, "kind": kind, "seconds": round(seconds, 1),
                                      "answer": answer}, ensure_ascii=False) + "\n")
                out.flush()
        print("\nsplit     shape                  passed  own  fallback/replaced  s/question")
        for (split, shape), rows in sorted(table.items()):
            own = sum(1 for _, k, _ in rows if k == "own")
            det = sum(1 for _, k, _ in rows if k in ("fallback", "replaced"))
            print(f"{split:9s} {shape:22s} {sum(p for p, _, _ in rows):2d}/{len(rows):<3d}  {own:3d}  {det:3d}"
                  f"                {sum(s for _, _, s in rows) / len(rows):6.1f}")
        return 0
    finally:
        if server is not None:
            if server.stdin:
                server.stdin.close()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
