"""Put first on the server's PYTHONPATH by ``bench/load.py`` (never by the app): counts the CPU time of every
Streamlit script run in its own thread, so the server's CPU splits into script runs (data, figures,
serialisation) and the rest (websocket, static files, protobuf); with ``LOAD_BENCH_CPROFILE=1`` every run
is also profiled with cProfile.  Written to ``$LOAD_BENCH_DIR/server_cpu.json`` (and ``server.pstats``)."""

from __future__ import annotations

import atexit
import cProfile
import json
import os
import pstats
import threading
import time
from pathlib import Path

_lock = threading.Lock()
_stats: list[pstats.Stats] = []
_counts: dict[str, float] = {"runs": 0, "script_cpu_s": 0.0}


def _dump(out: Path, stats: bool = True) -> None:
    with _lock:
        if stats and _stats:
            _stats[0].dump_stats(str(out / "server.pstats"))
        (out / "server_cpu.json").write_text(json.dumps(_counts))


def _install(out: Path, with_cprofile: bool) -> None:
    from streamlit.runtime.scriptrunner import script_runner

    original = script_runner.ScriptRunner._run_script

    def counted(self: object, rerun_data: object) -> None:
        profile = cProfile.Profile(time.thread_time) if with_cprofile else None  # CPU, not waits
        cpu = time.thread_time()
        if profile is not None:
            profile.enable()
        try:
            original(self, rerun_data)
        finally:
            if profile is not None:
                profile.disable()
            spent = time.thread_time() - cpu
            with _lock:
                _counts["runs"] += 1
                _counts["script_cpu_s"] += spent
                if profile is not None:
                    if _stats:
                        _stats[0].add(profile)
                    else:
                        _stats.append(pstats.Stats(profile))
            _dump(out, stats=_counts["runs"] % 20 == 0)

    script_runner.ScriptRunner._run_script = counted  # type: ignore[method-assign]
    atexit.register(_dump, out)


if os.environ.get("LOAD_BENCH_DIR"):
    _install(Path(os.environ["LOAD_BENCH_DIR"]), os.environ.get("LOAD_BENCH_CPROFILE") == "1")
