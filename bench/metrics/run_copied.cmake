# cmake -DPROGRAM=<benchmark> -DFIXTURES=<dir> -DSCRATCH=<dir> -P run_copied.cmake
cmake_minimum_required(VERSION 3.21)
# Copies the benchmark out of its build tree and runs one short benchmark with VQM_FIXTURE_DIR, then
# checks that without it the copy fails with the message that names --fixtures / VQM_FIXTURE_DIR.
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH}/a/b)
get_filename_component(name ${PROGRAM} NAME)
file(COPY ${PROGRAM} DESTINATION ${SCRATCH}/a/b)
set(copy ${SCRATCH}/a/b/${name})
set(ENV{VQM_FIXTURE_DIR} ${FIXTURES})
execute_process(COMMAND ${copy} --benchmark_filter=^psnr/cpu/576x324/ --benchmark_min_time=0.01
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "psnr/cpu/576x324")
  message(FATAL_ERROR "${copy} with VQM_FIXTURE_DIR=${FIXTURES}: rc ${rc}\n${out}${err}")
endif()
unset(ENV{VQM_FIXTURE_DIR})
execute_process(COMMAND ${copy} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "--fixtures DIR or set VQM_FIXTURE_DIR")
  message(FATAL_ERROR "${copy} without fixtures: expected the error naming --fixtures, got rc ${rc}\n${out}${err}")
endif()
message(STATUS "copied benchmark runs with VQM_FIXTURE_DIR and explains itself without it")
