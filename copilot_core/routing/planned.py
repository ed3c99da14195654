"""A call the router makes itself: shared by the planners and the loop that runs it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PlannedCall:
    """A tool call the router makes itself, and the words that decided it (for show-work and tests).  ``settles``:
    its answer is the whole answer (something the question names does not exist), so no model round follows."""

    name: str
    args: dict = field(hash=False)
    reason: str = ""
    settles: bool = False
