"""The copilot engine: providers, the tool loop on both OpenAI APIs, prompts, answer format, guardrails.

Public API (stable; the chat page, the CLI, the evals and the sandbox helper call exactly this)::

    from copilot_core.agent import (ProviderConfig, provider_from_settings, run_copilot, AgentRequest,
                                    AgentResult, MAX_TOOL_ROUNDS)
    provider = provider_from_settings(load_settings())          # None when no model is configured
    result = run_copilot(AgentRequest("Which qubits have low T1?", chip_id="64Qv3"),
                         provider=provider, toolkit=toolkit, repo=repo)
"""

from copilot_core.agent.contracts import AgentRequest, AgentResult, NullTracer, Tracer
from copilot_core.agent.loop import MAX_TOOL_ROUNDS, run_copilot
from copilot_core.llm.provider import ProviderConfig, make_client, provider_from_settings

__all__ = ["AgentRequest", "AgentResult", "MAX_TOOL_ROUNDS", "NullTracer", "ProviderConfig",
           "Tracer", "make_client", "provider_from_settings", "run_copilot"]
