// args: -T ps_6_0 -E main
groupshared float shared_value;
float4 main() : SV_Target {
    return shared_value;
}
