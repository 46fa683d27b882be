// The renderer's only view of the app: contextBridge exposes exactly the ServiceTransport (invoke a
// contract method, listen to the event stream). No ipcRenderer, no Node, nothing else crosses.
// Sandboxed preloads cannot import files, so vite bundles this one (vite.preload.config.ts).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { isServiceMethod, type ServiceTransport } from '../contract/service-client.js';
import { IPC_EVENT_CHANNEL, ipcChannelOf } from '../contract/service.js';

const bridge: ServiceTransport = {
  invoke: (method, request) => {
    if (!isServiceMethod(method)) return Promise.reject(new Error(`unknown method ${String(method)}`));
    return ipcRenderer.invoke(ipcChannelOf(method), request);
  },
  onEvent: (listener) => {
    const handler = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => void ipcRenderer.off(IPC_EVENT_CHANNEL, handler);
  },
};

contextBridge.exposeInMainWorld('holdwatchBridge', bridge);
