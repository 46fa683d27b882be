// What `go test`'s two output forms (-json, -v) keep alike: the run's start (once) and end, whether
// any test failed, and each test's first t.Error/t.Fatal line, given as its failure's detail.
import type { TestEvent, TestOutcome } from './events.js';

/** `    hold_test.go:42: message`: what t.Error/t.Fatal prints, kept as the failure's detail. */
const GO_MESSAGE = /^\s+\S+\.go:\d+: /;

export class GoTestRun {
  private started = false;
  private anyFailed = false;
  private readonly details = new Map<string, string>();

  /** The run-start event, the first time only. */
  start(events: TestEvent[], atMs: number): void {
    if (this.started) return;
    this.started = true;
    events.push({ type: 'run-start', name: 'go test', atMs });
  }

  get hasStarted(): boolean {
    return this.started;
  }

  /** An output line of `test`: the first that is a Go test message becomes its detail. */
  output(test: string, text: string): void {
    if (GO_MESSAGE.test(text) && !this.details.has(test)) this.details.set(test, text.trim());
  }

  /** A failure outside any test (a package's own FAIL) still fails the run. */
  failed(): void {
    this.anyFailed = true;
  }

  /** `test` ended: its end event, a failure with its first message as detail. */
  ended(name: string, outcome: TestOutcome, atMs: number): TestEvent {
    if (outcome === 'failed') this.anyFailed = true;
    const event: TestEvent = { type: 'test-end', name, outcome, atMs };
    const detail = this.details.get(name);
    if (outcome === 'failed' && detail) event.detail = detail;
    this.details.delete(name);
    return event;
  }

  /** The run's end (started first if it never was); failed when a test failed or the exit code says so. */
  finish(events: TestEvent[], atMs: number, exitCode?: number | null): void {
    this.start(events, atMs);
    const failed = this.anyFailed || (exitCode !== undefined && exitCode !== null && exitCode !== 0);
    events.push({ type: 'run-end', name: 'go test', outcome: failed ? 'failed' : 'passed', atMs });
  }
}
