// Vitest's JUnit reporter, packages/vitest/src/node/reporters/junit.ts (MIT, Copyright (c) 2021-Present
// Anthony Fu and Matias Capeletto) at 199776767a10 (vitest 0.26.3), cut to what writes the report.
// onInit opens the output file with fs.open and keeps the FileHandle only in baseLog's closure: nothing
// closes it (vitest#3331 added `this.fileFd` and `await this.fileFd?.close()` at the end of onFinished).
import { existsSync, promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { getOutputFile } from '../../utils/config-helpers.js';
import { IndentedLogger } from './renderers/indented-logger.js';

/** The part of Vitest (the node-side context) the reporter reads. */
export interface Vitest {
  config: { root: string; outputFile?: string | Partial<Record<string, string>> };
  logger: { log: (text: string) => void };
}

/** The part of a task (file, suite or test) the reporter reads. */
export interface Task {
  name: string;
  type: 'suite' | 'test';
  mode: 'run' | 'skip' | 'todo';
  result?: { state: 'pass' | 'fail'; duration?: number };
  tasks?: Task[];
}

function flattenTasks(task: Task, baseName = ''): Task[] {
  const base = baseName ? `${baseName} > ` : '';

  if (task.type === 'suite') {
    return (task.tasks ?? []).flatMap((child) => flattenTasks(child, `${base}${task.name}`));
  } else {
    return [
      {
        ...task,
        name: `${base}${task.name}`,
      },
    ];
  }
}

function escapeXML(value: unknown): string {
  return String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function executionTime(durationMS: number) {
  return (durationMS / 1000).toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 10 });
}

export function getDuration(task: Task): string | undefined {
  const duration = task.result?.duration ?? 0;
  return executionTime(duration);
}

export class JUnitReporter {
  private ctx!: Vitest;
  private reportFile?: string;
  private baseLog!: (text: string) => Promise<void>;
  private logger!: IndentedLogger<Promise<void>>;
  private _timeStart = new Date();

  async onInit(ctx: Vitest): Promise<void> {
    this.ctx = ctx;

    const outputFile = getOutputFile(this.ctx.config, 'junit');

    if (outputFile) {
      this.reportFile = resolve(this.ctx.config.root, outputFile);

      const outputDirectory = dirname(this.reportFile);
      if (!existsSync(outputDirectory)) await fs.mkdir(outputDirectory, { recursive: true });

      const fileFd = await fs.open(this.reportFile, 'w+');

      this.baseLog = async (text: string) => await fs.writeFile(fileFd, `${text}\n`);
    } else {
      this.baseLog = async (text: string) => this.ctx.logger.log(text);
    }

    this._timeStart = new Date();
    this.logger = new IndentedLogger(this.baseLog);
  }

  async writeElement(name: string, attrs: Record<string, unknown>, children: () => Promise<void>) {
    const pairs = [];
    for (const key in attrs) {
      const attr = attrs[key];
      if (attr === undefined) continue;

      pairs.push(`${key}="${escapeXML(attr)}"`);
    }

    await this.logger.log(`<${name}${pairs.length ? ` ${pairs.join(' ')}` : ''}>`);
    this.logger.indent();
    await children.call(this);
    this.logger.unindent();

    await this.logger.log(`</${name}>`);
  }

  async writeTasks(tasks: Task[], filename: string): Promise<void> {
    for (const task of tasks) {
      await this.writeElement(
        'testcase',
        {
          classname: filename,
          name: task.name,
          time: getDuration(task),
        },
        async () => {
          if (task.mode === 'skip' || task.mode === 'todo') await this.logger.log('<skipped/>');
        },
      );
    }
  }

  async onFinished(files: Task[]) {
    await this.logger.log('<?xml version="1.0" encoding="UTF-8" ?>');

    const transformed = files.map((file) => {
      const tasks = (file.tasks ?? []).flatMap((task) => flattenTasks(task));

      const stats = tasks.reduce(
        (stats, task) => {
          return {
            passed: stats.passed + Number(task.result?.state === 'pass'),
            failures: stats.failures + Number(task.result?.state === 'fail'),
            skipped: stats.skipped + Number(task.mode === 'skip' || task.mode === 'todo'),
          };
        },
        {
          passed: 0,
          failures: 0,
          skipped: 0,
        },
      );

      return {
        ...file,
        tasks,
        stats,
      };
    });

    const stats = transformed.reduce(
      (stats, file) => {
        stats.tests += file.tasks.length;
        stats.failures += file.stats.failures;
        return stats;
      },
      {
        name: process.env.VITEST_JUNIT_SUITE_NAME || 'vitest tests',
        tests: 0,
        failures: 0,
        errors: 0, // we cannot detect those
        time: executionTime(new Date().getTime() - this._timeStart.getTime()),
      },
    );

    await this.writeElement('testsuites', stats, async () => {
      for (const file of transformed) {
        await this.writeElement(
          'testsuite',
          {
            name: file.name,
            timestamp: new Date().toISOString(),
            hostname: hostname(),
            tests: file.tasks.length,
            failures: file.stats.failures,
            errors: 0, // An errored test is one that had an unanticipated problem. We cannot detect those.
            skipped: file.stats.skipped,
            time: getDuration(file),
          },
          async () => {
            await this.writeTasks(file.tasks, file.name);
          },
        );
      }
    });

    if (this.reportFile) this.ctx.logger.log(`JUNIT report written to ${this.reportFile}`);
  }
}
