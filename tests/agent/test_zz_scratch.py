import pytest
from tests.agent.page_turn import SMALL, page_turn, shown
from tests.fakes.scripted_models import caller_then_quoter, quoter, silent

QS = ["What is the median T1 on 64Q?", "What is the median T1 of the 64-qubit chip?", "median T1 on chip 64qv3",
      "What is the median T1 on 144Q?", "Is chip 999Q healthy?", "How many tasks failed on 64Q in the last 7 days?",
      "since 3 November, how many runs failed on each chip?", "failed executions per chip since Nov 3"]

@pytest.mark.parametrize("q", QS)
def test_scratch(q, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    t = page_turn(repo, scripted_openai, tmp_path, q, SMALL)
    print("\n###", q, "\n", shown(t)[:600], "\nCALLS:", [(o.name, o.args, o.ok, o.summary[:100]) for o in (t.result.tool_calls if t.result else [])])
