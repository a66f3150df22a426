// vk/spirv.h: hlslc's built-in header of SPIR-V enumerants and the
// workgroup pointer of inline SPIR-V. The names and numbers are those of
// the SPIR-V specification's operand tables; the API is DXC's header of
// the same name.

#ifndef HLSLC_BUILTIN_VK_SPIRV_H
#define HLSLC_BUILTIN_VK_SPIRV_H

namespace vk {

// Scope <id> operands (SPIR-V "Scope").
enum Scope {
  ScopeCrossDevice = 0,
  ScopeDevice = 1,
  ScopeWorkgroup = 2,
  ScopeSubgroup = 3,
  ScopeInvocation = 4,
  ScopeQueueFamily = 5,
  ScopeQueueFamilyKHR = 5,
  ScopeShaderCallKHR = 6,
  ScopeMax = 0x7fffffff,
};

// Storage classes (SPIR-V "Storage Class").
enum StorageClass {
  StorageClassUniformConstant = 0,
  StorageClassInput = 1,
  StorageClassUniform = 2,
  StorageClassOutput = 3,
  StorageClassWorkgroup = 4,
  StorageClassCrossWorkgroup = 5,
  StorageClassPrivate = 6,
  StorageClassFunction = 7,
  StorageClassGeneric = 8,
  StorageClassPushConstant = 9,
  StorageClassAtomicCounter = 10,
  StorageClassImage = 11,
  StorageClassStorageBuffer = 12,
  StorageClassPhysicalStorageBuffer = 5349,
  StorageClassMax = 0x7fffffff,
};

// Bits of a memory operand (SPIR-V "Memory Operands").
enum MemoryAccessMask {
  MemoryAccessMaskNone = 0x0,
  MemoryAccessVolatileMask = 0x1,
  MemoryAccessAlignedMask = 0x2,
  MemoryAccessNontemporalMask = 0x4,
  MemoryAccessMakePointerAvailableMask = 0x8,
  MemoryAccessMakePointerAvailableKHRMask = 0x8,
  MemoryAccessMakePointerVisibleMask = 0x10,
  MemoryAccessMakePointerVisibleKHRMask = 0x10,
  MemoryAccessNonPrivatePointerMask = 0x20,
  MemoryAccessNonPrivatePointerKHRMask = 0x20,
  MemoryAccessAliasScopeINTELMaskMask = 0x10000,
  MemoryAccessNoAliasINTELMaskMask = 0x20000,
};

// What a cooperative matrix is for (SPV_KHR_cooperative_matrix,
// "Cooperative Matrix Use").
enum CooperativeMatrixUse {
  CooperativeMatrixUseMatrixAKHR = 0,
  CooperativeMatrixUseMatrixBKHR = 1,
  CooperativeMatrixUseMatrixAccumulatorKHR = 2,
  CooperativeMatrixUseMax = 0x7fffffff,
};

// How a cooperative matrix lies in memory ("Cooperative Matrix Layout").
enum CooperativeMatrixLayout {
  CooperativeMatrixLayoutRowMajorKHR = 0,
  CooperativeMatrixLayoutColumnMajorKHR = 1,
  CooperativeMatrixLayoutRowBlockedInterleavedARM = 4202,
  CooperativeMatrixLayoutColumnBlockedInterleavedARM = 4203,
  CooperativeMatrixLayoutMax = 0x7fffffff,
};

// Bits of OpCooperativeMatrixMulAddKHR's last operand ("Cooperative
// Matrix Operands").
enum CooperativeMatrixOperandsMask {
  CooperativeMatrixOperandsMaskNone = 0x0,
  CooperativeMatrixOperandsMatrixASignedComponentsKHRMask = 0x1,
  CooperativeMatrixOperandsMatrixBSignedComponentsKHRMask = 0x2,
  CooperativeMatrixOperandsMatrixCSignedComponentsKHRMask = 0x4,
  CooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask = 0x8,
  CooperativeMatrixOperandsSaturatingAccumulationKHRMask = 0x10,
};

// A SPIR-V pointer into workgroup memory (an OpTypePointer of storage
// class Workgroup to PointeeType), as a value that functions take and
// return. It cannot be assigned after its declaration.
template <typename PointeeType>
using WorkgroupSpirvPointer = const vk::SpirvOpaqueType<
    /* OpTypePointer */ 32,
    vk::Literal<vk::integral_constant<uint, StorageClassWorkgroup> >,
    PointeeType>;

// The address of v, which must be groupshared memory (a groupshared
// variable, or an element or member of one). The instruction copies the
// pointer that v stands for; given memory of another storage class, the
// module fails validation.
template <typename T>
[[vk::ext_instruction(/* OpCopyObject */ 83)]] WorkgroupSpirvPointer<T>
GetGroupSharedAddress([[vk::ext_reference]] T v);

} // namespace vk

#endif // HLSLC_BUILTIN_VK_SPIRV_H
