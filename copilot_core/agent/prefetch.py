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
from copilot_core.domain.vocabulary import (
    LIMIT_WORDS,
    MAP_WORDS,
    MISSING_WORDS,
    NUMBER_WORDS,
    SUMMARY_WORDS,
    TREND_WORDS,
    is_below,
    metrics_named,
)

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


# Question shapes the question-shape tools answer (which qubit/coupling, past a threshold, without a value, a run's
# failures, when last calibrated, the last N values, a plot of one qubit's history, a change between the last two runs).
_COUNT = r"(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)"
_EXTREME = re.compile(r"\b(?:(?P<low>lowest|worst|smallest|minimum|shortest|bottom)|(?P<high>highest|best|largest"
                      r"|maximum|longest|top))\b", re.I)
_EXTREME_N = re.compile(rf"\b(?:(?:lowest|worst|smallest|highest|best|largest|top|bottom)\s+{_COUNT}|{_COUNT}\s+"
                        r"(?:lowest|worst|smallest|highest|best|largest|weakest|strongest)"
                        rf"|(?:which|the|list)\s+{_COUNT}\s+(?:\w+\s+)?(?:qubits|couplings|pairs))\b", re.I)
_PLURAL = re.compile(r"\b(?:which|what|list)\s+(?:\w+\s+)?(?:qubits|couplings|pairs)\b", re.I)
_LIMIT = re.compile(rf"(?:\b(?P<word>{LIMIT_WORDS})|(?P<sign>[<>]))\s*(?P<num>-?\d+(?:\.\d+)?)", re.I)
_MISSING = re.compile(rf"\b({MISSING_WORDS})\b", re.I)
_RUN_FAILURES = re.compile(r"\bfail\w*\b", re.I)
_RUN_WORDS = re.compile(r"\b(run|execution|calibration|latest|last|recent|most recent|today)\b", re.I)
_EXECUTION_ID = re.compile(r"\b\d{8}-\d{3,6}\b")
_LAST_CALIBRATED = re.compile(r"\bwhen\b.*\b(last )?(calibrat\w*|run|measured|executed|execution|start(ed)?)\b"
                              r"|\blast calibrat\w*",
                              re.I)
_RECENT_RUN = re.compile(r"\b(?:most )?recent (?:run|execution|calibration)s?\b", re.I)  # which run, not a trend
_PLOT = re.compile(r"\b(plot\w*|graph\w*|chart\w*|draw|visuali[sz]e\w*)\b", re.I)
_RECENT_N = re.compile(rf"\b(?:last|latest|most recent|{_COUNT} most recent|{_COUNT} latest)\s+{_COUNT}?\s*"
                       r"(?:[\w*]+\s+){0,3}(?:values|measurements|points|results|calibrations)\b", re.I)
# "between the last two runs", "since the previous execution", "the two most recent calibrations"
_TWO_RUNS = re.compile(r"\b(?:(?:last|latest|two most recent|most recent) two|two (?:most recent|latest|last)"
                       r"|previous|prior|preceding) (?:runs|executions|calibrations|run|execution|calibration)\b", re.I)
_CHANGE = re.compile(r"\b(chang\w*|drop\w*|fell|fall\w*|rose|ris\w*|increas\w*|decreas\w*|improv\w*|worsen\w*"
                     r"|degrad\w*|went (?:up|down)|moved?|differ\w*|compare\w*)\b", re.I)
_SUBJECT_WORDS = re.compile(r"\b(couplings?|pairs?)\b", re.I)  # what is ranked, not an (ambiguous) metric


def _count(text: str | None) -> int | None:
    if not text:
        return None
    text = text.lower()
    return NUMBER_WORDS.get(text) or (int(text) if text.isdigit() else None)


def _two_runs_plan(question: str, chip_id: str, qubits: set[str], metric_name: str | None) -> PlannedCall | None:
    """"How did Q12's T1 change between the last two runs?", "Which qubits' X90 fidelity dropped since the previous
    run?": the latest run against the one before it, for the one metric named and the qubits named."""
    if not (_TWO_RUNS.search(question) and _CHANGE.search(question)) or metric_name is None or len(qubits) > 10:
        return None
    args: dict = {"chip_id": chip_id, "metrics": [metric_name]}
    if qubits:
        if CATALOGUE[metric_name].kind != "qubit":
            return None
        args["qids"] = sorted(qubits, key=int)
    return PlannedCall("compare_calibrations", args, f"{metric_name} between the last two runs")


def _shape_plan(question: str, chip_id: str, qubits: set[str], named: list[str | None]) -> PlannedCall | None:
    """The question-shape tool a chip-wide question plainly needs (one clear metric where one is needed)."""
    clear = [n for n in named if n is not None]
    metric_name = clear[0] if len(clear) == 1 and len(named) == 1 else None
    if (compared := _two_runs_plan(question, chip_id, qubits, metric_name)) is not None:
        return compared
    if _RUN_FAILURES.search(question) and (_RUN_WORDS.search(question) or _EXECUTION_ID.search(question)) \
            and not qubits and metric_name is None:
        args: dict = {"chip_id": chip_id}
        if (ex := _EXECUTION_ID.search(question)) is not None:
            args["execution_id"] = ex.group(0)
        return PlannedCall("get_run_failures", args, "a run's failed tasks")
    if _LAST_CALIBRATED.search(question) and not qubits and metric_name is None and \
            not _TREND.search(_RECENT_RUN.sub(" ", question)):
        return PlannedCall("get_execution_history", {"chip_id": chip_id, "last_n": 1}, "when last calibrated")
    if qubits or metric_name is None:
        return None
    if _MISSING.search(question):
        return PlannedCall("missing_metric", {"chip_id": chip_id, "metric_name": metric_name},
                           f"which have no valid {metric_name}")
    limits = list(_LIMIT.finditer(question))
    if limits and not _TREND.search(question):
        args = {"chip_id": chip_id, "metric_name": metric_name}
        for m in limits:
            below = is_below(m.group("word") or "") or m.group("sign") == "<"
            args["below" if below else "above"] = float(m.group("num"))
        return PlannedCall("filter_metric", args, f"{metric_name} past a threshold")
    extreme = _EXTREME.search(question)
    if extreme and not _TREND.search(question) and not _MAP.search(question):
        entry = CATALOGUE[metric_name]
        low_word = extreme.group("low") is not None
        if extreme.group(0).lower() in ("worst", "best"):
            low_word = (extreme.group(0).lower() == "worst") == entry.higher_is_better
        counted = _EXTREME_N.search(question)
        n = next((c for g in (counted.groups() if counted else ()) if (c := _count(g))), None)
        n = n or (5 if _PLURAL.search(question) else 1)
        return PlannedCall("rank_metric", {"chip_id": chip_id, "metric_name": metric_name,
                                           "order": "lowest" if low_word else "highest", "n": min(n, 50)},
                           f"{'lowest' if low_word else 'highest'} {metric_name}")
    return None


def _recent_n(question: str) -> int | None:
    """N of "the last 5 values", "the two most recent values", "last three measurements"."""
    found = _RECENT_N.search(question)
    if not found:
        return None
    return next((c for g in found.groups() if (c := _count(g))), None)


def recent_values_asked(question: str) -> int | None:
    """How many of the most recent values the question asks for ("the two most recent T1 values": 2, "the latest
    values": 0, meaning every value fetched); None when it does not ask for recent values."""
    if not _RECENT_N.search(question):
        return None
    return _recent_n(question) or 0


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


def _qubit_history_plot(question: str, qubits: set[str], chip_id: str) -> PlannedCall | None:
    """"Plot the T1 history of qubit 5": one qubit, one clear metric, a plot word; the loop draws the points."""
    if len(qubits) != 1 or not _PLOT.search(question):
        return None
    metric = _qubit_metric(metrics_named(question))
    if metric is None:
        return None
    last = _LAST_N.search(question)
    last_n = min(MAX_LAST_N, max(1, int(last.group(1)) if last else _recent_n(question) or DEFAULT_LAST_N))
    q = next(iter(qubits))
    return PlannedCall("get_parameter_timeseries", {"parameter_name": metric, "chip_id": chip_id, "qid": q,
                                                    "last_n": last_n}, f"plot of one metric of Q{q}")


_PROVENANCE = re.compile(r"\b(come from|comes from|came from|which (?:task|execution|run) "
                         r"(?:produced|measured|set)|where did|where does)\b", re.I)


def _lineage_plan(question: str, qubits: set[str], chip_id: str) -> PlannedCall | None:
    """"Where does Q5's T1 come from?": one qubit, one clear metric, a provenance word (not "why": a root cause
    needs more than the versions, so the model chooses)."""
    if len(qubits) != 1 or not _PROVENANCE.search(question) or \
            re.search(r"\b(why|trace|graph|lineage|provenance)\b", question, re.I):  # the graph too: the model's
        return None
    metric = _qubit_metric(metrics_named(question))
    if metric is None:
        return None
    q = next(iter(qubits))
    return PlannedCall("get_parameter_lineage", {"parameter_name": metric, "qid": q, "chip_id": chip_id},
                       f"provenance of {metric} of Q{q}")


def plan_prefetch(question: str, *, chip_id: str | None, qid: str | None = None,
                  available: Sequence[str] | None = None) -> PlannedCall | None:
    """The call this question plainly needs, or None when the model should choose (see the module docstring)."""
    if not chip_id:
        return None
    if any(chip.lower() != chip_id.lower() for chip in _CHIP.findall(question)):
        return None  # another chip (or two): comparing chips is the model's job
    shaped = _shape_plan(question, chip_id, _qubits(question), metrics_named(_SUBJECT_WORDS.sub(" ", question)))
    if shaped is not None:
        return shaped if available is None or shaped.name in available else None
    if _HISTORY.search(question):
        return _history_plan(question, chip_id, available)
    qubits = _qubits(question)
    plotted = _qubit_history_plot(question, qubits, chip_id) or _lineage_plan(question, qubits, chip_id)
    if plotted is not None:
        return plotted if available is None or plotted.name in available else None
    if _OTHER_TOOL.search(question):
        return None
    if not qubits and qid is not None and _THIS_QUBIT.search(question):
        qubits = {str(int(qid)) if qid.isdigit() else qid}
    if len(qubits) > 1:
        return None
    named = metrics_named(question)
    plan: PlannedCall | None = None
    if qubits:
        q = next(iter(qubits))
        if _TREND.search(question) or _recent_n(question):
            metric = _qubit_metric(named)
            if metric is not None:
                last = _LAST_N.search(question)
                last_n = min(MAX_LAST_N, max(1, int(last.group(1)) if last else _recent_n(question)
                                             or DEFAULT_LAST_N))
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
