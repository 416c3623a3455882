# Imported target METIS::metis (the graph partitioner behind topology/partition.hpp) for Debian's
# libmetis-dev, which ships no CMake package config.
include(${CMAKE_CURRENT_LIST_DIR}/StarnetPlainLibrary.cmake)
starnet_plain_library(METIS metis.h metis METIS::metis)
