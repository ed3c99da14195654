"""Model-written arguments -> validated keyword arguments, or a ToolError the model can act on.

Models send "Q05" for "5", 5 for "5", "10" for 10 and occasionally a dict where an id belongs.
Harmless spellings are normalised first; then the tool's JSON schema (types, patterns, bounds,
unknown keys) is enforced by ``jsonschema`` and defaults are filled in.
"""

from __future__ import annotations

import json
import re

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from copilot_core.domain.topology import parse_qubit_ref
from copilot_core.tools.compact import clean_text
from copilot_core.tools.spec import SESSION, ToolError, ToolSpec

_QUBIT_KEYS = ("qid", "qubit_id")
_QUBIT_LIST_KEYS = ("qids",)
_NAME_KEYS = ("parameter_name", "metric_name")
# A qubit written with its chip, as small models do when they are not sent chip_id: "64Qv3-Q05", "64Qv3:5".
_QUBIT_REF = re.compile(r"[Qq]?[0-9]+")
_CHIP_QUBIT = re.compile(r"(?P<chip>[A-Za-z0-9][A-Za-z0-9_\-]*?)[\s:/@\-]+(?P<qubit>[Qq]?[0-9]{1,5})")
# A coupling written with its chip or with Q's: "144Qv2-1-144Qv2-2", "64Qv3:Q4-Q5", "Q4-Q5".
_CHIP_COUPLING = re.compile(r"(?:(?P<chip>[A-Za-z0-9_]+)[\s:/@\-]+)?[Qq]?(?P<a>[0-9]{1,5})\s*-\s*"
                            r"(?:(?P=chip)[\s:/@\-]+)?[Qq]?(?P<b>[0-9]{1,5})")
_VALIDATORS: dict[str, Draft202012Validator] = {}


def parse_raw(raw: str | dict | None) -> dict:
    """The arguments object; a ToolError when the model sent malformed JSON or not an object."""
    if raw is None or raw == "":
        return {}
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ToolError(f"arguments are not valid JSON ({exc.msg} at char {exc.pos})",
                            "send the arguments as one JSON object, e.g. {\"chip_id\": \"64Qv3\"}", kind="call") from None
    if not isinstance(raw, dict):
        raise ToolError(f"arguments must be a JSON object, not {type(raw).__name__}",
                        "send the arguments as one JSON object, e.g. {\"chip_id\": \"64Qv3\"}", kind="call")
    return dict(raw)


def _qubit(value: object) -> object:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and "-" not in value:
        try:
            return parse_qubit_ref(value)
        except ValueError:
            return value  # the schema pattern reports it
    return value


def split_chip_prefix(args: dict) -> dict:
    """``{"qid": "64Qv3-Q05"}`` -> ``{"qid": "Q05", "chip_id": "64Qv3"}`` unless another chip_id was given (a
    coupling as a qid, "4-1", has no chip prefix: its first part is a qubit); ``{"coupling_id": "144Qv2-1-144Qv2-2"}``
    (or "Q1-Q2") -> ``{"coupling_id": "1-2", "chip_id": "144Qv2"}``, under the same rule."""
    out = dict(args)
    for key in _QUBIT_KEYS:
        found = _CHIP_QUBIT.fullmatch(out[key].strip()) if isinstance(out.get(key), str) else None
        if found is None or _QUBIT_REF.fullmatch(found["chip"]) or out.get("chip_id") not in (None, found["chip"]):
            continue
        out[key], out["chip_id"] = found["qubit"], found["chip"]
    pair = _CHIP_COUPLING.fullmatch(out["coupling_id"].strip()) if isinstance(out.get("coupling_id"), str) else None
    chip = pair["chip"] if pair is not None else None
    if pair is not None and (chip is None or (not _QUBIT_REF.fullmatch(chip) and out.get("chip_id") in (None, chip))):
        out["coupling_id"] = f"{int(pair['a'])}-{int(pair['b'])}"
        if chip is not None:
            out["chip_id"] = chip
    return out


def _allowed_case(value: str, schema: dict) -> str:
    """An allowed value written in another case or with spaces around it ("Thursday", " Failed tasks") as the
    allowed value itself; anything else unchanged (the schema then reports it)."""
    text = value.strip()
    for option in schema.get("enum") or ():
        if isinstance(option, str) and option.lower() == text.lower():
            return option
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and re.search(pattern, value) is None and re.search(pattern, text.lower()):
        return text.lower()
    return value


def _coerce(value: object, schema: dict) -> object:
    """Digit strings for integer/number parameters (local models quote numbers); an allowed string in another case."""
    kind = schema.get("type")
    if isinstance(value, str) and kind in (None, "string"):
        return _allowed_case(value, schema)
    if isinstance(value, str) and kind in ("integer", "number"):
        text = value.strip()
        try:
            return int(text) if kind == "integer" else float(text)
        except ValueError:
            return value
    return value


def normalise(args: dict, properties: dict[str, dict]) -> dict:
    out = {k: v for k, v in args.items() if v is not None}  # null means "not given" (strict-mode models)
    for key, value in list(out.items()):
        if key in _QUBIT_KEYS:
            out[key] = _qubit(value)
        elif key in _QUBIT_LIST_KEYS and isinstance(value, list):
            out[key] = [_qubit(v) for v in value]
        elif key == "task_name" and isinstance(value, str):  # "Check T2-Echo": its words joined, read by the tool
            out[key] = "".join(c for c in value.strip() if c not in " -")
        elif key in _NAME_KEYS and isinstance(value, str):
            out[key] = value.strip()
        elif key in properties:
            out[key] = _coerce(value, properties[key])
    return out


def _validator(spec: ToolSpec) -> Draft202012Validator:
    found = _VALIDATORS.get(spec.name)
    if found is None:
        found = _VALIDATORS[spec.name] = Draft202012Validator(spec.parameters)
    return found


def usage(spec: ToolSpec) -> str:
    """One line naming the arguments, for hints."""
    props = spec.parameters.get("properties", {})
    required = set(spec.parameters.get("required", []))
    parts = [f"{k} ({v.get('type', 'any')}{', default: the chip in view' if SESSION in v else ''}"
             f"{', required' if k in required and SESSION not in v else ''})" for k, v in props.items()]
    return f"{spec.name} takes: " + (", ".join(parts) if parts else "no arguments")


def validate_args(spec: ToolSpec, raw: str | dict | None) -> dict:
    """Validated arguments with defaults filled in; ToolError naming the first problem otherwise."""
    properties = spec.parameters.get("properties", {})
    args = normalise(parse_raw(raw), properties)
    error = best_match(_validator(spec).iter_errors(args))
    if error is not None:
        where = ".".join(str(p) for p in error.absolute_path) or "arguments"
        raise ToolError(f"invalid {where}: {clean_text(error.message, 240)}", usage(spec), kind="call")
    for key, schema in properties.items():
        if key not in args and "default" in schema:
            args[key] = schema["default"]
    return args
