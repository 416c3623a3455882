# The libFuzzer harnesses of fuzz/ (fuzz/README.md) and the libraries each links. fuzz/CMakeLists.txt
# builds them for libFuzzer (STARNET_FUZZ, Clang); tests/CMakeLists.txt builds them in every
# build with fuzz/replay_main.cpp, which replays fuzz/corpus/NAME as a regression test.

set(STARNET_FUZZ_HARNESSES spec rational dot graphml simgrid schedule_json msccl wire)
set(STARNET_FUZZ_DEPENDS_spec starnet::topology)
set(STARNET_FUZZ_DEPENDS_rational starnet::topology)
set(STARNET_FUZZ_DEPENDS_dot starnet::topology)
set(STARNET_FUZZ_DEPENDS_graphml starnet::topology)
set(STARNET_FUZZ_DEPENDS_simgrid starnet::topology)
set(STARNET_FUZZ_DEPENDS_schedule_json starnet_algorithms_schedule)
set(STARNET_FUZZ_DEPENDS_msccl starnet_algorithms_schedule)
set(STARNET_FUZZ_DEPENDS_wire starnet::emulator)

# The executable TARGET of harness NAME, with the extra sources in ARGN (replay_main.cpp).
function(starnet_fuzz_harness name target)
  add_executable(${target} ${PROJECT_SOURCE_DIR}/fuzz/${name}_fuzz.cpp ${ARGN})
  target_link_libraries(${target} PRIVATE ${STARNET_FUZZ_DEPENDS_${name}})
  if(name STREQUAL "wire")
    # The worker's wire format is private to the emulator.
    target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/emulator/src)
  endif()
endfunction()
