"""``os.stat`` and the other path queries CPython does not audit (and Landlock does not rule) stay out of reach:
model code finds no route to them, and in a job process they raise audit events the hook refuses outside the
Python installation, so even code that got past the policy (unrestricted Python below, no Landlock) learns
nothing of the host's files.  Routes written after the guard."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from copilot_core.sandbox import run_analysis
from copilot_core.sandbox.worker_handle import PROJECT_ROOT, clean_environment

# Each tries to reach a path query from model code and print REACHED with what it learnt.
ROUTES = {
    "import-os": "import os\nprint('REACHED', os.stat('/etc/passwd'))",
    "import-posix": "import posix\nprint('REACHED', posix.stat('/etc/passwd'))",
    "from-os-import": "from os import stat\nprint('REACHED', stat('/etc/passwd'))",
    "numpy-os": "print('REACHED', np.os.stat('/etc/passwd'))",
    "pandas-io-common": "print('REACHED', pd.io.common.os.stat('/etc/passwd'))",
    "numpy-lib": "print('REACHED', np.lib.npyio.os.stat('/etc/passwd'))",
    "function-globals": "print('REACHED', pd.DataFrame.to_csv.__globals__['os'].stat('/etc/passwd'))",
    "getattr-globals": "g = getattr(pd.DataFrame.to_csv, '__glo' + 'bals__')\nprint('REACHED', g)",
    "cython-func-globals": "print('REACHED', pd.DataFrame.to_csv.func_globals)",
    "statistics-os": "print('REACHED', statistics.os)",
    "json-decoder-module": "print('REACHED', json.JSONDecodeError.__module__)",
    "class-chain": "print('REACHED', ().__class__.__base__.__subclasses__())",
    "rng-bit-generator-ctypes": "print('REACHED', np.random.default_rng().bit_generator.ctypes)",
    "figure-layout-module": "print('REACHED', go.Figure().layout.re)",
    "path-like-time-zone": "print('REACHED', pd.Timestamp('2024-01-01', tz='/etc/passwd'))",
    "dateutil-time-zone": "print('REACHED', pd.Timestamp('2024-01-01', tz='dateutil//etc/passwd'))",
    "to-csv-path": "data['t1'].to_csv('/etc/passwd')\nprint('REACHED')",
    "image-from-path": "print('REACHED', px.imshow('/etc/passwd'))",
    "map-over-a-module-function": "print('REACHED', list(map(np.os.stat, ['/etc/passwd'])))",
}


def test_model_code_finds_no_route_to_a_path_query(store):
    for name, code in ROUTES.items():
        result = run_analysis(code, store)
        assert "REACHED" not in result.output, (name, result.output)
        assert result.error, name
        assert "st_size" not in (result.error or "") and "st_mode" not in (result.error or ""), (name, result.error)


# Unrestricted Python in a fresh interpreter (no policy, no Landlock): the hook alone.
PROBE = textwrap.dedent("""
    import json, os, pathlib, posix, sys
    sys.path.insert(0, {root!r})
    from copilot_core.sandbox import audit, isolation
    import numpy
    SECRETS, HOOK = {secrets!r}, {hook!r}
    if HOOK:
        audit.install(isolation.read_roots())
    results = {{}}
    def attempt(name, fn):
        try:
            results[name] = repr(fn())[:60]
        except BaseException as exc:
            results[name] = "refused:" + type(exc).__name__
    attempt("os.stat", lambda: os.stat(SECRETS).st_size)
    attempt("os.lstat", lambda: os.lstat("/etc/passwd").st_size)
    attempt("posix.stat", lambda: posix.stat("/etc/passwd").st_size)
    attempt("bytes-path", lambda: os.stat(b"/etc/passwd").st_size)
    attempt("path-like", lambda: pathlib.Path(SECRETS).stat().st_size)
    attempt("os.access", lambda: os.access(SECRETS, os.R_OK))
    attempt("readlink", lambda: os.readlink("/proc/self/exe"))
    attempt("statvfs", lambda: os.statvfs("/").f_bsize)
    attempt("exists", lambda: os.path.exists(SECRETS))
    attempt("relative-to-dir-fd", lambda: os.stat("passwd", dir_fd=os.open("/etc", os.O_RDONLY)).st_size)
    attempt("dir-fd-inside", lambda: os.stat("passwd", dir_fd=os.open(os.path.dirname(numpy.__file__),
                                                                      os.O_RDONLY)).st_size)
    attempt("numpy-file", lambda: os.stat(numpy.__file__).st_size > 0)
    attempt("numpy-exists", lambda: os.path.exists(numpy.__file__))
    attempt("open-descriptor", lambda: os.stat(0).st_mode >= 0)
    print(json.dumps(results))
""")


def _probe(planted, hook: bool) -> dict:
    script = PROBE.format(root=str(PROJECT_ROOT), secrets=str(planted.secrets_path), hook=hook)
    done = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=60,
                          env=clean_environment())
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_the_hook_alone_refuses_path_queries_outside_the_python_installation(planted):
    control = _probe(planted, hook=False)  # the probes are real: without the hook they learn about the host
    size = str(planted.secrets_path.stat().st_size)
    assert control["os.stat"] == size and control["path-like"] == size and control["os.access"] == "True"
    assert control["exists"] == "True" and control["posix.stat"].isdigit()

    hooked = _probe(planted, hook=True)
    for name in ("os.stat", "os.lstat", "posix.stat", "bytes-path", "path-like", "os.access", "readlink",
                 "statvfs", "relative-to-dir-fd", "dir-fd-inside"):
        assert hooked[name] == "refused:AuditDenied", (name, hooked[name])
    assert hooked["exists"] == "False"  # os.path.exists answers False for every path outside, existing or not
    assert hooked["numpy-file"] == hooked["numpy-exists"] == hooked["open-descriptor"] == "True", hooked


def test_no_function_or_class_of_the_os_modules_passes_the_value_rule():
    """Whatever route a value takes to model code (attribute, item, iteration, callback argument), it passes
    ``check_value``: every public callable of posix, os, _io, io and the denied builtins is refused there."""
    import _io
    import builtins
    import io
    import os
    import posix

    import pytest

    from copilot_core.sandbox.policy_guards import check_value
    from copilot_core.sandbox.memsafe import SecurityError

    checked = 0
    for module in (posix, os, _io, io):
        for name, value in vars(module).items():
            if name.startswith("__") or not callable(value) or isinstance(value, type) and issubclass(
                    value, BaseException):
                continue  # exceptions (OSError, UnsupportedOperation) are plain exception classes
            if getattr(value, "__module__", None) not in (None, "posix", "os", "_io", "io"):
                continue  # imported from elsewhere (os holds collections.abc's Mapping): not this module's
            with pytest.raises(SecurityError):
                check_value(value)
            checked += 1
    for name in ("open", "eval", "exec", "compile", "__import__", "getattr", "globals", "vars", "memoryview",
                 "breakpoint", "input", "type", "object", "id"):
        with pytest.raises(SecurityError):
            check_value(getattr(builtins, name))
        checked += 1
    assert checked > 300, checked
