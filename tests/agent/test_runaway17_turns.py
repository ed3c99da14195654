"""A model that writes on, through the page's path (``Copilot.ask``, the real openai SDK against the scripted server):
every request carries an output-token cap; a round the server cut at it (``finish_reason "length"``, a Responses
``incomplete`` reply) or one that streams for ever ends the turn with the answer computed from the data and a note
saying so, never a hang and never a question back.  And complete questions of every shape are answered, not asked
back, by a model that would ask back whenever it could; incomplete ones still are.  Truths are the hand-written
pymongo reads of ``tests/dev_corrpct7.py`` and ``tests/dev_runaway17.py``."""

from __future__ import annotations

import pytest

from copilot_core.agent.provider_failure import CUT_NOTE
from copilot_core.answer.blocks import AskBlock
from copilot_core.errors import CutReply
from copilot_core.llm.output_budget import TURN_ROUNDS, OutputBudget
from copilot_core.llm.provider import LOCAL_ROUND_TOKENS
from tests import dev_runaway17 as dev
from tests.agent.page_turn import SMALL, page_turn, shown
from tests.dev_corrpct7 import coefficients
from tests.fakes.scripted_models import asker, asker_then_quoter
from tests.fakes.scripted_openai import call, cut, endless
from tests.public_eval import CHIP

QUESTION = f"Do T1 and T2 echo go together on {CHIP}?"
PARTIAL = '{"blocks": [{"type": "text", "content": "Looking at T1 and T2 echo across the qubits, the'


def _cap(body: dict) -> int | None:
    return body.get("max_tokens") or body.get("max_completion_tokens") or body.get("max_output_tokens")


def _r_shown(demo_db) -> str:
    pearson, _, _ = coefficients(demo_db, CHIP, "t1", "t2_echo")
    return f"{pearson:.2f}"


def _ask(repo, server, tmp_path, question: str, style: str = "chat_completions", router: str = "on"):
    from copilot_core.chat import ChatState
    from copilot_core.session import Copilot
    from copilot_core.settings import load_settings
    from copilot_core.skills import SkillLibrary

    settings = load_settings({"DATA_DIR": str(tmp_path), "COPILOT_TOOL_ROUTER": router})
    copilot = Copilot(repo, settings=settings, skills=SkillLibrary.load(), memory=None, gate=False)
    provider = server.provider(style, model=SMALL, max_output_tokens=4096)
    return copilot.ask(ChatState(username="local", provider=provider, chip_id=CHIP), question, clarify=True)


@pytest.mark.parametrize("style", ["chat_completions", "responses"])
@pytest.mark.parametrize("step", ["endless", "cut"])
def test_a_round_that_writes_on_ends_with_the_computed_answer_and_a_note(style, step, demo_db, repo,
                                                                          scripted_openai, tmp_path):
    """The router made the correlation call; the model's answer round never stops (or the server cut it): the
    person reads the data's r for T1 and T2 echo with the note, the stream was closed, and the request carried a
    cap no larger than a final answer needs (the configured 4,096 is not sent to a local server)."""
    scripted_openai.smart = lambda request: endless() if step == "endless" else cut(PARTIAL)
    turn = _ask(repo, scripted_openai, tmp_path, QUESTION, style)
    said = shown(turn)
    assert _r_shown(demo_db) in said, said
    assert CUT_NOTE in said, said
    assert not any(isinstance(b, AskBlock) for b in turn.answer.blocks), said
    bodies = scripted_openai.bodies()
    assert bodies and all(_cap(b) is not None and _cap(b) <= LOCAL_ROUND_TOKENS for b in bodies), bodies
    assert len(bodies) == 1  # a cut round is not sent again


def test_a_cut_round_before_any_tool_call_makes_the_questions_call(demo_db, repo, scripted_openai, tmp_path):
    """With the router off the model's first round writes on for ever: the turn makes the question's own call
    and answers from it, with the note; no second model round."""
    scripted_openai.smart = lambda request: endless()
    said = shown(_ask(repo, scripted_openai, tmp_path, QUESTION, router="off"))
    assert _r_shown(demo_db) in said, said
    assert CUT_NOTE in said, said
    assert len(scripted_openai.bodies()) == 1


def test_a_cut_after_a_tool_call_answers_from_that_call(demo_db, repo, scripted_openai, tmp_path):
    """The model called the correlation itself, then its answer round was cut by the server."""
    scripted_openai.push(call("correlate_metrics", {"chip_id": CHIP, "metric_a": "t1", "metric_b": "t2_echo"}),
                         cut(PARTIAL))
    said = shown(_ask(repo, scripted_openai, tmp_path, QUESTION, router="off"))
    assert _r_shown(demo_db) in said, said
    assert CUT_NOTE in said, said
    caps = [_cap(b) for b in scripted_openai.bodies()]
    assert len(caps) == 2 and all(c is not None and c <= LOCAL_ROUND_TOKENS for c in caps), caps


def test_the_turn_budget_caps_the_rounds_together():
    """Three rounds' caps for the turn; the last round gets only what is left; a spent budget raises."""
    budget = OutputBudget(round_cap=100, left=100 * TURN_ROUNDS)
    assert budget.next_cap() == 100
    budget.spend(250)
    assert budget.next_cap() == 50
    budget.spend(50)
    with pytest.raises(CutReply):
        budget.next_cap()


@pytest.mark.parametrize("asked", dev.COMPLETE, ids=lambda a: a.text[:40])
def test_a_complete_question_is_answered_not_asked_back(asked, repo, scripted_openai, tmp_path):
    """A model that asks back whenever it may: the turn still answers a question whose chip and metrics are named."""
    scripted_openai.smart = asker_then_quoter
    turn = page_turn(repo, scripted_openai, tmp_path, asked.text, SMALL)
    assert turn.answer is not None, shown(turn)
    assert not any(isinstance(b, AskBlock) for b in turn.answer.blocks), shown(turn)


@pytest.mark.parametrize("asked", dev.INCOMPLETE, ids=lambda a: a.text[:40])
def test_an_incomplete_question_is_still_asked_back(asked, repo, scripted_openai, tmp_path):
    scripted_openai.smart = asker
    turn = page_turn(repo, scripted_openai, tmp_path, asked.text, SMALL)
    assert turn.answer is not None and any(isinstance(b, AskBlock) for b in turn.answer.blocks), shown(turn)


ASK_TEXT = "Could you tell me which chip and which two metrics you would like me to compare?"


def _text_asker(request):
    """A model that writes a question back as its answer text, whatever the tools returned."""
    from tests.fakes.scripted_openai import text

    return text(ASK_TEXT)


@pytest.mark.parametrize("asked", dev.COMPLETE, ids=lambda a: a.text[:40])
def test_a_complete_question_is_not_answered_with_a_question_in_words(asked, demo_db, repo, scripted_openai,
                                                                      tmp_path):
    """The model's answer is a question back in words: the person reads an answer from the data instead (a
    correlation: the data's r), never the question."""
    scripted_openai.smart = _text_asker
    said = shown(page_turn(repo, scripted_openai, tmp_path, asked.text, SMALL))
    assert ASK_TEXT not in said, said
    if asked.pair is not None:
        pearson, _, _ = coefficients(demo_db, asked.chip, *asked.pair)
        assert f"{pearson:.2f}" in said, said


@pytest.mark.parametrize("style", ["chat_completions", "responses"])
def test_a_review_the_server_cuts_at_its_cap_keeps_its_words_and_says_cut(style, repo, scripted_openai):
    """The one-click review still shows what the model wrote before the server's cut, with its cut line."""
    from tests.agent.test_qubit_review import FAILED_CASES, facts_review, review

    scripted_openai.smart = lambda request: cut(facts_review(request).text or "")
    case = FAILED_CASES[0]
    result = review(scripted_openai, repo, case.chip_id, case.qid, api_style=style)
    said = result.blocks[1].text
    assert "_Cut: the review reached its" in said, said
    assert result.error is None, result.error


_SYLLABLES = ("ka", "lo", "mi", "nu", "pe", "ra", "si", "to", "vu", "ze")
# ~1,600 distinct words (a repeated sentence would be refused as a model stuck in a loop)
LONG_ANSWER = " ".join(a + b + c + d for a in _SYLLABLES for b in _SYLLABLES for c in _SYLLABLES for d in _SYLLABLES[:2]
                       ) + " That is all."


@pytest.mark.parametrize("round_tokens, cut_shown", [(None, True), (4096, False)])
def test_the_local_round_cap_is_the_operators_setting(round_tokens, cut_shown, repo, scripted_openai, tmp_path):
    """An answer of ~1,600 pieces: cut at the default local cap (the person reads the note and not its last words);
    whole, and asked for with the higher cap, once COPILOT_LOCAL_ROUND_TOKENS raises it."""
    from copilot_core.chat import ChatState
    from copilot_core.llm.provider import provider_from_settings
    from copilot_core.session import Copilot
    from copilot_core.settings import load_settings
    from copilot_core.skills import SkillLibrary
    from tests.fakes.scripted_openai import answer

    raw = {"DATA_DIR": str(tmp_path), "OPENAI_BASE_URL": scripted_openai.base_url, "COPILOT_MODEL": SMALL,
           "COPILOT_TIMEOUT_S": "5", "COPILOT_RETRY_BACKOFF_S": "0"}
    settings = load_settings(raw | ({} if round_tokens is None else {"COPILOT_LOCAL_ROUND_TOKENS": str(round_tokens)}))
    provider = provider_from_settings(settings)
    assert provider is not None
    scripted_openai.smart = lambda request: answer(LONG_ANSWER)
    copilot = Copilot(repo, settings=settings, skills=SkillLibrary.load(), memory=None, gate=False)
    said = shown(copilot.ask(ChatState(username="local", provider=provider, chip_id=CHIP), QUESTION, clarify=True))
    assert (CUT_NOTE in said) is cut_shown, said
    assert ("That is all." in said) is not cut_shown, said
    caps = {_cap(b) for b in scripted_openai.bodies()}
    assert caps == {round_tokens or LOCAL_ROUND_TOKENS}, caps


@pytest.mark.parametrize("raw", ["10", "lots", "-5"])
def test_a_bad_local_round_cap_is_refused_by_name(raw):
    from copilot_core.settings import ConfigError
    from copilot_core.llm.provider import provider_from_settings
    from copilot_core.settings import load_settings

    settings = load_settings({"OPENAI_BASE_URL": "http://127.0.0.1:1/v1", "COPILOT_LOCAL_ROUND_TOKENS": raw})
    with pytest.raises(ConfigError, match="COPILOT_LOCAL_ROUND_TOKENS"):
        provider_from_settings(settings)


def test_a_hosted_provider_keeps_its_configured_cap():
    from copilot_core.llm.output_budget import round_cap
    from copilot_core.llm.provider import provider_from_settings
    from copilot_core.settings import load_settings

    settings = load_settings({"OPENAI_API_KEY": "sk-test-0001", "COPILOT_MAX_OUTPUT_TOKENS": "6000",
                              "COPILOT_LOCAL_ROUND_TOKENS": "2000"})
    provider = provider_from_settings(settings)
    assert provider is not None and round_cap(provider) == 6000
