"""First page after a server start: the start-up hook (server.py) leaves the first page no index to build,
no database read and none of Streamlit's once-per-process work.

litemongo builds a collection's in-process hash index (decoding every document) on the first query that
touches it; ``CollectionIndexes`` is constructed once per such build, so counting its constructions counts
the builds.  Every call on the embedded store goes through ``SerialExecutor.run``, so counting those counts
the page's database reads.  Streamlit's first element of a process walks the stack (``env_util.is_repl``),
which makes ``inspect`` map every loaded module to its file (``getabsfile`` once per module) the first time.
"""

from __future__ import annotations

import gc
import importlib.util
import inspect

import pytest
import streamlit as st
from litemongo._vendor.mongomock import indexing
from streamlit import env_util
from streamlit.testing.v1 import AppTest

from copilot_core.data import serial
from copilot_core.data.connection import open_database
from copilot_core.data.warmup import LONG_WAIT_DOCUMENTS, IndexWarmUp
from copilot_core.settings import load_settings
from tests.pages.conftest import APP, ROOT, TIMEOUT, dataframe


def load_server_module():
    spec = importlib.util.spec_from_file_location("copilot_server_entry", ROOT / "server.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def seeded_data_dir(small_seeded_data_dir):
    """These tests ask how the store starts up (index builds, reads, the collector), not what the data says:
    the 64-qubit chip over 4 days is still a long wait (past ``LONG_WAIT_DOCUMENTS``) at a seventh of the demo."""
    return small_seeded_data_dir


@pytest.fixture
def index_builds(monkeypatch) -> list[int]:
    """One entry per litemongo index build in this process from now on."""
    builds: list[int] = []
    original = indexing.CollectionIndexes.__init__

    def counting(self):
        builds.append(1)
        original(self)

    monkeypatch.setattr(indexing.CollectionIndexes, "__init__", counting)
    return builds


@pytest.fixture
def store_calls(monkeypatch) -> list[int]:
    """One entry per call on the embedded store in this process from now on."""
    calls: list[int] = []
    original = serial.SerialExecutor.run

    def counting(self, fn):
        calls.append(1)
        return original(self, fn)

    monkeypatch.setattr(serial.SerialExecutor, "run", counting)
    return calls


@pytest.fixture
def modules_walked(monkeypatch) -> list[object]:
    """``inspect``'s module-to-file table as a fresh process has it (empty), and every module it maps from
    now on."""
    monkeypatch.setattr(inspect, "modulesbyfile", {})
    monkeypatch.setattr(inspect, "_filesbymodname", {})
    walked: list[object] = []
    original = inspect.getabsfile

    def counting(obj, _filename=None):
        if inspect.ismodule(obj):  # frames are looked up too, once per frame; modules only when mapped
            walked.append(obj)
        return original(obj, _filename)

    monkeypatch.setattr(inspect, "getabsfile", counting)
    return walked


@pytest.fixture
def fresh_process_caches(app_env):
    """The cached store and reads of a server process that has just started."""
    st.cache_resource.clear()
    st.cache_data.clear()
    yield
    st.cache_resource.clear()
    st.cache_data.clear()


def expected_chip_ids() -> set[str]:
    db = open_database(load_settings())
    try:
        return {doc["chip_id"] for doc in db["chip"].find({}, {"chip_id": 1})}
    finally:
        db.close()


def test_after_the_start_up_hook_the_first_page_builds_no_index_and_reads_nothing(fresh_process_caches,
                                                                                   index_builds, store_calls):
    chip_ids = expected_chip_ids()
    load_server_module().prepare()
    built_by_hook, read_by_hook = len(index_builds), len(store_calls)
    assert built_by_hook > 0, "the hook should have built the store's indexes"
    assert read_by_hook > 0, "the hook should have read the Overview's data"

    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()

    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == "Overview"
    assert set(dataframe(at, "chip")["chip"]) == chip_ids
    assert dataframe(at, "metric", "excellent").shape[0] > 0, "the chip health table is shown"
    assert len(index_builds) == built_by_hook, "the first page built an index the hook should have built"
    assert len(store_calls) == read_by_hook, "the first page read data the hook should have read ahead"
    assert not at.get("progress"), "no progress bar once the store is ready"


def test_the_start_up_hook_leaves_streamlits_first_element_no_module_walk(fresh_process_caches, modules_walked):
    load_server_module().prepare()
    assert len(modules_walked) > 100, "the hook should have mapped the loaded modules (a fresh table)"
    modules_walked.clear()

    env_util.is_repl()  # what Streamlit runs before the first element of a process

    assert modules_walked == [], "the first session would walk every loaded module"


@pytest.fixture
def unfrozen_after():
    yield
    gc.unfreeze()


def test_the_start_up_hook_takes_the_store_out_of_the_collectors_walk(fresh_process_caches, unfrozen_after):
    """Streamlit collects garbage after every script run; the store's index (at least one tracked object per
    document) must not be walked each time."""
    settings = load_settings()
    db = open_database(settings)
    try:
        documents = sum(db[name].count_documents({}) for name in db.list_collection_names())
    finally:
        db.close()

    load_server_module().prepare()

    assert gc.get_freeze_count() >= documents, "the store's indexes should be out of the collector's walk"
    assert len(gc.get_objects()) < documents / 10, "a post-run collection would walk the store's heap"


def test_without_the_hook_the_first_page_waits_for_the_build_and_shows_the_same_data(fresh_process_caches,
                                                                                      index_builds):
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT).run()

    assert not at.exception, [e.value for e in at.exception]
    assert index_builds, "a plain `streamlit run app.py` builds the indexes on the first page"
    assert set(dataframe(at, "chip")["chip"]) == expected_chip_ids()


def test_warm_up_reports_every_collection_and_document(app_env):
    settings = load_settings()
    counting_db = open_database(settings)
    try:
        names = counting_db.list_collection_names()
        expected = {name: counting_db[name].count_documents({}) for name in names}
    finally:
        counting_db.close()

    db = open_database(settings)
    try:
        warm = IndexWarmUp(db)
        assert warm.pending_documents() == sum(expected.values())
        assert warm.pending_documents() >= LONG_WAIT_DOCUMENTS, "the demo store is a long wait: a bar is due"
        reports = []
        final = warm.run(report=reports.append)
    finally:
        db.close()

    assert [r.collection for r in reports[:-1]] == sorted(expected, key=lambda n: (expected[n], n))
    assert [r.documents_done for r in reports[:-1]] == sorted(
        sum(expected[n] for n in expected if (expected[n], n) < (expected[m], m)) for m in expected)
    assert final.finished and final.fraction == 1.0 and final.error is None
    assert (final.documents_total, final.collections_total) == (sum(expected.values()), len(expected))
    assert warm.pending_documents() == 0
    assert f"{sum(expected.values()):,} documents" in final.text
