// args: -T cs_6_0 -E main
RWStructuredBuffer<float> buf;
Texture2D tex;
[numthreads(1, 1, 1)]
void main() {
    buf.Append(1);
    float4 v = tex.Fetch(0);
}
