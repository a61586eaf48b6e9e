# cubie_enable_warnings(<target>): the project's own targets build warning-free.
# GCC 12 at -O3 reports overlapping memcpy inside std::string concatenation (a false
# positive, GCC bug 105651), hence -Wno-restrict. GCC 13 at -O3 reports indices of -2^31
# inside dense_lu's unrolled loops over cuda::std::array (-Warray-bounds, on paths that
# cannot be taken), hence -Wno-array-bounds there; every index is checked at run time by
# the sanitize preset (Debug, CCCL's assertions on).
function(cubie_enable_warnings target)
  set(quiet -Wno-restrict)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 13)
    list(APPEND quiet -Wno-array-bounds)
  endif()
  list(JOIN quiet "," quiet_cuda)
  # Clang (the sanitize preset's compiler) does not know -Wrestrict, and -Werror turns its
  # unknown-option warning into an error; nvcc's host compiler stays GCC.
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(quiet)
  endif()
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Werror ${quiet}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Wall,-Wextra,${quiet_cuda}>)
endfunction()
