// pass: forward -O1
// A `static const` array that nothing writes holds its initialiser: loads
// of it at constant indices are those constants, never memory reads.
RWStructuredBuffer<float> buf : register(u0);

static const float Weights[3] = { 0.25f, 0.5f, 0.25f };

[numthreads(1, 1, 1)]
void main() {
    buf[0] = Weights[0] * buf[1] + Weights[1] * buf[2];
}
// check: fn src.main() {
// check: access @Weights[0]
// check: = mul @c0, %_
// check: access @Weights[1]
// check: = mul @c1, %_
// check: return
