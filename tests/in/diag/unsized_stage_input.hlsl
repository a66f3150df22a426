// args: -T ps_6_0 -E main
// Stage inputs and outputs need sizes: Vulkan has runtime arrays only in
// buffers and descriptor arrays.

float4 main(float4 p : POSITION, float a[] : TEXCOORD) : SV_Target { return p + a[0]; }
