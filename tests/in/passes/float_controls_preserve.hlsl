// pass: float_controls -O0 -denorm preserve
// -denorm preserve: DenormPreserve for 32-bit floats; without -Gis no
// SignedZeroInfNanPreserve.
RWStructuredBuffer<float> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    buf[0] = buf[1] * 2.0f;
}
// check: entry "main" compute fn main numthreads(1, 1, 1) modes(DenormPreserve 32)
