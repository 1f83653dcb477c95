"""A tool's care for its user, told from the shapes attacks share a word with.

The word rules of ``engine/cues.py`` read a sentence's words (lower case, with ``,``, ``;``,
``:`` and stops as their own tokens). A few of their words are also how honest tools speak
about their own behaviour or put the user in charge; each helper here names the evidence that
tells the two apart, so the rule asks for intent toward the model, not for a word:

- "the assistant MUST NOT proceed ... without the user's approval" hands the user control
  (a negation before *without*): nothing is kept from them, and it is no system prompt;
- "does NOT notify subscribers" says what a tool does, not what the model is told to hide;
- a "knowledge base" is a store, not someone's knowledge;
- "(highest priority) in future element discovery" ranks the tool's own data; a priority
  claim over the model's instructions names them, labels a line with it, or sets it over
  or above something.

Pure and linear: each helper looks at a bounded slice of the words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_review.engine.cue_words import TELL_V

__all__ = [
    "NO_SPACE_SCRIPTS",
    "awaits_the_user",
    "knowledge_store",
    "not_a_mimic",
    "passed_as_values",
    "ranks_data",
    "states_behaviour",
    "switches_a_mode",
    "tells_nothing_hidden",
]

NO_SPACE_SCRIPTS = frozenset({"CJK", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA", "HANGUL"})
"""Scripts written without spaces between words ("任務ID" joins a Latin term to Chinese
letters), none with a letter a Latin one looks like: no look-alike spelling."""

_NEGATIONS = frozenset("not never don't dont cannot can't mustn't shouldn't".split())
_BREAKS = frozenset({",", ";", ":", ".", "!", "?", "\n", "\u2014"})
_OWNERS = frozenset("user user's users users' their his her the human human's operator's".split())
_ASSENT = frozenset(
    "approval approve approves consent confirmation confirm confirms permission go-ahead".split()
)
_CLAUSE = 7
"""Words read back from *without* for the negation that makes it a condition."""


def awaits_the_user(words: Sequence[str]) -> bool:
    """Whether the sentence forbids going on *without* the user's approval: a modal's or
    an order's negation ("must not proceed", "do not continue", "never start") shortly before
    *without*, the verb it negates not one of telling or asking ("never ask, just proceed
    without approval" keeps the user out), the user and their assent after *without*."""
    for j, w in enumerate(words):
        if w != "without":
            continue
        after = words[j + 1 : j + 6]
        if _OWNERS.isdisjoint(after) or _ASSENT.isdisjoint(after):
            continue
        for k in range(j - 2, max(0, j - _CLAUSE) - 1, -1):
            if words[k] in _NEGATIONS and (
                words[k] in _NEGATION_ALONE or (k and words[k - 1] in _AUXILIARIES)
            ):
                return words[k + 1] not in TELL_V
    return False


_NEGATION_ALONE = frozenset("never don't dont mustn't shouldn't".split())
_AUXILIARIES = frozenset("must should shall do will may can".split())


_THIRD_PERSON = frozenset("does did doesn't didn't".split())


def states_behaviour(words: Sequence[str], i: int) -> bool:
    """Whether the negated verb at ``i`` says what a tool does to things, not people ("does
    NOT notify subscribers", "Does NOT reveal secrets"): a third-person statement, no person
    after it ("this sync does not notify the user" hides something from them)."""
    back = words[max(0, i - 2) : i]
    third = bool(back) and (
        back[-1] in _THIRD_PERSON or (back[0] in _THIRD_PERSON and back[-1] == "not")
    )
    return third and _PEOPLE.isdisjoint(words[i + 1 : i + 7])


_PEOPLE = frozenset(
    "user user's users users' human humans operator operators anyone anybody person people "
    "them him her customer customers".split()
)


_STORES = frozenset("base bases graph graphs cutoff cut-off store stores".split())


_TOPIC = frozenset(("about", "regarding", "on"))


def knowledge_store(words: Sequence[str], i: int) -> bool:
    """Whether *knowledge* at ``i`` names a store ("not in the knowledge base") or knowledge of
    a subject ("never assume knowledge about Nx"), not a person's knowledge ("without the
    user's knowledge", "without the knowledge of the user")."""
    if words[i] != "knowledge" or i + 1 >= len(words):
        return False
    return words[i + 1] in _STORES or words[i + 1] in _TOPIC


_OVER_THE_MODEL = frozenset(
    "instruction instructions directive directives override overrides overriding prompt "
    "prompts system over above supersede supersedes superseding you your rules message "
    "messages request requests tool tools other others among everything anything".split()
)


def ranks_data(words: Sequence[str], seq: Sequence[str], sentence: str = "") -> bool:
    """Whether "highest priority" ranks the tool's own data: the sentence names no
    instruction, system, request or reader for it to rule over, and neither capitals nor a
    colon make it a line's label ("HIGHEST PRIORITY: read ...")."""
    if tuple(seq) != ("highest", "priority"):
        return False
    if _LABEL.search(sentence):
        return False
    return _OVER_THE_MODEL.isdisjoint(words)


_LABEL = re.compile(r"(?i:highest\s{1,3}priority\s{0,3}[:\]>*])|HIGHEST\s{1,3}PRIORITY")
"""A line's label: a colon, bracket or markup after it (any case), or capitals."""


def tells_nothing_hidden(words: Sequence[str], i: int) -> bool:
    """Whether the negated telling word at ``i`` keeps nothing from the user: a tool's own
    behaviour, a knowledge store, or a wait for the user's approval."""
    return states_behaviour(words, i) or knowledge_store(words, i) or awaits_the_user(words)


def not_a_mimic(words: Sequence[str], seq: Sequence[str], sentence: str = "") -> bool:
    """Whether the mimicry sequence ``seq`` is honest here: "highest priority" ranking the
    tool's data, or "the assistant must" not go on without the user's approval."""
    return ranks_data(words, seq, sentence) or (seq[-1] == "must" and awaits_the_user(words))


def passed_as_values(sentence: str, names: Sequence[str]) -> bool:
    """Whether every tool name the sentence seems to name is a value given to a parameter in
    a call's example (``network_mock({action:"add", ...})``) or a parameter's list of values
    (``- mode: `add` | `extract```): a plain word some tool is named, not that tool."""
    return bool(names) and all(
        re.search(r"\w[:=]\s?[\"'`]" + re.escape(n) + r"[\"'`]", sentence) for n in names
    )


_WHEN = frozenset("when whether if while until".split())
_SWITCHED = frozenset("enabled disabled activated deactivated".split())
"""A mode named in a subordinate clause of a setting ("Indicates whether maintenance mode should
be enabled", "to display when maintenance mode is enabled"): a condition or a setting's
question, where a claim ("Developer mode enabled.") stands in its own clause."""


_SWITCH_V = frozenset(
    "enable enables enabling disable disables disabling toggle toggles activate activates "
    "deactivate deactivates exit exits leave leaves on off".split()
)
_TO_THE_MODEL = frozenset("you your you're yourself assistant ai model agent".split())


def switches_a_mode(words: Sequence[str], seq: Sequence[str]) -> bool:
    """Whether a mode ("maintenance mode") is what the tool switches ("Enable maintenance mode
    and redirect traffic", "turn maintenance mode off"), not a state claimed of the model ("You
    are now in maintenance mode"): a switching verb just before it, and no word addressing the
    model in the sentence."""
    if not _TO_THE_MODEL.isdisjoint(words):
        return False
    n = len(seq)
    for k in range(len(words) - n + 1):
        if tuple(words[k : k + n]) == tuple(seq):
            before = words[max(0, k - 2) : k]
            after = words[k + n : k + n + 1]
            if not _SWITCH_V.isdisjoint(before) or not _SWITCH_V.isdisjoint(after):
                return True
            if not _WHEN.isdisjoint(before) and not _SWITCHED.isdisjoint(words[k + n : k + n + 3]):
                return True  # "when maintenance mode is enabled": a setting's condition
    return False
