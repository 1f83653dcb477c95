"""Where the command palette's "Screenshot" writes its SVG.

Textual saves it in the platform's downloads folder and, where there is none (a server, a
container, a fresh account), fails with only "Failed to save screenshot". The app then saves it
in the current folder instead, and Textual's notice says the path. An existing downloads folder
is still used, as Textual does.
"""

from __future__ import annotations

import os

from platformdirs import user_downloads_path


def screenshot_dir(path: str | None) -> str | None:
    """The folder for a screenshot: ``path`` if given, else None (Textual's downloads folder)
    when that folder exists, else the current folder."""
    if path is not None or user_downloads_path().is_dir():
        return path
    return os.getcwd()
