# cubie::hdf5: result files in HDF5 (cubie/io/hdf5_file.hpp, hdf5_result.hpp), where
# HDF5's C library is found. Linking it defines CUBIE_WITH_HDF5=1, which makes
# result_format::hdf5 available. Without HDF5 the target does not exist.
include_guard(GLOBAL)

# FindHDF5 tries its C component with the C compiler.
enable_language(C)
find_package(HDF5 QUIET COMPONENTS C)
if(HDF5_FOUND)
  add_library(cubie_hdf5 INTERFACE)
  add_library(cubie::hdf5 ALIAS cubie_hdf5)
  set_target_properties(cubie_hdf5 PROPERTIES EXPORT_NAME hdf5)
  target_link_libraries(cubie_hdf5 INTERFACE cubie HDF5::HDF5)
  target_compile_definitions(cubie_hdf5 INTERFACE CUBIE_WITH_HDF5=1)
  # Its own export set: the installed package loads it only where HDF5 is found again.
  install(TARGETS cubie_hdf5 EXPORT cubie-hdf5-targets)
  install(EXPORT cubie-hdf5-targets NAMESPACE cubie::
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cubie)
else()
  message(STATUS "HDF5 C library not found: no cubie::hdf5, results are written as CSV and "
                 "NPY only (install libhdf5-dev for HDF5)")
endif()
