"""Reads of chips and of their merged latest parameters (``qubit.data`` / ``coupling.data``)."""

from __future__ import annotations

import copy

from copilot_core.data import validation as v
from copilot_core.data.guarded import driver_errors
from copilot_core.data.observed import seen
from copilot_core.data.plans import Query
from copilot_core.data.reader import ScopedReader
from copilot_core.data.rows import ChipLayout, ChipRow, Params
from copilot_core.data.stored import INACTIVE, _layout, _params, _projection, _qid_sort_key, _usable


class ChipReads(ScopedReader):
    """Chips, their layouts and ids, and the parameters QDash merged per qubit and coupling."""

    # ---- chips ----------------------------------------------------------------------------
    def list_chips(self) -> list[ChipRow]:
        """Chips, most recently installed first: {chip_id, size, topology_id, installed_at, active, qubits_total,
        qubits_with_data, last_execution_at, last_execution_status}.  ``active`` is False only for a chip
        QDash marks ``activity_status: "inactive"`` (a chip without the field is active)."""
        with driver_errors(self):
            return seen(self._chips(self.scope()))

    def _chips(self, query: Query) -> list[ChipRow]:
        rows = self.db["chip"].find(query, _projection(("chip_id", "size", "topology_id", "installed_at",
                                                        "activity_status"))) \
            .sort([("installed_at", -1), ("chip_id", 1)]).limit(1000)
        found: dict[str, dict] = {}
        for doc in rows:
            chip_id = doc.get("chip_id")
            if not isinstance(chip_id, str) or chip_id in found:
                continue  # same chip under another username: keep the newest
            found[chip_id] = doc
        chips = []
        for chip_id, doc in found.items():
            layout = _layout(chip_id, doc)
            last = self.db["execution_history"].find_one(
                self.scope(chip_id=chip_id), {"_id": 0, "start_at": 1, "status": 1}, sort=[("start_at", -1)])
            chips.append(ChipRow(chip_id=chip_id, size=layout["size"], topology_id=layout["topology_id"],
                                 installed_at=doc.get("installed_at"),
                                 active=doc.get("activity_status") != INACTIVE, qubits_total=layout["size"],
                                 qubits_with_data=self._qubits_with_data(chip_id),
                                 last_execution_at=last.get("start_at") if last else None,
                                 last_execution_status=last.get("status") if last else None))
        return chips

    def _qubits_with_data(self, chip_id: str) -> int:
        rows = self.db["qubit"].find(self.scope(chip_id=chip_id), {"_id": 0, "qid": 1, "data": 1}) \
            .sort([("qid", 1)]).limit(10_000)
        qids = {doc.get("qid") for doc in rows
                if isinstance(doc.get("data"), dict)
                and any(_usable(m.get("value") if isinstance(m, dict) else m) is not None
                        for m in doc["data"].values())}
        return len(qids)

    def inactive_qubits(self, chip_id: str) -> set[str]:
        """The qubit ids the chip marks ``status: "inactive"`` (dead or switched off): left out of a ranking asked
        over the active qubits only."""
        with driver_errors(self):
            rows = self.db["qubit"].find(self.scope(chip_id=v.chip_id(chip_id), status=INACTIVE),
                                         {"_id": 0, "qid": 1}).limit(10_000)
            return seen({str(doc["qid"]) for doc in rows if doc.get("qid") is not None})

    def get_chip(self, chip_id: str) -> ChipRow | None:
        """One chip in the ``list_chips`` shape, or None if it does not exist."""
        with driver_errors(self):
            turn = self._turn
            if turn is not None and chip_id in turn.rows:
                return seen(copy.copy(turn.rows[chip_id]))
            found = self._chips(self.scope(chip_id=v.chip_id(chip_id)))
            row = found[0] if found else None
            if turn is not None:
                turn.rows[chip_id] = copy.copy(row)
            return seen(row)

    def chip_layout(self, chip_id: str) -> ChipLayout | None:
        """A chip's size and topology (the newest document of that chip id, as ``get_chip``), in one read; None
        when the chip does not exist."""
        with driver_errors(self):
            turn = self._turn
            if turn is not None and chip_id in turn.layouts:
                return seen(copy.copy(turn.layouts[chip_id]))
            doc = self.db["chip"].find_one(self.scope(chip_id=v.chip_id(chip_id)),
                                           {"_id": 0, "chip_id": 1, "size": 1, "topology_id": 1},
                                           sort=[("installed_at", -1), ("chip_id", 1)])
            layout = None if doc is None else _layout(chip_id, doc)
            if turn is not None:
                turn.layouts[chip_id] = copy.copy(layout)
            return seen(layout)

    def chip_ids(self) -> list[str]:
        """Every chip id in scope (for spotting a chip named in a question)."""
        with driver_errors(self):
            turn = self._turn
            if turn is not None and turn.chip_ids is not None:
                return seen(list(turn.chip_ids))
            ids = sorted(str(c) for c in self.db["chip"].distinct("chip_id", self.scope()) if isinstance(c, str))
            if turn is not None:
                turn.chip_ids = list(ids)
            return seen(ids)

    def default_chip_id(self) -> str | None:
        """The most recently installed active chip (QDash's default when no chip is given), or None.  A chip
        QDash marks inactive is never the default; it is still read when named."""
        with driver_errors(self):
            doc = self.db["chip"].find_one(self.scope() | {"activity_status": {"$ne": INACTIVE}},
                                           {"_id": 0, "chip_id": 1}, sort=[("installed_at", -1), ("chip_id", 1)])
            return seen(doc.get("chip_id") if doc else None)

    # ---- latest merged parameters (qubit.data / coupling.data) -----------------------------
    def qubit_params(self, chip_id: str, qid: str) -> Params | None:
        """``qubit.data`` of one qubit: {param: {value, unit, error, calibrated_at, execution_id, task_id}};
        None when the qubit does not exist."""
        with driver_errors(self):
            doc = self.db["qubit"].find_one(self.scope(chip_id=v.chip_id(chip_id), qid=v.qid(qid)),
                                            {"_id": 0, "data": 1}, sort=[("qid", 1)])
            return seen(None if doc is None else _params(doc.get("data")))

    def all_qubit_params(self, chip_id: str) -> dict[str, Params]:
        """``qubit.data`` for every qubit of a chip: {qid: {param: {...}}} (qubits with no data map to {})."""
        with driver_errors(self):
            return seen(self._all_data("qubit", v.chip_id(chip_id)))

    def coupling_params(self, chip_id: str, coupling_id: str) -> Params | None:
        """``coupling.data`` for one coupling id exactly as stored (e.g. "4-1"); None when absent."""
        with driver_errors(self):
            doc = self.db["coupling"].find_one(
                self.scope(chip_id=v.chip_id(chip_id), qid=v.coupling_id(coupling_id)), {"_id": 0, "data": 1},
                sort=[("qid", 1)])
            return seen(None if doc is None else _params(doc.get("data")))

    def all_coupling_params(self, chip_id: str) -> dict[str, Params]:
        """``coupling.data`` for every stored coupling id (both directions present): {cid: {param: {...}}}."""
        with driver_errors(self):
            return seen(self._all_data("coupling", v.chip_id(chip_id)))

    def _all_data(self, collection: str, chip_id: str) -> dict[str, Params]:
        # sorted here, not by the engine: a qid stored as a number beside the strings has no order in Python
        rows = self.db[collection].find(self.scope(chip_id=chip_id), {"_id": 0, "qid": 1, "data": 1}).limit(20_000)
        out = {str(doc["qid"]): _params(doc.get("data")) for doc in rows if isinstance(doc.get("qid"), str)}
        return dict(sorted(out.items(), key=lambda item: _qid_sort_key(item[0])))

    def output_parameter_names(self, chip_id: str, qid: str | None = None) -> list[str]:
        """Output parameter names, sorted: of one qubit/coupling's history, or (no ``qid``) every name with
        a merged value in the chip's qubit/coupling data (the same definition on every engine)."""
        with driver_errors(self):
            chip_id = v.chip_id(chip_id)
            query = self.scope(chip_id=chip_id, qid=v.qid_or_coupling(qid) if qid is not None else None)

            if qid is not None:
                return seen(sorted(self.plan.distinct_names(self.db["task_result_history"], query)))
            # chip-wide: every usable output is merged into qubit/coupling.data, which is small on every engine
            # (a chip-wide distinct over the history decodes all of it on the embedded one)
            names = {p for data in self.all_qubit_params(chip_id).values() for p in data}
            return seen(sorted(names | {p for data in self.all_coupling_params(chip_id).values() for p in data}))
