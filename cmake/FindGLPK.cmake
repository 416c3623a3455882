# Imported target GLPK::glpk for Debian's libglpk-dev, which ships no CMake package config.
include(${CMAKE_CURRENT_LIST_DIR}/StarnetPlainLibrary.cmake)
starnet_plain_library(GLPK glpk.h glpk GLPK::glpk)
