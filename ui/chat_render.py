"""Draw chat turns: text blocks as markdown, charts natively after validation, the assessment badge,
live tool progress inside ``st.status``, and the show-work panel with its re-run button.

Everything the model or the database wrote is hostile and reaches the page only through
``copilot_core.render_safety``: markdown rebuilt without images, HTML or outside links, charts validated,
text cleaned for ``st.text``/``st.code``; tool names are reduced to identifiers, arguments go through ``st.json``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

import streamlit as st

from copilot_core.answer.blocks import ApprovalBlock, AskBlock, Block, ChartBlock, Figure, TextBlock
from copilot_core.chat import ChatMessage, ChatState, ShowWork, rerun_analysis
from copilot_core.chat.background import TurnEvent
from copilot_core.tools.toolkit import ToolOutcome
from copilot_core.render_safety import escape, safe_label, safe_markdown, safe_text
from ui.plot import checked_chart

BadgeColour = Literal["green", "gray", "orange", "red"]
BADGES: dict[str, tuple[str, BadgeColour, str]] = {"good": ("Good", "green", ":material/check_circle:"),
          "warning": ("Needs attention", "orange", ":material/warning:"),
          "bad": ("Bad", "red", ":material/error:")}
AI_REVIEW_PREFIX = "**AI review**"
RERUNS_KEY = "copilot_reruns"
OPENED_CHARTS_KEY = "copilot_opened_charts"  # keys of older answers' charts this browser session asked to see

SETUP_HELP = """**No language model is configured**, so the copilot cannot answer yet. The dashboard pages keep working.

Configure one of these, in the environment or in `.streamlit/secrets.toml` (copy `.streamlit/secrets.toml.example`):

- **OpenAI**: `OPENAI_API_KEY = "sk-..."` and optionally `COPILOT_MODEL = "gpt-5.4"`.
- **A local or self-hosted OpenAI-compatible server** (Ollama, vLLM, llama.cpp): `OPENAI_BASE_URL =
  "http://127.0.0.1:11434/v1"` and `COPILOT_MODEL = "<model name>"`; no key is needed. Such servers use
  `COPILOT_API_STYLE = "chat_completions"` (the default for any base URL).

Then reload this page."""


def tool_label(name: object) -> str:
    """A tool name as shown: identifier characters only (the model may invent any string)."""
    return re.sub(r"[^A-Za-z0-9_]", "", str(name))[:64] or "unknown_tool"


# ------------------------------------------------------------------ blocks
def render_chart(chart: Figure, key: str) -> None:
    """Draw a chart only if render safety accepts it (stored and model charts are never trusted)."""
    checked_chart(chart, key)


def render_badge(assessment: str | None) -> None:
    if assessment in BADGES:
        label, color, icon = BADGES[assessment]
        st.badge(safe_label(f"Assessment: {label}"), color=color, icon=icon)


def _open_chart(key: str) -> None:
    st.session_state.setdefault(OPENED_CHARTS_KEY, set()).add(key)


def render_chart_on_demand(chart: Figure, key: str) -> None:
    """An older answer's chart: drawn once asked for (one click; it then stays drawn for this browser session),
    so opening the chat does not make the browser draw every chart of its history again."""
    if key in st.session_state.get(OPENED_CHARTS_KEY, ()):
        render_chart(chart, key)
    else:
        st.button("Show chart", key=f"{key}-open", icon=":material/bar_chart:", on_click=_open_chart, args=(key,),
                  help="Charts of earlier answers are drawn when asked for.")


def render_block(block: Block, key: str, eager: bool = True) -> None:
    match block:
        case ChartBlock(figure=figure) if eager:
            render_chart(figure, key=key)
        case ChartBlock(figure=figure):
            render_chart_on_demand(figure, key=key)
        case TextBlock(text=text) if text.lstrip().startswith(AI_REVIEW_PREFIX):
            with st.container(border=True):
                st.markdown(safe_markdown(text))
        case TextBlock(text=text):
            st.markdown(safe_markdown(text))
        case AskBlock(read_only=True):
            render_qdash_ask(block)
        case ApprovalBlock():
            render_approval(block)


APPROVAL_STATUS: dict[str, tuple[str, BadgeColour, str, str]] = {  # status -> (badge, colour, icon, meaning)
    "approved": ("Approved", "green", ":material/check_circle:", "Approved in QDash."),
    "declined": ("Declined", "gray", ":material/cancel:", "Declined in QDash."),
    "undecided": ("No decision", "gray", ":material/remove_circle:", "No decision was made."),
    "pending": ("Awaiting approval", "orange", ":material/hourglass_empty:",
                "Waiting for a decision in QDash; it cannot be approved from here."),
}


def render_approval(block: ApprovalBlock) -> None:
    """QDash's approval request, read-only: the operation, its tool and exact arguments, and the decision."""
    badge, colour, icon, meaning = APPROVAL_STATUS[block.status]
    with st.container(border=True):
        st.markdown(safe_markdown(f"**Approval request:** {escape(block.label)}"))
        st.badge(safe_label(badge), color=colour, icon=icon)
        st.caption(escape(f"Tool {tool_label(block.tool)} · {meaning}"))
        if block.args:
            st.code(safe_text(json.dumps(block.args, ensure_ascii=False, indent=1, default=str), 4000),
                    language="json")


def render_qdash_ask(block: AskBlock) -> None:
    """A question QDash's copilot asked, read-only: the question, its options with their descriptions, the pick."""
    descriptions = block.descriptions or ("",) * len(block.options)
    lines = [f"{i}. {escape(option)}" + (f" — {escape(about)}" if about else "")
             + (" **(chosen)**" if option == block.answer else "")
             for i, (option, about) in enumerate(zip(block.options, descriptions), 1)]
    with st.container(border=True):
        st.markdown(safe_markdown(f"**Question:** {escape(block.question)}"))
        st.markdown(safe_markdown("\n".join(lines)))
        st.caption(escape("Asked in QDash; read-only here." if block.answer else
                          "Asked in QDash; no option was picked. Read-only here."))


def render_blocks(message: ChatMessage, key: str, eager: bool = True) -> None:
    render_badge(message.assessment)
    for i, block in enumerate(message.blocks):
        render_block(block, key=f"{key}-chart-{i}", eager=eager)


def _choose(state: ChatState, index: int, n: int, picked: int) -> None:
    """A click on an option: passed on as its position, never as its text (``ChatState.choose``)."""
    state.choose(index, n, picked)


def render_ask(block: AskBlock, message: ChatMessage, index: int, n: int, state: ChatState) -> None:
    """A clarifying question: its text, then one button per option (or the choice made)."""
    st.markdown(safe_markdown(block.question))
    if block.answer is not None:
        st.caption(escape(f"You chose: {block.answer}"))
        return
    for i, (column, option) in enumerate(zip(st.columns(len(block.options)), block.options)):
        column.button(safe_label(option, 80), key=f"ask-{state.session_id}-{index}-{n}-{i}",
                      on_click=_choose, args=(state, index, n, i), width="stretch")


def _ask_next(state: ChatState, text: str) -> None:
    state.pending = text


def render_follow_ups(questions: list[str], index: int, state: ChatState) -> None:
    """Next questions as buttons under the latest answer; a click asks it."""
    st.caption(safe_markdown("Ask next:"))
    for i, question in enumerate(questions):
        st.button(safe_label(question, 200), key=f"next-{state.session_id}-{index}-{i}",
                  icon=":material/subdirectory_arrow_right:", on_click=_ask_next, args=(state, question))


def starter_questions(chip_id: str | None) -> list[str]:
    """What a new chat may start with, about the chip in view or the newest chip (ids are identifiers from the
    database; a chip id that is not one gets the generic questions)."""
    chip = f" on {chip_id}" if chip_id and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}", chip_id) else ""
    return [f"Summarise the health of the chip{chip}", f"Which qubits{chip} have the lowest T1?",
            f"What changed{chip} since the last calibration run?", f"Which tasks failed in the latest run{chip}?"]


def render_starters(state: ChatState, chip_id: str | None) -> None:
    """An empty chat: a few questions to start with, as buttons (a click asks it)."""
    st.caption(safe_markdown("Start with one of these, or type your own question below:"))
    for i, question in enumerate(starter_questions(chip_id)):
        st.button(safe_label(question, 200), key=f"starter-{state.session_id}-{i}",
                  icon=":material/chat_bubble:", on_click=_ask_next, args=(state, question))


def render_unverified(numbers: list[str]) -> None:
    """Numbers in the answer that no tool result backs: the reader should check them before relying on them."""
    if numbers:
        shown = ", ".join(safe_text(n, 40) for n in numbers[:20])
        st.caption(safe_markdown(f"Not found in any tool result: {shown}"),
                   help="The copilot wrote these numbers but none of the tools it called returned them "
                        "(allowing for rounding). They may be miscalculated or invented; check them before use.")


def render_user(message: ChatMessage) -> None:
    st.markdown(safe_markdown(message.text))
    if message.flags:
        st.warning(escape(flag_warning(message.flags)))


def flag_warning(flags: list[str]) -> str:
    shown = ", ".join(str(f).replace("_", " ")[:60] for f in flags[:5])
    return (f"This message contains phrases often used for prompt injection ({shown}). It was sent as a question; "
            "the copilot treats data and instructions inside it as data, not as orders.")


# ------------------------------------------------------------------ show work
def render_show_work(work: ShowWork, key: str, state: ChatState) -> None:
    with st.expander("Show work", icon=":material/fact_check:"):
        usage = work.usage or {}
        cached = f" ({usage['cached_tokens']} from the prompt cache)" if usage.get("cached_tokens") else ""
        st.caption(escape(f"Model {work.model or '?'} · {work.api_style or '?'} · {usage.get('rounds', 0)} rounds · "
                          f"{usage.get('input_tokens', 0)} input{cached} / {usage.get('output_tokens', 0)} output "
                          f"tokens · {work.elapsed_s:.1f} s"))
        if not work.tools:
            st.text("No tools were called for this answer.")
        for i, tool in enumerate(work.tools, 1):
            status = "ok" if tool.ok else "failed"
            by = " · called by the tool router before the model's first round" if tool.origin == "router" else ""
            st.markdown(safe_markdown(f"**{i}. `{tool_label(tool.name)}`** · {status} · "
                                      f"{tool.elapsed_s * 1000:.0f} ms{by}"))
            st.json(tool.args, expanded=False)
            st.text(safe_text(tool.summary or tool.error or ""))
        if work.data_keys:
            st.text(safe_text("Data keys used: " + ", ".join(work.data_keys)))
        for i, analysis in enumerate(work.analyses, 1):
            st.markdown(safe_markdown(f"**Sandbox code {i}**"))
            st.code(safe_text(analysis.code), language="python")
            st.code(safe_text(analysis.output or "(nothing printed)"), language="text")
            if analysis.error:
                st.error(escape(safe_text(analysis.error, 2000)))
        if work.trace:
            from copilot_core.tracing import summary_text

            st.markdown("**Trace**")
            st.text(safe_text(summary_text(work.trace)))
            if work.trace.get("skills"):
                st.text(safe_text("Skills used: " + ", ".join(map(str, work.trace["skills"]))))
            st.json(work.trace, expanded=False)
        if work.analysis_code():
            _rerun_section(work, key, state)


def _rerun(key: str, code: str, keys: list[str], state: ChatState) -> None:
    st.session_state.setdefault(RERUNS_KEY, {})[key] = rerun_analysis(code, state.store, needed_keys=keys)


def _rerun_section(work: ShowWork, key: str, state: ChatState) -> None:
    code = "\n\n".join(work.analysis_code())
    st.button("Re-run analysis code", key=f"{key}-rerun", icon=":material/replay:",
              help="Runs the same code again in the sandbox on this chat's data store.",
              on_click=_rerun, args=(key, code, work.analysis_keys(), state))
    result = st.session_state.get(RERUNS_KEY, {}).get(key)
    if result is None:
        return
    if result.error:
        st.error(escape(safe_text(result.error, 2000)))
    st.code(safe_text(result.output or "(nothing printed)"), language="text")
    for i, chart in enumerate(result.charts):
        render_chart(chart, key=f"{key}-rerun-chart-{i}")


# ------------------------------------------------------------------ whole turns
STOPPED_NOTE = "Stopped by you: the answer above is incomplete (what was shown before the stop is kept)."


def render_answer(message: ChatMessage, index: int, state: ChatState, eager: bool = True) -> None:
    """An assistant turn's body; keys depend on the session and position so reruns keep widget state.  Its
    charts are drawn at once when ``eager`` (the newest answer), else on demand."""
    if message.stopped:
        st.caption(safe_markdown(STOPPED_NOTE), help="The turn was stopped with the chat input's stop button.")
    render_blocks(message, key=f"msg-{state.session_id}-{index}", eager=eager)
    for n, block in enumerate(message.blocks):
        if isinstance(block, AskBlock) and not block.read_only:
            render_ask(block, message, index, n, state)
    if message.follow_ups and index == len(state.messages) - 1:
        render_follow_ups(message.follow_ups, index, state)
    render_unverified(message.unverified_numbers)
    if message.work is not None:
        render_show_work(message.work, key=f"work-{state.session_id}-{index}", state=state)


@dataclass(frozen=True)
class TurnSlots:
    """The placeholders at the head of an assistant message: the running turn's Stop button, the analysed qubit's
    early report, the progress status and the streamed draft.  Every assistant message reserves them, so a
    finished turn and the same turn redrawn from history have the same layout and the browser never keeps a stale
    copy of an answer next to its redrawn one."""

    stop: Any
    early: Any
    status: Any
    draft: Any


def turn_slots() -> TurnSlots:
    return TurnSlots(st.empty(), st.empty(), st.empty(), st.empty())


def render_message(message: ChatMessage, index: int, state: ChatState, eager: bool = True) -> None:
    with st.chat_message(message.role):
        if message.role == "user":
            render_user(message)
        else:
            turn_slots()
            render_answer(message, index, state, eager)


def render_history(state: ChatState) -> None:
    """Every turn's text; the charts of the newest answer at once, older answers' charts on demand."""
    newest = max((i for i, m in enumerate(state.messages) if m.role != "user"), default=-1)
    for i, message in enumerate(state.messages):
        render_message(message, i, state, eager=i >= newest)


def show_events(events: list[TurnEvent], progress: StatusProgress, draft: Any) -> None:
    """Events from a background turn (``copilot_core.chat.background``): progress into the status box, and the
    newest draft of the answer, rebuilt by render safety on every update, into its placeholder."""
    drafts = [e.args[0] for e in events if e.kind == "draft"]
    for event in events:
        if event.kind in ("phase", "notice", "tool_call", "tool_result"):
            getattr(progress, event.kind)(*event.args)
        elif event.kind == "report" and (report := getattr(progress, "report", None)) is not None:
            report(*event.args)  # the analysed qubit's report, drawn before the model's review
    progress.flush()
    if drafts:
        text = str(drafts[-1])
        if text.strip():
            draft.markdown(safe_markdown(text))
        else:
            draft.empty()


class StatusProgress:
    """A ``TurnListener`` drawing into an ``st.status`` container while the turn blocks the script.  The status
    label changes once per batch of events (:meth:`flush`), to the newest: each change is a message to the
    browser and a redraw of the status box."""

    def __init__(self, status: Any) -> None:
        self.status = status
        self.calls = 0
        self.label: str | None = None  # the newest label, drawn by flush()
        self.shown_label: str | None = None

    def flush(self) -> None:
        if self.label is not None and self.label != self.shown_label:
            self.status.update(label=safe_label(self.label))
            self.shown_label = self.label
        self.label = None

    def tool_call(self, name: str, args: dict) -> None:
        self.calls += 1
        label = tool_label(name)
        self.status.markdown(safe_markdown(f"**{self.calls}. `{label}`**"))
        self.status.text(safe_text(json.dumps(args, ensure_ascii=False, default=str)[:2000]))
        self.label = f"Calling {label}…"

    def tool_result(self, outcome: ToolOutcome) -> None:
        line = (outcome.summary or "done") if outcome.ok else f"failed: {outcome.error or outcome.summary}"
        self.status.text(safe_text(("✓ " if outcome.ok else "✗ ") + str(line), 300))

    def notice(self, text: str) -> None:
        self.status.caption(escape(text))

    def phase(self, text: str) -> None:
        text = str(text)[:120]
        self.label = text[:1].upper() + text[1:] + ("" if text == "done" else "…")
