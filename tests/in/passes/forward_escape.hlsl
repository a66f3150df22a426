// pass: forward -O1
// At -O1 calls stay: a local passed as an out argument (sema's copy-out
// temporary) escapes and is loaded again after the call; a local written
// in one branch only is, after the `if`, the merge of the branch's value
// and the one before.
RWStructuredBuffer<float> buf : register(u0);

void set(out float r, float v) { r = v * 2.0f; }

[numthreads(1, 1, 1)]
void main() {
    float x = buf[0];
    float r;
    set(r, x);
    buf[1] = r;
    float t = x;
    if (x > 0.0f)
        t = -x;
    buf[2] = t;
}
// check: fn src.main() {
// check: call set($temp.1, %_)
// nextln: = load $temp.1
// check: if %_ {
// check: %_:float = neg %_
// check: }
// nextln: %_:float = merge %_, %_
// not: load $t
// check: store %_, %_
