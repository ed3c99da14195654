"""Dev questions a model tends to answer with a question back (``ask_user``) though the chip is in view and the data
answers them: window counts, compound filters, the task or qubit that fails most, two qubits side by side, shares.

Wordings written for this file (two or more per shape); truths are pymongo reads of the raw demo documents through
the helpers of ``tests/dev_shapes_a.py`` / ``tests/dev_shapes_b.py`` (``task_result_history``, ``execution_history``),
never a call of the code under test.
"""

from __future__ import annotations

from collections import Counter

from tests.dev_shapes_a import _compound, _failure_share, _share
from tests.dev_shapes_b import _failed_since, _label, _runs_since
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values, size, tol


def _window_count(db) -> list[Question]:
    return [
        Question("ask-window-1", "window count", "Count the task results that ended in failure during the previous 6 days.",
                 Truth(((len(_failed_since(db, CHIP, 6)), 0),))),
        Question("ask-window-2", "window count", "How many executions ran on the chip across the previous 3 days?",
                 Truth(((_runs_since(db, CHIP, 3), 0),))),
        Question("ask-window-3", "window count", f"What's the count of failures on {OTHER} in the previous 8 days?",
                 Truth(((len(_failed_since(db, OTHER, 8)), 0),))),
    ]


def _compound_filter(db) -> list[Question]:
    return [
        _compound(db, "ask-cf-1", "Count qubits whose T1 exceeds 60 μs while T2 echo exceeds 50 μs.",
                  [("t1", "above", 60.0), ("t2_echo", "above", 50.0)], "and"),
        _compound(db, "ask-cf-2", "How many qubits show either readout fidelity under 96% or T1 below 45 μs?",
                  [("t1", "below", 45.0), ("average_readout_fidelity", "below", 96.0)], "or"),
    ]


def _fails_most(db) -> list[Question]:
    out = []
    for i, (chip, days, by, text) in enumerate([
            (CHIP, None, "name", "What task fails more often than any other?"),
            (CHIP, None, "qid", f"Name the qubit with the most failures on {CHIP}."),
            (CHIP, 5, "name", "Over the last 5 days, which task failed the most times?")]):
        failed = _failed_since(db, chip, days)
        top, n = Counter(d[by] for d in failed).most_common(1)[0]
        name = _label(top, size(db, chip)) if by == "qid" else top
        out.append(Question(f"ask-fails-{i + 1}", "fails most", text, Truth(((n, 0),), patterns=(name,))))
    return out


def _qubit_pair(db) -> list[Question]:
    out = []
    for i, (name, a, b, text) in enumerate([
            ("t1", "12", "25", "Between Q12 and Q25, which has higher T1?"),
            ("t2_echo", "4", "33", "Is Q04's T2 echo better than Q33's?"),
            ("average_readout_fidelity", "10", "44", "Q10 or Q44, whose readout fidelity is stronger?")]):
        values = latest_values(db, CHIP, name)
        va, vb = values[a], values[b]
        assert va is not None and vb is not None and va != vb, (name, a, b)
        win, lose = (a, b) if va > vb else (b, a)
        out.append(Question(f"ask-pair-{i + 1}", "qubit pair", text,
                            Truth(((va, tol(name)), (vb, tol(name))), winner=_label(win, 0),
                                  loser=_label(lose, 0))))
    return out


def _percentage(db) -> list[Question]:
    return [
        _share(db, "ask-pc-1", "What percentage of qubits have T1 over 80 μs?", "t1", "above", 80.0),
        _share(db, "ask-pc-2", "What fraction of qubits show readout fidelity under 95%?", "average_readout_fidelity",
               "below", 95.0),
        _failure_share(db, "ask-pc-3", "Tell me what percent of task results failed over the last 12 days.", CHIP,
                       days=12),
    ]


def build(db) -> list[Question]:
    """The dev questions of the five shapes, with their truths."""
    return _window_count(db) + _compound_filter(db) + _fails_most(db) + _qubit_pair(db) + _percentage(db)
