"""Map a figure path QDash stored (``/app/calib_data/...``) onto the local figure root, and refuse anything
that would read outside it.

QDash writes absolute paths as seen inside its containers: per user in older installs
(``/app/calib_data/<username>/<YYYYMMDD>/<NNN>/fig/...``) and per project in newer ones
(``/app/calib_data/projects/<project>/chips/<chip>/executions/<execution_id>/fig/...``).  Both are the stored
prefix followed by a relative path, so one mapping serves both.  A stored path is database text: hostile.
Only ``.png`` and ``.json`` files strictly inside the root (after following symlinks) are ever opened.
"""

from __future__ import annotations

import errno

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from copilot_core.errors import CopilotError
from copilot_core.settings import PROJECT_ROOT, Settings

DEFAULT_PREFIX = "/app/calib_data"
ALLOWED_SUFFIXES = frozenset({".png", ".json"})
MAX_PATH_CHARS = 1024


class FigureRefused(CopilotError):
    """The stored path points outside the figure root (or is not a figure file): it is never opened."""


class FigureMissing(CopilotError):
    """The stored path is fine but no such file is under the figure root."""


def _reason(exc: BaseException) -> str:
    """Why a path cannot be opened, in words (no traceback, no full path)."""
    if isinstance(exc, RuntimeError) or getattr(exc, "errno", None) == errno.ELOOP:
        return "a symlink loop"
    if getattr(exc, "errno", None) == errno.ENAMETOOLONG:
        return "its name is too long"
    return type(exc).__name__


def _shown(stored: str) -> str:
    """The stored path clipped for a message (still database text: pages escape it)."""
    return stored if len(stored) <= 160 else stored[:157] + "…"


@dataclass(frozen=True)
class FigureRoot:
    """``root``: the local directory that holds QDash's ``calib_data``; ``prefix``: the path QDash stored for it."""

    root: Path
    prefix: str = DEFAULT_PREFIX

    def relative(self, stored: object) -> PurePosixPath:
        """The part of ``stored`` below the prefix, or FigureRefused (absolute elsewhere, ``..``, bad type)."""
        if not isinstance(stored, str) or not stored.strip():
            raise FigureRefused("no figure path stored")
        if len(stored) > MAX_PATH_CHARS or any(ord(c) < 32 or c == "\x7f" for c in stored):
            raise FigureRefused("the stored figure path is not a plain file path")
        prefix = self.prefix.rstrip("/")
        if prefix and (stored == prefix or stored.startswith(prefix + "/")):
            rest = stored[len(prefix):].lstrip("/")
        elif stored.startswith(("/", "\\", "~")) or (len(stored) > 1 and stored[1] == ":"):
            raise FigureRefused(f"{_shown(stored)} is outside the figure directory ({prefix or 'no prefix'})")
        else:
            rest = stored
        rel = PurePosixPath(rest)
        if not rest or any(part in ("..", "") for part in rel.parts) or "\\" in rest:
            raise FigureRefused(f"{_shown(stored)} climbs out of the figure directory")
        if rel.suffix.lower() not in ALLOWED_SUFFIXES:
            raise FigureRefused(f"{_shown(stored)} is not a .png or .json figure")
        return rel

    def resolve(self, stored: object) -> Path:
        """The local file for a stored path.  FigureRefused when it would leave the root (also through a
        symlink), FigureMissing when the file is not there."""
        rel = self.relative(stored)
        try:
            base = self.root.resolve(strict=True)
        except (OSError, RuntimeError):
            raise FigureMissing(f"the figure directory {self.root} does not exist (set CALIB_DATA_DIR)") from None
        try:  # a symlink loop, a name over 255 bytes or a path over PATH_MAX is a file that cannot be read
            target = (base / rel).resolve(strict=False)
            if not target.is_relative_to(base) or target == base:
                raise FigureRefused(f"{_shown(str(stored))} leads outside the figure directory (symlink)")
            if not target.is_file():
                raise FigureMissing(f"figure file not found: {_shown(str(stored))}")
        except (OSError, RuntimeError) as exc:
            raise FigureMissing(f"figure file cannot be opened ({_reason(exc)}): {_shown(str(stored))}") from None
        return target


def figure_root(settings: Settings) -> FigureRoot:
    """``CALIB_DATA_DIR`` (default ``DATA_DIR/calib_data``, where the demo writes its figures; relative paths
    are under the project) and ``CALIB_DATA_PREFIX`` (default ``/app/calib_data``, what QDash stores)."""
    configured = settings.get("CALIB_DATA_DIR")
    root = Path(configured) if configured else settings.data_dir / "calib_data"
    if not root.is_absolute():
        root = PROJECT_ROOT / root
    prefix = settings.get("CALIB_DATA_PREFIX", DEFAULT_PREFIX) or DEFAULT_PREFIX
    return FigureRoot(root=root, prefix=prefix)


def available_root(settings: Settings) -> FigureRoot | None:
    """The figure root when its directory is there (the copilot's figure tool is offered only then)."""
    root = figure_root(settings)
    return root if root.root.is_dir() else None
