// vk/khr/cooperative_matrix.h: hlslc's built-in header for the
// cooperative matrices of SPV_KHR_cooperative_matrix (Vulkan's
// VK_KHR_cooperative_matrix), with the API of DXC's header of the same
// name:
//
//   vk::khr::CooperativeMatrix<Component, scope, rows, columns, use>
//   vk::khr::CooperativeMatrixA / CooperativeMatrixB /
//       CooperativeMatrixAccumulator<Component, scope, rows, columns>
//   vk::khr::cooperativeMatrixMultiplyAdd(a, b, c),
//   vk::khr::cooperativeMatrixSaturatingMultiplyAdd(a, b, c)
//
// A matrix is a value held by all the invocations of `scope` together:
// each invocation holds GetLength() of its components, which Get and Set
// reach. Loads and stores name the layout of the matrix in memory (a
// vk::CooperativeMatrixLayout) and, optionally first, memory operand bits
// (vk::MemoryAccessMask). The coherent forms and those through a
// vk::WorkgroupSpirvPointer make the memory access available or visible,
// which takes the Vulkan memory model.

#ifndef HLSLC_BUILTIN_VK_KHR_COOPERATIVE_MATRIX_H
#define HLSLC_BUILTIN_VK_KHR_COOPERATIVE_MATRIX_H

#if __SPIRV_MAJOR_VERSION__ == 1 && __SPIRV_MINOR_VERSION__ < 6
#error "vk/khr/cooperative_matrix.h needs SPIR-V 1.6 (-fspv-target-env=vulkan1.3 or later)"
#endif

#include <vk/spirv.h>
#include <vk/opcode_selector.h>

namespace vk {

// vk::WorkgroupSpirvPointer<T> spelt out, for parameters whose T the
// arguments give.
#define __HLSLC_WORKGROUP_POINTER(T)                                           \
  const vk::SpirvOpaqueType</* OpTypePointer */ 32,                            \
                            vk::Literal<vk::integral_constant<                 \
                                uint, StorageClassWorkgroup> >,                \
                            T>

namespace __hlslc {

// The instructions the matrices are made of, each a function whose
// parameters are its operands. A layout and a scope are ids of 32-bit
// integer constants; memory operand and multiply-add bits are literals.
template <typename R, typename S>
[[vk::ext_instruction(/* OpMatrixTimesScalar */ 143)]] R
spv_matrix_times_scalar(R m, S s);

template <typename R, typename C>
[[vk::ext_instruction(/* OpCompositeConstruct */ 80)]] R
spv_construct(C value);

template <typename P, typename M>
[[vk::ext_instruction(/* OpAccessChain */ 65)]] P
spv_access_chain([[vk::ext_reference]] M m, uint32_t index);

template <typename R, typename P>
[[vk::ext_instruction(/* OpLoad */ 61)]] R spv_load(P p);

template <typename P, typename V>
[[vk::ext_instruction(/* OpStore */ 62)]] void spv_store(P p, V v);


// OpCooperativeMatrixLoadKHR: the pointer, the layout, the stride, the
// memory operand bits and, for MakePointerVisible, its scope.
template <typename R, typename E>
[[vk::ext_instruction(/* OpCooperativeMatrixLoadKHR */ 4457)]] R
spv_matrix_load([[vk::ext_reference]] E element,
                int layout, uint stride,
                [[vk::ext_literal]] uint32_t operands);

template <typename R, typename E>
[[vk::ext_instruction(/* OpCooperativeMatrixLoadKHR */ 4457)]] R
spv_matrix_load([[vk::ext_reference]] E element,
                int layout, uint stride,
                [[vk::ext_literal]] uint32_t operands, int scope);

template <typename R, typename E>
[[vk::ext_instruction(/* OpCooperativeMatrixLoadKHR */ 4457)]] R
spv_matrix_load_pointer(__HLSLC_WORKGROUP_POINTER(E) pointer,
                        int layout, uint stride,
                        [[vk::ext_literal]] uint32_t operands,
                        int scope);

// OpCooperativeMatrixStoreKHR: the pointer, the matrix, the layout, the
// stride, the memory operand bits and, for MakePointerAvailable, its
// scope.
template <typename M, typename E>
[[vk::ext_instruction(/* OpCooperativeMatrixStoreKHR */ 4458)]] void
spv_matrix_store([[vk::ext_reference]] E element, M m,
                 int layout, uint stride,
                 [[vk::ext_literal]] uint32_t operands);

template <typename M, typename E>
[[vk::ext_instruction(/* OpCooperativeMatrixStoreKHR */ 4458)]] void
spv_matrix_store([[vk::ext_reference]] E element, M m,
                 int layout, uint stride,
                 [[vk::ext_literal]] uint32_t operands, int scope);

template <typename M, typename E>
[[vk::ext_instruction(/* OpCooperativeMatrixStoreKHR */ 4458)]] void
spv_matrix_store_pointer(__HLSLC_WORKGROUP_POINTER(E) pointer, M m,
                         int layout, uint stride,
                         [[vk::ext_literal]] uint32_t operands,
                         int scope);

// OpCooperativeMatrixMulAddKHR: A x B + C, with the operand bits.
template <typename R, typename A, typename B, typename C>
[[vk::ext_instruction(/* OpCooperativeMatrixMulAddKHR */ 4459)]] R
spv_matrix_mul_add(A a, B b, C c, [[vk::ext_literal]] uint32_t operands);

} // namespace __hlslc

namespace khr {

template <typename ComponentType, Scope scope, uint rows, uint columns,
          CooperativeMatrixUse use>
class CooperativeMatrix {
  // The SPIR-V type: OpTypeCooperativeMatrixKHR with the scope, the size
  // and the use as constants.
  using SpirvMatrixType = vk::SpirvOpaqueType<
      /* OpTypeCooperativeMatrixKHR */ 4456, ComponentType,
      vk::integral_constant<uint, scope>, vk::integral_constant<uint, rows>,
      vk::integral_constant<uint, columns>, vk::integral_constant<uint, use> >;

  // Whether the components are of a signed integer type (the
  // multiply-add's operand bits say so): an integer type drops the half,
  // a signed one goes below zero.
  static const bool hasSignedIntegerComponentType =
      ComponentType(0.5) == ComponentType(0) &&
      ComponentType(0) - ComponentType(1) < ComponentType(0);

  SpirvMatrixType _matrix;

  // Each component converted to NewComponentType.
  template <class NewComponentType>
  CooperativeMatrix<NewComponentType, scope, rows, columns, use> cast() {
    using Result = CooperativeMatrix<NewComponentType, scope, rows, columns, use>;
    Result r;
    r._matrix = util::ConversionSelector<ComponentType, NewComponentType>::
        Convert<typename Result::SpirvMatrixType>(_matrix);
    return r;
  }

  CooperativeMatrix negate() {
    CooperativeMatrix r;
    r._matrix = util::ArithmeticSelector<ComponentType>::Negate(_matrix);
    return r;
  }

  // Component-wise arithmetic.
  CooperativeMatrix operator+(CooperativeMatrix other) {
    CooperativeMatrix r;
    r._matrix = util::ArithmeticSelector<ComponentType>::Add(_matrix, other._matrix);
    return r;
  }
  CooperativeMatrix operator-(CooperativeMatrix other) {
    CooperativeMatrix r;
    r._matrix = util::ArithmeticSelector<ComponentType>::Sub(_matrix, other._matrix);
    return r;
  }
  CooperativeMatrix operator*(CooperativeMatrix other) {
    CooperativeMatrix r;
    r._matrix = util::ArithmeticSelector<ComponentType>::Mul(_matrix, other._matrix);
    return r;
  }
  CooperativeMatrix operator/(CooperativeMatrix other) {
    CooperativeMatrix r;
    r._matrix = util::ArithmeticSelector<ComponentType>::Div(_matrix, other._matrix);
    return r;
  }

  // Every component times a scalar.
  CooperativeMatrix operator*(ComponentType scalar) {
    CooperativeMatrix r;
    r._matrix = __hlslc::spv_matrix_times_scalar(_matrix, scalar);
    return r;
  }

  // A matrix with every component v.
  static CooperativeMatrix Splat(ComponentType v) {
    CooperativeMatrix r;
    r._matrix = __hlslc::spv_construct<SpirvMatrixType>(v);
    return r;
  }

  // How many components each invocation holds.
  static uint32_t GetLength() {
    return __builtin_spv_CooperativeMatrixLengthKHR<SpirvMatrixType>();
  }

  // This invocation's component `index` (below GetLength()).
  ComponentType Get(uint32_t index) {
    using Pointer = vk::SpirvOpaqueType<
        /* OpTypePointer */ 32,
        vk::Literal<vk::integral_constant<uint, StorageClassFunction> >,
        ComponentType>;
    return __hlslc::spv_load<ComponentType>(
        __hlslc::spv_access_chain<Pointer>(_matrix, index));
  }

  void Set(ComponentType value, uint32_t index) {
    using Pointer = vk::SpirvOpaqueType<
        /* OpTypePointer */ 32,
        vk::Literal<vk::integral_constant<uint, StorageClassFunction> >,
        ComponentType>;
    __hlslc::spv_store(__hlslc::spv_access_chain<Pointer>(_matrix, index),
                       value);
  }

  // Loads: from data[index] on, rows or columns `stride` elements apart.
  template <uint32_t memoryAccessOperands, CooperativeMatrixLayout layout,
            class Type>
  static CooperativeMatrix Load(RWStructuredBuffer<Type> data, uint32_t index,
                                uint32_t stride) {
    CooperativeMatrix r;
    r._matrix = __hlslc::spv_matrix_load<SpirvMatrixType>(
        data[index], layout, stride, memoryAccessOperands);
    return r;
  }
  template <CooperativeMatrixLayout layout, class Type>
  static CooperativeMatrix Load(RWStructuredBuffer<Type> data, uint32_t index,
                                uint32_t stride) {
    return Load<MemoryAccessMaskNone, layout>(data, index, stride);
  }

  template <uint32_t memoryAccessOperands, CooperativeMatrixLayout layout,
            class Type>
  static CooperativeMatrix Load(StructuredBuffer<Type> data, uint32_t index,
                                uint32_t stride) {
    CooperativeMatrix r;
    r._matrix = __hlslc::spv_matrix_load<SpirvMatrixType>(
        data[index], layout, stride, memoryAccessOperands);
    return r;
  }
  template <CooperativeMatrixLayout layout, class Type>
  static CooperativeMatrix Load(StructuredBuffer<Type> data, uint32_t index,
                                uint32_t stride) {
    return Load<MemoryAccessMaskNone, layout>(data, index, stride);
  }

  // A load that sees the writes of other invocations on the device
  // (MakePointerVisible at queue family scope).
  template <uint32_t memoryAccessOperands, CooperativeMatrixLayout layout,
            class Type>
  static CooperativeMatrix CoherentLoad(
      globallycoherent RWStructuredBuffer<Type> data, uint32_t index,
      uint32_t stride) {
    CooperativeMatrix r;
    r._matrix = __hlslc::spv_matrix_load<SpirvMatrixType>(
        data[index], layout, stride,
        memoryAccessOperands | MemoryAccessMakePointerVisibleMask |
            MemoryAccessNonPrivatePointerMask,
        ScopeQueueFamily);
    return r;
  }
  template <CooperativeMatrixLayout layout, class Type>
  static CooperativeMatrix CoherentLoad(
      globallycoherent RWStructuredBuffer<Type> data, uint32_t index,
      uint32_t stride) {
    return CoherentLoad<MemoryAccessMaskNone, layout>(data, index, stride);
  }

  // A load from groupshared memory, seeing the writes of the workgroup.
  template <uint32_t memoryAccessOperands, CooperativeMatrixLayout layout,
            class Type>
  static CooperativeMatrix Load(__HLSLC_WORKGROUP_POINTER(Type) data,
                                uint32_t stride) {
    CooperativeMatrix r;
    r._matrix = __hlslc::spv_matrix_load_pointer<SpirvMatrixType>(
        data, layout, stride,
        memoryAccessOperands | MemoryAccessMakePointerVisibleMask |
            MemoryAccessNonPrivatePointerMask,
        ScopeWorkgroup);
    return r;
  }
  template <CooperativeMatrixLayout layout, class Type>
  static CooperativeMatrix Load(__HLSLC_WORKGROUP_POINTER(Type) data,
                                uint32_t stride) {
    return Load<MemoryAccessMaskNone, layout>(data, stride);
  }

  // Stores, the counterparts of the loads.
  template <uint32_t memoryAccessOperands, CooperativeMatrixLayout layout,
            class Type>
  void Store(RWStructuredBuffer<Type> data, uint32_t index, uint32_t stride) {
    __hlslc::spv_matrix_store(data[index], _matrix, layout, stride,
                              memoryAccessOperands);
  }
  template <CooperativeMatrixLayout layout, class Type>
  void Store(RWStructuredBuffer<Type> data, uint32_t index, uint32_t stride) {
    Store<MemoryAccessMaskNone, layout>(data, index, stride);
  }

  template <uint32_t memoryAccessOperands, CooperativeMatrixLayout layout,
            class Type>
  void CoherentStore(globallycoherent RWStructuredBuffer<Type> data,
                     uint32_t index, uint32_t stride) {
    __hlslc::spv_matrix_store(data[index], _matrix, layout, stride,
                              memoryAccessOperands |
                                  MemoryAccessMakePointerAvailableMask |
                                  MemoryAccessNonPrivatePointerMask,
                              ScopeQueueFamily);
  }
  template <CooperativeMatrixLayout layout, class Type>
  void CoherentStore(globallycoherent RWStructuredBuffer<Type> data,
                     uint32_t index, uint32_t stride) {
    CoherentStore<MemoryAccessMaskNone, layout>(data, index, stride);
  }

  template <uint32_t memoryAccessOperands, CooperativeMatrixLayout layout,
            class Type>
  void Store(__HLSLC_WORKGROUP_POINTER(Type) data, uint32_t stride) {
    __hlslc::spv_matrix_store_pointer(data, _matrix, layout, stride,
                                      memoryAccessOperands |
                                          MemoryAccessMakePointerAvailableMask |
                                          MemoryAccessNonPrivatePointerMask,
                                      ScopeWorkgroup);
  }
  template <CooperativeMatrixLayout layout, class Type>
  void Store(__HLSLC_WORKGROUP_POINTER(Type) data, uint32_t stride) {
    Store<MemoryAccessMaskNone, layout>(data, stride);
  }
};

template <typename ComponentType, Scope scope, uint rows, uint columns>
using CooperativeMatrixA = CooperativeMatrix<ComponentType, scope, rows,
                                             columns,
                                             CooperativeMatrixUseMatrixAKHR>;

template <typename ComponentType, Scope scope, uint rows, uint columns>
using CooperativeMatrixB = CooperativeMatrix<ComponentType, scope, rows,
                                             columns,
                                             CooperativeMatrixUseMatrixBKHR>;

template <typename ComponentType, Scope scope, uint rows, uint columns>
using CooperativeMatrixAccumulator =
    CooperativeMatrix<ComponentType, scope, rows, columns,
                      CooperativeMatrixUseMatrixAccumulatorKHR>;

// a x b + c, the product of a rows x K matrix A and a K x columns matrix B
// added to an accumulator.
template <typename ComponentType, Scope scope, uint rows, uint columns, uint K>
CooperativeMatrixAccumulator<ComponentType, scope, rows, columns>
cooperativeMatrixMultiplyAdd(
    CooperativeMatrix<ComponentType, scope, rows, K,
                      CooperativeMatrixUseMatrixAKHR> a,
    CooperativeMatrix<ComponentType, scope, K, columns,
                      CooperativeMatrixUseMatrixBKHR> b,
    CooperativeMatrix<ComponentType, scope, rows, columns,
                      CooperativeMatrixUseMatrixAccumulatorKHR> c) {
  CooperativeMatrixAccumulator<ComponentType, scope, rows, columns> r;
  r._matrix = __hlslc::spv_matrix_mul_add<
      typename CooperativeMatrixAccumulator<ComponentType, scope, rows,
                                            columns>::SpirvMatrixType>(
      a._matrix, b._matrix, c._matrix,
      a.hasSignedIntegerComponentType
          ? CooperativeMatrixOperandsMatrixASignedComponentsKHRMask |
                CooperativeMatrixOperandsMatrixBSignedComponentsKHRMask |
                CooperativeMatrixOperandsMatrixCSignedComponentsKHRMask |
                CooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask
          : CooperativeMatrixOperandsMaskNone);
  return r;
}

// The same, saturating the accumulation of integers.
template <typename ComponentType, Scope scope, uint rows, uint columns, uint K>
CooperativeMatrixAccumulator<ComponentType, scope, rows, columns>
cooperativeMatrixSaturatingMultiplyAdd(
    CooperativeMatrix<ComponentType, scope, rows, K,
                      CooperativeMatrixUseMatrixAKHR> a,
    CooperativeMatrix<ComponentType, scope, K, columns,
                      CooperativeMatrixUseMatrixBKHR> b,
    CooperativeMatrix<ComponentType, scope, rows, columns,
                      CooperativeMatrixUseMatrixAccumulatorKHR> c) {
  CooperativeMatrixAccumulator<ComponentType, scope, rows, columns> r;
  r._matrix = __hlslc::spv_matrix_mul_add<
      typename CooperativeMatrixAccumulator<ComponentType, scope, rows,
                                            columns>::SpirvMatrixType>(
      a._matrix, b._matrix, c._matrix,
      CooperativeMatrixOperandsSaturatingAccumulationKHRMask |
          (a.hasSignedIntegerComponentType
               ? CooperativeMatrixOperandsMatrixASignedComponentsKHRMask |
                     CooperativeMatrixOperandsMatrixBSignedComponentsKHRMask |
                     CooperativeMatrixOperandsMatrixCSignedComponentsKHRMask |
                     CooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask
               : CooperativeMatrixOperandsMaskNone));
  return r;
}

#undef __HLSLC_WORKGROUP_POINTER

} // namespace khr
} // namespace vk

#endif // HLSLC_BUILTIN_VK_KHR_COOPERATIVE_MATRIX_H
