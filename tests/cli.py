"""Run ``python -m copilot_core ARGS`` for a test, in this process or as a real subprocess.

``run_main`` calls the entry point's own ``main(argv)`` with exactly the given environment, stdout and stderr
captured and the CLI's own logging set-up writing to that stderr, and returns what a subprocess run would
(``CompletedProcess``: exit code, stdout, stderr).  It skips only the interpreter start and the imports (about
1.4 s of CPU a run).  ``run_subprocess`` starts the interpreter: keep it for what only a process shows (the
``-m`` entry point, ``sys.exit`` of the code, a traceback the interpreter prints).
"""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]


def run_subprocess(env: dict[str, str], *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "copilot_core", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)


def run_main(env: dict[str, str], *args: str,
             main: Callable[[list[str]], int] | None = None) -> subprocess.CompletedProcess[str]:
    """``main(args)`` (default: ``python -m copilot_core``'s) under ``env`` and nothing else of this process's
    environment.  The root logger is emptied for the call so that ``main``'s ``logging.basicConfig`` installs
    its stderr handler as in a fresh process; loggers and handlers are restored afterwards."""
    if main is None:
        from copilot_core.__main__ import main as copilot_main

        main = copilot_main

    out, err = io.StringIO(), io.StringIO()
    root, core = logging.getLogger(), logging.getLogger("copilot_core")
    handlers, root_level, core_level = root.handlers[:], root.level, core.level
    root.handlers = []
    try:
        with mock.patch.dict(os.environ, env, clear=True), redirect_stdout(out), redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse's --help, as the interpreter would report it
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        root.handlers = handlers
        root.setLevel(root_level)
        core.setLevel(core_level)
    return subprocess.CompletedProcess([f"{main.__module__}.main", *args], code, out.getvalue(),
                                       err.getvalue())
