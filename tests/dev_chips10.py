"""Dev questions for two classes, in wordings of my own, on both demo chips:

A. a figure asked of every installed chip ("on each device", "chip by chip", "which chip has fewer ..."): the share
   of qubits past a limit, the count of such qubits, failed runs or tasks in a window, a statistic other than the
   median (mean, max, min, std, range): one figure per chip, the chip the question asks for first;
B. a chip named by what it is ("the bigger chip", "the 144-qubit device", "the other chip", "the newer
   processor"): the installed chip meant (size = its number of qubits, newer = installed later), never the chip in
   view (64Qv3 on the page).

``BEFORE`` questions were written before the fix, ``AFTER`` ones after it, to attack it.  Every truth is a
hand-written pymongo read of the raw demo documents (``chip``, ``execution_history``, ``task_result_history``;
``public_eval.latest_values``: the newest usable value per qubit) and arithmetic written out here.  Each question
carries the call its class needs: the router's call, on the chip meant for a described chip.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from tests.dev_crosschip7 import stat
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values, tol

CHIPS = (CHIP, OTHER)
Call = tuple[str, dict]
SHARE_TOL = 0.051  # a share is written with one decimal


def values(db, chip: str, name: str) -> list[float]:
    return [v for v in latest_values(db, chip, name).values() if v is not None]


def past(db, chip: str, name: str, side: str, limit: float) -> tuple[int, int]:
    """(qubits whose newest value is past ``limit``, qubits with a value); a value at the limit would be ambiguous."""
    got = values(db, chip, name)
    assert limit not in got, (chip, name, limit)
    return sum(1 for v in got if (v < limit if side == "below" else v > limit)), len(got)


def chip_doc(db, chip: str) -> dict:
    return db["chip"].find_one({"chip_id": chip})


def bigger(db) -> str:
    """The installed chip with the most qubits, from the chip documents' ``size``."""
    sizes = {c: int(chip_doc(db, c)["size"]) for c in CHIPS}
    assert len(set(sizes.values())) == 2
    return max(sizes, key=lambda c: sizes[c])


def newer(db) -> str:
    """The installed chip installed last, from the chip documents' ``installed_at``."""
    when = {c: chip_doc(db, c)["installed_at"] for c in CHIPS}
    assert when[CHIP] != when[OTHER]
    return max(when, key=lambda c: when[c])


def last_day(db) -> date:
    """The day of the newest run of either chip: the day a window over both chips ends on."""
    doc = next(db["execution_history"].find({"chip_id": {"$in": list(CHIPS)}, "status": {"$ne": "scheduled"}})
               .sort([("start_at", -1)]).limit(1))
    return doc["start_at"].date()


def failed(db, chip: str, what: str, day: date) -> int:
    """Failed runs (executions) or failed task results on ``chip`` from 00:00 UTC of ``day`` on."""
    since = {"$gte": datetime(day.year, day.month, day.day)}
    collection = "execution_history" if what == "failed runs" else "task_result_history"
    return db[collection].count_documents({"chip_id": chip, "status": "failed", "start_at": since})


# question id -> the chip a "which chip" question asks for, which the answer must name first
FIRST: dict[str, str] = {}


def _sided(qid: str, figures: dict[str, float], tolerance: float, low_end: bool = False) -> Truth:
    """Both figures stated, the comparison the right way round (the scorer's ``winner`` is the higher side); the
    chip asked for (the higher, or the lower when ``low_end``) kept in :data:`FIRST`."""
    assert figures[CHIP] != figures[OTHER], figures
    high, low = sorted(figures, key=lambda c: -figures[c])
    FIRST[f"ch10-{qid}"] = low if low_end else high
    return Truth(tuple((figures[c], tolerance) for c in CHIPS), winner=high, loser=low)


def _shares(db) -> list[tuple[str, str, str, str, float, bool]]:
    """(id, wording, metric, side, limit, a count asked): share or count of qubits past a limit, per chip."""
    return [
        ("share-1", "What share of qubits have T1 above 50 us on each chip?", "t1", "above", 50.0, False),
        ("share-2", "For both chips, what fraction of qubits have T2 echo under 50 us?", "t2_echo", "below", 50.0, False),
        ("share-3", "What percentage of qubits have T1 over 60 us on each device?", "t1", "above", 60.0, False),
        ("share-4", "percent of qubits with T1 over 50us, broken down by chip", "t1", "above", 50.0, False),
        ("share-5", "What fraction of qubits on each of our chips has readout fidelity above 95%?",
         "average_readout_fidelity", "above", 95.0, False),
        ("count-1", "Per chip, how many qubits have T1 above 100 us?", "t1", "above", 100.0, True),
        ("count-2", "How many qubits on each chip have T2 echo below 40 us?", "t2_echo", "below", 40.0, True),
        ("count-3", "count of qubits with T2 echo above 80 us on both devices", "t2_echo", "above", 80.0, True),
        ("count-4", "Which chip has more qubits with T1 below 40 us?", "t1", "below", 40.0, True),
    ]


def _share_cases(db, rows) -> list[tuple[Question, Call]]:
    out = []
    for qid, text, name, side, limit, counted in rows:
        parts = {c: past(db, c, name, side, limit) for c in CHIPS}
        pct = {c: 100.0 * hit / n for c, (hit, n) in parts.items()}
        if counted and "which" in text.lower():
            truth = _sided(qid, {c: float(parts[c][0]) for c in CHIPS}, 0, low_end="fewer" in text.lower())
            same_order = (pct[CHIP] > pct[OTHER]) == (parts[CHIP][0] > parts[OTHER][0])
            # the tool also ranks the shares: a comparison is held only where shares and counts agree (the chip
            # asked for first is held either way, FIRST)
            truth = truth if same_order else Truth(truth.numbers)
        elif counted:
            truth = Truth(tuple((float(parts[c][0]), 0) for c in CHIPS))
        else:
            truth = Truth(tuple((pct[c], SHARE_TOL) for c in CHIPS))
        out.append((Question(f"ch10-{qid}", "per chip", text, truth),
                    ("compare_chips", {"metric_name": name, side: limit})))
    return out


def _fail_cases(db, rows) -> list[tuple[Question, Call]]:
    """(id, wording with {day}, what, days back from the newest run's day, the low end asked)."""
    out = []
    end = last_day(db)
    for qid, text, what, back, low in rows:
        day = end - timedelta(days=back)
        figures = {c: float(failed(db, c, what, day)) for c in CHIPS}
        said = text.format(day=f"{day:%B} {day.day}", iso=day.isoformat())
        truth = _sided(qid, figures, 0, low_end=low) if "which" in said.lower() else Truth(tuple((figures[c], 0)
                                                                                          for c in CHIPS))
        out.append((Question(f"ch10-{qid}", "per chip", said, truth),
                    ("count_in_window", {"what": what, "chip_ids": sorted(CHIPS, key=str.lower)})))
    return out


def _stat_cases(db, rows) -> list[tuple[Question, Call]]:
    """(id, wording, metric, statistic, the low end asked)."""
    out = []
    for qid, text, name, how, low in rows:
        figures = {c: stat(values(db, c, name), how) for c in CHIPS}
        truth = _sided(qid, figures, tol(name), low_end=low) if "which" in text.lower() else \
            Truth(tuple((figures[c], tol(name)) for c in CHIPS))
        out.append((Question(f"ch10-{qid}", "per chip", text, truth),
                    ("compare_chips", {"metric_name": name, "statistic": how})))
    return out


def _described_cases(db, rows) -> list[tuple[Question, Call]]:
    """(id, wording, which chip it describes: "bigger", "smaller", "newer", "older", "other", metric, statistic)."""
    big, new = bigger(db), newer(db)
    meant = {"bigger": big, "smaller": next(c for c in CHIPS if c != big), "newer": new,
             "older": next(c for c in CHIPS if c != new), "other": OTHER}  # the page views 64Qv3
    out = []
    for qid, text, kind, name, how in rows:
        chip = meant[kind]
        figure = stat(values(db, chip, name), how)
        out.append((Question(f"ch10-{qid}", "described chip", text, Truth(((figure, tol(name)),),
                                                                        patterns=(chip,))),
                    ("get_chip_summary", {"chip_id": chip, "param_names": [name]})))
    return out


def before(db) -> list[tuple[Question, Call]]:
    """Written before the fix."""
    return [
        *_share_cases(db, _shares(db)),
        *_fail_cases(db, [
            ("fail-1", "How many runs failed on each chip since {day}?", "failed runs", 12, False),
            ("fail-2", "Which chip had fewer failed tasks since {iso}?", "failed tasks", 13, True),
            ("fail-3", "failed task results per device since {day}", "failed tasks", 6, False),
        ]),
        *_stat_cases(db, [
            ("stat-1", "What's the max T1 on each device?", "t1", "max", False),
            ("stat-2", "mean T2 echo for both chips", "t2_echo", "mean", False),
            ("stat-3", "standard deviation of T1 chip by chip", "t1", "std", False),
            ("stat-4", "compare the chips on minimum T1", "t1", "min", False),
            ("stat-5", "Which device has the lower average X90 gate fidelity?", "x90_gate_fidelity", "mean", True),
            ("stat-6", "for each installed chip, give the maximum T2 echo", "t2_echo", "max", False),
        ]),
        *_described_cases(db, [
            ("desc-1", "median T1 on the bigger chip", "bigger", "t1", "median"),
            ("desc-2", "What's the median T2 echo on the 144-qubit device?", "bigger", "t2_echo", "median"),
            ("desc-3", "median readout fidelity on the chip that isn't in view", "other",
             "average_readout_fidelity", "median"),
            ("desc-4", "median T1 of the newer chip", "newer", "t1", "median"),
            ("desc-5", "What is the median T2 echo of the other chip?", "other", "t2_echo", "median"),
            ("desc-6", "median T1 on the larger processor", "bigger", "t1", "median"),
        ]),
    ]


def after(db) -> list[tuple[Question, Call]]:
    """Written after the fix, to attack it: other nouns, the low end asked, other statistics, other descriptions."""
    return [
        *_share_cases(db, [
            ("after-share-1", "what proportion of qubits reach T1 above 70 us, processor by processor?", "t1", "above",
             70.0, False),
            ("after-count-1", "Which of our chips has fewer qubits with T2 echo under 45 us?", "t2_echo", "below",
             45.0, True),
        ]),
        *_fail_cases(db, [
            ("after-fail-1", "Which of the two devices had fewer failed runs since {day}?", "failed runs", 20, True),
            ("after-fail-2", "Across the two chips, how many task results failed since {iso}?", "failed tasks", 4,
             False),
        ]),
        *_stat_cases(db, [
            ("after-stat-1", "the range of readout fidelity on each of the chips", "average_readout_fidelity",
             "range", False),
            ("after-stat-2", "Which processor has the smaller standard deviation of T2 echo?", "t2_echo", "std",
             True),
            ("after-stat-3", "mean qubit frequency per processor", "qubit_frequency", "mean", False),
        ]),
        *_described_cases(db, [
            ("after-desc-1", "What is the median T1 of the smaller one of our chips?", "smaller", "t1", "median"),
            ("after-desc-2", "median T2 echo on the older device", "older", "t2_echo", "median"),
            ("after-desc-3", "give me the median X90 gate fidelity of the chip I'm not looking at",
             "other", "x90_gate_fidelity", "median"),
            ("after-desc-4", "median T1 of our biggest processor", "bigger", "t1", "median"),
        ]),
    ]


def cases(db) -> list[tuple[Question, Call]]:
    return [*before(db), *after(db)]


def build(db) -> list[Question]:
    return [q for q, _ in cases(db)]
