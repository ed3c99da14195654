"""The one-click review of a qubit: its facts, the problems they show and the check of the review."""
