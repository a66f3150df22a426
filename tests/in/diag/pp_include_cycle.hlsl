// A file that includes itself with no guard: stopped at depth 200.
#include "pp_include_cycle.hlsl"
