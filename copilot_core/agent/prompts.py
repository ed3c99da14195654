"""System prompts, assembled from the markdown files in ``prompts/`` by one renderer.

A prompt has two parts.  ``system``: role -> tool rules (or the no-tools note) -> security -> answer format,
the same bytes for every question, chip, qubit, page and mode (chat or a one-result review), so the server's prompt
cache (llama.cpp's slot and RAM caches, vLLM's prefix cache, OpenAI's prompt caching) keeps it, and the tool list a
chat template renders right after it (Qwen's does), from one question to the next.  ``context``: the review's task
(analysis mode) -> thresholds -> chip/qubit context -> extras (skills, memory), what changes per question; it
travels as a later message, just before the question.  Analysis mode adds the qubit's topology neighbours,
couplings, the reviewed experiment and its history to the context.

Every round resends both, so in chat mode the thresholds and the selected qubit's values go in only when the
question needs them (:func:`prompt_needs`, a word rule; the budget is in ``llm/budget.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from string import Template
from typing import TYPE_CHECKING

from copilot_core.agent.context import chip_section, experiment_sections, qubit_sections, resolve_target
from copilot_core.domain.topology import parse_qubit_ref
from copilot_core.domain.metrics import SCORED_COUPLING_METRICS, SCORED_QUBIT_METRICS, thresholds_prompt
from copilot_core.language.question import parse
from copilot_core.data.observed import observed
from copilot_core.tools.compact import clean_text, inline_from_database
from copilot_core.tools.taint import DatabaseText, mark_line

if TYPE_CHECKING:
    from copilot_core.data.repository import CalibrationRepository
    from copilot_core.data.rows import ChipLayout

PROMPT_DIR = Path(__file__).resolve().parent / "prompts"


@lru_cache(maxsize=None)
def _template(name: str) -> Template:
    return Template((PROMPT_DIR / f"{name}.md").read_text(encoding="utf-8").strip())


def render_prompt(name: str, **values: object) -> str:
    """``prompts/<name>.md`` with ``$placeholders`` filled (a missing value is a programming error)."""
    return _template(name).substitute({k: str(v) for k, v in values.items()})


SCORED = SCORED_QUBIT_METRICS + SCORED_COUPLING_METRICS
# Words that ask for a judgement: every threshold goes in.
@dataclass(frozen=True)
class PromptNeeds:
    """What a chat question needs in the prompt: these metrics' thresholds, and the selected qubit's values."""

    thresholds: tuple[str, ...]
    qubit_values: bool


def prompt_needs(question: str | None, mode: str, qid: str | None = None) -> PromptNeeds:
    """Thresholds: all in analysis mode, for an unknown question or one asking for a judgement (the qubit
    metrics' only, when it names the selected qubit and no coupling metric); else those of the metrics it names
    (none when it names none).  Qubit values: unless the question is chip-wide and does not name the selected
    qubit."""
    if mode == "analysis" or question is None:
        return PromptNeeds(SCORED, True)
    asked = parse(question)
    named = asked.threshold_metrics
    names_qubit = qid is not None and asked.names_qubit(qid)
    if asked.has("quality"):  # one qubit's health is judged on qubit metrics unless couplings are named
        one_qubit = names_qubit and not named & set(SCORED_COUPLING_METRICS)
        thresholds = SCORED_QUBIT_METRICS if one_qubit else SCORED
    else:
        thresholds = tuple(name for name in SCORED if name in named)
    return PromptNeeds(thresholds, names_qubit or not asked.has("chip wide"))


@dataclass(frozen=True)
class Prompt:
    """``system``: the part every question shares (first in the request); ``context``: this question's
    thresholds, chip/qubit context and extras (sent as a message right before the question)."""

    system: str
    context: str

    @property
    def text(self) -> str:
        """Both parts, in the order the model reads them."""
        return f"{self.system}\n\n{self.context}"


def build_prompt(*, mode: str, repo: CalibrationRepository | None, chip_id: str | None, chip: ChipLayout | None,
                 qid: str | None, context: dict | None = None, api_style: str = "responses", extras: Sequence[str] = (),
                 tools: bool = True, question: str | None = None) -> Prompt:
    """The prompt for one request about ``chip_id`` (already resolved by the turn's plan, its layout ``chip`` already
    read once by the loop); ``repo`` is read only for the qubit's values, and in analysis mode its neighbours and
    experiment.  ``tools`` False: the no-tools path for models that cannot call; ``question`` None: treated as
    needing every threshold and the qubit's values."""
    context = context or {}
    database_text = DatabaseText()  # the reads below, the chip's layout and the chat's stored context
    database_text.record(context)
    database_text.record(chip)
    if qid is not None:
        try:
            qid = parse_qubit_ref(qid)
        except ValueError:
            qid = None
    needs = prompt_needs(question, mode, qid)
    analysis = mode == "analysis" and chip_id is not None and qid is not None
    task_name = context.get("task_name")
    fixed = [render_prompt("chat"), render_prompt("tools" if tools else "no_tools"), render_prompt("security"),
             render_prompt("format")]
    if api_style == "chat_completions":
        fixed.append(render_prompt("strict_emulation"))
    parts = []
    if analysis:  # the review's role and its qubit travel with the context, so every mode shares ``system``
        phrase = f" (task {inline_from_database(task_name, 60)})" if task_name else ""
        parts += [render_prompt("analysis", qid=qid, chip_id=inline_from_database(chip_id), task_phrase=phrase),
                  render_prompt("ai_review")]
    if needs.thresholds:
        parts.append(render_prompt("thresholds", thresholds=thresholds_prompt(needs.thresholds)))
    lines = chip_section(chip_id, chip)
    with observed(database_text):
        if chip_id and qid is not None and repo is not None:
            lines += qubit_sections(repo, chip_id, qid, chip, neighbours=analysis, values=needs.qubit_values)
            if analysis:
                lines += experiment_sections(repo, chip_id, qid, task_name, chip)
    for key, value in context.items():
        if key != "task_name" and isinstance(value, (str, int, float)):
            lines.append(f"- {clean_text(key, 40)}: {clean_text(value, 200)}")
    parts.append("\n".join(mark_line(line, database_text) for line in lines))
    parts += [extra.strip() for extra in extras if extra and extra.strip()]
    return Prompt("\n\n".join(fixed), "\n\n".join(parts))


def build_system_prompt(*, mode: str, repo: CalibrationRepository | None, chip_id: str | None, qid: str | None,
                        context: dict | None = None, api_style: str = "responses", extras: Sequence[str] = (),
                        tools: bool = True, question: str | None = None) -> str:
    """The whole prompt of :func:`build_prompt` as one text (the shared part, then this question's), the target
    resolved here (the newest installed chip when none is given)."""
    chip_id, _, chip = resolve_target(repo, chip_id, None)
    return build_prompt(mode=mode, repo=repo, chip_id=chip_id, chip=chip, qid=qid, context=context,
                        api_style=api_style, extras=extras, tools=tools, question=question).text
