"""`python build.py translations confirm TARGET... [--all]`: record that translations are
right for the current source text. A target `KEY[:LANG]` names a figure text (record.py),
`SLUG[#SECTION][:LANG]` an article's translated sections (section_checks.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..problems import UsageError
from .record import confirm
from .section_checks import confirm_sections, is_article_target

if TYPE_CHECKING:
    from ..load.sources import Sources

TARGETS = "KEY[:LANG] or SLUG[#SECTION][:LANG]"


def confirm_targets(sources: Sources, targets: list[str], everything: bool) -> list[str]:
    """Confirm each target, and with `everything` every translation but those identical
    to the source text; what was done, a line each. Raises UsageError for a target that
    names nothing."""
    if not targets and not everything:
        raise UsageError(f"name what to confirm ({TARGETS}), or give --all")
    sections = [target for target in targets if is_article_target(sources, target)]
    keys = [target for target in targets if target not in sections]
    done = confirm(sources, keys, everything) if keys or everything else []
    return done + confirm_sections(sources, sections, everything)
