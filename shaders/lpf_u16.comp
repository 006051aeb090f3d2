// VP9 loop filter on 16-bit pixels, 8 to 12 significant bits (needs storageBuffer16BitAccess).
#version 450
#extension GL_EXT_shader_16bit_storage : require
#define PIXEL_T uint16_t
#include "lpf_common.glsl"
