"""Run one tool call from a model: validate, throttle, execute, store or compact, never raise.

The agent loop (and the CLI) hand every function call to :meth:`Toolkit.execute`; what comes back
is a :class:`ToolOutcome` whose ``model_text`` is the only thing the model ever sees. A call without
``chip_id`` runs on the session's chip (the model is not sent that argument), and the result names the chip. Stored tools
put their full result in the session's :class:`DataStore` and send a summary; charts ride
in ``charts`` and never in ``model_text``.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from copilot_core.data.connection import DatabaseUnavailable
from copilot_core.data.observed import observed
from copilot_core.data.validation import InvalidArgument
from copilot_core.domain.vocabulary import chip_resolved
from copilot_core.tools.args import parse_raw, split_chip_prefix, usage, validate_args
from copilot_core.tools.compact import MAX_TOOL_RESULT_CHARS, clean_text, compact_value, fit_to_budget, to_model_json
from copilot_core.tools.registry import TOOLS_BY_NAME
from copilot_core.tools.spec import (MemoryReader, Sandbox, ToolContext, ToolError, ToolResult, ToolSpec,
                                     session_arguments)
from copilot_core.tools.store import DataStore
from copilot_core.tools.taint import DatabaseText, mark_for_model

if TYPE_CHECKING:
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.figures import FigureRoot

log = logging.getLogger(__name__)


@dataclass
class ToolOutcome:
    """One executed call: ``model_text`` is exactly what the model sees (valid JSON)."""

    name: str
    args: dict
    ok: bool
    model_text: str
    summary: str
    charts: list[dict] = field(default_factory=list)
    data_keys: list[str] = field(default_factory=list)
    full: object = None
    error: str | None = None
    elapsed_s: float = 0.0
    origin: str = "model"  # "router": the turn service made this call before the model's first round; "restated":
    # the model's call re-made as the question reads it (:data:`PLANNED`)
    size: int | None = None  # the qubits of the chip the call read (how the claim check labels its qubits)
    error_kind: FailureKind | None = None  # a failed call's :data:`FailureKind`


PLANNED = frozenset({"router", "restated"})
"""The origins of a call known to answer the question: the router's, or the model's re-made as the question reads it
(so its sentence may replace a model's answer that names another subject)."""

FailureKind = Literal["data", "call", "internal"]
"""Why a call failed: ``data`` a fact of the data (``ToolError`` of kind data), ``call`` a call that did not fit
(bad arguments, an unknown or throttled tool), ``internal`` the app's own failure (a bug, the database down).  Only a
fact of the data is ever shown as the data's answer."""
UNFIT = "the request for it did not fit what the tool takes, so nothing was read from the data"


class ToolLayer(Protocol):
    """What the agent loop calls: the toolkit (or a test's tool layer)."""

    def schemas(self) -> list[dict]: ...
    def names(self) -> list[str]: ...
    def begin_request(self, chip_id: str | None = None) -> None: ...
    def execute(self, name: str, raw_args: str | dict | None) -> ToolOutcome: ...


def _summarise(value: object) -> object:
    """Seed 002's ``_build_llm_summary``: lists of dicts become ``{_schema, _rows}``, the rest is compacted."""
    if isinstance(value, list) and value and all(isinstance(row, dict) for row in value):
        return {"_schema": list(dict.fromkeys(k for row in value[:100] for k in row)), "_rows": len(value)}
    if isinstance(value, dict):
        return {k: _summarise(v) for k, v in value.items()}
    return compact_value(value)


def stored_summary(full: dict, key: str) -> dict:
    """What the model gets for a stored tool: scalars and stats, row schemas, and where the data is.
    (The stored rows are the DataFrame's records, so their ``_schema`` names the columns of ``data[key]``.)"""
    summary = {k: _summarise(v) for k, v in full.items()}
    summary["data_key"] = key
    summary["_note"] = f"Full data available as data['{key}'] in execute_python_analysis. Do NOT pass data manually."
    return summary


class Toolkit:
    """The copilot's tools bound to one repository, one session's data store and the chip in view
    (``chip_id``; None: the most recently installed chip, as in the system prompt's context)."""

    def __init__(self, repo: CalibrationRepository, *, store: DataStore, sandbox: Sandbox | None = None,
                 memory: MemoryReader | None = None, allowed: set[str] | frozenset[str] | None = None,
                 max_result_chars: int = MAX_TOOL_RESULT_CHARS, chip_id: str | None = None,
                 figures: FigureRoot | None = None) -> None:
        unknown = set(allowed or ()) - set(TOOLS_BY_NAME)
        if unknown:
            raise ValueError(f"unknown tools in allowed: {', '.join(sorted(unknown))}")
        services = {"memory": memory, "figures": figures}
        self._specs = {n: s for n, s in TOOLS_BY_NAME.items() if (allowed is None or n in allowed)
                       and (s.requires is None or services[s.requires] is not None)}
        self._ctx = ToolContext(repo=repo, store=store, sandbox=sandbox, memory=memory, figures=figures)
        self.store = store
        self.max_result_chars = max_result_chars
        self._calls: Counter[str] = Counter()
        self._session_chip = chip_id
        self._database_text = DatabaseText()  # what the database returned to this toolkit's tools
        self._request_chip: str | None = None
        self._default_chip: str | None = None

    def schemas(self) -> list[dict]:
        return [spec.schema() for spec in self._specs.values()]

    def names(self) -> list[str]:
        return list(self._specs)

    def begin_request(self, chip_id: str | None = None) -> None:
        """Start of a user request: reset the per-request call limits and the chip cache.  ``chip_id``: the chip
        this request is about (the one its question names, or the one in view), over the toolkit's own."""
        self._calls.clear()
        self._ctx.reset()
        self._request_chip = chip_id
        self._default_chip = None

    def execute(self, name: str, raw_args: str | dict | None) -> ToolOutcome:
        """Run a tool call; every failure becomes an outcome with ``{"error", "hint"}`` for the model."""
        started = time.perf_counter()
        args: dict = {}
        try:
            spec = self._spec(name)
            args = self._fill_session(spec, parse_raw(raw_args))
            args = validate_args(spec, args)
            self._throttle(spec)
            with observed(self._database_text):
                result = spec.run(self._ctx, **args)
            return self._success(spec, args, result, started)
        except ToolError as exc:
            return self._failure(name, args, exc.message, exc.hint, started, exc.kind)
        except InvalidArgument as exc:
            hint = usage(self._specs[name]) if name in self._specs else ""
            return self._failure(name, args, str(exc), hint, started, "call")
        except DatabaseUnavailable as exc:
            return self._failure(name, args, f"database unavailable: {exc}", "tell the user; do not retry", started,
                                 "internal")
        except Exception as exc:  # a bug or a hostile document: the model gets a clean message, the log the trace
            log.exception("tool %s failed", name)
            return self._failure(name, args, f"internal error in {name} ({type(exc).__name__})",
                                 "try other arguments or another tool", started, "internal")

    # ------------------------------------------------------------------------------------------

    def _spec(self, name: str) -> ToolSpec:
        spec = self._specs.get(name) if isinstance(name, str) else None
        if spec is None:
            shown = clean_text(name, 60)
            raise ToolError(f"unknown tool {shown!r}", "available tools: " + ", ".join(self._specs), kind="call")
        return spec

    def chip_in_view(self) -> str:
        """The chip a call without ``chip_id`` runs on; a ToolError when there is none."""
        chip = self._request_chip or self._session_chip or self._default_chip
        if chip is None and self._ctx.repo is not None:
            chip = self._default_chip = self._ctx.repo.default_chip_id()
        if not chip:
            raise ToolError("no chip in view", "pass chip_id, e.g. {\"chip_id\": \"64Qv3\"}", kind="call")
        return chip

    def _fill_session(self, spec: ToolSpec, args: dict) -> dict:
        """Arguments with the session-filled ones (``chip_id``) added where the model left them out or null, and
        each chip written short ("64Q", "64qv3") as the installed chip it means."""
        args = split_chip_prefix(args) if "chip_id" in spec.parameters["properties"] else args
        missing = [name for name in session_arguments(spec.parameters) if args.get(name) is None]
        args = {**args, **{name: self.chip_in_view() for name in missing}} if missing else args
        return self._chips_meant(args)

    def _chips_meant(self, args: dict) -> dict:
        """``chip_id`` and ``chip_ids`` read as the question's chips are (:func:`chips_meant`): one installed chip
        meant is that chip; an unknown chip, or one of several, stays as written for the tool to refuse."""
        written = [c for c in [args.get("chip_id"), *(args.get("chip_ids") or [])] if isinstance(c, str)]
        if not written or self._ctx.repo is None:
            return args
        installed = self._ctx.repo.chip_ids()
        if all(c in installed for c in written):
            return args
        out = dict(args)
        if isinstance(args.get("chip_id"), str):
            out["chip_id"] = chip_resolved(args["chip_id"], installed)
        if isinstance(args.get("chip_ids"), list):
            out["chip_ids"] = [chip_resolved(c, installed) if isinstance(c, str) else c for c in args["chip_ids"]]
        return out

    def _throttle(self, spec: ToolSpec) -> None:
        if spec.limit is None:
            return
        self._calls[spec.name] += 1
        if self._calls[spec.name] > spec.limit.calls:
            raise ToolError(f"{spec.name} is limited to {spec.limit.calls} calls per request", spec.limit.hint, kind="call")

    def _success(self, spec: ToolSpec, args: dict, result: ToolResult, started: float) -> ToolOutcome:
        data_keys: list[str] = []
        payload: object
        if spec.stored_key is not None and result.frame is not None:
            key = spec.stored_key(args)
            self.store.put(key, result.data, result.frame)
            data_keys.append(key)
            payload = stored_summary(result.data, key)
        else:
            payload = compact_value(result.model if result.model is not None else result.data)
        if isinstance(payload, dict) and "chip_id" in args and "chip_id" not in payload:
            payload = {"chip_id": args["chip_id"], **payload}  # which chip was used, when the model left it out
        payload = mark_for_model(payload, self._database_text)
        return ToolOutcome(name=spec.name, args=args, ok=result.error is None,
                           model_text=fit_to_budget(payload, self.max_result_chars), summary=result.summary,
                           charts=list(result.charts), data_keys=data_keys, full=result.data, error=result.error,
                           elapsed_s=time.perf_counter() - started, size=self._size(args))

    def _size(self, args: dict) -> int | None:
        """The size of the chip ``args`` name, when it exists."""
        chip = args.get("chip_id")
        if not isinstance(chip, str) or self._ctx.repo is None:
            return None
        try:
            return self._ctx.size(chip) or None
        except ToolError:
            return None

    def _failure(self, name: str, args: dict, message: str, hint: str, started: float,
                 kind: FailureKind) -> ToolOutcome:
        """The model reads the error and hint; the person (the summary) reads the error only when it is a fact of
        the data or the app's own failure, never a call's argument error."""
        shown = clean_text(name, 60) if isinstance(name, str) else "?"
        body = {"error": message, "hint": hint} if hint else {"error": message}
        said = f"{shown} failed: {UNFIT}" if kind == "call" else f"{shown} failed: {message}"
        return ToolOutcome(name=shown, args=args, ok=False,
                           model_text=to_model_json(mark_for_model(body, self._database_text)),
                           summary=said, error=message, elapsed_s=time.perf_counter() - started, error_kind=kind)


def answer_line(outcome: ToolOutcome) -> str | None:
    """The tool's quotable ``answer`` sentence, when it wrote one from its own words and identifiers only: a
    sentence holding database text reaches the model marked (``tools.taint``), and is never shown as the app's
    own computed answer."""
    for source in (outcome.model_text, outcome.full):
        value = source
        if isinstance(source, str):
            try:
                value = json.loads(source)
            except ValueError:
                continue
        if isinstance(value, dict) and "answer" in value:
            answer = value["answer"]
            return answer.strip() if isinstance(answer, str) and answer.strip() else None
    return None
