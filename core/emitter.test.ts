import { expect, it } from 'vitest';
import { Emitter } from './emitter.js';

it("hands a throwing listener's error to the injected handler and still calls the other listeners", () => {
  const errors: unknown[] = [];
  const emitter = new Emitter<[string]>((error) => errors.push(error));
  const heard: string[] = [];
  emitter.on(() => {
    throw new Error('socket closed');
  });
  emitter.on((value) => heard.push(value));
  emitter.emit('appeared');
  expect(heard).toEqual(['appeared']);
  expect(errors).toEqual([new Error('socket closed')]);
});

it('stops calling a listener once it unsubscribes', () => {
  const emitter = new Emitter<[number]>((error) => {
    throw error;
  });
  const heard: number[] = [];
  const off = emitter.on((n) => heard.push(n));
  emitter.emit(1);
  off();
  emitter.emit(2);
  expect(heard).toEqual([1]);
});
