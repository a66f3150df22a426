// pass: dce -O3
// Once `cse` makes the three reads of a row one value, the vector composed
// of its lanes is that row, and a matrix composed of its rows in order is
// the matrix itself: no compose is left.
RWStructuredBuffer<float2x3> mats : register(u0);
RWStructuredBuffer<float3> vecs : register(u1);

[numthreads(1, 1, 1)]
void main() {
    float2x3 a = mats[0];
    vecs[0] = float3(a[1].x, a[1].y, a[1].z);
    mats[1] = float2x3(a[0], a[1]);
}
// check: fn main() {
// not: compose
// check: return
