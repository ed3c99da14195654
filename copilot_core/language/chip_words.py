"""A chip named by what it is rather than by its id: "the bigger chip", "the 144-qubit device", "the 144 one",
"the other chip", "the newer processor".  Which installed chip a description means needs the chips' sizes and
installed dates, so the reading here only says what kind of chip is described and where; the turn resolves it
against the chip collection (:mod:`~copilot_core.routing.chip_meant`)."""

from __future__ import annotations

from typing import Literal

from copilot_core.language.phrases import Phrases, tokens_of

Described = Literal["larger", "smaller", "newer", "older", "other", "sized"]

_CHIP = "chip/device/processor/one"
# Description kind -> its words, always with "the" (or "that"/"our") before it so "a smaller T1" is no chip.
CHIP_DESCRIPTIONS: dict[Described, Phrases] = {
    "larger": Phrases(f"the/our bigger/larger/biggest/largest {_CHIP}|the/our big/large {_CHIP}"),
    "smaller": Phrases(f"the/our smaller/smallest {_CHIP}|the/our small/little {_CHIP}"),
    "newer": Phrases(f"the/our newer/newest {_CHIP}|the/our more/most recent/recently installed? {_CHIP}"
                     f"|the/our latest/newly installed {_CHIP}|the/our new {_CHIP}"),
    "older": Phrases(f"the/our older/oldest {_CHIP}|the/our old {_CHIP}|the/our earlier/first installed {_CHIP}"),
    # by its qubit count ("the 144 one", "our 64-qubit device"): the count is the first number of the words
    "sized": Phrases(f"the/our/that # qubit/qubits/q? {_CHIP}"),
    "other": Phrases(f"the other {_CHIP}|the {_CHIP} that/which is/isn/s not/t in/on view/screen"
                     f"|the {_CHIP} not in/on view/screen|the {_CHIP} i/we m/am/are not viewing/looking at/on?"
                     f"|the {_CHIP} out of view|the chip/device/processor not selected|the unselected {_CHIP}"),
}


def described_size(words: str) -> int | None:
    """The qubit count a "sized" description states ("the 144 one": 144), else None."""
    return next((int(w) for _, _, w in tokens_of(words) if w.isdigit()), None)


def chips_described(text: str) -> list[tuple[int, int, Described]]:
    """``(start, end, kind)`` of every chip ``text`` describes instead of naming, leftmost first (one per place)."""
    found: dict[int, tuple[int, int, Described]] = {}
    for kind, words in CHIP_DESCRIPTIONS.items():
        for start, end in words.find(text):
            if start not in found or end > found[start][1]:
                found[start] = (start, end, kind)
    return sorted(found.values())


__all__ = ["CHIP_DESCRIPTIONS", "Described", "chips_described", "described_size"]
