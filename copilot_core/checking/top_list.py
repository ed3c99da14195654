"""A top-N list the model writes, held to the ranking the question asks for.

A request for the five longest-T1 qubits is answered by one ranking: that metric, on the chip asked about (the one in
view when the question names none), from the end asked, N long.  A model that ranks another metric, reads the other
chip, takes the other end or lists another number of subjects writes a list whose every value may be true of
something, so the claim check can only mark it.  Here the list is held to the router's own ranking call
(:func:`~copilot_core.routing.prefetch.plan_prefetch`): when no call of the turn made that ranking, or the list names
subjects outside its top N or fewer than N of them, the turn makes the call and the list is replaced by its sentence.
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_core.language.qubit_sets import qubit_set
from copilot_core.language.question import blank
from copilot_core.language.subjects import subject_key, subjects
from copilot_core.routing.planned import PlannedCall
from copilot_core.routing.prefetch import plan_prefetch
from copilot_core.tools.toolkit import ToolOutcome, answer_line

RE_RANKED = ("The model's list was replaced by one computed from the tool results: it did not list the ranking "
             "the question asks for (its metric, chip, end and number).")


def ranking_plan(question: str, chip_id: str | None, chips: Sequence[str] = ()) -> PlannedCall | None:
    """The router's ranking call of a top-N question (N of two or more), else None."""
    plan = plan_prefetch(question, chip_id=chip_id, chips=chips) if chip_id else None
    if plan is None or plan.name != "rank_metric" or int(plan.args.get("n") or 0) < 2:
        return None
    return plan


def _key(kind: str, key: str) -> str:
    """A subject's key, a coupling's either way round."""
    return "-".join(sorted(key.split("-"), key=int)) if kind == "coupling" else key


def _listed(text: str) -> list[str]:
    """The qubits and couplings a text names, once each, in order; the set a ranking is over ("on 64Qv3 (Q20 to
    Q29, leaving out Q25)") is named, not listed."""
    listed = blank(text, qubit_set(text, False).spans)
    return list(dict.fromkeys(_key(s.kind, s.key) for s in subjects(listed) if s.kind in ("qubit", "coupling")))


def ranks_as_asked(outcome: ToolOutcome, plan: PlannedCall) -> bool:
    """The call made the ranking ``plan`` makes: the same metric, chip and end, at least as long."""
    args, wanted = outcome.args if isinstance(outcome.args, dict) else {}, plan.args
    return outcome.ok and outcome.name == "rank_metric" and args.get("metric_name") == wanted["metric_name"] and \
        str(args.get("chip_id", "")).lower() == str(wanted["chip_id"]).lower() and \
        (args.get("order") or "lowest") == wanted["order"] and int(args.get("n") or 5) >= int(wanted["n"])


def ranked(outcome: ToolOutcome, n: int) -> list[str]:
    """The keys of the first ``n`` subjects a ranking result lists."""
    full = outcome.full if isinstance(outcome.full, dict) else {}
    rows = full.get(str(full.get("order"))) or []
    keys = [subject_key(str(r.get("label", ""))) for r in rows if isinstance(r, dict)]
    return [_key(kind, key) for kind, key in keys if kind is not None][:n]


def list_off(text: str, outcome: ToolOutcome, n: int, exact: bool = True) -> bool:
    """The text's subjects are not the ranking's top ``n``: one outside it, or fewer of them (one, or none: the
    single lowest where five were asked is the wrong size, whatever its value).  Not ``exact`` (the question wrote
    no N, only a plural): any length will do, but they must be the ranking's top that many."""
    named = _listed(text)
    if not exact:
        return not named or bool(set(named) - set(ranked(outcome, len(named))))
    top = ranked(outcome, n)
    return bool(top) and (bool(set(named) - set(top)) or len(set(named)) < len(top))


def unranked(text: str, outcomes: Sequence[ToolOutcome], plan: PlannedCall, exact: bool = True) -> bool:
    """No call of the turn ranks as asked with the answer's subjects as its top N (fail-closed: an answer naming
    fewer than N, none included, is unranked)."""
    made = [o for o in outcomes if ranks_as_asked(o, plan)]
    return not made or all(list_off(text, o, int(plan.args["n"]), exact) for o in made)


def re_ranked(text: str, outcome: ToolOutcome, plan: PlannedCall, exact: bool = True) -> str:
    """The answer with its list replaced by the ranking's own sentence, when the list is not that ranking."""
    line = answer_line(outcome) if outcome.ok else None
    if not line or not list_off(text, outcome, int(plan.args["n"]), exact):
        return text
    return f"{line}\n\n_{RE_RANKED}_"
