//===- NestingDepth.cpp - bounded nesting of MLIR text -------------------===//
//
// MLIR's parser recurses once per nested region, attribute or type and has no depth
// limit: deep enough text overflows any stack. The Glow tools scan their input first
// and refuse text nested deeper than GLOW_MAX_NESTING_DEPTH with a located error.
//
//===----------------------------------------------------------------------===//

#include "glow-c/NestingDepth.h"

bool glowNestingWithin(const char *text, size_t length, size_t limit, size_t *line,
                       size_t *column) {
  // MLIR bytecode ("ML\xefR"): not text; its reader keeps regions on a stack of its own.
  if (length >= 4 && text[0] == 'M' && text[1] == 'L' && (unsigned char)text[2] == 0xEF &&
      text[3] == 'R')
    return true;
  size_t depth = 0, currentLine = 1, lineStart = 0;
  for (size_t i = 0; i < length; ++i) {
    char c = text[i];
    char next = i + 1 < length ? text[i + 1] : '\0';
    char previous = i > 0 ? text[i - 1] : '\0';
    switch (c) {
    case '\n':
      ++currentLine;
      lineStart = i + 1;
      break;
    case '"':
      // A string literal: skip to its closing quote (escapes skip a character).
      for (++i; i < length && text[i] != '"'; ++i) {
        if (text[i] == '\\')
          ++i;
        else if (text[i] == '\n') {
          ++currentLine;
          lineStart = i + 1;
        }
      }
      break;
    case '/':
      if (next == '/')
        while (i + 1 < length && text[i + 1] != '\n')
          ++i;
      break;
    case '<':
      if (next == '=')
        break;
      [[fallthrough]];
    case '(':
    case '[':
    case '{':
      if (++depth > limit) {
        *line = currentLine;
        *column = i - lineStart + 1;
        return false;
      }
      break;
    case '>':
      if (previous == '-' || next == '=')
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return true;
}
