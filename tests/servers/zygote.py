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
- the child ends as the interpreter would (non-daemon threads joined, atexit handlers run,
  streams flushed, a traceback for an uncaught exception); the zygote reaps it and tells the
  launcher its wait status, and the launcher ends the same way: the same exit code, or killed
  by the same signal;
- the launcher passes SIGTERM / SIGINT / SIGHUP on to the child, and if the launcher dies
  (SIGKILL) the child kills itself; with no zygote listening the launcher simply becomes
  ``python SCRIPT ARGS...`` (``execv``).

The zygote has mcp-review itself imported too, so ``python -m mcp_review ...`` forks warm as
well: tests/servers/proxy_harness.py starts the proxy that way wherever the proxy's own process
(its pid, its start-up) is not what the test checks.

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

PRELOAD = (
    "anyio",
    "mcp",
    "mcp.server",
    "mcp.server.stdio",
    "mcp_types",
    # `python -m mcp_review proxy ...`: the CLI and what the proxy command imports when it runs
    "mcp_review.cli",
    "mcp_review.commands.proxy",
    "mcp_review.services.proxy",
    "mcp_review.services.proxy.front",
    "mcp_review.services.proxy.http_upstream",
    "mcp_review.services.config",
    "mcp_review.services.inputs",
    "mcp_review.services.oauth",
    "mcp_review.store.calllog",
    "mcp_review.store.tokens",
    # the other commands the proxy's tests run beside it (login, snapshot, check, pin, ...)
    "mcp_review.commands.approve",
    "mcp_review.commands.check",
    "mcp_review.commands.login",
    "mcp_review.commands.pin",
    "mcp_review.commands.snapshot",
    "mcp_review.commands.status",
)


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
    import atexit
    import runpy
    import threading

    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})  # blocked around the fork
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
    code, interrupted = 0, False
    try:
        if module:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as e:  # as the interpreter reads it
        if e.code is None or isinstance(e.code, int):
            code = e.code or 0
        else:
            print(e.code, file=sys.stderr)
            code = 1
    except BaseException as e:  # a traceback and 1; KeyboardInterrupt: killed by SIGINT
        sys.excepthook(type(e), e, e.__traceback__)
        code, interrupted = 1, isinstance(e, KeyboardInterrupt)
    # The interpreter's own end, in its order: join the non-daemon threads, run the atexit
    # handlers, flush the streams. Not the rest of its finalisation (tearing down every
    # module the zygote imported costs ~0.3 s of CPU and does nothing a test can see).
    threading._shutdown()  # type: ignore[attr-defined]
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    if interrupted:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    os._exit(code & 0xFF)


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
    import gc

    gc.collect()
    gc.freeze()  # the children's collections leave the imported objects (and their pages) alone
    os.rename(path + ".tmp", path)  # the socket appears once the imports are done

    children: dict[int, socket.socket] = {}

    def reap(*_: object) -> None:  # waited for, so their CPU time counts as the zygote's
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if not pid:
                return
            conn = children.pop(pid, None)
            if conn is not None:  # the launcher ends as its child did
                try:
                    conn.sendall(f"status {status}\n".encode())
                except OSError:
                    pass
                conn.close()

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
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})  # reap() finds it listed
        pid = os.fork()
        if pid == 0:
            srv.close()
            for other in children.values():
                other.close()
            children.clear()
            _child(conn, list(fds), req)  # never returns
        children[pid] = conn
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
        for fd in fds:
            os.close(fd)


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
    if not line.startswith("status "):
        os._exit(137)  # the zygote is gone: no word of how the child ended
    status = int(line.split()[1])
    if os.WIFSIGNALED(status):  # killed by a signal: so is the launcher
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.waitstatus_to_exitcode(status) & 0xFF)


if __name__ == "__main__":
    if sys.argv[1] == "--launch":
        launch(sys.argv[2], sys.argv[3:])
    else:
        serve(sys.argv[1], int(sys.argv[2]))
