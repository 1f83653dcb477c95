"""A warm start for the test suite's stdio servers: the server process, minus ``import mcp``.

Each Python stdio server a test starts spends 1-2 s of CPU importing the mcp SDK (its pydantic
models) before it reads a byte. The zygote imports it once, then forks one child per server:

- ``python zygote.py SOCKET PID`` listens on the Unix socket ``SOCKET`` for as long as
  process ``PID`` (the test process) is its parent; tests/helpers.py ``stdio_server_argv``
  starts one per test process, on first use;
- the command a test's config names is ``python zygote.py --launch SOCKET SCRIPT ARGS...``
  (or ``... --launch SOCKET -m MODULE ARGS...``), the launcher: it connects, hands over its
  stdin, stdout and stderr (``SCM_RIGHTS``), its working directory, environment and
  arguments, and waits; the zygote forks a child that takes those as its own and runs
  ``SCRIPT`` as ``__main__``, as ``python SCRIPT ARGS...`` would;
- the launcher exits with the child's status, passes SIGTERM / SIGINT / SIGHUP on to it, and if
  the launcher dies (SIGKILL) the child kills itself; with no zygote listening the launcher
  simply becomes ``python SCRIPT ARGS...`` (``execv``).

So the server is still a separate process on real pipes, speaking the real SDK; only the
interpreter start and the imports are shared. Tests about the process itself (its start-up,
its process group, a server that will not die) name the script directly.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import sys

PRELOAD = ("anyio", "mcp", "mcp.server", "mcp.server.stdio", "mcp_types")


def _recv_exact(conn: socket.socket, n: int) -> bytes:
    buf = b""
    while len(buf) < n:
        chunk = conn.recv(n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return buf


def _child(conn: socket.socket, fds: list[int], req: dict) -> None:
    """In the forked child: become ``python SCRIPT ARGS...`` and run it."""
    import runpy
    import threading

    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(req["cwd"])
    os.environ.clear()
    os.environ.update(req["env"])
    argv = list(req["argv"])
    module = argv[1] if argv[0] == "-m" else None  # python -m MODULE ARGS...
    sys.argv = [module, *argv[2:]] if module else argv
    extra = [p for p in req["env"].get("PYTHONPATH", "").split(os.pathsep) if p]
    first = os.getcwd() if module else os.path.dirname(os.path.abspath(argv[0]))
    sys.path[:1] = [first, *extra]
    conn.sendall(f"{os.getpid()}\n".encode())

    def orphaned() -> None:  # the launcher is gone: nobody will reap or signal this server
        try:
            while conn.recv(64):
                pass
        except OSError:
            pass
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=orphaned, daemon=True).start()
    code = 0
    try:
        if module:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as e:
        if isinstance(e.code, str):
            print(e.code, file=sys.stderr)
        code = e.code if isinstance(e.code, int) else int(e.code is not None)
    except BaseException:  # as the interpreter would: a traceback and exit 1
        import traceback

        traceback.print_exc()
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    try:
        conn.sendall(f"exit {code}\n".encode())
    except OSError:
        pass
    os._exit(code)


def serve(path: str, parent: int) -> None:
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path + ".tmp")
    srv.listen(64)
    import importlib

    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    os.rename(path + ".tmp", path)  # the socket appears once the imports are done

    def reap(*_: object) -> None:  # waited for, so their CPU time counts as the zygote's
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            pass

    signal.signal(signal.SIGCHLD, reap)
    srv.settimeout(1.0)
    while True:
        try:
            conn, _ = srv.accept()
        except TimeoutError:
            if os.getppid() != parent:  # the test process is gone (no atexit ran): so are we
                os._exit(0)
            continue
        conn.settimeout(None)
        try:
            size = struct.unpack("!I", _recv_exact(conn, 4))[0]
            msg, fds, _, _ = socket.recv_fds(conn, size, 3)
            msg += _recv_exact(conn, size - len(msg))
            req = json.loads(msg)
        except (OSError, EOFError, ValueError):
            conn.close()
            continue
        if os.fork() == 0:
            srv.close()
            _child(conn, list(fds), req)
        for fd in fds:
            os.close(fd)
        conn.close()


def launch(path: str, argv: list[str]) -> None:
    import time

    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    for _ in range(600):  # a zygote still importing: wait for it (up to a minute)
        if os.path.exists(path) or not os.path.exists(path + ".tmp"):
            break
        time.sleep(0.1)
    try:
        s.connect(path)
    except OSError:
        os.execv(sys.executable, [sys.executable, *argv])
    msg = json.dumps({"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
    s.sendall(struct.pack("!I", len(msg)))
    socket.send_fds(s, [msg[:4096]], [0, 1, 2])
    s.sendall(msg[4096:])
    # The child holds the pipes now: the parent sees end-of-file when the server exits.
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    f = s.makefile("rb")
    pid = int(f.readline())

    def forward(n: int, _: object) -> None:
        try:
            os.kill(pid, n)
        except OSError:
            pass

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, forward)
    line = f.readline().decode()
    if line.startswith("exit "):
        os._exit(int(line.split()[1]) & 0xFF)
    os._exit(137)  # killed without a word (SIGKILL)


if __name__ == "__main__":
    if sys.argv[1] == "--launch":
        launch(sys.argv[2], sys.argv[3:])
    else:
        serve(sys.argv[1], int(sys.argv[2]))
