#ifndef SECRETFIELD_PASSWORD_LISTS_H
#define SECRETFIELD_PASSWORD_LISTS_H

// The word lists of the strength estimate, as one graph in read-only data
// (the format: Scripts/generate-password-lists.py). Data only: no code of its
// own beyond these two accessors.

/// The first byte of the graph.
const unsigned char *secretfield_password_lists(void);

/// The graph's size in bytes.
unsigned long secretfield_password_lists_size(void);

#endif
