"""Which installed chip a chip described in words means ("the bigger chip", "the other device", "the newer
processor", "the 144 one"): read from the chip collection (size = its number of qubits, installed date), never the
chip in view by default.  A description that picks no one chip (two chips of one size, a chip with no installed date, "the
other chip" among three) is asked about, never guessed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from copilot_core.language.chip_words import Described, chips_described, described_size
from copilot_core.domain.vocabulary import chips_meant
from copilot_core.language.question import parse

# Written after a question that describes several chips ("the bigger chip against the smaller one"): a constant
# phrase the parse reads as "each chip", so no chip id from the database enters the person's words.
EACH_CHIP = "(on each chip)"


@dataclass(frozen=True)
class ChipFacts:
    """What a description is read against: one installed chip's id, qubit count and installed time."""

    chip_id: str
    size: int | None
    installed_at: datetime | float | None


@dataclass(frozen=True)
class ChipsMeant:
    """The installed chips the question's descriptions mean, in the order written (empty: it describes none);
    ``unclear``: a description that picks no one chip, to ask about among ``options``."""

    chips: tuple[str, ...] = ()
    unclear: bool = False
    options: tuple[str, ...] = ()


def _extreme(facts: Sequence[ChipFacts], key: str, highest: bool) -> str | None:
    """The one chip with the largest (or smallest) ``key``; None on a tie or a chip that does not say."""
    values = [getattr(f, key) for f in facts]
    if len(facts) < 2 or any(v is None for v in values) or len({type(v) for v in values}) > 1:
        return None if len(facts) != 1 else facts[0].chip_id
    best = max(values) if highest else min(values)
    winners = [f.chip_id for f, v in zip(facts, values) if v == best]
    return winners[0] if len(winners) == 1 else None


def _sized(size: int | None, facts: Sequence[ChipFacts]) -> str | None:
    """The one installed chip of ``size`` qubits (its stored size), None when no chip or several have it."""
    fits = [f.chip_id for f in facts if size is not None and f.size == size]
    if not fits and size is not None and all(f.size is None for f in facts):  # no row says: the id's own count
        fits = list(chips_meant(f"{size}Q", [f.chip_id for f in facts]))
    return fits[0] if len(fits) == 1 else None


def _no_chip_of(kind: Described, words: str, facts: Sequence[ChipFacts]) -> bool:
    """A chip named by a qubit count no installed chip has ("the 16-qubit chip"): no chip to ask about, so the
    missing-subject lead says there is no such chip; a bare count ("the 99 one") is still asked about."""
    size = described_size(words) if kind == "sized" else None
    return size is not None and "qubit" in words.lower() and all(f.size != size for f in facts)


def _meant(kind: Described, facts: Sequence[ChipFacts], beside: str | None, words: str) -> str | None:
    if kind == "sized":
        return _sized(described_size(words), facts)
    if kind == "other":
        others = [f.chip_id for f in facts if f.chip_id != beside]
        return others[0] if beside is not None and len(others) == 1 else None
    key = "size" if kind in ("larger", "smaller") else "installed_at"
    return _extreme(facts, key, kind in ("larger", "newer"))


def chips_meant_by(text: str, facts: Sequence[ChipFacts], chip_in_view: str | None) -> ChipsMeant:
    """The chips ``text`` describes, read against the installed chips' ``facts``.  "The other chip" is the one
    besides the chip the question names by id, else besides the chip in view."""
    described = chips_described(text)
    if not described or not facts:
        return ChipsMeant()
    named = parse(text, [f.chip_id for f in facts]).chips
    beside = named[0] if len(named) == 1 else chip_in_view
    described = [(start, end, kind) for start, end, kind in described if not _no_chip_of(kind, text[start:end], facts)]
    meant = [_meant(kind, facts, beside, text[start:end]) for start, end, kind in described]
    if None in meant:
        return ChipsMeant(unclear=True, options=tuple(f.chip_id for f in facts))
    return ChipsMeant(chips=tuple(dict.fromkeys(c for c in [*named, *meant] if c is not None)))


def size_of(value: object) -> int | None:
    """A chip row's qubit count (None when it does not say)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def installed_time(value: object) -> datetime | float | None:
    """A chip row's installed time as stored (a datetime or epoch milliseconds), else None."""
    if isinstance(value, datetime) or isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return None


def facts_of(rows: Sequence[Mapping[str, object]]) -> list[ChipFacts]:
    """The chip collection's rows as :class:`ChipFacts` (rows without a string id left out)."""
    return [ChipFacts(str(r["chip_id"]), size_of(r.get("size")), installed_time(r.get("installed_at")))
            for r in rows if isinstance(r.get("chip_id"), str)]


__all__ = ["ChipFacts", "ChipsMeant", "EACH_CHIP", "chips_meant_by", "facts_of"]
