// args: -T cs_6_0 -E main
[numthreads(1, 1, 1)]
void main(float3 id : SV_DispatchThreadID, uint4 g : SV_GroupID) {}
