"""`mcp-review [review] [--config FILE] [--pins FILE]`: open the review app (Textual, imported lazily)."""

from __future__ import annotations

import argparse

from mcp_review.engine import exitcodes
from mcp_review.services.inputs import (
    add_calls_option,
    add_candidate_option,
    add_config_args,
    add_pins_option,
)


def register(p: argparse.ArgumentParser) -> None:
    add_config_args(p)
    add_candidate_option(p)
    add_pins_option(p)
    p.add_argument(
        "--snapshot",
        metavar="FILE",
        help="review a saved snapshot (`mcp-review snapshot`) instead of fetching "
        "(the config is still discovered for calls and policy tiers)",
    )
    add_calls_option(p)
    p.add_argument(
        "--theme", default=None, help="Textual theme, e.g. textual-dark, textual-light, nord"
    )


def run(args: argparse.Namespace) -> int:
    from mcp_review.services.inputs import resolve

    # Config, call logs and the pin file are read before the UI opens, so an input error is
    # reported on stderr with exit code 2; a call log that does not exist yet is a note.
    inp = resolve(args)
    inp.print_notes()
    from mcp_review.tui.app import ReviewApp
    from mcp_review.tui.source import ReviewSource

    source = ReviewSource.from_inputs(inp)

    ReviewApp(source, subtitle=inp.pins_path, theme=args.theme).run()
    return exitcodes.PASS
