"""Time-zone names from model code: known IANA names only, never a path.

dateutil resolves a name by ``stat()``-ing candidate files, and a name may be a path
(``dateutil//proc/1/status``, ``../../etc/hostname``): a job would learn which host files exist and
which processes run, which Landlock does not stop (it governs opening, not looking).  The worker
replaces dateutil's lookup, for pandas too, before any job runs; a name is refused unless it is one of
the system's IANA zones (or a UTC spelling) and holds no ``\\``, ``..`` or leading ``/``.
"""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Callable

_SEGMENT = re.compile(r"[A-Za-z0-9_+\-]+(?:/[A-Za-z0-9_+\-]+)*")
_UTC_NAMES = frozenset({"UTC", "utc", "Z", "GMT", "Etc/UTC", "Etc/GMT"})
_known: frozenset[str] = frozenset()


class UnsafeTimeZone(ValueError):
    """A time-zone name that is not a known zone (or looks like a path)."""


def known_zones() -> frozenset[str]:
    """The system's IANA zone names, read once (in the worker, before jobs are locked down)."""
    global _known
    if not _known:
        _known = frozenset(zoneinfo.available_timezones()) | _UTC_NAMES
    return _known


def check_name(name: str) -> str:
    """``name`` if it is a known zone; UnsafeTimeZone (before anything touches the file system) otherwise."""
    if "\\" in name or ".." in name or name.startswith("/") or not _SEGMENT.fullmatch(name):
        raise UnsafeTimeZone(f"time zone {name[:60]!r} is not allowed: use an IANA name such as 'Asia/Tokyo' or 'UTC'")
    if name not in known_zones():
        raise UnsafeTimeZone(f"unknown time zone {name[:60]!r}: use an IANA name such as 'Asia/Tokyo' or 'UTC'")
    return name


def _guarded(lookup: Callable[..., object]) -> Callable[..., object]:
    def gettz(name: object = None) -> object:
        if name is None or name == "":  # dateutil's "local zone" (reads TZ / /etc/localtime): not for jobs
            raise UnsafeTimeZone("the local time zone is not available in the sandbox; name one, e.g. 'UTC'")
        if isinstance(name, str):
            check_name(name)
        else:
            raise UnsafeTimeZone("a time-zone name must be a string")
        return lookup(name)

    gettz.nocache = getattr(lookup, "nocache", None)  # type: ignore[attr-defined]
    gettz.cache_clear = getattr(lookup, "cache_clear", None)  # type: ignore[attr-defined]
    return gettz


def guard_lookups() -> None:
    """Route dateutil's ``gettz`` (and pandas' copy of it) through ``check_name``; idempotent."""
    import dateutil.tz
    import dateutil.tz.tz
    from pandas._libs.tslibs import timezones

    known_zones()
    original = dateutil.tz.tz.gettz
    if getattr(original, "__name__", "") == "gettz" and getattr(original, "__module__", "") == __name__:
        return
    guarded = _guarded(original)
    dateutil.tz.gettz = guarded
    dateutil.tz.tz.gettz = guarded
    timezones.dateutil_gettz = guarded  # pandas looks this module global up at call time
