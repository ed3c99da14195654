"""The elements of a question the restate check (:mod:`~copilot_core.checking.restate`) holds besides limits, N and
statistic: a condition in words with no number ("short T1"), N subjects asked where a call gives one, a spread's
statistic and unit, and a correlation's two metrics.  Each is a mismatch when a call leaves it out, and
:func:`rebuilt` puts it right when one reading is possible.
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_core.domain.metrics import CATALOGUE
from copilot_core.domain.vocabulary import NOT_HELD
from copilot_core.language.question import Question
from copilot_core.routing.clarify import shape_without_metric
from copilot_core.routing.conditions import missing_asked
from copilot_core.routing.counts import window_args, window_days
from copilot_core.routing.couplings import couplings_plan
from copilot_core.routing.limits import quality_conditions
from copilot_core.routing.planned import PlannedCall
from copilot_core.routing.prefetch import correlation_method, quality_plan
from copilot_core.routing.statistics import spread_lead, spread_unit

_STATS = {"std": "sample standard deviation", "iqr": "interquartile range", "range": "range",
          "cv": "coefficient of variation", "pstd": "population standard deviation", "mad": "median absolute deviation"}
_FILTERS = frozenset({"filter_metric", "filter_metrics"})
DEFAULT_MANY = 5  # a ranking's N when several are asked and no number is written (the router's own)


def _title(name: str) -> str:
    entry = CATALOGUE.get(name)
    return entry.title if entry is not None else name


def _clear(asked: Question) -> list[str]:
    named = asked.without("subject words").metrics
    return [] if None in named else list(dict.fromkeys(m for m in named if m is not None))


def _n(value: object) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def many_asked(asked: Question) -> bool:
    """Several subjects asked with no number ("list the qubits with the lowest T1", "which qubits")."""
    return asked.extreme_n is None and asked.has("plural")


# The tools that read a window of the last N days from their ``days`` argument.
_DAYS_TOOLS = frozenset({"count_in_window", "failure_ranking", "get_parameter_timeseries",
                         "get_chip_parameter_timeseries"})


def days_asked(asked: Question) -> int | None:
    """The last N whole days the question asks for ("the eight previous days": 8, "the last 48 hours": 2), when it
    writes no dates, no weekday and no "yesterday" (those are other arguments); None otherwise."""
    if asked.dates is not None or asked.since_weekday is not None or asked.window is None or asked.window.yesterday \
            or asked.window.unit == "today":
        return None
    return window_days(asked)


_WINDOW_KEYS = ("days", "day", "since_weekday", "from_date", "to_date", "last_runs")


def _dated_mismatch(asked: Question, name: str, args: dict) -> str | None:
    """A count or ranking over another window than the question's dates or weekday ("this month": since the 1st,
    "this week": since Monday), e.g. the last 30 or 7 days."""
    if name not in ("count_in_window", "failure_ranking") or asked.dates is None and asked.since_weekday is None:
        return None
    want, given = window_args(asked, None), call_window(args)
    return None if same_window(want, given) else \
        f"asks for {', '.join(f'{k}={v}' for k, v in want.items())}, not {given}"


def call_window(args: dict) -> dict:
    """The window arguments a call sets."""
    return {k: args[k] for k in _WINDOW_KEYS if args.get(k) is not None}


def same_window(want: dict, given: dict) -> bool:
    """One window: the same arguments, a date written without its year ("11-03") or its month ("---03") being that
    date with one."""
    def day(key: str, a: object, b: object) -> bool:
        a, b = str(a), str(b)
        if a == b or not key.endswith("date"):
            return a == b
        return 5 in (len(a), len(b)) and a[-5:] == b[-5:] or \
            any(x.startswith("---") and not y.startswith("---") and y[-3:] == x[-3:] for x, y in ((a, b), (b, a)))
    return want.keys() == given.keys() and all(day(k, want[k], given[k]) for k in want)


def window_mismatch(asked: Question, name: str, args: dict) -> str | None:
    """A call over another number of days than the question's "last N days" (or over one day, or every run)."""
    if (dated := _dated_mismatch(asked, name, args)) is not None:
        return dated
    days = days_asked(asked)
    if name not in _DAYS_TOOLS or days is None:
        return None
    given = _n(args.get("days"))
    if given == days or given is None and args.get("from_date") is not None:  # the same days written as dates
        return None
    other = "one day" if args.get("day") is not None else f"the last {given} days" if given is not None else \
        "a week's days" if args.get("since_weekday") is not None else "every stored run"
    return f"asks for the last {days} days, not {other}"


def not_held_text(key: str) -> str:
    """"leakage rate, which the data does not hold (the nearest metrics it holds: X90 gate fidelity, ...)"."""
    title, near = NOT_HELD[key]
    return f"{title}, which the data does not hold (the nearest metrics it holds: {', '.join(map(_title, near))})"


def _not_held_mismatch(asked: Question, used: list[str]) -> list[str]:
    """A call reading a metric the question does not name, for a quantity no metric holds (a neighbour's value)."""
    clear = set(_clear(asked))
    return [f"asks for {not_held_text(key)}, not {', '.join(_title(m) for m in used if m not in clear)}"
            for key in asked.not_held if any(m not in clear for m in used)][:1]


def not_held_note(asked: Question, calls: Sequence[tuple[str, dict]]) -> str | None:
    """The note an answer gets when its question names a quantity the data does not hold and no call of the turn
    said so (``check_target`` of it): no value in the answer is of that quantity."""
    if not asked.not_held or not calls or any(n == "check_target" and args.get("metric_name") and
                                              args.get("metric_name") not in CATALOGUE for n, args in calls):
        return None
    return f"Note: your question asks for {not_held_text(asked.not_held[0])}; no value in this answer is of it."


# What each shape that needs a metric asks for, in the note's words.
_SHAPE_WORDS = {"extreme": "a ranking", "spread": "a spread", "statistic": "a statistic", "correlation": "a correlation",
                "cross-chip": "chips set side by side"}


def unasked_note(asked: Question, calls: Sequence[tuple[str, dict]]) -> str | None:
    """:func:`not_held_note`, else the note a chip summary gets for a question that asks a ranking, a spread, a
    statistic or chips side by side of a metric it does not name: the summary's medians are not that figure."""
    if (held := not_held_note(asked, calls)) is not None:
        return held
    if not shape_without_metric(asked) or not any(n == "get_chip_summary" for n, _ in calls):
        return None
    return (f"Note: your question asks for {_SHAPE_WORDS.get(asked.shape, 'a figure of one metric')} but names no "
            "metric, so this is the chip summary of every metric, not that figure; name the metric (T1, T2 echo, "
            "X90 fidelity ...) to get it.")


def _values(args: dict) -> list[float]:
    held = args.get("conditions")
    holders: list = held if isinstance(held, list) else [args]
    return [float(v) for c in holders if isinstance(c, dict) for side in ("below", "above")
            if isinstance(v := c.get(side), (int, float)) and not isinstance(v, bool)]


def status_mismatches(asked: Question, name: str, args: dict) -> list[str]:
    """A status the question joins with its limits ("no valid T2 echo") that a filter leaves out, or the limits a
    call for the missing alone leaves out; a limit of a metric the question does not name clearly, in a question of
    several conditions, that no condition of a filter carries."""
    if name not in _FILTERS | {"missing_metric"}:
        return []
    held = args.get("conditions") if name == "filter_metrics" else [args] if name == "missing_metric" else []
    holders: list = held if isinstance(held, list) else []
    statuses = {str(c.get("metric_name")) for c in holders if isinstance(c, dict) and c.get("below") is None and
                c.get("above") is None}
    missing = missing_asked(asked)
    out = [f"also asks for no valid {_title(m)}" for m in missing if m not in statuses]
    if name == "missing_metric" and missing:
        out += [f"also sets {_title(str(t.metric))} {t.side} {t.value:g}{'' if t.unit in ('', '%') else ' '}{t.unit}"
                for t in asked.limits]
    if name in _FILTERS and len(asked.limits) > 1:
        given = _values(args)
        out += [f"also sets a limit {t.side} {t.value:g}{t.unit} of a metric it does not name clearly"
                for t in asked.limits if t.metric is None and not any(abs(t.value - v) < 1e-9 for v in given)]
    return out


def qubit_couplings(asked: Question, args: dict) -> PlannedCall | None:
    """The router's call for the couplings of the one qubit a question ranks couplings of ("the worst coupling of
    Q07", "couplings touching Q07"), when a chip-wide ranking ``args`` was made instead; else None."""
    chip = args.get("chip_id")
    own = couplings_plan(asked, chip) if isinstance(chip, str) else None
    return own if own is not None and "qubit_id" in own.args else None


def element_mismatches(asked: Question, name: str, args: dict, used: list[str]) -> list[str]:
    """What the call ``name(args)`` (reading ``used``) leaves out of this module's elements, in words."""
    out = _not_held_mismatch(asked, used) + status_mismatches(asked, name, args)
    if (window := window_mismatch(asked, name, args)) is not None:
        out.append(window)
    unbanded = [q for q in asked.qualities if q.metric is not None and (q.metric not in used or name not in _FILTERS)
                and (entry := CATALOGUE.get(q.metric)) is not None and entry.band_limit(q.direction, q.word) is None]
    out += [f"asks for {q.word} {_title(str(q.metric))}, and the lab sets no limit for it (say which limit you mean)"
            for q in unbanded]
    if name == "rank_metric" and many_asked(asked) and _n(args.get("n")) == 1:
        out.append("asks for several, not one")
    if name == "rank_metric" and (own := qubit_couplings(asked, args)) is not None:
        out.append(f"asks about the couplings of qubit {own.args['qubit_id']} only, not every coupling on the chip")
    clear = _clear(asked)
    if name == "metric_spread" and len(clear) == 1:
        lead, given = spread_lead(asked), str(args.get("lead") or "std")
        if lead is not None and lead != given:
            out.append(f"asks for the {_STATS[lead]}, not the {_STATS.get(given, given)}")
        unit = spread_unit(asked, clear[0])
        if unit is not None and args.get("unit") != unit:
            out.append(f"asks for it in {unit}, not {args.get('unit') or CATALOGUE[clear[0]].unit}")
    if asked.relates and len(clear) == 2 and name != "correlate_metrics":
        out.append(f"asks how {_title(clear[0])} and {_title(clear[1])} go together, which it does not compute")
    if name == "correlate_metrics" and len(clear) == 2 and \
            {str(args.get("metric_a")), str(args.get("metric_b"))} != set(clear):
        out.append(f"asks how {_title(clear[0])} and {_title(clear[1])} go together")
    if name == "correlate_metrics" and asked.relates and (method := _method_missed(asked, args)) is not None:
        out.append(f"asks for {method}")
    return out


_METHODS = {"pearson": "Pearson's r", "spearman": "Spearman's rho", "both": "Pearson's r and Spearman's rho"}


def _method_missed(asked: Question, args: dict) -> str | None:
    """The coefficient the question names that the call does not state ("Spearman" answered with Pearson's r)."""
    want, given = correlation_method(asked), str(args.get("method") or "pearson")
    named = asked.has("spearman") or asked.has("pearson")
    return _METHODS[want] if named and want != given and given != "both" else None


def rebuilt(asked: Question, name: str, args: dict) -> tuple[str, dict] | None:
    """The call with this module's elements put right, when one reading is possible; None otherwise."""
    chip = args.get("chip_id") if isinstance(args.get("chip_id"), str) else None
    clear = _clear(asked)
    windowed = window_mismatch(asked, name, args) is not None
    if windowed:  # the question's window, then whatever else this module puts right
        args = {**{k: v for k, v in args.items() if k not in _WINDOW_KEYS}, **(
            window_args(asked, None) if _dated_mismatch(asked, name, args) else {"days": days_asked(asked)})}
    if asked.qualities and quality_conditions(asked) and name in ("rank_metric", "filter_metric", "filter_metrics") \
            and chip is not None and (plan := quality_plan(asked, chip)) is not None:
        return plan.name, dict(plan.args)
    if name == "rank_metric" and (own := qubit_couplings(asked, args)) is not None:
        return own.name, dict(own.args)
    if name == "rank_metric" and many_asked(asked) and _n(args.get("n")) == 1:
        return name, {**args, "n": DEFAULT_MANY}
    if name == "metric_spread" and len(clear) == 1:
        unit = spread_unit(asked, clear[0])
        return name, {**args, "metric_name": clear[0], "lead": spread_lead(asked) or args.get("lead") or "std",
                      **({"unit": unit} if unit else {})}
    if asked.relates and len(clear) == 2 and chip is not None:
        given = args.get("method", "pearson") if name == "correlate_metrics" else "pearson"
        return "correlate_metrics", {"chip_id": chip, "metric_a": clear[0], "metric_b": clear[1],
                                     "method": correlation_method(asked) if _method_missed(asked, {"method": given})
                                     else given}
    return (name, args) if windowed else None
