"""The turn's plan, decided once before the first model call: the question's chip, the route and the router's call,
the skills the prompt carries, the secrets; and the finish stage, pure: the answer the person reads from a plan and
a loop's end (text, partial answer on a failure, redaction), the same every time."""

from __future__ import annotations

from copilot_core.agent import AgentRequest, ProviderConfig
from copilot_core.answer.blocks import TextBlock
from copilot_core.agent.finish import LoopEnd, finish
from copilot_core.agent.plan import plan_turn
from copilot_core.routing.router import MORE_TOOLS
from copilot_core.tools import DataStore, Toolkit
from copilot_core.tools.toolkit import ToolOutcome

CHIP = "64Qv3"
KEY = "sk-test-key-0123456789"
PROVIDER = ProviderConfig(api_key=KEY, model="m")


def _plan(repo, question, *, router, chip_in_view=CHIP):
    tools = Toolkit(repo, store=DataStore()).schemas()
    return plan_turn(AgentRequest(question, chip_id=chip_in_view), provider=PROVIDER, tools=tools, repo=repo,
                     router=router, skills=["<skill>x</skill>"]), tools


def test_a_routed_turn_plans_the_call_the_question_fixes_and_sends_no_skills(repo):
    plan, tools = _plan(repo, "What is the T1 of qubit Q5 on chip 64Qv3?", router=True)
    assert plan.prefetch is not None and (plan.prefetch.name, plan.prefetch.args) == (
        "get_qubit_params", {"chip_id": CHIP, "qid": "5", "param_names": ["t1"]})
    assert plan.route is not None and "get_qubit_params" in plan.route.names
    offered = [t["name"] for t in plan.offered(expanded=False) or []]
    assert "get_qubit_params" in offered and MORE_TOOLS in offered and len(offered) < len(tools)
    assert [t["name"] for t in plan.every_tool() or []] == [t["name"] for t in tools]  # the router's round
    assert plan.skills == () and plan.tabular and KEY in plan.secrets


def test_without_the_router_every_tool_is_offered_and_the_skills_are_sent(repo):
    plan, tools = _plan(repo, "What is the T1 of qubit Q5 on chip 64Qv3?", router=False)
    assert plan.route is None and plan.prefetch is None and plan.skills == ("<skill>x</skill>",)
    assert [t["name"] for t in plan.offered(expanded=False) or []] == [t["name"] for t in tools]


def test_the_chip_a_question_names_wins_over_the_chip_in_view(repo):
    plan, _ = _plan(repo, "What is the median T1 on 144Qv2?", router=False)
    assert plan.chip_id == "144Qv2"
    plan, _ = _plan(repo, "What is the median T1?", router=False)
    assert plan.chip_id == CHIP


def _outcome(summary: str) -> ToolOutcome:
    return ToolOutcome(name="get_qubit_params", args={"chip_id": CHIP, "qid": "5"}, ok=True,
                       model_text='{"answer": "Q005 T1 is 41.2 us."}', summary=summary)


def test_finish_shows_what_the_tools_returned_when_the_model_failed(repo):
    plan, _ = _plan(repo, "What is the T1 of Q5?", router=False)
    end = LoopEnd(text=None, outcomes=(_outcome("get_qubit_params: Q005 T1 41.2 us"),),
                  error=f"The model provider failed (HTTP 500) with key {KEY}")
    result = finish(plan, end, model="m", api_style="responses")
    shown = result.blocks[0]
    assert isinstance(shown, TextBlock)
    assert shown.text.startswith("The model provider failed (HTTP 500)")
    assert "What the tools returned before that:\n- get_qubit_params: Q005 T1 41.2 us" in shown.text
    assert KEY not in shown.text and KEY not in (result.error or "")  # the key never reaches the person


def test_finish_redacts_the_turns_secrets_and_is_the_same_every_time(repo):
    plan, _ = _plan(repo, "What is the T1 of Q5?", router=False)
    end = LoopEnd(text=f"Q005's T1 is 41.2 us. (key {KEY})", outcomes=(_outcome("get_qubit_params: Q005"),))
    first = finish(plan, end, model="m", api_style="responses")
    again = finish(plan, end, model="m", api_style="responses")
    assert KEY not in first.answer and "41.2" in first.answer
    assert (first.answer, first.claims, first.unverified_numbers) == (again.answer, again.claims,
                                                                        again.unverified_numbers)
