"""Which backend a solver is built for, and with which compilers: a CUDA build (nvcc, for
the GPUs present) where nvcc is found and a GPU is present, else a host-only build by the
host compiler. A CUDA build still solves on the host where it finds no device at run time
(the library's automatic backend); a host build never needs nvcc."""

import os
import shutil
import subprocess
from dataclasses import dataclass

from cubie_cli.errors import CliError

BACKENDS = ("auto", "host", "cuda")  # what --backend takes
DEFAULT_CUDA_ARCHITECTURES = "90"  # the project's own default (CMakePresets.json)


@dataclass(frozen=True)
class Toolchain:
    cuda: bool
    nvcc: str | None
    cuda_architectures: str  # CMAKE_CUDA_ARCHITECTURES: "90", "80;90"; "" for host builds
    identity: str  # the compilers' versions, part of the cache key

    def describe(self) -> str:
        if not self.cuda:
            return "host backend"
        if self.cuda_architectures == "native":
            return "cuda backend (nvcc, for the GPUs present)"
        return f"cuda backend (nvcc, sm_{self.cuda_architectures.replace(';', ', sm_')})"


def _output(command) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def find_nvcc() -> str | None:
    found = shutil.which("nvcc")
    fallback = "/usr/local/cuda/bin/nvcc"  # the toolkit's default, often off PATH
    if not found and os.access(fallback, os.X_OK):
        found = fallback
    return found


def gpu_architectures() -> list:
    """The compute capabilities of the GPUs nvidia-smi lists ("90"); ["native"] (CMake
    asks the GPUs) where its driver cannot say; none without a GPU."""
    if not shutil.which("nvidia-smi"):
        return []
    text = _output(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"])
    found = {line.strip().replace(".", "") for line in text.splitlines()}
    if found and all(cap.isdigit() for cap in found):
        return sorted(found)
    return ["native"] if "GPU " in _output(["nvidia-smi", "-L"]) else []


def detect(backend: str) -> Toolchain:
    """The toolchain for `backend`: auto (cuda where nvcc and a GPU are found), host or
    cuda (needs nvcc)."""
    cxx = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++") or ""
    host_identity = f"{shutil.which(cxx) or cxx} {_output([cxx, '--version'])}" if cxx else ""
    if backend == "host":
        return Toolchain(False, None, "", host_identity)
    nvcc = find_nvcc()
    architectures = gpu_architectures() if nvcc else []
    if backend == "cuda" and not nvcc:
        raise CliError("--backend cuda needs nvcc, the CUDA compiler, which is not on PATH nor "
                       "in /usr/local/cuda/bin")
    if backend == "auto" and not (nvcc and architectures):
        return Toolchain(False, None, "", host_identity)
    cuda_architectures = ";".join(architectures) or DEFAULT_CUDA_ARCHITECTURES
    identity = f"{host_identity} {os.path.realpath(nvcc)} {_output([nvcc, '--version'])}"
    return Toolchain(True, nvcc, cuda_architectures, identity)
