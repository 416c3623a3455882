# starnet_plain_library(PREFIX HEADER LIBRARY TARGET): the Find modules of libraries Debian ships
# without a CMake package config (FindGLPK.cmake, FindMETIS.cmake). Finds HEADER and LIBRARY, sets
# PREFIX_FOUND as find_package() expects, and defines the imported target TARGET. A macro, so
# that the variables reach the Find module's caller. Installed beside the Find modules.
macro(starnet_plain_library prefix header library target)
  find_path(${prefix}_INCLUDE_DIR ${header})
  find_library(${prefix}_LIBRARY ${library})
  include(FindPackageHandleStandardArgs)
  find_package_handle_standard_args(${prefix} REQUIRED_VARS ${prefix}_LIBRARY ${prefix}_INCLUDE_DIR)
  if(${prefix}_FOUND AND NOT TARGET ${target})
    add_library(${target} UNKNOWN IMPORTED)
    set_target_properties(${target} PROPERTIES IMPORTED_LOCATION "${${prefix}_LIBRARY}"
                          INTERFACE_INCLUDE_DIRECTORIES "${${prefix}_INCLUDE_DIR}")
  endif()
endmacro()
