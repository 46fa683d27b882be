// Entry: connect to the host (Electron bridge, or `holdwatch ui`'s WebSocket), wire the store, render.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/App.js';
import { connectService } from './service/connect.js';
import { setService } from './service/current.js';
import { followDirsToOpen } from './store/intents.js';
import { wireStore } from './store/wire.js';
import './styles.css';

const service = await connectService(window.location);
setService(service);
wireStore(service);
followDirsToOpen(service);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
