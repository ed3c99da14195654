"""The lab's fit figures where the results are: the Qubits health report, the heatmap drill-down and the
comparison.  Files come from the local figure root only (``copilot_core.figures``); Plotly JSON is drawn
natively after the chart check, a PNG with ``st.image`` from its bytes."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from copilot_core.domain.display import format_percent
from copilot_core.figures import (
    FigureRoot,
    TaskFigure,
    failed_note,
    figure_root,
    latest_per_task,
    most_relevant,
    newest_failed,
    task_figure,
)
from copilot_core.render_safety import escape, safe_label, safe_markdown, safe_text
from ui import data
from ui.plot import checked_chart
from ui.errors import page_guard

RECENT_RESULTS = 120  # one qubit's newest task results scanned for the latest figure of each task
MAX_CHANGES = 20  # changes offered on the comparison


def root() -> FigureRoot | None:
    """The figure root, or None (said once on the page) when its directory is not there."""
    found = figure_root(data.settings())
    if found.root.is_dir():
        return found
    st.caption(escape(f"Figures are off: the figure directory {found.root} does not exist (set CALIB_DATA_DIR "
                     "to QDash's calib_data)."))
    return None


def _has_figure(row: dict) -> bool:
    return bool(row.get("json_figure_path") or row.get("figure_path"))


@st.cache_data(ttl=data.TTL, show_spinner=False)
def _run_rows(key: str, chip_id: str, qid: str, execution_id: str) -> list[dict]:
    return data.repository().task_results(chip_id, qid=qid, execution_id=execution_id, limit=100)


def _figure(stored: FigureRoot, row: dict, chip_id: str) -> TaskFigure:
    """The row's figure, its target labelled at the chip's width (``Q069``) as in every table."""
    chip = data.chip(chip_id)
    return task_figure(stored, row, int((chip or {}).get("size") or 0))


def show(figure: TaskFigure, key: str, *, caption: bool = True) -> None:
    """One task result's figure with its one-line description, or why it cannot be shown."""
    if figure.plotly is not None:
        checked_chart(figure.plotly, key)
    elif figure.png is not None:
        st.image(figure.png, width="stretch", output_format="PNG")
    else:
        st.caption(escape(f"No figure: {figure.problem}"))
    if caption:
        st.caption(escape(figure.describe()))


@st.fragment
def latest_figures(chip_id: str, qid: str, key: str, flagged: Sequence[str] = ()) -> None:
    """The newest figure of every task run on the qubit, one tab per task, with its status and time.  Only the
    open tab's figure is sent and drawn (a browser draws one chart per view, not one per task); it opens on the
    most relevant task (``most_relevant``), and another tab's figure comes with a rerun of this section only."""
    with page_guard("the fit figures"):  # a rerun of this section alone runs outside the page's guard
        every = data.task_results(chip_id, qid=qid, limit=RECENT_RESULTS)
        latest = latest_per_task(r for r in every if _has_figure(r))
        failed = newest_failed(latest, every)  # a task whose newest run failed without a figure: said, opened first
        st.markdown("**Latest fit figures**")
        if not latest:
            st.caption("No task result of this qubit has a figure stored.")
            return
        shown_root = root()
        if shown_root is None:
            return
        opened = latest[most_relevant([failed.get(str(r.get("name")), r) for r in latest], flagged)]
        tabs = st.tabs([safe_label(str(r.get("name"))) for r in latest], default=safe_label(str(opened.get("name"))),
                       on_change="rerun", key=f"{key}_tab_{chip_id}_{qid}")
        for tab, row in zip(tabs, latest, strict=True):
            if tab.open:
                with tab:
                    run = failed.get(str(row.get("name")))
                    if run is not None:
                        st.warning(escape(failed_note(run, row)), icon=":material/error:")
                    show(_figure(shown_root, row, chip_id), f"{key}_{row.get('name')}")


def metric_figure(chip_id: str, qid: str, metric_name: str, key: str) -> None:
    """The figure of the newest result that measured ``metric_name`` on the qubit (the drill-down)."""
    rows = [r for r in data.task_results(chip_id, qid=qid, limit=RECENT_RESULTS)
            if _has_figure(r) and metric_name in (r.get("output_parameters") or {})]
    if not rows:
        st.caption(escape(f"No stored figure measured {metric_name} on this qubit."))
        return
    st.markdown(safe_markdown(f"**Latest {escape(str(rows[0].get('name')))} fit**"))
    shown_root = root()
    if shown_root is not None:
        show(_figure(shown_root, rows[0], chip_id), key)


def _in_runs(chip_id: str, qid: str, metric_name: str, execution_ids: Sequence[str]) -> dict | None:
    """The newest completed, non-excluded result in those runs that stored ``metric_name`` (what the comparison
    compared)."""
    target = data.target_key(data.settings())
    rows = [r for e in execution_ids for r in _run_rows(target, chip_id, qid, e)
            if r.get("status") == "completed" and not r.get("excluded")
            and metric_name in (r.get("output_parameters") or {})]
    rows.sort(key=lambda r: str(r.get("start_at")), reverse=True)
    return rows[0] if rows else None


def before_after(chip_id: str, qid: str, metric_name: str, before: Sequence[str], after: Sequence[str],
                 key: str) -> None:
    """The fit behind the earlier value beside the fit behind the later one."""
    shown_root = root()
    if shown_root is None:
        return
    for column, ids, side in zip(st.columns(2), (before, after), ("before", "after"), strict=True):
        with column:
            row = _in_runs(chip_id, qid, metric_name, ids)
            st.markdown(safe_markdown(f"**{side.capitalize()}**"))
            if row is None:
                st.caption(escape(f"No completed result with {metric_name} in {', '.join(ids)}."))
            else:
                show(_figure(shown_root, row, chip_id), f"{key}_{side}")


def changed_qubit(chip_id: str, ranked: pd.DataFrame, before: Sequence[str], after: Sequence[str]) -> None:
    """Pick one of the largest qubit changes and see the fit before and after it."""
    qubits = ranked[ranked["kind"] == "qubit"].head(MAX_CHANGES) if "kind" in ranked else ranked.iloc[0:0]
    st.subheader("Fit figures before and after")
    if qubits.empty:
        st.caption("No qubit value changed between the two points.")
        return
    choices = list(range(len(qubits)))

    def label(i: int) -> str:
        row = qubits.iloc[i]
        pct = row.get("change_pct")
        change = f" ({format_percent(pct)})" if isinstance(pct, float) and pct == pct else ""
        return safe_text(f"{row['title']} · {row['label']}{change}")

    pick = st.selectbox("Change", choices, format_func=label, key="compare_figure_pick",
                        help="The largest changes of qubit values; the figures are the fits that produced them.")
    row = qubits.iloc[pick if pick is not None and pick < len(qubits) else 0]
    before_after(chip_id, str(row["qid"]), str(row["metric"]), before, after, "compare_figure")
