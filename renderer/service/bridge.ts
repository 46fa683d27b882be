// What Electron's preload exposes (contextBridge): exactly the ServiceTransport, nothing else.
import type { ServiceTransport } from '../../contract/service-client.js';

declare global {
  interface Window {
    /** Present only in the Electron app. */
    holdwatchBridge?: ServiceTransport;
  }
}

export function electronBridge(): ServiceTransport | null {
  return typeof window !== 'undefined' && window.holdwatchBridge ? window.holdwatchBridge : null;
}
