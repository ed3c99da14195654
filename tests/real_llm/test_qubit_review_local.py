"""The qubit-analysis eval on the project's local model (Qwen2.5 1.5B): the review must name each qubit's
known condition (computed from the raw documents in tests/agent/analysis_eval.py), in one round, within the
click-to-review budget.  The facts and prompt were tuned on the ``dev`` half of the cases; the floor (5/6 of the
cases rounded up) is asserted on the ``held-out`` half, and the ``dev`` score is only printed.  A case counts as
named on the model's own lines that passed the check: the report's lines the check adds for problems the review
left out are shown to the user but do not score (the shown count is printed beside it)."""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

import pytest

from copilot_core.agent import provider_from_settings
from copilot_core.analysis.health import qubit_health
from copilot_core.chat import ChatState, analysis_request
from copilot_core.data.repository import CalibrationRepository
from copilot_core.session import Copilot
from copilot_core.settings import load_settings
from copilot_core.skills import SkillLibrary
from tests.agent import analysis_eval as ev

pytestmark = [pytest.mark.real_llm, pytest.mark.model_eval, pytest.mark.timeout(3600)]
REVIEW_BUDGET_S = 60.0


@pytest.fixture(scope="module")
def lab_db(demo_now):
    """The eval's lab copy (see ``analysis_eval.lab_database``)."""
    db = ev.lab_database("analysis-eval-lab-real", demo_now)
    yield db
    db.close()


class Clock:
    def __init__(self) -> None:
        self.report_at: float | None = None

    def phase(self, text: str) -> None: ...
    def notice(self, text: str) -> None: ...
    def tool_call(self, name: str, args: dict) -> None: ...
    def tool_result(self, outcome) -> None: ...

    def report(self, markdown: str) -> None:
        self.report_at = time.perf_counter()


@pytest.mark.parametrize("part", ["held-out", "dev"])
def test_local_model_reviews_name_the_condition(part, local_llm, repo, lab_db, tmp_path, capsys):
    # The review's own timeout is lifted here so the score measures what the model writes; the 60 s budget is
    # asserted on the measured times below.
    settings = load_settings(env={**local_llm["env"], "DATA_DIR": str(tmp_path), "COPILOT_MEMORY": "off",
                                  "COPILOT_REVIEW_TIMEOUT_S": "300", "COPILOT_TIMEOUT_S": "300"},
                             secrets_path=Path("/nonexistent/secrets.toml"))
    provider = provider_from_settings(settings)
    lab_repo = CalibrationRepository(lab_db)
    cases = ev.part(part)
    for case in cases:  # the Qubits page built this report before the click (and warmed the data layer)
        qubit_health(lab_repo if case.lab else repo, case.chip_id, case.qid)
    named, shown, review_s, report_s, rows = 0, 0, [], [], []
    by_set: dict[str, list[bool]] = {}
    for case in cases:
        assert ev.holds(lab_db if case.lab else repo.db, case), case
        copilot = Copilot((lab_repo if case.lab else repo), settings=settings, skills=SkillLibrary({}), gate=False)
        state = ChatState(username="eval", provider=provider, chip_id=case.chip_id, qid=case.qid, mode="analysis")
        clock = Clock()
        started = time.perf_counter()
        turn = copilot.ask(state, analysis_request(case.chip_id, case.qid), clock)
        review_s.append(time.perf_counter() - started)
        report_s.append((clock.report_at or started) - started)
        result = turn.result
        assert result is not None and result.review is not None and len(result.rounds) <= 1
        review = result.blocks[1].text
        own = result.review.text or ""
        ok = result.review.status in ("checked", "trimmed") and case.named(own)
        named += ok
        shown += case.named(review)
        fresh = "fresh" if case in ev.FRESH else "old"
        by_set.setdefault(fresh, []).append(ok)
        rows.append(f"{part} {fresh:<5} {case.chip_id} {case.label} {case.condition:<8} "
                    f"{'named' if ok else 'MISSED':<6} "
                    f"{result.review.status:<8} added {len(result.review.added)} report {report_s[-1]:.2f} s review "
                    f"{review_s[-1]:5.1f} s load {os.getloadavg()[0]:.1f} | {own.replace(chr(10), ' / ')[:160]}")
        with capsys.disabled():
            print("\n" + rows[-1], flush=True)
    with capsys.disabled():
        print(f"\n{part}: named {named}/{len(cases)} in the model's own words ("
              + ", ".join(f"{k} {sum(v)}/{len(v)}" for k, v in sorted(by_set.items(), reverse=True))
              + f"), {shown}/{len(cases)} as shown with the check's additions; "
              f"click-to-report median {statistics.median(report_s):.2f} s; "
              f"click-to-review median {statistics.median(review_s):.1f} s, max {max(review_s):.1f} s")
    if part == "held-out":
        assert named >= ev.floor(len(cases)), "\n".join(rows)
    assert statistics.median(report_s) < 1.0 and statistics.median(review_s) <= REVIEW_BUDGET_S
