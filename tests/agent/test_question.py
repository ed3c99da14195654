"""The one question parse against a table of phrasings (templates × fills, each with its expected fields written by
hand): at least 200, covering every field of :class:`Question`."""

from __future__ import annotations

import pytest

from copilot_core.language.question import Quality, Range, Threshold, parse

CHIPS = ("64Qv3", "144Qv2")
QUBIT_FORMS = [("Q05", "5"), ("Q5", "5"), ("qubit 5", "5"), ("Qubit 12", "12"), ("q007", "7"), ("Q63", "63"),
               ("qubit #40", "40"), ("Q140", "140")]
METRICS = [("T1", "t1"), ("T2 echo", "t2_echo"), ("X90 gate fidelity", "x90_gate_fidelity"),
           ("readout fidelity", "average_readout_fidelity"), ("qubit frequency", "qubit_frequency")]

CASES: list[tuple[str, dict]] = []
for form, qid in QUBIT_FORMS:
    for title, name in METRICS:
        CASES.append((f"What is the {title} of {form}?", {"shape": "lookup", "qubits": (qid,), "metrics": (name,)}))
for word, extreme in [("lowest", "lowest"), ("highest", "highest"), ("smallest", "lowest"), ("longest", "highest"),
                      ("best", "best"), ("worst", "worst")]:
    for title, name in METRICS[:4]:
        CASES.append((f"Which qubit has the {word} {title}?", {"shape": "extreme", "extreme": extreme,
                                                               "metrics": (name,), "qubits": ()}))
for word, side in [("below", "below"), ("under", "below"), ("less than", "below"), ("above", "above"),
                   ("over", "above"), ("greater than", "above")]:
    for title, name, value, unit in [("T1", "t1", 50, "μs"), ("T2 echo", "t2_echo", 80, "us"),
                                     ("X90 gate fidelity", "x90_gate_fidelity", 99.5, "%")]:
        CASES.append((f"How many qubits have {title} {word} {value:g}{' ' if unit != '%' else ''}{unit}?",
                      {"shape": "count", "metrics": (name,), "threshold": Threshold(side, float(value), unit, name)}))
for n, word in [(3, "3"), (5, "five"), (2, "two"), (4, "4")]:
    for order, extreme in [("top", "best"), ("bottom", "worst")]:
        CASES.append((f"List the {order} {word} qubits by T1.", {"n": n, "extreme": extreme, "metrics": ("t1",)}))
    CASES.append((f"What were the last {word} T1 values of Q05?", {"n": n, "qubits": ("5",), "metrics": ("t1",)}))
    CASES.append((f"Show me the {word} most recent T2 echo values of qubit 9.", {"n": n, "qubits": ("9",)}))
for phrase, days in [("last 7 days", 7.0), ("past 14 days", 14.0), ("last two weeks", 14.0), ("past week", 7.0),
                     ("last 24 hours", 1.0), ("previous 3 days", 3.0), ("over the last 30 days", 30.0),
                     ("last five days", 5.0)]:
    CASES.append((f"How many tasks failed on 64Qv3 in the {phrase}?", {"shape": "window count", "window_days": days,
                                                                     "chips": ("64Qv3",), "n": None}))
    CASES.append((f"Plot the T1 of Q07 over the {phrase.removeprefix('over the ')}.",
                  {"shape": "plot", "chart": True, "window_days": days, "qubits": ("7",)}))
for verb in ("Plot", "Graph", "Chart", "Draw", "Visualize"):
    for title, name in METRICS[:3]:
        CASES.append((f"{verb} the {title} history of qubit 3.", {"shape": "plot", "chart": True, "metrics": (name,),
                                                                   "qubits": ("3",)}))
for text, chips, many in [("What is the median T1 on chip 144Qv2 now?", ("144Qv2",), False),
                          ("Is 64Qv3 better than 144Qv2 on T1?", ("64Qv3", "144Qv2"), True),
                          ("Compare the chips' median T2 echo.", (), True), ("Which chip has the best T1?", (), True),
                          ("What is the median T1 on all chips?", (), True), ("Median X90 on 64qv3?", ("64Qv3",), False),
                          ("How healthy is 64Qv3-old?", (), False), ("T1 of Q05 on chip 144Qv2", ("144Qv2",), False)]:
    CASES.append((text, {"chips": chips, "many_chips": many}))
for text, bare in [("What is the T2 of Q05?", True), ("Show T2 for qubit 3", True), ("T2 echo of Q05", False),
                   ("T2* of Q05", False), ("T2 star of Q5", False), ("t2_echo of Q5", False), ("t2e of q5", False),
                   ("Which qubit has the lowest T2?", True), ("T2 ramsey of Q5", False), ("Is T2 good on 64Qv3?", True)]:
    CASES.append((text, {"bare_t2": bare}))
for text, coupling in [("What is the ZX90 gate fidelity of coupling 4-5?", "4-5"), ("Bell fidelity of Q04-Q05", "4-5"),
                       ("How is pair 12→13 doing?", "12-13"), ("ZX90 of 3->4", "3-4"), ("coupling Q010-Q011", "10-11")]:
    CASES.append((text, {"couplings": (coupling,), "qubits": ()}))
for text, shape in [("How did Q05's T1 change between the last two runs?", "compare runs"),
                    ("What changed since the previous run?", "compare runs"),
                    ("When was 64Qv3 last calibrated?", "when"), ("What date was the chip last calibrated on?", "when"),
                    ("Which tasks failed in the latest execution?", "failures"),
                    ("How many qubits have no valid T1?", "missing"), ("How many qubits are missing T2 echo?", "missing"),
                    ("What is the standard deviation of T1 on 64Qv3?", "spread"),
                    ("How widely does T1 vary across the chip?", "spread"),
                    ("What is the median T1 on the chip?", "statistic"), ("Average T2 echo on 144Qv2?", "statistic"),
                    ("What is the T1 trend of qubit 5?", "trend"), ("How has the T2 echo of Q05 drifted?", "trend"),
                    ("Where does the T1 of Q05 come from?", "provenance"),
                    ("How healthy is Q05?", "health"), ("Anything wrong with Q05?", "health"),
                    ("Is the T1 of Q05 correlated with its T2 echo?", "correlation"),
                    ("What percentage of qubits have T1 above 50 μs?", "percentage"),
                    ("What fraction of qubits pass X90 above 99.9%?", "percentage"),
                    ("Hello there", "other"), ("Tell me a joke", "other")]:
    CASES.append((text, {"shape": shape}))


for title, name in METRICS:
    for chip in CHIPS:
        CASES.append((f"What is the median {title} on {chip}?", {"shape": "statistic", "chips": (chip,),
                                                                 "metrics": (name,)}))
        CASES.append((f"How many qubits on {chip} have no valid {title}?", {"shape": "missing", "chips": (chip,),
                                                                            "metrics": (name,)}))
        CASES.append((f"Which qubit on {chip} has the lowest {title}?", {"shape": "extreme", "chips": (chip,),
                                                                         "extreme": "lowest"}))

# The fields the router, prefetch, lookups and claim check read (written by hand).
for text, fields in [
    ("Compare qubits 3, 7 and 9 on T1", {"qubits": ("3", "7", "9"), "ends": ("3", "7", "9")}),
    ("Bell fidelity of coupling Q04-Q05", {"qubits": (), "ends": ("4", "5")}),
    ("Which qubits have T1 between above 20 and below 50 μs?", {"limits": (Threshold("above", 20.0, "", "t1"),
                                                                            Threshold("below", 50.0, "μs", "t1"))}),
    ("What failed in run 20261126-004?", {"execution_id": "20261126-004"}),
    ("Which 3 qubits have the lowest T1?", {"extreme_n": 3, "extreme_word": "lowest"}),
    ("What were the two most recent T1 values of Q5?", {"recent_n": 2}),
    ("What are the latest values of T1 for Q5?", {"recent_n": 0}),
    ("Plot the last 20 measurements of T1 for Q5", {"last_n": 20, "recent_n": 20}),
    ("Is 99Qv9 healthy?", {"chip_ids": ("99Qv9",), "chips": ()}),
    ("What is the ZX90 of 3->4?", {"couplings": ("3-4",), "threshold": None, "limits": (), "ends": ()}),  # an arrow, no ">4"
    ("What is the ZX90 of coupling Q010-Q011?", {"couplings": ("10-11",), "ends": ("10", "11")}),
    ("What is the ZX90 of coupling 4-5?", {"couplings": ("4-5",), "ends": ()}),
    ("T1 of qubit 5 below 30 μs for the last 3 values", {"values": ("30", "3"),
                                                          "stated_counts": frozenset({(3, "values"),
                                                                                      (3, "selection")})}),
]:
    CASES.append((text, fields))
# A chip written the way people write it is the installed chip it means (written by hand for CHIPS).
for text, fields in [
    ("What is the median T1 on 64Q?", {"chip_ids": ("64Qv3",), "chips": ("64Qv3",), "chip_options": ()}),
    ("Median T2 echo of the 64q chip", {"chip_ids": ("64Qv3",), "chips": ("64Qv3",)}),
    ("What is the T1 of Q5 on the 64-qubit chip?", {"chip_ids": ("64Qv3",), "chips": ("64Qv3",), "qubits": ("5",)}),
    ("Is the 144 qubit chip healthy?", {"chip_ids": ("144Qv2",), "chips": ("144Qv2",)}),
    ("How many tasks failed on 64QV3 this week?", {"chip_ids": ("64Qv3",), "chips": ("64Qv3",)}),
    ("How is chip 64qv3 doing?", {"chip_ids": ("64Qv3",), "chips": ("64Qv3",)}),
    ("What is the median T1 on 144Q?", {"chip_ids": ("144Qv2",), "chips": ("144Qv2",)}),
    ("Compare 64Q and 144q on T1", {"chip_ids": ("64Qv3", "144Qv2"), "shape": "cross-chip", "many_chips": True}),
    ("Is chip 999Q healthy?", {"chip_ids": ("999Q",), "chips": ()}),
    ("What is the median T1 on the 16-qubit chip?", {"chip_ids": ("16Q",), "chips": ()}),
    ("Median T1 on 64Qv4?", {"chip_ids": ("64Qv4",), "chips": ()}),
    ("How good are the 2Q gates on 64Qv3?", {"chip_ids": ("64Qv3",), "chips": ("64Qv3",)}),
    ("What is the T1 of 6Q?", {"chip_ids": (), "chips": ()}),  # 6 begins no installed chip's qubit count
    ("How many runs failed on each chip since 3 November?", {"chips_compared": CHIPS, "chip_ids": ()}),
    ("failed executions per chip since Nov 3", {"chips_compared": CHIPS, "many_chips": True}),
    ("How many runs failed on 64Q since 3 November?", {"chips_compared": (), "chips": ("64Qv3",)}),
]:
    CASES.append((text, fields))
ROWS = [("Show the execution history of the chip", "history", True), ("What is the T1 of Q5?", "history", False),
        ("Where does Q5's T1 come from?", "provenance", True), ("Write me a poem about qubits", "off topic", True),
        ("Why did Q69's tasks fail?", "why failed", True), ("What is T1?", "definition", True),
        ("Show T1 of Q3 and Q4", "show", True), ("Draw the T1 map", "show", False),
        ("Which execution logged the most failures?", "by run", True),
        ("Which calibration task breaks most often?", "by run", False),
        ("Per run, where did failures peak?", "by run", True), ("Which qubit fails most?", "by run", False)]
for text, fields in [
    ("Which run saw the most failures this week?", {"shape": "fails most", "since_weekday": "monday"}),
    ("On which run did the most tasks fail?", {"shape": "fails most"}),
    ("How do Q10 and Q11 differ in T2 echo?", {"shape": "qubit pair", "qubits": ("10", "11")}),
    ("Which of Q22 and Q23 reads out better?", {"shape": "qubit pair"}),
    ("Best two-qubit gate fidelity among the couplings", {"metrics": ("zx90_gate_fidelity",), "extreme_n": None,
                                                          "n": None}),
    ("top two qubits by T1", {"extreme_n": 2, "n": 2}),
]:
    CASES.append((text, fields))
# windows written as dates: whole days, both ends included; no digit of a date is a qubit, a coupling or a value
_NO_SUBJECT = {"qubits": (), "couplings": (), "ends": (), "values": ()}
for text, window in [
    ("How many runs happened between 2 November 2026 and 16 November 2026?", ("2026-11-02", "2026-11-16")),
    ("How many runs happened from 2026-11-04 to 2026-11-12?", ("2026-11-04", "2026-11-12")),
    ("How many tasks failed since Nov 5, 2026?", ("2026-11-05", None)),
    ("How many tasks failed since November 5th?", ("11-05", None)),
    ("How many runs were there in October 2026?", ("2026-10-01", "2026-10-31")),
    ("How many runs were there during February 2028?", ("2028-02-01", "2028-02-29")),
    ("How many runs were there in September?", ("09-01", "09-30")),
    ("How many tasks failed on 7 Nov?", ("11-07", "11-07")),
    ("How many tasks failed on 2026/11/07?", ("2026-11-07", "2026-11-07")),
    ("How many executions between 03.11.2026 and 09.11.2026?", ("2026-11-03", "2026-11-09")),
    ("How many executions between 11/03/2026 and 11/09/2026?", ("2026-11-03", "2026-11-09")),
    ("How many tasks failed after 9 November 2026?", ("2026-11-10", None)),
    ("How many tasks failed before 9 November 2026?", (None, "2026-11-08")),
    ("How many tasks failed until Nov 9?", (None, "11-09")),
    ("How many runs failed on Tuesday?", ("tuesday", "tuesday")),
    ("How many runs did we have last Friday?", ("friday", "friday")),
    ("Count the failed tasks from 30 December 2026 to 2 January 2027", ("2026-12-30", "2027-01-02")),
    ("How many runs happened between 1 and 15 November 2026?", ("2026-11-01", "2026-11-15")),
    ("How many tasks failed from 3 to 9 Nov?", ("11-03", "11-09")),
    ("How many runs were there in February 2027?", ("2027-02-01", "2027-02-28")),
]:
    CASES.append((text, {"dates": window, "shape": "window count", **_NO_SUBJECT}))
for text, fields in [
    ("Which task failed most on Tuesday?", {"dates": ("tuesday", "tuesday"), "shape": "fails most"}),
    ("Run 20261124-001 failed on Tuesday", {"dates": ("tuesday", "tuesday"), "qubits": (),
                                             "execution_id": "20261124-001"}),
    ("How many T1 measurements of Q5 between 1 November 2026 and 15 November 2026?",
     {"dates": ("2026-11-01", "2026-11-15"), "qubits": ("5",), "ends": ("5",), "couplings": ()}),
    ("T1 of qubit 12 on 2026-11-20 at 10:30", {"qubits": ("12",), "dates": ("2026-11-20", "2026-11-20"),
                                               "couplings": ()}),
    ("What is the ZX90 of coupling 4-5 since Nov 20, 2026?", {"couplings": ("4-5",), "dates": ("2026-11-20", None)}),
    ("T1 of Q5 may be low", {"dates": None, "qubits": ("5",)}),  # "may" the verb is no month
    ("Which qubits had T1 between 40 and 50 μs on 3 Nov?", {"dates": ("11-03", "11-03"), "qubits": (),
                                                             "ranges": (Range("t1", 40.0, 50.0, "μs", True),)}),
    ("Since Tuesday, how many runs?", {"dates": None, "since_weekday": "tuesday"}),
]:
    CASES.append((text, fields))
# a condition in words with no number, on the metric next to it; the unit a value is asked in; a coupling's gate
# time (not its fidelity)
for text, fields in [
    ("Which qubits have low readout fidelity and short T1?",
     {"qualities": (Quality("average_readout_fidelity", "low", "low"), Quality("t1", "low", "short")), "limits": ()}),
    ("How many qubits have poor T2 echo?", {"qualities": (Quality("t2_echo", "worse", "poor"),)}),
    ("List the high-fidelity couplings.", {"qualities": (Quality(None, "high", "high"),)}),
    ("Which qubits' T1 is short?", {"qualities": (Quality("t1", "low", "short"),)}),
    ("Count qubits whose X90 gate fidelity is excellent", {"qualities": (Quality("x90_gate_fidelity", "better",
                                                                                "excellent"),)}),
    ("How many couplings have a long ZX90 gate time?", {"qualities": (Quality("zx90_gate_time", "high", "long"),),
                                                        "metrics": (None, "zx90_gate_time")}),
    ("Which qubit shows the lowest T1?", {"qualities": (), "extreme": "lowest"}),  # an end, no condition
    ("Is the T1 of Q5 good?", {"qualities": ()}),  # a judgement of one value, no condition
    ("How many qubits have weak readout and good T2 echo?",
     {"qualities": (Quality("average_readout_fidelity", "worse", "weak"), Quality("t2_echo", "better", "good"))}),
    ("What is the spread of qubit frequency in MHz?", {"unit_asked": "MHz", "qualities": ()}),
    ("Standard deviation of the anharmonicity in kHz", {"unit_asked": "kHz"}),
    ("T1 spread in us", {"unit_asked": "μs"}),
    ("What is the spread of T1?", {"unit_asked": None}),
    ("Which coupling has the shortest CZ duration?", {"metrics": (None, "zx90_gate_time")}),
    ("ZX90 gate time of coupling 4-5", {"metrics": ("zx90_gate_time", None)}),  # "coupling": no metric
    ("Two-qubit gate length on the chip", {"metrics": ("zx90_gate_time",)}),
    ("Which coupling has the best CZ fidelity?", {"metrics": ("zx90_gate_fidelity",)}),  # "coupling" frames it
    ("ZX90 gate fidelity of coupling 4-5", {"metrics": ("zx90_gate_fidelity",)}),
]:
    CASES.append((text, fields))
# a relation asked without "correlation" (the router and the restate check read ``relates``); a "%" for the word
# percent; a time's limit written "shorter/longer than"; results the lab excluded
for text, fields in [
    ("Does T2 echo depend on qubit frequency?", {"relates": True}),
    ("How well does T1 predict readout fidelity?", {"relates": True}),
    ("Do qubits with higher T1 have worse readout fidelity?", {"relates": True}),
    ("Does readout fidelity go down when T1 gets shorter?", {"relates": True}),
    ("Is T1 anticorrelated with frequency?", {"relates": True}),
    ("r between T1 and T2 echo", {"relates": True}),
    ("Which qubits have higher T1 than Q5?", {"relates": False}),
    ("What is the T2 echo of Q7 now?", {"relates": False}),
    ("% of qubits with T1 above 50 us", {"shape": "percentage"}),
    ("what % of couplings are below 99%?", {"shape": "percentage"}),
    ("Which qubits have readout fidelity above 95%?", {"shape": "other"}),  # a "%" after a number: a unit
    ("qubits with a T1 shorter than 20 us", {"limits": (Threshold("below", 20.0, "us", "t1"),)}),
    ("qubits with T2 echo longer than 60us", {"limits": (Threshold("above", 60.0, "us", "t2_echo"),)}),
]:
    CASES.append((text, fields))
ROWS += [("How many task results were excluded?", "excluded", True), ("How many tasks failed?", "excluded", False)]
# a limit that counts the value at it ("at least", "no more than", "≥", "<=") and one that does not
for text, side, inclusive in [("T1 at least 50 μs", "above", True), ("T1 no less than 50 μs", "above", True),
                              ("T1 ≥ 50 μs", "above", True), ("T1 >= 50 μs", "above", True),
                              ("T1 at most 50 μs", "below", True), ("T1 no more than 50 μs", "below", True),
                              ("T1 ≤ 50 μs", "below", True), ("T1 <= 50 μs", "below", True),
                              ("T1 above 50 μs", "above", False), ("T1 > 50 μs", "above", False),
                              ("T1 below 50 μs", "below", False), ("T1 < 50 μs", "below", False),
                              ("T1 more than 50 μs", "above", False), ("T1 under 50 μs", "below", False)]:
    unit = "μs"
    CASES.append((f"Which qubits show {text}?", {"limits": (Threshold(side, 50.0, unit, "t1", inclusive),)}))


@pytest.mark.parametrize("text, row, expected", ROWS)
def test_a_row_of_the_word_table_is_found_as_written(text, row, expected):
    assert parse(text).has(row) is expected


def test_an_unknown_row_is_an_error_not_false():
    with pytest.raises(KeyError):
        parse("T1 of Q5").has("no such row")


def test_the_table_is_large():
    assert len(CASES) >= 200 and len({text for text, _ in CASES}) == len(CASES)


@pytest.mark.parametrize("text, expected", CASES, ids=[c[0][:60] for c in CASES])
def test_each_phrasing_parses_to_its_fields(text, expected):
    parsed = parse(text, CHIPS)
    got = {key: getattr(parsed, key) for key in expected}
    assert got == expected


@pytest.mark.parametrize("text_, names", [
    ("CheckT1 failed most, then CheckRamsey.", ["CheckT1", "CheckRamsey"]),
    ("X90InterleavedRandomizedBenchmarking ran twice", ["X90InterleavedRandomizedBenchmarking"]),
    ("QDash stores it; CHECK it; checkRabi", []),  # one capital run, all capitals, a lower-case start
    ("foo-CheckRabi and CheckRabi-x and Check_Rabi", []),  # joined to another word
    ("(CheckRabi)'s count", ["CheckRabi"]),
])
def test_a_task_name_in_an_answer_is_one_camel_case_word(text_, names):
    from copilot_core.language.question_words import task_words
    assert [w for _, _, w in task_words(text_)] == names


@pytest.mark.parametrize("text, options", [
    ("What is the median T1 on 64Q?", ("64Qv3", "64Qv2")),
    ("Median T1 of the 64-qubit chip?", ("64Qv3", "64Qv2")),
    ("What is the median T1 on 64qv3?", ()),  # the whole id: one chip
    ("What is the median T1 on 144Q?", ()),
])
def test_a_chip_written_short_that_two_chips_begin_is_a_choice_not_a_guess(text, options):
    parsed = parse(text, ("64Qv3", "64Qv2", "144Qv2"))
    assert parsed.chip_options == options
    assert parsed.chips == (() if options else (parsed.chip_ids[0],))
