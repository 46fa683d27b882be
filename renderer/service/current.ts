// The service the UI speaks to, set once at start-up (IPC bridge, WebSocket or the named demo).
import type { HoldwatchService } from '../../contract/service.js';

let current: HoldwatchService | null = null;

export function setService(service: HoldwatchService | null): void {
  current = service;
}

export function service(): HoldwatchService {
  if (!current) throw new Error('not connected to holdwatch yet');
  return current;
}
