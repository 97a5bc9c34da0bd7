#ifndef SECRETFIELD_CSODIUM_H
#define SECRETFIELD_CSODIUM_H

/* libsodium, as the system installs it (Debian's libsodium-dev). */
#include <sodium.h>

#endif
