"""The docs stand alone in a clone: every relative link in README.md and docs/*.md resolves, every
repository path they name in backquotes exists, and every path in the README's layout exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
QUOTED_PATH = re.compile(r"`((?:docs|strati|examples|bench|tests)/[^`\s*{}<>]*)`")  # no globs or placeholders


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_relative_links_resolve(page: Path):
    text = page.read_text(encoding="utf-8")
    missing = []
    for target in LINK.findall(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a URL or an anchor in the page
        if not (page.parent / target.split("#", 1)[0]).exists():
            missing.append(target)
    for path in QUOTED_PATH.findall(text):
        if not (ROOT / path.rstrip(".,:;")).exists():
            missing.append(path)
    assert not missing, f"{page_id(page)} names what the repository does not have: {missing}"


def test_readme_layout_exists():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = text.split("## Layout", 1)[1].split("```")[1]
    paths = [line.split()[0] for line in layout.splitlines() if line.strip()]
    assert len(paths) > 10
    assert [p for p in paths if not (ROOT / p).exists()] == []


def test_no_link_leaves_the_repository():
    for page in PAGES:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if not re.match(r"[a-z][a-z0-9+.-]*:", target) and not target.startswith("#"):
                resolved = (page.parent / target.split("#", 1)[0]).resolve()
                assert resolved.is_relative_to(ROOT), f"{page_id(page)} links outside the repository: {target}"
