"""`mcp-review [review] [--config FILE] [--pins FILE]`: open the review app (Textual, imported lazily)."""

from __future__ import annotations

import argparse

from mcp_review import exitcodes


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE",
                   help="servers to review (mcp-review.toml or any mcp.json; default: discover)")
    p.add_argument("--pins", metavar="FILE", default="mcp-pins.toml",
                   help="pin file read and written (default: ./mcp-pins.toml)")
    p.add_argument("--snapshot", metavar="FILE",
                   help="review a saved snapshot (`mcp-review snapshot`) instead of fetching")
    p.add_argument("--theme", default=None,
                   help="Textual theme, e.g. textual-dark, textual-light, nord")


def build_source(args: argparse.Namespace):
    """The ReviewSource for these arguments (config and call logs are read before the UI opens,
    so an input error is reported on stderr with exit code 2)."""
    from mcp_review.core.status import load_call_log
    from mcp_review.tui.data import LiveFetcher, ReviewSource, SnapshotFetcher

    calls = {}
    tiers = {}
    if args.snapshot:
        from mcp_review.core.snapshot import load_snapshot

        fetcher = SnapshotFetcher(load_snapshot(args.snapshot))
        if args.config:
            from mcp_review.services.config import load_config

            cfg = load_config(args.config)
            calls = {s.name: load_call_log(s.calls) for s in cfg.servers if s.calls}
            tiers = {s.name: s.policy for s in cfg.servers if s.policy}
    else:
        from mcp_review.services.config import load_config

        cfg = load_config(args.config)
        calls = {s.name: load_call_log(s.calls) for s in cfg.servers if s.calls}
        tiers = {s.name: s.policy for s in cfg.servers if s.policy}
        fetcher = LiveFetcher(cfg)
    return ReviewSource.open(fetcher, args.pins, calls=calls, tiers=tiers)


def run(args: argparse.Namespace) -> int:
    source = build_source(args)
    from mcp_review.tui.app import ReviewApp

    ReviewApp(source, subtitle=args.pins, theme=args.theme).run()
    return exitcodes.PASS
