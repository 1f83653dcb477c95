"""Whether a sentence's verb is the tool's own function or scopes the tool's own use: the
precision tests of ``engine/cue_find.py``'s word rules (docs/cues.md, "Families for what published attacks ask"), apart so
that module stays within the project's size limit.

A cue needs evidence of intent toward the model, not a word: a tool storing "a" snippet, adding
flags "on" the mail it manages, or saying when *it* is to be used beside "the other tools" is
describing itself, not moving data or giving orders about other tools.
"""

from __future__ import annotations

import re

from mcp_review.engine.cue_words import USE_V

OBJECT_WINDOW = 40
"""Words after a verb read as its objects (a bound: a verb's cost does not grow with the
sentence)."""

_EVERYTHING = frozenset("all every each everything any entire whole".split())
_ON = frozenset(("on", "onto"))


def own_transfer(words: list[str], i: int) -> bool:
    """Whether the sending verb at ``i`` names the tool's own function ("Upload a file to the
    remote server", "Send a signal to ..."): an indefinite object right after it, or the one
    file the call is given ("Upload the file to the MinIO server") to no generic place ("the
    backup server", "our server"), and nothing that takes in everything ("all", "every")
    before the destination."""
    if words[i + 1 : i + 2] == ["the"] and words[i + 2 : i + 3] and words[i + 2] in _ONE_FILE:
        # "Upload the file to the server": the file the call is given, to no named place
        return _EVERYTHING.isdisjoint(words[i + 1 : i + 8]) and _GENERIC_PLACE.isdisjoint(
            words[i + 2 : i + 10]
        )
    if words[i + 1 : i + 2] not in (["a"], ["an"]):
        return False
    return _EVERYTHING.isdisjoint(words[i + 1 : i + 8])


_ONE_FILE = frozenset("file document attachment image photo archive".split())
_GENERIC_PLACE = frozenset(
    "backup audit compliance external analytics logging monitoring central collection "
    "our my your their attacker's attacker third-party secondary mirror log logs admin "
    "security verification".split()
)


ASSIGN_V = frozenset("set sets reset resets change changes rotate rotates".split())


def assigned_for(words: list[str], i: int, secret: str) -> bool:
    """Whether the verb at ``i`` gives an account a credential ("(Re)Set the password for the
    user account", "rotate the key of a service account"): the secret is what the tool
    assigns, not something asked of the model or moved."""
    for j in range(i + 1, min(len(words), i + 5)):
        if words[j].startswith(secret[:6]):
            return words[j + 1 : j + 2] in (["for"], ["of"]) and "to" not in words[i + 1 : j]
    return False


def kept_in_place(words: list[str], i: int, objs: dict[str, str], addressed: bool) -> bool:
    """Whether the putting verb at ``i`` keeps sensitive data where it is, as the tool's own
    function, rather than moving it: the data is where the verb acts ("Add or remove flags on
    one or more emails"), or the verb stores an indefinite thing with no argument, address or
    "all" in sight ("Store a new preference, fact, or conversation snippet"). ``objs`` are the
    verb's object classes, ``addressed`` whether an address or a quoted name follows it."""
    sens = objs.get("sensitive", "").split(" ")[0]
    if sens and "secret" not in objs:
        for j in range(i + 1, min(len(words), i + OBJECT_WINDOW)):
            if words[j] == sens:
                if not _ON.isdisjoint(words[max(i, j - 4) : j]):
                    return True
                break
    return "arg" not in objs and "dest" not in objs and not addressed and own_transfer(words, i)


def scopes_this_tool(words: list[str], negated: list[bool]) -> str:
    """How a sentence naming "other tools" scopes this tool's own use, if it does: "restraint"
    ("Only use this tool when the other tools are not sufficient": a call of this tool, the
    other tools inside the condition), "this when" (the same without "only": a preference),
    "not other tools" ("You MUST NOT use X or other tools to apply query tuning changes": the
    other tools are what is not to be used, for this tool's job); "" when the sentence orders
    something about the other tools."""
    for k in range(len(words) - 1):
        if words[k] != "other" or words[k + 1] not in ("tool", "tools"):
            continue
        lo = max(0, k - 8)
        if any(words[j] in USE_V and negated[j] for j in range(lo, k)):
            return "not other tools"
        cond = any(w in ("when", "if", "unless") for w in words[max(0, k - 3) : k])
        for i in range(k):
            if cond and words[i] in USE_V and words[i + 1 : i + 2] == ["this"]:
                return "restraint" if "only" in words[max(0, i - 2) : i] else "this when"
    return ""


_OPEN = re.compile(r"<([A-Za-z][\w-]{0,40})>")
_CLOSE = re.compile(r"</([A-Za-z][\w-]{0,40})>")
_NAME = re.compile(r"<\s{0,2}/?\s{0,2}([A-Za-z][\w:-]{0,40})")
SECTIONS_MIN = 3
"""Distinct tag names, each opened and closed, that make a text a sectioned document."""


def section_tags(text: str) -> frozenset[str]:
    """The tag names (lower case) that section ``text`` when it is organised in at least
    ``SECTIONS_MIN`` distinct tagged sections, each opened and closed (neon's ``<use_case>``,
    ``<workflow>``, ``<important_notes>``, ``<instructions>``); empty otherwise."""
    if "</" not in text:
        return frozenset()
    opened = {m.group(1).lower() for m in _OPEN.finditer(text)}
    closed = {m.group(1).lower() for m in _CLOSE.finditer(text)}
    both = frozenset(opened & closed)
    return both if len(both) >= SECTIONS_MIN else frozenset()


_VOICES = frozenset(
    "system sys important information admin administrator assistant prompt secret hidden "
    "override priority critical mandatory admin_override global_override".split()
)
"""Tag names that speak in a privileged voice: never a section heading, whatever surrounds
them (``<system>``, ``<IMPORTANT>``, ``<information>``)."""


def is_section_tag(matched: str, sections: frozenset[str]) -> bool:
    """Whether the matched tag text (``<instructions``, ``</response_instructions>``) is one of
    ``sections`` and names no privileged voice."""
    m = _NAME.match(matched)
    if not sections or m is None:
        return False
    name = m.group(1).lower()
    return name in sections and name not in _VOICES


_PLACE_PREP = frozenset(("in", "into", "to", "inside"))
_FRESH = frozenset("returned generated new issued created resulting".split())


def written_there(words: list[str], starts: list[int], at: int) -> bool:
    """Whether the secret location whose run starts at offset ``at`` is where a putting verb
    writes ("Place the returned credentials in project's `.env` file"), not the data it puts:
    "in", "into" or "to" among the three words before it."""
    j = next((k for k, x in enumerate(starts) if x >= at), len(words))
    return not _PLACE_PREP.isdisjoint(words[max(0, j - 3) : j])


def fresh_secret(words: list[str], i: int, secret: str) -> bool:
    """Whether the secret the verb at ``i`` handles is one the tool itself hands back ("the
    returned credentials", "the generated key"), not the user's or the model's."""
    head = secret.split(" ")[0]
    for j in range(i + 1, min(len(words), i + OBJECT_WINDOW)):
        if words[j] == head:
            return not _FRESH.isdisjoint(words[max(i, j - 2) : j])
    return False
