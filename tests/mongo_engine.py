"""An independent engine for the MongoDB query plan: mongomock runs sort, limit, aggregate and distinct
in pure Python, so every read a real server gets runs in the tests without a ``mongod``."""

from __future__ import annotations

from typing import Any


def mongo_plan_database(name: str = "qdash") -> Any:
    """A fresh mongomock ``Database``; a repository over it picks ``MongoPlan`` (not the embedded engine)."""
    import mongomock

    return mongomock.MongoClient(tz_aware=False)[name]
