import { describe, expect, it } from 'vitest';
import { SERVICE_METHODS } from '../../contract/service.js';
import { DemoService } from './demo-service.js';

describe('DemoService.captureLiveStack', () => {
  it('answers what a real host would, in the contract: gdb-shaped, or a minidump and threads for a Windows dir', async () => {
    const demo = new DemoService(1);
    const linux = await demo.captureLiveStack({ pid: 10_000, startedAtMs: 0 });
    expect(SERVICE_METHODS.captureLiveStack.result.parse(linux)).toMatchObject({ kind: 'stack', tool: 'gdb' });
    await demo.startWatch({ dirs: ['C:\\demo'] });
    const windows = await demo.captureLiveStack({ pid: 10_000, startedAtMs: 0 });
    expect(SERVICE_METHODS.captureLiveStack.result.parse(windows)).toMatchObject({
      kind: 'stack',
      tool: 'minidump',
      dumpPath: expect.stringMatching(/^C:\\.*\.dmp$/),
    });
  });
});
