"""Clarifying choices: a question with 2–4 options instead of a guess.

Two sources.  The model may call :data:`ASK_TOOL` (a strict schema) to end its round with a question; the loop
then stops and the answer is an :class:`~copilot_core.answer.blocks.AskBlock`.  And the common ambiguities are
caught before any model is asked (:func:`clarify_first`): a bare "T2" (echo or star?), and a first question about
the data that names no chip while several are installed.

A click passes the option as a value (:func:`choice_message`): a chip becomes the chip in view (the tools'
``chip_id`` parameter, marked as database text in the prompt), a metric is named by the code's own phrase, and an
option of the model's question goes back as its number.  The message the user is shown and the model reads as
the user's words is the question and a constant phrase: a chip id from the database (or an option a saved chat
holds) is never written into it.
"""

from __future__ import annotations

import json
from itertools import groupby
from collections.abc import Sequence

from copilot_core.answer.blocks import AskBlock, ChoiceKind
from copilot_core.language.question import Question, parse
from copilot_core.routing.limits import quality_conditions

ASK_TOOL = "ask_user"
MAX_OPTIONS = 4
MAX_QUESTION_CHARS = 300
MAX_OPTION_CHARS = 80
ASK_SCHEMA: dict = {
    "name": ASK_TOOL,
    "description": ("Ask the user ONE clarifying question when the request is ambiguous (which metric, which chip, "
                    "which qubit) instead of guessing. Give 2-4 short options. The user's choice comes back as "
                    "their next message."),
    "parameters": {"type": "object", "additionalProperties": False, "required": ["question", "options"],
                   "properties": {"question": {"type": "string", "description": "The question, one sentence."},
                                  "options": {"type": "array", "minItems": 2, "maxItems": MAX_OPTIONS,
                                              "items": {"type": "string"}}}},
}
T2_OPTIONS = ("T2 echo (t2_echo)", "T2* Ramsey (t2_star)")


def _control(ch: str) -> bool:
    return ord(ch) < 32 or ord(ch) == 127


def _clean(value: object, limit: int) -> str:
    """``value`` as one line: each run of control characters becomes one space."""
    runs = (" " if control else "".join(chars) for control, chars in groupby(str(value), key=_control))
    return "".join(runs).strip()[:limit]


def ask_from_call(arguments: str) -> AskBlock | None:
    """The model's ``ask_user`` call as a block; None when it is not a question with 2–4 distinct options."""
    try:
        raw = json.loads(arguments or "{}")
    except ValueError:
        return None
    if not isinstance(raw, dict) or not isinstance(raw.get("options"), list):
        return None
    question = _clean(raw.get("question") or "", MAX_QUESTION_CHARS)
    options = list(dict.fromkeys(o for o in (_clean(x, MAX_OPTION_CHARS) for x in raw["options"]
                                             if isinstance(x, (str, int, float))) if o))
    if not question or not 2 <= len(options) <= MAX_OPTIONS:
        return None
    return AskBlock(question, tuple(options))


def clarify_first(question: str, *, chips: Sequence[str], chip_in_view: str | None,
                  history: Sequence[dict]) -> AskBlock | None:
    """A question to ask before the model runs, for the ambiguities that need no model to see."""
    asked = parse(question, chips)
    if asked.chip_options:  # "64Q" while 64Qv3 and 64Qv2 are installed: which one, never a guess
        return AskBlock("Which chip do you mean?", asked.chip_options[:MAX_OPTIONS], choice="chip")
    if asked.bare_t2:
        return AskBlock("Which T2 do you mean?", T2_OPTIONS, choice="metric")
    if (not history and chip_in_view is None and len(chips) > 1 and len(asked.chips) != 1 and asked.about_data
            and not asked.many_chips):
        return AskBlock("Which chip is this about?", tuple(sorted(chips))[:MAX_OPTIONS], choice="chip")
    return None


def may_ask(asked: Question, *, chip_id: str | None, chips: Sequence[str], planned: bool) -> bool:
    """Whether the model may end the turn with ``ask_user``: only for an ambiguity the data cannot settle.  A bare
    "T2", a metric phrase that names no metric or several ("coherence"), no chip in view or named while several are
    installed, or a question that names nothing the data could answer.  Any other question, of a known shape or
    not (``planned``: a deterministic call answers it), is answered, never asked about."""
    if asked.bare_t2 or unclear_metric(asked) or asked.qualities and quality_conditions(asked) is None:
        return True  # (a condition in words of a metric with no band limit: which limit is the person's)
    if chip_id is None and len(chips) > 1 and len(asked.chips) != 1 and not asked.many_chips:
        return True
    return not planned and (not names_answerable(asked) or shape_without_metric(asked))


# Shapes whose answer is a metric's ranking, spread, statistic or correlation; rows that make a question about
# runs, tasks or failures instead (a count of them needs no metric).
_METRIC_SHAPES = frozenset({"extreme", "spread", "statistic", "correlation"})
_NOT_OF_A_METRIC = ("fail", "fails most", "run words", "execution", "tasks", "count words", "history", "window")


def shape_without_metric(asked: Question) -> bool:
    """It asks a top N, a spread, a statistic, a correlation or a chip-against-chip figure, and names no metric nor
    subject: which metric is the question back (a chip summary would answer another question)."""
    shaped = asked.shape in _METRIC_SHAPES or asked.shape == "cross-chip" and (
        asked.has("statistic") or asked.has("mean words") or asked.has("spread words"))
    return shaped and not any(asked.metrics) and not (asked.ends or asked.couplings or asked.not_held) and \
        asked.task_name is None and not any(asked.has(row) for row in _NOT_OF_A_METRIC)


def unclear_metric(asked: Question) -> bool:
    """A metric phrase of the question names no one metric ("coherence", "fidelity"); "coupling" and "pair" name
    what is asked about, not a metric."""
    return None in (asked.without("subject words").metrics if asked.has("subject words") else asked.metrics)


# Rows whose words name something the data holds: the chip as a whole, a count, failures, runs, a limit, a window,
# an end, a statistic, a change.  A lone "the noisy qubit" is none of these: which one is the question back.
_ANSWERABLE_ROWS = ("chip wide", "plural", "count words", "fail", "fails most", "threshold", "window", "extreme",
                    "run words", "execution", "coupling words", "statistic", "trend", "change")


def names_answerable(asked: Question) -> bool:
    """The question names something the data answers: a metric, a qubit or coupling, a task, a run, a chip-wide
    word, a count, a share or a known shape.  A chip id alone ("the odd one on 64Qv3") and one qubit meant but not
    named ("the noisy qubit") are no such thing."""
    return (asked.shape != "other" or any(asked.metrics) or bool(asked.ends or asked.couplings or asked.qubits)
            or asked.task_name is not None or asked.execution_id is not None
            or any(asked.has(row) for row in _ANSWERABLE_ROWS))


def answer_instead(chip_id: str | None, *, look_up: bool = False) -> dict[str, str]:
    """The tool reply to an ``ask_user`` call on an answerable question: answer it, on the chip in view; ``look_up``:
    no tool has been called yet, so call the one that answers it first."""
    where = f"the chip in view is {chip_id}" if chip_id else "the chip is the one the question names"
    hint = ("Call the tool that answers the question now (on that chip), then answer from its result." if look_up
            else "Answer the question now from the tool results, quoting their numbers.")
    return {"error": f"Do not ask the user: the question is answerable from the data ({where}).", "hint": hint}


CHIP_PICKED = "(about the chip I picked below; it is now the chip in view)"


def chips_after_pick(message: str, chips: Sequence[str], chip_in_view: str | None) -> list[str]:
    """The installed chips a message is read against: after a click on a chip the question could mean (it ends
    with :data:`CHIP_PICKED`), the others it could mean are left out, so it reads as the chip picked."""
    if chip_in_view is None or chip_in_view not in chips or not message.rstrip().endswith(CHIP_PICKED):
        return list(chips)
    could_be = parse(message, chips).chip_options
    return [c for c in chips if c == chip_in_view or c not in could_be]


def choice_message(question: str, choice: ChoiceKind, options: Sequence[str], picked: int) -> str | None:
    """The next message of the chat after a click on option ``picked``: the question again with a phrase written
    here, never the option's text.  None when the pick is not one this app offers (a metric phrase it does not
    know, an index out of range)."""
    if not 0 <= picked < len(options):
        return None
    asked = question.strip()
    if choice == "chip":
        return f"{asked} {CHIP_PICKED}"
    if choice == "metric":
        known = next((phrase for phrase in T2_OPTIONS if phrase == options[picked]), None)
        return f"{asked} (I mean: {known})" if known is not None else None
    return f"{asked} (I pick option {picked + 1} of your question)"
