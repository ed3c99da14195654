"""The twenty-first sealed set: 10 shapes × 4 questions in registers the earlier sets left out (a data person's
pandas expression to evaluate, a shell command line with flags, set-builder notation, a contract clause, a postmortem
template, a stand-up update, a voicemail transcript, a bet to settle, a head-to-head "A vs B — which wins?", a
leaderboard, a kanban card, a customer-support message, a parenthetical caveat; Mandarin, Korean, Italian or
Portuguese around a metric named in English; qubit ranges as "Q72 onward to Q95", "qubits eight through
twenty-three", ``qid.between(32, 63)`` or "Q72부터 Q143까지"; "no less than" / "not below" limits; units as
"microsecs"), truths from hand-written pymongo on the raw demo collections.

Written without reading the copilot's word tables, routing, claim check or prompts; the other sealed sets were read
for their helpers only, and no 4-word sequence of their questions is reused.  Values, units, labels and windows are
the ninth to twentieth sets' truth helpers:

- latest = per qubit/coupling id, the newest completed, non-excluded ``task_result_history`` row holding the metric;
  display units: fidelities in %, T1/T2 in µs, frequencies in GHz (MHz where asked), gate time in ns, a depolarizing
  rate as stored.
- "Q72 onward to Q95" / "qubits eight through twenty-three" / ``qid.between(32, 63)`` / "Q72부터 Q143까지" is every
  qubit id between the two, both ends included; a share over a range is over the range's qubits with a value (over
  all the range's qubits the accepted other reading).
- "no less than X" / "not below X" = at least X; every limit is clear of every value, so they keep the same ids as
  the strict comparisons.
- a window of whole UTC days ends on the day of the chip's newest run (by ``start_at``; the execution id's day is the
  accepted second reading): "the last five days (today included)" / ``--last-days 5`` / "지난 5일" are five whole
  days, "its last seven days (today counts)" seven, "the past twelve days" / "最近 12 天" twelve, "the chip's
  fourteen newest days" / "a fourteen-day stretch ending today" fourteen.  "The N most recent runs" / "the last N
  runs" are the chip's N newest ``execution_history`` documents (by ``start_at``, an aborted run included) and the
  task rows carrying their execution ids.
- a failure = a ``task_result_history`` row with status ``failed``; a run = an ``execution_history`` document (an
  aborted one included); a coupling task is a row with ``task_type`` "coupling".
- a share of qubits is over the qubits with a value (over all the chip's qubits the accepted other reading); a share
  of couplings is over the couplings with a value; a share of tasks is failed rows over all rows.
- a spread in percentage points of a fidelity is the difference of the % values; a standard deviation is the sample
  one (the population one the accepted other reading).

The builder raises instead of writing a question with no single answer (a tie, a limit on a value, a weak
correlation, equal sides, an empty window).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from datetime import date, datetime

from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question
from tests.sealed.heldout9 import UNIT_TOL, latest, pair_re
from tests.sealed.heldout11 import _clear_of, _count, _rows, _sole
from tests.sealed.heldout12 import _value
from tests.sealed.heldout13 import _share
from tests.sealed.heldout19 import days, last_runs
from tests.sealed.heldout20 import _failed_share, _filtered, _r, _ranged, _ranked

__all__ = ["build_heldout21"]

SPLIT = "held-out-21"
RUNS = "execution_history"
HISTORY = "task_result_history"
CHIP_RE = {CHIP: r"(?i)(?:\b64Q|\b64[- ]qubit)", OTHER: r"(?i)(?:\b144Q|\b144[- ]qubit)"}
NOT_THERE = ("not", "no ", "n't", "unknown", "only", "exist", "invalid", "isn't", "doesn't", "unavailable")
FAILED = {"status": "failed"}
COUPLING_FAILED = {"status": "failed", "task_type": "coupling"}


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed21-{shape.replace(' ', '-')}-{i}", shape, text, truth, split=SPLIT)


def _in_runs(db, chip: str, n: int, query: dict) -> list[dict]:
    """The task rows of the chip's ``n`` most recent runs matching ``query``."""
    ids = last_runs(db, chip, n)
    return list(db[HISTORY].find({"chip_id": chip, "execution_id": {"$in": ids}, **query}))


def _counted(db, chip: str, window: tuple[date, date], query: dict, collection: str = HISTORY) -> Expect:
    by_start, by_id = _rows(db, chip, *window, query, collection)
    if not by_start:
        raise ValueError("an empty window")
    return _count(len(by_start), len(by_id))


def _same_window(db, n: int) -> tuple[date, date]:
    window = days(db, CHIP, f"days:{n}")
    if window != days(db, OTHER, f"days:{n}"):
        raise ValueError("the two chips' newest days differ")
    return window


# ---- top N -----------------------------------------------------------------------------------------------------------
def _top(db) -> list[Question]:
    echo = latest(db, OTHER, "t2_echo")
    one = latest(db, CHIP, "readout_fidelity_1")
    bell = latest(db, CHIP, "bell_state_fidelity", "coupling")
    t1 = _ranged(latest(db, OTHER, "t1"), 72, 95)
    return [
        _q("top N", 1, "data-team ask: what does `q144.nsmallest(3, 't2_echo')[['qid', 't2_echo_us']]` evaluate to "
           "right now? (q144: 144Qv2's current per-qubit table.) qids and µs, please",
           _ranked(echo, 3, False, "us")),
        _q("top N", 2, "请列出 64Qv3 上 readout_fidelity_1(|1⟩ 态读出保真度)最高的三个 qubit,并附上各自的数值(%)。",
           _ranked(one, 3, True, "%")),
        _q("top N", 3, "$ calibctl rank --chip 64Qv3 --sort-key bell_state_fidelity --scope couplings --order asc "
           "--limit 3\nWhat ought that to print? The three pairs, each beside its value in %.",
           _ranked(bell, 3, False, "%")),
        _q("top N", 4, "Which three qubits from Q72 onward to Q95 on 144Qv2 hold on to their excitation longest, i.e. "
           "the top T1 (current values, µs — and yes, I mean that slice alone, not the whole device)?",
           _ranked(t1, 3, True, "us")),
    ]


# ---- compound filter -------------------------------------------------------------------------------------------------
def _compound(db) -> list[Question]:
    return [
        _q("compound filter", 1, "Let S = { q ∈ 64Qv3 : T1(q) > 60 µs ∧ T2*(q) < 30 µs }, on latest values. "
           "Enumerate S and state |S|.",
           _filtered(db, CHIP, (("t1", ">", 60.0, "us"), ("t2_star", "<", 30.0, "us")))),
        _q("compound filter", 2, "Pessoal, no 144Qv2 quais qubits têm T2 echo acima de 100 µs e readout_fidelity_1 "
           "(leitura do estado |1⟩) abaixo de 88 %? E quantos são no total?",
           _filtered(db, OTHER, (("t2_echo", ">", 100.0, "us"), ("readout_fidelity_1", "<", 88.0, "%")))),
        _q("compound filter", 3, "```python\nsub = q64[q64.qid.between(32, 63) & (q64.t2_echo > 90) "
           "& (q64.qubit_frequency > 5.1)]\n```\nq64 holds 64Qv3's newest values (T2 echo in µs, frequency in GHz). "
           "Which qids land in `sub`, and what is `len(sub)`?",
           _filtered(db, CHIP, (("t2_echo", ">", 90.0, "us"), ("qubit_frequency", ">", 5.1, "GHz")), (32, 63))),
        _q("compound filter", 4, "Clause 7.2. The Operator shall enumerate every qubit of 144Qv2 having a T1 no less "
           "than 110 µs, its average readout fidelity likewise not below 95 %, and shall further declare "
           "how many qubits so qualify.",
           _filtered(db, OTHER, (("t1", ">", 110.0, "us"), ("average_readout_fidelity", ">", 95.0, "%")))),
    ]


# ---- correlation -----------------------------------------------------------------------------------------------------
def _correlation(db) -> list[Question]:
    return [
        _q("correlation", 1, "64Qv3에서 큐비트별 T1과 T2* 사이의 피어슨 상관계수(r)는 얼마인가요? 최신 값 기준으로 "
           "부탁드립니다.", _r(db, CHIP, "t1", "t2_star")),
        _q("correlation", 2, "`df144.readout_fidelity_0.corr(df144.average_readout_fidelity)` — df144 holding "
           "144Qv2's latest per-qubit numbers. What number comes back?",
           _r(db, OTHER, "readout_fidelity_0", "average_readout_fidelity")),
        _q("correlation", 3, "Su 144Qv2, accoppiamento per accoppiamento: qual è il coefficiente di Pearson tra la "
           "Bell state fidelity e lo ZX90 depolarizing rate? Mi interessa anche il segno.",
           _r(db, OTHER, "bell_state_fidelity", "zx90_depolarizing_rate", "coupling")),
        _q("correlation", 4, "Settling a lunch bet: I say the two state-resolved readout numbers on 64Qv3 "
           "(readout_fidelity_0 is one, readout_fidelity_1 the other) barely relate, my colleague swears they rise "
           "and fall together. Who pays? Give r across the qubits (newest values).",
           _r(db, CHIP, "readout_fidelity_0", "readout_fidelity_1")),
    ]


# ---- cross-chip ------------------------------------------------------------------------------------------------------
def _sides(figures: dict[str, float], tol: float, text: str, i: int, unit: str = "") -> Question:
    if abs(figures[CHIP] - figures[OTHER]) <= 2 * tol:
        raise ValueError(f"cross-chip {i}: equal sides")
    win = max(figures, key=figures.__getitem__)
    lose = CHIP if win == OTHER else OTHER
    expects = tuple(Expect(figures[c], tol, unit=unit) for c in (CHIP, OTHER))
    return _q("cross-chip", i, text, Truth(numbers=expects, winner=CHIP_RE[win], loser=CHIP_RE[lose]))


def _both_ways(db, chip: str, window: tuple[date, date], query: dict, collection: str = HISTORY) -> float:
    by_start, by_id = _rows(db, chip, *window, query, collection)
    if len(by_start) != len(by_id) or not by_start:
        raise ValueError("a window count reads two ways")
    return float(len(by_start))


def _cross(db) -> list[Question]:
    sides = (CHIP, OTHER)
    echo = {c: statistics.median(latest(db, c, "t2_echo").values()) for c in sides}
    five = _same_window(db, 5)
    fails = {c: _both_ways(db, c, five, FAILED) for c in sides}
    zx = {c: statistics.fmean(latest(db, c, "zx90_gate_fidelity", "coupling").values()) for c in sides}
    fourteen = _same_window(db, 14)
    coupled = {c: _both_ways(db, c, fourteen, COUPLING_FAILED) for c in sides}
    return [
        _sides(echo, UNIT_TOL["us"], "64Qv3 vs 144Qv2 — median T2 echo — which wins? Quote both medians in µs.", 1),
        _sides(fails, 0, "## Postmortem: calibration failures\n### Impact\nFailed tasks, last five days (today "
               "included): 64Qv3 = ___, 144Qv2 = ___. Which chip took the heavier hit?", 2),
        _sides(zx, UNIT_TOL["%"], "64Qv3 和 144Qv2 相比,哪块芯片的 ZX90 gate fidelity 平均值更高?请分别给出两个"
               "平均值(%)。", 3, "%"),
        _sides(coupled, 0, "[voicemail transcript] Hi, it's Priya from the cryo team — could you ring me back with "
               "the count of coupling-task failures per chip over a fourteen-day stretch ending today, 64Qv3 and "
               "144Qv2, and say who had more? Cheers, bye.", 4),
    ]


# ---- percentage ------------------------------------------------------------------------------------------------------
def _percentage(db) -> list[Question]:
    t1 = latest(db, CHIP, "t1")
    _clear_of(t1, 50.0, UNIT_TOL["us"])
    qubits = db["qubit"].count_documents({"chip_id": CHIP})
    zx = latest(db, CHIP, "zx90_gate_fidelity", "coupling")
    _clear_of(zx, 98.5, UNIT_TOL["%"])
    echo = _ranged(latest(db, OTHER, "t2_echo"), 72, 143)
    _clear_of(echo, 60.0, UNIT_TOL["us"])
    return [
        _q("percentage", 1, "Che percentuale dei qubit di 64Qv3 ha un T1 superiore a 50 µs? Valori più recenti, per "
           "favore.", Truth(numbers=(_share(sum(v > 50.0 for v in t1.values()), len(t1), qubits),))),
        _q("percentage", 2, "Over the couplings c of 64Qv3, compute 100 × #{c : ZX90 gate fidelity(c) > 98.5 %} ÷ "
           "#{c}.", Truth(numbers=(_share(sum(v > 98.5 for v in zx.values()), len(zx)),))),
        _q("percentage", 3, "Standup — Yesterday: re-ran the readout sweep. Today: need 144Qv2's failure rate — past "
           "twelve days, failed tasks ÷ every task, as a percent. Blockers: none.",
           Truth(numbers=(_failed_share(db, OTHER, days(db, OTHER, "days:12")),))),
        _q("percentage", 4, "144Qv2의 Q72부터 Q143까지 중에서 T2 echo가 60 µs를 넘는 큐비트는 몇 퍼센트인가요?",
           Truth(numbers=(_share(sum(v > 60.0 for v in echo.values()), len(echo), 72),))),
    ]


# ---- window count ----------------------------------------------------------------------------------------------------
def _window(db) -> list[Question]:
    six = _in_runs(db, CHIP, 6, FAILED)
    if not six:
        raise ValueError("an empty window")
    ramsey = {"name": "CheckRamsey", **FAILED}
    return [
        _q("window count", 1, "$ calibctl count tasks --chip 144Qv2 --status failed --last-days 5\nWhat number should "
           "this command report?", Truth(numbers=(_counted(db, OTHER, days(db, OTHER, "days:5"), FAILED),))),
        _q("window count", 2, "最近 12 天里 144Qv2 一共跑了多少次 run(execution)?中止的也算。",
           Truth(numbers=(_counted(db, OTHER, days(db, OTHER, "days:12"), {}, RUNS),))),
        _q("window count", 3, "len(tasks[(tasks.chip_id == '64Qv3') & (tasks.name == 'CheckRamsey') & "
           "(tasks.status == 'failed')]), restricted to rows from the chip's fourteen newest days — what is it?",
           Truth(numbers=(_counted(db, CHIP, days(db, CHIP, "days:14"), ramsey),))),
        _q("window count", 4, "[Kanban card] Title: tally failures in fresh runs · Chip: 64Qv3 · Scope: its six most "
           "recent runs (an aborted run counts as a run) · Deliverable: a single integer — how many of their task "
           "results came back failed.",
           Truth(numbers=(_count(len(six)),))),
    ]


# ---- fails most ------------------------------------------------------------------------------------------------------
def _leader(db, chip: str, window: tuple[date, date], query: dict) -> tuple[str, int]:
    by_start, by_id = _rows(db, chip, *window, {**FAILED, **query})
    first, second = _sole(Counter(r["name"] for r in by_start)), _sole(Counter(r["name"] for r in by_id))
    if first != second:
        raise ValueError("the two day readings disagree")
    return first


def _fails(db) -> list[Question]:
    seven, n1 = _leader(db, OTHER, days(db, OTHER, "days:7"), {})
    twelve, n2 = _leader(db, CHIP, days(db, CHIP, "days:12"), {"task_type": "coupling"})
    five, n3 = _leader(db, OTHER, days(db, OTHER, "days:5"), {"task_type": "coupling"})
    runs, n4 = _sole(Counter(r["name"] for r in _in_runs(db, CHIP, 7, FAILED)))
    return [
        _q("fails most", 1, "`fails.groupby('name').size().idxmax()`, with fails = 144Qv2's failed task rows covering "
           "its last seven days (today counts): which name comes out, and what size does it have?",
           Truth(numbers=(_count(n1),), patterns=(re.escape(seven),))),
        _q("fails most", 2, "Postmortem § Contributing factors — restricting to 64Qv3's coupling tasks during the past "
           "twelve days, which task is the repeat offender, plus its failure count?",
           Truth(numbers=(_count(n2),), patterns=(re.escape(twelve),))),
        _q("fails most", 3, "지난 5일 동안 144Qv2의 coupling task 중에서 가장 많이 실패한 task는 무엇이고, 몇 번 "
           "실패했나요?", Truth(numbers=(_count(n3),), patterns=(re.escape(five),))),
        _q("fails most", 4, "Failure leaderboard, 64Qv3 edition: over the chip's last seven runs, who grabs the top "
           "spot? Task name plus the failure count it posted.",
           Truth(numbers=(_count(n4),), patterns=(re.escape(runs),))),
    ]


# ---- qubit pair ------------------------------------------------------------------------------------------------------
def _pairs(db) -> list[Question]:
    bell = _value(db, CHIP, "bell_state_fidelity", "12-13", "coupling")
    sides = {p: _value(db, OTHER, "zx90_gate_fidelity", p, "coupling") for p in ("4-5", "4-6")}
    better, worse = sorted(sides, key=sides.__getitem__, reverse=True)
    if sides[better] - sides[worse] <= 2 * UNIT_TOL["%"]:
        raise ValueError("equal pairs")
    gate = _value(db, CHIP, "zx90_gate_time", "8-9", "coupling")
    zx = _value(db, OTHER, "zx90_gate_fidelity", "100-101", "coupling")
    return [
        _q("qubit pair", 1, "Qual è la Bell state fidelity attuale dell'accoppiamento Q12–Q13 su 64Qv3?",
           Truth(numbers=(Expect(bell, UNIT_TOL["%"], near=(pair_re(12, 13),), unit="%"),))),
        _q("qubit pair", 2, "ZX90 gate fidelity showdown on 144Qv2: Q4–Q5 vs Q4–Q6 — which wins, and at what value "
           "does the winner stand?",
           Truth(numbers=(Expect(sides[better], UNIT_TOL["%"], near=(pair_re(*better.split("-")),), unit="%"),),
                 winner=pair_re(*better.split("-")), loser=pair_re(*worse.split("-")))),
        _q("qubit pair", 3, "$ calibctl get --chip 64Qv3 --coupling 8-9 --field zx90_gate_time\n(output: some "
           "number of nanoseconds — which number?)",
           Truth(numbers=(Expect(gate, UNIT_TOL["ns"], near=(pair_re(8, 9),)),))),
        _q("qubit pair", 4, "Qual o valor atual da ZX90 gate fidelity no acoplamento Q100–Q101 do 144Qv2?",
           Truth(numbers=(Expect(zx, UNIT_TOL["%"], near=(pair_re(100, 101),), unit="%"),))),
    ]


# ---- spread ----------------------------------------------------------------------------------------------------------
def _spread(db) -> list[Question]:
    echo = list(latest(db, CHIP, "t2_echo").values())
    freq = [1000 * v for v in latest(db, OTHER, "qubit_frequency").values()]
    readout = list(latest(db, CHIP, "average_readout_fidelity").values())
    t1 = list(_ranged(latest(db, OTHER, "t1"), 8, 23).values())
    if len(t1) < 3:
        raise ValueError("too few T1 values in Q8 to Q23")

    def std(values: list[float], tol: float) -> Expect:
        return Expect(statistics.stdev(values), tol, alternatives=(statistics.pstdev(values),))

    return [
        _q("spread", 1, "q64['t2_echo'].std() — sample std of column T2 echo over 64Qv3's qubits (newest "
           "values, µs). What figure is that?", Truth(numbers=(std(echo, UNIT_TOL["us"]),))),
        _q("spread", 2, "144Qv2 上 qubit frequency 的最大值和最小值相差多少 MHz?",
           Truth(numbers=(Expect(max(freq) - min(freq), UNIT_TOL["MHz"]),))),
        _q("spread", 3, "Schedule B, item 3: the Contractor shall report the range — maximum minus minimum — "
           "across 64Qv3's qubits in averaged readout fidelity, expressed in percentage points.",
           Truth(numbers=(Expect(max(readout) - min(readout), UNIT_TOL["%"]),))),
        _q("spread", 4, "qubits eight through twenty-three of 144Qv2: what's the scatter in T1 among them? standard "
           "deviation in microsecs", Truth(numbers=(std(t1, UNIT_TOL["us"]),))),
    ]


# ---- missing thing ---------------------------------------------------------------------------------------------------
def _missing(db) -> list[Question]:
    if db["qubit"].count_documents({"chip_id": CHIP, "qid": "70"}):
        raise ValueError("Q70 exists")
    if "16Qv1" in db["chip"].distinct("chip_id"):
        raise ValueError("16Qv1 exists")
    if any(any(w in k.lower() for w in ("therm", "population", "temperature"))
           for r in db[HISTORY].find({"chip_id": CHIP}, {"output_parameters": 1}) for k in r["output_parameters"]):
        raise ValueError("a thermal population is measured")
    if [d for d in db["coupling"].find({"chip_id": OTHER}) if set(d["qid"].split("-")) == {"3", "90"}]:
        raise ValueError("3-90 exists")
    truth = Truth(any_words=NOT_THERE, no_values=True)
    return [
        _q("missing thing", 1, "64Qv3의 Q70 T2 echo 값은 몇 µs인가요?", truth),
        _q("missing thing", 2, "$ calibctl get --chip 16Qv1 --qubit 3 --field t1\nWhat would come back from this?",
           truth),
        _q("missing thing", 3, "Qual è la popolazione termica dello stato eccitato (thermal population) del Q9 su "
           "64Qv3? Mi serve per stimare la temperatura efficace.", truth),
        _q("missing thing", 4, "Hello support team, I've been hunting for ZX90 gate fidelity numbers on 144Qv2's Q3–Q90 "
           "coupler and can't locate them anywhere in the dashboard. Can you send me the value?", truth),
    ]


def build_heldout21(db, now: datetime) -> list[Question]:  # noqa: ARG001 - windows are written from the data
    """The forty questions, shape by shape (raises when the data leaves a question without a single answer)."""
    return (_missing(db) + _top(db) + _compound(db) + _correlation(db) + _cross(db) + _percentage(db)
            + _window(db) + _fails(db) + _pairs(db) + _spread(db))
