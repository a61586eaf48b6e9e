"""The per-user cache of compiled solvers: a folder per key under solvers/, the key a hash
of everything that selects code (the model definition's bytes, method, controller,
precision, output policies, the backend and compilers, and the contents of the library's
headers, CMake files, the code generator and this package with its solver template), so
that a stale solver is never run. A folder is complete once its entry.json is written, last; building one
holds its lock file, so that two runs of the same solver compile it once.

The cache is $CUBIE_CACHE_DIR, else $XDG_CACHE_HOME/cubie, else ~/.cache/cubie."""

import fcntl
import hashlib
import json
import os
import shutil
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from cubie_cli import __version__
from cubie_cli.errors import CliError
from cubie_cli.layout import LAYOUT

KEY_LENGTH = 16  # hex digits


def default_folder() -> Path:
    if os.environ.get("CUBIE_CACHE_DIR"):
        return Path(os.environ["CUBIE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cubie"


def library_fingerprint() -> str:
    """A hash of every file that can change a compiled solver besides its model and
    choices (layout.Layout.fingerprint_files)."""
    digest = hashlib.sha256()
    for path in LAYOUT.fingerprint_files():
        digest.update(str(path.relative_to(LAYOUT.root)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def solver_key(model_bytes: bytes, choice, toolchain) -> str:
    material = {
        "model": hashlib.sha256(model_bytes).hexdigest(),
        "solver": asdict(choice),
        "cuda": toolchain.cuda,
        "cuda_architectures": toolchain.cuda_architectures,
        "compilers": toolchain.identity,
        "library": library_fingerprint(),
        "cubie": __version__,
    }
    text = json.dumps(material, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:KEY_LENGTH]


@dataclass
class Entry:
    folder: Path

    @property
    def key(self) -> str:
        return self.folder.name

    @property
    def solver(self) -> Path:
        return self.folder / "solver"

    @property
    def record(self) -> Path:
        return self.folder / "entry.json"

    @property
    def log(self) -> Path:
        return self.folder / "build.log"

    def complete(self) -> bool:
        return self.record.exists() and self.solver.exists()

    def info(self) -> dict:
        return json.loads(self.record.read_text(encoding="utf-8"))

    def write_info(self, info: dict):
        temporary = self.record.with_suffix(".tmp")
        temporary.write_text(json.dumps(info, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(temporary, self.record)

    def touch(self):
        """Marks the entry used now, for cache list; a cache that is read-only stays as it is."""
        try:
            os.utime(self.record)
        except OSError:
            pass

    def size(self) -> int:
        return sum(p.stat().st_size for p in self.folder.rglob("*") if p.is_file())


class Cache:
    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.solvers = self.folder / "solvers"

    def entry(self, key: str) -> Entry:
        return Entry(self.solvers / key)

    def entries(self) -> list:
        if not self.solvers.is_dir():
            return []
        found = [Entry(p) for p in self.solvers.iterdir() if p.is_dir()]
        return sorted(found, key=lambda e: e.record.stat().st_mtime if e.complete() else 0,
                      reverse=True)

    @contextmanager
    def building(self, entry: Entry):
        """Holds the entry's lock while it is built (another cubie run waits for it)."""
        try:
            self.solvers.mkdir(parents=True, exist_ok=True)
            lock = open(self.solvers / f"{entry.key}.lock", "w")
        except OSError as e:
            raise CliError(f"cannot write the cache {self.folder}: {e.strerror} (set "
                           "CUBIE_CACHE_DIR to a folder you can write)", status=1) from None
        with lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield

    def remove(self, entry: Entry):
        shutil.rmtree(entry.folder, ignore_errors=True)
        (self.solvers / f"{entry.key}.lock").unlink(missing_ok=True)


def age(seconds_since: float) -> str:
    """How long ago, in words: "5 min ago"."""
    elapsed = time.time() - seconds_since
    for unit, length in (("d", 86400), ("h", 3600), ("min", 60)):
        if elapsed >= length:
            return f"{int(elapsed // length)} {unit} ago"
    return "just now"
