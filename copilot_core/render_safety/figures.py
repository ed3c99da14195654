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
import math
import re
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

from copilot_core.errors import CopilotError
from copilot_core.render_safety.chart_schema import (
    ARGS_ATTRS,
    IMAGE_ATTRS,
    MAP_LAYOUT_KEYS,
    MAP_TRACES,
    TRACE_TYPES,
    Attr,
    layout_key,
    schema,
)
from copilot_core.render_safety.chart_cost import (
    ChartTooCostly,
    Cost,
    check,
    check_drawn,
    figure_cost,
    first_draw_cost,
    gl_as_svg,
    typed_count,
    typed_dims,
    webgl_cost,
)
from copilot_core.render_safety.chart_text import ChartTextError, chart_text, font_family, image_source, svg_path
from copilot_core.render_safety.frozen import SafeFigure, freeze, safe_figure

MAX_FIGURE_BYTES = 5_000_000
MAX_NODES = 400_000  # JSON values in the whole figure
MAX_DEPTH = 24
MAX_TRACES = 200
MAX_FRAMES = 100
MAX_ITEMS = 500  # annotations, shapes, images, menu buttons, slider steps, ...: each list
TOP_LEVEL_KEYS = frozenset({"data", "layout", "frames"})
TYPED_DTYPES = frozenset({"i1", "u1", "i2", "u2", "i4", "u4", "f4", "f8", "u1c"})
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_SHAPE = re.compile(r"\d{1,7}(?:,\s*\d{1,7}){0,3}")
_COLOR = re.compile(r"(?i)#[0-9a-f]{3,8}|(?:rgba?|hsla?|hsva?)\(\s*[-+0-9.%eE,\s]{1,80}\)|[a-z]{1,30}")
_COLORSCALE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,40}")
_DASH = re.compile(r"\d+(?:\.\d+)?(?:px|%)?(?:[,\s]+\d+(?:\.\d+)?(?:px|%)?){0,20}")
_ATTR_PATH = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)((?:\[\d{1,4}\])?)")
_METHODS = frozenset({"restyle", "relayout", "update", "animate", "skip"})
_ANIMATION_KEYS = {"frame": {"duration": "number", "redraw": "bool"},
                   "transition": {"duration": "number", "easing": "word", "ordering": "word"},
                   "mode": "word", "fromcurrent": "bool", "direction": "word"}
_WORD = re.compile(r"[a-z][a-z\- ]{0,30}")

Json = Any  # a JSON value: the figure's own data, checked here piece by piece


class UnsafeFigure(CopilotError, ValueError):
    """The figure is invalid or could make the viewer's browser load or open something."""


def _count(fig: dict) -> int:
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


def _caps(fig: dict) -> None:
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


class _Rebuild:
    """One figure's rebuild: knows its trace types (for updatemenu restyles) and remembers templates."""

    def __init__(self, trace_types: list[str]) -> None:
        self.trace_types = trace_types
        self.attrs = schema().attrs
        self.tags = 0  # markup tags kept in the chart's text (its line breaks and style tags cost drawing)

    # ---------------------------------------------------------------- figure parts
    def figure(self, fig: dict) -> dict:
        data = fig.get("data") or []
        layout = fig.get("layout") or {}
        if not isinstance(data, list):
            raise UnsafeFigure("figure.data must be a list of traces")
        out: dict = {"data": [self.trace(t, f"data[{i}]") for i, t in enumerate(data)],
                     "layout": self.layout(layout, "layout")}
        frames = fig.get("frames")
        if frames:
            if not isinstance(frames, list):
                raise UnsafeFigure("figure.frames must be a list")
            out["frames"] = [self.frame(f, f"frames[{i}]") for i, f in enumerate(frames)]
        return out

    def trace(self, trace: Json, where: str, default_type: str = "scatter", template: bool = False) -> dict:
        if not isinstance(trace, dict):
            raise UnsafeFigure(f"{where}: a trace must be an object")
        kind = trace.get("type", default_type)
        if kind in MAP_TRACES:
            raise UnsafeFigure(f"{where}: {kind} traces are not drawn (plotly.js loads their maps from the "
                               "internet); plot longitude/latitude with a scatter trace instead")
        if kind not in TRACE_TYPES:
            raise UnsafeFigure(f"{where}: trace type {kind!r} is not allowed; use one of "
                               f"{', '.join(sorted(TRACE_TYPES))}")
        body = {k: v for k, v in trace.items() if k != "type"}
        out = self.compound(body, kind, where)
        return out if template and "type" not in trace else {"type": kind, **out}

    def layout(self, layout: Json, where: str, template: bool = False) -> dict:
        if not isinstance(layout, dict):
            raise UnsafeFigure(f"{where} must be an object")
        out: dict = {}
        children = self.attrs["layout"]
        for key, value in layout.items():
            name = layout_key(key) if isinstance(key, str) else None
            if name is None:
                if template:  # a template styles every kind of chart; what this one cannot draw is dropped
                    continue
                if key in MAP_LAYOUT_KEYS:
                    raise UnsafeFigure(f"{where}.{key}: maps are not drawn (plotly.js loads their styles and "
                                       "tiles from the internet)")
                raise UnsafeFigure(f"{where}.{key}: not a layout key charts may set")
            attr = children[name]
            if attr.kind == "BaseTemplateValidator":
                out[key] = self.template(value, f"{where}.{key}")
            else:
                out[key] = self.value(value, attr, f"{where}.{key}")
        return out

    def frame(self, frame: Json, where: str) -> dict:
        if not isinstance(frame, dict):
            raise UnsafeFigure(f"{where}: a frame must be an object")
        out: dict = {}
        for key, value in frame.items():
            if key in ("name", "group", "baseframe"):
                out[key] = self.text(value, f"{where}.{key}")
            elif key == "traces":
                out[key] = self.indices(value, f"{where}.traces")
            elif key == "layout":
                out[key] = self.layout(value, f"{where}.layout")
            elif key == "data":
                if not isinstance(value, list):
                    raise UnsafeFigure(f"{where}.data must be a list of traces")
                listed = frame.get("traces")
                targets: list = listed if isinstance(listed, list) else list(range(len(value)))
                out[key] = [self.trace(t, f"{where}.data[{i}]", self.type_of(targets, i))
                            for i, t in enumerate(value)]
            else:
                raise UnsafeFigure(f"{where}.{key}: not a frame key")
        return out

    def type_of(self, targets: list, i: int) -> str:
        index = targets[i] if i < len(targets) else i
        if isinstance(index, int) and 0 <= index < len(self.trace_types):
            return self.trace_types[index]
        return "scatter"

    def template(self, template: Json, where: str) -> dict:
        if not isinstance(template, dict):
            raise UnsafeFigure(f"{where}: a template must be an object")
        key = hashlib.sha256(json.dumps(template, sort_keys=True).encode()).hexdigest()
        if (known := _TEMPLATES.get(key)) is not None:
            return known
        out: dict = {}
        for part, value in template.items():
            if part == "layout":
                out["layout"] = self.layout(value, f"{where}.layout", template=True)
            elif part == "data":
                if not isinstance(value, dict):
                    raise UnsafeFigure(f"{where}.data must map trace types to lists of traces")
                out["data"] = {kind: [self.trace(t, f"{where}.data.{kind}[{i}]", kind, template=True)
                                      for i, t in enumerate(self.items(traces, f"{where}.data.{kind}"))]
                               for kind, traces in value.items() if kind in TRACE_TYPES}
            else:
                raise UnsafeFigure(f"{where}.{part}: a template holds only data and layout")
        if len(_TEMPLATES) >= _MAX_TEMPLATES:
            _TEMPLATES.clear()
        _TEMPLATES[key] = frozen = freeze(out)  # shared by every figure that repeats it, so read-only
        return frozen

    # ---------------------------------------------------------------- attribute values
    def compound(self, value: Json, path: str, where: str) -> dict:
        if not isinstance(value, dict):
            raise UnsafeFigure(f"{where} must be an object")
        children = self.attrs.get(path, {})
        out: dict = {}
        method = value.get("method", "restyle") if path in ("layout.updatemenu.button", "layout.slider.step") \
            else None
        for key, item in value.items():
            attr = children.get(key) if isinstance(key, str) else None
            if attr is None:
                raise UnsafeFigure(f"{where}.{key}: not an attribute charts may set here")
            if attr.path in ARGS_ATTRS:
                out[key] = self.args(item, str(method), f"{where}.{key}")
            else:
                out[key] = self.value(item, attr, f"{where}.{key}")
        return out

    def value(self, value: Json, attr: Attr, where: str) -> Json:
        if value is None:
            return None
        check = _KINDS.get(attr.kind)
        if check is None:
            raise UnsafeFigure(f"{where}: this attribute is not allowed in a chart")
        return check(self, value, attr, where)

    def items(self, value: Json, where: str) -> list:
        if not isinstance(value, list):
            raise UnsafeFigure(f"{where} must be a list")
        if len(value) > MAX_ITEMS:
            raise UnsafeFigure(f"{where} has {len(value)} entries; the limit is {MAX_ITEMS}")
        return value

    def text(self, value: Json, where: str) -> Json:
        if isinstance(value, str):
            try:
                text = chart_text(value, where)
            except ChartTextError as exc:
                raise UnsafeFigure(str(exc)) from None
            if "<" in text:
                self.tags += text.count("<")
            return text
        if isinstance(value, bool) or isinstance(value, (int, float)) and math.isfinite(value) or value is None:
            return value
        raise UnsafeFigure(f"{where}: expected text or a number, not {type(value).__name__}")

    def special(self, check: Callable[[str, str], str], value: Json, where: str) -> str:
        if not isinstance(value, str):
            raise UnsafeFigure(f"{where}: expected a string")
        try:
            return check(value, where)
        except ChartTextError as exc:
            raise UnsafeFigure(str(exc)) from None

    def array_ok(self, value: Json, attr: Attr, where: str, one: Callable[[Json, str], Json]) -> Json:
        if isinstance(value, list):
            if not attr.params.get("array_ok"):
                raise UnsafeFigure(f"{where}: expected a single value, not a list")
            return [one(v, where) for v in value]
        if isinstance(value, dict) and attr.params.get("array_ok"):
            return self.typed(value, where)
        return one(value, where)

    def typed(self, value: dict, where: str) -> dict:
        """A typed array (``{"dtype", "bdata"[, "shape"]}``): base64 numbers, no text at all."""
        if set(value) - {"dtype", "bdata", "shape"} or value.get("dtype") not in TYPED_DTYPES \
                or not isinstance(value.get("bdata"), str) or not _BASE64.fullmatch(value["bdata"]) \
                or "shape" in value and not (isinstance(value["shape"], str) and _SHAPE.fullmatch(value["shape"])):
            raise UnsafeFigure(f"{where}: typed-array data must be {{dtype, bdata (base64), shape}}")
        try:
            typed_count(value)  # its declared shape must match its data
        except ChartTooCostly as exc:
            raise UnsafeFigure(f"{where}: {exc}") from None
        dims = typed_dims(value)
        if dims > 2 and not (dims == 3 and where.endswith(".z") and str(value["shape"]).split(",")[-1].strip()
                             in ("3", "4")):
            raise UnsafeFigure(f"{where}: typed arrays may have one or two dimensions (an image's z: height, "
                               f"width, 3 or 4 channels), not shape {value['shape']}")
        return dict(value)

    def data_array(self, value: Json, where: str, depth: int = 0) -> Json:
        if isinstance(value, dict):
            return self.typed(value, where)
        if not isinstance(value, list):
            raise UnsafeFigure(f"{where}: expected a list of values")
        if all(type(v) in (int, float) for v in value):
            return list(value)
        out = []
        for v in value:
            if isinstance(v, (list, dict)):
                if depth >= 3:
                    raise UnsafeFigure(f"{where}: data nested too deeply")
                out.append(self.data_array(v, where, depth + 1))
            else:
                out.append(self.text(v, where))
        return out

    def any(self, value: Json, where: str, depth: int = 0) -> Json:
        if depth > 6:
            raise UnsafeFigure(f"{where}: nested too deeply")
        if isinstance(value, list):
            return [self.any(v, where, depth + 1) for v in value]
        if isinstance(value, dict):
            return {self.text(str(k), f"{where}.<key>"): self.any(v, f"{where}.{k}", depth + 1)
                    for k, v in value.items()}
        return self.text(value, where)

    def indices(self, value: Json, where: str) -> Json:
        if isinstance(value, bool) or not (isinstance(value, int) or isinstance(value, list)
                                           and all(isinstance(i, int) and not isinstance(i, bool) for i in value)):
            raise UnsafeFigure(f"{where}: trace indices must be integers")
        return value

    # ---------------------------------------------------------------- updatemenus and sliders
    def args(self, value: Json, method: str, where: str) -> Json:
        """Button/step ``args``: only attribute changes the same rules allow (no image source, no markup)."""
        if method not in _METHODS:
            raise UnsafeFigure(f"{where}: method {method!r} is not one of {sorted(_METHODS)}")
        if not isinstance(value, list) or len(value) > 3:
            raise UnsafeFigure(f"{where}: args must be a list of at most 3 entries")
        if method == "skip":
            return []
        if method == "animate":
            names = value[0] if value else None
            out: list = [None if names is None else
                         [self.text(n, f"{where}[0]") for n in self.items(names, f"{where}[0]")]
                         if isinstance(names, list) else self.text(names, f"{where}[0]")]
            if len(value) > 1:
                out.append(self.animation(value[1], f"{where}[1]"))
            return out
        if method in ("restyle", "relayout") and value and isinstance(value[0], str):  # the (name, value) form
            if len(value) < 2:
                raise UnsafeFigure(f"{where}: an attribute name needs its value")
            target = "layout" if method == "relayout" else "trace"
            named = [value[0], self.changes({value[0]: value[1]}, target, f"{where}[0]")[value[0]]]
            return named + ([self.indices(value[2], f"{where}[2]")] if method == "restyle" and len(value) > 2 else [])
        if method == "relayout":
            return [self.changes(value[0], "layout", f"{where}[0]")] if value else []
        out = [self.changes(value[0], "trace", f"{where}[0]")] if value else []
        rest = value[1:]
        if method == "update" and rest:
            out.append(self.changes(rest[0], "layout", f"{where}[1]"))
            rest = rest[1:]
        out += [self.indices(i, f"{where}[{len(out)}]") for i in rest]
        return out

    def changes(self, value: Json, target: str, where: str) -> dict:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise UnsafeFigure(f"{where}: expected an object of attribute changes")
        out: dict = {}
        for key, change in value.items():
            spot = f"{where}[{key!r}]"
            if not isinstance(key, str):
                raise UnsafeFigure(f"{spot}: attribute names must be strings")
            if target == "layout":
                out[key] = self.change(key, "layout", change, spot)
                continue
            kinds = sorted(set(self.trace_types)) or ["scatter"]
            for kind in kinds:  # a restyle may reach every trace: it must be allowed for each of them
                rebuilt = ([self.change(key, kind, c, spot) for c in change] if isinstance(change, list)
                           else self.change(key, kind, change, spot))
            out[key] = rebuilt
        return out

    def change(self, dotted: str, root: str, value: Json, where: str) -> Json:
        """``value`` for the attribute at ``dotted`` (``marker.color``, ``images[0].source``, ``xaxis2.range``)."""
        path, attr, indexed = root, None, False
        for n, part in enumerate(dotted.split(".")):
            found = _ATTR_PATH.fullmatch(part)
            if not found or indexed:
                raise UnsafeFigure(f"{where}: {dotted!r} is not an attribute charts may change")
            name = found.group(1)
            if path == "layout":
                if n == 0 and name in ("template",) or layout_key(name) is None:
                    raise UnsafeFigure(f"{where}: {dotted!r} is not an attribute charts may change")
                name = layout_key(name) or name
            if n == 0 and root != "layout" and name == "type":
                raise UnsafeFigure(f"{where}: a button may not change a trace's type")
            attr = self.attrs.get(path, {}).get(name)
            if attr is None:
                raise UnsafeFigure(f"{where}: {dotted!r} is not an attribute charts may change")
            if found.group(2):
                if attr.kind == "CompoundArrayValidator":
                    attr = Attr("CompoundValidator", {}, attr.path)
                elif attr.kind in ("InfoArrayValidator", "DataArrayValidator"):
                    indexed = True
                    attr = Attr("AnyValidator", {}, attr.path)
                else:
                    raise UnsafeFigure(f"{where}: {dotted!r} is not an attribute charts may change")
            path = attr.path
        if attr is None:
            raise UnsafeFigure(f"{where}: empty attribute name")
        if attr.kind == "CompoundValidator" or attr.kind == "TitleValidator" and isinstance(value, dict):
            return self.compound(value, attr.path, where)
        if attr.path in ARGS_ATTRS:
            raise UnsafeFigure(f"{where}: a button may not rewrite other buttons")
        return self.value(value, attr, where)

    def animation(self, value: Json, where: str, spec: dict | None = None) -> dict:
        spec = spec or _ANIMATION_KEYS
        if not isinstance(value, dict):
            raise UnsafeFigure(f"{where}: animation options must be an object")
        out: dict = {}
        for key, item in value.items():
            rule = spec.get(key)
            if isinstance(rule, dict):
                out[key] = self.animation(item, f"{where}.{key}", rule)
            elif rule == "number" and isinstance(item, (int, float)) and not isinstance(item, bool):
                out[key] = item
            elif rule == "bool" and isinstance(item, bool):
                out[key] = item
            elif rule == "word" and isinstance(item, str) and _WORD.fullmatch(item):
                out[key] = item
            else:
                raise UnsafeFigure(f"{where}.{key}: not an animation option charts may set")
        return out


# ---------------------------------------------------------------- one check per kind of attribute
def _number(r: _Rebuild, value: Json, attr: Attr, where: str) -> Json:
    def one(v: Json, w: str) -> Json:
        if v is None or isinstance(v, (int, float)) and not isinstance(v, bool):
            return v
        if attr.kind == "AngleValidator" and isinstance(v, str) and v == "auto":
            return v
        raise UnsafeFigure(f"{w}: expected a number")
    return r.array_ok(value, attr, where, one)


def _boolean(r: _Rebuild, value: Json, attr: Attr, where: str) -> Json:
    if not isinstance(value, bool):
        raise UnsafeFigure(f"{where}: expected true or false")
    return value


def _allowed_value(v: Json, values: list) -> bool:
    for allowed in values:
        if isinstance(allowed, str) and len(allowed) > 2 and allowed.startswith("/") and allowed.endswith("/"):
            if isinstance(v, str) and re.fullmatch(allowed[1:-1], v):
                return True
        elif v == allowed and type(v) is type(allowed):
            return True
    return False


def _enumerated(r: _Rebuild, value: Json, attr: Attr, where: str) -> Json:
    values = attr.params.get("values", [])

    def one(v: Json, w: str) -> Json:
        if v is None or _allowed_value(v, values) or attr.kind == "DashValidator" and isinstance(v, str) \
                and _DASH.fullmatch(v):
            return v
        shown = ", ".join(map(repr, values[:12])) + (", ..." if len(values) > 12 else "")
        raise UnsafeFigure(f"{w}: {str(v)[:40]!r} is not one of {shown}")
    return r.array_ok(value, attr, where, one)


def _flaglist(r: _Rebuild, value: Json, attr: Attr, where: str) -> Json:
    flags, extras = set(attr.params.get("flags", [])), list(attr.params.get("extras", []))

    def one(v: Json, w: str) -> Json:
        if _allowed_value(v, extras) or isinstance(v, str) and v and set(v.split("+")) <= flags:
            return v
        raise UnsafeFigure(f"{w}: expected flags from {sorted(flags)} joined by '+', or one of {extras}")
    return r.array_ok(value, attr, where, one)


def _color(r: _Rebuild, value: Json, attr: Attr, where: str) -> Json:
    numeric = bool(attr.params.get("colorscale_path"))

    def one(v: Json, w: str) -> Json:
        if isinstance(v, str) and _COLOR.fullmatch(v.strip()):
            return v
        if numeric and (v is None or isinstance(v, (int, float)) and not isinstance(v, bool)):
            return v
        raise UnsafeFigure(f"{w}: expected a colour (#hex, rgb(), rgba(), hsl() or a CSS colour name)")
    if isinstance(value, list) and attr.params.get("array_ok"):
        if all(type(v) in (int, float) for v in value) and numeric:
            return list(value)
        return [one(v, where) for v in value]
    return r.array_ok(value, attr, where, one)


def _colorlist(r: _Rebuild, value: Json, attr: Attr, where: str) -> Json:
    return [_color(r, v, Attr("ColorValidator", {}, attr.path), where) for v in r.items(value, where)]


def _colorscale(r: _Rebuild, value: Json, attr: Attr, where: str) -> Json:
    if isinstance(value, str) and _COLORSCALE_NAME.fullmatch(value):
        return value
    plain = Attr("ColorValidator", {}, attr.path)
    out = []
    for entry in r.items(value, where):
        if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], (int, float)):
            out.append([entry[0], _color(r, entry[1], plain, where)])
        else:
            out.append(_color(r, entry, plain, where))
    return out


def _subplotid(r: _Rebuild, value: Json, attr: Attr, where: str) -> Json:
    pattern = attr.params.get("regex") or f"/^{attr.params.get('dflt')}([2-9]|[1-9][0-9]+)?$/"
    if isinstance(value, str) and re.fullmatch(pattern.strip("/").strip("^$"), value):
        return value
    raise UnsafeFigure(f"{where}: {str(value)[:40]!r} is not a subplot name like {attr.params.get('dflt')!r}")


def _string(r: _Rebuild, value: Json, attr: Attr, where: str) -> Json:
    if attr.path in IMAGE_ATTRS:
        return r.special(image_source, value, where)
    if attr.path.endswith(".family"):
        return r.array_ok(value, attr, where, lambda v, w: r.special(font_family, v, w))
    if attr.path.endswith(".path"):
        return r.array_ok(value, attr, where, lambda v, w: r.special(svg_path, v, w))
    return r.array_ok(value, attr, where, r.text)


def _info_array(r: _Rebuild, value: Json, attr: Attr, where: str) -> Json:
    if not isinstance(value, list) or len(value) > MAX_ITEMS:
        raise UnsafeFigure(f"{where}: expected a short list of values")
    return [r.any(v, where) if isinstance(v, list) else r.text(v, where) for v in value]


def _compound(r: _Rebuild, value: Json, attr: Attr, where: str) -> Json:
    if attr.kind == "TitleValidator" and isinstance(value, (str, int, float)):
        return {"text": r.text(value, where)}
    return r.compound(value, attr.path, where)


def _compound_array(r: _Rebuild, value: Json, attr: Attr, where: str) -> Json:
    return [r.compound(item, attr.path, f"{where}[{i}]") for i, item in enumerate(r.items(value, where))]


_KINDS: dict[str, Callable[[_Rebuild, Json, Attr, str], Json]] = {
    "NumberValidator": _number, "IntegerValidator": _number, "AngleValidator": _number,
    "BooleanValidator": _boolean, "EnumeratedValidator": _enumerated, "DashValidator": _enumerated,
    "FlaglistValidator": _flaglist, "ColorValidator": _color, "ColorlistValidator": _colorlist,
    "ColorscaleValidator": _colorscale, "SubplotidValidator": _subplotid, "StringValidator": _string,
    "ImageUriValidator": lambda r, v, a, w: r.special(image_source, v, w),
    "DataArrayValidator": lambda r, v, a, w: r.data_array(v, w),
    "AnyValidator": lambda r, v, a, w: r.any(v, w),
    "InfoArrayValidator": _info_array, "CompoundValidator": _compound, "TitleValidator": _compound,
    "CompoundArrayValidator": _compound_array,
}

_TEMPLATES: dict[str, dict] = {}  # sha256 of template JSON -> the rebuilt template (px repeats one ~10 KB template)
_MAX_TEMPLATES = 32
# sha256 of figure JSON -> (rebuilt figure or why not, JSON size); bounded in count and in the JSON it holds
_VERDICTS: OrderedDict[str, tuple[SafeFigure | str, int]] = OrderedDict()
_MAX_VERDICTS = 512
_MAX_VERDICT_BYTES = 20_000_000
_held = [0]  # JSON bytes of the rebuilt figures in _VERDICTS


def forget() -> None:
    """Drop every remembered chart and template (benchmarks measure first sight with it)."""
    _VERDICTS.clear()
    _TEMPLATES.clear()
    _held[0] = 0


def _rebuilt(fig: dict) -> dict:
    """The rebuilt figure, refused when drawing it would cost a browser more than ``chart_cost``'s budgets.  WebGL
    traces are drawn as SVG lines or markers when that chart is within the budgets, or costs less than WebGL
    (a figure accepted as WebGL is then drawn faster); a value scatter does not take keeps them WebGL."""
    as_svg = gl_as_svg(fig)
    if as_svg is None:
        out, cost = _priced(fig)
        _drawn_within(webgl_cost(out, cost), out)
        return out
    svg: dict = {}
    svg_cost: Cost | None = None
    try:
        svg, tags = _rebuild(as_svg)
        svg_cost = first_draw_cost(svg, tags)
        check(svg_cost, "the chart")
        return svg
    except (UnsafeFigure, ChartTooCostly):
        pass  # a value scatter does not take (svg_cost None), or over a budget as SVG
    webgl, cost = _priced(fig)
    gl = webgl_cost(webgl, cost)
    chosen, price = (svg, svg_cost.svg) if svg_cost is not None and svg_cost.svg <= gl else (webgl, gl)
    _drawn_within(price, chosen)
    return chosen


def _drawn_within(price: float, fig: dict) -> None:
    try:
        check_drawn(price, fig)
    except ChartTooCostly as exc:
        raise UnsafeFigure(str(exc)) from None


def _rebuild(fig: dict) -> tuple[dict, int]:
    """The figure rebuilt from what may be drawn, and the markup tags its text keeps."""
    data = fig.get("data") or []
    types = [t.get("type", "scatter") if isinstance(t, dict) else "" for t in data] if isinstance(data, list) else []
    rebuild = _Rebuild([str(t) for t in types])
    return rebuild.figure(fig), rebuild.tags


def _priced(fig: dict) -> tuple[dict, Cost]:
    out, tags = _rebuild(fig)
    try:
        return out, figure_cost(out, tags)
    except ChartTooCostly as exc:
        raise UnsafeFigure(str(exc)) from None


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
    _caps(fig)
    values = _count(fig)
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
            verdict = safe_figure(_rebuilt(fig))
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
