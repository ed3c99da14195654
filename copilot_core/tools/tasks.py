"""Task results, executions and calibration notes: direct tools, compacted, with database text fenced off.

Task messages, notes and calibration notes are written by people and programs the model must not
obey; they travel in ``untrusted_text`` / ``untrusted_data`` fields, cleaned of control
characters and capped, and calibration notes are cut down so one call cannot flood the context.
"""

from __future__ import annotations

import re
from datetime import datetime
from collections import Counter

from copilot_core.data.rows import TaskRow
from copilot_core.data.validation import EXECUTION_STATUSES, TASK_STATUSES
from copilot_core.domain.topology import qubit_label
from copilot_core.tools.aggregates import task_named
from copilot_core.tools.compact import (UNTRUSTED_NOTE, compact_timestamp, display_parameters, from_database,
                                        inline_from_database, to_model_json, untrusted_data, untrusted_field)
from copilot_core.tools.spec import (VALUES_ON_ERROR, ToolContext, ToolError, ToolResult, chip_id_arg,
                                     execution_id_arg, last_n_arg, qid_arg, target_arg, task_name_arg, tool)

NOTE_CHARS = 4_000  # one calibration note beyond this is shown as an outline
_UNTRUSTED_FIELDS = ("message", "user_note", "ai_review_note")


def task_view(row: TaskRow) -> dict[str, object]:
    """One task result for the model: identity, outcome, outputs in display units, fenced text."""
    target = str(row.get("qid") or "")
    out: dict[str, object] = {
        "task_id": from_database(row.get("task_id")), "name": from_database(row.get("name")), "qid": target,
        "execution_id": from_database(row.get("execution_id")), "status": from_database(row.get("status")),
        "start_at": row.get("start_at"), "elapsed_s": row.get("elapsed_time"),
        "output_parameters": display_parameters(row.get("output_parameters"), "coupling" if "-" in target else "qubit"),
    }
    if row.get("excluded"):
        out["excluded"] = True
    if row.get("tags"):
        out["tags"] = [from_database(t, 40) for t in list(row["tags"])[:10]]
    for name in _UNTRUSTED_FIELDS:
        fenced = untrusted_field(row.get(name), 300)
        if fenced:
            out[name] = fenced
    return out


def _with_untrusted_note(data: dict, rows: list[dict]) -> dict:
    if any(name in row for row in rows for name in _UNTRUSTED_FIELDS):
        data["_untrusted"] = UNTRUSTED_NOTE
    return data


def _status_arg(allowed: tuple[str, ...]) -> dict:
    return {"type": "string", "enum": list(allowed), "description": "Status filter.", VALUES_ON_ERROR: True}


@tool("get_latest_task_result",
      {"task_name": task_name_arg(), "chip_id": chip_id_arg(), "qid": target_arg()},
      ("task_name", "chip_id", "qid"))
def get_latest_task_result(ctx: ToolContext, task_name: str, chip_id: str, qid: str) -> ToolResult:
    ctx.chip(chip_id)
    task_name = task_named(ctx, chip_id, task_name) or task_name
    row = ctx.repo.latest_task_result(chip_id, task_name, qid)
    if row is None:
        raise ToolError(f"no completed {task_name} result for {ctx.label(chip_id, qid)} on {chip_id}",
                        "check the task name with search_task_results(chip_id, qid=...)", kind="data")
    view = task_view(row)
    return ToolResult(_with_untrusted_note({"chip_id": chip_id, "result": view}, [view]),
                      f"{task_name} on {ctx.label(chip_id, qid)}: {view['status']} {view['execution_id']}")


@tool("get_task_history",
      {"task_name": task_name_arg(), "chip_id": chip_id_arg(), "qid": target_arg(),
       "last_n": last_n_arg(5, 50)}, ("task_name", "chip_id", "qid"))
def get_task_history(ctx: ToolContext, task_name: str, chip_id: str, qid: str, last_n: int = 5) -> ToolResult:
    ctx.chip(chip_id)
    task_name = task_named(ctx, chip_id, task_name) or task_name
    rows = [task_view(r) for r in ctx.repo.task_results(chip_id, task_name=task_name, qid=qid, status="completed",
                                                        limit=last_n)]
    data = {"chip_id": chip_id, "task_name": task_name, "qid": qid, "count": len(rows), "results": rows}
    return ToolResult(_with_untrusted_note(data, rows), f"{task_name} on {ctx.label(chip_id, qid)}: {len(rows)} results")


@tool("search_task_results",
      {"chip_id": chip_id_arg(), "task_name": task_name_arg(), "qid": target_arg(),
       "status": _status_arg(TASK_STATUSES), "execution_id": execution_id_arg(), "last_n": last_n_arg(10, 50)},
      ("chip_id",))
def search_task_results(ctx: ToolContext, chip_id: str, task_name: str | None = None, qid: str | None = None,
                        status: str | None = None, execution_id: str | None = None, last_n: int = 10) -> ToolResult:
    ctx.chip(chip_id)
    task_name = task_named(ctx, chip_id, task_name)
    rows = [task_view(r) for r in ctx.repo.task_results(chip_id, task_name=task_name, qid=qid, status=status,
                                                        execution_id=execution_id, limit=last_n)]
    filters = {k: v for k, v in (("task_name", task_name), ("qid", qid), ("status", status),
                                 ("execution_id", execution_id)) if v is not None}
    data = {"chip_id": chip_id, "filters": filters, "count": len(rows), "results": rows}
    return ToolResult(_with_untrusted_note(data, rows), f"{len(rows)} task results on {chip_id}")


@tool("get_execution_history",
      {"chip_id": chip_id_arg(), "status": _status_arg(EXECUTION_STATUSES),
       "tags": {"type": "array", "items": {"type": "string", "pattern": r"^[A-Za-z0-9][A-Za-z0-9_\-.: ]{0,63}$"},
                "maxItems": 10, "description": "Only runs with all these tags."},
       "last_n": last_n_arg(10, 50)}, ("chip_id",), reduced=True)
def get_execution_history(ctx: ToolContext, chip_id: str, status: str | None = None, tags: list[str] | None = None,
                          last_n: int = 10) -> ToolResult:
    ctx.chip(chip_id)
    rows = [{"execution_id": from_database(r.get("execution_id")), "name": from_database(r.get("name")),
             "status": from_database(r.get("status")), "tags": [from_database(t, 40) for t in (r.get("tags") or [])[:10]],
             "start_at": r.get("start_at"), "end_at": r.get("end_at"), "elapsed_s": r.get("elapsed_time")}
            for r in ctx.repo.executions(chip_id, status=status, tags=tags, limit=last_n)]
    data: dict[str, object] = {"answer": _history_answer(chip_id, rows), "chip_id": chip_id, "count": len(rows),
                            "executions": rows}
    latest = f", latest {rows[0]['execution_id']} {rows[0]['status']}" if rows else ""
    if not rows and (status or tags) and ctx.repo.executions(chip_id, limit=1):
        filters = ", ".join(f for f in (f"status {status}" if status else "", f"tags {tags}" if tags else "") if f)
        del data["answer"]
        data["hint"] = f"no execution has {filters}, but the chip has executions: call again without those filters"
        alone = {"status": bool(status) and not ctx.repo.executions(chip_id, status=status, limit=1),
                 "tags": bool(tags) and not ctx.repo.executions(chip_id, tags=tags, limit=1)}
        data["retry_without"] = [k for k, empty in alone.items() if empty] or [k for k, v in (("status", status),
                                                                                                ("tags", tags)) if v]
        return ToolResult(data, f"0 executions on {chip_id} with {filters} (the chip has others)")
    return ToolResult(data, f"{len(rows)} executions on {chip_id}{latest}")


def _history_answer(chip_id: str, rows: list[dict]) -> str:
    """The runs listed, in one sentence a small model can quote: span, statuses, newest (ids and statuses only:
    a run's name is free database text)."""
    if not rows:
        return f"No executions on {chip_id}."
    statuses = ", ".join(f"{n} {status}" for status, n in Counter(r["status"] for r in rows).most_common())
    newest, oldest = rows[0], rows[-1]
    first, last = (compact_timestamp(r["start_at"], year=True) for r in (oldest, newest))
    if len(rows) == 1:
        return f"The latest execution on {chip_id} is {newest['execution_id']}, started {last} UTC ({statuses})."
    return (f"The {len(rows)} latest executions on {chip_id} started between {first} and {last} UTC: {statuses}; "
            f"the newest is {newest['execution_id']} ({newest['status']}).")


def _note_for_qubit(note: object, qid: str, size: int) -> object:
    """Keep only the entries of one qubit in each section (keys like 'Q05', 'Q005' or '5')."""
    if not isinstance(note, dict):
        return note
    keys = {qubit_label(qid, size), qubit_label(qid, 64), qubit_label(qid, 144), qid}
    out = {}
    for section, entries in note.items():
        if isinstance(entries, dict):
            kept = {k: v for k, v in entries.items() if k in keys}
            if kept:
                out[section] = kept
    return out


def _outline(note: object) -> object:
    """A note too large to show: each section's size and first keys; short text fields kept (fenced)."""
    if not isinstance(note, dict):
        return from_database(to_model_json(note), 300)
    outline: dict[str, object] = {}
    for key, value in note.items():
        if isinstance(value, dict):
            outline[key] = {"entries": len(value), "first_keys": [from_database(k, 20) for k in list(value)[:5]]}
        elif isinstance(value, list):
            outline[key] = {"items": len(value)}
        else:
            outline[key] = from_database(value, 300)
    return outline


@tool("get_calibration_notes",
      {"chip_id": chip_id_arg(), "execution_id": execution_id_arg(),
       "task_id": {"type": "string", "pattern": r"^[A-Za-z0-9][A-Za-z0-9_\-]{0,63}$",
                   "description": "Task id, or 'master'."},
       "qid": qid_arg("Only this qubit's entries."), "last_n": last_n_arg(3, 10)},
      ("chip_id",))
def get_calibration_notes(ctx: ToolContext, chip_id: str, execution_id: str | None = None,
                          task_id: str | None = None, qid: str | None = None, last_n: int = 3) -> ToolResult:
    size = ctx.size(chip_id)
    if qid is not None:
        ctx.check_qid(chip_id, qid)
    notes = []
    for row in ctx.repo.calibration_notes(chip_id, execution_id=execution_id, task_id=task_id, limit=last_n):
        body = row.get("note")
        if qid is not None:
            body = _note_for_qubit(body, qid, size)
        inert = untrusted_data(body)
        entry: dict[str, object] = {"execution_id": from_database(row.get("execution_id")),
                                 "task_id": from_database(row.get("task_id")), "version": row.get("version"),
                                 "timestamp": row.get("timestamp")}
        if len(to_model_json(inert)) > NOTE_CHARS:
            entry["untrusted_outline"] = _outline(inert)
            entry["truncated"] = "note too large; pass qid (and execution_id) to see entries"
        else:
            entry["untrusted_data"] = inert
        notes.append(entry)
    data = {"chip_id": chip_id, "count": len(notes), "notes": notes, "_untrusted": UNTRUSTED_NOTE}
    target = f" for {ctx.label(chip_id, qid)}" if qid else ""
    return ToolResult(data, f"{len(notes)} calibration notes on {chip_id}{target}")


_TASK_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,79}")
_TARGET = re.compile(r"[0-9]{1,5}(?:-[0-9]{1,5})?")
_RUN_SCAN = 1000  # failed results listed by task for one run (the counts are counted, never capped)


def _target_label(qid: str, size: int) -> str:
    if "-" in qid:
        a, b = qid.split("-")
        return f"{qubit_label(a, size)}-{qubit_label(b, size)}"
    return qubit_label(qid, size)


@tool("get_run_failures",
      {"chip_id": chip_id_arg(), "execution_id": execution_id_arg()}, ("chip_id",))
def get_run_failures(ctx: ToolContext, chip_id: str, execution_id: str | None = None) -> ToolResult:
    size = ctx.size(chip_id) or 64
    if execution_id is None:
        latest = ctx.repo.executions(chip_id, limit=1)
        if not latest:
            raise ToolError(f"no executions on {chip_id}", "check the chip id", kind="data")
        execution_id = str(latest[0].get("execution_id"))
        started = latest[0].get("start_at")
    else:
        started = None
    rows = ctx.repo.task_results(chip_id, execution_id=execution_id, limit=_RUN_SCAN)
    if not rows:
        raise ToolError(f"no task results for execution {execution_id} on {chip_id}",
                        "list runs with get_execution_history", kind="data")
    started = started or min((r["start_at"] for r in rows if isinstance(r["start_at"], datetime)), default=None)
    failed = ctx.repo.task_results(chip_id, execution_id=execution_id, status="failed", limit=_RUN_SCAN)
    by_task: dict[str, list[str]] = {}
    for r in sorted(failed, key=lambda r: (str(r.get("name")), _sort_target(r.get("qid")))):
        name = str(r.get("name") or "")
        name = name if _TASK_NAME.fullmatch(name) else "(unnamed task)"
        qid = str(r.get("qid") or "")
        by_task.setdefault(name, []).append(qid if _TARGET.fullmatch(qid) else "?")
    total = ctx.repo.count_task_results(chip_id, execution_id)
    failures = ctx.repo.count_task_results(chip_id, execution_id, status="failed")
    when = f" (started {compact_timestamp(started, year=True)} UTC)" if started else ""
    per_task = "; ".join(f"{name} {len(ids)} ({', '.join(_target_label(q, size) if q != '?' else q for q in ids)})"
                         for name, ids in sorted(by_task.items(), key=lambda kv: (-len(kv[1]), kv[0])))
    shown = inline_from_database(execution_id, 64)
    answer = (f"{failures} of {total} tasks failed in execution {shown} on {chip_id}{when}"
              + (f": {per_task}." if failed else "."))
    data = {"answer": answer, "chip_id": chip_id, "execution_id": from_database(execution_id), "start_at": started,
            "tasks_in_run": total, "count_failed": failures,
            "by_task": {name: len(ids) for name, ids in by_task.items()},
            "failed": [{"task": name, "qid": q} for name, ids in by_task.items() for q in ids]}
    return ToolResult(data, f"{failures} failed tasks in {shown} on {chip_id}")


def _sort_target(qid: object) -> tuple[int, ...]:
    text = str(qid or "")
    return tuple(int(p) for p in text.split("-")) if _TARGET.fullmatch(text) else (1 << 30,)
