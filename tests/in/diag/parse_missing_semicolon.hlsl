// A missing `;` is reported after the statement it ends; the next
// statement still parses.
float4 main(float4 pos : SV_Position) : SV_Target {
    float4 c = pos * 2
    c.x = 1;
    return c;
}
