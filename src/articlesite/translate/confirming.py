"""`python build.py translations confirm TARGET... [--all]`: record that translations are
right for the current source text. A target `KEY[:LANG]` names a figure text (record.py),
`SLUG[#SECTION][:LANG]` an article's translated sections (section_checks.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..problems import UsageError, command
from .record import confirm
from .section_checks import confirm_sections, is_article_target

if TYPE_CHECKING:
    from ..load.sources import Sources

TARGETS = "KEY[:LANG] or SLUG[#SECTION][:LANG]"


def confirm_targets(sources: Sources, targets: list[str], everything: bool,
                    every_section: bool = False) -> list[str]:
    """Confirm each target, with `everything` every figure text but those identical to
    the source text, and with `every_section` every translated section of every article;
    what was done, a line each. Raises UsageError for a target that names nothing."""
    if not targets and not everything and not every_section:
        raise UsageError(f"name what to confirm ({TARGETS}), or give --all or --sections")
    sections = [target for target in targets if is_article_target(sources, target)]
    keys = [target for target in targets if target not in sections]
    done = confirm(sources, keys, everything) if keys or everything else []
    if sections or every_section:
        done += confirm_sections(sources, sections, every_section)
    elif everything and sources.articles:
        done.append(f"Articles' sections were not confirmed: review them, then "
                    f"`{command()} translations confirm --sections` (or SLUG[#SECTION])")
    return done
