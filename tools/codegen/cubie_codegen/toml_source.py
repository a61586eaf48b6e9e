"""A TOML file as read for its messages: the parsed data, and where each `key = value`
is written, since tomllib reports positions only for syntax errors. Needs no SymPy, so
that tools which only read definitions or run files start quickly."""

import re
import tomllib

from cubie_codegen.errors import DefinitionError, Location


class Locator:
    """Line and column of each `key = value` in the file, by table; the k-th table of an
    array of tables `[[name]]` is the table "name#k" (from 0)."""

    KEY = re.compile(r"""\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*=\s*""")
    TABLE = re.compile(r"\s*\[\s*([A-Za-z0-9_-]+)\s*\]")
    ARRAY_TABLE = re.compile(r"\s*\[\[\s*([A-Za-z0-9_-]+)\s*\]\]")

    def __init__(self, path, text):
        self.path = path
        self.keys = {}  # (table, key) -> (line, value column, key column)
        self.tables = {}
        table = ""
        arrays = {}  # how many [[name]] tables so far, by name
        for number, line in enumerate(text.splitlines(), start=1):
            m = self.ARRAY_TABLE.match(line)
            if m:
                k = arrays.get(m.group(1), 0)
                arrays[m.group(1)] = k + 1
                table = f"{m.group(1)}#{k}"
                self.tables.setdefault(table, number)
                self.tables.setdefault(m.group(1), number)
                continue
            m = self.TABLE.match(line)
            if m:
                table = m.group(1)
                self.tables.setdefault(table, number)
                continue
            m = self.KEY.match(line)
            if m:
                key = m.group(1)
                if key[0] in "\"'":
                    key = key[1:-1]
                column = m.end() + 1
                rest = line[m.end():]
                for quote in ('"""', "'''", '"', "'"):
                    if rest.startswith(quote):
                        column += len(quote)
                        break
                key_column = len(line) - len(line.lstrip()) + 1
                self.keys.setdefault((table, key), (number, column, key_column))

    def key(self, table, key) -> Location:
        """Where the value of `key` starts (inside its quotes)."""
        if (table, key) in self.keys:
            line, column, _ = self.keys[(table, key)]
            return Location(self.path, line, column)
        return self.table(table)

    def name(self, table, key) -> Location:
        """Where `key` itself is written."""
        if (table, key) in self.keys:
            line, _, column = self.keys[(table, key)]
            return Location(self.path, line, column)
        return self.table(table)

    def table(self, table) -> Location:
        return Location(self.path, self.tables.get(table, 0), 0)


def read(path, what, limit) -> tuple:
    """The bytes and text of the file at `path`, at most `limit` bytes of UTF-8; `what` it
    is ("definition") names it in messages."""
    try:
        with open(path, "rb") as f:
            raw = f.read(limit + 1)  # a device or pipe may never end
    except OSError as e:
        raise DefinitionError(Location(path), f"cannot read the {what}: {e.strerror}") from None
    if len(raw) > limit:
        raise DefinitionError(Location(path), f"the {what} is larger than {limit} bytes, the "
                                              "limit")
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark is allowed, and skipped
    except UnicodeDecodeError as e:
        raise DefinitionError(Location(path), f"not UTF-8 text: {e.reason}") from None
    return raw, text


def parse(path, text) -> dict:
    """The data of a TOML file's text; a mistake is a DefinitionError at its line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        message = str(e)
        m = re.search(r"\(at line (\d+), column (\d+)\)", message)
        where = Location(path)
        if m:
            where = Location(path, int(m.group(1)), int(m.group(2)))
            message = message[:m.start()].strip()
        if "overwrite" in message:
            message += " (a name defined twice?)"
        raise DefinitionError(where, f"TOML syntax: {message}") from None
    except ValueError as e:  # an integer of more than 4300 digits
        raise DefinitionError(Location(path), f"TOML value: {e}") from None
    except RecursionError:
        raise DefinitionError(Location(path),
                              "TOML value: arrays or tables nested too deeply") from None
