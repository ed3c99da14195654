"""Reads of parameter versions and their provenance graph, each version marked with its task's outcome."""

from __future__ import annotations

from copilot_core.data import validation as v
from copilot_core.data.guarded import driver_errors
from copilot_core.data.observed import seen
from copilot_core.data.reader import ScopedReader
from copilot_core.data.rows import LineageGraph
from copilot_core.data.stored import ACTIVITY_FIELDS, VERSION_FIELDS, _pick, _projection, _usable

MAX_LINEAGE_NODES = 400


class LineageReads(ScopedReader):
    """A parameter's versions and the ancestors of one version through provenance relations and activities."""

    def parameter_versions(self, chip_id: str, parameter: str, qid: str, *, limit: int = 10) -> list[dict]:
        """Versions of one parameter on one qubit, version descending: {entity_id, parameter_name, qid, value,
        unit, error, version, valid_from, valid_until, task_name, execution_id, task_id}."""
        with driver_errors(self):
            query = self.scope(chip_id=v.chip_id(chip_id), parameter_name=v.name(parameter),
                                qid=v.qid_or_coupling(qid))
            rows = [_pick(doc, VERSION_FIELDS) for doc in self.db["parameter_versions"].find(
                query, _projection(VERSION_FIELDS)).sort([("version", -1)]).limit(v.limit(limit))]
            return seen(self._with_task_state(rows))

    def _with_task_state(self, versions: list[dict]) -> list[dict]:
        """Mark each version with the outcome of the task that produced it: ``task_status``,
        ``task_excluded`` and ``usable`` (completed, not excluded, a real number: not NaN-as-0), so a
        failed or excluded value is never read as the current one."""
        ids = sorted({t for r in versions if isinstance(t := r.get("task_id"), str)})
        states: dict[str, dict] = {}
        if ids:
            for doc in self.db["task_result_history"].find(self.scope(task_id={"$in": ids}),
                                                           {"_id": 0, "task_id": 1, "status": 1, "excluded": 1}) \
                    .sort([("task_id", 1)]).limit(len(ids) * 2):
                states[doc["task_id"]] = doc
        for row in versions:
            state = states.get(row.get("task_id"))  # type: ignore[arg-type]
            status = state.get("status") if state else None
            excluded = bool(state.get("excluded")) if state else False
            row["task_status"] = status
            row["task_excluded"] = excluded
            row["usable"] = (status in (None, "completed") and not excluded
                             and _usable(row.get("value")) is not None)
        return versions

    def lineage_graph(self, chip_id: str, entity_id: str, *, max_depth: int = 5) -> LineageGraph:
        """Ancestors of a parameter version through provenance relations/activities (max_depth 1..20):
        {"root": entity_id, "nodes": [{id, type: "entity"|"activity", depth, ...}], "edges": [{source, target,
        relation}], "truncated": bool}.  Unknown entity -> {"root": entity_id, "nodes": [], "edges": []}.
        Edges point from the newer thing to what it came from (wasGeneratedBy, used, wasDerivedFrom)."""
        with driver_errors(self):
            chip_id, entity_id = v.chip_id(chip_id), v.entity_id(entity_id)
            depth_limit = v.limit(max_depth, "max_depth", maximum=20)
            nodes: dict[str, dict] = {}
            edges: list[dict] = []
            root = self._entities([entity_id], chip_id)
            if not root:
                return seen(LineageGraph(root=entity_id, nodes=[], edges=[], truncated=False))
            nodes[entity_id] = root[entity_id] | {"depth": 0}
            frontier, truncated = [entity_id], False
            for depth in range(1, depth_limit + 1):
                if not frontier:
                    break
                relations = self.db["provenance_relations"].find(
                    self.scope(source_id={"$in": frontier}),
                    {"_id": 0, "relation_type": 1, "source_id": 1, "target_id": 1, "target_type": 1}) \
                    .sort([("source_id", 1), ("target_id", 1)]).limit(MAX_LINEAGE_NODES * 4)
                new_entities: list[str] = []
                new_activities: list[str] = []
                for rel in relations:
                    target = rel.get("target_id")
                    if not isinstance(target, str):
                        continue
                    edges.append({"source": rel.get("source_id"), "target": target,
                                  "relation": rel.get("relation_type")})
                    if target in nodes or target in new_entities or target in new_activities:
                        continue
                    (new_activities if rel.get("target_type") == "activity" else new_entities).append(target)
                found = self._entities(new_entities, chip_id) | self._activities(new_activities, chip_id)
                frontier = []
                for node_id in new_entities + new_activities:
                    if len(nodes) >= MAX_LINEAGE_NODES:
                        truncated = True
                        break
                    nodes[node_id] = found.get(node_id, {"id": node_id, "type": "unknown"}) | {"depth": depth}
                    frontier.append(node_id)
            edges = [e for e in edges if e["source"] in nodes and e["target"] in nodes]
            return seen(LineageGraph(root=entity_id, nodes=list(nodes.values()), edges=edges, truncated=truncated))

    def _entities(self, ids: list[str], chip_id: str) -> dict[str, dict]:
        if not ids:
            return {}
        rows = self.db["parameter_versions"].find(self.scope(entity_id={"$in": ids}, chip_id=chip_id),
                                                  _projection(VERSION_FIELDS)) \
            .sort([("entity_id", 1)]).limit(len(ids))
        found = self._with_task_state([_pick(d, VERSION_FIELDS) for d in rows])
        return {d["entity_id"]: {"id": d["entity_id"], "type": "entity"} | d for d in found}

    def _activities(self, ids: list[str], chip_id: str) -> dict[str, dict]:
        if not ids:
            return {}
        rows = self.db["provenance_activities"].find(self.scope(activity_id={"$in": ids}, chip_id=chip_id),
                                                     _projection(ACTIVITY_FIELDS)) \
            .sort([("activity_id", 1)]).limit(len(ids))
        return {d["activity_id"]: {"id": d["activity_id"], "type": "activity"} | _pick(d, ACTIVITY_FIELDS)
                for d in rows}
