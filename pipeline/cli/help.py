"""Help screens in the usual shape (`ask [OPTIONS] PATH... QUESTION`, `--out DIR`).

Typer renders each parameter's Python type as a tag (`<bool>`, `<list[Path]>`, `<int>`)
and wraps required arguments in braces (`{PATH...}...`), with no switch to turn either
off. These command classes show arguments by their metavar, flags bare, and options by
their metavar (or the type's usual upper-case name), as click-style tools do.
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

# Typer's click (vendored in recent releases) is typed loosely here so any Typer release fits.
Context = Any
Parameter = Any


_TYPE_NAMES = {"<str>": "TEXT", "<int>": "INTEGER", "<float>": "FLOAT"}


class _Argument(TyperArgument):
    def display_type_rich(self, ctx: Context) -> str | None:
        return None

    def get_usage_pieces(self, ctx: Context) -> list[str]:
        return [self.display_name_raw]


class _Option(TyperOption):
    def display_type_rich(self, ctx: Context) -> str | None:
        if self.is_flag or self.count:
            return None
        if self.metavar:
            return str(self.metavar)
        shown = super().display_type_rich(ctx)  # e.g. "<int>" or "<int range>"
        return _TYPE_NAMES.get(shown, shown.strip("<>").upper()) if shown else None


def _plain(params: list[Parameter]) -> list[Parameter]:
    # Typer builds its own parameter classes with no hook to choose them; the subclasses
    # above only change how a parameter is shown, never how it parses.
    for param in params:
        if type(param) is TyperArgument:
            param.__class__ = _Argument
        elif type(param) is TyperOption:
            param.__class__ = _Option
    return params


class Command(TyperCommand):
    """A command whose help shows no type tags (see the module docstring)."""

    def get_params(self, ctx: Context) -> list[Parameter]:
        return _plain(super().get_params(ctx))


class Group(TyperGroup):
    """The top-level `longdoc` group, with the same plain help as its commands."""

    def get_params(self, ctx: Context) -> list[Parameter]:
        return _plain(super().get_params(ctx))
