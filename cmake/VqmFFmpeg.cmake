# vqm::ffmpeg: the optional decoding component (include/vqm/io/ffmpeg_reader.hpp), header-only like the
# rest. It links FFmpeg's libraries found with pkg-config (Debian: libavformat-dev libavcodec-dev
# libavutil-dev libswscale-dev) and defines VQM_WITH_FFMPEG, which makes vqm::io::open_frame_source
# decode containers and codecs. The core and the Cpu/Vulkan backends do not depend on it.
#
# VQM_FFMPEG: ON when the libraries are found (the default), OFF to build without them.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(VQM_LIBAV QUIET IMPORTED_TARGET libavformat libavcodec libavutil libswscale)
endif()
set(vqm_ffmpeg_default OFF)
if(VQM_LIBAV_FOUND)
  set(vqm_ffmpeg_default ON)
endif()
option(VQM_FFMPEG "Build vqm::ffmpeg (decode any container and codec with FFmpeg's libraries)" ${vqm_ffmpeg_default})
if(VQM_FFMPEG)
  if(NOT VQM_LIBAV_FOUND)
    message(FATAL_ERROR "VQM_FFMPEG=ON but FFmpeg's libraries were not found with pkg-config (install "
                        "libavformat-dev libavcodec-dev libavutil-dev libswscale-dev, or set -DVQM_FFMPEG=OFF)")
  endif()
  add_library(vqm_ffmpeg INTERFACE)
  add_library(vqm::ffmpeg ALIAS vqm_ffmpeg)
  target_link_libraries(vqm_ffmpeg INTERFACE vqm::vqm PkgConfig::VQM_LIBAV Threads::Threads)
  # Written once, for the target and vqm-ffmpeg.pc (cmake/VqmInstall.cmake).
  set(VQM_FFMPEG_DEFINITIONS VQM_WITH_FFMPEG=1)
  target_compile_definitions(vqm_ffmpeg INTERFACE ${VQM_FFMPEG_DEFINITIONS})
  set_target_properties(vqm_ffmpeg PROPERTIES EXPORT_NAME ffmpeg)
  message(STATUS "vqm: FFmpeg decoding (vqm::ffmpeg): libavformat ${VQM_LIBAV_libavformat_VERSION}, "
                 "libavcodec ${VQM_LIBAV_libavcodec_VERSION}")
else()
  message(STATUS "vqm: FFmpeg decoding off (VQM_FFMPEG=OFF): the CLI reads Y4M and raw .yuv only")
endif()
