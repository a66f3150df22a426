// Matrix layouts and `mul` orders in a cbuffer read by the vertex shader.
// The results travel as flat varyings to five render targets.

cbuffer Transforms : register(b0) {
    row_major float4x4 rowM;    // offset 0: rows in memory
    column_major float4x4 colM; // offset 64: columns in memory
    float4x4 defM;              // offset 128: column_major by default
    row_major float3x4 r34;     // offset 192: 3 rows of float4
    column_major float3x4 c34;  // offset 240: 4 columns of float3, each 16-byte aligned
    float4 v;                   // offset 304
};

struct VSOut {
    float4 pos : SV_Position;
    nointerpolation float4 a : A;
    nointerpolation float4 b : B;
    nointerpolation float4 c : C;
    nointerpolation float3 d : D;
    nointerpolation float3 e : E;
};

struct PSOut {
    float4 t0 : SV_Target0;
    float4 t1 : SV_Target1;
    float4 t2 : SV_Target2;
    float4 t3 : SV_Target3;
    float4 t4 : SV_Target4;
};

VSOut VSMain(uint id : SV_VertexID) {
    float2 uv = float2((id << 1) & 2, id & 2);
    VSOut o;
    // rowM maps uv (0..2) to clip space: wrong layouts or mul order put the
    // translation into w and the triangle leaves the screen.
    float4 p = mul(rowM, float4(uv, 0.0, 1.0));
    o.pos = float4(p.xy, 0.0, 1.0);
    o.a = mul(rowM, v);
    o.b = mul(v, colM);
    o.c = mul(defM, v);
    o.d = mul(r34, v);
    o.e = mul(c34, v);
    return o;
}

PSOut PSMain(VSOut i) {
    PSOut o;
    o.t0 = i.a;
    o.t1 = i.b;
    o.t2 = i.c;
    o.t3 = float4(i.d, 0.0);
    o.t4 = float4(i.e, 0.0);
    return o;
}
