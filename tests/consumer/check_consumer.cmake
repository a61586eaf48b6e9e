# Builds and runs the consumer project (CONSUMER_DIR) in BINARY_DIR, outside cubie's source
# tree, with cubie brought in by ROUTE; for find_package, installs BUILD_TREE into a scratch
# prefix first. Host backend only: the consumer enables no CUDA.
file(REMOVE_RECURSE ${BINARY_DIR})

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${what} failed (${code}):\n${out}")
  endif()
  message(STATUS "${what}: ok\n${out}")
endfunction()

set(options -DROUTE=${ROUTE} -DCUBIE_SOURCE_DIR=${CUBIE_SOURCE_DIR})
if(ROUTE STREQUAL "find_package")
  run_step("install" ${CMAKE_COMMAND} --install ${BUILD_TREE} --prefix ${BINARY_DIR}/prefix)
  list(APPEND options -DCMAKE_PREFIX_PATH=${BINARY_DIR}/prefix)
endif()
if(LAUNCHER)  # the build's ccache
  list(APPEND options -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
run_step("configure consumer (${ROUTE})" ${CMAKE_COMMAND} -S ${CONSUMER_DIR}
         -B ${BINARY_DIR}/build -G ${GENERATOR} ${options})
run_step("build consumer (${ROUTE})" ${CMAKE_COMMAND} --build ${BINARY_DIR}/build)
run_step("run consumer (${ROUTE})" ${BINARY_DIR}/build/consumer)
