"""The daily chip report: one self-contained HTML page (figures and plotly.js inline, no network)."""

from copilot_core.report.builder import (
    ChipReport,
    ReportError,
    build_report,
    chip_report,
)

__all__ = ["ChipReport", "ReportError", "build_report", "chip_report"]
