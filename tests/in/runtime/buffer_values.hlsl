// ConstantBuffer<T> and TextureBuffer<T> as values: copied into locals,
// assigned, passed to functions taking T or the buffer type, and returned.
struct Inner { float2 v; };
struct Params { Inner inner; float scale; uint count; };
struct Table { float entry[2]; };

ConstantBuffer<Params> params : register(b0);
TextureBuffer<Table> table : register(t1);
RWStructuredBuffer<float> output : register(u2);

float weigh(ConstantBuffer<Params> p) { return p.inner.v.x * p.scale; }
float second(TextureBuffer<Table> t) { return t.entry[1]; }
float total(Params p) { return p.inner.v.y + p.count; }
ConstantBuffer<Params> pick() { return params; }

[numthreads(1, 1, 1)]
void main() {
    ConstantBuffer<Params> local = params;
    Params copy = local;
    ConstantBuffer<Params> later;
    later = params;
    output[0] = weigh(params);
    output[1] = second(table);
    output[2] = total(local);
    output[3] = pick().scale + copy.inner.v.y;
    output[4] = later.count;
}
