"""The app distrusts a job's reply whatever the worker claims: sizes, links, layer names, chart counts; plus the
job-visible leaks that help forge objects (``hash`` of an object) and state shared across jobs (random draws)."""

from __future__ import annotations

import json
import threading

from copilot_core.chat import ChatState
from copilot_core.chat.background import BackgroundTurn
from copilot_core.sandbox import run_analysis
from copilot_core.sandbox.fairshare import current_session, session_scope
from copilot_core.sandbox.protocol import strip_links
from copilot_core.sandbox.reply_checks import MAX_ERROR_CHARS
from copilot_core.sandbox.reply_checks import job_reply as _job_reply

WORKER = {"id": 7, "elapsed_s": 0.1, "layers": ["policy:restrictedpython", "fork", "rlimits", "setsid", "netns",
                                                 "uid:nobody", "landlock:abi7", "audit-hook"]}


def _forged(**fields: object) -> dict:
    return _job_reply(dict(WORKER), json.dumps(fields).encode())


def test_a_forged_reply_is_clipped_stripped_and_its_layers_checked():
    reply = _forged(output="see https://evil.example/x and mailto:a@evil.example", error="E" * 3_000_000,
                    layers=["policy:restrictedpython", "landlock:abi7", "hypervisor:kvm", "netns", "<b>x</b>"],
                    layers_missing=["ok", "x" * 10_000], charts=[{"data": [], "layout": {}}] * 50)
    assert reply["output"] == "see [link removed] and [link removed]"
    assert len(reply["error"]) < MAX_ERROR_CHARS + 100 and reply["error"].endswith("of 3,000,000 characters]")
    assert reply["layers"] == ["policy:restrictedpython", "landlock:abi7", "netns"]
    assert len(reply["charts"]) == 8 and len(reply["layers_missing"][1]) < 400


def test_a_reply_claiming_layers_the_worker_never_had_shows_none_of_them():
    reply = _job_reply({**WORKER, "layers": ["fork"]}, json.dumps({"output": "", "layers": ["landlock:abi9"]}).encode())
    assert reply["layers"] == []
    assert _forged(output=5, error=["x"])["output"] == "" and _forged(error=["x"])["error"] == \
        "The analysis job sent a malformed error."


def test_links_written_every_way_are_removed_and_plain_numbers_stay():
    hostile = {
        "mailto:someone@evil.example": "[link removed]",
        "write to a.b@evil.example now": "write to [link removed] now",
        "evil.example:8443/collect?d=1": "[link removed]",
        "load evil.example/x.png": "load [link removed]",
        "10.1.2.3:8080": "[link removed]",
        "localhost:8501/admin": "[link removed]",
        "ｈｔｔｐｓ：／／ｅｖｉｌ．ｅｘａｍｐｌｅ／ｘ": "[link removed]",
        "evil。example/x": "[link removed]",
        "tel:+15551234": "[link removed]",
        "ms-settings:privacy": "[link removed]",
    }
    for text, expected in hostile.items():
        assert strip_links(text) == (expected, True), text
    for plain in ("T₂ = 45.3 µs; Q1: 0.98; f = 5.1 GHz", "ratio 1.5/2 at 10:30", "KeyError: 'x'", "see t1 csv",
                  "version 1.2.3", "x=3.0:4"):
        assert strip_links(plain) == (plain, False), plain


def test_hash_of_an_object_is_refused_and_of_values_allowed(store, planted):
    ok = run_analysis("print(hash((1, 'a', 2.5)) == hash((1, 'a', 2.5)))", store)
    assert (ok.error, ok.output) == (None, "True")
    for target in ("len", "pd.DataFrame()", "data['t1']", "(1, pd.Series([1]))"):
        refused = run_analysis(f"h = hash({target})", store)
        assert "is not available in the sandbox (their hash is a memory address)" in (refused.error or ""), target


def test_each_job_draws_its_own_random_numbers(store, planted):
    draws = [run_analysis("print(np.random.rand())", store).output for _ in range(3)]
    assert all(d and float(d) >= 0 for d in draws) and len(set(draws)) == 3, draws


def test_a_chat_turn_s_jobs_count_against_the_chat_not_the_turn_thread():
    with session_scope("chat-42"):
        turn = BackgroundTurn(lambda listener, stream, cancel: (current_session(), threading.get_ident()),
                              ChatState(username="t"), None)
    turn.start()
    assert turn.pump(lambda events: None, lambda: None) is not None
    session, thread = turn.result or ("", 0)
    assert session == "chat-42" and thread != threading.get_ident()
