// Picks the transport once: Electron's bridge when present, else the WebSocket of `holdwatch ui`;
// `?demo=N` (and only it) swaps in the named demo backend.
import type { HoldwatchService } from '../../core/api.js';
import { serviceClient } from '../../core/api-contract.js';
import { useStore } from '../store/store.js';
import { electronBridge } from './bridge.js';
import { DemoService } from './demo-service.js';
import { webSocketTransport } from './ws-transport.js';

export function connectService(location: Location): HoldwatchService {
  const demo = Number(new URLSearchParams(location.search).get('demo'));
  if (demo > 0) {
    useStore.setState((s) => ({ settings: { ...s.settings, connection: 'open' } }));
    return new DemoService(Math.min(demo, 1_000_000));
  }
  const transport =
    electronBridge() ??
    webSocketTransport(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api`, (state, reason) =>
      useStore.setState((s) => ({ settings: { ...s.settings, connection: state, connectionError: reason } })),
    );
  if (electronBridge()) useStore.setState((s) => ({ settings: { ...s.settings, connection: 'open' } }));
  return serviceClient(transport, (error) => console.warn(`holdwatch: ignored a malformed event: ${error.message}`));
}
