"""An independent engine for the MongoDB query plan: mongomock runs sort, limit, aggregate and distinct
in pure Python, so every read a real server gets runs in the tests without a ``mongod``."""

from __future__ import annotations

from typing import Any

import mongomock
from mongomock.aggregate import process_pipeline


class _Collection(mongomock.Collection):
    """mongomock's collection, except that a pipeline's leading ``$match`` runs as a ``find`` (as a server
    serves it from an index): mongomock's own ``aggregate`` copies every document of the collection before
    the first stage, which made each chip-wide "latest" read cost seconds.  ``$match`` and ``find`` share
    mongomock's filter, so the documents each stage sees are the same."""

    def aggregate(self, pipeline, session=None, **kwargs):
        first = pipeline[0] if pipeline else {}
        if list(first) != ["$match"]:
            return super().aggregate(pipeline, session=session, **kwargs)
        return process_pipeline(list(self.find(first["$match"])), self.database, pipeline[1:], session)


class _Database(mongomock.Database):
    def get_collection(self, name, *args, **kwargs):
        collection = super().get_collection(name, *args, **kwargs)
        if type(collection) is mongomock.Collection:
            collection.__class__ = _Collection
        return collection


def mongo_plan_database(name: str = "qdash") -> Any:
    """A fresh mongomock ``Database``; a repository over it picks ``MongoPlan`` (not the embedded engine)."""
    db = mongomock.MongoClient(tz_aware=False)[name]
    db.__class__ = _Database
    return db
