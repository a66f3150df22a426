// #else after #else, #elif after #else, and a stray #endif.
#if 1
static const int a = 1;
#else
#else
#elif 1
#endif
#endif junk
