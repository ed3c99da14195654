"""A question about one or two values of one qubit is answered with those values, not the qubit's whole card: the
router's lookup carries the parameters the question names, through the page's path (``Copilot.ask``) with a model
that writes nothing of its own, so the answer is the tool's sentence.  Truths: the qubit document read by pymongo."""

from __future__ import annotations

import re

import pytest

from tests.agent.page_turn import SMALL, page_turn, shown
from tests.fakes.scripted_models import silent
from tests.public_eval import CHIP, merged, scale, tol

ASKED = [  # (wording, qubit, the parameters it names)
    ("Tell me the T1 of qubit 9, please.", "9", ["t1"]),
    ("Q20 qubit frequency in GHz?", "20", ["qubit_frequency"]),
    ("I need Q41's T2 echo expressed in microseconds.", "41", ["t2_echo"]),
    ("what's the x90 gate fidelity for Q05, as a percent", "5", ["x90_gate_fidelity"]),
    ("Show me T1 and T2 echo for Q33.", "33", ["t1", "t2_echo"]),
]
CARD = ("readout_frequency", "anharmonicity", "ramsey_frequency", "coarse_qubit_frequency")


@pytest.mark.parametrize("text, qid, names", ASKED, ids=[a[0][:32] for a in ASKED])
def test_a_lookup_reads_the_values_asked(text, qid, names, demo_db, repo, scripted_openai, tmp_path):
    scripted_openai.smart = silent
    said = shown(page_turn(repo, scripted_openai, tmp_path, text, SMALL))
    for name in names:
        param = merged(demo_db, CHIP, qid, name)
        assert param is not None, (qid, name)
        found = re.search(rf"{name} (-?[\d.]+)", said)
        assert found is not None, said
        assert float(found.group(1)) == pytest.approx(param["value"] * scale(name), abs=tol(name)), said
    assert not [word for word in CARD if word not in names and word in said], said
