"""Cues: what server-written text asks of the model, and which of them a new text introduces.

For a pinned text and a new text (or a new text alone: first sight), :func:`introduced` lists the
cues the new text carries that the pinned one did not (docs/design.md, "Cues"). The rules
are catalogued in ``engine/rules/cues.py``; this module finds them.

How it reads a text, deterministically and in linear time (no regex here has a nested
quantifier, and none scans further than a fixed bound from where it starts):

- *runs* (``engine/cue_runs.py``): the text split on white space and quoting into chunks,
  each classified once by anchored patterns: URLs, e-mail addresses, IP addresses, domains,
  paths (secret locations apart), encoded blobs, names of other tools and servers;
- *words*: the lower-cased text as word tokens with sentence and clause boundaries. A verb is
  *imperative* when nothing but filler words ("please", "always", "you must", ...) precede it in
  its clause, or a modal does; a rule is a verb class acting on an object class in the same
  sentence ("read" + a secret location, "send" + a destination, "do not" + "tell" + the user).
- markup and the hidden-character detector (``engine/hidden.py``) run over the whole text.

A cue's identity is its rule and a normalised key (the URL, the path, the verb and object words
that fired): a cue is introduced when the pinned text at the same pointer (or, for a text with no
pinned predecessor, any pinned text of the definition) had none with the same identity, so an
honest rewording around an unchanged URL or instruction introduces nothing.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from mcp_review.engine import cue_care as care
from mcp_review.engine.cue_change_claims import change_cues
from mcp_review.engine.cue_corroborate import corroborate
from mcp_review.engine.cue_directive import own_names_of
from mcp_review.engine.cue_families import family_cues
from mcp_review.engine.cue_goals import goals_into
from mcp_review.engine.cue_hidden_first import first_hidden as _first_hidden
from mcp_review.engine.cue_model import model_cues
from mcp_review.engine.cue_runs import _run_cues
from mcp_review.engine.cue_scope import (
    ASSIGN_V,
    OBJECT_WINDOW,
    assigned_for,
    fresh_secret,
    is_section_tag,
    kept_in_place,
    own_transfer,
    scopes_this_tool,
    section_tags,
    written_there,
)
from mcp_review.engine.cue_sentences import _bounds, _Sentence, _sentences, _snip
from mcp_review.engine.cue_types import (
    _NO_NAMES,
    TEXT_CAP,
    Cue,
    KnownNames,
    cues_json,
    is_blocking,
    most_severe,
    needs_attention,
    severity,
)
from mcp_review.engine.cue_words import (
    _ACTS,
    _HIDE_WORDS,
    _MD_IMAGE,
    _MD_LINK,
    _MIMIC_FIRST,
    _MIMIC_TAG,
    _MIXED_WORD,
    _OBJECT_SPANS,
    _OBJECT_WORDS,
    _TAG,
    _UNREADABLE,
    _VERBS,
    _W,
    ARG_WORDS,
    ASK_V,
    AUDIENCE,
    BAD_W,
    COVERT,
    DECODE_V,
    DEST_WORDS,
    IGNORE_V,
    INCLUDE_V,
    MIMIC_SEQS,
    MODAL,
    NEG,
    NOT_OBJECT,
    OTHER_WORDS,
    OUTPUT_WORDS,
    OWNERS,
    PREF_V,
    PROMO,
    READ_V,
    RULE_NOUNS,
    SECRET_KEY_HEAD,
    SECRET_PAIRS,
    SECRET_TOKEN_HEAD,
    SECRET_WORDS,
    SEND_V,
    SENSITIVE_PAIRS,
    SENSITIVE_WORDS,
    TELL_V,
    USE_V,
    WHEN_W,
    _script,
    _scripts,
    _worth_reading,
)
from mcp_review.engine.dialects import dialect_of
from mcp_review.engine.hidden import find_hidden, has_hidden
from mcp_review.engine.readas import Copy, folded, leet, revealed
from mcp_review.engine.rules.cue_families import INSTRUCTION_TAGGED_SECTION, PATH_ENV_FILE
from mcp_review.engine.rules.cues import (
    CONCEALMENT_COVERT_ACTION,
    CONCEALMENT_DO_NOT_TELL,
    CONCEALMENT_HIDE_FROM_USER,
    CUE_RULES,
    EXFILTRATION_DATA_INTO_ARGUMENT,
    EXFILTRATION_SEND_SENSITIVE,
    EXFILTRATION_SEND_TO_DESTINATION,
    HIDDEN_CHARACTERS,
    INSTRUCTION_DECODE_AND_FOLLOW,
    INSTRUCTION_IGNORE_PREVIOUS,
    INSTRUCTION_OTHER_TOOL,
    INSTRUCTION_READ_SECRET,
    INSTRUCTION_SYSTEM_MIMICRY,
    MARKUP_IMAGE,
    MARKUP_LINK,
    MARKUP_TAG,
    SCRIPT_MIX_MIXED_WORD,
    SCRIPT_MIX_NEW_SCRIPT,
    SCRIPT_MIX_UNREADABLE,
    SECRET_ASK,
    SECRET_PATH_RULE,
    TOOL_PREFERENCE_PREFER_THIS,
    TOOL_PREFERENCE_SELF_PROMOTION,
    Level,
)
from mcp_review.engine.textwalk import Role, tool_strings

__all__ = [
    "TEXT_CAP",
    "Cue",
    "KnownNames",
    "Level",
    "cues_json",
    "introduced",
    "is_blocking",
    "most_severe",
    "needs_attention",
    "severity",
    "text_cues",
    "tool_cues",
    "tool_texts",
]


# Finding ---------------------------------------------------------------------------------------


_ENUM_LIKE = re.compile(
    r"\bone of\b|\b(?:required|used|only|valid|ignored) (?:for|with|when)\b|\bor \"\w+\"|, \"\w+\""
    r"|, `\w+`"
    # 'pass "echo" for an offline preview': a value given for a parameter
    r"|\bpass \"\w+\" (?:for|as|to get)\b"
)
_AVAILABLE = frozenset("available present enabled supported installed configured".split())
"""'If available, first use the `validate` tool': the condition is that the tool exists (a
server's advice between its own tools), not when the model is to use it."""
_EMAIL_OBJECTS = frozenset(
    "the it them this that these those all every everything your their its a an to".split()
)
_HIDE_OBJECTS = frozenset(
    "user users user's human operator them this it these that instruction instructions step "
    "steps action call request fact".split()
)


@dataclass(slots=True)
class _Found:
    pointer: str
    out: list[Cue] = field(default_factory=list)
    seen: set[tuple[str, str]] = field(default_factory=set)
    original: str = ""
    """The text as the server wrote it."""
    view: Copy = field(default_factory=lambda: Copy(""))
    """The copy being read (engine/readas.py): its offsets map back to :attr:`original`."""
    at: tuple[int, int] | None = None
    """The span of :attr:`view` the rule reading now fires on (a run, a sentence, a match):
    the cue shows the original text there, as the operator sees it."""
    own_names: frozenset[str] = frozenset()
    """The tool's own names (its name and parameter names; engine/cue_directive.py's
    ``own_names_of``): what the directive reader counts as self-advice."""
    names: KnownNames | None = None
    own_server: str = ""
    """The fleet's tool names and this tool's server: the directive reader asks whether a
    tool a text requires calling is on this server."""
    only: frozenset[str] | None = None
    """When set, the rules this reading may add (the folded copy's runs give spans to the word
    rules, and a secret location only: the URLs and blobs are read in copy *a*)."""

    def add(self, rule: str, text: str, key: str) -> None:
        if self.only is not None and rule not in self.only:
            return
        if len(key) <= 512 and has_hidden(key):
            # The same cue written with or without hidden characters is one cue.
            key = "".join(ch for ch in key if not has_hidden(ch))
        if (rule, key) in self.seen:
            return
        self.seen.add((rule, key))
        span = None
        if self.at is not None:
            span = self.view.span(*self.at)
            if self.view.at is not None:
                text = _as_marked(self.original[span[0] : span[1]].strip())
        self.out.append(Cue(CUE_RULES[rule].kind, _snip(text), self.pointer, rule, key, span))


def _as_marked(s: str) -> str:
    """The original text of a cue as the app's diff finds it: hidden characters left out and
    TAG characters read as their letter, where it stands (``tui/diffing.py``, ``_reading``);
    any other character as written (a full-width or look-alike spelling is shown as it is)."""
    if not has_hidden(s):
        return s
    out: list[str] = []
    pos = 0
    for h in find_hidden(s):
        out.append(s[pos : h.offset])
        pos = h.offset + len(h.text)
        inner = ord(h.text) - 0xE0000 if len(h.text) == 1 else -1
        if h.kind == "tag" and 0x20 <= inner <= 0x7E:
            out.append(chr(inner))
    out.append(s[pos:])
    return "".join(out)


_QUOTE_CHARS = frozenset("'\"`\u2018\u201c")
_SHAPE_NOUNS = _W(
    "dict dicts object objects list lists array arrays entry entries item items map maps "
    "string strings value values record records row rows element elements field fields".split()
)


def _rules_do_not_apply(words: list[str]) -> bool:
    """Whether "do not apply" in ``words`` is said of rules ("Safety rules do not apply"),
    not of a tool's own options ("signature options do not apply")."""
    for k in range(1, len(words) - 2):
        if words[k : k + 3] == ["do", "not", "apply"]:
            if words[k - 1] in RULE_NOUNS or words[k - 1] in ("limits", "filters", "safeguards"):
                return True
    return False


_SELF = (("this", "tool"), ("this", "function"), ("it",))


def _of_this_tool(words: list[str]) -> bool:
    """Whether the sentence's modal is said of this tool being called ("This tool must be
    called before using any other tools"): "this tool" (or "it") just before the modal, the
    passive "be called" or "be used" after it, and no sending verb in the sentence."""
    if not SEND_V.isdisjoint(words):
        return False
    for i, w in enumerate(words):
        if w not in MODAL or i == 0:
            continue
        subject = next((p for p in _SELF if tuple(words[max(0, i - len(p)) : i]) == p), None)
        if (
            subject
            and words[i + 1 : i + 2] == ["be"]
            and words[i + 2 : i + 3]
            in (
                ["called"],
                ["used"],
                ["invoked"],
                ["run"],
            )
        ):
            return True
    return False


def _forbids_a_claim(words: list[str], i: int) -> bool:
    """Whether the negated telling verb at ``i`` forbids stating something false ("Never tell a
    user a message was scheduled"): its audience followed by "a"/"an", a noun and a form of
    "be" or "have", not a matter hidden ("about this", "you read ...")."""
    rest = words[i + 1 : i + 8]
    for j, x in enumerate(rest[:3]):
        if x in AUDIENCE:
            after = rest[j + 1 : j + 5]
            if not after or after[0] not in ("a", "an"):
                return False
            if any(y in ("was", "were", "is", "are", "has", "have", "had") for y in after[2:]):
                return True
            # the line ends after "a <noun>" (the claim goes on on the next line) and the
            # audience is anyone ("a user"), not the user of this conversation
            return len(after) <= 2 and j > 0 and rest[j - 1] in ("a", "any")
    return False


_NOT_PLACES = frozenset(
    "process processes pid directory directories file files branch branches session sessions "
    "command commands shell".split()
)
"""What "remote" or "external" may describe that data is not sent to ("a remote process")."""


_TOWARD = frozenset("to into onto at toward towards via".split())


def _is_source(words: list[str], start: int, i: int) -> bool:
    """Whether the destination word at ``i`` is where data comes from ("Sync vault data from
    the Bitwarden server", "from a local path on the server"): "from" among the five words
    before it, with no "to" between ("from
    ~/.ssh to the remote server" still names a destination)."""
    for j in range(i - 1, max(start, i - 6) - 1, -1):
        if words[j] in _TOWARD:
            return False
        if words[j] == "from":
            return True
    return False


def _unless_asked(words: list[str], i: int) -> bool:
    """Whether the negated telling verb at ``i`` leaves something out only until the user asks
    ("Don't bother telling the user the IDs ... unless they ask for them"): brevity, the matter
    is the user's on request, not hidden from them."""
    rest = words[i + 1 : i + 16]
    for j, x in enumerate(rest):
        if x == "unless":
            return any(y in _ASKED for y in rest[j + 1 : j + 5])
    return False


_ASKED = frozenset("ask asks asked request requests requested".split())


def _objects(words: list[str], start: int) -> dict[str, str]:
    """Object classes among the ``OBJECT_WINDOW`` words from ``start``: 'secret', 'sensitive',
    'arg', 'dest', with the words that matched (the cue's key). A credential counts only with
    an owner or determiner among the four words before it ("the user's password", "your API
    key"), not as a form field ("fill username, password")."""
    found: dict[str, str] = {}
    n = len(words)
    end = min(n, start + OBJECT_WINDOW)
    for i in range(start, end):
        w = words[i]
        if w not in _OBJECT_WORDS:
            continue
        nxt = words[i + 1] if i + 1 < n else ""
        if "secret" not in found:
            secret = ""
            if w in SECRET_WORDS:
                secret = w
            elif w in SECRET_KEY_HEAD and nxt in ("key", "keys"):
                secret = f"{w} key"
            elif w in SECRET_TOKEN_HEAD and nxt in ("token", "tokens"):
                secret = f"{w} token"
            elif (w, nxt) in SECRET_PAIRS:
                secret = f"{w} {nxt}"
            if (
                secret
                and (words[i - 1] if i else "") not in NOT_OBJECT
                and not OWNERS.isdisjoint(words[max(start, i - 4) : i])
            ):
                found["secret"] = secret
        if "sensitive" not in found:
            if w in SENSITIVE_WORDS and not (
                care.media_transcript(words, i) or care.records_conversation(words, i)
            ):
                found["sensitive"] = w
            elif (w, nxt) in SENSITIVE_PAIRS:
                found["sensitive"] = f"{w} {nxt}"
            elif w in OUTPUT_WORDS and nxt == "of" and i + 2 < n:
                rest = words[i + 2 : i + 6]
                if not OTHER_WORDS.isdisjoint(rest) and ("tool" in rest or "tools" in rest):
                    found["sensitive"] = f"{w} of {' '.join(rest)}"
        if "arg" not in found and w in ARG_WORDS:
            found["arg"] = w
        if (
            "dest" not in found
            and w in DEST_WORDS
            and not _is_source(words, start, i)
            and not (w in ("remote", "external") and nxt in _NOT_PLACES)
            and not care.own_place(words, start, i)
        ):
            found["dest"] = w
    return found


@dataclass(frozen=True)
class _SentenceCtx:
    """One sentence as every family of word rules reads it: its words, its quote, its words as a
    set and as one spaced string, and the spans the runs found."""

    text: str
    s: _Sentence
    spans: dict[str, list[tuple[int, int, str]]]
    found: _Found
    words: list[str]
    quote: str
    ws: frozenset[str]
    joined: str

    def spans_after(self, kind: str, pos: int) -> str | None:
        """The first span of ``kind`` starting at ``pos`` or later inside this sentence."""
        at = self.span_at(kind, pos)
        return None if at is None else at[1]

    def span_at(self, kind: str, pos: int) -> tuple[int, str] | None:
        """The start and key of the first span of ``kind`` at ``pos`` or later inside this
        sentence."""
        found_spans = self.spans.get(kind)
        if not found_spans:
            return None
        j = bisect.bisect_left(found_spans, (max(pos, self.s.start), -1, ""))
        if j < len(found_spans) and found_spans[j][0] < self.s.end:
            return found_spans[j][0], found_spans[j][2]
        return None


def _mimicry_rules(c: _SentenceCtx) -> None:
    """System-prompt mimicry and "ignore previous instructions": no imperative needed."""
    found = c.found
    words = c.words
    quote = c.quote
    ws = c.ws
    joined = c.joined
    # System-prompt mimicry and "ignore previous instructions" need no imperative.
    if ws & _MIMIC_FIRST:
        for seq in MIMIC_SEQS:
            if " " + " ".join(seq) + " " in joined:
                if seq == ("do", "not", "apply") and not _rules_do_not_apply(words):
                    continue  # "signature options do not apply": the tool's own options
                if seq[-1] == "mode" and care.switches_a_mode(words, seq):
                    continue  # "Enable maintenance mode ... for a Heroku app": the tool's act
                if care.not_a_mimic(words, seq, c.text[c.s.start : c.s.end], c.found.own_names):
                    continue  # "(highest priority) in element discovery": engine/cue_care.py
                found.add(INSTRUCTION_SYSTEM_MIMICRY, quote, " ".join(seq))
                break
    if ws & IGNORE_V:
        for i, w in enumerate(words):
            if w in IGNORE_V and any(x in RULE_NOUNS for x in words[i + 1 : i + 8]):
                if care.rules_not_the_model_s(words, i, RULE_NOUNS, quote.lower()):
                    continue  # "Ignore robots.txt rules", "Override ONLY IF user requests"
                found.add(INSTRUCTION_IGNORE_PREVIOUS, quote, w)
                break


def _concealment_rules(c: _SentenceCtx) -> None:
    """Concealment: not telling, acting covertly, hiding from the user."""
    s = c.s
    found = c.found
    words = c.words
    n = len(c.words)
    quote = c.quote
    ws = c.ws
    # Concealment.
    aud = next((x for x in words if x in AUDIENCE), None) if ws & TELL_V and ws & NEG else None
    any_imperative = any(s.imperative)
    for i, w in enumerate(words if aud is not None else ()):
        if w in TELL_V and s.negated[i]:
            back = words[max(0, i - 3) : i]
            if _forbids_a_claim(words, i):
                continue  # "Never tell a user a message was scheduled": honesty, not hiding
            if _unless_asked(words, i):
                continue  # "Don't bother telling the user the IDs ... unless they ask"
            if care.tells_nothing_hidden(words, i):
                continue  # "does NOT notify", "the knowledge base": engine/cue_care.py
            if s.condition[i]:
                continue  # "If your client cannot show you a prompt, ...": when, not an order
            if w in ("ask", "asking") and not SECRET_WORDS.isdisjoint(words[i + 1 : i + 6]):
                continue  # "never ask for credentials in chat": a secret not asked for

            if "without" not in back or any_imperative:
                found.add(CONCEALMENT_DO_NOT_TELL, quote, f"{w} {aud}")
                break
    covert = sorted(ws & COVERT)
    if covert and any(s.imperative[i] and words[i] in _ACTS for i in range(n)):
        found.add(CONCEALMENT_COVERT_ACTION, quote, covert[0])
    for i, w in enumerate(words if ws & _HIDE_WORDS else ()):
        nxt = words[i + 1 : i + 5]
        if (
            w in ("hide", "conceal")
            and s.imperative[i]
            and _HIDE_OBJECTS & set(nxt + words[i + 5 : i + 9])
        ):
            # Hiding something from someone ("hide this from the user"), not a tool's own
            # action on its data ("hide the diff", "show or hide groups of elements").
            found.add(CONCEALMENT_HIDE_FROM_USER, quote, w)
            break
        if (w == "keep" and "secret" in nxt) or (w == "keep" and "hidden" in nxt):
            found.add(CONCEALMENT_HIDE_FROM_USER, quote, "keep secret")
            break
        if w in ("user", "users", "user's", "human") and "not" in nxt[:3]:
            if any(x in ("know", "see", "notice", "learn", "find") for x in nxt):
                found.add(CONCEALMENT_HIDE_FROM_USER, quote, f"{w} not know")
                break
        if w == "leave" and nxt[:1] == ["out"] and "mention" in words[i : i + 6]:
            found.add(CONCEALMENT_HIDE_FROM_USER, quote, "leave out mention")
            break


def _object_rules(c: _SentenceCtx) -> None:
    """Verbs acting on objects (sending, including, reading, asking for secrets, decoding)."""
    text = c.text
    s = c.s
    found = c.found
    words = c.words
    n = len(c.words)
    quote = c.quote
    ws = c.ws
    spans_after = c.spans_after
    # Verbs acting on objects: only where an object could be.
    has_span = any(spans_after(k, s.start) is not None for k in _OBJECT_SPANS)
    acting_words = words if (has_span or ws & _OBJECT_WORDS) else []
    for i, w in enumerate(acting_words):
        if not s.imperative[i] or s.negated[i]:
            continue
        if w == "email" and words[i + 1 : i + 2] and words[i + 1] not in _EMAIL_OBJECTS:
            continue  # "by name, email, phone number": a field in a list, not "email them"
        verb_at = s.starts[i]
        if text[verb_at - 1 : verb_at] in _QUOTE_CHARS:
            continue  # "Optional 'Send As' alias": a quoted name, not an order
        if w in INCLUDE_V and i >= 2 and words[i - 1] in MODAL and words[i - 2] in _SHAPE_NOUNS:
            continue  # "Each dict must contain contact_id": the shape of a value
        objs: dict[str, str] | None = None
        if w in SEND_V or w in INCLUDE_V or w in READ_V or w in ASK_V:
            objs = _objects(words, i + 1)
            secret_path = spans_after("secret-path", verb_at)
            dest = spans_after("dest", verb_at)
            # "push to the remote": git's remote, not a destination for the user's data
            git_push = w == "push" and not dest and objs.get("dest") == "remote"
            own = not dest and own_transfer(words, i)  # the tool's function, no address
            if w in SEND_V and (dest or "dest" in objs) and not git_push and not own:
                found.add(EXFILTRATION_SEND_TO_DESTINATION, quote, f"{w} {dest or objs['dest']}")
            if care.kept_safe(words, i):
                objs = {}  # "Always store the secret key in environment variables": care
            data = objs.get("sensitive") or secret_path
            addressed = dest is not None or spans_after("quoted", verb_at) is not None
            if data and w in INCLUDE_V and kept_in_place(words, i, objs, addressed):
                data = None
            path_at = c.span_at("secret-path", verb_at) if secret_path else None
            if data == secret_path and path_at and w in INCLUDE_V:
                if written_there(words, s.starts, path_at[0]):
                    data = None  # "Place the returned credentials in `.env`": where, not what
            if data and (w in SEND_V or w in INCLUDE_V):
                rule = (
                    EXFILTRATION_DATA_INTO_ARGUMENT
                    if "arg" in objs or spans_after("quoted", verb_at)
                    else EXFILTRATION_SEND_SENSITIVE
                )
                found.add(rule, quote, f"{w} {data}")
            if "secret" in objs and w in INCLUDE_V and fresh_secret(words, i, objs["secret"]):
                objs.pop("secret")  # "Place the returned credentials": the tool's own output
            if "secret" in objs and w in ASSIGN_V and assigned_for(words, i, objs["secret"]):
                objs.pop("secret")  # "Set the password for the new database user": its job
            if "secret" in objs and (w in SEND_V or w in INCLUDE_V or w in ASK_V or w in READ_V):
                found.add(SECRET_ASK, quote, f"{w} {objs['secret']}")
            # Sensitive data in general is read only as the verb's own object ("read all
            # files"), not a tool's function ("get a detailed listing of all files").
            near = " ".join(words[i + 1 : i + 5])
            sens = objs.get("sensitive")
            if sens and sens not in near and not secret_path and "secret" not in objs:
                sens = None
            if sens and care.taken_from_data(words, i, sens):
                sens = None  # "Extract unique contacts from recent email headers": its job
            if w in READ_V and (secret_path or sens or "secret" in objs):
                obj = secret_path or sens or objs["secret"]
                found.add(INSTRUCTION_READ_SECRET, quote, f"{w} {obj}")
        if w in DECODE_V and spans_after("encoded", s.start) is not None:
            found.add(INSTRUCTION_DECODE_AND_FOLLOW, quote, "decode")

    # "This tool requires the user's password": a credential the tool needs from the user.
    for i, w in enumerate(acting_words):
        if w in ("requires", "require", "needs", "need", "required") and not s.negated[i]:
            if _required_elsewhere(words, i):
                continue  # "an API call that requires the credential": not this tool asking
            objs = _objects(words, i + 1)
            if "secret" in objs:
                found.add(SECRET_ASK, quote, f"requires {objs['secret']}")
                break

    # A secret named in an env-var shape or as a literal, read or passed.
    if (
        spans_after("env-secret", s.start) is not None
        and any(
            s.imperative[i] and not s.negated[i] and words[i] in (READ_V | INCLUDE_V | SEND_V)
            for i in range(n)
        )
        and not any(care.kept_safe(words, i) for i in range(n))
    ):
        found.add(SECRET_ASK, quote, str(spans_after("env-secret", s.start)))


_ELSEWHERE = frozenset(
    "call calls request requests endpoint endpoints operation operations api apis action "
    "actions service services".split()
)


def _required_elsewhere(words: list[str], i: int) -> bool:
    """Whether what needs the credential at ``i`` is something else the text names ("an API
    call that requires the credential") or it needs none, not this tool asking for it."""
    j = i - 2 if words[i - 1 : i] in (["that"], ["which"]) else i - 1
    return (j >= 0 and words[j] in _ELSEWHERE) or words[i + 1 : i + 2] == ["none"]


_NOT_ACTS = PREF_V | USE_V | frozenset(("when", "before", "do", "don't"))
"""Words the imperative reading marks that act on nothing: calling and preferring (read by
their own rules), and the words that open a clause ("When configured, ... the read tools
(download_attachment, ...)", "when you need fuzzy matching or don't know exact names")."""


def _other_tool_rules(c: _SentenceCtx) -> bool:
    """Instructions about other tools (shadowing); says whether the sentence states a preference."""
    s = c.s
    spans = c.spans
    found = c.found
    words = c.words
    n = len(c.words)
    quote = c.quote
    ws = c.ws
    joined = c.joined
    # Other tools: shadowing (instructions about another server's tool) and preference.
    others = [t for a, b, t in spans.get("other-tool", ()) if s.start <= a < s.end]
    ordered = [  # "Get it from get_issue": where a value comes from, no order about it
        t
        for a, b, t in spans.get("other-tool", ())
        if s.start <= a < s.end and (ws & NEG or not care.named_as_source(c.text, a, b))
    ]
    unknown = [t for a, b, t in spans.get("unknown-tool", ()) if s.start <= a < s.end]
    unknown = [t for t in unknown if t.lower() not in found.own_names]  # "using post_id alone"
    plain = [t for a, b, t in spans.get("plain-tool", ()) if s.start <= a < s.end]
    generic = " other tools " in joined or " other tool " in joined
    pref = bool(ws & PREF_V)
    named = [*others, *unknown, *plain]
    enum = (
        _ENUM_LIKE.search(joined) or _ENUM_LIKE.search(quote) or care.passed_as_values(quote, named)
    )
    if enum and all(t.isalpha() and t.islower() for t in named):
        # 'One of "list", "get"', 'Required for "add"': a parameter's values, which happen
        # to be plain words some tool is named, not instructions about that tool.
        others, unknown, plain = [], [], []
    if (others or unknown) and not pref:
        # Instructions about a tool of another server (or of no configured server): when
        # it is called, not to call it, that it is broken; for a configured server's tool,
        # any imperative beside its name.
        when_use = any(
            w in WHEN_W
            and words[i + 1 : i + 2] != []
            and words[i + 1] not in _AVAILABLE
            and any(x in USE_V for x in words[i + 1 : i + 4])
            for i, w in enumerate(words)
        )
        avoid = any(w in USE_V and s.negated[i] for i, w in enumerate(words))
        bad = any(w in BAD_W for w in words)
        acting = bool(ordered) and any(
            s.imperative[i] and words[i] in _VERBS and words[i] not in _NOT_ACTS for i in range(n)
        )
        if when_use or avoid or bad or acting:
            found.add(INSTRUCTION_OTHER_TOOL, quote, (others or unknown)[0].lower())
    elif plain and not pref:
        if any(w in USE_V and s.negated[i] for i, w in enumerate(words)) or any(
            w in BAD_W for w in words
        ):
            found.add(INSTRUCTION_OTHER_TOOL, quote, plain[0].lower())
    elif generic and not pref:
        scope = scopes_this_tool(words, s.negated)
        if _of_this_tool(words):
            # "This tool must be called before using any other tools": the tool asks to come
            # first (a preference, shown), not an order about the other tools.
            found.add(TOOL_PREFERENCE_PREFER_THIS, quote, "call this first")
        elif scope and not ws & BAD_W and not ws & SEND_V:
            # "Only use this tool when the other tools are not sufficient", "You MUST NOT use
            # X or other tools to apply query tuning changes": the tool scopes its own use
            # (restraint, or a preference shown), not an order about the other tools.
            if scope != "restraint":
                found.add(TOOL_PREFERENCE_PREFER_THIS, quote, scope)
        elif any(
            (s.imperative[i] or words[i] in MODAL) and words[i] not in USE_V | PREF_V
            for i in range(n)
        ) and any(w in MODAL or w in SEND_V for w in words):
            found.add(INSTRUCTION_OTHER_TOOL, quote, "other tools")

    return pref


def _preference_rules(c: _SentenceCtx, pref: bool) -> None:
    """A tool preferring or promoting itself."""
    s = c.s
    found = c.found
    words = c.words
    n = len(c.words)
    quote = c.quote
    ws = c.ws
    joined = c.joined
    this = "this" in ws or "it" in ws
    if pref or (
        this
        and (" instead of " in joined or " rather than " in joined or " in preference " in joined)
    ):
        found.add(TOOL_PREFERENCE_PREFER_THIS, quote, "prefer")
    elif this and any(
        words[i] in ("use", "call", "choose", "select", "pick")
        and s.imperative[i]
        and ("first" in words or "whenever" in words or "always" in words)
        for i in range(n)
    ):
        found.add(TOOL_PREFERENCE_PREFER_THIS, quote, "always use this")
    promo = sorted(ws & PROMO)
    if promo and ("tool" in ws or "this" in ws or "choice" in ws):
        found.add(TOOL_PREFERENCE_SELF_PROMOTION, quote, promo[0])
    elif " the only tool " in joined or " most reliable " in joined:
        found.add(TOOL_PREFERENCE_SELF_PROMOTION, quote, "only tool")


def _sentence_rules(
    text: str,
    s: _Sentence,
    spans: dict[str, list[tuple[int, int, str]]],
    found: _Found,
) -> None:
    """The word rules over one sentence (the spans found in the runs beside them), family by
    family."""
    found.at = (s.start, s.end)
    # Each group of rules runs only when the sentence has one of its words (a set
    # intersection): most sentences of an honest description have none.
    c = _SentenceCtx(
        text=text,
        s=s,
        spans=spans,
        found=found,
        words=s.words,
        quote=text[s.start : s.end].strip(),
        ws=frozenset(s.words),
        joined=" " + " ".join(s.words) + " ",
    )
    _mimicry_rules(c)
    _concealment_rules(c)
    _object_rules(c)
    pref = _other_tool_rules(c)
    _preference_rules(c, pref)


def _script_cues(text: str, found: _Found) -> None:
    if text.isascii():
        return
    odd = _UNREADABLE.search(text)
    if odd is not None:
        found.at = odd.span()
        found.add(SCRIPT_MIX_UNREADABLE, odd.group(), "private-use")
    scripts = _scripts(text)
    if len(scripts) > 1:
        main = max(scripts, key=lambda k: (scripts[k], k))
        for k in sorted(scripts):
            if k != main:
                found.at = None
                found.add(SCRIPT_MIX_NEW_SCRIPT, k.title(), k)
    for m in _MIXED_WORD.finditer(text):
        w = m.group()
        if not w.isascii():
            # Chinese, Japanese and Korean write a Latin term against their own letters with
            # no space ("任務ID"): no look-alike spelling unless two other scripts meet in it.
            kinds = {("LATIN" if c.isascii() else _script(c)) for c in w} - care.NO_SPACE_SCRIPTS
            if len(kinds) > 1:
                found.at = m.span()
                found.add(SCRIPT_MIX_MIXED_WORD, w, w.lower())


def text_cues(
    text: str,
    pointer: str = "",
    *,
    names: KnownNames = _NO_NAMES,
    own_server: str = "",
    own_tool: str = "",
    own_names: frozenset[str] = frozenset(),
) -> list[Cue]:
    """Every cue ``text`` carries (first sight), in text order per rule family. The text is
    read as the model reads it (engine/readas.py): URLs, paths, addresses and blobs in copy *a*
    (hidden characters out, TAG text decoded), the word rules in copy *b* (NFKC, marks,
    look-alikes inside Latin words and leetspeak folded, case folded); each cue shows the
    original text it was read in."""
    if len(text) <= _MEMO_CHARS:
        memo_key = (text, own_server, own_tool, own_names, id(names))
        hit = _MEMO.get(memo_key)
        if hit is None or hit[0] is not names:  # an id reused by other names: not theirs
            hit = (names, tuple(_text_cues(text, "", names, own_server, own_tool, own_names)))
            if len(_MEMO) >= _MEMO_SIZE:
                _MEMO.clear()
            _MEMO[memo_key] = hit
        return [Cue(c.kind, c.text, pointer, c.rule, c.key, c.span) for c in hit[1]]
    return _text_cues(text, pointer, names, own_server, own_tool, own_names)


_MEMO_CHARS = 80
"""Texts this short are read once per fleet (``type`` names, property names, short titles
repeat across tools): the cues are a function of the text, the names and the owner."""
_MEMO_SIZE = 16_384
_MEMO: dict[tuple[str, str, str, frozenset[str], int], tuple[KnownNames, tuple[Cue, ...]]] = {}


def _text_cues(
    text: str,
    pointer: str,
    names: KnownNames,
    own_server: str,
    own_tool: str,
    own_names: frozenset[str] = frozenset(),
) -> list[Cue]:
    found = _Found(pointer, original=text, own_names=own_names, names=names, own_server=own_server)
    if not text:
        return found.out
    hidden = _first_hidden(text)
    own = frozenset({own_server}) if own_server else frozenset()
    if hidden:
        labels = " ".join(h.label for h in hidden[:20])
        found.add(HIDDEN_CHARACTERS, labels, labels)
    plain = Copy(text)
    if len(text) > _REVEAL_MAX and not text.isascii():
        # Too long to normalise whole: read as written, and a human reads it.
        odd = next((i for i, c in enumerate(text) if c >= "\x80"), 0)
        found.at = (odd, odd + 1)
        found.add(SCRIPT_MIX_UNREADABLE, text[odd], "too long to normalise")
        _read(plain, plain, text.lower(), found, own, own_tool, names)
        return found.out
    a = revealed(text)
    cased, low = folded(a)
    _read(a, cased, low, found, own, own_tool, names)
    if hidden:
        # Hidden characters may stand where a space was ("do<ZWSP>not<ZWSP>tell"): the text
        # as written is read too.
        _read(plain, plain, leet(text.lower()), found, own, own_tool, names)
    # the families and the goals read the revealed, folded copy (look-alikes and NFKC folded,
    # case kept: a header's capitals are part of what they look for), and the revealed copy
    # too: folding touches other scripts' letters the families read in six languages.
    found.view, found.at, found.only = cased, None, None
    family_cues(cased.text, found.add)
    if a.text != cased.text:
        found.view = a
        family_cues(a.text, found.add)
    goals_into(found, (cased, a), own_tool)  # what an instruction asks (engine/cue_goals.py)
    model_cues(cased.text, found.add)  # a learned reading (engine/cue_model.py), info
    return found.out


_REVEAL_MAX = 100_000
"""Characters of a non-ASCII text normalised at most (beyond: read as written, and shown at
``attention``)."""


def _read(
    a: Copy,
    b: Copy,
    low: str,
    found: _Found,
    own: frozenset[str],
    own_tool: str,
    names: KnownNames,
) -> None:
    """Every cue but the hidden characters, into ``found``: the runs and markup of copy ``a``,
    the words of copy ``b`` (cased; ``low`` its lower-cased text, of the same length)."""
    found.view = a
    spans = _run_cues(a.text, found, own, own_tool, names)
    if b is not a:
        # The folded copy's runs give the word rules their spans (in its own offsets), and
        # a secret location written in full-width or look-alike letters is one all the same.
        found.view = b
        found.only = frozenset({SECRET_PATH_RULE, PATH_ENV_FILE})
        spans = _run_cues(b.text, found, own, own_tool, names)
        found.only = None
    found.view = a
    for m in _MD_IMAGE.finditer(a.text):
        found.at = m.span()
        found.add(MARKUP_IMAGE, m.group(), m.group().lower())
    for m in _MD_LINK.finditer(a.text):
        found.at = m.span()
        found.add(MARKUP_LINK, m.group(), m.group().lower())
    for m in _TAG.finditer(a.text):
        tag = m.group()
        found.at = m.span()
        found.add(MARKUP_TAG, tag, tag.lower().split(None, 1)[0] if tag.strip() else tag)
    found.view = b
    text = b.text
    sections = section_tags(text) if "<" in text else frozenset()
    for m in _MIMIC_TAG.finditer(text):
        found.at = m.span()
        if care.scope_label(text, m.start()) or care.in_code_span(text, m.start()):
            continue  # "[system] error|warning|info|debug", "`[inst : C]`": a label, code
        if is_section_tag(m.group(), sections):
            # <instructions> as one of the tagged sections a description is laid out in
            found.add(INSTRUCTION_TAGGED_SECTION, m.group(), m.group().lower().strip(" </>"))
            continue
        found.add(INSTRUCTION_SYSTEM_MIMICRY, m.group(), m.group().lower().strip())
        break
    for x, y in _bounds(text):
        if _worth_reading(low, x, y, spans):
            for s in _sentences(text, low, x, y):
                _sentence_rules(text, s, spans, found)
    found.view = a
    _script_cues(a.text, found)
    found.at = None


# Texts of a definition --------------------------------------------------------------------------


def tool_texts(wire: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(pointer, text) for every server-written string of a tool definition a host may pass
    to the model: the one walk of engine/textwalk.py (name, title, description, every string
    anywhere in both schemas, annotations, ``_meta``), which the trust axis reads too."""
    for ptr, role, text in tool_strings(wire):
        if role is Role.IDENTIFIER and ptr.endswith("/$schema") and dialect_of({"$schema": text}):
            continue  # a standard meta-schema's URI (a known dialect): no server words in it
        yield ptr, text


def tool_cues(
    old: Mapping[str, Any] | None,
    new: Mapping[str, Any],
    *,
    names: KnownNames = _NO_NAMES,
    server: str = "",
) -> list[Cue]:
    """The cues ``new`` introduces over ``old`` (a definition's wire JSON); every cue of ``new``
    when ``old`` is None (first sight).

    Each text of ``new`` is compared with the pinned text at the same pointer: a cue is
    introduced when that text had none with the same rule and key. A text with no pinned
    predecessor (a new property, a moved text) is compared with every pinned text of the
    definition. A text present verbatim anywhere in ``old`` introduces nothing, and a pinned
    text is read only when a new one carries a cue. On a change, the sentences it adds are
    read once more (engine/cue_change.py: cues only a change raises)."""
    own_tool = new.get("name") if isinstance(new.get("name"), str) else ""
    kw: dict[str, Any] = {
        "names": names,
        "own_server": server,
        "own_tool": own_tool,
        "own_names": own_names_of(new),
    }
    old_map: dict[str, list[str]] = {}
    if old is not None:
        for p, o in tool_texts(old):
            old_map.setdefault(p, []).append(o)  # a key and its value share a pointer
    old_texts = {o for texts in old_map.values() for o in texts}
    whole: set[tuple[str, str]] | None = None
    out: list[Cue] = []
    done: set[tuple[str, str, str]] = set()
    for ptr, t in tool_texts(new):
        if t in old_texts:
            continue
        cues = text_cues(t, ptr, **kw)
        if not cues:
            continue
        before = old_map.get(ptr)
        if before is not None:
            pinned = {(c.rule, c.key) for o in before for c in text_cues(o, ptr, **kw)}
        else:
            if whole is None:
                whole = set()
                for p, olds in old_map.items():
                    for o in olds:
                        whole.update((c.rule, c.key) for c in text_cues(o, p, **kw))
            pinned = whole
        for c in cues:
            ident = (c.rule, c.key, c.pointer)
            if (c.rule, c.key) not in pinned and ident not in done:
                done.add(ident)
                out.append(c)
    if old is None:  # first sight: one reading alone is shown, not blocking (cue_corroborate)
        return corroborate(out, tool_texts(new), kw)
    return change_cues(old_map, tool_texts(new), out, kw)


def introduced(
    old: str | None,
    new: str,
    pointer: str = "",
    *,
    names: KnownNames = _NO_NAMES,
    own_server: str = "",
    own_tool: str = "",
    own_names: frozenset[str] = frozenset(),
) -> list[Cue]:
    """The cues ``new`` carries that ``old`` did not (all of them when ``old`` is None)."""
    kw: dict[str, Any] = {
        "names": names,
        "own_server": own_server,
        "own_tool": own_tool,
        "own_names": own_names,
    }
    if old is not None and old == new:
        return []
    pinned = {(c.rule, c.key) for c in text_cues(old, pointer, **kw)} if old else set()
    return [c for c in text_cues(new, pointer, **kw) if (c.rule, c.key) not in pinned]
