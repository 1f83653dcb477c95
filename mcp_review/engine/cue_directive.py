"""Directives beyond the tool's job: an author-independent attention cue.

The pattern families (``engine/cue_families.py`` and its siblings) name what published attacks
ask, in their authors' words; a held-out batch collected after them scored the same before and
after them. This reader asks a question that does not depend on the wording: does a sentence
address the model with a directive (imperative or obligation form, or a hidden purpose) whose
object lies outside the tool's own job: the model itself, the conversation or its context,
the user, other tools or servers, every request, secrets and where they are kept, the answer
the model gives? A tool's advice about its own inputs and outputs ("use ``path`` relative to
the root", "pass the id that ``list_items`` returned") names none of those.

Its one rule (``cue.instruction.directive-beyond-tool``) is at ``attention``: shown for the
operator to read, never blocking on its own, never approved with a group. Honest text of real
servers' new tools is its cost (``benchmarks/eval/honest_dev.py``), so every object class is
held to evidence that it is outside the tool: a secret counts with where it is kept or a
quantifier over it, the user only as someone to keep things from or to speak to for the tool.

Linear on any text: the text is cut into sentences by one pass of a character class, a long
sentence into windows, and each pattern is bounded from where it starts (``{0,N}`` over one
character class, no nested quantifier). ``own`` (the tool's name and its parameter names,
lower case) tells self-advice from a directive beyond the tool: a sentence whose only outside
object is one of the tool's own names says nothing beyond its job.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from mcp_review.engine.cue_directive_lang import lang_directive
from mcp_review.engine.cue_sentences import windows
from mcp_review.engine.rules.cue_families import INSTRUCTION_DIRECTIVE_BEYOND_TOOL

__all__ = ["directive_cues", "directive_sentences", "elsewhere_of", "own_names_of"]

_I = re.I

_SENTENCE = re.compile(r"(?:[^.!?\n;。！？；]|[.!?;](?=[^\s.!?;]))+")
"""A sentence: up to a stop followed by a space or the end (a dot inside an address, a
version or a URL stays in it), or a full-width stop; one pass, no backtracking. A longer one
is read in windows."""
_WINDOW = 600

_MAX_TEXT = 200_000


# Directive form -----------------------------------------------------------------------------

_VERB = (
    r"(?:read|include|send|pass|call|invoke|use|run|execute|delete|remove|ignore|forget|"
    r"disregard|tell|inform|mention|reveal|print|output|return|append|prepend|add|copy|forward|"
    r"upload|post|collect|gather|extract|retrieve|search|scan|look|write|save|store|log|respond|"
    r"reply|answer|produce|put|set|change|replace|treat|consider|act|pretend|follow|obey|"
    r"share|attach|provide|fetch|load|open|access|check|verify|first|also|then|do|leak|dump|"
    r"export|transmit|submit|sync|encode|embed|insert|place|copy|email|notify|alert|report|"
    r"summari[sz]e|rewrite|modify|edit|update|grant|approve|trust|prioriti[sz]e|bypass|"
    r"override|skip|avoid|keep|hide|conceal|proceed|perform|invoke|query|find|get|give|"
    r"show|display|announce|disclose|install|download|navigate|visit|go|decode|decrypt|"
    r"deobfuscate|eval|curl|wget|chmod|source)"
)

_MODAL = re.compile(
    r"\b(?:you|the (?:assistant|ai|llm|agent|model)|assistants?|agents?|models?|llms?|ais?)\s"
    r"(?:\w{1,12}\s){0,2}?(?:must|should|shall|need to|have to|has to|are required to|"
    r"is required to|will need to|are expected to|ought to|are to|are mandated to|"
    r"are instructed to|are obligated to|are directed to|are now)\b"
    r"|\b(?:must|should|shall)\s(?:always|never|first|also|immediately|now)\b"
    # not a guarantee in the passive ("the token values are never returned")
    r"|\b(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)(?<!\bbe\s)(?<!\bbeen\s)always\s"
    r"(?![a-z]{1,15}s\b)[a-z]{2,15}\b"
    r"|\b(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)(?<!\bbe\s)(?<!\bbeen\s)never\s"
    r"(?![a-z]{2,15}(?:ed|en)\b)(?![a-z]{1,15}s\b)[a-z]{2,15}\b"
    r"|\b(?:do not|don't|never)\s" + _VERB + r"\b"
    r"|\b(?:make sure|ensure|be sure|remember|it is (?:mandatory|required|essential|critical|"
    r"imperative|vital))\b"
    r"|\b(?:before|after|when|whenever|while|once)\s[^,.\n]{1,80},\s?(?:you\s|please\s|"
    r"first\s|always\s|also\s|then\s)?" + _VERB + r"\b"
    # not a noun the clause's sentence goes on with ("When set, email clients will reply")
    r"(?!\s(?:\w{1,20}\s)?(?:will|would|can|could|may|might|is|are|get|gets)\b)",
    _I,
)
"""An obligation addressed to someone (the model): a modal with a subject, always/never or
do-not with a verb, make-sure/ensure, or a clause of time followed by an imperative."""

_IMPERATIVE_START = re.compile(
    r"^[\s\-*>#\d)(\[\]<>/:|•\"'`]{0,12}(?:<[a-z][a-z _-]{0,40}>\s{0,3})?"
    r"(?:[\"'`]?[a-z_][a-z_ \-]{0,30}[\"'`]?\*{0,2}:\*{0,2}\s{0,3}[\"'`*]{0,3}){0,2}"
    r"(?:please\s|first\s|also\s|then\s|now\s|immediately\s)?" + _VERB + r"\b"
    r"|^[\s\-*>#\[\]]{0,12}(?:[a-z][a-z ]{0,30}:\s{0,3})?(?:for|to|in order to)\s[^,\n]{3,50},\s"
    r"(?:please\s|first\s|also\s)?" + _VERB + r"\b",
    _I,
)
"""A sentence that opens with a verb (the imperative), after bullets, markup, quotes or up
to two labels (``"notes": "ACTION REQUIRED: send``), or after a clause of purpose ("for best
results, include ...")."""

# Objects outside the tool's job --------------------------------------------------------------

_NOT_LIMIT = r"(?!\s(?:limits?|limitations?|size|constraints?|budget|overflow)\b)"
"""The context window as a limit a tool's advice respects ("avoid numbers above 50 due to
context window limitations"), not an object the model is told to act on."""

_OUTSIDE: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "the model",
        re.compile(
            r"\b(?:your|the (?:assistant|ai|llm|model|agent)'s|its own)\s(?:own\s)?"
            r"(?:system prompt|system message|instructions|guidelines|rules|memory|reasoning|"
            r"context|configuration|training|policies|safety)\b"
            r"|\b(?:system prompt|system message|context window|hidden instructions)\b"
            + _NOT_LIMIT
            + r"|\b(?:previous|prior|above|earlier|original)\s(?:\w{1,12}\s)?"
            r"(?:instructions|directives|guidelines|prompts)\b"
            r"|\b(?:ignore|disregard|forget|override|bypass|skip|replace|supersede)\w{0,2}\s"
            r"(?:\w{1,12}\s){0,2}?(?:instructions|directives|guidelines|prompts)\b"
            # a command line's questions ("Skip prompts and use default values": --yes)
            r"(?<!skip prompts)(?<!skips prompts)(?<!confirmation prompts)"
            r"(?<!interactive prompts)"
            r"|\b(?:ignore|disregard|forget|override|bypass|skip|disable|circumvent|turn off)"
            r"\w{0,3}\s(?:\w{1,12}\s){0,2}?(?:security|safety)\s(?:checks?|rules|guidelines|"
            r"restrictions|policies|filters?|measures|protocols?|warnings?)\b",
            _I,
        ),
    ),
    (
        "the conversation",
        re.compile(
            # the one conversation or its contents, not conversations as a store searched
            # ("Find all conversations"), a place ("verbatim in conversation") or a named
            # product's session ("complete WWDC session content")
            r"(?<!find )(?<!finds )(?<!search )(?<!searches )(?<!list )(?<!lists )(?<!across )"
            r"\b(?:entire|whole|full|complete|all|every|raw|verbatim)\s"
            r"(?:(?!(?:in|into|of|to|from|for|on|with|across|between)\s)\w{1,12}\s)?"
            r"(?:(?:conversation|chat|dialog(?:ue)?)s?(?:\s(?:history|context|logs?|"
            r"transcripts?|data|messages|contents?))?|messages)\b"
            r"|\b(?:entire|whole|full|complete|all|every|raw|verbatim)\s(?:(?-i:[a-z]\w{0,11})\s)?"
            r"sessions?(?:\s(?:history|context|logs?|transcripts?|data|messages|contents?))?\b"
            r"|\b(?:send|forward|post|upload|include|append|attach|copy|dump|leak|share|"
            r"exfiltrat\w{1,4}|log|report|relay|sync|pass|put|place)\w{0,3}\s(?:\w{1,12}\s){0,3}?"
            r"(?:conversation|chat|message|session|dialog(?:ue)?)\s(?:history|context|logs?|"
            r"transcripts?|data|contents?)\b"
            r"|\b(?:previous|prior|earlier|all|every|the user's)\s(?:recent\s|last\s|past\s|"
            r"previous\s)?(?:user\s|assistant\s|chat\s)?messages\b"
            r"|\bcontext window\b" + _NOT_LIMIT,
            _I,
        ),
    ),
    (
        "the answer",
        re.compile(
            r"\b(?:your|the|its|every|each|any)\s(?:next |final |own )?(?:response|answer|reply|"
            r"output) (?:to the user|you give|you send)\b"
            r"|\b(?:in|into|to|with) (?:your|every|each|all|any) (?:\w{1,12}\s)?(?:responses?|"
            r"answers?|repl(?:y|ies)|outputs?|messages?)\b"
            r"|\b(?:replace|alter|rewrite|falsify)\s(?:the|your)\s(?:\w{1,12}\s)?(?:response|"
            r"answer|reply)\b",
            _I,
        ),
    ),
    (
        "other tools",
        re.compile(
            r"\b(?:other|another|any|all|every|each)\s(?:other\s)?(?:tools?|functions?|servers?|"
            r"mcp servers?|plugins?|integrations?|apis?|services?|tool calls?)\b"
            r"|\b(?:mcp server|server)\s[\w-]{2,40}\sto\s(?:read|get|fetch|call)\b"
            # not what the connected app holds ("the connected app's console buffer")
            r"|\bconnected\s(?:[\w-]{1,20}\s)?(?:servers?|services?|managers?|tools?|apps?|"
            r"integrations?)\b(?!['\u2019]s\b)",
            _I,
        ),
    ),
    (
        "every request",
        re.compile(
            r"\b(?:every|any|all|each)\s(?:single\s|future\s|subsequent\s|other\s)?(?:requests?|"
            r"quer(?:y|ies)|questions?|tasks?|conversations?|sessions?|interactions?|turns?|"
            r"prompts?|user messages?|actions?|(?:assistant\s)?(?:repl(?:y|ies)|responses?|"
            r"answers?))\b(?!\s(?:parameters?|params?|strings?|results?|"
            r"fields?|options?)\b)(?!\s(?:are|is|were|was|have been|has been)\s(?:completed?|"
            r"done|finished|closed|left)\b)(?![^.\n]{0,24}\b(?:about|related|regarding|concerning|"
            r"involving|on the topic|in the domain)\b)",
            _I,
        ),
    ),
    (
        "secrets",
        re.compile(
            r"(?:~/|\$home/|%userprofile%|/etc/|/root/)[\w.\-/]{0,40}"
            r"|\.(?:env(?!\.(?:example|sample|template|dist)\b)|ssh|aws|npmrc|netrc|pgpass|"
            r"git-credentials|kube/config)\b"
            r"|id_(?:rsa|ed25519|ecdsa|dsa)\b|\b(?:private keys?|seed phrase|mnemonic)\b"
            r"|\b(?:all|any|every|the user's|user's|their|other|stored|saved|secret)\s(?:\w{1,12}\s)?"
            r"(?:api[ _-]?keys?|secrets?|credentials?|passwords?|tokens?|keys|cookies|"
            r"environment variables?|env vars?)\b"
            r"|\b(?:environment variables?|env vars?|credentials? files?|keychain|keyring)\b"
            r"|\b(?:exfiltrat\w{1,4}|steal\w{0,3}|harvest\w{0,3}|leak\w{0,3})\s(?:\w{1,12}\s){0,2}?"
            r"(?:credentials?|secrets?|passwords?|tokens?|keys|api[ _-]?keys?|data)\b",
            _I,
        ),
    ),
    (
        "the user's request",
        re.compile(
            r"\b(?:override|discard|ignore|disregard|replace|redirect|rewrite|change|modify|"
            r"swap|substitute)\s(?:\w{1,12}\s){0,3}?(?:the user'?s?'?|user-(?:specified|provided|"
            r"supplied|targeted|given)|user)\s(?:\w{1,12}\s){0,2}?(?:query|queries|request|"
            r"input|inputs|parameters?|arguments?|choice|selection|values?|recipient|"
            r"destination|target|file|address|amount)\b"
            r"|\boverride\s(?:the\s)?(?:`?\w{1,40}`?\s)?(?:parameters?|arguments?|inputs?)\b"
            r"|\b(?:must|should|shall|mandated to|required to)\s(?:\w{1,12}\s)?(?:override|discard|"
            r"disregard|redirect)\b",
            _I,
        ),
    ),
    (
        "elsewhere",
        re.compile(
            r"\b(?:send|report|log|forward|post|upload|mirror|sync|synchroni[sz]e|transmit|"
            r"file|email|bcc|cc|copy|relay|stream|submit|push|export)\w{0,3}\s[^.\n]{0,60}?"
            r"\bto\s(?:[\w.+-]{1,40}@[\w-]{1,40}\.[\w.]{2,20}|https?://|(?:(?:the|a|an|our|this|"
            r"their|your)\s)?(?:[\w-]{1,20}\s){0,3}?(?:servers?|endpoints?|webhooks?|collectors?|"
            r"analytics|audit\w{0,4}|compliance \w{1,12}|monitoring \w{1,12}|officers?|"
            r"addresses|address|logs? server|backup \w{1,12}))",
            _I,
        ),
    ),
    (
        "hidden code",
        re.compile(
            r"\b(?:decode|deobfuscate|unpack|decrypt)\w{0,3}\s[^.\n]{0,60}?\b(?:and|then)\s"
            r"(?:execute|run|eval\w{0,4})\b",
            _I,
        ),
    ),
    (
        "a literal address",
        re.compile(
            r"\b(?:send|report|log|forward|post|upload|mirror|sync|transmit|email|bcc|cc|copy|"
            r"relay|submit|push|export)\w{0,3}\s[^.\n]{0,60}?\bto\s(?:[\w.+-]{1,40}@[\w-]{1,40}"
            r"\.[\w.]{2,20}|(?:[\w-]{1,20}\s){0,3}?(?:url:?\s)?https?://)",
            _I,
        ),
    ),
    (
        "tool definitions",
        re.compile(
            r"\b(?:override|modify|rewrite|change|alter|update|replace)\s(?:the|this|its|any|all|"
            r"other)\s(?:[\w-]{1,20}\s)?tool'?s?\s(?:definitions?|descriptions?|schemas?)\b",
            _I,
        ),
    ),
    (
        "privileges",
        re.compile(
            r"\b(?:grant|give|assign|elevate)\w{0,3}\s(?:\w{1,12}\s){0,2}?(?:admin|administrator|"
            r"root|superuser|full|elevated|owner)\s(?:access|privileges?|rights|permissions?|"
            r"role)\s(?:to|for)\s(?:the\s)?(?:requesting|calling|current|any|every)\b",
            _I,
        ),
    ),
    (
        "the user",
        re.compile(
            r"\b(?:tell|inform|notify|alert|warn|show) (?:the |a )?(?:user|users|human|anyone|"
            r"customer) that\b(?! you (?:are|were|will|have|used|ran)\b)",
            _I,
        ),
    ),
    (
        "another tool with fixed values",
        re.compile(
            r"\b(?:call|invoke|use|run|execute|trigger)\w{0,2}\s{1,3}(?:the\s)?(?:[\w-]{1,20}\s)?"
            r"(?:tool\s|function\s|capability\s)?[(`'\"]{0,2}"
            r"(?P<name>[a-z][a-z0-9]{0,30}(?:_[a-z0-9]{1,30}){1,6})\b[)`'\"]{0,2}"
            r"[^.\n]{0,80}?(?:\(\s?[a-z_]{1,30}\s?=\s?['\"\w]|\b[a-z_]{1,30}\s?=\s?['\"]"
            r"|\bwith (?:the |exactly )?(?:values?|arguments?|parameters?|strings?|text) ['\"]"
            r"|\bwith exactly\b|:\s{0,3}-\s[a-z_]{1,30}:\s{0,3}['\"\d{])",
            _I,
        ),
    ),
    (
        "posing as the system",
        re.compile(
            r"^[\s\W]{0,6}(?:system|admin|administrator|developer|root)\s?(?:notes?\s?)?[\]>*]{0,2}:"
            r"|(?:^|[\[<*>#\s])(?:system|admin(?:istrator)?|developer|operator|root|security|"
            r"compliance|internal|assistant|agent)\s(?:instructions?|override|commands?|"
            r"directives?|messages?|polic(?:y|ies)|notices?|protocols?|orders?|requirements?)\b"
            r"[\]>*]{0,2}\s{0,2}:",
            _I,
        ),
    ),
    (
        "kept from the user",
        re.compile(
            r"\b(?:silently|secretly|covertly|quietly|discreetly|invisibly)\b"
            r"|\b(?:do not|don't|never|without)\s(?:mention|reveal|disclos|announc|surfac|show|"
            r"display|report)\w{0,4}\s(?:the|this|these|that|any|its|their)\s(?:\w{1,20}\s){0,2}?"
            r"(?:steps?|calls?|actions?|instructions?|synchroni[sz]ation|operations?|process|"
            r"requests?|note|output|results?|response|check|audit|fetch)\b",
            _I,
        ),
    ),
    (
        "a command",
        re.compile(
            r"\b(?:curl|wget)\s[^\n]{0,120}?\|\s{0,2}(?:sudo\s)?(?:(?:ba|z|da)?sh|python3?)\b"
            r"|\brm\s-[a-z]{0,3}r"
            r"|\b(?:subprocess|os\.system|os\.popen|child_process|execsync|__import__|"
            r"execute_code)\b|\b(?:eval|exec)\s?\("
            r"|[\w\]/.-]{1,60}\.(?:sh|ps1|bat)\b",
            _I,
        ),
    ),
    (
        "a file",
        re.compile(
            r"\b(?:delete|remove|erase|wipe|overwrite|truncate|rm)\w{0,5}\b[^.\n]{0,80}?`?"
            r"(?:(?:/[\w.-]{1,40}){2,}|~/[\w./-]{1,60}|\[home dir\][\w./-]{0,60}|"
            r"[\w-]{1,40}\.(?:txt|env|pem|key|db|sqlite|json|ya?ml|conf|cfg|ini|log|bak|docx?|"
            r"csv|sh)\b)",
            _I,
        ),
    ),
)
"""Each class with the evidence that puts it outside the tool: a secret with where it is kept
or a quantifier over it, the user as someone spoken to (asking the user to confirm or choose
is the tool's own care, not beyond it)."""

_HIDDEN = re.compile(
    r"\b(?:do not|don't|never|not|without)\s(?:\w{1,12}\s){0,2}?(?:tell(?:ing)?|inform(?:ing)?|"
    r"mention(?:ing)?|notify(?:ing)?|alert(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)|"
    r"show(?:ing)?|announc(?:e|ing)|surfac(?:e|ing)|report(?:ing)?|ask(?:ing)?|"
    r"warn(?:ing)?|explain(?:ing)?|let(?:ting)?)\s(?:\w{1,12}\s){0,3}?"
    r"(?:the user|users|the human|anyone|anybody|the customer|them|him|her)\b"
    r"|\b(?:should|must|need) not be (?:announced|surfaced|disclosed|mentioned|shown|revealed|"
    r"reported) to\b"
    r"|\bshould not be announced\b"
    r"|\b(?:secretly|covertly)\b"
    r"|\b(?:silently|secretly|covertly|quietly|discreetly|invisibly)\s(?:\w{1,12}\s)?"
    r"(?:read|send|include|pass|call|invoke|upload|forward|copy|collect|gather|log|execute|run|"
    r"append|attach|add|save|store|exfiltrate|transmit|share|post|email|bcc|cc)\b"
    r"|\bkeep (?:this|it|these|that) (?:\w{1,12}\s)?(?:hidden|secret|confidential|private) from\b"
    r"|\b(?:hide|conceal|withhold)\s(?:\w{1,12}\s){0,3}?from\s(?:the user|users|the human|"
    r"anyone|anybody)\b"
    r"|\b(?:do not|don't|never)\s(?:log|record|audit)\s(?:any|this|these)\s(?:\w{1,12}\s)?"
    r"(?:of the\s)?(?:operations?|actions?|calls?|requests?|activity|access)\b",
    _I,
)
"""A purpose kept from the person: do not tell/mention/show the user, without asking them,
silently send, keep it hidden from."""

_NEGATED_ADVICE = re.compile(
    r"\b(?:do not|don't|never|avoid)\s(?:\w{1,12}\s){0,3}?(?:include|send|pass|share|expose|"
    r"log|print|reveal|store|commit|hard-?code|put|paste|leak)\s(?:\w{1,12}\s){0,3}?"
    r"(?:secrets?|credentials?|passwords?|tokens?|api[ _-]?keys?|private keys?|sensitive)\b",
    _I,
)
"""Honest care about secrets ("never include credentials in the query"): not beyond the job."""

_NEGATED = re.compile(
    r"[\W\d]{0,12}(?:do not|don't|never|avoid)\b|.{0,300}?,\s?(?:so|and|but|then)\s(?:do not|"
    r"don't|never)\b",
    _I,
)
_NOT_SILENTLY = re.compile(
    r"\b(?:never|do not|don't|not)\s(?:\w{1,12}\s){0,3}?(?:silently|secretly|covertly|quietly|"
    r"discreetly|invisibly)\b",
    _I,
)
_UNLESS_ASKED = re.compile(r"\bunless (?:they|the user|users|asked)\b", _I)
"""Verbosity advice ("don't list the ids unless they ask"), not a purpose kept from them."""
_SELF = re.compile(
    r"\b(?:call|use|invoke|run|choose|prefer)\s(?:this|the present|this same)\b(?!\s(?:data|"
    r"file|value|output|result|information|key|token|content))",
    _I,
)
_SELF_SCOPE = frozenset({"every request", "the conversation", "other tools"})
_WAITS = re.compile(
    r"\bwait (?:for|until) (?:the |an? |explicit )?(?:user'?s?|their|human)\s(?:\w{1,12}\s)?"
    r"(?:approv|confirm|consent|permission)",
    _I,
)
"""A wait for the user's approval: the tool putting them in charge of each step."""
_WIDE = frozenset(
    {
        "every request",
        "other tools",
        "elsewhere",
        "the user",
        "the model",
        "a command",
        "a file",
        "another tool with fixed values",
    }
)
"""Classes a restraint may name honestly ("never call this for every request", "never tell a
user a message was scheduled": a real server's note on its own scheduling; "never run rm -rf
on the root directory")."""
_STRONG = frozenset(
    {
        "the model",
        "the conversation",
        "secrets",
        "the user's request",
        "the answer",
        "hidden code",
        "a literal address",
        "tool definitions",
        "privileges",
        "posing as the system",
    }
)
"""Classes no tool's own summary names (its first sentence may be an imperative)."""

_JOB_OF = {
    "a command": frozenset({"command", "cmd", "commands", "script", "code", "shell", "bash"}),
    "a file": frozenset({"path", "paths", "file", "files", "filename", "filepath", "file_path"}),
}
"""An object that is the job of a tool with one of these parameters: a shell tool's commands,
a file tool's files (its own names, plumbed from its schema by ``engine/cues.py``)."""

_WORD = re.compile(r"[a-z0-9_]{2,64}")


def directive_sentences(
    text: str, own: Iterable[str] = (), elsewhere: Callable[[str], bool] | None = None
) -> Iterable[tuple[int, int, tuple[str, ...]]]:
    """(start, end, outside classes) of each sentence of ``text`` that directs the model
    beyond the tool's job; ``("hidden purpose",)`` for a purpose kept from the user.

    ``elsewhere(name)`` tells whether a tool name is not one of this server's tools (known
    only when the fleet's names are): a call of such a tool that the text makes necessary is
    beyond the job; a server's advice to call its own tool first is not."""
    if len(text) > _MAX_TEXT:
        text = text[:_MAX_TEXT]
    own_names = {o.lower() for o in own if o}
    first = True
    for start, s in _windows(text):
        opening, first = first, False
        if len(s.strip()) < (12 if s.isascii() else 4):
            continue
        if _HIDDEN.search(s) and not _UNLESS_ASKED.search(s):
            yield start, start + len(s), ("hidden purpose",)
            continue
        other = lang_directive(s)  # the same question in es/fr/de/zh/ru/ja
        if other:
            yield start, start + len(s), other
            continue
        if elsewhere is not None and _required_elsewhere(s, own_names, elsewhere):
            yield start, start + len(s), ("a required call of a tool not on this server",)
            continue
        modal = _MODAL.search(s) is not None
        if not (modal or _IMPERATIVE_START.search(s)):
            continue
        if _NEGATED_ADVICE.search(s):
            continue
        found = tuple(
            name
            for name, pat in _OUTSIDE
            if (hit := pat.search(s)) is not None
            and not _only_own(
                hit.group("name") if "name" in pat.groupindex else hit.group(0), own_names
            )
            and not (name in _JOB_OF and own_names & _JOB_OF[name])
            # a call with fixed values of a tool the fleet knows as this server's own: its
            # workflow ("use get_images(groupId=...) to retrieve them")
            and not ("name" in pat.groupindex and elsewhere and not elsewhere(hit.group("name")))
        )
        if _SELF.search(s):
            # The tool promoting itself ("always call this at the start of the conversation",
            # "use this instead of layerId for all queries"): preference, read by the
            # tool-preference rules, not a reach beyond its job.
            found = tuple(f for f in found if f not in _SELF_SCOPE)
        if _NEGATED.match(s):
            # Restraint ("do not call this before every task"): not a reach beyond the job.
            found = tuple(f for f in found if f not in _WIDE)
        if _WAITS.search(s):
            # "always wait for user approval after completing each task": the user in charge
            found = tuple(f for f in found if f not in _SELF_SCOPE)
        if "kept from the user" in found and _NOT_SILENTLY.search(s):
            # "never call this silently": the tool asking to be used in the open
            found = tuple(f for f in found if f != "kept from the user")
        if opening and not modal:
            # A text's first sentence in the imperative is the tool saying what it does
            # ("Upload a file to the server"): only an object no tool's job names counts there.
            found = tuple(f for f in found if f in _STRONG)
        if found:
            yield start, start + len(s), found


_BULLET = re.compile(r"[ \t]{0,8}(?:[-*•]|\d{1,2}[.)])[ \t]")
_ITEM_VERB = re.compile(r"[*`_]{0,2}" + _VERB + r"\b", _I)
"""A list item that is a sentence of its own (it opens with a verb): not joined to the line
that introduces the list."""
_CONTINUES = re.compile(r"[ \t]{0,40}(?:(?:#{1,2}|//)[ \t])?[a-z(`']")


def _joined(text: str) -> str:
    """``text`` with the line breaks inside a sentence made spaces (same length, same offsets):
    a hard-wrapped line whose next line goes on in lower case, and a list that a line ending
    in a colon introduces ("call delete_file on these paths:" and its bullets). A blank line,
    a line ending in a stop and a line after the list still end a sentence."""
    if "\n" not in text:
        return text
    out = list(text)
    in_list = False
    pos = text.find("\n")
    while pos != -1:
        prev = text[:pos].rstrip(" \t")[-1:]
        nxt = pos + 1
        b = _BULLET.match(text, nxt)
        bullet = b is not None
        if (in_list or prev == ":") and b is not None and not _ITEM_VERB.match(text, b.end()):
            out[pos], in_list = " ", True
        elif prev and prev not in ".!?:;" and not bullet and _CONTINUES.match(text, nxt):
            out[pos] = " "
        else:
            in_list = False
        pos = text.find("\n", nxt)
    return "".join(out)


_REQUIRED_CALL = re.compile(
    r"\b(?:must|always|required|requires|prerequisite|mandatory|need to|have to|requirement)\b"
    r"(?:(?!\s[-*•]\s)[^.\n]){0,60}?\b(?:call|invoke|run|use|execute)\s{1,3}(?:the\s)?"
    r"[(`'\"]{0,2}(?P<name>[a-z][a-z0-9]{0,30}(?:_[a-z0-9]{1,30}){1,6})\b",
    _I,
)
"""A call the text makes necessary (must, always, prerequisite ...) of a named tool."""


def _required_elsewhere(s: str, own: set[str], elsewhere: Callable[[str], bool]) -> bool:
    if _NEGATED.match(s):
        return False
    for m in _REQUIRED_CALL.finditer(s):
        name = m.group("name")
        if name.lower() not in own and elsewhere(name):
            return True
    return False


def _windows(text: str) -> Iterable[tuple[int, str]]:
    """(offset, sentence) of each sentence, a long one cut into overlapping windows of
    ``_WINDOW`` characters (each read once: linear)."""
    return windows(_joined(text), _SENTENCE, _WINDOW)


def _only_own(matched: str, own: set[str]) -> bool:
    """The object is one of the tool's own names (its name or a parameter): self-advice."""
    if not own:
        return False
    words = set(_WORD.findall(matched.lower()))
    return bool(words & own)


_MAX_OWN = 256
"""Names of one definition kept at most (a schema of thousands of properties is data)."""


def own_names_of(wire: Mapping[str, Any]) -> frozenset[str]:
    """The tool's own names, lower case: its name and the property names of its input schema
    at any depth (a tool's advice about these is about its own job)."""
    out: set[str] = set()
    name = wire.get("name")
    if isinstance(name, str) and name:
        out.add(name.lower())
    stack: list[Any] = [wire.get("inputSchema")]
    seen = 0
    while stack and len(out) < _MAX_OWN and seen < 4 * _MAX_OWN:
        node = stack.pop()
        seen += 1
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, Mapping):
            continue
        props = node.get("properties")
        if isinstance(props, Mapping):
            out.update(k.lower() for k in props if isinstance(k, str) and 0 < len(k) <= 64)
        stack.extend(v for v in node.values() if isinstance(v, Mapping | list))
    return frozenset(list(out)[:_MAX_OWN])


def elsewhere_of(collector: object) -> Callable[[str], bool] | None:
    """Whether a tool name is not this server's, from the fleet's names the cue reader's
    collector carries; None (not known) without them or when the fleet lacks this server."""
    names = getattr(collector, "names", None)
    server = getattr(collector, "own_server", "")
    tools = getattr(names, "tools", None)
    if not server or not isinstance(tools, Mapping) or server not in getattr(names, "servers", ()):
        return None

    def elsewhere(name: str) -> bool:
        return server not in tools.get(name, ())

    return elsewhere


def directive_cues(
    text: str, add: Callable[[str, str, str], None], own: Iterable[str] | None = None
) -> None:
    """The first sentence of ``text`` that directs the model beyond the tool's job, given to
    ``add(rule, matched text, key)`` (the family reader's callback).

    Attention adds nothing to a text that already carries a blocking cue (its change is
    blocked and its tool stands alone): when ``add`` is the cue reader's collector, the cues it
    holds for this text are asked first (``engine/cue_find.py``'s ``_Found.out``), and so are the
    tool's own names it carries (``_Found.own_names``) when ``own`` is not given."""
    collector = getattr(add, "__self__", None)
    held = getattr(collector, "out", None)
    if isinstance(held, list) and any(getattr(c, "blocking", False) for c in held):
        return
    if own is None:
        carried = getattr(collector, "own_names", None)
        own = carried if isinstance(carried, frozenset) else ()
    for start, end, classes in directive_sentences(text, own, elsewhere_of(collector)):
        sentence = text[start:end].strip()
        add(
            INSTRUCTION_DIRECTIVE_BEYOND_TOOL,
            sentence[:200],
            f"{INSTRUCTION_DIRECTIVE_BEYOND_TOOL}:{'+'.join(classes)}",
        )
        return
