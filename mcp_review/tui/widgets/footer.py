"""The key bar at the bottom of each screen: Textual's ``Footer``, rebuilt only when what it
shows changes.

Textual's ``Footer`` removes and mounts all its keys again whenever the screen's bindings
*may* have changed: a focus change, a screen pushed or popped, a tab switched. On the review
screen each tab key moved the focus, and each rebuild mounted a dozen ``FooterKey`` widgets,
each restyled twice on mount (its ``compact`` flag set, then unset by the footer's binding).
:class:`KeyFooter` builds the same keys the same way, but first compares what it would show
with what it shows (every key, label, action, group, enabled state and tooltip, in order,
and the command palette's key) and skips a rebuild that would change nothing.

(The keys keep Textual's compact-then-not start: mounted non-compact at once, the last key
is laid out differently at 80 columns, and the screenshots pin the footer as it is drawn.)
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import Footer


class KeyFooter(Footer):
    """``Footer`` that recomposes only when the keys it shows change (see the module)."""

    _shown: tuple[Any, ...] | None = None
    """What the last compose showed (:meth:`_what_it_shows`), None before the bindings."""

    def _what_it_shows(self) -> tuple[Any, ...]:
        """Everything ``Footer.compose`` reads to build its keys, in its order."""
        app = self.app
        active = self.screen.active_bindings
        keys = tuple(
            (
                binding.key,
                app.get_key_display(binding),
                binding.description,
                binding.action,
                binding.group,
                enabled,
                tooltip,
                binding.tooltip,
            )
            for (_, binding, enabled, tooltip) in active.values()
            if binding.show
        )
        palette: tuple[Any, ...] | None = None
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            found = active.get(app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _, binding, enabled, _tip = found
                palette = (
                    binding.key,
                    app.get_key_display(binding),
                    binding.description,
                    binding.action,
                    enabled,
                    binding.tooltip,
                )
        return keys, palette, self.compact

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            self._shown = self._what_it_shows()
        yield from super().compose()

    async def recompose(self) -> None:
        if self._shown is not None and self.is_attached and self._what_it_shows() == self._shown:
            return  # the same keys, labels and states: nothing to rebuild
        await super().recompose()
