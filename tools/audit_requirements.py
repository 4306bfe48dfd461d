"""Audit what is installed against PyPI's advisories, where pip-audit reaches none.

    python tools/audit_requirements.py [-r requirements.txt ...] [--timeout 30]

pip-audit asks PyPI for each release's own page (``/pypi/<name>/<version>/json``), whose
``vulnerabilities`` are that release's advisories (the Python advisory database, through OSV),
or asks OSV itself. Where neither answers (this machine: the index serves a project's page,
``/pypi/<name>/json``, but no release's page, and OSV's host does not resolve), pip-audit
reports every package "not found on PyPI" and audits nothing.

This audits every distribution installed beside it (the requirements as resolved: the pins and
what they brought), each on the best page it reaches:

1. the release's own page: its advisories are the installed release's (as pip-audit);
2. else the project's page, when the installed release is the latest: the project's page lists
   the latest release's advisories, which are then the installed one's;
3. else nothing: an older release's advisories are on no page reached, and the package is
   listed as not audited, with the latest release's advisories if it has any (they may or may
   not reach back to the installed release).

A withdrawn advisory does not count. Exit status 1 when an installed release has an advisory
(with the releases that fix it), else 0; every package not audited is named, with why. ``-r``:
a pin that is not what is installed is said too (the audit is of what is installed).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import re
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PYPI = "https://pypi.org/pypi"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;#]+)")

# A page fetcher: the page's JSON, or None when the index answers that there is no such page.
Fetch = Callable[[str], dict[str, Any] | None]


def canonical(name: str) -> str:
    """PEP 503's normalised name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(lines: Iterable[str]) -> dict[str, str]:
    """``name==version`` lines of a requirements file, by canonical name."""
    found = {}
    for line in lines:
        match = PIN.match(line.strip())
        if match:
            found[canonical(match.group(1))] = match.group(2)
    return found


@dataclass(frozen=True)
class Advisory:
    id: str
    aliases: tuple[str, ...]
    fixed_in: tuple[str, ...]

    def __str__(self) -> str:
        also = f" ({', '.join(self.aliases)})" if self.aliases else ""
        fixed = f"fixed in {', '.join(self.fixed_in)}" if self.fixed_in else "no fix released"
        return f"{self.id}{also}: {fixed}"


def advisories(page: dict[str, Any]) -> list[Advisory]:
    """The page's advisories that are not withdrawn."""
    return [Advisory(str(v["id"]), tuple(v.get("aliases") or ()), tuple(v.get("fixed_in") or ()))
            for v in page.get("vulnerabilities") or () if not v.get("withdrawn")]


@dataclass(frozen=True)
class Finding:
    name: str
    version: str
    audited: bool
    source: str  # "release page", "project page (latest release)", or why not audited
    found: tuple[Advisory, ...] = ()
    latest: tuple[Advisory, ...] = field(default=())  # not audited: the latest release's


def audit_one(name: str, version: str, fetch: Fetch) -> Finding:
    release = fetch(f"{PYPI}/{name}/{version}/json")
    if release is not None:
        return Finding(name, version, True, "release page", tuple(advisories(release)))
    project = fetch(f"{PYPI}/{name}/json")
    if project is None:
        return Finding(name, version, False, "not on the index")
    latest = str(project.get("info", {}).get("version", ""))
    if latest == version:
        return Finding(name, version, True, "project page (latest release)",
                       tuple(advisories(project)))
    return Finding(name, version, False,
                   f"{version} is not the latest release ({latest}): no page reached lists "
                   f"its advisories", latest=tuple(advisories(project)))


def fetcher(timeout: float) -> Fetch:
    def fetch(url: str) -> dict[str, Any] | None:
        try:
            with urllib.request.urlopen(url, timeout=timeout) as answer:
                return dict(json.load(answer))
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                return None
            raise
    return fetch


def installed() -> dict[str, str]:
    """Every distribution installed beside this interpreter, by canonical name."""
    return {canonical(d.metadata["Name"]): d.version for d in importlib.metadata.distributions()
            if d.metadata["Name"]}


def report(findings: list[Finding], out: Callable[[str], None] = print) -> int:
    vulnerable = [f for f in findings if f.found]
    audited = [f for f in findings if f.audited]
    skipped = [f for f in findings if not f.audited]
    for f in vulnerable:
        out(f"VULNERABLE {f.name} {f.version}: " + "; ".join(str(a) for a in f.found))
    for f in skipped:
        warn = (" — the latest release's advisories: " + "; ".join(str(a) for a in f.latest)
                if f.latest else "")
        out(f"not audited: {f.name} {f.version}: {f.source}{warn}")
    by_release = sum(f.source == "release page" for f in audited)
    out(f"audit: {len(findings)} installed distributions, {len(audited)} audited "
        f"({by_release} on the release's page, {len(audited) - by_release} on the project's "
        f"page as the latest release), {len(vulnerable)} with a known vulnerability, "
        f"{len(skipped)} not audited")
    return 1 if vulnerable else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-r", "--requirement", action="append", default=[], type=Path,
                        help="a requirements file whose pins must be what is installed")
    parser.add_argument("--timeout", type=float, default=30.0)
    args = parser.parse_args(argv)
    have = installed()
    for path in args.requirement:
        for name, version in pins(path.read_text().splitlines()).items():
            if have.get(name) != version:
                print(f"pin {name}=={version} of {path}: installed {have.get(name, 'nothing')}")
    fetch = fetcher(args.timeout)
    try:
        findings = [audit_one(name, version, fetch) for name, version in sorted(have.items())]
    except (urllib.error.URLError, OSError) as exc:  # no index at all: say so, fail nothing
        print(f"audit: PyPI cannot be reached ({exc}): nothing audited")
        return 0
    return report(findings)


if __name__ == "__main__":
    sys.exit(main())
