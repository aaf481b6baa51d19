"""Questions comparing two things, and what counts as naming each."""

from __future__ import annotations

import pytest

from pipeline.engines.extractive.compare import (
    DEFINED,
    NAMED,
    Side,
    arranged,
    compared_sides,
    each_side,
)
from pipeline.engines.extractive.retrieval import defines


@pytest.mark.parametrize(
    ("question", "sides"),
    [
        ("What is the difference between push and push_str?", ["push", "push_str"]),
        (
            "What are the differences between a Transparent copy and an Opaque copy?",
            ["Transparent copy", "Opaque copy"],
        ),
        ("How does -z differ from -d?", ["-z", "-d"]),
        ("Compare --keep with --force.", ["--keep", "--force"]),
        ("When should I use gzip vs xz?", ["gzip", "xz"]),
        ("Transparent copy vs. Opaque copy?", ["Transparent copy", "Opaque copy"]),
        ("What is the difference between v1.2 and v1.3?", ["v1.2", "v1.3"]),
        ("What is the difference between gzip and xz for log files?", ["gzip", "xz"]),
        ("What is the difference between --keep and --force, if any?", ["--keep", "--force"]),
        ("How do push and push_str differ?", ["push", "push_str"]),
        ("GZIP VS XZ?", ["GZIP", "XZ"]),
        ("How do I compare a directory to a backup?", []),  # how to compare: no sides
        ("What is the difference?", []),
        ("What does push_str do?", []),
    ],
)
def test_the_two_things_a_question_compares(question: str, sides: list[str]) -> None:
    assert compared_sides(question) == sides


def test_a_side_inside_the_others_name_is_named_only_alone() -> None:
    push = Side("push", "push_str")
    assert push.said_in("The push method takes a single character.")
    assert not push.said_in("Use the push_str method to append a slice.")
    assert Side("push_str", "push").said_in("Use the push_str method to append a slice.")


def test_a_side_is_told_by_the_words_the_other_side_lacks() -> None:
    transparent = Side("Transparent copy", "Opaque copy")
    assert transparent.said_in('A "Transparent" copy of the Document means ...')
    assert not transparent.said_in("An Opaque copy is any other copy.")


def test_each_side_is_answered_by_its_definition_over_a_clause_naming_both() -> None:
    sides = ["Draft copy", "Final copy"]
    shown = ["If you send Final copies to a printer, include a Draft copy with each Final copy."]
    candidates = [
        shown[0],
        "Keep the Draft copy until the printer confirms the order.",
        'A "Draft" copy means a copy that still carries the editors\' marks.',
        'A copy that is not "Draft" is called "Final".',
    ]
    assert each_side(sides, shown, candidates) == [2, 3]
    answer = [*shown, candidates[2], candidates[3]]
    assert arranged(sides, answer) == [1, 2]  # the clause goes once both are defined


def test_a_sentence_contrasting_the_sides_stays_beside_their_definitions() -> None:
    sides = ["Draft copy", "Final copy"]
    shown = [
        "Unlike a Draft copy, a Final copy carries no marks.",
        'A "Draft" copy means a copy that still carries the editors\' marks.',
        'A copy that is not "Draft" is called "Final".',
    ]
    assert arranged(sides, shown) == [1, 2, 0]  # definitions first, the contrast kept
    # ... and a clause is kept when only one side has its definition shown
    assert arranged(sides, ["Send Final copies to the printer.", shown[1]]) == [1, 0]


@pytest.mark.parametrize(
    "clause",
    [
        # brackets after the side's name that say how or which, not what it is
        "as long as you go on to distribute a Draft copy (directly or through agents)",
        "(i) the changes made by the printer to a Draft copy (ii) the editors' own notes",
    ],
)
def test_brackets_after_a_side_that_do_not_gloss_it_do_not_define_it(clause: str) -> None:
    assert Side("Draft copy", "Final copy").level(clause) == NAMED


def test_a_side_named_inside_the_other_is_not_defined_by_the_others_definition() -> None:
    sides = ["Work", "Derivative Work"]
    derivative = '"Derivative Works" shall mean any work that is based on the Work.'
    work = '"Work" shall mean the work of authorship made available under the License.'
    assert Side(*sides).level(derivative) != DEFINED
    assert Side(*sides).level(work) == DEFINED
    assert each_side(sides, [derivative], [derivative, work]) == [1]


def test_a_side_already_shown_is_shown_more_only_by_its_definition() -> None:
    sides = ["push", "push_str"]
    shown = ["We can grow a String by using the push_str method to append a slice."]
    candidates = [*shown, "The push_str method took ownership of s2 here.", "Push one char."]
    assert each_side(sides, shown, candidates) == [2]  # push added; push_str shown already


@pytest.mark.parametrize(
    ("clause", "subject"),
    [
        ("The package ships rich (cli tool for terminal output) with extras.", ["rich"]),
        ("They publish under the GPL (family of licenses) now.", ["gpl"]),
    ],
)
def test_a_gloss_opening_with_a_noun_still_defines(clause: str, subject: list[str]) -> None:
    assert defines(clause, subject)


def test_an_entry_is_its_sides_definition_and_reads_in_the_questions_order() -> None:
    sides = ["--create", "--append"]
    shown = ["-r, --append: Append files to an archive.", "-c, --create: Create an archive."]
    assert Side(*sides).level(shown[1]) == DEFINED
    assert arranged(sides, shown) == [1, 0]


def test_a_run_in_title_naming_a_side_is_no_entry_of_it() -> None:
    sides = ["Contribution", "Contributor"]
    title = "Submission of Contributions: any Contribution submitted is under this License."
    assert Side(*sides).level(title) != DEFINED
    assert Side(*sides).level('1.7. "Contribution": means any work of authorship.') == DEFINED
    # ... while an option's entry names its arguments too
    assert Side("-exec", "-execdir").level("-exec command ;: Execute command.") == DEFINED


@pytest.mark.parametrize(
    ("sentence", "subject", "defining"),
    [
        ("The optional `files` field is an array of file patterns.", ["file", "field"], True),
        ("`Vec` is a growable array type.", ["vec"], True),
        ("Calling `unwrap` is dangerous.", ["unwrap"], False),
        ("The `--force` flag is dangerous.", ["flag"], False),
        ("The `main` function is the entry point.", ["function"], False),
    ],
)
def test_code_quotes_in_a_defining_head_are_quotes_only_around_the_subject(
    sentence: str, subject: list[str], defining: bool
) -> None:
    assert defines(sentence, subject) is defining
