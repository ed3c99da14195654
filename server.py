"""``make run``'s entry point: the dashboard (``app.py``) behind a start-up hook that prepares the data.

Streamlit runs ``app.py`` only when the first browser session arrives, so anything slow there lands on
the first page view: above all the embedded store's index build (seconds on the demo data).  This hook
builds it, imports the pages' libraries, reads the default page's data, pays Streamlit's own
once-per-process costs and takes that long-lived heap out of the garbage collector's walks before the
server accepts connections; a browser opened meanwhile waits for the server and then gets a ready page.
``streamlit run app.py`` still works: its first page then shows the build's progress instead.

    streamlit run server.py [--server.port 8501 ...]
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import pkgutil
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:  # `streamlit run server.py` from another directory
    sys.path.insert(0, str(ROOT))


def _say(progress: object) -> None:
    print(getattr(progress, "text", progress), file=sys.stderr, flush=True)


def warm_streamlit() -> None:
    """Pay here what the first session of a process would pay inside Streamlit, while the server also
    serves that browser the frontend's files: the stack walk Streamlit makes on its first element
    (``inspect`` maps every loaded module to its file once, about 0.5 s with the pages' libraries
    loaded) and the favicon's decoding (PIL's format plugins, the MIME table)."""
    import inspect
    import mimetypes

    from PIL import Image

    Image.preinit()
    mimetypes.init()
    inspect.stack()


def prepare() -> None:
    """Open the configured database, build the embedded store's indexes, read the default page's data and
    warm Streamlit's once-per-process work."""
    import ui
    from copilot_core.errors import CopilotError
    from ui import data

    for module in pkgutil.iter_modules(ui.__path__):  # the pages' helpers (plotly, pandas, jinja2...)
        importlib.import_module(f"ui.{module.name}")

    try:
        warm = data.index_warm_up()
        if warm is not None:
            warm.run(report=_say)
        data.warm_first_page()
    except CopilotError as exc:  # a bad setting or database: the pages show it in words; the server starts
        _say(f"database: {exc}")
    except Exception as exc:  # noqa: BLE001 - the server must still start; pages build what is missing
        _say(f"preparing the data failed ({type(exc).__name__}: {exc}); the first page will do it instead")
    warm_streamlit()  # last: its module walk then covers everything the data warm-up imported
    settle_heap()


def settle_heap() -> None:
    """Move everything built so far (the embedded store's indexes: over a million objects on the demo, the
    libraries) out of the garbage collector's reach, so that its full collections (Python's own, and
    Streamlit's after every script run where ``runner.postScriptGC`` is on) do not walk it: that walk cost
    about 0.4 s of CPU per page view, more than the page itself."""
    gc.collect()
    gc.freeze()


@asynccontextmanager
async def _lifespan(_app: object) -> AsyncIterator[None]:
    await asyncio.to_thread(prepare)
    yield


app = st.App("app.py", lifespan=_lifespan)
