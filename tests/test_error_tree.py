"""Every app error a person reads derives from CopilotError, so the pages' guard and the CLI catch one root."""

from __future__ import annotations

import pytest

from copilot_core.analysis.compare import CompareError
from copilot_core.data.importer import ImportFailed
from copilot_core.errors import CopilotError
from copilot_core.evals.facts import FactError
from copilot_core.report.builder import ReportError


@pytest.mark.parametrize("error", [CompareError, ReportError, ImportFailed, FactError])
def test_app_errors_share_the_root(error):
    with pytest.raises(CopilotError, match="shown as is"):
        raise error("shown as is")
