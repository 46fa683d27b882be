// holdwatch's exit codes, part of the CLI contract: scripts and CI read them, and the host reads the
// code of the `holdwatch stack` child it runs for the details panel.

/** `scan --check`: something holds the directory. */
export const EXIT_HOLDERS_FOUND = 1;
/** `stack`: no tool or privilege to take the stack (one line says which, and what to do). */
export const EXIT_STACK_UNAVAILABLE = 1;
/** `close`: the user answered no at the confirmation; nothing was closed. */
export const EXIT_CLOSE_DECLINED = 1;
/** Bad input: one line on stderr, never a stack trace. */
export const EXIT_BAD_INPUT = 2;
/** A real failure inside holdwatch (sysexits' EX_SOFTWARE); HOLDWATCH_DEBUG=1 shows the stack. */
export const EXIT_INTERNAL = 70;
