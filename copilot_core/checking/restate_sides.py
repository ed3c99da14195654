"""Elements of a question that sets several chips or couplings side by side, held by the restate check
(:mod:`~copilot_core.checking.restate`): the statistic asked of each chip or pooled over the chips, its scope and
unit; and two couplings compared as couplings (never as their three or four qubits).

A single-chip call (a chip summary, one chip's spread) for a question across chips, a ``compare_chips`` with
another statistic, scope or unit, and a qubit comparison for two couplings are each a mismatch; :func:`sides_rebuilt`
re-makes them as the router's own call (:func:`~copilot_core.routing.statistics.chips_plan`, the couplings' values
side by side).
"""

from __future__ import annotations

from copilot_core.checking.restate_filter import SUMMARIES, filter_missed, filter_rebuilt, open_missed, open_rebuilt
from copilot_core.domain.metrics import CATALOGUE
from copilot_core.language.question import Question
from copilot_core.routing.planned import PlannedCall
from copilot_core.routing.couplings import couplings_compared, couplings_plan
from copilot_core.routing.prefetch import compared_plan
from copilot_core.routing.statistics import (chip_limits, chip_statistic, chips_plan, names_statistic, spread_asked,
                                              spread_plan, spread_unit)

ONE_CHIP = frozenset({"get_chip_summary", "metric_spread"})  # calls that read one chip's statistics
# Calls that read two qubits' latest values or one qubit's history: not two histories compared on a statistic.
_LATEST = frozenset({"compare_qubits", "get_qubit_params", "get_parameter_timeseries", "get_chip_summary"})
SIDE_CALLS = ONE_CHIP | _LATEST | SUMMARIES  # context calls whose scope the sides still hold
_ONE_CHIP_SHARE = frozenset({"filter_metric", "filter_metrics", "get_chip_summary"})  # one chip's share or counts
# Calls that answer a spread question with a center, an extreme value, a filter or a count: no spread in them.
_NO_SPREAD = frozenset({"get_chip_summary", "rank_metric", "filter_metric", "filter_metrics", "count_in_window"})
_WORDS = {"median": "median", "mean": "mean", "min": "minimum", "max": "maximum", "std": "standard deviation",
          "iqr": "interquartile range", "range": "range", "cv": "coefficient of variation",
          "pstd": "population standard deviation", "mad": "median absolute deviation"}


def _clear(asked: Question) -> list[str]:
    named = asked.without("subject words").metrics
    return [] if None in named else list(dict.fromkeys(m for m in named if m is not None))


def across_metric(asked: Question) -> str | None:
    """The one metric a question asks a statistic (or a share past a limit) of across chips, each or pooled, else
    None.  "Which chip is better for T1" names no statistic but sets the chips side by side all the same."""
    clear = _clear(asked)
    if asked.chip_scope == "one" or len(clear) != 1 or not (
            names_statistic(asked) or asked.chip_scope == "pooled" or asked.shape == "cross-chip" or asked.limits):
        return None
    return clear[0]


def _asked_words(asked: Question, metric: str) -> str:
    """The statistic asked of ``metric``, in words: a share past the limits, a spread, a center."""
    entry = CATALOGUE[metric]
    limits = chip_limits(asked, metric)
    if limits:
        return (f"share of {'couplings' if entry.kind == 'coupling' else 'qubits'} with {entry.title} "
                + " and ".join(f"{side} {value:g}" for side, value in limits.items()))
    return f"{_WORDS[chip_statistic(asked, metric)]} of {entry.title}"


def _couplings(values: object) -> set[frozenset[str]]:
    """Coupling ids as unordered pairs of qubit numbers ("04-01" and "1-4" are one coupling)."""
    out = set()
    for v in values if isinstance(values, list) else []:
        ends = str(v).split("-")
        if len(ends) == 2 and all(e.strip().lstrip("Qq").isdigit() for e in ends):
            out.add(frozenset(str(int(e.strip().lstrip("Qq"))) for e in ends))
    return out


def spread_metric(asked: Question) -> str | None:
    """The one metric a question asks the spread of ("how consistent is T1", "T1's IQR"), with no limit, extreme or
    second metric that would make it a filter, a ranking or a correlation; else None."""
    clear = _clear(asked)
    ranked = asked.extreme is not None and not asked.has("range words")  # "highest and lowest ... apart": a range
    if len(clear) != 1 or not spread_asked(asked) or asked.limits or ranked or asked.relates or asked.qualities or \
            asked.shape == "qubit pair":  # "whose T1 varied more, Q3 or Q9": each one's history, not the chip's
        return None
    return clear[0]


def sides_mismatches(asked: Question, name: str, args: dict) -> list[str]:
    """What the call leaves out of a question across chips, of a spread, or about several couplings, in words."""
    out = []
    if name in ONE_CHIP and (chip := other_chip(asked, args)) is not None:  # the checked tools' own check says it
        out.append(f"asks about {asked.chip}, not {chip}")
    metric = across_metric(asked)
    spread = spread_metric(asked)
    if spread is not None and name in _NO_SPREAD:
        out.append(f"asks how {CATALOGUE[spread].title} spreads over the "
                   f"{'couplings' if CATALOGUE[spread].kind == 'coupling' else 'qubits'} (its "
                   f"{_WORDS[chip_statistic(asked, spread)]}), which this call does not compute")
    if metric is not None and name == "count_in_window" and chip_limits(asked, metric):
        out.append(f"asks for the {_asked_words(asked, metric)} on each chip, not a "
                   f"count of {args.get('what') or 'task results'}")
    if metric is not None and (name in ONE_CHIP or chip_limits(asked, metric) and name in _ONE_CHIP_SHARE):
        where = "every chip's qubits pooled together" if asked.chip_scope == "pooled" else "each chip side by side"
        out.append(f"asks for the {_asked_words(asked, metric)} over {where}, not on "
                   f"{args.get('chip_id') or 'one chip'} alone")
    if name == "compare_chips" and metric is not None:
        wanted, given = chip_statistic(asked, metric), str(args.get("statistic") or "median")
        limited = args.get("below") is not None or args.get("above") is not None
        if chip_limits(asked, metric) and not limited:
            out.append(f"asks for the {_asked_words(asked, metric)}, not the {_WORDS.get(given, given)}")
        elif limited and not chip_limits(asked, metric):
            out.append(f"asks for the {_WORDS[wanted]}, not a share past a limit")
        elif not limited and names_statistic(asked) and wanted != given:
            out.append(f"asks for the {_WORDS[wanted]}, not the {_WORDS.get(given, given)}")
        pooled = bool(args.get("pooled"))
        if pooled != (asked.chip_scope == "pooled"):
            out.append("asks for one value over every chip's qubits together, not each chip's own" if not pooled
                       else "asks for each chip's own value, not one pooled over the chips")
        unit = spread_unit(asked, metric)
        if unit is not None and args.get("unit") != unit:
            out.append(f"asks for it in {unit}, not {args.get('unit') or CATALOGUE[metric].unit}")
    if (history := _history_missed(asked, name, args)) is not None:
        out.append(history)
    if name == "get_qubit_params" and _pair_plan(asked, args) is not None:
        out.append(f"compares qubits {' and '.join(sorted(asked.qubits, key=int))}, not one qubit alone")
    if metric is None and spread is None and (missed := filter_missed(asked, name, args)) is not None:
        out.append(missed)
    out += open_missed(asked, name, args)
    pairs = couplings_compared(asked)
    if pairs and name == "compare_qubits":
        out.append(f"compares couplings {' and '.join(pairs)}, not single qubits")
    if pairs and name == "get_coupling_params" and _couplings(args.get("coupling_ids") or [args.get("coupling_id")]) \
            != _couplings(pairs):
        out.append(f"compares couplings {' and '.join(pairs)}")
    if name in SIDE_CALLS and _one_coupling(asked, args) is not None:
        out.append(f"asks about coupling {asked.couplings[0]}, which this call does not read")
    return out


def _one_coupling(asked: Question, args: dict) -> PlannedCall | None:
    """The router's call for the one coupling a question names with a coupling metric ("pair 40/41", "the coupler
    between Q10 and Q11", and the qubit metric of its ends asked beside it): a chip's or qubit's values miss it."""
    chip = args.get("chip_id") if isinstance(args.get("chip_id"), str) else asked.chip
    plan = couplings_plan(asked, chip) if chip is not None and len(asked.couplings) == 1 and any(
        CATALOGUE[m].kind == "coupling" for m in _clear(asked)) else None
    return plan if plan is not None and plan.args.get("coupling_id") == asked.couplings[0] else None


def other_chip(asked: Question, args: dict) -> str | None:
    """The chip a one-chip call reads when the question asks about another installed chip (named, or described in
    words and read by the turn: "the bigger chip"); None when it reads the one asked, or the question names none."""
    chip = args.get("chip_id")
    if asked.chip is None or asked.chips_compared or "chip_ids" in args or not isinstance(chip, str):
        return None
    return chip if chip.lower() != asked.chip.lower() else None


def sides_rebuilt(asked: Question, name: str, args: dict) -> tuple[str, dict] | None:
    """The router's call for a question across chips or about several couplings, when the call misses it; a call
    on another chip than the one asked about, on that chip."""
    if other_chip(asked, args) is not None:
        fixed = sides_rebuilt(asked, name, {**args, "chip_id": asked.chip})
        return fixed or (name, {**args, "chip_id": asked.chip})
    metric = across_metric(asked)
    if metric is not None and (name in ONE_CHIP or name == "compare_chips" or name in _ONE_CHIP_SHARE or
                               name == "count_in_window" and chip_limits(asked, metric)):
        plan = chips_plan(asked, metric)
        return plan.name, dict(plan.args)
    spread = spread_metric(asked)
    chip = args.get("chip_id") if isinstance(args.get("chip_id"), str) else asked.chip
    if spread is not None and name in _NO_SPREAD and chip is not None:
        plan = spread_plan(asked, chip, spread)
        return plan.name, dict(plan.args)
    if name == "get_qubit_params" and (pair := _pair_plan(asked, args)) is not None:
        return pair.name, dict(pair.args)
    if _history_missed(asked, name, args) is not None and (history := _history_plan(asked, args)) is not None:
        return history.name, dict(history.args)
    if name in SIDE_CALLS and (one := _one_coupling(asked, args)) is not None:
        return one.name, dict(one.args)
    if (made := filter_rebuilt(asked, name, args) or open_rebuilt(asked, name, args)) is not None:
        return made
    pairs = couplings_compared(asked)
    if pairs and name in ("compare_qubits", "get_coupling_params") and isinstance(args.get("chip_id"), str):
        clear = [m for m in _clear(asked) if CATALOGUE[m].kind == "coupling"]
        return "get_coupling_params", {"chip_id": args["chip_id"], "coupling_ids": pairs[:8],
                                       **({"param_names": clear} if clear else {})}
    return None


def _pair_plan(asked: Question, args: dict) -> PlannedCall | None:
    """The router's call for two qubits set side by side (their values, or a statistic of each history), when the
    question names exactly two: one qubit's own values answer one side only."""
    chip = args.get("chip_id") if isinstance(args.get("chip_id"), str) else asked.chip
    plan = compared_plan(asked, chip) if chip is not None and len(asked.qubits) == 2 else None
    wanted = plan is not None and plan.name in ("compare_qubits", "get_chip_parameter_timeseries")
    return plan if wanted and plan is not None and len(plan.args.get("qids") or ()) == 2 else None


def _history_plan(asked: Question, args: dict) -> PlannedCall | None:
    """The router's call for two qubits compared on a statistic of their histories (over a window, or how much each
    varied, drifted or improved), else None."""
    chip = args.get("chip_id") if isinstance(args.get("chip_id"), str) else asked.chip
    plan = compared_plan(asked, chip) if chip is not None else None
    return plan if plan is not None and plan.name == "get_chip_parameter_timeseries" and "qids" in plan.args else None


def _history_missed(asked: Question, name: str, args: dict) -> str | None:
    """What a call leaves out of a question comparing two qubits' histories: their latest values only, another
    window, or another statistic than the one asked (mean by default)."""
    if name not in _LATEST and name != "get_chip_parameter_timeseries" or (plan := _history_plan(asked, args)) is None:
        return None
    wanted, days = str(plan.args.get("statistic") or "mean"), plan.args.get("days")
    over = f" over the last {days} days" if days else ""
    if name in _LATEST:
        return f"compares each qubit's {wanted} of its history{over}, not a latest value"
    given = str(args.get("statistic") or "mean")
    if given != wanted or args.get("days") != days or args.get("day") is not None:
        return f"compares each qubit's {wanted}{over}, not the {given}" + (
            f" over {args.get('days')} days" if args.get("days") and args.get("days") != days else "")
    return None
