// args: -T cs_6_0 -E main
// The operands of an inline SPIR-V type must be types, integral constants
// or literals; its opcode must name a type instruction; its alignment must
// be a power of two.
typedef vk::SpirvOpaqueType</* OpTypeArray */ 28, float, 4> Bare;
typedef vk::SpirvOpaqueType</* OpIAdd */ 128, float> NotAType;
typedef vk::SpirvType</* OpTypeInt */ 21, 1, 3, vk::Literal<vk::integral_constant<uint, 8> >,
                      vk::Literal<vk::integral_constant<uint, 0> > > Odd;
typedef vk::SpirvOpaqueType<28, float, vk::integral_constant<float, 4> > FloatConst;
static const uint n = 4;
uint count() { return n; }
typedef vk::SpirvOpaqueType<28, float, vk::integral_constant<uint, count()> > NotConst;

[numthreads(1, 1, 1)]
void main() {}
