"""The pin file's fast TOML reader (engine/tomlread.py, issue 15 item 4) against the reference,
``tomllib``: the same document for every kind of value a pin file holds, and tomllib's own
errors for text either refuses."""

from __future__ import annotations

import tomllib

import pytest

from mcp_review.engine import tomlread
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.store.pinfile import load_pins, save_pins


def _hostile_tools(n: int) -> list[ToolDef]:
    texts = [
        "plain",
        "quote \" and 'single' and '''triple'''",
        "back\\slash \\u0041",
        "zero\u200bwidth \u202eoverride\u202c",
        "tag \U000e0041",
        "nul-ish \x01\x1f\x7f",
        "line\nbreak\r\nand\ttab",
        "emoji \U0001f600 and e\u0301",
        "ends with '",
    ]
    out = []
    for i in range(n):
        desc = texts[i % len(texts)] + f" #{i}"
        out.append(
            ToolDef.from_wire(
                {
                    "name": f"tool_{i}",
                    "description": desc,
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "n": {"type": "integer", "maximum": 2**63 - 1, "minimum": -(2**53)},
                            "f": {"type": "number", "multipleOf": 0.1, "exclusiveMaximum": 1e-07},
                            "s": {"type": "string", "pattern": "^[a-z\\d]+$", "default": desc},
                        },
                        "required": ["n"],
                    },
                    "annotations": {"readOnlyHint": bool(i % 2)},
                }
            )
        )
    return out


def test_a_big_pin_file_reads_the_same_through_both_parsers(tmp_path):
    pins = PinFile()
    for i, t in enumerate(_hostile_tools(400)):
        pins.decide(
            make_pin(
                f"srv{i % 3}",
                t,
                Decision.APPROVED if i % 5 else Decision.DENIED,
                by="t\u200b",
                note=t.description,
            )
        )
    pins.server_policy["srv1"] = "strict"
    path = tmp_path / "pins.toml"
    save_pins(pins, str(path))
    text = path.read_text()
    assert tomlread._rtoml is not None  # the fast path is the one under test
    assert tomlread.loads(text) == tomllib.loads(text)
    back = load_pins(str(path))
    assert {k: p.digest for k, p in back.pins.items()} == {
        k: p.digest for k, p in pins.pins.items()
    }


@pytest.mark.parametrize(
    "bad",
    [
        'version = 1\nx = "unterminated\n',
        "version = 1\nversion = 2\n",  # duplicate key
        "version = 1\n[a]\nx = 1\n[a]\ny = 2\n",  # duplicate table
        "version = 1\nx = 0x\n",
        'version = 1\nx = "\\q"\n',  # unknown escape
        "version = 1\nx = [1, 2\n",
        "version = 1\n= 1\n",
    ],
)
def test_text_both_refuse_is_refused_with_tomllibs_message(bad):
    with pytest.raises(tomllib.TOMLDecodeError) as ref:
        tomllib.loads(bad)
    with pytest.raises(tomllib.TOMLDecodeError) as got:
        tomlread.loads(bad)
    assert str(got.value) == str(ref.value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("x = {a = 1, }\n", {"a": 1}),  # trailing comma in an inline table
        ("x = {a = 1,\n  b = 2}\n", {"a": 1, "b": 2}),  # a line break inside one
        ('x = "\\e\\x41"\n', "\x1bA"),  # \e and \xHH escapes
    ],
)
def test_toml_1_1_is_read_whatever_the_size(text, value):
    # Documented in engine/tomlread.py: the same answer for a small file and a big one.
    assert tomlread.loads(text)["x"] == value
    assert tomlread.loads(text + "# padding\n" * 10_000)["x"] == value


@pytest.mark.parametrize("n", [1_000, 200_000])
def test_deep_nesting_is_refused_or_read_as_tomllib_does_never_a_crash(n):
    text = "x = " + "[" * n + "]" * n + "\n"
    try:
        want: object = tomllib.loads(text)
    except (RecursionError, tomllib.TOMLDecodeError) as e:
        want = type(e)
    try:
        got: object = tomlread.loads(text)
    except (RecursionError, tomllib.TOMLDecodeError) as e:
        got = type(e)
    assert got == want
