"""Who may use the app and who owns a chat: the stable owner id of a signed-in user, and the optional
allow-list of e-mail addresses and domains (``COPILOT_ALLOWED_USERS``).

No Streamlit here: ``ui/signin.py`` reads ``st.user`` and asks these functions.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

_EMAIL = re.compile(r"^[^@\s]+@([^@\s]+)$")


def owner_id(issuer: str, subject: str) -> str:
    """The owner of a signed-in user's chats: derived from the identity provider's ``iss`` and ``sub``
    claims (stable for the account, unlike a name or an e-mail address, and never reused across providers)."""
    if not subject:
        raise ValueError("the identity token has no 'sub' claim")
    return "user-" + hashlib.sha256(f"{issuer}\n{subject}".encode()).hexdigest()[:40]


@dataclass(frozen=True)
class AllowList:
    """E-mail addresses and domains allowed in; empty means every signed-in user."""

    addresses: frozenset[str] = frozenset()
    domains: frozenset[str] = frozenset()

    @classmethod
    def parse(cls, text: str | None) -> AllowList:
        """``"alice@lab.org, @physics.lab.org, chem.lab.org"``: an address, or a domain with or without ``@``."""
        addresses, domains = set(), set()
        for entry in re.split(r"[,\s;]+", (text or "").strip().lower()):
            if not entry:
                continue
            if entry.startswith("@"):
                domains.add(entry[1:])
            elif "@" in entry:
                addresses.add(entry)
            else:
                domains.add(entry)
        return cls(frozenset(addresses), frozenset(domains))

    @property
    def active(self) -> bool:
        return bool(self.addresses or self.domains)

    def allows(self, email: str | None, verified: object = None) -> bool:
        """True when no list is set, or an ``email`` whose ``email_verified`` claim is exactly ``True`` is listed
        or in a listed domain (exact match).  A missing claim, ``"true"`` or ``"false"`` strings or ``1``
        cannot prove the provider checked the address, so they are refused."""
        if not self.active:
            return True
        if not email or verified is not True:
            return False
        email = email.strip().lower()
        found = _EMAIL.match(email)
        return found is not None and (email in self.addresses or found.group(1) in self.domains)
