"""A clean clone must be what ``make run`` and the image build start from: no tracked symlink (a link to a
developer's own ``.data`` made ``make run`` fail on a fresh clone) and no local state or secrets."""

from __future__ import annotations

import subprocess

from tests.conftest import ROOT

LOCAL_STATE = (".data", ".venv", ".env", ".streamlit/secrets.toml", "test-artifacts", "node_modules")


def _tracked() -> list[tuple[str, str]]:
    """(mode, path) of every tracked file, from git itself."""
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-s", "-z"], check=True, capture_output=True,
                         text=True).stdout
    rows = []
    for entry in filter(None, out.split("\0")):
        meta, _, path = entry.partition("\t")
        rows.append((meta.split()[0], path))
    return rows


def test_the_checkout_tracks_no_symlink():
    links = [path for mode, path in _tracked() if mode == "120000"]
    assert links == [], f"tracked symlinks break a fresh clone: {links}"


def test_the_checkout_tracks_no_local_state_or_secrets():
    local = [path for _, path in _tracked()
             if any(path == name or path.startswith(name + "/") or f"/{name}/" in f"/{path}" for name in LOCAL_STATE)]
    assert local == [], f"local state in the repository: {local}"
