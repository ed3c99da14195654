"""Every app error a person reads derives from CopilotError, so the pages' guard and the CLI catch one root."""

from __future__ import annotations

import pytest

from copilot_core.analysis.compare_points import CompareError
from copilot_core.data.importer import ImportFailed
from copilot_core.errors import CopilotError
from copilot_core.evals.facts import FactError
from copilot_core.report.builder import ReportError


@pytest.mark.parametrize("error", [CompareError, ReportError, ImportFailed, FactError])
def test_app_errors_share_the_root(error):
    with pytest.raises(CopilotError, match="shown as is"):
        raise error("shown as is")


def test_the_one_translation_names_what_failed_and_hides_bugs():
    from copilot_core.data.connection import DatabaseUnavailable
    from copilot_core.errors import user_message
    from copilot_core.settings import ConfigError

    assert user_message(CompareError("pick two different runs")) == "pick two different runs"
    assert user_message(ConfigError("COPILOT_API_STYLE must be 'responses'")) == \
        "The configuration cannot be used: COPILOT_API_STYLE must be 'responses'"
    assert user_message(DatabaseUnavailable("cannot connect to MongoDB at h:1/qdash.")) == \
        "The calibration database cannot be reached: cannot connect to MongoDB at h:1/qdash."
    assert user_message(KeyError("secret internals"), "the heatmap") == \
        "Something went wrong while building the heatmap (KeyError). The details are in the server log."
