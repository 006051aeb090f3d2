# GLSL compute shaders -> SPIR-V (glslc, at configure time) -> headers with constexpr uint32_t arrays.
#
# Every file under the shader directory (including the .glsl files the shaders #include) is a configure
# dependency, so editing any of them re-runs the generation; a header is rewritten only when its
# content changes, so unchanged shaders cause no rebuild.

# The Vulkan headers (Vulkan::Headers; not libvulkan, which is opened at run time) and glslc.
function(vqm_find_vulkan_tools)
  include(vqmVulkanHeaders)  # cmake/ is on CMAKE_MODULE_PATH
  if(NOT TARGET Vulkan::Headers)
    message(FATAL_ERROR "Vulkan headers (vulkan/vulkan.h) not found: install 'libvulkan-dev' (or the Vulkan SDK), "
                        "or configure with -DVQM_VULKAN=OFF")
  endif()
  find_program(VQM_GLSLC glslc HINTS ENV VULKAN_SDK PATH_SUFFIXES bin)
  if(NOT VQM_GLSLC)
    message(FATAL_ERROR "glslc not found: install the 'glslc' package (shaderc), or configure with -DVQM_VULKAN=OFF")
  endif()
endfunction()

# vqm_embed_shaders(OUTPUT_DIR <dir> SHADER_DIR <dir> [INCLUDE_DIRS <dir>...]): every <stem>.comp directly
# in SHADER_DIR becomes OUTPUT_DIR/<stem>.hpp (vqm::vulkan::spirv::<stem>); #include looks in SHADER_DIR,
# then INCLUDE_DIRS. Headers in OUTPUT_DIR whose shader is gone are removed (nothing stale is installed).
function(vqm_embed_shaders)
  cmake_parse_arguments(arg "" "OUTPUT_DIR;SHADER_DIR" "INCLUDE_DIRS" ${ARGN})
  file(GLOB_RECURSE all_files CONFIGURE_DEPENDS ${arg_SHADER_DIR}/*)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${all_files})
  file(GLOB shaders ${arg_SHADER_DIR}/*.comp)
  file(MAKE_DIRECTORY ${arg_OUTPUT_DIR} ${CMAKE_CURRENT_BINARY_DIR}/shaders)
  set(includes -I ${arg_SHADER_DIR})
  foreach(dir IN LISTS arg_INCLUDE_DIRS)
    list(APPEND includes -I ${dir})
  endforeach()
  file(GLOB stale ${arg_OUTPUT_DIR}/*.hpp)
  foreach(src IN LISTS shaders)
    get_filename_component(stem ${src} NAME_WE)
    string(MAKE_C_IDENTIFIER ${stem} id)
    file(RELATIVE_PATH src_rel ${PROJECT_SOURCE_DIR} ${src})
    set(spv_c ${CMAKE_CURRENT_BINARY_DIR}/shaders/${stem}.spv.inc)
    # -O0: optimisers may reassociate float math the SPEC fixes; `precise` guards what remains.
    execute_process(COMMAND ${VQM_GLSLC} --target-env=vulkan1.2 -O0 ${includes} -mfmt=c -o ${spv_c} ${src}
                    RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "glslc failed on ${src}:\n${err}${out}")
    endif()
    file(READ ${spv_c} words)
    set(text "// Generated from ${src_rel} by glslc at configure time. Do not edit.\n#pragma once\n\n#include <cstdint>\n\nnamespace vqm::vulkan::spirv {\n\ninline constexpr std::uint32_t ${id}[] =\n${words};\n\n}  // namespace vqm::vulkan::spirv\n")
    file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/shaders/${stem}.hpp.tmp "${text}")
    configure_file(${CMAKE_CURRENT_BINARY_DIR}/shaders/${stem}.hpp.tmp ${arg_OUTPUT_DIR}/${stem}.hpp COPYONLY)
    list(REMOVE_ITEM stale ${arg_OUTPUT_DIR}/${stem}.hpp)
  endforeach()
  if(stale)
    file(REMOVE ${stale})
  endif()
endfunction()
