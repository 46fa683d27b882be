// The clock a Linux filesystem stamps file times with (a birth time too): the kernel's coarse clock,
// which advances once a tick (CONFIG_HZ: 1 to 10 ms), so a stamp reads up to one tick before the moment.
// Its tick is clock_getres(CLOCK_REALTIME_COARSE), through koffi; 0 where that cannot be had.
import { loadKoffi } from '../koffi-loader.js';

const CLOCK_REALTIME_COARSE = 5;

let tickMs: number | undefined;

export function coarseClockTickMs(): number {
  if (tickMs !== undefined) return tickMs;
  try {
    const clockGetres = loadKoffi().load('libc.so.6').func('int clock_getres(int clock, _Out_ uint8_t *res)');
    const timespec = Buffer.alloc(16); // { time_t tv_sec; long tv_nsec } on 64-bit Linux
    tickMs = clockGetres(CLOCK_REALTIME_COARSE, timespec) === 0 ? Number(timespec.readBigInt64LE(0)) * 1000 + Number(timespec.readBigInt64LE(8)) / 1e6 : 0;
  } catch {
    tickMs = 0; // no koffi build for this machine: births are taken as exact
  }
  return tickMs;
}
