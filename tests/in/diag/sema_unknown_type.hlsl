// args: -T cs_6_0 -E main
StructuredBuffer<Vector3> positions;
ConstantBuffer<Settings> settings;
[numthreads(1, 1, 1)]
void main() {}
