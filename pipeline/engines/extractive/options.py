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
from pipeline.text.layout import analyse
from pipeline.text.structure import Kind, Structure

_OPTION = r"--?[A-Za-z0-9][\w-]*"
# 'the -z option of the read builtin', 'the --login flag to bash'
_OPTION_OF = re.compile(
    rf"(?<![\w-])({_OPTION}) (?:option|flag|switch) (?:of|to|for|in) (?:the )?([A-Za-z][\w-]*)"
)
# "read's -z", 'ssh -N'
_COMMAND_OPTION = re.compile(rf"\b([a-z][\w-]*)(?:'s)? ({_OPTION})(?![\w-])")


MOST_INDENT = 40
"""Deepest indent of a command's term line looked for (a man page's sit 7 or 14 in)."""


def named_options(question: str) -> list[tuple[str, str]]:
    """(command, option) pairs the question names: 'the -e option of set' -> ('set', '-e')."""
    pairs = [(m.group(2), m.group(1)) for m in _OPTION_OF.finditer(question)]
    pairs += [(m.group(1), m.group(2)) for m in _COMMAND_OPTION.finditer(question)]
    # a command is a content word ('does -N' names no command)
    return list(dict.fromkeys((c, o) for c, o in pairs if tokens(c)))


def options_not_held(question: str, texts: list[str]) -> list[str]:
    """'read -z' for each option the question asks of a command whose entry the texts hold
    with no entry of that option inside it; empty when they hold no entry of it."""
    missing = []
    for command, option in named_options(question):
        listed = held = False
        for entry in (entry for text in texts for entry in command_entries(text, command)):
            commands, held = _entries(entry, analyse(entry), command, option)
            listed = listed or bool(commands)
            if held:  # one entry holding it is enough: the rest need no layout
                break
        if listed and not held:
            missing.append(f"{command} {option}")
    return missing


def command_entries(text: str, command: str) -> list[str]:
    """The stretches of `text` that may be `command`'s entry: from a line that starts with
    its name (and up to two more at its indent: `set [-abe...]` / `set [+abe...]`, or a term
    wrapped at a bracket, `read [-ers] ... [-p` / `prompt] [-t timeout] ...`) through the
    lines indented deeper than it, blank lines between them included.

    Only these are laid out for the check, not the whole text: a man page's layout pass
    takes seconds at 10 MB, and an entry is told by its own lines and the ones inside it."""
    name = re.escape(command)
    # The term line(s), then at least one deeper line: a line with none below it holds no
    # entries (most lines that start with the name are prose).
    deeper = r"\1[ \t]+\S[^\n]*(?:\n|\Z)"
    entry = re.compile(
        rf"([ \t]*){name}(?![\w-])[^\n]*(?:\n|\Z)(?:\1\S[^\n]*(?:\n|\Z)){{0,2}}"
        rf"(?:[ \t]*\n)*{deeper}(?:[ \t]*\n|{deeper})*"
    )
    found: list[str] = []
    taken = 0  # the end of the last stretch: one inside it is laid out with it already
    # The name alone, then the checks: a regex that starts with a lookbehind is not searched
    # for its literal first, and is tried at every one of a long text's characters.
    for match in re.finditer(rf"{name}(?![\w-])", text):
        at = match.start()
        if at < taken or (at and (text[at - 1].isalnum() or text[at - 1] in "_-")):
            continue
        # Only so far back: on a text of one long line, every use would search all of it.
        reach = max(0, at - MOST_INDENT - 1)
        line_start = text.rfind("\n", reach, at) + 1
        if (line_start == 0 and reach > 0) or text[line_start:at].strip(" \t"):
            continue  # not the first word of its line
        stretch = entry.match(text, line_start)
        if stretch is not None:
            found.append(stretch.group())
            taken = stretch.end()
    return found


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
    '-m, --max-time <seconds>', ['--color'] of '--color[=WHEN]', ['read'] of 'read [-ers]';
    an option's term of several lines names it on each: ['-w', '--wait'] of wget's
    '-w seconds' over '--wait=seconds'; quotes around a name are no part of it (a Texinfo
    info file's '‘-N’' over '‘--timestamping’')."""
    lines = term.translate(_NAME_QUOTES).splitlines()
    names = _opening_names(lines[0]) if lines else []
    if names and names[0].startswith("-"):
        for line in lines[1:MOST_NAMES]:
            if not line.lstrip().startswith("-"):
                break
            names += _opening_names(line)
    return [_bare(name) for name in names]


_NAME_QUOTES = str.maketrans("", "", "‘’")
# What stands between two names of one option: '-N or --LINE-NUMBERS', '--sort-keys / -S'.
_BETWEEN_NAMES = frozenset(("/", "|", "or"))


def _opening_names(line: str) -> list[str]:
    words = line.split(None, MOST_NAMES + 2)[: MOST_NAMES + 2]
    if words and words[0].startswith("-") and "/-" in words[0]:
        words[:1] = words[0].split("/")  # '--raw-input/-R:'
    names = words[:1]
    for word in words[1:]:
        if word in _BETWEEN_NAMES:
            continue
        if not (word.startswith("-") and names[0].startswith("-")) or len(names) >= MOST_NAMES:
            break  # an option's names run on while they are options; then its argument
        names.append(word)
    return names


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
