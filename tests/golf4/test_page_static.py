"""The golf4 page module (no browser): every refusal code of the record page is explained in the
page's language."""

from __future__ import annotations

import re
from pathlib import Path

from dineri.golf4 import CODES

ROOT = Path(__file__).resolve().parents[2]
MODULE = (ROOT / "dineri" / "static" / "js" / "games" / "golf4.js").read_text(encoding="utf-8")


def test_every_golf4_refusal_code_is_explained() -> None:
    block = MODULE[MODULE.index("D.addErrors({"):]
    block = block[:block.index("});")]
    explained = set(re.findall(r"^\s+(\w+):", block, re.M))
    common = (ROOT / "dineri" / "static" / "js" / "common.js").read_text(encoding="utf-8")
    shared = set(re.findall(r"^\s+(\w+):", common[common.index("var ERRORS = {"):].split("};")[0], re.M))
    assert CODES - shared <= explained and "cannot_discard_taken" in explained

