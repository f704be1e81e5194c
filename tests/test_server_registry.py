"""The one server registry (generators/server_registry.py): every local profile and image comes
from it, every registry package it names is pinned by a committed lock, and each built image
reports the version its entry names (the check that ends every image build, run again here on
the images present)."""
from __future__ import annotations

import json

import pytest

from generators import images, registry_packages
from generators.image_check import ImageVersionError, check_versions
from generators.profiles import LOCAL_PROFILES
from generators.server_registry import ENTRIES, BY_TAG, MavenArtifact, NpmPackage, PinnedBinaries
from oracle.tool_image import MYSQL_IMAGE
from tests.server_fixtures import require_image

PINNED = [e for e in ENTRIES if isinstance(e.recipe, PinnedBinaries)]


def test_every_local_profile_and_image_is_one_registry_entry() -> None:
    assert [p.image for p in LOCAL_PROFILES.values()] == [e.tag for e in ENTRIES]
    assert len(BY_TAG) == len(ENTRIES)
    assert {"binlog-mysql:5.6", "binlog-mysql:5.7", "binlog-mysql:8.0"} <= set(BY_TAG)
    assert MYSQL_IMAGE in BY_TAG


def test_generate_writes_by_default_on_the_servers_the_corpus_holds() -> None:
    """An entry with in_corpus=False (8.0.15) is built and tested but gets cases only when asked."""
    from generators.casefile import CORPUS_DIR
    from generators.generate import DEFAULT_SERVERS
    committed = {d.name for d in CORPUS_DIR.iterdir() if d.is_dir() and any(d.glob("*/case.json"))}
    assert set(DEFAULT_SERVERS) == committed
    assert "mysql-8.0.15" in LOCAL_PROFILES and "mysql-8.0.15" not in DEFAULT_SERVERS


def test_a_package_without_its_own_mysqlbinlog_is_decoded_by_the_reference_image() -> None:
    for entry in PINNED:
        profile = LOCAL_PROFILES[entry.profile_name]
        assert (profile.decoder_image, profile.binlog_tool) == (MYSQL_IMAGE, "mysqlbinlog")
    assert LOCAL_PROFILES["mariadb-10.11"].decoder_image == "binlog-mariadb:10.11"


def test_every_npm_package_is_pinned_by_the_committed_lock() -> None:
    lock = json.loads((registry_packages.NPM_PINS / "package-lock.json").read_text())
    for entry in PINNED:
        source = entry.recipe.source
        if isinstance(source, NpmPackage):
            pinned = lock["packages"][f"node_modules/{source.name}"]
            assert pinned["version"] == source.version
            assert pinned["integrity"].startswith("sha512-")


def test_every_maven_artifact_has_a_committed_sha256() -> None:
    for entry in PINNED:
        source = entry.recipe.source
        if isinstance(source, MavenArtifact):
            assert len(registry_packages.maven_sha256(source)) == 64


def test_an_unpinned_artifact_is_refused() -> None:
    with pytest.raises(registry_packages.PackageError, match="no sha256"):
        registry_packages.maven_sha256(MavenArtifact("org.example:absent:1.0", "x.tar.gz"))


def test_the_recipe_hash_follows_the_pin() -> None:
    """A changed lock or layout must rebuild the image; the shared Debian root does not."""
    entry = BY_TAG["binlog-mysql:5.7"]
    moved = PinnedBinaries(entry.recipe.suite, entry.recipe.packages, entry.recipe.source,
                           (("server/mysqld", "sbin/mysqld"),))
    other = type(entry)(**{**entry.__dict__, "recipe": moved})
    assert images.recipe_hash(other) != images.recipe_hash(entry)
    assert images.base_tarball(moved) == images.base_tarball(entry.recipe)


@pytest.mark.server
@pytest.mark.parametrize("tag", [e.tag for e in PINNED])
def test_each_image_reports_its_entrys_version(tag: str) -> None:
    entry = BY_TAG[tag]
    require_image(LOCAL_PROFILES[entry.profile_name])
    said: list[str] = []
    check_versions(entry, said.append)
    assert entry.expected_version in said[-1]
    wrong = type(entry)(**{**entry.__dict__, "expected_version": "5.5.99"})
    with pytest.raises(ImageVersionError, match="5.5.99"):
        check_versions(wrong, said.append)
