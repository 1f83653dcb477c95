"""Keys for the app's tests in one burst: the events ``pilot.press`` sends, without its two
waits for idle after every key (each at least 20 ms).

A burst is how fast typing or a paste reaches the app, and the app takes a burst of keys in
order (issue 25 item 11: ``ReviewApp._key_now``). Use it for text typed into a field that
already has the focus; a key that opens a screen is still pressed on its own
(``pilot.press``), so the screen is up before the next key.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from textual import events
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key


def key_event(key: str) -> events.Key:
    """The key event ``pilot.press(key)`` sends (textual.app.App._press_keys)."""
    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    original = REPLACED_KEYS.get(key, key)
    try:
        char: str | None = unicodedata.lookup(_get_unicode_name_from_key(original))
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


async def burst(pilot: Any, *keys: str) -> None:
    """Send ``keys`` (names as ``pilot.press`` takes them) at once, then wait until the app is
    idle (Textual's wait: its queues drained and its CPU quiet)."""
    app = pilot.app
    for key in keys:
        event = key_event(key)
        event.set_sender(app)
        app.post_message(event)
    await pilot.pause()
