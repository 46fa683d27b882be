// How a page of `holdwatch ui` reaches the service: one WebSocket at API_PATH that offers two
// subprotocols, API_PROTOCOL (which the server selects) and TOKEN_PROTOCOL_PREFIX + the access token.
// The token is base64url, which a subprotocol may carry as it is. The page finds the token in its
// URL's fragment (`#token=...`), which the browser never sends anywhere.
export const API_PATH = '/api';
export const API_PROTOCOL = 'holdwatch';
export const TOKEN_PROTOCOL_PREFIX = 'holdwatch.token.';
export const TOKEN_FRAGMENT_KEY = 'token';
