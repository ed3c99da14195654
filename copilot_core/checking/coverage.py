"""Does what the turn's calls covered answer the question that was parsed?  One table for every answer kind.

An answer can be right number by number and still answer another question: a single extreme where N were asked, a
one-condition filter for a two-condition question, a count over every stored run for a question that names a window,
a filter's list where a spread was asked.  The claim check finds every number backed and keeps it, and a computed
(fallback) answer never reaches the checks that read the model's words.  Here each part of the parsed
:class:`~copilot_core.language.question.Question` (N, each condition, window, task, qubit, subject kind, statistic,
unit) is held against the arguments and result facts of the turn's successful calls through :data:`FEATURES`, one
row per part: what the question asks and how one call covers it.  A part no call covers gets a visible note, unless
an earlier note (restate, scope, asked role) already names it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from copilot_core.answer.blocks import Block, TextBlock
from copilot_core.checking.asked_role import AskedRole, asked_role, holds_role
from copilot_core.checking.claim_facts import CATALOGUE_LIMIT, Fact, tool_facts
from copilot_core.checking.restate import Condition, asked_conditions, call_conditions, call_metrics, limit_words
from copilot_core.checking.restate_elements import window_mismatch
from copilot_core.checking.scope import NO_DATA, asked_scope, asked_words, scope_note, wider
from copilot_core.domain.metrics import CATALOGUE
from copilot_core.domain.units import canonical
from copilot_core.domain.vocabulary import metric_spans
from copilot_core.language.numbers import number_spans, unit_after
from copilot_core.language.question import Question
from copilot_core.routing.counts import failure_subject
from copilot_core.tools.registry import runs_code
from copilot_core.tools.toolkit import ToolOutcome

_RANKED = ("min", "max")
_SELECTING = frozenset({"count", "percentage", "extreme", "other", "window count"})  # shapes whose limits select


@dataclass(frozen=True)
class Part:
    """One part of a question: its words, the value a call is held to, and the words an earlier note names it by."""

    words: str  # "the 5 lowest", "T2 echo above 30 μs", "the last 7 days"
    value: object
    named_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Call:
    """One successful data call as the table reads it: its name, arguments and result facts."""

    name: str
    args: dict
    facts: tuple[Fact, ...]
    outcome: ToolOutcome


@dataclass(frozen=True)
class Feature:
    """A row of :data:`FEATURES`: the parts a question asks, whether one call covers a part, and the note's second
    half (what the calls gave instead), from every data call of the turn."""

    name: str
    parts: Callable[[Question], list[Part]]
    covers: Callable[[Question, Part, Call], bool]
    gave: Callable[[Question, Part, Sequence[Call]], str]
    stated: Callable[[str, Question, Part], bool] | None = None  # the answer's own words cover it (a converted unit)


# --- N: the N ranked subjects of a top-N ---------------------------------------------------------------------

def _about(asked: Question, call: Call) -> list[Fact]:
    """The call's facts of the question's metrics (every fact when it names none; facts of no metric kept)."""
    named = {m for m in asked.metrics if m is not None}
    return [f for f in call.facts if not named or f.metric is None or f.metric in named]


def _n_parts(asked: Question) -> list[Part]:
    n = asked.extreme_n
    if asked.shape != "extreme" or n is None or n < 2:
        return []
    word = asked.extreme_word or "ranked"
    words = f"the {word} {n}" if word in ("top", "bottom") else f"the {n} {word}"
    return [Part(words, n, (f"{n} ranked values", f"asks for {n},"))]


def _ranked(asked: Question, call: Call) -> int:
    return len({f.subject for f in _about(asked, call) if f.role in _RANKED and f.subject})


def _n_covers(asked: Question, part: Part, call: Call) -> bool:
    n = cast(int, part.value)
    given = call.args.get("n")
    return _ranked(asked, call) >= n or call.name == "rank_metric" and isinstance(given, int) and given >= n


def _n_gave(asked: Question, part: Part, calls: Sequence[Call]) -> str:
    most = max((_ranked(asked, c) for c in calls), default=0)
    return f"the answer names {most}" if most else "no call ranked them"


# --- each condition (limit) of a selection ---------------------------------------------------------------------

def _condition_parts(asked: Question) -> list[Part]:
    if asked.shape not in _SELECTING or asked.qubits or asked.couplings:
        return []  # a limit about one named subject is compared by the reader, not applied by a call
    return [Part(words := limit_words(*c), c, (words,)) for c in asked_conditions(asked)]


def _condition_covers(asked: Question, part: Part, call: Call) -> bool:
    metric, side, value = cast(Condition, part.value)
    return any(m == metric and s == side and abs(v - value) <= 1e-9 * max(1.0, abs(v)) for m, s, v in
               call_conditions(call.name, call.args))


def _condition_gave(asked: Question, part: Part, calls: Sequence[Call]) -> str:
    applied = [limit_words(*c) for call in calls for c in call_conditions(call.name, call.args)]
    return f"the answer applies only {' and '.join(dict.fromkeys(applied))}" if applied else "no call applied it"


# --- window, task and one qubit: the scope check's own reading ---------------------------------------------------

# Words the restate check's window notes use ("asks for the last 7 days, not ...", "ranks over days 7, not ...").
_WINDOW_NOTES = ("ranks over", "asks for from_date", "asks for to_date", "asks for since_weekday", "asks for day")


def _scope_parts(key: str) -> Callable[[Question], list[Part]]:
    def parts(asked: Question) -> list[Part]:
        said = asked_scope(asked).stated().get(key)
        if said is None:
            return []
        named = (f"not limited to {asked_words(key, said)}", f"asks for {said},")
        return [Part(said, key, named + (_WINDOW_NOTES if key == "window" else ()))]
    return parts


def _scope_covers(asked: Question, part: Part, call: Call) -> bool:
    if str(part.value) in wider(call.outcome, asked_scope(asked)):
        return False
    return part.value != "window" or window_mismatch(asked, call.name, call.args) is None


def _scope_gave(asked: Question, part: Part, calls: Sequence[Call]) -> str:
    return ""  # the scope check's own note says it whole


# --- the kind of subject asked about: qubits or couplings --------------------------------------------------------

def _kind_parts(asked: Question) -> list[Part]:
    kinds = {CATALOGUE[m].kind for m in asked.metrics if m is not None and m in CATALOGUE}
    subject = failure_subject(asked) if asked.shape == "fails most" else None
    # a coupling named with only qubit metrics ("coupling 4-5: which qubit has the longer T1") asks about its qubits
    kind = subject if subject in ("qubit", "coupling") else "coupling" if asked.couplings and kinds != {"qubit"} or \
        kinds == {"coupling"} else None
    return [] if kind is None else [Part(f"{kind}s", kind, (f"which {kind}", f"each {kind}", f"the {kind}'s"))]


def _kind_of(call: Call) -> set[str]:
    """The kinds of subject one call read: by its subjects' ids, its metrics, or what it ranks by."""
    out = {("coupling" if "-" in f.subject else "qubit") for f in call.facts if f.subject and
           f.subject.replace("-", "").isdigit()}
    out |= {CATALOGUE[m].kind for m in call_metrics(call.name, call.args) if m in CATALOGUE}
    by = call.args.get("by")
    return out | ({str(by)} if by is not None else set()) | ({"coupling"} if call.args.get("coupling_id") else set())


def _kind_covers(asked: Question, part: Part, call: Call) -> bool:
    return part.value in _kind_of(call)


def _kind_gave(asked: Question, part: Part, calls: Sequence[Call]) -> str:
    read = sorted({k for c in calls for k in _kind_of(c)} - {part.value})
    return f"the answer is about {' and '.join(f'{k}s' for k in read)}" if read else "no call read them"


# --- the statistic the shape asks for (the asked-role check's roles) ---------------------------------------------

def _role(asked: Question) -> AskedRole | None:
    need = asked_role(asked)
    return None if need is None or need.roles == _RANKED else need  # a top N is the N row's


def _statistic_parts(asked: Question) -> list[Part]:
    need = _role(asked)
    return [] if need is None else [Part(f"the {need.what}", need, (f"the {need.what}",))]


def _statistic_covers(asked: Question, part: Part, call: Call) -> bool:
    return isinstance(part.value, AskedRole) and holds_role(part.value, _about(asked, call))


def _statistic_gave(asked: Question, part: Part, calls: Sequence[Call]) -> str:
    return "no call computed it"


# --- the unit the value is asked in ("in MHz") ---------------------------------------------------------------------

def _unit_parts(asked: Question) -> list[Part]:
    unit = asked.unit_asked
    return [] if unit is None else [Part(f"the value in {unit}", unit, (f"in {unit}",))]


def states_unit(said: str, asked: Question, part: Part) -> bool:
    """The answer's own words give a value of the question's metric in ``unit`` (a model that converted it): a
    number written with that unit whose nearest metric before it is one the question names."""
    named = {m for m in asked.metrics if m is not None}
    spans = metric_spans(said)
    for _, end, _, _ in number_spans(said):
        after = unit_after(said[end:])
        before = [m for s, _, m in spans if s < end]
        if after is not None and canonical(after[0]) == part.value and (not named or before and before[-1] in named):
            return True
    return False


def _units(asked: Question, call: Call) -> set[str]:
    """The units the call states values of the question's metrics in (of every metric when it names none)."""
    named = {m for m in asked.metrics if m is not None}
    return {f.unit for f in call.facts if f.unit and f.qualifier != CATALOGUE_LIMIT and (
        not named or f.metric in named or f.metric is None and call_metrics(call.name, call.args) and
        set(call_metrics(call.name, call.args)) <= named)}


def _unit_covers(asked: Question, part: Part, call: Call) -> bool:
    units = _units(asked, call)
    return call.args.get("unit") == part.value or part.value in units or not units


def _unit_gave(asked: Question, part: Part, calls: Sequence[Call]) -> str:
    return f"the figures above are in {', '.join(sorted({u for c in calls for u in _units(asked, c)}))}"


FEATURES: tuple[Feature, ...] = (
    Feature("N", _n_parts, _n_covers, _n_gave),
    Feature("condition", _condition_parts, _condition_covers, _condition_gave),
    Feature("window", _scope_parts("window"), _scope_covers, _scope_gave),
    Feature("task", _scope_parts("task"), _scope_covers, _scope_gave),
    Feature("qubit", _scope_parts("qubit"), _scope_covers, _scope_gave),
    Feature("subject kind", _kind_parts, _kind_covers, _kind_gave),
    Feature("statistic", _statistic_parts, _statistic_covers, _statistic_gave),
    Feature("unit", _unit_parts, _unit_covers, _unit_gave, states_unit),
)


def data_calls(outcomes: Sequence[ToolOutcome]) -> list[Call]:
    """The turn's successful calls that read measured data, each with its own result facts; a result the fact
    reader cannot walk covers nothing (so its parts are noted, never taken as answered)."""
    return [Call(o.name, o.args, _facts(o), o) for o in outcomes
            if o.ok and o.name not in NO_DATA and isinstance(o.args, dict)]


def _facts(outcome: ToolOutcome) -> tuple[Fact, ...]:
    try:
        return tuple(tool_facts([outcome]))
    except (RecursionError, ValueError, TypeError):
        return ()


def uncovered(asked: Question, calls: Sequence[Call]) -> list[tuple[Feature, Part]]:
    """Each part of ``asked`` no data call of the turn covers; none when the turn read no data or ran code (which
    can compute anything)."""
    if not calls or any(runs_code(c.name) for c in calls):
        return []
    return [(feature, part) for feature in FEATURES for part in feature.parts(asked)
            if not any(feature.covers(asked, part, call) for call in calls)]


def coverage_note(asked: Question, feature: Feature, part: Part, calls: Sequence[Call]) -> str:
    """The visible note for one part the answer does not cover."""
    if feature.gave is _scope_gave:
        return scope_note([str(part.value)], asked_scope(asked))
    return f"Not answered: the question asks for {part.words}; {feature.gave(asked, part, calls)}."


def covered_blocks(blocks: list[Block], asked: Question, outcomes: Sequence[ToolOutcome]) -> list[Block]:
    """``blocks`` with one note per part of the question the turn's calls do not cover, unless an earlier note
    (lines in italics) already names that part."""
    texts = [b.text for b in blocks if isinstance(b, TextBlock)]
    noted = " ".join(t.lower() for t in texts if t.startswith("_"))
    said = " ".join(t for t in texts if not t.startswith("_"))
    notes: list[str] = []
    calls = data_calls(outcomes)  # each result's facts read once a turn
    for feature, part in uncovered(asked, calls):
        if any(n.lower() in noted for n in part.named_by) or feature.stated and feature.stated(said, asked, part):
            continue
        notes.append(f"_{coverage_note(asked, feature, part, calls)}_")
    return [*blocks, *(TextBlock(n) for n in dict.fromkeys(notes))]
