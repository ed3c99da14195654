"""Two people on one server process: the turn service, the repository and the data caches are shared, the
conversation is not.  Bob's page shows none of Alice's messages and lists none of her saved chats."""

from __future__ import annotations

from tests.chat.test_copilot_page import CHIP, heatmap_smart, texts
from tests.render_safety.checks import readable

QUESTION = f"Show me the T1 heatmap of {CHIP}, Alice here"


def everything_shown(at) -> str:
    """Every text, label and option of the page and its sidebar, as one string."""
    parts = [readable(str(e.value)) for kind in (at.markdown, at.caption, at.info, at.warning, at.text)
             for e in kind]
    parts += [str(b.label) for b in at.button] + [str(o) for s in at.selectbox for o in s.options]
    parts += [t for m in at.chat_message for t in texts(m)]
    return "\n".join(parts)


def test_another_person_never_sees_a_question_or_its_answer(chat_app):
    alice = chat_app(heatmap_smart)
    alice.run()
    at = alice.ask(QUESTION)
    assert not at.exception
    assert len(at.chat_message) == 2 and "Alice here" in everything_shown(at)
    assert any(s["username"] == alice.username for s in alice.sessions()._coll.find({}, {"username": 1}))

    bob = chat_app(heatmap_smart)  # same process: the cached turn service and database are shared
    at = bob.run()
    assert not at.exception
    assert bob.username != alice.username
    assert len(at.chat_message) == 0
    assert "Alice here" not in everything_shown(at)
    assert any("No saved chats yet." in readable(str(c.value)) for c in at.caption)
