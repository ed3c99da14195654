"""Dev questions for two shapes in many registers: how two metrics go together (a correlation), and a share.

Correlations: "is X related to Y", "do qubits with higher X have worse Y", Pearson, Spearman, both, "negative
relationship", "anticorrelated", "depends on", "predict", coupling metrics, another chip named, a window.  Shares:
percent / fraction / proportion / share / "%" / "out of all", of qubits and couplings, over the qubits with a value or
over every one on the chip, the failed share of runs or task results in a window of days, and the excluded share
of task results.

Truths are hand-written pymongo reads (``public_eval.latest_values``: newest completed, non-excluded result, NaN and
QDash's 0 as no value); Pearson r by numpy, Spearman rho as Pearson's r of average ranks written here; a window is
whole UTC days ending with the day of the chip's newest run.  Nothing here calls the tools.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import numpy as np

from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values

R_TOL = 0.0051
PCT_TOL = 0.051
Test = Callable[[float], bool]


def present(db, chip: str, name: str, kind: str = "qubit") -> dict[str, float]:
    return {q: v for q, v in latest_values(db, chip, name, kind).items() if v is not None}


def _ranks(values: list[float]) -> list[float]:
    """Average ranks (ties share the mean of their places), 1-based."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def coefficients(db, chip: str, a: str, b: str, kind: str = "qubit") -> tuple[float, float, int]:
    """Pearson r, Spearman rho and the number of subjects with both values."""
    va, vb = present(db, chip, a, kind), present(db, chip, b, kind)
    both = sorted(set(va) & set(vb))
    xs, ys = [va[q] for q in both], [vb[q] for q in both]
    pearson = float(np.corrcoef(xs, ys)[0, 1])
    spearman = float(np.corrcoef(_ranks(xs), _ranks(ys))[0, 1])
    return pearson, spearman, len(both)


def band(r: float) -> str:
    size = abs(r)
    return "strong" if size >= 0.7 else "moderate" if size >= 0.4 else "weak" if size >= 0.1 else "no clear"


# id: (question, metric a, metric b, kind, chip, method)
CORRELATIONS: dict[str, tuple[str, str, str, str, str, str]] = {
    "cpr-1": ("is T1 related to frequency?", "t1", "qubit_frequency", "qubit", CHIP, "pearson"),
    "cpr-2": ("do qubits with higher anharmonicity have worse readout?", "anharmonicity",
              "average_readout_fidelity", "qubit", CHIP, "pearson"),
    "cpr-3": ("correlation between T2 echo and T1 on 144Qv2", "t2_echo", "t1", "qubit", OTHER, "pearson"),
    "cpr-4": ("does X90 gate fidelity track T1?", "x90_gate_fidelity", "t1", "qubit", CHIP, "pearson"),
    "cpr-5": ("Spearman correlation of T1 and T2 echo", "t1", "t2_echo", "qubit", CHIP, "spearman"),
    "cpr-6": ("What's the Spearman rank correlation between readout fidelity and T1?", "average_readout_fidelity",
              "t1", "qubit", CHIP, "spearman"),
    "cpr-7": ("Pearson and Spearman coefficients for T1 against qubit frequency", "t1", "qubit_frequency", "qubit",
              CHIP, "both"),
    "cpr-8": ("is there a negative relationship between qubit frequency and T1?", "qubit_frequency", "t1", "qubit",
              CHIP, "pearson"),
    "cpr-9": ("Is there a negative correlation between anharmonicity and readout fidelity on 144Qv2?",
              "anharmonicity", "average_readout_fidelity", "qubit", OTHER, "pearson"),
    "cpr-10": ("across the couplings, is ZX90 gate fidelity correlated with Bell state fidelity?",
               "zx90_gate_fidelity", "bell_state_fidelity", "coupling", CHIP, "pearson"),
    "cpr-11": ("how strongly does CZ fidelity correlate with bell state fidelity?", "zx90_gate_fidelity",
               "bell_state_fidelity", "coupling", CHIP, "pearson"),
    "cpr-12": ("Over the last 7 days, is T1 correlated with T2 echo?", "t1", "t2_echo", "qubit", CHIP, "pearson"),
    "cpr-13": ("do T1 and readout fidelity move together?", "t1", "average_readout_fidelity", "qubit", CHIP,
               "pearson"),
    "cpr-14": ("I'd like to know whether T2 echo depends on qubit frequency.", "t2_echo", "qubit_frequency", "qubit",
               CHIP, "pearson"),
    "cpr-15": ("t1 ~ freq correlation coefficient?", "t1", "qubit_frequency", "qubit", CHIP, "pearson"),
    "cpr-16": ("How well does T2 echo predict X90 fidelity?", "t2_echo", "x90_gate_fidelity", "qubit", CHIP,
               "pearson"),
    "cpr-17": ("does readout fidelity go down when T1 gets shorter?", "average_readout_fidelity", "t1", "qubit",
               CHIP, "pearson"),
    "cpr-18": ("is there any relationship between T2 echo and readout fidelity on the 144-qubit chip?", "t2_echo",
               "average_readout_fidelity", "qubit", OTHER, "pearson"),
    "cpr-19": ("r between t1 and t2 echo?", "t1", "t2_echo", "qubit", CHIP, "pearson"),
    "cpr-20": ("compute the rank correlation of x90 fidelity with readout fidelity", "x90_gate_fidelity",
               "average_readout_fidelity", "qubit", CHIP, "spearman"),
    "cpr-21": ("do couplings with higher ZX90 fidelity have higher Bell fidelity too?", "zx90_gate_fidelity",
               "bell_state_fidelity", "coupling", CHIP, "pearson"),
    "cpr-22": ("is T1 anticorrelated with qubit frequency?", "t1", "qubit_frequency", "qubit", CHIP, "pearson"),
    "cpr-23": ("in the last 14 days, does T2 echo scale with T1 on 144Qv2?", "t2_echo", "t1", "qubit", OTHER,
               "pearson"),
}


def _correlation(db, qid: str) -> Question:
    text, a, b, kind, chip, method = CORRELATIONS[qid]
    pearson, spearman, n = coefficients(db, chip, a, b, kind)
    said = {"pearson": (pearson,), "spearman": (spearman,), "both": (pearson, spearman)}[method]
    numbers = tuple(Expect(r, R_TOL, signed=True) for r in said) + ((n, 0),)
    return Question(qid, "corrpct7 correlation", text, Truth(numbers, any_words=(band(said[0]),)))


# id: (question, metric, test, kind, chip, denominator: "value" (those with a value), "chip" (all on the chip),
# "either" (the question names neither))
SHARES: dict[str, tuple[str, str, Test, str, str, str]] = {
    "cpp-1": ("what share of qubits have T1 above 50 μs", "t1", lambda v: v > 50, "qubit", CHIP, "either"),
    "cpp-2": ("percent of couplings under 99% CZ fidelity", "zx90_gate_fidelity", lambda v: v < 99, "coupling", CHIP,
              "either"),
    "cpp-3": ("% of qubits with readout fidelity ≥ 95%", "average_readout_fidelity", lambda v: v >= 95, "qubit", CHIP,
              "either"),
    "cpp-4": ("what percentage of qubits with a T1 value have T1 below 30 us?", "t1", lambda v: v < 30, "qubit", CHIP,
              "value"),
    "cpp-5": ("out of all 64 qubits, what percent have T2 echo above 40 us?", "t2_echo", lambda v: v > 40, "qubit",
              CHIP, "chip"),
    "cpp-6": ("What fraction of the qubits has an X90 gate fidelity of at least 99.5%?", "x90_gate_fidelity",
              lambda v: v >= 99.5, "qubit", CHIP, "either"),
    "cpp-7": ("percentage of couplings with Bell state fidelity below 90%", "bell_state_fidelity", lambda v: v < 90,
              "coupling", CHIP, "either"),
    "cpp-8": ("on 144Qv2, what share of qubits have T1 over 60 microseconds?", "t1", lambda v: v > 60, "qubit", OTHER,
              "either"),
    "cpp-9": ("what proportion of qubits have a T1 shorter than 20 us?", "t1", lambda v: v < 20, "qubit", CHIP,
              "either"),
    "cpp-10": ("how many qubits out of all have readout fidelity under 90%, as a percentage?",
               "average_readout_fidelity", lambda v: v < 90, "qubit", CHIP, "chip"),
    "cpp-11": ("share of qubits with poor T2 echo", "t2_echo", lambda v: v < 30, "qubit", CHIP, "either"),
    "cpp-12": ("what percentage of the chip's qubits have T1 between 30 and 60 us?", "t1", lambda v: 30 < v < 60,
               "qubit", CHIP, "chip"),
    "cpp-13": ("what fraction of couplings have ZX90 fidelity above 98 percent?", "zx90_gate_fidelity",
               lambda v: v > 98, "coupling", CHIP, "either"),
    "cpp-14": ("in percent, how many qubits exceed 99% x90 fidelity?", "x90_gate_fidelity", lambda v: v > 99, "qubit",
               CHIP, "either"),
    "cpp-15": ("Among qubits that have a readout fidelity, what percent are above 92%?", "average_readout_fidelity",
               lambda v: v > 92, "qubit", CHIP, "value"),
    "cpp-16": ("t2 echo longer than 60us: what proportion of every qubit on the chip?", "t2_echo", lambda v: v > 60,
               "qubit", CHIP, "chip"),
    "cpp-17": ("What percentage of the couplings on the whole chip have a Bell state fidelity above 95%?",
               "bell_state_fidelity", lambda v: v > 95, "coupling", CHIP, "chip"),
}


def on_chip(db, chip: str, kind: str) -> int:
    """Every qubit (the chip's size) or coupling (unordered pairs of the coupling documents) on the chip."""
    if kind == "qubit":
        return int(db["chip"].find_one({"chip_id": chip})["size"])
    return len({tuple(sorted(c["qid"].split("-"))) for c in db["coupling"].find({"chip_id": chip})})


def share_parts(db, qid: str) -> tuple[int, int, int]:
    """Matching subjects, those with a value, all on the chip."""
    _, name, test, kind, chip, _ = SHARES[qid]
    vals = present(db, chip, name, kind)
    return sum(1 for v in vals.values() if test(v)), len(vals), on_chip(db, chip, kind)


def _share(db, qid: str) -> Question:
    text, _, _, _, _, denominator = SHARES[qid]
    hit, with_value, total = share_parts(db, qid)
    of_value, of_chip = 100.0 * hit / with_value, 100.0 * hit / total
    if denominator == "value":
        pct = Expect(of_value, PCT_TOL, unit="%")
    elif denominator == "chip":
        pct = Expect(of_chip, PCT_TOL, unit="%")
    else:
        pct = Expect(of_value, PCT_TOL, unit="%", alternatives=(of_chip,))
    return Question(qid, "corrpct7 percentage", text, Truth((pct, (hit, 0))))


def _both_share(db) -> Question:
    t1, t2 = present(db, CHIP, "t1"), present(db, CHIP, "t2_echo")
    both = set(t1) & set(t2)
    hit = sum(1 for q in both if t1[q] > 40 and t2[q] > 30)
    pct = Expect(100.0 * hit / len(both), PCT_TOL, unit="%", alternatives=(100.0 * hit / on_chip(db, CHIP, "qubit"),))
    return Question("cpp-18", "corrpct7 percentage", "what % of qubits have both T1 above 40 us and T2 echo above "
                    "30 us?", Truth((pct, (hit, 0))))


def day_window(db, chip: str, days: int, back: int = 0) -> tuple[datetime, datetime]:
    """``days`` whole UTC days ending ``back`` days before the day of the chip's newest run: [first 00:00, end)."""
    newest = max(d["start_at"] for d in db["execution_history"].find({"chip_id": chip}))
    end = datetime(newest.year, newest.month, newest.day) + timedelta(days=1 - back)
    return end - timedelta(days=days), end


def failed_runs(db, chip: str, days: int, back: int = 0) -> tuple[int, int]:
    since, until = day_window(db, chip, days, back)
    runs = [d for d in db["execution_history"].find({"chip_id": chip})
            if since <= d["start_at"] < until and d["status"] != "scheduled"]
    return sum(1 for d in runs if d["status"] == "failed"), len(runs)


def failed_results(db, chip: str, days: int, task: str | None = None) -> tuple[int, int]:
    since, until = day_window(db, chip, days)
    done = [d for d in db["task_result_history"].find({"chip_id": chip, "status": {"$in": ["completed", "failed"]}})
            if since <= d["start_at"] < until and (task is None or d["name"] == task)]
    return sum(1 for d in done if d["status"] == "failed"), len(done)


def excluded_results(db, chip: str, days: int | None) -> tuple[int, int]:
    """Finished task results marked excluded, and all finished ones, in the last ``days`` (None: every stored run)."""
    since, until = day_window(db, chip, days) if days is not None else (datetime.min, datetime.max)
    done = [d for d in db["task_result_history"].find({"chip_id": chip, "status": {"$in": ["completed", "failed"]}})
            if since <= d["start_at"] < until]
    return sum(1 for d in done if d.get("excluded") is True), len(done)


def _failure_share(qid: str, text: str, parts: tuple[int, int]) -> Question:
    failed, total = parts
    pct = Expect(100.0 * failed / total if total else 0.0, PCT_TOL, unit="%")
    return Question(qid, "corrpct7 percentage", text, Truth((pct, (failed, 0), (total, 0))))


def build(db) -> list[Question]:
    """The dev questions of this file with their truths."""
    return ([_correlation(db, q) for q in CORRELATIONS] + [_share(db, q) for q in SHARES] + [_both_share(db)] + [
        _failure_share("cpp-19", "what fraction of today's runs failed", failed_runs(db, CHIP, 1)),
        _failure_share("cpp-20", "what percent of task results failed in the last 7 days?",
                       failed_results(db, CHIP, 7)),
        _failure_share("cpp-21", "what percentage of runs failed yesterday?", failed_runs(db, CHIP, 1, back=1)),
        _failure_share("cpp-22", "what share of CheckRamsey results failed over the past 10 days?",
                       failed_results(db, CHIP, 10, "CheckRamsey")),
        _failure_share("cpp-23", "how many percent of tasks were excluded", excluded_results(db, CHIP, None)),
        _failure_share("cpp-24", "what % of task results were excluded in the last week?",
                       excluded_results(db, CHIP, 7)),
    ])
