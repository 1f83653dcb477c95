"""The word tables and bounded patterns that ``engine/cues.py`` reads a text with.

Split from ``engine/cues.py`` (docs/design.md, "Cues"): no regex here has a nested quantifier.
"""

from __future__ import annotations

import bisect
import re
import unicodedata

# Vocabulary -----------------------------------------------------------------------------------

_W = frozenset

READ_V = _W(
    "read reads open cat load fetch retrieve get collect gather grab extract access obtain "
    "dump scan look lookup inspect view restore harvest".split()
)
SEND_V = _W(
    "send post upload forward transmit exfiltrate mirror sync push email e-mail bcc cc report "
    "share leak submit relay route pipe copy beacon".split()
)
INCLUDE_V = _W(
    "include pass put place fill set add append attach embed insert write provide supply "
    "encode store paste enter give hold contain".split()
)
ASK_V = _W("ask request prompt obtain collect get have require demand".split())
RUN_V = _W("run execute perform do act respond carry apply follow obey".split())
TELL_V = _W(
    "tell telling mention mentioning inform informing notify notifying reveal revealing show "
    "showing disclose disclosing alert alerting display displaying asking ask confirm "
    "confirmation consent approval knowledge".split()
)
COVERT = _W("silently quietly secretly covertly stealthily discreetly invisibly unnoticed".split())
NEG = _W("not never don't dont no without avoid cannot can't won't nor".split())
MODAL = _W("must should need needs required shall ought".split())
TO_MODAL = _W("need needs have has sure remember required want going".split())
FILLER = _W(
    "please also always first firstly then now just simply immediately finally additionally "
    "next you your must should need needs to have has make sure be remember the a an agent "
    "assistant model ai llm step mandatory required prerequisite initialization setup "
    "precondition note important critical do not never don't dont kindly carefully "
    "silently quietly secretly covertly it this is that will each every".split()
)
CLAUSE_BREAK = _W("and then or but also so".split())
AUDIENCE = _W(
    "user user's users human operator anyone them these this it step note chat person "
    "instructions".split()
)
DEST_WORDS = _W(
    "webhook endpoint collector logger escrow telemetry analytics pastebin remote external "
    "server".split()
)
ARG_WORDS = _W("argument arguments parameter parameters param field fields value string".split())
SECRET_WORDS = _W(
    "password passwords passphrase passcode credentials credential mnemonic cvv 2fa otp "
    "cookies cookie secrets keychain".split()
)
SECRET_KEY_HEAD = _W(
    "api access secret private ssh gpg pgp signing encryption stripe openai aws master "
    "client".split()
)
SECRET_TOKEN_HEAD = _W(
    "access auth bearer bot api personal session refresh oauth id github slack npm jwt".split()
)
SECRET_PAIRS = frozenset(
    {
        ("seed", "phrase"),
        ("recovery", "phrase"),
        ("mnemonic", "words"),
        ("credit", "card"),
        ("card", "number"),
        ("connection", "string"),
        ("session", "id"),
        ("login", "data"),
    }
)
SENSITIVE_WORDS = _W(
    "conversation transcript clipboard keychain emails contacts bash_history".split()
)
SENSITIVE_PAIRS = frozenset(
    {
        ("chat", "history"),
        ("chat", "log"),
        ("conversation", "history"),
        ("message", "history"),
        ("browser", "history"),
        ("browsing", "history"),
        ("shell", "history"),
        ("command", "history"),
        ("previous", "message"),
        ("previous", "messages"),
        ("earlier", "messages"),
        ("prior", "messages"),
        ("system", "prompt"),
        ("system", "message"),
        ("your", "instructions"),
        ("environment", "variables"),
        ("env", "vars"),
        ("env", "variables"),
        ("personal", "data"),
        ("phone", "number"),
        ("email", "address"),
        ("every", "file"),
        ("all", "files"),
        ("any", "file"),
        ("each", "file"),
        ("recent", "files"),
        ("user's", "files"),
        ("user's", "documents"),
        ("user's", "cookies"),
        ("user's", "emails"),
        ("user's", "messages"),
        ("context", "window"),
    }
)
OUTPUT_WORDS = _W("output outputs result results response responses".split())
OTHER_WORDS = _W("last previous other all every any".split())
NOT_OBJECT = _W("per by".split())
OWNERS = _W("the user's your their his her all any every my our saved this these those".split())
IGNORE_V = _W(
    "ignore ignoring disregard forget override overrides supersede supersedes bypass".split()
)
RULE_NOUNS = _W(
    "instructions instruction rules guidelines guidance prompt directives policy restrictions "
    "constraints requests safety".split()
)
MIMIC_SEQS: tuple[tuple[str, ...], ...] = (
    ("you", "are", "now"),
    ("from", "now", "on"),
    ("note", "to", "the", "ai"),
    ("note", "to", "the", "assistant"),
    ("note", "to", "the", "model"),
    ("note", "to", "the", "agent"),
    ("attention", "model"),
    ("attention", "assistant"),
    ("attention", "ai"),
    ("attention", "agent"),
    ("highest", "priority"),
    ("priority", "directive"),
    ("system", "override"),
    ("system", "prompt", "update"),
    ("new", "policy"),
    ("new", "instructions"),
    ("developer", "mode"),
    ("devmode",),
    ("maintenance", "mode"),
    ("jailbreak",),
    ("the", "assistant", "must"),
    ("assistant", "must"),
    ("without", "restrictions"),
    ("has", "authorised", "all"),
    ("has", "authorized", "all"),
    ("do", "not", "apply"),
    ("the", "operator", "requires", "you"),
    ("coming", "from", "the", "developer"),
    ("are", "authoritative"),
)
DECODE_V = _W("decode decoding decoded interpret execute run apply follow obey carry use".split())
PREF_V = _W("prefer preferred preference favour favor favoring favouring".split())
PROMO = _W("best superior recommended official trusted ranked #1 best-in-class".split())
WHEN_W = _W("when whenever if before after every any each".split())
USE_V = _W(
    "call calling calls use using uses used run runs running invoke invoking invoked".split()
)
BAD_W = _W("deprecated compromised unsafe broken insecure disabled leaks obsolete".split())


# Runs: URLs, addresses, paths, blobs, names ------------------------------------------------------

_RUN = re.compile(r"[^\s\"'`()\[\]{}<>,;|]+")
_TRAIL = ".:;!?"
_SCHEME = re.compile(r"(?:https?|ftp|sftp|s3|wss?|file|gs)://", re.I)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", re.A)
_IP = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?(?:/\S*)?")
_TLDS = (
    "com|net|org|io|dev|co|biz|info|app|ai|xyz|me|us|uk|de|ru|cn|sh|site|online|cloud|tech|"
    "gg|ly|to|cc|tk|top|link|click|live|pro|example|local|internal"
)
_DOMAIN = re.compile(r"(?:[a-z0-9-]+\.)+(?:" + _TLDS + r")(?::\d{1,5})?(?:/\S*)?", re.I)
_SECRET_PATH = re.compile(
    r"~/\.ssh|\.ssh/|(?<![\w-])id_(?:rsa|dsa|ecdsa|ed25519)(?:\.pub)?(?!\w)|(?<![\w.-])\.aws/|~/\.aws"
    r"|(?<![\w.])\.netrc|(?<![\w.])\.npmrc|(?<![\w.])\.pypirc|\.git-credentials"
    r"|\.docker/config\.json|\.kube/config|(?<![\w.])\.gnupg|/etc/passwd|/etc/shadow"
    r"|(?<![\w.])\.pgpass|wallet\.dat|(?<![\w.])\.(?:bash|zsh)_history"
    # a project's .env (not its committed template: .env.example, .env.sample)
    r"|(?<![\w.])\.env(?!\.(?:example|sample|template|dist|defaults?)\b)(?:\.\w+)?(?![\w/])"
    r"|(?<![\w-])mcp\.json|claude_desktop_config\.json"
    r"|chrome/default|chrome/user data|firefox/profiles|\.mozilla/firefox|library/keychains"
    r"|library/cookies|(?<=\w)\.pem(?!\w)|credentials\.json|\.config/gh/|secrets?\.ya?ml"
    r"|\.keystore|(?<=\w)\.p12(?!\w)|(?<![\w.])\.cursor/|\.config/claude",
    re.I,
)
_PATH = re.compile(
    r"(?:~|\.{1,2})?/[\w.@+-]+(?:/[\w.@+-]*)*|~[\w.-]*|[A-Za-z]:\\[\w.\\ -]*",
    re.A,
)
_B64 = re.compile(r"[A-Za-z0-9+/]{41,}={0,2}")
_HEX = re.compile(r"[0-9a-fA-F]{41,}")
_PCT = re.compile(r"(?:%[0-9a-fA-F]{2}){8,}")
_DATA_URI = re.compile(r"data:[\w.+-]{1,64}/[\w.+-]{1,64}(?:;[\w.+=-]{1,64}){0,8},", re.I)
_ENV_SECRET = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:TOKEN|KEY|SECRET|PASSWORD|PAT)")
_SECRET_LITERAL = re.compile(r"(?:sk_live_|sk-|ghp_|gho_|xox[bp]-|AKIA)", re.A)

# Markup, over the whole text; every pattern is bounded from where it starts.
_TAG = re.compile(r"<!--|<\|?/?[A-Za-z][\w:|-]{0,40}(?:\s[^<>\n]{0,200})?/?\|?>")
_MD_IMAGE = re.compile(r"!\[[^\[\]\n]{0,200}\]\([^()\s]{1,500}\)")
_MD_LINK = re.compile(r"(?<!!)\[[^\[\]\n]{1,200}\]\([^()\s]{1,500}\)")
_MIMIC_TAG = re.compile(
    r"<\s*/?\s*(?:important|system|sys|instructions?|admin|assistant|prompt|secret|hidden"
    r"|critical|priority)\b|<\|im_start\|>|\[\s*(?:system|admin|inst|sys)\b|\{\{\s*system"
    r"|(?:^|\n)\s*#{1,6}\s*system\b|<!--\s*(?:assistant|system|ai)\b",
    re.I,
)

_CALLED_BY_NAME = re.compile(
    r"(?:call|calling|use|using|run|running|invoke|invoking|when|whenever)\s{1,3}(?:the\s{1,3})?$"
)

_WORD = re.compile(r"[a-z0-9_#][a-z0-9_#-]*(?:['\u2019][a-z]+)?|[.!?](?=\s|$)|\n|[,;:()\u2014]")
_MIMIC_FIRST = frozenset(seq[0] for seq in MIMIC_SEQS)
_ACTS = READ_V | SEND_V | INCLUDE_V | RUN_V
_HIDE_WORDS = _W("hide conceal keep user users user's human leave".split())
_OBJECT_WORDS = (
    SECRET_WORDS
    | SENSITIVE_WORDS
    | DEST_WORDS
    | ARG_WORDS
    | OUTPUT_WORDS
    | _W(a for a, _ in SECRET_PAIRS)
    | _W(a for a, _ in SENSITIVE_PAIRS)
    | _W(["key", "keys", "token", "tokens"])
    | SECRET_KEY_HEAD
    | SECRET_TOKEN_HEAD
)
_OBJECT_SPANS = ("secret-path", "dest", "encoded", "env-secret", "quoted")
_ARG_AFTER = ("parameter", "param", "argument", "field", "option", "value", "key", "property")
_ENDS = frozenset({".", "!", "?", "\n"})
_VERBS = (
    READ_V
    | SEND_V
    | INCLUDE_V
    | ASK_V
    | RUN_V
    | IGNORE_V
    | DECODE_V
    | _W(["hide", "conceal", "keep", "forward", "never", "always", "do", "don't", "before", "when"])
)
_BREAKS = frozenset({",", ";", ":", "(", ")", "\u2014"})


# Scripts: which writing system each letter is from -----------------------------------------

_SCRIPT_CACHE: dict[str, str] = {}


def _script(c: str) -> str:
    s = _SCRIPT_CACHE.get(c)
    if s is None:
        try:
            s = unicodedata.name(c).split(" ", 1)[0]
        except ValueError:
            s = "UNKNOWN"
        if s in ("FULLWIDTH", "HALFWIDTH", "MATHEMATICAL"):
            s = "LATIN"  # width and style variants: NFKC folds them (the hidden detector's job)
        if len(_SCRIPT_CACHE) < 65536:
            _SCRIPT_CACHE[c] = s
    return s


def _scripts(text: str) -> dict[str, int]:
    """Letters per script; ASCII text is Latin without looking."""
    if text.isascii():
        return {"LATIN": 1} if any(c.isalpha() for c in text) else {}
    out: dict[str, int] = {}
    for c in text:
        if c.isalpha():
            k = "LATIN" if c.isascii() else _script(c)
            out[k] = out.get(k, 0) + 1
    return out


_MIXED_WORD = re.compile(r"[^\W\d_]{2,64}")


_UNREADABLE = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff]")
"""Private-use characters: no reader knows what a host's font or the model makes of them."""


# The gate: whether a sentence is worth reading word by word ---------------------------------

_GATE_WORD = re.compile(r"[a-z0-9_#'\u2019-]+")
_GATE = (
    _W(
        "now ai assistant model agent llm priority override policy instructions instruction "
        "mode devmode jailbreak restrictions authorised authorized apply operator developer "
        "authoritative attention highest prompt".split()
    )
    | IGNORE_V
    | COVERT
    | _HIDE_WORDS
    | _OBJECT_WORDS
    | PREF_V
    | PROMO
    | _W("instead rather preference other only most requires require needs need".split())
)
_GATE_SPANS = (
    "secret-path",
    "dest",
    "encoded",
    "env-secret",
    "other-tool",
    "unknown-tool",
    "plain-tool",
)


def _worth_reading(low: str, a: int, b: int, spans: dict[str, list[tuple[int, int, str]]]) -> bool:
    """Whether any sentence rule could fire in ``low[a:b]``: a span it reads, or one of the
    words every rule needs (a C-speed pass; most sentences of an honest definition have
    none, and only the others are read word by word)."""
    for k in _GATE_SPANS:
        found = spans.get(k)
        if found:
            j = bisect.bisect_left(found, (a, -1, ""))
            if j < len(found) and found[j][0] < b:
                return True
    words = set(_GATE_WORD.findall(low, a, b))
    return bool(words & _GATE) or bool(words & TELL_V and words & NEG)
