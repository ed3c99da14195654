"""Re-run an answer's analysis code through the sandbox on this chat's data store.

Lets staff check a number themselves: the same code, the same data, the same isolation as the copilot had.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from copilot_core.tools.spec import Sandbox
    from copilot_core.tools.store import DataStore

NO_DATA = ("This code reads data keys that are no longer in this chat's data store ({missing}); stored results "
           "are kept only while the chat is open. Ask the question again to fetch them.")


@dataclass
class RerunResult:
    output: str = ""
    charts: list[dict] = field(default_factory=list)
    error: str | None = None
    elapsed_s: float = 0.0


def rerun_analysis(code: str, store: DataStore, *, needed_keys: Sequence[str] = (),
                   runner: Sandbox | None = None) -> RerunResult:
    """Run ``code`` in the sandbox with ``data`` = the store's frames; never raises."""
    frames = store.frames()
    missing = [k for k in needed_keys if k not in frames]
    if missing:
        return RerunResult(error=NO_DATA.format(missing=", ".join(missing)))
    if runner is None:
        from copilot_core.sandbox import run_analysis

        runner = run_analysis
    try:
        result = runner(code, frames)
    except Exception as exc:  # the sandbox promises not to raise; keep the page alive if it does
        return RerunResult(error=f"The sandbox failed: {type(exc).__name__}")
    return RerunResult(output=result.output or "", charts=list(result.charts or []), error=result.error,
                       elapsed_s=float(result.elapsed_s or 0.0))
