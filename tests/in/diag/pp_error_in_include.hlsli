// Included by pp_error_in_include.hlsl.
#if NEED_FEATURE
#error this shader needs a feature hlslc lacks
#endif
