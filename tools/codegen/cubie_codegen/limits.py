"""Limits on the size of a definition, refused up front with a clear message: they keep
generation time and memory in proportion to the system (the README lists them)."""

# The largest dimension, array size or --set value; also the most states in a system.
MAX_ELEMENTS = 10_000

# The most expression nodes read in all, counting every element an equation covers and
# every term a sum() expands to (Lorenz 96 at 1,000 sites reads 12,000 and takes about
# 2 s; generation time grows in proportion).
MAX_NODES = 200_000

# The largest definition file read.
MAX_DEFINITION_BYTES = 4 * 1024 * 1024

# The deepest nesting of an expression (calls, powers, conditions, parentheses); chains
# of + - * / count as one level however long they are.
MAX_DEPTH = 100

# Numbers beyond the range of double (about 1.8e308) are refused; so is a literal
# written with more digits than this (the exact value would be slow to compute).
MAX_LITERAL_DIGITS = 400

# Index arithmetic stays within this magnitude.
MAX_INDEX = 10**15
