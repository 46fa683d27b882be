// Vitest's test/reporters/tests/reporters.spec.ts (MIT, vitest-dev/vitest) at 199776767a10, its JUnit
// tests with a file: each leaves the reporter's report file open (README.md). The report paths go
// under os.tmpdir() where the original used the working directory.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { JUnitReporter } from '../../../packages/vitest/src/node/reporters/junit.js';
import { getContext } from '../src/context.js';
import { files } from '../src/data.js';

test('JUnit reporter', async () => {
  // Arrange
  const reporter = new JUnitReporter();
  const context = getContext();

  // Act
  await reporter.onInit(context.vitest);
  await reporter.onFinished(files);

  // Assert
  expect(context.output).toContain('<testcase classname="test/core/test/basic.test.ts" name="suite &gt; Math.sqrt()"');
});

test('JUnit reporter with outputFile', async () => {
  // Arrange
  const reporter = new JUnitReporter();
  const outputFile = resolve(tmpdir(), 'report.xml');
  const context = getContext();
  context.vitest.config.outputFile = outputFile;

  // Act
  await reporter.onInit(context.vitest);
  await reporter.onFinished(files);

  // Assert
  expect(context.output).toBe(`JUNIT report written to ${outputFile}\n`);
  expect(existsSync(outputFile)).toBe(true);
  expect(readFileSync(outputFile, 'utf8')).toContain('<testsuites name="vitest tests" tests="2"');

  // Cleanup
  rmSync(outputFile);
});

test('JUnit reporter with outputFile in non-existing directory', async () => {
  // Arrange
  const reporter = new JUnitReporter();
  const rootDirectory = resolve(tmpdir(), 'junitReportDirectory');
  const outputFile = `${rootDirectory}/deeply/nested/report.xml`;
  const context = getContext();
  context.vitest.config.outputFile = outputFile;

  // Act
  await reporter.onInit(context.vitest);
  await reporter.onFinished(files);

  // Assert
  expect(existsSync(outputFile)).toBe(true);
  expect(readFileSync(outputFile, 'utf8')).toContain('<skipped/>');

  // Cleanup
  rmSync(rootDirectory, { recursive: true });
});
