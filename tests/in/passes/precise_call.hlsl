// pass: precise -O0
// A precise value computed by a call (DXC issue 8423: DXC leaves the
// callee's arithmetic contractible). At -O0 nothing is inlined: the callee
// gets a precise specialisation for the precise call, and the plain call
// keeps the plain callee, whose arithmetic stays free.
RWStructuredBuffer<float> buf : register(u0);

float mad3(float a, float b, float c) {
    return a * b + c;
}

[numthreads(1, 1, 1)]
void main() {
    precise float p = mad3(buf[0], buf[1], buf[2]);
    buf[3] = p;
    buf[4] = mad3(buf[5], buf[6], buf[7]);
}
// check: fn src.main() {
// check: = call mad3.precise(
// check: store $p,
// check: = call mad3(
// check: fn mad3(%a:float, %b:float, %c:float) -> float {
// not: precise
// check: fn mad3.precise(%a:float, %b:float, %c:float) -> float precise {
// check: = precise mul
// check: = precise add
// check: return
