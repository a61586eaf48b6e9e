# cubie_add_system(<target> <definition.toml> [NAME <type>] [SET <dimension>=<value>...])
#
# Generates the System header of a model definition at build time with cubie-codegen
# (tools/codegen) and makes it includable by <target> as "cubie/catalogue/<name>.hpp",
# where <name> is NAME or the definition's file stem. The header is regenerated whenever
# the definition or any source of the generator changes, and everything that includes it
# is rebuilt, so a stale header is never compiled. SET overrides a dimension of the
# definition (SET N=64); give such a variant its own NAME.
#
#   cubie_add_system(my_app ${CMAKE_CURRENT_SOURCE_DIR}/models/neuron.toml)
#   cubie_add_system(my_app ${CUBIE_SYSTEMS_DIR}/lorenz96.toml NAME lorenz96_64 SET N=64)
#
# The generator needs Python 3 with SymPy (tools/setup.sh installs it). Without Python,
# link cubie::catalogue instead: the catalogue's generated headers are committed under
# systems/include.
include_guard(GLOBAL)

# Where the catalogue's definitions and the generator's sources are: beside this file in
# the source tree; an installed package's config sets both before including it. Cache
# entries, so that a project that adds cubie with add_subdirectory or FetchContent sees them
# (a test points CUBIE_CODEGEN_DIR at a copy it may touch).
get_filename_component(_cubie_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT DEFINED CUBIE_SYSTEMS_DIR)
  set(CUBIE_SYSTEMS_DIR "${_cubie_root}/systems" CACHE INTERNAL "The catalogue's definitions")
endif()
if(NOT DEFINED CUBIE_CODEGEN_DIR)
  set(CUBIE_CODEGEN_DIR "${_cubie_root}/tools/codegen" CACHE PATH
      "Folder holding the code generator's package, cubie_codegen")
endif()

# The catalogue's committed headers, for builds without Python.
if(NOT TARGET cubie_catalogue AND TARGET cubie)
  add_library(cubie_catalogue INTERFACE)
  add_library(cubie::catalogue ALIAS cubie_catalogue)
  target_include_directories(cubie_catalogue INTERFACE
    $<BUILD_INTERFACE:${CUBIE_SYSTEMS_DIR}/include>)
  target_link_libraries(cubie_catalogue INTERFACE cubie)
endif()

# Sets CUBIE_CODEGEN_COMMAND (in the caller's scope) to the command that runs the
# generator in place, or stops with what to install.
function(cubie_codegen_command)
  if(NOT CUBIE_CODEGEN_PYTHON)
    find_program(CUBIE_CODEGEN_PYTHON NAMES python3 python
                 DOC "Python 3 with SymPy, to run tools/codegen")
    if(NOT CUBIE_CODEGEN_PYTHON)
      message(FATAL_ERROR "cubie_add_system needs Python 3 with SymPy: run tools/setup.sh, "
                          "or use the committed headers (cubie::catalogue)")
    endif()
  endif()
  if(NOT CUBIE_CODEGEN_PYTHON_CHECKED STREQUAL CUBIE_CODEGEN_PYTHON)
    execute_process(COMMAND ${CUBIE_CODEGEN_PYTHON} -c "import sympy"
                    RESULT_VARIABLE missing OUTPUT_QUIET ERROR_QUIET)
    if(missing)
      message(FATAL_ERROR "${CUBIE_CODEGEN_PYTHON} cannot import sympy, which "
                          "cubie_add_system needs: run tools/setup.sh (or python3 -m pip "
                          "install sympy)")
    endif()
    set(CUBIE_CODEGEN_PYTHON_CHECKED ${CUBIE_CODEGEN_PYTHON} CACHE INTERNAL "")
  endif()
  set(CUBIE_CODEGEN_COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${CUBIE_CODEGEN_DIR}
      ${CUBIE_CODEGEN_PYTHON} -m cubie_codegen PARENT_SCOPE)
endfunction()

function(cubie_add_system target definition)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "NAME" "SET")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "cubie_add_system: unexpected arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  get_filename_component(definition "${definition}" ABSOLUTE)
  if(NOT EXISTS "${definition}")
    message(FATAL_ERROR "cubie_add_system: no definition ${definition}")
  endif()
  get_filename_component(name "${definition}" NAME_WE)
  set(options)
  if(arg_NAME)
    set(name ${arg_NAME})
    list(APPEND options --name ${arg_NAME})
  endif()
  foreach(assignment IN LISTS arg_SET)
    list(APPEND options --set ${assignment})
  endforeach()

  # One generating target per header, shared by every target that uses it.
  string(MAKE_C_IDENTIFIER "cubie_system_${name}" generator)
  set(include_dir "${CMAKE_BINARY_DIR}/cubie_systems/${name}/include")
  if(TARGET ${generator})
    get_target_property(previous ${generator} CUBIE_SYSTEM_SOURCE)
    if(NOT previous STREQUAL "${definition};${options}")
      message(FATAL_ERROR "cubie_add_system: two systems named ${name} (${previous} and "
                          "${definition};${options}): give one a different NAME")
    endif()
  else()
    cubie_codegen_command()
    file(GLOB generator_sources CONFIGURE_DEPENDS "${CUBIE_CODEGEN_DIR}/cubie_codegen/*.py")
    set(header "${include_dir}/cubie/catalogue/${name}.hpp")
    add_custom_command(
      OUTPUT "${header}"
      COMMAND ${CUBIE_CODEGEN_COMMAND} "${definition}" -o "${header}" ${options}
      DEPENDS "${definition}" ${generator_sources}
      COMMENT "cubie-codegen: cubie/catalogue/${name}.hpp from ${definition}"
      VERBATIM)
    add_custom_target(${generator} DEPENDS "${header}")
    set_target_properties(${generator} PROPERTIES CUBIE_SYSTEM_SOURCE "${definition};${options}")
  endif()

  add_dependencies(${target} ${generator})
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    target_include_directories(${target} BEFORE INTERFACE "${include_dir}")
  else()
    # Ahead of systems/include, so the fresh header wins over a committed copy.
    target_include_directories(${target} BEFORE PRIVATE "${include_dir}")
  endif()
endfunction()
