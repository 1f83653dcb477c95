"""The app tests wait and press keys through a few Textual internals (tests/helpers.py:
``settle``, ``press``, ``key_event``; the notifications some tests read). Textual does not
promise them, so the project pins Textual to a tested range (pyproject.toml: ``textual>=8.0,<9``)
and this test fails loudly, naming the private, when an upgrade moves one: otherwise a moved
private would surface as a confusing timeout in dozens of app tests."""

from __future__ import annotations

import inspect
import re
import tomllib
from pathlib import Path

import textual
from textual import keys
from textual.app import App
from textual.message_pump import MessagePump
from textual.pilot import Pilot
from textual.screen import Screen

ROOT = Path(__file__).resolve().parent.parent.parent


def test_textual_is_pinned_to_the_range_these_privates_were_checked_on() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "dependencies"
    ]
    (spec,) = [d for d in deps if d.startswith("textual")]
    assert re.fullmatch(r"textual>=8\.0,<9", spec.split("#")[0].strip()), spec
    assert textual.__version__.split(".")[0] == "8", textual.__version__


async def test_every_private_the_app_tests_use_is_where_they_expect_it() -> None:
    missing: list[str] = []

    def need(ok: bool, what: str) -> None:
        if not ok:
            missing.append(what)

    need(callable(getattr(Pilot, "_wait_for_screen", None)), "Pilot._wait_for_screen()")
    need(callable(getattr(Screen, "_on_timer_update", None)), "Screen._on_timer_update()")
    need(callable(getattr(keys, "_character_to_key", None)), "textual.keys._character_to_key")
    need(
        callable(getattr(keys, "_get_unicode_name_from_key", None)),
        "textual.keys._get_unicode_name_from_key",
    )
    need(isinstance(getattr(keys, "REPLACED_KEYS", None), dict), "textual.keys.REPLACED_KEYS")
    need(callable(getattr(App, "_check_bindings", None)), "App._check_bindings()")

    app = App()
    async with app.run_test() as pilot:
        need(hasattr(app, "_driver") and app._driver is not None, "App._driver")
        need(callable(getattr(app._driver, "send_message", None)), "Driver.send_message()")
        need(
            callable(getattr(getattr(app, "_animator", None), "wait_until_complete", None)),
            "App._animator.wait_until_complete()",
        )
        need(hasattr(app, "_notifications"), "App._notifications")
        queue = getattr(app, "_message_queue", None)
        need(callable(getattr(queue, "empty", None)), "MessagePump._message_queue.empty()")
        need(hasattr(app.screen, "_callbacks"), "Screen._callbacks")
        await pilot._wait_for_screen()
    need("_message_queue" in inspect.getsource(MessagePump), "MessagePump._message_queue")
    assert not missing, "Textual moved privates the app tests rely on: " + ", ".join(missing)
