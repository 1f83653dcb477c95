"""One module per headless command: each exposes ``register(subparsers)`` and ``run(args)``.

Modules import heavy dependencies (mcp, textual) inside ``run`` only, so ``classify``, ``gate``
and ``status`` start fast.
"""
