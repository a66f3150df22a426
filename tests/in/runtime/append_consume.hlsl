// Append to one buffer, consume from another.
struct Item {
    uint key;
    float value;
};
ConsumeStructuredBuffer<Item> source;
AppendStructuredBuffer<Item> sink;

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Item it = source.Consume();
    it.value *= 2;
    it.key += 1000;
    sink.Append(it);
}
