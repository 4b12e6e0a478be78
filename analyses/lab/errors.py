"""The lab's input errors: one line naming the problem, in the words of whoever called.

A lab function is called from Python (its parameters: ``players``, ``chunk_size``) and by the
command line (its options: ``--players``, ``--chunk-size``). An error about a parameter is a
:class:`ParameterError`: its message names the Python parameter, and the command line prints its
``command_line`` wording instead (``cli.py`` through :func:`analyses.lab.validate.command_line_error`).
"""
from __future__ import annotations

# Python parameters whose command-line option is not their name with dashes
OPTION_OF = {"strategies": "--strategy", "variants": "--variant", "swaps": "--swap", "restrictions": "--restriction"}


class LabInputError(ValueError):
    """Bad input to a lab function: one line naming the problem (the command line's exit code 2)."""


class ParameterError(LabInputError):
    """A parameter's bad value: ``str()`` names the Python parameter, :attr:`command_line` the option."""

    def __init__(self, message: str, command_line: str | None = None) -> None:
        super().__init__(message)
        self.command_line = command_line if command_line is not None else message


def option(name: str) -> str:
    """The command line's option of Python parameter ``name``: ``chunk_size`` -> ``--chunk-size``."""
    return OPTION_OF.get(name, "--" + name.replace("_", "-"))


def parameter_error(name: str, rest: str) -> ParameterError:
    """``"<name> <rest>"``: ``players must be 1 to 4, got 9`` (the command line: ``--players must be ...``)."""
    return ParameterError(f"{name} {rest}", f"{option(name)} {rest}")
