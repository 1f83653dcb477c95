"""scripts/move_tests.py, the move of the tests into one folder per layer: its table places every
module once, and the paths a moved module anchors at its own file gain exactly one level."""

from __future__ import annotations

from pathlib import Path

import move_tests as mt


def test_each_module_is_in_one_layer_and_each_layer_is_documented():
    names = [m for mods in mt.LAYOUT.values() for m in mods]
    assert len(names) == len(set(names))
    assert all(n.startswith("test_") for n in names)
    contributing = (mt.ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for layer in mt.LAYOUT:
        assert f"`tests/{layer}/`" in contributing, layer


def test_every_module_still_to_move_has_a_layer():
    moves, _, _ = mt.plan()
    assert set(moves.values()) <= set(mt.LAYOUT)
    assert "test_move_tests" not in moves or moves["test_move_tests"] == "repo"


# The module's own name for its file, spelt so that moving this very module leaves the samples
# below as they are.
F = "__" + "file__"


def test_paths_anchored_at_the_moved_file_gain_one_level():
    before = (
        f'A = Path({F}).parent / "golden"\n'
        f"B = Path({F}).resolve().parent.parent\n"
        f"C = Path({F}).resolve().parents[1]\n"
        f'D = os.path.join(os.path.dirname({F}), "fixtures")\n'
        f"E = Path(pkg.{F}).parent\n"
    )
    after = (
        f'A = Path({F}).parent.parent / "golden"\n'
        f"B = Path({F}).resolve().parent.parent.parent\n"
        f"C = Path({F}).resolve().parents[2]\n"
        f'D = os.path.join(os.path.dirname(os.path.dirname({F})), "fixtures")\n'
        f"E = Path(pkg.{F}).parent\n"
    )
    assert mt.deepen(before) == after
    assert mt.unhandled(before) == []


def test_an_anchor_it_cannot_judge_is_left_to_a_human():
    assert mt.unhandled(f"src = open({F}).read()\nx = Path(m.{F}).name\n") == [
        f"src = open({F}).read()"
    ]


def test_a_module_the_table_does_not_name_is_placed_by_what_it_imports(tmp_path: Path):
    cases = {
        "test_new_screen": "from mcp_review.tui.app import ReviewApp\n",
        "test_proxy_new": "import os\n",
        "test_new_cli": "from mcp_review.cli import main\n",
        "test_new_format": "from mcp_review.formats import check\n",
        "test_new_rule": "from mcp_review.engine.rules import catalog\n",
        "test_new_doc": "import re\n",
    }
    got = {}
    for name, text in cases.items():
        (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
        got[name] = mt.derive(tmp_path / f"{name}.py")
    assert got == {
        "test_new_screen": "tui",
        "test_proxy_new": "proxy",
        "test_new_cli": "e2e",
        "test_new_format": "formats",
        "test_new_rule": "engine",
        "test_new_doc": "repo",
    }


def test_the_note_true_only_before_the_move_is_what_the_move_deletes(tmp_path: Path):
    doc = tmp_path / "CONTRIBUTING.md"
    text = (
        "## Tests\n\nBy layer.\n\n"
        "<!-- move_tests: until the move (scripts/move_tests.py --apply deletes this) -->\n"
        "Until the move is made, the modules are flat.\n"
        "<!-- /move_tests -->\n\n"
        "## Next\n"
    )
    doc.write_text(text, encoding="utf-8")
    mt._drop_until_the_move(doc)
    assert doc.read_text(encoding="utf-8") == "## Tests\n\nBy layer.\n\n## Next\n"


def test_no_test_module_is_imported_by_its_path():
    """``from tests.test_kinds import …`` breaks when the module moves into its folder; a test
    that shares another's data imports it by name (every test folder is on pytest's
    ``pythonpath``), or the data moves to a shared module (``tui_sample``, ``helpers``)."""
    import re

    pattern = re.compile(r"^\s*(?:from|import)\s+tests\.(?:\w+\.)*test_\w+", re.M)
    found = [
        f"{p.relative_to(mt.ROOT)}: {m[0].strip()}"
        for p in sorted(mt.TESTS.rglob("*.py"))
        for m in pattern.finditer(p.read_text(encoding="utf-8"))
    ]
    assert not found, found


def test_every_test_folder_is_on_pytests_pythonpath():
    """A test imports another's constants by name (``from test_hosts_loopback import V1``):
    after the move they sit in different folders, so each folder is on the path, whichever
    file is run alone."""
    import tomllib

    conf = tomllib.loads((mt.ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    path = conf["tool"]["pytest"]["ini_options"]["pythonpath"]
    assert "tests" in path
    assert all(f"tests/{layer}" in path for layer in mt.LAYOUT)
