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
