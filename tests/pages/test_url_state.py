"""Page settings live in the URL (a shared link or a reload opens the same view) and survive page switches.

AppTest runs the real app.py; ``at.query_params`` is the URL's query as the browser would send it and as
the page leaves it.  Expected values come from the link itself or from the database, never from the app.
"""

from __future__ import annotations

from datetime import timedelta

from streamlit.testing.v1 import AppTest

from copilot_core.analysis.qubit_table import filter_table, qubit_table
from copilot_core.domain.topology import qubit_label
from copilot_core.render_safety import unescape
from tests.pages.conftest import APP, TIMEOUT, dataframe, figures, texts


def fresh(query: dict[str, str], page: str | None = None) -> AppTest:
    """A new session opened from a link (no session state yet)."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.run()
    if page:
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_heatmap_link_opens_that_exact_view(app_env, app_repo, demo_chip):
    chip_id, size = demo_chip["chip_id"], demo_chip["size"]
    link = {"chip": chip_id, "metric": "x90_gate_fidelity", "mode": "average", "window": "7d", "colour": "band",
            "qubit": "Q005"}
    at = fresh(link, "pages/heatmap.py")
    assert at.selectbox(key="_w_chip_id").value == chip_id
    assert at.selectbox(key="_w_heatmap_metric").value == "x90_gate_fidelity"
    assert at.radio(key="_w_heatmap_mode").value == "average"
    assert at.selectbox(key="_w_heatmap_window").value == "last 7 days"
    assert at.radio(key="_w_heatmap_color_by").value == "band"
    assert at.selectbox(key="_w_heatmap_drill_qid").value == "5"
    title = figures(at)["heatmap_chart"]["layout"]["title"]["text"]
    last = max(d["start_at"] for d in app_repo.db["execution_history"].find({"chip_id": chip_id}, {"start_at": 1}))
    assert title.startswith("X90 gate fidelity [%] on") and f"(average, 7 days up to {last:%Y-%m-%d})" in title
    assert f"**Latest values of {qubit_label(5, size)}**" in texts(at)
    # the page leaves the same settings in the URL (what a reload sends back)
    assert {k: at.query_params[k] for k in link} == {**link, "qubit": "5"}


def test_changing_a_setting_updates_the_url_and_a_reload_keeps_it(app_env, demo_chip):
    at = fresh({"chip": demo_chip["chip_id"]}, "pages/heatmap.py")
    assert at.query_params["mode"] == "latest"
    at.radio(key="_w_heatmap_mode").set_value("best").run()
    at.selectbox(key="_w_heatmap_window").set_value("last 48 h").run()
    assert (at.query_params["mode"], at.query_params["window"]) == ("best", "48h")
    assert at.radio(key="_w_heatmap_mode").value == "best"  # the stale URL does not undo the change
    reloaded = fresh(dict(at.query_params), "pages/heatmap.py")
    assert reloaded.radio(key="_w_heatmap_mode").value == "best"
    assert reloaded.selectbox(key="_w_heatmap_window").value == "last 48 h"


def test_settings_survive_a_round_trip_between_pages(open_page):
    at = open_page("pages/heatmap.py")
    at.radio(key="_w_heatmap_mode").set_value("average").run()
    at.selectbox(key="_w_heatmap_window").set_value("last 7 days").run()
    at.radio(key="_w_heatmap_color_by").set_value("band").run()
    at.switch_page("pages/timeseries.py").run()
    at.multiselect(key="_w_timeseries_qubits").set_value(["3", "70"]).run()
    at.selectbox(key="_w_timeseries_days").set_value(14).run()
    at.query_params.clear()  # a sidebar link opens the page with no query
    at.switch_page("pages/heatmap.py").run()
    assert not at.exception
    assert at.radio(key="_w_heatmap_mode").value == "average"
    assert at.selectbox(key="_w_heatmap_window").value == "last 7 days"
    assert at.radio(key="_w_heatmap_color_by").value == "band"
    assert (at.query_params["mode"], at.query_params["window"], at.query_params["colour"]) == ("average", "7d", "band")
    at.query_params.clear()
    at.switch_page("pages/timeseries.py").run()
    assert at.multiselect(key="_w_timeseries_qubits").value == ["3", "70"]
    assert at.selectbox(key="_w_timeseries_days").value == 14
    assert (at.query_params["qubit"], at.query_params["window"]) == ("3,70", "14d")


def test_a_timeseries_link_with_several_qubits(app_env, demo_chip):
    at = fresh({"chip": demo_chip["chip_id"], "parameter": "t2_echo", "window": "90d", "qubit": "Q003,17,q070"},
               "pages/timeseries.py")
    assert at.selectbox(key="_w_timeseries_metric").value == "t2_echo"
    assert at.selectbox(key="_w_timeseries_days").value == 90
    assert at.multiselect(key="_w_timeseries_qubits").value == ["3", "17", "70"]
    drawn = {t.get("name") for t in figures(at)["timeseries_chart"]["data"]}
    size = demo_chip["size"]
    assert {qubit_label(q, size) for q in (3, 17, 70)} <= drawn
    assert qubit_label(4, size) not in drawn


def test_a_link_with_an_unknown_value_says_so_and_keeps_the_default(app_env, demo_chip):
    at = fresh({"chip": demo_chip["chip_id"], "mode": "loudest", "metric": "no_such_metric"}, "pages/heatmap.py")
    warnings = unescape(" ".join(w.value for w in at.warning))  # the words a reader sees
    assert "mode = 'loudest'" in warnings and "metric = 'no_such_metric'" in warnings
    assert at.radio(key="_w_heatmap_mode").value == "latest"
    assert at.selectbox(key="_w_heatmap_metric").value == "t1"
    assert at.query_params["mode"] == "latest"  # the URL now names what is shown


def test_all_qubits_view_is_the_band_and_outliers_not_one_line_per_qubit(open_page, demo_chip):
    at = open_page("pages/timeseries.py")
    names = [t.get("name") for t in figures(at)["timeseries_chart"]["data"]]
    assert not any(n and n.startswith("Q") for n in names)  # no per-qubit lines until some are picked
    assert "chip median" in names and "chip IQR" in names
    outliers = dataframe(at, "qubit", "calibrated_at")
    stamps = list(outliers["calibrated_at"])
    assert stamps == sorted(stamps, reverse=True)  # newest first


def test_qubits_link_opens_the_report_with_failed_coupling_tasks(app_env, app_repo, demo_chip):
    chip_id, size = demo_chip["chip_id"], demo_chip["size"]
    since = demo_chip["last_execution_at"] - timedelta(days=7)
    failed = app_repo.task_results(chip_id, status="failed", since=since, limit=1000)
    on_coupling = next(r for r in failed if "-" in str(r["qid"]))  # the demo seeds failed coupling tasks
    control, target = (int(x) for x in on_coupling["qid"].split("-"))
    at = fresh({"chip": chip_id, "qubit": qubit_label(control, size)}, "pages/qubits.py")
    assert at.selectbox(key=f"_w_qubits_selected_{chip_id}").value == str(control)
    coupling = f"{qubit_label(control, size)}→{qubit_label(target, size)}"
    findings = texts(at)
    assert any(f"failed on coupling {coupling}" in t for t in findings)
    assert not any("Nothing stands out" in t for t in findings)
    shown = dataframe(at, "on", "task", "message")
    assert len(shown) == len([r for r in failed if str(control) in str(r["qid"]).split("-")])
    row = shown[(shown["on"] == coupling) & (shown["task"] == on_coupling["name"])].iloc[0]
    assert row["message"] == str(on_coupling["message"])[:300]
    couplings = dataframe(at, "coupling", "role", "failed tasks")
    assert int(couplings[couplings["coupling"] == coupling]["failed tasks"].iloc[0]) == sum(
        1 for r in failed if set(str(r["qid"]).split("-")) == {str(control), str(target)})


def test_qubit_search_matches_part_of_a_label(app_env, app_repo, demo_chip):
    table = qubit_table(demo_chip, app_repo.all_qubit_params(demo_chip["chip_id"]))
    found = list(filter_table(table, text="Q05")["qubit"])
    assert found == ["Q005"] + [f"Q{n:03d}" for n in range(50, 60)]  # the qubit itself first, then Q050-Q059


def test_what_changed_keeps_its_chosen_runs_in_the_url(app_env, app_repo, demo_chip):
    from tests.compare.conftest import executions_of

    chip_id = demo_chip["chip_id"]
    runs = [e["execution_id"] for e in executions_of(app_repo.db, "demo-project", chip_id)]
    link = {"chip": chip_id, "by": "runs", "from": runs[3], "to": runs[1], "metric": "t2_echo"}
    at = fresh(link, "pages/compare.py")
    assert at.selectbox(key=f"_w_compare_from_{chip_id}").value == runs[3]
    assert at.selectbox(key=f"_w_compare_to_{chip_id}").value == runs[1]
    assert at.selectbox(key="_w_compare_metric").value == "t2_echo"
    assert any(t.startswith(f"run {runs[3]}") and f"→ run {runs[1]}" in t for t in texts(at))
    assert {k: at.query_params[k] for k in link} == link
    at.selectbox(key=f"_w_compare_from_{chip_id}").set_value(runs[2]).run()
    assert at.query_params["from"] == runs[2]
    reloaded = fresh(dict(at.query_params), "pages/compare.py")
    assert reloaded.selectbox(key=f"_w_compare_from_{chip_id}").value == runs[2]
    assert reloaded.selectbox(key=f"_w_compare_to_{chip_id}").value == runs[1]
    days = fresh({"chip": chip_id, "by": "days"}, "pages/compare.py")
    assert days.radio(key="compare_by").value == "two days" and days.query_params["by"] == "days"


def test_qubits_sorted_by_a_metric_keep_dead_qubits_last_both_ways(app_env, app_repo, demo_chip):
    from tests.pages.test_qubits import stored_display_values

    chip_id, size = demo_chip["chip_id"], demo_chip["size"]
    values = stored_display_values(app_repo, demo_chip, "t1")
    dead = [qubit_label(q, size) for q in range(size) if values[q] is None]
    assert dead, "the demo chip has no qubit without a T1"
    for order in ("ascending", "descending"):
        alive = sorted((q for q in range(size) if values[q] is not None),
                       key=lambda q: (values[q] if order == "ascending" else -values[q], q))
        at = fresh({"chip": chip_id, "sort": "T1 [μs]", "order": order}, "pages/qubits.py")
        shown = list(dataframe(at, "qubit", "last calibrated")["qubit"])
        assert shown == [qubit_label(q, size) for q in alive] + dead, order
        assert (at.query_params["sort"], at.query_params["order"]) == ("T1 [μs]", order)
