"""One question asked the way the page asks it (``Copilot.ask``: clarification on, memory off, readiness gating off,
the chip in view) against the scripted OpenAI-compatible server, for the tests of what the person reads."""

from __future__ import annotations

from copilot_core.chat import ChatState
from copilot_core.session import Copilot, TurnResult
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from tests.public_eval import CHIP

SMALL = "qwen2.5-coder-1.5b-instruct"  # a small model's name: the router offers it only the tools a question needs


def page_turn(repo, server, tmp_path, question: str, model: str | None = None,
              env: dict[str, str] | None = None) -> TurnResult:
    """``env``: settings beside the data directory (``{"COPILOT_TOOL_ROUTER": "off"}``)."""
    settings = load_settings({"DATA_DIR": str(tmp_path), **(env or {})})
    copilot = Copilot(repo, settings=settings, skills=SkillLibrary.load(), memory=None, gate=False)
    provider = server.provider("chat_completions", **({"model": model} if model else {}))
    return copilot.ask(ChatState(username="local", provider=provider, chip_id=CHIP), question, clarify=True)


def shown(turn: TurnResult) -> str:
    """What the person reads: the answer, or the notice when there is none."""
    return turn.answer.text if turn.answer is not None else (turn.notice or "")


def asked_on_small(repo, server, tmp_path, question: str, router: str) -> str:
    """What the person reads when a small model is asked with the tool router ``"on"`` or ``"off"``."""
    return shown(page_turn(repo, server, tmp_path, question, SMALL, {"COPILOT_TOOL_ROUTER": router}))
