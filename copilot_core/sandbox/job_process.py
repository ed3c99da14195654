"""Inside a job process: what a directly forked job or a pre-forked spare does, from its hardening to its one
JSON reply on the result pipe.  Each runs in a fork of the worker and never returns (``os._exit``).

The request arrives pickled by the app and is unpickled here, in the job, never in the worker; model code
is compiled under the policy and run only after every isolation layer the operator did not give up by name
is in place.
"""

from __future__ import annotations

import gc
import os
import pickle
import selectors

from copilot_core.sandbox import audit, isolation, job, prefault, protocol, warmup
from copilot_core.sandbox.policy_compile import compile_analysis

MEMORY_HEADROOM_MB = 1024
MAX_REQUEST_BYTES = 512 * 1024 * 1024
SPARE_IDLE_BEFORE_WARMUP_S = 0.25  # without prefaulting, a spare handed a job sooner skips its warm-up job
# A spare's reply pipe carries its state before the reply: WARMING and WARM around its warm-up
# (prefaulting, or an idle warm-up job), then TOOK_JOB once it has read its request.
SPARE_WARMING, SPARE_WARM, SPARE_TOOK_JOB = b"W", b"R", b"+"
_ALLOWED_MISSING: list[frozenset[str]] = [frozenset()]  # layers the operator's weaker mode gives up (``allow_missing``)


def allow_missing(weaker: tuple[str, ...]) -> None:
    """The operator's named weaker modes (``isolation.WEAKER_MODES``): the only missing layers a job may run without.
    Set once by the worker before it forks any job."""
    _ALLOWED_MISSING[0] = isolation.allowed_missing(weaker)


def run_direct(body: protocol.OffHeap, namespaces: dict, result_fd: int) -> None:
    """A directly forked job process: it, not the worker, unpickles its request; never returns."""
    try:
        gc.disable()
        hardening = isolation.prepare(result_fd)
        request = body.loads()  # trusted direction: built by the app, relayed unread by the worker
        body.close()
        source, data, timeout_s = request["code"], request["data"], float(request["timeout_s"])
    except BaseException:
        os._exit(3)
    _run(source, data, namespaces, hardening, timeout_s)


def run_spare(request_fd: int, result_fd: int, namespaces: dict, hot_pages: prefault.Runs) -> None:
    """A pre-forked job process: every layer but the job-sized limits first, then exactly one request; never returns.

    Forked from the worker (never from an earlier job) and hardened before it waits, it holds nothing
    a job process would not.  It then copies the worker pages a typical job writes (``hot_pages``)
    so those copy-on-write faults happen now instead of inside the user's job; where the kernel
    cannot prefault, it runs a trusted figure job on synthetic data once it has been idle a while.
    The worker lowers its priority meanwhile (see ``SparePool.fork``) so it does not slow a running job.
    """
    try:
        gc.disable()
        hardening = isolation.prepare(result_fd, request_fd)
        if hot_pages:
            os.write(isolation.RESULT_FD, SPARE_WARMING)
            prefault.populate(hot_pages)
            os.write(isolation.RESULT_FD, SPARE_WARM)
        elif not _readable(isolation.REQUEST_FD, SPARE_IDLE_BEFORE_WARMUP_S):
            os.write(isolation.RESULT_FD, SPARE_WARMING)
            job.compile_and_run(warmup.SPARE_SNIPPET, namespaces, warmup.spare_data())
            os.write(isolation.RESULT_FD, SPARE_WARM)
        payload = protocol.read_frame(isolation.REQUEST_FD, MAX_REQUEST_BYTES)
        if payload is None:  # the worker is shutting down or replaced this spare
            os._exit(0)
        request = pickle.loads(payload)  # trusted direction: built by the app, relayed by the worker
        del payload
        os.close(isolation.REQUEST_FD)
        os.write(isolation.RESULT_FD, SPARE_TOOK_JOB)
        source, data, timeout_s = request["code"], request["data"], float(request["timeout_s"])
    except BaseException:
        os._exit(4)
    _run(source, data, namespaces, hardening, timeout_s)


def _readable(fd: int, timeout_s: float) -> bool:
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        return bool(sel.select(timeout_s))


def _run(source: str, data: dict, namespaces: dict, hardening: isolation.Hardening, timeout_s: float) -> None:
    """Limits, policy compile, audit hook, the job, one JSON reply on the result pipe; never returns.
    A job whose process lacks a layer the operator did not give up by name does not run."""
    code = 1
    try:
        layers, missing = isolation.limit(hardening, timeout_s, MEMORY_HEADROOM_MB)
        layers.insert(0, "policy:restrictedpython")
        _seed_random()
        refused = isolation.refusal(missing, _ALLOWED_MISSING[0])
        compiled = None
        if refused:
            reply = {"output": "", "charts": [], "error": refused}
        else:
            try:
                compiled = compile_analysis(source)
            except SyntaxError as exc:
                reply = {"output": "", "charts": [], "error": f"SyntaxError: {exc}\nHint: {job.HINTS['SyntaxError']}"}
        if compiled is not None:
            audit.install(isolation.read_roots())
            layers.append("audit-hook")
            reply = job.run_job(compiled, source, namespaces, data)
        reply["layers"] = layers
        if missing:
            reply["layers_missing"] = missing
        payload = protocol.encode_reply(reply)
        if len(payload) > protocol.MAX_REPLY_BYTES:
            payload = protocol.encode_reply({"output": reply["output"][:job.MAX_OUTPUT_CHARS], "charts": [],
                                             "error": "The reply exceeded 8 MiB; charts were dropped. Plot "
                                                      "aggregates or fewer points.", "layers": layers})
        view = memoryview(payload)
        while view:
            view = view[os.write(isolation.RESULT_FD, view):]
        # EOF now: the worker relays the reply without waiting for this process's (COW-heavy) teardown
        os.close(isolation.RESULT_FD)
        code = 0
    except BaseException as exc:  # nothing may escape a job process; report what broke if we still can
        code = 3
        try:
            os.write(isolation.RESULT_FD, protocol.encode_reply(
                {"output": "", "charts": [], "error": f"sandbox internal error: {type(exc).__name__}: "
                                                      f"{str(exc)[:500]}", "layers": []}))
        except BaseException:
            pass
    finally:
        os._exit(code)


def _seed_random() -> None:
    """Fresh random state per job: every job forks from one warmed interpreter, so without this every job in
    every session would draw the same ``np.random`` values."""
    import numpy as np

    np.random.seed(int.from_bytes(os.urandom(4), "little"))
