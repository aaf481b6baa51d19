"""Answers on changelogs and man pages that name a release, a version or an option."""

from __future__ import annotations

from pipeline import AskResult, ask
from pipeline.prompts import NOT_FOUND

CHANGELOG = """# Changelog

## 3.8 (2nd September, 2022)

### Changed

* The -P option is now based on PCRE2. The -P option is faster, and the -P option
  warns about stray backslashes in every pattern it reads.

### Fixed

* The retry limit is read from the config file again.
* Patterns of 4 or more characters are cached, and a cache of 0 bytes turns it off.

## 2.5 (1st January, 2021)

### Changed

* The -P option is based on PCRE.
* Drop support for Python 3.6.
"""
"""A Keep-a-Changelog file: entries under a kind of change, under their release."""

MAN_PAGE = """NAME
       demo - a demonstration shell

OPTIONS
       -e      Exit immediately if a pipeline returns a non-zero status.
       -x      Print commands and their arguments as they are executed.

ESCAPE CHARACTERS
       ~.      Disconnect.
       ~^Z     Background the session: the option keeps it running.

JOB CONTROL
       Typing the suspend character (typically ^Z, Control-Z) while a process
       is running causes that process to be stopped.
"""


def _ask(text: str, question: str) -> AskResult:
    return ask({"id": "doc", "text": text}, question)


def test_which_release_is_answered_with_the_heading_the_entry_sits_under() -> None:
    result = _ask(CHANGELOG, "Which release dropped support for Python 3.6?")
    assert result.answer.startswith("2.5 (1st January, 2021): Drop support for Python 3.6.")


def test_a_documents_own_version_in_its_title_is_no_release_of_its_sections() -> None:
    licence = (
        "# Widget Licence, Version 2.1 (3 November 2008)\n\n## 1. Grant\n\nYou may copy it.\n\n"
        "## 9. Termination\n\nYour rights terminate when you break a condition of this Licence.\n"
    )
    result = _ask(licence, "When do my rights terminate?")
    assert result.answer.startswith("Your rights terminate when you break a condition")
    # a changelog of one release still names it
    changelog = "# Changelog\n\n## 0.1.0 (2024-03-01)\n\n- Added the --dry-run flag.\n"
    added = _ask(changelog, "When was the --dry-run flag added?")
    assert added.answer.startswith("0.1.0 (2024-03-01): Added the --dry-run flag.")


def test_a_version_in_the_question_is_found_in_the_release_heading_above_the_entry() -> None:
    # The entry of 3.8 says more about -P, but the question asks about 2.5, whose number
    # is two headings above its entry.
    result = _ask(CHANGELOG, "What is the -P option based on in 2.5?")
    assert result.answer.startswith("The -P option is based on PCRE.")


def test_a_release_the_changelog_never_mentions_is_not_found() -> None:
    # '4' and '0' are both there, in another entry; the release 4.0 is not.
    assert _ask(CHANGELOG, "What is new in 4.0?").answer == NOT_FOUND["en"]


def test_an_option_the_man_page_never_writes_is_not_found() -> None:
    # 'Z' is there (in '~^Z' and 'Control-Z'); the option '-Z' is not.
    assert _ask(MAN_PAGE, "What does the -Z option do?").answer == NOT_FOUND["en"]
    assert _ask(MAN_PAGE, "What does the -x option do?").answer.startswith("-x: Print commands")


def test_a_variable_in_capitals_one_letter_off_another_is_not_read_as_a_typo() -> None:
    page = MAN_PAGE + (
        "\nPROMPTING\n       PROMPT  Set the prompt: the string shown before each command is"
        " read.\n              The right prompt is the same on every line.\n"
    )
    assert _ask(page, "How do I set a right-hand prompt with RPROMPT?").answer == NOT_FOUND["en"]


NEWS = """# Pumpkit news

## 4.2 (3rd March, 2025)

* The drain valve closes on its own after ten minutes.
* The display shows the water temperature.

## 4.1 (5th January, 2025)

* Mostly a bug fix release.
* The timer now needs the latest version of the clock library.

## 4.0 (1st October, 2024)

* First release with a display.
"""
"""A changelog whose older entry says 'latest version', about another program."""


def test_the_latest_release_is_answered_with_the_newest_releases_entries() -> None:
    for question in ("What changed in the latest release?", "What's new?"):
        result = _ask(NEWS, question)
        assert result.answer.startswith(
            "4.2 (3rd March, 2025): The drain valve closes on its own after ten minutes."
        ), question
        assert "clock library" not in result.answer
        assert all(c.start < NEWS.index("## 4.1") for c in result.citations)


def test_a_word_of_the_question_ranks_the_newest_releases_entries() -> None:
    result = _ask(NEWS, "What does the display show in the latest release?")
    assert result.answer.startswith("4.2 (3rd March, 2025): The display shows the water")


def test_the_latest_version_of_another_program_is_not_the_newest_release() -> None:
    result = _ask(NEWS, "Which latest version of the clock library does the timer need?")
    assert "The timer now needs the latest version of the clock library." in result.answer


OLD_NEWS = """Pumpkit NEWS                                    -*- outline -*-

* Noteworthy changes in release 9.1 (2022-04-15)

  The drain valve closes on its own after ten minutes.

* Noteworthy changes in release 9.0 (2021-09-24)

  The display shows the water temperature.

* Noteworthy changes in release 8.32 (2020-03-05)

  The timer keeps counting when the lid is opened.

* The pump's relay now works on boards of model 10.20
"""
"""A NEWS file whose oldest entry reads as a heading and carries a larger number."""


def test_the_newest_release_is_told_by_most_headings_not_the_last_number() -> None:
    result = _ask(OLD_NEWS, "What's new in the latest release?")
    assert "The drain valve closes on its own" in result.answer


# A NEWS file that titles each release with a line ending in its version and a colon.
WHATS_NEW = """What's new in tidekit 2.1.0:

* Fix the rounding of heights below one centimetre.

What's new in tidekit 2.0.0:

* Add station groups.

Existing users that are upgrading to 2.0 should ensure that:

* Their station table is converted.

Version 1.9:

The harbour list is read from the network.
"""


def test_a_release_titled_by_a_line_ending_in_its_version_is_a_release() -> None:
    result = ask(WHATS_NEW, "What changed in the latest release?")
    assert result.answer.startswith(
        "What's new in tidekit 2.1.0: Fix the rounding of heights below one centimetre."
    )
    older = ask(WHATS_NEW, "When was the harbour list first read from the network?")
    assert older.answer.startswith("Version 1.9: The harbour list is read from the network.")


PATCH_RELEASES = """# Changelog

## v4.12.3 (2026-11-04)

* This release fixes a crash when 12 or more workers start at once on Python 3.12.

## v4.12.2 (2026-10-29)

* This release ships wheels for 4 more platforms; the v4 line gets them first.

## v4.12.1 (2026-10-11)

* GitHub release

## v4.12.0 (2026-10-08)

* This release drops the 1.x config format, deprecated since v4.1.
"""
"""Patch releases whose numbers ('4', '12', '1') each appear under most of them."""


def test_a_release_asked_of_by_its_version_is_that_release() -> None:
    result = ask(PATCH_RELEASES, "When was v4.12.1 released?")
    assert result.answer.startswith("v4.12.1 (2026-10-11)")


RELEASES = """# Changelog

## v3.2.0 (2026-10-08)

[GitHub release](https://example.org/tidy/releases/tag/v3.2.0)

## v3.1.0 (2025-05-02)

[GitHub release](https://example.org/tidy/releases/tag/v3.1.0)

* Add a `--wrap` option.

## v3.0.0 (2024-11-20)

The code released in v3.0.0 is the code of v3.0.0b2, released in October.
"""
"""Release headings whose versions share their parts (v3, 0) with every other."""


def test_when_a_version_was_released_is_answered_by_its_own_heading() -> None:
    # v3.0.0's entry says 'released' twice and shares 'v3' and '0' with the question,
    # but names another release: the version as written decides
    result = _ask(RELEASES, "When was v3.2.0 released?")
    assert result.answer.startswith("v3.2.0 (2026-10-08)")


SERIES_NEWS = """# Pumpkit releases

## 2.1 series

### 2.1.3

* The timer keeps counting when the lid is opened.

### 2.1.2

* The display shows the water temperature.

## 2.0 series

### 2.0.9

* The drain valve closes on its own after ten minutes.
"""
"""Releases grouped by series: '2.1.3' under '2.1 series' is a release, not a section."""


def test_releases_grouped_under_their_series_are_still_releases() -> None:
    result = _ask(SERIES_NEWS, "What changed in the latest release?")
    assert "The timer keeps counting when the lid is opened." in result.answer
    assert "water temperature" not in result.answer
