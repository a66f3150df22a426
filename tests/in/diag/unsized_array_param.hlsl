// args: -T vs_6_0 -E main
// Only arrays of resources may be passed to an unsized array parameter.
float total(float values[]) {
    return values[0] + values[1];
}

float4 main(float4 p : POSITION) : SV_Position {
    float data[2] = { p.x, p.y };
    return float4(total(data), 0, 0, 1);
}
