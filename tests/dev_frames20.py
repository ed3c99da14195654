"""Dev questions of the twentieth stop's classes, in wordings of my own, over both demo chips:

1. a window that ends on the newest run ("the N days up to its latest run", "through each chip's newest execution")
   is N days counted back, and the run words name no run to rank within;
2. a window's size ("over the 14 days", "3 calendar days up to ...") is neither a limit nor a ranking's N;
3. a count of a question's own (a sentence that opens with what it counts, after another sentence) is a count;
4. a range written as one end minus the other ("longest T1 minus shortest T1");
5. a unit asked by itself ("MHz please", "MHz, not GHz");
6. "lead on/in" as the ranking's best end;
7. a metric family's word that frames named metrics ("the coherence review", "two-qubit planning") asks nothing more;
8. a column header in snake case ("chip,median_t1_us") carries the statistic and the metric;
9. a name in quotes (a report's list, a tile's label) is talked about, not asked;
10. a window "just gone", "gone by", or N days "that close with" the chip's newest run; a range as what "separates"
    one end from the other; a word that only starts like a task ("checklist") names no task.

Each question carries the router call it needs, written by hand.  Truths are pymongo reads over the raw demo
documents (``tests.dev_windows16``: whole UTC days back from the chip's newest run's day, that day included;
``tests.dev_spread13``: the newest usable value per qubit, statistics by hand).  Rows whose id holds ``-att-`` were
written after the fix, to attack it.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from tests.dev_spread13 import chip_values, spread_of
from tests.dev_windows16 import Case, back, counted, coupling, per_chip, ranked, results, single
from tests.public_eval import CHIP, OTHER

Call = tuple[str, dict]


def _failure_cases(db) -> list[Case]:
    c, o = CHIP, OTHER
    return [
        ranked("f20-anchor-1", "64Qv3 over the 6 calendar days through its newest run: which calibration task racked "
               "up the most failures, and how many?", ("failure_ranking", {"chip_id": c, "by": "task", "days": 6}),
               results(db, c, back(db, c, 6), "failed"), "name"),
        ranked("f20-anchor-2", "Over the 10 calendar days up to its newest run on 64Qv3, which coupling calibration "
               "failed the most times?",
               ("failure_ranking", {"chip_id": c, "by": "task", "days": 10, "family": "coupling"}),
               coupling(results(db, c, back(db, c, 10), "failed")), "name"),
        ranked("f20-anchor-3", "144Qv2, 2 calendar days up to its latest run: which run id has the largest count of "
               "failed tasks, with the count?", ("failure_ranking", {"chip_id": o, "by": "run", "days": 2}),
               results(db, o, back(db, o, 2), "failed"), "execution_id"),
        counted("f20-anchor-4", "How many CheckRamsey tasks failed on 144Qv2 in the 6 days through its latest run?",
                ("count_in_window", {"chip_id": o, "days": 6, "task_name": "CheckRamsey", "what": "failed tasks"}),
                len(results(db, o, back(db, o, 6), "failed", name="CheckRamsey"))),
        per_chip("f20-anchor-5", "Across the 4 days up to each chip's latest run, did 64Qv3 or 144Qv2 record more "
                 "failed tasks? Both numbers please.",
                 ("count_in_window", {"chip_id": c, "what": "failed tasks", "chip_ids": [c, o], "days": 4}),
                 {c: len(results(db, c, back(db, c, 4), "failed")), o: len(results(db, o, back(db, o, 4), "failed"))}),
        per_chip("f20-anchor-6", "Between 64Qv3 and 144Qv2, which one logged more task failures in the last 5 days? "
                 "Both counts.",
                 ("count_in_window", {"chip_id": c, "what": "failed tasks", "chip_ids": [c, o], "days": 5}),
                 {c: len(results(db, c, back(db, c, 5), "failed")), o: len(results(db, o, back(db, o, 5), "failed"))}),
        counted("f20-terse-1", "what should the tile show? failed CheckT1 tasks on 64Qv3 in the 7 calendar days "
                "through its latest run",
                ("count_in_window", {"chip_id": c, "days": 7, "task_name": "CheckT1", "what": "failed tasks"}),
                len(results(db, c, back(db, c, 7), "failed", name="CheckT1"))),
        ranked("f20-close-1", "On 144Qv2, over the eight days that close with its most recent run, which qubit "
               "failed most often?", ("failure_ranking", {"chip_id": o, "by": "qubit", "days": 8}),
               single(results(db, o, back(db, o, 8), "failed")), "qid"),
        counted("f20-close-2", "64Qv3: the 6 days ending with 64Qv3's newest run - how many failed tasks?",
                ("count_in_window", {"chip_id": c, "days": 6, "what": "failed tasks"}),
                len(results(db, c, back(db, c, 6), "failed"))),
        ranked("f20-gone-1", "which task failed most on 144Qv2 in the five days just gone?",
               ("failure_ranking", {"chip_id": o, "by": "task", "days": 5}),
               results(db, o, back(db, o, 5), "failed"), "name"),
        counted("f20-gone-2", "failed CheckT1 results on 64Qv3 over the 3 days gone by?",
                ("count_in_window", {"chip_id": c, "days": 3, "task_name": "CheckT1", "what": "failed tasks"}),
                len(results(db, c, back(db, c, 3), "failed", name="CheckT1"))),
        counted("f20-checklist-1", "To-do for 64Qv3:\n- [ ] count the failed CheckRamsey tasks in the last 4 days\n"
                "- [ ] water the plants",
                ("count_in_window", {"chip_id": c, "days": 4, "task_name": "CheckRamsey", "what": "failed tasks"}),
                len(results(db, c, back(db, c, 4), "failed", name="CheckRamsey"))),
        ranked("f20-gone-3", "Which qubit failed most on 144Qv2 these 6 days just past?",
               ("failure_ranking", {"chip_id": o, "by": "qubit", "days": 6}),
               single(results(db, o, back(db, o, 6), "failed")), "qid"),
        ranked("f20-gone-4", "64Qv3 failures by task, 4 days gone by - which leads?",
               ("failure_ranking", {"chip_id": c, "by": "task", "days": 4}),
               results(db, c, back(db, c, 4), "failed"), "name"),
        counted("f20-checklist-2", "Checklist for 144Qv2:\n- [ ] count the failed CheckT1 tasks in the last 5 days",
                ("count_in_window", {"chip_id": o, "days": 5, "task_name": "CheckT1", "what": "failed tasks"}),
                len(results(db, o, back(db, o, 5), "failed", name="CheckT1"))),
        # written after the fix, to attack it
        counted("f20-att-close-3", "in the 4 days which end with the chip's latest execution, failed tasks on "
                "144Qv2?", ("count_in_window", {"chip_id": o, "days": 4, "what": "failed tasks"}),
                len(results(db, o, back(db, o, 4), "failed"))),
        counted("f20-att-checkpoint-2", "checkpoint review: how many CheckT1 tasks failed on 64Qv3 in the last 2 days?",
                ("count_in_window", {"chip_id": c, "days": 2, "task_name": "CheckT1", "what": "failed tasks"}),
                len(results(db, c, back(db, c, 2), "failed", name="CheckT1"))),
        ranked("f20-att-anchor-1", "On 144Qv2, in the 3 days leading up to the last calibration run, which qubit "
               "failed most?", ("failure_ranking", {"chip_id": o, "by": "qubit", "days": 3}),
               single(results(db, o, back(db, o, 3), "failed")), "qid"),
        counted("f20-att-anchor-2", "Failed task results on 64Qv3, 5 days up to and including its most recent "
                "execution?", ("count_in_window", {"chip_id": c, "days": 5, "what": "failed tasks"}),
                len(results(db, c, back(db, c, 5), "failed"))),
        counted("f20-att-terse-2", "Quick one for the wiki (64Qv3). Failed tasks over the 4 days through its newest "
                "run?", ("count_in_window", {"chip_id": c, "days": 4, "what": "failed tasks"}),
                len(results(db, c, back(db, c, 4), "failed"))),
    ]


@dataclass(frozen=True)
class Stated:
    """A question, the call it needs, and the figures (display units) the call's answer must state."""

    id: str
    text: str
    call: Call
    figures: tuple[float, ...]


def _spread(db, chip: str, metric: str, stat: str, unit: str | None = None) -> float:
    values = chip_values(db, chip, metric, unit)
    centre = {"mean": statistics.fmean, "median": statistics.median}.get(stat)
    return centre(values) if centre else spread_of(values, stat)


def stated_cases(db) -> list[Stated]:
    c, o = CHIP, OTHER
    top = sorted(chip_values(db, c, "t1"), reverse=True)
    echo = sorted(chip_values(db, c, "t2_echo"), reverse=True)
    zero = sorted(chip_values(db, o, "readout_fidelity_0"), reverse=True)
    return [
        Stated("f20-range-1", "longest T2 echo minus shortest T2 echo on 64Qv3, over its qubits",
               ("metric_spread", {"chip_id": c, "metric_name": "t2_echo", "lead": "range"}),
               (_spread(db, c, "t2_echo", "range"),)),
        Stated("f20-range-2", "On 144Qv2, what is the highest T1 minus the lowest T1?",
               ("metric_spread", {"chip_id": o, "metric_name": "t1", "lead": "range"}), (_spread(db, o, "t1", "range"),)),
        Stated("f20-unit-1", "How far do 144Qv2's qubit frequencies deviate, one standard deviation? MHz please, not "
               "GHz.", ("metric_spread", {"chip_id": o, "metric_name": "qubit_frequency", "lead": "std", "unit": "MHz"}),
               (_spread(db, o, "qubit_frequency", "std", "MHz"),)),
        Stated("f20-lead-1", "which 3 qubits on 64Qv3 lead on T1?",
               ("rank_metric", {"chip_id": c, "metric_name": "t1", "order": "highest", "n": 3}), tuple(top[:3])),
        Stated("f20-lead-2", "which 4 qubits on 144Qv2 lead on |0> assignment fidelity?",
               ("rank_metric", {"chip_id": o, "metric_name": "readout_fidelity_0", "order": "highest", "n": 4}),
               tuple(zero[:4])),
        Stated("f20-quoted-1", "the report's 'worst T1' list looks old. Which four 64Qv3 qubits lead on T2 echo "
               "today, with values?",
               ("rank_metric", {"chip_id": c, "metric_name": "t2_echo", "order": "highest", "n": 4}), tuple(echo[:4])),
        Stated("f20-csv-1", "chip,median_t1_us\n64Qv3,\n144Qv2,\nfill both cells in (median over each chip's qubits) "
               "and flag the larger one",
               ("compare_chips", {"metric_name": "t1", "statistic": "median", "chip_ids": [c, o]}),
               (_spread(db, c, "t1", "median"), _spread(db, o, "t1", "median"))),
        Stated("f20-separates-1", "What separates the longest T1 on 64Qv3 from the shortest?",
               ("metric_spread", {"chip_id": c, "metric_name": "t1", "lead": "range"}), (_spread(db, c, "t1", "range"),)),
        Stated("f20-separates-2", "how much separates the highest qubit frequency from the lowest one on 144Qv2, in MHz",
               ("metric_spread", {"chip_id": o, "metric_name": "qubit_frequency", "lead": "range", "unit": "MHz"}),
               (_spread(db, o, "qubit_frequency", "range", "MHz"),)),
        # written after the fix, to attack it
        Stated("f20-att-separates-3", "what separates the best X90 fidelity from the worst on 64Qv3?",
               ("metric_spread", {"chip_id": c, "metric_name": "x90_gate_fidelity", "lead": "range"}),
               (_spread(db, c, "x90_gate_fidelity", "range"),)),
        Stated("f20-att-range-3", "strongest T1 on 144Qv2 minus the weakest: how much?",
               ("metric_spread", {"chip_id": o, "metric_name": "t1", "lead": "range"}), (_spread(db, o, "t1", "range"),)),
        Stated("f20-att-unit-2", "T1 std on 64Qv3 - ns please, not us", ("metric_spread", {
            "chip_id": c, "metric_name": "t1", "lead": "std", "unit": "ns"}), (_spread(db, c, "t1", "std", "ns"),)),
        Stated("f20-att-csv-2", "chip | mean_x90_fidelity_pct\n64Qv3 |\n144Qv2 |\ncomplete the table",
               ("compare_chips", {"metric_name": "x90_gate_fidelity", "statistic": "mean", "chip_ids": [c, o]}),
               (_spread(db, c, "x90_gate_fidelity", "mean"), _spread(db, o, "x90_gate_fidelity", "mean"))),
    ]


# (id, wording, call): questions whose call alone is the class (the correlation and comparison tools are tested on
# their own figures elsewhere).
ROUTED: tuple[tuple[str, str, Call], ...] = (
    ("f20-frame-1", "For the coherence review: Pearson r of T1 against T2 echo on 144Qv2",
     ("correlate_metrics", {"chip_id": OTHER, "metric_a": "t1", "metric_b": "t2_echo", "method": "pearson"})),
    ("f20-frame-2", "For the coherence meeting, how does T2 star relate to T1 over 64Qv3?",
     ("correlate_metrics", {"chip_id": CHIP, "metric_a": "t2_star", "metric_b": "t1", "method": "pearson"})),
    ("f20-frame-3", "Planning two-qubit work: coupler-averaged Bell fidelity on 64Qv3 beside 144Qv2, which is higher?",
     ("compare_chips", {"metric_name": "bell_state_fidelity", "statistic": "mean", "chip_ids": [CHIP, OTHER]})),
    ("f20-att-frame-4", "coherence check, quick: correlate echo T2 with T1 on 64Qv3",
     ("correlate_metrics", {"chip_id": CHIP, "metric_a": "t2_echo", "metric_b": "t1", "method": "pearson"})),
)
