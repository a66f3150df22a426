// args: -T ps_6_0 -E main
// The status argument of a tiled-resources read receives the residency
// code: it must be a `uint` variable.
Texture2D<float4> tex;
RWTexture2D<float4> img;
SamplerState smp;

float4 main(float2 uv : TEXCOORD) : SV_Target {
    float as_float;
    int as_int;
    uint2 as_vector;
    uint status;
    float4 r = tex.Sample(smp, uv, int2(0, 0), 1.0, as_float);
    r += tex.SampleLevel(smp, uv, 0, int2(0, 0), as_int);
    r += img.Load(int2(uv), as_vector);
    r += tex.Load(int3(0, 0, 0), int2(0, 0), status + 1);
    return r;
}
