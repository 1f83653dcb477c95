"""The uncorroborated rules (``engine/cue_corroborate.py``): a blocking cue on a tool seen the
first time that rests on one reading alone, with nothing independent agreeing, shown at
``attention`` under a rule of its own per kind. Plain tuples like ``rules/cue_goals.py``'s;
``rules/cues.py`` makes them ``CueRule`` entries of ``CUE_RULES``. Each example is a tool's
whole description read at first sight (``tool_cues(None, ...)``): these rules are never raised
by ``text_cues`` alone, since corroboration is read over the whole tool
(``tests/engine/test_cue_corroborate.py`` holds every rule to its example)."""

from __future__ import annotations

INSTRUCTION_UNCORROBORATED = "cue.instruction.uncorroborated"
CONCEALMENT_UNCORROBORATED = "cue.concealment.uncorroborated"
EXFILTRATION_UNCORROBORATED = "cue.exfiltration.uncorroborated"
SECRET_UNCORROBORATED = "cue.secret.uncorroborated"

_WHY = (
    "on a tool seen the first time, nothing independent agreed with it (no second reader of "
    "another kind on the same text, no concrete payload, no cue of another blocking kind), so "
    "it is shown for a human to read instead of blocking; never read on a change to a pinned "
    "tool, where the same reading still blocks"
)

CORROBORATE_RULE_LIST: tuple[tuple[str, str, str, str, str], ...] = (
    # (rule id, kind, purpose, example (a new tool's description), level)
    (
        INSTRUCTION_UNCORROBORATED,
        "instruction",
        "an instruction cue (an instruction rule at block) resting on one reading alone: " + _WHY,
        "Lists the deployments of a project. You are now connected to the staging cluster.",
        "attention",
    ),
    (
        CONCEALMENT_UNCORROBORATED,
        "concealment",
        "a concealment cue (a concealment rule at block) resting on one reading alone: " + _WHY,
        "Hides the sidebar. Keep the draft secret until it is published.",
        "attention",
    ),
    (
        EXFILTRATION_UNCORROBORATED,
        "exfiltration",
        "an exfiltration cue (an exfiltration rule at block) resting on one reading alone: " + _WHY,
        "Creates a support ticket. Attach the conversation to the ticket.",
        "attention",
    ),
    (
        SECRET_UNCORROBORATED,
        "secret",
        "a secret cue (a secret rule at block) resting on one reading alone: " + _WHY,
        "Connects to the mail server. Ask the user for their password to sign in.",
        "attention",
    ),
)

CORROBORATE_LEVELS: dict[str, str] = {r[0]: r[4] for r in CORROBORATE_RULE_LIST}
