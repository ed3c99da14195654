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

from collections.abc import Sequence

from copilot_core.language.question import Question, parse
from copilot_core.language.ranked import HIGH_WORDS, LOW_WORDS, ranking_order
from copilot_core.routing.counts import (
    KINDS, count_plan, counts_side_by_side, days_args, distinct_plan, failed_counted, failure_plan, failures_compared,
    kind_counted, narrowed, runs_asked, share_total, tasks_named, window_args, window_days,
)
from copilot_core.routing.conditions import status_plan
from copilot_core.routing.fill import FillCall, agreed, fill_schema
from copilot_core.routing.limits import quality_conditions
from copilot_core.routing.planned import PlannedCall
from copilot_core.domain.metrics import CATALOGUE
from copilot_core.domain.vocabulary import NOT_HELD, not_held_arg
from copilot_core.routing.couplings import coupling_asked, couplings_plan
from copilot_core.routing.statistics import (chips_plan, names_statistic, pair_statistic, spread_asked,
                                               spread_plan)

DEFAULT_LAST_N = 10
MAX_LAST_N = 100


def _two_runs_plan(asked: Question, chip_id: str, qubits: set[str], metric_name: str | None) -> PlannedCall | None:
    """"How did Q12's T1 change between the last two runs?", "Which qubits' X90 fidelity dropped since the previous
    run?": the latest run against the one before it, for the one metric named and the qubits named; "What changed
    on 144Qv2 since the last calibration run?" names no metric: every metric of the two runs."""
    since = asked.has("since last run")
    if not (since or asked.has("two runs") and asked.has("change")) or len(qubits) > 10 or \
            metric_name is None and (not since or any(asked.metrics)):
        return None
    args: dict = {"chip_id": chip_id, **({"metrics": [metric_name]} if metric_name else {})}
    if qubits:
        if metric_name is not None and CATALOGUE[metric_name].kind != "qubit":
            return None
        args["qids"] = sorted(qubits, key=int)
    return PlannedCall("compare_calibrations", args, f"{metric_name or 'every metric'} between the last two runs")


def _shape_plan(asked: Question, chip_id: str, qubits: set[str], named: Sequence[str | None]) -> PlannedCall | None:
    """The question-shape tool a chip-wide question plainly needs (one clear metric where one is needed)."""
    clear = [n for n in named if n is not None]
    metric_name = clear[0] if len(clear) == 1 and len(named) == 1 else None
    if (compared := _two_runs_plan(asked, chip_id, qubits, metric_name)) is not None:
        return compared
    if not qubits and (related := correlation_plan(asked, chip_id, named)) is not None:
        return related  # over the latest values even when a window is written: the scope check says so
    if not qubits and not asked.has("trend") and (chip_wide := status_plan(asked, chip_id) or quality_plan(
            asked, chip_id) or _chip_shape_plan(asked, chip_id, named)) is not None:
        return chip_wide
    terse = asked.has("list or count") and asked.window is None and not asked.has("loose time") and \
        asked.task_name is None  # "list failed tasks", "count failed tasks?": the latest run's failures
    if asked.has("fail") and (asked.has("run words") or asked.execution_id or terse) and not qubits and \
            metric_name is None:
        args: dict = {"chip_id": chip_id}
        if asked.execution_id is not None:
            args["execution_id"] = asked.execution_id
        return PlannedCall("get_run_failures", args, "a run's failed tasks")
    if asked.has("last calibrated") and not qubits and metric_name is None and \
            not asked.without("recent run").has("trend"):
        return PlannedCall("get_execution_history", {"chip_id": chip_id, "last_n": 1}, "when last calibrated")
    if qubits or metric_name is None:
        return None
    if asked.has("missing"):
        return PlannedCall("missing_metric", {"chip_id": chip_id, "metric_name": metric_name},
                           f"which have no valid {metric_name}")
    if asked.limits and not asked.has("trend"):
        if any(t.metric != metric_name for t in asked.limits) or len({t.side for t in asked.limits}) < len(asked.limits):
            return None  # one metric's filter would carry only some of the conditions: the model chooses
        args = {"chip_id": chip_id, "metric_name": metric_name}
        for limit in asked.limits:
            args[limit.side] = limit.value
        return PlannedCall("filter_metric", args, f"{metric_name} past a threshold")
    word, extreme = asked.extreme_word, asked.extreme  # the end the word means, own words too ("trailing")
    if (word in LOW_WORDS | HIGH_WORDS or extreme is not None and word not in ("top", "bottom")) and \
            not asked.has("trend") and not asked.has("map"):
        order = ranking_order(word, extreme, CATALOGUE[metric_name].higher_is_better)
        n = asked.extreme_n or (5 if asked.has("plural") else 1)
        return PlannedCall("rank_metric", {"chip_id": chip_id, "metric_name": metric_name, "order": order,
                                           "n": min(n, 50)}, f"{order} {metric_name}")
    return None


def quality_plan(asked: Question, chip_id: str) -> PlannedCall | None:
    """"Which qubits have low readout fidelity and short T1?": each condition in words at the lab's band limit (with
    any limit written as a number); none when a condition has no band, or the question ranks, spreads or relates."""
    conditions = quality_conditions(asked) if asked.qualities else None
    if not conditions or asked.extreme_word or asked.chart or asked.has("definition") or asked.has("missing") or \
            asked.relates or asked.shape in ("spread", "trend", "statistic") or asked.ranges:
        return None
    wanted = [(t.metric, t.side, t.value) for t in asked.limits] + conditions
    if any(m is None for m, _, _ in wanted) or len(wanted) > 4 or len({CATALOGUE[str(m)].kind for m, _, _ in wanted}) > 1:
        return None
    metrics = list(dict.fromkeys(str(m) for m, _, _ in wanted))
    why = " and ".join(f"{q.word} {q.metric}" for q in asked.qualities) + " at the lab's band limits"
    if len(metrics) == 1:
        return PlannedCall("filter_metric", {"chip_id": chip_id, "metric_name": metrics[0],
                                             **{s: v for _, s, v in wanted}}, why)
    return PlannedCall("filter_metrics", {"chip_id": chip_id, "join": asked.join,
                                          "conditions": [{"metric_name": m, s: v} for m, s, v in wanted]}, why)


def correlation_method(asked: Question) -> str:
    """The coefficient a correlation question names: Spearman's, Pearson's, both; Pearson's when it names none."""
    return "both" if asked.has("spearman") and asked.has("pearson") else \
        "spearman" if asked.has("spearman") else "pearson"


def correlation_plan(asked: Question, chip_id: str, named: Sequence[str | None]) -> PlannedCall | None:
    """How two clearly named metrics of one kind go together across the chip, with no limit that narrows them."""
    clear = list(dict.fromkeys(n for n in named if n is not None))
    if not asked.relates or len(clear) != 2 or None in named or asked.limits or \
            len({CATALOGUE[n].kind for n in clear}) != 1:
        return None
    return PlannedCall("correlate_metrics", {"chip_id": chip_id, "metric_a": clear[0], "metric_b": clear[1],
                                             "method": correlation_method(asked)},
                       f"correlation of {clear[0]} and {clear[1]}")


def _chip_shape_plan(asked: Question, chip_id: str, named: Sequence[str | None]) -> PlannedCall | None:
    """Several conditions at once, a spread or a correlation across the chip: each metric named clearly."""
    clear = list(dict.fromkeys(n for n in named if n is not None))
    if not clear or None in named:
        return None
    limits = asked.limits
    if len(clear) >= 2 and len({t.metric for t in limits}) >= 2 and all(t.metric in clear for t in limits):
        if len({CATALOGUE[n].kind for n in clear}) != 1 or len(limits) > 4:
            return None
        join = asked.join  # each limit is of the metric written next to it
        return PlannedCall("filter_metrics", {"chip_id": chip_id, "join": join, "conditions": [
            {"metric_name": t.metric, t.side: t.value} for t in limits]}, f"{f' {join} '.join(clear)} past their limits")
    if asked.unfit:  # a limit no metric named can hold: the others' filter, the turn says why (``unfit_note``)
        metric = limits[0].metric if limits else None
        if metric is None or any(t.metric != metric for t in limits) or len({t.side for t in limits}) < len(limits):
            return None
        return PlannedCall("filter_metric", {"chip_id": chip_id, "metric_name": metric,
                                             **{t.side: t.value for t in limits}}, f"{metric} past a threshold")
    if len(limits) == 1 and limits[0].metric in clear and not asked.has("missing"):
        # a lone limit is its own metric's ("qubits with T1 above 30 μs, what is their readout fidelity"): the
        # parse already gave it to every metric that shares it ("both T1 and T2 echo above 30 μs")
        t = limits[0]
        return PlannedCall("filter_metric", {"chip_id": chip_id, "metric_name": t.metric, t.side: t.value},
                           f"{t.metric} past a threshold")
    if len(limits) >= 2 and len(clear) == len(limits):
        kinds = {CATALOGUE[n].kind for n in clear}
        if len(kinds) != 1 or len(clear) > 4:
            return None
        conditions = [{"metric_name": n, limit.side: limit.value} for n, limit in zip(clear, limits)]
        join = asked.join
        return PlannedCall("filter_metrics", {"chip_id": chip_id, "conditions": conditions, "join": join},
                           f"{f' {join} '.join(clear)} past their limits")
    if limits:
        return None
    if spread_asked(asked) and len(clear) == 1:
        return spread_plan(asked, chip_id, clear[0])
    return None


def recent_values_asked(question: str) -> int | None:
    """How many of the most recent values the question asks for ("the two most recent T1 values": 2, "the latest
    values": 0, meaning every value fetched); None when it does not ask for recent values."""
    return parse(question).recent_n


def _runs_holding_failures(asked: Question) -> bool:
    """A count or share of the runs that held a failed result ("how many runs had a failed task", "what share of
    executions saw an error"), in any window or none, of one qubit or none."""
    return failed_counted(asked) == "runs with failures" and len(asked.qubits) <= 1 and not asked.couplings and \
        (asked.has("count words") or asked.has("counted runs") or asked.counted is not None and asked.counted.share)


def compared_plan(asked: Question, chip_id: str) -> PlannedCall | None:
    """The call of a "cross-chip", "fails most", "window count" or "qubit pair" question (one clear metric where
    the shape needs one)."""
    clear = [n for n in asked.metrics if n is not None]
    one = clear[0] if len(clear) == 1 and len(asked.metrics) == 1 else None
    days = window_days(asked)
    if (counted := failures_compared(asked, chip_id, days) or counts_side_by_side(asked, chip_id, days, one)) \
            is not None:
        return counted
    if (ranked := distinct_plan(asked, chip_id, days) or failure_plan(asked, chip_id, days)) is not None:
        return ranked
    kind = kind_counted(asked)
    if asked.shape == "window count" and (days is not None or asked.since_weekday is not None or asked.dates
                                         or asked.last_runs or asked.has("per day")) or \
            asked.shape in ("count", "percentage") and kind in KINDS and (asked.has("tasks") or asked.has("result words")) \
            or asked.task_name is not None and asked.has("fail") and asked.has("count words") and not asked.qubits \
            or _runs_holding_failures(asked):
        return count_plan(asked, chip_id, days, clear, one)  # an excluded (usable, completed) count: any window
    if asked.shape == "percentage" and (asked.has("fail") or kind in KINDS) and \
            (not clear or tasks_named(asked)) and len(asked.chip_ids) <= 1:
        chip = asked.chip_ids[0] if asked.chip_ids else chip_id
        runs = runs_asked(asked)  # "% of runs failed"
        held = failed_counted(asked) == "runs with failures"  # "% of runs with a failed task"; else every run's
        what = ("runs with failures" if held else "runs") if runs else \
            "failed tasks" if asked.has("fail") or kind is None else kind
        args = {"chip_id": chip, "what": what, **window_args(asked, days), **narrowed(asked), **share_total(asked)}
        return PlannedCall("count_in_window", args, f"share of {'runs that failed' if runs else what}")
    two = asked.shape == "qubit pair" or len(asked.qubits) == 2 and (  # "T1 of Q3 and Q7", "parameters of Q3, Q7"
        asked.shape == "lookup" or asked.shape == "other" and asked.has("parameters"))
    chip = asked.chip_ids[0] if len(asked.chip_ids) == 1 else chip_id
    stat = pair_statistic(asked)  # a mean over a window of days, how much each varied, drifted, improved ...
    if two and (days is not None or stat in ("std", "drift", "gain")) and one is not None and \
            CATALOGUE[one].kind == "qubit" and not asked.chart and not coupling_asked(asked):
        named = {"statistic": stat} if stat not in (None, "mean") else {}
        return PlannedCall("get_chip_parameter_timeseries", {"parameter_name": one, "chip_id": chip, "qids": sorted(
            asked.qubits, key=int), **days_args(asked, days, one_day=False), **named}, "two qubits over a window")
    if two and not coupling_asked(asked) and (one is None or CATALOGUE[one].kind == "qubit") and len(clear) == len(
            asked.metrics) and not asked.has("trend") and not asked.chart:  # a trend of two qubits is a history
        args = {"chip_id": chip, "qids": sorted(asked.qubits, key=int)}
        if one is not None:
            args["param_names"] = [one]
        return PlannedCall("compare_qubits", args, "two qubits side by side")
    if one is None and asked.has("subject words") and not asked.ends:  # "the worst coupling's gate time": no metric
        bare = asked.without("subject words").metrics
        one = bare[0] if len(bare) == 1 else None
    if one is not None and (asked.shape == "cross-chip" or asked.chip_scope != "one" and (
            asked.has("chip stat") or names_statistic(asked) or asked.limits) and not asked.qubits):  # per chip
        return chips_plan(asked, one)
    return None


def _qubit_metric(names: Sequence[str | None]) -> str | None:
    """The single clear qubit metric named, else None."""
    if len(names) != 1 or names[0] is None:
        return None
    return names[0] if CATALOGUE[names[0]].kind == "qubit" else None


def _other_tool(asked: Question) -> bool:
    """Words a plain lookup does not answer (tasks, couplings, provenance, runs ...): the model chooses."""
    return asked.has("other tool") or asked.has("dash pair")


def _history_plan(asked: Question, chip_id: str, available: Sequence[str] | None) -> PlannedCall | None:
    """The chip's latest runs, when nothing else in the question narrows or changes what is asked."""
    rest = asked.without("history")
    if asked.has("history filter") or asked.has("year month") or _other_tool(rest) or asked.qubits \
            or any(rest.metrics):
        return None
    if available is not None and "get_execution_history" not in available:
        return None
    last_n = min(50, max(1, asked.last_n)) if asked.last_n is not None else DEFAULT_LAST_N
    return PlannedCall("get_execution_history", {"chip_id": chip_id, "last_n": last_n}, "the chip's latest runs")


def _points(asked: Question) -> int:
    """How many points of a history to fetch: "last 20 measurements", "the 5 most recent values", else 10."""
    return min(MAX_LAST_N, max(1, asked.last_n if asked.last_n is not None else asked.recent_n or DEFAULT_LAST_N))


def _qubit_history_plot(asked: Question, qubits: set[str], chip_id: str) -> PlannedCall | None:
    """"Plot the T1 history of qubit 5": one qubit, one clear metric, a plot word; the loop draws the points."""
    if len(qubits) != 1 or not asked.chart:
        return None
    metric = _qubit_metric(asked.metrics)
    if metric is None:
        return None
    q = next(iter(qubits))
    return PlannedCall("get_parameter_timeseries", {"parameter_name": metric, "chip_id": chip_id, "qid": q,
                                                    "last_n": _points(asked)}, "plot of one metric of the qubit asked about")


def _lineage_plan(asked: Question, qubits: set[str], chip_id: str) -> PlannedCall | None:
    """"Where does Q5's T1 come from?": one qubit, one clear metric, a provenance word (not "why": a root cause
    needs more than the versions, so the model chooses; not the graph either)."""
    if len(qubits) != 1 or not asked.has("provenance") or asked.has("graph words"):
        return None
    metric = _qubit_metric(asked.metrics)
    if metric is None:
        return None
    q = next(iter(qubits))
    return PlannedCall("get_parameter_lineage", {"parameter_name": metric, "qid": q, "chip_id": chip_id},
                       f"provenance of {metric} of the qubit asked about")


def _offered(plan: PlannedCall | None, available: Sequence[str] | None) -> PlannedCall | None:
    return plan if plan is not None and (available is None or plan.name in available) else None


def plan_prefetch(question: str, *, chip_id: str | None, qid: str | None = None,
                  available: Sequence[str] | None = None, chips: Sequence[str] = (),
                  filler: FillCall | None = None) -> PlannedCall | None:
    """The call this question plainly needs, or None when the model should choose (see the module docstring);
    ``chips``: the installed chip ids, so a chip written short ("64Q") is the one it means; ``filler``: one
    constrained model call that fills the fields of a question the parse leaves unrouted (:mod:`.fill`)."""
    if not chip_id:
        return None
    asked = parse(question, chips)
    planned = _planned(asked, chip_id, qid, available)
    if planned is not None or filler is None:
        return planned
    filled = agreed(asked, filler(question, fill_schema(asked)))
    return None if filled is None else _planned(filled, chip_id, qid, available)


def _planned(asked: Question, chip_id: str, qid: str | None, available: Sequence[str] | None) -> PlannedCall | None:
    near = {m for key in asked.not_held for m in NOT_HELD[key][1]}  # "how non-demolition is the readout": a
    if asked.not_held and not any(m is not None and m not in near for m in asked.metrics):  # neighbour's word too
        chip = asked.chip or chip_id
        return _offered(PlannedCall("check_target", {"chip_id": chip, "metric_name": not_held_arg(asked.not_held[0])},
                                    "a quantity the data does not hold", settles=True), available)
    compared = compared_plan(asked, chip_id)
    if compared is not None:
        return _offered(compared, available)
    if any(chip.lower() != chip_id.lower() for chip in asked.chip_ids):
        if asked.chip is None or len({c.lower() for c in asked.chip_ids}) != 1:
            return None  # two chips with no shape that compares them, or one not installed: the model's job
        chip_id = asked.chip  # the one installed chip named is the one asked about, not the one in view
    qubits = set(asked.ends)  # a coupling's ends too
    if (of_qubit := couplings_plan(asked, chip_id)) is not None:
        return _offered(of_qubit, available)
    shaped = _shape_plan(asked, chip_id, qubits, asked.without("subject words").metrics)
    if shaped is not None:
        return _offered(shaped, available)
    if asked.has("history"):
        return _history_plan(asked, chip_id, available)
    plotted = _qubit_history_plot(asked, qubits, chip_id) or _lineage_plan(asked, qubits, chip_id)
    if plotted is not None:
        return _offered(plotted, available)
    if _other_tool(asked):
        return None
    if not qubits and qid is not None and asked.has("this qubit"):
        qubits = {str(int(qid)) if qid.isdigit() else qid}
    v = asked.verdict  # "are Q3, Q5 and Q8 all above 50 μs T1?": each one's value of that metric
    if len(qubits) > 1 and v is not None and len(v.subjects) > 1 and CATALOGUE[v.metric].kind == "qubit":
        return _offered(PlannedCall("compare_qubits", {"chip_id": chip_id, "qids": list(v.subjects)[:32],
                                                       "param_names": [v.metric]}, f"{v.metric} of each qubit asked"),
                        available)
    if len(qubits) > 1:
        return None
    return _offered(_value_plan(asked, chip_id, qubits), available)


def _value_plan(asked: Question, chip_id: str, qubits: set[str]) -> PlannedCall | None:
    """One qubit's values or trend, or a chip-wide map, summary or statistic."""
    named = asked.metrics
    if qubits:
        q = next(iter(qubits))
        if asked.has("trend") or asked.recent_n:
            metric = _qubit_metric(named)
            if metric is None:
                return None
            days = window_days(asked)
            span = days_args(asked, days, one_day=False) if days and asked.last_n is None and not asked.recent_n \
                else {"last_n": _points(asked)}
            return PlannedCall("get_parameter_timeseries", {"parameter_name": metric, "chip_id": chip_id, "qid": q,
                                                            **span}, "trend of one metric of the qubit asked about")
        if not asked.has("map") and all(n is None or CATALOGUE[n].kind == "qubit" for n in named):
            asked_names = [n for n in dict.fromkeys(named) if n is not None]
            return PlannedCall("get_qubit_params", {"chip_id": chip_id, "qid": q,
                                                    **({"param_names": asked_names} if asked_names else {})},
                               "values of the qubit asked about")
        return None
    if asked.has("trend"):
        metric = _qubit_metric(named)
        days = window_days(asked)
        if metric is None or days is None:
            return None
        return PlannedCall("get_chip_parameter_timeseries", {"parameter_name": metric, "chip_id": chip_id,
                                                             **days_args(asked, days, one_day=False)},
                           f"trend of {metric} across the chip")
    clear = [n for n in named if n is not None]  # a later "fidelity" after "X90 gate fidelity" refers back
    all_qubit = bool(clear) and len(clear) == len(named) and all(CATALOGUE[n].kind == "qubit" for n in clear)
    if asked.has("map"):
        return PlannedCall("generate_chip_heatmap", {"chip_id": chip_id, "metric_name": clear[0]},
                           f"map of {clear[0]}") if len(clear) == 1 else None
    if asked.has("summary"):
        args: dict = {"chip_id": chip_id}
        if all_qubit:
            args["param_names"] = clear
        return PlannedCall("get_chip_summary", args, "chip summary")
    if asked.has("statistic") and all_qubit:
        return PlannedCall("get_chip_summary", {"chip_id": chip_id, "param_names": clear},
                           "chip-wide statistic of " + ", ".join(clear))
    return None
