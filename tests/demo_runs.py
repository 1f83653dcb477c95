"""`mcp-review demo --headless` run once per format, for every test that reads its output.

The demo is the costliest command there is (two bundled servers fetched three times, a proxy
with its own server, a rerun), and several tests ask different questions of the same run:
tests/e2e/test_demo.py what it reports, tests/formats/test_hostile_output.py that its output paths are
clean before the terminal guard. :func:`headless` runs it as ``python -m mcp_review demo
--headless [--format json]`` would, in a real subprocess with a fresh HOME, TMPDIR and working
directory (so "nothing written outside the workspace" is checked on a real process), once per
format and test process, and answers every caller from that run.

The demo's own Python children (its stdio server, started by each fetch; the proxy and the
server behind it) fork from the test process's warm zygote (tests/servers/zygote.py, as
tests/helpers.py ``stdio_server_argv`` starts servers): separate processes on real pipes with
their argv, environment, working directory and exit status, without 1-2 s of ``import mcp``
each, four to five times a run. The demo process itself is a fresh interpreter.

The subprocess's terminal guard (formats/terminal.py) is wrapped by a recorder that still
guards (the bytes on stdout and stderr are the real command's) and notes every chunk the guard
had to change: ``leaks`` is what the in-process ``StrictGuard`` of test_hostile_output would
have recorded. The tests that share a run carry ``pytest.mark.xdist_group(GROUP)``, so under
``-n auto --dist loadgroup`` they run on one worker and the run happens once.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers import stdio_server_argv

ROOT = Path(__file__).resolve().parent.parent
GROUP = "demo-headless"
"""The xdist group of the tests reading :func:`headless` (one worker: one run per format)."""

# `python -m mcp_review ARGS` (mcp_review/__main__.py: raise SystemExit(main())), with the
# terminal guard wrapped by a recorder; the recorded chunks go to the file named first.
_RUNNER = """\
import json, sys
import mcp_review.formats.terminal as terminal
from mcp_review.engine.hidden import terminal_guard

leaks_path = sys.argv.pop(1)
leaks = []

def recording_guard(text):
    guarded = terminal_guard(text)
    if guarded != text:
        leaks.append(text)
    return guarded

terminal.terminal_guard = recording_guard
sys.path.append(sys.argv.pop(1))  # tests/: demo_runs, helpers
import demo_runs

demo_runs.warm_children(sys.argv.pop(1))
from mcp_review.cli import main

try:
    code = main(sys.argv[1:])
finally:
    with open(leaks_path, "w", encoding="utf-8") as f:
        json.dump(leaks, f)
raise SystemExit(code)
"""


def warm_launcher() -> str:
    """This test process's zygote launcher (tests/helpers.py ``stdio_server_argv``), as JSON:
    ``[python, zygote.py, "--launch", SOCKET]``."""
    return json.dumps(stdio_server_argv("-")[:-1])


def warm_children(launcher: str, setattr: Any = setattr) -> None:
    """The demo's Python children (its stdio server, started by each fetch; the proxy and the
    server behind it) fork from a warm zygote (tests/servers/zygote.py) through ``launcher``
    (:func:`warm_launcher`): the same argv, stdio, environment, working directory and exit
    status, without each one's ``import mcp``. The stdio entries of the config the workspace
    writes and the proxy that demo/hold.py starts run ``python zygote.py --launch SOCKET
    ARGS...`` (which is ``python ARGS...`` again once no zygote listens). ``setattr``: a
    monkeypatch's, in a test process."""
    import mcp

    from mcp_review.demo.workspace import Workspace

    python, *launch = json.loads(launcher)
    config_dict = Workspace.config_dict

    def warm_config(self: Any, urls: dict[str, str]) -> dict[str, Any]:
        doc: dict[str, Any] = config_dict(self, urls)
        for entry in doc["servers"].values():
            if entry.get("command") == python:
                entry["args"] = [*launch, *entry["args"]]
        return doc

    class Params(mcp.StdioServerParameters):  # demo/hold.py: python -m mcp_review proxy ...
        def __init__(self, **kw: Any) -> None:
            if kw.get("command") == python and kw.get("args", [""])[0] == "-m":
                kw["args"] = [*launch, *kw["args"]]
            super().__init__(**kw)

    setattr(Workspace, "config_dict", warm_config)
    setattr(mcp, "StdioServerParameters", Params)


@dataclass(frozen=True)
class DemoRun:
    returncode: int
    stdout: str
    stderr: str
    leaks: tuple[str, ...]
    """Chunks of stdout/stderr the terminal guard had to change (none: the output paths are
    clean, and the output is byte for byte what an unguarded run would print)."""
    left: tuple[Path, ...]
    """Whatever the run left in its working directory, HOME and TMPDIR (all new and empty)."""


@functools.cache
def headless(*args: str) -> DemoRun:
    """`mcp-review demo --headless ARGS` (``"--format", "json"``; none: text), run once per
    ARGS and test process."""
    base = Path(tempfile.mkdtemp(prefix="mcp-review-demo-run-"))
    atexit.register(shutil.rmtree, base, True)
    dirs = [base / k for k in ("cwd", "home", "tmp")]
    for d in dirs:
        d.mkdir()
    leaks_path = base / "leaks.json"
    env = {**os.environ, "HOME": str(dirs[1]), "TMPDIR": str(dirs[2]), "PYTHONPATH": str(ROOT)}
    warm = [str(Path(__file__).parent), warm_launcher()]
    proc = subprocess.run(
        [sys.executable, "-c", _RUNNER, str(leaks_path), *warm, "demo", "--headless", *args],
        cwd=dirs[0],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    leaks = json.loads(leaks_path.read_text()) if leaks_path.exists() else ["(no leak record)"]
    return DemoRun(
        proc.returncode,
        proc.stdout,
        proc.stderr,
        tuple(leaks),
        tuple(p for d in dirs for p in d.iterdir()),
    )
