/* Embeds the two fullscreen shaders (the headers hlslc_compile wrote with
 * HEADER_VARIABLE) and prints their sizes; a Vulkan program would hand the
 * arrays to vkCreateShaderModule. */
#include <stdio.h>

#include "fullscreen_ps.h"
#include "fullscreen_vs.h"

static int check(const char *name, const unsigned char *bytes, size_t size)
{
    /* SPIR-V's magic number, little endian. */
    unsigned long magic = bytes[0] | bytes[1] << 8 | (unsigned long)bytes[2] << 16 |
                          (unsigned long)bytes[3] << 24;
    if (size % 4 != 0 || magic != 0x07230203ul) {
        fprintf(stderr, "%s: not SPIR-V\n", name);
        return 1;
    }
    printf("%s: %zu bytes of SPIR-V\n", name, size);
    return 0;
}

int main(void)
{
    int failed = check("fullscreen_vs", fullscreen_vs_spirv, sizeof fullscreen_vs_spirv);
    failed |= check("fullscreen_ps", fullscreen_ps_spirv, sizeof fullscreen_ps_spirv);
    return failed;
}
