"""Which statistic a question asks, and over which chips: the one reading the prefetch, the router's cross-chip call
and the restate check share.

A chip-wide statistic is a center (median, mean, min, max) or a spread (std, IQR, range, CV); a cross-chip
question asks it of each chip side by side, or pooled over every qubit of the chips together
(:attr:`~copilot_core.language.question.Question.chip_scope`).  :func:`chips_plan` is the ``compare_chips`` call
that computes the statistic asked over the scope asked, in the unit asked.
"""

from __future__ import annotations

from copilot_core.analysis.stats import ChipStatistic
from copilot_core.domain.metrics import CATALOGUE
from copilot_core.domain.units import family
from copilot_core.language.question import Question
from copilot_core.language.ranked import EXTREME_WORDS, ranking_order
from copilot_core.routing.planned import PlannedCall
from copilot_core.tools.across_chips import STATISTICS as CHIP_STATISTICS
from copilot_core.tools.distribution import SPREAD_UNITS

# The statistic a spread question names, most specific words first ("interquartile range" is no plain range, a
# "median absolute deviation" no median).
_LEADS: tuple[tuple[str, ChipStatistic], ...] = (("iqr words", "iqr"), ("cv words", "cv"), ("mad words", "mad"),
                                                 ("std words", "std"), ("range words", "range"))


def spread_lead(asked: Question) -> ChipStatistic | None:
    """The statistic a spread question names ("IQR": iqr), None when it names none ("spread"); a standard deviation
    "of the population" (divided by n) is ``pstd``, any other (a "sample" one, or one unsaid) the sample's, n − 1."""
    lead = next((stat for row, stat in _LEADS if asked.has(row)), None)
    return "pstd" if asked.has("population words") and lead in ("std", None) else lead


def spread_asked(asked: Question) -> bool:
    """It asks how a metric spreads (a spread word, or the spread shape)."""
    return asked.shape == "spread" or asked.has("spread words")


def spread_unit(asked: Question, metric: str) -> str | None:
    """The unit a value of ``metric`` is asked in ("in MHz" of a frequency kept in GHz), when the tools give it
    (:data:`~copilot_core.tools.distribution.SPREAD_UNITS`) and it is of the metric's own family; None otherwise."""
    unit, shown = asked.unit_asked, CATALOGUE[metric].unit
    return unit if unit in SPREAD_UNITS and unit != shown and family(unit) == family(shown) else None


def statistic_asked(asked: Question) -> str:
    """"mean" when the question says mean or average (not of "average readout fidelity"), else "median"."""
    mean = asked.has("mean words") and not (asked.said("mean words") == "average" and asked.has("average metric"))
    return "mean" if mean else "median"


def subject_end(asked: Question, metric: str | None) -> ChipStatistic | None:
    """Each chip's maximum or minimum when the question sets the chips' own best or worst subjects side by side
    ("whose best qubit has the longer T1": max; "the weakest coupler's ZX90 fidelity": min; "best" of a metric
    where lower is better: min); None when it says no end of a chip's subjects."""
    said = asked.said("subject extreme")
    end = next((EXTREME_WORDS[w] for w in said.lower().replace("-", " ").split() if w in EXTREME_WORDS), None) \
        if said else None
    if end is None:
        return None
    better = CATALOGUE[metric].higher_is_better if metric in CATALOGUE else True
    return "max" if ranking_order(None, end, better) == "highest" else "min"


def chip_statistic(asked: Question, metric: str | None = None) -> ChipStatistic:
    """The statistic of a chip's values the question asks: a spread's (std when it names none), the minimum or
    maximum (in words, an end of each chip's subjects, or an extreme of the values, not of the chips), the mean,
    else the median."""
    if spread_asked(asked):  # compare_chips keeps no population std or MAD: the sample's std is the nearest
        lead = spread_lead(asked) or "std"
        return lead if lead in CHIP_STATISTICS else "std"
    if (end := subject_end(asked, metric)) is not None:
        return end
    if asked.has("min max words"):
        return "min" if str(asked.said("min max words")).startswith("min") else "max"
    if asked.extreme is not None and not asked.has("by chip"):  # "the longest T1 anywhere", "the top T1 on each";
        better = CATALOGUE[metric].higher_is_better if metric in CATALOGUE else True  # an end said of the chips
        return "max" if ranking_order(asked.extreme_word, asked.extreme, better) == "highest" else "min"  # ranks them
    return "mean" if statistic_asked(asked) == "mean" else "median"


def names_statistic(asked: Question) -> bool:
    """It names the statistic (a center word, a spread, a minimum or maximum), so a call with another is wrong."""
    return asked.has("statistic") or asked.has("mean words") or spread_asked(asked) or asked.has("min max words") or \
        subject_end(asked, None) is not None or \
        asked.extreme is not None and not asked.has("by chip")


def spread_plan(asked: Question, chip_id: str, metric: str) -> PlannedCall:
    """``metric_spread`` of ``metric`` on one chip: the spread named (std when none), in the unit asked."""
    unit = spread_unit(asked, metric)
    return PlannedCall("metric_spread", {"chip_id": chip_id, "metric_name": metric, "lead": spread_lead(asked) or "std",
                                         **({"unit": unit} if unit else {})}, f"spread of {metric}")


def chip_limits(asked: Question, metric: str) -> dict[str, float]:
    """The limits a question across chips holds ``metric`` to ("share of qubits with T1 above 50 μs on each chip":
    above 50): what makes its statistic a share of qubits past them, not a center or a spread."""
    return {t.side: t.value for t in asked.limits if t.metric in (metric, None)}


def chips_plan(asked: Question, metric: str) -> PlannedCall:
    """``compare_chips`` of ``metric``: the statistic asked (a share past the question's limits), pooled when the
    question pools the chips, in the unit asked, over the chips it names (every chip when it names fewer than two)."""
    stat, unit, limits = chip_statistic(asked, metric), spread_unit(asked, metric), chip_limits(asked, metric)
    args: dict = {"metric_name": metric, **(limits or {"statistic": stat}), **({"unit": unit} if unit else {}),
                  **({"pooled": True} if asked.chip_scope == "pooled" else {})}
    if len({c.lower() for c in asked.chip_ids}) >= 2:
        args["chip_ids"] = list(dict.fromkeys(asked.chip_ids))
    scope = "pooled over the chips" if asked.chip_scope == "pooled" else "on each chip"
    return PlannedCall("compare_chips", args, f"{'share past the limits of' if limits else stat} {metric} {scope}")


def pair_statistic(asked: Question) -> str | None:
    """What two subjects' histories are compared on (a statistic of
    :data:`~copilot_core.tools.derived.STATISTICS`): how much each varied (std), moved (drift) or improved (gain),
    a peak or a low, the median or the mean; None when the question names none (their latest values, or a mean
    over a window by default)."""
    if asked.has("vary words"):
        return "std"
    if asked.has("gain words"):
        return "gain"
    if asked.has("drift words"):
        return "drift"
    if asked.has("peak words"):
        said = str(asked.said("peak words")).lower()
        return "min" if said.startswith(("min", "lowest", "worst")) else "max"
    if asked.said("statistic") == "median":
        return "median"
    return "mean" if asked.has("mean words") and statistic_asked(asked) == "mean" or asked.has("statistic") else None
