// args: -T cs_6_6 -E main
template <typename Heap>
float first(Heap heap) {
    RWStructuredBuffer<float> data = heap[0];
    return data[0];
}

[numthreads(1, 1, 1)]
void main() {
    first(ResourceDescriptorHeap);
}
