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

# A face (tools/, python/src) reaches starnet only through starnet::api's headers
# (docs/architecture.md): configuring fails, naming the file and line, when one of @p sources
# includes a header of another starnet library or climbs out of its folder to one.
function(starnet_face_includes_only_api)
  set(below "")
  foreach(source IN LISTS ARGN)
    file(STRINGS ${source} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](starnet/|\\.\\./)")
    foreach(line IN LISTS lines)
      if(NOT line MATCHES "[<\"]starnet/api/")
        file(RELATIVE_PATH where ${PROJECT_SOURCE_DIR} ${source})
        string(APPEND below "\n  ${where}: ${line}")
      endif()
    endforeach()
  endforeach()
  if(below)
    message(FATAL_ERROR "a face includes a header below starnet::api:${below}")
  endif()
endfunction()
