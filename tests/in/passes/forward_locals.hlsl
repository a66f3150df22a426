// pass: forward -O1
// Store-to-load forwarding: each variable's loads read the value stored
// last, also inside a branch and a loop that does not store it; a struct
// built member by member is composed; constants that become visible are
// folded. A local the loop stores is carried by a phi: its value before
// the loop, then the one the body or `continuing` leaves; a `for` exits at
// its test, so after the loop the local is that phi.
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
// check: %_:float = carry 0.0f32, %_
// check: %_:uint = carry 0u32, %_
// check: loop {
// not: load $
// check: = lt %_, 4u32
// check: %_:float = mul %_, %_
// nextln: %_:float = add %_, %_
// check: } continuing {
// check: %_:uint = add %_, 1u32
// check: store %_, %_
