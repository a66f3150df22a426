// args: -T vs_6_2 -E main
// A vertex shader's SV_Position is a float4 (or a struct or one-element
// array holding just one).
struct Pos3 { float3 p; };

void main(out float3 a : SV_Position, out Pos3 b : POSB) {
    a = 0;
    b = (Pos3)0;
}
