// pass: precise -O0
// Out parameters at -O0 (no inlining): the call that writes a precise
// local through a plain out parameter goes to a specialisation whose out
// parameter is precise; the other call keeps the plain function.
RWStructuredBuffer<float> buf : register(u0);

void plain(out float r, float a, float b, float c) {
    r = a * b + c;
}

[numthreads(1, 1, 1)]
void main() {
    float y;
    precise float w;
    plain(w, buf[3], buf[4], buf[5]);
    plain(y, buf[6], buf[7], buf[8]);
    buf[10] = w;
    buf[11] = y;
}
// check: fn src.main() {
// check: call plain.precise.out0(
// check: call plain(
// check: fn plain(%r:ptr<Function, float>, %a:float, %b:float, %c:float) {
// not: precise
// check: fn plain.precise.out0(%r:ptr<Function, float> precise, %a:float, %b:float, %c:float) {
// check: = precise mul
// check: = precise add
// check: store %r,
