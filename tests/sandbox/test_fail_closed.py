"""Fail closed: no job runs when an isolation layer is missing, unless an operator allowed that weaker mode by
name (and the app then says so).  The missing layer is real: the app process is started under 16 stacked
Landlock rulesets (the kernel's limit), so the job's own Landlock step fails with E2BIG."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Runs in a fresh app process: stack 16 harmless rulesets (they only handle making block devices), then run one
# job that reads a file outside the Python installation, and print what the app got and what its status says.
_APP = r"""
import ctypes, json, sys
from copilot_core.sandbox import isolation as iso
for _ in range(16):
    attr = iso._RulesetAttr(handled_access_fs=1 << 12)
    fd = iso._libc.syscall(iso.SYS_LANDLOCK_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(8), ctypes.c_uint32(0))
    iso._libc.prctl(iso.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    assert iso._libc.syscall(iso.SYS_LANDLOCK_RESTRICT_SELF, ctypes.c_int(fd), ctypes.c_uint32(0)) == 0
from copilot_core.sandbox import host
result = host.run_analysis("print('job ran')", {}, timeout_s=10)
print(json.dumps({"output": result.output, "error": result.error, "layers": result.layers,
                  "status": host.sandbox_status(), "notice": host.weaker_mode_notice()}))
host.shutdown()
"""


def _run_app(weaker_mode: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "COPILOT_SANDBOX_WEAKER_MODE"}
    if weaker_mode is not None:
        env["COPILOT_SANDBOX_WEAKER_MODE"] = weaker_mode
    done = subprocess.run([sys.executable, "-c", _APP], cwd=ROOT, env={**env, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_job_does_not_run_without_landlock_unless_the_operator_allows_it():
    refused = _run_app(None)
    assert refused["output"] == ""
    assert "The sandbox refused to run the job: isolation layer(s) missing on this host: landlock: " in refused["error"]
    assert "COPILOT_SANDBOX_WEAKER_MODE=no-landlock" in refused["error"]
    assert refused["status"]["alive"] is False and refused["notice"] is None

    allowed = _run_app("no-landlock")
    assert allowed["error"] is None and allowed["output"] == "job ran"
    assert not any(layer.startswith("landlock") for layer in allowed["layers"])
    assert {"netns", "rlimits", "audit-hook"} <= set(allowed["layers"])
    assert allowed["status"]["weaker_mode"] == ["no-landlock"]
    assert [note.split(":", 1)[0] for note in allowed["status"]["layers_missing"]] == ["landlock"]
    assert allowed["notice"] == ("Sandbox running in a weaker mode an operator allowed (no-landlock); missing "
                                 "layers: landlock: [Errno 7] landlock_restrict_self: Argument list too long.")


def test_an_unknown_weaker_mode_is_refused_by_name():
    refused = _run_app("no-landlock,no-audit")
    assert refused["output"] == ""
    assert refused["error"] == ("The sandbox is unavailable: COPILOT_SANDBOX_WEAKER_MODE names unknown modes "
                                "['no-audit']; the modes are no-landlock, no-netns, no-rlimits, no-privilege-drop")
