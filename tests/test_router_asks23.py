"""Questions of the twenty-third stop's classes, in wordings of my own, against the parse, the router, the tools and
the page's path: a count typed onto the word that takes it ("top5", "bottom4", "last3"); a slip in "difference"; a
failure ranking asked with "outnumber"; a window of "N newest days"; Spanish "media" (the mean, never the median),
"mayor que" / "menor que", "más veces", task kinds written after "tareas de"; French and German comparisons;
Japanese "回数" (how many times), "範囲" (range) and the unit an answer is asked in ("MHz で").  Each call is
written by hand; figures are pymongo reads of the raw demo documents."""

from __future__ import annotations

import statistics

import pytest

from copilot_core.data.repository import CalibrationRepository
from copilot_core.language.misspelled import respelled
from copilot_core.language.question import parse
from copilot_core.routing.limits import unread_value_note
from copilot_core.tools import DataStore, Toolkit
from tests.public_eval import CHIP, OTHER, latest_values
from tests.test_router_windows16 import _routed

CHIPS = (CHIP, OTHER)
R = "rank_metric"

CALLS = [
    ("top5 T1 on 144Qv2", (R, {"chip_id": OTHER, "metric_name": "t1", "order": "highest", "n": 5})),
    ("bottom4 readout fidelity 64Qv3",
     (R, {"chip_id": CHIP, "metric_name": "average_readout_fidelity", "order": "lowest", "n": 4})),
    ("give me the best2 couplings by ZX90 fidelity on 144Qv2",
     (R, {"chip_id": OTHER, "metric_name": "zx90_gate_fidelity", "order": "highest", "n": 2})),
    ("last3 runs on 64Qv3: how many tasks failed",
     ("count_in_window", {"chip_id": CHIP, "last_runs": 3, "what": "failed tasks"})),
    ("on 144Qv2 what is teh differnce btween the longest and the shortest T2 echo",
     ("metric_spread", {"chip_id": OTHER, "metric_name": "t2_echo", "lead": "range"})),
    ("which task's failures outnumber all the others on 144Qv2 in the past week?",
     ("failure_ranking", {"chip_id": OTHER, "by": "task", "days": 7})),
    ("on 64Qv3 over its twelve newest days which task failed more than any other?",
     ("failure_ranking", {"chip_id": CHIP, "by": "task", "days": 12})),
    ("En 64Qv3, ¿cuál es la media del T1 de los qubits?", ("get_chip_summary", {"chip_id": CHIP, "param_names": ["t1"]})),
    ("¿Qué qubits de 144Qv2 tienen T1 mayor que 50 us y T2 echo menor que 80 us?",
     ("filter_metrics", {"chip_id": OTHER, "join": "and", "conditions": [{"metric_name": "t1", "above": 50.0},
                                                                         {"metric_name": "t2_echo", "below": 80.0}]})),
    ("En 64Qv3, de las tareas de acoplamiento de los últimos 7 días, ¿cuál falló más veces?",
     ("failure_ranking", {"chip_id": CHIP, "by": "task", "days": 7, "family": "coupling"})),
    ("Comparando 144Qv2 y 64Qv3, ¿qué chip tiene la media de T1 más alta?",
     ("compare_chips", {"metric_name": "t1", "statistic": "mean", "chip_ids": [OTHER, CHIP]})),
    ("Entre 64Qv3 y 144Qv2, ¿cuál tiene la T2 echo media mayor?",
     ("compare_chips", {"metric_name": "t2_echo", "statistic": "mean", "chip_ids": [CHIP, OTHER]})),
    ("Sur 64Qv3, quelles tâches de couplage ont échoué le plus souvent ces 5 derniers jours ?",
     ("failure_ranking", {"chip_id": CHIP, "by": "task", "days": 5, "family": "coupling"})),
    ("Welche qubits auf 144Qv2 haben T1 größer als 60 us?",
     ("filter_metric", {"chip_id": OTHER, "metric_name": "t1", "above": 60.0})),
    ("144Qv2 の T1 の標準偏差を ns で", ("metric_spread", {"chip_id": OTHER, "metric_name": "t1", "lead": "std",
                                                   "unit": "ns"})),
    ("64Qv3 の qubit frequency の範囲を MHz で",
     ("metric_spread", {"chip_id": CHIP, "metric_name": "qubit_frequency", "lead": "range", "unit": "MHz"})),
    ("64Qv3 で過去 5 日間に CheckRamsey が失敗した回数を教えて",
     ("count_in_window", {"chip_id": CHIP, "days": 5, "task_name": "CheckRamsey", "what": "failed tasks"})),
]


@pytest.mark.parametrize("text, call", CALLS, ids=[c[0][:40] for c in CALLS])
def test_the_router_makes_the_call_each_question_needs(text, call):
    assert _routed(text) == call


@pytest.mark.parametrize("text, read", [
    ("top5 T1 on 144Qv2", ("top5", "top 5")),
    ("T1 of the newest10 runs", ("newest10", "newest 10")),
    ("what is the diffrence between Q3 and Q4", ("diffrence", "difference")),
])
def test_a_glued_count_or_a_slip_is_read_and_said(text, read):
    assert read in respelled(text)[1]


@pytest.mark.parametrize("text", ["T1 of Q5 on 64Qv3", "the top 3 T1 on 64Qv3", "is top10x a task", "T2 echo of Q12",
                                  "the media team wants the top 3 T1 on 64Qv3", "a different chip"])
def test_ids_metric_names_and_plain_words_are_not_read_again(text):
    assert respelled(text)[1] == ()


def test_media_in_an_english_question_stays_a_word():
    assert parse("the media team wants the top 3 T1 on 64Qv3", CHIPS).n == 3
    assert _routed("the media team wants the top 3 T1 on 64Qv3") == \
        (R, {"chip_id": CHIP, "metric_name": "t1", "order": "highest", "n": 3})


@pytest.fixture(scope="module")
def toolkit(demo_db):
    return Toolkit(CalibrationRepository(demo_db), store=DataStore())


def _held(db, chip: str, metric: str) -> dict[str, float]:
    return {q: v for q, v in latest_values(db, chip, metric).items() if v is not None}


def test_a_glued_top_n_lists_the_pymongo_top_five(demo_db, toolkit):
    out = toolkit.execute(*_routed("top5 T1 on 144Qv2"))
    want = sorted(_held(demo_db, OTHER, "t1").items(), key=lambda kv: -kv[1])[:5]
    assert [(r["qid"], round(r["value"], 3)) for r in out.full["highest"]] == [(q, round(v, 3)) for q, v in want]


def test_a_spread_asked_in_ns_in_japanese_is_the_pymongo_deviation_in_ns(demo_db, toolkit):
    out = toolkit.execute(*_routed("144Qv2 の T1 の標準偏差を ns で"))
    assert out.full["std"] == pytest.approx(statistics.stdev(_held(demo_db, OTHER, "t1").values()) * 1000, rel=1e-9)


def test_a_spanish_mean_compares_the_pymongo_means(demo_db, toolkit):
    out = toolkit.execute(*_routed("Entre 64Qv3 y 144Qv2, ¿cuál tiene la T2 echo media mayor?"))
    means = {c: statistics.fmean(_held(demo_db, c, "t2_echo").values()) for c in CHIPS}
    assert {c["chip_id"]: c["mean"] for c in out.full["chips"]} == pytest.approx(means)
    assert out.full["ranking"]["names"][0] == max(means, key=lambda c: means[c])


def test_a_spanish_compound_filter_counts_both_limits(demo_db, toolkit):
    out = toolkit.execute(*_routed("¿Qué qubits de 144Qv2 tienen T1 mayor que 50 us y T2 echo menor que 80 us?"))
    t1, echo = _held(demo_db, OTHER, "t1"), _held(demo_db, OTHER, "t2_echo")
    assert out.full["count_matching"] == sum(1 for q in t1.keys() & echo.keys() if t1[q] > 50 and echo[q] < 80)



UNREAD = "which qubits on 144Qv2 have T1 above 50 us; readout fidelity: 92 %?"


@pytest.mark.parametrize("text, calls, noted", [
    (UNREAD, [("filter_metric", {"chip_id": OTHER, "metric_name": "t1", "above": 50})], "92 %"),
    ("which qubits on 144Qv2 have T1 above 50 us whose readout fidelity sits near 92 %",
     [("filter_metric", {"chip_id": OTHER, "metric_name": "t1", "above": 50})], "92 %"),
    (UNREAD, [("filter_metrics", {"chip_id": OTHER, "join": "and", "conditions": [
        {"metric_name": "t1", "above": 50}, {"metric_name": "average_readout_fidelity", "above": 92}]})], None),
    ("is more than 50% of 64Qv3 above 40 us T1?",
     [("filter_metric", {"chip_id": CHIP, "metric_name": "t1", "above": 40})], None),
    ("our 3 GHz line was noisy: which qubits on 64Qv3 have T1 above 40 us?",
     [("filter_metric", {"chip_id": CHIP, "metric_name": "t1", "above": 40})], None),
    ("which qubits on 64Qv3 have T1 above 40 us?", [("filter_metric", {"chip_id": CHIP, "metric_name": "t1",
                                                                        "above": 40})], None),
    ("Which qubits on 64Qv3 have a readout error below 4% and T1 above 40 us?",
     [("filter_metrics", {"chip_id": CHIP, "join": "and", "conditions": [
         {"metric_name": "average_readout_fidelity", "above": 96}, {"metric_name": "t1", "above": 40}]})], None),
    (UNREAD, [("rank_metric", {"chip_id": OTHER, "metric_name": "t1", "order": "highest", "n": 5})], None),
])
def test_a_value_no_filter_applied_is_said(toolkit, text, calls, noted):
    note = unread_value_note(parse(text, CHIPS), [toolkit.execute(name, args) for name, args in calls])
    assert (note is None) if noted is None else (note is not None and noted in note), note
