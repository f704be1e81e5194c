"""Render an HTML report in Debian's chromium, headless: its DOM after rendering and a PNG
screenshot. Used by the report's browser test and for docs/conformance-matrix.png. A fresh
profile each time, and every background fetch off: the report must render from the file alone."""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

CANDIDATES = ("chromium", "chromium-browser")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars")
TIMEOUT = 120.0


class BrowserError(RuntimeError):
    pass


def find() -> str | None:
    return next((p for name in CANDIDATES if (p := shutil.which(name))), None)


def _run(page: Path, extra: list[str]) -> str:
    exe = find()
    if exe is None:
        raise BrowserError("chromium is not installed (apt-get install -y chromium)")
    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile:
        argv = [exe, *FLAGS, f"--user-data-dir={profile}", *extra, page.resolve().as_uri()]
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired as e:
            raise BrowserError(f"chromium did not finish within {TIMEOUT:.0f}s") from e
    if done.returncode != 0:
        raise BrowserError(f"chromium exited {done.returncode}: {done.stderr.strip()[-500:]}")
    return done.stdout


def dump_dom(page: Path) -> str:
    """The DOM as chromium built it from the page."""
    return _run(page, ["--dump-dom"])


def screenshot(page: Path, png: Path, width: int = 1600, height: int = 1000) -> Path:
    png.parent.mkdir(parents=True, exist_ok=True)
    _run(page, [f"--screenshot={png.resolve()}", f"--window-size={width},{height}"])
    if not png.is_file():
        raise BrowserError(f"chromium wrote no screenshot to {png}")
    return png
