// pass: precise -O0
// A precise value computed by a call: the callee gets a precise
// specialisation (DXC issue 8423: DXC leaves the callee's arithmetic
// contractible). The plain call keeps the plain callee.
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
// check: fn mad3.precise(
// check: = precise mul
// nextln: = precise add
// check: }
