// args: -T cs_6_0 -E main
// The arguments of `vk::ext_execution_mode*` must be integer constants,
// the first naming an execution mode.
RWStructuredBuffer<uint> buf;
[numthreads(1, 1, 1)]
void main() {
    vk::ext_execution_mode(/* DenormFlushToZero */ 4460, buf[0]);
    vk::ext_execution_mode(999999);
    vk::ext_execution_mode_id();
}
