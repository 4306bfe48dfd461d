"""``tools/audit_requirements.py``: each installed release judged on the best page reached, the
pages made here (no network): a release's own page, else the project's page when the release is
the latest, else not audited, said with why."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

TOOL = Path(__file__).resolve().parents[2] / "tools" / "audit_requirements.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("audit_requirements", TOOL)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["audit_requirements"] = module
    spec.loader.exec_module(module)
    return module


audit = _tool()
PYPI = "https://pypi.org/pypi"
ADVISORY = {"id": "PYSEC-2099-1", "aliases": ["CVE-2099-0001"], "fixed_in": ["2.0.1"],
            "withdrawn": None}
WITHDRAWN = {"id": "PYSEC-2099-2", "aliases": [], "fixed_in": [], "withdrawn": "2099-01-02"}


def _index(pages: dict[str, dict[str, Any]]) -> Any:
    asked: list[str] = []

    def fetch(url: str) -> dict[str, Any] | None:
        asked.append(url)
        return pages.get(url)

    fetch.asked = asked  # type: ignore[attr-defined]
    return fetch


def test_a_release_page_gives_that_releases_advisories_withdrawn_ones_left_out() -> None:
    fetch = _index({f"{PYPI}/pkg/2.0.0/json": {"vulnerabilities": [ADVISORY, WITHDRAWN]}})
    found = audit.audit_one("pkg", "2.0.0", fetch)
    assert found.audited
    assert found.source == "release page"
    assert [str(a) for a in found.found] == ["PYSEC-2099-1 (CVE-2099-0001): fixed in 2.0.1"]
    assert fetch.asked == [f"{PYPI}/pkg/2.0.0/json"]


def test_without_a_release_page_the_latest_release_is_audited_on_the_project_page() -> None:
    fetch = _index({f"{PYPI}/pkg/json": {"info": {"version": "2.0.0"},
                                         "vulnerabilities": [ADVISORY]}})
    found = audit.audit_one("pkg", "2.0.0", fetch)
    assert found.audited
    assert found.source == "project page (latest release)"
    assert [a.id for a in found.found] == ["PYSEC-2099-1"]
    assert fetch.asked == [f"{PYPI}/pkg/2.0.0/json", f"{PYPI}/pkg/json"]


def test_an_older_release_without_its_page_is_not_audited_and_says_why() -> None:
    fetch = _index({f"{PYPI}/pkg/json": {"info": {"version": "3.0.0"},
                                         "vulnerabilities": [ADVISORY]}})
    found = audit.audit_one("pkg", "2.0.0", fetch)
    assert not found.audited
    assert not found.found
    assert found.source == ("2.0.0 is not the latest release (3.0.0): no page reached lists its "
                            "advisories")
    assert [a.id for a in found.latest] == ["PYSEC-2099-1"]  # shown, not counted
    assert not audit.audit_one("gone", "1.0", _index({})).audited


def test_the_report_fails_on_a_vulnerable_release_and_names_every_one_not_audited() -> None:
    lines: list[str] = []
    clean = audit.Finding("a", "1.0", True, "project page (latest release)")
    older = audit.Finding("b", "1.0", False, "1.0 is not the latest release (2.0): …")
    assert audit.report([clean, older], lines.append) == 0
    assert lines == ["not audited: b 1.0: 1.0 is not the latest release (2.0): …",
                     "audit: 2 installed distributions, 1 audited (0 on the release's page, 1 "
                     "on the project's page as the latest release), 0 with a known "
                     "vulnerability, 1 not audited"]
    bad = audit.Finding("c", "2.0.0", True, "release page",
                        (audit.Advisory("PYSEC-2099-1", (), ("2.0.1",)),))
    lines.clear()
    assert audit.report([clean, bad], lines.append) == 1
    assert lines[0] == "VULNERABLE c 2.0.0: PYSEC-2099-1: fixed in 2.0.1"


def test_pins_are_read_by_canonical_name_extras_and_comments_aside() -> None:
    assert audit.pins(["Django==5.2.19", "psycopg[binary]==3.3.9  # the driver",
                       "# a comment", "factory_boy==3.3.3", "ruff>=0.1"]) == {
        "django": "5.2.19", "psycopg": "3.3.9", "factory-boy": "3.3.3"}
