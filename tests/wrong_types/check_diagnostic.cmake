# Compiles wrong_types.cpp with -D${WRONG} and checks that it fails, with a first error that
# says a constraint failed (or, for a call, that no overload matched) and a diagnostic that
# says which: ${CONCEPT} is not satisfied.
#   -DCOMPILER=... -DSOURCE=... -DWRONG=WRONG_STEPPER -DCONCEPT=stepper
#   "-DINCLUDE_DIRS=a;b" -DSTANDARD=c++20
set(flags -std=${STANDARD} -fsyntax-only -D${WRONG})
foreach(dir IN LISTS INCLUDE_DIRS)
  list(APPEND flags -I${dir})
endforeach()
execute_process(COMMAND ${COMPILER} ${flags} ${SOURCE}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(code EQUAL 0)
  message(FATAL_ERROR "${WRONG}: compiled, but must be refused")
endif()
string(REGEX MATCH "error: [^\n]*" first_error "${out}")
if(NOT first_error MATCHES "constraint|no matching function")
  message(FATAL_ERROR "${WRONG}: the first error is not a constraint failure:\n${first_error}")
endif()
# A single type: "required for the satisfaction of 'concept<T>'"; a pack: "the expression
# '(... && concept<Ts>) [with ...]' evaluated to 'false'".
if(NOT out MATCHES "satisfaction of [^a-z_]*${CONCEPT}<" AND
   NOT out MATCHES "${CONCEPT}<[A-Za-z_]+>\\) \\[with [^]]*\\][^a-z]*evaluated to [^a-z]*false")
  message(FATAL_ERROR "${WRONG}: the diagnostic never says that ${CONCEPT} fails:\n${out}")
endif()
message(STATUS "${WRONG}: ${first_error}")
