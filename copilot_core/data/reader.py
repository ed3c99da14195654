"""The base every calibration read stands on: the project scope, the time window, a turn's kept chip facts and the
chip's executions the plans use as an index."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import datetime
from typing import Self

from copilot_core.data import validation as v
from copilot_core.data.engine import Database
from copilot_core.data.guarded import driver_errors
from copilot_core.data.plans import QueryPlan, Query, Run, plan_for
from copilot_core.data.rows import ChipLayout, ChipRow
from copilot_core.data.scoped import scoped
from copilot_core.data.stored import _when
from copilot_core.data.validation import InvalidArgument

MAX_RUNS = 5000  # executions of one chip a read considers (years of daily runs)


@dataclass
class TurnFacts:
    """The chip facts one turn has read, by what was asked (the lookup table ``for_turn`` adds)."""

    chip_ids: list[str] | None = None
    layouts: dict[str, ChipLayout | None] = field(default_factory=dict)
    rows: dict[str, ChipRow | None] = field(default_factory=dict)


class ScopedReader:
    """Validated, project-scoped reads over a pymongo-API ``Database`` (MongoDB or litemongo); the kinds of read
    are added by the classes ``CalibrationRepository`` is made of."""

    def __init__(self, db: Database, *, project_id: str | None = None, plan: QueryPlan | None = None) -> None:
        """``db`` is a pymongo-compatible Database; ``project_id`` (QDASH_PROJECT_ID) scopes every query;
        ``plan`` defaults to the engine's own (tests force ``MongoPlan`` onto another engine)."""
        self.project_id = v.project_id(project_id) if project_id is not None else None
        self.db = scoped(db, self.project_id)  # every query on a project's collections carries its id
        self.plan = plan or plan_for(db)
        self._turn: TurnFacts | None = None  # set on the copy ``for_turn`` gives

    def for_turn(self) -> Self:
        """This repository for one copilot turn: the chip ids and each chip's layout and row are read once however
        many steps ask (the question's chip, the prompt's context, the clarification and the tools all need them).
        A turn lasts seconds: a chip installed meanwhile shows in the next turn.  A failed read is not kept."""
        if self._turn is not None:
            return self
        turn = copy.copy(self)
        turn._turn = TurnFacts()
        return turn

    def scope(self, **conditions: object) -> Query:
        """Every filter starts here (also those of ``runs.RunReader``): the project scope plus validated
        equality conditions.  ``self.db`` adds the scope again by construction (``scoped.py``)."""
        base = {"project_id": self.project_id} if self.project_id else {}
        return base | {k: c for k, c in conditions.items() if c is not None}

    # ---- health -------------------------------------------------------------------------
    def ping(self) -> None:
        """Cheap round trip; raises ``DatabaseUnavailable`` (message names the host) when unreachable."""
        with driver_errors(self):
            self.plan.ping(self.db)

    def warm_up(self) -> None:
        """Build the embedded engine's lazy in-process indexes now (see ``warmup.py``); a no-op on MongoDB."""
        warm = self.plan.index_warm_up(self.db)
        if warm is not None:
            warm.run()

    def _runs(self, chip_id: str) -> list[Run]:
        """The chip's executions, newest start first, with the interval their results fall in."""
        rows = self.db["execution_history"].find(self.scope(chip_id=chip_id),
                                                 {"_id": 0, "execution_id": 1, "start_at": 1, "end_at": 1}) \
            .sort([("start_at", -1), ("execution_id", -1)]).limit(MAX_RUNS)
        return [Run(execution_id=d["execution_id"], start_at=_when(d.get("start_at")), end_at=_when(d.get("end_at")))
                for d in rows if isinstance(d.get("execution_id"), str)]

    def _window_hint(self, chip_id: str, since: datetime) -> dict:
        return self.plan.window_hint(since, lambda: self._runs(chip_id))

    @staticmethod
    def _window(field: str, since: datetime | None, until: datetime | None) -> dict:
        bounds = {}
        if since is not None:
            bounds["$gte"] = v.when(since, "since")
        if until is not None:
            bounds["$lt"] = v.when(until, "until")
        if "$gte" in bounds and "$lt" in bounds and bounds["$gte"] >= bounds["$lt"]:
            raise InvalidArgument("since must be earlier than until")
        return {field: bounds} if bounds else {}
