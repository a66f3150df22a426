// pass: precise -O0 -T vs_6_0
// At -O0 the entry wrapper calls the HLSL entry function and stores member
// `pos` of its result into the precise output: the callee gets a
// specialisation in which only what it returns in member 0 is marked —
// the colour, next to it in the same struct, stays free.
struct VSOut {
    precise float4 pos : SV_Position;
    float4 color : COLOR0;
};
float4x4 mvp;

VSOut main(float4 p : POSITION, float4 c : COLOR0) {
    VSOut o;
    o.pos = mul(mvp, p) + p * 0.5;
    o.color = mul(mvp, c) + c * 0.5;
    return o;
}
// check: fn main() {
// check: = call src.main.precise.ret0(
// check: fn src.main.precise.ret0(%p:float4, %c:float4) -> struct VSOut {
// check: = precise matmul
// check: = precise mul
// check: = precise add
// check: store %_,
// not: precise
// check: return
