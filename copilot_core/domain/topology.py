"""QDash's square-lattice MUX topology: positions, couplings with CR direction, labels.

QDash lays 2x2 MUX groups on a square grid (qubits 4m..4m+3 are TL, TR, BL, BR of MUX m) and
lists couplings as ``[control, target]`` in checkerboard order: the qubit on an even
``row + col`` cell drives cross-resonance.  Computing this instead of shipping YAML keeps one
source of truth for 16/64/144/256/1024-qubit chips.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from copilot_core.errors import InvalidRequest

SUPPORTED_SIZES = (16, 64, 144, 256, 1024)


@dataclass(frozen=True)
class Coupling:
    control: int
    target: int

    @property
    def id(self) -> str:
        """Coupling id as QDash stores it: ``"control-target"``."""
        return f"{self.control}-{self.target}"


@dataclass(frozen=True)
class Topology:
    id: str
    num_qubits: int
    grid_size: int
    positions: dict[int, tuple[int, int]]  # qid -> (row, col)
    couplings: tuple[Coupling, ...]

    def qubit_at(self, row: int, col: int) -> int | None:
        return _cell_index(self.num_qubits).get((row, col))

    def neighbours(self, qid: int) -> list[int]:
        """Nearest neighbours of a qubit, sorted."""
        out = {c.target if c.control == qid else c.control for c in self.couplings if qid in (c.control, c.target)}
        return sorted(out)

    def couplings_of(self, qid: int) -> list[Coupling]:
        return [c for c in self.couplings if qid in (c.control, c.target)]

    def coupling_between(self, a: int, b: int) -> Coupling | None:
        for c in self.couplings:
            if {c.control, c.target} == {a, b}:
                return c
        return None

    def mux_of(self, qid: int) -> int:
        return qid // 4

    def as_dict(self) -> dict:
        """The shape of QDash's topology YAML (qids as strings, as the model sees them)."""
        return {
            "id": self.id,
            "grid_size": self.grid_size,
            "num_qubits": self.num_qubits,
            "direction_convention": "checkerboard_cr",
            "qubit_positions": {str(q): {"row": r, "col": c} for q, (r, c) in self.positions.items()},
            "couplings": [[c.control, c.target] for c in self.couplings],
        }


@lru_cache(maxsize=None)
def _cell_index(size: int) -> dict[tuple[int, int], int]:
    return {pos: q for q, pos in square_lattice_mux(size).positions.items()}


def qubit_position(qid: int, size: int) -> tuple[int, int]:
    """(row, col) of a qubit, origin top-left, as QDash's square-lattice-topology doc defines it."""
    n = _grid_size(size)
    mux = qid // 4
    mr, mc = divmod(mux, n // 2)
    return 2 * mr + (qid % 4) // 2, 2 * mc + qid % 2


def _grid_size(size: int) -> int:
    n = math.isqrt(size)
    if size not in SUPPORTED_SIZES or n * n != size:
        raise InvalidRequest(f"unsupported chip size {size}; expected one of {SUPPORTED_SIZES}")
    return n


@lru_cache(maxsize=None)
def square_lattice_mux(size: int) -> Topology:
    n = _grid_size(size)
    positions = {q: qubit_position(q, size) for q in range(size)}
    cell = {pos: q for q, pos in positions.items()}  # built here: _cell_index needs this topology
    couplings: list[Coupling] = []
    for q in range(size):
        r, c = positions[q]
        for dr, dc in ((0, 1), (1, 0)):
            other = cell.get((r + dr, c + dc))
            if other is None:
                continue
            a_even = (r + c) % 2 == 0
            control, target = (q, other) if a_even else (other, q)
            couplings.append(Coupling(control, target))
    couplings.sort(key=lambda cp: (cp.control, cp.target))
    return Topology(f"square-lattice-mux-{size}", size, n, positions, tuple(couplings))


def topology_for(size: int, topology_id: str | None = None) -> Topology:
    """Topology of a chip; only QDash's square-lattice MUX family is known."""
    if topology_id and not topology_id.startswith("square-lattice-mux"):
        raise InvalidRequest(f"unknown topology {topology_id!r}")
    return square_lattice_mux(size)


def qubit_label(qid: int | str, size: int) -> str:
    """``Q05`` on a 64-qubit chip, ``Q005`` on 144: width ``max(2, len(str(size)))`` as QDash prints.  Takes what
    a person writes too ("Q57", "q5"); anything else raises ``InvalidRequest`` (a ``ValueError``)."""
    width = max(2, len(str(size)))
    return f"Q{int(parse_qubit_ref(str(qid))):0{width}d}"


def runs_named(qubits: list[int], size: int) -> str:
    """``Q10 to Q19, Q25`` of a sorted list of qubits: each run of three or more consecutive ones by its ends."""
    runs: list[list[int]] = []
    for q in qubits:
        if runs and q == runs[-1][-1] + 1:
            runs[-1].append(q)
        else:
            runs.append([q])
    return ", ".join(f"{qubit_label(r[0], size)} to {qubit_label(r[-1], size)}" if len(r) > 2 else
                     ", ".join(qubit_label(q, size) for q in r) for r in runs)


def target_label(target: str, size: int) -> str:
    """A qubit or coupling as every table writes it: ``Q069``, ``Q115→Q118`` (a stored id that is neither is shown
    as stored)."""
    parts = str(target).split("-")
    if not all(p.strip().isdigit() for p in parts) or len(parts) > 2:
        return str(target)
    return "→".join(qubit_label(p.strip(), size) for p in parts)


def parse_qubit_ref(ref: str) -> str:
    """Normalise what a person or model writes ("Q05", "q5", " 5 ") to QDash's plain qid "5"."""
    text = str(ref).strip()
    if text[:1] in ("Q", "q"):
        text = text[1:]
    if not text.isdigit():
        raise InvalidRequest(f"not a qubit id: {ref!r} (expected e.g. '5' or 'Q05')")
    return str(int(text))
