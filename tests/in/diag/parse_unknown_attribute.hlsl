// A misspelt attribute would otherwise be dropped without a word.
[numthreads(8, 1, 1)]
[unrol]
void misspelt() {}

[[vk::bindng(0, 1)]] Texture2D<float4> tex;
[[vendor::fast]] float f;
