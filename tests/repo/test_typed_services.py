"""Thin commands (docs/architecture.md, "The layers"): the services and the formats take typed
arguments, never an argparse namespace; the command layer (``mcp_review/cli_args.py``,
``mcp_review/commands/``) turns what argparse parsed into them. And the values that cross a
layer seam (the status a service computes, the inputs a command resolves) carry their real
types, not ``Any``: an ``Any`` there is a place where mypy stops checking both sides."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent.parent / "mcp_review"
TYPED_LAYERS = ("services", "formats")


def _modules(*layers: str) -> list[Path]:
    return sorted(p for layer in layers for p in (PACKAGE / layer).rglob("*.py"))


def _argparse_uses(source: str, name: str) -> list[str]:
    """Where ``source`` imports argparse, takes a parameter annotated with a ``Namespace``,
    or reads a command line's attributes (``getattr(args, "...")``, ``args.yes``: a parameter
    called ``args`` read as a namespace, whatever its annotation says)."""
    out: list[str] = []
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.Import):
            out += [
                f"{name}:{node.lineno} import {a.name}" for a in node.names if a.name == "argparse"
            ]
        elif isinstance(node, ast.ImportFrom) and node.module == "argparse":
            out.append(f"{name}:{node.lineno} from argparse import ...")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            params = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
            for p in params:
                if p is not None and p.annotation is not None:
                    if "Namespace" in ast.unparse(p.annotation):
                        out.append(f"{name}:{node.lineno} {node.name}({p.arg}: Namespace)")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and node.args
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == "args"
        ):
            out.append(f"{name}:{node.lineno} getattr(args, ...)")
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "args"
        ):
            out.append(f"{name}:{node.lineno} args.{node.attr}")
    return sorted(out, key=lambda u: int(u.split(":")[1].split()[0]))


def test_services_and_formats_take_no_argparse_namespace() -> None:
    found = [
        use
        for path in _modules(*TYPED_LAYERS)
        for use in _argparse_uses(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE)))
    ]
    assert found == [], (
        "a service or a format reads the command line: give it typed arguments (a frozen "
        "dataclass or keyword parameters) and build them in mcp_review/cli_args.py"
    )


def test_the_argparse_check_finds_each_form() -> None:
    """The check above can fail: each form it refuses, in a sample module, is found."""
    sample = (
        "import argparse\n"
        "from argparse import Namespace\n"
        "def f(args: argparse.Namespace) -> None:\n"
        "    getattr(args, 'config', None)\n"
        "async def g(*, ns: 'Namespace') -> None: ...\n"
        "def h(args: Any) -> bool:\n"
        "    return args.force\n"
        "def k(args: dict[str, int]) -> None: ...\n"
    )
    assert _argparse_uses(sample, "m.py") == [
        "m.py:1 import argparse",
        "m.py:2 from argparse import ...",
        "m.py:3 f(args: Namespace)",
        "m.py:4 getattr(args, ...)",
        "m.py:5 g(ns: Namespace)",
        "m.py:7 args.force",
    ]


# The seams: (module, class) -> the fields typed in place of Any. Each must stay Any-free.
TYPED_SEAMS: dict[tuple[str, str], tuple[str, ...]] = {
    ("engine/status_tool.py", "ToolStatus"): ("comparison", "waivers", "waived", "hosts"),
    ("engine/status.py", "StatusReport"): ("waivers", "hosts"),
    ("services/inputs.py", "Inputs"): ("config", "hosts", "calls"),
    ("services/config_model.py", "Config"): ("gate", "hosts"),
    ("services/decisions.py", "GroupRun"): ("report", "grouping"),
}

ANY_LEFT: dict[tuple[str, str], int] = {
    ("engine/status_tool.py", "ToolStatus"): 1,  # held_by_proxy: the proxy's state file, JSON
    ("engine/status.py", "StatusReport"): 0,
    ("services/inputs.py", "Inputs"): 0,
    ("services/inputs.py", "InputOptions"): 0,
    ("services/decisions.py", "GroupRequest"): 0,
    ("services/decisions.py", "GroupRun"): 0,
    ("services/config_model.py", "Config"): 1,  # sources: discover.Source (discover imports it)
}
"""How many fields of each seam class still say ``Any``. The count only shrinks: typing one
more field fails :func:`test_any_at_the_seams_only_shrinks` until the number here is lowered."""


def _field_annotations(source: str, cls: str) -> dict[str, str]:
    """{field: annotation source} of the class-level annotated names of ``cls``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            return {
                s.target.id: ast.unparse(s.annotation)
                for s in node.body
                if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
            }
    raise AssertionError(f"class {cls} not found")


def _says_any(annotation: str) -> bool:
    tree = ast.parse(annotation, mode="eval")
    if isinstance(tree.body, ast.Constant) and isinstance(tree.body.value, str):
        tree = ast.parse(tree.body.value, mode="eval")  # a quoted annotation
    return any(isinstance(n, ast.Name) and n.id == "Any" for n in ast.walk(tree))


def _fields(module: str, cls: str) -> dict[str, str]:
    return _field_annotations((PACKAGE / module).read_text(encoding="utf-8"), cls)


def test_the_seams_carry_their_real_types() -> None:
    untyped = [
        f"{module}:{cls}.{name}: {_fields(module, cls)[name]}"
        for (module, cls), names in TYPED_SEAMS.items()
        for name in names
        if _says_any(_fields(module, cls)[name])
    ]
    assert untyped == []


def test_any_at_the_seams_only_shrinks() -> None:
    counts = {key: sum(_says_any(a) for a in _fields(*key).values()) for key in ANY_LEFT}
    assert counts == ANY_LEFT


def test_the_any_count_reads_annotations() -> None:
    """The counter can fail: it finds ``Any`` nested in an annotation and nowhere else."""
    sample = (
        "class C:\n"
        "    a: Any = None\n"
        "    b: dict[str, Any] | None = None\n"
        "    c: list[Comparison] = []\n"
        "    d: 'AnyStr' = ''\n"
        "    e: 'list[Any]' = []\n"
        "    def m(self, x: Any) -> Any: ...\n"
    )
    fields = _field_annotations(sample, "C")
    assert [n for n, a in fields.items() if _says_any(a)] == ["a", "b", "e"]
