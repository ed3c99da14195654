"""The elements of a question the restate check (:mod:`~copilot_core.checking.restate`) holds besides limits, N and
statistic: a condition in words with no number ("short T1"), N subjects asked where a call gives one, a spread's
statistic and unit, and a correlation's two metrics.  Each is a mismatch when a call leaves it out, and
:func:`rebuilt` puts it right when one reading is possible.
"""

from __future__ import annotations

from copilot_core.domain.metrics import CATALOGUE
from copilot_core.language.question import Question
from copilot_core.routing.limits import quality_conditions
from copilot_core.routing.prefetch import quality_plan
from copilot_core.routing.statistics import spread_lead, spread_unit

_STATS = {"std": "standard deviation", "iqr": "interquartile range", "range": "range", "cv": "coefficient of variation"}
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


def element_mismatches(asked: Question, name: str, args: dict, used: list[str]) -> list[str]:
    """What the call ``name(args)`` (reading ``used``) leaves out of this module's elements, in words."""
    out = []
    unbanded = [q for q in asked.qualities if q.metric is not None and (q.metric not in used or name not in _FILTERS)
                and (entry := CATALOGUE.get(q.metric)) is not None and entry.band_limit(q.direction, q.word) is None]
    out += [f"asks for {q.word} {_title(str(q.metric))}, and the lab sets no limit for it (say which limit you mean)"
            for q in unbanded]
    if name == "rank_metric" and many_asked(asked) and _n(args.get("n")) == 1:
        out.append("asks for several, not one")
    clear = _clear(asked)
    if name == "metric_spread" and len(clear) == 1:
        lead, given = spread_lead(asked), str(args.get("lead") or "std")
        if lead is not None and lead != given:
            out.append(f"asks for the {_STATS[lead]}, not the {_STATS.get(given, given)}")
        unit = spread_unit(asked, clear[0])
        if unit is not None and args.get("unit") != unit:
            out.append(f"asks for it in {unit}, not {args.get('unit') or CATALOGUE[clear[0]].unit}")
    if asked.shape == "correlation" and len(clear) == 2 and name != "correlate_metrics":
        out.append(f"asks how {_title(clear[0])} and {_title(clear[1])} go together, which it does not compute")
    if name == "correlate_metrics" and len(clear) == 2 and \
            {str(args.get("metric_a")), str(args.get("metric_b"))} != set(clear):
        out.append(f"asks how {_title(clear[0])} and {_title(clear[1])} go together")
    return out


def rebuilt(asked: Question, name: str, args: dict) -> tuple[str, dict] | None:
    """The call with this module's elements put right, when one reading is possible; None otherwise."""
    chip = args.get("chip_id") if isinstance(args.get("chip_id"), str) else None
    clear = _clear(asked)
    if asked.qualities and quality_conditions(asked) and name in ("rank_metric", "filter_metric", "filter_metrics") \
            and chip is not None and (plan := quality_plan(asked, chip)) is not None:
        return plan.name, dict(plan.args)
    if name == "rank_metric" and many_asked(asked) and _n(args.get("n")) == 1:
        return name, {**args, "n": DEFAULT_MANY}
    if name == "metric_spread" and len(clear) == 1:
        unit = spread_unit(asked, clear[0])
        return name, {**args, "metric_name": clear[0], "lead": spread_lead(asked) or args.get("lead") or "std",
                      **({"unit": unit} if unit else {})}
    if asked.shape == "correlation" and len(clear) == 2 and chip is not None:
        return "correlate_metrics", {"chip_id": chip, "metric_a": clear[0], "metric_b": clear[1],
                                     "method": args.get("method", "pearson") if name == "correlate_metrics"
                                     else "pearson"}
    return None
