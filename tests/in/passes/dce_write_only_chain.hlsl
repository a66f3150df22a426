// pass: dce -O1
// A local whose loads only feed stores into locals nobody reads is
// write-only too: its stores, and the computations they store, go.
RWStructuredBuffer<int> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    int val = buf[0];
    for (int j = 0; j < 10; ++j) {
        val = j + 5;
        if (buf[2] == j)
            break;
        val = val * 3;
    }
    val = val * 7;
    buf[1] = 1; // (an effect: the call of this function stays)
}
// check: fn src.main() {
// not: local
// not: 7i32
// not: $val
// check: return
