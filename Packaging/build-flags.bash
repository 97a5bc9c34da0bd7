# The flags the shipped tools are built with, in one place: Scripts/package
# builds with them, and Scripts/test checks the result by installing the
# package. Passed on the command line, not as unsafeFlags in Package.swift,
# which would make the package unusable as a dependency.
#
#   --static-swift-stdlib      the Swift runtime linked in: the tools run
#                              without a Swift toolchain installed
#   --disable-local-rpath      no RUNPATH $ORIGIN (nothing is loaded from
#                              beside the binary)
#   -z now, -z relro           full RELRO: every symbol bound at start, the
#                              GOT read-only after (Debian's bindnow, relro)
#   -D_FORTIFY_SOURCE=2        glibc's checked variants wherever the C code
#                              (the shims, and glibc's inline wrappers that
#                              the Swift importer compiles) can use them;
#                              release builds optimise, which fortify needs
#
# The Swift stdlib's static archives hold no Swift Testing module, so the test
# build cannot take --static-swift-stdlib: the package has its own scratch
# directory (.build/package) and the tests' release build stays as it is.
# shellcheck disable=SC2034  # read by the scripts that source this file
package_build_flags=(
  -c release
  --static-swift-stdlib
  --disable-local-rpath
  -Xlinker -z -Xlinker now
  -Xlinker -z -Xlinker relro
  -Xcc -D_FORTIFY_SOURCE=2
)
