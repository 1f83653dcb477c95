"""Move the test modules into one folder per layer (CONTRIBUTING.md, "What each test layer is for").

    python scripts/move_tests.py            # print the plan, change nothing
    python scripts/move_tests.py --apply    # git mv, then fix the paths the move breaks

Run from a clean checkout (`git status` empty): every change is a `git mv` or an edit that
`git diff` shows, so the move is one reviewable commit and `git reset --hard` undoes it.

What it does:

1. Each ``tests/test_*.py`` goes to ``tests/<layer>/`` by ``LAYOUT`` below. A module the table
   does not name (a test written after it) is placed by what it imports (:func:`derive`) and
   printed as "derived", to be checked and added to the table.
2. Its SVG snapshots (``tests/__snapshots__/<module>/``, where pytest-textual-snapshot keys
   them by the test file's folder and name) move beside it, to
   ``tests/<layer>/__snapshots__/<module>/``.
3. In a moved module, the paths anchored at the module's own file gain one level
   (``Path(__file__).parent`` -> ``.parent.parent``, ``parents[1]`` -> ``parents[2]``,
   ``os.path.dirname(__file__)`` -> twice): the shared data (``tests/fixtures``,
   ``tests/golden``, ``tests/corpus``, ``tests/servers``) stays where it is.
4. CONTRIBUTING.md's note that the move is still to be made is deleted, and every tracked
   text file naming ``tests/test_x.py`` or a moved snapshot (docs/security.md's promise table,
   README, CONTRIBUTING, comments, `.ci/run`) names ``tests/<layer>/test_x.py``.

The shared modules stay in ``tests/`` (``conftest.py``, ``helpers.py``, ``tui_sample.py``, …);
tests import them by name through pytest's ``pythonpath`` (pyproject.toml), from any folder.
Test module names stay unique across folders (pytest imports them by name, without packages).
Afterwards: ``python -m pytest --collect-only -q`` gives the same count as before.

Once, after every branch is merged:

    python -m pytest --collect-only -q | tail -1     # the count
    python scripts/move_tests.py                     # "derived" lines: add them to LAYOUT
    git commit -am "..."                             # if LAYOUT changed: the tree must be clean
    python scripts/move_tests.py --apply             # then read the lines it lists
    python -m pytest --collect-only -q | tail -1     # the same count
    python -m pytest -q tests/repo tests/tui/test_tui_snapshots.py tests/formats/test_golden_outputs.py
    git add -A && git commit -m "Tests in one folder per layer (scripts/move_tests.py)"
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
SNAPSHOTS = "__snapshots__"
# Data whose bytes are what a test compares (captures, fixtures, goldens, evaluation texts):
# never rewritten, even where a text happens to name a test file.
DATA = ("tests/corpus/", "tests/fixtures/", "tests/golden/", "benchmarks/eval/", "benchmarks/cues/")

LAYOUT: dict[str, tuple[str, ...]] = {
    # Pure functions on definitions: rules, schema diff, cues, policy, kinds, status. No files,
    # no servers (the corpus's captured tool lists are data).
    "engine": (
        "test_canonical_fast",
        "test_claim_reversals",
        "test_claim_verbs",
        "test_combinators",
        "test_corpus",
        "test_cost_bounds",
        "test_cue_directive",
        "test_cue_goals",
        "test_cue_directive_lang",
        "test_cue_families",
        "test_cue_families_batch3",
        "test_cue_families_recall",
        "test_cue_families_select",
        "test_cue_families_upgrade",
        "test_cue_change",
        "test_cue_lang",
        "test_cue_lang_native",
        "test_cue_model",
        "test_cue_precision",
        "test_cue_precision_agents",
        "test_cue_precision_dev4",
        "test_cue_precision_dev5",
        "test_cue_precision_dev7",
        "test_cue_precision_dev8",
        "test_cues",
        "test_cues_bench",
        "test_cues_eval_batch10",
        "test_cues_eval_batch11",
        "test_cues_eval_batch12",
        "test_cues_eval_batch9",
        "test_cues_eval_set",
        "test_dead_ends",
        "test_dialects",
        "test_engine_total",
        "test_exact_ints",
        "test_false_alarms_spec",
        "test_hidden",
        "test_hidden_walk",
        "test_hosts",
        "test_hosts_oracles",
        "test_kinds",
        "test_levels",
        "test_mcp_verdicts",
        "test_memo",
        "test_policy",
        "test_properties",
        "test_read_as_model",
        "test_rule_messages",
        "test_rules",
        "test_schema_diff",
        "test_schema_diff_corpus_defects",
        "test_settle",
        "test_status",
        "test_surfaces",
        "test_textwalk",
        "test_tomlread",
        "test_walk",
        "test_witness",
    ),
    # The files on disk: the pin file, the call log, the audit log, torn writes and crashes.
    "store": (
        "test_audit_hardening",
        "test_calllog_seal",
        "test_line_seal",
        "test_crash_safety",
        "test_digest",
        "test_golden_digest",
        "test_pin_also_layout",
        "test_pin_integrity",
        "test_owned_walk",
        "test_pin_layout",
        "test_pins",
        "test_pins_fast_read",
        "test_redaction_fast_path",
        "test_surface_pins",
    ),
    # Config, fetching over real transports, decisions, replay and rerun, trust, secrets.
    "services": (
        "test_config",
        "test_config_auto",
        "test_decisions_meanwhile",
        "test_faults",
        "test_fetch",
        "test_inputs",
        "test_real_server",
        "test_replay",
        "test_rerun",
        "test_rerun_session",
        "test_rerun_volatile",
        "test_secrets",
        "test_signed_decisions",
        "test_signed_surfaces",
        "test_surface_groups",
        "test_surface_review",
        "test_surfaces_fetch",
        "test_untrusted_configs",
        "test_watch",
        "test_wild",
    ),
    # What each output format prints: golden files, JSON, Markdown, SARIF, untrusted text inert.
    "formats": (
        "test_check_notes",
        "test_cues_reports",
        "test_golden_outputs",
        "test_group_values_once",
        "test_hostile_output",
        "test_markdown_render",
        "test_one_order",
        "test_output_witness",
        "test_replay_ignored",
        "test_replay_json_text",
        "test_replay_reports",
        "test_sarif_rug_pull_rule",
        "test_status_stream",
    ),
    # The app: Pilot tests, the view model, SVG snapshots.
    "tui": (
        "test_diff_marks_added_text",
        "test_diff_marks_cues",
        "test_group_text_whole",
        "test_textual_privates",
        "test_trust_axis",
        "test_tui_bigtext",
        "test_tui_counts",
        "test_tui_burst",
        "test_tui_cues",
        "test_tui_execution_diff",
        "test_tui_filter_words",
        "test_tui_first_screen",
        "test_tui_fleet",
        "test_tui_flow",
        "test_tui_groups",
        "test_tui_groups_size",
        "test_tui_held",
        "test_tui_hostile",
        "test_tui_hosts",
        "test_tui_keys",
        "test_tui_polish",
        "test_tui_render",
        "test_tui_rerun",
        "test_tui_rowlist",
        "test_tui_screenshot",
        "test_tui_snapshots",
        "test_tui_startup",
        "test_tui_surfaces",
        "test_tui_styles",
        "test_tui_view",
        "test_tui_word_cut",
        "test_tui_workers",
        "test_version_label",
    ),
    # `mcp-review proxy`: raw bytes and the real SDK client through it, local and remote.
    "proxy": (
        "test_every_placement_blocks",
        "test_hosts_proxy",
        "test_oauth",
        "test_proxy",
        "test_proxy_bigint",
        "test_proxy_e2e",
        "test_proxy_framing",
        "test_proxy_guard",
        "test_proxy_hold",
        "test_proxy_hostile",
        "test_proxy_http",
        "test_proxy_keepalive",
        "test_proxy_large",
        "test_proxy_recorder",
        "test_proxy_remote_cli",
        "test_proxy_remote_e2e",
        "test_proxy_remote_hostile",
        "test_proxy_remote_messages",
        "test_proxy_sse",
        "test_proxy_structure",
        "test_secrets_echoed",
        "test_security_round4",
        "test_signed_proxy",
        "test_stderr_log_mode",
        "test_surfaces_proxy",
        "test_ui_resource",
    ),
    # The commands through `main` or a subprocess on real files and live servers, as a user
    # runs them: the README's block, the demo, the CI action, hostile servers in the wild.
    "e2e": (
        "test_candidate",
        "test_check",
        "test_ci_integrations",
        "test_cli_args",
        "test_cli_one_command",
        "test_cli_polish",
        "test_corpus_agreement",
        "test_demo",
        "test_diff_forget",
        "test_groups",
        "test_hostile_input",
        "test_hosts_loopback",
        "test_instructions",
        "test_less_to_read",
        "test_invisible",
        "test_lookalikes",
        "test_meta_contract",
        "test_operator_polish",
        "test_pin_commands",
        "test_readme",
        "test_rerun_e2e",
        "test_seed_table",
        "test_surface_commands",
        "test_surfaces_everything",
        "test_waivers",
    ),
    # The repository's own rules: layer contracts, module shape, one place per decision, rule
    # ids only in the rules, docs held to the code (security.md, rules.md, citations, .ci/run).
    "repo": (
        "test_ci_run",
        "test_citations",
        "test_layers",
        "test_module_shape",
        "test_move_tests",
        "test_one_place",
        "test_rule_ids_in_rules",
        "test_rules_doc",
        "test_security_doc",
        "test_typed_services",
        "test_benchmarks_start",
    ),
}

# For a module the table does not name: the highest layer it imports decides (a test of the
# app imports the app; a test of a command imports `cli` or `commands`).
_DERIVE = (
    ("tui", re.compile(r"^test_tui_")),
    ("proxy", re.compile(r"^test_proxy")),
    ("tui", re.compile(r"\bmcp_review\.tui\b|\btui_sample\b")),
    ("proxy", re.compile(r"\bmcp_review\.services\.proxy\b|\bproxy_harness\b")),
    ("e2e", re.compile(r"\bmcp_review\.(cli|commands)\b|from mcp_review import cli\b")),
    ("formats", re.compile(r"\bmcp_review\.formats\b")),
    ("services", re.compile(r"\bmcp_review\.services\b")),
    ("store", re.compile(r"\bmcp_review\.store\b")),
    ("engine", re.compile(r"\bmcp_review\.engine\b")),
)


def derive(path: Path) -> str:
    """The layer of a test module the table does not name ("repo" when it imports none)."""
    text = path.read_text(encoding="utf-8")
    for layer, pattern in _DERIVE:
        if pattern.search(path.stem) or pattern.search(text):
            return layer
    return "repo"


def plan() -> tuple[dict[str, str], list[str], list[str]]:
    """({module: layer} for every test module in tests/, the derived ones, table entries with
    no file)."""
    where = {m: layer for layer, mods in LAYOUT.items() for m in mods}
    dupes = sorted({m for mods in LAYOUT.values() for m in mods if list(where).count(m) > 1})
    assert not dupes, dupes
    present = sorted(p.stem for p in TESTS.glob("test_*.py"))
    derived = [m for m in present if m not in where]
    moves = {m: where.get(m) or derive(TESTS / f"{m}.py") for m in present}
    missing = sorted(m for m in where if m not in moves)
    return moves, derived, missing


# Path(__file__).parent, Path(__file__).resolve().parent.parent, ... (not .parents[N]).
_PARENT = re.compile(r"(Path\(__file__\)(?:\.resolve\(\))?)((?:\.parent\b(?!s))+)")
_PARENTS = re.compile(r"(Path\(__file__\)(?:\.resolve\(\))?\.parents\[)(\d+)\]")
_DIRNAME = re.compile(r"os\.path\.dirname\(__file__\)")
_BARE = re.compile(r"(?<![\w.])__file__")


def deepen(text: str) -> str:
    """The module's own-file anchors, one folder deeper (what the move puts in between)."""
    text = _PARENT.sub(lambda m: m[1] + m[2] + ".parent", text)
    text = _PARENTS.sub(lambda m: f"{m[1]}{int(m[2]) + 1}]", text)
    return _DIRNAME.sub("os.path.dirname(os.path.dirname(__file__))", text)


def unhandled(text: str) -> list[str]:
    """Lines still using the module's own ``__file__`` in a way :func:`deepen` cannot judge."""
    out = []
    for line in text.splitlines():
        rest = _DIRNAME.sub("", _PARENTS.sub("", _PARENT.sub("", line)))
        if _BARE.search(rest):
            out.append(line.strip())
    return out


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout


def _tracked_text_files() -> list[Path]:
    out = []
    for name in _git("ls-files", "-z").split("\0"):
        p = ROOT / name
        if not name or not p.is_file() or p.suffix in {".svg", ".png"} or name.startswith(DATA):
            continue
        try:
            p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        out.append(p)
    return out


_UNTIL = re.compile(r"<!-- move_tests: until the move.*?<!-- /move_tests -->\n\n?", re.S)


def _drop_until_the_move(path: Path) -> None:
    """Delete the doc's paragraph that is true only before the move."""
    if path.is_file():
        text = path.read_text(encoding="utf-8")
        path.write_text(_UNTIL.sub("", text), encoding="utf-8")


def apply(moves: dict[str, str]) -> list[str]:
    """Move, deepen, rewrite references; the lines left for a human to check."""
    if _git("status", "--porcelain").strip():
        sys.exit("move_tests: the worktree has changes: commit them first")
    todo: list[str] = []
    snapped: dict[str, str] = {}  # module -> layer, for the modules whose snapshots moved
    for module, layer in sorted(moves.items()):
        (TESTS / layer).mkdir(exist_ok=True)
        _git("mv", f"tests/{module}.py", f"tests/{layer}/{module}.py")
        snaps = TESTS / SNAPSHOTS / module
        if snaps.is_dir():
            (TESTS / layer / SNAPSHOTS).mkdir(exist_ok=True)
            _git("mv", f"tests/{SNAPSHOTS}/{module}", f"tests/{layer}/{SNAPSHOTS}/{module}")
            snapped[module] = layer
        moved = TESTS / layer / f"{module}.py"
        text = moved.read_text(encoding="utf-8")
        todo += [f"tests/{layer}/{module}.py: {line}" for line in unhandled(text)]
        new = deepen(text)
        if new != text:
            moved.write_text(new, encoding="utf-8")
    if (TESTS / SNAPSHOTS).is_dir() and not any((TESTS / SNAPSHOTS).iterdir()):
        (TESTS / SNAPSHOTS).rmdir()
    _drop_until_the_move(ROOT / "CONTRIBUTING.md")
    ref = re.compile(r"\btests/(" + "|".join(map(re.escape, moves)) + r")\.py\b")
    for p in _tracked_text_files():
        if p == Path(__file__).resolve():
            continue
        text = p.read_text(encoding="utf-8")
        new = ref.sub(lambda m: f"tests/{moves[m[1]]}/{m[1]}.py", text)
        for module, layer in snapped.items():  # a doc that shows a snapshot (docs/app.md)
            new = new.replace(
                f"tests/{SNAPSHOTS}/{module}/", f"tests/{layer}/{SNAPSHOTS}/{module}/"
            )
        if new != text:
            p.write_text(new, encoding="utf-8")
        for n, line in enumerate(new.splitlines(), 1):
            if re.search(r"tests/(test_[\w*]*\*|\*)", line) or f"tests/{SNAPSHOTS}" in line:
                todo.append(f"{p.relative_to(ROOT)}:{n}: {line.strip()}")
    return todo


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--apply", action="store_true", help="move (default: print the plan)")
    args = ap.parse_args(argv)
    moves, derived, missing = plan()
    if not moves:
        print("move_tests: no tests/test_*.py left to move")
        return 0
    for layer in LAYOUT:
        mods = sorted(m for m, lay in moves.items() if lay == layer)
        print(f"{layer}: {len(mods)}")
        for m in mods:
            print(f"    {m}" + ("    (derived: add it to LAYOUT)" if m in derived else ""))
    for m in missing:
        print(f"in LAYOUT, no file: {m}")
    if not args.apply:
        return 0
    todo = apply(moves)
    print(f"moved {len(moves)} modules; check these lines by hand:" if todo else "moved.")
    for line in todo:
        print(f"    {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
