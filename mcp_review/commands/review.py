"""`mcp-review [review] [--config FILE] [--pins FILE]`: open the review app (Textual, imported lazily)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from mcp_review.cli_args import (
    add_calls_option,
    add_candidate_option,
    add_config_args,
    add_hosts_option,
    add_pins_option,
    add_sign_option,
    input_options,
)
from mcp_review.engine import exitcodes

if TYPE_CHECKING:
    from mcp_review.tui.app import ReviewApp


def register(p: argparse.ArgumentParser) -> None:
    add_config_args(p)
    add_candidate_option(p)
    add_pins_option(p)
    add_sign_option(p)
    p.add_argument(
        "--snapshot",
        metavar="FILE",
        help="review a saved snapshot (`mcp-review snapshot`) instead of fetching "
        "(the config is still discovered for calls and policy tiers)",
    )
    add_calls_option(p)
    add_hosts_option(p)
    p.add_argument(
        "--theme", default=None, help="Textual theme, e.g. textual-dark, textual-light, nord"
    )


def run(args: argparse.Namespace) -> int:
    app = build_app(args)
    app.run()
    if app.load_error is not None:
        raise app.load_error  # an InputError is exit 2 with its message (cli._run)
    return exitcodes.PASS


def build_app(args: argparse.Namespace) -> ReviewApp:
    """The app for ``args``. The config and the call logs are read now, so an error in them is
    reported on stderr with exit code 2 before anything is drawn (a call log that does not
    exist yet is a note). The pin file and the snapshot are read once the app is up, in its
    thread, while it says "loading…" (a fleet's take a second, overlapping Textual's own
    start): exactly as ``resolve`` reads them. Nothing can be decided before both are read
    and the status is computed; a pin file that does not read ends the app, and :func:`run`
    reports it as before the app opened (exit 2, the file named and left untouched)."""
    from mcp_review.services.inputs import resolve
    from mcp_review.tui.app import ReviewApp
    from mcp_review.tui.screens.main import MainScreen
    from mcp_review.tui.source import ReviewSource

    inp = resolve(input_options(args), load_pin_file=False)
    inp.print_notes()

    def read() -> ReviewSource:
        from mcp_review.engine.calls import gc_paused
        from mcp_review.store.pinfile import load_pins

        # A fleet's pin file, snapshot and status: hundreds of thousands of objects, no
        # reference cycles; full collections meanwhile only walked them again and again.
        with gc_paused():
            inp.pins = load_pins(inp.pins_path)
            from mcp_review.services.signing import install

            install(inp.pins, args.sign_key, inp.config)  # the app's decisions signed too
            source = ReviewSource.from_inputs(inp)
            # The list's first status, while the UI thread is idle (it waits for these files):
            # what the list screen computes first (MainScreen.fetch: digests only on a fleet).
            # Its compute() returns it only for the same snapshot, pins and comparison.
            if source.snapshot_given is not None:
                tools = sum(len(s.tools) for s in source.snapshot_given.servers.values())
                source.compute_ahead(compare=tools <= MainScreen.SYNC_TOOLS)
        return source

    what = inp.pins_path + (f" and {inp.snapshot_path}" if inp.snapshot_path else "")
    return ReviewApp(read, subtitle=inp.pins_path, theme=args.theme, loading=what)
