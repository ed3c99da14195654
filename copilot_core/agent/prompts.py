"""System prompts, assembled from the markdown files in ``prompts/`` by one renderer.

Chat mode: role -> tool rules (or the no-tools note) -> security -> thresholds -> chip/qubit context ->
extras (skills, memory) -> answer format.  Analysis mode starts with the reviewer role and the AI-review
block and adds the qubit's topology neighbours, couplings, the reviewed experiment and its history
(QDash's ``_build_system_prompt`` order).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from string import Template
from typing import TYPE_CHECKING, Any

from copilot_core.agent.context import chip_section, experiment_sections, qubit_sections, resolve_target
from copilot_core.domain.metrics import thresholds_prompt
from copilot_core.tools.compact import clean_text

if TYPE_CHECKING:
    from copilot_core.data.repository import CalibrationRepository

PROMPT_DIR = Path(__file__).resolve().parent / "prompts"


@lru_cache(maxsize=None)
def _template(name: str) -> Template:
    return Template((PROMPT_DIR / f"{name}.md").read_text(encoding="utf-8").strip())


def render_prompt(name: str, **values: Any) -> str:
    """``prompts/<name>.md`` with ``$placeholders`` filled (a missing value is a programming error)."""
    return _template(name).substitute({k: str(v) for k, v in values.items()})


def build_system_prompt(*, mode: str, repo: CalibrationRepository | None, chip_id: str | None, qid: str | None,
                        context: dict | None = None, api_style: str = "responses", extras: Sequence[str] = (),
                        tools: bool = True) -> str:
    """The whole system prompt for one request (``tools`` False: the no-tools path for models that cannot call)."""
    context = context or {}
    chip_id, qid, chip = resolve_target(repo, chip_id, qid)
    analysis = mode == "analysis" and chip_id is not None and qid is not None
    task_name = context.get("task_name")
    if analysis:
        phrase = f" (task {clean_text(task_name, 60)})" if task_name else ""
        parts = [render_prompt("analysis", qid=qid, chip_id=chip_id, task_phrase=phrase), render_prompt("ai_review")]
    else:
        parts = [render_prompt("chat")]
    parts += [render_prompt("tools" if tools else "no_tools"), render_prompt("security"),
              render_prompt("thresholds", thresholds=thresholds_prompt())]
    lines = chip_section(chip_id, chip)
    if chip_id and qid is not None and repo is not None:
        lines += qubit_sections(repo, chip_id, qid, chip, neighbours=analysis)
        if analysis:
            lines += experiment_sections(repo, chip_id, qid, task_name)
    for key, value in context.items():
        if key != "task_name" and isinstance(value, (str, int, float)):
            lines.append(f"- {clean_text(key, 40)}: {clean_text(value, 200)}")
    parts.append("\n".join(lines))
    parts += [extra.strip() for extra in extras if extra and extra.strip()]
    parts.append(render_prompt("format"))
    if api_style == "chat_completions":
        parts.append(render_prompt("strict_emulation"))
    return "\n\n".join(parts)
