#!/usr/bin/env bash
# Installs what building CuBIE++ needs beyond the CUDA toolkit, from Debian/Ubuntu
# packages: CMake, Ninja, a C++20 compiler with OpenMP, doctest, Boost, HDF5's C library,
# Open MPI (headers and mpirun, for cubie::mpi), ccache, and Clang with its OpenMP and
# sanitizer runtimes (the sanitize preset's compiler) and llvm-symbolizer (which names the
# functions of the leak suppressions); and from PyPI the code
# generator's Python packages (SymPy, pytest), those the result file checks read with
# (numpy, h5py) and matplotlib, with which `cubie plot` draws.
# Packages already installed are left alone; nothing is downloaded when all are present.
set -euo pipefail

packages=(cmake ninja-build g++ doctest-dev libboost-dev libhdf5-dev libopenmpi-dev openmpi-bin
          ccache clang libomp-dev libclang-rt-dev llvm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

apt_install() {
  echo "setup: installing $*"
  local sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "$@" >/dev/null
}

if ((${#missing[@]})); then
  apt_install "${missing[@]}"
fi

# The code generator (tools/codegen) runs at build time on python3: SymPy, and pytest and
# Hypothesis for its tests; tests/reference/check_result_files.py reads result files with
# numpy and h5py; the cubie command (tools/cubie) needs numpy, reads HDF5 results with h5py
# and plots them with matplotlib.
# From PyPI where they are not importable already.
command -v python3 >/dev/null || apt_install python3 python3-pip
python_missing=()
for module in sympy pytest hypothesis numpy h5py matplotlib; do
  python3 -c "import $module" 2>/dev/null || python_missing+=("$module")
done
if ((${#python_missing[@]})); then
  python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip
  echo "setup: installing ${python_missing[*]} for python3"
  # A Debian-managed python3 refuses plain installs (PEP 668): then say so explicitly.
  python3 -m pip install --quiet "${python_missing[@]}" 2>/dev/null ||
    python3 -m pip install --quiet --break-system-packages "${python_missing[@]}"
fi

if ! command -v nvcc >/dev/null && [[ ! -x /usr/local/cuda/bin/nvcc ]]; then
  echo "setup: nvcc not found; install the CUDA toolkit (13 or later) or put it on PATH" >&2
  exit 1
fi
