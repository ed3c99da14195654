"""Reads of one metric over qubits or couplings: latest / best / average values and timeseries."""

from __future__ import annotations

import statistics
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Literal

from copilot_core.data import validation as v
from copilot_core.data.guarded import driver_errors
from copilot_core.data.observed import seen
from copilot_core.data.plans import MAX_SCAN, Query
from copilot_core.data.reader import ScopedReader
from copilot_core.data.rows import ChipSeriesRow, MetricValue, SeriesPoint
from copilot_core.data.stored import _qid_sort_key, _usable, _utcnow
from copilot_core.domain.metrics import metric as catalogue_metric

Mode = Literal["latest", "best", "average"]
Kind = Literal["qubit", "coupling"]


class MetricReads(ScopedReader):
    """Completed, non-excluded values of one output parameter, from ``task_result_history``."""

    def _metric_query(self, chip_id: str, parameter: str, *, usable_only: bool = True, **extra: object) -> Query:
        """Completed, non-excluded history rows that carry ``parameter`` (with a non-zero value unless
        ``usable_only`` is False: "latest" must see QDash's NaN-as-0 to report the metric missing)."""
        query = self.scope(chip_id=chip_id, output_parameter_names=parameter, status="completed", **extra) | {
            "excluded": {"$ne": True}}
        return query | {f"output_parameters.{parameter}.value": {"$ne": 0}} if usable_only else query

    @staticmethod
    def _metric_projection(parameter: str) -> dict:
        return {"_id": 0, "qid": 1, "start_at": 1, "end_at": 1, "execution_id": 1, "task_id": 1,
                f"output_parameters.{parameter}": 1}

    @staticmethod
    def _metric_row(doc: dict, parameter: str) -> dict | None:
        """A history document reduced to one parameter; ``value`` None when it is NaN/inf/QDash's NaN-as-0."""
        if not isinstance(doc.get("qid"), str):
            return None
        model = (doc.get("output_parameters") or {}).get(parameter)
        model = model if isinstance(model, dict) else {"value": model}
        return {"qid": doc["qid"], "value": _usable(model.get("value")), "unit": model.get("unit") or "",
                "error": model.get("error"),
                "calibrated_at": model.get("calibrated_at") or doc.get("end_at") or doc.get("start_at"),
                "at": doc.get("start_at"),
                "execution_id": model.get("execution_id") or doc.get("execution_id"),
                "task_id": model.get("task_id") or doc.get("task_id")}

    def _metric_rows(self, query: dict, parameter: str, *, limit: int = MAX_SCAN) -> list[dict]:
        """The newest ``limit`` usable values, newest first: NaN/inf are dropped before the limit counts."""
        fetch = limit
        while True:
            docs = self.plan.history(self.db["task_result_history"], query, self._metric_projection(parameter),
                                     fetch)
            rows = [r for r in (self._metric_row(doc, parameter) for doc in docs)
                    if r is not None and r["value"] is not None]
            if len(rows) >= limit or len(docs) < fetch or fetch >= MAX_SCAN:
                return rows[:limit]
            fetch = min(2 * fetch + 8, MAX_SCAN)

    def _latest_metric_rows(self, query: dict, parameter: str, kind: str) -> list[dict]:
        """The newest completed, non-excluded result per id, whatever its value (None when unusable)."""
        chip_id = query["chip_id"]
        if isinstance(query.get("qid"), str):  # one id: its newest document, on every plan
            docs = self.plan.history(self.db["task_result_history"], query, self._metric_projection(parameter), 1)
            return [r for r in (self._metric_row(d, parameter) for d in docs) if r is not None]

        def known_ids() -> set[str]:
            rows = self.db[kind].find(self.scope(chip_id=chip_id), {"_id": 0, "qid": 1}) \
                .sort([("qid", 1)]).limit(20_000)
            return {d["qid"] for d in rows if isinstance(d.get("qid"), str)}

        docs = self.plan.latest_per_id(self.db["task_result_history"], query, self._metric_projection(parameter),
                                       executions=lambda: self._runs(chip_id), known_ids=known_ids)
        return [r for r in (self._metric_row(d, parameter) for d in docs) if r is not None]

    def last_execution_at(self, chip_id: str) -> datetime | None:
        """Start of the chip's newest execution that started (a scheduled one has not): the end of every "last N
        days" window."""
        with driver_errors(self):
            doc = self.db["execution_history"].find_one(self.scope(chip_id=v.chip_id(chip_id))
                                                        | {"status": {"$ne": "scheduled"}},
                                                        {"_id": 0, "start_at": 1}, sort=[("start_at", -1)])
            start = doc.get("start_at") if doc else None
            return seen(start if isinstance(start, datetime) else None)

    def window_end(self, chip_id: str, window_end: datetime | None = None) -> datetime:
        """``window_end`` if given, else the chip's last execution, else now (naive UTC)."""
        if window_end is not None:
            return v.when(window_end, "window_end")
        return self.last_execution_at(chip_id) or _utcnow()

    def metric_values(self, chip_id: str, metric: str, *, mode: Mode = "latest", kind: Kind = "qubit",
                      within_hours: float | None = None, window_end: datetime | None = None,
                      qid: str | None = None) -> dict[str, MetricValue]:
        """One value per qubit (or coupling id as stored, control-target) from task_result_history:
        {id: {value, stddev, count, at, execution_id, task_id, missing_since}}.  Completed, non-excluded
        results only.  latest = the newest such result; when its value is NaN/inf/QDash's NaN-as-0 the
        metric is missing (value None, ``missing_since`` = that result's date), never the result before.
        best (catalogue's better direction) and average (mean, sample stddev) use the usable values.
        ``within_hours`` counts back from ``window_end`` (default: the chip's last execution); ``qid`` reads
        one qubit (or coupling id) only."""
        with driver_errors(self):
            chip_id, metric = v.chip_id(chip_id), v.name(metric, "metric name")
            mode = v.choice(mode, "mode", v.MODES)  # type: ignore[assignment]
            kind = v.choice(kind, "kind", v.KINDS)  # type: ignore[assignment]
            query = self._metric_query(chip_id, metric, usable_only=mode != "latest", task_type=kind,
                                       qid=v.qid_or_coupling(qid) if qid is not None else None)
            if within_hours is not None:
                since = self.window_end(chip_id, window_end) - timedelta(hours=v.hours(within_hours))
                query |= {"start_at": {"$gte": since}} | self._window_hint(chip_id, since)
            if mode == "latest":
                rows = self._latest_metric_rows(query, metric, kind)
            else:
                rows = self._metric_rows(query, metric)
            groups: dict[str, list[dict]] = defaultdict(list)
            for row in rows:
                groups[row["qid"]].append(row)
            higher = catalogue_metric(metric, kind=kind).higher_is_better
            out: dict[str, MetricValue] = {}
            for key in sorted(groups, key=_qid_sort_key):
                rows = groups[key]  # newest first
                chosen = rows[0]
                if mode == "best":
                    chosen = (max if higher else min)(rows, key=lambda r: r["value"])
                values = [r["value"] for r in rows if r["value"] is not None]
                value = statistics.fmean(values) if mode == "average" else chosen["value"]
                stddev = (statistics.stdev(values) if len(values) > 1 else 0.0) if mode == "average" else None
                out[key] = MetricValue(value=value, stddev=stddev, count=len(values), unit=chosen["unit"],
                                       at=chosen["calibrated_at"], execution_id=chosen["execution_id"],
                                       task_id=chosen["task_id"],
                                       missing_since=chosen["calibrated_at"] if value is None else None)
            return seen(out)

    # ---- timeseries ----------------------------------------------------------------------------
    def parameter_timeseries(self, chip_id: str, parameter: str, qid: str, *, last_n: int = 10,
                             since: datetime | None = None, until: datetime | None = None) -> list[SeriesPoint]:
        """Last ``last_n`` values of one output parameter for one qubit that started in ``[since, until)``, oldest
        first: {value, unit, error, calibrated_at, execution_id, task_id}.  Completed, non-excluded, 0/NaN skipped."""
        with driver_errors(self):
            query = self._metric_query(v.chip_id(chip_id), v.name(parameter), qid=v.qid_or_coupling(qid)) \
                | self._window("start_at", since, until)
            rows = self._metric_rows(query, parameter, limit=v.limit(last_n, "last_n"))
            return seen([SeriesPoint(value=r["value"], unit=r["unit"], error=r["error"],
                                     calibrated_at=r["calibrated_at"], execution_id=r["execution_id"],
                                     task_id=r["task_id"]) for r in reversed(rows)])

    def chip_parameter_timeseries(self, chip_id: str, parameter: str, *, qids: list[str] | None = None,
                                  since: datetime | None = None, last_n: int | None = None,
                                  until: datetime | None = None) -> list[ChipSeriesRow]:
        """Rows {qid, calibrated_at, value, unit, execution_id, task_id} for all (or the given) qubits,
        oldest first, in one query; ``last_n`` applies per qubit.  Same filters as ``parameter_timeseries``."""
        with driver_errors(self):
            extra: Query = {}
            if qids is not None:
                extra["qid"] = {"$in": v.qid_list(qids)}
            per_qubit = v.limit(last_n, "last_n") if last_n is not None else None
            chip_id = v.chip_id(chip_id)
            query = self._metric_query(chip_id, v.name(parameter)) | extra | self._window("start_at", since, until)
            if since is not None:
                query |= self._window_hint(chip_id, query["start_at"]["$gte"])
            rows = self._metric_rows(query, parameter)
            if per_qubit is not None:
                per_id: dict[str, int] = defaultdict(int)
                kept = []
                for row in rows:
                    per_id[row["qid"]] += 1
                    if per_id[row["qid"]] <= per_qubit:
                        kept.append(row)
                rows = kept
            rows.reverse()
            return seen([ChipSeriesRow(qid=r["qid"], calibrated_at=r["calibrated_at"], value=r["value"],
                                       unit=r["unit"], execution_id=r["execution_id"], task_id=r["task_id"])
                         for r in rows])
