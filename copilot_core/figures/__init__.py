"""The lab's own calibration figures (QDash's ``figure_path`` PNGs and ``json_figure_path`` Plotly JSON), read
from the local ``calib_data`` directory only.

    figure_root(settings) -> FigureRoot     where the files are and the prefix QDash stored
    FigureRoot.resolve(stored) -> Path      a stored path mapped under the root, or FigureRefused/FigureMissing
    task_figure(root, task_row, size) -> TaskFigure   the figure of one task result, ready for a page
    most_relevant(latest, flagged) -> int   the task figure to open first (failed, flagged, else newest)
"""

from copilot_core.figures.load import TaskFigure, failed_note, latest_per_task, most_relevant, newest_failed, task_figure
from copilot_core.figures.paths import FigureMissing, FigureRefused, FigureRoot, available_root, figure_root

__all__ = ["FigureMissing", "available_root", "FigureRefused", "FigureRoot", "TaskFigure", "figure_root", "latest_per_task",
           "most_relevant", "task_figure", "newest_failed", "failed_note"]
