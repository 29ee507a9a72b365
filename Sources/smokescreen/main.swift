#if canImport(Glibc)
import Glibc
#endif
import SmokescreenCLI

// Line by line even into a pipe or a CI log, so a long run's per-item lines appear as they happen.
// (This file is compiled in the Swift 5 language mode: C's `stdout` is a global Swift 6 refuses to touch.)
setvbuf(stdout, nil, _IOLBF, 0)
SmokescreenCommand.runMain()
