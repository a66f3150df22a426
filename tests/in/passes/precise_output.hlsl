// pass: fuse_mad -O3 -T vs_6_0
// A precise stage output (a precise member of the output struct) becomes
// a precise output variable: what is written to SV_Position is marked, the
// colour next to it is fused.
struct VSOut {
    precise float4 pos : SV_Position;
    float4 color : COLOR0;
};
float4x4 mvp;

VSOut main(float4 p : POSITION, float4 c : COLOR0) {
    VSOut o;
    o.pos = mul(mvp, p) + p * 0.5;
    o.color = c * 0.5 + p;
    return o;
}
// check: global @gl_Position:float4 Output builtin(Position) precise
// check: global @out.var.COLOR0:float4 Output location(0) semantic(COLOR0)
// check: fn main() {
// check: = precise matmul
// check: = precise mul
// check: = precise add
// check: = fma
// check: store @gl_Position,
