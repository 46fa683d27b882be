import { expect, it } from 'vitest';
import { DisposableStore } from './disposable-store.js';

it('releases everything last added first, awaiting each, and only once', async () => {
  const store = new DisposableStore();
  const log: string[] = [];
  store.add({ dispose: () => void log.push('first') });
  store.defer(async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    log.push('second (async)');
  });
  const third = store.add({ dispose: () => void log.push('third') });
  expect(third).toHaveProperty('dispose');
  await Promise.all([store.dispose(), store.dispose()]);
  await store.dispose();
  expect(log).toEqual(['third', 'second (async)', 'first']);
  expect(store.isDisposed).toBe(true);
});

it('keeps releasing past a failing release and throws an AggregateError of every failure at the end', async () => {
  const store = new DisposableStore();
  const released: string[] = [];
  store.defer(() => void released.push('a'));
  store.defer(() => {
    throw new Error('b failed');
  });
  store.defer(() => void released.push('c'));
  store.defer(async () => Promise.reject(new Error('d failed')));
  const failure = await store.dispose().then(
    () => null,
    (error: unknown) => error,
  );
  expect(released).toEqual(['c', 'a']);
  expect(failure).toBeInstanceOf(AggregateError);
  expect((failure as AggregateError).errors.map((e: Error) => e.message)).toEqual(['d failed', 'b failed']);
  expect((failure as AggregateError).message).toBe('2 release(s) failed: d failed; b failed');
});

it('names each labelled release before it runs, so a caller can say where a stop hangs', async () => {
  const stages: string[] = [];
  const store = new DisposableStore({ onReleasing: (label) => stages.push(label) });
  store.defer(() => undefined, 'stopping the scan workers');
  store.defer(() => undefined);
  store.defer(() => undefined, 'closing the journal');
  await store.dispose();
  expect(stages).toEqual(['closing the journal', 'stopping the scan workers']);
});

it('releases at once what is added after dispose began, and reports its failure', async () => {
  const late: unknown[] = [];
  const store = new DisposableStore({ onLateError: (error) => late.push(error) });
  await store.dispose();
  const released: string[] = [];
  store.add({ dispose: () => void released.push('late') });
  store.defer(() => {
    throw new Error('late failure');
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(released).toEqual(['late']);
  expect(late).toEqual([new Error('late failure')]);
});
