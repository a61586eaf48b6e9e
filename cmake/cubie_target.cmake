# The header-only library target cubie::cubie.
add_library(cubie INTERFACE)
add_library(cubie::cubie ALIAS cubie)
target_include_directories(cubie INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(cubie INTERFACE cxx_std_20)
# CCCL's targets cannot be exported; the installed package's config links them itself.
target_link_libraries(cubie INTERFACE $<BUILD_INTERFACE:CCCL::libcudacxx> OpenMP::OpenMP_CXX)
# CMake 3.25 does not pass C++20 to nvcc 13 when asked through CUDA_STANDARD: ask nvcc
# directly. Relaxed constexpr lets device code call constexpr host functions.
target_compile_options(cubie INTERFACE
  $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20 --expt-relaxed-constexpr -Xcompiler=-fopenmp>)
# Debug builds check bounds: libcu++'s assertions (cuda::std::array indexing) and the
# library's own views (assert).
target_compile_definitions(cubie INTERFACE $<$<CONFIG:Debug>:CCCL_ENABLE_ASSERTIONS>)

# Boost, headers only (Hana composes output policies at compile time). Two ways to find it:
# - a Boost that installed its CMake package (BoostConfig.cmake, e.g. libboost-dev):
#   find_package in config mode, which defines Boost::headers;
# - a bare copy of the headers, <prefix>/include/boost (as carried to machines without
#   Boost, configured with -DCMAKE_PREFIX_PATH=<prefix>): find_path of boost/hana.hpp,
#   which searches CMAKE_PREFIX_PATH and the system include folders; Boost::headers is
#   then defined here. cmake/cubie-config.cmake.in repeats this for installed consumers.
find_package(Boost CONFIG QUIET)
if(NOT TARGET Boost::headers)
  find_path(CUBIE_BOOST_INCLUDE_DIR boost/hana.hpp DOC "Folder holding boost/hana.hpp")
  if(NOT CUBIE_BOOST_INCLUDE_DIR)
    message(FATAL_ERROR
      "cubie needs the Boost headers (Boost.Hana) and found neither a Boost CMake package "
      "nor boost/hana.hpp. Install them (tools/setup.sh installs libboost-dev), or pass "
      "-DCMAKE_PREFIX_PATH=<prefix> where <prefix>/include/boost/hana.hpp exists, or set "
      "CUBIE_BOOST_INCLUDE_DIR to the folder that holds boost/.")
  endif()
  add_library(Boost::headers INTERFACE IMPORTED)
  set_target_properties(Boost::headers PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${CUBIE_BOOST_INCLUDE_DIR}")
endif()
target_link_libraries(cubie INTERFACE Boost::headers)
