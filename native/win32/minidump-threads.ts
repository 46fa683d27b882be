// The thread list of one process, from the same SystemProcessInformation buffer the process list
// comes from: on x64 each 0x100-byte SYSTEM_PROCESS_INFORMATION is followed by NumberOfThreads
// 0x50-byte SYSTEM_THREAD_INFORMATION entries (no extra call, no OpenThread per thread).
import type { LiveStackThread } from '../../core/live-stack.js';

const PROCESS_ENTRY_BYTES = 0x100;
const THREAD_ENTRY_BYTES = 0x50;

// KTHREAD_STATE and KWAIT_REASON (wdm.h), the names Process Explorer and WinDbg show.
const THREAD_STATES = [
  'Initialized',
  'Ready',
  'Running',
  'Standby',
  'Terminated',
  'Waiting',
  'Transition',
  'DeferredReady',
  'GateWait',
  'WaitingForProcessInSwap',
];
const WAIT_REASONS = [
  'Executive',
  'FreePage',
  'PageIn',
  'PoolAllocation',
  'DelayExecution',
  'Suspended',
  'UserRequest',
  'WrExecutive',
  'WrFreePage',
  'WrPageIn',
  'WrPoolAllocation',
  'WrDelayExecution',
  'WrSuspended',
  'WrUserRequest',
  'WrEventPair',
  'WrQueue',
  'WrLpcReceive',
  'WrLpcReply',
  'WrVirtualMemory',
  'WrPageOut',
  'WrRendezvous',
  'WrKeyedEvent',
  'WrTerminated',
  'WrProcessInSwap',
  'WrCpuRateControl',
  'WrCalloutStack',
  'WrKernel',
  'WrResource',
  'WrPushLock',
  'WrMutex',
  'WrQuantumEnd',
  'WrDispatchInt',
  'WrPreempted',
  'WrYieldExecution',
  'WrFastMutex',
  'WrGuardedMutex',
  'WrRundown',
  'WrAlertByThreadId',
  'WrDeferredPreempt',
];

/**
 * SYSTEM_THREAD_INFORMATION x64: KernelTime, UserTime, CreateTime (8 each), WaitTime (4, padded),
 * StartAddress @32, ClientId {UniqueProcess @40, UniqueThread @48}, Priority @56, BasePriority @60,
 * ContextSwitches @64, ThreadState @68, WaitReason @72. Null when `pid` is not in the list.
 */
export function parseProcessThreads(buf: Buffer, pid: number, validBytes = buf.length): LiveStackThread[] | null {
  const limit = Math.min(validBytes, buf.length);
  let at = 0;
  while (at + PROCESS_ENTRY_BYTES <= limit) {
    const next = buf.readUInt32LE(at);
    if (Number(buf.readBigUInt64LE(at + 80)) === pid) {
      const count = buf.readUInt32LE(at + 4);
      const threads: LiveStackThread[] = [];
      for (let i = 0; i < count; i++) {
        const t = at + PROCESS_ENTRY_BYTES + i * THREAD_ENTRY_BYTES;
        if (t + THREAD_ENTRY_BYTES > limit) break;
        const state = THREAD_STATES[buf.readUInt32LE(t + 68)] ?? `state ${buf.readUInt32LE(t + 68)}`;
        const reason = buf.readUInt32LE(t + 72);
        const start = buf.readBigUInt64LE(t + 32);
        threads.push({
          id: Number(buf.readBigUInt64LE(t + 48)),
          frames: [],
          state: state === 'Waiting' ? `Waiting:${WAIT_REASONS[reason] ?? reason}` : state,
          // Wine leaves the start address 0; an address of 0 says nothing, so it is left out.
          ...(start === 0n ? {} : { startAddress: `0x${start.toString(16)}` }),
        });
      }
      return threads;
    }
    if (next === 0) break;
    at += next;
  }
  return null;
}
