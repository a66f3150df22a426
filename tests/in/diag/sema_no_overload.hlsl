// args: -T cs_6_0 -E main
float area(float w, float h) { return w * h; }
float area(float2 size) { return size.x * size.y; }
[numthreads(1, 1, 1)]
void main() {
    float a = area(float3(1, 2, 3));
    float b = lerp(1, 2);
}
