#!/usr/bin/env bash
# The GPU test suite, for a machine with a CUDA device: builds the default preset, runs
# every test of both backends (none may be skipped), then runs each cuda test binary under
# compute-sanitizer memcheck. Exits non-zero on any failure or sanitizer report.
#
#   tools/gpu_suite.sh [extra cmake configure arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."

cmake --preset default "$@" >/dev/null
cmake --build --preset default
ctest --preset default -j4 | tee build/default/ctest.log
if grep -q "(Skipped)" build/default/ctest.log; then
  echo "gpu_suite: tests were skipped: is the GPU visible?" >&2
  exit 1
fi

status=0
for binary in build/default/tests/*_cuda; do
  if compute-sanitizer --tool memcheck --error-exitcode 1 --print-limit 20 "$binary" \
       >"$binary.memcheck.log" 2>&1; then
    echo "memcheck clean: $(basename "$binary") ($(tail -n 1 "$binary.memcheck.log"))"
  else
    echo "memcheck FAILED: $(basename "$binary")"; tail -n 30 "$binary.memcheck.log"; status=1
  fi
done
exit $status
