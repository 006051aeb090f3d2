// spec_constant<T>: one specialization constant of a shader, by name. The generated
// vqm/vulkan/spirv/<stem>.hpp (cmake/VqmShaders.cmake) gives each shader's `layout(constant_id = N)
// const TYPE NAME` as spirv::<stem>_constants::<name in lower case>, with N and TYPE read from the shader
// itself, so the host names a constant and never retypes its number or its type.
#pragma once

#include <cstdint>

namespace vqm::vulkan {

template <class T>
struct spec_constant {
  using type = T;  // the shader's type: bool (VkBool32), 32- or 64-bit integers, float, double
  std::uint32_t id;
  const char* name;  // the GLSL name, for errors
};

}  // namespace vqm::vulkan
