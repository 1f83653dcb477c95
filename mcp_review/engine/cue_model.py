"""Reads as an instruction: a small learned cue (info), independent of any author's phrasing.

The pattern families (``engine/cue_families.py`` and its siblings) and the directive reader
(``engine/cue_directive.py``) are hand-written: held-out batches of published attacks scored
the same before and after them, because patterns learn their authors' words. This reader is a
different kind of evidence: a logistic model of "this sentence instructs the model", trained
(``benchmarks/eval/train_cue_model.py``, seeded, deterministic) on development data only and
shipped as a generated table of weights (``engine/cue_model_weights.py``).

The features are of the sentence, not of an author: its words and word pairs lower-cased with
numbers, paths, addresses, URLs, code and tool-like identifiers replaced by placeholders (the
tool's own names by ``_own_``); its first words (the imperative); groups of function words
(second person, modal verbs, before/after/instead/always/never, the user, the conversation,
other tools, files, secrets, sending, hiding, the model itself); its shape (tags, bold, words
in capitals, a ``LABEL:`` opening, brackets); and a few author-independent readings
(:func:`_derived`): how far it is from the tool's own job (no content word shared with the
tool's name, parameter names or its text's first sentence), whom it addresses (you, the
model), whether it opens with a command and whether an action verb takes a
fixed value (an address, a URL, a path, an amount, another tool's name), each also crossed
with the distance. A sentence whose score passes the threshold raises
``cue.instruction.reads-as-instruction`` at **info** (shown, never blocking, never setting a
tool apart: its leave-one-source-out recall on development data stays far under what
attention would need; benchmarks/README.md): the cue names the sentence and the two or three
features that weighed most, so an operator sees why.

Linear on any text: sentences are cut by one pass of a character class (a long one read in
windows), each normalised by bounded patterns and scored by dictionary look-ups.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import pairwise

from mcp_review.engine.cue_model_weights import BIAS, THRESHOLD, WEIGHTS
from mcp_review.engine.cue_sentences import windows
from mcp_review.engine.rules.cue_families import INSTRUCTION_READS_AS_INSTRUCTION

__all__ = [
    "NO_JOB",
    "Job",
    "explain",
    "features",
    "job_of",
    "model_cues",
    "score",
    "sentence_score",
    "sentences",
]

_SENTENCE = re.compile(r"(?:[^.!?\n;]|[.!?;](?=[^\s.!?;]))+")
"""A sentence: up to a stop followed by a space or the end (as the directive reader cuts)."""
_WINDOW = 400
_MAX_TEXT = 200_000
_MIN_CHARS = 16
_MAX_TOKENS = 80

# Placeholders (the author's literals are not the evidence: their role is) --------------------

_URL = re.compile(
    r"\b(?:https?|ftp|wss?)://[^\s<>\"'`)\]]{1,300}|\bwww\.[^\s<>\"'`)\]]{1,300}", re.I
)
_EMAIL = re.compile(r"\b[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}\b")
_PATH = re.compile(
    r"(?:~|\$home|%\w{1,20}%)?(?:/|\\\\?)?(?:[\w.-]{1,64}[/\\]){1,12}[\w.-]{0,64}"
    r"|~[/\\][\w./\\-]{0,200}|\b[a-z]:\\[^\s\"'`]{0,200}|(?<![\w/])\.(?:env|ssh|aws|npmrc|netrc|"
    r"pgpass|git-credentials|bashrc|zshrc|profile|kube|docker|gnupg|config)\b",
    re.I,
)
_SECRET_IN_PATH = re.compile(
    r"ssh|id_rsa|id_ed25519|\.env|aws|credential|secret|token|passw|\.npmrc|\.netrc|pgpass|"
    r"\.kube|gnupg|keychain|wallet|\.git-cred|shadow|\.pem|private",
    re.I,
)
_CODE = re.compile(r"`[^`\n]{1,200}`")
_IDENT = re.compile(
    r"\b(?:[a-z][a-z0-9]{0,40}(?:_[a-z0-9]{1,40}){1,8}|[a-z]{1,40}(?:[A-Z][a-z0-9]{0,40}){1,8})\b"
)
_NUM = re.compile(r"\b\d[\d.,:]{0,40}\b")
_DIGIT = re.compile(r"\d")
_TAG = re.compile(r"</?[A-Za-z][\w -]{0,40}>")
_BOLD = re.compile(r"\*\*[^*\n]{1,80}\*\*|__[^_\n]{1,80}__")
_CAPS = re.compile(r"\b[A-Z]{4,}\b")
_LABEL = re.compile(r"^[\s\-*>#\[(]{0,6}[A-Z][A-Za-z ]{1,30}\]?\s?:")
_BRACKET = re.compile(r"\[[A-Z][A-Z _-]{2,40}\]")
_TOKEN = re.compile(r"_[a-z]+_|[^\W\d_]{1,40}")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+")

# Groups of function words (each token is one group's member at most) ---------------------------

_GROUPS: dict[str, str] = {}
for _g, _ws in (
    ("you", "you your yours yourself"),
    (
        "modal",
        "must should shall need needs required require requires mandatory have has ought "
        "always never ensure sure remember important critical essential necessary",
    ),
    (
        "order",
        "before after instead first then prior afterwards beforehand next once whenever "
        "every each all any",
    ),
    ("user", "user users user's human operator person customer"),
    (
        "conversation",
        "conversation chat context history messages message session prompt prompts thread dialogue",
    ),
    ("tools", "tool tools function functions server servers plugin plugins mcp"),
    ("file", "file files folder directory contents content _path_"),
    (
        "secret",
        "secret secrets password passwords token tokens key keys credential credentials "
        "ssh api private apikey env _secretpath_",
    ),
    (
        "send",
        "send sends sent post upload forward email transmit share export include append "
        "attach _url_ _email_",
    ),
    (
        "hide",
        "hide silently secretly quietly mention tell reveal notice aware inform disclose conceal",
    ),
    (
        "model",
        "assistant ai model agent llm instructions instruction system rules guidelines directives",
    ),
    ("negate", "not don't dont no never without"),
):
    for _w in _ws.split():
        _GROUPS.setdefault(_w, _g)

_STOP_BIGRAM = frozenset("the a an of to and or in for on with is are be this that".split())


def _path_placeholder(m: re.Match[str]) -> str:
    return " _secretpath_ " if _SECRET_IN_PATH.search(m.group()) else " _path_ "


def _normalise(s: str, own: frozenset[str] = frozenset()) -> tuple[list[str], list[str]]:
    """(tokens, shape features) of one sentence: placeholders for literals, then lower case; a
    code span or identifier that is one of ``own`` (the tool's own names) is ``_own_``."""
    shape = []
    if _TAG.search(s):
        shape.append("x:tag")
    if _BOLD.search(s):
        shape.append("x:bold")
    caps = len(_CAPS.findall(s))
    if caps:
        shape.append("x:caps" if caps < 3 else "x:caps3")
    if _LABEL.match(s):
        shape.append("x:label")
    if _BRACKET.search(s):
        shape.append("x:bracket")
    if "!" in s:
        shape.append("x:bang")
    # Each replacement runs only where its mark is (a character test): most sentences need
    # none of them.
    if "://" in s or "www." in s.lower():
        s = _URL.sub(" _url_ ", s)
    if "@" in s:
        s = _EMAIL.sub(" _email_ ", s)
    if "`" in s:
        s = _CODE.sub(lambda m: " _own_ " if m.group()[1:-1].lower() in own else " _code_ ", s)
    if "/" in s or "\\" in s or "~" in s or "." in s:
        s = _PATH.sub(_path_placeholder, s)
    if "_" in s or not s.islower():
        s = _IDENT.sub(lambda m: " _own_ " if m.group().lower() in own else " _ident_ ", s)
    if _DIGIT.search(s):
        s = _NUM.sub(" _num_ ", s)
    low = s.lower()
    toks: list[str] = []
    for t in _TOKEN.findall(low):
        if _CJK.fullmatch(t):
            toks.extend(t[i : i + 2] for i in range(max(1, len(t) - 1)))
        else:
            toks.append(t)
        if len(toks) >= _MAX_TOKENS:
            break
    return toks[:_MAX_TOKENS], shape


_NOT_VERBS = frozenset(
    "this thus always unless less its has was is yes as us various previous".split()
)


def _third_person(tok: str) -> bool:
    """An opening word in the third person ("Returns", "Logs", "Gets"): the tool saying what
    it does, where an instruction opens with the imperative or a subject."""
    return (
        len(tok) >= 4
        and tok.endswith("s")
        and not tok.endswith("ss")
        and tok not in _NOT_VERBS
        and tok not in _GROUPS
    )


# The sentence against the tool's own job -------------------------------------------------------

_CONTENT_STOP = frozenset(
    "this that these those with from will when which what where there their they them then "
    "than such into only also more most some other been being have were does done each used "
    "uses using based given value values data list type string number optional default "
    "example e.g. etc".split()
)
_NAME_PART = re.compile(r"[a-z][a-z0-9]*|[A-Z][a-z0-9]*|[A-Z]+(?![a-z])")
_STEM = 5


def _stems(tokens: Iterable[str]) -> frozenset[str]:
    """The content words' stems (their first five letters): the words that say what a
    sentence is about, function words and placeholders left out."""
    return frozenset(
        t[:_STEM]
        for t in tokens
        if len(t) >= 4 and t.isalpha() and t not in _GROUPS and t not in _CONTENT_STOP
    )


@dataclass(frozen=True, slots=True)
class Job:
    """What the tool says its job is: its own names (name and parameter names, lower case),
    the stems of their parts, and the stems of the text's first sentence."""

    names: frozenset[str] = frozenset()
    name_stems: frozenset[str] = frozenset()
    first_stems: frozenset[str] = frozenset()


NO_JOB = Job()


def job_of(own_names: Iterable[str], first: str = "") -> Job:
    """The job of a tool with ``own_names`` whose text opens with the sentence ``first``."""
    names = frozenset(n.lower() for n in own_names if n)
    parts = [p.lower() for n in own_names if n for p in _NAME_PART.findall(n[:64])]
    first_toks = _normalise(first, names)[0] if first else []
    return Job(names, _stems(parts), _stems(first_toks))


# Author-independent groups: the opening command, the addressee, an action on a fixed value ---

_IMPERATIVE = frozenset(
    "add append always attach call change check collect combine copy create delete disregard "
    "do don't download email ensure execute export fetch find follow forget forward get give "
    "grab ignore include insert invoke leave list log make mail move never note open override "
    "pass paste pay please post print read remember remove replace report reply respond "
    "retrieve return run save say search send set share show skip start stop store submit "
    "summarize tell transfer treat update upload use visit wait write".split()
)
_ACTION = frozenset(
    "send forward email mail post upload transfer pay call invoke run execute read write save "
    "copy set use include append attach share export fetch visit open access log report "
    "delete remove move replace store submit download".split()
)
_FIXED = frozenset("_url_ _email_ _path_ _secretpath_ _num_ _code_ _ident_".split())
_SELF_WORDS = frozenset(
    (a, b) for a in ("this", "the") for b in ("tool", "function", "endpoint", "command", "api")
)
"""A sentence naming "this tool" speaks of the tool's own job."""
_OFF_JOB_MIN = 2
"""Content words a sentence needs before "none of them is the tool's own" means something."""


def _act_fixed(toks: list[str]) -> bool:
    """An action verb whose object (within six words) is a fixed value: an address, a URL, a
    path, an amount, code or another tool's name ("send it to <address>", "call <name>")."""
    for i, t in enumerate(toks):
        if t in _ACTION and not _FIXED.isdisjoint(toks[i + 1 : i + 7]):
            return True
    return False


def features(sentence: str, job: Job = NO_JOB, first: bool = False) -> list[str]:
    """The features of one sentence (distinct, in first-seen order). ``job``: the tool's own
    job (:func:`job_of`); ``first``: the sentence is its text's first (its own words are then
    not evidence that it keeps to them)."""
    toks, shape = _normalise(sentence, job.names)
    out: dict[str, None] = dict.fromkeys(shape)
    if toks:
        out["s:" + toks[0]] = None
        if _third_person(toks[0]):
            out["x:says-what-it-does"] = None
        if len(toks) > 1:
            out["s:" + toks[0] + " " + toks[1]] = None
    groups: dict[str, None] = {}
    prev = ""
    for t in toks:
        out["w:" + t] = None
        if prev and not (prev in _STOP_BIGRAM and t in _STOP_BIGRAM):
            out["b:" + prev + " " + t] = None
        prev = t
        g = _GROUPS.get(t)
        if g:
            groups[g] = None
    for g in sorted(groups):
        out["g:" + g] = None
    if len(toks) >= 25:
        out["x:long"] = None
    _derived(toks, groups, job, first, out)
    return list(out)


def _derived(
    toks: list[str], groups: dict[str, None], job: Job, first: bool, out: dict[str, None]
) -> None:
    """The author-independent features: distance from the tool's job, the addressee, the
    opening command, an action on a fixed value, and their crossings with the distance."""
    stems = _stems(toks)
    ctx = job.name_stems if first else job.name_stems | job.first_stems
    on = len(stems & ctx)
    own = "_own_" in toks or not _SELF_WORDS.isdisjoint(pairwise(toks))
    off = len(stems) >= _OFF_JOB_MIN and on == 0 and not own
    if off:
        out["x:off-job"] = None
    elif on >= 2 or own:
        out["x:on-job"] = None
    derived = []
    if toks and (toks[0] in _IMPERATIVE or (toks[0] == "please" and len(toks) > 1)):
        derived.append("x:imperative")
    if "you" in groups or "model" in groups:
        derived.append("x:addressed")
        if "modal" in groups:
            derived.append("x:addressed-must")
    if _act_fixed(toks):
        derived.append("x:act-fixed")
    for f in derived:
        out[f] = None
        if off:
            out[f + "+off-job"] = None


def score(
    feats: Iterable[str], weights: dict[str, float] | None = None, bias: float | None = None
) -> float:
    """The model's log-odds that a sentence with ``feats`` instructs the model."""
    w = WEIGHTS if weights is None else weights
    return (BIAS if bias is None else bias) + sum(w.get(f, 0.0) for f in feats)


def sentences(text: str) -> Iterator[tuple[int, str]]:
    """(offset, sentence) of each sentence of ``text``; a long one in overlapping windows of
    ``_WINDOW`` characters (each character read at most twice: linear)."""
    if len(text) > _MAX_TEXT:
        text = text[:_MAX_TEXT]
    return windows(text, _SENTENCE, _WINDOW, _MIN_CHARS)


_SHOWN = {
    "x:tag": "a tag",
    "x:bold": "bold text",
    "x:caps": "a word in capitals",
    "x:caps3": "words in capitals",
    "x:label": "a LABEL: opening",
    "x:bracket": "a [BRACKETED] header",
    "x:bang": "an exclamation",
    "x:long": "a long sentence",
    "x:says-what-it-does": "opens like a description",
    "x:off-job": "none of the tool's own words",
    "x:on-job": "the tool's own words",
    "x:imperative": "opens with a command",
    "x:addressed": "addresses the model or you",
    "x:addressed-must": "tells the model or you what it must do",
    "x:act-fixed": "an action on a fixed value",
    "x:imperative+off-job": "a command outside the tool's job",
    "x:addressed+off-job": "addresses the model outside the tool's job",
    "x:addressed-must+off-job": "an obligation outside the tool's job",
    "x:act-fixed+off-job": "an action on a fixed value outside the tool's job",
}


def _shown(f: str) -> str:
    if f in _SHOWN:
        return _SHOWN[f]
    kind, _, body = f.partition(":")
    body = body.replace("_secretpath_", "<secret path>").replace("_path_", "<path>")
    body = body.replace("_url_", "<url>").replace("_email_", "<address>")
    body = (
        body.replace("_code_", "<code>")
        .replace("_ident_", "<name>")
        .replace("_num_", "<number>")
        .replace("_own_", "<own name>")
    )
    if kind == "s":
        return f"opens with '{body}'"
    if kind == "g":
        return f"{body} words"
    return f"'{body}'"


def explain(feats: Iterable[str], n: int = 3) -> list[str]:
    """The ``n`` features that weighed most toward an instruction, as an operator reads them."""
    scored = sorted(((WEIGHTS.get(f, 0.0), f) for f in feats), key=lambda x: (-x[0], x[1]))
    return [_shown(f) for w, f in scored[:n] if w > 0]


_SELF = frozenset({"b:this tool", "b:call this", "b:use this", "b:this function"})
_OUTSIDE = frozenset(
    {"g:user", "g:conversation", "g:secret", "g:send", "g:hide", "g:model", "x:tag"}
)


def _self_promotion(feats: list[str]) -> bool:
    """A sentence about this tool itself ("This tool MUST be called before any other tools")
    with no object outside it (the user, the conversation, secrets, sending, hiding, the model's
    own instructions): preference, which the tool-preference rules read, not an instruction
    beyond the tool's job."""
    return not _SELF.isdisjoint(feats) and _OUTSIDE.isdisjoint(feats)


def sentence_score(
    sentence: str, job: Job = NO_JOB, first: bool = False
) -> tuple[float, list[str]]:
    """(log-odds, features) of one sentence as :func:`model_cues` reads it; a sentence about
    this tool itself with no object outside it (:func:`_self_promotion`) scores ``-inf``, as
    that reader passes it over. For a reader with a threshold of its own (engine/cue_change.py
    reads the sentences a change adds)."""
    f = features(sentence, job, first)
    return (float("-inf") if _self_promotion(f) else score(f)), f


def model_cues(text: str, add: Callable[[str, str, str], None]) -> None:
    """The sentence of ``text`` the model reads most as an instruction, if it passes the
    threshold, given to ``add(rule, evidence, key)`` (the cue reader's callback).

    Nothing is added to a text that already carries a blocking cue (its change is blocked and
    stands alone already), as the directive reader does."""
    holder = getattr(add, "__self__", None)
    held = getattr(holder, "out", None)
    if isinstance(held, list) and any(getattr(c, "blocking", False) for c in held):
        return
    own: object = getattr(holder, "own_names", None)
    cut = list(sentences(text))
    if not cut:
        return
    job = job_of(own if isinstance(own, frozenset) else frozenset(), cut[0][1])
    best: tuple[float, str, list[str]] | None = None
    for at, s in cut:
        f = features(s, job, at == cut[0][0])
        z = score(f)
        if z > THRESHOLD and _self_promotion(f):
            continue
        if z > THRESHOLD and (best is None or z > best[0]):
            best = (z, s, f)
    if best is None:
        return
    z, s, f = best
    sentence = " ".join(s.split())
    if len(sentence) > 110:
        sentence = sentence[:109] + "\u2026"
    why = ", ".join(explain(f))
    evidence = f"{sentence} [reads as an instruction, {z:.1f} over {THRESHOLD}: {why}]"
    key = f"{INSTRUCTION_READS_AS_INSTRUCTION}:{sentence.lower()[:60]}"
    add(INSTRUCTION_READS_AS_INSTRUCTION, evidence, key)
