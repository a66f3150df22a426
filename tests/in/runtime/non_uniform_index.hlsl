// NonUniformResourceIndex: each invocation reads a buffer and writes a
// buffer picked by its own index, which is not uniform across the
// workgroup. (lavapipe indexes storage buffer arrays correctly even without
// the NonUniform decorations; tests/sema checks that they are there.)
StructuredBuffer<float> inputs[3];
RWStructuredBuffer<float> outputs[2];

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint i = id.x;
    float v = inputs[NonUniformResourceIndex(i % 3)][i];
    outputs[NonUniformResourceIndex(i & 1)][i] = v;
}
