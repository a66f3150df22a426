// args: -T ps_6_0 -E main
// The view index is an input: a pixel shader cannot write it.
float4 main(out uint view : SV_ViewID) : SV_Target {
    view = 1;
    return 0;
}
