// args: -T ps_6_0 -E main
// Waiting for the thread group needs one: the *WithGroupSync barriers are
// for compute, mesh, amplification and node shaders (Vulkan allows a
// workgroup OpControlBarrier nowhere else). The memory barriers alone are
// fine in every stage.
RWStructuredBuffer<float> o;

void publish(float v) {
  o[0] = v;
  AllMemoryBarrier();
  DeviceMemoryBarrierWithGroupSync();
}

float4 main(float4 c : COLOR) : SV_Target {
  publish(c.x);
  GroupMemoryBarrierWithGroupSync();
  return c;
}
