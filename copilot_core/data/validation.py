"""Argument checks for every repository read: typed, pattern-checked, bounded.

Model-written tool calls and URL parameters reach the data layer; a dict where a qid belongs
(``{"$ne": ""}``) would turn an equality filter into an operator.  Each checker accepts only the
shape QDash stores and raises ``InvalidArgument`` with a message a user or model can act on.
"""

from __future__ import annotations

import math
import re
from datetime import datetime, timezone

from copilot_core.errors import CopilotError

# Free-text chip ids in QDash ("64Qv3", "144Qv2", "chip_A-1"); no "$", no dots, no spaces.
_CHIP_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_\-]{0,63}$")
_QID = re.compile(r"^(0|[1-9][0-9]{0,4})$")
_COUPLING_ID = re.compile(r"^(0|[1-9][0-9]{0,4})-(0|[1-9][0-9]{0,4})$")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,79}$")  # parameter and task names (snake_case / CamelCase)
_EXECUTION_ID = re.compile(r"^[0-9]{8}-[0-9]{3,6}$")
_TASK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_\-]{0,63}$")  # uuid4, or "master" on calibration notes
_ENTITY_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,79}:[0-9\-]{1,13}:[0-9]{8}-[0-9]{3,6}:[A-Za-z0-9_\-]{1,64}$")
_TAG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_\-.: ]{0,63}$")
_PROJECT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_\-]{0,127}$")
_OWNER = re.compile(r"^[A-Za-z0-9_.@+-]{1,128}$")  # a signed-in user's stable id, or the USERNAME setting

TASK_STATUSES = ("completed", "failed", "running", "scheduled", "pending", "skipped", "cancelled")
EXECUTION_STATUSES = ("scheduled", "running", "completed", "failed", "cancelled")
MODES = ("latest", "best", "average")
KINDS = ("qubit", "coupling")
MAX_LIMIT = 1000
MAX_HOURS = 24 * 366 * 5


class InvalidArgument(CopilotError, ValueError):
    """A caller passed an argument the data layer refuses; the message says what is expected."""


def _string(value: object, what: str, pattern: re.Pattern[str], example: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InvalidArgument(f"{what} must be a string like {example!r}, not {type(value).__name__}")
    text = str(value)
    if not pattern.fullmatch(text):
        shown = text if len(text) <= 40 else text[:40] + "…"
        raise InvalidArgument(f"invalid {what} {shown!r}: expected something like {example!r}")
    return text


def chip_id(value: object) -> str:
    return _string(value, "chip_id", _CHIP_ID, "64Qv3")


def project_id(value: object) -> str:
    return _string(value, "project_id", _PROJECT_ID, "proj-1")


def owner(value: object) -> str:
    return _string(value, "owner", _OWNER, "local")


def qid(value: object) -> str:
    """Plain decimal qid ("5"); an int is accepted and turned into its string."""
    return _string(value, "qid", _QID, "5")


def coupling_id(value: object) -> str:
    return _string(value, "coupling id", _COUPLING_ID, "4-1")


def qid_or_coupling(value: object) -> str:
    """Either a qubit id ("5") or a coupling id ("4-1"), as ``task_result_history.qid`` holds both."""
    if isinstance(value, str) and "-" in value:
        return coupling_id(value)
    return qid(value)


def name(value: object, what: str = "parameter name") -> str:
    return _string(value, what, _NAME, "t1" if what == "parameter name" else "CheckT1")


def task_name(value: object) -> str:
    return name(value, "task name")


def execution_id(value: object) -> str:
    return _string(value, "execution_id", _EXECUTION_ID, "20260720-003")


def is_execution_id(value: object) -> bool:
    """True for a QDash-shaped execution id (a database value that is not one is skipped, never raised on)."""
    return isinstance(value, str) and _EXECUTION_ID.match(value) is not None


def task_id(value: object) -> str:
    return _string(value, "task_id", _TASK_ID, "9b2e5c1e-…")


def entity_id(value: object) -> str:
    return _string(value, "entity_id", _ENTITY_ID, "t1:5:20260720-003:<task_id>")


def tag(value: object) -> str:
    return _string(value, "tag", _TAG, "daily")


def tags(values: object) -> list[str]:
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, (list, tuple)) or len(values) > 20:
        raise InvalidArgument("tags must be a list of up to 20 strings like ['daily']")
    return [tag(v) for v in values]


def choice(value: object, what: str, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise InvalidArgument(f"{what} must be one of {', '.join(allowed)}; got {value!r}")
    return value


def limit(value: object, what: str = "limit", maximum: int = MAX_LIMIT) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise InvalidArgument(f"{what} must be an integer between 1 and {maximum}; got {value!r}")
    return value


def hours(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 < value <= MAX_HOURS:
        raise InvalidArgument(f"within_hours must be a number between 0 and {MAX_HOURS}; got {value!r}")
    return float(value)


def when(value: object, what: str) -> datetime:
    """A datetime as naive UTC (aware values are converted), as stored by QDash/BSON."""
    if not isinstance(value, datetime):
        raise InvalidArgument(f"{what} must be a datetime; got {type(value).__name__}")
    if value.tzinfo is not None:
        value = value.astimezone(timezone.utc).replace(tzinfo=None)
    return value


def qid_list(values: object, maximum: int = 2048) -> list[str]:
    if isinstance(values, (str, dict)) or not isinstance(values, (list, tuple, set)) or len(values) > maximum:
        raise InvalidArgument(f"qids must be a list of up to {maximum} qubit ids like ['0', '5']")
    return sorted({qid(v) for v in values}, key=int)
