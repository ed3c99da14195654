"""Judging one number of an answer against the turn's facts: ok, wrong (with the right value when the data gives
exactly one), or unbacked.

A claim is *wrong* when no fact has its value in the role, metric and subject its words give it, or when a band
word or a below/above comparison disagrees with the value.  The steps run in order and the first that decides
wins: numbers that are no claim (derived, asked for, listed, the question's own), a change, a number no fact
holds, a threshold, another metric's number, then the claim's role.
"""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from copilot_core.checking.claim_changes import change_claimed, change_problem, changes_of
from copilot_core.checking.claim_counts import (counted_as, of_subject, same_items, task_named, total_of_one_side,
                                                unmatched_count)
from copilot_core.checking.claim_facts import (CATALOGUE_LIMIT, SHAPE_ROLES, SPREAD_ROLES, Claim, Fact, Role, Verdict,
                                               chip_size, is_task, matches, subject_label, written_like)
from copilot_core.checking.claim_reading import (Reading, asked_count, claimed_metric, counts_after, limits_after,
                                                 read_words, share_denominator, share_words)
from copilot_core.checking.claim_units import (in_metric_unit, said_metric, uncounted_noun, unit_fits, unit_problem,
                                               written_unit)
from copilot_core.checking.matcher import states
from copilot_core.domain.metrics import format_value, metric
from copilot_core.domain.units import family
from copilot_core.domain.vocabulary import is_below
from copilot_core.language.numbers import unit_after
from copilot_core.language.answer_words import ANSWER_WORDS
from copilot_core.language.question_words import tokens_of


@dataclass
class _Case:
    """One number under judgement: what its words claim, and the facts that hold its value (``candidates``)."""

    reading: Reading
    subject: str | None
    facts: list[Fact]
    role: Role | None
    qualifier: str | None
    band: str | None
    claimed: str | None = None
    candidates: list[Fact] = field(default_factory=list)

    def label(self, subject: str) -> str:
        """``subject`` as the tables write it on the turn's chip."""
        return subject_label(subject, chip_size(self.facts))

    def claim(self, verdict: Verdict, reason: str = "", correction: str | None = None) -> Claim:
        r = self.reading
        return Claim(r.written, r.clause, self.role, self.claimed, self.subject, self.qualifier, self.band, verdict,
                     reason, correction, r.start, r.end)

    def wrong(self, reason: str, role: Role | None = None, subject: str | None = None,
              qualifier: str | None = None) -> Claim:
        """A wrong claim, with the one value the data gives for ``role``/``subject``/``qualifier`` when it does."""
        fix = _correction(self.facts, role, self.claimed, subject, qualifier, self.reading.written) if role else None
        return self.claim("wrong", reason, fix)


def judge(reading: Reading, subject: str | None, facts: list[Fact], user_values: list[float],
          loose_values: list[float], stated: AbstractSet[tuple[int, str]]) -> Claim:
    """The verdict on one number (see the module docstring)."""
    words = read_words(reading)
    role = words.role
    if role in _LOOSE_ROLES and not any(f.role == role for f in facts):
        role = None  # "range" or "share" said loosely, in a turn with no such statistic: the words claim nothing
    unit = written_unit(reading.after)
    if role in ("count", None, "percent") and subject is None:
        named = task_named(reading, facts)  # "CheckRamsey failed 2 times": that task's own count
        if role == "count" or role is None and unit is None and not reading.decimals:
            # "CheckT1 accounted for 3 of them": a whole number said of a task the tools counted is that task's count
            subject, role = named, "count" if named is not None else role
        elif named is not None and any(f.subject == named and f.role != "count" for f in facts):
            subject = named  # "CheckT1 (3.9%)": a share or value of that task, held to the task's own facts
    qualifier = words.qualifier or ("failed" if role == "count" and words.role is None else None)
    case = _Case(reading, subject, facts, role, qualifier, words.band)
    case.candidates = [f for f in facts if unit_fits(reading.written, unit, f)]
    case.claimed = claimed_metric(reading.clause, case.candidates)
    decided = _no_claim(case, user_values, stated) or _as_change(case)
    if decided is not None:
        return decided
    if not case.candidates and (problem := unit_problem(reading.written, unit, facts, said_metric(
            reading.clause, reading.sentence, facts))):
        return case.claim("wrong", problem)
    if (unchecked := _not_computed(case, unit)) is not None:
        return unchecked
    if not case.candidates and case.role == "threshold":  # a limit in another metric's unit: said why below
        case.candidates = [f for f in facts if matches(reading.value, reading.decimals, f)]
    if not case.candidates:
        return _unmatched(case, loose_values)
    if case.role == "threshold":  # a limit the tools or the metric's catalogue entry use, or "at least 3 qubits"
        if counts_after(reading.after):
            return case.claim("ok", "a count")
        problem = _limit_problem(reading, case.candidates, facts)
        return case.claim("wrong", problem) if problem else case.claim("ok", "a threshold")
    pool = [f for f in case.candidates if f.role != "threshold"]
    if not pool and case.role in ("count", "total"):  # a count that only a limit has: counted by no tool
        return _unmatched(case, loose_values)
    if not pool:  # only a threshold has this value: no data gives it
        return case.claim("unbacked", "only a threshold has this number")
    if case.claimed is not None:
        same_metric = [f for f in pool if f.metric in (None, case.claimed)]
        if not same_metric:
            return case.wrong(f"{reading.written} is {pool[0].describe()}, not {case.claimed}", case.role, subject,
                              case.qualifier)
        pool = same_metric
    return _by_role(case, pool)


# Statistic words read loosely: with no such statistic in the turn ("in the range of", "a share of") they claim
# nothing.  A spread's statistics are held strictly (:func:`_not_computed`).
_LOOSE_ROLES: tuple[Role, ...] = ("range", "r", "percent")


def _not_computed(case: _Case, unit: str | None) -> Claim | None:
    """A count of something no tool counts ("12 anomalies"), or a spread statistic no tool of the turn computed
    ("the IQR is 12 μs" after a median): the sentence is marked not checked, whatever fact shares its value."""
    r = case.reading
    if case.role not in ("count", "total", "threshold") and unit is None and (noun := uncounted_noun(r)) is not None:
        return case.claim("unchecked", f"no tool counted {noun}")
    wanted = SPREAD_ROLES if case.role == "spread" else (case.role,) if case.role in SPREAD_ROLES else ()
    if not wanted or any(f.role in wanted for f in case.facts) or (case.role == "spread" and _ends(r)):
        return None
    return case.claim("unchecked", f"no tool computed the {_ROLE_NAMES[str(case.role)]} this number is said to be")


_ENDS = frozenset({"from", "between", "to", "and"})


def _ends(reading: Reading) -> bool:
    """The number is an end of what it spreads over ("varies from 21.7 to 146.2 μs", "between … and …")."""
    words = tokens_of(reading.before[-30:])
    return reading.before.rstrip().endswith(("-", "–", "—")) or bool(words) and words[-1][2] in _ENDS \
        and not reading.before[words[-1][1]:].strip()


def _no_claim(case: _Case, user_values: list[float], stated: AbstractSet[tuple[int, str]]) -> Claim | None:
    """Numbers that state no measured value: marked as derived, how many were asked for or are listed right after
    it, or the question's own number used as a threshold."""
    r = case.reading
    if r.derived:
        return case.claim("ok", "marked as derived")
    if asked_count(r, stated):
        return case.claim("ok", "how many were asked for, not a measured value")
    if case.role is None and r.listed == r.value:
        return case.claim("ok", "how many are listed right after it")
    if any(states(r.value, r.decimals, u) for u in user_values) and \
            (case.role == "threshold" or (case.role is None and case.subject is None)):
        return case.claim("ok", "the question's own number")
    return None


def _as_change(case: _Case) -> Claim | None:
    """"+0.05%", "fell by 2.6 μs": a change, checked against the tools' change and never made a level."""
    direction = change_claimed(case.reading, case.candidates, case.claimed)
    if direction is None or not (case.candidates or changes_of(case.facts, case.claimed, case.subject)):
        return None
    case.role = "change"
    problem, fix = change_problem(case.reading, direction, case.facts, case.claimed, case.subject)
    return case.claim("wrong", problem, fix) if problem else case.claim("ok", "the change the tools give")


def _unmatched(case: _Case, loose_values: list[float]) -> Claim:
    """No fact holds the number: a tool sentence's number, a wrong count of failed or missing items, or unbacked."""
    r = case.reading
    if case.role is None and any(states(r.value, r.decimals, v) for v in loose_values):
        return case.claim("ok", "in a tool result's text")
    counted = of_subject([f for f in case.facts if case.role == "count" and case.qualifier in ("failed", "missing")
                          and f.role == "count" and f.qualifier == case.qualifier and f.metric in (None, case.claimed)],
                         case.subject, case.facts)
    if counted:  # "the last 3 tasks failed" when the run's failures are 4 (below/above: the limit may differ)
        return case.wrong(f"{r.written} is not {counted[0].describe()}", case.role, case.subject, case.qualifier)
    if case.role in ("count", "total"):  # never "in a tool result's text": those digits are a name, a date, a value
        return case.claim(*unmatched_count(r, case.role, case.qualifier, case.facts, case.subject))
    shares = [f for f in case.facts if f.role == "percent"]
    if case.role == "percent" and shares:  # a share the model worked out itself: wrong, and no in-place fix, so
        # the answer read is the tools' sentence, which states the share with its numerator and denominator
        return case.claim("wrong", f"{r.written} is not {shares[0].describe()} the tools computed")
    return case.claim("unbacked", "no tool result has this number")


def _by_role(case: _Case, pool: list[Fact]) -> Claim:
    """Held against the facts of its role (count, total, an extreme or statistic, a qubit's value), then its band."""
    r = case.reading
    if case.role == "count":
        fitting = [f for f in pool if f.role == "count" and same_items(case.qualifier, f)] \
            if case.qualifier is not None else [f for f in pool if f.role in ("count", "total")]
        fitting = of_subject(fitting, case.subject, case.facts)
        if not fitting and case.subject is not None and not is_task(case.subject):
            return case.claim("unchecked", f"no tool counted {case.qualifier or 'items'} of {case.label(case.subject)}")
        if not fitting:
            return case.wrong(f"{r.written} is {pool[0].describe()}, not a count of {case.qualifier or 'items'}",
                              "count", case.subject, case.qualifier)
        return case.claim(*counted_as(r, fitting))
    if case.role == "total":
        return case.claim("ok") if any(f.role in ("total", "count") for f in pool) else \
            case.claim(*total_of_one_side(r, pool, case.facts))
    if case.role == "percent" and (problem := _denominator_problem(case, pool)) is not None:
        return problem
    if case.role in ("min", "max", "median", "mean", "latest", "spread", *SHAPE_ROLES):
        problem = _level_problem(case, pool)
        if problem is not None:
            return problem
    if case.role in UNGRADED and case.band is not None:
        return case.claim("wrong", f"{r.written} is {_ROLE_NAMES[case.role]}: a band ({case.band}) grades a "
                                   "qubit's value, not a spread or a correlation")
    elif case.subject is not None and not any(f.subject == case.subject for f in pool):
        owners = sorted({case.label(f.subject) for f in pool if f.subject})
        whose = f" (it is {', '.join(owners[:3])}'s)" if owners else ""
        return case.wrong(f"no tool result gives {case.label(case.subject)} {r.written}{whose}", "value",
                          case.subject)
    band = _band_problem(r, case.band, case.claimed or next((f.metric for f in pool if f.metric), None), pool)
    return case.claim("wrong", band) if band else case.claim("ok")


def _denominator_problem(case: _Case, pool: list[Fact]) -> Claim | None:
    """A share whose words name another denominator than the tool's ("21% of all tasks" for the failed tasks'
    share): wrong, with no in-place fix (the denominator is a word, not a number)."""
    said = share_denominator(case.reading.after)
    shares = [f for f in pool if f.role == "percent" and f.qualifier is not None]
    if not shares:
        return None
    if said is not None and not any(_denominator_fits(said, str(f.qualifier)) for f in shares):
        return case.claim("wrong", f"{case.reading.written}% is {shares[0].describe()}, not of {said}")
    words = {t for _, _, t in tokens_of(share_words(case.reading.after))}
    narrowed = [f for f in shares if f.within]
    if narrowed and len(narrowed) == len(shares) and words & _WHOLE and not any(
            words & {t for _, _, t in tokens_of(str(f.within))} - _LINKING for f in narrowed):  # "of all tasks"
        return case.claim("wrong", f"{case.reading.written}% is {narrowed[0].describe()}, not of all of them")
    named = words & _FAMILY_NAMED
    if named and not narrowed:  # "of the readout task results" for a share over every task result
        return case.claim("wrong", f"{case.reading.written}% is {shares[0].describe()}, not of the "
                                   f"{' '.join(sorted(named))} ones only")
    return None


_WHOLE = frozenset({"all", "every", "whole", "entire", "overall"})  # a share's whole said as everything
_LINKING = frozenset({"of", "on", "to", "the", "and", "leaving", "out", "task", "tasks", "results"})
_FAMILY_NAMED = frozenset({"readout", "resonator", "coupling", "two", "2q", "single", "1q"})  # a family of tasks


def _denominator_fits(said: str, share_of: str) -> bool:
    """The denominator words name the tool's: "of the qubits" fits either qubits' share, "of all 64 qubits" only
    the chip's, "of the qubits with a value" only the share of those with a value."""
    if said in ("with a value", "on the chip"):  # no noun: "of those with a value", "of all 64 on the chip"
        return share_of in ("qubits", "couplings") if said == "with a value" else share_of.endswith(said)
    return said == share_of or share_of.startswith(f"{said} ") or said == f"{share_of} with a value"


def _fitting_levels(case: _Case, pool: list[Fact]) -> list[Fact]:
    """The facts of the claimed level (min, max, median, mean, latest) that can hold this number."""
    role, subject = case.role, case.subject
    fitting = [f for f in pool if f.role == role or (role == "latest" and f.role == "value")
               or (role == "range" and f.role in ("min", "max"))  # a range is stated by its ends too
               or (role == "spread" and (f.role in SPREAD_ROLES or (_ends(case.reading) and f.role in ("min", "max"))))]
    side = _side(case.reading)
    if side is not None and any(f.qualifier == side for f in fitting):  # "median 59.1 μs → 61.9 μs"
        fitting = [f for f in fitting if f.qualifier == side]
    elif side is not None and any(f.qualifier is not None and f.role == role for f in fitting):
        fitting = [f for f in fitting if f.qualifier is None]
    if role == "latest" and any(f.role == "latest" and f.subject in (None, subject) and f.metric in (None, case.claimed)
                                for f in case.facts):
        fitting = [f for f in fitting if f.role == "latest"]  # a history's older points are values, not the latest
    if subject is not None:
        fitting = [f for f in fitting if f.subject in (None, subject)]
    if role == "r":  # which coefficient, and its sign as written
        before = case.reading.before[-40:]
        named = [before[a:b].lower() for a, b in ANSWER_WORDS["coefficient"].find(before)]
        if named:
            which = "pearson" if named[-1] == "pearson" else "spearman"
            fitting = [f for f in fitting if f.qualifier in (None, which)]
        fitting = [f for f in fitting if f.negative == (case.reading.written[:1] in "-−")]
    return fitting


def _level_problem(case: _Case, pool: list[Fact]) -> Claim | None:
    """A wrong level: no fact of that role holds it, or the qubit named with an extreme does not hold it."""
    r, subject = case.reading, case.subject
    fitting = _fitting_levels(case, pool)
    if not fitting:
        return case.wrong(f"{r.written} is {pool[0].describe()}, not the {_ROLE_NAMES[str(case.role)]}", case.role,
                          subject)
    if subject is None or case.role not in ("min", "max"):
        return None
    held = [f for f in case.facts if f.subject == subject and f.role in ("value", "latest", "min", "max")
            and f.metric in (None, case.claimed or fitting[0].metric)]
    if held and not any(matches(r.value, r.decimals, f) for f in held):
        return case.claim("wrong", f"{case.label(subject)} does not have {r.written}")
    if not held and not any(f.subject == subject for f in fitting):
        return case.claim("wrong", f"no tool result ties {r.written} to {case.label(subject)}")
    return None


def _limit_problem(reading: Reading, candidates: Sequence[Fact], facts: Sequence[Fact]) -> str | None:
    """Why a below/above limit is not one the tools or the metric's own catalogue entry state (the question's own
    numbers are accepted before this), in the metric's display unit; None when it is."""
    name = said_metric(reading.clause, reading.sentence, facts)
    limits = [f for f in candidates if f.role == "threshold" and (name is None or f.metric in (None, name))]
    if name is None:  # no metric to hold it to: a tool's limit, or a catalogue limit of a metric the tools returned
        held = {f.metric for f in facts if f.metric and f.qualifier != CATALOGUE_LIMIT}
        limits = [f for f in limits if f.qualifier != CATALOGUE_LIMIT or f.metric in held]
    if not limits:
        own = metric(name) if name else None
        stated = ", ".join(format_value(own, v) for v in (own.bad, own.good, own.excellent) if v is not None) \
            if own else ""
        other = next((f.describe() for f in candidates if f.role != "threshold"), None) or \
            next((f"a limit of {f.metric}" for f in candidates if f.metric), "no limit")
        return (f"{reading.written} is {other}, not a threshold the question, the tools or {name or 'the metric'} "
                "use" + (f" ({name}: {stated})" if stated else ""))
    unit, _ = unit_after(reading.after) or ("", 0)
    if unit and name is not None and metric(name).unit and family(unit) != family(metric(name).unit):
        return f"{reading.written} {unit} is not in {name}'s unit ({metric(name).unit})"
    return None


_ARROWS = ("→", "->")


def _side(reading: Reading) -> str | None:
    """``before`` for the number left of an arrow ("59.1 μs → 61.9 μs"), ``after`` for the one right of it."""
    after = reading.after.lstrip()
    _, unit_end = unit_after(after) or ("", 0)
    if after[unit_end:].lstrip().startswith(_ARROWS):
        return "before"
    return "after" if reading.before.rstrip().endswith(_ARROWS) else None


# Statistics a metric's bands (bad / fair / good / excellent) say nothing about: a band word on one is wrong.
UNGRADED: frozenset[str] = frozenset({"std", "pstd", "range", "iqr", "cv", "mad", "r", "spread"})
_ROLE_NAMES = {"min": "lowest value", "max": "highest value", "median": "median", "mean": "mean",
               "latest": "latest value", "std": "standard deviation", "range": "range", "iqr": "interquartile range",
               "cv": "coefficient of variation", "r": "correlation coefficient", "percent": "share",
               "spread": "spread (standard deviation, range, IQR or coefficient of variation)",
               "pstd": "population standard deviation", "mad": "median absolute deviation"}


def _band_problem(reading: Reading, band: str | None, name: str | None, pool: list[Fact]) -> str | None:
    """A band word or a below/above comparison in the clause that the value contradicts."""
    if name is None or not any(f.role in ("value", "latest", "min", "max", "median", "mean") for f in pool):
        return None
    entry = metric(name)
    if band is not None and entry.good is not None:
        value = in_metric_unit(reading.value, written_unit(reading.after), name)
        actual = entry.score(value if entry.higher_is_better or entry.unit != "MHz" else -value)
        if actual is not None and actual != band:
            return f"{reading.written} {entry.unit} is {actual} for {name}, not {band}"
    after = reading.after
    for word, number in limits_after(after):
        limit = float(number)
        below = is_below(word)
        if (below and not reading.value < limit) or (not below and not reading.value > limit):
            return f"{reading.written} is not {word} {number}"
    return None


def _correction(facts: list[Fact], role: Role | None, name: str | None, subject: str | None, qualifier: str | None,
                written: str) -> str | None:
    """The one value the data gives for this claim (role, metric, subject, count qualifier), else None."""
    if role in (None, "threshold", "other", "total") or (role in ("min", "max") and subject is not None) or (
            role == "count" and subject is not None and not is_task(subject)):
        return None  # a wrong extreme named with a qubit: the qubit is wrong too, so no in-place fix
    wanted_roles = ("value", "latest") if role == "value" else (role,)
    found = {f.value for f in facts if f.role in wanted_roles and (name is None or f.metric == name)
             and (role not in ("value", "latest") or f.subject == subject)
             and (role != "count" or (f.qualifier == qualifier and f in of_subject([f], subject, facts)))
             and (role in ("value", "latest", "count") or f.subject is None)}
    if role == "latest" and not found and subject is not None:
        found = {f.value for f in facts if f.role == "value" and f.subject == subject and f.metric == name}
    return written_like(found.pop(), written) if len(found) == 1 else None


