"""The one way a configured URI or URL (``MONGODB_URI``, ``OPENAI_BASE_URL``) is shown or logged.

Passwords are often pasted unescaped, so ``/ ? # @`` may sit inside them and a URL parser would read part
of the password as host, path, query or fragment.  The credentials are therefore taken as everything
between ``scheme://`` and the LAST ``@`` (over-masking an ``@`` that was not a credential is harmless),
and the query string and fragment, which can carry ``password=`` options, are dropped.
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

MASK = "***"
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*)://")
_UNSEEN = re.compile(r"[\x00-\x20\x7f]")
# A URL with credentials inside free text: up to the last "@" of one whitespace-free run.
URL_WITH_CREDENTIALS = re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s@]*:\S*@[^\s/?#]*[^\s?#]*(?:[?#]\S*)?")


def _split(url: str) -> tuple[str, str | None, str, str] | None:
    """(scheme, credentials or None, host, path) of ``url``, or None when it has no ``scheme://``."""
    url = _UNSEEN.sub("", url)
    found = _SCHEME.match(url)
    if not found:
        return None
    rest = url[found.end():]
    creds: str | None = None
    if "@" in rest:
        creds, rest = rest.rsplit("@", 1)
    host, path = re.match(r"([^/?#]*)([^?#]*)", rest).groups()  # type: ignore[union-attr]  # always matches
    return found.group(1), creds, host, path


def mask_url(url: str | None) -> str:
    """``mongodb://user:p/a?s#s@host/db?authSource=x`` -> ``mongodb://user:***@host/db``; no scheme -> a
    placeholder that shows nothing of the value."""
    if not url:
        return ""
    parts = _split(url)
    if parts is None:
        return "<URL without scheme://, not shown>"
    scheme, creds, host, path = parts
    if creds is None:
        return f"{scheme}://{host}{path}"
    user = creds.split(":", 1)[0]
    return f"{scheme}://{user}:{MASK}@{host}{path}" if ":" in creds else f"{scheme}://{MASK}@{host}{path}"


def url_password(url: str | None) -> str | None:
    """The credentials part after the user name, for redacting it wherever it is echoed."""
    parts = _split(url or "")
    if parts is None or parts[1] is None or ":" not in parts[1]:
        return None
    return parts[1].split(":", 1)[1] or None


def mask_urls_in(text: str) -> str:
    """Every URL that carries credentials inside ``text`` masked with ``mask_url``."""
    return URL_WITH_CREDENTIALS.sub(lambda m: mask_url(m.group(0)), text)


def masked_host(url: str | None) -> str:
    """The ``[user:***@]host[:port]`` part of ``mask_url(url)``, for short labels."""
    shown = mask_url(url)
    return shown.split("://", 1)[1].split("/", 1)[0] if "://" in shown else shown


def with_quoted_credentials(url: str) -> str:
    """``url`` with its user name and password percent-encoded, so a URL parser (httpx, pymongo) reads the
    password the way ``mask_url`` does instead of failing with part of it in its error message."""
    parts = _split(url)
    if parts is None or parts[1] is None:
        return url
    scheme, creds, host, path = parts[0], parts[1], parts[2], parts[3]
    after = url[url.rfind("@"):]
    query = after[after.index("?"):] if "?" in after else ""
    quoted = ":".join(quote(unquote(piece), safe="") for piece in creds.split(":", 1))
    return f"{scheme}://{quoted}@{host}{path}{query}"
