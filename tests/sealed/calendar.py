"""The day a sealed set is built on in the tests.

A set's builder raises when a question has no single answer on the data it is given, and the demo is seeded up to
"now": two days into a month, "this month so far" holds one failure per coupling and no leader.  The seal tests read
a set's wordings and its truths tests recount it, so both take the demo as seeded today when the set builds on it,
else as seeded at the nearest earlier noon on which it does (the same seed, the same generator).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import pytest

from tests.public_eval import Question

MOST_DAYS_BACK = 14
Builder = Callable[[object, datetime], list[Question]]


@dataclass(frozen=True)
class SealedDay:
    questions: list[Question]
    db: object
    now: datetime


def answerable_day(build: Builder, db: object, now: datetime) -> SealedDay:
    """``build``'s set on ``db`` (seeded at ``now``), else on the demo seeded at the nearest earlier noon it builds
    on; ValueError when none within ``MOST_DAYS_BACK`` days does."""
    from copilot_core.data.connection import open_memory_database
    from copilot_core.demo.seed import chip_specs, seed_database
    from tests.conftest import DEMO_SEED

    try:
        return SealedDay(build(db, now), db, now)
    except ValueError as today:
        first = today
    for back in range(1, MOST_DAYS_BACK + 1):
        earlier = now - timedelta(days=back)
        other = open_memory_database(f"sealed-{getattr(build, '__name__', 'set')}-{back}-{os.getpid()}")
        seed_database(other, chip_specs(), seed=DEMO_SEED, now=earlier)
        try:
            return SealedDay(build(other, earlier), other, earlier)
        except ValueError:
            other.close()
    raise ValueError(f"no day in the last {MOST_DAYS_BACK} builds the set: {first}")


def sealed_fixtures(build: Builder) -> tuple[object, object, object]:
    """Module fixtures ``sealed_day``, ``sealed_db`` and ``sealed_now`` for a truths test of ``build``'s set."""

    @pytest.fixture(scope="module", name="sealed_day")
    def sealed_day(demo_db, demo_now) -> SealedDay:
        return answerable_day(build, demo_db, demo_now)

    @pytest.fixture(scope="module", name="sealed_db")
    def sealed_db(sealed_day: SealedDay) -> object:
        return sealed_day.db

    @pytest.fixture(scope="module", name="sealed_now")
    def sealed_now(sealed_day: SealedDay) -> datetime:
        return sealed_day.now

    return sealed_day, sealed_db, sealed_now
