"""Dev questions that compare two subjects on a figure derived from their values, not on the latest values alone:
the gap between two qubits' (or two couplings') latest values, their ratio, and one statistic of each qubit's history
over a window (mean, median, maximum, minimum, how much it varied, how far it drifted, how much it improved).

Each question carries the router call it needs (tool and every argument), for ``tests/test_router_pairs10.py``.
Every truth is a pymongo read written here over the raw demo documents: a latest value is ``data.<metric>.value`` of
the ``qubit`` (or ``coupling``, either direction) document; a history is the usable values (a number, not NaN, not
0) of completed, non-excluded ``task_result_history`` results whose ``start_at`` is on the last N days ending on the
chip's newest run's day, oldest first.  By hand: the standard deviation is the sample one, a drift or a gain is the
last value minus the first, a gap between frequencies is written in MHz and a gap between percentages in percentage
points.
"""

from __future__ import annotations

import statistics
from datetime import datetime, timedelta

from tests.dev_fails8 import last_day
from tests.dev_pairs9 import coupling_label, coupling_value, neighbours, qubit_label
from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question

Call = tuple[str, dict]
HIGHER_BETTER = frozenset({"t1", "t2_echo", "qubit_frequency", "x90_gate_fidelity", "average_readout_fidelity",
                           "zx90_gate_fidelity", "bell_state_fidelity"})  # by hand; zx90_gate_time: shorter
# the tolerance of a value as the answer writes it (its unit's decimals), and of a gap between two
VALUE_TOL = {"GHz": 0.000051, "μs": 0.051, "%": 0.0051, "ns": 0.051}
UNIT = {"qubit_frequency": "GHz", "t1": "μs", "t2_echo": "μs", "zx90_gate_time": "ns"}  # else %


def unit(name: str) -> str:
    return UNIT.get(name, "%")


def amount(name: str, value: float) -> float:
    """A gap, a spread or a change as the answer writes it: a frequency's in MHz, others in the metric's unit."""
    return value * 1000 if unit(name) == "GHz" else value


def amount_tol(name: str) -> float:
    return 0.00051 if unit(name) == "GHz" else VALUE_TOL[unit(name)]


def shown(name: str, raw: float) -> float:
    """A stored value as the answer writes it: a fidelity in % (x100), a time or a frequency as stored."""
    return raw * 100 if unit(name) == "%" else raw


def usable(raw: object) -> bool:
    return isinstance(raw, (int, float)) and raw == raw and raw != 0


def latest(db, chip: str, q: int, name: str) -> float | None:
    """``data.<name>.value`` of the qubit's document."""
    raw = (((db["qubit"].find_one({"chip_id": chip, "qid": str(q)}) or {}).get("data") or {}).get(name) or {}).get(
        "value")
    return shown(name, raw) if usable(raw) else None


def history(db, chip: str, q: int, name: str, days: int) -> list[float]:
    """The usable values of ``name`` of qubit ``q`` on the last ``days`` days, oldest first."""
    first = last_day(db, chip) - timedelta(days=days - 1)
    docs = db["task_result_history"].find(
        {"chip_id": chip, "qid": str(q), "status": "completed", "excluded": {"$ne": True},
         f"output_parameters.{name}": {"$exists": True},
         "start_at": {"$gte": datetime(first.year, first.month, first.day)}}).sort([("start_at", 1)])
    raw = [d["output_parameters"][name]["value"] for d in docs]
    return [shown(name, v) for v in raw if usable(v)]


def of(values: list[float], stat: str) -> float | None:
    if stat == "std":
        return statistics.stdev(values) if len(values) >= 2 else None
    if not values:
        return None
    return {"mean": statistics.mean, "median": statistics.median, "max": max, "min": min,
            "drift": lambda v: v[-1] - v[0], "gain": lambda v: v[-1] - v[0]}[stat](values)


# (metric, chip, template): the gap between two qubits' latest values ({a}, {b}).
GAPS: tuple[tuple[str, str, str], ...] = (
    ("qubit_frequency", CHIP, "How far apart are Q{a} and Q{b} in qubit frequency?"),
    ("t1", CHIP, "By how many μs does Q{a}'s T1 beat Q{b}'s?"),
    ("t2_echo", CHIP, "What is the gap in T2 echo between qubit {a} and qubit {b}?"),
    ("average_readout_fidelity", CHIP, "Difference in readout fidelity between Q{a} and Q{b}?"),
    ("x90_gate_fidelity", OTHER, "How much higher is Q{a}'s X90 gate fidelity than Q{b}'s?"),
    ("t1", OTHER, "T1 margin between Q{a} and Q{b}?"),
)
RATIOS: tuple[tuple[str, str, str], ...] = (
    ("t1", CHIP, "What is the ratio of Q{a}'s T1 to Q{b}'s?"),
    ("t2_echo", CHIP, "How many times longer is Q{a}'s T2 echo than Q{b}'s?"),
    ("t1", OTHER, "T1 ratio, qubit {a} versus qubit {b}"),
)
# (metric, chip, template): {x} the shared qubit, {y} and {z} the other ends.
COUPLING_GAPS: tuple[tuple[str, str, str], ...] = (
    ("zx90_gate_fidelity", CHIP, "How far apart are couplings {x}-{y} and {x}-{z} in ZX90 fidelity?"),
    ("bell_state_fidelity", CHIP, "Gap in Bell state fidelity between Q{x}-Q{y} and Q{x}-Q{z}?"),
    ("zx90_gate_time", OTHER, "What is the difference in ZX90 gate time between Q{x}-Q{y} and Q{x}-Q{z}?"),
)
# (metric, chip, statistic, days, template)
WINDOWS: tuple[tuple[str, str, str, int, str], ...] = (
    ("t1", CHIP, "std", 14, "Whose T1 varied more over the last two weeks, Q{a} or Q{b}?"),
    ("t2_echo", CHIP, "std", 7, "Over the past 7 days, which was steadier in T2 echo: qubit {a} or qubit {b}?"),
    ("qubit_frequency", OTHER, "std", 10, "Which fluctuated more in qubit frequency over the last 10 days, Q{a} or "
                                          "Q{b}?"),
    ("t2_echo", CHIP, "median", 10, "Which had the higher median T2 echo over the past 10 days, Q{a} or Q{b}?"),
    ("t1", CHIP, "max", 7, "Over the last 7 days, whose peak T1 was higher, Q{a} or Q{b}?"),
    ("x90_gate_fidelity", CHIP, "min", 14, "Compare the minimum X90 gate fidelity of Q{a} and Q{b} over the last 14 "
                                           "days."),
    ("t1", OTHER, "mean", 5, "Mean T1 over the past 5 days: Q{a} or Q{b}, which is higher?"),
    ("qubit_frequency", CHIP, "drift", 14, "Which one drifted more in qubit frequency over the last 14 days, Q{a} or "
                                           "Q{b}?"),
    ("t1", CHIP, "drift", 7, "Over the past week, did Q{a}'s T1 or Q{b}'s T1 change the most?"),
    ("t1", CHIP, "gain", 14, "Which improved more in T1 over the last two weeks, Q{a} or Q{b}?"),
    ("x90_gate_fidelity", OTHER, "gain", 10, "Over the last 10 days, whose X90 gate fidelity degraded more, Q{a} or "
                                             "Q{b}?"),
)
# written after the fix, to attack it
ATTACK_GAPS: tuple[tuple[str, str, str], ...] = (
    ("t2_echo", OTHER, "Q{a} and Q{b}: what's the difference between their T2 echo times?"),
    ("qubit_frequency", CHIP, "how much lower is Q{a}'s qubit frequency than Q{b}'s"),
    ("average_readout_fidelity", OTHER, "Readout fidelity of qubit {a} vs qubit {b} — how big is the gap?"),
)
ATTACK_RATIOS: tuple[tuple[str, str, str], ...] = (
    ("t1", CHIP, "Q{a}'s T1 is how many times Q{b}'s?"),
)
ATTACK_COUPLINGS: tuple[tuple[str, str, str], ...] = (
    ("zx90_gate_fidelity", OTHER, "({x},{y}) vs ({x},{z}): difference in ZX90 gate fidelity?"),
)
ATTACK_WINDOWS: tuple[tuple[str, str, str, int, str], ...] = (
    ("t1", OTHER, "std", 14, "Over the past fortnight, which qubit had the more variable T1, Q{a} or Q{b}?"),
    ("qubit_frequency", CHIP, "median", 7, "Median qubit frequency over the last week — Q{a} vs Q{b}?"),
    ("t2_echo", CHIP, "max", 10, "Highest single T2 echo reading in the past 10 days: Q{a} or Q{b}?"),
    ("average_readout_fidelity", OTHER, "drift", 14, "Whose readout fidelity shifted more over the last 14 days, "
                                                     "Q{a} or Q{b}?"),
    ("t2_echo", CHIP, "gain", 7, "Did Q{a} or Q{b} gain more T2 echo over the last 7 days?"),
    ("t1", OTHER, "min", 7, "Lowest single T1 of Q{a} and Q{b} in the past 7 days — which is worse?"),
    ("x90_gate_fidelity", CHIP, "std", 10, "Which qubit's X90 fidelity was noisier over the last 10 days, Q{a} or "
                                           "Q{b}?"),
)


def _on(chip: str, text: str) -> str:
    return text + (f" On {chip}." if chip != CHIP else "")


def _pair(db, chip: str, i: int, value) -> tuple[int, int, float, float]:
    """Two qubits of ``chip`` (picked by ``i``) that both have a value and whose values differ."""
    start = 3 + 5 * i if chip == CHIP else 40 + 7 * i
    found = [(q, v) for q in range(start, start + 40) if (v := value(q)) is not None]
    (a, va) = found[0]
    (b, vb) = next((q, v) for q, v in found[3:] if v != va)
    return a, b, va, vb


def _sides(name: str, a: int, b: int, va: float, vb: float, gap: bool = True) -> tuple[Expect, ...]:
    tol = VALUE_TOL[unit(name)]
    out = (Expect(va, tol, near=(qubit_label(a),)), Expect(vb, tol, near=(qubit_label(b),)))
    return out + ((Expect(amount(name, abs(va - vb)), amount_tol(name)),) if gap else ())


def _gaps(db, rows, prefix: str, ratio: bool) -> list[tuple[Question, Call]]:
    out = []
    for i, (name, chip, text) in enumerate(rows):
        a, b, va, vb = _pair(db, chip, i, lambda q, c=chip, n=name: latest(db, c, q, n))
        (hi, hv), (lo, lv) = sorted(((a, va), (b, vb)), key=lambda kv: -kv[1])
        expects = _sides(name, a, b, va, vb) + ((Expect(hv / lv, 0.006 * hv / lv, alternatives=(lv / hv,)),)
                                                if ratio else ())
        truth = Truth(expects, winner=qubit_label(hi), loser=qubit_label(lo))
        args = {"chip_id": chip, "qids": sorted([str(a), str(b)], key=int), "param_names": [name]}
        out.append((Question(f"{prefix}-{i + 1}", "qubit pair", _on(chip, text.format(a=a, b=b)), truth),
                    ("compare_qubits", args)))
    return out


def _coupling_gaps(db, rows, prefix: str) -> list[tuple[Question, Call]]:
    out = []
    for i, (name, chip, text) in enumerate(rows):
        starts = range(5 + 3 * i, 60) if chip == CHIP else range(50 + 5 * i, 140)
        x, y, z, vy, vz = next((x, y, z, vy, vz) for x in starts for y in neighbours(db, chip, x, name)
                               for z in neighbours(db, chip, x, name) if y < z and (vy := coupling_value(
                                   db, chip, x, y, name)) != (vz := coupling_value(db, chip, x, z, name)))
        tol = VALUE_TOL[unit(name)]
        expects = (Expect(vy, tol, near=(coupling_label(x, y),)), Expect(vz, tol, near=(coupling_label(x, z),)),
                   Expect(abs(vy - vz), tol))
        better_y = vy > vz if name in HIGHER_BETTER else vy < vz
        win, lose = ((x, y), (x, z)) if better_y else ((x, z), (x, y))
        truth = Truth(expects, winner=coupling_label(*win), loser=coupling_label(*lose)) if name in HIGHER_BETTER \
            else Truth(expects)  # a gate time: the shorter is better, the gap names the longer first
        args = {"chip_id": chip, "coupling_ids": [f"{x}-{y}", f"{x}-{z}"], "param_names": [name]}
        out.append((Question(f"{prefix}-{i + 1}", "qubit pair", _on(chip, text.format(x=x, y=y, z=z)), truth),
                    ("get_coupling_params", args)))
    return out


def _windows(db, rows, prefix: str) -> list[tuple[Question, Call]]:
    out = []
    for i, (name, chip, stat, days, text) in enumerate(rows):
        a, b, va, vb = _pair(db, chip, i, lambda q, c=chip, n=name, d=days, s=stat: of(history(db, c, q, n, d), s))
        changes = stat in ("std", "drift", "gain")
        if changes:  # each one's spread or change, written as an amount
            expects = (Expect(amount(name, abs(va)), amount_tol(name), near=(qubit_label(a),)),
                       Expect(amount(name, abs(vb)), amount_tol(name), near=(qubit_label(b),)))
            truth = Truth(expects)
        else:
            better_a = va > vb if name in HIGHER_BETTER else va < vb
            win, lose = (a, b) if better_a else (b, a)
            truth = Truth(_sides(name, a, b, va, vb), winner=qubit_label(win), loser=qubit_label(lose))
        args = {"parameter_name": name, "chip_id": chip, "qids": sorted([str(a), str(b)], key=int), "days": days,
                **({"statistic": stat} if stat != "mean" else {})}
        out.append((Question(f"{prefix}-{i + 1}", "qubit pair", _on(chip, text.format(a=a, b=b)), truth),
                    ("get_chip_parameter_timeseries", args)))
    return out


# (metric, chip, order, n, template): a top N, the chip named in the words when it is not the one in view.
TOPS: tuple[tuple[str, str, str, int, str], ...] = (
    ("t1", CHIP, "highest", 5, "Which 5 qubits have the highest T1?"),
    ("t2_echo", OTHER, "lowest", 3, "List the 3 qubits with the lowest T2 echo on 144Qv2."),
    ("x90_gate_fidelity", CHIP, "lowest", 4, "Bottom 4 qubits by X90 gate fidelity"),
    ("zx90_gate_fidelity", CHIP, "highest", 3, "Top three couplings by ZX90 gate fidelity"),
    ("bell_state_fidelity", OTHER, "lowest", 5, "Which five couplings have the worst Bell state fidelity on 144Qv2?"),
    ("average_readout_fidelity", CHIP, "highest", 6, "Give me the 6 best qubits for readout fidelity."),
)
ATTACK_TOPS: tuple[tuple[str, str, str, int, str], ...] = (
    ("qubit_frequency", OTHER, "highest", 4, "Four highest qubit frequencies on 144Qv2?"),
    ("zx90_gate_time", CHIP, "lowest", 3, "The 3 couplings with the shortest ZX90 gate time"),
)


def ranked(db, chip: str, name: str, order: str) -> list[tuple[str, float]]:
    """Every qubit (or coupling, by the direction that holds data) with a usable latest value, from the ``order``
    end; ties by number."""
    kind = "qubit" if unit(name) != "ns" and name not in ("zx90_gate_fidelity", "bell_state_fidelity") else "coupling"
    values = {}
    for doc in db[kind].find({"chip_id": chip}):
        raw = ((doc.get("data") or {}).get(name) or {}).get("value")
        if usable(raw):
            values[doc["qid"]] = shown(name, raw)
    key = (lambda kv: (-kv[1], kv[0])) if order == "highest" else (lambda kv: (kv[1], kv[0]))
    return sorted(values.items(), key=key)


def label(key: str) -> str:
    return coupling_label(*(int(e) for e in key.split("-"))) if "-" in key else qubit_label(int(key))


def _tops(db, rows, prefix: str) -> list[tuple[Question, Call]]:
    out = []
    for i, (name, chip, order, n, text) in enumerate(rows):
        top = ranked(db, chip, name, order)[:n]
        truth = Truth(tuple(Expect(v, VALUE_TOL[unit(name)], near=(label(k),)) for k, v in top))
        args = {"chip_id": chip, "metric_name": name, "order": order, "n": n}
        out.append((Question(f"{prefix}-{i + 1}", "extreme", text, truth), ("rank_metric", args)))
    return out


def planned(db) -> list[tuple[Question, Call]]:
    """Every dev question with the call the router makes for it."""
    return (_gaps(db, GAPS, "p10-gap", False) + _gaps(db, RATIOS, "p10-ratio", True)
            + _coupling_gaps(db, COUPLING_GAPS, "p10-cgap") + _windows(db, WINDOWS, "p10-window")
            + _gaps(db, ATTACK_GAPS, "p10-attack-gap", False) + _gaps(db, ATTACK_RATIOS, "p10-attack-ratio", True)
            + _coupling_gaps(db, ATTACK_COUPLINGS, "p10-attack-cgap")
            + _windows(db, ATTACK_WINDOWS, "p10-attack-window") + _tops(db, TOPS, "p10-top")
            + _tops(db, ATTACK_TOPS, "p10-attack-top"))
