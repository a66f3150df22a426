# hlslc.cmake: compile HLSL shaders to Vulkan SPIR-V with hlslc, as build
# steps of a CMake project. Needs CMake 3.20 or newer; any generator (Ninja
# is the one the tests run).
#
#   list(APPEND CMAKE_MODULE_PATH <hlslc's repository>/cmake)
#   include(hlslc)
#
#   hlslc_compile(<source>
#                 PROFILE <profile>
#                 [ENTRY <name>]
#                 [NAME <name>]
#                 [OUTPUT_DIRECTORY <dir>]
#                 [DEFINES <name>[=<value>]...]
#                 [INCLUDE_DIRECTORIES <dir>...]
#                 [OPTIONS <flag>...]
#                 [HEADER] [HEADER_VARIABLE <name>]
#                 [REFLECTION]
#                 [TARGET <target>]
#                 [OUTPUTS <variable>])
#
# Adds one build step: hlslc compiles <source> (a path relative to the
# current source directory, or absolute) for one entry point and one set of
# defines, i.e. one permutation. Call it once per file and permutation.
#
#   PROFILE              -T: the profile, such as vs_6_0, ps_6_0, cs_6_6.
#                        Required.
#   ENTRY                -E: the entry point. Default: main.
#   NAME                 The outputs' base name: <NAME>.spv, and <NAME>.h and
#                        <NAME>.json when asked for. Default: <source>'s file
#                        name without its last extension; permutations of one
#                        source each need their own NAME.
#   OUTPUT_DIRECTORY     Where the outputs go, relative to the current binary
#                        directory. Default: ${CMAKE_CURRENT_BINARY_DIR}/shaders.
#   DEFINES              -D for each: NAME or NAME=VALUE.
#   INCLUDE_DIRECTORIES  -I for each, relative to the current source directory.
#   OPTIONS              Any other flags, spelt as hlslc (and DXC) spell them:
#                        -O3, -fspv-target-env=vulkan1.1, -Zi, ...
#   HEADER               Also write <NAME>.h (-Fh): a C header holding the
#                        module as `const unsigned char <variable>[]`.
#   HEADER_VARIABLE      That array's name (-Vn); implies HEADER. Default:
#                        g_<ENTRY>, as hlslc and DXC name it.
#   REFLECTION           Also write <NAME>.json (-Fre): bindings, buffer
#                        layouts and stage inputs and outputs.
#   TARGET               Adds the outputs to <target>'s sources, so that
#                        building <target> builds them. <target> must be
#                        defined in the current directory (CMake attaches a
#                        build step only to targets of its own directory):
#                        typically one add_custom_target(shaders ALL) that
#                        collects every shader, or the executable that
#                        #includes the headers.
#   OUTPUTS              Sets <variable>, in the caller's scope, to the files
#                        the step writes (absolute paths: the .spv, then the
#                        .h and the .json when asked for), e.g. to collect
#                        them into a list for add_custom_target(... DEPENDS).
#
# Rebuilds: hlslc writes a make-style depfile (-MF <NAME>.spv.d, beside the
# .spv) naming every file the shader read, and the step declares it as its
# DEPFILE. A shader is compiled again when its source, a header it
# #includes or the compiler changes (with Ninja, also its options), and only
# then: editing a header rebuilds exactly the shaders that include it.
#
# The compiler: the cache variable HLSLC_EXECUTABLE, by default `hlslc` found
# on the PATH (find_program); `cmake -DHLSLC_EXECUTABLE=/path/to/hlslc` picks
# another. It may also name an executable target of the project.
#
# Errors in a shader fail the build; hlslc's diagnostics show
# `file:line:col`, the source line and a caret.
#
# Example: two permutations of a compute shader, and a pixel shader whose
# header a program embeds.
#
#   add_custom_target(shaders ALL)
#   foreach(radius 2 4)
#     hlslc_compile(shaders/blur.hlsl PROFILE cs_6_0 NAME blur_r${radius}
#                   DEFINES BLUR_RADIUS=${radius}
#                   INCLUDE_DIRECTORIES shaders/include TARGET shaders)
#   endforeach()
#   hlslc_compile(shaders/tint.hlsl PROFILE ps_6_0 ENTRY PSMain
#                 HEADER_VARIABLE tint_spirv OUTPUTS tint_files)
#   add_executable(viewer main.c ${tint_files})
#   target_include_directories(viewer PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/shaders)

include_guard(GLOBAL)

if(CMAKE_VERSION VERSION_LESS 3.20)
  message(FATAL_ERROR
    "hlslc.cmake needs CMake 3.20 or newer (DEPFILE for every generator, "
    "depfile paths Ninja understands); this is CMake ${CMAKE_VERSION}")
endif()

# Depfiles as the Ninja generator reads them since 3.20 (paths relative to
# the top build directory). include() gives this file its own policy scope,
# and hlslc_compile keeps the settings in force where it is defined, so a
# project with an older cmake_minimum_required gets them too.
cmake_policy(SET CMP0116 NEW)

find_program(HLSLC_EXECUTABLE hlslc
  DOC "The hlslc compiler (HLSL to SPIR-V) that hlslc_compile runs")

function(hlslc_compile source)
  cmake_parse_arguments(PARSE_ARGV 1 arg
    "HEADER;REFLECTION"
    "PROFILE;ENTRY;NAME;OUTPUT_DIRECTORY;HEADER_VARIABLE;TARGET;OUTPUTS"
    "DEFINES;INCLUDE_DIRECTORIES;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "hlslc_compile(${source}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(arg_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR
      "hlslc_compile(${source}): no value for ${arg_KEYWORDS_MISSING_VALUES}")
  endif()
  if(NOT arg_PROFILE)
    message(FATAL_ERROR
      "hlslc_compile(${source}): PROFILE is required (vs_6_0, ps_6_0, cs_6_0, ...)")
  endif()
  if(NOT HLSLC_EXECUTABLE)
    message(FATAL_ERROR
      "hlslc_compile(${source}): hlslc is not on the PATH; install it "
      "(cargo install --path <hlslc's repository>) or configure with "
      "-DHLSLC_EXECUTABLE=/path/to/hlslc")
  endif()

  # The compiler: a target (add_custom_command depends on it by itself) or
  # a program, which the step depends on when it is a file, so that a new
  # compiler rebuilds the shaders.
  set(compiler "${HLSLC_EXECUTABLE}")
  set(compiler_file "")
  if(NOT TARGET "${compiler}" AND IS_ABSOLUTE "${compiler}" AND EXISTS "${compiler}")
    set(compiler_file "${compiler}")
  endif()

  cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
    NORMALIZE OUTPUT_VARIABLE src)
  set(entry main)
  if(arg_ENTRY)
    set(entry "${arg_ENTRY}")
  endif()
  set(name "${arg_NAME}")
  if(NOT name)
    cmake_path(GET src STEM LAST_ONLY name)
  endif()
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/shaders")
  if(arg_OUTPUT_DIRECTORY)
    cmake_path(ABSOLUTE_PATH arg_OUTPUT_DIRECTORY
      BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}" NORMALIZE OUTPUT_VARIABLE out_dir)
  endif()
  # Every generator needs the directory; only Ninja would make it.
  file(MAKE_DIRECTORY "${out_dir}")

  set(spv "${out_dir}/${name}.spv")
  set(depfile "${spv}.d")
  set(outputs "${spv}")
  set(args -spirv -T "${arg_PROFILE}" -E "${entry}")
  foreach(define IN LISTS arg_DEFINES)
    list(APPEND args -D "${define}")
  endforeach()
  foreach(dir IN LISTS arg_INCLUDE_DIRECTORIES)
    cmake_path(ABSOLUTE_PATH dir BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
      NORMALIZE OUTPUT_VARIABLE dir)
    list(APPEND args -I "${dir}")
  endforeach()
  list(APPEND args ${arg_OPTIONS} "${src}" -Fo "${spv}" -MF "${depfile}")
  if(arg_HEADER OR arg_HEADER_VARIABLE)
    list(APPEND outputs "${out_dir}/${name}.h")
    list(APPEND args -Fh "${out_dir}/${name}.h")
    if(arg_HEADER_VARIABLE)
      list(APPEND args -Vn "${arg_HEADER_VARIABLE}")
    endif()
  endif()
  if(arg_REFLECTION)
    list(APPEND outputs "${out_dir}/${name}.json")
    list(APPEND args -Fre "${out_dir}/${name}.json")
  endif()

  add_custom_command(
    OUTPUT ${outputs}
    COMMAND "${compiler}" ${args}
    DEPENDS "${src}" ${compiler_file}
    DEPFILE "${depfile}"
    COMMENT "hlslc ${name}.spv (${arg_PROFILE} ${entry})"
    VERBATIM)

  if(arg_TARGET)
    if(NOT TARGET "${arg_TARGET}")
      message(FATAL_ERROR
        "hlslc_compile(${source}): no target ${arg_TARGET}; define it first, "
        "e.g. add_custom_target(${arg_TARGET} ALL)")
    endif()
    get_target_property(target_dir "${arg_TARGET}" SOURCE_DIR)
    if(NOT target_dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
      message(FATAL_ERROR
        "hlslc_compile(${source}): ${arg_TARGET} is defined in ${target_dir}, "
        "not in this directory (${CMAKE_CURRENT_SOURCE_DIR}); CMake runs a "
        "build step only for targets of its own directory: give a target "
        "of this directory, or collect the OUTPUTS into one")
    endif()
    target_sources("${arg_TARGET}" PRIVATE ${outputs})
  endif()
  if(arg_OUTPUTS)
    set("${arg_OUTPUTS}" "${outputs}" PARENT_SCOPE)
  endif()
endfunction()
