// VQM_TEST_UNIT: the name of a test file's own namespace. A test program's files are compiled as unity
// translation units (tests/CMakeLists.txt), where CMake defines it to an identifier unique to the file
// (UNITY_BUILD_UNIQUE_ID), so two files' helpers of the same name do not collide; compiled alone it is
// empty and the namespace is anonymous. Use: namespace VQM_TEST_UNIT { ...helpers and tests... }
#ifndef VQM_TEST_UNIT
#define VQM_TEST_UNIT
#endif
