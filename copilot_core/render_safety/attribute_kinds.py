"""One check per kind of plotly attribute (number, colour, enumeration, text, ...): the value kept, or refused."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from copilot_core.render_safety.chart_schema import IMAGE_ATTRS, Attr
from copilot_core.render_safety.chart_text import font_family, image_source, svg_path
from copilot_core.render_safety.figure_limits import MAX_ITEMS, Json, UnsafeFigure

if TYPE_CHECKING:
    from copilot_core.render_safety.figure_rebuild import Rebuild

_COLOR = re.compile(r"(?i)#[0-9a-f]{3,8}|(?:rgba?|hsla?|hsva?)\(\s*[-+0-9.%eE,\s]{1,80}\)|[a-z]{1,30}")
_COLORSCALE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,40}")
_DASH = re.compile(r"\d+(?:\.\d+)?(?:px|%)?(?:[,\s]+\d+(?:\.\d+)?(?:px|%)?){0,20}")


def _number(r: Rebuild, value: Json, attr: Attr, where: str) -> Json:
    def one(v: Json, w: str) -> Json:
        if v is None or isinstance(v, (int, float)) and not isinstance(v, bool):
            return v
        if attr.kind == "AngleValidator" and isinstance(v, str) and v == "auto":
            return v
        raise UnsafeFigure(f"{w}: expected a number")
    return r.array_ok(value, attr, where, one)


def _boolean(r: Rebuild, value: Json, attr: Attr, where: str) -> Json:
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


def _enumerated(r: Rebuild, value: Json, attr: Attr, where: str) -> Json:
    values = attr.params.get("values", [])

    def one(v: Json, w: str) -> Json:
        if v is None or _allowed_value(v, values) or attr.kind == "DashValidator" and isinstance(v, str) \
                and _DASH.fullmatch(v):
            return v
        shown = ", ".join(map(repr, values[:12])) + (", ..." if len(values) > 12 else "")
        raise UnsafeFigure(f"{w}: {str(v)[:40]!r} is not one of {shown}")
    return r.array_ok(value, attr, where, one)


def _flaglist(r: Rebuild, value: Json, attr: Attr, where: str) -> Json:
    flags, extras = set(attr.params.get("flags", [])), list(attr.params.get("extras", []))

    def one(v: Json, w: str) -> Json:
        if _allowed_value(v, extras) or isinstance(v, str) and v and set(v.split("+")) <= flags:
            return v
        raise UnsafeFigure(f"{w}: expected flags from {sorted(flags)} joined by '+', or one of {extras}")
    return r.array_ok(value, attr, where, one)


def _color(r: Rebuild, value: Json, attr: Attr, where: str) -> Json:
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


def _colorlist(r: Rebuild, value: Json, attr: Attr, where: str) -> Json:
    return [_color(r, v, Attr("ColorValidator", {}, attr.path), where) for v in r.items(value, where)]


def _colorscale(r: Rebuild, value: Json, attr: Attr, where: str) -> Json:
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


def _subplotid(r: Rebuild, value: Json, attr: Attr, where: str) -> Json:
    pattern = attr.params.get("regex") or f"/^{attr.params.get('dflt')}([2-9]|[1-9][0-9]+)?$/"
    if isinstance(value, str) and re.fullmatch(pattern.strip("/").strip("^$"), value):
        return value
    raise UnsafeFigure(f"{where}: {str(value)[:40]!r} is not a subplot name like {attr.params.get('dflt')!r}")


def _string(r: Rebuild, value: Json, attr: Attr, where: str) -> Json:
    if attr.path in IMAGE_ATTRS:
        return r.special(image_source, value, where)
    if attr.path.endswith(".family"):
        return r.array_ok(value, attr, where, lambda v, w: r.special(font_family, v, w))
    if attr.path.endswith(".path"):
        return r.array_ok(value, attr, where, lambda v, w: r.special(svg_path, v, w))
    return r.array_ok(value, attr, where, r.text)


def _info_array(r: Rebuild, value: Json, attr: Attr, where: str) -> Json:
    if not isinstance(value, list) or len(value) > MAX_ITEMS:
        raise UnsafeFigure(f"{where}: expected a short list of values")
    return [r.any(v, where) if isinstance(v, list) else r.text(v, where) for v in value]


def _compound(r: Rebuild, value: Json, attr: Attr, where: str) -> Json:
    if attr.kind == "TitleValidator" and isinstance(value, (str, int, float)):
        return {"text": r.text(value, where)}
    return r.compound(value, attr.path, where)


def _compound_array(r: Rebuild, value: Json, attr: Attr, where: str) -> Json:
    return [r.compound(item, attr.path, f"{where}[{i}]") for i, item in enumerate(r.items(value, where))]


KINDS: dict[str, Callable[[Rebuild, Json, Attr, str], Json]] = {
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
