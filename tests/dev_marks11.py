"""Dev questions for "no wrong answer shown without a visible note" when two subjects are set side by side: two
qubits, two couplings (sharing a qubit or not, named with any marks), two chips.  Each question carries the call a
small model makes and the WRONG answer it writes in its own words: the loser named as the winner with its own value
only (a number the tools did return, so a value-only check keeps it), a call of one side only, a comparison word
said with both values but of the wrong side, a chip's share called its count, two couplings' latest values read as
their means over a window.

Truths are hand-written pymongo reads over the raw demo documents: a qubit's (or coupling's, either direction)
value is ``data.<metric>.value`` of its document (fractions shown in %, times as stored); a chip's median is the
median of its qubits' usable latest values; a chip's share below a limit is the qubits below it over the qubits
with a usable value.  The better side is written here by hand (every metric here is better higher).
Wordings are my own; those after ATTACK were written after the fix, to break it.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from tests.dev_pairs9 import coupling_label, coupling_value, neighbours, qubit_label, qubit_value
from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER

TITLE = {"t1": "T1", "t2_echo": "T2 echo", "x90_gate_fidelity": "X90 gate fidelity",
         "average_readout_fidelity": "readout fidelity", "zx90_gate_fidelity": "ZX90 gate fidelity",
         "bell_state_fidelity": "Bell state fidelity"}
UNIT = {"t1": "μs", "t2_echo": "μs"}  # else %
TOL = {"μs": 0.051, "%": 0.0051}


def unit(name: str) -> str:
    return UNIT.get(name, "%")


def written(name: str, value: float) -> str:
    """A value as a small model writes it: a time to 0.1 μs, a fidelity to 0.01 %."""
    return f"{value:.1f} μs" if unit(name) == "μs" else f"{value:.2f}%"


@dataclass(frozen=True)
class Case:
    id: str
    text: str
    call: tuple[str, dict]  # the model's own call
    body: str  # the wrong answer the model writes in its own words
    truth: Truth | None  # what the person must read instead (None: a visible note is what is owed)


def _two(db, chip: str, start: int, name: str) -> tuple[int, float, int, float]:
    """Two qubits from ``start`` on with values of ``name`` that differ: (better, its value, worse, its value)."""
    found = [(q, v) for q in range(start, start + 40) if (v := qubit_value(db, chip, q, name)) is not None]
    (a, va) = found[0]
    (b, vb) = next((q, v) for q, v in found[2:] if abs(v - va) > 2 * TOL[unit(name)])
    return (a, va, b, vb) if va > vb else (b, vb, a, va)


# (metric, chip, start, how, template): {a} and {b} the two qubits as the question names them.
QUBITS: tuple[tuple[str, str, int, str, str], ...] = (
    ("t1", CHIP, 3, "one-call", "Which has the longer T1, Q{a} or Q{b}?"),
    ("t2_echo", CHIP, 11, "one-side", "Q{a} vs Q{b}: whose T2 echo is higher?"),
    ("x90_gate_fidelity", CHIP, 20, "swap", "Is qubit {a} better than qubit {b} on X90 gate fidelity?"),
    ("average_readout_fidelity", OTHER, 40, "one-call", "Which reads out better, Q{a} or Q{b}? On 144Qv2."),
    ("t1", OTHER, 60, "ahead", "Q{a} or Q{b}, whose T1 is ahead? On 144Qv2."),
    ("t2_echo", CHIP, 30, "swap", "Compare T2 echo of qubits {a} and {b}: which one wins?"),
    ("x90_gate_fidelity", OTHER, 70, "one-side", "Does Q{a} beat Q{b} in X90 fidelity? On 144Qv2."),
    ("t1", CHIP, 45, "one-side", "Which of Q{a} and Q{b} has the better T1?"),
    # ATTACK: written after the fix
    ("t1", CHIP, 50, "edges", "Between Q{a} and Q{b}, which one edges out the other on T1?"),
    ("average_readout_fidelity", CHIP, 7, "one-call", "Is Q{a}'s readout fidelity above Q{b}'s?"),
    ("t2_echo", OTHER, 90, "behind", "Q{a} vs Q{b} on T2 echo — which is behind? On 144Qv2."),
    ("x90_gate_fidelity", CHIP, 36, "ahead", "qubit {a} or qubit {b}: who leads on X90 gate fidelity"),
    ("t2_echo", CHIP, 55, "one-call", "Q{a} against Q{b}: who has the stronger T2 echo?"),
)


def _qubit_body(how: str, name: str, chip: str, good: tuple[int, float], bad: tuple[int, float]
                ) -> tuple[tuple[str, dict], str]:
    """The model's call and its wrong words: the worse qubit said to be ahead."""
    (g, vg), (b, vb) = good, bad
    title, pair = TITLE[name], {"chip_id": chip, "qids": sorted([str(g), str(b)], key=int), "param_names": [name]}
    if how == "one-call":
        return ("get_qubit_params", {"chip_id": chip, "qid": str(b)}), f"Q{b} has the higher {title} at {written(name, vb)}."
    if how == "one-side":
        return ("compare_qubits", pair), f"Q{b} comes out higher: its {title} is {written(name, vb)}."
    if how == "swap":
        return ("compare_qubits", pair), (f"Q{b} is better, {written(name, vb)} against {written(name, vg)} for "
                                          f"Q{g}.")
    if how == "behind":
        return ("compare_qubits", pair), f"Q{g} is behind on {title}, at {written(name, vg)}."
    word = {"ahead": "is ahead", "edges": "edges ahead"}[how]
    return ("compare_qubits", pair), f"Q{b} {word} with {written(name, vb)}."


def _qubits(db, rows) -> list[Case]:
    out = []
    for i, (name, chip, start, how, text) in enumerate(rows):
        g, vg, b, vb = _two(db, chip, start, name)
        a, c = sorted((g, b))
        call, body = _qubit_body(how, name, chip, (g, vg), (b, vb))
        tol = TOL[unit(name)]
        truth = Truth((Expect(vg, tol, near=(qubit_label(g),)), Expect(vb, tol, near=(qubit_label(b),))),
                      winner=qubit_label(g), loser=qubit_label(b))
        out.append(Case(f"m11-qubit-{i + 1}", text.format(a=a, b=c), call, body, truth))
    return out


def _coupling(db, chip: str, x: int, name: str, k: int = 0) -> tuple[int, int, float]:
    y = neighbours(db, chip, x, name)[k]
    value = coupling_value(db, chip, x, y, name)
    assert value is not None
    return x, y, value


# (metric, chip, first shared end, second (None: the first's next neighbour), how, template):
# {a}-{b} and {c}-{d} the two couplings as the question names them.
COUPLINGS: tuple[tuple[str, str, int, int | None, str, str], ...] = (
    ("zx90_gate_fidelity", CHIP, 10, 20, "one-call", "Q{a}-Q{b} vs Q{c}-Q{d}: which coupling has the better ZX90 "
                                                     "fidelity?"),
    ("zx90_gate_fidelity", CHIP, 12, 25, "bare", "Is coupling {a}-{b} better than coupling {c}-{d} in CZ fidelity?"),
    ("bell_state_fidelity", CHIP, 14, None, "one-side", "pair {a}-{b} or pair {c}-{d}, which has the higher Bell "
                                                         "state fidelity?"),
    ("bell_state_fidelity", OTHER, 50, 70, "one-call", "Which link is stronger on Bell fidelity, {a}-{b} or {c}-{d}? "
                                                        "On 144Qv2."),
    ("zx90_gate_fidelity", OTHER, 60, None, "swap", "Q{a}-Q{b} or Q{c}-Q{d}: which has the higher ZX90 gate fidelity? "
                                                   "On 144Qv2."),
    ("zx90_gate_fidelity", CHIP, 30, 40, "one-side", "coupler ({a},{b}) against coupler ({c},{d}) on ZX90 fidelity — "
                                                    "which is ahead?"),
    # ATTACK: written after the fix
    ("bell_state_fidelity", CHIP, 22, 33, "bare", "Does the {a}/{b} link beat the {c}/{d} link on Bell state "
                                                  "fidelity?"),
    ("zx90_gate_fidelity", CHIP, 44, None, "one-call", "{a} to {b} or {c} to {d}, which coupling leads on ZX90 "
                                                       "fidelity?"),
    ("bell_state_fidelity", OTHER, 80, 95, "swap", "Bell fidelity, Q{a}Q{b} versus Q{c}Q{d}: which one wins? On "
                                                   "144Qv2."),
)


def _couplings(db, rows) -> list[Case]:
    out = []
    for i, (name, chip, x, u, how, text) in enumerate(rows):
        one = _coupling(db, chip, x, name)
        other = _coupling(db, chip, u, name) if u is not None else _coupling(db, chip, x, name, 1)
        (gx, gy, gv), (bx, by, bv) = sorted((one, other), key=lambda t: -t[2])
        assert abs(gv - bv) > 0.0001, (one, other)
        ids = [f"{one[0]}-{one[1]}", f"{other[0]}-{other[1]}"]
        title = TITLE[name]
        if how == "one-call":
            call = ("get_coupling_params", {"chip_id": chip, "coupling_id": f"{bx}-{by}", "param_names": [name]})
            body = f"Q{bx}-Q{by} has the better {title} at {written(name, bv)}."
        else:
            call = ("get_coupling_params", {"chip_id": chip, "coupling_ids": ids, "param_names": [name]})
            body = {"bare": f"Yes, the {title} of {bx}-{by} is {written(name, bv)}, which is higher.",
                    "one-side": f"Pair {bx}-{by} is higher, at {written(name, bv)}.",
                    "swap": f"Q{bx}-Q{by} wins with {written(name, bv)} over Q{gx}-Q{gy} at {written(name, gv)}."}[how]
        truth = Truth((Expect(gv, 0.0051, near=(coupling_label(gx, gy),)),
                       Expect(bv, 0.0051, near=(coupling_label(bx, by),))),
                      winner=coupling_label(gx, gy), loser=coupling_label(bx, by))
        out.append(Case(f"m11-coupling-{i + 1}", text.format(a=one[0], b=one[1], c=other[0], d=other[1]), call, body,
                        truth))
    return out


def _latest(db, chip: str, name: str) -> list[float]:
    out = []
    for doc in db["qubit"].find({"chip_id": chip}):
        raw = ((doc.get("data") or {}).get(name) or {}).get("value")
        if isinstance(raw, (int, float)) and raw == raw and raw != 0:
            out.append(raw * (1.0 if unit(name) == "μs" else 100.0))
    return out


def _chips(db) -> list[Case]:
    """Two chips' medians, and two chips' shares below a limit, each with the worse chip said to be ahead."""
    out = []
    for i, (name, text, how) in enumerate((
            ("t1", "Which chip has the higher median T1, 64Qv3 or 144Qv2?", "one-chip"),
            ("t2_echo", "64Qv3 vs 144Qv2: whose median T2 echo is ahead?", "one-side"),
            ("average_readout_fidelity", "Is 144Qv2 better than 64Qv3 on median readout fidelity?", "one-chip"),
            ("x90_gate_fidelity", "Which chip leads on median X90 gate fidelity, 144Qv2 or 64Qv3?", "one-side"))):
        med = {c: statistics.median(_latest(db, c, name)) for c in (CHIP, OTHER)}
        good, bad = sorted(med, key=lambda c: -med[c])
        if how == "one-chip":
            call = ("get_chip_summary", {"chip_id": bad})
        else:
            call = ("compare_chips", {"metric_name": name, "statistic": "median", "chip_ids": [CHIP, OTHER]})
        body = f"{bad} has the higher median {TITLE[name]}, {written(name, med[bad])}."
        truth = Truth((Expect(med[good], TOL[unit(name)], near=(good,)), Expect(med[bad], TOL[unit(name)], near=(bad,))),
                      winner=good, loser=bad)
        out.append(Case(f"m11-chip-{i + 1}", text, call, body, truth))
    for i, (name, limit, text) in enumerate((
            ("t1", 50, "Which chip has more qubits with T1 below 50 us, 64Qv3 or 144Qv2?"),
            ("t2_echo", 40, "Does 64Qv3 or 144Qv2 have a bigger share of qubits with T2 echo under 40 us?"),
            # ATTACK: written after the fix
            ("t1", 60, "64Qv3 against 144Qv2: which one has more of its qubits under 60 us of T1?"))):
        share = {}
        for c in (CHIP, OTHER):
            values = _latest(db, c, name)
            share[c] = 100.0 * sum(1 for v in values if v < limit) / len(values)
        good, bad = sorted(share, key=lambda c: -share[c])
        call = ("compare_chips", {"metric_name": name, "below": limit, "chip_ids": [CHIP, OTHER]})
        body = f"{bad} is larger here, {share[bad]:.1f}% of its qubits."
        truth = Truth((Expect(share[good], 0.051, near=(good,)), Expect(share[bad], 0.051, near=(bad,))),
                      winner=good, loser=bad)
        out.append(Case(f"m11-share-{i + 1}", text, call, body, truth))
    return out


def _histories(db) -> list[Case]:
    """Two couplings compared on a statistic of their histories, answered from their latest values: no tool
    computes a coupling's history statistic, so a note is owed, never an unmarked comparison."""
    out = []
    for i, (name, x, u, text) in enumerate((
            ("zx90_gate_fidelity", 10, 20, "Which coupling had the higher mean ZX90 gate fidelity over the last 7 "
                                           "days, Q{a}-Q{b} or Q{c}-Q{d}?"),
            ("bell_state_fidelity", 14, 30, "Over the past 14 days, whose median Bell state fidelity was higher, "
                                            "{a}-{b} or {c}-{d}?"),
            # ATTACK: written after the fix
            ("zx90_gate_fidelity", 12, 25, "Which of the couplings {a}-{b} and {c}-{d} varied more in ZX90 fidelity "
                                           "over the last two weeks?"))):
        one, other = _coupling(db, CHIP, x, name), _coupling(db, CHIP, u, name)
        bad = min((one, other), key=lambda t: t[2])
        call = ("get_coupling_params", {"chip_id": CHIP, "coupling_ids": [f"{one[0]}-{one[1]}", f"{other[0]}-{other[1]}"],
                                        "param_names": [name]})
        body = f"Q{bad[0]}-Q{bad[1]} was higher, {written(name, bad[2])}."
        out.append(Case(f"m11-history-{i + 1}", text.format(a=one[0], b=one[1], c=other[0], d=other[1]), call, body,
                        None))
    return out


def cases(db) -> list[Case]:
    """Every dev question of the set, with the model's call and its wrong words."""
    return _qubits(db, QUBITS) + _couplings(db, COUPLINGS) + _chips(db) + _histories(db)
