// VP9 loop filter on 8-bit pixels (needs storageBuffer8BitAccess: neighbouring lanes write neighbouring bytes).
#version 450
#extension GL_EXT_shader_8bit_storage : require
#define PIXEL_T uint8_t
#include "lpf_common.glsl"
