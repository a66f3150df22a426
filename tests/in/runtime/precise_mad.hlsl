// precise results and mad.
StructuredBuffer<float> a;
RWStructuredBuffer<float> output;

float product(float x, float y) {
    return x * y;
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float x = a[id.x];
    precise float p = x * 3.0 + 1.0;
    float m = mad(x, 3.0, 1.0);
    output[id.x * 3 + 0] = p;
    output[id.x * 3 + 1] = m;
    output[id.x * 3 + 2] = product(x, x);
}
