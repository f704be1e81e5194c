"""Local server images built from Debian root filesystems.

No container registry is reachable here, but Debian's mirror is: we debootstrap
a minimal rootfs with the server packages and `docker import` it. A recipe hash
(suite, packages, post-install script, mirror) is stored as an image label, so
rebuilding an unchanged recipe is a no-op, and the rootfs tarball is cached so a
lost image is re-imported in seconds instead of re-bootstrapped.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import docker.errors

from . import docker_env

MIRROR = os.environ.get("BINLOG_DEBIAN_MIRROR", "http://deb.debian.org/debian")
CACHE_DIR = Path(os.environ.get("BINLOG_CACHE_DIR", Path.home() / ".cache" / "binlog-conformance"))
RECIPE_LABEL = f"{docker_env.LABEL_PREFIX}.recipe"

# Run inside the chroot after debootstrap. Keeps images small and gives every
# image the same layout: a `mysql` user, an empty /var/lib/mysql (the server
# profile initialises it at start), /run/mysqld for the socket, and
# /var/lib/mysql-files (MySQL's compiled-in secure_file_priv; it refuses to
# start without it).
POST_INSTALL = """\
set -e
id mysql >/dev/null 2>&1 || useradd --system --no-create-home --home-dir /nonexistent \
    --shell /usr/sbin/nologin mysql
rm -rf /var/lib/mysql
mkdir -p /var/lib/mysql /run/mysqld /var/lib/mysql-files
chown mysql:mysql /var/lib/mysql /run/mysqld /var/lib/mysql-files
apt-get clean
rm -rf /var/lib/apt/lists/* /usr/share/doc/* /usr/share/man/* /usr/share/info/* /var/log/*.log
"""

IMPORT_CHANGES = (
    "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "ENV LANG=C.UTF-8",
    "WORKDIR /",
)


@dataclass(frozen=True)
class ImageRecipe:
    """One local image: a Debian suite plus the packages that provide the server."""

    name: str                 # image tag, e.g. "binlog-mysql:9.7"
    suite: str                # Debian suite for debootstrap
    packages: tuple[str, ...]

    def recipe_hash(self) -> str:
        blob = json.dumps([self.suite, sorted(self.packages), MIRROR, POST_INSTALL,
                           IMPORT_CHANGES], sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    @property
    def tarball(self) -> Path:
        return CACHE_DIR / "rootfs" / f"{self.name.replace(':', '-')}-{self.recipe_hash()}.tar"


RECIPES: dict[str, ImageRecipe] = {r.name: r for r in (
    # Oracle MySQL as packaged in sid; the -core packages hold mysqld and mysqlbinlog.
    ImageRecipe("binlog-mysql:9.7", "sid", ("mysql-server-core", "mysql-client-core")),
    ImageRecipe("binlog-mariadb:10.5", "bullseye", ("mariadb-server", "mariadb-client")),
    ImageRecipe("binlog-mariadb:10.11", "bookworm", ("mariadb-server", "mariadb-client")),
    ImageRecipe("binlog-mariadb:11.8", "trixie", ("mariadb-server", "mariadb-client")),
)}


def _image_recipe_hash(tag: str) -> str | None:
    try:
        img = docker_env.client().images.get(tag)
    except docker.errors.ImageNotFound:
        return None
    return (img.labels or {}).get(RECIPE_LABEL)


def is_current(recipe: ImageRecipe) -> bool:
    """True when the tag exists and was built from this exact recipe."""
    return _image_recipe_hash(recipe.name) == recipe.recipe_hash()


def _log(msg: str) -> None:
    print(f"[images] {msg}", flush=True)


def _work_parent() -> Path:
    """Where to unpack the rootfs: RAM (/dev/shm) when it has room, because dpkg
    fsyncs every file and that costs ~80 s per image on this VM's disk."""
    shm = Path("/dev/shm")
    try:
        st = os.statvfs(shm)
        if st.f_bavail * st.f_frsize >= 3 * 2**30:
            return shm
    except OSError:
        pass
    return CACHE_DIR


def _bootstrap(recipe: ImageRecipe, tarball: Path) -> None:
    """debootstrap + post-install into a temp dir, then tar it into the cache."""
    if os.geteuid() != 0:
        raise PermissionError("debootstrap needs root")
    if shutil.which("debootstrap") is None:
        raise FileNotFoundError("debootstrap not installed (run .ci/install-docker.sh)")
    tarball.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="rootfs-", dir=_work_parent()))
    try:
        root = work / "root"
        log = work / "debootstrap.log"
        with log.open("wb") as fh:
            proc = subprocess.run(
                ["debootstrap", "--variant=minbase", f"--include={','.join(recipe.packages)}",
                 recipe.suite, str(root), MIRROR], stdout=fh, stderr=subprocess.STDOUT, check=False)
        if proc.returncode != 0:
            tail = log.read_text(errors="replace").splitlines()[-30:]
            raise RuntimeError(f"debootstrap {recipe.suite} failed:\n" + "\n".join(tail))
        subprocess.run(["chroot", str(root), "sh", "-c", POST_INSTALL], check=True)
        partial = tarball.with_suffix(".tar.part")
        subprocess.run(["tar", "-C", str(root), "--numeric-owner", "-cf", str(partial), "."],
                       check=True)
        partial.rename(tarball)
    finally:
        # debootstrap unmounts /proc etc. itself; make sure before deleting the tree.
        for mnt in ("proc", "sys", "dev/pts"):
            subprocess.run(["umount", "-l", str(work / "root" / mnt)], capture_output=True,
                           check=False)
        shutil.rmtree(work, ignore_errors=True)


def _import(recipe: ImageRecipe, tarball: Path) -> None:
    """docker import the tarball under the recipe's tag; drop the image it replaces."""
    old_id = None
    if _image_recipe_hash(recipe.name) is not None:  # an image we built earlier
        old_id = docker_env.client().images.get(recipe.name).id
    changes = [*IMPORT_CHANGES, f"LABEL {RECIPE_LABEL}={recipe.recipe_hash()}"]
    args = ["import"]
    for change in changes:
        args += ["--change", change]
    docker_env.docker_cli(*args, str(tarball), recipe.name)
    if old_id and old_id != docker_env.client().images.get(recipe.name).id:
        # Fails harmlessly if a container still uses it.
        docker_env.docker_cli("rmi", old_id, check=False)


def build(recipe: ImageRecipe, force: bool = False) -> float:
    """Build (or re-import) one image; returns seconds spent. No-op when current."""
    start = time.monotonic()
    if not force and is_current(recipe):
        _log(f"{recipe.name}: up to date ({recipe.recipe_hash()})")
        return time.monotonic() - start
    tarball = recipe.tarball
    if force or not tarball.exists():
        _log(f"{recipe.name}: debootstrap {recipe.suite} + {' '.join(recipe.packages)}")
        _bootstrap(recipe, tarball)
    _log(f"{recipe.name}: docker import {tarball}")
    _import(recipe, tarball)
    took = time.monotonic() - start
    _log(f"{recipe.name}: built in {took:.1f}s")
    return took


def build_many(recipes: list[ImageRecipe], force: bool = False, jobs: int = 2) -> dict[str, float]:
    """Build several images, `jobs` at a time: debootstrap mostly waits on its
    own dependency resolver and dpkg, so two builds share 2 cores well."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {r.name: pool.submit(build, r, force) for r in recipes}
        timings = {name: f.result() for name, f in futures.items()}
    prune_dangling()
    prune_tarballs()
    return timings


def prune_dangling() -> None:
    """Remove untagged images we built earlier (replaced by a rebuild) unless in use."""
    for img in docker_env.client().images.list(filters={"dangling": True, "label": RECIPE_LABEL}):
        docker_env.docker_cli("rmi", img.id, check=False)


def prune_tarballs() -> None:
    """Drop cached rootfs tarballs of recipes that no longer exist."""
    keep = {r.tarball for r in RECIPES.values()}
    for f in (CACHE_DIR / "rootfs").glob("*.tar"):
        if f not in keep:
            f.unlink()


def status() -> list[tuple[str, str]]:
    """(name, state) for every recipe: 'current', 'stale', or 'missing'."""
    out = []
    for recipe in RECIPES.values():
        have = _image_recipe_hash(recipe.name)
        state = "missing" if have is None else ("current" if have == recipe.recipe_hash() else "stale")
        out.append((recipe.name, state))
    return out
