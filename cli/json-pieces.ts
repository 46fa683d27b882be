// `JSON.stringify(value)`, in pieces: the long array under `key` goes a few hundred elements at a time.
// A snapshot of thousands of holders is megabytes of text, and made as one string it is built, then
// flattened and encoded as a whole into fresh memory; pieces of a bounded size reuse memory already had.
// The pieces joined are the one string, byte for byte (json-pieces.test.ts).

const ELEMENTS_PER_PIECE = 256;

export function* jsonPieces<T extends object>(value: T, key: keyof T & string, perPiece = ELEMENTS_PER_PIECE): Generator<string> {
  const elements = value[key];
  const text = JSON.stringify({ ...value, [key]: [] });
  // The key with its empty array: only a key can be followed by ':' (a quote inside a string is escaped),
  // so it is found where it stands, unless a value before it holds the same key (then: one piece).
  const marker = `${JSON.stringify(key)}:[]`;
  const at = text.indexOf(marker);
  if (!Array.isArray(elements) || at < 0 || text.lastIndexOf(marker) !== at) {
    yield JSON.stringify(value);
    return;
  }
  const close = at + marker.length - 1;
  yield text.slice(0, close);
  for (let i = 0; i < elements.length; i += perPiece) {
    const inner = JSON.stringify(elements.slice(i, i + perPiece)).slice(1, -1);
    yield i === 0 ? inner : ',' + inner;
  }
  yield text.slice(close);
}
