// args: -T cs_6_5 -E main
// DispatchMesh belongs to amplification shaders.
struct Payload { uint n; };
groupshared Payload p;

[numthreads(1, 1, 1)]
void main(uint id : SV_DispatchThreadID) {
    DispatchMesh(1, 1, 1, p);
}
