"""A server that stops in a second: at exit, everything still alive is moved out of the garbage collector's
reach before Python tears its modules down.

Once the copilot has answered, the process holds millions of small objects (the embedded store's rows and
indexes, the pages' libraries); the full collections Python runs while it finalizes its modules walk all of
them, which kept a stopped server busy for 5-20 s of CPU after its last session (a SIGTERM, Ctrl-C or
``docker stop`` waited on it).  Objects are still freed by reference counting as the modules go, and every
other exit handler still runs; only cyclic garbage left at that moment is not collected, which the
operating system reclaims with the process.
"""

from __future__ import annotations

import atexit
import gc


def _freeze_heap() -> None:
    gc.freeze()


atexit.register(_freeze_heap)
