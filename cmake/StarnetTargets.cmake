# How starnet's folders become targets (see docs/architecture.md).
#
# A library folder X holds include/starnet/X/ and src/. Each first-level subfolder P of src/
# (src/*.cpp is the part "core") is an internal static library starnet_X_P, so that a part
# builds and is tested on its own; starnet::X is the one public target and links every part.
# tests/X/P/*_test.cpp (tests/X/*_test.cpp for the core part) becomes the GoogleTest executable
# test_X_P, and *_benchmark.cpp beside them joins the single starnet_benchmarks executable.
# Installed (cmake/StarnetInstall.cmake), starnet_X is starnet::X and a part starnet::X_P.

include(GNUInstallDirs)

# Declares the public target starnet::FOLDER (parts are added to it by starnet_part).
function(starnet_library folder)
  add_library(starnet_${folder} INTERFACE)
  add_library(starnet::${folder} ALIAS starnet_${folder})
  set_target_properties(starnet_${folder} PROPERTIES EXPORT_NAME ${folder})
  set_property(GLOBAL APPEND PROPERTY STARNET_INSTALLED_TARGETS starnet_${folder})
  set_property(GLOBAL APPEND PROPERTY STARNET_HEADER_DIRS ${CMAKE_CURRENT_SOURCE_DIR}/include)
endfunction()

function(starnet_part folder part)
  cmake_parse_arguments(ARG "" "" "DEPENDS" ${ARGN})
  if(part STREQUAL "core")
    file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cpp)
  else()
    file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/${part}/*.cpp)
  endif()
  set(target starnet_${folder}_${part})
  add_library(${target} STATIC ${sources})
  starnet_after_training(${target})
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
                                               $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_link_libraries(${target} PUBLIC ${ARG_DEPENDS})
  target_link_libraries(starnet_${folder} INTERFACE ${target})
  # A static part is in the link interface of starnet::X, so users get it too.
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${folder}_${part})
  set_property(GLOBAL APPEND PROPERTY STARNET_INSTALLED_TARGETS ${target})
endfunction()

function(starnet_tests folder part)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LABELS" ${ARGN})
  if(part STREQUAL "core")
    set(dir ${CMAKE_CURRENT_SOURCE_DIR}/${folder})
  else()
    set(dir ${CMAKE_CURRENT_SOURCE_DIR}/${folder}/${part})
  endif()
  file(GLOB tests CONFIGURE_DEPENDS ${dir}/*_test.cpp)
  if(tests)
    set(target test_${folder}_${part})
    add_executable(${target} ${tests})
    target_link_libraries(${target} PRIVATE starnet_${folder}_${part} ${ARG_DEPENDS}
                          GTest::gtest GTest::gmock GTest::gtest_main)
    target_include_directories(${target} PRIVATE ${STARNET_TEST_PATHS_DIR})
    # A hang fails its test within minutes instead of holding CI to its limit.
    gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT 300)
  endif()
  file(GLOB benches CONFIGURE_DEPENDS ${dir}/*_benchmark.cpp)
  if(benches AND STARNET_BENCHMARKS)
    target_sources(starnet_benchmarks PRIVATE ${benches})
    target_link_libraries(starnet_benchmarks PRIVATE starnet_${folder}_${part} ${ARG_DEPENDS})
  endif()
endfunction()

# Sets @p var to the #include lines of the files given after @p allowed that name a header whose
# path starts as the regular expression @p pattern says but is not one @p allowed matches whole,
# each as "\n  FILE: LINE" with FILE relative to the source tree.
function(starnet_includes_beyond var pattern allowed)
  set(found "")
  foreach(source IN LISTS ARGN)
    file(STRINGS ${source} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](${pattern})")
    foreach(line IN LISTS lines)
      if(NOT line MATCHES "[<\"](${allowed})[>\"]")
        file(RELATIVE_PATH where ${PROJECT_SOURCE_DIR} ${source})
        string(APPEND found "\n  ${where}: ${line}")
      endif()
    endforeach()
  endforeach()
  set(${var} "${found}" PARENT_SCOPE)
endfunction()

# A face (tools/, python/src) reaches starnet only through starnet::api's headers
# (docs/architecture.md): configuring fails, naming the file and line, when one of @p sources
# includes a header of another starnet library or climbs out of its folder to one.
function(starnet_face_includes_only_api)
  starnet_includes_beyond(below "starnet/|\\.\\./" "starnet/api/[^>\"]+" ${ARGN})
  if(below)
    message(FATAL_ERROR "a face includes a header below starnet::api:${below}")
  endif()
endfunction()

# The starnet::algorithms and starnet::emulator headers that starnet::api's public headers may
# include (paths below starnet/): the data its requests and results carry, never the machinery
# that computes them — planners, validators, searches, study runners, schedule programs, engines,
# memory estimators (docs/architecture.md). A header that mixes both is split first, its data
# moved into a header of its own beside it, which the machinery header includes.
set(STARNET_API_DATA_HEADERS
    algorithms/collective.hpp                         # the Collective enum every request names
    algorithms/collectives/builtin_algorithm.hpp      # the built-in algorithms by name (schedule export, what-if rows)
    algorithms/collectives/network_model.hpp          # how a study's platforms with routers carry messages
    algorithms/collectives/whatif_row.hpp             # a what-if row, and the observer type a request carries
    algorithms/generic/cost_kind.hpp                  # unit, topology or random link costs (what-if requests)
    algorithms/generic/step_bound.hpp                 # a lower bound's two terms (schedule run results)
    algorithms/nonclairvoyant/algorithm_outcome.hpp   # the four reductions by name, their summaries
    algorithms/nonclairvoyant/study_results.hpp       # Figure 4's points, the grid, the notes, the axes' defaults
    algorithms/nonclairvoyant/worst_case_instance.hpp # a worst-case instance (its costs and witness) and its outcome
    algorithms/optimal/optimal_result.hpp             # an exact search's answer, its solver calls, size limits
    algorithms/schedule/chunk_report.hpp              # a schedule run's result and report
    algorithms/schedule/chunk_schedule.hpp            # the schedule itself (and the builder that fills it)
    algorithms/steady_state/emulation.hpp             # a periodic schedule's phases over a horizon and its emulated run
    algorithms/star/star_report.hpp                   # the star collectives' operators, values, steps, report
    algorithms/trees/plan.hpp                         # tree algorithms by name, a plan's verdict, run report, Figure 2 row
    algorithms/trees/reduction_plan.hpp               # a reduction plan
    emulator/asynchrony.hpp                           # transit laws, loss, crashes, failed links of a run
    emulator/config.hpp                               # port model, checking, time: what every run is given
    emulator/memory_estimate.hpp                      # a memory estimate, and bytes for people
    emulator/program.hpp                              # the NodeProgram interface users subclass (api/emulate.hpp)
    emulator/run_result.hpp                           # a run's result, the program factory a request carries
    emulator/trace.hpp                                # a run's events and counters
    emulator/trace_intervals.hpp                      # the events paired into transfers and computations
    emulator/zmq_options.hpp                          # the zmq engine's options and timeouts
)

# starnet::api's public headers hand out requests and results, not the algorithms and the engine
# behind them: configuring fails, naming the header and the line, when one of @p headers includes
# a starnet::algorithms or starnet::emulator header that is not on the list above.
function(starnet_api_headers_include_only_data)
  set(allowed ${STARNET_API_DATA_HEADERS})
  list(TRANSFORM allowed REPLACE "\\." "\\\\.")
  list(JOIN allowed "|" allowed)
  starnet_includes_beyond(machinery "starnet/(algorithms|emulator)/" "starnet/(${allowed})" ${ARGN})
  if(machinery)
    message(FATAL_ERROR "an api header includes machinery, not a data header of STARNET_API_DATA_HEADERS "
                        "(cmake/StarnetTargets.cmake):${machinery}")
  endif()
endfunction()
