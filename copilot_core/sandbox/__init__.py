"""The only place that runs model-written code: policy (RestrictedPython + curated namespaces) inside an
isolated, resource-limited forked worker.  See ``host.run_analysis`` for the contract."""

from copilot_core.sandbox.host import (
    SandboxResult,
    run_analysis,
    sandbox_status,
    shutdown,
    warm_up,
)

__all__ = ["SandboxResult", "run_analysis", "sandbox_status", "shutdown", "warm_up"]
