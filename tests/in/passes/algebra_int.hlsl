// pass: forward -O3
// Integer rules are exact (wraparound): constants reassociate, powers of
// two become shifts and masks, identities and x - x fold; a constant
// operand moves to the right.
RWStructuredBuffer<uint> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    uint x = buf[0];
    buf[1] = (x + 1u) + 2u;
    buf[2] = x * 8u;
    buf[3] = x / 16u;
    buf[4] = x % 32u;
    buf[5] = 5u * x;
    buf[6] = (x | 0u) ^ 0u;
    buf[7] = x - x;
}
// check: = add %_, 3u32
// check: = shl %_, 3u32
// check: = shr %_, 4u32
// check: = and %_, 31u32
// check: = mul %_, 5u32
// check: store %_, %_
// check: store %_, 0u32
