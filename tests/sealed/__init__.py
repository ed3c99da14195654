"""The sealed held-out eval: questions nobody tunes on (product code never reads this package)."""
