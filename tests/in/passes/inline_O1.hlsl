// pass: inline -O1
// -O1 inlines nothing: the call to a small function stays.
RWStructuredBuffer<float> buf : register(u0);

float sq(float x) { return x * x; }

[numthreads(1, 1, 1)]
void main() {
    buf[1] = sq(buf[0]);
}
// check: fn src.main() {
// check: = call sq(
