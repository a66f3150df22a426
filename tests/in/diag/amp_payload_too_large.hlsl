// args: -T as_6_5 -E main -fspv-target-env=vulkan1.2
// A payload is a struct of at most 16 KB.
struct Big { uint words[5000]; };
groupshared Big big;
groupshared uint count;

[numthreads(1, 1, 1)]
void main() {
    DispatchMesh(1, 1, 1, big);
}
