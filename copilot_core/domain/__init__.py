"""Domain rules: metric catalogue, chip topology, qubit labels. Pure Python, no I/O."""
