"""Published servers' commands for tests that start them several times.

``everything()``: the reference "everything" server (npm). npx installs (or finds in its cache)
the package once per test process and tells where its bin is; every start after that runs the
bin, the server npx would start, without npx resolving the package again (about 0.8 s of CPU a
start). Where npx cannot say, the command is ``npx -y PACKAGE`` as before. Tests that are about
npx starting it (tests/services/test_real_server.py) name npx themselves.
"""

from __future__ import annotations

import functools
import os
import subprocess

EVERYTHING = "@modelcontextprotocol/server-everything"


@functools.cache
def everything() -> tuple[str, ...]:
    p = subprocess.run(
        ["npx", "-y", "-p", EVERYTHING, "-c", "command -v mcp-server-everything"],
        capture_output=True,
        text=True,
        timeout=600,  # generous: a first install downloads the package
    )
    lines = p.stdout.strip().splitlines()
    if p.returncode == 0 and lines and os.path.isfile(lines[-1]):
        return (lines[-1],)
    return ("npx", "-y", EVERYTHING)
