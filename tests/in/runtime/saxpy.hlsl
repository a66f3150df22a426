// y = a * x + y over n elements, with the parameters in a cbuffer.
cbuffer Params {
    float a;
    uint n;
};
StructuredBuffer<float> x;
RWStructuredBuffer<float> y;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    if (id.x >= n)
        return;
    y[id.x] = a * x[id.x] + y[id.x];
}
