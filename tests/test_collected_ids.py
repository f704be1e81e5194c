"""Nothing less tested (issue 30): every test id in tests/collected-ids.txt is still collected, or
tests/removed-ids.txt says why it went. Added ids pass (other branches add tests in parallel);
`python -m tests.collected_ids --write` regenerates the list."""
from __future__ import annotations

import pytest

from tests import collected_ids


@pytest.fixture(scope="module")
def collected() -> list[str]:
    return collected_ids.collect()


def test_no_listed_test_id_disappeared_without_a_reason(collected: list[str]) -> None:
    gone = sorted(set(collected_ids.listed()) - set(collected))
    unexplained = collected_ids.unexplained(gone, collected_ids.moved() if gone else [])
    assert not unexplained, (
        f"{len(unexplained)} test ids of tests/collected-ids.txt are no longer collected; record each in "
        f"tests/removed-ids.txt as `<id>  # <reason>`, then run `python -m tests.collected_ids --write`:\n"
        + "\n".join(unexplained[:50]))


def test_the_list_is_what_ci_collected_at_least_once(collected: list[str]) -> None:
    listed = collected_ids.listed()
    assert len(listed) >= 5000 and listed == sorted(set(listed)), "the list is sorted, unique and whole"
    assert set(collected) & set(listed), "the collection and the list share no id: wrong directory?"


def test_a_removal_needs_a_reason(tmp_path, monkeypatch) -> None:
    """The allowlist parser: a bare id is not a reason; `id  # reason` is."""
    f = tmp_path / "removed-ids.txt"
    f.write_text("# header\ntests/test_a.py::test_x\ntests/test_b.py::test_y  # merged into test_z\n")
    monkeypatch.setattr(collected_ids, "REMOVED", f)
    assert collected_ids.removed() == {"tests/test_a.py::test_x": "", "tests/test_b.py::test_y": "merged into test_z"}
    assert collected_ids.unexplained(["tests/test_a.py::test_x", "tests/test_b.py::test_y", "tests/test_c.py::test_w"],
                                     ["tests/test_c.py::test_w"]) == ["tests/test_a.py::test_x"]


def test_ci_runs_what_the_list_is_made_of() -> None:
    """noxfile's `tests` session deselects exactly what tests/tiers.py moves outside CI."""
    noxfile = (collected_ids.ROOT / "noxfile.py").read_text(encoding="utf-8")
    assert f'CI_MARKERS = "{collected_ids.tiers.IN_CI_EXPR}"' in noxfile
