"""What the loop does after a model speaks and before the person reads it: check the claims, answer deterministically
when the model could not, retry a call whose invented filters matched nothing, and draw the chart a question asked for.

Each step is one function the loop calls; none raises.  The claim check itself is :mod:`copilot_core.checking.claims`.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

import pandas as pd

from copilot_core.answer.blocks import Block, TextBlock
from copilot_core.checking.asked_role import asked_role, missing_role
from copilot_core.checking.asked_subject import (foreign_ids, ranked_subject_problem, share_problem,
                                                 window_count_problem)
from copilot_core.checking.comparison import NOT_CHECKED as COMPARISON_NOT_CHECKED
from copilot_core.checking.comparison import one_sided
from copilot_core.checking.claim_facts import tool_facts
from copilot_core.checking.claims import REPLACED, ClaimReport, check_claims, repair_answer
from copilot_core.checking.dated_values import complete_dates, date_mentions
from copilot_core.checking.grounding import unverified_numbers
from copilot_core.language.numbers import number_spans
from copilot_core.checking.left_out import NOT_ANSWERED, all_left_out
from copilot_core.checking.marks import mark_claims
from copilot_core.checking.order import rankings
from copilot_core.language.question import Question, parse
from copilot_core.charts.timeseries import timeseries_figure
from copilot_core.domain.metrics import metric, thresholds_prompt
from copilot_core.render_safety import validate_figure
from copilot_core.tools.compact import to_model_json
from copilot_core.tools.registry import runs_code
from copilot_core.tools.toolkit import PLANNED, ToolOutcome, answer_line

log = logging.getLogger(__name__)

NO_ANSWER = "Computed from the data: the model wrote no answer of its own."
NO_VALUES = ("The model's answer quotes no value from the data, so it could not be checked; the values above are "
             "computed from the tool results.")
# Optional filters a model invents (a chip id as a tag, a status executions do not have): dropped on the retry.
RETRYABLE_FILTERS = ("status", "tags")


def _invalid_argument(error: str) -> str | None:
    """The argument a tool error names ("invalid status: …", "invalid tags.0: …"), else None."""
    head, colon, _ = error.partition(":")
    key, dot, index = head.removeprefix("invalid ").partition(".")
    if not colon or not head.startswith("invalid ") or (dot and not index.isdigit()):
        return None
    return key if key and all(c == "_" or "a" <= c <= "z" for c in key) else None


def deterministic_answer(outcomes: Sequence[ToolOutcome]) -> str | None:
    """The question answered from the tools' own sentences: the router's call first (it is the one the question
    plainly needed), then the others in call order; None when no tool wrote one."""
    ordered = sorted((o for o in outcomes if o.ok), key=lambda o: o.origin not in PLANNED)
    lines = list(dict.fromkeys(line for o in ordered if (line := answer_line(o))))
    if not lines:
        return None
    return lines[0] if len(lines) == 1 else "\n".join(f"- {line}" for line in lines)


ALL_LEFT_OUT = ("The model's answer was replaced by one computed from the tool results: none of its sentences is "
                "supported by the data.")


def _all_left_out_blocks(outcomes: Sequence[ToolOutcome], fallback: str | None, question: str,
                         charts: Sequence[Block]) -> list[Block]:
    """What replaces an answer with nothing left but marks: the router's sentence, else any tool's own sentence
    (the one place this is decided), else what the tools found of a subject that is not there, else a plain note
    that the question was not answered."""
    line = fallback or deterministic_answer(outcomes)
    if line is not None:
        return [TextBlock(line), TextBlock(f"_{ALL_LEFT_OUT}_"), *charts]
    return tool_errors(outcomes, question) or [TextBlock(NOT_ANSWERED)]


def checked_blocks(blocks: list[Block], question: str, outcomes: Sequence[ToolOutcome]
                   ) -> tuple[list[Block], ClaimReport, str]:
    """:func:`claims_checked`, then the statistic the question's shape asks for (:func:`with_asked_role`)."""
    shown, report, action = claims_checked(blocks, question, outcomes)
    if (changed := with_asked_subject(blocks, shown, action, question, outcomes)) is not None:
        return changed[0], report, changed[1]
    return with_asked_role(shown, report, action, question, outcomes)


def with_asked_subject(blocks: list[Block], shown: list[Block], action: str, question: str,
                       outcomes: Sequence[ToolOutcome]) -> tuple[list[Block], str] | None:
    """The router's sentence with a note ("replaced"), when the model's answer (``blocks``) to a ranking or share
    question names another subject, none, or not the counts or share asked for, or names ids no tool returned
    (:mod:`~copilot_core.checking.asked_subject`); with no router's sentence, ids no tool returned get a note under
    the checked answer (``shown``); None when it answers what was asked."""
    if action == "replaced" or not outcomes or any(runs_code(o.name) for o in outcomes):
        return None
    said = "\n\n".join(b.text for b in blocks if isinstance(b, TextBlock))
    try:
        asked = parse(question)
        claims = check_claims(said, outcomes, question=question).claims
        problem = ranked_subject_problem(asked, said, outcomes) or share_problem(asked, said, claims, outcomes) or \
            window_count_problem(asked, said, claims, outcomes)
        foreign = foreign_ids(said, outcomes, asked)
    except Exception:  # noqa: BLE001  (a check that cannot decide leaves the answer as the claim check made it)
        log.exception("the asked-subject check failed on an answer")
        return None
    charts = [b for b in blocks if not isinstance(b, TextBlock)]
    fallback = deterministic_answer([o for o in outcomes if o.origin in PLANNED])
    if problem is None and foreign:
        if fallback is None:
            return [*shown, TextBlock(f"_{FOREIGN_NOTE.format(ids=', '.join(foreign[:3]))}_")], action
        problem = fallback, f"the answer names {foreign[0]}, which the data does not hold"
    if problem is None:
        return None
    line, why = problem
    return [TextBlock(line), TextBlock(f"_{REPLACED.format(why=why)}_"), *charts], "replaced"


FOREIGN_NOTE = "Not in the data: no tool of this turn returned {ids}; the answer's words about it are not checked."


def with_asked_role(shown: list[Block], report: ClaimReport, action: str, question: str,
                    outcomes: Sequence[ToolOutcome]) -> tuple[list[Block], ClaimReport, str]:
    """A checked answer that states no value of the role its question's shape asks for (a spread, a share, a
    count, a coefficient, N ranked values) gets the tool sentence that does, with a note ("completed"), or a note
    that it does not state it (:mod:`~copilot_core.checking.asked_role`)."""
    if action not in ("kept", "corrected") or not outcomes or any(runs_code(o.name) for o in outcomes):
        return shown, report, action
    said = "\n\n".join(b.text for b in shown if isinstance(b, TextBlock) and not b.text.startswith("_"))
    asked = parse(question)
    try:
        missing = missing_role(asked, check_claims(said, outcomes, question=question).claims, outcomes,
                               said)
    except Exception:  # noqa: BLE001  (a check that cannot decide leaves the answer as the claim check made it)
        log.exception("the asked-role check failed on an answer")
        return shown, report, action
    if missing is None:
        return shown, report, action
    sentence, note, replaces = missing
    need = asked_role(asked)
    if need is not None and one_sided(need, asked, said):  # a comparison on a figure it does not state is not checked
        if sentence is not None:
            why = f"it compares without the {need.what} the question asks for"
            charts = [b for b in shown if not isinstance(b, TextBlock)]
            return [TextBlock(sentence), TextBlock(f"_{REPLACED.format(why=why)}_"), *charts], report, "replaced"
        note = COMPARISON_NOT_CHECKED.format(what=need.what)
    if sentence is None:
        return [*shown, TextBlock(f"_{note}_")], report, action
    if replaces:  # N ranked values or a spread asked, not stated: the tools' sentence in its place
        charts = [b for b in shown if not isinstance(b, TextBlock)]
        return [TextBlock(sentence), TextBlock(f"_{note}_"), *charts], report, "replaced"
    return [*shown, TextBlock(sentence), TextBlock(f"_{note}_")], report, "completed"


def claims_checked(blocks: list[Block], question: str, outcomes: Sequence[ToolOutcome]
                   ) -> tuple[list[Block], ClaimReport, str]:
    """The answer's text blocks with wrong claims corrected from the data, or replaced by the deterministic
    answer; every other sentence that states a value, ranking, comparison or count either verified or marked where it
    stands (:mod:`~copilot_core.checking.marks`); plus the report and the action ("kept", "corrected", "replaced", or
    "completed": an answer quoting no value gets the router's deterministic answer added, as the check cannot decide).
    An answer to "the last N values" also gets each value's date (:mod:`~copilot_core.checking.dated_values`)."""
    texts = [b for b in blocks if isinstance(b, TextBlock)]
    if not texts or not outcomes:
        return blocks, ClaimReport(), "kept"
    charts = [b for b in blocks if not isinstance(b, TextBlock)]
    joined = "\n\n".join(b.text for b in texts)
    if any(runs_code(o.name) for o in outcomes):
        # numbers computed by model code have no field to bind them to: only a number no result holds is left out
        text, left_out, marked = mark_claims(joined, (), unsupported=_unsupported(joined, question, outcomes),
                                             names=_dates(joined))
        if all_left_out(text, left_out):
            return _all_left_out_blocks(outcomes, None, question, charts), ClaimReport(), "replaced"
        return ([TextBlock(text), *charts] if left_out or marked else blocks), ClaimReport(), "kept"
    # only the router's call is known to answer this question: otherwise the wrong claim is flagged, not replaced
    fallback = deterministic_answer([o for o in outcomes if o.origin in PLANNED])
    try:
        report = check_claims(joined, outcomes, question=question)
        fallback = fallback or ranked_answer(report, outcomes)
        repair = complete_dates(repair_answer(joined, report, fallback), question, outcomes, fallback)
        if repair.action == "replaced":
            shown, left_out, marked = repair.text, 0, 0
        else:
            judged = report if repair.text == joined else check_claims(repair.text, outcomes, question=question)
            shown, left_out, marked = mark_claims(repair.text, judged.claims, names=_dates(repair.text),
                                                  unsupported=_unsupported(repair.text, question, outcomes))
        if _EMPTY_VALUE.search(shown) and not _EMPTY_VALUE.search(joined):
            raise ValueError("the check wrote an empty value")
    except Exception as exc:  # noqa: BLE001  (an answer the check cannot judge is not shown unchecked)
        log.exception("the claim check failed on an answer")
        return unchecked_blocks(outcomes, fallback, exc), ClaimReport(), "replaced"
    if all_left_out(shown, left_out):
        # every sentence that said something was left out: the data's sentence, or a plain "not answered"
        return _all_left_out_blocks(outcomes, fallback, question, charts), report, "replaced"
    if repair.action == "kept" and not report.claims and fallback and number_spans(fallback):
        # an answer quoting no value ("Q79 is healthy.") leaves the check nothing to check: add what it rests on
        return [TextBlock(shown), *charts, TextBlock(fallback), TextBlock(f"_{NO_VALUES}_")], report, "completed"
    if repair.action == "replaced" and repair.text.strip() == joined.strip():
        return blocks, report, "kept"  # the model quoted the very answer that would replace it
    if repair.action == "replaced":
        return [TextBlock(repair.text), TextBlock(f"_{repair.note}_"), *charts], report, "replaced"
    if repair.action == "corrected":
        return [TextBlock(shown), TextBlock(f"_{repair.note}_"), *charts], report, "corrected"
    if shown == joined:
        return blocks, report, "kept"
    said = tool_errors(outcomes, question) if left_out else []
    return [*said[:1], TextBlock(shown), *said[1:], *charts], report, "kept"


def ranked_answer(report: ClaimReport, outcomes: Sequence[ToolOutcome]) -> str | None:
    """When the answer names another subject at an end a tool ranked: that tool's own sentence, which replaces it
    (the router's answer, when there is one, comes first)."""
    if not any(c.verdict == "wrong" and c.role is None for c in report.claims):
        return None
    ranked = [o for o in outcomes if o.ok and rankings([o.full])]
    # a relation or a count of none the words got wrong: the sentences of the tools that computed a coefficient or
    # counted (checking/relation.py, checking/none_counts.py)
    return deterministic_answer(ranked or [o for o in outcomes if o.ok and any(
        f.role == "r" or (f.role == "count" and f.qualifier) for f in tool_facts([o]))])


NOT_COMPUTED = ("This could not be computed: the lookup made for the question did not fit what the tool takes, so "
                "no value was read from the data. Naming the chip, the qubit, the metric or the dates plainly may help.")
NOT_COMPUTED_NOTE = "Not computed: every lookup made for this question failed, so nothing above comes from the data."


def tool_errors(outcomes: Sequence[ToolOutcome], question: str) -> list[Block]:
    """What the tools said when none of them found anything: the data's answer to a question about a qubit or chip
    that is not there ("qubit 200 does not exist on 64Qv3"), shown above what was left out; only a fact of the data
    about what the question names is shown so.  Calls that did not fit (bad arguments, a qubit the question never
    named) say plainly that nothing could be computed, with a note, never their error text."""
    if any(o.ok for o in outcomes) or not any(o.error for o in outcomes):
        return []
    asked = parse(question)
    facts = list(dict.fromkeys(o.error.strip().rstrip(".") for o in outcomes
                               if o.error_kind == "data" and o.error and o.error.strip() and _names_asked(o, asked)))
    if facts:
        return [TextBlock("From the data: " + "; ".join(facts[:3]) + ".")]
    return [TextBlock(NOT_COMPUTED), TextBlock(f"_{NOT_COMPUTED_NOTE}_")]


def _names_asked(outcome: ToolOutcome, asked: Question) -> bool:
    """Every qubit the call names is one the question names: a "no such qubit" about a number the question never
    called a qubit (a year, a day of the month) is no answer to it."""
    args = outcome.args
    named = [args.get("qid"), args.get("qubit_id"), *(args.get("qids") or [])]
    return all(asked.names_qubit(str(q).lower().lstrip("q")) or str(q) in asked.couplings for q in named
               if q is not None)


def _unsupported(text: str, question: str, outcomes: Sequence[ToolOutcome]) -> set[str]:
    """Numbers of ``text`` that no tool result, the question or a stated threshold holds (as written)."""
    sources = [part for o in outcomes for part in (o.model_text, o.full, o.summary)]
    return set(unverified_numbers(text, sources, allowed_text=[question, thresholds_prompt()]))


# What a reader never sees as prose: link and image destinations, reference definitions, autolinks and HTML tags,
# bare URLs and e-mail addresses (the page removes or shows them as addresses). Their digits are no claim.
_NOT_PROSE = re.compile(r"\]\([^)\n]*\)|\]:[ \t]*\S+|</?[A-Za-z!][^<>\n]*>|<[A-Za-z][\w+.-]*:[^<>\s]*>"
                        r"|[\w.+-]+@(?:[\w-]+\.)+[A-Za-z]{2,}\b"
                        r"|(?:\b(?:https?|ftp|mailto|javascript|vbscript|data|file):|(?<![\w.])//|\bwww\.)\S+", re.I)


def _dates(text: str) -> list[tuple[int, int]]:
    """Spans whose digits are no claim: dates written out, and text that is not prose (:data:`_NOT_PROSE`)."""
    return sorted([(m.start, m.end) for m in date_mentions(text)]
                  + [(m.start(), m.end()) for m in _NOT_PROSE.finditer(text)])


# "None μs", "nan %": a value the check or a tool sentence could not fill; never shown as a value
_EMPTY_VALUE = re.compile(r"\b(?:None|nan|NaN|null)\s*(?:μs|us|%|GHz|MHz|kHz|ns)(?!\w)")


CHECK_FAILED = ("The answer could not be checked against the data (the claim check failed: {error}), so it is not "
                "shown; this is the answer computed from the tool results.")


def unchecked_blocks(outcomes: Sequence[ToolOutcome], fallback: str | None, exc: Exception) -> list[Block]:
    """What is shown when the claim check raised: the deterministic answer (the router's, else every tool's own
    sentences, else their summaries) and the note that says why; nothing the model wrote, text or chart (the
    tools' own charts are added by the loop)."""
    text = fallback or deterministic_answer(outcomes) or "\n".join(
        f"- {o.summary}" for o in outcomes if o.summary) or "The tools returned nothing to show."
    return [TextBlock(text), TextBlock(f"_{CHECK_FAILED.format(error=type(exc).__name__)}_")]


def corrected_args(name: str, args: dict, outcome: ToolOutcome) -> dict | None:
    """Arguments for one retry of a call whose invented filters matched nothing (the tool says so with
    ``retry_without``) or failed validation (``invalid status: ...``); None when no retry would help."""
    drop: set[str] = set()
    if isinstance(outcome.full, dict) and isinstance(outcome.full.get("retry_without"), list):
        drop = {k for k in outcome.full["retry_without"] if k in RETRYABLE_FILTERS}
    elif not outcome.ok and outcome.error:
        drop = {k for k in RETRYABLE_FILTERS if k == _invalid_argument(outcome.error)}
    drop &= set(args)
    if not drop:
        return None
    log.info("retrying %s without %s", name, sorted(drop))
    return {k: v for k, v in args.items() if k not in drop}


def retry_invented(execute: Callable[[dict], ToolOutcome], name: str, args: dict, outcome: ToolOutcome
                   ) -> ToolOutcome:
    """``outcome``, or the outcome of one retry without the invented filters, telling the model what was dropped."""
    fixed = corrected_args(name, args, outcome)
    if fixed is None:
        return outcome
    retried = execute(fixed)
    dropped = sorted(set(args) - set(fixed))
    note = f"no result matched {', '.join(dropped)}; this is the result without {'them' if len(dropped) > 1 else 'it'}"
    try:
        body = json.loads(retried.model_text)
    except ValueError:
        return retried
    text = to_model_json({"note": note, **body}) if isinstance(body, dict) else retried.model_text
    return replace(retried, model_text=text, summary=f"{retried.summary} (retried without {', '.join(dropped)})")


def asked_chart(question: str, outcomes: Sequence[ToolOutcome], charts: Sequence[dict]) -> list[dict]:
    """A chart for a question that asks to plot, show, graph or chart something when no tool drew one: one qubit's
    history as a line, a ranked or filtered list of qubits as bars.  Empty when nothing drawable was fetched."""
    asked = parse(question)
    if charts or not (asked.chart or asked.has("show")):
        return []
    for outcome in outcomes:
        full = outcome.full if outcome.ok and isinstance(outcome.full, dict) else None
        if full is None:
            continue
        try:
            figure = _history_figure(full) or _qubits_figure(full) or _ranked_figure(full)
            if figure is not None:
                return [validate_figure(figure)]
        except Exception:  # noqa: BLE001  (a chart that cannot be drawn leaves the answer as it is)
            log.exception("could not draw the asked-for chart from %s", outcome.name)
    return []


def _history_figure(full: dict) -> dict | None:
    points = full.get("points")
    name = full.get("parameter_name")
    if not isinstance(points, list) or not points or not isinstance(name, str):
        return None
    label = str(full.get("label") or f"Q{full.get('qid')}")
    frame = pd.DataFrame({"qid": str(full.get("qid")), "qubit": label,
                          "calibrated_at": pd.to_datetime([p.get("calibrated_at") for p in points], errors="coerce"),
                          "value": pd.to_numeric([p.get("value") for p in points], errors="coerce"), "outlier": False})
    frame = frame.dropna(subset=["calibrated_at", "value"])
    if frame.empty:
        return None
    entry = metric(name)
    fig = timeseries_figure(frame, None, entry, title=f"{entry.title} of {label}")
    return json.loads(fig.to_json())


def _qubits_figure(full: dict) -> dict | None:
    """Several named qubits' histories (``get_chip_parameter_timeseries`` with ``qids``): one chart, a line each."""
    rows, labels, name = full.get("rows"), full.get("labels"), full.get("parameter_name")
    if not isinstance(rows, list) or not rows or not isinstance(labels, dict) or not isinstance(name, str):
        return None
    frame = pd.DataFrame({"qid": [str(r.get("qid")) for r in rows],
                          "qubit": [str(labels.get(str(r.get("qid")), f"Q{r.get('qid')}")) for r in rows],
                          "calibrated_at": pd.to_datetime([r.get("calibrated_at") for r in rows], errors="coerce",
                                                          utc=True).tz_localize(None),
                          "value": pd.to_numeric([r.get("value") for r in rows], errors="coerce"), "outlier": False})
    frame = frame.dropna(subset=["calibrated_at", "value"])
    if frame.empty:
        return None
    entry = metric(name)
    shown = sorted(set(frame["qubit"]))
    fig = timeseries_figure(frame, None, entry, title=f"{entry.title} of {', '.join(shown)}")
    return json.loads(fig.to_json())


def _ranked_figure(full: dict) -> dict | None:
    name = full.get("metric")
    rows = next((full[k] for k in ("lowest", "highest", "below", "above", "matching")
                 if isinstance(full.get(k), list) and full[k]), None)
    if rows is None or not isinstance(name, str):
        return None
    entry = metric(name)
    unit = f" [{entry.unit}]" if entry.unit else ""
    labels = [str(r.get("label")) for r in rows]
    values = [r.get("value") for r in rows]
    figure: dict[str, object] = {
        "data": [{"type": "bar", "x": labels, "y": values, "name": entry.title}],
        "layout": {"title": {"text": f"{entry.title} on {full.get('chip_id')}", "x": 0},
                   "yaxis": {"title": {"text": f"{entry.title}{unit}"}}, "height": 420}}
    return figure
