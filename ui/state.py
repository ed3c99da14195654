"""Session-state keys shared by pages (one place, so pages agree on names)."""

CHIP_KEY = "chip_id"  # the chip chosen on any page; every page starts on it
FOCUS_QUBIT_KEY = "focus_qubit"  # {"chip_id", "qid"}: the qubit the Qubits page should open
