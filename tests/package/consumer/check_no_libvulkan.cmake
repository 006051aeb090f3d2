# cmake -DEXE=<program> -P check_no_libvulkan.cmake: fails when the program needs libvulkan to start.
file(GET_RUNTIME_DEPENDENCIES EXECUTABLES ${EXE} RESOLVED_DEPENDENCIES_VAR resolved
     UNRESOLVED_DEPENDENCIES_VAR unresolved)
foreach(lib IN LISTS resolved unresolved)
  if(lib MATCHES "libvulkan")
    message(FATAL_ERROR "${EXE} links ${lib}: vqm::vulkan must open the loader at run time")
  endif()
endforeach()
message(STATUS "${EXE}: no libvulkan among ${resolved} ${unresolved}")
