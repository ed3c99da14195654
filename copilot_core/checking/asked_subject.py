"""The answer to a question that asks for a subject at one end of a ranking, or for a share, held against the
router's call from the question's side, whatever words the answer uses.

A question about the task, qubit or run at the top of the failures (in any words: least reliable, poorest success
rate ...) asks for the subject the router's ``failure_ranking`` puts first: the first subject the answer names, of
any kind (a qubit or coupling named where a task was asked is wrong too), must be one the data puts there, and a
tie names every tied one.  Every number of an answer to a question the router ranked for (fails most, two chips or
two qubits side by side) is one the router's result or the question gives, whatever noun follows it ("calibrated
10 times"); that each count is stated, on the right name, is :mod:`~copilot_core.checking.order`'s and
:mod:`~copilot_core.checking.asked_role`'s.  A share question ("what percent of runs failed") must state the share.
Ids the turn's tools never returned ("64Qv3-001") name nothing in the data.  An answer that fails is replaced by the
tool's sentence, with a note that says why; ranking words the sentence readers do not know cannot let a wrong
subject through, because the subject is read, not the word.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from copilot_core.checking.asked_role import SHAPE_ANSWERS, states_role
from copilot_core.checking.claim_facts import Claim, tool_facts
from copilot_core.checking.grounding import unverified_numbers
from copilot_core.checking.order import Ranking, rankings
from copilot_core.checking.restate_failures import restates_count
from copilot_core.language.numbers import answer_numbers
from copilot_core.language.pairs import stored_coupling
from copilot_core.language.question import Question
from copilot_core.language.question_words import CHIP_ID
from copilot_core.language.subjects import Subject, subjects
from copilot_core.tools.toolkit import PLANNED, ToolOutcome, answer_line



def _labelled_ids(text: str) -> list[str]:
    """Ids written like a label of the data: an execution id ("20261030-001"), or a chip id with a number after a
    hyphen ("64Qv3-001")."""
    out: list[str] = []
    for m in CHIP_ID.finditer(text):
        if "-" in m.group(0):  # an execution id
            out.append(m.group(0))
            continue
        tail = text[m.end() + 1:]
        digits = tail[:len(tail) - len(tail.lstrip("0123456789"))]
        after = tail[len(digits):len(digits) + 1]
        if text[m.end():m.end() + 1] == "-" and digits and not (after.isalnum() or after == "_"):
            out.append(f"{m.group(0)}-{digits}")
    return out


def _router_ranking(outcomes: Sequence[ToolOutcome]) -> tuple[ToolOutcome, Ranking] | None:
    for outcome in outcomes:
        if outcome.ok and outcome.origin in PLANNED and (found := rankings([outcome.full])):
            return outcome, found[0]
    return None


def _named(text: str, ranking: Ranking) -> list[Subject]:
    """The subjects the answer names, in order; a chip only when chips are what is ranked ("on 64Qv3" is where)."""
    found = subjects(text, [(ranking.kind, n) for n in ranking.names])
    return found if ranking.kind == "chip" else [s for s in found if s.kind != "chip"]


def _key(name: str, ranking: Ranking) -> str:
    named = subjects(name, [(ranking.kind, name)])
    return named[0].key if len(named) == 1 else name.strip().lower()




def _tops(ranking: Ranking, low_end: bool) -> list[str]:
    names = list(ranking.names[::-1] if low_end else ranking.names)
    first = ranking.value(names[0])
    return [n for n in names if ranking.value(n) == first]


def foreign_ids(text: str, outcomes: Sequence[ToolOutcome], question: Question) -> list[str]:
    """Ids written like the data's labels that no tool result of the turn holds: one the question names is foreign too
    when no result returned it (a run id that does not exist, or whose results were not read)."""
    held = " ".join(json.dumps(o.full, default=str) + str(o.model_text) for o in outcomes if o.ok)
    return list(dict.fromkeys(i for i in _labelled_ids(text) if i not in held))


def _made_up_count(text: str, outcome: ToolOutcome, asked: Question) -> str | None:
    """A number of the answer that the router's result (its counts, shares, window) and the question do not give:
    "calibrated 10 times" is a count, whatever noun follows it."""
    found = unverified_numbers(text, [outcome.full, outcome.model_text], allowed_text=[asked.text])
    return found[0] if found else None


def ranked_subject_problem(asked: Question, text: str, outcomes: Sequence[ToolOutcome]) -> tuple[str, str] | None:
    """``(the tool's sentence, why)`` when the answer to a ranking question names another subject, none, a tie
    partly, or leaves out a count compared; None when it answers what the router's ranking says (or no ranking)."""
    found = _router_ranking(outcomes)
    if found is None:
        return None
    outcome, ranking = found
    line = answer_line(outcome)
    if not line:
        return None
    if (foreign := foreign_ids(text, outcomes, asked)):
        return line, f"the answer names {foreign[0]}, which the data does not hold"
    side_by_side = len(asked.chip_ids) >= 2 or len(asked.qubits) >= 2
    if (asked.shape == "fails most" or side_by_side) and (made_up := _made_up_count(text, outcome, asked)):
        return line, f"the answer states {made_up}, a count the data does not give"
    if asked.shape != "fails most" or side_by_side:
        return None
    tops = _tops(ranking, low_end=False)
    top_keys = {_key(n, ranking) for n in tops}
    keys = {_key(n, ranking) for n in ranking.names}
    named = _named(text, ranking)
    if not named:
        return line, f"the answer names no {ranking.kind}, and the question asks which one"
    if stored_coupling(named[0].key, keys) not in top_keys:
        return line, f"the data puts {' and '.join(tops)} first ({ranking.metric}), not {text[named[0].start:named[0].end]}"
    if len(tops) > 1 and not top_keys <= {stored_coupling(s.key, keys) for s in named}:
        return line, f"{' and '.join(tops)} are tied first ({ranking.metric}); the answer does not name every one"
    return None


def share_problem(asked: Question, text: str, claims: Sequence[Claim], outcomes: Sequence[ToolOutcome]
                  ) -> tuple[str, str] | None:
    """``(the tool's sentence, why)`` when a share question's answer states no share the router computed, or
    names ids no tool returned; None otherwise (or when the router computed no share)."""
    if asked.shape != "percentage":
        return None
    router = [o for o in outcomes if o.ok and o.origin in PLANNED and any(f.role == "percent"
                                                                          for f in tool_facts([o]))]
    if not router or not (line := answer_line(router[0])):
        return None
    if (foreign := foreign_ids(text, outcomes, asked)):
        return line, f"the answer names {foreign[0]}, which the data does not hold"
    if not states_role(SHAPE_ANSWERS["percentage"], claims, tool_facts(router)):
        return line, "the answer does not state the share the question asks for"
    return None


def window_count_problem(asked: Question, text: str, claims: Sequence[Claim], outcomes: Sequence[ToolOutcome]
                         ) -> tuple[str, str] | None:
    """``(the count's sentence, why)`` when a count over a window ("how many runs since Tuesday") states a number
    the count made over the question's window, kind and chip does not give, or not its count ("none" when it is 3);
    None otherwise (or when no call of the turn counted as the question reads it)."""
    if asked.shape != "window count" or len(asked.chip_ids) >= 2 or asked.chips_compared:
        return None
    counted = [o for o in outcomes if o.ok and o.name in ("count_in_window", "failure_ranking") and
               (o.origin in PLANNED or restates_count(asked, o.name, o.args))]
    if not counted or not (line := answer_line(counted[0])):
        return None
    if (made_up := _made_up_count(text, counted[0], asked)):
        return line, f"the answer states {made_up}, a count the data does not give"
    full = counted[0].full if isinstance(counted[0].full, dict) else {}
    distinct = asked.said("distinct count") is not None  # the distinct ones counted
    n = full.get("count" if counted[0].name == "count_in_window" else "failed_subjects" if distinct else "total")
    written = {w.replace(",", "") for w, derived in answer_numbers(text) if not derived}
    if isinstance(n, int) and n and str(n) not in written:  # "none", "a few": not the count the window holds
        return line, f"the count over the window asked is {n}, and the answer does not state it"
    if not states_role(SHAPE_ANSWERS["window count"], claims, tool_facts(counted[:1])):
        return line, "the answer does not state the count over the window asked"
    return None
