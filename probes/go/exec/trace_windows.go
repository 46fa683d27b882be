// Windows has no strace: the exit stop is the only way a binary runs here.
package main

func runTraced(program string, args []string) {}
