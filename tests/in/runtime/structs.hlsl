// Structs: nesting, arrays, methods, struct values through functions.
struct Inner {
    float2 v;
    int k[2];
};

struct Particle {
    float3 pos;
    Inner inner;
    float mass;

    float energy() { return 0.5 * mass * dot(inner.v, inner.v); }
    void push(float2 dv) { inner.v += dv; }
};

struct Out {
    float4 a;
    float4 b;
};

RWStructuredBuffer<Particle> particles;
RWStructuredBuffer<Out> output;

Particle make(float x) {
    Particle p;
    p.pos = float3(x, x + 1, x + 2);
    p.inner.v = float2(x, -x);
    p.inner.k[0] = (int)x;
    p.inner.k[1] = -(int)x;
    p.mass = 2;
    return p;
}

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Particle p = particles[id.x];
    p.push(float2(1, 2));
    Particle q = make(p.mass);
    particles[id.x] = q;
    Out o;
    o.a = float4(p.pos, p.energy());
    o.b = float4(p.inner.v, (float)(p.inner.k[0] + p.inner.k[1] * 10), q.energy());
    output[id.x] = o;
}
