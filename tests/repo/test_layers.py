"""The engine stays pure and the store stays below services: importing either never pulls in
textual, rich, mcp or anything above it (import-linter holds the same contracts statically).

Each check runs in a fresh interpreter, because this test process may already have imported
those packages for other tests.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import mcp_review.engine
import mcp_review.store

FORBIDDEN = (
    "textual",
    "rich",
    "mcp",
    "mcp_types",
    "mcp_review.tui",
    "mcp_review.services",
    "mcp_review.cli",
    "httpx2",
    "uvicorn",
)


def _core_modules() -> list[str]:
    return sorted(
        m.name
        for pkg in (mcp_review.engine, mcp_review.store)
        for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")
    )


def test_core_modules_found():
    mods = _core_modules()
    assert "mcp_review.engine.model" in mods and "mcp_review.store.audit" in mods


def test_core_imports_nothing_above_it():
    mods = _core_modules()
    code = (
        "import importlib, sys\n"
        f"for m in {mods!r}: importlib.import_module(m)\n"
        f"bad = sorted(k for k in sys.modules for f in {FORBIDDEN!r} "
        "if k == f or k.startswith(f + '.'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"core pulled in: {out.stdout.strip()}"


def test_file_commands_do_not_import_mcp_or_textual():
    """classify/gate/status work on files and must start fast: no mcp, no textual."""
    code = (
        "import sys\n"
        "from mcp_review import cli\n"
        "cli.build_parser()\n"
        "bad = sorted(k for k in sys.modules if k.split('.')[0] in ('mcp', 'textual', 'mcp_types'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_engine_opens_no_file(package_tree):
    """Files are the store's: no engine module calls ``open`` or touches the file system
    (a parser takes bytes or a stream it is handed; ``store.readers`` opens them), package
    data included (issue 31 item 8: the confusables table was read with
    ``importlib.resources``)."""
    import ast
    from pathlib import Path

    fs = {
        "open",
        "stat",
        "lstat",
        "listdir",
        "scandir",
        "walk",
        "remove",
        "unlink",
        "replace",
        "rename",
        "mkdir",
        "makedirs",
        "read_text",
        "read_bytes",
        "write_text",
        "write_bytes",
    }
    # Package data is a file too: a table the engine needs is a generated module
    # (scripts/gen_unicode_tables.py), never read through importlib.resources or pkgutil.
    resources = {"importlib.resources", "importlib_resources", "pkgutil"}
    # Methods that read or write a file whatever they are called on (a Path, a Traversable,
    # a ZipFile, io/codecs/tarfile): no str, dict or list method has these names.
    file_methods = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "get_data"}
    found = []
    for p in sorted(Path(mcp_review.engine.__path__[0]).rglob("*.py")):
        for node in ast.walk(package_tree(p)):
            if isinstance(node, ast.Import):
                found += [
                    f"{p.name}:{node.lineno} import {a.name}"
                    for a in node.names
                    if a.name in resources or a.name.startswith("importlib.resources.")
                ]
            elif isinstance(node, ast.ImportFrom):
                mod = node.module or ""
                names = {a.name for a in node.names}
                if mod in resources or (mod == "importlib" and names & {"resources"}):
                    found.append(f"{p.name}:{node.lineno} from {mod} import {sorted(names)}")
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            if isinstance(f, ast.Name) and f.id == "open":
                found.append(f"{p.name}:{node.lineno} open()")
            elif isinstance(f, ast.Attribute) and f.attr in file_methods:
                found.append(f"{p.name}:{node.lineno} .{f.attr}()")
            elif (
                isinstance(f, ast.Attribute)
                and f.attr in fs
                and isinstance(f.value, ast.Name)
                and f.value.id in {"os", "shutil", "Path"}
            ):
                found.append(f"{p.name}:{node.lineno} {f.value.id}.{f.attr}()")
    assert not found, found
