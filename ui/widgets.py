"""Widgets shared by pages: chip picker, metric/mode/window pickers, empty states."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from copilot_core.analysis.chip_metrics import MODES, Mode
from copilot_core.analysis.overview import chip_label, default_chip
from copilot_core.domain.metrics import CATALOGUE, COUPLING_METRICS, QUBIT_METRICS, metric
from copilot_core.render_safety import escape, safe_label, safe_markdown, safe_text
from ui import data, url_state
from ui.state import CHIP_KEY

WINDOWS: dict[str, float | None] = {"all time": None, "last 24 h": 24, "last 48 h": 48, "last 7 days": 168,
                                    "last 30 days": 720}
_PARAM_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,79}$")


def persistent_select(label: str, options: Sequence[Any], state_key: str, *, default: Any = None,
                      format_func: Callable[[Any], str] = str, container: Any = st, help: str | None = None,
                      param: str | None = None, to_url: Callable[[Any], str] = str,
                      normalize: Callable[[str], str] = str.strip, widget: str = "selectbox",
                      horizontal: bool = False, placeholder: str | None = None) -> Any:
    """A selectbox (or radio) whose value lives in ``session_state[state_key]`` and so survives page
    switches (Streamlit drops a widget's own state when a page without it runs); with ``param`` the value
    is also read from and shown in the URL (``ui.url_state``).  With a ``placeholder`` and no ``default``
    among the options, nothing is chosen until the user picks (the value is None)."""
    options = list(options)
    if not options:
        return None
    if param:
        url_state.adopt(param, state_key, options, to_url=to_url, normalize=normalize)
    current = st.session_state.get(state_key)
    if current not in options:
        no_choice = placeholder is not None and widget == "selectbox"
        current = default if default in options else (None if no_choice else options[0])
        st.session_state[state_key] = current
    widget_key = f"_w_{state_key}"
    st.session_state[widget_key] = current

    def _sync() -> None:
        st.session_state[state_key] = st.session_state[widget_key]

    if widget == "radio":
        value = container.radio(safe_label(label), options, key=widget_key,
                                format_func=lambda option: safe_label(format_func(option)),
                                on_change=_sync, help=safe_markdown(help) if help else None, horizontal=horizontal)
    else:
        value = container.selectbox(safe_label(label), options, key=widget_key,
                                    format_func=lambda option: safe_text(format_func(option)),
                                    on_change=_sync, help=safe_markdown(help) if help else None,
                                    placeholder=safe_text(placeholder) if placeholder else None)
    if param:
        url_state.publish(param, None if value is None else (to_url(value) or None))
    return value


def persistent_multiselect(label: str, options: Sequence[Any], state_key: str, *, param: str | None = None,
                           format_func: Callable[[Any], str] = str, container: Any = st,
                           to_url: Callable[[Any], str] = str, normalize: Callable[[str], str] = str.strip,
                           placeholder: str | None = None) -> list[Any]:
    """``persistent_select`` for several values (``param=5,17`` in the URL; empty = left out)."""
    options = list(options)
    if param:
        url_state.adopt_many(param, state_key, options, to_url=to_url, normalize=normalize)
    stored = st.session_state.get(state_key)
    current = [v for v in stored if v in options] if isinstance(stored, list) else []
    st.session_state[state_key] = current
    widget_key = f"_w_{state_key}"
    st.session_state[widget_key] = current

    def _sync() -> None:
        st.session_state[state_key] = list(st.session_state[widget_key])

    value = container.multiselect(safe_label(label), options, key=widget_key,
                                  format_func=lambda option: safe_text(format_func(option)), on_change=_sync,
                                  placeholder=placeholder)
    if param:
        url_state.publish(param, ",".join(to_url(v) for v in value) or None)
    return list(value)


def chip_selector(container: Any = None) -> dict | None:
    """Sidebar chip picker shared by every page; None (with a message) when the database has no chips."""
    with st.spinner("Loading the calibration data…", show_time=True):  # the first load reads the database cold
        chips = data.chips()
    if not chips:
        st.info("The database has no chips yet. With the embedded database, seed the demo with "
                "`python -m copilot_core.demo`; with MongoDB, check MONGO_DB_NAME and QDASH_PROJECT_ID.")
        return None
    by_id = {c["chip_id"]: c for c in chips}
    default = default_chip(chips)
    chosen = persistent_select("Chip", list(by_id), CHIP_KEY, container=container or st.sidebar, param="chip",
                               default=default["chip_id"] if default else None,
                               placeholder=None if default else "Choose a chip",
                               format_func=lambda c: safe_text(chip_label(by_id[c])))
    if chosen is None:
        st.info("Every chip is marked inactive in QDash, so none is opened by default: choose one in the sidebar.")
        return None
    return by_id[chosen]


def metric_options(chip_id: str, kind: str = "qubit", *, catalogue_only: bool = False) -> list[str]:
    """Catalogue metrics of that kind that have a usable value on the chip, then every other well-formed
    numeric parameter stored in the chip's latest data (``qubit.data``/``coupling.data`` hold the newest
    value of every output parameter).  A metric no qubit or coupling of the chip has is not offered."""
    names = list(QUBIT_METRICS if kind == "qubit" else COUPLING_METRICS)
    params = data.qubit_params(chip_id) if kind == "qubit" else data.coupling_params(chip_id)
    entries = [p for p in params.values() if isinstance(p, dict)]
    found = {n for p in entries for n, e in p.items()
             if isinstance(n, str) and n not in CATALOGUE and _PARAM_NAME.fullmatch(n)
             and isinstance(e, dict) and isinstance(e.get("value"), (int, float)) and not isinstance(e.get("value"), bool)}
    with_data = [n for n in names if any(isinstance(p.get(n), dict) and CATALOGUE[n].to_display(p[n].get("value"))
                                         is not None for p in entries)]
    return (with_data or names) + ([] if catalogue_only else sorted(found))


def metric_label(name: str) -> str:
    m = metric(name)
    unit = f" [{m.unit}]" if m.unit else ""
    return f"{m.title}{unit}" if name in CATALOGUE else f"{name} (from data)"


def mode_selector(key: str, container: Any = st) -> Mode:
    return persistent_select("Mode", MODES, key, param="mode", widget="radio", horizontal=True, container=container,
                             help="latest: newest result; best: best in the window; average: mean in the window")


def window_token(label: str) -> str:
    """URL text of a window: ``all``, ``24h``, ``7d``."""
    hours = WINDOWS[label]
    if hours is None:
        return "all"
    return f"{hours / 24:g}d" if hours % 24 == 0 and hours > 48 else f"{hours:g}h"


def window_selector(key: str, container: Any = st, default: str = "all time") -> float | None:
    """Time window in hours (None = all time)."""
    label = persistent_select("Time window", list(WINDOWS), key, default=default, param="window",
                              to_url=window_token, container=container)
    return WINDOWS[label]


def no_data(message: str) -> None:
    st.info(escape(message), icon=":material/info:")
