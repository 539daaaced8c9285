import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * A vitest reporter beside the default one: after the run, the tests that passed only on their retry
 * (CI retries a failed test once: vitest.config.ts), so a flaky test is seen and not forgotten, then the
 * slowest test files (their tests and hooks, plus importing them), so the suite's time is watched as it
 * grows (issue 20: npm test <= 15 min).
 */

const SHOWN = 12;

export default class SlowestFiles implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const flaky = testModules.flatMap((module) =>
      [...module.children.allTests()].filter((test) => test.diagnostic()?.flaky).map((test) => `${relative(process.cwd(), module.moduleId)} > ${test.fullName}`),
    );
    if (flaky.length > 0) {
      console.log(`\nPassed only on their retry (${flaky.length}):`);
      for (const name of flaky) console.log(`  ${name}`);
    }
    const timed = testModules.map((module) => {
      const { duration, collectDuration } = module.diagnostic();
      return { file: relative(process.cwd(), module.moduleId), project: module.project.name, seconds: (duration + collectDuration) / 1000 };
    });
    if (timed.length === 0) return;
    const total = timed.reduce((sum, item) => sum + item.seconds, 0);
    console.log(`\nSlowest test files (of ${timed.length}, ${total.toFixed(0)} s of test time across workers):`);
    for (const item of timed.sort((a, b) => b.seconds - a.seconds).slice(0, SHOWN)) {
      console.log(`  ${item.seconds.toFixed(1).padStart(6)} s  ${item.file}${item.project ? ` (${item.project})` : ''}`);
    }
  }
}
