// args: -T ps_6_0 -E main
// Methods a texture does not have, the sampler a comparison needs, and the
// shader models of the newer comparison forms.
Texture3D<float> volume;
TextureCube<float4> cube;
Texture2D<float> depth;
SamplerState smp;
SamplerComparisonState cmp;

float4 main(float3 uvw : TEXCOORD) : SV_Target {
    float r = volume.SampleCmp(cmp, uvw, 0.5);
    float4 c = cube.Load(int4(0, 0, 0, 0));
    r += depth.SampleCmp(smp, uvw.xy, 0.5);
    r += depth.SampleCmpLevel(cmp, uvw.xy, 0.5, 0.0);
    r += depth.SampleCmpBias(cmp, uvw.xy, 0.5, 1.0);
    return r + c;
}
