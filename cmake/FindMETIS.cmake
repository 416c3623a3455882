# Imported target METIS::metis (the graph partitioner behind topology/partition.hpp) for Debian's
# libmetis-dev, which ships no CMake package config.
find_path(METIS_INCLUDE_DIR metis.h)
find_library(METIS_LIBRARY metis)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(METIS REQUIRED_VARS METIS_LIBRARY METIS_INCLUDE_DIR)
if(METIS_FOUND AND NOT TARGET METIS::metis)
  add_library(METIS::metis UNKNOWN IMPORTED)
  set_target_properties(METIS::metis PROPERTIES IMPORTED_LOCATION "${METIS_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${METIS_INCLUDE_DIR}")
endif()
