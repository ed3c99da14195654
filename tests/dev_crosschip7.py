"""Dev questions for three classes the router and the restate check must close, in wordings of my own:

1. a statistic across chips (mean, median, min, max, std) pooled over every qubit of the chips together, with each
   chip's own value beside it; or each chip's own, side by side;
2. a spread per chip (std, IQR, range) in the unit asked, never a median comparison;
3. two couplings compared as two couplings (written "0-1", "Q08–Q09", "pair 11-10"), never as their qubits; a pair
   that is no coupling on the chip is said not to exist.

Each question carries the router call its class needs.  Every truth is computed here from the raw demo documents by
hand-written pymongo reads (``latest_values``: newest completed, non-excluded result per id; NaN or 0 is no value)
and numpy/statistics written out here, never by the code under test.
"""

from __future__ import annotations

import statistics

from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values, tol

NO_SUCH = r"(?i)\bno such\b|does not exist|\bno coupling\b|not neighbours"
Call = tuple[str, dict]


def _values(db, chip: str, name: str, kind: str = "qubit", factor: float = 1.0) -> list[float]:
    return [v * factor for v in latest_values(db, chip, name, kind).values() if v is not None]


def _quartiles(values: list[float]) -> tuple[float, float]:
    """Q1 and Q3 with linear interpolation between order statistics (numpy's default), written out."""
    s = sorted(values)

    def at(p: float) -> float:
        k = (len(s) - 1) * p
        lo = int(k)
        return s[lo] + (s[min(lo + 1, len(s) - 1)] - s[lo]) * (k - lo)
    return at(0.25), at(0.75)


def stat(values: list[float], how: str) -> float:
    if how == "iqr":
        q1, q3 = _quartiles(values)
        return q3 - q1
    return {"mean": statistics.mean, "median": statistics.median, "min": min, "max": max,
            "std": statistics.stdev, "range": lambda v: max(v) - min(v)}[how](values)


def _pooled(db) -> list[tuple[Question, Call]]:
    rows = [("t1", "mean", "What is the mean T1 over all of our chips together?"),
            ("t1", "mean", "T1, averaged over both devices?"),
            ("t2_echo", "mean", "fleet-wide average T2 echo please"),
            ("average_readout_fidelity", "median", "overall median readout fidelity, every chip pooled"),
            ("x90_gate_fidelity", "median", "median X90 gate fidelity across both chips combined"),
            ("t1", "max", "what's the maximum T1 across all chips"),
            ("t2_echo", "std", "standard deviation of T2 echo over all chips pooled")]
    out = []
    for i, (name, how, text) in enumerate(rows):
        every = _values(db, CHIP, name) + _values(db, OTHER, name)
        own = [stat(_values(db, c, name), how) for c in (CHIP, OTHER)]
        numbers = ((stat(every, how), tol(name)), *((v, tol(name)) for v in own))
        out.append((Question(f"cc7-pool-{i + 1}", "across chips", text, Truth(numbers, any_words=("pooled", "together"))),
                    ("compare_chips", {"metric_name": name, "statistic": how, "pooled": True})))
    return out


def _each(db) -> list[tuple[Question, Call]]:
    rows = [("t1", "mean", "", "what's the mean T1 on each chip"),
            ("t2_echo", "median", "", "median T2 echo per device, side by side"),
            ("qubit_frequency", "std", "MHz", "by how much does the qubit frequency vary on every chip, in MHz?"),
            ("t1", "std", "", "Put the two chips' T1 spreads next to each other"),
            ("t2_echo", "iqr", "", "which chip's T2 echo is more uniform? I want the IQR of each"),
            ("average_readout_fidelity", "range", "", "range of readout fidelity chip by chip"),
            ("qubit_frequency", "std", "MHz", "Is qubit frequency spread wider on 64Q or 144Q, in MHz?")]
    out = []
    for i, (name, how, unit, text) in enumerate(rows):
        factor = 1000.0 if unit == "MHz" else 1.0
        a, b = (stat(_values(db, c, name, factor=factor), how) for c in (CHIP, OTHER))
        close = 0.051 if unit == "MHz" else tol(name)
        high, low = (CHIP, OTHER) if a > b else (OTHER, CHIP)
        spread = how in ("std", "iqr", "range")  # a spread's "winner" is the chip with the larger one (written first)
        args = {"metric_name": name, "statistic": how, **({"unit": unit} if unit else {})}
        if "64Q" in text:
            args["chip_ids"] = [CHIP, OTHER]
        out.append((Question(f"cc7-each-{i + 1}", "spread per chip" if spread else "each chip", text,
                             Truth(((a, close), (b, close)), winner=high, loser=low)),
                    ("compare_chips", args)))
    return out


def _couplings(db) -> list[tuple[Question, Call]]:
    """Couplings stored "control-target" (both qubits neighbours on the chip); the question may write either end
    first.  Gate time is stored in ns (raw), fidelity as a fraction shown in %."""
    rows = [("zx90_gate_fidelity", ("0-1", "4-1"), "Between the 0-1 and 4-1 couplings, which has the higher ZX90 "
                                                   "gate fidelity?"),
            ("zx90_gate_fidelity", ("11-10", "12-13"), "ZX90 fidelity: pair 11-10 against pair 12-13"),
            ("zx90_gate_fidelity", ("8-9", "8-10"), "Q08–Q09 vs Q08–Q10, which one has better CZ fidelity?"),
            ("zx90_gate_fidelity", ("4-5", "4-6"), "of couplings 4-5 and 4-6, which is better?"),
            ("zx90_gate_fidelity", ("12-14", "15-14"), "two-qubit gate fidelity, 12-14 compared with 15-14"),
            ("zx90_gate_time", ("0-1", "0-2"), "CZ duration of 0-1 versus 0-2")]
    out = []
    for i, (name, pair, text) in enumerate(rows):
        raw = latest_values(db, CHIP, name, "coupling")
        a, b = ((raw[p] or 0.0) / (100.0 if name == "zx90_gate_time" else 1.0) for p in pair)
        assert a and b and a != b, (name, pair)
        close = 0.51 if name == "zx90_gate_time" else tol(name)
        higher_better = name != "zx90_gate_time"
        win, lose = pair if (a > b) == higher_better else pair[::-1]

        def label(p: str) -> str:
            x, y = p.split("-")
            return rf"Q0*{int(x)}\s*(?:[-–→]|->)\s*Q0*{int(y)}(?!\d)"
        out.append((Question(f"cc7-pair-{i + 1}", "two couplings", text,
                             Truth(((a, close), (b, close)), winner=label(win), loser=label(lose))),
                    ("get_coupling_params", {"chip_id": CHIP, "coupling_ids": list(pair), "param_names": [name]})))
    for j, (pair, text) in enumerate([(("3-4", "0-1"), "coupling 3-4 or coupling 0-1: whose ZX90 fidelity is higher?"),
                                      (("0-1", "0-9"), "0-1 vs 0-9: which pair has the higher CZ fidelity")]):
        out.append((Question(f"cc7-nopair-{j + 1}", "two couplings", text, Truth(patterns=(NO_SUCH,), no_values=True)),
                    ("check_target", {"chip_id": CHIP, "coupling_id": pair[0] if j == 0 else pair[1]})))
    return out


def cases(db) -> list[tuple[Question, Call]]:
    """Each question with the call its class needs."""
    return [*_pooled(db), *_each(db), *_couplings(db)]


def build(db) -> list[Question]:
    return [q for q, _ in cases(db)]
