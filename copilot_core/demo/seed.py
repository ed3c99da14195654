"""Generate the demo chips and write them into a database (embedded or any pymongo ``Database``).

Deterministic: the same seed, chips, days and ``now`` give the same documents, so tests can
rebuild expectations and two seeded databases compare equal.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

import numpy as np

from copilot_core.data.connection import ensure_indexes
from copilot_core.data.engine import Database
from copilot_core.demo.documents import ChipBuilder, ChipSpec, _Ids
from copilot_core.demo.figures import write_demo_figures
from copilot_core.demo.physics import simulate
from copilot_core.domain.topology import topology_for
from copilot_core.figures.paths import FigureRoot

DEMO_PROJECT_ID = "demo-project"
DEMO_USERNAME = "demo"
DEFAULT_CHIPS = (64, 144)
CHIP_NAMES = {16: "16Qv1", 64: "64Qv3", 144: "144Qv2", 256: "256Qv1", 1024: "1024Qv1"}
# Older chips first: the newest-installed chip is the app's default.
INSTALLED_DAYS_AGO = {16: 200, 64: 120, 144: 60, 256: 150, 1024: 240}
COLLECTIONS = ("chip", "qubit", "coupling", "task_result_history", "execution_history", "calibration_note",
               "parameter_versions", "provenance_relations", "provenance_activities")
BATCH = 2000


@dataclass
class SeedReport:
    chips: list[str]
    counts: dict[str, int] = field(default_factory=dict)
    generate_seconds: float = 0.0
    write_seconds: float = 0.0
    figures: int = 0
    figure_seconds: float = 0.0
    skipped: bool = False

    def summary(self) -> str:
        if self.skipped:
            return "database already holds chips; nothing seeded (--if-empty)"
        total = sum(self.counts.values())
        return (f"seeded chips {', '.join(self.chips)}: {total} documents "
                f"({', '.join(f'{k} {v}' for k, v in self.counts.items())}) in "
                f"{self.generate_seconds + self.write_seconds:.1f} s "
                f"(generate {self.generate_seconds:.1f} s, write {self.write_seconds:.1f} s)"
                + (f"; {self.figures} fit figures in {self.figure_seconds:.1f} s" if self.figures else ""))


def utc_now() -> datetime:
    """Naive UTC now, as QDash stores times."""
    return datetime.now(timezone.utc).replace(tzinfo=None)


def demo_clock(now: datetime | None = None) -> datetime:
    """The demo's "now": the latest noon (UTC) at or before ``now``.  Each day's runs start about 90 minutes
    before it and end before it, so no run crosses midnight and the data of a day does not depend on the hour
    it was seeded at."""
    now = (now or utc_now()).replace(tzinfo=None)
    noon = now.replace(hour=12, minute=0, second=0, microsecond=0)
    return noon if noon <= now else noon - timedelta(days=1)


def chip_specs(sizes: tuple[int, ...] = DEFAULT_CHIPS, days: int = 30, stress: bool = False) -> list[ChipSpec]:
    """The chips to generate; ``stress`` adds a 1024-qubit chip with at most 7 days."""
    specs = [ChipSpec(CHIP_NAMES.get(s, f"{s}Qv1"), s, INSTALLED_DAYS_AGO.get(s, 100), days) for s in sizes]
    if stress and 1024 not in sizes:
        specs.append(ChipSpec(CHIP_NAMES[1024], 1024, INSTALLED_DAYS_AGO[1024], min(days, 7)))
    return specs


def generate(specs: list[ChipSpec], *, seed: int = 7, now: datetime | None = None,
             project_id: str = DEMO_PROJECT_ID, username: str = DEMO_USERNAME,
             provenance_days: int = 5) -> dict[str, list[dict]]:
    """All demo documents by collection (pure: no database)."""
    now = (now or demo_clock()).replace(tzinfo=None)
    ids = _Ids(seed)
    out: dict[str, list[dict]] = {c: [] for c in COLLECTIONS}
    for index, spec in enumerate(specs):
        if spec.days < 1:
            raise ValueError("days must be at least 1")
        rng = np.random.default_rng([seed, spec.size, index])
        topology = topology_for(spec.size)
        physics = simulate(rng, topology, spec.days)
        builder = ChipBuilder(spec, topology, physics, rng, ids, now=now, project_id=project_id, username=username,
                              provenance_days=provenance_days, chip_index=index, inject_note=index == 0)
        for collection, docs in builder.build().collections.items():
            out[collection].extend(docs)
    return out


def is_empty(db: Database) -> bool:
    """No chip documents at all (any project)."""
    return db["chip"].find_one({}, {"_id": 1}) is None


def seed_database(db: Database, specs: list[ChipSpec] | None = None, *, seed: int = 7, now: datetime | None = None,
                  if_empty: bool = False, project_id: str = DEMO_PROJECT_ID,
                  figures: FigureRoot | None = None) -> SeedReport:
    """Write the demo chips into ``db`` (replacing earlier demo chips of the same ids) and create indexes;
    with ``figures``, also the fit figures of the newest results under that root (tests leave it out)."""
    specs = specs or chip_specs()
    report = SeedReport(chips=[s.chip_id for s in specs])
    if if_empty and not is_empty(db):
        report.skipped = True
        return report
    t0 = time.perf_counter()
    docs = generate(specs, seed=seed, now=now, project_id=project_id)
    report.generate_seconds = time.perf_counter() - t0
    t1 = time.perf_counter()
    chip_ids = [s.chip_id for s in specs]
    for collection in COLLECTIONS:
        db[collection].delete_many({"project_id": project_id, "chip_id": {"$in": chip_ids}})
    for collection, rows in docs.items():
        for start in range(0, len(rows), BATCH):
            db[collection].insert_many([dict(r) for r in rows[start:start + BATCH]], ordered=True)
        report.counts[collection] = len(rows)
    ensure_indexes(db)
    report.write_seconds = time.perf_counter() - t1
    if figures is not None:
        t2 = time.perf_counter()
        report.figures = write_demo_figures(docs["task_result_history"], figures)
        report.figure_seconds = time.perf_counter() - t2
    return report
