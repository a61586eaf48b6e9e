# cubie_enable_warnings(<target>): the project's own targets build warning-free.
# GCC 12 at -O3 reports overlapping memcpy inside std::string concatenation (a false
# positive, GCC bug 105651), hence -Wno-restrict.
function(cubie_enable_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Werror -Wno-restrict>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Wno-restrict>)
endfunction()
