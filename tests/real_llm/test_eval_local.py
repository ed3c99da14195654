"""The eval's small-model subset (``make eval-local``) against the local real model, with a score floor.

The ten questions (``LOCAL_SUBSET``) each need one or two tools of the readiness check's reduced set; the
turn runs gated as the app runs it for a small model.  The table printed per question (score, rounds, prompt
tokens, seconds, numbers not found in any tool result) is the figure to compare across changes; the assert
is the floor, so a regression in prompts, tools or the loop fails here.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from copilot_core.agent import provider_from_settings
from copilot_core.evals import format_table, load_questions, make_runner, resolve_all, run_eval
from copilot_core.evals.facts import EvalContext
from copilot_core.evals.harness import LOCAL_SUBSET, Outcome, summary
from copilot_core.readiness import readiness_for
from copilot_core.settings import load_settings

pytestmark = [pytest.mark.real_llm, pytest.mark.timeout(3600)]
# The score reached on LOCAL_SUBSET minus one, so a single unlucky sample does not fail the tier. Measured on
# the project's 2-core machine with the tool router on and its prefetch (the default for this small model): 10/10
# (every quoted number found in a tool result, 2,229 s, 60,299 prompt tokens, heavy load) and, after the slimmer tool
# schemas, 9/10 (heatmap-t1 left out the median; 792 s, 57,126 prompt tokens, load 3-4); with the model answering
# in the prefetched round, 9/10 (health-summary left out two medians; every question one round, 369 s, 21,761 prompt
# tokens, load 2; the model wrote a call to an invented tool, shown as the answer); with call-shaped replies never
# shown (the tools' answer sentences instead), 10/10 (313 s, the same 21,761 prompt tokens, load 1). With the router
# off it was 5/10 (1,250 s, 141,949 prompt tokens). With the prompt's shared part first and every tool offered in the
# prefetched round, 10/10 (34,434 prompt tokens of which 22,114 came from the server's prompt cache; 1,799 s at load
# 13-30, where prompt evaluation ran at 8-17 tokens/s).
SCORE_FLOOR = 9


def test_local_subset_reaches_the_floor(local_llm, repo, tmp_path, capsys):
    settings = load_settings(env={**local_llm["env"], "DATA_DIR": str(tmp_path), "COPILOT_MEMORY": "off"},
                             secrets_path=Path("/nonexistent/secrets.toml"))
    provider = provider_from_settings(settings)
    started = time.perf_counter()
    ready = readiness_for(provider)
    probe_s = time.perf_counter() - started
    specs = [s for s in load_questions() if s["id"] in LOCAL_SUBSET]

    def progress(outcome: Outcome) -> None:  # a long run shows each question as it ends
        with capsys.disabled():
            print(f"\n{format_table([outcome]).splitlines()[2]}  (load {os.getloadavg()[0]:.1f})", flush=True)

    outcomes = run_eval(resolve_all(specs, EvalContext(repo)),
                        make_runner(repo=repo, provider=provider, settings=settings, gate=True), on_result=progress)
    with capsys.disabled():
        print(f"\nlocal-model eval subset (readiness {ready.level}, probe {probe_s:.1f} s, load average "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}):\n" + format_table(outcomes))
    assert [o.qid for o in outcomes] == [s["id"] for s in specs] and len(outcomes) == len(LOCAL_SUBSET)
    assert all(o.skipped is None for o in outcomes)
    passed = summary(outcomes)["passed"]
    assert passed >= SCORE_FLOOR, f"{passed}/{len(outcomes)} passed, below the floor of {SCORE_FLOOR}"
