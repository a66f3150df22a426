// args: -T ps_6_0 -E main
// The same semantic twice is one error, not a second one for the
// location both would take.
void main(out float4 a : SV_Target3, out float4 b : SV_TARGET3) {
    a = 0;
    b = 1;
}
