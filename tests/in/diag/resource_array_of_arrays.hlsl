// args: -T ps_6_0 -E main
// A Vulkan descriptor is one resource or an array of them: arrays of
// arrays of resources are an error (universal1.5 allows them).
Texture2D<float4> tiles[2][3];
SamplerState s;

float4 main(float2 uv : UV) : SV_Target {
  return tiles[1][2].Sample(s, uv);
}
