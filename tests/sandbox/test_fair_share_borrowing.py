"""Borrowed slots are accounted exactly: a lender that ends while paused passes its slot to its borrower, a chain
of borrowers continues the right job, at most ``slots`` jobs are paused, and every slot comes back once.  The
share's own threads and calls; each job's pause/resume is recorded where the worker would be told."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from copilot_core.sandbox import fairshare
from copilot_core.sandbox.fairshare import FairShare, SandboxBusy


@pytest.fixture(autouse=True)
def _at_once(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(fairshare, "PAUSABLE_AFTER_S", 0.0)  # a job is pausable as soon as it was sent
    monkeypatch.setattr(fairshare, "PREEMPT_AFTER_S", 0.05)
    yield


class Job:
    """A session's job held open in a thread until ``end()``; ``log`` gets what the worker would be told."""

    def __init__(self, share: FairShare, name: str, log: list[str], wait_s: float = 5.0) -> None:
        self.name, self.log = name, log
        self.admitted, self.done, self.finished = threading.Event(), threading.Event(), threading.Event()
        self.error: Exception | None = None
        self.borrowed = False
        self.thread = threading.Thread(target=self._run, args=(share, wait_s))
        self.thread.start()

    def _run(self, share: FairShare, wait_s: float) -> None:
        try:
            with share.admit(self.name, wait_s) as admission:
                self.borrowed = admission.lender is not None
                admission.running(lambda: self.log.append(f"pause {self.name}"),
                                  lambda: self.log.append(f"resume {self.name}"))
                self.admitted.set()
                self.done.wait(30)
        except Exception as exc:  # noqa: BLE001 - SandboxBusy, or an accounting error the test must see
            self.error = exc
        finally:
            self.finished.set()

    def end(self) -> None:
        self.done.set()
        self.finished.wait(30)
        self.thread.join(30)
        assert self.error is None or isinstance(self.error, SandboxBusy), self.error


def _free(share: FairShare) -> int:
    return share._free._value  # type: ignore[attr-defined] - CPython's semaphore count


def test_a_lender_that_ends_while_paused_passes_its_slot_to_its_borrower():
    share, log = FairShare(1), []
    lender = Job(share, "v", log)
    assert lender.admitted.wait(10)
    borrower = Job(share, "b", log)
    assert borrower.admitted.wait(10) and borrower.borrowed and log == ["pause v"]
    lender.end()  # killed at its deadline while paused
    assert _free(share) == 0  # the slot went to the borrower, not back to the pool
    borrower.end()
    assert _free(share) == 1 and log == ["pause v"]  # nothing to continue; the slot is back once


def test_a_chain_of_borrowers_continues_the_right_jobs_and_returns_one_slot():
    share, log = FairShare(1), []
    v = Job(share, "v", log)
    assert v.admitted.wait(10)
    b = Job(share, "b", log)
    assert b.admitted.wait(10)
    share.slots = 2  # allow a second paused job for this chain (the bound is tested below)
    c = Job(share, "c", log)
    assert c.admitted.wait(10) and c.borrowed and log == ["pause v", "pause b"]
    b.end()  # ends while paused: v continues, c keeps running on the slot b borrowed
    assert log[-1] == "resume v" and share.paused_jobs() == 0
    c.end()
    v.end()
    share.slots = 1
    assert _free(share) == 1 and log == ["pause v", "pause b", "resume v"]


def test_no_more_jobs_are_paused_than_there_are_slots():
    share, log = FairShare(1), []
    v = Job(share, "v", log)
    assert v.admitted.wait(10)
    b = Job(share, "b", log)
    assert b.admitted.wait(10)
    c = Job(share, "c", log, wait_s=0.5)
    assert c.finished.wait(10) and isinstance(c.error, SandboxBusy), c.error
    assert str(c.error).startswith("Sandbox busy: all 1 job slots are taken") and log == ["pause v"]
    b.end()
    v.end()
    assert _free(share) == 1 and log == ["pause v", "resume v"]
