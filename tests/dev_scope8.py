"""Dev questions for one class: the answer's scope or statistic must be the one asked, in wordings of my own.

1. Across chips ("s8-chip"): "on both chips", "chip by chip", "compare the two devices", "which device is better for
   X", "pooled over all chips": each chip's own value side by side, or one value over every chip's qubits together.
2. Shares ("s8-share"): percent / fraction / proportion / share / "how many out of": of qubits or couplings past a
   limit on each chip or pooled over the chips (a share, never a median), and on one chip among the qubits with a
   value or of every qubit on the chip, and the failed share of task results in a window.
3. Spreads ("s8-spread"): std, IQR, range, CV and "how consistent", "variability", "scatter", "how uniform", "how
   variable", in the unit asked, on one chip or on each chip: a spread, never an extreme value or a filter.

Each question carries the router call its class needs, written here by hand.  Every truth is computed from the raw
demo documents by hand-written pymongo reads (``latest_values``: newest completed, non-excluded result per id; NaN
or 0 is no value) and arithmetic written out here, never by the code under test.
"""

from __future__ import annotations

import statistics

from tests.dev_corrpct7 import PCT_TOL, failed_results, on_chip, present
from tests.dev_crosschip7 import stat
from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question, tol

Call = tuple[str, dict]
CHIPS = (CHIP, OTHER)


def _vals(db, chip: str, name: str, factor: float = 1.0, kind: str = "qubit") -> list[float]:
    return [v * factor for v in present(db, chip, name, kind).values()]


def spread(values: list[float], how: str) -> float:
    """std (n-1), IQR (linear quartiles), range, or CV = std / |mean| in %."""
    if how == "cv":
        return 100.0 * statistics.stdev(values) / abs(statistics.mean(values))
    return stat(values, how)


def _cross(db) -> list[tuple[Question, Call]]:
    # (metric, statistic, pooled, question)
    rows = [("t1", "median", False, "which chip is better for T1?"),
            ("average_readout_fidelity", "median", False, "compare the two devices on readout fidelity"),
            ("t2_echo", "median", False, "T2 echo on both chips, please"),
            ("x90_gate_fidelity", "median", False, "x90 gate fidelity chip by chip"),
            ("t1", "mean", False, "Which device has the higher average T1?"),
            ("t2_echo", "median", True, "pooled over all chips, what's the median T2 echo?"),
            ("t1", "max", True, "longest T1 we have anywhere, all chips together"),
            ("average_readout_fidelity", "mean", True, "mean readout fidelity with every chip pooled")]
    out = []
    for i, (name, how, pooled, text) in enumerate(rows):
        own = {c: stat(_vals(db, c, name), how) for c in CHIPS}
        numbers = [(own[c], tol(name)) for c in CHIPS]
        high, low = sorted(CHIPS, key=lambda c: -own[c])
        truth = Truth(tuple(numbers), winner=high, loser=low)
        if pooled:
            every = _vals(db, CHIP, name) + _vals(db, OTHER, name)
            truth = Truth(((stat(every, how), tol(name)), *numbers), any_words=("pooled", "together"))
        args = {"metric_name": name, "statistic": how, **({"pooled": True} if pooled else {})}
        out.append((Question(f"s8-chip-{i + 1}", "across chips", text, truth), ("compare_chips", args)))
    return out


def _passing(db, chip: str, name: str, side: str, limit: float, kind: str = "qubit") -> tuple[int, int, int]:
    """(past the limit, with a value, all on the chip)."""
    vals = present(db, chip, name, kind).values()
    hit = sum(1 for v in vals if (v > limit if side == "above" else v < limit))
    return hit, len(vals), on_chip(db, chip, kind)


def _pct(hit: int, of: int) -> float:
    return 100.0 * hit / of


def _chip_shares(db) -> list[tuple[Question, Call]]:
    # (metric, side, limit, pooled, kind, question)
    rows = [("t1", "above", 50.0, False, "qubit", "what fraction of qubits have T1 above 50 us on both chips?"),
            ("t2_echo", "below", 30.0, False, "qubit", "percentage of qubits with T2 echo below 30 us, chip by chip"),
            ("average_readout_fidelity", "above", 95.0, False, "qubit",
             "which chip has the larger share of qubits with readout fidelity over 95%?"),
            ("t1", "above", 40.0, True, "qubit", "across all chips combined, what percent of qubits have T1 over 40 us?"),
            ("x90_gate_fidelity", "above", 99.0, True, "qubit",
             "proportion of qubits above 99% X90 fidelity, every chip pooled"),
            ("t1", "below", 30.0, False, "qubit", "how many qubits on each chip have a T1 below 30 us?")]
    out = []
    for i, (name, side, limit, pooled, kind, text) in enumerate(rows):
        parts = {c: _passing(db, c, name, side, limit, kind) for c in CHIPS}
        numbers: list = []
        for c in CHIPS:
            hit, with_value, total = parts[c]
            numbers.append((hit, 0))
            if "how many" not in text:
                numbers.append(Expect(_pct(hit, with_value), PCT_TOL, unit="%", alternatives=(_pct(hit, total),)))
        if pooled:
            hit, with_value, total = (sum(p[k] for p in parts.values()) for k in range(3))
            numbers = [Expect(_pct(hit, with_value), PCT_TOL, unit="%", alternatives=(_pct(hit, total),)), (hit, 0)]
        share = {c: _pct(parts[c][0], parts[c][1]) for c in CHIPS}
        high, low = sorted(CHIPS, key=lambda c: -share[c])
        truth = Truth(tuple(numbers), winner=None if pooled or "how many" in text else high,
                      loser=None if pooled or "how many" in text else low)
        args = {"metric_name": name, side: limit, **({"pooled": True} if pooled else {})}
        out.append((Question(f"s8-share-{i + 1}", "share across chips", text, truth), ("compare_chips", args)))
    return out


def _one_chip_shares(db) -> list[tuple[Question, Call]]:
    # (metric, side, limit, kind, denominator "value"/"chip", question)
    rows = [("t1", "below", 30.0, "qubit", "value", "among qubits with a T1 value, what fraction have T1 below 30 us?"),
            ("t2_echo", "above", 40.0, "qubit", "chip", "of all qubits on the chip, what proportion have T2 echo above "
                                                        "40 us?"),
            ("zx90_gate_fidelity", "below", 98.0, "coupling", "value",
             "what share of the couplings that have a ZX90 fidelity value sit below 98%?"),
            ("average_readout_fidelity", "below", 90.0, "qubit", "chip",
             "how many out of all 64 qubits have readout fidelity under 90%, in percent?"),
            ("bell_state_fidelity", "above", 90.0, "coupling", "chip",
             "out of every coupling on the chip, what percentage has Bell state fidelity above 90%?")]
    out = []
    for i, (name, side, limit, kind, denominator, text) in enumerate(rows):
        hit, with_value, total = _passing(db, CHIP, name, side, limit, kind)
        pct = _pct(hit, with_value if denominator == "value" else total)
        truth = Truth((Expect(pct, PCT_TOL, unit="%"), (hit, 0)))
        out.append((Question(f"s8-share-{7 + i}", "share on one chip", text, truth),
                    ("filter_metric", {"chip_id": CHIP, "metric_name": name, side: limit})))
    failed, done = failed_results(db, CHIP, 7)
    out.append((Question("s8-share-12", "failed share", "what proportion of task results failed over the past 7 days?",
                         Truth((Expect(_pct(failed, done), PCT_TOL, unit="%"), (failed, 0), (done, 0)))),
                ("count_in_window", {"chip_id": CHIP, "what": "failed tasks", "days": 7})))
    return out


def _spreads(db) -> list[tuple[Question, Call]]:
    # (metric, statistic, unit, per chip, question)
    rows = [("t1", "std", "", False, "how consistent is T1 across the qubits?"),
            ("t2_echo", "std", "", False, "how much scatter is there in T2 echo?"),
            ("qubit_frequency", "std", "MHz", False, "how uniform is the qubit frequency, in MHz?"),
            ("t1", "std", "", False, "T1 variability on the chip"),
            ("average_readout_fidelity", "iqr", "", False, "interquartile range of readout fidelity"),
            ("t2_echo", "cv", "", False, "coefficient of variation of T2 echo"),
            ("qubit_frequency", "range", "MHz", False, "how wide is the range of qubit frequencies in MHz?"),
            ("x90_gate_fidelity", "std", "", True, "how variable is X90 gate fidelity chip by chip"),
            ("average_readout_fidelity", "std", "", True, "which device has more uniform readout fidelity?"),
            ("t1", "cv", "", True, "what is the coefficient of variation of T1 on each chip"),
            ("qubit_frequency", "std", "kHz", True, "how consistent is the qubit frequency on both chips, in kHz?")]
    out = []
    for i, (name, how, unit, per_chip, text) in enumerate(rows):
        factor = {"MHz": 1000.0, "kHz": 1e6}.get(unit, 1.0)
        close = {"MHz": 0.051, "kHz": 51.0}.get(unit, 0.051 if how == "cv" else tol(name))
        u = {"unit": unit} if unit else {}
        if per_chip:
            a, b = (spread(_vals(db, c, name, factor), how) for c in CHIPS)
            high, low = (CHIP, OTHER) if a > b else (OTHER, CHIP)
            truth = Truth(((a, close), (b, close)), winner=high, loser=low)
            call: Call = ("compare_chips", {"metric_name": name, "statistic": how, **u})
        else:
            truth = Truth(((spread(_vals(db, CHIP, name, factor), how), close),))
            call = ("metric_spread", {"chip_id": CHIP, "metric_name": name, "lead": how, **u})
        out.append((Question(f"s8-spread-{i + 1}", "spread", text, truth), call))
    return out


def cases(db) -> list[tuple[Question, Call]]:
    """Each question with the call its class needs."""
    return [*_cross(db), *_chip_shares(db), *_one_chip_shares(db), *_spreads(db)]


def build(db) -> list[Question]:
    return [q for q, _ in cases(db)]
