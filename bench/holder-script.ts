// The fixture's holder processes: one small Python program, written next to the fixture tree and
// started once per holder. Python rather than node: ~10 MB and ~30 ms per process, so 60 of them start
// in a couple of seconds. Each holds what its mode says, prints "ready", then sleeps until killed.
export const HOLDER_SCRIPT = String.raw`
import ctypes, mmap, os, sys, time

mode, target = sys.argv[1], sys.argv[2]
held = []
if mode == 'files' or mode == 'files-cwd':
    for name in sorted(os.listdir(target)):
        held.append(open(os.path.join(target, name), 'rb'))
    held.append(os.open(target, os.O_RDONLY))  # the directory itself, as a scandir in progress holds it
    if mode == 'files-cwd':
        os.chdir(target)
elif mode == 'mmap':
    # libc's mmap, not Python's: mmap.mmap() keeps a dup of the fd, and this holder must hold
    # nothing but the mapping.
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    fd = os.open(target, os.O_RDONLY)
    address = libc.mmap(None, os.path.getsize(target), mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
    if address in (None, ctypes.c_void_p(-1).value):
        sys.exit('mmap failed: errno %d' % ctypes.get_errno())
    os.close(fd)
elif mode == 'unlinked':
    held.append(open(target, 'rb'))
    os.unlink(target)
else:
    sys.exit('unknown mode ' + mode)
sys.stdout.write('ready\n')
sys.stdout.flush()
while True:
    time.sleep(3600)
`;
