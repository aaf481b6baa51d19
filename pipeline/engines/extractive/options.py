"""Options asked of a named command: 'the -z option of the read builtin' must be read's own.

A man page lists the options of many commands, each command's under its own entry
(bash's `read [-ers] ...`, then `-a aname`, `-d delim`, ... as entries inside it). A
question naming an option and its command asks about that command's option: `test -z`,
elsewhere in the page, does not answer it. When the documents hold the command's entry
and no entry of that option inside it, the option is not there to answer about.
"""

from __future__ import annotations

import re

from pipeline.engines.extractive.terms import tokens
from pipeline.text.structure import Kind, Structure

_OPTION = r"--?[A-Za-z0-9][\w-]*"
# 'the -z option of the read builtin', 'the --login flag to bash'
_OPTION_OF = re.compile(
    rf"(?<![\w-])({_OPTION}) (?:option|flag|switch) (?:of|to|for|in) (?:the )?([A-Za-z][\w-]*)"
)
# "read's -z", 'ssh -N'
_COMMAND_OPTION = re.compile(rf"\b([a-z][\w-]*)(?:'s)? ({_OPTION})(?![\w-])")


def named_options(question: str) -> list[tuple[str, str]]:
    """(command, option) pairs the question names: 'the -e option of set' -> ('set', '-e')."""
    pairs = [(m.group(2), m.group(1)) for m in _OPTION_OF.finditer(question)]
    pairs += [(m.group(1), m.group(2)) for m in _COMMAND_OPTION.finditer(question)]
    # a command is a content word ('does -N' names no command)
    return list(dict.fromkeys((c, o) for c, o in pairs if tokens(c)))


def options_not_held(question: str, documents: list[tuple[str, Structure]]) -> list[str]:
    """'read -z' for each option the question asks of a command whose entry the documents
    (each a text and its structure) hold with no entry of that option inside it; empty
    when they hold no entry of it."""
    missing = []
    for command, option in named_options(question):
        entries = [_entries(text, structure, command, option) for text, structure in documents]
        if any(commands for commands, _ in entries) and not any(held for _, held in entries):
            missing.append(f"{command} {option}")
    return missing


def _entries(text: str, structure: Structure, command: str, option: str) -> tuple[int, bool]:
    """How many entries of `command` that list options a text holds, and whether one of
    them lists `option`. An entry that lists none (ssh's 'ssh -Q query' example, while
    ssh's options are entries of their own) says nothing about which options it has."""
    names = {
        b: first_name(text[block.start : block.end])
        for b, block in enumerate(structure)
        if block.kind == Kind.TERM
    }
    commands = {b for b, name in names.items() if name == command}
    if not commands:
        return 0, False
    listing: set[int] = set()
    held = False
    for b, name in names.items():
        if name.startswith("-"):
            inside = commands.intersection(structure.ancestors(b))
            listing |= inside
            held = held or (name == option and bool(inside))
    return len(listing), held


MOST_NAMES = 4
"""Most names an option entry opens with ('-a, --all, --every <x>'); a term line is split no
further than that."""


def entry_names(term: str) -> list[str]:
    """The names a term line opens with, first as written: ['-m', '--max-time'] of
    '-m, --max-time <seconds>', ['--color'] of '--color[=WHEN]', ['read'] of 'read [-ers]'."""
    words = term.split(None, MOST_NAMES)
    names = words[:1]
    for word in words[1:MOST_NAMES]:
        if not (word.startswith("-") and names[0].startswith("-")):
            break  # an option's names run on while they are options; then its argument
        names.append(word)
    return [_bare(name) for name in names]


def first_name(term: str) -> str:
    """entry_names(term)[0], split no further (the option check reads every entry)."""
    words = term.split(None, 1)
    return _bare(words[0]) if words else ""


def _bare(name: str) -> str:
    """'--color' of '--color[=WHEN]', '-s' of '-s,'."""
    name = name.rstrip(",:")
    for mark in "=[":
        at = name.find(mark)
        if at >= 0:
            name = name[:at]
    return name
