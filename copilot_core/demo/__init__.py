"""Deterministic QDash-shaped demo data (``python -m copilot_core.demo``)."""
