# Compiles through ccache when it is installed (STARNET_CCACHE, on by default): the sanitizer and
# fuzz builds of `.ci/run` and a developer's rebuilds then reuse what an earlier build of the same
# sources compiled, in this tree or in another clone. Paths are taken relative to the source tree
# (CCACHE_BASEDIR, and -fdebug-prefix-map for the debug information's directory), so that two
# clones share entries; the absolute paths tests need come from one generated header
# (tests/CMakeLists.txt), so that only the files that include it differ between clones.
# Builds with profile-guided optimization compile without it: ccache cannot see which profile an
# object was optimised with, and would hand back an object trained on an older profile.

option(STARNET_CCACHE "Compile through ccache when it is installed" ON)
if(STARNET_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER AND NOT STARNET_PGO_DEPENDENCY AND NOT STARNET_PGO_GENERATE)
  find_program(STARNET_CCACHE_PROGRAM ccache)
  if(STARNET_CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}
                                    ${STARNET_CCACHE_PROGRAM})
    add_compile_options(-fdebug-prefix-map=${PROJECT_SOURCE_DIR}=.)
  endif()
endif()
