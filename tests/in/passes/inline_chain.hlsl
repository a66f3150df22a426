// pass: inline -O3
// Calls inlined into an inlined body: `outer` returns what `inner` returns,
// and both vanish. The stored value is the product, not a stale call result.
RWStructuredBuffer<float> buf : register(u0);

float inner(float x) { return x * x; }
float outer(float x) { return inner(x); }

[numthreads(1, 1, 1)]
void main() {
    buf[1] = outer(buf[0]);
}
// check: fn main() {
// not: call
// check: :float = mul %_, %_
// not: call
// check: store %_, %_
// check: return
// not: fn inner(
// not: fn outer(
