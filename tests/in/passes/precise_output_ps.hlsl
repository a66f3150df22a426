// pass: dce -O3 -T ps_6_0
// A precise entry-point return value: the pixel shader's output is a
// precise output variable and its computation stays unfused to the end.
precise float4 main(float4 a : A, float4 b : B) : SV_Target {
    return a * b + a;
}
// check: global @out.var.SV_Target:float4 Output location(0) precise
// check: fn main() {
// check: = precise mul
// nextln: = precise add
// not: fma
// check: store @out.var.SV_Target,
