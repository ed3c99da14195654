"""The eval harness against the local real model: the score is printed, not asserted.

Two questions keep the tier's wall time bounded on two CPU cores (a full 29-question run is
``make eval`` with the local model configured). What is asserted is that the harness itself ran
each question to an outcome against a real model.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from copilot_core.agent import provider_from_settings
from copilot_core.evals import format_table, load_questions, make_runner, resolve_all, run_eval
from copilot_core.evals.facts import EvalContext
from copilot_core.settings import load_settings

pytestmark = [pytest.mark.real_llm, pytest.mark.timeout(1500)]
SUBSET = ("lookup-t1", "out-of-scope")


def test_eval_subset_score_is_printed(local_llm, repo, tmp_path, capsys):
    settings = load_settings(env={**local_llm["env"], "DATA_DIR": str(tmp_path)},
                             secrets_path=Path("/nonexistent/secrets.toml"))
    provider = provider_from_settings(settings)
    specs = [s for s in load_questions() if s["id"] in SUBSET]
    outcomes = run_eval(resolve_all(specs, EvalContext(repo)),
                        make_runner(repo=repo, provider=provider, settings=settings))
    with capsys.disabled():
        print("\nlocal-model eval subset:\n" + format_table(outcomes))
    assert [o.qid for o in outcomes] == list(SUBSET)
    assert all(o.skipped is None for o in outcomes)
