# Install rules (VQM_INSTALL): the headers, the exported CMake package and the pkg-config files.
#
#   include/                      every header except the test-only ones (below), plus the generated ones
#   <libdir>/cmake/vqm/           vqmConfig.cmake: components vqm (core), cpu, vulkan, ffmpeg (see vqmConfig.cmake.in)
#   <datadir>/pkgconfig/          vqm.pc (core), vqm-cpu.pc, vqm-vulkan.pc, vqm-ffmpeg.pc: header-only, so arch-independent
#   <libdir>/libvqm_cpu.a         vqm::cpu_compiled (the Cpu kernels compiled once), with <libdir>/pkgconfig/vqm-cpu-compiled.pc
#   <bindir>/vqm                  the CLI, whenever it is built (VQM_BUILD_CLI); alone with --component vqm_cli
#
# Test-only headers -- the scalar reference kernels (vqm/cpu/reference/, the oracles the tests check the
# vectorised kernels against) and the random-edge generators (vqm/lpf/random_edges.hpp) -- are not part
# of the package: no shipped header includes them (tests/package checks that every installed #include
# resolves). They install only as the component vqm_testing, on request:
#   cmake --install <build> --component vqm_testing

set(vqm_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/vqm)
set(vqm_include_src ${PROJECT_SOURCE_DIR}/include)

# --- headers ----------------------------------------------------------------------------------------
# A build without Vulkan leaves out the Vulkan headers: they include shaders compiled only with VQM_VULKAN.
# (The FFmpeg reader's headers stay: vqm/io/open.hpp names them, behind VQM_WITH_FFMPEG.)
set(vqm_without "")
if(NOT TARGET vqm_vulkan)
  list(APPEND vqm_without REGEX "/vqm/(lpf/)?vulkan(\\.hpp)?$" EXCLUDE)
endif()
install(DIRECTORY ${vqm_include_src}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        REGEX "/vqm/cpu/reference$" EXCLUDE
        REGEX "/vqm/lpf/random_edges\\.hpp$" EXCLUDE ${vqm_without})
# The generated headers: built-in VMAF models, and the Vulkan shaders when enabled (the test shaders
# are generated in tests/vulkan's build folder, not here).
install(DIRECTORY ${PROJECT_BINARY_DIR}/generated/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# The testing component: every test-only header, for whoever wants the oracles (not in a plain install).
install(DIRECTORY ${vqm_include_src}/vqm/cpu/reference DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/vqm/cpu
        COMPONENT vqm_testing EXCLUDE_FROM_ALL)
install(FILES ${vqm_include_src}/vqm/lpf/random_edges.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/vqm/lpf
        COMPONENT vqm_testing EXCLUDE_FROM_ALL)

# --- the CLI: part of a plain install; `cmake --install <build> --component vqm_cli` installs it alone ----
# (vqm_ prefixed, as vqm_testing: component names are global in a project that adds vqm as a subdirectory.)
if(TARGET vqm_cli)
  install(TARGETS vqm_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT vqm_cli)
endif()

# --- CMake package: one export set per component, so the core needs nothing -----------------------
install(TARGETS vqm EXPORT vqm-targets)
install(EXPORT vqm-targets NAMESPACE vqm:: DESTINATION ${vqm_cmake_dir})
install(TARGETS vqm_cpu EXPORT vqm-cpu-targets)
# vqm::cpu_compiled (the kernels in libvqm_cpu.a) belongs to the cpu component.
if(TARGET vqm_cpu_compiled)
  install(TARGETS vqm_cpu_compiled EXPORT vqm-cpu-targets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
install(EXPORT vqm-cpu-targets NAMESPACE vqm:: DESTINATION ${vqm_cmake_dir})
# The optional components this build has; vqmConfig.cmake lists them as installed.
set(VQM_PACKAGE_OPTIONAL "")
foreach(vqm_c IN ITEMS vulkan ffmpeg)
  if(TARGET vqm_${vqm_c})
    list(APPEND VQM_PACKAGE_OPTIONAL ${vqm_c})
    install(TARGETS vqm_${vqm_c} EXPORT vqm-${vqm_c}-targets)
    install(EXPORT vqm-${vqm_c}-targets NAMESPACE vqm:: DESTINATION ${vqm_cmake_dir})
  endif()
endforeach()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/vqmConfig.cmake.in ${PROJECT_BINARY_DIR}/vqmConfig.cmake
                              INSTALL_DESTINATION ${vqm_cmake_dir})
# With libvqm_cpu.a installed the package is for this architecture only.
set(vqm_arch_independent ARCH_INDEPENDENT)
if(TARGET vqm_cpu_compiled)
  set(vqm_arch_independent "")
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/vqmConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion ${vqm_arch_independent})
install(FILES ${PROJECT_BINARY_DIR}/vqmConfig.cmake ${PROJECT_BINARY_DIR}/vqmConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/vqmVulkanHeaders.cmake
        DESTINATION ${vqm_cmake_dir})

# --- pkg-config ---------------------------------------------------------------------------------------
# vqm_pc_paths(PC_DIR DIR PREFIX_VAR DIR_VAR): for a .pc installed in PC_DIR, the text after
# "${pcfiledir}/" that reaches the prefix (relocatable: ../..) and DIR as the .pc spells it; absolute
# install dirs are written as they are.
function(vqm_pc_paths pc_dir dir prefix_var dir_var)
  if(IS_ABSOLUTE "${pc_dir}" OR IS_ABSOLUTE "${dir}")
    set(${prefix_var} "" PARENT_SCOPE)
    set(${dir_var} ${CMAKE_INSTALL_PREFIX}/${dir} PARENT_SCOPE)
    if(IS_ABSOLUTE "${dir}")
      set(${dir_var} ${dir} PARENT_SCOPE)
    endif()
  else()
    file(RELATIVE_PATH up /vqm-root/${pc_dir} /vqm-root)
    string(REGEX REPLACE "/$" "" up "${up}")
    set(${prefix_var} "${up}" PARENT_SCOPE)
    set(${dir_var} "\${prefix}/${dir}" PARENT_SCOPE)
  endif()
endfunction()
set(vqm_pc_dir ${CMAKE_INSTALL_DATADIR}/pkgconfig)
vqm_pc_paths(${vqm_pc_dir} ${CMAKE_INSTALL_INCLUDEDIR} VQM_PC_PREFIX_FROM_PCDIR VQM_PC_INCLUDEDIR)
set(vqm_pc_files vqm vqm-cpu)
# The Cflags of the targets' usage requirements, from the same lists (CMakeLists.txt): the core's, the Cpu
# backend's (threads: -pthread, written in the .pc.in), the compiled library's definitions.
# vqm_pc_cflags(OUT FLAGS_LIST DEFINITIONS_LIST): " -f... -DX=1" (each item with a leading space).
function(vqm_pc_cflags out flags defs)
  set(text "")
  foreach(f IN LISTS ${flags})
    string(APPEND text " ${f}")
  endforeach()
  foreach(d IN LISTS ${defs})
    string(APPEND text " -D${d}")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
set(vqm_none "")
vqm_pc_cflags(VQM_PC_CORE_CFLAGS VQM_CORE_FLAGS vqm_none)
vqm_pc_cflags(VQM_PC_CPU_CFLAGS VQM_CPU_FLAGS VQM_CPU_DEFINITIONS)
vqm_pc_cflags(VQM_PC_CPU_COMPILED_CFLAGS vqm_none VQM_CPU_COMPILED_DEFINITIONS)
if(TARGET vqm_vulkan)
  list(APPEND vqm_pc_files vqm-vulkan)
  # -I for the Vulkan headers only when they are not on the compiler's default path.
  set(VQM_PC_VULKAN_CFLAGS "")
  get_target_property(vqm_vk_dirs Vulkan::Headers INTERFACE_INCLUDE_DIRECTORIES)
  foreach(vqm_dir IN LISTS vqm_vk_dirs)
    if(vqm_dir AND NOT vqm_dir IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
      string(APPEND VQM_PC_VULKAN_CFLAGS "-I${vqm_dir} ")
    endif()
  endforeach()
  set(VQM_PC_DL_LIBS "")
  foreach(vqm_lib IN LISTS CMAKE_DL_LIBS)
    string(APPEND VQM_PC_DL_LIBS " -l${vqm_lib}")
  endforeach()
endif()
if(TARGET vqm_ffmpeg)
  list(APPEND vqm_pc_files vqm-ffmpeg)
  vqm_pc_cflags(VQM_PC_FFMPEG_CFLAGS vqm_none VQM_FFMPEG_DEFINITIONS)
endif()
foreach(vqm_pc IN LISTS vqm_pc_files)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${vqm_pc}.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/${vqm_pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${vqm_pc}.pc DESTINATION ${vqm_pc_dir})
endforeach()

# vqm-cpu-compiled.pc names a library: it goes to <libdir>/pkgconfig.
if(TARGET vqm_cpu_compiled)
  set(vqm_pc_lib_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  vqm_pc_paths(${vqm_pc_lib_dir} ${CMAKE_INSTALL_LIBDIR} VQM_PC_LIB_PREFIX_FROM_PCDIR VQM_PC_LIBDIR)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/vqm-cpu-compiled.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/vqm-cpu-compiled.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/vqm-cpu-compiled.pc DESTINATION ${vqm_pc_lib_dir})
endif()

install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/vqm)
