"""The Node runtime: a parser folder holds package.json, package-lock.json (exact versions, with
integrity) and adapter.js; `npm ci` installs the lock into the build directory in the cache,
beside a copy of the adapter and of the JavaScript every Node adapter shares
(harness/parsers/node-shared/, which the adapters require as "./common.js", ...). The adapter
then starts as `node <build>/adapter.js <transport>`."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from .base import PARSERS_DIR, Runtime, Say, run_logged

SHARED_DIR = PARSERS_DIR / "node-shared"
ADAPTER = "adapter.js"


class NodeRuntime(Runtime):
    name = "node"
    tools = ("node", "npm")
    provide_tools = "python -m harness setup (apt-get install nodejs npm)"
    required_files = ("package.json", "package-lock.json", ADAPTER)

    def shared(self) -> list[Path]:
        return sorted(p for p in SHARED_DIR.glob("*.js") if p.is_file())

    def _build(self, work: Path, say: Say) -> None:
        for p in self.shared():
            shutil.copy2(p, work / p.name)
        run_logged(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=http"], work, say)

    def command(self, built: Path) -> list[str]:
        return ["node", str(built / ADAPTER)]

    def pinned_version(self, folder: Path, library: str) -> str | None:
        """The version package-lock.json pins for the library."""
        try:
            lock = json.loads((folder / "package-lock.json").read_text())
        except (OSError, ValueError):
            return None
        entry = lock.get("packages", {}).get(f"node_modules/{library}")
        return entry.get("version") if entry else None


RUNTIME = NodeRuntime()
