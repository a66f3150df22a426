// pass: forward -O1
// Store-to-load forwarding: each variable's loads read the value stored
// last, also inside a branch and a loop that does not store it; a struct
// built member by member is composed; constants that become visible are
// folded. A loop counter stored in the loop is still loaded there.
RWStructuredBuffer<float> buf : register(u0);

struct Pair { float a; float b; };

[numthreads(1, 1, 1)]
void main() {
    float x = buf[0];
    float k = 2.0f;
    float y = x * k;
    if (y > 1.0f) {
        buf[1] = y + x;
    }
    Pair p;
    p.a = x;
    p.b = y;
    float s = 0.0f;
    for (uint i = 0; i < 4; ++i) {
        s += p.a * p.b;
    }
    buf[2] = s;
}
// check: fn src.main() {
// check: %_:float = mul %_, 2.0f32
// check: if %_ {
// not: load $
// check: = add %_, %_
// check: loop {
// check: = load $i
// not: load $p
// check: = mul %_, %_
// nextln: = load $s
// check: store $s,
