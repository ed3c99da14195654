"""A turn's progress reaches the browser in batches: within one batch of events the status box's label changes
once, to the newest, every tool line is still shown, and only the newest draft of the answer is drawn.

The status box and the draft slot are stand-ins for Streamlit's ``st.status`` container and ``st.empty`` slot
that record what the page would send to the browser (one entry per message).
"""

from __future__ import annotations

from copilot_core.chat.background import TurnEvent
from copilot_core.tools.toolkit import ToolOutcome
from tests.render_safety.checks import readable
from ui.chat_render import StatusProgress, show_events


class StatusBox:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def update(self, *, label: str) -> None:
        self.sent.append(("label", label))

    def markdown(self, body: str) -> None:
        self.sent.append(("markdown", body))

    def text(self, body: str) -> None:
        self.sent.append(("text", body))

    def caption(self, body: str) -> None:
        self.sent.append(("caption", body))


class DraftSlot:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def markdown(self, body: str) -> None:
        self.sent.append(body)

    def empty(self) -> None:
        self.sent.append("")


def labels(box: StatusBox) -> list[str]:
    return [readable(body) for kind, body in box.sent if kind == "label"]


OUTCOME = ToolOutcome("generate_chip_heatmap", {"chip_id": "64Qv3"}, True, "{}", "t1 on 64Qv3: 64 qubits")


def test_one_batch_changes_the_label_once_and_keeps_every_tool_line() -> None:
    box, draft = StatusBox(), DraftSlot()
    progress = StatusProgress(box)
    show_events([TurnEvent("phase", ("checking the model",)), TurnEvent("phase", ("building context",)),
                 TurnEvent("phase", ("thinking",)),
                 TurnEvent("tool_call", ("generate_chip_heatmap", {"chip_id": "64Qv3", "metric_name": "t1"})),
                 TurnEvent("tool_result", (OUTCOME,)), TurnEvent("phase", ("running tools",))], progress, draft)
    assert labels(box) == ["Running tools…"]
    lines = [(kind, readable(body)) for kind, body in box.sent if kind != "label"]
    assert lines == [("markdown", "1. generate_chip_heatmap"),
                     ("text", '{"chip_id": "64Qv3", "metric_name": "t1"}'),
                     ("text", "✓ t1 on 64Qv3: 64 qubits")]
    assert draft.sent == []

    show_events([TurnEvent("phase", ("running tools",))], progress, draft)  # the label shown already
    assert labels(box) == ["Running tools…"]
    show_events([TurnEvent("phase", ("thinking",)), TurnEvent("notice", ("Retrying the model",))], progress, draft)
    assert [(kind, readable(body)) for kind, body in box.sent[-2:]] == [("caption", "Retrying the model"),
                                                                         ("label", "Thinking…")]


def test_only_the_newest_draft_of_a_batch_is_drawn() -> None:
    box, draft = StatusBox(), DraftSlot()
    show_events([TurnEvent("draft", ("Median",)), TurnEvent("draft", ("Median T1 is",)),
                 TurnEvent("draft", ("Median T1 is 41.5 μs",))], StatusProgress(box), draft)
    assert [readable(d) for d in draft.sent] == ["Median T1 is 41.5 μs"]
    assert box.sent == []
