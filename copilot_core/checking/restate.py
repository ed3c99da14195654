"""Does a tool call restate its question?  Every call a turn makes (the router's, the model's, a retry) against the
parsed :class:`~copilot_core.language.question.Question`.

A tool's answer sentence is right about what it computed; the numbers are the tool's, so the claim check cannot see
that the call answered another question: a compound filter with one of its conditions dropped or put on another
metric or side, a share counted against another limit, a top N of another metric or another N, a coupling's values
for a question about its two qubits' own.  Each element the question settles (metrics, each limit's value and side
held to its metric by :func:`~copilot_core.routing.limits.in_display_unit`, subject, N, order, statistic) that a
call contradicts or leaves out is a :class:`Mismatch`.  :func:`corrected` re-makes a call whose correction is
unambiguous before it runs; :func:`restated_blocks` puts a visible note under an answer when no call of the turn
restates the question, saying what was computed and what the question asked that it does not cover.  The window,
the task and a single qubit are the scope check's (:mod:`~copilot_core.checking.scope`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from copilot_core.answer.blocks import Block, TextBlock
from copilot_core.domain.metrics import CATALOGUE, unit_suffix
from copilot_core.language.question import Question
from copilot_core.language.ranked import ranking_order
from copilot_core.checking.restate_failures import LISTINGS, failure_mismatches, failure_rebuilt
from copilot_core.checking.restate_elements import (DEFAULT_MANY, element_mismatches, many_asked, unasked_note,
                                                     rebuilt)
from copilot_core.checking.restate_sides import SIDE_CALLS, sides_mismatches, sides_rebuilt
from copilot_core.routing.counts import counted_kind
from copilot_core.routing.conditions import status_plan
from copilot_core.routing.limits import SIDES, in_display_unit, quality_conditions, settle_limits
from copilot_core.tools.toolkit import ToolOutcome

Condition = tuple[str, str, float]  # metric, side, limit in the metric's display unit
_FILTERS = frozenset({"filter_metric", "filter_metrics"})
_METRIC_ARGS = ("metric_name", "metric_a", "metric_b", "parameter_name", "param_names")
# The tools whose arguments carry what a question settles; other calls (a chip summary, a qubit's values) are
# context, and the scope check holds their window, task and qubit.
CHECKED = frozenset({"filter_metric", "filter_metrics", "rank_metric", "missing_metric", "metric_spread",
                     "correlate_metrics", "compare_chips", "compare_qubits", "get_coupling_params", "count_in_window",
                     "get_parameter_timeseries", "get_chip_parameter_timeseries", "generate_chip_heatmap",
                     "get_parameter_lineage", "failure_ranking"}) | LISTINGS
MAX_CONDITIONS = 4  # filter_metrics' own limit


@dataclass(frozen=True)
class Mismatch:
    """One element the question settles that the call contradicts or leaves out, in words the person can check."""

    missed: str  # "also sets T2 echo above 30 μs", "asks for the lowest 3, not the highest 5"


def _title(name: str) -> str:
    entry = CATALOGUE.get(name)
    return entry.title if entry is not None else name


def limit_words(name: str, side: str, value: float) -> str:
    entry = CATALOGUE.get(name)
    unit = unit_suffix(entry.unit) if entry is not None else ""
    return f"{_title(name)} {side} {value:g}{unit}"


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        return float(value)
    except ValueError:
        return None


def asked_conditions(asked: Question) -> list[Condition]:
    """The question's limits, each of its own metric, in that metric's display unit (a limit of no clear metric, or
    in a unit the metric cannot have, settles nothing here: the limit check refuses those)."""
    out: list[Condition] = []
    for t in asked.limits:
        entry = CATALOGUE.get(t.metric) if t.metric is not None else None
        value = in_display_unit(t, entry) if entry is not None else None
        if entry is not None and value is not None:
            out.append((entry.name, t.side, value))
    return list(dict.fromkeys(out + (quality_conditions(asked) or [])))


def call_conditions(name: str, args: dict) -> list[Condition]:
    """A filter call's limits (a share across chips' too) as (metric, side, value)."""
    holders = [args] if name in ("filter_metric", "compare_chips") else \
        args.get("conditions") if name == "filter_metrics" else []
    out: list[Condition] = []
    for holder in holders if isinstance(holders, list) else []:
        if not isinstance(holder, dict):
            continue
        for side in SIDES:
            value = _number(holder.get(side))
            if value is not None:
                out.append((str(holder.get("metric_name")), side, value))
    return out


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def call_metrics(name: str, args: dict) -> list[str]:
    """The metrics a call reads."""
    found: list[str] = [m for m, _, _ in call_conditions(name, args)] if name == "filter_metrics" else []
    for key in _METRIC_ARGS:
        value = args.get(key)
        found += [str(v) for v in value] if isinstance(value, list) else [str(value)] if value is not None else []
    return list(dict.fromkeys(found))


def _condition_metrics(args: dict) -> set[str]:
    """The metrics of a ``filter_metrics`` call's conditions, a status ("no valid value") included."""
    held = args.get("conditions")
    return {str(c.get("metric_name")) for c in held if isinstance(c, dict)} if isinstance(held, list) else set()


def _clear(asked: Question) -> list[str]:
    """The question's metrics, when every metric phrase it holds is clear ("T2" alone settles none; "coupling" and
    "pair" name what is read, no metric)."""
    named = asked.without("subject words").metrics
    return [] if None in named else list(dict.fromkeys(m for m in named if m is not None))


def _order_asked(asked: Question, metric: str) -> str | None:
    """The end the router ranks at (:func:`~copilot_core.language.ranked.ranking_order`), None when none is said."""
    entry = CATALOGUE.get(metric)
    if asked.extreme is None or entry is None and asked.extreme in ("best", "worst"):
        return None
    return ranking_order(asked.extreme_word, asked.extreme, entry.higher_is_better if entry else True)


def _join_asked(asked: Question) -> str | None:
    """How the question joins limits of several metrics (a range's own "or", "below 40 or above 90", is no join:
    :attr:`Question.join`)."""
    return asked.join


def _limit_mismatches(asked: Question, name: str, args: dict) -> list[Mismatch]:
    wanted = asked_conditions(asked)
    given = call_conditions(name, args)
    out = []
    for metric, side, value in wanted:
        if any(m == metric and s == side and _same(v, value) for m, s, v in given):
            continue
        said = limit_words(metric, side, value)
        wanted_here = {(m, s, v) for m, s, v in wanted if m == metric}
        other = [c for c in given if c[0] == metric and not any(c[1] == s and _same(c[2], v) for _, s, v in wanted_here)]
        if other:
            out.append(Mismatch(f"sets {said}, not {' and '.join(limit_words(*c) for c in other)}"))
        else:
            out.append(Mismatch(f"also sets {said}"))
    wanted_metrics = {m for m, _, _ in wanted}
    shared = set(_shared(asked, given))
    for c in given:
        if c[0] not in wanted_metrics and wanted and c not in shared:
            out.append(Mismatch(f"sets no limit of {_title(c[0])}"))
    return out


def _shared(asked: Question, given: Sequence[Condition]) -> list[Condition]:
    """The call's limits on a metric the question names with no limit of its own, that hold the question's one limit
    in this metric's unit ("T1 and T2 echo both above 60 μs": one limit, two metrics)."""
    own = {t.metric for t in asked.limits}
    out = []
    for metric, side, value in given:
        entry = CATALOGUE.get(metric)
        if entry is None or metric in own or metric not in _clear(asked):
            continue
        if any(t.side == side and (v := in_display_unit(t, entry)) is not None and _same(v, value)
               for t in asked.limits):
            out.append((metric, side, value))
    return out


def _pair_mismatches(asked: Question, name: str, args: dict, clear: list[str]) -> list[Mismatch]:
    """A coupling's values for a question about its two qubits' own parameter, or conversely; other
    qubits than the two named."""
    kinds = {CATALOGUE[m].kind for m in clear if m in CATALOGUE}
    wanted = " and ".join(_title(m) for m in clear)
    if name == "get_coupling_params" and kinds == {"qubit"}:
        return [Mismatch(f"asks for each qubit's own {wanted}, not the coupling's values")]
    if name == "compare_qubits" and kinds == {"coupling"}:
        return [Mismatch(f"asks for the coupling's {wanted}, not each qubit's own values")]
    if name == "compare_qubits" and len(asked.qubits) >= 2 and isinstance(args.get("qids"), list):
        given = {str(q).lstrip("Qq").lstrip("0") or "0" for q in args["qids"]}
        if given != set(asked.qubits):
            return [Mismatch(f"names qubits {', '.join(asked.qubits)}")]
    if name == "get_coupling_params" and isinstance(args.get("coupling_id"), str):
        ends = {e.lstrip("0") or "0" for e in args["coupling_id"].split("-")}
        named = {e for c in asked.couplings for e in c.split("-")} or (set(asked.qubits) if len(asked.qubits) == 2
                                                                         else set())
        if named and ends != named:
            return [Mismatch(f"names the coupling of qubits {' and '.join(sorted(named, key=int))}")]
    return []


def _chips_named(asked: Question) -> list[str]:
    """The chips a question sets side by side (two or more named, or each installed one it asks for)."""
    return list({c.lower(): c for c in reversed(asked.chips_asked)}.values())[::-1]


def _chips_mismatch(asked: Question, name: str, args: dict) -> Mismatch | None:
    """Two chips named (or each chip asked for), and a count or a chip comparison over other chips (a count of one
    chip alone, when the question compares: its shape is cross-chip, it asks per chip, or the call already counts
    side by side)."""
    named = _chips_named(asked)
    given = args.get("chip_ids")
    if not named or name not in ("compare_chips", "count_in_window") or \
            name == "count_in_window" and given is None and asked.shape != "cross-chip" and not asked.has("each chip"):
        return None
    chips = [str(c) for c in given] if isinstance(given, list) else [] if name == "compare_chips" else \
        [str(args.get("chip_id"))]
    if name == "compare_chips" and not chips or {c.lower() for c in chips} == {c.lower() for c in named}:
        return None  # compare_chips with no chip_ids compares every chip, the named ones among them
    return Mismatch(f"sets {' and '.join(named)} side by side, not {' and '.join(chips)}")


_COUNTED_WORDS = {"failed runs": "failed runs (executions)", "failed tasks": "failed task results", "runs with failures":
                  "runs (executions) with at least one failed task result", "excluded tasks": "excluded task results",
                  "usable tasks": "usable task results (completed, not excluded)", "completed tasks": "completed task "
                  "results", "task results": "every finished task result", "notes": "calibration notes"}


def _counted_mismatch(asked: Question, args: dict) -> Mismatch | None:
    """A count of another kind of result than the question's: failed task results for failed runs, usable or every
    finished one for excluded ones (:func:`~copilot_core.routing.counts.kind_counted`)."""
    wanted, given = counted_kind(asked), args.get("what")
    if wanted is None or given not in _COUNTED_WORDS and (wanted != "notes" or given is None) or given == wanted:
        return None  # calibration notes: no other kind counts them
    return Mismatch(f"counts {_COUNTED_WORDS[wanted]}, not {_COUNTED_WORDS.get(str(given), str(given))}")


def mismatches(asked: Question, name: str, args: dict) -> list[Mismatch]:
    """What the question settles that the call ``name(args)`` contradicts or leaves out; empty when it restates the
    question (or is no call :data:`CHECKED` holds)."""
    if name in SIDE_CALLS - CHECKED and isinstance(args, dict):  # a chip summary: only its scope is held
        return [Mismatch(m) for m in sides_mismatches(asked, name, args) + failure_mismatches(asked, name, args)]
    if name not in CHECKED or not isinstance(args, dict):
        return []
    clear = _clear(asked)
    out: list[Mismatch] = []
    used = call_metrics(name, args)
    limit_metrics = {m for m, _, _ in asked_conditions(asked)}
    if clear:
        names = args.get("param_names")
        listed: list = names if isinstance(names, list) else []
        others = [m for m in used if m not in clear and m not in limit_metrics and m not in listed]
        if listed and not any(str(m) in clear or str(m) in limit_metrics for m in listed):
            others += [str(m) for m in listed]  # a list of parameters reads another's besides: context, unless all
        if others:
            out.append(Mismatch(f"asks about {' and '.join(_title(m) for m in clear)}, not "
                                f"{' and '.join(_title(m) for m in others)}"))
    if name in _FILTERS or (name in ("rank_metric", "compare_chips") and limit_metrics):
        out += _limit_mismatches(asked, name, args)
    out += [Mismatch(m) for m in element_mismatches(asked, name, args, used) + failure_mismatches(asked, name, args)]
    join = _join_asked(asked)
    if name == "filter_metrics" and join is not None and len(_condition_metrics(args)) > 1 and \
            args.get("join", "and") != join:
        out.append(Mismatch("asks for " + ("every condition at once" if join == "and" else "any one condition") +
                            ", not " + ("any one of them" if join == "and" else "every one at once")))
    if name == "rank_metric":
        metric = str(args.get("metric_name"))
        order = _order_asked(asked, metric)
        given_order = str(args.get("order") or "lowest")
        n = asked.extreme_n
        given_n = _number(args.get("n")) or 5
        if order is not None and order != given_order:
            out.append(Mismatch(f"asks for the {order}, not the {given_order}"))
        if n is not None and int(given_n) != n:
            out.append(Mismatch(f"asks for {n}, not {int(given_n)}"))
    out += [Mismatch(m) for m in sides_mismatches(asked, name, args)]
    if name in ("get_coupling_params", "compare_qubits"):
        out += _pair_mismatches(asked, name, args, clear)
    if (sides := _chips_mismatch(asked, name, args)) is not None:
        out.append(sides)
    if name == "count_in_window" and (counted := _counted_mismatch(asked, args)) is not None:
        out.append(counted)
    chip = args.get("chip_id")
    if len(asked.chip_ids) == 1 and isinstance(chip, str) and chip.lower() != asked.chip_ids[0].lower():
        out.append(Mismatch(f"asks about {asked.chip_ids[0]}, not {chip}"))
    return list(dict.fromkeys(out))


def reading(name: str, args: dict) -> str:
    """What a call computes, in words the person can check ("counts qubits with T1 below 50 μs")."""
    chip = f" on {args['chip_id']}" if isinstance(args.get("chip_id"), str) else ""
    if name in _FILTERS:
        join = " or " if args.get("join") == "or" else " and "
        return f"counts those with {join.join(limit_words(*c) for c in call_conditions(name, args))}{chip}"
    if name == "rank_metric":
        return (f"ranks by {_title(str(args.get('metric_name')))} ({args.get('order') or 'lowest'} "
                f"{int(_number(args.get('n')) or 5)}){chip}")
    if name == "count_in_window" and isinstance(args.get("what"), str):
        chips = args.get("chip_ids")
        where = f" on {' and '.join(str(c) for c in chips)}" if isinstance(chips, list) and chips else chip
        return f"counts {_COUNTED_WORDS.get(args['what'], args['what'])}{where}"
    if name == "compare_chips":
        return f"{'pools' if args.get('pooled') else 'compares'} the chips' {args.get('statistic') or 'median'} " \
               f"{_title(str(args.get('metric_name')))}"
    if name == "get_coupling_params":
        which = args.get("coupling_id") or f"the couplings of qubit {args.get('qubit_id')}"
        return f"gives the values of coupling {which}{chip}" if args.get("coupling_id") else \
            f"gives the values of {which}{chip}"
    if name == "compare_qubits":
        qids = args.get("qids")
        return f"compares qubits {', '.join(str(q) for q in qids) if isinstance(qids, list) else ''}{chip}"
    metrics = " and ".join(_title(m) for m in call_metrics(name, args))
    return f"reads {metrics}{chip}" if metrics else f"is {name}{chip}"


def _rebuilt_filter(asked: Question, name: str, args: dict) -> tuple[str, dict] | None:
    """The question's own conditions, when they settle the call: every limit of a clear metric, one kind of subject,
    at most :data:`MAX_CONDITIONS`; one metric is ``filter_metric``, several ``filter_metrics``."""
    settled = asked_conditions(asked)
    wanted = settled + [c for c in _shared(asked, call_conditions(name, args)) if c not in settled]
    metrics = list(dict.fromkeys(m for m, _, _ in wanted))
    if not settled or len(settled) != len(set(asked.limits)) or len(wanted) > MAX_CONDITIONS or \
            len({CATALOGUE[m].kind for m in metrics}) != 1:
        return None
    chip = {"chip_id": args["chip_id"]} if "chip_id" in args else {}
    if len(metrics) == 1:
        return "filter_metric", {**chip, "metric_name": metrics[0], **{s: v for _, s, v in wanted}}
    join = _join_asked(asked) or (args.get("join") if args.get("join") in ("and", "or") else "and")
    return "filter_metrics", {**chip, "join": join, "conditions": [{"metric_name": m, s: v} for m, s, v in wanted]}


def _rebuilt(asked: Question, name: str, args: dict) -> tuple[str, dict] | None:
    """The call with what the question settles put right, when one reading is possible; None otherwise."""
    clear = _clear(asked)
    for fixed in (rebuilt(asked, name, args), sides_rebuilt(asked, name, args), failure_rebuilt(asked, name, args)):
        if fixed is not None and not mismatches(asked, *fixed):
            return fixed
    if name == "count_in_window" and _counted_mismatch(asked, args) is not None:
        args = {**args, "what": counted_kind(asked)}  # then the chips, when it also counts other chips
        if not mismatches(asked, name, args):
            return name, args
    if _chips_mismatch(asked, name, args) is not None:
        named = _chips_named(asked)
        args = {**args, "chip_ids": named[:4 if name == "count_in_window" else 8]} | (
            {"chip_id": named[0]} if name == "count_in_window" else {})  # then its window too ("since the 16th")
        if made := next((m for m in ((name, args), rebuilt(asked, name, args)) if m and not mismatches(asked, *m)), None):
            return made
    if name in _FILTERS | {"missing_metric"} and isinstance(args.get("chip_id"), str) and \
            (status := status_plan(asked, args["chip_id"])) is not None:
        return status.name, dict(status.args)
    if name in _FILTERS:
        return _rebuilt_filter(asked, name, args)
    if name == "rank_metric" and not asked.limits and len(clear) == 1:
        metric = clear[0]
        order = _order_asked(asked, metric) or str(args.get("order") or "lowest")
        n = asked.extreme_n or int(_number(args.get("n")) or 5)
        n = DEFAULT_MANY if n == 1 and many_asked(asked) else n
        return name, {**args, "metric_name": metric, "order": order, "n": min(n, 50)}
    kinds = {CATALOGUE[m].kind for m in clear}
    chip = {"chip_id": args["chip_id"]} if "chip_id" in args else {}
    if name == "get_coupling_params" and kinds == {"qubit"} and len(asked.qubits) == 2:
        return "compare_qubits", {**chip, "qids": sorted(asked.qubits, key=int), "param_names": clear}
    if name == "compare_qubits" and kinds == {"coupling"} and len(asked.qubits) == 2 and not asked.couplings:
        return "get_coupling_params", {**chip, "coupling_id": "-".join(asked.qubits), "param_names": clear}
    if name == "compare_qubits" and len(asked.qubits) >= 2 and not asked.couplings and kinds <= {"qubit"}:
        return name, {**args, "qids": sorted(asked.qubits, key=int)}
    return None


def corrected(name: str, args: dict, asked: Question) -> tuple[str, dict, str | None]:
    """The call to make instead of ``name(args)`` and why, when the call contradicts or leaves out what the question
    settles and one correction restates it; else the call unchanged and None (the answer then gets a note)."""
    found = mismatches(asked, name, args)
    if not found:
        return name, args, None
    fixed = _rebuilt(asked, name, args)
    if fixed is not None:  # the re-made call's limits held to the question's too ("at most": ``including``)
        fixed = fixed[0], settle_limits(fixed[0], dict(fixed[1]), asked).args
    if fixed is None or mismatches(asked, *fixed) or fixed == (name, args):
        return name, args, None
    why = "; ".join(m.missed for m in found)
    return fixed[0], fixed[1], f"the call was re-made as the question reads it: the question {why}"


def restate_note(asked: Question, outcomes: Sequence[ToolOutcome]) -> str | None:
    """The note an answer gets when every call of the turn that carries what the question settles misses part of
    it: what was computed and what the question asked that it does not cover; None when one call restates it."""
    judged = [(o, found) for o in outcomes if o.ok and (o.name in CHECKED or o.name in SIDE_CALLS) and (
        (found := mismatches(asked, o.name, o.args)) or o.name in CHECKED)]
    if not judged or any(not found for _, found in judged):
        return unasked_note(asked, [(o.name, o.args) for o in outcomes if o.ok])
    lines = []
    for outcome, found in judged[:2]:
        missed = "; ".join(m.missed for m in found)
        lines.append(f"Note: this {reading(outcome.name, outcome.args)} only; your question {missed}, which it "
                     f"does not cover.")
    return " ".join(dict.fromkeys(lines))


def restated_blocks(blocks: list[Block], asked: Question, outcomes: Sequence[ToolOutcome]) -> list[Block]:
    """``blocks`` with :func:`restate_note` under them when there is one."""
    note = restate_note(asked, outcomes)
    return blocks if note is None else [*blocks, TextBlock(f"_{note}_")]
