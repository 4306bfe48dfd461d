"""The regulator file's namespace, and an element of it as the file and the slot floor's part
write one (``regulator_file``, ``machine_regulator_file``): an attribute without a value is left
out."""

from __future__ import annotations

from typing import Any

from lxml import etree

NAMESPACE = "urn:casino-backoffice:regulator-day:1"


def element(parent: etree._Element, name: str, **attributes: Any) -> etree._Element:
    return etree.SubElement(parent, f"{{{NAMESPACE}}}{name}",
                            {k: str(v) for k, v in attributes.items() if v not in (None, "")})
