"""``make eval-local``: the eval's small-model subset against the project's local model, start to finish.

Starts ``local_llm.py serve`` on a free loopback port (the model must be fetched: ``local_llm.py fetch``),
points the copilot at it with the settings ``local_llm.py env`` prints, runs
``python -m copilot_core.evals run --local-subset --gate`` (the readiness check gates the tools, as the
app does for a small model) and stops the server.  The table shows per question the score, rounds,
prompt tokens and seconds, and whether every number the answer quoted was found in a tool result.
Extra arguments go to the eval command (e.g. ``--json``).  Exit code: the eval's.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "local_llm.py"
sys.path.insert(0, str(SCRIPT.parent))

import local_llm  # noqa: E402


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main(argv: list[str]) -> int:
    port = _free_port()
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}
    started = time.monotonic()
    server = subprocess.Popen([sys.executable, str(SCRIPT), "serve", "--port", str(port), "--stop-on-eof"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        if not line.startswith("READY "):
            print(f"the local model server did not start (exit code {server.poll()}); run "
                  "`python scripts/local_llm.py fetch` first", file=sys.stderr)
            return 1
        print(f"local model ready in {time.monotonic() - started:.1f} s: {line.strip()}", file=sys.stderr)
        settings = local_llm.parse_env("\n".join(local_llm.env_lines(port)))
        run = subprocess.run([sys.executable, "-m", "copilot_core.evals", "run", "--local-subset", "--gate", *argv],
                             env={**env, **settings, "COPILOT_MEMORY": "off"}, cwd=ROOT)
        return run.returncode
    finally:
        if server.stdin:
            server.stdin.close()  # --stop-on-eof: the server exits when its stdin closes
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
