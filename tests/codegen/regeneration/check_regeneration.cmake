# codegen.cmake_regeneration: builds regeneration/ (a copy, with a copy of the generator),
# then checks that
#   - an unchanged tree rebuilds nothing,
#   - touching the definition regenerates the header and recompiles only uses_system,
#   - editing the definition changes the header and the program's output,
#   - touching a generator source regenerates the header.
# Arguments: CUBIE_SOURCE_DIR, WORK_DIR, PROJECT_DIR, PYTHON, INCLUDE_DIRS, GENERATOR.
file(REMOVE_RECURSE ${WORK_DIR})
file(COPY ${PROJECT_DIR}/ DESTINATION ${WORK_DIR}/src)
file(COPY ${CUBIE_SOURCE_DIR}/tools/codegen/cubie_codegen DESTINATION ${WORK_DIR}/codegen
     PATTERN __pycache__ EXCLUDE)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(code)
    message(FATAL_ERROR "${what} failed (${code}):\n${out}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

function(build expectation)
  # Ninja's time stamps have a resolution the file system may not: wait past it.
  execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
  run("build ${expectation}" ${CMAKE_COMMAND} --build ${WORK_DIR}/build -- -d explain)
  set(output "${output}" PARENT_SCOPE)
endfunction()

function(expect text)
  if(NOT output MATCHES "${text}")
    message(FATAL_ERROR "expected the build to match '${text}', got:\n${output}")
  endif()
endfunction()

function(expect_not text)
  if(output MATCHES "${text}")
    message(FATAL_ERROR "expected the build not to match '${text}', got:\n${output}")
  endif()
endfunction()

set(header ${WORK_DIR}/build/cubie_systems/decay/include/cubie/catalogue/decay.hpp)
run("configure" ${CMAKE_COMMAND} -S ${WORK_DIR}/src -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCUBIE_SOURCE_DIR=${CUBIE_SOURCE_DIR} -DCUBIE_CODEGEN_DIR=${WORK_DIR}/codegen
    -DCUBIE_CODEGEN_PYTHON=${PYTHON} "-DINCLUDE_DIRS=${INCLUDE_DIRS}")

build("from scratch")
expect("cubie-codegen: cubie/catalogue/decay.hpp")
expect("uses_system.cpp")
run("run" ${WORK_DIR}/build/uses_system)
if(NOT output STREQUAL "-1\n")
  message(FATAL_ERROR "uses_system printed '${output}', expected -1")
endif()

build("with nothing changed")
expect("no work to do")

file(TOUCH ${WORK_DIR}/src/decay.toml)
build("after touching the definition")
expect("cubie-codegen: cubie/catalogue/decay.hpp")
expect("uses_system.cpp.o")
expect_not("independent.cpp.o")

file(READ ${WORK_DIR}/src/decay.toml definition)
string(REPLACE "-k*x" "-2*k*x" definition "${definition}")
file(WRITE ${WORK_DIR}/src/decay.toml "${definition}")
build("after editing the definition")
expect("uses_system.cpp.o")
expect_not("independent.cpp.o")
file(READ ${header} generated)
if(NOT generated MATCHES "dydt\\[0\\] = -T\\(2\\) \\* p\\[0\\] \\* y\\[0\\];")
  message(FATAL_ERROR "the regenerated header lacks the edited equation:\n${generated}")
endif()
run("run" ${WORK_DIR}/build/uses_system)
if(NOT output STREQUAL "-2\n")
  message(FATAL_ERROR "uses_system printed '${output}' after the edit, expected -2")
endif()

file(TOUCH ${WORK_DIR}/codegen/cubie_codegen/cxx.py)
build("after touching the generator")
expect("cubie-codegen: cubie/catalogue/decay.hpp")
expect_not("independent.cpp.o")
message(STATUS "regeneration: definition and generator changes rebuild only their users")
