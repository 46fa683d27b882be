// One zustand store of typed slices. resetStore() gives tests (and a reconnect) a clean slate.
import { create } from 'zustand';
import { initialState, type HoldwatchState } from './slices.js';

export const useStore = create<HoldwatchState>()(() => initialState());

export function resetStore(): void {
  useStore.setState(initialState(), true);
}
