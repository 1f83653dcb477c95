"""The word rules: verbs acting on objects, sentence by sentence (engine/cues.py reads with them).

``engine/cues.py``'s ``_read`` cuts a copy of a text into sentences (engine/cue_sentences.py)
and hands each to :func:`_sentence_rules`, which runs the families of word rules over it
(mimicry, concealment, a verb class on an object class, another tool required, preference),
each only when the sentence has one of its words; :func:`_script_cues` reads the scripts a text
mixes. Every rule adds through :class:`_Found`, which keeps one cue per (rule, key) and shows
the original text at the span the rule fired on. Split from engine/cues.py unchanged (it had
reached the module limit); the rules are catalogued in ``engine/rules/cues.py``.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from mcp_review.engine import cue_care as care
from mcp_review.engine.cue_scope import (
    ASSIGN_V,
    OBJECT_WINDOW,
    assigned_for,
    fresh_secret,
    kept_in_place,
    own_transfer,
    scopes_this_tool,
    written_there,
)
from mcp_review.engine.cue_sentences import _Sentence, _snip
from mcp_review.engine.cue_types import (
    Cue,
    KnownNames,
)
from mcp_review.engine.cue_words import (
    _ACTS,
    _HIDE_WORDS,
    _MIMIC_FIRST,
    _MIXED_WORD,
    _OBJECT_SPANS,
    _OBJECT_WORDS,
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
)
from mcp_review.engine.hidden import find_hidden, has_hidden
from mcp_review.engine.readas import Copy
from mcp_review.engine.rules.cues import (
    CONCEALMENT_COVERT_ACTION,
    CONCEALMENT_DO_NOT_TELL,
    CONCEALMENT_HIDE_FROM_USER,
    CUE_RULES,
    EXFILTRATION_DATA_INTO_ARGUMENT,
    EXFILTRATION_SEND_SENSITIVE,
    EXFILTRATION_SEND_TO_DESTINATION,
    INSTRUCTION_DECODE_AND_FOLLOW,
    INSTRUCTION_IGNORE_PREVIOUS,
    INSTRUCTION_OTHER_TOOL,
    INSTRUCTION_READ_SECRET,
    INSTRUCTION_SYSTEM_MIMICRY,
    SCRIPT_MIX_MIXED_WORD,
    SCRIPT_MIX_NEW_SCRIPT,
    SCRIPT_MIX_UNREADABLE,
    SECRET_ASK,
    TOOL_PREFERENCE_PREFER_THIS,
    TOOL_PREFERENCE_SELF_PROMOTION,
)

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


_PRIORITISES_ITSELF = re.compile(r" prioriti[sz]e (?:this(?: tool| function)?|it) over ")
"""A tool putting itself first: "prioritize this tool / it over ..." (words joined by spaces)."""


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
    elif _PRIORITISES_ITSELF.search(joined):
        # "Prioritize this tool over all others" (docs/cues.md, the vocabulary published attacks
        # use): the tool, not its results ("Prioritize recent results over older ones")
        found.add(TOOL_PREFERENCE_PREFER_THIS, quote, "prioritize")
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
