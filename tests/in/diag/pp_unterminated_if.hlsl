// A group left open at the end of the file.
#ifdef __spirv__
static const int spirv = 1;
#if __SHADER_TARGET_MAJOR >= 6
static const int sm6 = 1;
#endif
