"""The plans for questions about couplings: two compared, one's values, or one qubit's couplings ranked."""

from __future__ import annotations

from copilot_core.domain.metrics import CATALOGUE, COUPLING_METRICS
from copilot_core.domain.units import family
from copilot_core.language.question import Question
from copilot_core.routing.planned import PlannedCall

DEFAULT_COUPLING_METRIC = "zx90_gate_fidelity"  # which of two couplings is "better" with no metric named: its 2Q gate


def coupling_asked(asked: Question) -> bool:
    """"the coupling between Q4 and Q5", "Q4 and Q5's Bell state fidelity": the coupling of two qubits named."""
    said = asked.said("subject words") or ""
    clear = [n for n in asked.without("subject words").metrics if n is not None]
    return len(asked.qubits) == 2 and not asked.couplings and (said.startswith("coupl") or bool(clear)) and \
        all(CATALOGUE[n].kind == "coupling" for n in clear)


def coupling_limit(asked: Question, clear: list[str]) -> dict[str, float]:
    """``{"below": 300.0}`` when the question holds its one coupling's one metric to one limit ("is its CR gate time
    under 300 ns"), in the metric's display unit, so the tool's sentence says which side the value is on; else {}."""
    names = list(dict.fromkeys(n for n in clear if CATALOGUE[n].kind == "coupling"))
    if len(names) != 1 or len(asked.limits) != 1 or asked.ranges:
        return {}
    limit, entry = asked.limits[0], CATALOGUE[names[0]]
    shown = entry.in_display(limit.value, limit.unit) if limit.metric in (None, names[0]) and \
        entry.can_hold(limit.value, limit.unit) else None
    return {} if shown is None else {limit.side: round(shown, 9)}


def unit_named(asked: Question) -> list[str]:
    """The one coupling metric a question about couplings names only by its limit's unit ("is the CR gate of Q4-Q5
    under 300 ns": a time, and zx90_gate_time is a coupling's one time metric), when its words name no metric
    clearly; else none (a % limit fits several fidelities: the question stays ambiguous)."""
    if any(n is not None for n in asked.metrics) or len(asked.limits) != 1 or not asked.limits[0].unit:
        return []
    limit = asked.limits[0]
    fits = [n for n in COUPLING_METRICS if family(CATALOGUE[n].unit) and CATALOGUE[n].can_hold(limit.value, limit.unit)]
    return fits if len(fits) == 1 else []


def couplings_compared(asked: Question) -> list[str]:
    """The couplings a question sets side by side ("0-1 or 1-4", "Q03–Q04 versus Q04–Q09"), else none: two pairs
    are two couplings, never their three or four qubits."""
    return list(asked.couplings) if len(asked.couplings) >= 2 and not asked.qubits else []


def couplings_plan(asked: Question, chip_id: str) -> PlannedCall | None:
    """"Q5's couplings ranked by ZX90 gate fidelity": the couplings of the one qubit named, ranked by the
    one coupling metric named; "the parameters of coupling Q4-Q5": that coupling's own values."""
    clear = [n for n in asked.without("subject words").metrics if n is not None]
    if (pairs := couplings_compared(asked)) and all(CATALOGUE[n].kind == "coupling" for n in clear) and \
            not asked.has("trend") and not asked.chart:
        names = clear or ([DEFAULT_COUPLING_METRIC] if asked.has("pair words") or asked.extreme_word else [])
        return PlannedCall("get_coupling_params", {"chip_id": chip_id, "coupling_ids": pairs[:8],
                                                   **({"param_names": names} if names else {})}, "couplings compared")
    clear = clear or (unit_named(asked) if len(asked.couplings) == 1 or coupling_asked(asked) else [])
    if len(asked.couplings) == 1 and not asked.qubits and not asked.has("trend") and not asked.chart:
        if clear and all(CATALOGUE[n].kind == "qubit" for n in clear):  # "coupling 4-5: which qubit has longer T1"
            return PlannedCall("compare_qubits", {"chip_id": chip_id, "qids": asked.couplings[0].split("-"),
                                                  "param_names": list(dict.fromkeys(clear))}, "its two qubits")
        return PlannedCall("get_coupling_params", {"chip_id": chip_id, "coupling_id": asked.couplings[0],
                                                   **({"param_names": clear} if clear else {}),
                                                   **coupling_limit(asked, clear)}, "one coupling's values")
    if coupling_asked(asked) and not asked.has("trend") and not asked.chart:
        pair = "-".join(asked.qubits)
        return PlannedCall("get_coupling_params", {"chip_id": chip_id, "coupling_id": pair,
                                                   **({"param_names": clear} if clear else {}),
                                                   **coupling_limit(asked, clear)}, "one coupling's values")
    if len(asked.qubits) != 1 or asked.couplings or not asked.has("subject words") or len(set(clear)) != 1 or \
            CATALOGUE[clear[0]].kind != "coupling" or asked.has("trend") or asked.chart:
        return None
    return PlannedCall("get_coupling_params", {"chip_id": chip_id, "qubit_id": asked.qubits[0],
                                               "param_names": clear[:1]}, f"the couplings of a qubit by {clear[0]}")
