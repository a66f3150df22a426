// args: -T vs_6_2 -E main -enable-16bit-types
// With 16-bit types, `half4` is not the 32-bit float4 the position is.
struct Pos { half4 p[1]; };

Pos main() : SV_Position {
    return (Pos)0;
}
