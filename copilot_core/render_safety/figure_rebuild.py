"""A figure rebuilt trace by trace and attribute by attribute from what plotly's schema allows a chart to draw."""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable

from copilot_core.render_safety.attribute_kinds import KINDS
from copilot_core.render_safety.chart_schema import (
    ARGS_ATTRS,
    MAP_LAYOUT_KEYS,
    MAP_TRACES,
    TRACE_TYPES,
    Attr,
    layout_key,
    schema,
)
from copilot_core.render_safety.chart_text import ChartTextError, chart_text
from copilot_core.render_safety.data_arrays import ChartTooCostly, typed_count, typed_dims
from copilot_core.render_safety.figure_limits import MAX_ITEMS, TYPED_DTYPES, Json, UnsafeFigure
from copilot_core.render_safety.frozen import freeze

_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_SHAPE = re.compile(r"\d{1,7}(?:,\s*\d{1,7}){0,3}")
_ATTR_PATH = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)((?:\[\d{1,4}\])?)")
_METHODS = frozenset({"restyle", "relayout", "update", "animate", "skip"})
_ANIMATION_KEYS = {"frame": {"duration": "number", "redraw": "bool"},
                   "transition": {"duration": "number", "easing": "word", "ordering": "word"},
                   "mode": "word", "fromcurrent": "bool", "direction": "word"}
_WORD = re.compile(r"[a-z][a-z\- ]{0,30}")

TEMPLATES: dict[str, dict] = {}  # sha256 of template JSON -> the rebuilt template (px repeats one ~10 KB template)
MAX_TEMPLATES = 32


class Rebuild:
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
        if (known := TEMPLATES.get(key)) is not None:
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
        if len(TEMPLATES) >= MAX_TEMPLATES:
            TEMPLATES.clear()
        TEMPLATES[key] = frozen = freeze(out)  # shared by every figure that repeats it, so read-only
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
        check = KINDS.get(attr.kind)
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
