"""Sentences taken out of an answer's text, one way for every check that removes what the data denies (a value
given to a subject the data lacks, a yes/no on the wrong side of a limit): lines keep their breaks, a block left
empty goes, charts and tables stay."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from copilot_core.answer.blocks import Block, TextBlock
from copilot_core.language.sentences import split_after_marks


def take_out(blocks: Sequence[Block], keep: Callable[[str], bool]) -> tuple[list[Block], list[str]]:
    """``blocks`` with every sentence ``keep`` refuses taken out, and those sentences."""
    out: list[Block] = []
    dropped: list[str] = []
    for block in blocks:
        if not isinstance(block, TextBlock):
            out.append(block)
            continue
        lines = []
        for line in block.text.split("\n"):
            pieces = split_after_marks(line)
            kept = [keep(s) for s in pieces]
            lines.append(" ".join(s for s, k in zip(pieces, kept) if k))
            dropped += [s for s, k in zip(pieces, kept) if not k]
        text = "\n".join(lines).strip()
        if text:
            out.append(TextBlock(text))
    return out, dropped
