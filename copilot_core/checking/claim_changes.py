"""Whether a number of an answer is claimed as a change ("fell by 2.6 μs", "+0.05%") and, if so, whether it is the
change the tools give for that metric and qubit, sign included (:mod:`~copilot_core.checking.claim_judge` asks)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from copilot_core.checking.claim_facts import Fact, chip_size, matches, subject_label, written_like
from copilot_core.checking.claim_reading import Reading
from copilot_core.domain.metrics import metric

_RISE = r"ros[ei]\w*|ris[ei]\w*|increas\w*|grew|grow\w*|gain\w*|went up|up"
_FALL = r"fell|fall\w*|dropp?\w*|drops?|decreas\w*|lost|los[est]\w*|went down|down|declin\w*"
_BETTER, _WORSE = r"improv\w*|better", r"degrad\w*|worse\w*"
_CHANGE_BEFORE = re.compile(
    rf"(?:\b(?:(?P<rise>{_RISE})|(?P<fall>{_FALL})|(?P<better>{_BETTER})|(?P<worse>{_WORSE})|chang\w*|shift\w*|mov\w*)\b"
    r"(?:\s+[\w*]+)?\s+(?:by|of)"
    r"|\b(?:delta|difference|change)\s*(?:of|:|=|is|was)?|Δ\s*[=:]?)\s*(?:about|roughly|around|approximately|~)?\s*"
    r"[(\[]?\s*$", re.I)


def change_claimed(reading: Reading, candidates: Sequence[Fact], claimed: str | None) -> int | None:
    """Whether the number is claimed as a change, and which way: +1 up, -1 down, 0 either (None: not a change).
    A leading ``+`` or change words right before it ("fell by", "a change of") say so; a leading minus says so
    only when no level among the number's facts is negative (an anharmonicity of -310 MHz is a level)."""
    sign = reading.written[:1]
    words = _CHANGE_BEFORE.search(reading.before)
    negative_level = any(f.negative and f.role not in ("change", "threshold") for f in candidates)
    if sign == "+":
        return 1
    if sign in "-−" and (words or (not negative_level and any(f.role == "change" for f in candidates))):
        return -1
    if words is None:
        return None
    if words.group("rise"):
        return 1
    if words.group("fall"):
        return -1
    better = words.group("better") is not None
    if (better or words.group("worse")) and claimed is not None:
        return 1 if better == metric(claimed).higher_is_better else -1
    return 0


def changes_of(facts: Sequence[Fact], claimed: str | None, subject: str | None) -> list[Fact]:
    """The changes the tools give for this metric (any when unnamed) and qubit or coupling (any when unnamed)."""
    return [f for f in facts if f.role == "change" and f.metric in (None, claimed)
            and (subject is None or f.subject == subject)]


def change_problem(reading: Reading, direction: int, facts: Sequence[Fact], claimed: str | None,
                    subject: str | None) -> tuple[str, str | None] | tuple[None, None]:
    """Why a claimed change is not the change the tools give for that metric and qubit (sign included), and the
    right change written like the claim when exactly one fits and the answer's words cannot contradict it."""
    changes = changes_of(facts, claimed, subject)
    fitting = [f for f in changes if matches(reading.value, reading.decimals, f)
               and (direction == 0 or f.negative == (direction < 0))]
    if fitting:
        return None, None
    owner = f" of {subject_label(subject, chip_size(facts))}" if subject else ""
    what = f"the change{' in ' + claimed if claimed else ''}{owner}"
    same = [f for f in changes if f.qualifier is None]
    values = sorted({("-" if f.negative else "+") + written_like(f.value, reading.written) for f in same})
    if not values:
        return f"no tool result gives {what}", None
    fix = None
    if len(values) == 1 and (reading.written[:1] in "+-−" or direction == 0
                             or (same[0].negative == (direction < 0))):
        fix = values[0] if reading.written[:1] in "+-−" else values[0].lstrip("+-")
    return f"{reading.written} is not {what} (the tools give {', '.join(values[:3])})", fix
