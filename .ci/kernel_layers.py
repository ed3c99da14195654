"""Exit 0 when this kernel and user can give the sandbox every OS isolation layer, asked of the kernel directly
(not of the sandbox's own code, so a layer the sandbox stops applying still fails the tests): Landlock,
a private network namespace, and root to drop to ``nobody``."""

from __future__ import annotations

import ctypes
import os
import platform
import subprocess
import sys

SYS_LANDLOCK_CREATE_RULESET = {"x86_64": 444, "aarch64": 444}
LANDLOCK_CREATE_RULESET_VERSION = 1


def landlock_abi() -> int:
    number = SYS_LANDLOCK_CREATE_RULESET.get(platform.machine())
    if number is None:
        return 0
    libc = ctypes.CDLL(None, use_errno=True)
    return max(int(libc.syscall(number, None, ctypes.c_size_t(0), ctypes.c_uint32(LANDLOCK_CREATE_RULESET_VERSION))), 0)


def netns() -> bool:
    try:
        return subprocess.run(["unshare", "--net", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def main() -> int:
    found = {"landlock": landlock_abi() > 0, "netns": netns(), "root": os.geteuid() == 0}
    print("kernel isolation layers: " + ", ".join(f"{k}={'yes' if v else 'no'}" for k, v in found.items()),
          file=sys.stderr)
    return 0 if all(found.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
