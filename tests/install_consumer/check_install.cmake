# Installs cubie from BUILD_TREE into a scratch prefix, then configures, builds and runs
# a separate project that finds it with find_package(cubie CONFIG).
file(REMOVE_RECURSE ${BINARY_DIR})

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${what} failed (${code}):\n${out}")
  endif()
  message(STATUS "${what}: ok")
endfunction()

run_step("install" ${CMAKE_COMMAND} --install ${BUILD_TREE} --prefix ${BINARY_DIR}/prefix)
run_step("configure consumer" ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${BINARY_DIR}/build
         -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${BINARY_DIR}/prefix)
run_step("build consumer" ${CMAKE_COMMAND} --build ${BINARY_DIR}/build)
run_step("run consumer" ${BINARY_DIR}/build/consumer)
