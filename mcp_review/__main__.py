"""Allow `python -m mcp_review`."""

from mcp_review.cli import main

raise SystemExit(main())
