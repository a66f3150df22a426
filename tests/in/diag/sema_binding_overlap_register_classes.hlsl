// args: -fsyntax-only
// The usual D3D register style: b0, t0 and s0 are different registers in
// D3D but one Vulkan binding. W0601 says how to separate them.
cbuffer Camera : register(b0) {
    float4x4 viewProj;
};
Texture2D<float4> diffuse : register(t0);
SamplerState aniso : register(s0);
Texture2D<float4> normals : register(t0);

float4 PSMain(float2 uv : TEXCOORD0) : SV_Target {
    return diffuse.Sample(aniso, uv) * normals.Sample(aniso, uv) * viewProj[0];
}
