#!/usr/bin/env bash
# Installs what building CuBIE++ needs beyond the CUDA toolkit, from Debian/Ubuntu
# packages: CMake, Ninja, a C++20 compiler with OpenMP, doctest, Boost and ccache.
# Packages already installed are left alone; nothing is downloaded when all are present.
set -euo pipefail

packages=(cmake ninja-build g++ doctest-dev libboost-dev ccache)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null && [[ ! -x /usr/local/cuda/bin/nvcc ]]; then
  echo "setup: nvcc not found; install the CUDA toolkit (13 or later) or put it on PATH" >&2
  exit 1
fi
