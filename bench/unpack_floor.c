/* The parse floor for `make bench`: libgps's own unpacker alone over a gpsd JSON log, as a
 * process, reading the log as `gpstrackd replay` does (read(2) in 64 KiB blocks, lines split in
 * place) and handing every line to gps_unpack. Nothing is tracked, stored or written: what a
 * replay costs beyond this is gpstrackd's own work. Prints the lines and TPV reports seen.
 * Built by scripts/bench-replay.sh with gcc -O2 and libgps. */
#include <fcntl.h>
#include <gps.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: unpack_floor LOG\n");
        return 64;
    }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        perror(argv[1]);
        return 66;
    }
    static struct gps_data_t data;
    static char buf[1 << 17];
    size_t have = 0;
    unsigned long lines = 0, fixes = 0;
    for (;;) {
        ssize_t n = read(fd, buf + have, sizeof buf - 1 - have);
        if (n < 0) {
            perror("read");
            return 74;
        }
        if (n == 0) break;
        have += (size_t)n;
        size_t start = 0;
        for (;;) {
            char *nl = memchr(buf + start, '\n', have - start);
            if (nl == NULL) break;
            *nl = 0;
            data.set = 0;
            if (gps_unpack(buf + start, &data) == 0 && (data.set & MODE_SET)) fixes++;
            lines++;
            start = (size_t)(nl - buf) + 1;
        }
        memmove(buf, buf + start, have - start);
        have -= start;
    }
    close(fd);
    printf("%lu lines, %lu with a mode\n", lines, fixes);
    return 0;
}
