// pass: float_controls -O3 -Gis -denorm ftz -fspv-target-env=vulkan1.2
// -Gis asks for IEEE strictness (SignedZeroInfNanPreserve), -denorm ftz
// for flushed 32-bit denormals: execution modes on the entry point.
RWStructuredBuffer<float> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    buf[0] = buf[1] * 2.0f;
}
// check: entry "main" compute fn main numthreads(1, 1, 1) modes(DenormFlushToZero 32, SignedZeroInfNanPreserve 32)
