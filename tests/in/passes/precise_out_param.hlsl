// pass: fuse_mad -O3
// Out parameters. `exact` declares its out parameter precise: its body is
// marked. `plain` does not, but one call writes a precise local through
// it: at -O3 that call is inlined and marked in the caller, the other
// call's copy is fused.
RWStructuredBuffer<float> buf : register(u0);

void exact(out precise float r, float a, float b, float c) {
    r = a * b + c;
}
void plain(out float r, float a, float b, float c) {
    r = a * b + c;
}

[numthreads(1, 1, 1)]
void main() {
    float x, y;
    exact(x, buf[0], buf[1], buf[2]);
    precise float w;
    plain(w, buf[3], buf[4], buf[5]);
    plain(y, buf[6], buf[7], buf[8]);
    buf[9] = x;
    buf[10] = w;
    buf[11] = y;
}
// check: fn main() {
// check: call exact(
// check: = precise mul
// nextln: = precise add
// check: = fma
// not: precise
// check: fn exact(%r:ptr<Function, float> precise, %a:float, %b:float, %c:float) {
// check: = precise mul
// nextln: = precise add
