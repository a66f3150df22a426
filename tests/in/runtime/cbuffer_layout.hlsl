// A cbuffer with vector packing, arrays, matrices of both majorness and a
// nested struct, read back component by component.
struct Light {
    float3 dir;
    float intensity;
};

cbuffer Scene {
    float time;
    float3 tint;
    float2 offs[2];
    Light light;
    row_major float2x3 rm;
    column_major float2x3 cm;
    uint flags;
};

RWStructuredBuffer<float> output;

[numthreads(1, 1, 1)]
void main() {
    output[0] = time;
    output[1] = tint.z;
    output[2] = offs[1].y;
    output[3] = light.dir.y;
    output[4] = light.intensity;
    output[5] = rm[1][2];
    output[6] = cm[1][2];
    output[7] = rm._m01;
    output[8] = cm._m10;
    output[9] = (float)flags;
}
