"""A question naming a chip, qubit or coupling the data lacks, through the page's path (``Copilot.ask``, the real
openai SDK against the scripted server): whatever tool the model calls (a ranking's top value) and whatever it
writes, what the person reads says first that the data holds no such subject and gives it no value; and a yes/no
against a band word gets the data's verdict first.  Missing subjects and values are the hand-written pymongo reads
of ``tests/dev_missing14.py``."""

from __future__ import annotations

import re

import pytest

from tests import dev_missing14 as dev
from tests.dev_compound12 import latest
from tests.agent.page_turn import SMALL, asked_on_small, page_turn, shown
from tests.fakes.scripted_models import caller_then_quoter, quoter
from tests.fakes.scripted_openai import call, text
from tests.public_eval import CHIP

_SAYS_MISSING = re.compile(r"no such (coupling|qubit)|no chip|does not exist|not neighbours", re.I)


def _label(key: str) -> str:
    """The subject as an answer may name it: "Q03-Q09" / "3-9" either way round, "Q70", a chip id."""
    if "-" in key:
        a, b = key.split("-")
        return rf"Q?0*{a}(\s*[-–/]\s*| and )Q?0*{b}|Q?0*{b}(\s*[-–/]\s*| and )Q?0*{a}"
    return rf"\bQ?0*{key}\b" if key.isdigit() else re.escape(key)


def test_every_named_subject_is_missing_in_the_data(demo_db):
    """The dev questions' subjects really are absent (pymongo by hand), so every test below asks about nothing."""
    assert dev.PAIR not in dev.couplings(demo_db, CHIP)
    assert dev.FAR >= dev.size(demo_db, CHIP)
    assert demo_db["chip"].find_one({"chip_id": dev.NO_CHIP}) is None
    assert len(dev.QUESTIONS) >= 30 - len(dev.BAND_QUESTIONS)


def _ranking_writer(request):
    """A model that answers every question with the chip's top coupling from a ranking, naming the asked pair."""
    if request.has_tools and not request.tool_results:
        return call("rank_metric", {"chip_id": CHIP, "metric_name": "zx90_gate_fidelity", "order": "highest", "n": 1})
    return text("The ZX90 gate fidelity of coupling Q03-Q09 is 99.61 %, the best on the chip.")


@pytest.mark.parametrize("router", ["on", "off"])
def test_a_missing_coupling_answered_with_a_rankings_top_value_says_it_is_missing(router, demo_db, repo,
                                                                                  scripted_openai, tmp_path):
    scripted_openai.smart = _ranking_writer
    said = asked_on_small(repo, scripted_openai, tmp_path, "What is the ZX90 fidelity of coupling Q03-Q09?", router)
    first = said.split("\n")[0]
    assert _SAYS_MISSING.search(first), said
    assert "99.61" not in said, said
    assert all(f"Q{n:02d}" in said for n in dev.neighbours(demo_db, CHIP, 3)), said  # what Q03 does couple to


@pytest.mark.parametrize("asked", dev.QUESTIONS, ids=lambda a: a.text[:40])
def test_every_shape_naming_a_missing_subject_says_so_first_and_gives_it_no_value(asked, demo_db, repo,
                                                                                  scripted_openai, tmp_path):
    """A model that makes up a value for the subject asked, with the router off (no settled call)."""
    name = "Q70" if asked.kind == "qubit" else "coupling Q03-Q09" if asked.kind == "coupling" else f"chip {asked.subject}"
    scripted_openai.smart = lambda request: text(f"For {name} the value is 87.25 %, well within range.")
    said = asked_on_small(repo, scripted_openai, tmp_path, asked.text, "off")
    assert _SAYS_MISSING.search(said.split("\n")[0]), said
    assert "87.25" not in said, said


@pytest.mark.parametrize("asked", [a for a in dev.QUESTIONS if a.kind != "chip"][::3], ids=lambda a: a.text[:40])
def test_the_routed_turn_says_the_subject_is_missing(asked, repo, scripted_openai, tmp_path):
    scripted_openai.smart = quoter
    said = shown(page_turn(repo, scripted_openai, tmp_path, asked.text, SMALL))
    assert _SAYS_MISSING.search(said.split("\n")[0]), said
    assert re.search(_label(asked.subject if asked.kind != "coupling" else "3-9"), said), said


def test_a_rankings_top_value_given_to_the_missing_coupling_is_never_shown_as_its(demo_db, repo, scripted_openai,
                                                                                 tmp_path):
    top = max(v for v in latest(demo_db, CHIP, "zx90_gate_fidelity", "coupling").values() if v is not None)

    def reply(request):
        if request.has_tools and not request.tool_results:
            return call("rank_metric", {"chip_id": CHIP, "metric_name": "zx90_gate_fidelity", "order": "highest",
                                        "n": 3})
        return text(f"Coupling Q03-Q09 has {top:.2f} %, the best ZX90 fidelity on the chip.")
    scripted_openai.smart = reply
    said = asked_on_small(repo, scripted_openai, tmp_path, "Is pair Q03/Q09 the best coupling for ZX90 fidelity?",
                          "off")
    assert _SAYS_MISSING.search(said.split("\n")[0]), said
    assert not any(re.search(_label("3-9"), s) and f"{top:.2f}" in s for s in re.split(r"(?<=[.!?])\s", said)), said


@pytest.mark.parametrize("asked", dev.BAND_QUESTIONS, ids=lambda a: a.text[:40])
@pytest.mark.parametrize("router", ["on", "off"])
def test_a_band_word_yes_no_gets_the_datas_verdict_first(asked, router, demo_db, repo, scripted_openai, tmp_path):
    value = dev.value_of(demo_db, CHIP, asked.subject, asked.metric)
    assert value is not None
    verdict = "Yes" if dev.band_passes(value, asked.metric, asked.band) else "No"
    if router == "off":
        tool = "get_coupling_params" if len(asked.subject) == 2 else "get_qubit_params"
        key = {"coupling_id": "-".join(map(str, asked.subject))} if len(asked.subject) == 2 else \
            {"qid": str(asked.subject[0])}
        scripted_openai.smart = caller_then_quoter(tool, {"chip_id": CHIP, **key})
    else:
        scripted_openai.smart = quoter
    said = asked_on_small(repo, scripted_openai, tmp_path, asked.text, router)
    limit = dev.band_limit(asked.metric, asked.band)
    assert said.startswith(f"{verdict}:"), said
    assert f"{value:.1f}" in said or f"{value:.2f}" in said or f"{value:.3g}" in said, said
    assert f"{limit:g}" in said.split("\n")[0], said
