// args: -T cs_6_2 -E main -enable-16bit-types
// A trait declared for every type but defined only for `half`: using it
// with another type is an incomplete type.
template <typename T> struct Trait;
template <> struct Trait<half> { static const uint size = 2; };

RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main() {
    o[0] = Trait<half>::size;
    o[1] = Trait<float>::size;
}
