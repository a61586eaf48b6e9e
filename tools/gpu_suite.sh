#!/usr/bin/env bash
# The GPU test suite, for a machine with a CUDA device: builds the default preset with the
# cuda and host variants of every suite, runs every test of both backends (none may be
# skipped), then runs each cuda test binary under compute-sanitizer's memcheck, racecheck,
# initcheck and synccheck, whether or not a test failed. Exits non-zero on any failure or
# sanitizer report; prints one summary line per binary and tool.
#
#   tools/gpu_suite.sh [extra cmake configure arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."

cmake --preset default -DCUBIE_CUDA_TEST_SUITES=all -DCUBIE_HOST_TEST_SUITES=ON "$@" >/dev/null
cmake --build --preset default
# A failing test does not stop the sanitizers: the suite reports both.
status=0
ctest --preset default -j4 | tee build/default/ctest.log || status=1
if grep -q "(Skipped)" build/default/ctest.log; then
  echo "gpu_suite: tests were skipped: is the GPU visible?" >&2
  exit 1
fi

# Every cuda test binary, those of tests/codegen too.
mapfile -t binaries < <(find build/default/tests -name '*_cuda' -type f -perm -u+x | sort)
for tool in memcheck racecheck initcheck synccheck; do
  for binary in "${binaries[@]}"; do
    log="$binary.$tool.log"
    # API errors are the tests' own business (some provoke them and check the exception);
    # the sanitizer checks memory accesses, races, initialisation and synchronisation.
    if compute-sanitizer --tool "$tool" --report-api-errors no --error-exitcode 1 \
         --print-limit 20 "$binary" \
         >"$log" 2>&1; then
      echo "$tool clean: $(basename "$binary") ($(grep "ERROR SUMMARY\|RACECHECK SUMMARY" "$log" | tail -n 1))"
    else
      echo "$tool FAILED: $(basename "$binary")"; tail -n 30 "$log"; status=1
    fi
  done
done
exit $status
