// args: -fsyntax-only -T ps_6_0 -E PSMian
// A profile and an entry named with -E: the entry must exist, and the rest
// of the file is still checked.
float4 PSMain(float2 uv : TEXCOORD0) : SV_Target {
    return float4(uv, 0.0, 1.0);
}

float unused(float x) {
    return x + undefinedThing;
}
