// Redefining a macro differently warns; an identical redefinition is fine.
#define THREADS 64
#define THREADS 64
#define THREADS 128
static const uint threads = THREADS;
