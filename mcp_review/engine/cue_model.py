"""Reads as an instruction: a small learned cue (info), independent of any author's phrasing.

The pattern families (``engine/cue_families.py`` and its siblings) and the directive reader
(``engine/cue_directive.py``) are hand-written: held-out batches of published attacks scored
the same before and after them, because patterns learn their authors' words. This reader is a
different kind of evidence: a logistic model of "this sentence instructs the model", trained
(``benchmarks/eval/train_cue_model.py``, seeded, deterministic) on development data only and
shipped as a generated table of weights (``engine/cue_model_weights.py``).

The features are of the sentence, not of an author: its words and word pairs lower-cased with
numbers, paths, addresses, URLs, code and tool-like identifiers replaced by placeholders; its
first words (the imperative); groups of function words (second person, modal verbs,
before/after/instead/always/never, the user, the conversation, other tools, files, secrets,
sending, hiding, the model itself); and its shape (tags, bold, words
in capitals, a ``LABEL:`` opening, brackets). A sentence whose score passes the threshold
raises ``cue.instruction.reads-as-instruction`` at **info** (shown, never blocking, never
setting a tool apart: at attention it set apart 6.7 % more of the scored honest new tools, over
the 5 % budget; benchmarks/README.md): the cue names the sentence and the two or three features
that weighed most, so an operator sees why.

Linear on any text: sentences are cut by one pass of a character class (a long one read in
windows), each normalised by bounded patterns and scored by dictionary look-ups.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from mcp_review.engine.cue_model_weights import BIAS, THRESHOLD, WEIGHTS
from mcp_review.engine.cue_sentences import windows
from mcp_review.engine.rules.cue_families import INSTRUCTION_READS_AS_INSTRUCTION

__all__ = ["explain", "features", "model_cues", "score", "sentences"]

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


def _normalise(s: str) -> tuple[list[str], list[str]]:
    """(tokens, shape features) of one sentence: placeholders for literals, then lower case."""
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
        s = _CODE.sub(" _code_ ", s)
    if "/" in s or "\\" in s or "~" in s or "." in s:
        s = _PATH.sub(_path_placeholder, s)
    if "_" in s or not s.islower():
        s = _IDENT.sub(" _ident_ ", s)
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


def features(sentence: str) -> list[str]:
    """The features of one sentence (distinct, in first-seen order)."""
    toks, shape = _normalise(sentence)
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
    return list(out)


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
}


def _shown(f: str) -> str:
    if f in _SHOWN:
        return _SHOWN[f]
    kind, _, body = f.partition(":")
    body = body.replace("_secretpath_", "<secret path>").replace("_path_", "<path>")
    body = body.replace("_url_", "<url>").replace("_email_", "<address>")
    body = (
        body.replace("_code_", "<code>").replace("_ident_", "<name>").replace("_num_", "<number>")
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


def model_cues(text: str, add: Callable[[str, str, str], None]) -> None:
    """The sentence of ``text`` the model reads most as an instruction, if it passes the
    threshold, given to ``add(rule, evidence, key)`` (the cue reader's callback).

    Nothing is added to a text that already carries a blocking cue (its change is blocked and
    stands alone already), as the directive reader does."""
    held = getattr(getattr(add, "__self__", None), "out", None)
    if isinstance(held, list) and any(getattr(c, "blocking", False) for c in held):
        return
    best: tuple[float, str, list[str]] | None = None
    for _, s in sentences(text):
        f = features(s)
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
