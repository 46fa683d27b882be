// Picks the transport once: Electron's bridge when present, else the WebSocket of `holdwatch ui`;
// `?demo=N` (and only it) swaps in the named demo backend, loaded as its own chunk only then, so the
// app's bundle does not carry it.
import type { HoldwatchService } from '../../contract/service.js';
import { serviceClient } from '../../contract/service-client.js';
import { API_PATH } from '../../contract/ui-protocol.js';
import { useStore } from '../store/store.js';
import { electronBridge } from './bridge.js';
import { takePageToken } from './page-token.js';
import { webSocketTransport } from './ws-transport.js';

export async function connectService(location: Location): Promise<HoldwatchService> {
  const demo = Number(new URLSearchParams(location.search).get('demo'));
  if (demo > 0) {
    const { DemoService } = await import('./demo-service.js');
    useStore.setState((s) => ({ settings: { ...s.settings, connection: 'open' } }));
    return new DemoService(Math.min(demo, 1_000_000));
  }
  const transport =
    electronBridge() ??
    webSocketTransport(
      `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${API_PATH}`,
      takePageToken(location, history, sessionStorage),
      (state, reason) => useStore.setState((s) => ({ settings: { ...s.settings, connection: state, connectionError: reason } })),
    );
  if (electronBridge()) useStore.setState((s) => ({ settings: { ...s.settings, connection: 'open' } }));
  return serviceClient(transport, (error) => console.warn(`holdwatch: ignored a malformed event: ${error.message}`));
}
