"""How many tokens the model may write: per round, and over the whole turn.

A small model on a CPU writes about 4 tokens a second, so an uncapped round that writes on can take twenty minutes.
Every round's request carries a cap sized to what a final answer needs (a blocks answer of a few paragraphs is a
few hundred tokens), and the turn as a whole has a budget of a few rounds; a round cut at its cap, or a turn whose
budget is spent, ends with the answer computed from the tools' facts (``CutReply``), never with more rounds.
A hosted provider keeps its configured cap (a reasoning model's hidden reasoning counts against it)."""

from __future__ import annotations

from dataclasses import dataclass

from copilot_core.errors import CutReply
from copilot_core.llm.provider import ProviderConfig

TURN_ROUNDS = 3  # the turn's budget, in whole rounds' caps


@dataclass
class OutputBudget:
    """The output tokens a turn may still spend; ``round_cap``: the most one round may write (None: no cap)."""

    round_cap: int | None
    left: int | None

    @classmethod
    def of(cls, provider: ProviderConfig) -> OutputBudget:
        cap = round_cap(provider)
        return cls(cap, None if cap is None else cap * TURN_ROUNDS)

    def next_cap(self) -> int | None:
        """The cap of the next round: the round cap, or what the turn has left when that is less; raises
        ``CutReply`` when the turn's budget is spent."""
        if self.left is None or self.round_cap is None:
            return self.round_cap
        if self.left <= 0:
            raise CutReply("The model used up this turn's output budget before it finished its answer.")
        return min(self.round_cap, self.left)

    def spend(self, tokens: int) -> None:
        if self.left is not None:
            self.left -= max(0, tokens)


def round_cap(provider: ProviderConfig) -> int | None:
    """One round's output-token cap: the configured cap, and for a local server no more than its round cap."""
    cap, local = provider.max_output_tokens, provider.local_round_tokens
    if provider.is_openai or local is None:
        return cap
    return local if cap is None else min(cap, local)
