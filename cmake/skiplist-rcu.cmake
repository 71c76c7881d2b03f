# skiplist-rcu.cmake: the CMake targets for skiplist_rcu.h, one per liburcu
# flavor the machine has:
#
#   skiplist::rcu        memb, liburcu's default (-lurcu)
#   skiplist::rcu_mb     -DSKIPLIST_RCU_MB,   -lurcu-mb
#   skiplist::rcu_qsbr   -DSKIPLIST_RCU_QSBR, -lurcu-qsbr
#   skiplist::rcu_bp     -DSKIPLIST_RCU_BP,   -lurcu-bp
#
# each linking skiplist::skiplist, -lurcu-common and the threads library.
# The flavor is a compile definition on the target because the header picks
# liburcu's header by it: a program links exactly one of these targets.
#
# Included both by the source tree's CMakeLists.txt and by the installed
# skiplist-config.cmake, so that add_subdirectory, FetchContent and
# find_package users get the same targets. liburcu is looked up with
# find_path/find_library (no pkg-config needed); a flavor whose library is
# missing gets no target, and skiplist-config.cmake reports the component
# as not found.

# _skiplist_rcu_targets(<core> <how>): <core> is the target the rcu targets
# link for skiplist.h; <how> is IMPORTED (the installed package: imported
# targets named skiplist::rcu*) or ALIAS (the source tree: real targets
# skiplist_rcu* with skiplist::rcu* aliases, as for skiplist::skiplist).
function(_skiplist_rcu_targets core how)
  # FindThreads needs C or C++ enabled; a project with neither cannot
  # compile against the header anyway.
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "C" IN_LIST languages AND NOT "CXX" IN_LIST languages)
    return()
  endif()
  find_package(Threads QUIET)
  find_path(SKIPLIST_URCU_INCLUDE_DIR urcu.h)
  find_library(SKIPLIST_URCU_COMMON_LIBRARY urcu-common)
  if(NOT Threads_FOUND OR NOT SKIPLIST_URCU_INCLUDE_DIR
     OR NOT SKIPLIST_URCU_COMMON_LIBRARY)
    return()
  endif()
  foreach(flavor memb mb qsbr bp)
    if(flavor STREQUAL "memb")
      set(suffix "")
      set(lib urcu)
      set(define "")
    else()
      string(TOUPPER "${flavor}" up)
      set(suffix "_${flavor}")
      set(lib "urcu-${flavor}")
      set(define "SKIPLIST_RCU_${up}")
    endif()
    find_library(SKIPLIST_URCU_${flavor}_LIBRARY ${lib})
    # Skip a missing flavor, and one already defined (a package config
    # read twice, by two find_package calls in one directory).
    if(NOT SKIPLIST_URCU_${flavor}_LIBRARY OR TARGET skiplist::rcu${suffix})
      continue()
    endif()
    if(how STREQUAL "IMPORTED")
      set(target skiplist::rcu${suffix})
      add_library(${target} INTERFACE IMPORTED)
    else()
      set(target skiplist_rcu${suffix})
      add_library(${target} INTERFACE)
      add_library(skiplist::rcu${suffix} ALIAS ${target})
    endif()
    target_include_directories(${target} INTERFACE
      "${SKIPLIST_URCU_INCLUDE_DIR}")
    target_link_libraries(${target} INTERFACE ${core}
      "${SKIPLIST_URCU_${flavor}_LIBRARY}" "${SKIPLIST_URCU_COMMON_LIBRARY}"
      Threads::Threads)
    if(define)
      target_compile_definitions(${target} INTERFACE ${define})
    endif()
  endforeach()
endfunction()
