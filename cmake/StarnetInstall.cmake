# Install rules (docs/architecture.md, "Using starnet as a library"). `cmake --install build
# --prefix P` copies what the build made, rebuilding nothing:
#   P/bin/starnet
#   P/include/starnet/{core,topology,emulator,algorithms}/…   the public headers
#   P/lib/libstarnet_*.a                                       the static libraries, one per part
#   P/lib/cmake/starnet/                                       the package find_package(starnet) reads
# Users link starnet::core, starnet::topology, starnet::emulator, starnet::algorithms, the names
# used in-tree; the starnet::X_P part targets come along in their link interface. tests/consumer is such a
# user, built against an install by .ci/run.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(STARNET_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/starnet
    CACHE STRING "Where find_package(starnet) files go, relative to the install prefix")
mark_as_advanced(STARNET_INSTALL_CMAKEDIR)

get_property(libraries GLOBAL PROPERTY STARNET_INSTALLED_TARGETS)
install(TARGETS ${libraries} EXPORT starnetTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT starnet_Development)
get_property(header_dirs GLOBAL PROPERTY STARNET_HEADER_DIRS)
foreach(dir IN LISTS header_dirs)
  # The trailing slash installs include/'s content: P/include/starnet/<folder>/…
  install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT starnet_Development)
endforeach()
install(TARGETS starnet RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT starnet_Runtime)

install(EXPORT starnetTargets NAMESPACE starnet:: DESTINATION ${STARNET_INSTALL_CMAKEDIR}
        COMPONENT starnet_Development)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/starnetConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/starnetConfig.cmake
                              INSTALL_DESTINATION ${STARNET_INSTALL_CMAKEDIR})
# 0.x: a minor release may change the API, so only the same major.minor is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/starnetConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
# The config finds GLPK, GMP and METIS with the project's own Find modules (Debian ships no CMake
# config for them), so they travel with it.
install(FILES ${PROJECT_BINARY_DIR}/starnetConfig.cmake ${PROJECT_BINARY_DIR}/starnetConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/FindGLPK.cmake ${CMAKE_CURRENT_LIST_DIR}/FindGMP.cmake
              ${CMAKE_CURRENT_LIST_DIR}/FindMETIS.cmake ${CMAKE_CURRENT_LIST_DIR}/StarnetPlainLibrary.cmake
        DESTINATION ${STARNET_INSTALL_CMAKEDIR} COMPONENT starnet_Development)
