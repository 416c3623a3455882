# Profile-guided optimization of Release builds with GCC (docs/build.md, "Profile-guided builds").
#
# The engine's sparse path (Monte-Carlo studies: millions of small emulations) is branchy code
# behind virtual calls whose hot side the compiler cannot guess; a profile tells it, and gains
# about a seventh of the simulation rate (docs/montecarlo.md, "Performance"). An instrumented copy
# of the `starnet` tool is built in pgo-training/, runs a short training workload that writes
# its profile to pgo-profile/, and every target of this build is then compiled with it. The
# profile is remade on every build (a few seconds); a source edited since only loses the profile
# of what changed. Off by default, since it doubles the first build for a gain only the big
# studies feel: `tools/bootstrap --fast-binary` (or -DSTARNET_PGO=ON) turns it on; the figures of
# what it costs and buys are in docs/build.md, "Profile-guided builds".

option(STARNET_PGO "Release builds with GCC: profile-guided optimization (trains an instrumented build first)" OFF)
set(STARNET_PGO_GENERATE "" CACHE PATH "Internal (the training build): write the profile to this directory")

set(STARNET_PGO_DEPENDENCY "")
if(STARNET_PGO_GENERATE)
  # Object paths are recorded relative to the build directory, so that the main build, in
  # another directory, finds the profile of each of its objects.
  add_compile_options(-fprofile-generate=${STARNET_PGO_GENERATE} -fprofile-prefix-path=${CMAKE_BINARY_DIR}
                      -fprofile-update=atomic)
  add_link_options(-fprofile-generate)
elseif(STARNET_PGO AND CMAKE_BUILD_TYPE STREQUAL "Release" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU"
       AND NOT STARNET_SANITIZE)
  include(ExternalProject)
  set(profile ${CMAKE_BINARY_DIR}/pgo-profile)
  set(trainer ${CMAKE_BINARY_DIR}/pgo-training/bin/starnet)
  ExternalProject_Add(starnet_pgo_training
    SOURCE_DIR ${PROJECT_SOURCE_DIR}
    BINARY_DIR ${CMAKE_BINARY_DIR}/pgo-training
    CMAKE_ARGS -DCMAKE_BUILD_TYPE=Release -DSTARNET_PGO=OFF -DSTARNET_PGO_GENERATE=${profile}
               -DSTARNET_NO_SLP_VECTORIZE=${STARNET_NO_SLP_VECTORIZE} -DSTARNET_PYTHON=${STARNET_PYTHON}
               -DSTARNET_BENCHMARKS=OFF -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
    BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR> --target starnet
    # Training: the Monte-Carlo runs of Figures 4 and 5 (zero and non-zero computation costs)
    # and a unit-time all-reduce on S_7, one thread each; S_9's on two threads trains the dense
    # path's lanes, which S_8 and larger take by default (--threads: all cores) and the runs
    # before never reach (their branches would be laid out as cold).
    INSTALL_COMMAND ${CMAKE_COMMAND} -E rm -rf ${profile}
      COMMAND ${trainer} montecarlo --algos binomial-stat,fibonacci-stat,tree-dyn,noncommut-tree-dyn --n 64
              --dist gamma --cv 1 --mu-d 1 --mu-c 0 --runs 3000 --threads 1 --seed 1
      COMMAND ${trainer} montecarlo --algos binomial-stat,fibonacci-stat,tree-dyn,noncommut-tree-dyn --n 64
              --dist uniform --cv 0.5 --mu-d 1 --mu-c 1 --runs 1000 --threads 1 --seed 1
      COMMAND ${trainer} allreduce --topology star:7 --engine local
      COMMAND ${trainer} allreduce --topology star:9 --engine local --threads 2
    BUILD_ALWAYS ON
    LOG_CONFIGURE ON
    LOG_INSTALL ON)
  # The profile's inlining exposes false positives inside libstdc++ and Boost headers
  # (-Wrestrict, -Wmaybe-uninitialized); the builds without PGO keep those warnings.
  add_compile_options(-fprofile-use=${profile} -fprofile-prefix-path=${CMAKE_BINARY_DIR} -fprofile-partial-training
                      -Wno-missing-profile -Wno-coverage-mismatch -Wno-restrict -Wno-maybe-uninitialized)
  set(STARNET_PGO_DEPENDENCY starnet_pgo_training)
endif()

# Makes @p target wait for the profile (a no-op without PGO).
function(starnet_after_training target)
  if(STARNET_PGO_DEPENDENCY)
    add_dependencies(${target} ${STARNET_PGO_DEPENDENCY})
  endif()
endfunction()
