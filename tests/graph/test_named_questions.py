"""Questions that say what kind of thing they want: a section (its heading is the answer)
or a named class, package or option (which the documents must hold to answer), or what
is not so."""

from __future__ import annotations

import pytest

from pipeline import Settings, ask
from pipeline.prompts import NOT_FOUND

OFF = Settings(cache="off")

HARBOUR_LICENCE = """HARBOUR PUBLIC LICENCE

1. Definitions.

"The Software" means the harbour tables and the programs that read them. The words this
section defines mean the same in every other section.

2. Permissions.

You may copy and share the Software, provided you keep this notice with every copy, as
this section and section 4 require.

3. Termination.

Your rights under this licence end automatically if you break any of its terms.

4. Governing Law.

Any dispute about a termination is settled under the law of Norway.
"""

RELEASE_NOTES = """# Typeset 2.4 release notes

## Classes

The report class now numbers its appendices with Roman numerals.

The letter class accepts a second signature line.

## Packages

The graphics package reads WebP images.
"""


def test_which_section_is_answered_with_the_sections_heading() -> None:
    result = ask(HARBOUR_LICENCE, "Which section of the licence covers termination?", settings=OFF)
    assert result.answer.startswith("3. Termination: Your rights under this licence end")


def test_a_class_the_documents_never_name_is_not_found() -> None:
    result = ask(RELEASE_NOTES, "What does the poster class accept?", settings=OFF)
    assert result.answer == NOT_FOUND["en"]
    named = ask(RELEASE_NOTES, "What does the letter class accept?", settings=OFF)
    assert named.answer.startswith("The letter class accepts a second signature line.")


TEA_BUILTINS = """TEA(1)                      General Commands Manual                     TEA(1)

NAME
       tea - a shell for brewing tea

SHELL BUILTIN COMMANDS
       pour [-c] [-t temp] [cup]
              Pour the tea into cup, or into the default cup.  The options are:
              -c     Pour the tea over ice, for a cold brew.
              -t temp
                     Heat the water to temp degrees before pouring.

       steep [-z] [-m minutes]
              Steep the leaves in the pot.  The options are:
              -m minutes
                     Steep for this many minutes; the default is three.
              -z     Steep with zero agitation, so the leaves stay whole.
"""


def test_an_option_is_answered_only_under_the_command_the_question_names() -> None:
    steep = ask(TEA_BUILTINS, "What does the -z option of the steep builtin do?", settings=OFF)
    assert steep.answer.startswith("steep -z: Steep with zero agitation")
    pour = ask(TEA_BUILTINS, "What does the -t option of the pour builtin do?", settings=OFF)
    assert pour.answer.startswith("pour -t temp: Heat the water to temp degrees")
    # pour has no -z: steep's is no answer about pour
    absent = ask(TEA_BUILTINS, "What does the -z option of the pour builtin do?", settings=OFF)
    assert absent.answer == NOT_FOUND["en"]


KETTLE_BUILTINS = """KETTLE(1)                   General Commands Manual                  KETTLE(1)

SHELL BUILTIN COMMANDS
       boil [-a] [-d degrees] [-f] [-l litres] [-n] [-s] [-t minutes] [-w] [-x
       level] [-y] [name ...]
              Boil the water in the kettle named name.  The options are:
              -a     Boil again when the water has cooled.
              -x level
                     Fill the kettle to level before boiling.

       pour [-z]
              Pour the water.  The options are:
              -z     Pour it slowly, in a zigzag.
"""


def test_a_command_whose_term_line_wraps_keeps_its_options_apart() -> None:
    # The term line 'boil [-a] ... [-x' goes on at its own indent with 'level] ...'; pour's
    # -z is no answer about boil.
    held = ask(KETTLE_BUILTINS, "What does the -x option of the boil builtin do?", settings=OFF)
    assert held.answer.startswith("boil -x level: Fill the kettle to level")
    absent = ask(KETTLE_BUILTINS, "What does the -z option of the boil builtin do?", settings=OFF)
    assert absent.answer == NOT_FOUND["en"]


PIXEL_READER = """# Pixel reader

The reader opens PNG and JPEG images from disk or from a URL.

It caches every image it opens for an hour.

This version doesn’t read the TIFF format.
"""


def test_a_negation_written_with_a_typographic_apostrophe_answers_a_not_question() -> None:
    question = "Which image format does this version of the reader not read?"
    result = ask(PIXEL_READER, question, settings=OFF)
    assert result.answer.startswith("This version doesn’t read the TIFF format.")


# The question's only content is the option: 'What' and 'do' are no words to search for.
STILL_OPTIONS = """STILL(1)                    General Commands Manual                   STILL(1)

OPTIONS
       -T threads, --threads=threads
              Run the still with this many burners at once.

       --skip-check
              Do not use this option unless you know what you are doing.  What
              it does is leave the spirit untested.
"""


def test_a_question_naming_only_an_option_is_answered_by_that_option_alone() -> None:
    result = ask(STILL_OPTIONS, "What does -T do?", settings=OFF)
    expected = "-T threads, --threads=threads: Run the still with this many burners at once."
    assert result.answer == expected


FINDER_PAGE = """NAME
       finder - search for files in a directory tree

TESTS
       -mtime n
              File's data was last modified less than, more than or exactly n*24
              hours ago.

       -size n
              File uses less than, more than or exactly n units of space.

EXAMPLES
       finder $HOME -mtime 0
              Search for files in your home directory which have been modified in
              the last twenty-four hours.
"""


def test_a_number_a_how_to_question_gives_is_the_askers_not_the_documents() -> None:
    # 'the last 3 days' is what the asker will pass to -mtime: no page states a 3 there
    result = ask(FINDER_PAGE, "How do I find files modified in the last 3 days?", settings=OFF)
    assert result.answer != NOT_FOUND["en"]
    assert "modified" in result.answer
    # asked as a fact, a number the page never states is still not there
    fact = ask(FINDER_PAGE, "Which files were modified 3 days ago?", settings=OFF)
    assert fact.answer == NOT_FOUND["en"]


TALLY_PAGE = """NAME
       tally - count the lines of files

FORMAT
       The valid format sequences for --format are:

       %l     lines in the file

       %L     length of the longest line

       %m     time of last change, human-readable

       %M     time of last change, seconds since Epoch
"""


def test_a_format_directive_is_searched_as_written() -> None:
    # '%m' has no word a stemmer keeps, and its case tells it from '%M'
    result = ask(TALLY_PAGE, "What does %m show?", settings=OFF)
    assert result.answer == "%m: time of last change, human-readable"
    result = ask(TALLY_PAGE, "What does %M show?", settings=OFF)
    assert result.answer == "%M: time of last change, seconds since Epoch"
    assert ask(TALLY_PAGE, "What does %q show?", settings=OFF).answer == NOT_FOUND["en"]


EXIT_STATUS_PAGES = {
    "zh": (
        "退出状态\n\n"
        "从 shell 的角度看，一个命令退出状态是 0 意味着成功退出。退出状态是 0 表明成功。\n\n"
        "如果搜索不成功，shell 输出错误消息，返回退出状态 127。\n",
        "退出状态 127 表示什么？",
        "如果搜索不成功，shell 输出错误消息，返回退出状态 127。",
    ),
    "en": (
        "EXIT STATUS\n\n"
        "For the shell's purposes, a command which exits with a zero exit status has\n"
        "succeeded. An exit status of zero indicates success.\n\n"
        "If a command is not found, the child process created to execute it returns a\n"
        "status of 127.\n",
        "what does exit status 127 mean?",  # typed without capitals
        "If a command is not found, the child process created to execute it returns a status "
        "of 127.",
    ),
}


@pytest.mark.parametrize("language", EXIT_STATUS_PAGES)
def test_a_number_asked_of_without_capitals_is_still_decisive(language: str) -> None:
    # a Chinese question has no capitals; the number in it names the status asked about
    text, question, answer = EXIT_STATUS_PAGES[language]
    assert ask(text, question, settings=OFF).answer.startswith(answer)


MUSEUM_GUIDE = """The bronze lions at the garden gate were made by Thomas Brock in 1890.

British sculptors of the period made most of the garden statues, which collectors gave to
the museum.
"""


def test_a_name_describing_what_is_asked_need_not_be_in_its_sentence() -> None:
    # 'British' says what kind of sculptor is wanted; the sentence naming him need not
    # repeat it, and one that says 'British' of other sculptors answers another question.
    result = ask(MUSEUM_GUIDE, "Which British sculptor made the bronze lions?", settings=OFF)
    assert result.answer.startswith("The bronze lions at the garden gate were made by Thomas")


def test_a_describing_name_the_documents_never_write_is_still_not_found() -> None:
    # Asked of documents that never say 'French', the question may be about other ones.
    result = ask(MUSEUM_GUIDE, "Which French sculptor made the bronze lions?", settings=OFF)
    assert result.answer == NOT_FOUND["en"]


BANDS = """The Rolling Stones released the album Let It Bleed in 1969.

The Beatles toured Japan in 1966, and their album Abbey Road came out three years later.
"""


def test_a_name_in_the_question_word_phrase_that_is_no_adjective_is_still_required() -> None:
    # 'Beatles' is whose album is asked about, not what kind of album
    result = ask(BANDS, "Which Beatles album was released in 1969?", settings=OFF)
    assert result.citations[0].quote.startswith("The Beatles toured Japan")
