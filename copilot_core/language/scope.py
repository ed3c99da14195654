"""A deterministic guard for requests plainly outside the lab's data (recipes, poems, jokes ...), applied before
any model is called.

A small model tends to follow such a request ("write me a recipe") however the system prompt is worded, and a
large one spends a round declining it.  The guard declines only when the request names a non-lab artefact *and*
carries no sign of a lab question (a metric, a qubit or coupling id, a chip id, a calibration word), so
"write the T1 of Q5 in a table" or "forget the old chip, show 64Qv3's map" still reach the model.
"""

from __future__ import annotations

from copilot_core.language.question import parse

DECLINE_MESSAGE = (
    "I can't help with that: I only answer questions about this lab's calibration data. Ask me, for example, "
    "for a qubit's T1 or readout fidelity, the median of a metric across a chip or its heatmap, how a value "
    "trended over recent measurements, a chip's health summary, or where a value came from (its provenance)."
)
def out_of_scope(question: str) -> bool:
    """True when the request is plainly not about the lab's calibration data (see the module docstring)."""
    asked = parse(question)
    return asked.has("off topic") and not (asked.has("lab") or asked.metrics)
