"""Deterministic analysis on display-unit values: statistics, scoring, trends, outliers, health."""
