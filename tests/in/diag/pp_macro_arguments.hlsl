// Wrong argument counts and an argument list that never closes. An invocation
// in error expands to nothing.
#define LERP3(a, b, t) ((a) + ((b) - (a)) * (t))
static const float x = 1.0 LERP3(1.0, 2.0);
static const float y = 0.5 LERP3(1, 2, 3, 4);
LERP3(1.0, 2.0,
