"""What a finished request teaches the copilot: parameters asked about, code that worked, error→fix pairs.

Everything here comes from model output or tool errors, so it is hostile.  Error→fix pairs keep structured
facts only: the tool name, the error's class (``KeyError``, or ``error`` when the message names none), the
names of the arguments the working call changed and the ``data[...]`` keys the fixed code read, each checked
against an identifier pattern; no sentence the model or an error wrote is kept, so nothing a hostile row
made the model write comes back in a later system prompt.  Code that worked is kept (cleaned, secrets
redacted, capped) for ``recall_memory`` and the memory page only.  Pure functions over the request's calls.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from copilot_core.guardrails import sanitize_output
from copilot_core.tools.registry import runs_code

PARAM_ARGS = ("parameter_name", "metric_name", "parameter", "metric")
PARAM_LIST_ARGS = ("param_names", "parameters", "metrics")
MAX_CODE_CHARS = 1500
MAX_ERROR_CHARS = 160
MAX_FIX_CHARS = 200
_PARAM = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
_ERROR_CLASS = re.compile(r"^\s*(?:[a-z_][a-z0-9_]*\.)*([A-Z][A-Za-z0-9]{0,40}(?:Error|Exception|Exit|Warning|Timeout))\b")
_DATA_KEY = re.compile(r"""data\[\s*['"]([a-z0-9_]{1,64})['"]\s*\]""")


@dataclass(frozen=True)
class Observation:
    kind: str  # "parameter" | "code" | "error_fix"
    key: str
    text: str


def clean_text(text: object, cap: int) -> str:
    """No control/bidi characters, secrets redacted (the agent's sanitizer when present), capped."""
    value = _CONTROL.sub("", str(text or "")).strip()
    value = sanitize_output(value)
    return value if len(value) <= cap else value[:cap - 1].rstrip() + "…"


def _one_line(text: object, cap: int) -> str:
    return clean_text(" ".join(str(text or "").split()), cap)


def _field(call: object, name: str, default: object = None) -> object:
    return call.get(name, default) if isinstance(call, dict) else getattr(call, name, default)


def _args(call: object) -> dict:
    args = _field(call, "args") or {}
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except ValueError:
            return {}
    return args if isinstance(args, dict) else {}


def _params(args: dict) -> list[str]:
    found = [args.get(k) for k in PARAM_ARGS]
    for k in PARAM_LIST_ARGS:
        if isinstance(args.get(k), list):
            found.extend(args[k])
    return [p for p in found if isinstance(p, str) and _PARAM.match(p)]


def code_key(code: str) -> str:
    """Same code modulo blank lines, comments and indentation -> same key."""
    lines = [ln.strip() for ln in code.splitlines()]
    body = "\n".join(ln for ln in lines if ln and not ln.startswith("#"))
    return "code:" + hashlib.sha1(body.encode()).hexdigest()[:12]


def error_key(error: str) -> str:
    """The error's class named at the start of its first line (``NameError: ...`` -> ``NameError``), else
    ``error``: the same mistake anywhere is one entry, and no free text of the message is kept."""
    first = (str(error or "").strip().splitlines() or [""])[0]
    found = _ERROR_CLASS.match(first)
    return found.group(1) if found else "error"


def describe_fix(before: str, after: str) -> str:
    """The ``data[...]`` keys the fixed code reads that the failing code did not (identifiers only)."""
    added = sorted(set(_DATA_KEY.findall(after)) - set(_DATA_KEY.findall(before)))
    return "read " + ", ".join(f"data['{k}']" for k in added[:5]) if added else "changed the code"


def _changed_arguments(before: dict, after: dict) -> str:
    names = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k) and _PARAM.match(str(k)))
    return "called again with changed " + ", ".join(names[:8]) if names else "called again"


def observations(tool_calls: Sequence[object]) -> list[Observation]:
    """Observations of one request, de-duplicated (each counts once per request)."""
    seen: dict[tuple[str, str], Observation] = {}

    def add(obs: Observation) -> None:
        seen.setdefault((obs.kind, obs.key), obs)

    for index, call in enumerate(tool_calls):
        name, args, ok = str(_field(call, "name", "")), _args(call), bool(_field(call, "ok", False))
        for param in _params(args):
            add(Observation("parameter", param, param))
        code = args.get("code") if runs_code(name) else None
        if ok and isinstance(code, str) and code.strip():
            add(Observation("code", code_key(code), clean_text(code, MAX_CODE_CHARS)))
        if ok:
            continue
        error = _field(call, "error") or ""
        fixed = _first_success_after(tool_calls[index + 1:], name)
        if not error or fixed is None:
            continue
        if not _PARAM.match(str(name)):
            continue
        if runs_code(name):
            fix = describe_fix(str(code or ""), str(_args(fixed).get("code") or ""))
        else:
            fix = _changed_arguments(args, _args(fixed))
        key = f"{name}: {error_key(str(error))}"
        add(Observation("error_fix", key, f"{key} → fix: {fix}"))
    return list(seen.values())


def _first_success_after(later: Iterable[object], name: str) -> object | None:
    for call in later:
        if _field(call, "name") == name and _field(call, "ok"):
            return call
    return None
