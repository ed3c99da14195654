"""Router prefetch: the one tool call a question plainly needs, with every argument taken from the question and the
chat's state, made before the model's first round.

A small model on a CPU spends most of a question's time on rounds: it reads the whole prompt, writes a call, reads
it all again with the result, then answers.  When the question alone fixes the call ("median T1 of the chip",
"T1 of Q5", "T2 echo trend of qubit 3 over its last 10 measurements", "health report of the chip", "execution
history of the chip"), the turn service runs it itself and puts it in the conversation as an assistant tool call
plus its result; the model then answers in that round (tools kept for the cache, ``tool_choice="none"``), quoting
the tool's ``answer`` sentence.  Anything less clear (two qubits, another chip, couplings, tasks, provenance, an
ambiguous metric such as "T2", runs filtered by status, tag or time) gives no prefetch and the model decides as
usual.  The call is shown in show-work as made by the router.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from copilot_core.domain.metrics import CATALOGUE
from copilot_core.domain.vocabulary import MAP_WORDS, SUMMARY_WORDS, TREND_WORDS, metrics_named

DEFAULT_LAST_N = 10
MAX_LAST_N = 100
_QUBIT = re.compile(r"(?<![a-z0-9_])(?:q|qubits?)\s*#?0*(\d{1,3})(?![0-9])", re.I)
_QUBIT_LIST = re.compile(r"qubits?\s*#?\d{1,3}(?:\s*(?:,|and|&|or)\s*(?:q\s*)?#?\d{1,3}(?![0-9]))+", re.I)
_CHIP = re.compile(r"(?<![A-Za-z0-9_])\d{1,4}Q[A-Za-z0-9_]*")
_LAST_N = re.compile(r"\blast (\d{1,3}) (?:measurements|points|values|results|calibrations|runs|executions)\b", re.I)
# The chip's run list, unfiltered: the words that ask for it, and the ones that narrow it (then the model chooses).
_HISTORY = re.compile(r"\b(?:execution history|run history|executions|calibration runs|(?:recent|latest|last)"
                      r"(?: \d{1,3})? (?:runs|executions))\b", re.I)
_HISTORY_FILTER = re.compile(r"\b(?:today|yesterday|week|month|days?|hours?|ago|completed|running|scheduled|status"
                             r"|tags?|daily|weekly|named?|longest|slowest|took)\b|\d{4}-\d{2}", re.I)
_THIS_QUBIT = re.compile(r"\bthis qubit\b", re.I)
# Questions the plain lookups do not answer: another tool is needed, so the model chooses.
_OTHER_TOOL = re.compile(
    r"\b(tasks?|check[a-z0-9]+|experiments?|raw|fit(s|ted)?|figures?|results?|neighbou?rs?|topology|connected"
    r"|adjacent|connectivity|couplings?|cz|zx90|bell|pairs?|why|provenance|lineage|derived|came from|comes from"
    r"|depends? on|origin|notes?|comments?|executions?|runs?|when was|last calibrat\w*|python|code|correlat\w*"
    r"|regression|histogram|scatter|plot|analy[sz]\w*|percentile|std|standard deviation|which parameters"
    r"|what parameters|parameters are|remember|last time|previously|you said|memory|changed|diff(erence)?s?"
    r"|regress\w*|failed|failures?|errors?|search|within hours|since)\b|\b\d{1,3}-\d{1,3}\b", re.I)
_TREND = re.compile(rf"\b({TREND_WORDS})\b", re.I)
_MAP = re.compile(rf"\b({MAP_WORDS})\b", re.I)
_SUMMARY = re.compile(rf"\b({SUMMARY_WORDS})\b", re.I)
_STAT = re.compile(r"\b(median|mean|average|typical)\b", re.I)


@dataclass(frozen=True)
class PlannedCall:
    """A tool call the router makes itself, and the words that decided it (for show-work and tests)."""

    name: str
    args: dict = field(hash=False)
    reason: str = ""


def _qubits(text: str) -> set[str]:
    found = {str(int(m.group(1))) for m in _QUBIT.finditer(text)}
    for listed in _QUBIT_LIST.finditer(text):
        found |= {str(int(n)) for n in re.findall(r"\d{1,3}", listed.group(0))}
    return found


def _qubit_metric(names: Sequence[str | None]) -> str | None:
    """The single clear qubit metric named, else None."""
    if len(names) != 1 or names[0] is None:
        return None
    return names[0] if CATALOGUE[names[0]].kind == "qubit" else None


def _history_plan(question: str, chip_id: str, available: Sequence[str] | None) -> PlannedCall | None:
    """The chip's latest runs, when nothing else in the question narrows or changes what is asked."""
    rest = _HISTORY.sub(" ", question)
    if _HISTORY_FILTER.search(question) or _OTHER_TOOL.search(rest) or _qubits(question) or any(metrics_named(rest)):
        return None
    if available is not None and "get_execution_history" not in available:
        return None
    last = _LAST_N.search(question)
    last_n = min(50, max(1, int(last.group(1)))) if last else DEFAULT_LAST_N
    return PlannedCall("get_execution_history", {"chip_id": chip_id, "last_n": last_n}, "the chip's latest runs")


def plan_prefetch(question: str, *, chip_id: str | None, qid: str | None = None,
                  available: Sequence[str] | None = None) -> PlannedCall | None:
    """The call this question plainly needs, or None when the model should choose (see the module docstring)."""
    if not chip_id:
        return None
    if any(chip.lower() != chip_id.lower() for chip in _CHIP.findall(question)):
        return None  # another chip (or two): comparing chips is the model's job
    if _HISTORY.search(question):
        return _history_plan(question, chip_id, available)
    if _OTHER_TOOL.search(question):
        return None
    qubits = _qubits(question)
    if not qubits and qid is not None and _THIS_QUBIT.search(question):
        qubits = {str(int(qid)) if qid.isdigit() else qid}
    if len(qubits) > 1:
        return None
    named = metrics_named(question)
    plan: PlannedCall | None = None
    if qubits:
        q = next(iter(qubits))
        if _TREND.search(question):
            metric = _qubit_metric(named)
            if metric is not None:
                last = _LAST_N.search(question)
                last_n = min(MAX_LAST_N, max(1, int(last.group(1)))) if last else DEFAULT_LAST_N
                plan = PlannedCall("get_parameter_timeseries", {"parameter_name": metric, "chip_id": chip_id,
                                                                "qid": q, "last_n": last_n}, f"trend of one metric of Q{q}")
        elif not _MAP.search(question) and all(n is None or CATALOGUE[n].kind == "qubit" for n in named):
            plan = PlannedCall("get_qubit_params", {"chip_id": chip_id, "qid": q}, f"values of Q{q}")
    elif not _TREND.search(question):
        clear = [n for n in named if n is not None]  # a later "fidelity" after "X90 gate fidelity" refers back
        if _MAP.search(question):
            if len(clear) == 1:
                plan = PlannedCall("generate_chip_heatmap", {"chip_id": chip_id, "metric_name": clear[0]},
                                   f"map of {clear[0]}")
        elif _SUMMARY.search(question):
            args: dict = {"chip_id": chip_id}
            if clear and len(clear) == len(named) and all(CATALOGUE[n].kind == "qubit" for n in clear):
                args["param_names"] = clear
            plan = PlannedCall("get_chip_summary", args, "chip summary")
        elif _STAT.search(question) and clear and len(clear) == len(named) and \
                all(CATALOGUE[n].kind == "qubit" for n in clear):
            plan = PlannedCall("get_chip_summary", {"chip_id": chip_id, "param_names": clear},
                               "chip-wide statistic of " + ", ".join(clear))
    if plan is not None and available is not None and plan.name not in available:
        return None
    return plan
