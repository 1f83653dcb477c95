"""Rules judged outside the schema walker and the registry (``catalog.RULES``): their ids, each
written once here, so a consumer names them through these constants, never as a literal
(tests/repo/test_rule_ids_in_rules.py). Their message templates are registered where they are
judged (``render.OUTSIDE_TEMPLATES``)."""

from __future__ import annotations

HOST_REGRESSION = "host-regression"
"""A target host refuses the live definition where it accepted the approved one
(engine/hosts.py)."""
HOST_DEGRADE = "host-degrade"
"""A target host drops, degrades or cuts part of the live definition (engine/hosts.py)."""

HOST_RULES = frozenset({HOST_REGRESSION, HOST_DEGRADE})
"""The changes a target host makes of a change: one kind per host rule (engine/kinds.py), not
the operator's to re-class or waive (engine/rulesconfig.py)."""

OUTSIDE_RULES = HOST_RULES
"""Every rule id judged outside the registry."""
