# Vulkan::Headers, and nothing else of Vulkan: vqm::vulkan opens the loader (libvulkan.so.1) at run time,
# so neither vqm's build nor find_package(vqm) needs libvulkan's library or its development symlink.
# Used by vqm's own build and installed next to vqmConfig.cmake.
#
# Order: a Vulkan::Headers target that already exists (the caller's find_package(Vulkan), CMake >= 3.21);
# Vulkan-Headers' own package (VulkanHeadersConfig.cmake: Debian's libvulkan-dev, the LunarG SDK);
# else <vulkan/vulkan.h> on the include path or under $VULKAN_SDK, wrapped in an imported target.
if(NOT TARGET Vulkan::Headers)
  find_package(VulkanHeaders CONFIG QUIET)
endif()
if(NOT TARGET Vulkan::Headers)
  find_path(VQM_VULKAN_INCLUDE_DIR vulkan/vulkan.h HINTS ENV VULKAN_SDK PATH_SUFFIXES include
            DOC "Directory holding vulkan/vulkan.h (vqm needs the Vulkan headers only)")
  if(VQM_VULKAN_INCLUDE_DIR)
    add_library(Vulkan::Headers INTERFACE IMPORTED)
    set_target_properties(Vulkan::Headers PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${VQM_VULKAN_INCLUDE_DIR}")
  endif()
endif()
