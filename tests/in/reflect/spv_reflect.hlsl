// -fspv-reflect: semantics on stage variables (built-ins too), HLSL types on
// resources (none on samplers), the append buffer linked to its counter.
struct Light { float3 dir; float power; };
StructuredBuffer<float4> positions;
RWStructuredBuffer<uint> hits;
AppendStructuredBuffer<Light> lights;
Texture2DMSArray<float4, 8> history;
Texture2D plain;
Texture2D<float> depth[3];
RWByteAddressBuffer raw;
ConstantBuffer<Light> sun;
cbuffer Frame { float time; };
SamplerState linearClamp;
struct VOut { float4 pos : SV_Position; float2 uv : TEXCOORD3; };
VOut main(float3 p : POSITION, uint id : SV_VertexID) {
  VOut o;
  o.pos = positions[id] + float4(p, time) + history.Load(int3(0,0,0), 0) + depth[1].Load(int3(0,0,0)) + plain.SampleLevel(linearClamp, float2(0,0), 0);
  o.uv = sun.dir.xy * raw.Load(0);
  hits[id] = 1; Light l; l.dir = p; l.power = 1; lights.Append(l);
  return o;
}
