"""The third sealed held-out set: 40 questions (10 shapes × 4) in wordings written without reading the copilot's.

Every truth is a pymongo query on the raw demo documents written for this file; no product code is called.  The
latest value of a metric for a qubit or coupling is its newest completed, non-excluded result; QDash stores a NaN
fit as 0, so a newest result of 0 means "no value".  Display units: T1/T2 in μs, frequencies in GHz (MHz where
the question asks), fidelities in %.  Product code never reads this file (``tests/agent/test_sealed_eval.py``).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from datetime import datetime, timedelta

from tests.eval_score import Expect, Kind, Truth
from tests.public_eval import CHIP, OTHER, Question

SPLIT = "held-out-3"
_PERCENT = ("average_readout_fidelity", "x90_gate_fidelity", "zx90_gate_fidelity", "bell_state_fidelity")
_US_TOL = 0.06  # μs written to one decimal
_PCT_TOL = 0.0051  # a fidelity written to two decimals of a percent
_GHZ_TOL = 0.00006  # GHz written to four decimals
_SHARE_TOL = 0.51  # a share of qubits written as a whole percent
_R_TOL = 0.02  # a correlation coefficient written to two decimals


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(id=f"h3-{shape.replace(' ', '-')}-{i}", shape=shape, text=text, truth=truth, split=SPLIT)


def _shown(name: str, raw: float) -> float:
    """Raw stored value in the unit a person reads: fidelities ×100, everything else as stored."""
    return raw * 100.0 if name in _PERCENT else raw


def _tol(name: str) -> float:
    return _PCT_TOL if name in _PERCENT else _GHZ_TOL if name == "qubit_frequency" else _US_TOL


_LATEST: dict[tuple[int, str, str, str], dict[str, float]] = {}


def latest(db, chip: str, name: str, kind: str = "qubit") -> dict[str, float]:
    """{stored qid: display value} from each id's newest completed, non-excluded result that has ``name``;
    ids whose newest value is QDash's 0 (a NaN fit) are left out."""
    key = (id(db), chip, name, kind)
    if key not in _LATEST:
        _LATEST[key] = _latest(db, chip, name, kind)
    return dict(_LATEST[key])


def _latest(db, chip: str, name: str, kind: str) -> dict[str, float]:
    newest: dict[str, dict] = {}
    cursor = db["task_result_history"].find({"chip_id": chip, "task_type": kind, "status": "completed",
                                             "excluded": {"$ne": True},
                                             f"output_parameters.{name}": {"$exists": True}})
    for doc in cursor:
        if doc["qid"] not in newest or doc["start_at"] > newest[doc["qid"]]["start_at"]:
            newest[doc["qid"]] = doc
    out = {}
    for qid, doc in newest.items():
        raw = doc["output_parameters"][name]["value"]
        if isinstance(raw, (int, float)) and math.isfinite(raw) and raw != 0:
            out[qid] = _shown(name, float(raw))
    return out


def qubit_re(qid: str | int) -> str:
    """A qubit as an answer writes it: Q7, Q07 or Q007."""
    return rf"Q0*{int(qid)}(?!\d)"


def pair_re(cid: str) -> str:
    """A coupling ``"a-b"`` written either way round: Q05-Q06, Q06→Q05, 5-6, Q05 and Q06."""
    a, b = (int(x) for x in cid.split("-"))
    one = rf"(?<!\d)Q?0*{a}\D{{1,6}}Q?0*{b}(?!\d)"
    two = rf"(?<!\d)Q?0*{b}\D{{1,6}}Q?0*{a}(?!\d)"
    return f"(?:{one}|{two})"


def _name(qid: str | int, chip: str) -> str:
    width = 3 if chip == OTHER else 2
    return f"Q{int(qid):0{width}d}"


def _share(hits: int, total: int) -> float:
    return 100.0 * hits / total


def _both(*maps: dict[str, float]) -> list[str]:
    """Qubits that have a value in every map, in qid order."""
    return sorted(set.intersection(*(set(m) for m in maps)), key=int)


# ---- compound filter -------------------------------------------------------------------------------------
def compound(db) -> list[Question]:
    shape = "compound filter"
    t1, fid = latest(db, CHIP, "t1"), latest(db, CHIP, "average_readout_fidelity")
    # count of 64Qv3 qubits with latest T1 > 50 μs AND latest readout fidelity > 95 %
    n1 = sum(1 for q in _both(t1, fid) if t1[q] > 50 and fid[q] > 95)
    echo2, f2 = latest(db, OTHER, "t2_echo"), latest(db, OTHER, "qubit_frequency")
    # count of 144Qv2 qubits with latest T2 echo < 60 μs AND latest f01 > 5.1 GHz
    n2 = sum(1 for q in _both(echo2, f2) if echo2[q] < 60 and f2[q] > 5.1)
    star, x90 = latest(db, CHIP, "t2_star"), latest(db, CHIP, "x90_gate_fidelity")
    # count of 64Qv3 qubits with latest T2* < 20 μs OR latest X90 fidelity < 99.6 % (either value alone suffices)
    n3 = sum(1 for q in set(star) | set(x90) if star.get(q, math.inf) < 20 or x90.get(q, math.inf) < 99.6)
    echo = latest(db, CHIP, "t2_echo")
    # qubits 0..31 of 64Qv3 with latest T1 > 60 μs AND latest T2 echo > 80 μs: the count, and every one named
    picked = [q for q in _both(t1, echo) if int(q) < 32 and t1[q] > 60 and echo[q] > 80]
    return [
        _q(shape, 1, "how many qubits here have T1 over 50 us while readout fid is also above 95%?",
           Truth(numbers=((n1, 0),))),
        _q(shape, 2, f"On {OTHER}, count qubits with T2 echo < 60 μs yet f01 sitting above 5.1 GHz.",
           Truth(numbers=((n2, 0),))),
        _q(shape, 3, "Number of qubits failing either bar: T2* under 20 μs, or else X90 fidelity under 99.6%?",
           Truth(numbers=((n3, 0),))),
        _q(shape, 4, "Among Q00 through Q31 only, which ones clear both bars, T1 > 60 μs plus T2 echo > 80 μs?",
           Truth(numbers=((len(picked), 0),), patterns=tuple(qubit_re(q) for q in picked))),
    ]


# ---- percentage ------------------------------------------------------------------------------------------
def percentage(db) -> list[Question]:
    shape = "percentage"
    size_here = db["chip"].find_one({"chip_id": CHIP})["size"]
    size_other = db["chip"].find_one({"chip_id": OTHER})["size"]
    t1 = latest(db, CHIP, "t1")
    # share of 64Qv3 qubits with latest T1 < 40 μs, of qubits with a T1 value (or of all qubits of the chip)
    low = sum(1 for v in t1.values() if v < 40)
    zx = latest(db, OTHER, "zx90_gate_fidelity", "coupling")
    pairs = {frozenset(d["qid"].split("-")) for d in db["coupling"].find({"chip_id": OTHER})}
    # share of 144Qv2 couplings with latest ZX90 fidelity >= 98 %, of couplings with a value (or of every coupling
    # of the chip, each pair counted once though both directions are stored)
    good = sum(1 for v in zx.values() if v >= 98)
    fid = latest(db, CHIP, "average_readout_fidelity")
    # share of 64Qv3 qubits with latest readout fidelity >= 95 %, of measured qubits (or of all qubits)
    high = sum(1 for v in fid.values() if v >= 95)
    f01 = latest(db, OTHER, "qubit_frequency")
    # share of 144Qv2 qubits with latest qubit frequency in [4.8, 5.0] GHz, of measured qubits (or of all qubits)
    band = sum(1 for v in f01.values() if 4.8 <= v <= 5.0)

    def expect(hits: int, measured: int, total: int) -> Truth:
        return Truth(numbers=(Expect(_share(hits, measured), _SHARE_TOL, unit="%",
                                     alternatives=(_share(hits, total),)),))

    return [
        _q(shape, 1, "What fraction of this chip has a T1 shorter than 40 μs? Give it in percent.",
           expect(low, len(t1), size_here)),
        _q(shape, 2, f"{OTHER}: what percentage of couplings reach 98% or better 2Q gate fidelity (ZX90)?",
           expect(good, len(zx), len(pairs))),
        _q(shape, 3, "percent of qubits at or above 95% readout fid right now?",
           expect(high, len(fid), size_here)),
        _q(shape, 4, f"For {OTHER}, what slice of qubits sits with f01 between 4.8 and 5.0 GHz (as a %)?",
           expect(band, len(f01), size_other)),
    ]


# ---- top N -----------------------------------------------------------------------------------------------
def _ranked(values: dict[str, float], n: int, high: bool) -> list[str]:
    return sorted(values, key=lambda q: (-values[q] if high else values[q], int(q.split("-")[0])))[:n]


def top_n(db) -> list[Question]:
    shape = "top N"
    echo = latest(db, CHIP, "t2_echo")
    worst_echo = _ranked(echo, 3, high=False)  # the 3 lowest latest T2 echo values on 64Qv3
    fid = latest(db, OTHER, "average_readout_fidelity")
    best_fid = _ranked(fid, 5, high=True)  # the 5 highest latest readout fidelities on 144Qv2
    zx = latest(db, CHIP, "zx90_gate_fidelity", "coupling")
    weak = _ranked(zx, 4, high=False)  # the 4 couplings of 64Qv3 with the lowest latest ZX90 fidelity
    star = latest(db, OTHER, "t2_star")
    long_star = _ranked(star, 3, high=True)  # the 3 longest latest T2* on 144Qv2

    def each(values: dict[str, float], ids: list[str], name: str, pair: bool = False) -> Truth:
        return Truth(numbers=tuple(Expect(values[q], _tol(name), near=(pair_re(q) if pair else qubit_re(q),))
                                   for q in ids))

    return [
        _q(shape, 1, "Give me the 3 worst T2 echo qubits on this chip, with their values", each(echo, worst_echo,
                                                                                                "t2_echo")),
        _q(shape, 2, f"top five qubits by readout fidelity on {OTHER}?", each(fid, best_fid,
                                                                             "average_readout_fidelity")),
        _q(shape, 3, "List the four weakest couplings by 2Q gate fidelity, and what each one scores.",
           each(zx, weak, "zx90_gate_fidelity", pair=True)),
        _q(shape, 4, f"which 3 qubits have the longest T2* over on {OTHER}", each(star, long_star, "t2_star")),
    ]


# ---- cross-chip ------------------------------------------------------------------------------------------
def _versus(here: float, there: float, tol: float, kind: Kind = "value") -> Truth:
    """Both chips' figures, each bound to its chip, and the larger one named as larger."""
    winner, loser = (CHIP, OTHER) if here > there else (OTHER, CHIP)
    return Truth(numbers=(Expect(here, tol, kind, near=(CHIP,)), Expect(there, tol, kind, near=(OTHER,))),
                 winner=winner, loser=loser)


def cross_chip(db) -> list[Question]:
    shape = "cross-chip"
    # median of latest T1 over qubits with a value, per chip
    t1 = (statistics.median(latest(db, CHIP, "t1").values()), statistics.median(latest(db, OTHER, "t1").values()))
    # mean of latest readout fidelity over qubits with a value, per chip
    fid = (statistics.fmean(latest(db, CHIP, "average_readout_fidelity").values()),
           statistics.fmean(latest(db, OTHER, "average_readout_fidelity").values()))
    # median of latest ZX90 fidelity over couplings with a value, per chip
    zx = (statistics.median(latest(db, CHIP, "zx90_gate_fidelity", "coupling").values()),
          statistics.median(latest(db, OTHER, "zx90_gate_fidelity", "coupling").values()))
    # number of qubits with latest T2 echo > 100 μs, per chip
    long = (sum(1 for v in latest(db, CHIP, "t2_echo").values() if v > 100),
            sum(1 for v in latest(db, OTHER, "t2_echo").values() if v > 100))
    return [
        _q(shape, 1, f"Median T1, {CHIP} vs {OTHER} - which one comes out ahead?", _versus(*t1, _US_TOL)),
        _q(shape, 2, f"is the mean readout fid better on {OTHER} than here? numbers for both please",
           _versus(*fid, _PCT_TOL)),
        _q(shape, 3, f"{CHIP} against {OTHER} on median ZX90 fidelity - who wins?",
           _versus(*zx, _PCT_TOL)),
        _q(shape, 4, f"How many qubits exceed 100 μs T2 echo on {CHIP}, and how many on {OTHER}?",
           _versus(float(long[0]), float(long[1]), 0.0, "count")),
    ]


# ---- spread ----------------------------------------------------------------------------------------------
def _history(db, chip: str, qid: str, name: str, since: datetime) -> list[float]:
    """One qubit's usable completed, non-excluded values of ``name`` started at or after ``since``."""
    docs = db["task_result_history"].find({"chip_id": chip, "qid": qid, "task_type": "qubit",
                                           "status": "completed", "excluded": {"$ne": True},
                                           "start_at": {"$gte": since},
                                           f"output_parameters.{name}": {"$exists": True}})
    return [_shown(name, d["output_parameters"][name]["value"]) for d in docs
            if d["output_parameters"][name]["value"] not in (0, 0.0)]


def spread(db, now: datetime) -> list[Question]:
    shape = "spread"
    t1 = list(latest(db, CHIP, "t1").values())
    # standard deviation of latest T1 across 64Qv3 (sample; the population one also accepted)
    sd = Truth(numbers=(Expect(statistics.stdev(t1), _US_TOL, alternatives=(statistics.pstdev(t1),)),))
    f01 = list(latest(db, OTHER, "qubit_frequency").values())
    # max - min of latest qubit frequency on 144Qv2, in MHz
    width = Truth(numbers=(Expect((max(f01) - min(f01)) * 1000.0, 0.6),))
    fid = list(latest(db, OTHER, "average_readout_fidelity").values())
    # lowest and highest latest readout fidelity on 144Qv2, in %
    ends = Truth(numbers=(Expect(min(fid), _PCT_TOL, unit="%"), Expect(max(fid), _PCT_TOL, unit="%")))
    # one qubit's T1 over the past 7 days (64Qv3, Q21): sample standard deviation of its usable results
    week = _history(db, CHIP, "21", "t1", now - timedelta(days=7))
    jitter = Truth(numbers=(Expect(statistics.stdev(week), _US_TOL, alternatives=(statistics.pstdev(week),)),))
    return [
        _q(shape, 1, "T1 std dev across the chip I'm looking at?", sd),
        _q(shape, 2, f"How wide is the f01 distribution on {OTHER} - max minus min, in MHz?", width),
        _q(shape, 3, f"On {OTHER}, readout fid goes from what to what? lowest and highest please", ends),
        _q(shape, 4, "How much did Q21's T1 wander around over 7 days? Std dev please.", jitter),
    ]


# ---- correlation -----------------------------------------------------------------------------------------
def pearson(xs: list[float], ys: list[float]) -> float:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    return cov / math.sqrt(sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys))


def correlation(db) -> list[Question]:
    shape = "correlation"

    def r(chip: str, a: str, b: str) -> Truth:
        # Pearson r over the qubits having both latest values
        x, y = latest(db, chip, a), latest(db, chip, b)
        ids = _both(x, y)
        return Truth(numbers=(Expect(pearson([x[q] for q in ids], [y[q] for q in ids]), _R_TOL, signed=True),))

    return [
        _q(shape, 1, "Is T2 echo following T1 here, chip-wide? Pearson r please.", r(CHIP, "t1", "t2_echo")),
        _q(shape, 2, f"{OTHER}: is there any relationship between f01 and T1? a correlation number would help",
           r(OTHER, "qubit_frequency", "t1")),
        _q(shape, 3, "Correlate readout fid against X90 fidelity per qubit, what r do you get?",
           r(CHIP, "average_readout_fidelity", "x90_gate_fidelity")),
        _q(shape, 4, f"On {OTHER} how strongly is T2* linked to T2 echo (correlation)?", r(OTHER, "t2_star",
                                                                                            "t2_echo")),
    ]


# ---- missing thing ---------------------------------------------------------------------------------------
_ABSENT = ("no such", "does not exist", "doesn't exist", "not exist", "no qubit", "no chip", "no coupling",
           "not found", "not a valid", "isn't a", "is not a", "only has", "only", "out of range", "no data",
           "unknown", "not on", "not part of", "no record", "no result", "there is no", "not coupled",
           "not connected", "no direct")


def missing_thing(db) -> list[Question]:
    shape = "missing thing"
    # 64Qv3 has qubits 0..63: no qubit 71
    assert db["qubit"].count_documents({"chip_id": CHIP, "qid": "71"}) == 0
    # no chip 32Qv5 in the store
    assert db["chip"].count_documents({"chip_id": "32Qv5"}) == 0
    # 3 and 40 are not coupled on 64Qv3 (neither direction stored)
    assert db["coupling"].count_documents({"chip_id": CHIP, "qid": {"$in": ["3-40", "40-3"]}}) == 0
    # 144Qv2 has qubits 0..143: no qubit 150
    assert db["qubit"].count_documents({"chip_id": OTHER, "qid": "150"}) == 0
    absent = Truth(no_values=True, any_words=_ABSENT)
    return [
        _q(shape, 1, "T1 for Q71 here?", absent),
        _q(shape, 2, "Pull up the readout fidelities for chip 32Qv5.", absent),
        _q(shape, 3, "What 2Q gate fidelity does the Q03-Q40 coupler have on this device?", absent),
        _q(shape, 4, f"Qubit 150 on {OTHER}: latest T2 echo value?", absent),
    ]


# ---- window count ----------------------------------------------------------------------------------------
def window_count(db, now: datetime) -> list[Question]:
    shape = "window count"
    tasks, runs = db["task_result_history"], db["execution_history"]
    # failed task results on 64Qv3 started in the last 72 hours
    failed = tasks.count_documents({"chip_id": CHIP, "status": "failed", "start_at": {"$gte": now - timedelta(days=3)}})
    # calibration executions of 144Qv2 started in the last 14 days (any status; completed-only also accepted)
    fortnight = now - timedelta(days=14)
    every = runs.count_documents({"chip_id": OTHER, "start_at": {"$gte": fortnight}})
    done = runs.count_documents({"chip_id": OTHER, "status": "completed", "start_at": {"$gte": fortnight}})
    # excluded (outlier) results on 64Qv3 since 00:00 UTC of the weekday three days ago
    day = (now - timedelta(days=3)).replace(hour=0, minute=0, second=0, microsecond=0)
    excluded = tasks.count_documents({"chip_id": CHIP, "excluded": True, "start_at": {"$gte": day}})
    # one 144Qv2 qubit over the last 10 days: its usable T2 echo results (completed, not excluded, value not 0);
    # the qubit is the live one with the most unusable CheckT2Echo runs in that window (lowest id on a tie)
    ten = now - timedelta(days=10)
    bad = Counter(d["qid"] for d in tasks.find({"chip_id": OTHER, "name": "CheckT2Echo", "start_at": {"$gte": ten}})
                  if d["status"] != "completed" or d.get("excluded")
                  or d["output_parameters"].get("t2_echo", {}).get("value") in (0, 0.0))
    qid = min(bad, key=lambda q: (-bad[q], int(q)))
    usable = len(_history(db, OTHER, qid, "t2_echo", ten))
    return [
        _q(shape, 1, "Failed-task tally for this chip, last 3 days?", Truth(numbers=((failed, 0),))),
        _q(shape, 2, f"number of calibration runs on {OTHER} in the last fortnight?",
           Truth(numbers=(Expect(float(every), kind="count", alternatives=(float(done),)),))),
        _q(shape, 3, f"Since {day:%A}, how many results got excluded as outliers here?",
           Truth(numbers=((excluded, 0),))),
        _q(shape, 4, f"Across the last 10 days, how many good T2 echo results did {_name(qid, OTHER)} on {OTHER} get?",
           Truth(numbers=(Expect(float(usable), kind="count", near=(qubit_re(qid),)),))),
    ]


# ---- fails most ------------------------------------------------------------------------------------------
def _top(counts: Counter) -> tuple[str, int]:
    """The most frequent key and its count; a tie would make the question ambiguous, so it is refused."""
    (first, n), (_, second) = counts.most_common(2)
    assert n > second, "tie at the top"
    return first, n


def fails_most(db, now: datetime) -> list[Question]:
    shape = "fails most"
    tasks = db["task_result_history"]

    def failures(query: dict, key: str = "name") -> Counter:
        return Counter(d[key] for d in tasks.find({**query, "status": "failed"}))

    # task name with the most failed results on 64Qv3 in the last 7 days
    week, n_week = _top(failures({"chip_id": CHIP, "start_at": {"$gte": now - timedelta(days=7)}}))
    # task name with the most failed results on 144Qv2 over all stored history
    ever, n_ever = _top(failures({"chip_id": OTHER}))
    # among two-qubit (coupling) tasks, the one with the most failed results on 64Qv3 in the last 14 days
    pair, n_pair = _top(failures({"chip_id": CHIP, "task_type": "coupling",
                                  "start_at": {"$gte": now - timedelta(days=14)}}))
    # the execution of 144Qv2 with the most failed task results in the last 10 days
    run, n_run = _top(failures({"chip_id": OTHER, "start_at": {"$gte": now - timedelta(days=10)}}, "execution_id"))

    def named(name: str, n: int) -> Truth:
        return Truth(patterns=(name,), numbers=(Expect(float(n), kind="count", near=(name,)),))

    return [
        _q(shape, 1, "Which calibration task has been failing the most this past week on this chip?",
           named(week, n_week)),
        _q(shape, 2, f"what's the flakiest task on {OTHER} overall, and its failure tally",
           named(ever, n_ever)),
        _q(shape, 3, "Of the two-qubit experiments, which one broke most often within the last 14 days here?",
           named(pair, n_pair)),
        _q(shape, 4, f"Which run on {OTHER} saw the most task failures, looking back 10 days?",
           named(run, n_run)),
    ]


# ---- qubit pair ------------------------------------------------------------------------------------------
def qubit_pair(db) -> list[Question]:
    shape = "qubit pair"
    zx = latest(db, CHIP, "zx90_gate_fidelity", "coupling")
    bell = latest(db, OTHER, "bell_state_fidelity", "coupling")
    # 64Qv3 coupling 20-21: its latest ZX90 fidelity
    one = "20-21"
    # 144Qv2 coupling 4-5: its latest Bell state fidelity
    two = "4-5"
    t1 = latest(db, CHIP, "t1")
    # 64Qv3 coupling 27-41: the latest T1 of each end, the longer named as longer
    a, b = "27", "41"
    hi, lo = (a, b) if t1[a] > t1[b] else (b, a)
    zx_other = latest(db, OTHER, "zx90_gate_fidelity", "coupling")
    # couplings of 144Qv2 that touch qubit 50 (48-50, 51-50, 72-50): the one with the highest latest ZX90 fidelity
    touching = {c: v for c, v in zx_other.items() if "50" in c.split("-")}
    best = max(touching, key=lambda c: touching[c])
    return [
        _q(shape, 1, "2Q gate fidelity, Q20-Q21 pair?",
           Truth(numbers=(Expect(zx[one], _PCT_TOL, near=(pair_re(one),)),))),
        _q(shape, 2, f"Bell state fidelity for Q004 & Q005 on {OTHER}, latest measurement",
           Truth(numbers=(Expect(bell[two], _PCT_TOL, near=(pair_re(two),)),))),
        _q(shape, 3, "Q27 and Q41 are coupled - which end of that pair has the better T1, and what's the gap?",
           Truth(numbers=(Expect(t1[hi], _US_TOL, near=(qubit_re(hi),)), Expect(t1[lo], _US_TOL, near=(qubit_re(lo),))),
                 winner=qubit_re(hi), loser=qubit_re(lo))),
        _q(shape, 4, f"Q050 on {OTHER} has several neighbours; which of its couplings gives the top ZX90 fidelity?",
           Truth(numbers=(Expect(touching[best], _PCT_TOL, near=(pair_re(best),)),), patterns=(pair_re(best),))),
    ]


def build_heldout3(db, now: datetime) -> list[Question]:
    """The 40 questions with their truths on ``db`` as of ``now`` (naive UTC)."""
    now = now.replace(tzinfo=None)
    return (compound(db) + percentage(db) + top_n(db) + cross_chip(db) + spread(db, now) + correlation(db)
            + missing_thing(db) + window_count(db, now) + fails_most(db, now) + qubit_pair(db))
