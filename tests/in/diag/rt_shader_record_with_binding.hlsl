// args: -T lib_6_3 -fspv-target-env=vulkan1.2
// A shader record buffer lives in the shader binding table, not in a
// descriptor set: a binding beside it is an error.
struct Material { float4 albedo; };
[[vk::shader_record_ext]] [[vk::binding(2, 0)]]
ConstantBuffer<Material> material;

struct Payload { float4 color; };
[shader("miss")]
void sky(inout Payload p) { p.color = material.albedo; }
