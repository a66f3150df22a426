// SV_InstanceID picks the half of the target an instance covers; the second
// instance's quad is wound the other way, so SV_IsFrontFace differs.

struct VSOut {
    float4 pos : SV_Position;
    nointerpolation uint instance : INSTANCE;
};

VSOut VSMain(uint id : SV_VertexID, uint instance : SV_InstanceID) {
    // Two triangles per quad: corners 0,1,2 and 2,1,3 of a unit square.
    static const float2 corners[6] = {
        float2(0, 0), float2(1, 0), float2(0, 1),
        float2(0, 1), float2(1, 0), float2(1, 1)
    };
    float2 c = corners[id];
    if (instance == 1) {
        c.y = 1.0 - c.y; // mirrored: the winding flips
    }
    // Instance 0 covers x in -1..0, instance 1 covers 0..1.
    VSOut o;
    o.pos = float4(c.x - 1.0 + float(instance), c.y * 2.0 - 1.0, 0.0, 1.0);
    o.instance = instance;
    return o;
}

float4 PSMain(VSOut i, bool front : SV_IsFrontFace) : SV_Target {
    return float4(float(i.instance), front ? 1.0 : 0.0, 3.0, 4.0);
}
