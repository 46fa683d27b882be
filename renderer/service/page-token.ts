// The access token of `holdwatch ui`, which arrives once in the URL's fragment (`#token=...`). It is
// kept in this tab's sessionStorage, so a reload still connects, and taken out of the address bar, so
// it is in no screenshot and no later copy of the URL.
import { TOKEN_FRAGMENT_KEY } from '../../contract/ui-protocol.js';

const STORAGE_KEY = 'holdwatch.token';

export function takePageToken(location: Location, history: History, storage: Storage): string | null {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const fromUrl = fragment.get(TOKEN_FRAGMENT_KEY);
  if (fromUrl) {
    storage.setItem(STORAGE_KEY, fromUrl);
    history.replaceState(history.state, '', location.pathname + location.search);
    return fromUrl;
  }
  return storage.getItem(STORAGE_KEY);
}
