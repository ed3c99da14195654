"""The sizes a chart may have, checked on its raw JSON before any other work, so a hostile chart costs little."""

from __future__ import annotations

from typing import Any

from copilot_core.errors import CopilotError

MAX_FIGURE_BYTES = 5_000_000
MAX_NODES = 400_000  # JSON values in the whole figure
MAX_DEPTH = 24
MAX_TRACES = 200
MAX_FRAMES = 100
MAX_ITEMS = 500  # annotations, shapes, images, menu buttons, slider steps, ...: each list
TOP_LEVEL_KEYS = frozenset({"data", "layout", "frames"})
TYPED_DTYPES = frozenset({"i1", "u1", "i2", "u2", "i4", "u4", "f4", "f8", "u1c"})


Json = Any  # a JSON value: the figure's own data, checked here piece by piece


class UnsafeFigure(CopilotError, ValueError):
    """The figure is invalid or could make the viewer's browser load or open something."""


def count_values(fig: dict) -> int:
    """Refuse a figure with too many values, nested too deeply, or too much text, before any other work
    (containers are walked; scalars are only counted and strings measured); returns how many values it holds."""
    budget, text = MAX_NODES, 0
    stack: list[tuple[dict | list | tuple, int]] = [(fig, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise UnsafeFigure("figure is nested too deeply")
        if isinstance(node, dict):
            values: Any = node.values()
            try:
                text += len("".join(node))
            except TypeError:
                text += sum(len(k) for k in node if isinstance(k, str))
        else:
            values = node
        budget -= len(values)
        if budget < 0:
            raise UnsafeFigure(f"figure has more than {MAX_NODES} values; aggregate or downsample before plotting")
        for value in values:
            kind = type(value)
            if kind is str:
                text += len(value)
            elif kind is dict or kind is list:
                stack.append((value, depth + 1))
            elif kind is int or kind is float or kind is bool or value is None:
                continue
            elif isinstance(value, str):
                text += len(value)
            elif isinstance(value, (dict, list, tuple)):
                stack.append((value, depth + 1))
        if text > MAX_FIGURE_BYTES:
            raise UnsafeFigure(f"figure holds over {MAX_FIGURE_BYTES / 1e6:.0f} MB of text")
    return MAX_NODES - budget


def check_counts(fig: dict) -> None:
    """The counts a chart may hold of each costly kind, checked on the raw JSON before it is rebuilt."""
    data, frames, layout = fig.get("data") or [], fig.get("frames") or [], fig.get("layout") or {}
    if isinstance(data, list) and len(data) > MAX_TRACES:
        raise UnsafeFigure(f"figure has {len(data)} traces; the limit is {MAX_TRACES}")
    if isinstance(frames, list) and len(frames) > MAX_FRAMES:
        raise UnsafeFigure(f"figure has {len(frames)} frames; the limit is {MAX_FRAMES}")
    if isinstance(layout, dict):
        for key in ("annotations", "shapes", "images", "updatemenus", "sliders"):
            items = layout.get(key)
            if isinstance(items, list) and len(items) > MAX_ITEMS:
                raise UnsafeFigure(f"layout.{key} has {len(items)} entries; the limit is {MAX_ITEMS}")
