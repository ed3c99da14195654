"""Streamlit glue shared by the pages: cached resources, session state, shared widgets.

The only package besides ``pages/`` that imports Streamlit; services live in ``copilot_core``.
"""
