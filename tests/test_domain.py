"""Topology and metric catalogue: the numbers QDash prints."""

import pytest

from copilot_core.domain.metrics import CATALOGUE, metric
from copilot_core.domain.topology import (
    parse_qubit_ref, qubit_label, qubit_position, square_lattice_mux, topology_for)


@pytest.mark.parametrize("size,edges", [(16, 24), (64, 112), (144, 264), (256, 480), (1024, 1984)])
def test_edge_counts(size, edges):
    topo = square_lattice_mux(size)
    assert len(topo.couplings) == edges
    assert len({frozenset((c.control, c.target)) for c in topo.couplings}) == edges


def test_positions_match_qdash_16q_yaml():
    # From QDash's square-lattice-mux-16.yaml: MUX 1 holds 4..7 at rows 0-1, cols 2-3.
    assert [qubit_position(q, 16) for q in (0, 1, 2, 3, 4, 5, 6, 7, 8)] == [
        (0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 0)]
    ids = {c.id for c in square_lattice_mux(16).couplings}
    # a sample of QDash's [control, target] pairs
    assert {"0-1", "0-2", "4-1", "3-1", "3-6", "7-13", "12-9", "15-14"} <= ids
    assert "1-0" not in ids


def test_positions_unique_and_on_grid():
    topo = square_lattice_mux(144)
    assert len(set(topo.positions.values())) == 144
    assert all(0 <= r < 12 and 0 <= c < 12 for r, c in topo.positions.values())
    assert topo.qubit_at(*topo.positions[77]) == 77


def test_labels_and_refs():
    assert qubit_label(5, 64) == "Q05"
    assert qubit_label(5, 144) == "Q005"
    assert qubit_label(5, 1024) == "Q0005"
    assert parse_qubit_ref("Q016") == "16" and parse_qubit_ref(" 7 ") == "7"
    with pytest.raises(ValueError):
        parse_qubit_ref("{'$ne': 1}")
    with pytest.raises(ValueError):
        topology_for(100)


def test_display_scale_and_scores():
    assert metric("x90_gate_fidelity").to_display(0.9987) == pytest.approx(99.87)
    assert metric("anharmonicity").to_display(-0.3) == pytest.approx(-300)
    assert metric("t1").to_display(0) is None  # QDash stores NaN as 0
    assert metric("t1").score(120) == "excellent" and metric("t1").score(10) == "bad"
    assert metric("t1").score(30) == "fair" and metric("t1").score(60) == "good"
    assert metric("anharmonicity").score(-330) == "excellent"
    assert metric("anharmonicity").score(-200) == "bad"
    assert CATALOGUE["zx90_gate_fidelity"].kind == "coupling"
    assert metric("mystery_param", "ns").unit == "ns" and metric("mystery_param").score(1.0) is None


def test_qdash_metrics_yaml_metrics_with_its_units():
    # QDash config/domain/metrics.yaml: unit and scale as written there; no thresholds, so never scored
    expected = {"maximum_rabi_frequency": ("MHz/a.u.", "qubit", 12.5, 12.5),
                "hpi_amplitude": ("a.u.", "qubit", 0.031, 0.031), "hpi_length": ("ns", "qubit", 32.0, 32.0),
                "one_qubit_gate_coherence_limit": ("%", "qubit", 0.9991, 99.91),
                "two_qubit_gate_coherence_limit": ("%", "coupling", 0.987, 98.7)}
    for name, (unit, kind, raw, display) in expected.items():
        entry = CATALOGUE[name]
        assert (entry.unit, entry.kind) == (unit, kind)
        assert entry.to_display(raw) == pytest.approx(display)
        assert entry.score(display) is None
