"""Expected facts computed from the database at run time (never hard-coded), in display units.

``EvalContext`` picks the subjects of the questions from the data (a chip, healthy qubits, a coupling)
and answers fact functions by name; questions refer to both from YAML as ``{chip}``, ``{qid}`` and
``fn: qubit_value``.  Every fact reads through the repository, the same reads the tools make.
"""

from __future__ import annotations

import functools
import statistics
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any

from copilot_core.domain.metrics import Kind, metric
from copilot_core.domain.topology import topology_for
from copilot_core.errors import CopilotError

if TYPE_CHECKING:
    from copilot_core.data.rows import ChipRow, Params
    from copilot_core.data.repository import CalibrationRepository

HEALTHY_PARAMS = ("t1", "t2_echo", "x90_gate_fidelity", "average_readout_fidelity", "qubit_frequency")


class FactError(CopilotError, LookupError):
    """The database cannot supply a fact (e.g. a chip without coupling data): the question is skipped."""


def _stored(params: Params | None, name: str) -> object:
    """The stored value of one parameter (None when the parameter is absent)."""
    param = (params or {}).get(name)
    return param["value"] if param is not None else None


def _display(name: str, raw: object) -> float | None:
    return metric(name).to_display(raw)


class EvalContext:
    """Subjects and facts for one evaluation run over one repository."""

    def __init__(self, repo: CalibrationRepository, *, chip_id: str | None = None) -> None:
        self.repo = repo
        self._chip_override = chip_id

    # ---- subjects (template variables) ---------------------------------------------------------
    @cached_property
    def chips(self) -> list[ChipRow]:
        chips = [c for c in self.repo.list_chips() if c.get("qubits_with_data")]
        if not chips:
            raise FactError("the database has no chip with data; seed the demo (python -m copilot_core.demo)")
        return sorted(chips, key=lambda c: (c["size"], c["chip_id"]))

    @cached_property
    def chip(self) -> str:
        return self._chip_override or self.chips[0]["chip_id"]

    @cached_property
    def chip2(self) -> str:
        others = [c["chip_id"] for c in self.chips if c["chip_id"] != self.chip]
        if not others:
            raise FactError("only one chip has data; comparison questions need two")
        return others[0]

    def params(self, chip_id: str | None = None) -> dict[str, dict[str, dict]]:
        return self._params(chip_id or self.chip)

    def _params(self, chip_id: str) -> dict[str, dict[str, dict]]:
        cache = self.__dict__.setdefault("_params_cache", {})
        if chip_id not in cache:
            cache[chip_id] = self.repo.all_qubit_params(chip_id)
        return cache[chip_id]

    @cached_property
    def healthy_qids(self) -> list[str]:
        """Qubits with every headline parameter present, in qid order."""
        data = self.params()
        good = [q for q, p in data.items()
                if all(_display(n, (p.get(n) or {}).get("value")) is not None for n in HEALTHY_PARAMS)]
        if len(good) < 3:
            raise FactError(f"chip {self.chip} has fewer than 3 qubits with full data")
        return sorted(good, key=int)

    @cached_property
    def qid(self) -> str:
        return self.healthy_qids[len(self.healthy_qids) // 5]

    @cached_property
    def qid2(self) -> str:
        return self.healthy_qids[len(self.healthy_qids) // 2]

    @cached_property
    def qid3(self) -> str:
        return self.healthy_qids[(len(self.healthy_qids) * 4) // 5]

    @cached_property
    def coupling(self) -> str:
        couplings = self.repo.all_coupling_params(self.chip)
        fidelity = {cid: _display("zx90_gate_fidelity", _stored(p, "zx90_gate_fidelity"))
                    for cid, p in couplings.items()}
        usable = sorted((cid for cid, v in fidelity.items() if v is not None),
                        key=lambda c: tuple(int(x) for x in c.split("-")))
        if not usable:
            raise FactError(f"chip {self.chip} has no coupling with zx90_gate_fidelity")
        return usable[0]

    @cached_property
    def entity(self) -> str:
        """Entity id of the current t1 version of ``qid`` (for provenance questions)."""
        versions = self.repo.parameter_versions(self.chip, "t1", self.qid, limit=1)
        if not versions:
            raise FactError(f"no parameter versions of t1 for qubit {self.qid}")
        return versions[0]["entity_id"]

    @cached_property
    def latest_execution(self) -> str:
        runs = self.repo.executions(self.chip, limit=1)
        if not runs:
            raise FactError(f"chip {self.chip} has no executions")
        return str(runs[0]["execution_id"])

    def variables(self) -> dict[str, Callable[[], str]]:
        """Template variables, computed lazily (a question only pays for what it uses)."""
        names = ("chip", "chip2", "qid", "qid2", "qid3", "coupling", "entity", "latest_execution")
        return {n: functools.partial(self._variable, n) for n in names}

    def _variable(self, name: str) -> str:
        return str(getattr(self, name))

    # ---- facts -------------------------------------------------------------------------------
    def qubit_value(self, param: str, qid: str, chip: str | None = None) -> float:
        value = _display(param, ((self.params(chip).get(str(qid)) or {}).get(param) or {}).get("value"))
        if value is None:
            raise FactError(f"qubit {qid} has no {param}")
        return value

    def coupling_value(self, param: str, coupling: str, chip: str | None = None) -> float:
        value = _display(param, _stored(self.repo.coupling_params(chip or self.chip, coupling), param))
        if value is None:
            raise FactError(f"coupling {coupling} has no {param}")
        return value

    def _chip_values(self, param: str, chip: str | None = None) -> dict[str, float]:
        shown = {q: _display(param, (p.get(param) or {}).get("value")) for q, p in self.params(chip).items()}
        values = {q: v for q, v in shown.items() if v is not None}
        if not values:
            raise FactError(f"no {param} values on {chip or self.chip}")
        return values

    def chip_median(self, param: str, chip: str | None = None) -> float:
        """Median over the qubits' current values (qubit.data), as get_chip_summary reports."""
        return statistics.median(self._chip_values(param, chip).values())

    def heatmap_median(self, param: str, kind: Kind = "qubit", chip: str | None = None) -> float:
        """Median of the latest values from the history aggregation, as generate_chip_heatmap reports."""
        rows = self.repo.metric_values(chip or self.chip, param, mode="latest", kind=kind)
        values = [v for v in (_display(param, r.get("value")) for r in rows.values()) if v is not None]
        if not values:
            raise FactError(f"no {param} values for a heatmap on {chip or self.chip}")
        return statistics.median(values)

    def count_below(self, param: str, threshold: float, chip: str | None = None) -> float:
        return float(sum(1 for v in self._chip_values(param, chip).values() if v < threshold))

    def extreme_qubit(self, param: str, which: str = "worst", chip: str | None = None) -> str:
        """The qubit with the best/worst current value, by the catalogue's better direction."""
        values = self._chip_values(param, chip)
        higher = metric(param).higher_is_better
        pick = max if (which == "best") == higher else min
        return pick(values, key=lambda q: (values[q], -int(q)))

    def extreme_value(self, param: str, which: str = "worst", chip: str | None = None) -> float:
        return self._chip_values(param, chip)[self.extreme_qubit(param, which, chip)]

    def better_of(self, param: str, qids: list[str]) -> str:
        values = {q: self.qubit_value(param, q) for q in qids}
        pick = max if metric(param).higher_is_better else min
        return pick(values, key=lambda q: values[q])

    def correlation(self, a: str, b: str, chip: str | None = None) -> float:
        va, vb = self._chip_values(a, chip), self._chip_values(b, chip)
        common = sorted(set(va) & set(vb), key=int)
        return statistics.correlation([va[q] for q in common], [vb[q] for q in common])

    def series_values(self, param: str, qid: str, last_n: int = 10) -> list[float]:
        rows = self.repo.parameter_timeseries(self.chip, param, str(qid), last_n=last_n)
        values = [v for v in (_display(param, r.get("value")) for r in rows) if v is not None]
        if not values:
            raise FactError(f"no {param} history for qubit {qid}")
        return values

    def series_min(self, param: str, qid: str, last_n: int = 10) -> float:
        return min(self.series_values(param, qid, last_n))

    def series_latest(self, param: str, qid: str, last_n: int = 10) -> float:
        return self.series_values(param, qid, last_n)[-1]

    def chip_series_latest_mean(self, param: str, chip: str | None = None) -> float:
        """Mean over qubits of each qubit's newest value in the chip timeseries (a sandbox question)."""
        rows = self.repo.chip_parameter_timeseries(chip or self.chip, param)
        latest: dict[str, tuple[Any, float]] = {}
        for r in rows:
            value = _display(param, r.get("value"))
            if value is not None and (r["qid"] not in latest or r["calibrated_at"] >= latest[r["qid"]][0]):
                latest[r["qid"]] = (r["calibrated_at"], value)
        if not latest:
            raise FactError(f"no {param} timeseries on {chip or self.chip}")
        return statistics.fmean(v for _, v in latest.values())

    def latest_version_value(self, param: str, qid: str) -> float:
        versions = self.repo.parameter_versions(self.chip, param, str(qid), limit=1)
        value = _display(param, versions[0].get("value")) if versions else None
        if value is None:
            raise FactError(f"no versions of {param} for qubit {qid}")
        return value

    def lineage_inputs(self, entity: str) -> list[str]:
        """Parameter names (other than the entity's own) found among the entity's provenance ancestors."""
        own = entity.split(":", 1)[0]
        graph = self.repo.lineage_graph(self.chip, entity, max_depth=5)
        names = set()
        for node in graph.get("nodes") or []:
            node_id = str(node.get("id") or node.get("entity_id") or "")
            name = node.get("parameter_name") or (node_id.split(":", 1)[0] if node_id.count(":") == 3 else None)
            if name and name != own:
                names.add(name)
        if not names:
            raise FactError(f"the lineage of {entity} has no input parameters")
        return sorted(names)

    def failed_task(self, execution_id: str) -> list[str]:
        """[task name, qid] of the first failed task of an execution."""
        rows = self.repo.task_results(self.chip, status="failed", execution_id=execution_id, limit=50)
        if not rows:
            raise FactError(f"no failed task in execution {execution_id}")
        return [str(rows[0]["name"]), str(rows[0]["qid"])]

    def latest_note_execution(self) -> str:
        notes = self.repo.calibration_notes(self.chip, limit=1)
        if not notes:
            raise FactError(f"chip {self.chip} has no calibration notes")
        return str(notes[0]["execution_id"])

    def neighbours(self, qid: str) -> list[str]:
        size = next(c for c in self.chips if c["chip_id"] == self.chip)["size"]
        chip = self.repo.get_chip(self.chip)
        topology_id = chip["topology_id"] if chip is not None else None
        topo = topology_for(size, topology_id if isinstance(topology_id, str) else None)
        return [str(n) for n in sorted(topo.neighbours(int(qid)))]
