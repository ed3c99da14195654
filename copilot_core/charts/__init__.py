"""Plotly figure builders (no Streamlit): heatmaps, coupling maps, distributions, timeseries."""
