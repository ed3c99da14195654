"""The statistic a question's shape asks for, and whether an answer states it.

A spread is answered by a standard deviation, range, IQR or coefficient of variation; a percentage by a share; a
count by a count; a correlation by a coefficient; a top N by N ranked values.  An answer can be right number by
number and still answer another question (the highest T1 for "how spread out is T1?", a list of qubits for "what
share of qubits …?"): the claim check finds every number backed and keeps it.  Here the shape's role is held
against the answer's claims and the tools' facts (:mod:`~copilot_core.checking.claim_facts`): when the answer
states no value of that role, the tool sentence that does is added, or a note says the answer does not state it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from copilot_core.checking.claim_facts import SPREAD_ROLES, Claim, Fact, Role, tool_facts
from copilot_core.checking.matcher import states_written
from copilot_core.domain.metrics import CATALOGUE
from copilot_core.language.question import Question
from copilot_core.language.answer_words import ANSWER_WORDS
from copilot_core.routing.statistics import pair_statistic, spread_asked, spread_lead
from copilot_core.tools.toolkit import ToolOutcome, answer_line


@dataclass(frozen=True)
class AskedRole:
    """The roles that answer a shape (any one of them does), what to call them, and how many values it takes."""

    roles: tuple[Role, ...]
    what: str
    values: int = 1


# Shape (``Question.shape``) -> the role of the value that answers it.
SHAPE_ANSWERS: dict[str, AskedRole] = {
    "spread": AskedRole(SPREAD_ROLES, "spread (standard deviation, range, IQR or coefficient of variation)"),
    "percentage": AskedRole(("percent",), "share"),
    "count": AskedRole(("count", "total"), "count"),
    "window count": AskedRole(("count", "total"), "count"),
    "correlation": AskedRole(("r",), "correlation coefficient"),
}
_RANKED: tuple[Role, ...] = ("min", "max")
# Shapes a spread's words may take when the spread row of the shapes does not name them ("how uniform is T1").
_SPREAD_SHAPES = frozenset({"spread", "other", "extreme", "statistic", "health"})


# Shapes that compare two or more subjects: compared on counts when the question counts (or counts failures).
_COMPARED = ("cross-chip", "qubit pair", "compare runs")
_FAILED: tuple[Role, ...] = ("count",)  # with the qualifier "failed": each qubit's failed-task count
_PAIR: tuple[Role, ...] = ("value",)  # a value of each qubit of a pair


def asked_role(asked: Question) -> AskedRole | None:
    """The role ``asked`` needs its answer to state; None when its shape names none.  Two qubits' failures
    compared need both counts; a relation between two metrics, asked in any shape, needs its coefficient."""
    if asked.shape == "extreme" and (asked.extreme_n or 0) >= 2:
        return AskedRole(_RANKED, f"{asked.extreme_n} ranked values", asked.extreme_n or 2)
    if asked.has("fail") and len(asked.qubits) >= 2 and not asked.has("why failed") and (
            asked.shape == "fails most" or asked.has("count words") or asked.has("pair words")):
        return AskedRole(_FAILED, "failed-task count of each qubit", len(asked.qubits))
    if (derived := derived_role(asked)) is not None:
        return derived
    if asked.shape in ("qubit pair", "lookup") and len(asked.qubits) == 2 and not asked.has("subject words") and \
            not asked.has("fail") and not _of_couplings(asked) and not _runs_counted(asked):
        return AskedRole(_PAIR, "value of each of the two qubits", 2)
    if asked.shape in ("qubit pair", "lookup") and len(asked.couplings) == 2 and not asked.qubits and \
            not asked.has("fail"):  # "Q16-Q17 or Q16-Q18": each coupling's own value
        return AskedRole(_PAIR, "value of each of the two couplings", 2)
    if asked.relates and len([m for m in asked.metrics if m is not None]) == 2:
        return SHAPE_ANSWERS["correlation"]
    if asked.shape in _COMPARED and (asked.has("count words") or asked.has("fail") or _runs_counted(asked)):
        return SHAPE_ANSWERS["count"]
    if spread_asked(asked) and asked.shape in _SPREAD_SHAPES and not asked.ends and not asked.couplings or \
            asked.shape == "spread":
        return named_spread(asked)  # "how uniform", "IQR", "scatter": a spread in a shape of its own
    return SHAPE_ANSWERS.get(asked.shape)


# The statistic a spread question names -> the roles that state it: an SD said without "population" or "sample" is
# either one; "max less min" only the range, "IQR" only the interquartile range.
_NAMED_SPREADS: dict[str, AskedRole] = {
    "std": AskedRole(("std", "pstd"), "standard deviation"), "pstd": AskedRole(("pstd",), "population standard "
                                                                               "deviation"),
    "range": AskedRole(("range",), "range (maximum less minimum)"), "iqr": AskedRole(("iqr",), "interquartile range"),
    "cv": AskedRole(("cv",), "coefficient of variation"), "mad": AskedRole(("mad",), "median absolute deviation")}


def named_spread(asked: Question) -> AskedRole:
    """The spread statistic the question names, else any spread."""
    lead = spread_lead(asked)
    if lead == "std" and asked.has("sample words"):
        return AskedRole(("std",), "sample standard deviation")
    return _NAMED_SPREADS.get(str(lead), SHAPE_ANSWERS["spread"])


# A statistic of two qubits' histories (routing.statistics.pair_statistic) -> the role of its figure.
_HISTORY_ROLES: dict[str, tuple[Role, str]] = {
    "std": ("std", "standard deviation of each qubit's history"), "drift": ("change", "change of each qubit"),
    "gain": ("change", "change of each qubit"), "mean": ("mean", "mean of each qubit over the window"),
    "median": ("median", "median of each qubit over the window"), "max": ("max", "maximum of each qubit"),
    "min": ("min", "minimum of each qubit")}


def derived_role(asked: Question) -> AskedRole | None:
    """Two subjects compared on a figure derived from their values: a statistic of each one's history (over a
    window, or how much each varied or moved), or the gap between them ("how far apart", "by how much", a ratio);
    None for a plain comparison of their values."""
    two = len(asked.qubits) == 2 and not asked.couplings or len(asked.couplings) == 2 and not asked.qubits
    shapes = ("qubit pair", "lookup", "statistic") if asked.couplings else ("qubit pair", "lookup")
    if not two or asked.shape not in shapes or asked.has("fail") or _runs_counted(asked):
        return None
    stat = pair_statistic(asked)
    if stat is not None and (asked.window is not None or stat in ("std", "drift", "gain")):
        role, what = _HISTORY_ROLES[stat]  # two couplings' histories too: their latest values answer neither
        return AskedRole((role,), what if asked.qubits else what.replace("qubit", "coupling"), 2)
    if asked.has("gap words") or asked.has("ratio words"):
        return AskedRole(("change",), "difference between the two")
    return None


def _runs_counted(asked: Question) -> bool:
    """How often subjects were calibrated, no metric named ("was Q4 or Q9 calibrated more often"): runs counted."""
    return asked.has("calibrated") and not any(asked.metrics)


def _of_couplings(asked: Question) -> bool:
    """Every metric the question names belongs to couplings ("Bell state fidelity between qubits 0 and 1"): one value."""
    named = [CATALOGUE[m].kind for m in asked.metrics if m is not None and m in CATALOGUE]
    return bool(named) and set(named) == {"coupling"}


def told_role(said: str, facts: Sequence[Fact]) -> AskedRole | None:
    """The role an answer's own words take up when a tool computed it: an answer that speaks of a correlation
    ("there is no correlation") must state the coefficient the tool computed."""
    if ANSWER_WORDS["r"].search(said) is not None and any(f.role == "r" for f in facts):
        return SHAPE_ANSWERS["correlation"]
    return None


def _failed(facts: Sequence[Fact]) -> set[float]:
    return {f.value for f in facts if f.role == "count" and f.qualifier == "failed"}


def _ranked(facts: Sequence[Fact]) -> list[Fact]:
    return [f for f in facts if f.role in _RANKED and f.subject is not None]


def holds_role(need: AskedRole, facts: Sequence[Fact]) -> bool:
    """The facts hold the role (a top N: N ranked values)."""
    if need.roles == _RANKED:
        return len({f.subject for f in _ranked(facts)}) >= need.values
    if need.roles is _FAILED:
        return bool(_failed(facts))
    if need.roles is _PAIR:
        return len({f.subject for f in facts if f.role == "value" and f.subject}) >= 2
    return any(f.role in need.roles for f in facts)


def _same_side(said: str | None, subject: str | None) -> bool:
    """A value said of ``said`` (None: of no one named) can be ``subject``'s: a coupling either way round."""
    return said is None or subject is None or set(said.split("-")) == set(subject.split("-"))


def states_role(need: AskedRole, claims: Sequence[Claim], facts: Sequence[Fact]) -> bool:
    """The answer's claims state a value of the role: read so by their words, or written as a value the tools gave
    that role (a share quoted without its word).  A spread written as its two ends (lowest and highest) states the
    range; a top N needs N ranked values of distinct subjects."""
    if need.roles == _RANKED:
        subjects = {f.subject for f in _ranked(facts) for c in claims if states_written(c.written, f.value)}
        return len(subjects) >= min(need.values, len({f.subject for f in _ranked(facts)}))
    if need.roles is _PAIR:  # a value stated for each side, not one side's only (nor one side's value twice)
        valued = [f for f in facts if f.role == "value" and f.subject]
        return len({f.subject for f in valued for c in claims if states_written(c.written, f.value)
                    and _same_side(c.subject, f.subject)}) >= min(2, len({f.subject for f in valued}))
    if need.roles is _FAILED:  # every count, not only one of them
        counts = _failed(facts)
        return len({v for v in counts for c in claims if states_written(c.written, v)}) >= min(need.values,
                                                                                                len(counts))
    if any(c.role in need.roles and c.verdict != "unbacked" for c in claims):
        return True
    if any(states_written(c.written, f.value) for f in facts if f.role in need.roles for c in claims):
        return True
    return "range" in need.roles and {"min", "max"} <= {c.role for c in claims if c.verdict == "ok"}


def role_sentence(need: AskedRole, outcomes: Sequence[ToolOutcome]) -> str | None:
    """The first tool sentence (the router's call first) whose result holds the role, None when no tool computed
    it."""
    for outcome in sorted((o for o in outcomes if o.ok), key=lambda o: o.origin != "router"):
        line = answer_line(outcome)
        if line and holds_role(need, tool_facts([outcome])):
            return line
    return None


def sized(need: AskedRole) -> bool:
    """The role is a size the question sets (N ranked values, a spread's two ends or statistic): an answer without
    it answers another question, so the tools' sentence replaces it rather than joining it."""
    return need.roles == _RANKED or set(need.roles) <= set(SPREAD_ROLES)


def missing_role(asked: Question, claims: Sequence[Claim], outcomes: Sequence[ToolOutcome], said: str = ""
                 ) -> tuple[str | None, str, bool] | None:
    """When the answer states no value of the role the question's shape asks for (or its own words, ``said``, take
    up): the tool sentence that states it (None when no tool computed it), the note the person reads, and whether
    the sentence replaces the answer (:func:`sized`); None when the answer states it."""
    facts = tool_facts([o for o in outcomes if o.ok])
    need = asked_role(asked) or told_role(said, facts)
    if need is None:
        return None
    if states_role(need, claims, facts):
        return None
    sentence = role_sentence(need, outcomes)
    if sentence is not None and sized(need):
        return sentence, (f"The model's answer was replaced by one computed from the data: it does not state the "
                          f"{need.what} the question asks for."), True
    if sentence is not None:
        return sentence, (f"The model's answer does not state the {need.what} the question asks for; the sentence "
                          "above is the tools' own, computed from the data."), False
    return None, f"The answer does not state the {need.what} the question asks for: no tool computed it.", False
