"""Framework-neutral chat: state per session, one turn at a time, show-work records, CSV export, re-runs."""

from copilot_core.chat.export import CsvExport, csv_exports
from copilot_core.chat.messages import ChatMessage
from copilot_core.chat.rerun import RerunResult, rerun_analysis
from copilot_core.chat.service import TurnResult, analysis_request, ask, build_toolkit
from copilot_core.chat.showwork import ShowWork, show_work_from
from copilot_core.chat.state import ChatState

__all__ = ["ChatMessage", "ChatState", "CsvExport", "RerunResult", "ShowWork", "TurnResult", "analysis_request",
           "ask", "build_toolkit", "csv_exports", "rerun_analysis", "show_work_from"]
