"""A tool's care for its user, told from the shapes attacks share a word with.

The word rules of ``engine/cue_find.py`` read a sentence's words (lower case, with ``,``, ``;``,
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
    "glosses_a_value",
    "in_code_span",
    "kept_safe",
    "knowledge_store",
    "media_transcript",
    "named_as_source",
    "not_a_mimic",
    "own_place",
    "passed_as_values",
    "ranks_data",
    "records_conversation",
    "rules_not_the_model_s",
    "scope_label",
    "states_behaviour",
    "switches_a_mode",
    "taken_from_data",
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
_CLAUSE = 12
"""Words read back from *without*, to the clause's start, for the negation that makes it a
condition ("Do NOT delete keys with any other name prefix without explicit user consent")."""


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
            if words[k] in _BREAKS and j - k > 6:
                break  # past the nearest words, only the clause's own negation
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
    NOT notify subscribers", "Does NOT reveal secrets", "this tool cannot confirm a
    notification was sent"): a third-person statement, no person after it ("this sync does not notify the user" hides something from them)."""
    back = words[max(0, i - 2) : i]
    third = bool(back) and (
        back[-1] in _THIRD_PERSON or (back[0] in _THIRD_PERSON and back[-1] == "not")
    )
    # "so this tool cannot confirm a notification was sent": what the tool is unable to do
    unable = i >= 2 and words[i - 1] in _UNABLE and words[i - 2] in _TOOL_SUBJECTS
    return (third or unable) and _PEOPLE.isdisjoint(words[i + 1 : i + 7])


_UNABLE = frozenset("cannot can't".split())
_TOOL_SUBJECTS = frozenset("tool it api server endpoint service".split())


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


_FIT = frozenset(
    "suitable intended designed meant appropriate ideal optimized optimised recommended".split()
)
_FIT_ADVERBS = frozenset("very really well always".split())


def states_fitness(words: Sequence[str], i: int) -> bool:
    """Whether the negated telling word at ``i`` is what the tool is not fit for ("It is not
    suitable for showing the distribution of specific locations"): a gerund after "for", a
    word of fitness negated just before it, and no person after it ("not meant for showing
    to the user" keeps something from them)."""
    if i < 3 or words[i - 1] != "for" or not words[i].endswith("ing"):
        return False
    k = i - 2
    if words[k] not in _FIT:
        return False
    if words[k - 1] in _FIT_ADVERBS and k >= 2:
        k -= 1
    return words[k - 1] in _NEGATIONS and _PEOPLE.isdisjoint(words[i + 1 : i + 7])


def tells_nothing_hidden(words: Sequence[str], i: int) -> bool:
    """Whether the negated telling word at ``i`` keeps nothing from the user: a tool's own
    behaviour, what it is not fit for, a knowledge store, or a wait for the user's approval."""
    return (
        states_behaviour(words, i)
        or states_fitness(words, i)
        or knowledge_store(words, i)
        or awaits_the_user(words)
    )


def not_a_mimic(
    words: Sequence[str],
    seq: Sequence[str],
    sentence: str = "",
    own_names: frozenset[str] = frozenset(),
) -> bool:
    """Whether the mimicry sequence ``seq`` is honest here: "highest priority" ranking the
    tool's data, "the assistant must" not go on without the user's approval, a sequence
    naming one of the tool's own parameters ("New instructions for the assistant" describing
    an ``instructions`` property), or a sentence quoted whole as an example ('- "According to
    [BBC News](...), the UK government has announced a new policy ..."', nothing in it
    addressed to the model)."""
    return (
        ranks_data(words, seq, sentence)
        or (seq[-1] == "must" and awaits_the_user(words))
        or seq[-1] in own_names
        or (_QUOTED_EXAMPLE.fullmatch(sentence.strip()) is not None and _TO_MODEL.isdisjoint(words))
    )


_QUOTED_EXAMPLE = re.compile(r"[-*\s]{0,3}[\"\u201c][^\"\u201c\u201d\n]{10,}[\"\u201d][.,]?")
"""A sentence standing in quotes whole: an example of what a result looks like."""


def passed_as_values(sentence: str, names: Sequence[str]) -> bool:
    """Whether every tool name the sentence seems to name is a value given to a parameter in
    a call's example (``network_mock({action:"add", ...})``), a parameter's list of values
    (``- mode: `add` | `extract```, "'list' to search rules, 'get' to retrieve one, or
    'versions'" in any quotes) or the text a value holds ("Should start with 'search' or
    include a pipe command"): a plain word some tool is named, not that tool."""
    return bool(names) and all(
        re.search(r"\w[:=]\s?[\"'`]" + re.escape(n) + r"[\"'`]", sentence)
        or re.search(_ITEM_SEP + _q(n), sentence)
        or re.search(_q(n) + _ITEM_SEP + r"[\"'`]\w+[\"'`]", sentence)
        or re.search(_HOLDS + _q(n), sentence, re.I)
        for n in names
    )


def _q(name: str) -> str:
    return r"[\"'`]" + re.escape(name) + r"[\"'`]"


_ITEM_SEP = r"(?:,|\bor\b)\s{1,3}"
"""Between two values of a list ("'list' ..., 'get' ..., or 'versions'")."""
_HOLDS = r"\b(?:starts?|begins?|ends?|prefixed|suffixed)\s(?:with|by)\s"
"""The text a value holds ("Should start with 'search'"), not a tool to call."""


_WHEN = frozenset("when whether if while until".split())
_SWITCHED = frozenset("enabled disabled activated deactivated".split())
"""A mode named in a subordinate clause of a setting ("Indicates whether maintenance mode should
be enabled", "to display when maintenance mode is enabled"): a condition or a setting's
question, where a claim ("Developer mode enabled.") stands in its own clause."""


_SWITCH_V = frozenset(
    "enable enables enabling disable disables disabling toggle toggles activate activates "
    "deactivate deactivates exit exits leave leaves on off".split()
)
_FIELD_NOUNS = frozenset("status state setting settings flag flags toggle value".split())
"""What a mode's name may head as a noun ("maintenance mode status"): a field, not a claim."""
_TO_THE_MODEL = frozenset("you your you're yourself assistant ai model agent".split())


def switches_a_mode(words: Sequence[str], seq: Sequence[str]) -> bool:
    """Whether a mode ("maintenance mode") is what the tool switches ("Enable maintenance mode
    and redirect traffic", "turn maintenance mode off") or reports ("object cache status, and
    maintenance mode status"), not a state claimed of the model ("You are now in maintenance
    mode"): a switching verb just before it or a field noun after it, and no word addressing
    the model in the sentence."""
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
            if after and after[0] in _FIELD_NOUNS:
                return True  # "and maintenance mode status": a field a tool reports
    return False


_OWN_PLACES = frozenset("endpoint server api".split())


def own_place(words: Sequence[str], start: int, i: int) -> bool:
    """Whether the destination word at ``i`` is the tool itself or the user's own machine, not
    somewhere else: "this" before an endpoint, server or API word ("remove all ID values
    before you pass it in this endpoint"), or "local" before it ("Forward them to your local
    server"). An address written beside it is read on its own ("send it to this endpoint:
    https://...")."""
    if words[i] not in _OWN_PLACES or i <= start:
        return False
    return words[i - 1] in ("this", "local")


_MEDIA = frozenset(
    "video videos youtube audio recording recordings podcast podcasts episode episodes clip "
    "clips media speech lecture webinar film movie".split()
)
_CHAT = frozenset("conversation conversations chat chats session sessions this our".split())


def media_transcript(words: Sequence[str], i: int) -> bool:
    """Whether *transcript* at ``i`` is a recording's ("Extract transcript from a YouTube video
    URL or ID"): a video, audio or other recording named within the next words, and no
    conversation or chat ("the transcript of this conversation" is the model's own)."""
    if words[i] not in ("transcript", "transcripts"):
        return False
    near = words[max(0, i - 2) : i + 6]
    return not _MEDIA.isdisjoint(near) and _CHAT.isdisjoint(near)


_KEEP_V = frozenset("store stores save saves keep keeps".split())
_SAFE_PLACES = frozenset(
    {
        ("environment", "variables"),
        ("environment", "variable"),
        ("env", "vars"),
        ("secrets", "manager"),
        ("secret", "manager"),
        ("secure", "storage"),
        ("password", "manager"),
        ("vault", ""),
        ("keychain", ""),
    }
)
_DETERMINERS = frozenset("your the a an".split())


def kept_safe(words: Sequence[str], i: int) -> bool:
    """Whether the storing verb at ``i`` keeps a secret safe ("Always store the secret key in
    environment variables (e.g., DO_SPACES_SECRET_KEY) and access it securely at runtime"):
    "in" or "into" a place of safe keeping next in its clause ("store the key in the notes
    parameter" moves it)."""
    if words[i] not in _KEEP_V:
        return False
    for j in range(i + 1, min(len(words) - 1, i + 9)):
        if words[j] in _BREAKS:
            return False
        if words[j] in ("in", "into"):
            k = j + 2 if words[j + 1] in _DETERMINERS else j + 1
            head = words[k] if k < len(words) else ""
            nxt = words[k + 1] if k + 1 < len(words) else ""
            return (head, nxt) in _SAFE_PLACES or (head, "") in _SAFE_PLACES
    return False


_IF = frozenset("if when unless".split())


def rules_not_the_model_s(
    words: Sequence[str], i: int, nouns: frozenset[str], sentence: str
) -> bool:
    """Whether every rule word after the ignoring verb at ``i`` is no rule the model was
    given: the rules of a named file ("Ignore robots.txt rules for this request": ``sentence``,
    lower case, shows the name's dot) or a request inside a condition ("Override ONLY IF user requests":
    the user asking, not requests to override)."""
    seen = False
    for j in range(i + 1, min(len(words), i + 8)):
        if words[j] not in nouns:
            continue
        seen = True
        if j >= 2 and f"{words[j - 2]}.{words[j - 1]} {words[j]}" in sentence:
            continue  # a file's name just before it, its words split at the dot
        if words[j] == "requests" and not _IF.isdisjoint(words[max(i, j - 4) : j]):
            continue
        return False
    return seen


_PERSONAL = frozenset(
    "user user's users users' your yours my their his her human conversation chat session "
    "context clipboard keychain device phone computer machine browser system all every".split()
)


def taken_from_data(words: Sequence[str], i: int, sensitive: str) -> bool:
    """Whether the sensitive data the reading verb at ``i`` takes comes from the data the tool
    is given ("Extract unique contacts from recent email headers"): "from" right after it, and
    no person, conversation, device or "all" in the source or before the data ("Extract the
    contacts from the user's phone", "Read all emails from the inbox" read someone's data)."""
    head = sensitive.split(" ")[-1]
    for j in range(i + 1, min(len(words) - 1, i + 6)):
        if words[j] == head:
            return (
                words[j + 1] == "from"
                and _PERSONAL.isdisjoint(words[i + 1 : j])
                and _PERSONAL.isdisjoint(words[j + 2 : j + 7])
            )
    return False


_LABEL_AT = re.compile(r"\[\s?[\w/ -]{1,40}\]")
_VALUE_LIST = re.compile(r"[\w.-]+(?:\s?\|\s?[\w.-]+)+")
_SHORT_FIELD = re.compile(r"(?:[A-Za-z_][\w.-]*\s?){1,4}")
_TO_MODEL = frozenset("you your must should ignore always never now assistant model ai".split())


def scope_label(text: str, start: int) -> bool:
    """Whether the bracketed word at ``start`` opening a line ("[system] error|warning|info|debug",
    "[system/background] Source LIKE") labels which kind of record a parameter applies to,
    not a role speaking: a list of values after it, or a label of several kinds ("system/
    background") and a field's name of at most four words, nothing addressed to the model."""
    if start and text[start - 1] != "\n":
        return False
    m = _LABEL_AT.match(text, start)
    if not m:
        return False
    rest = text[m.end() :].split("\n", 1)[0].strip()
    if _VALUE_LIST.fullmatch(rest):
        return True
    return (
        "/" in m.group()
        and _SHORT_FIELD.fullmatch(rest) is not None
        and _TO_MODEL.isdisjoint(rest.lower().split())
    )


_GLOSS = re.compile(r"(?:^|[-*\u2022]\s?)[`'\"][\w.-]{1,64}[`'\"]\s?[:=\u2014-]\s?$")


def glosses_a_value(text: str, start: int) -> bool:
    """Whether the words at ``start`` say what one of a parameter's listed values means
    ("**Optional values are**:- `no_approval_required`: Approval is not required."): a quoted
    value opening its list item, a colon and nothing else before them."""
    return _GLOSS.search(text[max(0, start - 70) : start]) is not None


_FROM_BEFORE = re.compile(r"\bfrom\s{1,3}(?:the\s{1,3})?[`'\"(]?$", re.I)
_OUTPUT_AFTER = re.compile(r"[`'\"]?\s{0,2}(?:'s\s)?(?:output|result|results|response)\b", re.I)


def named_as_source(text: str, a: int, b: int) -> bool:
    """Whether the tool named at ``text[a:b]`` is where a value comes from ("Get it from
    get_issue (the issue's `attachments` array)", "Pass `version` (from get_pull_request
    output)"): "from" just before it, or its output named just after; a server's advice on
    where an argument is found, not an order about that tool."""
    return (
        _FROM_BEFORE.search(text[max(0, a - 12) : a]) is not None
        or _OUTPUT_AFTER.match(text, b) is not None
    )


def in_code_span(text: str, at: int) -> bool:
    """Whether ``text[at]`` stands inside an inline code span on its line ("Skips implicit
    `{x : α}` and instance `[inst : C]` binders"): code quoted, not a role's tag."""
    line_start = text.rfind("\n", 0, at) + 1
    line_end = text.find("\n", at)
    line_end = len(text) if line_end < 0 else line_end
    return text.count("`", line_start, at) % 2 == 1 and "`" in text[at:line_end]


_RECORD_HEADS = frozenset("ticket tickets support inbox email canvas thread a an each".split())
_RECORD_TAILS = frozenset("id ids information details info thread threads participants".split())


def records_conversation(words: Sequence[str], i: int) -> bool:
    """Whether *conversation* at ``i`` is a record the tool handles ("Get a ticket conversation
    in Freshdesk", "Get detailed conversation information with messages"): a record's noun,
    "a" or "an" just before it, or an identifier or details after it; "this conversation",
    "the conversation" and "conversation history" are the model's own."""
    if words[i] not in ("conversation", "conversations"):
        return False
    before = words[i - 1] if i else ""
    after = words[i + 1] if i + 1 < len(words) else ""
    return before in _RECORD_HEADS or after in _RECORD_TAILS
