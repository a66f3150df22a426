// args: -T as_6_5 -E main -fspv-target-env=vulkan1.2
// A payload is a struct.
groupshared uint count;

[numthreads(1, 1, 1)]
void main() {
    DispatchMesh(1, 1, 1, count);
}
