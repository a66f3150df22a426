// vk/opcode_selector.h: hlslc's built-in header that picks the SPIR-V
// instruction for an arithmetic operation or a conversion from the
// component types involved. The API is DXC's header of the same name:
//
//   vk::util::ArithmeticSelector<C>::Negate/Add/Sub/Mul/Div(a[, b])
//       operate on values whose components are of type C;
//   vk::util::ConversionSelector<From, To>::Convert<R>(a)
//       converts a value with components From to the type R, whose
//       components are To (a scalar, a vector or a cooperative matrix of
//       as many components).
//
// Each operation is one instruction of SPIR-V's arithmetic or conversion
// sections, written with inline SPIR-V.

#ifndef HLSLC_BUILTIN_VK_OPCODE_SELECTOR_H
#define HLSLC_BUILTIN_VK_OPCODE_SELECTOR_H

namespace vk {
namespace __hlslc {

// The instructions, each a function whose parameters are its operands.
#define HLSLC_SPV_UNARY(fn, op)                                                \
  template <typename R> [[vk::ext_instruction(op)]] R fn(R x)
#define HLSLC_SPV_BINARY(fn, op)                                               \
  template <typename R> [[vk::ext_instruction(op)]] R fn(R x, R y)
#define HLSLC_SPV_CONVERT(fn, op)                                              \
  template <typename R, typename A> [[vk::ext_instruction(op)]] R fn(A x)

HLSLC_SPV_UNARY(spv_copy_object, 83);
HLSLC_SPV_UNARY(spv_s_negate, 126);
HLSLC_SPV_UNARY(spv_f_negate, 127);
HLSLC_SPV_BINARY(spv_i_add, 128);
HLSLC_SPV_BINARY(spv_f_add, 129);
HLSLC_SPV_BINARY(spv_i_sub, 130);
HLSLC_SPV_BINARY(spv_f_sub, 131);
HLSLC_SPV_BINARY(spv_i_mul, 132);
HLSLC_SPV_BINARY(spv_f_mul, 133);
HLSLC_SPV_BINARY(spv_u_div, 134);
HLSLC_SPV_BINARY(spv_s_div, 135);
HLSLC_SPV_BINARY(spv_f_div, 136);
HLSLC_SPV_CONVERT(spv_convert_f_to_u, 109);
HLSLC_SPV_CONVERT(spv_convert_f_to_s, 110);
HLSLC_SPV_CONVERT(spv_convert_s_to_f, 111);
HLSLC_SPV_CONVERT(spv_convert_u_to_f, 112);
HLSLC_SPV_CONVERT(spv_u_convert, 113);
HLSLC_SPV_CONVERT(spv_s_convert, 114);
HLSLC_SPV_CONVERT(spv_f_convert, 115);
HLSLC_SPV_CONVERT(spv_bitcast, 124);

#undef HLSLC_SPV_UNARY
#undef HLSLC_SPV_BINARY
#undef HLSLC_SPV_CONVERT

} // namespace __hlslc

namespace util {

template <class ComponentType> class ArithmeticSelector;

// Float components use the F instructions; integers the I ones, with the
// signed or unsigned division. (Negation is OpSNegate for both kinds of
// integer: two's complement.)
#define HLSLC_ARITHMETIC(C, neg, add, sub, mul, div)                           \
  template <> class ArithmeticSelector<C> {                                    \
    template <class T> static T Negate(T a) { return __hlslc::neg(a); }        \
    template <class T> static T Add(T a, T b) { return __hlslc::add(a, b); }   \
    template <class T> static T Sub(T a, T b) { return __hlslc::sub(a, b); }   \
    template <class T> static T Mul(T a, T b) { return __hlslc::mul(a, b); }   \
    template <class T> static T Div(T a, T b) { return __hlslc::div(a, b); }   \
  }
#define HLSLC_ARITHMETIC_FLOAT(C)                                              \
  HLSLC_ARITHMETIC(C, spv_f_negate, spv_f_add, spv_f_sub, spv_f_mul,           \
                   spv_f_div)
#define HLSLC_ARITHMETIC_SINT(C)                                               \
  HLSLC_ARITHMETIC(C, spv_s_negate, spv_i_add, spv_i_sub, spv_i_mul,           \
                   spv_s_div)
#define HLSLC_ARITHMETIC_UINT(C)                                               \
  HLSLC_ARITHMETIC(C, spv_s_negate, spv_i_add, spv_i_sub, spv_i_mul,           \
                   spv_u_div)

// Without -enable-16bit-types, half is float and takes float's selector.
#if __HLSL_ENABLE_16_BIT
HLSLC_ARITHMETIC_FLOAT(half);
HLSLC_ARITHMETIC_SINT(int16_t);
HLSLC_ARITHMETIC_UINT(uint16_t);
#endif
HLSLC_ARITHMETIC_FLOAT(float);
HLSLC_ARITHMETIC_FLOAT(double);
HLSLC_ARITHMETIC_SINT(int32_t);
HLSLC_ARITHMETIC_SINT(int64_t);
HLSLC_ARITHMETIC_UINT(uint32_t);
HLSLC_ARITHMETIC_UINT(uint64_t);

#undef HLSLC_ARITHMETIC_FLOAT
#undef HLSLC_ARITHMETIC_SINT
#undef HLSLC_ARITHMETIC_UINT
#undef HLSLC_ARITHMETIC

template <class SourceType, class TargetType> class ConversionSelector;

// The instruction for each pair of component types: a copy between equal
// types, a bitcast between integers of one width and the other
// signedness, UConvert or SConvert between integer widths (by the
// target's signedness), the float/integer conversions by the integer's
// signedness, and FConvert between float widths.
#define HLSLC_CONVERSION(S, T, op)                                             \
  template <> class ConversionSelector<S, T> {                                 \
    template <class R, class A> static R Convert(A a) {                        \
      return __hlslc::op<R>(a);                                                \
    }                                                                          \
  }

// From a float type F to the integer types of every width.
#define HLSLC_FLOAT_TO_INTS(F)                                                 \
  HLSLC_CONVERSION(F, uint32_t, spv_convert_f_to_u);                           \
  HLSLC_CONVERSION(F, int32_t, spv_convert_f_to_s);                            \
  HLSLC_CONVERSION(F, uint64_t, spv_convert_f_to_u);                           \
  HLSLC_CONVERSION(F, int64_t, spv_convert_f_to_s)
// From an integer type I to the float types, with the conversion of its
// signedness.
#define HLSLC_INT_TO_FLOATS(I, cvt)                                            \
  HLSLC_CONVERSION(I, float, cvt);                                             \
  HLSLC_CONVERSION(I, double, cvt)

#if __HLSL_ENABLE_16_BIT
HLSLC_CONVERSION(uint16_t, uint16_t, spv_copy_object);
HLSLC_CONVERSION(uint16_t, int16_t, spv_bitcast);
HLSLC_CONVERSION(int16_t, uint16_t, spv_bitcast);
HLSLC_CONVERSION(int16_t, int16_t, spv_copy_object);
HLSLC_CONVERSION(uint16_t, uint32_t, spv_u_convert);
HLSLC_CONVERSION(uint16_t, int32_t, spv_s_convert);
HLSLC_CONVERSION(uint16_t, uint64_t, spv_u_convert);
HLSLC_CONVERSION(uint16_t, int64_t, spv_s_convert);
HLSLC_CONVERSION(int16_t, uint32_t, spv_u_convert);
HLSLC_CONVERSION(int16_t, int32_t, spv_s_convert);
HLSLC_CONVERSION(int16_t, uint64_t, spv_u_convert);
HLSLC_CONVERSION(int16_t, int64_t, spv_s_convert);
HLSLC_CONVERSION(uint32_t, uint16_t, spv_u_convert);
HLSLC_CONVERSION(uint32_t, int16_t, spv_s_convert);
HLSLC_CONVERSION(int32_t, uint16_t, spv_u_convert);
HLSLC_CONVERSION(int32_t, int16_t, spv_s_convert);
HLSLC_CONVERSION(uint64_t, uint16_t, spv_u_convert);
HLSLC_CONVERSION(uint64_t, int16_t, spv_s_convert);
HLSLC_CONVERSION(int64_t, uint16_t, spv_u_convert);
HLSLC_CONVERSION(int64_t, int16_t, spv_s_convert);
HLSLC_INT_TO_FLOATS(uint16_t, spv_convert_u_to_f);
HLSLC_CONVERSION(uint16_t, half, spv_convert_u_to_f);
HLSLC_INT_TO_FLOATS(int16_t, spv_convert_s_to_f);
HLSLC_CONVERSION(int16_t, half, spv_convert_s_to_f);
HLSLC_CONVERSION(uint32_t, half, spv_convert_u_to_f);
HLSLC_CONVERSION(int32_t, half, spv_convert_s_to_f);
HLSLC_CONVERSION(uint64_t, half, spv_convert_u_to_f);
HLSLC_CONVERSION(int64_t, half, spv_convert_s_to_f);
HLSLC_FLOAT_TO_INTS(half);
HLSLC_CONVERSION(half, uint16_t, spv_convert_f_to_u);
HLSLC_CONVERSION(half, int16_t, spv_convert_f_to_s);
HLSLC_CONVERSION(float, uint16_t, spv_convert_f_to_u);
HLSLC_CONVERSION(float, int16_t, spv_convert_f_to_s);
HLSLC_CONVERSION(double, uint16_t, spv_convert_f_to_u);
HLSLC_CONVERSION(double, int16_t, spv_convert_f_to_s);
HLSLC_CONVERSION(half, half, spv_copy_object);
HLSLC_CONVERSION(half, float, spv_f_convert);
HLSLC_CONVERSION(half, double, spv_f_convert);
HLSLC_CONVERSION(float, half, spv_f_convert);
HLSLC_CONVERSION(double, half, spv_f_convert);
#endif

HLSLC_CONVERSION(uint32_t, uint32_t, spv_copy_object);
HLSLC_CONVERSION(uint32_t, int32_t, spv_bitcast);
HLSLC_CONVERSION(uint32_t, uint64_t, spv_u_convert);
HLSLC_CONVERSION(uint32_t, int64_t, spv_s_convert);
HLSLC_INT_TO_FLOATS(uint32_t, spv_convert_u_to_f);

HLSLC_CONVERSION(int32_t, uint32_t, spv_bitcast);
HLSLC_CONVERSION(int32_t, int32_t, spv_copy_object);
HLSLC_CONVERSION(int32_t, uint64_t, spv_u_convert);
HLSLC_CONVERSION(int32_t, int64_t, spv_s_convert);
HLSLC_INT_TO_FLOATS(int32_t, spv_convert_s_to_f);

HLSLC_CONVERSION(uint64_t, uint32_t, spv_u_convert);
HLSLC_CONVERSION(uint64_t, int32_t, spv_s_convert);
HLSLC_CONVERSION(uint64_t, uint64_t, spv_copy_object);
HLSLC_CONVERSION(uint64_t, int64_t, spv_bitcast);
HLSLC_INT_TO_FLOATS(uint64_t, spv_convert_u_to_f);

HLSLC_CONVERSION(int64_t, uint32_t, spv_u_convert);
HLSLC_CONVERSION(int64_t, int32_t, spv_s_convert);
HLSLC_CONVERSION(int64_t, uint64_t, spv_bitcast);
HLSLC_CONVERSION(int64_t, int64_t, spv_copy_object);
HLSLC_INT_TO_FLOATS(int64_t, spv_convert_s_to_f);

HLSLC_FLOAT_TO_INTS(float);
HLSLC_CONVERSION(float, float, spv_copy_object);
HLSLC_CONVERSION(float, double, spv_f_convert);

HLSLC_FLOAT_TO_INTS(double);
HLSLC_CONVERSION(double, float, spv_f_convert);
HLSLC_CONVERSION(double, double, spv_copy_object);

#undef HLSLC_FLOAT_TO_INTS
#undef HLSLC_INT_TO_FLOATS
#undef HLSLC_CONVERSION

} // namespace util
} // namespace vk

#endif // HLSLC_BUILTIN_VK_OPCODE_SELECTOR_H
