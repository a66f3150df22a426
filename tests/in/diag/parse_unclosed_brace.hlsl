// The function's body never closes.
float4 main() : SV_Target {
    if (true) {
        return 1;
    }
