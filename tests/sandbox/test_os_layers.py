"""The process layer on its own: a hardened process running *unrestricted* Python (no policy layer)
still cannot read secrets, write files, reach the network, spawn processes or signal the app.

Runs the real ``isolation.harden`` (and optionally the audit hook) in a fresh interpreter, with and
without the hook, in the order a pre-forked spare applies the layers, plus an unhardened control run
proving the probes would notice a failure.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap

import pytest

from copilot_core.sandbox import isolation
from copilot_core.sandbox.worker_handle import PROJECT_ROOT, clean_environment

PROBE = textwrap.dedent("""
    import json, os, resource, socket, sys, threading
    sys.path.insert(0, {root!r})
    from copilot_core.sandbox import audit, isolation
    MODE, SECRETS, CANARY, PORT, APPPID = {mode!r}, {secrets!r}, {canary!r}, {port!r}, {apppid!r}
    read_fd, write_fd = os.pipe()
    request_read, request_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        os.close(request_write)
        layers = []
        if MODE == "spare":  # the order a pre-forked spare uses (OS layers only): every layer, wait, job-sized limits
            layers, _ = isolation.limit(isolation.prepare(write_fd, request_read), 5.0, 512)
            os.close(isolation.REQUEST_FD)
            out = isolation.RESULT_FD
        elif MODE != "none":
            layers, _ = isolation.harden(write_fd, 5.0, 512)
            out = isolation.RESULT_FD
        else:
            out = write_fd
        if MODE == "hook":
            audit.install(isolation.read_roots())
        results = {{}}
        def attempt(name, fn):
            try:
                fn()
                results[name] = "ALLOWED"
            except BaseException as exc:
                results[name] = type(exc).__name__
        def shell():
            if os.system("touch " + CANARY + "-shell") != 0:
                raise OSError("system failed")
        def fork():
            child = os.fork()
            if child == 0:
                os._exit(0)
        def thread():
            t = threading.Thread(target=lambda: None)
            t.start()
            t.join()
        attempt("read_secrets", lambda: open(SECRETS).read())
        attempt("read_passwd", lambda: open("/etc/passwd").read())
        attempt("read_app_environ", lambda: open("/proc/%d/environ" % APPPID, "rb").read())
        attempt("write_canary", lambda: open(CANARY, "w").write("x"))
        attempt("tcp_connect", lambda: socket.create_connection(("127.0.0.1", PORT), timeout=1).close())
        attempt("udp_send", lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("127.0.0.1", PORT)))
        attempt("shell", shell)
        attempt("fork", fork)
        attempt("thread", thread)
        attempt("signal_app", lambda: os.kill(APPPID, 0))
        if MODE != "none":  # (unhardened, this would really allocate 2 GiB on a shared box)
            attempt("allocate_2g", lambda: bytearray(2 * 1024 ** 3))
            import numpy
            attempt("read_site_packages", lambda: open(numpy.__file__).read(10))
        report = {{"layers": layers, "results": results, "sid_is_pid": os.getsid(0) == os.getpid(),
                   "fsize": resource.getrlimit(resource.RLIMIT_FSIZE)}}
        view = json.dumps(report).encode()
        while view:
            view = view[os.write(out, view):]
        os._exit(0)
    os.close(write_fd)
    os.close(request_read)
    chunks = []
    while True:
        chunk = os.read(read_fd, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.waitpid(pid, 0)
    sys.stdout.write(b"".join(chunks).decode())
""")

DENIED_PROBES = ("read_secrets", "read_passwd", "read_app_environ", "write_canary", "tcp_connect", "udp_send",
                 "shell", "fork", "thread", "signal_app", "allocate_2g")


def _probe(mode: str, planted, port: int) -> dict:
    canary = planted.canary(f"os-{mode}")
    script = PROBE.format(root=str(PROJECT_ROOT), mode=mode, secrets=str(planted.secrets_path),
                          canary=str(canary), port=port, apppid=os.getpid())
    proc = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=60,
                          env=clean_environment(), cwd=str(planted.canary_dir))
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    report["canary_written"] = canary.exists() or canary.with_name(canary.name + "-shell").exists()
    return report


def test_unhardened_control_run_detects_every_probe(planted, tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as control:  # its own listener: the shared one must stay unhit
        report = _probe("none", planted, control.getsockname()[1])
    allowed = {k for k, v in report["results"].items() if v == "ALLOWED"}
    # Without the process layer, the probes do reach files, network and processes: they are real probes.
    assert {"read_secrets", "write_canary", "tcp_connect", "fork", "thread"} <= allowed
    for path in planted.canary_dir.glob("os-none*"):
        path.unlink()


@pytest.mark.parametrize("mode", ["hook", "nohook", "spare"])
def test_process_layer_contains_unrestricted_code(mode, planted):
    report = _probe(mode, planted, planted.port)
    results = report["results"]
    leaked = {k for k in DENIED_PROBES if results.get(k) == "ALLOWED"}
    needed = {"rlimits", "netns", "uid:nobody", f"landlock:abi{isolation.landlock_abi()}"}
    missing = sorted(needed - set(report["layers"]))
    if missing and os.environ.get("REQUIRE_SANDBOX_LAYERS") == "1":
        pytest.fail(f"REQUIRE_SANDBOX_LAYERS=1 (the kernel has every layer) but the job ran without {missing}")
    if missing:
        pytest.skip(f"this kernel/user lacks {missing}; the sandbox reports it (CI sets REQUIRE_SANDBOX_LAYERS=1 "
                    "where the kernel has them)")
    assert any(layer.startswith("landlock:abi") and layer != "landlock:abi0" for layer in report["layers"])
    assert leaked == set(), f"{mode}: allowed {leaked}; layers={report['layers']}"
    assert results["read_site_packages"] == "ALLOWED", "Landlock must leave the Python packages readable"
    assert not report["canary_written"]
    assert report["sid_is_pid"] and report["fsize"] == [0, 0]
    assert planted.hits == []
