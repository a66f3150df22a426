// An #error inside an included file points into that file and says where it
// was included from.
#define NEED_FEATURE 1
#include "pp_error_in_include.hlsli"
