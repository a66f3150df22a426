// args: -fsyntax-only
// VSMain and PSMain, no profile: no "entry point `main` is not defined";
// each function gets the rules of the stage its semantics name.
struct Varyings {
    float4 position : SV_Position;
    float2 uv : TEXCOORD0;
};

Texture2D albedo : register(t0);
SamplerState linearClamp : register(s1);

Varyings VSMain(uint id : SV_VertexID) {
    Varyings v;
    v.uv = float2((id << 1) & 2, id & 2);
    v.position = float4(v.uv * 2.0 - 1.0, 0.0, 1.0);
    if (id > 2)
        discard;
    return v;
}

float4 PSMain(Varyings v) : SV_Target {
    float4 c = albedo.Sample(linearClamp, v.uv);
    if (c.a < 0.5)
        discard;
    return c;
}
