// args: -T cs_6_0 -E main
groupshared float4 tiles[1536];
groupshared float extra[2048];
groupshared uint flags[64];
[numthreads(64, 1, 1)]
void main() {}
