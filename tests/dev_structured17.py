"""Dev questions of the seventeenth stop's "structured block" class, in wordings and layouts of my own, over both
demo chips:

1. a compound filter written as a block: a JSON or Mongo-style object (operators as keys: "gt", "$lte", "min"),
   YAML mapping or nesting, ``key: value`` lines, pseudo-SQL ``WHERE a AND b``, a markdown table; every condition is
   applied (a compound filter, a count, a share);
2. a coupling written as a field or a list of two (``"pair": ["Q3", "Q4"]``, ``edge: [3, 4]``): one coupling;
3. a run of qubits with a coupling word ("couplings from Q10 to Q19") is a set of qubits, and a dash-marked list
   ("- Q3") holds qubits, never a coupling;
4. a chip id with one typing slip ("64Qv33", "144-Q-v2"): the one chip it can mean.

Truths are hand-written pymongo reads: the compound filters through :func:`tests.dev_compound12.truth` (newest
completed, non-excluded value per subject, 0 and NaN left out, fractions shown in %), every limit written out by hand
(a "gte"/"min" key counts a value at the limit); a coupling's value in whichever direction the data stores it; a
chip's median from :func:`tests.dev_crosschip7.stat` over the raw values.  Rows marked ``after`` (``AFTER``) were
written after the fix, in layouts not used before it (TOML, a Python dict literal, a URL query string, Django-style
keys, XML attributes, a GraphQL argument, INI lines, CSV rows).
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.dev_chips10 import values as chip_values
from tests.dev_compound8 import GT, RO, T1, T2, X90, ZX, _c, _f
from tests.dev_compound12 import Case, _q
from tests.dev_crosschip7 import stat
from tests.dev_pairs9 import coupling_label, coupling_value
from tests.dev_pairs13 import stored_pairs
from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question, tol

CHIPS = (CHIP, OTHER)
Call = tuple[str, dict]

BEFORE: tuple[Case, ...] = (
    _q("s17-json-ops", 'Which qubits match {"t1_us": {"gt": 40}, "readout_fidelity": {"gte": 0.9}}',
       ((T1, lambda v: v > 40), (RO, lambda v: v >= 90)),
       _f("and", _c(T1, above=40), _c(RO, above=90, including=["above"]))),
    _q("s17-mongo", 'qubits on 144Qv2 where {"t1": {"$gt": 45}, "t2_echo": {"$lt": 60}}',
       ((T1, lambda v: v > 45), (T2, lambda v: v < 60)), _f("and", _c(T1, above=45), _c(T2, below=60)), chip=OTHER),
    _q("s17-yaml-nested", "list the qubits with\nt1:\n  min: 40\nt2_echo:\n  min: 30",
       ((T1, lambda v: v >= 40), (T2, lambda v: v >= 30)),
       _f("and", _c(T1, above=40, including=["above"]), _c(T2, above=30, including=["above"]))),
    _q("s17-yaml-flow", "chip: 144Qv2\nqubits where\n  t1_us: {gt: 35}\n  readout_fidelity: {lt: 0.97}",
       ((T1, lambda v: v > 35), (RO, lambda v: v < 97)), _f("and", _c(T1, above=35), _c(RO, below=97)),
       chip=OTHER),
    _q("s17-sql", "SELECT qid FROM qubits WHERE t1 > 40 AND readout_fidelity >= 0.92",
       ((T1, lambda v: v > 40), (RO, lambda v: v >= 92)),
       _f("and", _c(T1, above=40), _c(RO, above=92, including=["above"]))),
    _q("s17-sql-lower", "select qubits from 144Qv2 where t2_echo > 25 and t1 < 70",
       ((T2, lambda v: v > 25), (T1, lambda v: v < 70)), _f("and", _c(T2, above=25), _c(T1, below=70)),
       chip=OTHER),
    _q("s17-kv-lines", "which qubits fit:\nT1: > 45 us\nreadout fidelity: < 96%",
       ((T1, lambda v: v > 45), (RO, lambda v: v < 96)), _f("and", _c(T1, above=45), _c(RO, below=96))),
    _q("s17-table", "qubits meeting every row:\n| metric | op | value |\n|---|---|---|\n| T1 | > | 40 us |\n"
       "| T2 echo | < | 70 us |", ((T1, lambda v: v > 40), (T2, lambda v: v < 70)),
       _f("and", _c(T1, above=40), _c(T2, below=70))),
    _q("s17-json-coupling", 'couplings matching {"zx90_gate_fidelity": {"gt": 0.95}, "zx90_gate_time": {"lt": 300}}',
       ((ZX, lambda v: v > 95), (GT, lambda v: v < 300)), _f("and", _c(ZX, above=95), _c(GT, below=300)),
       kind="coupling"),
    _q("s17-share-json", 'what percentage of qubits satisfy {"t1": {"gt": 40}, "t2_echo": {"gt": 30}}',
       ((T1, lambda v: v > 40), (T2, lambda v: v > 30)), _f("and", _c(T1, above=40), _c(T2, above=30)),
       share=True),
    _q("s17-count-yaml", "how many qubits on 144Qv2 pass\nt1: {gte: 35}\nreadout_fidelity: {gte: 0.9}",
       ((T1, lambda v: v >= 35), (RO, lambda v: v >= 90)),
       _f("and", _c(T1, above=35, including=["above"]), _c(RO, above=90, including=["above"])), chip=OTHER,
       count=True),
    _q("s17-word-keys", 'qubits for {"T1": {"above": 40}, "X90 gate fidelity": {"below": 0.999}}',
       ((T1, lambda v: v > 40), (X90, lambda v: v < 99.9)), _f("and", _c(T1, above=40), _c(X90, below=99.9))),
    _q("s17-suffix-keys", "qubits with t1_min: 40, t2_echo_max: 80",
       ((T1, lambda v: v >= 40), (T2, lambda v: v <= 80)),
       _f("and", _c(T1, above=40, including=["above"]), _c(T2, below=80, including=["below"]))),
)

AFTER: tuple[Case, ...] = (  # written after the fix, in layouts not used before it
    _q("s17a-toml", "[filter]\nt1 = { gt = 45 }\nreadout_fidelity = { gte = 0.93 }",
       ((T1, lambda v: v > 45), (RO, lambda v: v >= 93)),
       _f("and", _c(T1, above=45), _c(RO, above=93, including=["above"]))),
    _q("s17a-pydict", "qubits on 144Qv2 for {'t1': {'>': 40}, 't2_echo': {'<=': 55}}",
       ((T1, lambda v: v > 40), (T2, lambda v: v <= 55)),
       _f("and", _c(T1, above=40), _c(T2, below=55, including=["below"])), chip=OTHER),
    _q("s17a-url", "/qubits?t1_gte=40&t2_echo_lt=60",
       ((T1, lambda v: v >= 40), (T2, lambda v: v < 60)),
       _f("and", _c(T1, above=40, including=["above"]), _c(T2, below=60))),
    _q("s17a-django", "qubits.filter(t1__gt=50, readout_fidelity__lte=0.95)",
       ((T1, lambda v: v > 50), (RO, lambda v: v <= 95)),
       _f("and", _c(T1, above=50), _c(RO, below=95, including=["below"]))),
    _q("s17a-graphql", "{ qubits(chip: \"144Qv2\", where: {t1_gt: 30, x90_gate_fidelity_gt: 0.995}) { qid } }",
       ((T1, lambda v: v > 30), (X90, lambda v: v > 99.5)), _f("and", _c(T1, above=30), _c(X90, above=99.5)),
       chip=OTHER),
    _q("s17a-count-url", "how many qubits: ?t1_lt=50&t2_echo_gt=20",
       ((T1, lambda v: v < 50), (T2, lambda v: v > 20)), _f("and", _c(T1, below=50), _c(T2, above=20)), count=True),
    # a second round of attacks (the INI and CSV layouts failed first: a key's underscores outside a key, a CSV row)
    _q("s17a-ini", "[limits]\nt1_us >= 40\nreadout_fidelity >= 0.9", ((T1, lambda v: v >= 40), (RO, lambda v: v >= 90)),
       _f("and", _c(T1, above=40, including=["above"]), _c(RO, above=90, including=["above"]))),
    _q("s17a-csv", "on 144Qv2 -- metric,op,value\nt1,gt,35\nreadout_fidelity,lt,0.97",
       ((T1, lambda v: v > 35), (RO, lambda v: v < 97)), _f("and", _c(T1, above=35), _c(RO, below=97)), chip=OTHER),
    _q("s17a-xml", '<q chip="144Qv2"><t1 gte="40"/><x90_gate_fidelity gt="0.995"/></q>',
       ((T1, lambda v: v >= 40), (X90, lambda v: v > 99.5)),
       _f("and", _c(T1, above=40, including=["above"]), _c(X90, above=99.5)), chip=OTHER),
)

CASES = BEFORE + AFTER

# (id, template, metric, after): {a}, {b} a coupling's qubits in the order the data stores them.
PAIRS = (
    ("s17-pair-json", 'ZX90 gate fidelity for {{"pair": ["Q{a}", "Q{b}"]}}', "zx90_gate_fidelity", False),
    ("s17-pair-edge-list", "CZ fidelity of edge: [{a}, {b}]", "zx90_gate_fidelity", False),
    ("s17-pair-yaml", "coupling:\n  qubits: [{a}, {b}]\n  metric: zx90_gate_time", "zx90_gate_time", False),
    ("s17-pair-edge-dash", "bell_state_fidelity, edge: {a}-{b}", "bell_state_fidelity", False),
    ("s17-pair-link-obj", '{{"link": ["{a}", "{b}"], "param": "zx90_gate_fidelity"}}', "zx90_gate_fidelity", False),
    # written after the fix, to attack it
    ("s17a-pair-toml", "[coupling]\npair = [{a}, {b}]\nparam = \"zx90_gate_time\"", "zx90_gate_time", True),
    ("s17a-pair-url", "/couplings?edge=Q{a},Q{b}&param=zx90_gate_fidelity", "zx90_gate_fidelity", True),
    ("s17a-pair-py", "{{'coupling': (Q{a}, Q{b}), 'metric': 'bell state fidelity'}}", "bell_state_fidelity", True),
)

# Not one coupling: a run of qubits with a coupling word, or a dash-marked list (id, wording, qubits, span).
NOT_PAIRS = (
    ("s17-set-from-to", "mean ZX90 fidelity over the couplings from Q10 to Q19", (), tuple(map(str, range(10, 20)))),
    ("s17-set-dash", "rank couplings Q20–Q27 by ZX90 gate time", (), tuple(map(str, range(20, 28)))),
    ("s17-list-qubits", "T1 for:\n- Q3\n- Q4", ("3", "4"), ()),
    ("s17-list-stars", "* Q7\n* Q8\nT2 echo of these", ("7", "8"), ()),
    ("s17a-set-within", "worst 3 couplings by CZ fidelity among qubits 30 to 39", (), tuple(map(str, range(30, 40)))),
    ("s17a-list-plus", "readout fidelity, please:\n+ Q11\n+ Q12", ("11", "12"), ()),
)

# (id, wording, chip meant, metric, after): a chip id with one typing slip; a median asked.
SLIPPED = (
    ("s17-chip-double", "median T1 on 64Qv33", CHIP, "t1", False),
    ("s17-chip-dashes", "median T2 echo of 144-Q-v2", OTHER, "t2_echo", False),
    ("s17-chip-case", "median readout fidelity, chip 144qv2", OTHER, "average_readout_fidelity", False),
    ("s17-chip-swap", "median T1 for 64Q3v", CHIP, "t1", False),
    ("s17a-chip-underscore", "median X90 gate fidelity on 144_Qv2", OTHER, "x90_gate_fidelity", True),
    ("s17a-chip-vv", "what is the median T2 echo on 64Qvv3", CHIP, "t2_echo", True),
)
NO_SUCH = ("median T1 on 64Qv4", "median T1 on 144Qv9")  # a key struck for another: another chip's name


@dataclass(frozen=True)
class Slipped:
    question: Question
    chip: str
    call: Call
    after: bool


def slipped(db) -> list[Slipped]:
    out = []
    for qid, text, chip, name, after in SLIPPED:
        figure = stat(chip_values(db, chip, name), "median")
        out.append(Slipped(Question(qid, "described chip", text, Truth(((figure, tol(name)),), patterns=(chip,))),
                           chip, ("get_chip_summary", {"chip_id": chip, "param_names": [name]}), after))
    return out


def _tol(name: str) -> float:
    return 0.051 if name == "zx90_gate_time" else 0.0051


def pairs(db) -> list[tuple[Question, Call, bool]]:
    """Each pair wording on a coupling the chip stores, spread over both chips."""
    out = []
    for i, (qid, template, name, after) in enumerate(PAIRS):
        chip = OTHER if i % 2 else CHIP
        found = [(a, b) for a, b in stored_pairs(db, chip, name) if a != b and max(a, b) < 64]
        a, b = found[(7 * i + 3) % len(found)]
        value = coupling_value(db, chip, a, b, name)
        assert value is not None
        text = template.format(a=a, b=b) + (f" on {chip}" if chip != CHIP else "")
        truth = Truth((Expect(value, _tol(name), near=(coupling_label(a, b),)),))
        out.append((Question(qid, "lookup", text, truth),
                    ("get_coupling_params", {"chip_id": chip, "coupling_id": f"{a}-{b}", "param_names": [name]}),
                    after))
    return out


def count() -> tuple[int, int]:
    """(dev questions, those written after the fix)."""
    after = len(AFTER) + sum(p[3] for p in PAIRS) + sum(r[0].startswith("s17a") for r in NOT_PAIRS) + \
        sum(s[4] for s in SLIPPED)
    return len(CASES) + len(PAIRS) + len(NOT_PAIRS) + len(SLIPPED) + len(NO_SUCH), after
