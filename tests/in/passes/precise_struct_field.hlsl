// pass: fuse_mad -O3
// A precise struct member: only the operations stored into `exact` are
// marked; `fast`, computed from the same inputs in the same struct, stays
// free (the precise pass follows memory member by member).
struct Pair {
    precise float exact;
    float fast;
};
RWStructuredBuffer<float> buf : register(u0);
RWStructuredBuffer<Pair> pairs : register(u1);

[numthreads(1, 1, 1)]
void main() {
    float a = buf[0];
    float b = buf[1];
    float c = buf[2];
    Pair p;
    p.exact = a * b + c;
    p.fast = a * b + c * 2;
    pairs[0] = p;
}
// check: exact: float offset(0) precise
// nextln: fast: float offset(4)
// check: exact: float precise
// nextln: fast: float
// check: fn main() {
// check: = precise mul
// nextln: = precise add
// check: = fma
// not: precise
// check: return
