"""The chart check as it was before the allowlist (a scan for bad words, then go.Figure), kept only so
bench/render_safety.py can measure both side by side in one run.

A figure is a zero-click exfiltration channel: the viewer's browser fetches ``layout.images[].source``
and follows links in hover text.  So a figure must be a valid ``go.Figure`` *and* carry no external
URL, ``javascript:``, link or markup that loads something; images are accepted as ``data:image`` only.
Charts come from tools, the sandbox, the model and stored chats; each distinct chart is validated once
(a digest of its JSON is remembered), so Streamlit's reruns of a long chat redraw without re-walking.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import OrderedDict
from typing import Any

import plotly.graph_objects as go

from copilot_core.errors import CopilotError

MAX_FIGURE_BYTES = 5_000_000
MAX_NODES = 2_000_000
MAX_DEPTH = 40
TOP_LEVEL_KEYS = frozenset({"data", "layout", "frames"})
IMAGE_KEYS = frozenset({"source"})  # layout.images[].source and go.Image.source
SAFE_IMAGE_PREFIXES = ("data:image/png;", "data:image/jpeg;", "data:image/jpg;", "data:image/gif;",
                       "data:image/webp;")
# Compared after lower-casing and removing whitespace/control characters (``java\tscript:``).
FORBIDDEN_FRAGMENTS = ("://", "javascript:", "vbscript:", "href", "src=", "<a", "<img", "<iframe", "<script",
                       "<svg", "<link", "<object", "<embed", "url(", "@import", "srcset", "xlink:")
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_INVISIBLE = re.compile(r"[\s\x00-\x1f\x7f\u200b-\u200f\u2028\u2029\ufeff]+")


class UnsafeFigure(CopilotError, ValueError):
    """The figure is invalid or could make the viewer's browser load or open something."""


def _check_string(text: str, path: str, image: bool) -> None:
    folded = _INVISIBLE.sub("", text).lower()
    if image:
        if not folded.startswith(SAFE_IMAGE_PREFIXES):
            raise UnsafeFigure(f"{path}: images must be embedded data:image/... URIs, not links")
        return
    for fragment in FORBIDDEN_FRAGMENTS:
        if fragment in folded:
            raise UnsafeFigure(f"{path}: text containing {fragment!r} is not allowed in a chart "
                               "(no links, URLs or embedded markup)")
    if folded.startswith("//"):
        raise UnsafeFigure(f"{path}: protocol-relative URLs are not allowed in a chart")


def _walk(node: Any, path: str, depth: int, budget: list[int], image: bool = False) -> None:
    budget[0] -= 1
    if budget[0] < 0:
        raise UnsafeFigure("figure has too many elements")
    if depth > MAX_DEPTH:
        raise UnsafeFigure(f"{path}: figure is nested too deeply")
    if isinstance(node, str):
        _check_string(node, path, image)
    elif isinstance(node, dict):
        for key, value in node.items():
            if not isinstance(key, str) or "__" in key:
                raise UnsafeFigure(f"{path}: key {key!r} is not allowed")
            _check_string(key, f"{path}.<key>", False)
            if key == "bdata":  # typed array payload: plain base64 cannot carry a URL or markup
                if not isinstance(value, str) or not _BASE64.fullmatch(value):
                    raise UnsafeFigure(f"{path}.bdata: typed-array data must be base64")
                continue
            _walk(value, f"{path}.{key}", depth + 1, budget, image=key in IMAGE_KEYS)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            _walk(value, f"{path}[{i}]", depth + 1, budget, image)
    elif node is not None and not isinstance(node, (bool, int, float)):
        raise UnsafeFigure(f"{path}: {type(node).__name__} values are not allowed in figure JSON")


_VERDICTS: OrderedDict[str, str | None] = OrderedDict()  # sha256 of figure JSON -> None (safe) or why not
_MAX_VERDICTS = 512


def _clean(fig: dict) -> dict:
    clean = {"data": fig.get("data") or [], "layout": fig.get("layout") or {}}
    if fig.get("frames"):
        clean["frames"] = fig["frames"]
    return clean


def validate_figure(fig: object) -> dict:
    """The figure (``{"data", "layout"[, "frames"]}``) if safe to render; raises UnsafeFigure otherwise."""
    if not isinstance(fig, dict):
        raise UnsafeFigure(f"a figure must be a JSON object, not {type(fig).__name__}")
    extra = set(fig) - TOP_LEVEL_KEYS
    if extra:
        raise UnsafeFigure(f"unexpected top-level figure keys: {sorted(map(str, extra))}")
    try:
        text = json.dumps(fig, allow_nan=True)
    except (TypeError, ValueError, RecursionError) as exc:
        raise UnsafeFigure(f"figure is not plain JSON: {str(exc)[:200]}") from None
    if len(text) > MAX_FIGURE_BYTES:
        raise UnsafeFigure(f"figure is {len(text) / 1e6:.1f} MB; the limit is {MAX_FIGURE_BYTES / 1e6:.0f} MB")
    digest = hashlib.sha256(text.encode()).hexdigest()
    if digest in _VERDICTS:
        _VERDICTS.move_to_end(digest)
        verdict = _VERDICTS[digest]
    else:
        try:
            _walk(fig, "figure", 0, [MAX_NODES])
            _plotly_validate(_clean(fig))
            verdict = None
        except UnsafeFigure as exc:
            verdict = str(exc)
        _VERDICTS[digest] = verdict
        if len(_VERDICTS) > _MAX_VERDICTS:
            _VERDICTS.popitem(last=False)
    if verdict is not None:
        raise UnsafeFigure(verdict)
    return _clean(fig)


_VALIDATED_TEMPLATES: dict[str, bool] = {}  # sha256 of template JSON -> go.Figure accepted it
_MAX_TEMPLATES = 32


def _plotly_validate(clean: dict) -> None:
    """``go.Figure`` validation; an identical ``layout.template`` seen before is not re-validated.

    px puts the same ~10 KB template in every figure and validating it is ~90% of the cost; the
    string/key walk above still checks it every time.
    """
    layout = clean["layout"]
    template = layout.get("template") if isinstance(layout, dict) else None
    key = None
    if template is not None:
        key = hashlib.sha256(json.dumps(template, sort_keys=True).encode()).hexdigest()
        if key in _VALIDATED_TEMPLATES:
            clean = {**clean, "layout": {k: v for k, v in layout.items() if k != "template"}}
    try:
        go.Figure(clean, skip_invalid=False)
    except Exception as exc:  # noqa: BLE001  (plotly raises ValueError/TypeError/KeyError subclasses for bad specs)
        raise UnsafeFigure(f"not a valid plotly figure: {str(exc)[:500]}") from None
    if key is not None and key not in _VALIDATED_TEMPLATES:
        if len(_VALIDATED_TEMPLATES) >= _MAX_TEMPLATES:
            _VALIDATED_TEMPLATES.clear()
        _VALIDATED_TEMPLATES[key] = True
