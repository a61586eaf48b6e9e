# Installation and the package config for find_package(cubie CONFIG).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS cubie EXPORT cubie-targets)
install(DIRECTORY include/cubie DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The catalogue's generated systems install beside the library: "cubie/catalogue/<name>.hpp".
install(DIRECTORY systems/include/cubie DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT cubie-targets NAMESPACE cubie:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cubie)

configure_package_config_file(cmake/cubie-config.cmake.in
  ${PROJECT_BINARY_DIR}/cubie-config.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cubie)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cubie-config-version.cmake
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/cubie-config.cmake
              ${PROJECT_BINARY_DIR}/cubie-config-version.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cubie)
