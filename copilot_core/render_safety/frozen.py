"""A checked chart that cannot change afterwards, so it never has to be checked again.

``validate_figure`` hands out its rebuilt figure as a ``SafeFigure``: every dict and list in it refuses
in-place changes.  A ``SafeFigure`` can only come from the check (JSON, BSON and pickle give plain dicts
back, and a copy of one is plain), so when Streamlit's rerun draws a stored chart again the check can
return it as it is instead of counting and hashing it.
"""

from __future__ import annotations

import copy
from typing import Any, NoReturn

_SCALARS = frozenset({int, float, str, bool, type(None)})


def _refuse(self: object, *args: object, **kwargs: object) -> NoReturn:
    raise TypeError("a checked chart is read-only; change a copy (copy.deepcopy gives a plain one) and check it again")


class FrozenDict(dict):
    """A dict that refuses changes; copies of it are plain dicts."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __copy__(self) -> dict:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict:
        return {key: copy.deepcopy(value, memo) for key, value in self.items()}

    def __reduce_ex__(self, protocol: object) -> tuple:
        return dict, (dict(self),)


class FrozenList(list):
    """A list that refuses changes; copies of it are plain lists."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __copy__(self) -> list:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list:
        return [copy.deepcopy(value, memo) for value in self]

    def __reduce_ex__(self, protocol: object) -> tuple:
        return list, (list(self),)


class SafeFigure(FrozenDict):
    """A figure rebuilt by ``validate_figure``, read-only all the way down."""

    __slots__ = ()


def freeze(value: Any) -> Any:
    """``value`` with every dict and list replaced by a read-only one (already frozen parts are shared)."""
    kind = type(value)
    if kind is FrozenDict or kind is FrozenList or kind is SafeFigure:
        return value
    if kind is dict:
        return FrozenDict({key: freeze(item) for key, item in value.items()})
    if kind is list:
        if set(map(type, value)) <= _SCALARS:  # a data array: one C-speed copy, no walk
            return FrozenList(value)
        return FrozenList([freeze(item) for item in value])
    return value


def safe_figure(figure: dict) -> SafeFigure:
    """The rebuilt ``figure`` as a ``SafeFigure`` (only ``validate_figure`` calls this)."""
    return SafeFigure({key: freeze(item) for key, item in figure.items()})


def plotly_input(figure: dict) -> dict:
    """``figure`` for plotly.py (``st.plotly_chart`` builds a ``go.Figure`` from it): its trace validator takes
    each trace's ``type`` out while it builds the trace and puts it back, so the figure and its traces are
    handed over as plain shallow copies (one dict copy per trace); everything inside them stays read-only."""
    out = dict(figure)
    out["data"] = [dict(trace) if isinstance(trace, dict) else trace for trace in figure.get("data") or []]
    if "frames" in figure:
        out["frames"] = [{**frame, "data": [dict(t) for t in frame["data"]]} if isinstance(frame.get("data"), list)
                         else dict(frame) for frame in figure["frames"]]
    return out
