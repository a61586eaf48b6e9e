# cubie::mpi: one batch solved by the ranks of an MPI job (cubie/mpi/), where an MPI
# implementation with C++ support is found (Open MPI: libopenmpi-dev). Without MPI the
# target does not exist.
include_guard(GLOBAL)

get_filename_component(_cubie_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

find_package(MPI QUIET COMPONENTS CXX)
if(MPI_CXX_FOUND)
  add_library(cubie_mpi INTERFACE)
  add_library(cubie::mpi ALIAS cubie_mpi)
  set_target_properties(cubie_mpi PROPERTIES EXPORT_NAME mpi)
  target_link_libraries(cubie_mpi INTERFACE cubie MPI::MPI_CXX)
  # Its own export set: the installed package loads it only where MPI is found again.
  install(TARGETS cubie_mpi EXPORT cubie-mpi-targets)
  install(EXPORT cubie-mpi-targets NAMESPACE cubie::
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cubie)

  # cubie_add_mpi_test(<name> <ranks> <command>...): a ctest test, labelled mpi, that runs
  # <command> as <ranks> processes through FindMPI's launcher, whatever the number of cores.
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _cubie_mpiexec_version
                  ERROR_QUIET)
  set(CUBIE_MPIEXEC_IS_OPEN_MPI OFF)
  if(_cubie_mpiexec_version MATCHES "Open MPI|OpenRTE")
    set(CUBIE_MPIEXEC_IS_OPEN_MPI ON)
  endif()
  function(cubie_add_mpi_test name ranks)
    set(launcher ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks})
    set(environment)
    if(CUBIE_MPIEXEC_IS_OPEN_MPI)
      list(APPEND launcher --oversubscribe)
      # Open MPI refuses to start as root unless told twice (CI containers run as root), and
      # its shared-memory transport copies through CMA, which needs the ptrace permission
      # containers deny. Under LeakSanitizer (the sanitize preset) what Open MPI itself never
      # frees is suppressed, matched on whole stacks.
      set(environment OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
                      OMPI_MCA_btl_vader_single_copy_mechanism=none
                      OMPI_MCA_rmaps_base_oversubscribe=1
                      "LSAN_OPTIONS=suppressions=${_cubie_root}/tests/support/mpi_leak_suppressions.txt:print_suppressions=0:fast_unwind_on_malloc=0")
    endif()
    add_test(NAME ${name} COMMAND ${launcher} ${MPIEXEC_PREFLAGS} ${ARGN} ${MPIEXEC_POSTFLAGS})
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${environment}" PROCESSORS ${ranks}
                                            TIMEOUT 300 LABELS mpi)
  endfunction()
else()
  message(STATUS "MPI (C++) not found: no cubie::mpi, no MPI tests or example (install "
                 "libopenmpi-dev and openmpi-bin for them)")
endif()
