// Errors in #if expressions that come from macro bodies point into the body
// and name the expansion.
#define RATIO(a, b) ((a) / (b))
#if RATIO(4, 0) > 1
#endif
#define IS_ON defined(
#if IS_ON
#endif
