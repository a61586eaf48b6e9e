"""Mistakes a person can fix, reported on one line, never as a traceback: as the code
generator reports them, `file:line:column: error: problem` for a model or run file, and
`cubie: error: problem` for the rest."""

from cubie_codegen.errors import Location, one_line

__all__ = ["CliError", "Location"]


class CliError(Exception):
    """A mistake in what the command was given, with where it is when a file holds it.
    `status` is the exit status: 2 for a mistake in the input, 1 for a failure to do it."""

    def __init__(self, message: str, where: Location | None = None, status: int = 2):
        super().__init__(message)
        self.message = message
        self.where = where
        self.status = status

    def __str__(self) -> str:
        prefix = f"{self.where}: error: " if self.where else "cubie: error: "
        return one_line(prefix + self.message)
