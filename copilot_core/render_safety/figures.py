"""Chart JSON before a browser draws it: rebuilt from an allowlist, so it carries nothing to load or follow.

A figure is a zero-click exfiltration channel: plotly.js fetches image sources, map styles, tiles and
geojson by itself, and renders ``<a href>`` in any label.  So the figure is not scanned for bad words but
rebuilt: each trace of an allowed type (``chart_schema.TRACE_TYPES``) and each allowed layout key is copied
attribute by attribute, every value checked against the kind plotly's attribute reference gives it
(number, colour, enumeration, data array, text, ...); text keeps only the bare tags of ``chart_text``;
images are embedded ``data:image`` only; updatemenus and sliders may only set attributes the same rules
allow.  Anything else is refused with a message the model can act on.  Sizes are capped before any of
that work, so a hostile chart costs well under a second.

Charts come from tools, the sandbox, the model and stored chats; each distinct chart is rebuilt once (a
digest of its JSON is remembered), and what comes out is a read-only ``SafeFigure`` (``frozen.py``) that the
check hands back as it is, so Streamlit's reruns of a long chat redraw without re-walking or re-hashing.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Iterator

from copilot_core.render_safety.figure_budget import rebuilt_within_budget
from copilot_core.render_safety.figure_limits import (
    MAX_FIGURE_BYTES,
    TOP_LEVEL_KEYS,
    Json,
    UnsafeFigure,
    check_counts,
    count_values,
)
from copilot_core.render_safety.figure_rebuild import TEMPLATES
from copilot_core.render_safety.frozen import SafeFigure, safe_figure

# sha256 of figure JSON -> (rebuilt figure or why not, JSON size); bounded in count and in the JSON it holds
_VERDICTS: OrderedDict[str, tuple[SafeFigure | str, int]] = OrderedDict()
_MAX_VERDICTS = 512
_MAX_VERDICT_BYTES = 20_000_000
_held = [0]  # JSON bytes of the rebuilt figures in _VERDICTS


def forget() -> None:
    """Drop every remembered chart and template (benchmarks measure first sight with it)."""
    _VERDICTS.clear()
    TEMPLATES.clear()
    _held[0] = 0



_PIECE_ITEMS = 20_000  # list items per json.dumps call: one C call holds the interpreter for all it encodes


def _json_pieces(value: Json) -> Iterator[str]:
    """``json.dumps(value)`` in pieces (their concatenation is exactly that text): containers are walked and long
    lists encoded a slice at a time, so no single call keeps other sessions' threads waiting while a large chart
    is hashed."""
    if isinstance(value, dict) and any(isinstance(v, (dict, list)) for v in value.values()):
        yield "{"
        for n, (key, item) in enumerate(value.items()):
            name = json.dumps(key) if isinstance(key, str) else json.dumps({key: 0})[1:-4]  # json's own key text
            yield f"{', ' if n else ''}{name}: "
            yield from _json_pieces(item)
        yield "}"
    elif isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        yield "["
        for n, item in enumerate(value):
            if n:
                yield ", "
            yield from _json_pieces(item)
        yield "]"
    elif isinstance(value, list) and len(value) > _PIECE_ITEMS:
        yield "["
        for start in range(0, len(value), _PIECE_ITEMS):
            yield (", " if start else "") + json.dumps(value[start:start + _PIECE_ITEMS], allow_nan=True)[1:-1]
        yield "]"
    else:
        yield json.dumps(value, allow_nan=True)


def validate_figure(fig: object) -> dict:
    """The figure (``{"data", "layout"[, "frames"]}``) rebuilt from what may be drawn, read-only; UnsafeFigure
    otherwise.  A figure this function returned is returned as it is (it cannot have changed since)."""
    if type(fig) is SafeFigure:
        return fig
    if not isinstance(fig, dict):
        raise UnsafeFigure(f"a figure must be a JSON object, not {type(fig).__name__}")
    extra = set(fig) - TOP_LEVEL_KEYS
    if extra:
        raise UnsafeFigure(f"unexpected top-level figure keys: {sorted(map(str, extra))}")
    check_counts(fig)
    values = count_values(fig)
    hasher, size = hashlib.sha256(), 0
    try:  # a small chart in one call (a few ms); a large one in pieces
        for piece in _json_pieces(fig) if values > _PIECE_ITEMS else (json.dumps(fig, allow_nan=True),):
            size += len(piece)
            if size > MAX_FIGURE_BYTES:
                raise UnsafeFigure(f"figure is over {MAX_FIGURE_BYTES / 1e6:.0f} MB of JSON; the limit is "
                                   f"{MAX_FIGURE_BYTES / 1e6:.0f} MB")
            hasher.update(piece.encode())
    except (TypeError, ValueError, RecursionError) as exc:
        if isinstance(exc, UnsafeFigure):
            raise
        raise UnsafeFigure(f"figure is not plain JSON: {str(exc)[:200]}") from None
    digest = hasher.hexdigest()
    if digest in _VERDICTS:
        _VERDICTS.move_to_end(digest)
        verdict = _VERDICTS[digest][0]
    else:
        try:
            verdict = safe_figure(rebuilt_within_budget(fig))
        except UnsafeFigure as exc:
            verdict = str(exc)
        size = size if isinstance(verdict, dict) else 0
        _VERDICTS[digest] = (verdict, size)
        _held[0] += size
        while _VERDICTS and (len(_VERDICTS) > _MAX_VERDICTS or _held[0] > _MAX_VERDICT_BYTES):
            _held[0] -= _VERDICTS.popitem(last=False)[1][1]
    if isinstance(verdict, str):
        raise UnsafeFigure(verdict)
    return verdict
