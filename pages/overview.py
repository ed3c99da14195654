"""Placeholder: replaced by its issue's implementation."""

import streamlit as st

st.title("overview")
st.info("This page is being built.")
