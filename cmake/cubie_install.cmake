# Installation and the package config for find_package(cubie CONFIG).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS cubie EXPORT cubie-targets)
install(DIRECTORY include/cubie DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The catalogue's generated systems install beside the library: "cubie/catalogue/<name>.hpp".
install(DIRECTORY systems/include/cubie DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT cubie-targets NAMESPACE cubie:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cubie)
# cubie_add_system for installed consumers: the function, the generator it runs and the
# catalogue's definitions (the package config points the function at the last two).
install(FILES cmake/cubie_add_system.cmake DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cubie)
install(DIRECTORY tools/codegen/cubie_codegen DESTINATION ${CMAKE_INSTALL_DATADIR}/cubie/codegen
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
install(DIRECTORY systems/ DESTINATION ${CMAKE_INSTALL_DATADIR}/cubie/systems
        FILES_MATCHING PATTERN "*.toml" PATTERN "include" EXCLUDE)

set(CUBIE_INSTALL_CODEGEN_DIR ${CMAKE_INSTALL_DATADIR}/cubie/codegen)
set(CUBIE_INSTALL_SYSTEMS_DIR ${CMAKE_INSTALL_DATADIR}/cubie/systems)
configure_package_config_file(cmake/cubie-config.cmake.in
  ${PROJECT_BINARY_DIR}/cubie-config.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cubie
  PATH_VARS CUBIE_INSTALL_CODEGEN_DIR CUBIE_INSTALL_SYSTEMS_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cubie-config-version.cmake
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/cubie-config.cmake
              ${PROJECT_BINARY_DIR}/cubie-config-version.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/cubie)

# The cubie command (tools/cubie): its package beside the code generator, with layout.json
# saying where the library, the generator and the catalogue are relative to the prefix,
# and a launcher in bin that finds the package.
set(cubie_cli_dir ${CMAKE_INSTALL_DATADIR}/cubie/cli)
install(DIRECTORY tools/cubie/cubie_cli DESTINATION ${cubie_cli_dir}
        PATTERN "__pycache__" EXCLUDE)
file(RELATIVE_PATH cubie_cli_prefix "/prefix/${cubie_cli_dir}/cubie_cli" "/prefix")
file(RELATIVE_PATH cubie_bin_to_cli "/prefix/${CMAKE_INSTALL_BINDIR}" "/prefix/${cubie_cli_dir}")
file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/cubie_cli/layout.json CONTENT [[{
  "prefix": "@cubie_cli_prefix@",
  "include": "@CMAKE_INSTALL_INCLUDEDIR@",
  "codegen": "@CUBIE_INSTALL_CODEGEN_DIR@",
  "systems": "@CUBIE_INSTALL_SYSTEMS_DIR@",
  "cmake": "@CMAKE_INSTALL_LIBDIR@/cmake/cubie"
}
]] @ONLY)
file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/cubie_cli/cubie CONTENT [[#!/usr/bin/env python3
"""The cubie command, installed: its package is in @cubie_cli_dir@ under the prefix."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "@cubie_bin_to_cli@"))
from cubie_cli.cli import main  # noqa: E402

sys.exit(main())
]] @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cubie_cli/layout.json DESTINATION ${cubie_cli_dir}/cubie_cli)
install(PROGRAMS ${PROJECT_BINARY_DIR}/cubie_cli/cubie DESTINATION ${CMAKE_INSTALL_BINDIR})
