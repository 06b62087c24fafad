/* A C program linked against a glow-compile bundle of a classifier with one float
 * input and one float output: loads the weights file, reads the input (raw float32),
 * runs the bundle and prints the top-5 classes and every output value.
 *
 * Build (for a bundle `resnet50` whose ONNX input is `input` and output `logits`):
 *   cc -O2 -I DIR -DBUNDLE_HEADER='"resnet50.h"' -DBUNDLE=resnet50 -DPREFIX=RESNET50 \
 *      -DINPUT=INPUT -DOUTPUT=LOGITS classify.c DIR/resnet50.o -lm -o classify
 * Run: ./classify DIR/resnet50.weights input.f32
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include BUNDLE_HEADER

#define JOIN_(a, b) a##_##b
#define JOIN(a, b) JOIN_(a, b)
#define MACRO(port, what) JOIN(JOIN(PREFIX, port), what)
#define SIZE(what) JOIN(PREFIX, what)

static void *aligned(size_t size) {
  size_t rounded = (size + SIZE(ALIGNMENT) - 1) / SIZE(ALIGNMENT) * SIZE(ALIGNMENT);
  void *memory = aligned_alloc(SIZE(ALIGNMENT), rounded ? rounded : SIZE(ALIGNMENT));
  if (!memory) {
    fprintf(stderr, "classify: out of memory\n");
    exit(1);
  }
  return memory;
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
  uint8_t *constant = aligned(SIZE(CONSTANT_WEIGHTS_SIZE));
  uint8_t *mutable = aligned(SIZE(MUTABLE_WEIGHTS_SIZE));
  uint8_t *activations = aligned(SIZE(ACTIVATIONS_SIZE));
  read_file(argv[1], constant, SIZE(CONSTANT_WEIGHTS_SIZE));
  read_file(argv[2], mutable + MACRO(INPUT, OFFSET), MACRO(INPUT, COUNT) * sizeof(float));

  BUNDLE(constant, mutable, activations);

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
  free(constant);
  free(mutable);
  free(activations);
  return 0;
}
