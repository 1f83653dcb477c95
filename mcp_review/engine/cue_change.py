"""Cues only a change can raise: evidence read on the sentences a new text *adds*.

A rug pull plants text into a description the operator approved; an honest release rewrites
it. Honest rewrites of real servers almost never add a sentence that speaks to the model about
something outside the tool (benchmarks/README.md, the change pass), while honest *new*
tools do speak to the model in all sorts of ways. So the two readers here look only at the
sentences a change adds (a sentence of the new text found in no text of the pinned definition),
never at first sight, and raise **attention** (the tool stands alone for a human to read), never
a block (docs/cues.md, "Levels"):

- ``cue.instruction.change-adds-off-topic`` (:func:`off_topic`): an added sentence whose
  topic (a command's object: its opening verb is no evidence) shares no content word with the
  tool (every text of the pinned definition, the tool's name and
  its parameter names, the old and the new) nor with the names of its server's tools, and
  speaks to someone: it addresses a reader (you, please, I, my, we, a question), opens with a
  command (a verb in its base form, then its object), or is written in another language than
  the tool's English (no English function word or ending, no capitals), or mostly in a script
  written without spaces (Han, kana, Thai), whose words cannot be counted, that none of the
  tool's texts and names uses. A sentence that names
  an identifier (``snake_case``, ``camelCase``, a code span) speaks of the interface, and one
  opening in the third person, naming tools or commanding "this" speaks of the tool itself.
- ``cue.instruction.change-adds-instruction`` (:func:`added_instruction`): the learned cue
  (``cue.instruction.reads-as-instruction``, engine/cue_model.py, info wherever it is read)
  introduced by the change, on a sentence the change added: the same evidence, at attention.

``engine/cues.py``'s ``tool_cues`` calls :func:`change_cues` once, on a change only. Linear:
each text is cut once into sentences by one pattern, each pinned sentence kept in a set, each
added sentence's words stemmed once; the server's tool names are read only for a sentence that
passed every other test.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from mcp_review.engine.cue_change_whole import unlike_pinned
from mcp_review.engine.cue_model import (
    Job,
    _third_person,
    explain,
    job_of,
    sentence_score,
    sentences,
)
from mcp_review.engine.cue_sentences import _snip
from mcp_review.engine.cue_types import Cue, KnownNames
from mcp_review.engine.rules.cue_change import (
    CHANGE_ADDS_INSTRUCTION,
    CHANGE_ADDS_OFF_TOPIC,
    CHANGE_ADDS_UNLIKE_TEXT,
)
from mcp_review.engine.rules.cue_families import INSTRUCTION_READS_AS_INSTRUCTION
from mcp_review.engine.rules.cues import CueKind
from mcp_review.engine.rules.render import common_length

__all__ = ["added_sentences", "change_cues", "off_topic", "read_added", "stem"]

_MAX_TEXT = 200_000
"""Characters of one text read for added sentences (past it the rest is not read here)."""
_MAX_WORDS = 60
"""Words of one sentence read."""
_MIN_CONTENT = 3
"""Content words an added sentence needs before "none of them is the tool's" means something."""

_UNSEGMENTED = (
    ("Han", re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")),
    ("Japanese kana", re.compile(r"[\u3040-\u30ff]")),
    ("Thai", re.compile(r"[\u0e00-\u0e7f]")),
)
"""Scripts written without spaces between words: a sentence in one is one "word" to
:data:`_WORD`, so the content-word count cannot read it; its letters are counted instead."""
_MIN_UNSEGMENTED = 8
"""Letters of such a script an added sentence needs (a short sentence; a name or a unit in
another script is shorter)."""

_CONTINUED = re.compile(r"\n[ \t>*(\"'\u201c-]{0,12}(?=[a-z])")
"""A line break before a lower-case word: a wrapped line continues its sentence."""
_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")
_QUOTED = re.compile(
    r"\"[^\"\n]{0,200}\"|\u201c[^\u201d\n]{0,200}\u201d|(?<!\w)'[^'\n]{0,200}'(?!\w)"
)
"""A quoted span: an example of an input or an output, not the sentence's own words."""
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_IDENT = re.compile(
    r"`[^`\n]{1,200}`|\b[A-Za-z][A-Za-z0-9]{0,40}(?:_[A-Za-z0-9]{1,40}){1,8}\b|"
    r"\b[a-z]{1,40}(?:[A-Z][a-z0-9]{0,40}){1,8}\b|\b[A-Za-z]{1,40}:[A-Za-z]{1,40}\b"
)

# Function words: never content, never evidence of a topic.
_FUNCTION = frozenset(
    """a an the and or but if then else of to in on at by for with from as is are was were be
    been being this that these those it its it's they them their he she his her him not no nor
    do does did done doing can could should would will shall may might must have has had having
    any all each every some such than too very also only just more most less other others into
    onto over under about after before when where which who whom whose what why how there here
    up down out off so yet both either neither via per etc one two three new true false null
    instead without within also always never usually often whether
    you your yours yourself i me my mine we us our ours please let lets get gets got set sets use
    used using uses return returns returned make makes made need needs like well way ways""".split()
)
# Words every tool text uses of itself: neither content nor topic.
_TOOL_WORDS = frozenset(
    """tool tools function value values data list type types string strings number numbers
    optional default example examples item items result results field fields parameter
    parameters argument arguments input inputs output outputs option options name names
    object objects call calls information info specific given based following note operation
    operations request requests action actions""".split()
)
_ENGLISH = frozenset(
    """the of to and is are for with that this from by be it on in or you your not will can if
    as at was has have which when all its into than then there their these those what how
    should must may""".split()
)
"""English function words. ``a``, ``an``, ``do`` and ``i`` are left out: each is a function
word of other Latin-script languages too (Irish, Scottish Gaelic, Portuguese, Catalan, Polish)."""
_ADDRESS = frozenset("you your yours yourself please me my mine we us our ours".split())
"""Words that address a reader (and ``I``, written in capitals; words read whole, never the
parts of a name: "MySQL" is no "my")."""
_READER = frozenset("ai assistant assistants bot bots chatbot llm llms agent agents model".split())
"""Words naming the model that reads the text (words read whole: "SecurityAgent" is cut into
"security" and "agent" by ``_words`` but read whole here, so only a word of its own counts)."""
_LABEL = 40
"""Characters of an opening label ("Note: ...", "NOTA DEL SISTEMA: ...")."""
_LONG = 8
"""Words of a sentence long enough for a share of English endings to mean something."""
_GENERIC = frozenset(("a", "an", "any", "each", "every"))
"""Words before a noun that make it any one of its kind."""
_RAW = re.compile(r"[^\W\d_]+")
_ABOUT_TOOLS = frozenset("tool tools mcp server servers function functions endpoint".split())
"""A sentence naming a tool or a server speaks of the tools' use: not off the topic."""
_BACK = frozenset("this it these them".split())
"""A command whose object is ``this`` or ``it`` ("Omit this to ...") speaks of the thing the
text describes."""
_ENGLISH_END = ("ing", "ed", "ly", "tion", "tions", "ies", "ment", "ness", "able", "ity", "ful")
"""English inflections and derivations: a word ending so is read as English."""
_DETERMINERS = frozenset(
    """the a an my your our their his her its this that these those all every each some any
    me us them it how what why who which where when one""".split()
)
"""Words that follow a command's verb ("Write a", "Explain how", "Update my")."""
_DO_NOT = frozenset(("don't", "don\u2019t", "never"))
"""A negative command's opening ("Don't forget to ...")."""
_NOT_BASE = ("s", "ed", "ing", "ly", "al", "ous", "ive", "ful", "ic", "ent", "ant", "ary", "ory")
"""Endings of a word that is not a verb's base form (a third person, a participle, an
adjective or an adverb)."""

_SUFFIXES = (
    "ations",
    "ation",
    "ments",
    "ment",
    "ings",
    "ing",
    "ions",
    "ion",
    "ies",
    "ied",
    "ers",
    "er",
    "ed",
    "es",
    "ly",
    "s",
)

_REPLACE = {"ies": "y", "ied": "y", "ations": "ate", "ation": "ate"}


def stem(word: str) -> str:
    """A light stem of a lower-case word: one inflection or derivation suffix off (keeping three
    letters), a final ``e`` and a doubled last consonant dropped ("creates", "created",
    "creation", "create" -> "creat"; "queries" -> "query"; "running" -> "run")."""
    w = word
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)] + _REPLACE.get(suf, "")
            break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]
    return w


def _words(text: str) -> list[str]:
    """The words of ``text``, lower case, camelCase and snake_case cut into their parts."""
    return [w.lower() for w in _WORD.findall(_CAMEL.sub(" ", text))]


def _stems(words: Iterable[str]) -> set[str]:
    return {stem(w) for w in words if len(w) >= 3 and w not in _FUNCTION and w not in _TOOL_WORDS}


def _cut(text: str) -> Iterator[str]:
    """The sentences of ``text``, white space collapsed; a wrapped line joins its sentence."""
    for s in _SPLIT.split(_CONTINUED.sub(" ", text[:_MAX_TEXT])):
        s = " ".join(s.split())
        if s:
            yield s


def _added_span(old: str, new: str) -> str:
    """What ``new`` adds to ``old``: the text between their common beginning and common end,
    widened to whole words (an insertion comes back whole, wherever it was put)."""
    n = min(len(old), len(new))
    p = common_length(lambda k: old[:k] == new[:k], n)  # C-speed slices, not a Python loop
    q = common_length(lambda k: old[len(old) - k :] == new[len(new) - k :], n - p)
    while 0 < p < len(new) and not (new[p - 1].isspace() or new[p].isspace()):
        p -= 1  # the change began inside a word: take the word whole
    end = len(new) - q
    while 0 < end < len(new) and not (new[end - 1].isspace() or new[end].isspace()):
        end += 1
    return new[p:end]


def added_sentences(
    old_map: Mapping[str, list[str]], new_texts: Iterable[tuple[str, str]]
) -> Iterator[tuple[str, str]]:
    """(pointer, sentence) for each sentence a change adds: of the span a new text adds to the
    pinned text at its pointer (the whole text where none was pinned there), each sentence
    found in no text of ``old_map`` (pointer -> the pinned texts there)."""
    pinned: set[str] | None = None
    olds = {o for texts in old_map.values() for o in texts}
    for ptr, text in new_texts:
        if text in olds:
            continue
        if pinned is None:
            pinned = {s for o in olds for s in _cut(o)}
        before = old_map.get(ptr)
        span = _added_span(before[0][:_MAX_TEXT], text[:_MAX_TEXT]) if before else text
        for s in _cut(span):
            if s not in pinned:
                yield ptr, s


def _commands(words: list[str]) -> bool:
    """Opens with a command: a verb in its base form (no third-person ``s``, no participle or
    adjective ending, not a function word) followed by its object's determiner or a question
    word ("Write a ...", "Explain how ...", "Update my ...")."""
    if len(words) < 2:
        return False
    if words[0] in _DO_NOT and len(words) > 2 and words[1] not in _FUNCTION:
        return True
    w = words[0]
    if len(w) < 3 or w in _FUNCTION or w in _TOOL_WORDS or w.endswith(_NOT_BASE):
        return False
    return words[1] in _DETERMINERS


def _verb(words: list[str]) -> str:
    """The verb a command opens with ("Write a ...", "Please write a ..."), else ""."""
    if words[0] == "please" and len(words) > 1:
        return words[1]
    return words[0] if _commands(words) else ""


def _speaks(sentence: str, words: list[str], english_tool: bool) -> str:
    """How a sentence speaks to someone, or "" when it does not."""
    raw = _RAW.findall(sentence)
    low = [w.lower() for w in raw]
    if not _ADDRESS.isdisjoint(low) or "I" in raw or sentence.rstrip().endswith("?"):
        return "addresses the reader"
    if _commands(words):
        return "opens with a command"
    if raw and raw[0][0].isupper() and _names_reader(low):
        return "speaks of the model reading it"
    head, colon, rest = sentence.partition(":")
    labelled = colon and len(head) <= _LABEL and len(raw) >= _LONG
    body = _RAW.findall(rest) if labelled else raw
    if english_tool and len(words) >= 4 and _foreign(body, low):
        return "written in another language than the tool"
    return ""


def _names_reader(low: list[str]) -> bool:
    """Names the model reading the text ("AI agents ...", "the bot"), not a generic caller ("an
    agent can poll ...": any agent, a sentence on how the tool is used)."""
    return any(w in _READER and (i == 0 or low[i - 1] not in _GENERIC) for i, w in enumerate(low))


def _few_english_endings(low: list[str]) -> bool:
    """No word ending as English words end; in a long sentence (``_LONG`` words), fewer than
    one in three (a short English sentence can lack function words, a long one cannot)."""
    n = sum(w.endswith(_ENGLISH_END) for w in low)
    return n == 0 or (len(low) >= _LONG and 3 * n < len(low))


def _foreign(body: list[str], low: list[str]) -> bool:
    """No English function word, no word every tool text uses past an opening label, few words ending as English
    words end (French and Spanish share "-tion", "-ment"), no word in capitals
    (an acronym or a label) past an opening label ("NOTA DEL SISTEMA: ..."): read as another
    language than English. ``body``: the words after an opening label, ``low``: every word."""
    return (
        _ENGLISH.isdisjoint(low)
        and _TOOL_WORDS.isdisjoint(w.lower() for w in body)
        and _few_english_endings(low)
        and not any(len(w) > 2 and w.isupper() for w in body)
    )


def _aside(words: list[str]) -> bool:
    """A sentence that speaks of the tool itself: opens in the third person (the tool saying
    what it does: "Creates ...", "Returns ..."), names tools or servers, or is a command on
    ``this``/``it`` (the thing the text describes)."""
    return (
        (words[0].isalpha() and _third_person(words[0]))
        or not _ABOUT_TOOLS.isdisjoint(words)
        or (len(words) > 1 and words[1] in _BACK)
    )


def _unsegmented_script(sentence: str) -> str:
    """The script written without spaces (:data:`_UNSEGMENTED`) most of ``sentence``'s letters
    are in, when at least :data:`_MIN_UNSEGMENTED` are; else ""."""
    if sentence.isascii():
        return ""
    letters = sum(c.isalpha() for c in sentence)
    for script, pattern in _UNSEGMENTED:
        n = len(pattern.findall(sentence))
        if n >= _MIN_UNSEGMENTED and 2 * n > letters:
            return script
    return ""


def _uses_script(script: str, texts: Iterable[str]) -> bool:
    pattern = dict(_UNSEGMENTED)[script]
    return any(pattern.search(t[:_MAX_TEXT]) is not None for t in texts)


def _server_stems(names: KnownNames, server: str) -> set[str]:
    out: set[str] = set()
    if server:
        for tool, servers in names.tools.items():
            if server in servers:
                out |= _stems(_words(tool))
    return out


def off_topic(
    old_map: Mapping[str, list[str]],
    added: list[tuple[str, str]],
    own_names: Iterable[str],
    names: KnownNames,
    server: str,
) -> list[Cue]:
    """``cue.instruction.change-adds-off-topic`` for the added sentences (see the module)."""
    vocab: set[str] | None = None
    english = False
    server_vocab: set[str] | None = None
    out: list[Cue] = []
    seen: set[str] = set()
    for ptr, s in added:
        own_words = _QUOTED.sub(" ", s)
        if _IDENT.search(own_words):
            continue  # names an identifier: a sentence about the interface
        words = _words(own_words)[:_MAX_WORDS]
        if not words:
            continue
        script = _unsegmented_script(own_words)
        if script and not _uses_script(script, [*own_names, *old_map, *_olds(old_map)]):
            # Its words cannot be counted, nor shared with the tool's: the tool never wrote
            # in this script, and a whole sentence of it is another language than the tool's.
            how = f"written in {script} script, which the tool's texts never use"
            out += _off_topic_cue(ptr, s, how, seen)
            continue
        content = _stems(_words(s)[:_MAX_WORDS])
        if len(content) < _MIN_CONTENT or _aside(words):
            continue
        if vocab is None:
            vocab = _stems(_words(" ".join(own_names)))
            old_words: list[str] = []
            for p, texts in old_map.items():
                old_words.extend(_words(p))
                for t in texts:
                    old_words.extend(_words(t[:_MAX_TEXT]))
            vocab |= _stems(old_words)
            english = not _ENGLISH.isdisjoint(old_words)
        how = _speaks(own_words, words, english)
        if not how:
            continue
        topic = content - {stem(_verb(words))}  # a command's topic is its object
        if not topic.isdisjoint(vocab):
            continue
        if server_vocab is None:
            server_vocab = _server_stems(names, server)
        if not topic.isdisjoint(server_vocab):
            continue
        out += _off_topic_cue(
            ptr, s, f"its topic shares no word with the tool or its server; {how}", seen
        )
    return out


def _olds(old_map: Mapping[str, list[str]]) -> Iterator[str]:
    for texts in old_map.values():
        yield from texts


def _off_topic_cue(ptr: str, s: str, why: str, seen: set[str]) -> list[Cue]:
    key = f"{CHANGE_ADDS_OFF_TOPIC}:{s.lower()[:60]}"
    if key in seen:
        return []
    seen.add(key)
    shown = s if len(s) <= 110 else s[:109] + "\u2026"
    text = _snip(f"{shown} [added by this change; {why}]")
    return [Cue(CueKind.INSTRUCTION, text, ptr, CHANGE_ADDS_OFF_TOPIC, key)]


def added_instruction(introduced: Iterable[Cue], added: list[tuple[str, str]]) -> list[Cue]:
    """``cue.instruction.change-adds-instruction`` for each introduced learned cue whose
    sentence is in one the change added (its key holds the sentence's first 60 characters)."""
    at: dict[str, list[str]] = {}
    for ptr, s in added:
        at.setdefault(ptr, []).append(s.lower())
    out: list[Cue] = []
    for c in introduced:
        if c.rule != INSTRUCTION_READS_AS_INSTRUCTION:
            continue
        head = c.key.partition(":")[2]
        if head and any(head in s for s in at.get(c.pointer, ())):
            key = f"{CHANGE_ADDS_INSTRUCTION}:{head}"
            out.append(Cue(c.kind, c.text, c.pointer, CHANGE_ADDS_INSTRUCTION, key, c.span))
    return out


ADDED_THRESHOLD = 4.78
"""The learned model's threshold for a sentence a change adds (its own, below first sight's
``THRESHOLD``: an added sentence is rarer in honest text than a sentence of a new tool).
Chosen on development data only by ``benchmarks/eval/train_cue_model.py --added``: the lowest
threshold flagging at most 1 % of the honest rewrites and 2 % of the honest tools, each scored
by a model trained without its server (benchmarks/README.md, change pass 3)."""


UNLIKE_THRESHOLD = 2.0
"""The learned model's threshold for an added block that one reading of
engine/cue_change_whole.py finds unlike the pinned text (two weak, independent readings
agreeing): the lowest whole log-odds keeping the change stress set's tools the model never
trained on (``honest_dev5/`` to ``honest_dev7/``) under 2 % and the development rewrites
under 1 % (benchmarks/README.md, change pass 3)."""


def _job_first(text: str, own_names: Iterable[str]) -> tuple[Job, str]:
    """The tool's job read from ``text`` (the model's own reader's context) and its first
    sentence, white space collapsed."""
    cut = next(iter(sentences(text)), None)
    first = " ".join(cut[1].split()) if cut else ""
    return job_of(own_names, cut[1] if cut else ""), first


def _first_texts(texts: list[tuple[str, str]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for ptr, t in texts:
        out.setdefault(ptr, t)
    return out


Best = tuple[float, str, list[str]]
"""The learned model's best added sentence at a pointer: (log-odds, sentence, features)."""


def _best_added(
    new_texts: Mapping[str, str], added: list[tuple[str, str]], own_names: Iterable[str]
) -> dict[str, tuple[list[str], Best]]:
    """Per pointer: its added sentences and the one the learned model reads most as an
    instruction, read with the tool's job (its names and its new text's first sentence) as the
    model's own reader reads it."""
    at: dict[str, list[str]] = {}
    for ptr, s in added:
        at.setdefault(ptr, []).append(s)
    own = frozenset(own_names)
    out: dict[str, tuple[list[str], Best]] = {}
    for ptr, ss in at.items():
        job, first = _job_first(new_texts.get(ptr, ""), own)
        best: Best | None = None
        for s in ss:
            for _, piece in sentences(s):
                z, f = sentence_score(piece, job, " ".join(piece.split()) == first)
                if best is None or z > best[0]:
                    best = (z, piece, f)
        if best is not None:
            out[ptr] = (ss, best)
    return out


def _learned_cue(ptr: str, best: Best, rule: str, threshold: float, tail: str, cap: int) -> Cue:
    z, piece, _ = best
    sentence = " ".join(piece.split())
    shown = sentence if len(sentence) <= cap else sentence[: cap - 1] + "\u2026"
    evidence = f"{shown} [added by this change; reads as an instruction, {z:.1f} over {threshold}"
    return Cue(
        CueKind.INSTRUCTION,
        _snip(f"{evidence} {tail}]"),
        ptr,
        rule,
        f"{rule}:{sentence.lower()[:60]}",
    )


def added_learned(
    old_map: Mapping[str, list[str]],
    new_texts: Mapping[str, str],
    added: list[tuple[str, str]],
    kw: Mapping[str, Any],
) -> list[Cue]:
    """Per pointer, on its best added sentence: ``cue.instruction.change-adds-instruction``
    over ``ADDED_THRESHOLD``, else ``cue.instruction.change-adds-unlike-text`` over
    ``UNLIKE_THRESHOLD`` when the added block is unlike the pinned text
    (engine/cue_change_whole.py)."""
    own = kw.get("own_names", ())
    names = kw.get("names")
    known = names if isinstance(names, KnownNames) else KnownNames()
    out: list[Cue] = []
    for ptr, (ss, best) in _best_added(new_texts, added, own).items():
        if best[0] > ADDED_THRESHOLD:
            tail = "(the threshold for added sentences): " + ", ".join(explain(best[2]))
            out.append(_learned_cue(ptr, best, CHANGE_ADDS_INSTRUCTION, ADDED_THRESHOLD, tail, 110))
        elif best[0] > UNLIKE_THRESHOLD:
            how = unlike_pinned(old_map, ptr, ss, known, own)
            if how:
                tail = "unlike the pinned text: " + "; ".join(how)
                out.append(
                    _learned_cue(ptr, best, CHANGE_ADDS_UNLIKE_TEXT, UNLIKE_THRESHOLD, tail, 50)
                )
    return out


def change_cues(
    old_map: Mapping[str, list[str]],
    new_texts: Iterable[tuple[str, str]],
    introduced: list[Cue],
    kw: Mapping[str, Any],
) -> list[Cue]:
    """``introduced`` (the cues ``tool_cues`` found on a change) and the cues the change raises
    on the sentences it adds. ``old_map``: pointer -> the pinned definition's texts there;
    ``new_texts``: (pointer, text) of the new definition; ``kw``: the cue reader's context
    (``names``, ``own_server``, ``own_names``)."""
    texts = list(new_texts)
    added = list(added_sentences(old_map, texts))
    if not added:
        return introduced
    return read_added(old_map, texts, added, introduced, kw)


def read_added(
    old_map: Mapping[str, list[str]],
    texts: list[tuple[str, str]],
    added: list[tuple[str, str]],
    introduced: list[Cue],
    kw: Mapping[str, Any],
) -> list[Cue]:
    """:func:`change_cues` on the sentences ``added`` the change adds (not empty), for a
    reader that needs them too (engine/cue_change_claims.py) and cuts them once."""
    names = kw.get("names")
    raised = added_instruction(introduced, added)
    # As the learned reader itself: nothing more on a text whose change is blocked already
    # (it stands alone, and its blocking cues name the evidence).
    done = {c.pointer for c in raised} | {c.pointer for c in introduced if c.blocking}
    raised += [
        c for c in added_learned(old_map, _first_texts(texts), added, kw) if c.pointer not in done
    ]
    # The learned cue raised to attention replaces its info copy: the operator reads the
    # sentence once, at the level it has on this change.
    again = {(c.pointer, c.key.partition(":")[2]) for c in raised}
    kept = [
        c
        for c in introduced
        if c.rule != INSTRUCTION_READS_AS_INSTRUCTION
        or (c.pointer, c.key.partition(":")[2]) not in again
    ]
    return [
        *kept,
        *raised,
        *off_topic(
            old_map,
            added,
            kw.get("own_names", ()),
            names if isinstance(names, KnownNames) else KnownNames(),
            str(kw.get("own_server", "")),
        ),
    ]
