"""Framework-neutral chat: state per session, show-work records, CSV export, re-runs (a turn itself is
``copilot_core.session.Copilot.ask``)."""

from copilot_core.chat.export import CsvExport, csv_exports
from copilot_core.chat.messages import ChatMessage
from copilot_core.chat.rerun import RerunResult, rerun_analysis
from copilot_core.chat.showwork import ShowWork, show_work_from
from copilot_core.chat.state import ChatState, analysis_request

__all__ = ["ChatMessage", "ChatState", "CsvExport", "RerunResult", "ShowWork", "analysis_request", "csv_exports",
           "rerun_analysis", "show_work_from"]
