"""Dev questions about one coupling whose metric is named loosely, whose pair is written in either order, or that
also asks a comparison: a duration word of the two-qubit (cross-resonance) gate ("CR pulse length", "how long is the
two-qubit gate", "ZX90 duration") is its gate time, never its fidelity; a pair written "Q10-Q11", "11→10", "10_11"
or "between qubits 10 and 11" is the one coupling the data stores; "is it below 300 ns" is answered with the side of
the limit; "which of its two qubits has the longer T1" with both qubits' values; a CZ word is the
lab's name for its two-qubit gate, the ZX90 rows.

Each question carries the router call it needs (tool and every argument), for ``tests/test_router_pairs13.py``.
Every truth is a pymongo read written here over the raw demo documents: a coupling's value is ``data.<metric>.value``
of the ``coupling`` document that holds it (the demo stores one direction of each pair with data, the other empty);
a qubit's is ``data.<metric>.value`` of its ``qubit`` document.  Gate times are in ns as stored, fidelities in %
(x100).  By hand: a value below a "below" limit answers yes, above it no; the side the answer must write is the side
the value is on.
"""

from __future__ import annotations

from tests.dev_pairs9 import coupling_label, coupling_value, qubit_label, qubit_value
from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question

Call = tuple[str, dict]
TOL = {"zx90_gate_time": 0.051, "t1": 0.051, "t2_echo": 0.051}  # else a % value: 0.0051

# (metric, template): {a} and {b} are the coupling's two qubits in the order the data stores them; a template that
# writes {b} first writes the pair reversed.  {pair} marks a pair the router reads as written: "{a}-{b}" or "{b}-{a}".
TIME_WORDINGS: tuple[tuple[str, str], ...] = (
    ("zx90_gate_time", "What is the cross-resonance pulse length of Q{b}-Q{a}?"),
    ("zx90_gate_time", "CR duration for coupling {a}-{b}?"),
    ("zx90_gate_time", "ZX90 time on the {b}-{a} coupling"),
    ("zx90_gate_time", "two-qubit gate length between Q{b} and Q{a}"),
    ("zx90_gate_time", "How long is the CR pulse for qubits {a} and {b}?"),
    ("zx90_gate_time", "How long does the two-qubit gate take on {b}_{a}?"),
    ("zx90_gate_time", "cross resonance gate duration of pair {a}/{b}"),
    ("zx90_gate_time", "What's the entangling gate time of Q{b}–Q{a}?"),
    ("zx90_gate_time", "2Q gate duration for the coupler between qubit {b} and qubit {a}"),
    ("zx90_gate_time", "CNOT length on coupler {a}-{b}"),
    # written after the fix, to attack it
    ("zx90_gate_time", "cross-resonance gate time, pair {b}→{a}"),
    ("zx90_gate_time", "How long are the CR pulses on link Q{b}Q{a}?"),
    ("zx90_gate_time", "zx90 pulse width for {b}-{a}"),
    ("zx90_gate_time", "What is the 2q gate duration of coupling {a}_{b}?"),
)

# Other coupling metrics written loosely, either order.
METRIC_WORDINGS: tuple[tuple[str, str], ...] = (
    ("zx90_gate_fidelity", "What is the cross-resonance gate fidelity of Q{b}-Q{a}?"),
    ("bell_state_fidelity", "Bell fid of the coupler {b}/{a}"),
    ("zx90_gate_fidelity", "CR gate fidelity, coupling {b}→{a}"),
    # written after the fix, to attack it
    ("zx90_gate_fidelity", "entangling gate fidelity for the {b}_{a} pair"),
    ("bell_state_fidelity", "What's the Bell-state fid between qubits {b} and {a}?"),
)

# (metric, side, offset, template): the limit is the value plus ``offset`` (display units), so the verdict is known.
LIMIT_WORDINGS: tuple[tuple[str, str, float, str], ...] = (
    ("zx90_gate_time", "below", -13, "What is the CR pulse duration of Q{a}–Q{b} and is it below {limit} ns?"),
    ("zx90_gate_time", "below", 12, "Is the CR gate of Q{b}-Q{a} shorter than {limit} ns?"),
    ("zx90_gate_fidelity", "above", -1.3, "Is the ZX90 fidelity of coupling {b}-{a} above {limit}%?"),
    ("bell_state_fidelity", "above", 0.7, "Does pair {a}/{b} have a Bell state fidelity over {limit}%?"),
    ("zx90_gate_time", "above", -20, "Is the two-qubit gate on {b}-{a} longer than {limit} ns?"),
    # written after the fix, to attack it
    ("zx90_gate_time", "below", 15, "Q{b}→Q{a}: is its cross resonance gate duration under {limit} ns?"),
    ("zx90_gate_fidelity", "above", 0.4, "Is the two-qubit gate fidelity of {b}_{a} greater than {limit}%?"),
    ("zx90_gate_time", "below", -11, "Is the 2q gate on coupling {a}-{b} under {ns} us?"),
)

# (qubit metric, template): a coupling named, its two qubits compared.
END_WORDINGS: tuple[tuple[str, str], ...] = (
    ("t1", "For coupling {b}-{a}, which qubit has the higher T1?"),
    ("t2_echo", "On the {a}-{b} coupler, which of its two qubits has the longer T2 echo?"),
    # written after the fix, to attack it
    ("t1", "Coupling Q{b}-Q{a}: which end has the better T1?"),
    ("x90_gate_fidelity", "pair {b}/{a} — which of the two qubits has the better X90 fidelity?"),
)

CZ_WORDINGS: tuple[tuple[str, str], ...] = (  # the lab's "CZ" is its two-qubit gate: QDash's ZX90 rows
    ("zx90_gate_fidelity", "What is the CZ fidelity of Q{a}-Q{b}?"),
    ("zx90_gate_time", "CZ gate time of coupling {b}-{a}"),
    ("zx90_gate_time", "How long is the controlled-Z gate on pair {a}/{b}?"),
)


def _usable(raw: object) -> bool:
    return isinstance(raw, (int, float)) and raw == raw and raw != 0


def stored_pairs(db, chip: str, name: str) -> list[tuple[int, int]]:
    """``(control, target)`` of every coupling document holding a usable ``name``, as the data stores it."""
    out = []
    for doc in db["coupling"].find({"chip_id": chip}):
        if _usable(((doc.get("data") or {}).get(name) or {}).get("value")):
            a, b = (int(n) for n in doc["qid"].split("-"))
            out.append((a, b))
    return sorted(out)


def _written(template: str, a: int, b: int) -> str:
    """The pair as the question writes it ("{b}-{a}" reversed), the order the router keeps."""
    return f"{b}-{a}" if template.index("{b}") < template.index("{a}") else f"{a}-{b}"


def _tol(name: str) -> float:
    return TOL.get(name, 0.0051)


def _chip(i: int) -> str:
    return OTHER if i % 4 == 3 else CHIP


def _text(text: str, chip: str) -> str:
    return text + (f" On {chip}." if chip != CHIP else "")


def _pick(db, chip: str, name: str, i: int, offset: int = 0) -> tuple[int, int]:
    """The coupling of the i-th question: spread over the chip's couplings, both ends under 64 on the big chip too,
    and never a pair whose two qubits are the same number written twice."""
    pairs = [(a, b) for a, b in stored_pairs(db, chip, name) if a != b and max(a, b) < 64]
    return pairs[(7 * i + 3 + offset) % len(pairs)]


def _values(db) -> list[tuple[Question, Call]]:
    out = []
    for i, (name, text) in enumerate(TIME_WORDINGS + METRIC_WORDINGS):
        chip = _chip(i)
        a, b = _pick(db, chip, name, i)
        value = coupling_value(db, chip, a, b, name)
        assert value is not None
        truth = Truth((Expect(value, _tol(name), near=(coupling_label(a, b),)),))
        args = {"chip_id": chip, "coupling_id": _written(text, a, b), "param_names": [name]}
        kind = "time" if i < len(TIME_WORDINGS) else "metric"
        out.append((Question(f"p13-{kind}-{i + 1}", "lookup", _text(text.format(a=a, b=b), chip), truth),
                    ("get_coupling_params", args)))
    return out


_SIDE_WORDS = {"below": r"(below|under|less than|shorter than|lower than)",
               "above": r"(above|over|more than|greater than|longer than|higher than|exceed\w*)"}


def _limits(db) -> list[tuple[Question, Call]]:
    out = []
    for i, (name, side, offset, text) in enumerate(LIMIT_WORDINGS):
        chip = _chip(i)
        a, b = _pick(db, chip, name, i, 1)
        value = coupling_value(db, chip, a, b, name)
        assert value is not None
        limit = round(value + offset, 1)
        assert limit != value
        on = "below" if value < limit else "above"  # the side of the limit the value is on, by hand
        written = f"{limit:g}"
        truth = Truth((Expect(value, _tol(name), near=(coupling_label(a, b),)),),
                      patterns=(rf"(?i)\b{_SIDE_WORDS[on]}\s+(the\s+)?{written}\b",))
        args = {"chip_id": chip, "coupling_id": _written(text, a, b), "param_names": [name], side: limit}
        said = text.format(a=a, b=b, limit=written, ns=f"{limit / 1000:g}")
        out.append((Question(f"p13-limit-{i + 1}", "lookup", _text(said, chip), truth),
                    ("get_coupling_params", args)))
    return out


HIGHER_BETTER = frozenset({"t1", "t2_echo", "x90_gate_fidelity"})  # by hand


def _ends(db) -> list[tuple[Question, Call]]:
    out = []
    for i, (name, text) in enumerate(END_WORDINGS):
        chip = CHIP
        pairs = [(a, b) for a, b in stored_pairs(db, chip, "zx90_gate_fidelity")
                 if None not in (qubit_value(db, chip, a, name), qubit_value(db, chip, b, name))
                 and qubit_value(db, chip, a, name) != qubit_value(db, chip, b, name)]
        a, b = pairs[(5 * i + 2) % len(pairs)]
        va, vb = qubit_value(db, chip, a, name), qubit_value(db, chip, b, name)
        assert va is not None and vb is not None
        high, low = (a, b) if va > vb else (b, a)
        truth = Truth((Expect(va, _tol(name), near=(qubit_label(a),)), Expect(vb, _tol(name), near=(qubit_label(b),))),
                      winner=qubit_label(high), loser=qubit_label(low))  # better = higher for every metric here
        first, second = _written(text, a, b).split("-")
        args = {"chip_id": chip, "qids": [first, second], "param_names": [name]}
        out.append((Question(f"p13-ends-{i + 1}", "qubit pair", text.format(a=a, b=b), truth),
                    ("compare_qubits", args)))
    return out


def _cz(db) -> list[tuple[Question, Call]]:
    out = []
    for i, (name, text) in enumerate(CZ_WORDINGS):
        a, b = _pick(db, CHIP, name, i, 2)
        value = coupling_value(db, CHIP, a, b, name)
        assert value is not None
        truth = Truth((Expect(value, _tol(name), near=(coupling_label(a, b),)),))
        args = {"chip_id": CHIP, "coupling_id": _written(text, a, b), "param_names": [name]}
        out.append((Question(f"p13-cz-{i + 1}", "lookup", text.format(a=a, b=b), truth), ("get_coupling_params", args)))
    return out


def planned(db) -> list[tuple[Question, Call]]:
    """Every dev question with the call the router makes for it."""
    return _values(db) + _limits(db) + _ends(db) + _cz(db)
