// Arrays, matrices and integer vectors as flat varyings.

struct VSOut {
    float4 pos : SV_Position;
    nointerpolation float2 arr[2] : ARR;
    nointerpolation float2x3 m : MAT;
    nointerpolation int3 i3 : INTS;
};

struct PSOut {
    float4 t0 : SV_Target0;
    float4 t1 : SV_Target1;
    float4 t2 : SV_Target2;
};

VSOut VSMain(uint id : SV_VertexID) {
    float2 uv = float2((id << 1) & 2, id & 2);
    VSOut o;
    o.pos = float4(uv * 2.0 - 1.0, 0.0, 1.0);
    float k = float(id) * 100.0; // 0 at the provoking vertex
    o.arr[0] = float2(1.0, 2.0) + k;
    o.arr[1] = float2(3.0, 4.0) + k;
    o.m = float2x3(5.0, 6.0, 7.0, 8.0, 9.0, 10.0) + k;
    o.i3 = int3(-11, 12, -13) + int(id) * 1000;
    return o;
}

PSOut PSMain(VSOut i) {
    PSOut o;
    o.t0 = float4(i.arr[0], i.arr[1]);
    o.t1 = float4(i.m[0], i.m[1].x);
    o.t2 = float4(i.m[1].yz, float2(i.i3.xz) + float(i.i3.y) * 0.5);
    return o;
}
