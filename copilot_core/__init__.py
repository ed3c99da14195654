"""Calibration Copilot services: data access, domain rules, tools, agent loop and sandbox.

Nothing in this package imports Streamlit; the pages and ``ui/`` own all of that.
"""
