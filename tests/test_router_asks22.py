"""The dev questions of ``tests/dev_asks22.py`` against the parse, the router and the tools: a share over a run of
qubits written "between", a limit named as a value ("the bar at 40 μs ... clear it"), a failure ranking asked by an
idiom, an ask inside a to-do list; and the notes a turn shows when a call reads fewer qubits than the run asked, or
takes a side for a number no word of the question puts on one.  Expected figures are the dev file's pymongo reads."""

from __future__ import annotations

import pytest

from copilot_core.data.repository import CalibrationRepository
from copilot_core.language.chores import without_chores
from copilot_core.language.question import parse
from copilot_core.routing.limits import unapplied_set_note, unread_side_note
from copilot_core.tools import DataStore, Toolkit
from tests import dev_asks22
from tests.test_router_frames20 import _held
from tests.test_router_windows16 import _routed
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)


def _every(db) -> list[tuple[str, str, tuple[str, dict]]]:
    return [(q.id, q.text, call) for q, call, _ in dev_asks22.planned(db)] + list(dev_asks22.CHORES)


def test_there_are_enough_dev_questions_over_both_chips(demo_db):
    asked = _every(demo_db)
    assert len(asked) >= 18
    assert set(CHIPS) <= {args.get("chip_id") for _, _, (_, args) in asked}


def test_the_router_makes_the_call_each_dev_question_needs(demo_db):
    wrong = [(i, text, routed, call) for i, text, call in _every(demo_db) if (routed := _routed(text)) != call]
    assert not wrong, wrong


def _figures(full: dict, want: dict) -> dict:
    """A filter's count past its limit and the qubits with a value; a ranking's top count and total."""
    if "top" in want:
        return _held(full, want)
    return {"count": next(full[k] for k in ("count_above", "count_below", "count_between") if k in full),
            "with_data": full["with_data"]}


def test_each_call_holds_the_pymongo_figures(demo_db):
    toolkit = Toolkit(CalibrationRepository(demo_db), store=DataStore())
    wrong = []
    for q, (name, args), want in dev_asks22.planned(demo_db):
        out = toolkit.execute(name, args)
        if not out.ok or (got := _figures(out.full, want)) != want:
            wrong.append((q.id, out.ok and got, want, out.error))
    assert not wrong, wrong


@pytest.mark.parametrize("text, low, high", [
    ("Between Q3 and Q9, how many qubits have T1 above 40 us?", 3, 9),
    ("what's the median T1 between Q10 and Q20?", 10, 20),
    ("between qubits 0 and 15, what fraction have T2 echo below 30 us", 0, 15),
])
def test_between_two_qubits_before_a_figure_of_many_is_a_run(text, low, high):
    asked = parse(text, CHIPS)
    assert asked.span == tuple(str(q) for q in range(low, high + 1)) and not asked.qubits


@pytest.mark.parametrize("text", ["Between Q3 and Q9, which has the higher T1?", "T1 difference between Q3 and Q9",
                                  "compare T1 between Q10 and Q20", "between Q4 and Q5, how many failures?"])
def test_between_two_qubits_compared_stays_two_qubits(text):
    asked = parse(text, CHIPS)
    assert not asked.span and len(asked.qubits) == 2


@pytest.mark.parametrize("text, side, value", [
    ("With the bar at 40 us for T1, how many qubits clear it?", "above", 40.0),
    ("T1 limit 50 us, how many pass?", "above", 50.0),
    ("a cutoff of 93% readout fidelity: which qubits are below that?", "below", 93.0),
    ("take 5 GHz as the ceiling for qubit frequency: which qubits exceed it?", "above", 5.0),
    ("Is Q5 above the 40 us line for T1?", "above", 40.0),
    ("our target for T2 echo is 35 us. Which qubits miss the target?", "below", 35.0),
])
def test_a_named_limit_takes_the_side_of_the_word_that_compares_to_it(text, side, value):
    asked = parse(text, CHIPS)
    assert asked.threshold is not None and (asked.threshold.side, asked.threshold.value) == (side, value)


@pytest.mark.parametrize("text", [
    "With the bar at 40 us for T1, how many qubits have T2 echo?",  # no word compares to the bar
    "bar 40 us and cutoff 30 us for T1: how many clear it?",  # which one "it" is cannot be told
    "Which qubits have T1 above the threshold?",  # no value named
])
def test_a_named_value_nothing_compares_to_is_no_limit(text):
    assert parse(text, CHIPS).threshold is None


@pytest.mark.parametrize("text, read", [
    ("To do today:\n- restart the AWG\n- which qubit has the lowest T1?\n- order helium",
     "which qubit has the lowest T1?"),
    ("TODO today: which qubit has the lowest T1?", "which qubit has the lowest T1?"),
    ("Chores:\n1. refill the dewar\n2. how many qubits have T1 above 40 us?", "how many qubits have T1 above 40 us?"),
    ("For 144Qv2:\n- restart the AWG\n- what's the median T1?", "For 144Qv2:\nwhat's the median T1?"),
])
def test_chores_around_the_ask_are_left_out(text, read):
    assert without_chores(text) == read


@pytest.mark.parametrize("text", [
    "Which of these have T1 above 40 us?\n- Q1\n- Q2\n- Q3",  # the items are the subjects
    "- which qubit has the lowest T1?\n- and which has the highest?",  # two asks: nothing to choose
    "which qubits failed today?",
])
def test_items_that_name_data_or_several_asks_are_kept(text):
    assert without_chores(text) == text


def test_a_chore_s_today_is_no_window_but_the_ask_s_is():
    assert parse("To do today:\n- order helium\n- which qubit has the lowest T1?", CHIPS).window is None
    assert parse("- order helium\n- which qubits failed today?", CHIPS).window is not None


def test_a_run_read_as_its_two_ends_carries_a_note(demo_db):
    toolkit = Toolkit(CalibrationRepository(demo_db), store=DataStore())
    asked = parse("Q32 to Q63 only: T1 > 40 us for what %?", CHIPS)
    ends = toolkit.execute("compare_qubits", {"chip_id": CHIP, "qids": ["32", "63"], "param_names": ["t1"]})
    note = unapplied_set_note(asked, [ends])
    assert note is not None and "Q32 to Q63" in note and "read only the qubits it names" in note
    held = toolkit.execute("filter_metric", {"chip_id": CHIP, "metric_name": "t1", "above": 40.0,
                                             "qubits": list(range(32, 64))})
    assert unapplied_set_note(asked, [ends, held]) is None


def test_a_side_no_word_gives_is_said_to_be_the_model_s(demo_db):
    toolkit = Toolkit(CalibrationRepository(demo_db), store=DataStore())
    asked = parse("T1 and 40 us on 64Qv3: what fraction of qubits?", CHIPS)
    assert asked.threshold is None
    out = toolkit.execute("filter_metric", {"chip_id": CHIP, "metric_name": "t1", "below": 40.0})
    note = unread_side_note(asked, [out])
    assert note is not None and "t1 below 40" in note and "not checked" in note
    written = parse("how many qubits on 64Qv3 have T1 below 40 us?", CHIPS)
    assert unread_side_note(written, [out]) is None
    other = toolkit.execute("filter_metric", {"chip_id": CHIP, "metric_name": "t1", "below": 35.0})
    assert unread_side_note(asked, [other]) is None  # 35 is no number of the question


# (wording, the call it needs): Japanese or Spanish lab words, alone or mixed with English, and slips of the words
# that say what is asked.
FOREIGN: tuple[tuple[str, tuple[str, dict]], ...] = (
    ("144Qv2のT1の中央値は？", ("get_chip_summary", {"chip_id": OTHER, "param_names": ["t1"]})),
    ("64Qv3でT2 echoが30us未満の量子ビットは何個？",
     ("filter_metric", {"chip_id": CHIP, "metric_name": "t2_echo", "below": 30.0, "including": ["below"]})),
    ("144Qv2で最も失敗したタスクは？", ("failure_ranking", {"chip_id": OTHER, "by": "task"})),
    ("64Qv3のT1とT2 echoの相関は？", ("correlate_metrics", {"chip_id": CHIP, "metric_a": "t1", "metric_b": "t2_echo",
                                                       "method": "pearson"})),
    ("64Qv3でreadout fidelityの上位4つの量子ビットは？",
     ("rank_metric", {"chip_id": CHIP, "metric_name": "average_readout_fidelity", "order": "highest", "n": 4})),
    ("６４Ｑｖ３のT1の標準偏差は？", ("metric_spread", {"chip_id": CHIP, "metric_name": "t1", "lead": "std"})),
    ("¿Cuántas tareas fallaron en 144Qv2 en los últimos 5 días?",
     ("count_in_window", {"chip_id": OTHER, "days": 5, "what": "failed tasks"})),
    ("porcentaje de qubits con T1 por encima de 45 us en 64Qv3",
     ("filter_metric", {"chip_id": CHIP, "metric_name": "t1", "above": 45.0})),
    ("¿cuál es la mediana de T2 echo en 64Qv3?", ("get_chip_summary", {"chip_id": CHIP, "param_names": ["t2_echo"]})),
    ("welche Zwei-Qubit Aufgabe ist auf 64Qv3 am häufigsten fehlgeschlagen?",
     ("failure_ranking", {"chip_id": CHIP, "by": "task", "family": "coupling"})),
    ("¿qué tarea de dos cúbits falló más en 144Qv2?",
     ("failure_ranking", {"chip_id": OTHER, "by": "task", "family": "coupling"})),
    ("quelle tâche a échoué le plus souvent sur 64Qv3 ?", ("failure_ranking", {"chip_id": CHIP, "by": "task"})),
    ("Wie viele Qubits auf 144Qv2 haben T1 über 35 us?",
     ("filter_metric", {"chip_id": OTHER, "metric_name": "t1", "above": 35.0})),
    ("wich 4 qubits on 144Qv2 have the higest T1", ("rank_metric", {"chip_id": OTHER, "metric_name": "t1",
                                                                     "order": "highest", "n": 4})),
    ("Whcih task failes the most on 64Qv3?", ("failure_ranking", {"chip_id": CHIP, "by": "task"})),
    ("lowset T2 echo on 144Qv2?", ("rank_metric", {"chip_id": OTHER, "metric_name": "t2_echo", "order": "lowest",
                                                   "n": 1})),
    ("Best 3 T1s on 64Qv3, please", ("rank_metric", {"chip_id": CHIP, "metric_name": "t1", "order": "highest",
                                                     "n": 3})),
    ("which task has the poorest track record on 144Qv2 over the past ten days?",
     ("failure_ranking", {"chip_id": OTHER, "by": "task", "days": 10})),
)


@pytest.mark.parametrize("text, call", FOREIGN)
def test_foreign_words_and_slips_make_the_call_the_question_needs(text, call):
    assert _routed(text) == call


@pytest.mark.parametrize("text", [
    "What media does the lab use for T1 on 64Qv3?",  # English "media", "de" nowhere: no Spanish read
    "which qubits on 64Qv3 have T1 that falls below 20 us?",  # "falls" is no slip of "fails"
    "with the filed report, what is the T1 of Q5?",
])
def test_english_words_near_foreign_or_slipped_ones_stay_as_written(text):
    from copilot_core.language.foreign import in_english
    from copilot_core.language.misspelled import respelled
    assert in_english(text) == text and respelled(text)[0] == text


@pytest.mark.parametrize("written", ["Q32–Q63", "qubits #32-#63", "q32 → q63", "Q32~Q63", "Q32...Q63",
                                     "qubits numbered 32 through 63", "between Q32 and Q63"])
def test_a_run_written_any_way_is_the_run(written):
    asked = parse(f"{written} on 64Qv3: what percent have T1 above 40 us?", CHIPS)
    assert asked.span == tuple(str(q) for q in range(32, 64)) and not asked.qubits


@pytest.mark.parametrize("text, pair", [("Q3→Q4 ZX90 gate fidelity on 64Qv3?", "3-4"),
                                        ("CR Q3 → Q9 on 64Qv3 fidelity?", "3-9")])
def test_an_arrow_between_a_coupling_s_ends_stays_a_coupling(text, pair):
    asked = parse(text, CHIPS)
    assert not asked.span and pair in asked.couplings
