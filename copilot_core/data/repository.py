"""Read-only access to QDash's calibration collections: the only reads the app makes.

Pages and copilot tools call these methods instead of speaking pymongo, so every query
honours the project scope, validates its arguments (no operator injection) and keeps to the
pymongo subset that works on both real MongoDB and the embedded litemongo engine
(``find`` + projection + explicit sort + limit; grouping is done here in Python, which is
faster on litemongo than ``aggregate``).
Return values are plain JSON-able dicts/lists (datetimes naive UTC), picklable for
``st.cache_data``.  Values are RAW as stored; convert with ``copilot_core.domain.metrics``.
"""

from copilot_core.data.chip_reads import ChipReads
from copilot_core.data.lineage_reads import LineageReads
from copilot_core.data.metric_reads import MetricReads
from copilot_core.data.task_reads import TaskReads
from copilot_core.data.window_counts import WindowCounts

__all__ = ["CalibrationRepository"]


class CalibrationRepository(ChipReads, TaskReads, MetricReads, LineageReads, WindowCounts):
    """Validated, project-scoped reads over a pymongo-API ``Database`` (MongoDB or litemongo): every kind of read
    the app makes, one class a kind (``ScopedReader`` holds the scope, the window and a turn's kept facts)."""
