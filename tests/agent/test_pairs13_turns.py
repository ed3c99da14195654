"""One coupling asked about loosely, through the page's path (``Copilot.ask``, the real openai SDK against the
scripted server over HTTP): what the person reads states the gate time when a duration was asked (a model quoting
the fidelity is not left standing), accepts a model that writes the pair the other way round, says which side of a
limit the value is on (a model leaving it out, or putting it on the wrong side, is replaced), compares the two
qubits of a coupling, and reads a CZ word as the two-qubit (ZX90) gate.  Expected values are the hand-written
pymongo reads of ``tests/dev_pairs13.py``."""

from __future__ import annotations

from tests import dev_pairs13
from tests.agent.page_turn import SMALL, page_turn, shown
from tests.eval_score import problems
from tests.fakes.scripted_models import quoter, silent
from tests.fakes.scripted_openai import call, text

REPLACED = "replaced by one computed from the tool results"


def _wrong(demo_db, repo, scripted_openai, tmp_path, model) -> list:
    scripted_openai.smart = model
    wrong = []
    for question, _ in dev_pairs13.planned(demo_db):
        said = shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))
        if found := problems(question.truth, said):
            wrong.append((question.id, question.text, found, said))
    return wrong


def test_the_quoter_answers_every_dev_question(demo_db, repo, scripted_openai, tmp_path):
    wrong = _wrong(demo_db, repo, scripted_openai, tmp_path, quoter)
    assert not wrong, "\n".join(map(str, wrong))


def test_a_silent_model_still_reads_every_answer_from_the_tools(demo_db, repo, scripted_openai, tmp_path):
    wrong = _wrong(demo_db, repo, scripted_openai, tmp_path, silent)
    assert not wrong, "\n".join(map(str, wrong))


def _first(demo_db, prefix: str):
    return next((q, c) for q, c in dev_pairs13.planned(demo_db) if q.id.startswith(prefix))


def _pair(args: dict) -> tuple[str, str]:
    a, b = args["coupling_id"].split("-")
    return a, b


def _ask(repo, scripted_openai, tmp_path, question, answer: str, args: dict | None = None) -> str:
    """The model calls ``args`` (its own call) first when given, then writes ``answer``."""
    def model(request):
        return text(answer) if request.tool_results or args is None else call("get_coupling_params", args)
    scripted_openai.smart = model
    return shown(page_turn(repo, scripted_openai, tmp_path, question.text, SMALL))


def test_a_model_quoting_the_fidelity_for_a_duration_question_is_replaced_by_the_gate_time(
        demo_db, repo, scripted_openai, tmp_path):
    for prefix in ("p13-time-1", "p13-time-5", "p13-time-12"):
        question, (_, args) = _first(demo_db, prefix)
        a, b = _pair(args)
        fidelity = dev_pairs13.coupling_value(demo_db, args["chip_id"], int(a), int(b), "zx90_gate_fidelity")
        assert fidelity is not None
        said = _ask(repo, scripted_openai, tmp_path, question,
                    f"The ZX90 gate fidelity of Q{a}-Q{b} is {fidelity:.2f}%.",
                    {**args, "param_names": ["zx90_gate_fidelity"]})
        assert not problems(question.truth, said), said
        assert f"{fidelity:.2f}%" not in said, said


def test_a_model_writing_the_pair_the_other_way_round_keeps_its_value(demo_db, repo, scripted_openai, tmp_path):
    for prefix in ("p13-time-2", "p13-time-3", "p13-metric-16"):
        question, (_, args) = _first(demo_db, prefix)
        a, b = _pair(args)
        value = question.truth.expects[0].value
        unit = " ns" if args["param_names"] == ["zx90_gate_time"] else "%"
        answer = f"Coupling Q{b}-Q{a} has a {args['param_names'][0].replace('_', ' ')} of {value:.2f}{unit}."
        said = _ask(repo, scripted_openai, tmp_path, question, answer)
        # the value stands, or (the claim check reads the pair as written) the tool's own sentence replaces it with
        # the note: the right figure either way, never a wrong one shown bare
        assert said == answer or REPLACED in said, said
        assert not problems(question.truth, said), said


def test_a_model_quoting_the_value_alone_for_a_limit_question_gets_the_side_of_the_limit(
        demo_db, repo, scripted_openai, tmp_path):
    question, (_, args) = _first(demo_db, "p13-limit-1")
    a, b = _pair(args)
    value = question.truth.expects[0].value
    said = _ask(repo, scripted_openai, tmp_path, question, f"The ZX90 gate time of Q{a}-Q{b} is {value:g} ns.",
                {k: v for k, v in args.items() if k not in ("below", "above")})
    assert not problems(question.truth, said), said
    side, limit = next((k, v) for k, v in args.items() if k in ("below", "above"))
    met = value < limit if side == "below" else value > limit
    assert said.startswith("Yes:" if met else "No:") and f"{limit:g} ns" in said.split("\n")[0], said  # one module


def test_a_model_putting_the_value_on_the_wrong_side_is_replaced(demo_db, repo, scripted_openai, tmp_path):
    for prefix in ("p13-limit-2", "p13-limit-3"):
        question, (_, args) = _first(demo_db, prefix)
        a, b = _pair(args)
        side, limit = next((k, v) for k, v in args.items() if k in ("below", "above"))
        value = question.truth.expects[0].value
        met = value < limit if side == "below" else value > limit
        word = ("not " if met else "") + side
        unit = " ns" if args["param_names"] == ["zx90_gate_time"] else "%"
        said = _ask(repo, scripted_openai, tmp_path, question,
                    f"Coupling Q{a}-Q{b} is at {value:.2f}{unit}, which is {word} {limit:g}{unit}.")
        assert not problems(question.truth, said), said
        assert REPLACED in said, said


def test_a_model_putting_the_value_on_the_right_side_is_kept(demo_db, repo, scripted_openai, tmp_path):
    question, (_, args) = _first(demo_db, "p13-limit-2")
    a, b = _pair(args)
    side, limit = next((k, v) for k, v in args.items() if k in ("below", "above"))
    value = question.truth.expects[0].value
    on = "below" if value < limit else "above"
    answer = f"Coupling Q{a}-Q{b} has a ZX90 gate time of {value:g} ns, which is {on} {limit:g} ns."
    said = _ask(repo, scripted_openai, tmp_path, question, answer)
    assert said == answer or REPLACED in said, said
    assert not problems(question.truth, said), said
