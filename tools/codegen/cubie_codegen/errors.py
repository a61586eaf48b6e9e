"""Errors in a definition: reported on one line as `file:line:column: error: problem
(hint)`, never as a traceback."""

from dataclasses import dataclass


def one_line(text: str) -> str:
    """`text` with every character that is not printable (line breaks, tabs, other control
    and format characters) escaped as Python writes it, so that a message, a file name or a
    comment stays on one line and shows what it holds."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


@dataclass(frozen=True)
class Location:
    path: str
    line: int = 0  # 1-based; 0 when unknown
    column: int = 0  # 1-based; 0 when unknown

    def shifted(self, columns: int) -> "Location":
        """The location `columns` characters to the right (inside one line)."""
        if self.line == 0:
            return self
        return Location(self.path, self.line, self.column + columns)

    def __str__(self) -> str:
        if self.line == 0:
            return self.path
        if self.column == 0:
            return f"{self.path}:{self.line}"
        return f"{self.path}:{self.line}:{self.column}"


class DefinitionError(Exception):
    """A mistake in a definition file, with where it is."""

    def __init__(self, location: Location, message: str):
        super().__init__(message)
        self.location = location
        self.message = message

    def __str__(self) -> str:
        return one_line(f"{self.location}: error: {self.message}")
