// args: -T cs_6_0 -E main
Texture2D t : register(x3);
cbuffer C { float a : packoffset(t1); };
float g : packoffset(c0);
[numthreads(1, 1, 1)]
void main() {}
