"""tui.render: tool names with look-alike letters marked (pure; the text is core's)."""

from __future__ import annotations

import pytest

from mcp_review.engine.hidden import mark_lookalikes
from mcp_review.tui.render import mark_name, name_content, name_line, name_text


def _marked(name: str) -> tuple[str, list[str], list[str]]:
    m = mark_name(name)
    return (m.text, [m.text[a:b] for a, b in m.hidden], [m.text[a:b] for a, b in m.lookalike])


def test_homoglyph_twin_shows_the_odd_letter_and_its_code_point():
    assert _marked("r\u0435ad_file") == ("r\u0435⟨U+0435⟩ad_file", [], ["\u0435⟨U+0435⟩"])


def test_ascii_and_non_latin_names_are_left_alone():
    assert _marked("read_file") == ("read_file", [], [])
    assert _marked("поиск") == ("поиск", [], [])


def test_hidden_characters_and_lookalikes_keep_their_own_spans():
    assert _marked("de\u200bplo\u0443") == ("de⟨U+200B⟩ploу⟨U+0443⟩", ["⟨U+200B⟩"], ["у⟨U+0443⟩"])
    assert _marked("a\u202eb\u0435") == ("a⟨RLO U+202E⟩bе⟨U+0435⟩", ["⟨RLO U+202E⟩"], ["е⟨U+0435⟩"])


@pytest.mark.parametrize(
    "name",
    [
        "r\u0435ad_file",
        "read_file",
        "поиск",
        "de\u200bploy",
        "a\u202eb\u0435",
        "[b]x\u0430[/b]",
        "\u200b",
        "",
        "読む\u3000ファイル",  # another script: only the odd space is marked (issue 25 item 3)
        "поиск\u00a0файла",
        "read\u202ffile",
    ],
)
def test_same_text_as_check_report(name):
    assert mark_name(name).text == mark_lookalikes(name)


def test_renderers_are_data_not_markup():
    name = "[bold]r\u0435ad[/bold]"
    assert name_content(name).plain == "[bold]r\u0435⟨U+0435⟩ad[/bold]"
    assert name_text(name).plain == "[bold]r\u0435⟨U+0435⟩ad[/bold]"
    assert name_line("r\u0435ad_file\nx") == "r\u0435⟨U+0435⟩ad_file⏎x"
    assert name_line("r\u0435ad_file", limit=3) == "r\u0435⟨U+0435⟩a…"


def test_a_cut_never_ends_inside_an_escape():
    """The operator's walk (benchmarks/README.md): a blocked tool's reason quotes the planted
    text with its newlines escaped (``excerpt:\\n```\\n…``); cut at the header's limit right
    after the backslash, the line read ``excerpt:\\…``. A cut drops a dangling backslash."""
    from mcp_review.tui.render import safe_content

    reason = 'the description adds "code excerpt:\\n```\\nimport shutil"'
    at = reason.index("\\n") + 1  # the limit falls between the backslash and its letter
    assert (
        safe_content(reason, one_line=True, limit=at).plain
        == 'the description adds "code excerpt:…'
    )
    whole = safe_content(reason, one_line=True, limit=len(reason)).plain
    assert whole == reason  # not cut: every backslash kept
    assert safe_content("C:\\\\", limit=3).plain == "C:…"
