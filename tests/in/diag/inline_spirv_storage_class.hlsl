// args: -T cs_6_0 -E main
// `vk::ext_storage_class` names a storage class that variables of Vulkan
// can live in, where they can: not `Function` outside functions, not
// OpenCL's `CrossWorkgroup`, not a number that names none, not a block's
// class; on a parameter only with `ext_reference` on an `ext_instruction`
// function, whose argument must then be a variable in that class.
[[vk::ext_storage_class(/* Function */ 7)]] float a;
[[vk::ext_storage_class(/* CrossWorkgroup */ 5)]] float b;
[[vk::ext_storage_class(77777)]] float c;
[[vk::ext_storage_class(/* StorageBuffer */ 12)]] float d;

[[vk::ext_instruction(/* OpAtomicIAdd */ 234)]]
uint atomicAdd([[vk::ext_reference, vk::ext_storage_class(/* Workgroup */ 4)]] uint p,
               uint scope, uint semantics, uint v);

uint plain([[vk::ext_storage_class(/* Private */ 6)]] uint x) { return x; }

RWStructuredBuffer<uint> buf;
[numthreads(1, 1, 1)]
void main() {
    uint local = 0;
    buf[0] = atomicAdd(local, 2, 0, 1) + plain(1);
}
