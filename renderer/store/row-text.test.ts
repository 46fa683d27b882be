import { describe, expect, it } from 'vitest';
import { elideMiddle, splitForElision } from './row-text.js';

describe('names that lose their middle, never their end', () => {
  it("split before a file's own name and a test's own name", () => {
    expect(splitForElision('build/logs/app.log')).toEqual({ head: 'build/logs/', tail: 'app.log' });
    expect(splitForElision('tests/test_store.py::TestX::test_append_log')).toEqual({ head: 'tests/test_store.py::TestX::', tail: 'test_append_log' });
    expect(splitForElision('store > opens a log')).toEqual({ head: 'store > ', tail: 'opens a log' });
    expect(splitForElision('session.log')).toEqual({ head: '', tail: 'session.log' });
  });

  it('cut a long label in the middle, keeping its start and its whole end', () => {
    expect(elideMiddle('tests/test_store.py::test_background_indexer', 32)).toBe('tests/te…test_background_indexer');
    expect(elideMiddle('short::name', 32)).toBe('short::name');
    expect(elideMiddle('a::a_test_name_longer_than_the_room', 12)).toBe('…an_the_room');
  });
});
