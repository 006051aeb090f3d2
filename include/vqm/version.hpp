// vqm's version: written here and nowhere else. CMakeLists.txt reads these three lines for
// project(VERSION), which the CMake package version file and the pkg-config files take from there.
#pragma once

#define VQM_VERSION_MAJOR 0
#define VQM_VERSION_MINOR 1
#define VQM_VERSION_PATCH 0

// "MAJOR.MINOR.PATCH", and one comparable integer (0.1.0 -> 100, 1.2.3 -> 10203).
#define VQM_DETAIL_STRINGIFY2(x) #x
#define VQM_DETAIL_STRINGIFY(x) VQM_DETAIL_STRINGIFY2(x)
#define VQM_VERSION_STRING \
  VQM_DETAIL_STRINGIFY(VQM_VERSION_MAJOR) "." VQM_DETAIL_STRINGIFY(VQM_VERSION_MINOR) "." VQM_DETAIL_STRINGIFY(VQM_VERSION_PATCH)
#define VQM_VERSION (VQM_VERSION_MAJOR * 10000 + VQM_VERSION_MINOR * 100 + VQM_VERSION_PATCH)
