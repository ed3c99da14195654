"""The twenty-third stop's classes through the page's path (``Copilot.ask``, the real openai SDK against the scripted
server over HTTP), with a model that writes nothing: the answer computed from the data keeps what the question asked
in Japanese (the unit) and in Spanish (the mean, never the median).  Expected figures are pymongo reads."""

from __future__ import annotations

import statistics

from tests.agent.page_turn import SMALL, page_turn, shown
from tests.fakes.scripted_models import caller_then_quoter, silent
from tests.public_eval import CHIP, OTHER, latest_values


def _held(db, chip: str, metric: str) -> list[float]:
    return [v for v in latest_values(db, chip, metric).values() if v is not None]


def test_a_japanese_spread_is_shown_in_the_unit_asked(demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = silent
    said = shown(page_turn(repo, scripted_openai, tmp_path, "64Qv3 の qubit frequency の標準偏差を MHz で", SMALL))
    want = statistics.stdev(_held(demo_db, CHIP, "qubit_frequency")) * 1000
    assert f"{want:.1f} MHz" in said or f"{want:.0f} MHz" in said, said


def test_a_spanish_media_compares_the_means_and_names_the_higher_chip_first(demo_db, repo, scripted_openai,
                                                                           tmp_path):
    scripted_openai.smart = silent
    said = shown(page_turn(repo, scripted_openai, tmp_path,
                           "Entre 64Qv3 y 144Qv2, ¿cuál tiene la T2 echo media mayor? Dame las dos en us.", SMALL))
    means = {c: statistics.fmean(_held(demo_db, c, "t2_echo")) for c in (CHIP, OTHER)}
    high, low = sorted(means, key=lambda c: -means[c])
    assert said.index(high) < said.index(low), said
    assert f"{means[high]:.1f} μs" in said and f"{means[low]:.1f} μs" in said, said
    assert "median" not in said.lower(), said


def test_a_condition_the_model_left_out_is_said_on_the_page(demo_db, repo, scripted_openai, tmp_path):
    """The model filters on T1 alone; the question also writes a readout fidelity value no word sides: the answer
    says that value was not applied."""
    scripted_openai.smart = caller_then_quoter("filter_metric", {"chip_id": OTHER, "metric_name": "t1", "above": 50})
    said = shown(page_turn(repo, scripted_openai, tmp_path,
                           "which qubits on 144Qv2 have T1 above 50 us; readout fidelity: 92 %?", SMALL,
                           {"COPILOT_TOOL_ROUTER": "off"}))
    assert "92 %" in said and "no filter here applies" in said, said
