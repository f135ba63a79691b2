# peer_hip_rocm_abi_lists(HIP_INCLUDE_DIR OUT): reads ROCm's installed HIP
# headers (HIP_INCLUDE_DIR/hip/...) and writes OUT, an X-macro list of what a
# program built against them depends on:
#   PEER_ENUM(type, enumerator)   every enumerator of the enums below
#   PEER_STRUCT(type)             the structures below
#   PEER_MEMBER(type, member)     every member of each of them
#   PEER_DEFINE(name)             every numeric #define hip... of the headers
# abi_probe.cpp expands the list against ROCm's headers and against this
# project's, and hip_dropin.abi_layout compares the two outputs: a member,
# enumerator or flag of ROCm 5.2.3 that this project lacks stops the build,
# a different value or offset fails the test.
set(PEER_HIP_ABI_ENUMS
  hip_runtime_api.h:hipError_t hip_runtime_api.h:hipDeviceAttribute_t
  hip_runtime_api.h:hipMemoryType hip_runtime_api.h:hipDeviceP2PAttr
  hip_runtime_api.h:hipJitOption hip_runtime_api.h:hipFuncAttribute
  hip_runtime_api.h:hipFuncCache_t hip_runtime_api.h:hipSharedMemConfig
  hip_runtime_api.h:hipMemPoolAttr hip_runtime_api.h:hipMemLocationType
  hip_runtime_api.h:hipMemAccessFlags hip_runtime_api.h:hipMemAllocationType
  hip_runtime_api.h:hipMemAllocationHandleType hip_runtime_api.h:hipLimit_t
  driver_types.h:hipMemcpyKind driver_types.h:hipChannelFormatKind
  driver_types.h:hipFunction_attribute driver_types.h:hipArray_Format hiprtc.h:hiprtcResult)
set(PEER_HIP_ABI_STRUCTS
  hip_runtime_api.h:hipDeviceProp_t hip_runtime_api.h:hipPointerAttribute_t
  hip_runtime_api.h:hipFuncAttributes hip_runtime_api.h:hipMemPoolProps
  hip_runtime_api.h:hipMemLocation hip_runtime_api.h:hipMemAccessDesc
  hip_runtime_api.h:hipIpcMemHandle_t hip_runtime_api.h:hipIpcEventHandle_t
  hip_runtime_api.h:hipLaunchParams hip_runtime_api.h:hipUUID
  driver_types.h:hipChannelFormatDesc driver_types.h:hipPitchedPtr driver_types.h:hipExtent
  driver_types.h:hipPos driver_types.h:HIP_ARRAY_DESCRIPTOR driver_types.h:HIP_ARRAY3D_DESCRIPTOR)

# The header's text without comments.
function(_peer_hip_header dir file out)
  if(NOT EXISTS ${dir}/hip/${file})
    message(FATAL_ERROR "ROCm's HIP header ${dir}/hip/${file} not found (libamdhip64-dev)")
  endif()
  file(READ ${dir}/hip/${file} text)
  string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" text "${text}")
  string(REGEX REPLACE "//[^\n]*" "" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Body of `[typedef] enum|struct [tag] { body } [name];` whose tag or
# typedef name is `name`.
function(_peer_hip_body text kind name out)
  set(id "[A-Za-z_][A-Za-z0-9_]*")
  string(REGEX MATCH "${kind}[ \t\n]+(${id}[ \t\n]+)*${name}[ \t\n]*{[^}]*}" block "${text}")
  if(NOT block)
    string(REGEX MATCH "typedef[ \t\n]+${kind}[ \t\n]*(${id})?[ \t\n]*{[^}]*}[ \t\n]*${name}[ \t\n]*;"
           block "${text}")
  endif()
  if(NOT block)
    message(FATAL_ERROR "ROCm's HIP headers: no ${kind} ${name} found")
  endif()
  string(REGEX REPLACE "^[^{]*{" "" block "${block}")
  string(REGEX REPLACE "}.*$" "" block "${block}")
  set(${out} "${block}" PARENT_SCOPE)
endfunction()

function(peer_hip_rocm_abi_lists dir out)
  set(lines "/* Generated from ${dir}/hip by rocm_abi_lists.cmake. */\n")
  foreach(item ${PEER_HIP_ABI_ENUMS})
    string(REPLACE ":" ";" item "${item}")
    list(GET item 0 file)
    list(GET item 1 name)
    _peer_hip_header(${dir} ${file} text)
    _peer_hip_body("${text}" enum ${name} body)
    string(REPLACE "," ";" entries "${body}")
    foreach(e ${entries})
      if(e MATCHES "^[ \t\n]*([A-Za-z_][A-Za-z0-9_]*)")
        string(APPEND lines "PEER_ENUM(${name}, ${CMAKE_MATCH_1})\n")
      endif()
    endforeach()
  endforeach()
  foreach(item ${PEER_HIP_ABI_STRUCTS})
    string(REPLACE ":" ";" item "${item}")
    list(GET item 0 file)
    list(GET item 1 name)
    _peer_hip_header(${dir} ${file} text)
    _peer_hip_body("${text}" struct ${name} body)
    string(APPEND lines "PEER_STRUCT(${name})\n")
    # Each declaration ends in "name[dims];"; ';' would split a CMake list.
    string(REPLACE ";" "@" body "${body}")
    string(REGEX MATCHALL "[A-Za-z_][A-Za-z0-9_]*[ \t]*(\\[[^]]*\\])?[ \t]*@" decls "${body}")
    foreach(d ${decls})
      string(REGEX MATCH "^[A-Za-z_][A-Za-z0-9_]*" member "${d}")
      string(APPEND lines "PEER_MEMBER(${name}, ${member})\n")
    endforeach()
  endforeach()
  foreach(file hip_runtime_api.h driver_types.h)
    _peer_hip_header(${dir} ${file} text)
    string(REGEX MATCHALL "#define[ \t]+hip[A-Z][A-Za-z0-9_]*[ \t]+(0x[0-9a-fA-F]+|[0-9]+)[ \t]*\n"
           defs "${text}")
    foreach(d ${defs})
      string(REGEX MATCH "hip[A-Z][A-Za-z0-9_]*" n "${d}")
      string(APPEND lines "PEER_DEFINE(${n})\n")
    endforeach()
  endforeach()
  file(CONFIGURE OUTPUT ${out} CONTENT "${lines}" @ONLY)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED OUT)
  peer_hip_rocm_abi_lists(${DIR} ${OUT})
endif()
