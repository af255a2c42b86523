// `hookwire test <pipeline.json> <dir-or-file...>`: golden decision tests [P11]. Every trace v1 file (a file
// argument, or each *.jsonl under a directory argument) is replayed through the pipeline and each event's
// `meta.expect` is checked. One line per check, a summary line `N passed, N failed`, exit 1 on any failure.
import { runGoldenTrace } from '../../runtime/goldenTest.ts';
import { CliError, EXIT, type Io } from '../cliIo.ts';
import { walkFiles } from '../walkFiles.ts';
import { compilePipelineFile } from '../loadPipelineFile.ts';
import { readTraceFile } from '../readTraceFile.ts';

/** The test files named by the arguments: files as given, folders searched for *.jsonl. */
export async function testFiles(paths: string[]): Promise<string[]> {
  const out = await walkFiles(paths, (name) => name.endsWith('.jsonl'));
  if (out.length === 0) throw new CliError(`no test files: ${paths.join(', ')} holds no *.jsonl file`);
  return out;
}

export async function testCommand(pipelinePath: string, paths: string[], io: Io): Promise<number> {
  const loaded = await compilePipelineFile(pipelinePath);
  try {
    const files = await testFiles(paths);
    let passed = 0;
    let failed = 0;
    for (const file of files) {
      const r = await readTraceFile(file);
      // A file that is not a trace, or lost lines, fails: a dropped line may hold an expectation.
      const fileProblems = r.problems.filter((p) => p.severity === 'error').map((p) => p.message);
      if (r.status === 'failed' || !r.header) {
        io.out(`FAIL ${file}\n${fileProblems.map((m) => `     ${m}\n`).join('')}`);
        failed++;
        continue;
      }
      const g = runGoldenTrace(loaded.compiled, r.events);
      const problems = [...fileProblems, ...g.problems];
      if (g.checks.length === 0 && g.problems.length === 0) problems.push('no event has meta.expect: this file checks nothing');
      for (const c of g.checks) {
        io.out(`${c.pass ? 'pass' : 'FAIL'} ${file} ${c.event_id} ${c.type} → ${c.actual.decision}\n`);
        for (const f of c.failures) io.out(`     ${f}\n`);
        if (c.pass) passed++;
        else failed++;
      }
      if (problems.length > 0) {
        io.out(`FAIL ${file}\n${problems.map((m) => `     ${m}\n`).join('')}`);
        failed++;
      }
    }
    io.out(`\n${files.length} file${files.length === 1 ? '' : 's'}: ${passed} passed, ${failed} failed\n`);
    return failed === 0 ? EXIT.ok : EXIT.failed;
  } finally {
    loaded.dispose();
  }
}
