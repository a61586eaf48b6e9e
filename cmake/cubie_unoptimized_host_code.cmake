# cubie_unoptimized_host_code(), called at a folder's scope: the host code of that folder
# and below compiles at -O0 in every build type, through its flags, for targets built to
# check results rather than to run fast (the test suites; the examples where only their
# tests run them). GCC's -O3 took twice as long as -O1 on most test units and 6 times as
# long on rosenbrock_on_lanes.cpp's unrolled LUs (231 s against 36); -O0 takes a third less
# than -O1 (the rosenbrock suite's units: 139 s against 207), and its tests run in twice the
# time (48 s against 25), less than the compile saves. Every level computes the same bits on
# x86-64: none contracts into FMAs or reassociates without -march or -ffast-math. nvcc's -O
# is the host code's alone (the device code's PTX and SASS are the same at -O0 and -O3;
# summaries_in_loop.cu took 42 s in the host compiler at -O3 and 20 s at -O0, 84 s and 69 in
# all).
function(cubie_unoptimized_host_code)
  foreach(language CXX CUDA)
    foreach(config RELEASE RELWITHDEBINFO MINSIZEREL)
      string(REGEX REPLACE "(^| )-O[0-9s]?( |$)" "\\1-O0\\2" flags
             "${CMAKE_${language}_FLAGS_${config}}")
      set(CMAKE_${language}_FLAGS_${config} "${flags}" PARENT_SCOPE)
    endforeach()
  endforeach()
endfunction()
