/* A C program linked against a glow-compile bundle of a classifier with one input
 * (any element type) and one float output: loads the weights file, reads the input
 * (raw elements), runs the bundle, checks its status (a runtime check that failed,
 * e.g. an index outside its dimension, is reported with the bundle's message and
 * exit code 1) and prints the top-5 classes and every output value.
 *
 * Build (for a bundle `resnet50` whose ONNX input is `input` and output `logits`):
 *   cc -O2 -I DIR -DBUNDLE_HEADER='"resnet50.h"' -DBUNDLE=resnet50 -DPREFIX=RESNET50 \
 *      -DINPUT=INPUT -DOUTPUT=LOGITS classify.c DIR/resnet50.o -lm -o classify
 * Run: ./classify DIR/resnet50.weights input.f32
 *
 * It checks what the header declares (alignment a power of two, every input and
 * output inside the mutable weights) and gives the bundle exactly the declared
 * regions, each ending at an inaccessible guard page: a read or write past the end of
 * any region faults instead of going unnoticed.
 */
#define _DEFAULT_SOURCE /* mmap flags, sysconf */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include BUNDLE_HEADER

#define JOIN_(a, b) a##_##b
#define JOIN(a, b) JOIN_(a, b)
#define MACRO(port, what) JOIN(JOIN(PREFIX, port), what)
#define SIZE(what) JOIN(PREFIX, what)

static void fail(const char *message) {
  fprintf(stderr, "classify: %s\n", message);
  exit(1);
}

/* `size` bytes (rounded up to the alignment), aligned, ending right before a
 * PROT_NONE page. */
static uint8_t *guarded(size_t size) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t align = SIZE(ALIGNMENT);
  size_t rounded = (size + align - 1) / align * align;
  size_t span = (rounded + page - 1) / page * page;
  if (span == 0)
    span = page;
  uint8_t *base = mmap(NULL, span + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED || mprotect(base + page, span, PROT_READ | PROT_WRITE) != 0)
    fail("cannot map memory");
  return base + page + span - rounded;
}

static void read_file(const char *path, void *buffer, size_t size) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "classify: cannot open %s\n", path);
    exit(1);
  }
  size_t read = fread(buffer, 1, size, file);
  int extra = fgetc(file);
  fclose(file);
  if (read != size || extra != EOF) {
    fprintf(stderr, "classify: %s does not hold exactly %zu bytes\n", path, size);
    exit(1);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s WEIGHTS INPUT.f32\n", argv[0]);
    return 2;
  }
  size_t align = SIZE(ALIGNMENT);
  if (align == 0 || (align & (align - 1)) != 0 || align > (size_t)sysconf(_SC_PAGESIZE))
    fail("the header's alignment is not a power of two up to the page size");
  size_t mutable_size = SIZE(MUTABLE_WEIGHTS_SIZE);
  if (MACRO(INPUT, OFFSET) % align != 0 || MACRO(OUTPUT, OFFSET) % align != 0 ||
      MACRO(INPUT, OFFSET) + MACRO(INPUT, COUNT) * MACRO(INPUT, ELEMENT_SIZE) > mutable_size ||
      MACRO(OUTPUT, OFFSET) + MACRO(OUTPUT, COUNT) * sizeof(float) > mutable_size)
    fail("the header places an input or output outside the mutable weights");
  uint8_t *constant = guarded(SIZE(CONSTANT_WEIGHTS_SIZE));
  uint8_t *mutable = guarded(mutable_size);
  uint8_t *activations = guarded(SIZE(ACTIVATIONS_SIZE));
  read_file(argv[1], constant, SIZE(CONSTANT_WEIGHTS_SIZE));
  read_file(argv[2], mutable + MACRO(INPUT, OFFSET), MACRO(INPUT, COUNT) * MACRO(INPUT, ELEMENT_SIZE));

  BUNDLE(constant, mutable, activations);
  int status = JOIN(BUNDLE, status)();
  if (status != 0)
    fail(JOIN(BUNDLE, errors)[status - 1]);

  const float *scores = (const float *)(mutable + MACRO(OUTPUT, OFFSET));
  int count = MACRO(OUTPUT, COUNT);
  int top[5];
  for (int k = 0; k < 5 && k < count; ++k) {
    int best = -1;
    for (int i = 0; i < count; ++i) {
      int taken = 0;
      for (int j = 0; j < k; ++j)
        taken |= top[j] == i;
      if (!taken && (best < 0 || scores[i] > scores[best]))
        best = i;
    }
    top[k] = best;
    printf("top%d %d %.6g\n", k + 1, best, scores[best]);
  }
  for (int i = 0; i < count; ++i)
    printf("value %d %.9g\n", i, scores[i]);
  return 0;
}
