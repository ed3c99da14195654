"""Shared fixtures for every test folder (each area adds its own in tests/<area>/conftest.py).

Test tiers (markers, see pyproject.toml): ``e2e`` (everything under tests/e2e), ``real_llm`` (tests/real_llm),
``mongo_plan`` (a test parametrized onto the MongoDB plan: a fixture param ``mongo_plan``/``mongomock``) and
``slow`` (the modules in ``SLOW_MODULES`` and under ``SLOW_PREFIXES``: sealed sets, whole pages in AppTest, seeded
databases, servers, sandbox processes).  ``make check`` runs the rest in parallel; ``make test`` runs everything.

Demo database fixtures (seed 7, the default chips 64Qv3 and 144Qv2, 30 days ending at session start):

- ``demo_db`` (session): an in-memory litemongo ``Database`` (same proxy the app uses) seeded with the
  default demo.  Treat it as READ-ONLY: it is shared by the whole session.  Write your own collections
  (e.g. ``copilot_memory``) only with keys unique to your test.
- ``repo`` (session): ``CalibrationRepository(demo_db)``.
- ``demo_chip_ids`` (session): ``("64Qv3", "144Qv2")``; ``demo_now``: the naive-UTC "now" the demo ends at.
- ``seeded_data_dir`` (session): a temporary DATA_DIR holding the same demo in the embedded SQLite store
  (seeded once per run, lazily, by whichever parallel worker asks first; every worker gets its own copy).
- ``small_seeded_data_dir`` (session): the same kind of store with only the 64-qubit chip over 4 days.
- ``app_env`` (function): points this process (``monkeypatch``) at ``seeded_data_dir`` with no MONGODB_URI,
  no project scope and no secrets file; returns ``AppEnv(data_dir, env)`` where ``env`` is a full
  environment dict for ``subprocess`` (e.g. ``streamlit run``).  Use it for AppTest and servers.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEMO_SEED = 7
DEMO_CHIP_IDS = ("64Qv3", "144Qv2")
# Settings keys that must not leak from the developer's shell into tests using the demo.
_CLEARED_KEYS = ("MONGODB_URI", "MONGO_DB_NAME", "QDASH_PROJECT_ID", "CALIB_DATA_DIR", "CALIB_DATA_PREFIX")


TESTS = Path(__file__).resolve().parent
MONGO_PLAN_PARAMS = {"mongo_plan", "mongomock"}
# Modules whose tests each take seconds of CPU (measured with --durations); ``make check`` leaves them out.
SLOW_MODULES = frozenset({
    *(f"pages/{name}" for name in (
        "test_analysis.py", "test_compare.py", "test_errors.py", "test_first_view.py", "test_heatmap.py",
        "test_hidden_items_hint.py", "test_old_database.py", "test_overview.py", "test_qubits.py",
        "test_signin_off.py", "test_timeseries.py", "test_url_state.py")),  # whole pages in AppTest
    "chat/test_copilot_page.py", "chat/test_hostile_corpus.py", "chat/test_secrets_never_leave.py",
    "depth/test_memory_page.py", "depth/test_evals.py", "compare/test_report.py",
    "sandbox/test_attack_corpus.py", "sandbox/test_benign.py", "sandbox/test_spare.py", "sandbox/test_os_layers.py",
    "sandbox/test_prefault.py",  # sandbox processes
    "agent/test_cli.py",  # the CLI in a subprocess
    "data/test_demo.py", "data/test_old_data.py", "data/test_import.py",  # seeded or imported databases
    "agent/test_public_eval.py", "agent/test_qubit_review.py",  # the scripted evals: every question, three models
    "chat/test_notebook_export.py", "pages/test_hostile_links.py", "pages/test_figures.py",  # kernels, Chromium
    "depth/test_memory_owner.py",  # whole pages in AppTest
    *(f"agent/{name}" for name in (
        "test_answer_scope.py", "test_asks.py", "test_chip_names.py", "test_fails_most.py", "test_limit_ranges.py",
        "test_marks9_coverage.py", "test_own_counts.py", "test_prefetch.py", "test_rate_top_n.py", "test_restate.py",
        "test_restate2.py", "test_restate_dev_scan.py", "test_routes.py", "test_shapes_b.py",
        "test_tool_sentences_survive_the_check.py")),  # whole dev question sets read, routed and checked
    "tools/test_counting17.py", "tools/test_task_names16.py", "tools/test_tools_demo.py",  # every tool on the demo
    "chat/test_stop_and_stream.py", "chat/test_two_people.py", "pages/test_bad_database_values.py",
    "pages/test_chart_look.py",  # whole pages or turns with servers
    "sandbox/test_fair_share_preempt.py", "sandbox/test_job_isolation.py",  # sandbox processes
})


# Every sealed set's module builds that set's truths on the embedded engine (minutes each); every dev question set
# through the router (``test_router_*``) and through the page's turn (``*_turns.py``) takes tens of seconds (70 % of
# the in-process tier).  The full tier runs them.
SLOW_PREFIXES = ("agent/test_sealed", "test_router_", "agent/test_router_")
SLOW_SUFFIXES = ("_turns.py",)


# The modules that take longest (CPU seconds per module, measured per worker on ``make test``'s in-process run),
# longest first.  Parallel runs hand whole files to the workers in collection order, so these start first and
# the run ends on short files instead of one worker finishing a long module alone.
LONGEST_FIRST = (
    "agent/test_cli.py", "tools/test_tools_demo.py", "chat/test_hostile_corpus.py", "agent/test_qubit_review.py",
    "agent/test_prefetch.py", "data/test_demo.py", "agent/test_public_eval.py", "compare/test_report.py",
    "pages/test_figures.py", "chat/test_secrets_never_leave.py", "sandbox/test_job_isolation.py",
    "tools/test_ranking.py", "pages/test_analysis.py", "pages/test_timeseries.py", "pages/test_compare.py",
    "chat/test_copilot_page.py", "sandbox/test_spare.py", "pages/test_heatmap.py", "pages/test_overview.py",
    "pages/test_url_state.py", "chat/test_notebook_export.py", "compare/test_compare_values.py",
    "sandbox/test_attack_corpus.py", "depth/test_evals.py", "chat/test_scope_guard.py", "pages/test_first_view.py",
    "tools/test_session_chip.py", "sandbox/test_prefault.py", "chat/test_two_people.py", "pages/test_hostile_links.py",
    "sandbox/test_host_boundary.py", "pages/test_old_database.py", "agent/test_loop.py", "chat/test_stop_and_stream.py",
    "pages/test_errors.py", "sandbox/test_host.py", "chat/test_follow_ups_page.py",
)
_RANK = {name: rank for rank, name in enumerate(LONGEST_FIRST)}


def pytest_configure(config: pytest.Config) -> None:
    """Keep the order below: pytest-xdist would otherwise re-sort every file by how many tests it holds, which
    sends a long module with few tests (whole pages, CLI subprocesses) to the end of the run."""
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def _relative(item: pytest.Item) -> str:
    path = Path(str(item.path))
    return path.relative_to(TESTS).as_posix() if path.is_relative_to(TESTS) else path.name


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test with its tier from where it lives and which engine it runs on.  Order: the longest
    modules first, then the others by how many tests they hold (pytest-xdist's own order); stable, so each file
    keeps its tests' order."""
    per_file = Counter(_relative(item) for item in items)
    items.sort(key=lambda item: (_RANK.get(_relative(item), len(_RANK)), -per_file[_relative(item)]))
    for item in items:
        relative = _relative(item)
        if relative.startswith("e2e/"):
            item.add_marker(pytest.mark.e2e)
        if relative.startswith("real_llm/"):
            item.add_marker(pytest.mark.real_llm)
        if relative in SLOW_MODULES or relative.startswith(SLOW_PREFIXES) or relative.endswith(SLOW_SUFFIXES):
            item.add_marker(pytest.mark.slow)
        callspec = getattr(item, "callspec", None)
        if callspec is not None and MONGO_PLAN_PARAMS & {p for p in callspec.params.values() if isinstance(p, str)}:
            item.add_marker(pytest.mark.mongo_plan)


@dataclass(frozen=True)
class AppEnv:
    data_dir: Path
    env: dict[str, str]


def _run_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary directory every parallel worker of this run shares (each worker's own is under it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """``root/name`` built by ``build`` once per run: the first worker builds it under a lock, the others wait
    for it and read it (seeding the demo store takes seconds of CPU per copy)."""
    root = _run_root(tmp_path_factory)
    target = root / name
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / f"{name}.done").exists():
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir()
            build(target)
            (root / f"{name}.done").touch()
    return target


@pytest.fixture(scope="session")
def demo_now(tmp_path_factory):
    """One "now" for the whole run, so every worker's demo documents (and their copies) are the same."""
    from datetime import datetime

    from copilot_core.demo.seed import demo_clock

    def write(folder: Path) -> None:
        (folder / "now").write_text(demo_clock().isoformat())

    return datetime.fromisoformat((_built_once(tmp_path_factory, "demo-now", write) / "now").read_text())


@pytest.fixture(scope="session")
def demo_chip_ids() -> tuple[str, ...]:
    return DEMO_CHIP_IDS


@pytest.fixture(scope="session")
def demo_db(demo_now):
    from copilot_core.data.connection import open_memory_database
    from copilot_core.demo.seed import chip_specs, seed_database

    db = open_memory_database(f"demo-session-{os.getpid()}")
    seed_database(db, chip_specs(), seed=DEMO_SEED, now=demo_now)
    yield db
    db.close()


@pytest.fixture(scope="session")
def repo(demo_db):
    from copilot_core.data.repository import CalibrationRepository

    return CalibrationRepository(demo_db)


@pytest.fixture(scope="session")
def midnight():
    """The demo seeded so each chip's newest runs cross midnight UTC (read-only: shared by every module)."""
    from tests.dev_windows8 import midnight_db

    db = midnight_db(f"midnight-session-{os.getpid()}")
    yield db
    db.close()


@pytest.fixture(scope="session")
def mrepo(midnight):
    from copilot_core.data.repository import CalibrationRepository

    return CalibrationRepository(midnight)


def _seeded_copy(tmp_path_factory: pytest.TempPathFactory, name: str, now, **specs) -> Path:
    """This worker's own copy of an embedded SQLite store seeded with the demo chips ``chip_specs(**specs)``
    (seeded once per run; tests may write to their copy)."""
    from copilot_core.data.connection import open_database
    from copilot_core.demo.seed import chip_specs, seed_database
    from copilot_core.settings import Settings

    def seed(folder: Path) -> None:
        db = open_database(Settings(data_dir=folder))
        try:
            seed_database(db, chip_specs(**specs), seed=DEMO_SEED, now=now)
        finally:
            db.close()

    data_dir = tmp_path_factory.mktemp(name) / "store"
    shutil.copytree(_built_once(tmp_path_factory, name, seed), data_dir)
    return data_dir


@pytest.fixture(scope="session")
def seeded_data_dir(tmp_path_factory, demo_now) -> Path:
    return _seeded_copy(tmp_path_factory, "demo-data", demo_now)


@pytest.fixture(scope="session")
def small_seeded_data_dir(tmp_path_factory, demo_now) -> Path:
    """The 64-qubit demo chip over 4 days (about 14k documents, still past ``LONG_WAIT_DOCUMENTS``): for tests
    that ask how the store starts up, not what the demo's data says."""
    return _seeded_copy(tmp_path_factory, "small-demo-data", demo_now, sizes=(64,), days=4)


@pytest.fixture
def app_env(seeded_data_dir, monkeypatch, tmp_path) -> AppEnv:
    no_secrets = tmp_path / "no-secrets.toml"
    for key in _CLEARED_KEYS:
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DATA_DIR", str(seeded_data_dir))
    monkeypatch.setenv("CALIBRATION_COPILOT_SECRETS", str(no_secrets))
    env = {k: v for k, v in os.environ.items() if k not in _CLEARED_KEYS}
    env |= {"DATA_DIR": str(seeded_data_dir), "CALIBRATION_COPILOT_SECRETS": str(no_secrets),
            "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    return AppEnv(data_dir=seeded_data_dir, env=env)
