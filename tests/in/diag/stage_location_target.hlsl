// args: -T ps_6_0 -E main
// `SV_Target` is `SV_Target0`: both name render target 0.
void main(float4 color : COLOR,
          out float4 a : SV_Target,
          out float4 b : SV_Target0,
          out float4 c : SV_Target1) {
    a = color;
    b = color;
    c = color;
}
