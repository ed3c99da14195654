"""Placeholder: replaced by its issue's implementation."""

import streamlit as st

st.title("timeseries")
st.info("This page is being built.")
